//! Platform tables every service uses for "never half-applied, never applied twice":
//! - `idempotency_keys`: the first answer to a command, by (scope, key), so a retried command
//!   returns it and changes nothing (docs/architecture.md, "Live state and durability");
//! - `outbox`: messages a service owes another (a finished deal's result to scoring, a changed
//!   score to scoring from appeals), written in the same transaction as the change that caused
//!   them and delivered until acknowledged.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    Scope,
    Key,
    RequestHash,
    Response,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Outbox {
    Table,
    Id,
    Source,
    Topic,
    AggregateId,
    Payload,
    Attempts,
    LastError,
    NextAttemptAt,
    CreatedAt,
    DeliveredAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(IdempotencyKeys::Table)
                    .if_not_exists()
                    .col(string(IdempotencyKeys::Scope))
                    .col(string(IdempotencyKeys::Key))
                    .col(string(IdempotencyKeys::RequestHash))
                    .col(binary(IdempotencyKeys::Response))
                    .col(timestamp_with_time_zone(IdempotencyKeys::CreatedAt))
                    .primary_key(Index::create().col(IdempotencyKeys::Scope).col(IdempotencyKeys::Key))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Outbox::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Outbox::Id))
                    .col(string(Outbox::Source))
                    .col(string(Outbox::Topic))
                    .col(string(Outbox::AggregateId))
                    .col(binary(Outbox::Payload))
                    .col(integer(Outbox::Attempts).default(0))
                    .col(text_null(Outbox::LastError))
                    .col(timestamp_with_time_zone(Outbox::NextAttemptAt))
                    .col(timestamp_with_time_zone(Outbox::CreatedAt))
                    .col(timestamp_with_time_zone_null(Outbox::DeliveredAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("outbox_pending")
                    .table(Outbox::Table)
                    .col(Outbox::Source)
                    .col(Outbox::DeliveredAt)
                    .col(Outbox::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Outbox::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(IdempotencyKeys::Table).to_owned()).await
    }
}
