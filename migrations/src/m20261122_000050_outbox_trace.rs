//! `outbox.trace_context`: the W3C trace context of the request that wrote a row, so that its
//! delivery by a background worker, and the peer's handling of it, show in that request's trace
//! (docs/architecture.md, "Observability": one trace shows a card played, the deal finishing,
//! and the score being written). Nullable: rows written before it, or while spans are not
//! exported, have none and are delivered in a trace of their own.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Outbox {
    Table,
    TraceContext,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Several service processes may migrate one database as they start; SQLite has no
        // `ADD COLUMN IF NOT EXISTS`, so look first (Postgres is also told `IF NOT EXISTS`).
        if manager.has_column("outbox", "trace_context").await? {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Outbox::Table)
                    .add_column_if_not_exists(text_null(Outbox::TraceContext))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Outbox::Table).drop_column(Outbox::TraceContext).to_owned()).await
    }
}
