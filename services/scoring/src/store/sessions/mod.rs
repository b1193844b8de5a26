//! Duplicate sessions in Postgres: the session and its standings, one row per table result with
//! the scores it now earns, and the chain of score versions. Every change rescores what it moves
//! through the laws crate (see [`crate::session`] and [`rescore`]) in the transaction that makes
//! it, so that what is read is always the score of the latest version.
//!
//! Split by concern: who sees what ([`access`]), the commands that change a session
//! ([`commands`]), the session as the command runtime runs it ([`journal`]), rescoring a change
//! and making what it writes ([`rescore`]), a pairs session's standings kept
//! a row per contestant ([`standings`]), reads ([`queries`]) and the watch stream and its events
//! ([`streams`]). This module keeps the session's rows and their
//! translation to the contract, which all of them share.

mod access;
mod commands;
mod journal;
mod movement_changes;
mod queries;
mod rescore;
mod standings;
mod streams;
#[cfg(test)]
mod tests;
mod warm;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use laws::score::correction::{CorrectionPeriod, check_board_correction};
use laws::{Deal, Law};
use prost::Message;
use sea_orm::sea_query::ExprTrait;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, TransactionTrait,
};

use super::movement;
use super::pads::citation;
use super::{Page, Replay, decode, decode_opt, version_proto};
use crate::entity::{board_result, score_version, session, session_standing};
use crate::live::{Feed, FeedEvent, Watch};
use crate::session::{self as domain, ButlerDatum, Row};
use crate::time;
use platform::ServiceError;
use platform::auth::Principal;
use platform::db::Db;

use access::{Visibility, contestants_of, is_staff, redact, visibility, visibility_beside};
use rescore::{Change, Outline};
use standings::{Frame, Kept, rows_of};
use warm::SessionState;

/// A session's event stream.
pub fn stream(session_id: &str) -> String {
    format!("session:{session_id}")
}

/// The club's session settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SessionSettings {
    /// How the Butler datum is taken (Law 78D).
    pub datum: ButlerDatum,
    /// The correction period after publication (Law 79C1: 30 minutes unless the organiser sets
    /// otherwise).
    pub correction_period: Duration,
}

/// The duplicate sessions of the service.
#[derive(Debug, Clone)]
pub struct Sessions {
    db: Db,
    feed: Feed,
    settings: SessionSettings,
    runtime: std::sync::Arc<platform::runtime::Runtime<journal::SessionJournal>>,
}

/// The session as the contract shows it, from its row.
pub(super) fn session_proto(row: &session::Model) -> Result<spb::Session, ServiceError> {
    let mut definition: spb::Session = decode(&row.definition, "session definition")?;
    definition.session_id = row.session_id.clone();
    definition.status = row.status;
    definition.version = u64::try_from(row.version).unwrap_or(0);
    definition.created_at = Some(time::timestamp(row.created_at));
    definition.scores_published_at = row.scores_published_at.map(time::timestamp);
    definition.correction_period_ends_at = row.correction_period_ends_at.map(time::timestamp);
    Ok(definition)
}

/// The standings as stored with the session: a teams session's, or a pairs session's stored
/// before they were kept a row per contestant ([`standings`]) with each pair's tally, from
/// which its next change moves them there.
#[derive(Clone, PartialEq, Message)]
pub(super) struct StoredStandings {
    #[prost(message, repeated, tag = "1")]
    standings: Vec<spb::Standing>,
    #[prost(message, repeated, tag = "2")]
    tallies: Vec<standings::StoredTally>,
    /// Whether `tallies` is kept: false for a session stored before they were, which is scored
    /// whole once to make them.
    #[prost(bool, tag = "3")]
    tallied: bool,
    /// Whether the standings are kept a row per contestant (`scoring_session_standings`), and
    /// nothing else here.
    #[prost(bool, tag = "4")]
    in_rows: bool,
}

pub(super) fn key_of(row: &board_result::Model) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: row.session_id.clone(),
        board_number: u32::try_from(row.board_number).unwrap_or(0),
        north_south_contestant_id: row.ns_contestant.clone(),
        east_west_contestant_id: row.ew_contestant.clone(),
    }
}

pub(super) fn domain_row(row: &board_result::Model) -> Result<Row, ServiceError> {
    Ok(Row {
        board: u32::try_from(row.board_number).unwrap_or(0),
        ns: row.ns_contestant.clone(),
        ew: row.ew_contestant.clone(),
        table_result: decode_opt(row.table_result.as_ref(), "table result")?,
        adjustment: decode_opt(row.adjustment.as_ref(), "adjustment")?,
        form: u8::try_from(row.form).map_err(ServiceError::internal)?,
    })
}

/// A stored result as the contract shows it.
pub(super) fn result_proto(row: &board_result::Model) -> Result<spb::BoardResult, ServiceError> {
    Ok(spb::BoardResult {
        result_id: row.result_id.clone(),
        key: Some(key_of(row)),
        deal_id: row.deal_id.clone().unwrap_or_default(),
        kind: row.kind,
        table_result: decode_opt(row.table_result.as_ref(), "table result")?,
        adjustment: decode_opt(row.adjustment.as_ref(), "adjustment")?,
        north_south: Some(decode(&row.ns_values, "score values")?),
        east_west: Some(decode(&row.ew_values, "score values")?),
        source: row.source,
        ruling_id: row.ruling_id.clone(),
        appeal_id: row.appeal_id.clone(),
        version: u64::try_from(row.version).unwrap_or(0),
        recorded_at: Some(time::timestamp(row.recorded_at)),
        form: u32::try_from(row.form).unwrap_or(0),
    })
}

pub(super) fn board_target(key: &pb::BoardResultKey) -> pb::ScoreTarget {
    pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key.clone())) }
}

impl Sessions {
    /// The sessions over `db`, announcing changes on `feed`.
    pub fn new(db: Db, feed: Feed, settings: SessionSettings) -> Sessions {
        let runtime = platform::runtime::Runtime::new(db.clone(), feed.live().clone(), journal::SessionJournal);
        Sessions { db, feed, settings, runtime: std::sync::Arc::new(runtime) }
    }

    /// Creates a session: its boards (Law 2) and contestants.
    #[tracing::instrument(skip_all, fields(name = %request.name))]
    pub async fn create(&self, request: spb::CreateSessionRequest) -> Result<spb::Session, ServiceError> {
        let definition = domain::define(request)?;
        let session_id = uuid::Uuid::now_v7().to_string();
        let created_at = time::now();
        // A pairs session keeps its standings a row per contestant from the start; a teams
        // session, scored whole, keeps them in its row.
        let pairs = definition.scoring_method != spb::ScoringMethod::TeamImps as i32;
        let stored = StoredStandings { tallied: true, in_rows: pairs, ..Default::default() };
        let model = session::ActiveModel {
            session_id: Set(session_id.clone()),
            name: Set(definition.name.clone()),
            definition: Set(definition.encode_to_vec()),
            status: Set(spb::SessionStatus::Open as i32),
            version: Set(0),
            last_sequence: Set(0),
            standings: Set(stored.encode_to_vec()),
            scores_published_at: Set(None),
            correction_period_ends_at: Set(None),
            created_at: Set(created_at),
        };
        let txn = self.db.begin().await?;
        let row = session::Entity::insert(model).exec_with_returning(&txn).await?;
        if pairs {
            Self::write_kept(&txn, &rows_of(&session_id, &definition, &Default::default())).await?;
        }
        txn.commit().await?;
        session_proto(&row)
    }

    pub(super) async fn row<C: ConnectionTrait>(db: &C, session_id: &str) -> Result<session::Model, ServiceError> {
        session::Entity::find_by_id(session_id)
            .one(db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("session {session_id}")))
    }

    /// A session, the hands of boards the principal may not see yet left out.
    pub async fn get(&self, session_id: &str, principal: &Principal) -> Result<spb::Session, ServiceError> {
        let row = Self::row(&self.db, session_id).await?;
        let mut session = session_proto(&row)?;
        let released = movement::describe(&self.db, &row, &mut session).await?;
        let visibility = visibility_beside(&self.db, &row, &session, principal, released).await?;
        Ok(redact(session, &visibility))
    }

    /// Sessions, newest first.
    pub async fn list(
        &self,
        request: &spb::ListSessionsRequest,
        principal: &Principal,
    ) -> Result<spb::ListSessionsResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let rows = session::Entity::find()
            .order_by_desc(session::Column::CreatedAt)
            .order_by_desc(session::Column::SessionId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let mut sessions = Vec::new();
        for row in rows.iter().take(page.size as usize) {
            let mut session = session_proto(row)?;
            let released = movement::describe(&self.db, row, &mut session).await?;
            let visibility = visibility_beside(&self.db, row, &session, principal, released).await?;
            sessions.push(redact(session, &visibility));
        }
        Ok(spb::ListSessionsResponse { sessions, page: Some(page.response_to(fetched)) })
    }

    pub(super) async fn results<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
    ) -> Result<Vec<board_result::Model>, ServiceError> {
        Ok(board_result::Entity::find()
            .filter(board_result::Column::SessionId.eq(session_id))
            .order_by_asc(board_result::Column::BoardNumber)
            .order_by_asc(board_result::Column::RecordedAt)
            .order_by_asc(board_result::Column::ResultId)
            .all(db)
            .await?)
    }

    pub(super) async fn version_by_key<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
        idem_key: &str,
    ) -> Result<Option<spb::ScoreVersion>, ServiceError> {
        let row = score_version::Entity::find()
            .filter(score_version::Column::OwnerId.eq(session_id))
            .filter(score_version::Column::IdemKey.eq(idem_key))
            .one(db)
            .await?;
        row.as_ref().map(version_proto).transpose()
    }

    /// Checks the key against the session: its board and two contestants (from the definition
    /// when the change read it, else from the contestants' rows).
    async fn check_key(
        &self,
        state: &SessionState,
        outline: &Outline,
        key: &pb::BoardResultKey,
    ) -> Result<(), ServiceError> {
        if outline.board(key.board_number).is_none() {
            return Err(ServiceError::invalid(
                "key.board_number",
                format!("board {} is not in this session", key.board_number),
            ));
        }
        let ids = [key.north_south_contestant_id.as_str(), key.east_west_contestant_id.as_str()];
        let mut kept = Kept::default();
        if outline.whole.is_none() {
            self.kept_at(state, &ids, &mut kept).await?;
        }
        for (field, id) in [("key.north_south_contestant_id", ids[0]), ("key.east_west_contestant_id", ids[1])] {
            let known = match &outline.whole {
                Some(definition) => domain::contestant(definition, id).is_some(),
                None => kept.has(id),
            };
            if !known {
                return Err(ServiceError::invalid(field, format!("{id:?} is not a contestant of this session")));
            }
        }
        if key.north_south_contestant_id == key.east_west_contestant_id {
            return Err(ServiceError::Rule {
                message: format!(
                    "contestant {} cannot sit both North-South and East-West on board {} (Law 4)",
                    key.north_south_contestant_id, key.board_number
                ),
                law: Law::duplicate(4, ""),
            });
        }
        Ok(())
    }

    /// A transaction that reads one state of the session: the session's row and its
    /// contestants' standing rows are two statements, and Postgres's default isolation would let
    /// a change land between them (SQLite's transactions already read one state).
    async fn read_txn(db: &Db) -> Result<DatabaseTransaction, ServiceError> {
        if db.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(db.begin().await?);
        }
        let read_only = Some(sea_orm::AccessMode::ReadOnly);
        Ok(db.begin_with_config(Some(sea_orm::IsolationLevel::RepeatableRead), read_only).await?)
    }
}
