//! The durable record in Postgres (or SQLite): the journal, the deals, the boards, the arbiter
//! calls and the outbox (the command runtime writes the idempotency keys). Accepted commands are
//! written many at once ([`rows`] in one statement, or [`write`] in a transaction, through
//! [`platform::runtime`]); the journal's primary key (table, sequence) is each one's commit point.

use chrono::{DateTime, FixedOffset, Utc};
use platform::db::Db;
use prost::Message;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityName, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use platform::bulk::{self, Rows};
use platform::runtime::WriteError;

use crate::entity::{arbiter_calls, boards, deals, journal, outbox};
use crate::stored::{StoredAction, StoredEvent};

/// Now, as the database stores it.
pub fn now() -> DateTime<FixedOffset> {
    Utc::now().fixed_offset()
}

/// The protobuf timestamp of a database time.
pub fn timestamp(at: DateTime<FixedOffset>) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: at.timestamp(), nanos: at.timestamp_subsec_nanos() as i32 }
}

/// The last event of a table: where its sequence and version stand, and its deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// The last sequence number.
    pub sequence: u64,
    /// The table's version.
    pub version: u64,
    /// The deal of the last event.
    pub deal_id: String,
}

/// The last event of `table_id`, if it has any.
pub async fn tail(db: &impl ConnectionTrait, table_id: &str) -> Result<Option<Tail>, DbErr> {
    let last = journal::Entity::find()
        .filter(journal::Column::TableId.eq(table_id))
        .order_by_desc(journal::Column::Sequence)
        .select_only()
        .column(journal::Column::Sequence)
        .column(journal::Column::Version)
        .column(journal::Column::DealId)
        .into_tuple::<(i64, i64, String)>()
        .one(db)
        .await?;
    Ok(last.map(|(sequence, version, deal_id)| Tail {
        sequence: sequence.max(0) as u64,
        version: version.max(0) as u64,
        deal_id,
    }))
}

/// The commands of `deal_id` at `table_id`, in order, each with the version of the rules that
/// accepted it (the journal's column is the record of it), and the table's version after the last
/// of them (0 if none): a deal's row keeps the version of its last change of phase only.
pub async fn deal_actions(
    db: &impl ConnectionTrait,
    table_id: &str,
    deal_id: &str,
) -> Result<(Vec<StoredAction>, u64), DbErr> {
    let rows = journal::Entity::find()
        .filter(journal::Column::TableId.eq(table_id))
        .filter(journal::Column::DealId.eq(deal_id))
        .filter(journal::Column::Action.is_not_null())
        .order_by_asc(journal::Column::Sequence)
        .select_only()
        .column(journal::Column::Action)
        .column(journal::Column::RulesVersion)
        .column(journal::Column::Version)
        .into_tuple::<(Option<Vec<u8>>, i32, i64)>()
        .all(db)
        .await?;
    let version = rows.last().map_or(0, |(_, _, version)| (*version).max(0).unsigned_abs());
    let actions = rows
        .into_iter()
        .filter_map(|(bytes, rules, _)| bytes.map(|bytes| (bytes, rules)))
        .map(|(bytes, rules)| {
            let mut action =
                StoredAction::decode(bytes.as_slice()).map_err(|e| DbErr::Custom(format!("journal action: {e}")))?;
            action.rules_version =
                u32::try_from(rules).map_err(|_| DbErr::Custom(format!("journal action: rules version {rules}")))?;
            Ok(action)
        })
        .collect::<Result<_, DbErr>>()?;
    Ok((actions, version))
}

/// Up to `limit` events of `table_id` after `after`, in order.
pub async fn events_after(
    db: &impl ConnectionTrait,
    table_id: &str,
    after: u64,
    limit: u64,
) -> Result<Vec<(u64, StoredEvent)>, DbErr> {
    let rows = journal::Entity::find()
        .filter(journal::Column::TableId.eq(table_id))
        .filter(journal::Column::Sequence.gt(after as i64))
        .order_by_asc(journal::Column::Sequence)
        .limit(limit)
        .select_only()
        .column(journal::Column::Sequence)
        .column(journal::Column::Event)
        .into_tuple::<(i64, Vec<u8>)>()
        .all(db)
        .await?;
    rows.into_iter()
        .map(|(sequence, bytes)| {
            StoredEvent::decode(bytes.as_slice())
                .map(|event| (sequence.max(0) as u64, event))
                .map_err(|e| DbErr::Custom(format!("journal event: {e}")))
        })
        .collect()
}

/// A deal's row.
pub async fn deal(db: &impl ConnectionTrait, deal_id: &str) -> Result<Option<deals::Model>, DbErr> {
    deals::Entity::find_by_id(deal_id.to_owned()).one(db).await
}

/// The result `deal_id` still owes scoring, as it was written when the deal finished (the
/// encoded call): none once delivered, or set aside for an operator.
pub async fn result_owed(db: &impl ConnectionTrait, deal_id: &str) -> Result<Option<Vec<u8>>, DbErr> {
    outbox::Entity::find()
        .select_only()
        .column(outbox::Column::Payload)
        .filter(outbox::Column::Source.eq(crate::outbox::SOURCE))
        .filter(outbox::Column::Topic.eq(crate::outbox::RECORD_DEAL_RESULT))
        .filter(outbox::Column::DeliveredAt.is_null())
        .filter(outbox::Column::DeadLetteredAt.is_null())
        .filter(outbox::Column::AggregateId.eq(deal_id))
        .into_tuple::<Vec<u8>>()
        .one(db)
        .await
}

/// A board's row, if a table has started it.
pub async fn existing_board(
    db: &impl ConnectionTrait,
    session_id: &str,
    board_number: i32,
) -> Result<Option<boards::Model>, DbErr> {
    boards::Entity::find_by_id((session_id.to_owned(), board_number)).one(db).await
}

/// A board's cards, fixing them first if this is the first table to start it: `seed` for a
/// server deal, `pbn` for physical cards entered (or neither). When the board is already fixed,
/// its cards are returned; physical cards entered for a board fixed without them fill them in.
pub async fn board(
    db: &Db,
    session_id: &str,
    board_number: i32,
    seed: Option<Vec<u8>>,
    pbn: Option<String>,
    deal_id: &str,
) -> Result<boards::Model, DbErr> {
    let row = boards::ActiveModel {
        session_id: Set(session_id.to_owned()),
        board_number: Set(board_number),
        seed: Set(seed),
        deal_pbn: Set(pbn.clone()),
        first_deal_id: Set(deal_id.to_owned()),
        created_at: Set(now()),
    };
    // The first table fixes the board; a concurrent second start keeps the first's cards.
    boards::Entity::insert(row).on_conflict_do_nothing().exec(db).await?;
    if let Some(pbn) = pbn {
        boards::Entity::update_many()
            .col_expr(boards::Column::DealPbn, Expr::value(pbn))
            .filter(boards::Column::SessionId.eq(session_id))
            .filter(boards::Column::BoardNumber.eq(board_number))
            .filter(boards::Column::DealPbn.is_null())
            .filter(boards::Column::Seed.is_null())
            .exec(db)
            .await?;
    }
    boards::Entity::find_by_id((session_id.to_owned(), board_number))
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("board {board_number} of session {session_id}")))
}

/// What one accepted command writes.
pub struct Commit {
    /// The table.
    pub table_id: String,
    /// Its version before the command.
    pub from_version: u64,
    /// Its version after.
    pub version: u64,
    /// The deal.
    pub deal_id: String,
    /// The command.
    pub action: StoredAction,
    /// The events, with their sequence numbers and kinds, encoded.
    pub events: Vec<(u64, &'static str, Vec<u8>)>,
    /// The deal's row, when the command starts it.
    pub new_deal: Option<deals::Model>,
    /// The deal's phase after the command, as the contract names it (`DEAL_PHASE_PLAY`).
    pub phase: &'static str,
    /// Whether the command moved the deal to that phase.
    pub phase_moved: bool,
    /// Its outcome, once finished (encoded `DealOutcome`).
    pub outcome: Option<Vec<u8>>,
    /// Arbiter calls opened or resolved: id, open, encoded `ArbiterCall`.
    pub arbiter_calls: Vec<(String, bool, Vec<u8>)>,
    /// A message owed to scoring: topic and encoded request.
    pub outbox: Option<(String, Vec<u8>)>,
    /// The trace context of the command that owes it ([`platform::telemetry::capture_trace_context`]).
    pub trace_context: Option<String>,
}

impl Commit {
    /// Whether [`rows`] is all it writes: every command but one that opens or resolves an
    /// arbiter call (whose row is written as it now stands, insert or update).
    pub fn one_statement(&self) -> bool {
        self.arbiter_calls.is_empty()
    }
}

/// Writes accepted commands in `txn` (the runtime adds their first answers): their [`rows`], then
/// the arbiter calls they opened or resolved. Any conflict fails the whole: the journal's primary
/// key (table, sequence) is taken by one command per version.
#[tracing::instrument(skip_all, fields(commands = commits.len()))]
pub async fn write(txn: &DatabaseTransaction, commits: Vec<&Commit>) -> Result<(), WriteError> {
    let at = now();
    bulk::write_all(txn, rows(&commits, at)).await?;
    for commit in &commits {
        write_arbiter_calls(txn, commit, at).await?;
    }
    Ok(())
}

/// The rows accepted commands write, in bulk ([`platform::bulk`]): their events (the first of each
/// carrying its command), the rows of the deals they start, the deals they finish or move to
/// another phase, and the messages finished deals owe scoring. A deal's row is not written for
/// every card: its phase and version move when the phase does (and its outcome when that
/// changes), and a record reads the version its journal has reached ([`deal_actions`]). A deal's
/// row is touched by one part only: a command that starts a deal neither moves nor finishes it.
pub fn rows(commits: &[&Commit], at: DateTime<FixedOffset>) -> Vec<Rows> {
    let started: Vec<&deals::Model> = commits.iter().filter_map(|c| c.new_deal.as_ref()).collect();
    let (finished, moved): (Vec<&Commit>, Vec<&Commit>) = commits
        .iter()
        .filter(|c| c.new_deal.is_none() && (c.outcome.is_some() || c.phase_moved))
        .partition(|c| c.outcome.is_some());
    let owing: Vec<(&Commit, &(String, Vec<u8>))> =
        commits.iter().filter_map(|c| c.outbox.as_ref().map(|owed| (*c, owed))).collect();
    let deals = deals::Entity.table_name();
    vec![
        journal_rows(commits, at),
        Rows::insert(deals, started.len())
            .text("deal_id", started.iter().map(|d| d.deal_id.clone()).collect())
            .text("table_id", started.iter().map(|d| d.table_id.clone()).collect())
            .big_int("table_version", started.iter().map(|d| d.table_version).collect())
            .text("kind", started.iter().map(|d| d.kind.clone()).collect())
            .text("mode", started.iter().map(|d| d.mode.clone()).collect())
            .optional_text("rubber_id", started.iter().map(|d| d.rubber_id.clone()).collect())
            .optional_text("scorepad_id", started.iter().map(|d| d.scorepad_id.clone()).collect())
            .optional_text("session_id", started.iter().map(|d| d.session_id.clone()).collect())
            .optional_int("board_number", started.iter().map(|d| d.board_number).collect())
            .bytes("setup", started.iter().map(|d| d.setup.clone()).collect())
            .text("phase", started.iter().map(|d| d.phase.clone()).collect())
            .times("started_at", started.iter().map(|d| d.started_at).collect()),
        Rows::update(deals, "deal_id", finished.len())
            .text("deal_id", finished.iter().map(|c| c.deal_id.clone()).collect())
            .big_int("table_version", finished.iter().map(|c| c.version as i64).collect())
            .text("phase", finished.iter().map(|c| c.phase.to_owned()).collect())
            .bytes("outcome", finished.iter().filter_map(|c| c.outcome.clone()).collect())
            .same_time("finished_at", at),
        Rows::update(deals, "deal_id", moved.len())
            .text("deal_id", moved.iter().map(|c| c.deal_id.clone()).collect())
            .big_int("table_version", moved.iter().map(|c| c.version as i64).collect())
            .text("phase", moved.iter().map(|c| c.phase.to_owned()).collect()),
        Rows::insert(outbox::Entity.table_name(), owing.len())
            .text("source", vec![crate::outbox::SOURCE.to_owned(); owing.len()])
            .text("topic", owing.iter().map(|(_, (topic, _))| topic.clone()).collect())
            .text("aggregate_id", owing.iter().map(|(c, _)| c.deal_id.clone()).collect())
            .bytes("payload", owing.iter().map(|(_, (_, payload))| payload.clone()).collect())
            .int("attempts", vec![0; owing.len()])
            .same_time("next_attempt_at", at)
            .same_time("created_at", at)
            .optional_text("trace_context", owing.iter().map(|(c, _)| c.trace_context.clone()).collect()),
    ]
}

/// The commands' journal rows: one per event, the first of each command carrying the command.
pub fn journal_rows(commits: &[&Commit], at: DateTime<FixedOffset>) -> Rows {
    let rows = commits.iter().map(|commit| commit.events.len()).sum();
    let (mut tables, mut sequences, mut versions, mut deals) = (vec![], vec![], vec![], vec![]);
    let (mut kinds, mut events, mut actions, mut rules) = (vec![], vec![], vec![], vec![]);
    for commit in commits {
        let rules_version = i32::try_from(commit.action.rules_version).unwrap_or(i32::MAX);
        for (i, (sequence, kind, event)) in commit.events.iter().enumerate() {
            tables.push(commit.table_id.clone());
            sequences.push(*sequence as i64);
            versions.push(commit.version as i64);
            deals.push(commit.deal_id.clone());
            kinds.push((*kind).to_owned());
            events.push(event.clone());
            // An encoded command is never empty: it names what it does.
            actions.push((i == 0).then(|| commit.action.encode_to_vec()));
            rules.push(rules_version);
        }
    }
    Rows::insert(journal::Entity.table_name(), rows)
        .text("table_id", tables)
        .big_int("sequence", sequences)
        .big_int("version", versions)
        .text("deal_id", deals)
        .text("kind", kinds)
        .bytes("event", events)
        .optional_bytes("action", actions)
        .int("rules_version", rules)
        .same_time("created_at", at)
}

/// The arbiter calls a command opened or resolved, each written as it now stands.
async fn write_arbiter_calls(
    txn: &DatabaseTransaction,
    commit: &Commit,
    at: DateTime<FixedOffset>,
) -> Result<(), DbErr> {
    for (id, open, call) in &commit.arbiter_calls {
        let row = arbiter_calls::ActiveModel {
            arbiter_call_id: Set(id.clone()),
            table_id: Set(commit.table_id.clone()),
            deal_id: Set(commit.deal_id.clone()),
            open: Set(*open),
            called_at: Set(at),
            resolved_at: Set((!*open).then_some(at)),
            call: Set(call.clone()),
        };
        arbiter_calls::Entity::insert(row)
            .on_conflict(
                OnConflict::column(arbiter_calls::Column::ArbiterCallId)
                    .update_columns([
                        arbiter_calls::Column::Open,
                        arbiter_calls::Column::ResolvedAt,
                        arbiter_calls::Column::Call,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(txn)
            .await?;
    }
    Ok(())
}
