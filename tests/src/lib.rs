//! The end-to-end harness: each test gets its own Postgres database (created for it, dropped
//! after) and its own Redis key prefix (cleared after), so tests run in parallel and leave
//! nothing behind. A test that needs Postgres or Redis and cannot reach them fails with a
//! message saying how to start them; it never skips.

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
    store: Arc<RedisStore>,
}

impl TestRedis {
    /// Connects under a fresh prefix. Panics, saying how to start Redis, if it is down.
    pub async fn create() -> TestRedis {
        let prefix = unique("test");
        let url = redis_url();
        let store = RedisStore::connect(&url, &prefix)
            .await
            .unwrap_or_else(|e| panic!("Redis is not reachable at {url} ({e}); {START_REDIS}"));
        TestRedis { prefix, store: Arc::new(store) }
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
        let prefix = self.prefix.clone();
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                if let Ok(store) = RedisStore::connect(&redis_url(), &prefix).await {
                    let _ = store.clear().await;
                }
            });
            Ok::<(), std::io::Error>(())
        })
        .join();
    }
}
