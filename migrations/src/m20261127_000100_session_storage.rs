//! Postgres keeps a session's standings (with each pair's tally) and its event payloads out of
//! line without compressing them. Every change to a session rewrites its standings whole, and
//! compressing some hundred kilobytes on every write cost more than the write itself (about
//! 1.4 ms against 0.4 ms for a session of a thousand pairs); the values are read whole, never
//! searched. SQLite has no storage modes: nothing to do there.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns stored without compression.
const COLUMNS: [(&str, &str); 2] = [("scoring_sessions", "standings"), ("scoring_events", "payload")];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        set_storage(manager, "EXTERNAL").await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        set_storage(manager, "EXTENDED").await
    }
}

/// Setting the mode again is harmless, so several processes migrating at once do no harm.
async fn set_storage(manager: &SchemaManager<'_>, storage: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    if db.get_database_backend() != DbBackend::Postgres {
        return Ok(());
    }
    for (table, column) in COLUMNS {
        db.execute_unprepared(&format!("ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE {storage}")).await?;
    }
    Ok(())
}
