//! Configuration: one typed struct per service, from a TOML file and the environment.
//!
//! Sources, later ones winning:
//! 1. defaults (the embedded default: SQLite in the working directory, in-process live state,
//!    a generated local signing key, 127.0.0.1:50051);
//! 2. the TOML file named by `BRIDGE_CONFIG` (default `bridge-club.toml`, if it exists), whose
//!    top-level keys are [`PlatformConfig`]'s and whose `[<service>]` table is the service's own;
//! 3. environment variables `BRIDGE_<KEY>` (nested keys with `__`, e.g. `BRIDGE_AUTH__LOCAL_KEY_FILE`,
//!    `BRIDGE_SCORING__ROUND_TO_HUNDREDS`);
//! 4. the conventional variables `DATABASE_URL`, `REDIS_URL`, `OTEL_EXPORTER_OTLP_ENDPOINT`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Settings every service shares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlatformConfig {
    /// Address to listen on. Port 0 picks a free port (tests).
    pub listen: SocketAddr,
    /// Postgres (or SQLite) URL. Unset: a SQLite file at `sqlite_path`.
    pub database_url: Option<String>,
    /// The SQLite file of the embedded default.
    pub sqlite_path: PathBuf,
    /// Timeouts of the database, and how calls fail fast while it is away (`[database]`).
    pub database: DatabaseConfig,
    /// Redis URL for live state. Unset: an in-process store (one process only).
    pub redis_url: Option<String>,
    /// Prefix of every Redis key this process writes, so several deployments (or tests) can
    /// share one Redis.
    pub redis_prefix: String,
    /// Timeouts of Redis, and how calls fail fast while it is away (`[redis]`).
    pub redis: RedisConfig,
    /// Token checking and signing.
    pub auth: AuthConfig,
    /// Logs, traces and metrics.
    pub telemetry: TelemetryConfig,
    /// Origins browsers may call from (grpc-web). Empty: any origin.
    pub cors_allowed_origins: Vec<String>,
    /// Where the other services are, when they run as separate processes. Unset: in this
    /// process (the all-in-one binary) or not needed.
    pub endpoints: Endpoints,
    /// Keep-alives on watch streams and their connections.
    pub streams: StreamsConfig,
    /// TLS on the port this process serves and on its calls to the other services (`[tls]`).
    pub tls: TlsConfig,
    /// The club's mail server (`[mail]`), through which the desk may send a member his sign-in
    /// code. Unset: no mail is sent, and the desk hands codes over itself.
    pub mail: Option<MailConfig>,
}

impl Default for PlatformConfig {
    fn default() -> Self {
        PlatformConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            database_url: None,
            sqlite_path: PathBuf::from("bridge-club.db"),
            database: DatabaseConfig::default(),
            redis_url: None,
            redis_prefix: "bc".to_owned(),
            redis: RedisConfig::default(),
            auth: AuthConfig::default(),
            telemetry: TelemetryConfig::default(),
            cors_allowed_origins: Vec::new(),
            endpoints: Endpoints::default(),
            streams: StreamsConfig::default(),
            tls: TlsConfig::default(),
            mail: None,
        }
    }
}

impl PlatformConfig {
    /// The database URL to connect to: the configured one, or the SQLite file (created if
    /// missing).
    pub fn effective_database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.sqlite_path.display()),
        }
    }
}

/// How tokens are checked and, locally, signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuthConfig {
    /// The local HS256 key file (hex), created on first start. Used when no RS256 public key
    /// is configured.
    pub local_key_file: PathBuf,
    /// A PEM RS256 public key: production tokens are checked against it and no local key is used.
    pub rs256_public_key_file: Option<PathBuf>,
    /// The PEM RS256 public key `rs256_public_key_file` replaced, while a key is being rotated:
    /// tokens signed with it are still accepted (docs/runbook.md, "Rotating keys").
    pub rs256_previous_public_key_file: Option<PathBuf>,
    /// A PEM RS256 private key, the other half of `rs256_public_key_file`: only the service that
    /// hands out tokens (membership, which signs people in) is given it. Without it, and without a
    /// local key, signing in answers UNAVAILABLE.
    pub rs256_private_key_file: Option<PathBuf>,
    /// Milliseconds between this process's reads of the ended sessions (`auth_revoked_sessions`):
    /// how long, at most, another process's revocation takes to reach it (docs/architecture.md,
    /// "Identity and roles").
    pub revocation_poll_ms: u64,
    /// The token this service presents when it calls another service: role `service`, subject
    /// `service:<name>` (`service:game`, ...), one for each service's deployment. With a local key
    /// and no token configured, one is minted so for each service.
    pub service_token: Option<String>,
    /// The club's own identity provider (`[auth.identity_provider]`), whose tokens are accepted
    /// besides the platform's. Unset: only the platform's tokens.
    pub identity_provider: Option<IdentityProviderConfig>,
}

/// A club's identity provider: its tokens are checked against the keys it publishes (its JWKS),
/// with the claims that name the member and the roles (docs/architecture.md, "Identity and
/// roles").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdentityProviderConfig {
    /// The `iss` of the provider's tokens: tokens with this issuer are checked against its keys,
    /// any other as the platform's own. It must differ from the platform's (`bridge-club`).
    pub issuer: String,
    /// The `aud` the provider's tokens must carry (the client id it gave the club's services).
    /// Unset: not checked, so a token the provider made for another application is taken too.
    #[serde(default)]
    pub audience: Option<String>,
    /// Where the provider publishes its keys (a JWKS, usually `.../.well-known/jwks.json`).
    pub jwks_url: String,
    /// The claim holding the member's roles: a list of the platform's role names (`player`,
    /// `desk`, ...); names it does not know are ignored, and `service` refuses the token. A name
    /// not found at the top level is read as a dotted path (`realm_access.roles`).
    #[serde(default = "default_roles_claim")]
    pub roles_claim: String,
    /// The claim whose value becomes the caller's subject (for a member, the membership's player
    /// id).
    #[serde(default = "default_member_claim")]
    pub member_claim: String,
    /// Seconds between fetches of the keys while all goes well.
    #[serde(default = "default_refresh_interval_secs")]
    pub refresh_interval_secs: u64,
    /// The fewest seconds between the fetches that tokens naming an unknown key ask for.
    #[serde(default = "default_min_refetch_interval_secs")]
    pub min_refetch_interval_secs: u64,
    /// Milliseconds a fetch of the keys may take; a call waiting for one waits no longer.
    #[serde(default = "default_fetch_timeout_ms")]
    pub fetch_timeout_ms: u64,
}

fn default_roles_claim() -> String {
    "roles".to_owned()
}

fn default_member_claim() -> String {
    "sub".to_owned()
}

fn default_refresh_interval_secs() -> u64 {
    300
}

fn default_min_refetch_interval_secs() -> u64 {
    10
}

fn default_fetch_timeout_ms() -> u64 {
    2_000
}

impl IdentityProviderConfig {
    /// A provider at `jwks_url` issuing as `issuer`, everything else as by default.
    pub fn new(issuer: impl Into<String>, jwks_url: impl Into<String>) -> Self {
        IdentityProviderConfig {
            issuer: issuer.into(),
            audience: None,
            jwks_url: jwks_url.into(),
            roles_claim: default_roles_claim(),
            member_claim: default_member_claim(),
            refresh_interval_secs: default_refresh_interval_secs(),
            min_refetch_interval_secs: default_min_refetch_interval_secs(),
            fetch_timeout_ms: default_fetch_timeout_ms(),
        }
    }

    /// [`IdentityProviderConfig::refresh_interval_secs`], at least a second.
    pub fn refresh_interval(&self) -> Duration {
        Duration::from_secs(self.refresh_interval_secs.max(1))
    }

    /// [`IdentityProviderConfig::min_refetch_interval_secs`].
    pub fn min_refetch_interval(&self) -> Duration {
        Duration::from_secs(self.min_refetch_interval_secs)
    }

    /// [`IdentityProviderConfig::fetch_timeout_ms`], at least 10 ms.
    pub fn fetch_timeout(&self) -> Duration {
        millis(self.fetch_timeout_ms.max(10))
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        AuthConfig {
            local_key_file: PathBuf::from("bridge-club.key"),
            rs256_public_key_file: None,
            rs256_previous_public_key_file: None,
            rs256_private_key_file: None,
            revocation_poll_ms: 1_000,
            service_token: None,
            identity_provider: None,
        }
    }
}

/// The club's mail server (`[mail]`): where the membership service sends a member the sign-in code
/// the desk issued him ([`crate::mail`]). `host` and `from` are required; the rest have defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailConfig {
    /// The SMTP server's host name (or address). With TLS, its certificate must name this host.
    pub host: String,
    /// Its port. Unset: the usual one for `tls` (25 for none, 587 for STARTTLS, 465 for TLS).
    #[serde(default)]
    pub port: Option<u16>,
    /// How the connection is secured: `starttls` (the default: upgraded before anything is sent,
    /// or refused), `tls` (TLS from the first byte, "implicit TLS"), or `none` (plain text, for a
    /// relay on the same host or network only).
    #[serde(default)]
    pub tls: MailTls,
    /// The account to log in to the server with (AUTH PLAIN or LOGIN). Unset: no login.
    #[serde(default)]
    pub username: Option<String>,
    /// Its password; best given in the environment (`BRIDGE_MAIL__PASSWORD`) rather than the file,
    /// or in a file of its own (`password_file`).
    #[serde(default)]
    pub password: Option<Secret>,
    /// A file holding the password (a mounted secret), read at start; a line break at its end is
    /// not part of it. Read as it is, where the environment would read `123` as a number.
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The sender: `desk@club.example`, or with a name, `Riverside Bridge Club <desk@club.example>`.
    pub from: String,
    /// The club's name, as the mail names the club ("your sign-in code for ..."). Unset: the mail
    /// names no club.
    #[serde(default)]
    pub club_name: Option<String>,
    /// The name this host gives itself when it greets the server (EHLO). Unset: its address
    /// literal, `[127.0.0.1]`, as RFC 5321 allows; a server that insists on a name needs one.
    #[serde(default)]
    pub hello_name: Option<String>,
    /// Milliseconds one mail may take, from connecting to the server's last answer: the desk waits
    /// no longer, and is answered UNAVAILABLE when the server is slower.
    #[serde(default = "default_mail_timeout_ms")]
    pub timeout_ms: u64,
}

fn default_mail_timeout_ms() -> u64 {
    10_000
}

/// How the connection to the mail server is secured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MailTls {
    /// Plain text throughout.
    None,
    /// Plain text upgraded with STARTTLS before anything else is said; a server that does not
    /// offer it is refused, so that the code never travels in clear by accident.
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS, "implicit TLS").
    #[serde(alias = "implicit")]
    Tls,
}

impl MailConfig {
    /// A server at `host` sending as `from`, everything else as by default.
    pub fn new(host: impl Into<String>, from: impl Into<String>) -> Self {
        MailConfig {
            host: host.into(),
            port: None,
            tls: MailTls::default(),
            username: None,
            password: None,
            password_file: None,
            from: from.into(),
            club_name: None,
            hello_name: None,
            timeout_ms: default_mail_timeout_ms(),
        }
    }

    /// The port to connect to: the configured one, or the usual one for [`MailConfig::tls`].
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.tls {
            MailTls::None => 25,
            MailTls::Starttls => 587,
            MailTls::Tls => 465,
        })
    }

    /// [`MailConfig::timeout_ms`].
    pub fn timeout(&self) -> Duration {
        millis(self.timeout_ms)
    }
}

/// A setting that is a secret (a password): read as a plain string, but never shown by `Debug`, so
/// that logging the configuration does not leak it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wraps `value`.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself, for the one place that uses it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// How long calls wait for the database, and how they fail fast while it is away: a call answers
/// UNAVAILABLE within the acquire timeout when the database cannot be reached, and at once during
/// the cool-down that follows (see [`crate::breaker`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DatabaseConfig {
    /// Milliseconds a call waits for a Postgres connection, from the pool or opened for it (the
    /// pool opens connections within this wait; start-up's first connection too).
    pub acquire_timeout_ms: u64,
    /// SQLite: milliseconds a writer waits for the file's one write lock (and for a connection
    /// from the pool, which only writers queueing for that lock hold for long).
    pub sqlite_busy_timeout_ms: u64,
    /// Milliseconds calls are refused at once after the database could not be reached, before
    /// one call probes it again.
    pub cool_down_ms: u64,
    /// Milliseconds between the pings that decide the health status while no calls come.
    pub probe_interval_ms: u64,
    /// Connections the pool holds at most. Unset: 16 on Postgres (keep every pod's under the
    /// server's `max_connections`), 64 on SQLite, where under load the calls in flight came to
    /// hold every connection while others waited out the busy timeout for one: with four at 32
    /// tables, with 16 now and then at 64, with 64 not (docs/failures.md, "SQLite").
    pub max_connections: Option<u32>,
    /// Group commit: writers each service runs side by side, one transaction (or statement) at
    /// a time each ([`crate::commit`]).
    pub group_commit_writers: usize,
    /// Group commit: the most commands written together.
    pub group_commit_max_batch: usize,
    /// Whether the service applies pending migrations at start (`BRIDGE_DATABASE__MIGRATE_ON_START`).
    /// On by default, so the embedded default and a first try need no set-up; a deployment turns
    /// it off and migrates once, before the rollout (the chart's migration Job, `bridgectl
    /// migrate`), and a service then refuses to start on a schema older than its code.
    pub migrate_on_start: bool,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            acquire_timeout_ms: 500,
            sqlite_busy_timeout_ms: 5_000,
            cool_down_ms: 1_000,
            probe_interval_ms: 1_000,
            max_connections: None,
            group_commit_writers: 2,
            group_commit_max_batch: 128,
            migrate_on_start: true,
        }
    }
}

/// How long Redis commands may take, and how they fail fast while Redis is away. Services go on
/// from the durable record when Redis fails, so a short deadline costs little.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RedisConfig {
    /// Milliseconds one command (or one attempt to reconnect) may take.
    pub command_timeout_ms: u64,
    /// Milliseconds commands are refused at once after Redis could not be reached, before one
    /// command probes it again.
    pub cool_down_ms: u64,
    /// The PEM CA certificate a `rediss://` (TLS) server's certificate is checked against. Unset:
    /// the web's public roots.
    pub ca_file: Option<PathBuf>,
    /// Whether Redis is a Redis Cluster: the URL then names one or more of its nodes,
    /// comma-separated (`redis://a:6379,redis://b:6379`), and each command goes to the master of
    /// its key's slot.
    pub cluster: bool,
}

impl Default for RedisConfig {
    fn default() -> Self {
        RedisConfig { command_timeout_ms: 300, cool_down_ms: 1_000, ca_file: None, cluster: false }
    }
}

impl DatabaseConfig {
    /// [`DatabaseConfig::acquire_timeout_ms`].
    pub fn acquire_timeout(&self) -> Duration {
        millis(self.acquire_timeout_ms)
    }

    /// [`DatabaseConfig::sqlite_busy_timeout_ms`].
    pub fn sqlite_busy_timeout(&self) -> Duration {
        millis(self.sqlite_busy_timeout_ms)
    }

    /// [`DatabaseConfig::cool_down_ms`].
    pub fn cool_down(&self) -> Duration {
        millis(self.cool_down_ms)
    }

    /// [`DatabaseConfig::probe_interval_ms`].
    pub fn probe_interval(&self) -> Duration {
        millis(self.probe_interval_ms)
    }

    /// [`DatabaseConfig::group_commit_writers`] and [`DatabaseConfig::group_commit_max_batch`].
    pub fn group_commit(&self) -> crate::commit::GroupCommitSettings {
        crate::commit::GroupCommitSettings {
            max_batch: self.group_commit_max_batch.max(1),
            writers: self.group_commit_writers.max(1),
        }
    }
}

impl RedisConfig {
    /// [`RedisConfig::command_timeout_ms`].
    pub fn command_timeout(&self) -> Duration {
        millis(self.command_timeout_ms)
    }

    /// [`RedisConfig::cool_down_ms`].
    pub fn cool_down(&self) -> Duration {
        millis(self.cool_down_ms)
    }
}

/// `ms` milliseconds, at least one: a zero timeout would refuse everything.
fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms.max(1))
}

/// TLS (`[tls]`, see [`crate::tls`]). Unset: plaintext, as the embedded default on loopback is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TlsConfig {
    /// The PEM certificate chain this process serves with; with `key_file`, its port speaks TLS
    /// only.
    pub cert_file: Option<PathBuf>,
    /// The PEM private key of `cert_file`.
    pub key_file: Option<PathBuf>,
    /// The PEM CA certificate(s) the other services' certificates are checked against, when
    /// their addresses are `https://`. Unset: the web's public roots.
    pub ca_file: Option<PathBuf>,
    /// The name checked on the other services' certificates when it is not the host of their
    /// address (the all-in-one process calls itself on its bound address).
    pub server_name: Option<String>,
    /// Milliseconds between looks at `cert_file` and `key_file` for a renewed certificate.
    pub reload_interval_ms: u64,
}

impl Default for TlsConfig {
    fn default() -> Self {
        TlsConfig { cert_file: None, key_file: None, ca_file: None, server_name: None, reload_interval_ms: 10_000 }
    }
}

/// Logs, traces and metrics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TelemetryConfig {
    /// `tracing` filter directives (`RUST_LOG` syntax).
    pub log: String,
    /// OTLP/gRPC collector endpoint. Unset: no export, logs only.
    pub otlp_endpoint: Option<String>,
    /// How log lines are written to standard output (`BRIDGE_TELEMETRY__LOG_FORMAT`).
    pub log_format: LogFormat,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig { log: "info".to_owned(), otlp_endpoint: None, log_format: LogFormat::Text }
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// For people reading a terminal: the embedded default.
    Text,
    /// One JSON object a line (time, level, message, fields and the spans around it), for a log
    /// collector in production: no parsing of free text, and fields stay fields.
    Json,
}

/// Keep-alives, so that a quiet watch stream is not cut by a load balancer's idle timeout and a
/// dead connection is noticed (`[streams]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StreamsConfig {
    /// Milliseconds a watch stream may send nothing before it sends a heartbeat (the `heartbeat`
    /// of its responses): shorter than the idle timeout of anything between the server and its
    /// clients.
    pub heartbeat_interval_ms: u64,
    /// Milliseconds between the HTTP/2 PINGs a server sends on a connection; 0 sends none.
    pub http2_keepalive_interval_ms: u64,
    /// Milliseconds a server waits for a PING to be answered before it closes the connection.
    pub http2_keepalive_timeout_ms: u64,
}

impl Default for StreamsConfig {
    fn default() -> Self {
        StreamsConfig {
            heartbeat_interval_ms: crate::watch::DEFAULT_HEARTBEAT.as_millis() as u64,
            http2_keepalive_interval_ms: 30_000,
            http2_keepalive_timeout_ms: 10_000,
        }
    }
}

impl StreamsConfig {
    /// The heartbeat interval (at least 10 ms: 0 would send nothing but heartbeats).
    pub fn heartbeat_interval(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.heartbeat_interval_ms.max(10))
    }

    /// The HTTP/2 keep-alive interval and timeout, unless keep-alives are off.
    pub fn http2_keepalive(&self) -> Option<(std::time::Duration, std::time::Duration)> {
        (self.http2_keepalive_interval_ms > 0).then(|| {
            (
                std::time::Duration::from_millis(self.http2_keepalive_interval_ms),
                std::time::Duration::from_millis(self.http2_keepalive_timeout_ms.max(1)),
            )
        })
    }
}

/// Addresses of the other services (`http://host:port`) when they are separate processes. A
/// service run as several replicas is named by all their addresses, comma-separated, or by a
/// name prefixed `dns+` that resolves to all of them (`dns+http://club-game-replicas:50051`):
/// calls then go to the replicas that answer their health checks ([`crate::client::replicas`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Endpoints {
    /// The membership service.
    pub membership: Option<String>,
    /// The game service.
    pub game: Option<String>,
    /// The scoring service.
    pub scoring: Option<String>,
    /// The appeals service.
    pub appeals: Option<String>,
}

/// A service's whole configuration: the shared part and its own typed part.
#[derive(Debug, Clone, PartialEq)]
pub struct Config<S> {
    /// The shared settings.
    pub platform: PlatformConfig,
    /// The service's own settings (the `[<service>]` table).
    pub service: S,
}

/// A configuration that could not be loaded; the message names the key at fault.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(String);

/// Loads the configuration of `service` (see the module docs for the sources).
pub fn load<S>(service: &str) -> Result<Config<S>, ConfigError>
where
    S: DeserializeOwned + Serialize + Default,
{
    let file = std::env::var("BRIDGE_CONFIG").unwrap_or_else(|_| "bridge-club.toml".to_owned());
    let environment = Figment::new()
        .merge(Env::prefixed("BRIDGE_").ignore(&["CONFIG"]).split("__"))
        .merge(Env::raw().only(&["DATABASE_URL", "REDIS_URL"]).map(|k| k.as_str().to_ascii_lowercase().into()))
        .merge(Env::raw().only(&["OTEL_EXPORTER_OTLP_ENDPOINT"]).map(|_| "telemetry.otlp_endpoint".into()).split("."));
    load_from(service, Figment::new().merge(Toml::file(file)).merge(environment))
}

/// Loads from the given sources (merged over the defaults), without reading the environment.
pub fn load_from<S>(service: &str, sources: Figment) -> Result<Config<S>, ConfigError>
where
    S: DeserializeOwned + Serialize + Default,
{
    let figment = Figment::from(Serialized::defaults(PlatformConfig::default()))
        .merge(Serialized::default(service, S::default()))
        .merge(sources);
    let platform: PlatformConfig = figment.extract().map_err(|e| ConfigError(e.to_string()))?;
    let service: S = figment.extract_inner(service).map_err(|e| ConfigError(e.to_string()))?;
    Ok(Config { platform, service })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    struct Scoring {
        round_to_hundreds: bool,
    }

    #[test]
    fn defaults_are_the_embedded_platform() {
        let config: Config<Scoring> = load_from("scoring", Figment::new()).unwrap();
        assert_eq!(config.platform.listen, SocketAddr::from(([127, 0, 0, 1], 50051)));
        assert!(config.platform.effective_database_url().starts_with("sqlite://bridge-club.db"));
        assert!(!config.service.round_to_hundreds);
    }

    #[test]
    fn the_file_sets_shared_and_service_keys() {
        let toml = r#"
            listen = "0.0.0.0:6000"
            database_url = "postgres://db/club"
            [auth]
            local_key_file = "/etc/club/key"
            [streams]
            heartbeat_interval_ms = 250
            [scoring]
            round_to_hundreds = true
        "#;
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(toml))).unwrap();
        assert_eq!(config.platform.listen.port(), 6000);
        assert_eq!(config.platform.effective_database_url(), "postgres://db/club");
        assert_eq!(config.platform.auth.local_key_file, PathBuf::from("/etc/club/key"));
        assert_eq!(config.platform.streams.heartbeat_interval(), std::time::Duration::from_millis(250));
        assert!(config.platform.streams.http2_keepalive().is_some(), "keep-alives are on unless turned off");
        assert!(config.service.round_to_hundreds);
    }

    #[test]
    fn dependency_timeouts_are_short_by_default_and_configurable() {
        let config: Config<Scoring> = load_from("scoring", Figment::new()).unwrap();
        assert!(config.platform.database.acquire_timeout_ms < 1_000);
        assert!(config.platform.redis.command_timeout_ms < 1_000);
        let toml = "[database]\nacquire_timeout_ms = 250\n[redis]\ncommand_timeout_ms = 100\n";
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(toml))).unwrap();
        assert_eq!(config.platform.database.acquire_timeout_ms, 250);
        assert_eq!(config.platform.database.cool_down_ms, DatabaseConfig::default().cool_down_ms);
        assert_eq!(config.platform.redis.command_timeout_ms, 100);
    }

    #[test]
    fn group_commit_is_set_in_the_database_section_and_never_below_one() {
        let toml = "[database]\ngroup_commit_writers = 3\ngroup_commit_max_batch = 0\n";
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(toml))).unwrap();
        let settings = config.platform.database.group_commit();
        assert_eq!((settings.writers, settings.max_batch), (3, 1));
        let defaults = DatabaseConfig::default().group_commit();
        assert_eq!((defaults.writers, defaults.max_batch), (2, 128));
    }

    #[test]
    fn the_example_configuration_shows_the_default_keep_alives() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/bridge-club.example.toml");
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::file(path))).unwrap();
        assert_eq!(config.platform.streams, StreamsConfig::default());
    }

    #[test]
    fn the_example_s_identity_provider_loads_once_uncommented() {
        let block = example_block("# [auth.identity_provider]");
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(&block))).unwrap();
        let provider = config.platform.auth.identity_provider.unwrap();
        let mut expected = IdentityProviderConfig::new(
            "https://id.club.example/realms/club",
            "https://id.club.example/realms/club/protocol/openid-connect/certs",
        );
        expected.audience = Some("bridge-club".into());
        assert_eq!(provider, expected, "the example shows the defaults");
        // Without the table, no provider; with only the two it needs, the defaults.
        assert_eq!(AuthConfig::default().identity_provider, None);
        let toml = "[auth.identity_provider]\nissuer = \"i\"\njwks_url = \"http://x\"\n";
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(toml))).unwrap();
        assert_eq!(config.platform.auth.identity_provider, Some(IdentityProviderConfig::new("i", "http://x")));
    }

    /// The commented-out block of the example that starts at `header`, uncommented.
    fn example_block(header: &str) -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/bridge-club.example.toml");
        let example = std::fs::read_to_string(path).unwrap();
        let start = example.find(header).unwrap();
        example[start..]
            .lines()
            .take_while(|line| line.starts_with("# "))
            .map(|line| format!("{}\n", &line[2..]))
            .collect()
    }

    #[test]
    fn the_example_s_mail_server_loads_once_uncommented() {
        let block = example_block("# [mail]");
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(&block))).unwrap();
        let mail = config.platform.mail.unwrap();
        let mut expected = MailConfig::new("smtp.club.example", "Riverside Bridge Club <desk@club.example>");
        expected.port = Some(587);
        expected.username = Some("desk@club.example".into());
        expected.club_name = Some("Riverside Bridge Club".into());
        assert_eq!(mail, expected, "the example shows the defaults");
        // Without the table, no mail; with only the two it needs, the defaults.
        assert_eq!(PlatformConfig::default().mail, None);
        let toml = "[mail]\nhost = \"h\"\nfrom = \"d@c.example\"\npassword = \"s3cret\"\ntls = \"implicit\"\n";
        let config: Config<Scoring> = load_from("scoring", Figment::new().merge(Toml::string(toml))).unwrap();
        let mail = config.platform.mail.clone().unwrap();
        assert_eq!((mail.tls, mail.port(), mail.timeout()), (MailTls::Tls, 465, Duration::from_secs(10)));
        assert_eq!(mail.password.as_ref().map(Secret::expose), Some("s3cret"));
        assert!(!format!("{config:?}").contains("s3cret"), "the password stays out of Debug");
        let err = load_from::<Scoring>("scoring", Figment::new().merge(Toml::string("[mail]\nhost = \"h\"\n")));
        assert!(err.unwrap_err().to_string().contains("from"), "from is required");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let err =
            load_from::<Scoring>("scoring", Figment::new().merge(Toml::string("listen = \"nowhere\""))).unwrap_err();
        assert!(err.to_string().contains("listen"), "{err}");
    }
}
