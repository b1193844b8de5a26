//! Server bootstrap: every gRPC server of the platform is built here, so each one has the same
//! core: `grpc.health.v1` with a status per service, server reflection, request tracing, the
//! status contract ([`crate::contract`]), the auth layer, and graceful shutdown on SIGTERM or
//! ctrl-c.
//!
//! What faces browsers and apps (CORS, grpc-web) is the gateway's, added with
//! [`ServerBuilder::edge`], and so is the rate limit, which counts per caller and so runs after
//! auth ([`ServerBuilder::behind_auth`]); a server may also forward what it does not serve itself with
//! [`ServerBuilder::fallback`] (the stand-alone gateway proxies that way).

use std::convert::Infallible;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic::body::Body;
use tonic::server::NamedService;
use tonic::service::{Routes, RoutesBuilder};
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;

use crate::auth::AuthLayer;
use crate::contract::StatusContractLayer;
use crate::telemetry::GrpcTraceLayer;

/// How long a stopping server waits for open calls (watch streams above all) before it drops
/// their connections.
pub const DRAIN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// A whole gRPC server as one service value: what the edge wraps and the fallback forwards to.
pub type GrpcService = BoxCloneSyncService<http::Request<Body>, http::Response<Body>, Infallible>;

/// Wraps the server's service in outer layers (see [`ServerBuilder::edge`]).
pub type Edge = Box<dyn FnOnce(GrpcService) -> GrpcService + Send>;

/// A server that failed to start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The descriptor set for reflection is malformed.
    #[error("reflection: {0}")]
    Reflection(String),
    /// The transport failed while serving.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// The server task ended abnormally.
    #[error("server task: {0}")]
    Task(String),
}

/// Assembles a server (see the module docs).
pub struct ServerBuilder {
    routes: RoutesBuilder,
    services: Vec<&'static str>,
    descriptor_sets: Vec<&'static [u8]>,
    auth: AuthLayer,
    fallback: Option<GrpcService>,
    edge: Option<Edge>,
    behind_auth: Option<Edge>,
    dependencies: Vec<crate::health::Dependency>,
    keepalive: Option<(std::time::Duration, std::time::Duration)>,
    tls: Option<tokio_rustls::TlsAcceptor>,
}

impl std::fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBuilder").field("services", &self.services).finish_non_exhaustive()
    }
}

impl ServerBuilder {
    /// A server whose requests pass `auth`.
    pub fn new(auth: AuthLayer) -> Self {
        ServerBuilder {
            routes: RoutesBuilder::default(),
            services: Vec::new(),
            descriptor_sets: vec![tonic_health::pb::FILE_DESCRIPTOR_SET, api::FILE_DESCRIPTOR_SET],
            auth,
            fallback: None,
            edge: None,
            behind_auth: None,
            dependencies: Vec::new(),
            keepalive: None,
            tls: None,
        }
    }

    /// Speaks TLS only, with `acceptor` ([`crate::tls`]); without it, plaintext.
    pub fn tls(mut self, acceptor: Option<tokio_rustls::TlsAcceptor>) -> Self {
        self.tls = acceptor;
        self
    }

    /// Sends an HTTP/2 PING on each connection every `interval`, closing a connection whose PING
    /// is not answered within `timeout`: a dead client's watch streams end instead of lingering,
    /// and proxies that count PINGs as traffic keep a quiet connection open. `None`: no PINGs.
    pub fn http2_keepalive(mut self, keepalive: Option<(std::time::Duration, std::time::Duration)>) -> Self {
        self.keepalive = keepalive;
        self
    }

    /// Serves `service`; its health status is reported as SERVING once the server listens.
    pub fn add_service<S>(mut self, service: S) -> Self
    where
        S: tower::Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
            + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
    {
        self.services.push(S::NAME);
        self.routes.add_service(service);
        self
    }

    /// Reports `name` as SERVING too: a service this server answers through its fallback.
    pub fn report_serving(mut self, name: &'static str) -> Self {
        self.services.push(name);
        self
    }

    /// Registers an encoded `FileDescriptorSet` for server reflection (the contract's and
    /// health's are always registered).
    pub fn reflect(mut self, file_descriptor_set: &'static [u8]) -> Self {
        self.descriptor_sets.push(file_descriptor_set);
        self
    }

    /// Sends every request for a path no service here serves to `fallback` (after auth).
    pub fn fallback(mut self, fallback: GrpcService) -> Self {
        self.fallback = Some(fallback);
        self
    }

    /// Wraps the whole server (after tracing and auth) in `edge`: CORS and grpc-web.
    pub fn edge(mut self, edge: Edge) -> Self {
        self.edge = Some(edge);
        self
    }

    /// Wraps the routes in `layer`, inside auth: what must know who the caller is, such as the
    /// gateway's per-principal rate limit (the [`crate::auth::Principal`] is in the request's
    /// extensions; calls to the open paths, health and reflection, carry none).
    pub fn behind_auth(mut self, layer: Edge) -> Self {
        self.behind_auth = Some(layer);
        self
    }

    /// Reports every service NOT_SERVING while `dependency` is away, and SERVING again once it
    /// is back (see [`crate::health`]).
    pub fn depends_on(mut self, dependency: crate::health::Dependency) -> Self {
        self.dependencies.push(dependency);
        self
    }

    /// Binds `addr` (port 0 picks a free port) and serves until [`RunningServer::shutdown`] or
    /// SIGTERM/ctrl-c.
    pub async fn serve(self, addr: SocketAddr) -> Result<RunningServer, ServerError> {
        self.serve_on(bind(addr).await?).await
    }

    /// Serves on a listener bound earlier with [`bind`] (so that services could be told the
    /// address before the server was assembled).
    pub async fn serve_on(mut self, listener: TcpListener) -> Result<RunningServer, ServerError> {
        let local_addr = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { addr: SocketAddr::from(([0, 0, 0, 0], 0)), source })?;

        let (health, health_service) = tonic_health::server::health_reporter();
        let mut reflection_v1 = tonic_reflection::server::Builder::configure();
        let mut reflection_v1alpha = tonic_reflection::server::Builder::configure();
        for set in &self.descriptor_sets {
            reflection_v1 = reflection_v1.register_encoded_file_descriptor_set(set);
            reflection_v1alpha = reflection_v1alpha.register_encoded_file_descriptor_set(set);
        }
        let reflection_v1 = reflection_v1.build_v1().map_err(|e| ServerError::Reflection(e.to_string()))?;
        let reflection_v1alpha =
            reflection_v1alpha.build_v1alpha().map_err(|e| ServerError::Reflection(e.to_string()))?;
        self.routes.add_service(health_service).add_service(reflection_v1).add_service(reflection_v1alpha);
        for name in &self.services {
            health.set_service_status(name, ServingStatus::Serving).await;
        }

        let mut router = self.routes.routes().into_axum_router();
        if let Some(fallback) = self.fallback.take() {
            router = router.fallback_service(
                fallback.map_request(|request: http::Request<axum::body::Body>| request.map(Body::new)),
            );
        }
        let mut routes = GrpcService::new(Routes::from(router).prepare());
        if let Some(layer) = self.behind_auth.take() {
            routes = layer(routes);
        }
        let core = tower::ServiceBuilder::new()
            .layer(GrpcTraceLayer)
            .layer(StatusContractLayer)
            .layer(self.auth.clone())
            .service(routes);
        let mut service = GrpcService::new(core);
        if let Some(edge) = self.edge.take() {
            service = edge(service);
        }

        let (stop, mut stopped) = watch::channel(false);
        let (draining, mut drain_started) = watch::channel(false);
        let signal = async move {
            tokio::select! {
                _ = stopped.wait_for(|stop| *stop) => {}
                _ = termination() => tracing::info!("shutdown signal received"),
            }
            let _ = draining.send(true);
        };
        let builder = tonic::transport::Server::builder()
            .accept_http1(true)
            .http2_keepalive_interval(self.keepalive.map(|(interval, _)| interval))
            .http2_keepalive_timeout(self.keepalive.map(|(_, timeout)| timeout));
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        let server: futures::future::BoxFuture<'static, Result<(), tonic::transport::Error>> = match self.tls.take() {
            Some(acceptor) => Box::pin(builder.serve_with_incoming_shutdown(
                service,
                crate::tls::incoming(listener, acceptor),
                signal,
            )),
            None => {
                // Responses are several small writes (headers, data, trailers); without
                // TCP_NODELAY, Nagle's algorithm holds the later ones until the client's delayed
                // ACK (~40 ms a request).
                let incoming =
                    tokio_stream::StreamExt::map(tokio_stream::wrappers::TcpListenerStream::new(listener), |stream| {
                        if let Ok(stream) = &stream {
                            let _ = stream.set_nodelay(true);
                        }
                        stream
                    });
                Box::pin(builder.serve_with_incoming_shutdown(service, incoming, signal))
            }
        };
        let services = self.services.clone();
        let reporter = health.clone();
        let following = crate::health::follow(std::mem::take(&mut self.dependencies), health.clone(), services.clone());
        let task = tokio::spawn(async move {
            // Graceful shutdown lets in-flight calls finish, but a watch stream never finishes on
            // its own: after the grace period the remaining connections are dropped, and clients
            // resume their streams elsewhere from the last sequence they saw.
            let deadline = async move {
                let _ = drain_started.wait_for(|draining| *draining).await;
                tokio::time::sleep(DRAIN_GRACE).await;
                tracing::info!(grace = ?DRAIN_GRACE, "closing the connections still open after the grace period");
            };
            let result = tokio::select! {
                result = server => result,
                () = deadline => Ok(()),
            };
            if let Some(following) = following {
                following.abort();
            }
            for name in &services {
                reporter.set_service_status(name, ServingStatus::NotServing).await;
            }
            result.map_err(ServerError::from)
        });
        tracing::info!(%local_addr, scheme, services = ?self.services, "serving");
        Ok(RunningServer { local_addr, scheme, stop, task, health })
    }
}

/// Binds `addr` (port 0 picks a free port); see [`ServerBuilder::serve_on`].
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, ServerError> {
    TcpListener::bind(addr).await.map_err(|source| ServerError::Bind { addr, source })
}

/// Resolves on SIGTERM (Kubernetes) or ctrl-c.
async fn termination() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// A server that is listening.
#[derive(Debug)]
pub struct RunningServer {
    local_addr: SocketAddr,
    scheme: &'static str,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), ServerError>>,
    health: HealthReporter,
}

impl RunningServer {
    /// The bound address (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// `http://<addr>`, or `https://<addr>` over TLS, for clients.
    pub fn uri(&self) -> String {
        format!("{}://{}", self.scheme, self.local_addr)
    }

    /// The health reporter, to mark a service NOT_SERVING (for example while its database is down).
    pub fn health(&self) -> &HealthReporter {
        &self.health
    }

    /// Stops accepting, finishes in-flight requests, and waits for the server to end.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        let _ = self.stop.send(true);
        self.wait().await
    }

    /// Waits until the server ends (after a signal, or a transport failure).
    pub async fn wait(self) -> Result<(), ServerError> {
        match self.task.await {
            Ok(result) => result,
            Err(e) => Err(ServerError::Task(e.to_string())),
        }
    }
}
