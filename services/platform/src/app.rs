//! What a service process needs at start-up, built the same way for every service: the
//! database (migrated, or checked to need no migration), the live store, the token verifier (and
//! locally, the issuer), and the token it presents to its peers. The stand-alone gateway, which
//! keeps no records, gets [`EdgeResources`]: the same without the database.

use std::sync::Arc;
use std::time::Duration;

use crate::auth::{AuthLayer, Role, TokenIssuer, TokenVerifier, load_or_create_local_secret, service_subject};
use crate::client::ClientInterceptor;
use crate::config::PlatformConfig;
use crate::db::Db;
use crate::live::{MemoryStore, RedisStore, SharedLiveStore};
use crate::revocation::Revocations;
use crate::server::ServerBuilder;
use crate::tls::PeerTls;

/// A start-up failure; the message says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be reached or migrated.
    #[error("database {url}: {source}")]
    Database {
        /// The URL, without credentials.
        url: String,
        /// Why.
        source: sea_orm::DbErr,
    },
    /// The database's schema is older than this build's and the service was told not to migrate
    /// it (`database.migrate_on_start` off).
    #[error(
        "database {url}: {count} migration(s) of this build not applied (first: {first}); run `bridgectl migrate` \
         (in Kubernetes, the chart's migration Job does) or set database.migrate_on_start \
         (BRIDGE_DATABASE__MIGRATE_ON_START=true)",
        count = pending.len(),
        first = pending.first().map(String::as_str).unwrap_or("-")
    )]
    SchemaBehind {
        /// The URL, without credentials.
        url: String,
        /// The migrations not applied, by name.
        pending: Vec<String>,
    },
    /// A TLS certificate, key or CA could not be used.
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsError),
    /// Redis could not be reached.
    #[error(transparent)]
    Live(#[from] crate::live::LiveError),
    /// A key could not be read or created.
    #[error(transparent)]
    Auth(#[from] crate::auth::AuthError),
    /// A service could not start: its settings are invalid, or its start-up work failed.
    #[error("{service}: {message}")]
    Service {
        /// The service.
        service: &'static str,
        /// What went wrong, naming the setting at fault.
        message: String,
    },
}

/// The shared resources of one service process.
#[derive(Clone)]
pub struct Resources {
    /// The configuration it was built from.
    pub config: PlatformConfig,
    /// The durable store, migrated, failing fast while it is away.
    pub db: Db,
    /// The live store: Redis, or in-process for the embedded default.
    pub live: SharedLiveStore,
    /// Checks callers' tokens.
    pub verifier: TokenVerifier,
    /// Signs tokens: with a local key, or in production with the RS256 private key where it is
    /// configured (only for the service that signs people in; the others hold only the public key).
    pub issuer: Option<TokenIssuer>,
    /// The sessions ended early, refused by this process's auth layer; followed from the database.
    pub revocations: Revocations,
    /// What this process presents when it calls another service.
    pub peer_interceptor: ClientInterceptor,
    /// Its port's TLS (presenting a certificate that follows its files), when it speaks TLS.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    /// How it checks the certificates of the services it calls.
    pub peer_tls: PeerTls,
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resources").field("config", &self.config).finish_non_exhaustive()
    }
}

/// Removes the password from a URL before it is printed.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

impl Resources {
    /// Connects the database (migrating it, or checking that it needs no migration, as
    /// `database.migrate_on_start` says), connects the live store, and loads the keys, as `config`
    /// says. `service` names the process in its peer token (`service:<name>`).
    pub async fn start(config: &PlatformConfig, service: &str) -> Result<Resources, StartError> {
        let url = config.effective_database_url();
        let database = |source| StartError::Database { url: redact(&url), source };
        let db = crate::db::connect_with(&url, &config.database).await.map_err(database)?;
        if config.database.migrate_on_start {
            crate::db::migrate(&db).await.map_err(database)?;
        } else {
            let pending = crate::db::pending_migrations(&db).await.map_err(database)?;
            if !pending.is_empty() {
                return Err(StartError::SchemaBehind { url: redact(&url), pending });
            }
        }
        Self::with(config, service, db, connect_live(config).await?)
    }

    /// Builds the resources around an existing database and live store (tests share them).
    pub fn with(
        config: &PlatformConfig,
        service: &str,
        db: impl Into<Db>,
        live: SharedLiveStore,
    ) -> Result<Resources, StartError> {
        let db = db.into();
        let (verifier, issuer) = keys(config)?;
        let mut resources = Resources {
            config: config.clone(),
            db,
            live,
            verifier,
            issuer,
            revocations: Revocations::default(),
            peer_interceptor: ClientInterceptor::default(),
            tls: tls_acceptor(config)?,
            peer_tls: PeerTls::from_config(&config.tls)?,
        };
        // Outside a runtime (tools that only read the configuration) there is nothing to protect.
        if tokio::runtime::Handle::try_current().is_ok() {
            let every = Duration::from_millis(config.auth.revocation_poll_ms.max(10));
            resources.revocations.follow(resources.db.clone(), every);
        }
        resources.peer_interceptor = resources.peer_interceptor_for(service)?;
        Ok(resources)
    }

    /// What service `service` of this process presents when it calls another: see
    /// [`peer_interceptor`]. The all-in-one process gives each of its services its own, so that a
    /// peer can tell them apart.
    pub fn peer_interceptor_for(&self, service: &str) -> Result<ClientInterceptor, StartError> {
        peer_interceptor(&self.config, self.issuer.as_ref(), service)
    }

    /// A server builder with this process's token verifier, ended sessions, the contract's per-RPC
    /// roles, the configured HTTP/2 keep-alives and TLS.
    pub fn server(&self) -> ServerBuilder {
        ServerBuilder::new(
            AuthLayer::new(self.verifier.clone(), crate::auth::contract_policy())
                .with_revocations(self.revocations.clone()),
        )
        .http2_keepalive(self.config.streams.http2_keepalive())
        .depends_on(self.db.dependency())
        .tls(self.tls.clone())
    }
}

/// What the stand-alone gateway needs, which keeps no records: the live store (its rate limits),
/// the token verifier (auth at the edge) and its own peer token. It is given no database: the
/// services behind it refuse a session ended early (they follow the ended sessions in the
/// database), so the gateway need not, and a compromised gateway holds no credentials to the
/// records.
#[derive(Clone)]
pub struct EdgeResources {
    /// The configuration it was built from.
    pub config: PlatformConfig,
    /// The live store: Redis, so that every gateway replica enforces the same budgets.
    pub live: SharedLiveStore,
    /// Checks callers' tokens.
    pub verifier: TokenVerifier,
    /// What the gateway presents when it calls a service of its own accord (health checks).
    pub peer_interceptor: ClientInterceptor,
    /// The public port's TLS, when it speaks TLS.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    /// How it checks the certificates of the services it forwards to.
    pub peer_tls: PeerTls,
}

impl std::fmt::Debug for EdgeResources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EdgeResources").field("config", &self.config).finish_non_exhaustive()
    }
}

impl EdgeResources {
    /// Connects the live store and loads the keys, as `config` says; touches no database.
    pub async fn start(config: &PlatformConfig, service: &str) -> Result<EdgeResources, StartError> {
        Self::with(config, service, connect_live(config).await?)
    }

    /// Builds the edge's resources around an existing live store (tests share one).
    pub fn with(config: &PlatformConfig, service: &str, live: SharedLiveStore) -> Result<EdgeResources, StartError> {
        let (verifier, issuer) = keys(config)?;
        let peer_interceptor = peer_interceptor(config, issuer.as_ref(), service)?;
        Ok(EdgeResources {
            config: config.clone(),
            live,
            verifier,
            peer_interceptor,
            tls: tls_acceptor(config)?,
            peer_tls: PeerTls::from_config(&config.tls)?,
        })
    }

    /// A server builder with the edge's token verifier, the contract's per-RPC roles, the
    /// configured HTTP/2 keep-alives and TLS.
    pub fn server(&self) -> ServerBuilder {
        ServerBuilder::new(AuthLayer::new(self.verifier.clone(), crate::auth::contract_policy()))
            .http2_keepalive(self.config.streams.http2_keepalive())
            .tls(self.tls.clone())
    }
}

/// The TLS acceptor of `config`'s certificate (which then follows its files), or `None` for
/// plaintext.
fn tls_acceptor(config: &PlatformConfig) -> Result<Option<tokio_rustls::TlsAcceptor>, StartError> {
    Ok(crate::tls::server_certificate(&config.tls)?.map(|certificate| certificate.acceptor()).transpose()?)
}

/// Redis where `config` names it, otherwise the in-process store (one process only).
async fn connect_live(config: &PlatformConfig) -> Result<SharedLiveStore, StartError> {
    Ok(match &config.redis_url {
        Some(url) => Arc::new(RedisStore::connect_with(url, &config.redis_prefix, &config.redis).await?),
        None => Arc::new(MemoryStore::new()),
    })
}

/// A PEM key file's bytes; a failure names the file.
fn read_key(path: &std::path::Path) -> Result<Vec<u8>, crate::auth::AuthError> {
    std::fs::read(path).map_err(|e| crate::auth::AuthError::Key(format!("{}: {e}", path.display())))
}

/// The token verifier, and the issuer where this process holds a signing key: RS256 from files in
/// production (the private half only where configured), otherwise a local HS256 key; and the
/// club's identity provider beside them when one is configured.
fn keys(config: &PlatformConfig) -> Result<(TokenVerifier, Option<TokenIssuer>), StartError> {
    let (verifier, issuer) = match &config.auth.rs256_public_key_file {
        Some(path) => {
            let public = read_key(path)?;
            let issuer = config.auth.rs256_private_key_file.as_deref().map(read_key).transpose()?;
            let issuer = issuer.as_deref().map(TokenIssuer::rs256_pem).transpose()?;
            let verifier = TokenVerifier::rs256_pem(&public)?;
            let verifier = match config.auth.rs256_previous_public_key_file.as_deref() {
                Some(previous) => verifier.with_previous_rs256_pem(&read_key(previous)?)?,
                None => verifier,
            };
            (verifier, issuer)
        }
        None => {
            let secret = load_or_create_local_secret(&config.auth.local_key_file)?;
            (TokenVerifier::hs256(&secret), Some(TokenIssuer::hs256(&secret)))
        }
    };
    let verifier = match &config.auth.identity_provider {
        Some(provider) => {
            let provider = Arc::new(crate::auth::IdentityProvider::new(provider.clone())?);
            // Outside a runtime (tools that only read the configuration) no token is checked.
            if tokio::runtime::Handle::try_current().is_ok() {
                provider.follow();
            }
            verifier.with_identity_provider(provider)
        }
        None => verifier,
    };
    Ok((verifier, issuer))
}

/// What service `service` presents when it calls another: the configured service token (a
/// deployment runs one service a process, each with its own token), or with a local key one
/// minted for [`service_subject`]`(service)` with the service role.
fn peer_interceptor(
    config: &PlatformConfig,
    issuer: Option<&TokenIssuer>,
    service: &str,
) -> Result<ClientInterceptor, StartError> {
    let token = match (&config.auth.service_token, issuer) {
        (Some(token), _) => Some(token.clone()),
        (None, Some(issuer)) => {
            Some(issuer.issue(&service_subject(service), &[Role::Service], Duration::from_secs(10 * 365 * 86_400))?)
        }
        (None, None) => None,
    };
    Ok(match token {
        Some(token) => ClientInterceptor::with_token(&token)
            .map_err(|e| crate::auth::AuthError::Key(format!("service token: {}", e.message())))?,
        None => ClientInterceptor::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_never_reach_the_log() {
        assert_eq!(redact("postgres://club:s3cret@db:5432/club"), "postgres://club:***@db:5432/club");
        assert_eq!(redact("postgres://postgres@127.0.0.1/test"), "postgres://postgres@127.0.0.1/test");
        assert_eq!(redact("sqlite://bridge-club.db?mode=rwc"), "sqlite://bridge-club.db?mode=rwc");
    }
}

/// Channels to the other services, each carrying this process's token and the trace context.
/// In the all-in-one process every peer is the process itself; stand-alone services are given
/// their peers' addresses in `[endpoints]`.
#[derive(Debug, Clone)]
pub struct Peers {
    membership: Option<tonic::transport::Channel>,
    game: Option<tonic::transport::Channel>,
    scoring: Option<tonic::transport::Channel>,
    appeals: Option<tonic::transport::Channel>,
    interceptor: ClientInterceptor,
}

/// A generated client that calls a peer service (`ScoringServiceClient<PeerChannel>`).
pub type PeerChannel = tonic::service::interceptor::InterceptedService<tonic::transport::Channel, ClientInterceptor>;

impl Peers {
    /// Every peer at `uri` (the all-in-one process calling itself).
    pub fn all_at(uri: &str, interceptor: ClientInterceptor) -> Result<Peers, tonic::transport::Error> {
        let channel = crate::client::channel(uri)?;
        Ok(Peers {
            membership: Some(channel.clone()),
            game: Some(channel.clone()),
            scoring: Some(channel.clone()),
            appeals: Some(channel),
            interceptor,
        })
    }

    /// The peers configured in `endpoints`; unset ones are unavailable.
    /// Those at `https://` addresses are called over TLS, checked as `tls` says; a peer named by
    /// several addresses (comma-separated) is balanced over its serving replicas
    /// ([`crate::client::service_channel`]).
    pub fn from_endpoints(
        endpoints: &crate::config::Endpoints,
        tls: &PeerTls,
        interceptor: ClientInterceptor,
    ) -> Result<Peers, tonic::transport::Error> {
        let channel = |uri: &Option<String>, service: &'static str| {
            uri.as_deref().map(|uri| crate::client::service_channel(uri, service, tls)).transpose()
        };
        Ok(Peers {
            membership: channel(&endpoints.membership, api::membership::v1::membership_service_server::SERVICE_NAME)?,
            game: channel(&endpoints.game, api::game::v1::game_service_server::SERVICE_NAME)?,
            scoring: channel(&endpoints.scoring, api::scoring::v1::scoring_service_server::SERVICE_NAME)?,
            appeals: channel(&endpoints.appeals, api::appeals::v1::appeals_service_server::SERVICE_NAME)?,
            interceptor,
        })
    }

    fn peer(
        &self,
        name: &str,
        channel: &Option<tonic::transport::Channel>,
    ) -> Result<PeerChannel, crate::ServiceError> {
        channel
            .clone()
            .map(|channel| tonic::service::interceptor::InterceptedService::new(channel, self.interceptor.clone()))
            .ok_or_else(|| {
                crate::ServiceError::Unavailable(format!(
                    "the {name} service's address is not configured (endpoints.{name} / BRIDGE_ENDPOINTS__{})",
                    name.to_ascii_uppercase()
                ))
            })
    }

    /// The membership service.
    pub fn membership(&self) -> Result<PeerChannel, crate::ServiceError> {
        self.peer("membership", &self.membership)
    }

    /// The game service.
    pub fn game(&self) -> Result<PeerChannel, crate::ServiceError> {
        self.peer("game", &self.game)
    }

    /// The scoring service.
    pub fn scoring(&self) -> Result<PeerChannel, crate::ServiceError> {
        self.peer("scoring", &self.scoring)
    }

    /// The appeals service.
    pub fn appeals(&self) -> Result<PeerChannel, crate::ServiceError> {
        self.peer("appeals", &self.appeals)
    }
}

/// What a service's own binary (one Deployment of the chart) starts before its service: the
/// service's configuration (file and environment), telemetry under the binary's name, its storage
/// and its peers at `endpoints`. The telemetry stays installed while this value lives.
pub struct Standalone<S> {
    /// The configuration, shared part and the service's own.
    pub config: crate::config::Config<S>,
    /// Storage, keys and the server builder.
    pub resources: Resources,
    /// The other services, where the configuration says they are.
    pub peers: Peers,
    _telemetry: crate::telemetry::TelemetryGuard,
}

impl<S: serde::de::DeserializeOwned + serde::Serialize + Default> Standalone<S> {
    /// Starts `service` as the binary `binary` does, up to building its gRPC service.
    pub async fn start(service: &str, binary: &str) -> anyhow::Result<Standalone<S>> {
        use anyhow::Context as _;
        let config = crate::config::load::<S>(service)?;
        let telemetry = crate::telemetry::init(binary, &config.platform.telemetry)?;
        let resources =
            Resources::start(&config.platform, service).await.with_context(|| format!("{binary} did not start"))?;
        let peers =
            Peers::from_endpoints(&config.platform.endpoints, &resources.peer_tls, resources.peer_interceptor.clone())
                .context("peer endpoints")?;
        Ok(Standalone { config, resources, peers, _telemetry: telemetry })
    }
}
