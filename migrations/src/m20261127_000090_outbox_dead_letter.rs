//! The one outbox worker's bookkeeping (`platform::outbox`): `outbox.dead_lettered_at`, set when a
//! row has failed too often and is set aside for an operator (nullable: clearing it delivers the
//! row again), and an index on `idempotency_keys.created_at`, by which the worker deletes keys
//! older than their retention.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Outbox {
    Table,
    DeadLetteredAt,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    CreatedAt,
}

const CREATED_INDEX: &str = "idempotency_keys_created_at";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Several service processes may migrate one database as they start; SQLite has no
        // `ADD COLUMN IF NOT EXISTS`, so look first.
        if !manager.has_column("outbox", "dead_lettered_at").await? {
            manager
                .alter_table(
                    Table::alter()
                        .table(Outbox::Table)
                        .add_column_if_not_exists(timestamp_with_time_zone_null(Outbox::DeadLetteredAt))
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .if_not_exists()
                    .name(CREATED_INDEX)
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name(CREATED_INDEX).table(IdempotencyKeys::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Outbox::Table).drop_column(Outbox::DeadLetteredAt).to_owned()).await
    }
}
