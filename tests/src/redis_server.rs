//! A Redis server of a test's own, on a free port, for tests that cut its connections, stop it or
//! start it again: the shared Redis at [`crate::redis_url`] is never touched that way. It is
//! stopped (and its files removed) when the value is dropped.

use std::path::PathBuf;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

/// Where the Redis server binary is (`BRIDGE_TEST_REDIS_SERVER` overrides).
fn binary() -> String {
    std::env::var("BRIDGE_TEST_REDIS_SERVER").unwrap_or_else(|_| "/usr/bin/redis-server".to_owned())
}

/// A running `redis-server` of this test's own.
#[derive(Debug)]
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
    /// Whether it keeps its data across a stop (see [`RedisServer::start_persistent`]).
    persistent: bool,
}

impl RedisServer {
    /// Starts a server on a free loopback port, once it accepts connections.
    pub async fn start() -> RedisServer {
        Self::start_keeping(false).await
    }

    /// As [`RedisServer::start`], but the server keeps its data across a stop (an append-only
    /// file synced at every write), as a Redis with persistence comes back after a crash: with
    /// what it held then, which the durable record may have moved past meanwhile.
    pub async fn start_persistent() -> RedisServer {
        Self::start_keeping(true).await
    }

    async fn start_keeping(persistent: bool) -> RedisServer {
        let port = {
            let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| panic!("free port: {e}"));
            listener.local_addr().unwrap_or_else(|e| panic!("free port: {e}")).port()
        };
        let dir = std::env::temp_dir().join(format!("bc_redis_{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut server = RedisServer { child: None, port, dir, persistent };
        server.restart().await;
        server
    }

    /// Starts the server again on the same port (after [`RedisServer::stop`]), empty (unless it is
    /// persistent), as a Redis that crashed and came back would be; returns once it accepts
    /// connections.
    pub async fn restart(&mut self) {
        assert!(self.child.is_none(), "the test's Redis is running already");
        let mut child = Command::new(binary())
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string(), "--save", ""])
            .args(["--appendonly", if self.persistent { "yes" } else { "no" }, "--appendfsync", "always"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {} for the test (install redis-server): {e}", binary()));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("redis-server's output"));
        let mut lines = BufReader::new(stdout).lines();
        // The server says when it listens; until then a connection would be refused.
        loop {
            match lines.next_line().await {
                Ok(Some(line)) if line.contains("Ready to accept connections") => break,
                Ok(Some(_)) => {}
                other => panic!("the test's Redis on port {} stopped before it listened: {other:?}", self.port),
            }
        }
        // Keep reading, so that the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.child = Some(child);
    }

    /// Stops the server (SIGKILL: unless it is persistent, its data is lost) and waits until it
    /// has exited.
    pub async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill().await;
        }
    }

    /// `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Closes every pub/sub connection (`CLIENT KILL TYPE pubsub`), as a Redis failover or a
    /// proxy dropping idle connections does; returns how many were closed.
    pub async fn kill_pubsub_clients(&self) -> u64 {
        let reply = self
            .command(&["CLIENT", "KILL", "TYPE", "pubsub"])
            .await
            .unwrap_or_else(|e| panic!("CLIENT KILL TYPE pubsub: {e}"));
        reply.strip_prefix(':').and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("CLIENT KILL answered {reply}"))
    }

    /// Forgets every script Redis has loaded (`SCRIPT FLUSH`), as a restart without persistence
    /// or an operator does.
    pub async fn flush_scripts(&self) {
        let reply = self.command(&["SCRIPT", "FLUSH"]).await.unwrap_or_else(|e| panic!("SCRIPT FLUSH: {e}"));
        assert_eq!(reply, "+OK", "SCRIPT FLUSH answered {reply}");
    }

    /// Sends one command and returns the first line of the reply (enough for the simple and
    /// integer replies used here), without a client library.
    async fn command(&self, args: &[&str]) -> std::io::Result<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await?;
        let mut request = format!("*{}\r\n", args.len());
        for arg in args {
            request.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
        }
        stream.write_all(request.as_bytes()).await?;
        let mut reply = Vec::new();
        let mut byte = [0u8; 1];
        while !reply.ends_with(b"\r\n") {
            if stream.read(&mut byte).await? == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no reply"));
            }
            reply.push(byte[0]);
        }
        reply.truncate(reply.len() - 2);
        Ok(String::from_utf8_lossy(&reply).into_owned())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.start_kill();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
