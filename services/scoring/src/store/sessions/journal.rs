//! Duplicate sessions as the command runtime runs them ([`platform::runtime::Aggregate`]). A
//! session's state is its row: the journal of score versions is kept, but a session is not
//! replayed from it, because its rows already hold every result with the score it earns now. A
//! change reads the few rows it needs while it is decided (its board, the contestants it moves)
//! and is written only if the session is still at the version it was decided on: every change
//! moves that version in the transaction that writes it, so rows read from a later state make the
//! write conflict, and the change is decided again.

use std::sync::Arc;

use bytes::Bytes;
use platform::runtime::{Aggregate, WriteError};
use sea_orm::sea_query::Expr;

use super::*;
use crate::entity::event;
use crate::live::{FeedHead, channel, head_key};
use crate::store::version_row;

use super::warm::SessionState;

/// What a change of a session answers: the results it changed on its board, the score version
/// that made it (or, for a change made before, that made it then), and the session, when the
/// change was its publication.
#[derive(Clone, PartialEq, Message)]
pub struct SessionChanged {
    /// The results.
    #[prost(message, repeated, tag = "1")]
    pub results: Vec<spb::BoardResult>,
    /// The version.
    #[prost(message, optional, tag = "2")]
    pub version: Option<spb::ScoreVersion>,
    /// The session, after its publication.
    #[prost(message, optional, tag = "3")]
    pub session: Option<spb::Session>,
}

/// Which of the session row's own columns a change moves, beside its version and last event.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Columns {
    /// The standings kept in the row.
    pub(super) standings: bool,
    /// The definition (hands learned for a board).
    pub(super) definition: bool,
    /// The status and the publication's times.
    pub(super) published: bool,
}

/// What one accepted change writes.
#[derive(Debug)]
pub struct SessionWrite {
    /// The session after the change.
    pub(super) next: Arc<SessionState>,
    /// The version the change was decided on.
    pub(super) from_version: i64,
    /// The row's columns it moves.
    pub(super) columns: Columns,
    /// Results new or rescored.
    pub(super) rows: Vec<board_result::Model>,
    /// Contestants' standing rows, new or moved.
    pub(super) kept: Vec<session_standing::Model>,
    /// The score versions it adds, with how each replays.
    pub(super) versions: Vec<(spb::ScoreVersion, Replay)>,
    /// Its events.
    pub(super) events: Vec<FeedEvent>,
    /// Tables sent to boards and boards released: the movement (duplicate Law 8A).
    pub(super) movement: movement::MovementRows,
}

/// The duplicate sessions (see the module docs).
#[derive(Debug, Default)]
pub struct SessionJournal;

impl Aggregate for SessionJournal {
    type State = Arc<SessionState>;
    type Write = SessionWrite;
    const NAME: &'static str = "session";
    const LIVE_HOLDS_STATE: bool = false;

    fn version(state: &Arc<SessionState>) -> u64 {
        u64::try_from(state.row.version).unwrap_or(0)
    }

    fn live_key(&self, session_id: &str) -> String {
        head_key(&stream(session_id))
    }

    fn channel(&self, session_id: &str) -> String {
        channel(&stream(session_id))
    }

    fn to_live(&self, state: &Arc<SessionState>) -> Bytes {
        let last_sequence = u64::try_from(state.row.last_sequence).unwrap_or(0);
        Bytes::from(FeedHead { last_sequence }.encode_to_vec())
    }

    fn state_of_live(&self, _id: &str, _version: u64, _live: &[u8]) -> Result<Option<Self::State>, ServiceError> {
        Ok(None)
    }

    /// The session as it stands: what this process holds, if the session is still at its
    /// version (one primary-key lookup of the version), else its row read afresh.
    async fn read_journal(
        &self,
        db: &Db,
        session_id: &str,
        known: Option<Arc<SessionState>>,
    ) -> Result<Arc<SessionState>, ServiceError> {
        if let Some(known) = known
            && self.journal_version(db, session_id).await? == Self::version(&known)
        {
            return Ok(known);
        }
        Ok(SessionState::loaded(Sessions::row(db, session_id).await?))
    }

    async fn journal_version(&self, db: &Db, session_id: &str) -> Result<u64, ServiceError> {
        let version = session::Entity::find_by_id(session_id)
            .select_only()
            .column(session::Column::Version)
            .into_tuple::<i64>()
            .one(db)
            .await?;
        Ok(version.map_or(0, |v| u64::try_from(v).unwrap_or(0)))
    }

    /// Each change: the session's row first, moved only from the version the change was decided
    /// on (which settles races), then its results, standings rows, versions and events.
    async fn write(&self, txn: &DatabaseTransaction, writes: Vec<&SessionWrite>) -> Result<(), WriteError> {
        for write in writes {
            let next = &write.next.row;
            let mut update = session::Entity::update_many()
                .col_expr(session::Column::Version, Expr::value(next.version))
                .col_expr(session::Column::LastSequence, Expr::value(next.last_sequence));
            if write.columns.standings {
                update = update.col_expr(session::Column::Standings, Expr::value(next.standings.clone()));
            }
            if write.columns.definition {
                update = update.col_expr(session::Column::Definition, Expr::value(next.definition.clone()));
            }
            if write.columns.published {
                update = update
                    .col_expr(session::Column::Status, Expr::value(next.status))
                    .col_expr(session::Column::ScoresPublishedAt, Expr::value(next.scores_published_at))
                    .col_expr(session::Column::CorrectionPeriodEndsAt, Expr::value(next.correction_period_ends_at));
            }
            let updated = update
                .filter(session::Column::SessionId.eq(next.session_id.as_str()))
                .filter(session::Column::Version.eq(write.from_version))
                .exec(txn)
                .await?;
            if updated.rows_affected != 1 {
                return Err(WriteError::Conflict);
            }
            rescore::write_rows(txn, write.rows.iter()).await?;
            write.movement.write(txn).await?;
            Sessions::write_kept(txn, &write.kept).await?;
            for (version, replay) in &write.versions {
                score_version::Entity::insert(version_row(&next.session_id, version, replay.clone()))
                    .exec_without_returning(txn)
                    .await?;
            }
            if !write.events.is_empty() {
                let occurred_at = time::now();
                let rows = write.events.iter().map(|e| event::ActiveModel {
                    stream_id: Set(stream(&next.session_id)),
                    sequence: Set(i64::try_from(e.sequence).unwrap_or(i64::MAX)),
                    payload: Set(e.payload.clone()),
                    occurred_at: Set(occurred_at),
                });
                event::Entity::insert_many(rows).exec_without_returning(txn).await?;
            }
        }
        Ok(())
    }
}
