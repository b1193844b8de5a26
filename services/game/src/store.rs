//! The durable record in Postgres (or SQLite): the journal, the deals, the boards, the arbiter
//! calls, the idempotency keys and the outbox. One accepted command is one transaction
//! ([`commit`]); the journal's primary key (table, sequence) is its commit point.

use chrono::{DateTime, FixedOffset, Utc};
use platform::db::Db;
use prost::Message;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, SqlErr, TransactionTrait,
};

use crate::entity::{arbiter_calls, boards, deals, idempotency, journal, outbox};
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
/// accepted it (the journal's column is the record of it).
pub async fn deal_actions(
    db: &impl ConnectionTrait,
    table_id: &str,
    deal_id: &str,
) -> Result<Vec<StoredAction>, DbErr> {
    let rows = journal::Entity::find()
        .filter(journal::Column::TableId.eq(table_id))
        .filter(journal::Column::DealId.eq(deal_id))
        .filter(journal::Column::Action.is_not_null())
        .order_by_asc(journal::Column::Sequence)
        .select_only()
        .column(journal::Column::Action)
        .column(journal::Column::RulesVersion)
        .into_tuple::<(Option<Vec<u8>>, i32)>()
        .all(db)
        .await?;
    rows.into_iter()
        .filter_map(|(bytes, version)| bytes.map(|bytes| (bytes, version)))
        .map(|(bytes, version)| {
            let mut action =
                StoredAction::decode(bytes.as_slice()).map_err(|e| DbErr::Custom(format!("journal action: {e}")))?;
            action.rules_version = u32::try_from(version)
                .map_err(|_| DbErr::Custom(format!("journal action: rules version {version}")))?;
            Ok(action)
        })
        .collect()
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
    /// The events, with their sequence numbers and kinds.
    pub events: Vec<(u64, &'static str, StoredEvent)>,
    /// The deal's row, when the command starts it.
    pub new_deal: Option<deals::ActiveModel>,
    /// The deal's phase after the command (`DEAL_PHASE_PLAY`).
    pub phase: String,
    /// Its outcome, once finished (encoded `DealOutcome`).
    pub outcome: Option<Vec<u8>>,
    /// Arbiter calls opened or resolved: id, open, encoded `ArbiterCall`.
    pub arbiter_calls: Vec<(String, bool, Vec<u8>)>,
    /// The idempotency key's scope and key, the request's hash, and the encoded response.
    pub idempotency: (String, String, String, Vec<u8>),
    /// A message owed to scoring: topic and encoded request.
    pub outbox: Option<(String, Vec<u8>)>,
    /// The trace context of the command that owes it ([`platform::telemetry::capture_trace_context`]).
    pub trace_context: Option<String>,
}

/// Why a commit did not happen.
#[derive(Debug)]
pub enum CommitError {
    /// Another command took the sequence (or changed the deal) first, or the same idempotency
    /// key was used at the same moment: nothing was written.
    Conflict,
    /// The database failed.
    Db(DbErr),
}

impl From<DbErr> for CommitError {
    fn from(error: DbErr) -> Self {
        match error.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(_)) => CommitError::Conflict,
            _ => CommitError::Db(error),
        }
    }
}

/// Writes one accepted command in one transaction: its events (the first carrying the command),
/// the deal's row, the arbiter calls, the first answer under its idempotency key, and the
/// outbox message a finished deal owes scoring.
#[tracing::instrument(skip_all, fields(table = %commit.table_id, version = commit.version))]
pub async fn commit(db: &Db, commit: Commit) -> Result<(), CommitError> {
    let at = now();
    let txn = db.begin().await?;
    let rows: Vec<journal::ActiveModel> = commit
        .events
        .iter()
        .enumerate()
        .map(|(i, (sequence, kind, event))| journal::ActiveModel {
            table_id: Set(commit.table_id.clone()),
            sequence: Set(*sequence as i64),
            version: Set(commit.version as i64),
            deal_id: Set(commit.deal_id.clone()),
            kind: Set((*kind).to_owned()),
            event: Set(event.encode_to_vec()),
            action: Set((i == 0).then(|| commit.action.encode_to_vec())),
            rules_version: Set(i32::try_from(commit.action.rules_version).unwrap_or(i32::MAX)),
            created_at: Set(at),
        })
        .collect();
    journal::Entity::insert_many(rows).exec(&txn).await?;

    match commit.new_deal {
        Some(row) => {
            deals::Entity::insert(row).exec(&txn).await?;
        }
        None => {
            let mut update = deals::Entity::update_many()
                .col_expr(deals::Column::TableVersion, Expr::value(commit.version as i64))
                .col_expr(deals::Column::Phase, Expr::value(commit.phase.clone()))
                .filter(deals::Column::DealId.eq(commit.deal_id.as_str()))
                .filter(deals::Column::TableVersion.eq(commit.from_version as i64));
            if let Some(outcome) = &commit.outcome {
                update = update
                    .col_expr(deals::Column::Outcome, Expr::value(outcome.clone()))
                    .col_expr(deals::Column::FinishedAt, Expr::value(at));
            }
            // The deal's row moves only from the version this command saw.
            if update.exec(&txn).await?.rows_affected != 1 {
                return Err(CommitError::Conflict);
            }
        }
    }

    for (id, open, call) in commit.arbiter_calls {
        let row = arbiter_calls::ActiveModel {
            arbiter_call_id: Set(id),
            table_id: Set(commit.table_id.clone()),
            deal_id: Set(commit.deal_id.clone()),
            open: Set(open),
            called_at: Set(at),
            resolved_at: Set((!open).then_some(at)),
            call: Set(call),
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
            .exec(&txn)
            .await?;
    }

    let (scope, key, hash, response) = commit.idempotency;
    idempotency::Entity::insert(idempotency::ActiveModel {
        scope: Set(scope),
        key: Set(key),
        request_hash: Set(hash),
        response: Set(response),
        created_at: Set(at.with_timezone(&chrono::Utc)),
    })
    .exec(&txn)
    .await?;

    if let Some((topic, payload)) = commit.outbox {
        outbox::Entity::insert(outbox::ActiveModel {
            id: NotSet,
            source: Set(crate::outbox::SOURCE.to_owned()),
            topic: Set(topic),
            aggregate_id: Set(commit.deal_id.clone()),
            payload: Set(payload),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set(at),
            created_at: Set(at),
            delivered_at: Set(None),
            trace_context: Set(commit.trace_context),
            dead_lettered_at: Set(None),
        })
        .exec(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(())
}
