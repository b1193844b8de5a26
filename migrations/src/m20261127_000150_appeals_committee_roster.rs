//! The appeals committee as the club runs it (the Club Appeals Committee: "a club should establish
//! an Appeals Committee ..., and any game may designate a committee to which appeals may be taken"):
//!
//! - `appeals_committee_roster`: the club's committee, one row per member's term, with its chair;
//! - `appeals_declared_conflicts`: the conflicts the club declares for its members (a player, a
//!   partnership, a table or an appeal they may not judge);
//! - `appeals_game_committees`: the committee a rubber's players designated, with who of the four
//!   has confirmed it.
//!
//! All three belong to the appeals service.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AppealsCommitteeRoster {
    Table,
    EntryId,
    MemberId,
    Chair,
    TermFrom,
    TermUntil,
    Version,
    UpdatedBy,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum AppealsDeclaredConflicts {
    Table,
    ConflictId,
    MemberId,
    Kind,
    Subject,
    SubjectOther,
    Reason,
    DeclaredBy,
    DeclaredAt,
}

#[derive(DeriveIden)]
enum AppealsGameCommittees {
    Table,
    RubberId,
    TableId,
    Members,
    Players,
    Confirmed,
    Agreed,
    DesignatedBy,
    DesignatedAt,
    AgreedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AppealsCommitteeRoster::Table)
                    .if_not_exists()
                    .col(string(AppealsCommitteeRoster::EntryId).primary_key())
                    .col(string(AppealsCommitteeRoster::MemberId))
                    .col(boolean(AppealsCommitteeRoster::Chair))
                    .col(timestamp_with_time_zone(AppealsCommitteeRoster::TermFrom))
                    .col(timestamp_with_time_zone_null(AppealsCommitteeRoster::TermUntil))
                    .col(big_integer(AppealsCommitteeRoster::Version))
                    .col(string(AppealsCommitteeRoster::UpdatedBy))
                    .col(timestamp_with_time_zone(AppealsCommitteeRoster::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_committee_roster_member")
                    .table(AppealsCommitteeRoster::Table)
                    .col(AppealsCommitteeRoster::MemberId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsDeclaredConflicts::Table)
                    .if_not_exists()
                    .col(string(AppealsDeclaredConflicts::ConflictId).primary_key())
                    .col(string(AppealsDeclaredConflicts::MemberId))
                    .col(string(AppealsDeclaredConflicts::Kind))
                    .col(string(AppealsDeclaredConflicts::Subject))
                    .col(string_null(AppealsDeclaredConflicts::SubjectOther))
                    .col(text(AppealsDeclaredConflicts::Reason))
                    .col(string(AppealsDeclaredConflicts::DeclaredBy))
                    .col(timestamp_with_time_zone(AppealsDeclaredConflicts::DeclaredAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_declared_conflicts_member")
                    .table(AppealsDeclaredConflicts::Table)
                    .col(AppealsDeclaredConflicts::MemberId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsGameCommittees::Table)
                    .if_not_exists()
                    .col(string(AppealsGameCommittees::RubberId).primary_key())
                    .col(string(AppealsGameCommittees::TableId))
                    .col(text(AppealsGameCommittees::Members))
                    .col(text(AppealsGameCommittees::Players))
                    .col(text(AppealsGameCommittees::Confirmed))
                    .col(boolean(AppealsGameCommittees::Agreed))
                    .col(string(AppealsGameCommittees::DesignatedBy))
                    .col(timestamp_with_time_zone(AppealsGameCommittees::DesignatedAt))
                    .col(timestamp_with_time_zone_null(AppealsGameCommittees::AgreedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            AppealsGameCommittees::Table.into_iden(),
            AppealsDeclaredConflicts::Table.into_iden(),
            AppealsCommitteeRoster::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
