//! A duplicate session's movement (duplicate Law 8A: the Director instructs which boards each
//! table plays and which contestants sit there) and the boards the Director released.
//!
//! - `scoring_board_tables`: table T plays board B of session S, North-South one contestant and
//!   East-West another. The game service starts a board only at a table the movement sends it
//!   to, and a board's cards stay hidden until every such table has a result on it.
//! - `scoring_board_releases`: boards the Director released before that (for instance a board
//!   one table cannot play), so that their hands may be shown.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ScoringBoardTables {
    Table,
    SessionId,
    BoardNumber,
    TableId,
    NsContestant,
    EwContestant,
    AssignedBy,
    AssignedAt,
}

#[derive(DeriveIden)]
enum ScoringBoardReleases {
    Table,
    SessionId,
    BoardNumber,
    ReleasedBy,
    ReleasedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ScoringBoardTables::Table)
                    .if_not_exists()
                    .col(string(ScoringBoardTables::SessionId))
                    .col(integer(ScoringBoardTables::BoardNumber))
                    .col(string(ScoringBoardTables::TableId))
                    .col(string(ScoringBoardTables::NsContestant))
                    .col(string(ScoringBoardTables::EwContestant))
                    .col(string(ScoringBoardTables::AssignedBy))
                    .col(timestamp_with_time_zone(ScoringBoardTables::AssignedAt))
                    .primary_key(
                        Index::create()
                            .col(ScoringBoardTables::SessionId)
                            .col(ScoringBoardTables::BoardNumber)
                            .col(ScoringBoardTables::TableId),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ScoringBoardReleases::Table)
                    .if_not_exists()
                    .col(string(ScoringBoardReleases::SessionId))
                    .col(integer(ScoringBoardReleases::BoardNumber))
                    .col(string(ScoringBoardReleases::ReleasedBy))
                    .col(timestamp_with_time_zone(ScoringBoardReleases::ReleasedAt))
                    .primary_key(
                        Index::create().col(ScoringBoardReleases::SessionId).col(ScoringBoardReleases::BoardNumber),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ScoringBoardReleases::Table).if_exists().to_owned()).await?;
        manager.drop_table(Table::drop().table(ScoringBoardTables::Table).if_exists().to_owned()).await
    }
}
