//! A stand-in for a club's identity provider in tests: its JWKS served over HTTP/1.1 on a
//! loopback port, one answer a connection. The keys served can change while it runs (a provider
//! rotating its keys), and fetches are counted (how often the platform asked). Used by this
//! crate's unit tests and, through the `test-support` feature, by the end-to-end tests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// See the module docs. Clones share the keys and the count.
#[derive(Clone, Default)]
pub struct JwksServer {
    keys: Arc<Mutex<Vec<Jwk>>>,
    fetches: Arc<AtomicUsize>,
}

impl JwksServer {
    /// Serves `keys` on a free loopback port; returns the server and its JWKS URL.
    pub async fn start(keys: Vec<Jwk>) -> (Self, String) {
        let server = JwksServer::default();
        *server.keys.lock().unwrap_or_else(|e| e.into_inner()) = keys;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let url = format!("http://{}/jwks.json", listener.local_addr().expect("a bound address"));
        server.serve(listener);
        (server, url)
    }

    /// Answers every connection on `listener` with the keys published then, until the runtime
    /// ends (a test that needs the address before serving binds the listener itself).
    pub fn serve(&self, listener: tokio::net::TcpListener) {
        let serving = self.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                serving.fetches.fetch_add(1, Ordering::SeqCst);
                let keys = serving.keys.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let body = serde_json::to_string(&JwkSet { keys }).unwrap_or_default();
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
            }
        });
    }

    /// Publishes one more key.
    pub fn publish(&self, jwk: Jwk) {
        self.keys.lock().unwrap_or_else(|e| e.into_inner()).push(jwk);
    }

    /// How many times the JWKS was fetched.
    pub fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}
