//! The scoring service's tables. A score is never edited in place: every result, correction,
//! adjustment and recomputation is a row of `scoring_score_versions`, from which a scorepad is
//! re-derived by replaying it through the laws crate; the scorepad, the session standings and
//! each board result's scores are also kept as they stand after the latest version (written in
//! the same transaction), so that reads need no replay. `scoring_events` is each stream's
//! numbered events, which watchers resume from.
//!
//! - `scoring_scorepads`: one rubber or Chicago pad per rubber line-up; `version` is checked and
//!   incremented by every change (optimistic concurrency), `state` is the encoded pad.
//! - `scoring_sessions`: a duplicate session, its boards and contestants (`definition`), its
//!   version, and its standings as they stand (`standings`).
//! - `scoring_board_results`: one row per table result on a board (or adjusted score where the
//!   board was not played), with the scores it now earns for each side.
//! - `scoring_score_versions`: the chain of versions of every pad and session; `idem_key` makes
//!   results idempotent by deal id and adjustments by ruling and appeal id.
//! - `scoring_events`: every event of every watched stream, by (stream, sequence).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ScoringScorepads {
    Table,
    ScorepadId,
    Kind,
    TableId,
    RubberId,
    Definition,
    Status,
    Version,
    LastSequence,
    State,
    CreatedAt,
    NetAgreedAt,
}

#[derive(DeriveIden)]
enum ScoringSessions {
    Table,
    SessionId,
    Name,
    Definition,
    Status,
    Version,
    LastSequence,
    Standings,
    ScoresPublishedAt,
    CorrectionPeriodEndsAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ScoringBoardResults {
    Table,
    ResultId,
    SessionId,
    BoardNumber,
    NsContestant,
    EwContestant,
    DealId,
    TableResult,
    Adjustment,
    Kind,
    Source,
    RulingId,
    AppealId,
    NsValues,
    EwValues,
    Version,
    RecordedAt,
}

#[derive(DeriveIden)]
enum ScoringScoreVersions {
    Table,
    OwnerId,
    Version,
    Cause,
    Operation,
    Target,
    DealId,
    BoardNumber,
    NsContestant,
    EwContestant,
    Result,
    Adjustment,
    Hands,
    FirstDealer,
    Source,
    Reason,
    RulingId,
    AppealId,
    Law,
    RecordedBy,
    RecordedAt,
    IdemKey,
}

#[derive(DeriveIden)]
enum ScoringEvents {
    Table,
    StreamId,
    Sequence,
    Payload,
    OccurredAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ScoringScorepads::Table)
                    .if_not_exists()
                    .col(string(ScoringScorepads::ScorepadId).primary_key())
                    .col(integer(ScoringScorepads::Kind))
                    .col(string(ScoringScorepads::TableId))
                    .col(string(ScoringScorepads::RubberId))
                    .col(binary(ScoringScorepads::Definition))
                    .col(integer(ScoringScorepads::Status))
                    .col(big_integer(ScoringScorepads::Version))
                    .col(big_integer(ScoringScorepads::LastSequence))
                    .col(binary(ScoringScorepads::State))
                    .col(timestamp_with_time_zone(ScoringScorepads::CreatedAt))
                    .col(timestamp_with_time_zone_null(ScoringScorepads::NetAgreedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_scorepads_rubber")
                    .table(ScoringScorepads::Table)
                    .col(ScoringScorepads::RubberId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_scorepads_table")
                    .table(ScoringScorepads::Table)
                    .col(ScoringScorepads::TableId)
                    .col(ScoringScorepads::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_scorepads_created")
                    .table(ScoringScorepads::Table)
                    .col(ScoringScorepads::CreatedAt)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ScoringSessions::Table)
                    .if_not_exists()
                    .col(string(ScoringSessions::SessionId).primary_key())
                    .col(string(ScoringSessions::Name))
                    .col(binary(ScoringSessions::Definition))
                    .col(integer(ScoringSessions::Status))
                    .col(big_integer(ScoringSessions::Version))
                    .col(big_integer(ScoringSessions::LastSequence))
                    .col(binary(ScoringSessions::Standings))
                    .col(timestamp_with_time_zone_null(ScoringSessions::ScoresPublishedAt))
                    .col(timestamp_with_time_zone_null(ScoringSessions::CorrectionPeriodEndsAt))
                    .col(timestamp_with_time_zone(ScoringSessions::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_sessions_created")
                    .table(ScoringSessions::Table)
                    .col(ScoringSessions::CreatedAt)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ScoringBoardResults::Table)
                    .if_not_exists()
                    .col(string(ScoringBoardResults::ResultId).primary_key())
                    .col(string(ScoringBoardResults::SessionId))
                    .col(integer(ScoringBoardResults::BoardNumber))
                    .col(string(ScoringBoardResults::NsContestant))
                    .col(string(ScoringBoardResults::EwContestant))
                    .col(string_null(ScoringBoardResults::DealId))
                    .col(binary_null(ScoringBoardResults::TableResult))
                    .col(binary_null(ScoringBoardResults::Adjustment))
                    .col(integer(ScoringBoardResults::Kind))
                    .col(integer(ScoringBoardResults::Source))
                    .col(string(ScoringBoardResults::RulingId))
                    .col(string(ScoringBoardResults::AppealId))
                    .col(binary(ScoringBoardResults::NsValues))
                    .col(binary(ScoringBoardResults::EwValues))
                    .col(big_integer(ScoringBoardResults::Version))
                    .col(timestamp_with_time_zone(ScoringBoardResults::RecordedAt))
                    .to_owned(),
            )
            .await?;
        // One result per board and North-South contestant; the East-West contestant's single
        // result per board is checked by the laws crate under the session's version lock.
        manager
            .create_index(
                Index::create()
                    .name("scoring_board_results_board_ns")
                    .table(ScoringBoardResults::Table)
                    .col(ScoringBoardResults::SessionId)
                    .col(ScoringBoardResults::BoardNumber)
                    .col(ScoringBoardResults::NsContestant)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_board_results_deal")
                    .table(ScoringBoardResults::Table)
                    .col(ScoringBoardResults::SessionId)
                    .col(ScoringBoardResults::DealId)
                    .unique()
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ScoringScoreVersions::Table)
                    .if_not_exists()
                    .col(string(ScoringScoreVersions::OwnerId))
                    .col(big_integer(ScoringScoreVersions::Version))
                    .col(integer(ScoringScoreVersions::Cause))
                    .col(string(ScoringScoreVersions::Operation))
                    .col(binary_null(ScoringScoreVersions::Target))
                    .col(string_null(ScoringScoreVersions::DealId))
                    .col(integer_null(ScoringScoreVersions::BoardNumber))
                    .col(string_null(ScoringScoreVersions::NsContestant))
                    .col(string_null(ScoringScoreVersions::EwContestant))
                    .col(binary_null(ScoringScoreVersions::Result))
                    .col(binary_null(ScoringScoreVersions::Adjustment))
                    .col(binary_null(ScoringScoreVersions::Hands))
                    .col(integer_null(ScoringScoreVersions::FirstDealer))
                    .col(integer(ScoringScoreVersions::Source))
                    .col(text(ScoringScoreVersions::Reason))
                    .col(string(ScoringScoreVersions::RulingId))
                    .col(string(ScoringScoreVersions::AppealId))
                    .col(binary_null(ScoringScoreVersions::Law))
                    .col(string(ScoringScoreVersions::RecordedBy))
                    .col(timestamp_with_time_zone(ScoringScoreVersions::RecordedAt))
                    .col(string_null(ScoringScoreVersions::IdemKey))
                    .primary_key(Index::create().col(ScoringScoreVersions::OwnerId).col(ScoringScoreVersions::Version))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("scoring_score_versions_idem")
                    .table(ScoringScoreVersions::Table)
                    .col(ScoringScoreVersions::OwnerId)
                    .col(ScoringScoreVersions::IdemKey)
                    .unique()
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ScoringEvents::Table)
                    .if_not_exists()
                    .col(string(ScoringEvents::StreamId))
                    .col(big_integer(ScoringEvents::Sequence))
                    .col(binary(ScoringEvents::Payload))
                    .col(timestamp_with_time_zone(ScoringEvents::OccurredAt))
                    .primary_key(Index::create().col(ScoringEvents::StreamId).col(ScoringEvents::Sequence))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ScoringEvents::Table.into_iden(),
            ScoringScoreVersions::Table.into_iden(),
            ScoringBoardResults::Table.into_iden(),
            ScoringSessions::Table.into_iden(),
            ScoringScorepads::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
