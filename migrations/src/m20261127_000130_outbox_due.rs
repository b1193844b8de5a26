//! An index of the outbox rows still owed (neither delivered nor set aside), in claiming order.
//!
//! A worker claims the rows due by source, oldest first (`platform::outbox`). Delivered rows stay
//! for days (retention), and without this index the claim walks past all of them in id order on
//! every round: in a busy club that is thousands of rows for the one or two that are owed. The
//! index holds only the owed rows, so a round costs what is owed, not what was ever delivered.
//! Both Postgres and SQLite take a partial index in the same words.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "outbox_owed";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared(&format!(
                "CREATE INDEX IF NOT EXISTS {INDEX} ON outbox (source, id) \
                 WHERE delivered_at IS NULL AND dead_lettered_at IS NULL"
            ))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(&format!("DROP INDEX IF EXISTS {INDEX}")).await?;
        Ok(())
    }
}
