//! The game service's tables:
//! - `game_journal`: every event of every table, keyed (table, sequence). The rows of one accepted
//!   command are inserted in one transaction and the first one carries the command itself, so the
//!   deal in progress is rebuilt by replaying the commands; the primary key is the commit point that
//!   settles a race between two writers (docs/architecture.md, "Live state and durability").
//! - `game_deals`: one row per deal, for lists and lookups; updated with the journal, filtered on the
//!   table version it last saw.
//! - `game_boards`: the cards of each duplicate board, fixed by the first table that starts it, so
//!   every table plays the same cards (duplicate Law 2, Law 6).
//! - `game_arbiter_calls`: the calls for the arbiter across the room, for the arbiter's list.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum GameJournal {
    Table,
    TableId,
    Sequence,
    Version,
    DealId,
    Kind,
    Event,
    Action,
    CreatedAt,
}

#[derive(DeriveIden)]
enum GameDeals {
    Table,
    DealId,
    TableId,
    TableVersion,
    Kind,
    Mode,
    RubberId,
    ScorepadId,
    SessionId,
    BoardNumber,
    Setup,
    Phase,
    Outcome,
    StartedAt,
    FinishedAt,
}

#[derive(DeriveIden)]
enum GameBoards {
    Table,
    SessionId,
    BoardNumber,
    Seed,
    DealPbn,
    FirstDealId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum GameArbiterCalls {
    Table,
    ArbiterCallId,
    TableId,
    DealId,
    Open,
    CalledAt,
    ResolvedAt,
    Call,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(GameJournal::Table)
                    .if_not_exists()
                    .col(string(GameJournal::TableId))
                    .col(big_integer(GameJournal::Sequence))
                    .col(big_integer(GameJournal::Version))
                    .col(string(GameJournal::DealId))
                    .col(string(GameJournal::Kind))
                    .col(binary(GameJournal::Event))
                    .col(binary_null(GameJournal::Action))
                    .col(timestamp_with_time_zone(GameJournal::CreatedAt))
                    .primary_key(Index::create().col(GameJournal::TableId).col(GameJournal::Sequence))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("game_journal_deal")
                    .table(GameJournal::Table)
                    .col(GameJournal::DealId)
                    .col(GameJournal::Sequence)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(GameDeals::Table)
                    .if_not_exists()
                    .col(string(GameDeals::DealId).primary_key())
                    .col(string(GameDeals::TableId))
                    .col(big_integer(GameDeals::TableVersion))
                    .col(string(GameDeals::Kind))
                    .col(string(GameDeals::Mode))
                    .col(string_null(GameDeals::RubberId))
                    .col(string_null(GameDeals::ScorepadId))
                    .col(string_null(GameDeals::SessionId))
                    .col(integer_null(GameDeals::BoardNumber))
                    .col(binary(GameDeals::Setup))
                    .col(string(GameDeals::Phase))
                    .col(binary_null(GameDeals::Outcome))
                    .col(timestamp_with_time_zone(GameDeals::StartedAt))
                    .col(timestamp_with_time_zone_null(GameDeals::FinishedAt))
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            ("game_deals_table", vec![GameDeals::TableId, GameDeals::StartedAt]),
            ("game_deals_rubber", vec![GameDeals::RubberId, GameDeals::StartedAt]),
            ("game_deals_session", vec![GameDeals::SessionId, GameDeals::BoardNumber]),
        ] {
            let mut index = Index::create();
            index.name(name).table(GameDeals::Table);
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(GameBoards::Table)
                    .if_not_exists()
                    .col(string(GameBoards::SessionId))
                    .col(integer(GameBoards::BoardNumber))
                    .col(binary_null(GameBoards::Seed))
                    .col(string_null(GameBoards::DealPbn))
                    .col(string(GameBoards::FirstDealId))
                    .col(timestamp_with_time_zone(GameBoards::CreatedAt))
                    .primary_key(Index::create().col(GameBoards::SessionId).col(GameBoards::BoardNumber))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(GameArbiterCalls::Table)
                    .if_not_exists()
                    .col(string(GameArbiterCalls::ArbiterCallId).primary_key())
                    .col(string(GameArbiterCalls::TableId))
                    .col(string(GameArbiterCalls::DealId))
                    .col(boolean(GameArbiterCalls::Open))
                    .col(timestamp_with_time_zone(GameArbiterCalls::CalledAt))
                    .col(timestamp_with_time_zone_null(GameArbiterCalls::ResolvedAt))
                    .col(binary(GameArbiterCalls::Call))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("game_arbiter_calls_open")
                    .table(GameArbiterCalls::Table)
                    .col(GameArbiterCalls::Open)
                    .col(GameArbiterCalls::CalledAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            GameArbiterCalls::Table.into_iden(),
            GameBoards::Table.into_iden(),
            GameDeals::Table.into_iden(),
            GameJournal::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
