//! What a service process needs at start-up, built the same way for every service: the
//! database (migrated), the live store, the token verifier (and locally, the issuer), and the
//! token it presents to its peers.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;

use crate::auth::{AuthLayer, MethodPolicy, Role, TokenIssuer, TokenVerifier, load_or_create_local_secret};
use crate::client::ClientInterceptor;
use crate::config::PlatformConfig;
use crate::live::{MemoryStore, RedisStore, SharedLiveStore};
use crate::server::ServerBuilder;

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
    /// Redis could not be reached.
    #[error(transparent)]
    Live(#[from] crate::live::LiveError),
    /// A key could not be read or created.
    #[error(transparent)]
    Auth(#[from] crate::auth::AuthError),
}

/// The shared resources of one service process.
#[derive(Clone)]
pub struct Resources {
    /// The configuration it was built from.
    pub config: PlatformConfig,
    /// The durable store, migrated.
    pub db: DatabaseConnection,
    /// The live store: Redis, or in-process for the embedded default.
    pub live: SharedLiveStore,
    /// Checks callers' tokens.
    pub verifier: TokenVerifier,
    /// Signs tokens; only with a local key (never in production, where only the public key is held).
    pub issuer: Option<TokenIssuer>,
    /// What this process presents when it calls another service.
    pub peer_interceptor: ClientInterceptor,
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
    /// Connects and migrates the database, connects the live store, and loads the keys, as
    /// `config` says. `service` names the process in its peer token (`service:<name>`).
    pub async fn start(config: &PlatformConfig, service: &str) -> Result<Resources, StartError> {
        let url = config.effective_database_url();
        let db = crate::db::connect_and_migrate(&url)
            .await
            .map_err(|source| StartError::Database { url: redact(&url), source })?;
        let live: SharedLiveStore = match &config.redis_url {
            Some(url) => Arc::new(RedisStore::connect(url, &config.redis_prefix).await?),
            None => Arc::new(MemoryStore::new()),
        };
        Self::with(config, service, db, live)
    }

    /// Builds the resources around an existing database and live store (tests share them).
    pub fn with(
        config: &PlatformConfig,
        service: &str,
        db: DatabaseConnection,
        live: SharedLiveStore,
    ) -> Result<Resources, StartError> {
        let (verifier, issuer) = match &config.auth.rs256_public_key_file {
            Some(path) => {
                let pem =
                    std::fs::read(path).map_err(|e| crate::auth::AuthError::Key(format!("{}: {e}", path.display())))?;
                (TokenVerifier::rs256_pem(&pem)?, None)
            }
            None => {
                let secret = load_or_create_local_secret(&config.auth.local_key_file)?;
                (TokenVerifier::hs256(&secret), Some(TokenIssuer::hs256(&secret)))
            }
        };
        let token = match (&config.auth.service_token, &issuer) {
            (Some(token), _) => Some(token.clone()),
            (None, Some(issuer)) => Some(issuer.issue(
                &format!("service:{service}"),
                &[Role::Admin],
                Duration::from_secs(10 * 365 * 86_400),
            )?),
            (None, None) => None,
        };
        let peer_interceptor = match token {
            Some(token) => ClientInterceptor::with_token(&token)
                .map_err(|e| crate::auth::AuthError::Key(format!("service token: {}", e.message())))?,
            None => ClientInterceptor::default(),
        };
        Ok(Resources { config: config.clone(), db, live, verifier, issuer, peer_interceptor })
    }

    /// A server builder with this process's auth and the given method policy.
    pub fn server(&self, policy: MethodPolicy) -> ServerBuilder {
        ServerBuilder::new(AuthLayer::new(self.verifier.clone(), policy))
    }
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
