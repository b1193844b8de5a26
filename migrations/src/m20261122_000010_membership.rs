//! The membership service's tables (services/membership):
//! - `membership_players`: the club's register; `number` is the room's key for a player;
//! - `membership_journal`: every command the room accepted, in order, keyed (room, sequence); the
//!   primary key is the commit point that settles races between writers;
//! - `membership_room_events`, `membership_table_events`: the numbered streams WatchRoom and
//!   WatchTable replay, written in the same transaction as the journal entry that made them;
//! - `membership_tables`, `membership_draws`, `membership_rubbers`, `membership_applications`:
//!   the room's records as they now stand (encoded protos), for lookups and audit; written in the
//!   same transaction, and rebuildable from the journal.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MembershipPlayers {
    Table,
    Number,
    PlayerId,
    Name,
    MemberNumber,
    Email,
    Phone,
    Active,
    RegisteredAt,
    Version,
}

#[derive(DeriveIden)]
enum MembershipJournal {
    Table,
    Room,
    Sequence,
    Kind,
    Actor,
    RecordedAt,
    Entry,
}

#[derive(DeriveIden)]
enum MembershipRoomEvents {
    Table,
    Room,
    Sequence,
    JournalSequence,
    Event,
}

#[derive(DeriveIden)]
enum MembershipTableEvents {
    Table,
    TableId,
    Sequence,
    JournalSequence,
    Event,
}

#[derive(DeriveIden)]
enum MembershipTables {
    Table,
    TableId,
    Room,
    Number,
    Name,
    Status,
    OpenedAt,
    ClosedAt,
    Version,
    Record,
}

#[derive(DeriveIden)]
enum MembershipDraws {
    Table,
    DrawId,
    TableId,
    Purpose,
    Status,
    CreatedAt,
    Record,
}

#[derive(DeriveIden)]
enum MembershipRubbers {
    Table,
    RubberId,
    TableId,
    Number,
    Status,
    StartedAt,
    EndedAt,
    Record,
    GoingOut,
}

#[derive(DeriveIden)]
enum MembershipApplications {
    Table,
    ApplicationId,
    TableId,
    PlayerId,
    Status,
    AppliedAt,
    Record,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MembershipPlayers::Table)
                    .if_not_exists()
                    .col(big_pk_auto(MembershipPlayers::Number))
                    .col(string_uniq(MembershipPlayers::PlayerId))
                    .col(string(MembershipPlayers::Name))
                    .col(string_null(MembershipPlayers::MemberNumber).unique_key())
                    .col(string(MembershipPlayers::Email))
                    .col(string(MembershipPlayers::Phone))
                    .col(boolean(MembershipPlayers::Active))
                    .col(timestamp_with_time_zone(MembershipPlayers::RegisteredAt))
                    .col(big_integer(MembershipPlayers::Version))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_players_by_name")
                    .table(MembershipPlayers::Table)
                    .col(MembershipPlayers::Name)
                    .col(MembershipPlayers::PlayerId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipJournal::Table)
                    .if_not_exists()
                    .col(string(MembershipJournal::Room))
                    .col(big_integer(MembershipJournal::Sequence))
                    .col(string(MembershipJournal::Kind))
                    .col(string(MembershipJournal::Actor))
                    .col(timestamp_with_time_zone(MembershipJournal::RecordedAt))
                    .col(text(MembershipJournal::Entry))
                    .primary_key(Index::create().col(MembershipJournal::Room).col(MembershipJournal::Sequence))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipRoomEvents::Table)
                    .if_not_exists()
                    .col(string(MembershipRoomEvents::Room))
                    .col(big_integer(MembershipRoomEvents::Sequence))
                    .col(big_integer(MembershipRoomEvents::JournalSequence))
                    .col(binary(MembershipRoomEvents::Event))
                    .primary_key(Index::create().col(MembershipRoomEvents::Room).col(MembershipRoomEvents::Sequence))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipTableEvents::Table)
                    .if_not_exists()
                    .col(string(MembershipTableEvents::TableId))
                    .col(big_integer(MembershipTableEvents::Sequence))
                    .col(big_integer(MembershipTableEvents::JournalSequence))
                    .col(binary(MembershipTableEvents::Event))
                    .primary_key(
                        Index::create().col(MembershipTableEvents::TableId).col(MembershipTableEvents::Sequence),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipTables::Table)
                    .if_not_exists()
                    .col(string(MembershipTables::TableId).primary_key())
                    .col(string(MembershipTables::Room))
                    .col(big_integer(MembershipTables::Number))
                    .col(string(MembershipTables::Name))
                    .col(string(MembershipTables::Status))
                    .col(timestamp_with_time_zone(MembershipTables::OpenedAt))
                    .col(timestamp_with_time_zone_null(MembershipTables::ClosedAt))
                    .col(big_integer(MembershipTables::Version))
                    .col(binary(MembershipTables::Record))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipDraws::Table)
                    .if_not_exists()
                    .col(string(MembershipDraws::DrawId).primary_key())
                    .col(string(MembershipDraws::TableId))
                    .col(string(MembershipDraws::Purpose))
                    .col(string(MembershipDraws::Status))
                    .col(timestamp_with_time_zone(MembershipDraws::CreatedAt))
                    .col(binary(MembershipDraws::Record))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_draws_by_table")
                    .table(MembershipDraws::Table)
                    .col(MembershipDraws::TableId)
                    .col(MembershipDraws::CreatedAt)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipRubbers::Table)
                    .if_not_exists()
                    .col(string(MembershipRubbers::RubberId).primary_key())
                    .col(string(MembershipRubbers::TableId))
                    .col(big_integer(MembershipRubbers::Number))
                    .col(string(MembershipRubbers::Status))
                    .col(timestamp_with_time_zone(MembershipRubbers::StartedAt))
                    .col(timestamp_with_time_zone_null(MembershipRubbers::EndedAt))
                    .col(binary(MembershipRubbers::Record))
                    .col(binary_null(MembershipRubbers::GoingOut))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_rubbers_by_table")
                    .table(MembershipRubbers::Table)
                    .col(MembershipRubbers::TableId)
                    .col(MembershipRubbers::Number)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipApplications::Table)
                    .if_not_exists()
                    .col(string(MembershipApplications::ApplicationId).primary_key())
                    .col(string(MembershipApplications::TableId))
                    .col(string(MembershipApplications::PlayerId))
                    .col(string(MembershipApplications::Status))
                    .col(timestamp_with_time_zone(MembershipApplications::AppliedAt))
                    .col(binary(MembershipApplications::Record))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            MembershipApplications::Table.into_iden(),
            MembershipRubbers::Table.into_iden(),
            MembershipDraws::Table.into_iden(),
            MembershipTables::Table.into_iden(),
            MembershipTableEvents::Table.into_iden(),
            MembershipRoomEvents::Table.into_iden(),
            MembershipJournal::Table.into_iden(),
            MembershipPlayers::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
