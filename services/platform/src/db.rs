//! The durable store: Postgres in production and tests, SQLite for the embedded default, both
//! through sea-orm, with the one schema history of the `migration` crate applied at start-up.
//!
//! Services hold a [`Db`], the one way to the database: a sea-orm connection (it implements
//! `ConnectionTrait` and `TransactionTrait`, so entities, queries and transactions take it as they
//! take a `DatabaseConnection`) with two things added, so that no service has to think of them:
//!
//! - **Failing fast.** Waiting for a connection is bounded by a short acquire timeout, and every
//!   call goes through a [`Breaker`]: once the database could not be reached, calls are refused at
//!   once (UNAVAILABLE) for a cool-down, then one call probes it. A probe also runs every
//!   `probe_interval` ([`Db::probe`]), so the breaker, and the health status that follows it
//!   ([`Db::dependency`]), learn that the database went away or came back even while no calls come.
//!   A wait for a connection that runs out while the database answers other calls is a pool
//!   saturated by load, not an outage: that call is UNAVAILABLE, and the breaker stays closed, so
//!   that a burst costs the calls that waited too long and not a cool-down of refusing them all.
//! - **One writer at a time on SQLite, waiting its turn.** A deferred SQLite transaction that reads
//!   and then writes fails at once with SQLITE_BUSY when another writer committed after its read:
//!   its snapshot is stale, so SQLite does not wait. Every transaction here begins IMMEDIATE
//!   instead: it takes the write lock at BEGIN, waiting up to the busy timeout for it, and then
//!   cannot be refused. Reads outside transactions still run side by side (WAL). Code that holds a
//!   transaction must not write through the pool before it ends: that write would wait for the
//!   lock the transaction holds.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use async_trait::async_trait;
use sea_orm::{
    AccessMode, ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    ExecResult, IsolationLevel, QueryResult, RuntimeErr, SqliteTransactionMode, Statement, TransactionError,
    TransactionOptions, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;

use crate::breaker::Breaker;
use crate::commit::GroupCommitSettings;
use crate::config::DatabaseConfig;
use crate::error::DbFailure;
use crate::health::Dependency;

/// The database as services use it (see the module docs). Clones share the pool and the breaker.
#[derive(Clone)]
pub struct Db {
    inner: DatabaseConnection,
    breaker: Breaker,
    immediate: bool,
    probe_timeout: Duration,
    probe_interval: Duration,
    group_commit: GroupCommitSettings,
    /// How long a call may wait for a connection.
    acquire_timeout: Duration,
    /// When a call last got its answer, in milliseconds after `since` (see the module docs).
    answered: std::sync::Arc<std::sync::atomic::AtomicU64>,
    since: std::time::Instant,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.inner.get_database_backend())
            .field("breaker", &self.breaker)
            .finish()
    }
}

impl From<DatabaseConnection> for Db {
    /// A connection made elsewhere, with the default cool-down and probe interval.
    fn from(inner: DatabaseConnection) -> Db {
        Db::new(inner, &DatabaseConfig::default())
    }
}

impl Db {
    /// `inner` behind a breaker with `config`'s cool-down.
    pub fn new(inner: DatabaseConnection, config: &DatabaseConfig) -> Db {
        let immediate = inner.get_database_backend() == DbBackend::Sqlite;
        let acquire = if immediate { config.sqlite_busy_timeout() } else { config.acquire_timeout() };
        Db {
            inner,
            breaker: Breaker::new("database", config.cool_down()),
            immediate,
            // A ping acquires a connection, then makes one round trip.
            probe_timeout: acquire * 2,
            probe_interval: config.probe_interval(),
            group_commit: config.group_commit(),
            acquire_timeout: acquire,
            answered: std::sync::Arc::default(),
            since: std::time::Instant::now(),
        }
    }

    /// Now, in milliseconds after `since`.
    fn now(&self) -> u64 {
        u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Marks that the database answered a call just now.
    fn answered_now(&self) {
        self.answered.store(self.now(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether `error`, of a call that began at `began` (see [`Db::now`]), is a wait for a pooled
    /// connection that ran out while the database answered: it answered another call during the
    /// wait or within an acquire timeout before it. The pool was saturated by load, which is no
    /// outage (see the module docs).
    fn saturated(&self, error: &DbErr, began: u64) -> bool {
        use sea_orm::sqlx::Error as Sqlx;
        let waited = match error {
            DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::Timeout) => true,
            DbErr::Conn(RuntimeErr::SqlxError(e))
            | DbErr::Exec(RuntimeErr::SqlxError(e))
            | DbErr::Query(RuntimeErr::SqlxError(e)) => {
                matches!(e.as_ref(), Sqlx::PoolTimedOut)
            }
            _ => false,
        };
        let answered = self.answered.load(std::sync::atomic::Ordering::Relaxed);
        let window = u64::try_from(self.acquire_timeout.as_millis()).unwrap_or(u64::MAX);
        waited && answered.saturating_add(window) >= began
    }

    /// How the services' group commits over this database form their batches.
    pub fn group_commit(&self) -> GroupCommitSettings {
        self.group_commit
    }

    /// The pool itself, past the breaker: for migrations and tools, never for a service's calls.
    pub fn connection(&self) -> &DatabaseConnection {
        &self.inner
    }

    /// The breaker every call goes through.
    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    /// Closes the pool.
    pub async fn close(self) -> Result<(), DbErr> {
        self.inner.close().await
    }

    /// Runs `call` unless the breaker refuses it, and tells the breaker whether the database was
    /// there. `call` is lazy: refused, it never touches the pool.
    async fn guarded<T>(&self, call: impl Future<Output = Result<T, DbErr>>) -> Result<T, DbErr> {
        let permit = self.breaker.admit().map_err(|open| DbErr::Conn(RuntimeErr::Internal(open.to_string())))?;
        let began = self.now();
        let result = call.await;
        match &result {
            Ok(_) => {
                self.answered_now();
                permit.succeeded();
            }
            Err(e) => permit.settle(DbFailure::of(e) == DbFailure::Away && !self.saturated(e, began)),
        }
        result
    }

    /// Pings the database if the breaker lets a call through (a probe, once the cool-down is
    /// over), so that it opens and closes with the database even while no calls come.
    pub async fn probe(&self) {
        let Ok(permit) = self.breaker.admit() else { return };
        let began = self.now();
        let away = match tokio::time::timeout(self.probe_timeout, self.inner.ping()).await {
            Ok(Ok(())) => {
                self.answered_now();
                false
            }
            Ok(Err(error)) => DbFailure::of(&error) == DbFailure::Away && !self.saturated(&error, began),
            Err(_) => true,
        };
        permit.settle(away);
    }

    /// What a server needs to report its services NOT_SERVING while the database is away, and
    /// SERVING again once it is back.
    pub fn dependency(&self) -> Dependency {
        let db = self.clone();
        Dependency::new("database", self.breaker.subscribe(), self.probe_interval, move || {
            let db = db.clone();
            Box::pin(async move { db.probe().await })
        })
    }
}

#[async_trait]
impl ConnectionTrait for Db {
    fn get_database_backend(&self) -> DbBackend {
        self.inner.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        self.guarded(self.inner.execute_raw(stmt)).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.guarded(self.inner.execute_unprepared(sql)).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.guarded(self.inner.query_one_raw(stmt)).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.guarded(self.inner.query_all_raw(stmt)).await
    }

    fn support_returning(&self) -> bool {
        self.inner.support_returning()
    }

    fn is_mock_connection(&self) -> bool {
        self.inner.is_mock_connection()
    }
}

#[async_trait]
impl TransactionTrait for Db {
    type Transaction = DatabaseTransaction;

    async fn begin(&self) -> Result<DatabaseTransaction, DbErr> {
        self.begin_with_options(TransactionOptions::default()).await
    }

    async fn begin_with_config(
        &self,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<DatabaseTransaction, DbErr> {
        self.begin_with_options(TransactionOptions { isolation_level, access_mode, sqlite_transaction_mode: None })
            .await
    }

    async fn begin_with_options(&self, mut options: TransactionOptions) -> Result<DatabaseTransaction, DbErr> {
        if self.immediate && options.sqlite_transaction_mode.is_none() {
            options.sqlite_transaction_mode = Some(SqliteTransactionMode::Immediate);
        }
        self.guarded(self.inner.begin_with_options(options)).await
    }

    async fn transaction<F, T, E>(&self, callback: F) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(&'c DatabaseTransaction) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>> + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        self.transaction_with_config(callback, None, None).await
    }

    async fn transaction_with_config<F, T, E>(
        &self,
        callback: F,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(&'c DatabaseTransaction) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>> + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        let txn = self.begin_with_config(isolation_level, access_mode).await.map_err(TransactionError::Connection)?;
        match callback(&txn).await {
            Ok(value) => {
                txn.commit().await.map_err(TransactionError::Connection)?;
                Ok(value)
            }
            Err(error) => {
                txn.rollback().await.map_err(TransactionError::Connection)?;
                Err(TransactionError::Transaction(error))
            }
        }
    }
}

/// How long a pooled connection sits unused before it is pinged ahead of its next use.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(1);

/// Connects to `url` (`postgres://...` or `sqlite://...`) with the default timeouts.
pub async fn connect(url: &str) -> Result<Db, DbErr> {
    connect_with(url, &DatabaseConfig::default()).await
}

/// Connects to `url` with `config`'s timeouts and cool-down.
pub async fn connect_with(url: &str, config: &DatabaseConfig) -> Result<Db, DbErr> {
    let sqlite = url.starts_with("sqlite:");
    let mut options = ConnectOptions::new(url.to_owned());
    let max_connections = config.max_connections.unwrap_or(if sqlite { 64 } else { 16 }).max(1);
    options.max_connections(max_connections).min_connections(1).sqlx_logging(false);
    // A pooled connection is pinged before use only once it has sat idle (where a restarted or
    // dropped database shows): a ping on every acquire is one more round trip for every
    // transaction of a busy pool. A connection that dies in use fails its call, which the breaker
    // turns into UNAVAILABLE, and is not given out again.
    options.test_before_acquire_if_idle_for(IDLE_BEFORE_PING);
    if sqlite {
        // Only writers queueing for the file's one write lock hold a connection for long, so a
        // call waits for a connection as long as a writer waits for the lock.
        let busy = config.sqlite_busy_timeout();
        options.acquire_timeout(busy).map_sqlx_sqlite_opts(move |sqlite| sqlite.busy_timeout(busy));
    } else {
        options.acquire_timeout(config.acquire_timeout());
    }
    let db = Database::connect(options).await?;
    if sqlite {
        // WAL lets readers and the single writer proceed together; the setting is stored in the file.
        db.execute_unprepared("PRAGMA journal_mode=WAL").await?;
    }
    Ok(Db::new(db, config))
}

/// The Postgres advisory lock every migrator takes ("bridge" in ASCII): the chart's migration Job,
/// `bridgectl migrate` and any service configured to migrate at start may run at the same moment
/// (a rollout starts many at once), and two of them applying one migration would fail the
/// second on the first's tables.
pub const MIGRATION_LOCK: i64 = 0x0000_6272_6964_6765;

/// Applies every pending migration. On Postgres this happens in one transaction that first takes
/// [`MIGRATION_LOCK`]: a second migrator waits for the first to commit, then finds nothing
/// pending; and a migrator that dies part-way leaves the schema as it was (Postgres' DDL is
/// transactional). SQLite is the embedded default, one process, with one writer anyway.
pub async fn migrate(db: &Db) -> Result<(), DbErr> {
    let connection = db.connection();
    if connection.get_database_backend() != DbBackend::Postgres {
        return migration::Migrator::up(connection, None).await;
    }
    let txn = connection.begin().await?;
    txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")).await?;
    migration::Migrator::up(&txn, None).await?;
    txn.commit().await
}

/// The migrations this build knows that the database has not applied, by name, for a service that
/// does not migrate at start ([`DatabaseConfig::migrate_on_start`] off) and must not serve on a
/// schema older than its code. A database never migrated has every migration pending.
pub async fn pending_migrations(db: &Db) -> Result<Vec<String>, DbErr> {
    let connection = db.connection();
    let installed = connection
        .query_one_raw(Statement::from_string(
            connection.get_database_backend(),
            match connection.get_database_backend() {
                DbBackend::Postgres => "SELECT to_regclass('seaql_migrations') IS NOT NULL AS installed",
                _ => "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'seaql_migrations') AS installed",
            },
        ))
        .await?
        .map(|row| row.try_get::<bool>("", "installed"))
        .transpose()?
        .unwrap_or(false);
    if !installed {
        return Ok(migration::Migrator::migrations().iter().map(|m| m.name().to_owned()).collect());
    }
    Ok(migration::Migrator::get_pending_migrations(connection).await?.iter().map(|m| m.name().to_owned()).collect())
}

/// Connects to `url` and applies pending migrations, with the default timeouts.
pub async fn connect_and_migrate(url: &str) -> Result<Db, DbErr> {
    connect_and_migrate_with(url, &DatabaseConfig::default()).await
}

/// Connects to `url` with `config` and applies pending migrations: what the embedded default and
/// `bridgectl migrate` do.
pub async fn connect_and_migrate_with(url: &str, config: &DatabaseConfig) -> Result<Db, DbErr> {
    let db = connect_with(url, config).await?;
    migrate(&db).await?;
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SQLite file in a directory of its own, removed on drop.
    struct TempSqlite {
        dir: std::path::PathBuf,
    }

    impl TempSqlite {
        fn new() -> TempSqlite {
            let dir = std::env::temp_dir().join(format!("bc-db-{}", uuid::Uuid::new_v4().simple()));
            std::fs::create_dir_all(&dir).unwrap();
            TempSqlite { dir }
        }

        fn url(&self) -> String {
            format!("sqlite://{}?mode=rwc", self.dir.join("club.db").display())
        }
    }

    impl Drop for TempSqlite {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite_writers_that_read_first_wait_their_turn_instead_of_failing() {
        let file = TempSqlite::new();
        let db = connect(&file.url()).await.unwrap();
        db.execute_unprepared("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").await.unwrap();
        db.execute_unprepared("INSERT INTO counter VALUES (1, 0)").await.unwrap();
        let writers = (0..8).map(|_| {
            let db = db.clone();
            tokio::spawn(async move {
                for _ in 0..25 {
                    // Read, then write what was read plus one: a deferred transaction would be
                    // refused (SQLITE_BUSY) whenever another writer committed in between.
                    let txn = db.begin().await?;
                    let row =
                        txn.query_one_raw(Statement::from_string(DbBackend::Sqlite, "SELECT n FROM counter")).await?;
                    let n: i64 = row.map(|r| r.try_get_by_index(0)).transpose()?.unwrap_or_default();
                    txn.execute_unprepared(&format!("UPDATE counter SET n = {}", n + 1)).await?;
                    txn.commit().await?;
                }
                Ok::<_, DbErr>(())
            })
        });
        for writer in futures::future::join_all(writers).await {
            writer.unwrap().unwrap();
        }
        let row = db.query_one_raw(Statement::from_string(DbBackend::Sqlite, "SELECT n FROM counter")).await.unwrap();
        assert_eq!(row.unwrap().try_get_by_index::<i64>(0).unwrap(), 8 * 25, "no increment lost");
        db.close().await.unwrap();
    }

    #[tokio::test]
    async fn an_open_breaker_refuses_without_touching_the_pool() {
        let file = TempSqlite::new();
        let db = connect(&file.url()).await.unwrap();
        db.breaker().admit().unwrap().failed();
        let refused = db.execute_unprepared("SELECT 1").await.unwrap_err();
        assert_eq!(DbFailure::of(&refused), DbFailure::Away, "{refused}");
        let refused = db.begin().await.unwrap_err();
        assert_eq!(DbFailure::of(&refused), DbFailure::Away, "{refused}");
        assert_eq!(
            crate::ServiceError::from(refused).code(),
            tonic::Code::Unavailable,
            "a client is told to come back, not that we failed"
        );
        db.close().await.unwrap();
    }

    #[tokio::test]
    async fn a_pool_saturated_while_the_database_answers_opens_no_breaker_one_that_stopped_does() {
        let file = TempSqlite::new();
        let config = DatabaseConfig { sqlite_busy_timeout_ms: 300, max_connections: Some(4), ..Default::default() };
        let db = connect_with(&file.url(), &config).await.unwrap();
        // Every pooled connection but one taken, as a burst of calls takes them; the last one
        // answers a call, then is taken too.
        let pool = db.connection().get_sqlite_connection_pool();
        let mut held = Vec::new();
        for _ in 1..pool.options().get_max_connections() {
            held.push(pool.acquire().await.unwrap());
        }
        db.execute_unprepared("SELECT 1").await.unwrap();
        held.push(pool.acquire().await.unwrap());
        let waited = db.execute_unprepared("SELECT 1").await.unwrap_err();
        assert_eq!(DbFailure::of(&waited), DbFailure::Away, "a timed-out wait looks like an outage: {waited}");
        assert!(db.breaker().is_closed(), "the database answered moments ago: the pool is busy, not away");
        // Nothing answered for longer than a wait may last: the connections are stuck on a
        // database that stopped answering, and that is an outage.
        tokio::time::sleep(Duration::from_millis(400)).await;
        db.execute_unprepared("SELECT 1").await.unwrap_err();
        assert!(!db.breaker().is_closed(), "nothing answered since well before the wait: away");
        drop(held);
        db.close().await.unwrap();
    }

    #[tokio::test]
    async fn a_database_that_answers_with_an_error_is_not_away() {
        let file = TempSqlite::new();
        let db = connect(&file.url()).await.unwrap();
        db.execute_unprepared("SELECT * FROM no_such_table").await.unwrap_err();
        assert!(db.breaker().is_closed());
        db.close().await.unwrap();
    }
}
