//! `membership_snapshots`: a room's state after a journal entry, so that a process starting on a
//! long journal replays only the entries after the latest snapshot. A snapshot is only a
//! shortcut: `format` names its layout, and one the running code cannot read is passed over (the
//! journal is replayed from the start). The service keeps the latest two.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MembershipSnapshots {
    Table,
    Room,
    Sequence,
    Format,
    State,
    TakenAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MembershipSnapshots::Table)
                    .if_not_exists()
                    .col(string(MembershipSnapshots::Room))
                    .col(big_integer(MembershipSnapshots::Sequence))
                    .col(integer(MembershipSnapshots::Format))
                    .col(binary(MembershipSnapshots::State))
                    .col(timestamp_with_time_zone(MembershipSnapshots::TakenAt))
                    .primary_key(Index::create().col(MembershipSnapshots::Room).col(MembershipSnapshots::Sequence))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(MembershipSnapshots::Table).if_exists().to_owned()).await
    }
}
