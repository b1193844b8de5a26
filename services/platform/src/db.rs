//! The durable store: Postgres in production and tests, SQLite for the embedded default, both
//! through sea-orm, with the one schema history of the `migration` crate applied at start-up.

use std::time::Duration;

use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr};
use sea_orm_migration::MigratorTrait;

/// Connects to `url` (`postgres://...` or `sqlite://...`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .max_connections(if url.starts_with("sqlite:") { 4 } else { 16 })
        .min_connections(1)
        .connect_timeout(Duration::from_secs(5))
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    let db = Database::connect(options).await?;
    if db.get_database_backend() == DbBackend::Sqlite {
        // WAL lets readers and the single writer proceed together; the setting is stored in the file.
        db.execute_unprepared("PRAGMA journal_mode=WAL").await?;
    }
    Ok(db)
}

/// Applies every pending migration.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    migration::Migrator::up(db, None).await
}

/// Connects to `url` and applies pending migrations: what every service does at start-up.
pub async fn connect_and_migrate(url: &str) -> Result<DatabaseConnection, DbErr> {
    let db = connect(url).await?;
    migrate(&db).await?;
    Ok(db)
}
