//! Duplicate sessions in Postgres: the session and its standings, one row per table result with
//! the scores it now earns, and the chain of score versions. Every change rescores the whole
//! session through the laws crate (see [`crate::session`]) in the transaction that makes it, so
//! that what is read is always the score of the latest version.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use laws::score::correction::{CorrectionPeriod, check_board_correction};
use laws::{Deal, Law};
use prost::Message;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, TransactionTrait,
};

use super::movement;
use super::pads::citation;
use super::{Page, Replay, WriteError, decode, decode_opt, insert_events, insert_version, retry, version_proto};
use crate::entity::{board_result, score_version, session};
use crate::live::{Feed, FeedEvent, Watch};
use crate::session::{self as domain, ButlerDatum, Row};
use crate::time;
use platform::ServiceError;
use platform::auth::{Principal, Role};
use platform::db::Db;

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
}

/// The session as the contract shows it, from its row.
fn session_proto(row: &session::Model) -> Result<spb::Session, ServiceError> {
    let mut definition: spb::Session = decode(&row.definition, "session definition")?;
    definition.session_id = row.session_id.clone();
    definition.status = row.status;
    definition.version = u64::try_from(row.version).unwrap_or(0);
    definition.created_at = Some(time::timestamp(row.created_at));
    definition.scores_published_at = row.scores_published_at.map(time::timestamp);
    definition.correction_period_ends_at = row.correction_period_ends_at.map(time::timestamp);
    Ok(definition)
}

/// The standings as stored with the session.
#[derive(Clone, PartialEq, Message)]
struct StoredStandings {
    #[prost(message, repeated, tag = "1")]
    standings: Vec<spb::Standing>,
}

fn key_of(row: &board_result::Model) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: row.session_id.clone(),
        board_number: u32::try_from(row.board_number).unwrap_or(0),
        north_south_contestant_id: row.ns_contestant.clone(),
        east_west_contestant_id: row.ew_contestant.clone(),
    }
}

fn domain_row(row: &board_result::Model) -> Result<Row, ServiceError> {
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
fn result_proto(row: &board_result::Model) -> Result<spb::BoardResult, ServiceError> {
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

fn board_target(key: &pb::BoardResultKey) -> pb::ScoreTarget {
    pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key.clone())) }
}

/// A change to one board result, as a command decided it.
struct Change {
    /// The result row after the change (new or updated).
    row: board_result::Model,
    /// Whether the row is new.
    insert: bool,
    /// The version's cause, reason, law, result and adjustment (its number is given on commit).
    version: spb::ScoreVersion,
    /// What was done, stored with the version.
    operation: &'static str,
    /// The natural idempotency key.
    idem_key: Option<String>,
    /// Hands for the board learned from the recording, to keep in the definition.
    hands: Option<(u32, pb::Deal)>,
    /// Other rows of the same board changed with it (a fouled board's forms, Law 87B).
    also: Vec<board_result::Model>,
}

/// What a committed change produced.
struct Committed {
    version: spb::ScoreVersion,
    results: Vec<spb::BoardResult>,
    events: Vec<FeedEvent>,
}

/// Which boards a principal may see the hands and results of before publication: every board
/// for the desk, the director, the committee and the administrator, and for everyone once the
/// official score is published; otherwise, for a player, only the boards his pair or team has a
/// result on (he must not see a board's hands or other tables' results before he plays it).
#[derive(Debug, Clone)]
enum Visibility {
    All,
    Boards(HashSet<u32>),
}

impl Visibility {
    fn sees(&self, board: u32) -> bool {
        match self {
            Visibility::All => true,
            Visibility::Boards(boards) => boards.contains(&board),
        }
    }
}

fn is_staff(principal: &Principal) -> bool {
    principal.has_any(&[Role::Desk, Role::Arbiter, Role::Committee, Role::Admin, Role::Service])
}

/// The contestants `player_id` plays for.
fn contestants_of<'a>(session: &'a spb::Session, player_id: &str) -> Vec<&'a str> {
    session
        .contestants
        .iter()
        .filter(|c| c.player_ids.iter().any(|p| p == player_id))
        .map(|c| c.contestant_id.as_str())
        .collect()
}

async fn visibility<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    definition: &spb::Session,
    principal: &Principal,
) -> Result<Visibility, ServiceError> {
    if is_staff(principal) || row.status == spb::SessionStatus::Published as i32 {
        return Ok(Visibility::All);
    }
    // Every table of its movement has played it, or the director released it.
    let released = movement::released_boards(db, row, definition).await?;
    visibility_beside(db, row, definition, principal, released).await
}

/// [`visibility`], given the boards already known to be released (a reader that also shows
/// them asks once).
async fn visibility_beside<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    definition: &spb::Session,
    principal: &Principal,
    released: HashSet<u32>,
) -> Result<Visibility, ServiceError> {
    if is_staff(principal) || row.status == spb::SessionStatus::Published as i32 {
        return Ok(Visibility::All);
    }
    let mine = contestants_of(definition, &principal.subject);
    if mine.is_empty() {
        return Ok(Visibility::Boards(released));
    }
    let boards: Vec<i32> = board_result::Entity::find()
        .select_only()
        .column(board_result::Column::BoardNumber)
        .filter(board_result::Column::SessionId.eq(row.session_id.as_str()))
        .filter(
            board_result::Column::NsContestant
                .is_in(mine.iter().copied())
                .or(board_result::Column::EwContestant.is_in(mine.iter().copied())),
        )
        .into_tuple()
        .all(db)
        .await?;
    Ok(Visibility::Boards(boards.into_iter().filter_map(|b| u32::try_from(b).ok()).chain(released).collect()))
}

/// The session with the hands of boards the principal may not see yet left out.
fn redact(mut session: spb::Session, visibility: &Visibility) -> spb::Session {
    for board in &mut session.boards {
        if !visibility.sees(board.number) {
            board.deal = None;
        }
    }
    session
}

impl Sessions {
    /// The sessions over `db`, announcing changes on `feed`.
    pub fn new(db: Db, feed: Feed, settings: SessionSettings) -> Sessions {
        Sessions { db, feed, settings }
    }

    /// Creates a session: its boards (Law 2) and contestants.
    #[tracing::instrument(skip_all, fields(name = %request.name))]
    pub async fn create(&self, request: spb::CreateSessionRequest) -> Result<spb::Session, ServiceError> {
        let definition = domain::define(request)?;
        let session_id = uuid::Uuid::now_v7().to_string();
        let created_at = time::now();
        let model = session::ActiveModel {
            session_id: Set(session_id.clone()),
            name: Set(definition.name.clone()),
            definition: Set(definition.encode_to_vec()),
            status: Set(spb::SessionStatus::Open as i32),
            version: Set(0),
            last_sequence: Set(0),
            standings: Set(StoredStandings::default().encode_to_vec()),
            scores_published_at: Set(None),
            correction_period_ends_at: Set(None),
            created_at: Set(created_at),
        };
        let row = session::Entity::insert(model).exec_with_returning(&self.db).await?;
        session_proto(&row)
    }

    async fn row<C: ConnectionTrait>(db: &C, session_id: &str) -> Result<session::Model, ServiceError> {
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

    /// Adds tables to the session's movement (duplicate Law 8A; see [`movement::assign`]).
    pub async fn assign(
        &self,
        request: &spb::AssignTablesRequest,
        principal: &Principal,
    ) -> Result<spb::Session, ServiceError> {
        let row = Self::row(&self.db, &request.session_id).await?;
        movement::assign(&self.db, &session_proto(&row)?, &request.assignments, &principal.subject).await?;
        self.get(&request.session_id, principal).await
    }

    /// Records the director's release of a board (see [`movement::release`]).
    pub async fn release(
        &self,
        request: &spb::ReleaseBoardRequest,
        principal: &Principal,
    ) -> Result<spb::Session, ServiceError> {
        let row = Self::row(&self.db, &request.session_id).await?;
        movement::release(&self.db, &session_proto(&row)?, request.board_number, &principal.subject).await?;
        self.get(&request.session_id, principal).await
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

    async fn results<C: ConnectionTrait>(db: &C, session_id: &str) -> Result<Vec<board_result::Model>, ServiceError> {
        Ok(board_result::Entity::find()
            .filter(board_result::Column::SessionId.eq(session_id))
            .order_by_asc(board_result::Column::BoardNumber)
            .order_by_asc(board_result::Column::RecordedAt)
            .order_by_asc(board_result::Column::ResultId)
            .all(db)
            .await?)
    }

    async fn version_by_key<C: ConnectionTrait>(
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

    /// Checks the key against the session: its board and two contestants.
    fn check_key(definition: &spb::Session, key: &pb::BoardResultKey) -> Result<(), ServiceError> {
        if domain::board_of(definition, key.board_number).is_none() {
            return Err(ServiceError::invalid(
                "key.board_number",
                format!("board {} is not in this session", key.board_number),
            ));
        }
        for (field, id) in [
            ("key.north_south_contestant_id", &key.north_south_contestant_id),
            ("key.east_west_contestant_id", &key.east_west_contestant_id),
        ] {
            if domain::contestant(definition, id).is_none() {
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

    /// Rescores the session with `change` applied, writes the change, the rescored results and
    /// standings, the versions and the events, and commits.
    async fn commit(
        &self,
        txn: DatabaseTransaction,
        row: &session::Model,
        mut definition: spb::Session,
        stored: Vec<board_result::Model>,
        change: Change,
    ) -> Result<Committed, WriteError> {
        let session_id = row.session_id.clone();
        let mut models = stored;
        let position = models.iter().position(|m| m.result_id == change.row.result_id);
        match position {
            Some(i) => models[i] = change.row.clone(),
            None => models.push(change.row.clone()),
        }
        for also in &change.also {
            if let Some(model) = models.iter_mut().find(|m| m.result_id == also.result_id) {
                *model = also.clone();
            }
        }
        let changed: HashSet<&str> = std::iter::once(change.row.result_id.as_str())
            .chain(change.also.iter().map(|m| m.result_id.as_str()))
            .collect();
        if let Some((board, hands)) = &change.hands
            && let Some(b) = definition.boards.iter_mut().find(|b| b.number == *board)
        {
            b.deal = Some(hands.clone());
        }
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        let scored = domain::score(&definition, &rows, self.settings.datum)?;

        let main_board = change.row.board_number;
        let mut number = u64::try_from(row.version).unwrap_or(0) + 1;
        let main = spb::ScoreVersion { version: number, ..change.version.clone() };
        // Which rows' scores moved: the changed one, its board across the field, and on other
        // boards only artificial scores following the session percentage (Law 12C2(c)).
        let mut rescored_boards: BTreeMap<i32, u64> = BTreeMap::new();
        rescored_boards.insert(main_board, number);
        let mut versions = vec![(main.clone(), change.operation, change.idem_key.clone())];
        let mut updated: Vec<usize> = Vec::new();
        for (i, (model, (ns, ew))) in models.iter_mut().zip(&scored.values).enumerate() {
            let (ns, ew) = (ns.encode_to_vec(), ew.encode_to_vec());
            let is_change = changed.contains(model.result_id.as_str());
            if !is_change && model.ns_values == ns && model.ew_values == ew {
                continue;
            }
            let version = if model.board_number == main_board {
                number
            } else {
                number += 1;
                let key = key_of(model);
                versions.push((
                    spb::ScoreVersion {
                        version: number,
                        target: Some(board_target(&key)),
                        cause: spb::ScoreVersionCause::Recomputed as i32,
                        reason: format!(
                            "rescored because board {main_board} changed: an artificial score follows the \
                             contestant's session percentage (Law 12C2(c))"
                        ),
                        result: decode_opt(model.table_result.as_ref(), "table result")?,
                        adjustment: decode_opt(model.adjustment.as_ref(), "adjustment")?,
                        law: Some(Law::duplicate(12, "C2").into()),
                        recorded_by: main.recorded_by.clone(),
                        recorded_at: main.recorded_at,
                        ..Default::default()
                    },
                    "recompute",
                    None,
                ));
                rescored_boards.entry(model.board_number).or_insert(number);
                number
            };
            model.ns_values = ns;
            model.ew_values = ew;
            model.version = i64::try_from(version).unwrap_or(i64::MAX);
            updated.push(i);
        }
        let standings = StoredStandings { standings: scored.standings }.encode_to_vec();
        let standings_changed = standings != row.standings;

        // Events: each rescored board with its version, then the standings.
        let mut sequence = u64::try_from(row.last_sequence).unwrap_or(0);
        let mut payloads = Vec::new();
        let occurred_at = main.recorded_at;
        for (board, version_number) in &rescored_boards {
            let version = versions.iter().find(|(v, _, _)| v.version == *version_number).map(|(v, _, _)| v.clone());
            let results =
                models.iter().filter(|m| m.board_number == *board).map(result_proto).collect::<Result<Vec<_>, _>>()?;
            sequence += 1;
            payloads.push((
                sequence,
                spb::SessionEvent {
                    sequence,
                    occurred_at,
                    session_id: session_id.clone(),
                    event: Some(spb::session_event::Event::BoardRescored(spb::BoardRescored {
                        version,
                        board_number: u32::try_from(*board).unwrap_or(0),
                        results,
                    })),
                }
                .encode_to_vec(),
            ));
        }
        if standings_changed {
            sequence += 1;
            let stored: StoredStandings = decode(&standings, "standings")?;
            payloads.push((
                sequence,
                spb::SessionEvent {
                    sequence,
                    occurred_at,
                    session_id: session_id.clone(),
                    event: Some(spb::session_event::Event::StandingsChanged(spb::StandingsChanged {
                        version: number,
                        standings: stored.standings,
                    })),
                }
                .encode_to_vec(),
            ));
        }

        // Writes: the session first (its version check settles races), then rows and history.
        let updated_session = session::Entity::update_many()
            .col_expr(session::Column::Version, Expr::value(i64::try_from(number).unwrap_or(i64::MAX)))
            .col_expr(session::Column::LastSequence, Expr::value(i64::try_from(sequence).unwrap_or(i64::MAX)))
            .col_expr(session::Column::Standings, Expr::value(standings))
            .col_expr(session::Column::Definition, Expr::value(definition.encode_to_vec()))
            .filter(session::Column::SessionId.eq(session_id.as_str()))
            .filter(session::Column::Version.eq(row.version))
            .exec(&txn)
            .await?;
        if updated_session.rows_affected != 1 {
            return Err(WriteError::Race);
        }
        for i in updated {
            let model = &models[i];
            if model.result_id == change.row.result_id && change.insert {
                let active: board_result::ActiveModel = model.clone().into();
                board_result::Entity::insert(active).exec_without_returning(&txn).await?;
            } else {
                board_result::Entity::update_many()
                    .col_expr(board_result::Column::TableResult, Expr::value(model.table_result.clone()))
                    .col_expr(board_result::Column::Adjustment, Expr::value(model.adjustment.clone()))
                    .col_expr(board_result::Column::Kind, Expr::value(model.kind))
                    .col_expr(board_result::Column::Source, Expr::value(model.source))
                    .col_expr(board_result::Column::RulingId, Expr::value(model.ruling_id.clone()))
                    .col_expr(board_result::Column::AppealId, Expr::value(model.appeal_id.clone()))
                    .col_expr(board_result::Column::NsValues, Expr::value(model.ns_values.clone()))
                    .col_expr(board_result::Column::EwValues, Expr::value(model.ew_values.clone()))
                    .col_expr(board_result::Column::Version, Expr::value(model.version))
                    .col_expr(board_result::Column::Form, Expr::value(model.form))
                    .filter(board_result::Column::ResultId.eq(model.result_id.as_str()))
                    .exec(&txn)
                    .await?;
            }
        }
        for (version, operation, idem_key) in &versions {
            let replay = Replay {
                operation: (*operation).to_owned(),
                deal_id: change
                    .row
                    .deal_id
                    .clone()
                    .filter(|_| version.version == main.version && change.operation != "foul"),
                hands: change.hands.as_ref().filter(|_| version.version == main.version).map(|(_, h)| h.clone()),
                first_dealer: None,
                source: spb::ResultSource::try_from(change.row.source).unwrap_or_default(),
                idem_key: idem_key.clone(),
            };
            insert_version(&txn, &session_id, version, replay).await?;
        }
        let bytes: Vec<Vec<u8>> = payloads.iter().map(|(_, p)| p.clone()).collect();
        insert_events(&txn, &stream(&session_id), u64::try_from(row.last_sequence).unwrap_or(0) + 1, &bytes).await?;
        txn.commit().await?;

        let results =
            models.iter().filter(|m| m.board_number == main_board).map(result_proto).collect::<Result<Vec<_>, _>>()?;
        let events = payloads.into_iter().map(|(sequence, payload)| FeedEvent { sequence, payload }).collect();
        Ok(Committed { version: main, results, events })
    }

    async fn publish_events(&self, session_id: &str, events: Vec<FeedEvent>) {
        self.feed.publish(&stream(session_id), events).await;
    }

    /// Records a table's result on a board and rescores the session, idempotent by deal id.
    #[tracing::instrument(skip_all, fields(deal_id = %request.deal_id))]
    pub async fn record(
        &self,
        request: &spb::RecordBoardResultRequest,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion), ServiceError> {
        let key = request.key.clone().ok_or_else(|| ServiceError::invalid("key", "missing"))?;
        if request.deal_id.is_empty() {
            return Err(ServiceError::invalid("deal_id", "empty; the deal id is the idempotency key"));
        }
        let result = request.result.clone().ok_or_else(|| ServiceError::invalid("result", "missing"))?;
        let laws_result = api::convert::score::board_result(&result).map_err(|e| e.within("result"))?;
        // Honors are not scored in duplicate (Law 77): the result is kept as the board scores it.
        let result = pb::DealResult::from(laws_result);
        let source = match spb::ResultSource::try_from(request.source) {
            Ok(s @ (spb::ResultSource::Game | spb::ResultSource::Desk)) => s,
            _ => return Err(ServiceError::invalid("source", "the game service or the desk is required")),
        };
        let hands = request
            .hands
            .clone()
            .map(|h| Deal::try_from(h).map(pb::Deal::from).map_err(|e| e.within("hands")))
            .transpose()?;
        let (result_proto, version, events) = retry("record board result", || {
            self.attempt_record(&key, request, &result, source, hands.as_ref(), recorded_by)
        })
        .await?;
        self.publish_events(&key.session_id, events).await;
        Ok((result_proto, version))
    }

    async fn attempt_record(
        &self,
        key: &pb::BoardResultKey,
        request: &spb::RecordBoardResultRequest,
        result: &pb::DealResult,
        source: spb::ResultSource,
        hands: Option<&pb::Deal>,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion, Vec<FeedEvent>), WriteError> {
        let txn = self.db.begin().await?;
        let row = Self::row(&txn, &key.session_id).await?;
        let definition = session_proto(&row)?;
        Self::check_key(&definition, key)?;
        let stored = Self::results(&txn, &key.session_id).await?;
        let encoded = result.encode_to_vec();
        let idem_key = format!("deal:{}", request.deal_id);
        let teams = definition.scoring_method == spb::ScoringMethod::TeamImps as i32;
        let board = i32::try_from(key.board_number).unwrap_or(i32::MAX);
        // A board the director scored as not played at this table (an adjusted score) may be
        // played after all: its table result is recorded, and the adjusted score stays in force
        // until a ruling restores the table result.
        let late = stored.iter().find(|m| key_of(m) == *key && m.table_result.is_none()).cloned();
        for existing in stored.iter().filter(|m| late.as_ref().is_none_or(|l| l.result_id != m.result_id)) {
            let same_deal = existing.deal_id.as_deref() == Some(request.deal_id.as_str());
            let same_key = key_of(existing) == *key;
            let same_result = existing.table_result.as_deref() == Some(encoded.as_slice());
            if same_key && same_result {
                // The same result again (from the game service or the desk): nothing changes.
                let first = match existing.deal_id.as_deref() {
                    Some(deal) => Self::version_by_key(&txn, &key.session_id, &format!("deal:{deal}")).await?,
                    None => None,
                };
                let version = first.unwrap_or_default();
                return Ok((result_proto(existing)?, version, Vec::new()));
            }
            if same_deal {
                return Err(ServiceError::AlreadyExists(format!(
                    "deal {} is already recorded for board {} {} v {} with another result; correct it with \
                     CorrectBoardResult (Law 79C)",
                    request.deal_id, existing.board_number, existing.ns_contestant, existing.ew_contestant
                ))
                .into());
            }
            if existing.board_number == board {
                // A pair plays a board once; a team once in each direction, at the two tables of
                // its match (Law 78B).
                let clash = if teams {
                    [
                        (&existing.ns_contestant, &key.north_south_contestant_id),
                        (&existing.ew_contestant, &key.east_west_contestant_id),
                    ]
                    .into_iter()
                    .find(|(seated, asked)| seated == asked)
                    .map(|(_, asked)| asked)
                } else {
                    [&key.north_south_contestant_id, &key.east_west_contestant_id]
                        .into_iter()
                        .find(|c| **c == existing.ns_contestant || **c == existing.ew_contestant)
                };
                if let Some(contestant) = clash {
                    return Err(ServiceError::Rule {
                        message: format!(
                            "contestant {contestant} already has a result on board {} (version {}); a different \
                             result is corrected with CorrectBoardResult (Law 78A: each contestant scores a board \
                             once)",
                            key.board_number, existing.version
                        ),
                        law: Law::duplicate(78, "A"),
                    }
                    .into());
                }
            }
        }
        let hands = match (hands, domain::board_of(&definition, key.board_number).and_then(|b| b.deal.as_ref())) {
            (Some(given), Some(known)) if given != known => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "board {} was played with other hands at another table: every table plays the same cards \
                     (Law 87: a fouled board is the director's to rule on)",
                    key.board_number
                ))
                .into());
            }
            (Some(given), None) => Some((key.board_number, given.clone())),
            _ => None,
        };
        let recorded_at = time::now();
        let insert = late.is_none();
        let model = match late {
            Some(late) => {
                board_result::Model { deal_id: Some(request.deal_id.clone()), table_result: Some(encoded), ..late }
            }
            None => board_result::Model {
                result_id: uuid::Uuid::now_v7().to_string(),
                session_id: key.session_id.clone(),
                board_number: board,
                ns_contestant: key.north_south_contestant_id.clone(),
                ew_contestant: key.east_west_contestant_id.clone(),
                deal_id: Some(request.deal_id.clone()),
                table_result: Some(encoded),
                adjustment: None,
                kind: spb::ResultKind::Table as i32,
                source: source as i32,
                ruling_id: String::new(),
                appeal_id: String::new(),
                ns_values: Vec::new(),
                ew_values: Vec::new(),
                version: 0,
                recorded_at,
                form: 0,
            },
        };
        let version = spb::ScoreVersion {
            target: Some(board_target(key)),
            cause: spb::ScoreVersionCause::ResultRecorded as i32,
            result: Some(result.clone()),
            law: Some(Law::duplicate(77, "").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(recorded_at)),
            ..Default::default()
        };
        let change = Change {
            row: model.clone(),
            insert,
            version,
            operation: "record",
            idem_key: Some(idem_key),
            hands,
            also: Vec::new(),
        };
        let committed = self.commit(txn, &row, definition, stored, change).await?;
        let mine = committed
            .results
            .iter()
            .find(|r| r.result_id == model.result_id)
            .cloned()
            .ok_or_else(|| ServiceError::internal("recorded result missing after commit"))?;
        Ok((mine, committed.version, committed.events))
    }

    /// Corrects a board result (Law 79C) and rescores the session.
    #[tracing::instrument(skip_all)]
    pub async fn correct(
        &self,
        request: &spb::CorrectBoardResultRequest,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion), ServiceError> {
        let key = request.key.clone().ok_or_else(|| ServiceError::invalid("key", "missing"))?;
        let result = request
            .corrected_result
            .clone()
            .ok_or_else(|| ServiceError::invalid("corrected_result", "missing; a value is required"))?;
        let laws_result = api::convert::score::board_result(&result).map_err(|e| e.within("corrected_result"))?;
        let result = pb::DealResult::from(laws_result);
        let (answer, version, events) =
            retry("correct board result", || self.attempt_correct(&key, request, &result, recorded_by)).await?;
        self.publish_events(&key.session_id, events).await;
        Ok((answer, version))
    }

    async fn attempt_correct(
        &self,
        key: &pb::BoardResultKey,
        request: &spb::CorrectBoardResultRequest,
        result: &pb::DealResult,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion, Vec<FeedEvent>), WriteError> {
        let txn = self.db.begin().await?;
        let row = Self::row(&txn, &key.session_id).await?;
        let current = u64::try_from(row.version).unwrap_or(0);
        if request.expected_version != current {
            return Err(ServiceError::Conflict(format!(
                "session {} is at version {current}, not {}: read it again",
                key.session_id, request.expected_version
            ))
            .into());
        }
        let period = match (row.scores_published_at, row.correction_period_ends_at) {
            (None, _) => CorrectionPeriod::BeforePublication,
            (Some(_), Some(ends)) if time::now() > ends => CorrectionPeriod::Expired,
            (Some(_), _) => CorrectionPeriod::Running,
        };
        check_board_correction(period, request.approved_after_correction_period).map_err(ServiceError::rule)?;
        let definition = session_proto(&row)?;
        Self::check_key(&definition, key)?;
        let stored = Self::results(&txn, &key.session_id).await?;
        let mut model = stored.iter().find(|m| key_of(m) == *key).cloned().ok_or_else(|| {
            ServiceError::not_found(format!(
                "a result on board {} for {} v {}",
                key.board_number, key.north_south_contestant_id, key.east_west_contestant_id
            ))
        })?;
        if model.table_result.is_none() {
            return Err(ServiceError::FailedPrecondition(format!(
                "board {} was not played at this table: its score is an adjusted score, changed by a ruling",
                key.board_number
            ))
            .into());
        }
        model.table_result = Some(result.encode_to_vec());
        if model.adjustment.is_none() {
            model.source = spb::ResultSource::Correction as i32;
        }
        let version = spb::ScoreVersion {
            target: Some(board_target(key)),
            cause: spb::ScoreVersionCause::Correction as i32,
            reason: request.reason.clone(),
            result: Some(result.clone()),
            adjustment: decode_opt(model.adjustment.as_ref(), "adjustment")?,
            law: Some(Law::duplicate(79, if period == CorrectionPeriod::Expired { "C2" } else { "C1" }).into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(time::now())),
            ..Default::default()
        };
        let change = Change {
            row: model.clone(),
            insert: false,
            version,
            operation: "correct",
            idem_key: None,
            hands: None,
            also: Vec::new(),
        };
        let committed = self.commit(txn, &row, definition, stored, change).await?;
        let mine = committed
            .results
            .iter()
            .find(|r| r.result_id == model.result_id)
            .cloned()
            .ok_or_else(|| ServiceError::internal("corrected result missing after commit"))?;
        Ok((mine, committed.version, committed.events))
    }

    /// Applies a ruling's or an appeal's adjusted score to a board result (Law 12; Law 93) and
    /// rescores the session, idempotent by ruling id and appeal id together.
    #[tracing::instrument(skip_all, fields(ruling_id = %request.ruling_id))]
    pub async fn adjust(
        &self,
        key: &pb::BoardResultKey,
        request: &spb::ApplyAdjustmentRequest,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion), ServiceError> {
        use spb::apply_adjustment_request::Change as Requested;
        let adjustment = match request.change.as_ref() {
            None => return Err(ServiceError::invalid("change", "missing; an adjustment or a restore is required")),
            Some(Requested::RestoreTableResult(_)) => None,
            Some(Requested::Adjustment(adjustment)) => {
                domain::adjusted(adjustment)?;
                Some(adjustment.clone())
            }
        };
        let (results, version, events) =
            retry("apply adjustment", || self.attempt_adjust(key, request, adjustment.as_ref(), recorded_by)).await?;
        self.publish_events(&key.session_id, events).await;
        Ok((results, version))
    }

    async fn attempt_adjust(
        &self,
        key: &pb::BoardResultKey,
        request: &spb::ApplyAdjustmentRequest,
        adjustment: Option<&pb::Adjustment>,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion, Vec<FeedEvent>), WriteError> {
        let txn = self.db.begin().await?;
        let row = Self::row(&txn, &key.session_id).await?;
        let definition = session_proto(&row)?;
        Self::check_key(&definition, key)?;
        let stored = Self::results(&txn, &key.session_id).await?;
        let idem_key = format!("ruling:{}/{}", request.ruling_id, request.appeal_id);
        if let Some(first) = Self::version_by_key(&txn, &key.session_id, &idem_key).await? {
            let results = stored
                .iter()
                .filter(|m| u32::try_from(m.board_number).ok() == Some(key.board_number))
                .map(result_proto)
                .collect::<Result<Vec<_>, _>>()?;
            return Ok((results, first, Vec::new()));
        }
        let now = time::now();
        let mut model = match stored.iter().find(|m| key_of(m) == *key) {
            Some(existing) => existing.clone(),
            None if adjustment.is_some() => board_result::Model {
                // An adjusted score for a board the table could not play (Law 12C2).
                result_id: uuid::Uuid::now_v7().to_string(),
                session_id: key.session_id.clone(),
                board_number: i32::try_from(key.board_number).unwrap_or(i32::MAX),
                ns_contestant: key.north_south_contestant_id.clone(),
                ew_contestant: key.east_west_contestant_id.clone(),
                deal_id: None,
                table_result: None,
                adjustment: None,
                kind: spb::ResultKind::NotPlayed as i32,
                source: spb::ResultSource::Ruling as i32,
                ruling_id: String::new(),
                appeal_id: String::new(),
                ns_values: Vec::new(),
                ew_values: Vec::new(),
                version: 0,
                recorded_at: now,
                form: 0,
            },
            None => {
                return Err(ServiceError::not_found(format!(
                    "a result on board {} for {} v {}",
                    key.board_number, key.north_south_contestant_id, key.east_west_contestant_id
                ))
                .into());
            }
        };
        let insert = !stored.iter().any(|m| m.result_id == model.result_id);
        if adjustment.is_none() && model.table_result.is_none() {
            return Err(ServiceError::FailedPrecondition(format!(
                "board {} has no table result to restore: it was not played at this table",
                key.board_number
            ))
            .into());
        }
        let appeal = !request.appeal_id.is_empty();
        model.adjustment = adjustment.map(Message::encode_to_vec);
        model.kind = domain::result_kind(adjustment) as i32;
        model.source = match (adjustment, appeal) {
            (_, true) => spb::ResultSource::Appeal,
            (Some(_), false) => spb::ResultSource::Ruling,
            (None, false) => spb::ResultSource::Correction,
        } as i32;
        model.ruling_id = request.ruling_id.clone();
        model.appeal_id = request.appeal_id.clone();
        let (cause, default_law) = if appeal {
            (spb::ScoreVersionCause::AppealDecision, Law::duplicate(93, ""))
        } else {
            (spb::ScoreVersionCause::Adjustment, Law::duplicate(12, "C"))
        };
        let version = spb::ScoreVersion {
            version: 0,
            target: Some(board_target(key)),
            cause: cause as i32,
            reason: request.reason.clone(),
            result: decode_opt(model.table_result.as_ref(), "table result")?,
            adjustment: adjustment.cloned(),
            ruling_id: request.ruling_id.clone(),
            appeal_id: request.appeal_id.clone(),
            law: citation(request.law.as_ref()).or_else(|| Some(default_law.into())),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(now)),
        };
        let operation = if adjustment.is_some() { "adjust" } else { "restore" };
        let change =
            Change { row: model, insert, version, operation, idem_key: Some(idem_key), hands: None, also: Vec::new() };
        let committed = self.commit(txn, &row, definition, stored, change).await?;
        Ok((committed.results, committed.version, committed.events))
    }

    /// Law 87B, a fouled board: records the form each table of the board played (tables not
    /// named played the correct form, 0) and rescores the session group by group. Giving the
    /// grouping the board already has changes nothing and returns the version that made it.
    #[tracing::instrument(skip_all, fields(session_id = %request.session_id, board = request.board_number))]
    pub async fn mark_fouled(
        &self,
        request: &spb::MarkFouledBoardRequest,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion), ServiceError> {
        if request.session_id.is_empty() {
            return Err(ServiceError::invalid("session_id", "empty; a value is required"));
        }
        if request.board_number == 0 {
            return Err(ServiceError::invalid("board_number", "not given; the fouled board is required"));
        }
        let mut forms: BTreeMap<String, u8> = BTreeMap::new();
        for (i, given) in request.forms.iter().enumerate() {
            let field = format!("forms[{i}]");
            if given.north_south_contestant_id.is_empty() {
                return Err(ServiceError::invalid(
                    &format!("{field}.north_south_contestant_id"),
                    "empty; the table is named by its North-South contestant",
                ));
            }
            let form = u8::try_from(given.form).map_err(|_| {
                ServiceError::invalid(&format!("{field}.form"), format!("{} is not a form: 0 to 255", given.form))
            })?;
            if forms.insert(given.north_south_contestant_id.clone(), form).is_some() {
                return Err(ServiceError::invalid(
                    &format!("{field}.north_south_contestant_id"),
                    format!("{:?} is named twice: a table played one form", given.north_south_contestant_id),
                ));
            }
        }
        let (results, version, events) =
            retry("mark fouled board", || self.attempt_foul(request, &forms, recorded_by)).await?;
        self.publish_events(&request.session_id, events).await;
        Ok((results, version))
    }

    async fn attempt_foul(
        &self,
        request: &spb::MarkFouledBoardRequest,
        forms: &BTreeMap<String, u8>,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion, Vec<FeedEvent>), WriteError> {
        let txn = self.db.begin().await?;
        let row = Self::row(&txn, &request.session_id).await?;
        let definition = session_proto(&row)?;
        if definition.scoring_method == spb::ScoringMethod::TeamImps as i32 {
            return Err(ServiceError::Rule {
                message: "a fouled board at teams is not scored in groups: Law 87C sends it to Law 86B2, adjusted \
                          scores the Director awards through a ruling"
                    .to_owned(),
                law: Law::duplicate(87, "C"),
            }
            .into());
        }
        if domain::board_of(&definition, request.board_number).is_none() {
            return Err(ServiceError::invalid(
                "board_number",
                format!("board {} is not in this session", request.board_number),
            )
            .into());
        }
        let stored = Self::results(&txn, &request.session_id).await?;
        let board = i32::try_from(request.board_number).unwrap_or(i32::MAX);
        let on_board: Vec<&board_result::Model> = stored.iter().filter(|m| m.board_number == board).collect();
        for (i, given) in request.forms.iter().enumerate() {
            if !on_board.iter().any(|m| m.ns_contestant == given.north_south_contestant_id) {
                return Err(ServiceError::invalid(
                    &format!("forms[{i}].north_south_contestant_id"),
                    format!(
                        "no result on board {} with {:?} North-South to put in a group (Law 87B: the Director \
                         divides the scores obtained on the board)",
                        request.board_number, given.north_south_contestant_id
                    ),
                )
                .into());
            }
        }
        let form_of = |m: &board_result::Model| i32::from(forms.get(&m.ns_contestant).copied().unwrap_or(0));
        if on_board.iter().all(|m| m.form == form_of(m)) {
            // The board is grouped so already: the version that made the grouping, if any.
            let first = score_version::Entity::find()
                .filter(score_version::Column::OwnerId.eq(request.session_id.as_str()))
                .filter(score_version::Column::BoardNumber.eq(board))
                .filter(score_version::Column::Operation.eq("foul"))
                .order_by_desc(score_version::Column::Version)
                .one(&txn)
                .await?;
            let version = first.as_ref().map(version_proto).transpose()?.unwrap_or_default();
            let results = on_board.into_iter().map(result_proto).collect::<Result<Vec<_>, _>>()?;
            return Ok((results, version, Vec::new()));
        }
        let mut changed: Vec<board_result::Model> =
            on_board.into_iter().map(|m| board_result::Model { form: form_of(m), ..m.clone() }).collect();
        let main = changed.remove(0);
        let key = pb::BoardResultKey {
            session_id: request.session_id.clone(),
            board_number: request.board_number,
            north_south_contestant_id: String::new(),
            east_west_contestant_id: String::new(),
        };
        let version = spb::ScoreVersion {
            target: Some(board_target(&key)),
            cause: spb::ScoreVersionCause::FouledBoard as i32,
            reason: request.reason.clone(),
            law: Some(Law::duplicate(87, "B").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(time::now())),
            ..Default::default()
        };
        let change =
            Change { row: main, insert: false, version, operation: "foul", idem_key: None, hands: None, also: changed };
        let committed = self.commit(txn, &row, definition, stored, change).await?;
        Ok((committed.results, committed.version, committed.events))
    }

    /// Publishes the official score, starting the correction period (Law 79C) and the appeal
    /// period (Law 92B). Publishing again changes nothing.
    #[tracing::instrument(skip_all, fields(session_id))]
    pub async fn publish(&self, session_id: &str, recorded_by: &str) -> Result<spb::Session, ServiceError> {
        let (session, events) = retry("publish", || self.attempt_publish(session_id, recorded_by)).await?;
        self.publish_events(session_id, events).await;
        Ok(session)
    }

    async fn attempt_publish(
        &self,
        session_id: &str,
        recorded_by: &str,
    ) -> Result<(spb::Session, Vec<FeedEvent>), WriteError> {
        let txn = self.db.begin().await?;
        let row = Self::row(&txn, session_id).await?;
        if row.scores_published_at.is_some() {
            return Ok((session_proto(&row)?, Vec::new()));
        }
        let now = time::now();
        let period = chrono::Duration::from_std(self.settings.correction_period).unwrap_or(chrono::Duration::MAX);
        let ends = now.checked_add_signed(period).unwrap_or(now);
        let number = u64::try_from(row.version).unwrap_or(0) + 1;
        let sequence = u64::try_from(row.last_sequence).unwrap_or(0) + 1;
        let updated = session::Entity::update_many()
            .col_expr(session::Column::Version, Expr::value(i64::try_from(number).unwrap_or(i64::MAX)))
            .col_expr(session::Column::LastSequence, Expr::value(i64::try_from(sequence).unwrap_or(i64::MAX)))
            .col_expr(session::Column::Status, Expr::value(spb::SessionStatus::Published as i32))
            .col_expr(session::Column::ScoresPublishedAt, Expr::value(Some(now)))
            .col_expr(session::Column::CorrectionPeriodEndsAt, Expr::value(Some(ends)))
            .filter(session::Column::SessionId.eq(session_id))
            .filter(session::Column::Version.eq(row.version))
            .exec(&txn)
            .await?;
        if updated.rows_affected != 1 {
            return Err(WriteError::Race);
        }
        let published = session::Model {
            version: i64::try_from(number).unwrap_or(i64::MAX),
            last_sequence: i64::try_from(sequence).unwrap_or(i64::MAX),
            status: spb::SessionStatus::Published as i32,
            scores_published_at: Some(now),
            correction_period_ends_at: Some(ends),
            ..row
        };
        let session = session_proto(&published)?;
        let version = spb::ScoreVersion {
            version: number,
            cause: spb::ScoreVersionCause::Published as i32,
            reason: "the official score was published".to_owned(),
            law: Some(Law::duplicate(79, "C").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(now)),
            ..Default::default()
        };
        insert_version(&txn, session_id, &version, Replay { operation: "publish".to_owned(), ..Default::default() })
            .await?;
        let payload = spb::SessionEvent {
            sequence,
            occurred_at: Some(time::timestamp(now)),
            session_id: session_id.to_owned(),
            event: Some(spb::session_event::Event::ScoresPublished(spb::ScoresPublished {
                session: Some(session.clone()),
            })),
        }
        .encode_to_vec();
        insert_events(&txn, &stream(session_id), sequence, std::slice::from_ref(&payload)).await?;
        txn.commit().await?;
        Ok((session, vec![FeedEvent { sequence, payload }]))
    }

    /// The session's board results, by board number, those the principal may not see yet left out.
    pub async fn list_results(
        &self,
        request: &spb::ListBoardResultsRequest,
        principal: &Principal,
    ) -> Result<spb::ListBoardResultsResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let row = Self::row(&self.db, &request.session_id).await?;
        let definition = session_proto(&row)?;
        let visibility = visibility(&self.db, &row, &definition, principal).await?;
        let mut query =
            board_result::Entity::find().filter(board_result::Column::SessionId.eq(request.session_id.as_str()));
        if request.board_number != 0 {
            query =
                query.filter(board_result::Column::BoardNumber.eq(i32::try_from(request.board_number).unwrap_or(0)));
        }
        if let Visibility::Boards(boards) = &visibility {
            query = query.filter(board_result::Column::BoardNumber.is_in(boards.iter().map(|b| *b as i32)));
        }
        let rows = query
            .order_by_asc(board_result::Column::BoardNumber)
            .order_by_asc(board_result::Column::RecordedAt)
            .order_by_asc(board_result::Column::ResultId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let results = rows.iter().take(page.size as usize).map(result_proto).collect::<Result<_, _>>()?;
        Ok(spb::ListBoardResultsResponse { results, page: Some(page.response_to(fetched)) })
    }

    /// Every result of the session (exports, benchmarks).
    pub async fn all_results(&self, session_id: &str) -> Result<Vec<spb::BoardResult>, ServiceError> {
        Self::results(&self.db, session_id).await?.iter().map(result_proto).collect()
    }

    /// The standings as they stand.
    pub async fn standings(&self, session_id: &str) -> Result<spb::GetStandingsResponse, ServiceError> {
        let row = Self::row(&self.db, session_id).await?;
        let stored: StoredStandings = decode(&row.standings, "standings")?;
        let definition: spb::Session = decode(&row.definition, "session definition")?;
        Ok(spb::GetStandingsResponse {
            standings: stored.standings,
            scoring_method: definition.scoring_method,
            version: u64::try_from(row.version).unwrap_or(0),
        })
    }

    /// A session as the exports need it: the session, its results and standings, if the
    /// principal may see them all (staff, or anyone once the scores are published).
    pub async fn for_export(
        &self,
        session_id: &str,
        principal: &Principal,
    ) -> Result<(spb::Session, Vec<spb::BoardResult>, Vec<spb::Standing>), ServiceError> {
        let row = Self::row(&self.db, session_id).await?;
        if !is_staff(principal) && row.status != spb::SessionStatus::Published as i32 {
            return Err(ServiceError::PermissionDenied(
                "a player may export a session once its official score is published; until then boards may \
                 still be in play"
                    .to_owned(),
            ));
        }
        let stored: StoredStandings = decode(&row.standings, "standings")?;
        Ok((session_proto(&row)?, self.all_results(session_id).await?, stored.standings))
    }

    /// A session's score versions, oldest first, optionally only those of one board result;
    /// for a player, only those of boards he may see.
    pub async fn versions(
        &self,
        session_id: &str,
        key: Option<&pb::BoardResultKey>,
        page: Page,
        principal: &Principal,
    ) -> Result<spb::ListScoreVersionsResponse, ServiceError> {
        let row = Self::row(&self.db, session_id).await?;
        let definition = session_proto(&row)?;
        let visibility = visibility(&self.db, &row, &definition, principal).await?;
        let mut query = score_version::Entity::find().filter(score_version::Column::OwnerId.eq(session_id));
        if let Some(key) = key {
            query = query
                .filter(score_version::Column::BoardNumber.eq(i32::try_from(key.board_number).unwrap_or(0)))
                .filter(score_version::Column::NsContestant.eq(key.north_south_contestant_id.as_str()))
                .filter(score_version::Column::EwContestant.eq(key.east_west_contestant_id.as_str()));
        }
        if let Visibility::Boards(boards) = &visibility {
            query = query.filter(
                score_version::Column::BoardNumber
                    .is_null()
                    .or(score_version::Column::BoardNumber.is_in(boards.iter().map(|b| *b as i32))),
            );
        }
        let rows = query
            .order_by_asc(score_version::Column::Version)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let versions = rows.iter().take(page.size as usize).map(version_proto).collect::<Result<_, _>>()?;
        Ok(spb::ListScoreVersionsResponse { versions, page: Some(page.response_to(fetched)) })
    }

    /// Watches a session: results, rescored boards, standings, publication (see
    /// [`crate::live`]). A player is not sent the results of boards he has not played before
    /// publication.
    pub async fn watch(
        &self,
        session_id: &str,
        after: Option<u64>,
        principal: &Principal,
    ) -> Result<tokio_stream::wrappers::ReceiverStream<Result<spb::WatchSessionResponse, tonic::Status>>, ServiceError>
    {
        let row = Self::row(&self.db, session_id).await?;
        let definition = session_proto(&row)?;
        let db = self.db.clone();
        let id = session_id.to_owned();
        let snapshot_principal = principal.clone();
        let snapshot = Box::pin(async move {
            let row = Self::row(&db, &id).await?;
            let session = session_proto(&row)?;
            let visibility = visibility(&db, &row, &session, &snapshot_principal).await?;
            let stored: StoredStandings = decode(&row.standings, "standings")?;
            let sequence = u64::try_from(row.last_sequence).unwrap_or(0);
            let event = spb::SessionEvent {
                sequence,
                occurred_at: Some(time::timestamp(time::now())),
                session_id: id,
                event: Some(spb::session_event::Event::Snapshot(spb::SessionSnapshot {
                    session: Some(redact(session, &visibility)),
                    standings: stored.standings,
                })),
            };
            Ok((sequence, spb::WatchSessionResponse { event: Some(event), heartbeat: None }))
        });
        let staff = is_staff(principal);
        let mine: Vec<String> =
            contestants_of(&definition, &principal.subject).into_iter().map(str::to_owned).collect();
        let initial = match visibility(&self.db, &row, &definition, principal).await? {
            Visibility::All => (true, HashSet::new()),
            Visibility::Boards(boards) => (false, boards),
        };
        let seen = std::sync::Mutex::new(initial);
        let decode_event =
            move |_: u64, payload: &[u8]| -> Result<Option<spb::WatchSessionResponse>, ServiceError> {
                let event: spb::SessionEvent = decode(payload, "session event")?;
                let mut state = seen.lock().unwrap_or_else(|e| e.into_inner());
                let (published, played) = &mut *state;
                if let Some(spb::session_event::Event::ScoresPublished(_)) = &event.event {
                    *published = true;
                }
                if let Some(spb::session_event::Event::BoardRescored(board)) = &event.event
                    && !staff
                    && !*published
                {
                    // A board becomes visible to a player once his own result on it is recorded.
                    if board.results.iter().filter_map(|r| r.key.as_ref()).any(|k| {
                        mine.contains(&k.north_south_contestant_id) || mine.contains(&k.east_west_contestant_id)
                    }) {
                        played.insert(board.board_number);
                    }
                    if !played.contains(&board.board_number) {
                        return Ok(None);
                    }
                }
                Ok(Some(spb::WatchSessionResponse { event: Some(event), heartbeat: None }))
            };
        crate::live::watch(
            self.feed.clone(),
            self.db.clone(),
            Watch {
                stream: stream(session_id),
                after,
                snapshot,
                decode: Box::new(decode_event),
                beat: |last| spb::WatchSessionResponse {
                    event: None,
                    heartbeat: Some(platform::watch::heartbeat(last)),
                },
            },
        )
        .await
    }
}
