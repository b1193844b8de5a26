//! `scoring_session_standings`: a duplicate pairs session's standing kept a row per contestant,
//! its tally over the boards it played (the encoded tally the scoring service keeps, see
//! `services/scoring/src/store/sessions/standings.rs`). A change to one board rewrites only the
//! rows of the contestants it moves; ranks depend on every contestant and are derived when the
//! standings are read, so they are not stored.
//!
//! `pair` is the contestant's position in the session's definition, as the laws crate numbers
//! pairs; every contestant has a row from the session's creation. Sessions created before keep
//! their standings in `scoring_sessions.standings` until their next change moves them here.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ScoringSessionStandings {
    Table,
    SessionId,
    Pair,
    ContestantId,
    Tally,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ScoringSessionStandings::Table)
                    .if_not_exists()
                    .col(string(ScoringSessionStandings::SessionId))
                    .col(integer(ScoringSessionStandings::Pair))
                    .col(string(ScoringSessionStandings::ContestantId))
                    .col(binary(ScoringSessionStandings::Tally))
                    .primary_key(
                        Index::create().col(ScoringSessionStandings::SessionId).col(ScoringSessionStandings::Pair),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_session_standings_contestant")
                    .table(ScoringSessionStandings::Table)
                    .if_not_exists()
                    .col(ScoringSessionStandings::SessionId)
                    .col(ScoringSessionStandings::ContestantId)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ScoringSessionStandings::Table).if_exists().to_owned()).await
    }
}
