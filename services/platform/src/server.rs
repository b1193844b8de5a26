//! Server bootstrap: every gRPC server of the platform is built here, so each one has the same
//! edge: `grpc.health.v1` with a status per service, server reflection, CORS and grpc-web for
//! browsers and mobile apps, request tracing, the auth layer, and graceful shutdown on SIGTERM
//! or ctrl-c.

use std::convert::Infallible;
use std::net::SocketAddr;

use http::{HeaderName, Method};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic::server::NamedService;
use tonic::service::RoutesBuilder;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::auth::AuthLayer;
use crate::telemetry::GrpcTraceLayer;

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
}

/// Assembles a server (see the module docs).
pub struct ServerBuilder {
    routes: RoutesBuilder,
    services: Vec<&'static str>,
    descriptor_sets: Vec<&'static [u8]>,
    auth: AuthLayer,
    cors_origins: Vec<String>,
}

impl std::fmt::Debug for ServerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerBuilder").field("services", &self.services).finish()
    }
}

impl ServerBuilder {
    /// A server whose requests pass `auth`.
    pub fn new(auth: AuthLayer) -> Self {
        ServerBuilder {
            routes: RoutesBuilder::default(),
            services: Vec::new(),
            descriptor_sets: vec![tonic_health::pb::FILE_DESCRIPTOR_SET],
            auth,
            cors_origins: Vec::new(),
        }
    }

    /// Serves `service`; its health status is reported as SERVING once the server listens.
    pub fn add_service<S>(mut self, service: S) -> Self
    where
        S: tower::Service<
                http::Request<tonic::body::Body>,
                Response = http::Response<tonic::body::Body>,
                Error = Infallible,
            > + NamedService
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

    /// Registers an encoded `FileDescriptorSet` for server reflection.
    pub fn reflect(mut self, file_descriptor_set: &'static [u8]) -> Self {
        self.descriptor_sets.push(file_descriptor_set);
        self
    }

    /// Origins browsers may call from; empty (the default) allows any.
    pub fn cors_origins(mut self, origins: Vec<String>) -> Self {
        self.cors_origins = origins;
        self
    }

    fn cors(&self) -> CorsLayer {
        let origin = if self.cors_origins.is_empty() {
            AllowOrigin::mirror_request()
        } else {
            AllowOrigin::list(self.cors_origins.iter().filter_map(|o| o.parse().ok()))
        };
        let header = HeaderName::from_static;
        CorsLayer::new()
            .allow_origin(origin)
            .allow_credentials(true)
            .allow_methods([Method::POST, Method::OPTIONS])
            .allow_headers([
                header("authorization"),
                header("content-type"),
                header("x-grpc-web"),
                header("x-user-agent"),
                header("grpc-timeout"),
                header("traceparent"),
                header("tracestate"),
            ])
            .expose_headers([header("grpc-status"), header("grpc-message"), header("grpc-status-details-bin")])
            .max_age(std::time::Duration::from_secs(24 * 60 * 60))
    }

    /// Binds `addr` (port 0 picks a free port) and serves until [`RunningServer::shutdown`] or
    /// SIGTERM/ctrl-c.
    pub async fn serve(mut self, addr: SocketAddr) -> Result<RunningServer, ServerError> {
        let listener = TcpListener::bind(addr).await.map_err(|source| ServerError::Bind { addr, source })?;
        let local_addr = listener.local_addr().map_err(|source| ServerError::Bind { addr, source })?;

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

        let layers = tower::ServiceBuilder::new()
            .layer(self.cors())
            .layer(tonic_web::GrpcWebLayer::new())
            .layer(GrpcTraceLayer)
            .layer(self.auth.clone());
        let routes = self.routes.routes();
        let (stop, mut stopped) = watch::channel(false);
        let signal = async move {
            tokio::select! {
                _ = stopped.wait_for(|stop| *stop) => {}
                _ = termination() => tracing::info!("shutdown signal received"),
            }
        };
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
        let server = tonic::transport::Server::builder()
            .accept_http1(true)
            .layer(layers)
            .add_routes(routes)
            .serve_with_incoming_shutdown(incoming, signal);
        let services = self.services.clone();
        let reporter = health.clone();
        let task = tokio::spawn(async move {
            let result = server.await;
            for name in &services {
                reporter.set_service_status(name, ServingStatus::NotServing).await;
            }
            result.map_err(ServerError::from)
        });
        tracing::info!(%local_addr, services = ?self.services, "serving");
        Ok(RunningServer { local_addr, stop, task, health })
    }
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
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), ServerError>>,
    health: HealthReporter,
}

impl RunningServer {
    /// The bound address (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// `http://<addr>`, for clients.
    pub fn uri(&self) -> String {
        format!("http://{}", self.local_addr)
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
            Err(e) => Err(ServerError::Reflection(format!("server task failed: {e}"))),
        }
    }
}
