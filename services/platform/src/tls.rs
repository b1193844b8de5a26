//! TLS on every port a service listens on, and on every call it makes to another service.
//!
//! - **Serving.** With `[tls] cert_file` and `key_file` set, a server speaks TLS only (rustls,
//!   ALPN `h2` for gRPC and `http/1.1` for grpc-web). The certificate is read from the files at
//!   start and again whenever either file changes ([`ServerCertificate::follow`]): a renewed
//!   certificate (cert-manager rewrites the mounted secret) is taken without a restart, by new
//!   connections, while open ones keep theirs. A file that changes into something unreadable is
//!   logged and the certificate in use is kept. Each handshake runs in a task of its own under
//!   [`HANDSHAKE_TIMEOUT`], so a slow or silent client never holds up the next.
//! - **Calling.** A peer named `https://...` is called over TLS, its certificate checked against
//!   `ca_file` (the deployment's own CA) or, without one, the web's public roots; `server_name`
//!   is the name checked when it is not the address's host (the all-in-one process calling itself
//!   on its bound address).
//!
//! The embedded default sets none of this: plaintext on loopback.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use crate::config::TlsConfig;

/// How long a client may take to finish its TLS handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A certificate or key that could not be used; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("tls: {path}: {message}")]
pub struct TlsError {
    /// The file at fault (or the setting, when no file is).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

fn error(path: &Path, message: impl std::fmt::Display) -> TlsError {
    TlsError { path: path.display().to_string(), message: message.to_string() }
}

/// The certificate a server presents, reloaded when its files change (see the module docs).
pub struct ServerCertificate {
    current: ArcSwap<CertifiedKey>,
    cert_file: PathBuf,
    key_file: PathBuf,
    /// The files' modification times when last read.
    read_at: Mutex<(Option<SystemTime>, Option<SystemTime>)>,
}

impl std::fmt::Debug for ServerCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerCertificate").field("cert_file", &self.cert_file).finish_non_exhaustive()
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl ServerCertificate {
    /// Reads the PEM certificate chain in `cert_file` and the PEM private key in `key_file`,
    /// which must be its key.
    pub fn load(cert_file: &Path, key_file: &Path) -> Result<Arc<ServerCertificate>, TlsError> {
        let read_at = (modified(cert_file), modified(key_file));
        Ok(Arc::new(ServerCertificate {
            current: ArcSwap::from_pointee(read(cert_file, key_file)?),
            cert_file: cert_file.to_owned(),
            key_file: key_file.to_owned(),
            read_at: Mutex::new(read_at),
        }))
    }

    /// Reads the files again if either changed since they were last read: `Ok(true)` when a new
    /// certificate is now presented. On an error the certificate in use is kept.
    pub fn reload_if_changed(&self) -> Result<bool, TlsError> {
        let now = (modified(&self.cert_file), modified(&self.key_file));
        let mut read_at = self.read_at.lock().unwrap_or_else(|e| e.into_inner());
        if *read_at == now {
            return Ok(false);
        }
        // Noted before reading, so a broken file is reported once, not at every look.
        *read_at = now;
        self.current.store(Arc::new(read(&self.cert_file, &self.key_file)?));
        Ok(true)
    }

    /// Looks at the files every `every` while the certificate is in use.
    pub fn follow(self: &Arc<Self>, every: Duration) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(certificate) = weak.upgrade() else { return };
                match certificate.reload_if_changed() {
                    Ok(true) => tracing::info!(file = %certificate.cert_file.display(), "TLS certificate reloaded"),
                    Ok(false) => {}
                    Err(e) => tracing::error!(error = %e, "TLS certificate not reloaded; the one in use is kept"),
                }
            }
        });
    }

    /// The acceptor that presents this certificate.
    pub fn acceptor(self: &Arc<Self>) -> Result<TlsAcceptor, TlsError> {
        let provider = Arc::new(provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| error(&self.cert_file, e))?
            .with_no_client_auth()
            .with_cert_resolver(self.clone());
        // gRPC needs HTTP/2; grpc-web from a browser may come over HTTP/1.1.
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

impl ResolvesServerCert for ServerCertificate {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.load_full())
    }
}

/// rustls with ring: the one cryptography every crate in the tree (the HTTPS client, Postgres,
/// Redis) already builds. rustls deprecates ring's provider for lacking post-quantum key
/// exchange, which its aws-lc-rs provider has; that one would add a C and CMake build to every
/// build of the platform, so we keep ring until post-quantum exchange is asked for.
#[allow(deprecated, reason = "see above: ring is chosen on purpose")]
fn provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

fn read(cert_file: &Path, key_file: &Path) -> Result<CertifiedKey, TlsError> {
    let chain = CertificateDer::pem_file_iter(cert_file)
        .map_err(|e| error(cert_file, e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| error(cert_file, e))?;
    if chain.is_empty() {
        return Err(error(cert_file, "no PEM certificate in the file"));
    }
    let key = PrivateKeyDer::from_pem_file(key_file).map_err(|e| error(key_file, e))?;
    let key = provider().key_provider.load_private_key(key).map_err(|e| error(key_file, e))?;
    let certified = CertifiedKey::new(chain, key);
    certified.keys_match().map_err(|e| error(key_file, format!("not the key of {}: {e}", cert_file.display())))?;
    Ok(certified)
}

/// The server certificate `config` names, following its files, or `None` for plaintext.
pub fn server_certificate(config: &TlsConfig) -> Result<Option<Arc<ServerCertificate>>, TlsError> {
    match (&config.cert_file, &config.key_file) {
        (Some(cert), Some(key)) => {
            let certificate = ServerCertificate::load(cert, key)?;
            if tokio::runtime::Handle::try_current().is_ok() {
                certificate.follow(Duration::from_millis(config.reload_interval_ms.max(100)));
            }
            Ok(Some(certificate))
        }
        (None, None) => Ok(None),
        (Some(path), None) | (None, Some(path)) => {
            Err(error(path, "tls.cert_file and tls.key_file go together: set both, or neither for plaintext"))
        }
    }
}

/// The TLS connections accepted on `listener` (see the module docs): handshakes that fail or
/// time out are logged and dropped; an error accepting a socket ends nothing but that socket.
pub fn incoming(
    listener: TcpListener,
    acceptor: TlsAcceptor,
) -> tokio_stream::wrappers::ReceiverStream<Result<TlsStream<TcpStream>, std::io::Error>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(64);
    tokio::spawn(async move {
        loop {
            let (socket, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        tracing::debug!(error = %e, "accepting a connection failed");
                        continue;
                    }
                },
                () = sender.closed() => return,
            };
            // Responses are several small writes; see the plaintext path in `server`.
            let _ = socket.set_nodelay(true);
            let (acceptor, sender) = (acceptor.clone(), sender.clone());
            tokio::spawn(async move {
                match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(socket)).await {
                    Ok(Ok(stream)) => {
                        let _ = sender.send(Ok(stream)).await;
                    }
                    Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
                    Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                }
            });
        }
    });
    tokio_stream::wrappers::ReceiverStream::new(receiver)
}

/// How this process checks the certificates of the services it calls (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct PeerTls {
    config: Option<tonic::transport::ClientTlsConfig>,
    /// `[tls] server_name`, the name every peer's certificate is checked against, if set.
    server_name: Option<String>,
}

impl PeerTls {
    /// From `[tls]`: the CA file and server name, if set.
    pub fn from_config(config: &TlsConfig) -> Result<PeerTls, TlsError> {
        let mut tls = tonic::transport::ClientTlsConfig::new();
        match &config.ca_file {
            Some(path) => {
                let pem = std::fs::read(path).map_err(|e| error(path, e))?;
                if CertificateDer::pem_slice_iter(&pem).next().is_none() {
                    return Err(error(path, "no PEM certificate in the file"));
                }
                tls = tls.ca_certificate(tonic::transport::Certificate::from_pem(pem));
            }
            None => tls = tls.with_webpki_roots(),
        }
        if let Some(name) = &config.server_name {
            tls = tls.domain_name(name.clone());
        }
        Ok(PeerTls { config: Some(tls), server_name: config.server_name.clone() })
    }

    /// The TLS settings for a call to `uri`: `None` for `http://`.
    pub fn for_uri(&self, uri: &str) -> Option<tonic::transport::ClientTlsConfig> {
        uri.starts_with("https://").then(|| {
            self.config.clone().unwrap_or_else(|| tonic::transport::ClientTlsConfig::new().with_webpki_roots())
        })
    }

    /// The TLS settings for a call to `uri`, an address found by looking up `host`: its
    /// certificate is checked against `host` (or `[tls] server_name`, if set), not the address.
    pub fn for_address_of(&self, host: &str, uri: &str) -> Option<tonic::transport::ClientTlsConfig> {
        let name = self.server_name.clone().unwrap_or_else(|| host.to_owned());
        self.for_uri(uri).map(|tls| tls.domain_name(name))
    }
}
