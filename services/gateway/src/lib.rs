#![forbid(unsafe_code)]
//! The edge of the platform for browsers and mobile apps.
//!
//! - [`edge`]: what every public port puts in front of the services: CORS for browsers, grpc-web
//!   (so a web or mobile client can call every RPC without HTTP/2 trailers). The all-in-one
//!   `bridge-club` mounts it on its one port.
//! - [`rate_limit`]: a per-principal budget, after auth, whose counters live in the shared live
//!   store (Redis), so every gateway replica enforces the same budget.
//! - [`screens`]: the web application (`web/dist`) on the same port, for every GET.
//! - [`proxy`]: the stand-alone gateway forwards each call, after auth at the edge, to the service
//!   that owns its package (`bridgeclub.<service>.v1`), with the caller's trace context.

pub mod screens;
pub mod standalone;

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{HeaderName, Method};
use platform::auth::{Principal, Role};
use platform::error::LAW_METADATA_KEY;
use platform::live::SharedLiveStore;
use platform::server::{Edge, GrpcService};
use tonic::body::Body;
use tonic::transport::Channel;
use tower::{Service, ServiceExt};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// How the edge treats clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeOptions {
    /// Origins browsers may call from; empty: any origin (the request's origin is mirrored).
    pub cors_allowed_origins: Vec<String>,
    /// Requests one principal (or, without a token, one client address) may make per minute; 0
    /// disables the limit.
    pub requests_per_minute: u64,
    /// The built screens served beside the services ([`screens`]); `None`: none.
    pub screens_dir: Option<PathBuf>,
}

impl Default for EdgeOptions {
    fn default() -> Self {
        EdgeOptions { cors_allowed_origins: Vec::new(), requests_per_minute: 6000, screens_dir: None }
    }
}

/// CORS as grpc-web clients need it: POST and preflight, the gRPC request headers, and the gRPC
/// status headers exposed to scripts. A browser hides every response header CORS does not
/// expose, so without `grpc-status-details-bin` a web client could not read an error's reason,
/// field or retry delay (docs/errors.md), nor the Law cited in `x-bridge-law`.
pub fn cors(allowed_origins: &[String]) -> CorsLayer {
    let origin = if allowed_origins.is_empty() {
        AllowOrigin::mirror_request()
    } else {
        AllowOrigin::list(allowed_origins.iter().filter_map(|o| o.parse().ok()))
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
        .expose_headers([
            header("grpc-status"),
            header("grpc-message"),
            header("grpc-status-details-bin"),
            header(RETRY_PUSHBACK_KEY),
            header(LAW_METADATA_KEY),
        ])
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// The edge layers (see the crate docs), for [`platform::server::ServerBuilder::edge`]: CORS and
/// grpc-web, outside auth (a preflight carries no token); and outside those the screens, which
/// are public files and need neither.
pub fn edge(options: EdgeOptions) -> Edge {
    Box::new(move |inner: GrpcService| {
        let service = tower::ServiceBuilder::new()
            .layer(cors(&options.cors_allowed_origins))
            .layer(tonic_web::GrpcWebLayer::new())
            .service(inner);
        let service = GrpcService::new(service);
        match options.screens_dir {
            Some(dir) => screens::beside(service, dir),
            None => service,
        }
    })
}

/// The rate limit, for [`platform::server::ServerBuilder::behind_auth`]: `per_minute` requests a
/// minute for each authenticated principal (by token subject), and for each client address
/// only for calls that carry no token (health, reflection). Services calling one another (the
/// service role) are never limited, so a busy client cannot make a call inside the platform
/// fail. The counters live in the shared live store, so every replica enforces one budget.
pub fn rate_limit(per_minute: u64, live: SharedLiveStore) -> Edge {
    Box::new(move |inner: GrpcService| GrpcService::new(RateLimit { inner, live, per_minute }))
}

/// Refuses a caller past its per-minute budget with RESOURCE_EXHAUSTED and the time to wait.
#[derive(Clone)]
struct RateLimit {
    inner: GrpcService,
    live: SharedLiveStore,
    per_minute: u64,
}

/// Whose budget a request is counted against; `None`: not limited.
fn budget_of(request: &http::Request<Body>) -> Option<String> {
    match request.extensions().get::<Principal>() {
        Some(principal) if principal.has(Role::Service) => None,
        Some(principal) => Some(format!("principal:{}", principal.subject)),
        None => {
            let info = request.extensions().get::<tonic::transport::server::TcpConnectInfo>()?;
            info.remote_addr().map(|addr| format!("address:{}", addr.ip()))
        }
    }
}

// The metadata key gRPC clients read for how long to wait before retrying (gRPC's retry design,
// "server pushback"); UNAVAILABLE carries it too, so it is the platform's.
pub use platform::error::RETRY_PUSHBACK_KEY;

impl Service<http::Request<Body>> for RateLimit {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let budget = budget_of(&request).filter(|_| self.per_minute > 0);
        let (live, per_minute) = (self.live.clone(), self.per_minute);
        // The ready inner service goes with this request; a fresh clone waits for the next.
        let inner = self.inner.clone();
        let mut ready = std::mem::replace(&mut self.inner, inner);
        Box::pin(async move {
            if let Some(budget) = budget {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                let window = now.as_secs() / 60;
                match live.increment(&format!("gateway:rate:{{{budget}}}:{window}"), Duration::from_secs(61)).await {
                    Ok(count) if count > per_minute => {
                        let wait_ms = (window + 1) * 60_000 - u64::try_from(now.as_millis()).unwrap_or(u64::MAX);
                        let status = platform::error::rate_limited(
                            format!(
                                "rate limit: more than {per_minute} requests a minute from {budget}; retry in {} s",
                                wait_ms.div_ceil(1000)
                            ),
                            Duration::from_millis(wait_ms),
                        );
                        return Ok(status.into_http());
                    }
                    Ok(_) => {}
                    // The limit protects the services; losing it while Redis reconnects must not
                    // take the club down with it.
                    Err(e) => tracing::warn!(error = %e, "rate limit not enforced"),
                }
            }
            ready.call(request).await
        })
    }
}

/// Where the stand-alone gateway sends each service's calls.
#[derive(Debug, Clone)]
pub struct Upstreams {
    routes: Arc<Vec<(String, Channel)>>,
}

impl Upstreams {
    /// Routes calls to the package `bridgeclub.<service>.v1` to `uri`, for each (service, uri),
    /// over TLS checked as `tls` says where the uri is `https://`.
    /// Several addresses (comma-separated) are one service's replicas, balanced over those that
    /// answer their health checks as serving `health` (a service's full name)
    /// ([`platform::client::service_channel`]).
    pub fn new(
        upstreams: &[(&str, &str, &'static str)],
        tls: &platform::tls::PeerTls,
    ) -> Result<Self, tonic::transport::Error> {
        let routes = upstreams
            .iter()
            .map(|(service, uri, health)| {
                Ok((format!("/bridgeclub.{service}.v1."), platform::client::service_channel(uri, health, tls)?))
            })
            .collect::<Result<Vec<_>, tonic::transport::Error>>()?;
        Ok(Upstreams { routes: Arc::new(routes) })
    }
}

/// Forwards each call to its upstream (see the crate docs); a path no upstream owns is
/// UNIMPLEMENTED, an upstream that cannot be reached is UNAVAILABLE.
pub fn proxy(upstreams: Upstreams) -> GrpcService {
    GrpcService::new(tower::service_fn(move |mut request: http::Request<Body>| {
        let upstreams = upstreams.clone();
        async move {
            let path = request.uri().path().to_owned();
            let Some((_, channel)) = upstreams.routes.iter().find(|(prefix, _)| path.starts_with(prefix.as_str()))
            else {
                return Ok(tonic::Status::unimplemented(format!("no service here serves {path}")).into_http());
            };
            // The gateway's span becomes the parent of the service's.
            let mut metadata = tonic::metadata::MetadataMap::from_headers(std::mem::take(request.headers_mut()));
            platform::telemetry::inject_trace_context(&mut metadata);
            *request.headers_mut() = metadata.into_headers();
            match channel.clone().oneshot(request).await {
                Ok(response) => Ok::<_, Infallible>(response),
                Err(e) => Ok(platform::error::unavailable(format!("{path}: upstream unavailable: {e}")).into_http()),
            }
        }
    }))
}

/// Settings of the stand-alone gateway (the `[gateway]` table).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Requests one principal (or, without a token, one client address) may make per minute; 0
    /// disables the limit.
    pub requests_per_minute: u64,
    /// The built screens (`web/dist`, relative to the working directory) served at `/`; a
    /// directory without `index.html` answers with how to build them.
    pub screens_dir: PathBuf,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { requests_per_minute: EdgeOptions::default().requests_per_minute, screens_dir: default_screens_dir() }
    }
}

/// Where the screens are by default: built in the repository by `npm run build --prefix web`, for
/// a server started at the repository's root as the README says.
pub fn default_screens_dir() -> PathBuf {
    PathBuf::from("web/dist")
}

/// Why the gateway did not start.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// No upstream is configured: the gateway would have nothing to serve.
    #[error("no upstream service configured: set endpoints.<service> (BRIDGE_ENDPOINTS__SCORING=http://...)")]
    NoUpstream,
    /// A channel could not be made.
    #[error("upstream: {0}")]
    Channel(#[from] tonic::transport::Error),
    /// The server did not start.
    #[error(transparent)]
    Server(#[from] platform::server::ServerError),
}

/// Starts the stand-alone gateway on `resources.config.listen`: auth at the edge, CORS, grpc-web
/// and rate limits in front of the upstream services named in `resources.config.endpoints`.
pub async fn start(
    resources: &platform::app::EdgeResources,
    settings: &Settings,
) -> Result<platform::server::RunningServer, GatewayError> {
    let endpoints = &resources.config.endpoints;
    let configured: Vec<(&str, &str, &'static str)> = [
        ("membership", &endpoints.membership, "bridgeclub.membership.v1.MembershipService"),
        // Signing in is membership's too: the same package, so the same route.
        ("membership", &endpoints.membership, "bridgeclub.membership.v1.SignInService"),
        ("game", &endpoints.game, "bridgeclub.game.v1.GameService"),
        ("scoring", &endpoints.scoring, "bridgeclub.scoring.v1.ScoringService"),
        ("appeals", &endpoints.appeals, "bridgeclub.appeals.v1.AppealsService"),
    ]
    .into_iter()
    .filter_map(|(name, uri, service)| uri.as_deref().map(|uri| (name, uri, service)))
    .collect();
    if configured.is_empty() {
        return Err(GatewayError::NoUpstream);
    }
    // One route a package: membership's two services share one (probed as the first).
    let mut routes: Vec<(&str, &str, &'static str)> = configured.clone();
    routes.dedup_by(|next, kept| (next.0, next.1) == (kept.0, kept.1));
    let upstreams = Upstreams::new(&routes, &resources.peer_tls)?;
    let options = EdgeOptions {
        cors_allowed_origins: resources.config.cors_allowed_origins.clone(),
        requests_per_minute: settings.requests_per_minute,
        screens_dir: Some(settings.screens_dir.clone()),
    };
    let mut builder = resources
        .server()
        .fallback(proxy(upstreams))
        .behind_auth(rate_limit(options.requests_per_minute, resources.live.clone()))
        .edge(edge(options));
    for (_, _, service) in &configured {
        builder = builder.report_serving(service);
    }
    Ok(builder.serve(resources.config.listen).await?)
}
