//! The end-to-end harness: each test gets its own Postgres database (created for it, dropped
//! after) and its own Redis key prefix (cleared after), so tests run in parallel and leave
//! nothing behind. A test that needs Postgres or Redis and cannot reach them fails with a
//! message saying how to start them; it never skips.

pub mod certificates;
pub mod fuzz;
pub mod lineup;
pub mod one_suit_deal;
pub mod postgres_server;
pub mod processes;
pub mod redis_cluster;
pub mod redis_server;
pub mod split;

use std::sync::Arc;

use sea_orm::{ConnectionTrait, Database, DatabaseConnection};

use platform::live::{LiveStore, RedisStore};

/// The server every test database is created on (`BRIDGE_TEST_POSTGRES` overrides).
pub fn postgres_admin_url() -> String {
    std::env::var("BRIDGE_TEST_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// The Redis every test uses, under its own prefix (`BRIDGE_TEST_REDIS` overrides).
pub fn redis_url() -> String {
    std::env::var("BRIDGE_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

const START_POSTGRES: &str = "start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";
const START_REDIS: &str =
    "start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save \"\" --appendonly no";

fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

/// A Postgres database created for one test and dropped when this value is dropped.
#[derive(Debug)]
pub struct TestDatabase {
    name: String,
    url: String,
}

impl TestDatabase {
    /// Creates a fresh, empty database. Panics, saying how to start Postgres, if it is down.
    pub async fn create() -> TestDatabase {
        let admin_url = postgres_admin_url();
        let admin = Database::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("Postgres is not reachable at {admin_url} ({e}); {START_POSTGRES}"));
        let name = unique("bc_test");
        admin
            .execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap_or_else(|e| panic!("cannot create test database {name}: {e}"));
        let _ = admin.close().await;
        let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
        TestDatabase { url: format!("{base}/{name}"), name }
    }

    /// The database's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A new connection to it.
    pub async fn connect(&self) -> DatabaseConnection {
        Database::connect(&self.url).await.unwrap_or_else(|e| panic!("cannot connect to {}: {e}", self.url))
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        // Drop runs outside any runtime guarantee, so the DROP DATABASE gets a runtime of its own.
        let name = self.name.clone();
        let admin_url = postgres_admin_url();
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                if let Ok(admin) = Database::connect(&admin_url).await {
                    let _ = admin.execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
                    let _ = admin.close().await;
                }
            });
            Ok::<(), std::io::Error>(())
        })
        .join();
    }
}

/// A Redis key prefix for one test; every key under it is deleted when this value is dropped.
pub struct TestRedis {
    prefix: String,
    url: String,
    store: Arc<RedisStore>,
}

impl TestRedis {
    /// Connects under a fresh prefix. Panics, saying how to start Redis, if it is down.
    pub async fn create() -> TestRedis {
        Self::create_at(&redis_url()).await
    }

    /// Connects to the Redis at `url` (a test's own, [`redis_server::RedisServer`]) under a fresh
    /// prefix.
    pub async fn create_at(url: &str) -> TestRedis {
        let prefix = unique("test");
        let store = RedisStore::connect(url, &prefix)
            .await
            .unwrap_or_else(|e| panic!("Redis is not reachable at {url} ({e}); {START_REDIS}"));
        TestRedis { prefix, url: url.to_owned(), store: Arc::new(store) }
    }

    /// The URL of the Redis it uses.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The prefix, for servers started against this Redis.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The store under this prefix.
    pub fn store(&self) -> Arc<RedisStore> {
        self.store.clone()
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        // A connection of its own: the test's runtime, which drives `self.store`, is blocked here.
        let (prefix, url) = (self.prefix.clone(), self.url.clone());
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                if let Ok(store) = RedisStore::connect(&url, &prefix).await {
                    let _ = store.clear().await;
                }
            });
            Ok::<(), std::io::Error>(())
        })
        .join();
    }
}

/// The whole platform (`bridge-club`) on a random loopback port, against a fresh Postgres
/// database and a fresh Redis prefix, with typed clients: a test talks to it as a client would.
pub struct TestApp {
    club: Option<club::Club>,
    /// The services as separate servers behind the gateway, instead of the club.
    split: Option<split::Split>,
    /// Its database; dropped (and the database with it) after the club.
    pub database: TestDatabase,
    /// Its Redis prefix.
    pub redis: TestRedis,
    key_dir: std::path::PathBuf,
    configure: Configure,
}

/// Changes a test server's configuration before it starts (for example an `[endpoints]` entry
/// that points a peer elsewhere).
pub type Configure = fn(&mut platform::config::PlatformConfig, &mut club::Settings);

/// The configuration a test server has unless the test changes it.
pub fn as_configured(_: &mut platform::config::PlatformConfig, _: &mut club::Settings) {}

impl TestApp {
    /// Starts the platform.
    pub async fn spawn() -> TestApp {
        Self::spawn_with(as_configured).await
    }

    /// Starts the platform with its configuration changed by `configure` (kept for restarts).
    pub async fn spawn_with(configure: Configure) -> TestApp {
        Self::spawn_on_redis(&redis_url(), configure).await
    }

    /// Starts the platform on the Redis at `redis_url` (a test's own,
    /// [`redis_server::RedisServer`], which the test may cut off or stop), with its configuration
    /// changed by `configure`.
    pub async fn spawn_on_redis(redis_url: &str, configure: Configure) -> TestApp {
        let database = TestDatabase::create().await;
        let redis = TestRedis::create_at(redis_url).await;
        let key_dir = std::env::temp_dir().join(unique("bc_key"));
        std::fs::create_dir_all(&key_dir).unwrap_or_else(|e| panic!("{}: {e}", key_dir.display()));
        let listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let club = Self::start(&database, &redis, &key_dir, listen, configure).await;
        TestApp { club: Some(club), split: None, database, redis, key_dir, configure }
    }

    /// Starts the platform as separate services behind the stand-alone gateway ([`split`]),
    /// with its configuration changed by `configure`; clients call the gateway. It cannot be
    /// restarted.
    pub async fn spawn_split_with(configure: Configure) -> TestApp {
        Self::spawn_split_with_game_replicas(1, configure).await
    }

    /// [`TestApp::spawn_split`] with the game service run as `replicas` servers behind the
    /// gateway ([`split::Split::start_with_game_replicas`]).
    /// The configuration is changed by `configure`, as [`TestApp::spawn_split_with`] does.
    pub async fn spawn_split_with_game_replicas(replicas: usize, configure: Configure) -> TestApp {
        let database = TestDatabase::create().await;
        let redis = TestRedis::create().await;
        let key_dir = std::env::temp_dir().join(unique("bc_key"));
        std::fs::create_dir_all(&key_dir).unwrap_or_else(|e| panic!("{}: {e}", key_dir.display()));
        let mut config = Self::config(&database, &redis, &key_dir);
        let mut settings = club::Settings { requests_per_minute: 0, ..Default::default() };
        configure(&mut config, &mut settings);
        let split = split::Split::start_with_game_replicas(&config, &settings, replicas).await;
        TestApp { club: None, split: Some(split), database, redis, key_dir, configure }
    }

    /// The addresses a split platform's game replicas listen on.
    pub fn game_replicas(&self) -> Vec<std::net::SocketAddr> {
        self.split.as_ref().unwrap_or_else(|| panic!("the platform does not run split")).game_replicas()
    }

    /// Stops the `n`th game replica of a split platform ([`split::Split::stop_game_replica`]).
    pub async fn stop_game_replica(&mut self, n: usize) {
        let split = self.split.as_mut().unwrap_or_else(|| panic!("the platform does not run split"));
        split.stop_game_replica(n).await;
    }

    /// [`TestApp::spawn_split_with`] as configured by default.
    pub async fn spawn_split() -> TestApp {
        Self::spawn_split_with(as_configured).await
    }

    fn config(
        database: &TestDatabase,
        redis: &TestRedis,
        key_dir: &std::path::Path,
    ) -> platform::config::PlatformConfig {
        let mut config = platform::config::PlatformConfig {
            database_url: Some(database.url().to_owned()),
            redis_url: Some(redis.url().to_owned()),
            redis_prefix: redis.prefix().to_owned(),
            ..Default::default()
        };
        config.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        config.auth.local_key_file = key_dir.join("bridge-club.key");
        config
    }

    async fn start(
        database: &TestDatabase,
        redis: &TestRedis,
        key_dir: &std::path::Path,
        listen: std::net::SocketAddr,
        configure: Configure,
    ) -> club::Club {
        let mut config = Self::config(database, redis, key_dir);
        config.listen = listen;
        let mut settings = club::Settings { requests_per_minute: 0, ..Default::default() };
        configure(&mut config, &mut settings);
        club::Club::start(&config, &settings).await.unwrap_or_else(|e| panic!("bridge-club did not start: {e}"))
    }

    /// A second process of the platform on the same database, Redis prefix and key, as a
    /// deployment with two replicas runs; [`TestApp::game_at`] reaches it.
    pub async fn replica(&self) -> club::Club {
        let listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        Self::start(&self.database, &self.redis, &self.key_dir, listen, self.configure).await
    }

    /// A game client of `replica` presenting a token with `roles`.
    pub fn game_at(&self, replica: &club::Club, subject: &str, roles: &[platform::auth::Role]) -> GameClient {
        let channel = platform::client::channel_with(&replica.server.uri(), &self.peer_tls())
            .unwrap_or_else(|e| panic!("channel: {e}"));
        let token = self.token(subject, roles);
        let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap_or_else(|e| panic!("{e}"));
        GameClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor))
    }

    /// The running club.
    pub fn club(&self) -> &club::Club {
        self.club.as_ref().unwrap_or_else(|| panic!("the club is restarting, or the platform runs split"))
    }

    /// Stops the server (as a deploy or a crash would: in-process state is lost) and starts a new
    /// one on the same database, Redis prefix, key and port, so existing clients reconnect to it.
    pub async fn restart(&mut self) {
        self.restart_with(self.configure).await;
    }

    /// Restarts as [`TestApp::restart`] does, with the configuration changed by `configure`
    /// instead (kept for later restarts).
    pub async fn restart_with(&mut self, configure: Configure) {
        let old = self.club.take().unwrap_or_else(|| panic!("the club is restarting"));
        let address = old.server.local_addr();
        old.server.shutdown().await.unwrap_or_else(|e| panic!("shutdown: {e}"));
        self.configure = configure;
        self.club = Some(Self::start(&self.database, &self.redis, &self.key_dir, address, configure).await);
    }

    /// Restarts with the configuration the platform has by default (no test changes).
    pub async fn restart_as_configured(&mut self) {
        self.restart_with(as_configured).await;
    }

    /// `http://127.0.0.1:<port>`.
    pub fn uri(&self) -> String {
        match &self.split {
            Some(split) => split.gateway.uri(),
            None => self.club().server.uri(),
        }
    }

    /// A token for `subject` with `roles`, signed with the server's local key.
    pub fn token(&self, subject: &str, roles: &[platform::auth::Role]) -> String {
        let resources = match &self.split {
            Some(split) => &split.resources,
            None => &self.club().resources,
        };
        let issuer = resources.issuer.as_ref().unwrap_or_else(|| panic!("the test server has no local key"));
        issuer.issue(subject, roles, std::time::Duration::from_secs(3600)).unwrap_or_else(|e| panic!("token: {e}"))
    }

    /// How the test's clients check the server's certificate, when it speaks TLS: as its own
    /// services check one another's.
    pub fn peer_tls(&self) -> platform::tls::PeerTls {
        match &self.split {
            Some(split) => split.resources.peer_tls.clone(),
            None => self.club().resources.peer_tls.clone(),
        }
    }

    /// A channel to the server that presents `token` (or nothing) and the current trace context.
    pub fn channel(&self, token: Option<&str>) -> platform::app::PeerChannel {
        let channel =
            platform::client::channel_with(&self.uri(), &self.peer_tls()).unwrap_or_else(|e| panic!("channel: {e}"));
        let interceptor = match token {
            Some(token) => platform::client::ClientInterceptor::with_token(token).unwrap_or_else(|e| panic!("{e}")),
            None => platform::client::ClientInterceptor::default(),
        };
        tonic::service::interceptor::InterceptedService::new(channel, interceptor)
    }

    /// A membership client presenting a token with `roles`.
    pub fn membership(&self, subject: &str, roles: &[platform::auth::Role]) -> MembershipClient {
        MembershipClient::new(self.channel(Some(&self.token(subject, roles))))
    }

    /// A game client presenting a token with `roles`.
    pub fn game(&self, subject: &str, roles: &[platform::auth::Role]) -> GameClient {
        GameClient::new(self.channel(Some(&self.token(subject, roles))))
    }

    /// A scoring client presenting a token with `roles`.
    pub fn scoring(&self, subject: &str, roles: &[platform::auth::Role]) -> ScoringClient {
        ScoringClient::new(self.channel(Some(&self.token(subject, roles))))
    }

    /// An appeals client presenting a token with `roles`.
    pub fn appeals(&self, subject: &str, roles: &[platform::auth::Role]) -> AppealsClient {
        AppealsClient::new(self.channel(Some(&self.token(subject, roles))))
    }

    /// Deletes every Redis key of this app, as `FLUSHALL` would for a deployment of its own.
    pub async fn flush_redis(&self) {
        self.redis.store().clear().await.unwrap_or_else(|e| panic!("flush: {e}"));
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.key_dir);
    }
}

/// The membership service's client as tests use it.
pub type MembershipClient =
    api::membership::v1::membership_service_client::MembershipServiceClient<platform::app::PeerChannel>;
/// The game service's client as tests use it.
pub type GameClient = api::game::v1::game_service_client::GameServiceClient<platform::app::PeerChannel>;
/// The scoring service's client as tests use it.
pub type ScoringClient = api::scoring::v1::scoring_service_client::ScoringServiceClient<platform::app::PeerChannel>;
/// The appeals service's client as tests use it.
pub type AppealsClient = api::appeals::v1::appeals_service_client::AppealsServiceClient<platform::app::PeerChannel>;

/// Spans exported by this test process, collected in memory (see [`telemetry`]).
#[derive(Debug, Clone, Default)]
pub struct CollectedSpans(Arc<std::sync::Mutex<Vec<opentelemetry_sdk::trace::SpanData>>>);

impl CollectedSpans {
    /// Every span exported so far.
    pub fn all(&self) -> Vec<opentelemetry_sdk::trace::SpanData> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl opentelemetry_sdk::trace::SpanExporter for CollectedSpans {
    fn export(
        &self,
        batch: Vec<opentelemetry_sdk::trace::SpanData>,
    ) -> impl std::future::Future<Output = opentelemetry_sdk::error::OTelSdkResult> + Send {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend(batch);
        std::future::ready(Ok(()))
    }
}

/// Installs (once per test process) the platform's telemetry with an in-memory exporter, and
/// returns what it collects and the guard that flushes it.
pub fn telemetry() -> &'static (CollectedSpans, platform::telemetry::TelemetryGuard) {
    static TELEMETRY: std::sync::OnceLock<(CollectedSpans, platform::telemetry::TelemetryGuard)> =
        std::sync::OnceLock::new();
    TELEMETRY.get_or_init(|| {
        let spans = CollectedSpans::default();
        use tracing_subscriber::Layer;
        let logs = tracing_subscriber::fmt::layer()
            .with_test_writer()
            .with_filter(tracing_subscriber::filter::LevelFilter::WARN);
        let guard = platform::telemetry::init_with_exporter("e2e", "info", spans.clone(), logs)
            .unwrap_or_else(|e| panic!("telemetry: {e}"));
        (spans, guard)
    })
}

/// The trace id of `span` (a client's root span in a test).
pub fn trace_id(span: &tracing::Span) -> opentelemetry::trace::TraceId {
    use opentelemetry::trace::TraceContextExt;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    span.context().span().span_context().trace_id()
}

/// The spans of trace `trace_id` exported so far, once they satisfy `done`: spans end, and are
/// exported, when their work has finished, which a client may see happen before the last of them
/// ends (a server's span ends after its response is sent; a background worker goes on). Bounded
/// wait, not a timing assertion: the panic shows what the trace had.
pub async fn trace_when(
    trace_id: opentelemetry::trace::TraceId,
    done: impl Fn(&[opentelemetry_sdk::trace::SpanData]) -> bool,
) -> Vec<opentelemetry_sdk::trace::SpanData> {
    let (spans, guard) = telemetry();
    let mut in_trace = Vec::new();
    for _ in 0..600 {
        guard.flush();
        in_trace = spans.all().into_iter().filter(|s| s.span_context.trace_id() == trace_id).collect();
        if done(&in_trace) {
            return in_trace;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("trace {trace_id} never got there: {in_trace:#?}");
}

/// Whether `span` is `ancestor` or below it in `trace`.
pub fn descends_from(
    trace: &[opentelemetry_sdk::trace::SpanData],
    span: &opentelemetry_sdk::trace::SpanData,
    ancestor: opentelemetry::trace::SpanId,
) -> bool {
    let mut current = Some(span);
    while let Some(at) = current {
        if at.span_context.span_id() == ancestor {
            return true;
        }
        current = trace.iter().find(|s| s.span_context.span_id() == at.parent_span_id);
    }
    false
}

/// A Python interpreter with `packages` installed, for checking the platform with third-party
/// clients and readers. The virtual environment lives in `target/python` and is created (and
/// the packages installed from PyPI) on first use; a failure says what to install, it never
/// skips the test.
pub fn python_with(packages: &[(&str, &str)]) -> std::path::PathBuf {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/python");
    let python = venv.join("bin/python");
    if !python.exists() {
        let status = std::process::Command::new("python3").args(["-m", "venv"]).arg(&venv).status();
        assert!(
            matches!(status, Ok(s) if s.success()),
            "cannot create a Python virtual environment at {} (needs python3 with venv): {status:?}",
            venv.display()
        );
    }
    for (module, package) in packages {
        let present = std::process::Command::new(&python).args(["-c", &format!("import {module}")]).output();
        if matches!(present, Ok(ref o) if o.status.success()) {
            continue;
        }
        let output = std::process::Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", package])
            .output();
        match output {
            Ok(o) if o.status.success() => {}
            other => panic!(
                "cannot install the Python package {package} into {} (needs access to PyPI): {other:?}",
                venv.display()
            ),
        }
    }
    python
}

/// A small deterministic random number generator (xorshift64*) for the property tests that
/// drive a server: a seed replays the same run, and no crate is needed for it.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
