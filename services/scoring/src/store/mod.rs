//! Storage: the score versions, events and pages shared by scorepads ([`pads`]) and sessions
//! ([`sessions`]). Every change runs in one transaction that checks and increments its owner's
//! version (sea-orm has no optimistic locking, so the update filters on the version read and
//! checks the rows affected), appends its score versions and events, and updates what reads
//! serve; the live feed is told after the commit.

pub mod movement;
pub mod pads;
pub mod sessions;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use prost::Message;
use sea_orm::{ActiveValue::Set, DatabaseTransaction, EntityTrait};

use crate::entity::{event, score_version};
use crate::time;
use platform::ServiceError;

/// How many times a command without an expected version is retried when another writer
/// changed the same pad or session first.
pub const MAX_ATTEMPTS: usize = 8;

/// Decodes a stored message.
pub fn decode<M: Message + Default>(bytes: &[u8], what: &str) -> Result<M, ServiceError> {
    M::decode(bytes).map_err(|e| ServiceError::internal(format!("stored {what} does not decode: {e}")))
}

/// Decodes an optional stored message.
pub fn decode_opt<M: Message + Default>(bytes: Option<&Vec<u8>>, what: &str) -> Result<Option<M>, ServiceError> {
    bytes.map(|b| decode(b, what)).transpose()
}

/// The contract's version of a stored score version.
pub fn version_proto(row: &score_version::Model) -> Result<spb::ScoreVersion, ServiceError> {
    Ok(spb::ScoreVersion {
        version: u64::try_from(row.version).unwrap_or(0),
        target: decode_opt(row.target.as_ref(), "score target")?,
        cause: row.cause,
        reason: row.reason.clone(),
        result: decode_opt(row.result.as_ref(), "deal result")?,
        adjustment: decode_opt(row.adjustment.as_ref(), "adjustment")?,
        ruling_id: row.ruling_id.clone(),
        appeal_id: row.appeal_id.clone(),
        law: decode_opt(row.law.as_ref(), "law citation")?,
        recorded_by: row.recorded_by.clone(),
        recorded_at: Some(time::timestamp(row.recorded_at)),
    })
}

/// What a score version row holds beyond the contract's `ScoreVersion`: how to replay it.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// The operation's name.
    pub operation: String,
    /// The deal (scorepads).
    pub deal_id: Option<String>,
    /// The hands, when known.
    pub hands: Option<pb::Deal>,
    /// A Chicago diagram correction's first dealer.
    pub first_dealer: Option<i32>,
    /// Where the result came from.
    pub source: spb::ResultSource,
    /// The natural idempotency key.
    pub idem_key: Option<String>,
}

/// Inserts a score version.
pub async fn insert_version(
    txn: &DatabaseTransaction,
    owner_id: &str,
    version: &spb::ScoreVersion,
    replay: Replay,
) -> Result<(), WriteError> {
    score_version::Entity::insert(version_row(owner_id, version, replay)).exec_without_returning(txn).await?;
    Ok(())
}

/// A score version's row.
pub fn version_row(owner_id: &str, version: &spb::ScoreVersion, replay: Replay) -> score_version::ActiveModel {
    let board = match version.target.as_ref().and_then(|t| t.target.as_ref()) {
        Some(pb::score_target::Target::BoardResult(key)) => Some(key),
        _ => None,
    };
    let recorded_at = version.recorded_at.as_ref().and_then(time::from_timestamp).unwrap_or_else(time::now);
    score_version::ActiveModel {
        owner_id: Set(owner_id.to_owned()),
        version: Set(i64::try_from(version.version).unwrap_or(i64::MAX)),
        cause: Set(version.cause),
        operation: Set(replay.operation),
        target: Set(version.target.as_ref().map(Message::encode_to_vec)),
        deal_id: Set(replay.deal_id),
        board_number: Set(board.map(|k| k.board_number as i32)),
        ns_contestant: Set(board.map(|k| k.north_south_contestant_id.clone())),
        ew_contestant: Set(board.map(|k| k.east_west_contestant_id.clone())),
        result: Set(version.result.as_ref().map(Message::encode_to_vec)),
        adjustment: Set(version.adjustment.as_ref().map(Message::encode_to_vec)),
        hands: Set(replay.hands.as_ref().map(Message::encode_to_vec)),
        first_dealer: Set(replay.first_dealer),
        source: Set(replay.source as i32),
        reason: Set(version.reason.clone()),
        ruling_id: Set(version.ruling_id.clone()),
        appeal_id: Set(version.appeal_id.clone()),
        law: Set(version.law.as_ref().map(Message::encode_to_vec)),
        recorded_by: Set(version.recorded_by.clone()),
        recorded_at: Set(recorded_at),
        idem_key: Set(replay.idem_key),
    }
}

/// Appends events to a stream, numbered from `first_sequence`.
pub async fn insert_events(
    txn: &DatabaseTransaction,
    stream_id: &str,
    first_sequence: u64,
    payloads: &[Vec<u8>],
) -> Result<(), WriteError> {
    if payloads.is_empty() {
        return Ok(());
    }
    let occurred_at = time::now();
    let models = payloads.iter().enumerate().map(|(i, payload)| event::ActiveModel {
        stream_id: Set(stream_id.to_owned()),
        sequence: Set(i64::try_from(first_sequence + i as u64).unwrap_or(i64::MAX)),
        payload: Set(payload.clone()),
        occurred_at: Set(occurred_at),
    });
    event::Entity::insert_many(models).exec_without_returning(txn).await?;
    Ok(())
}

pub use platform::page::Page;

/// Why one attempt at a change did not commit: another writer got there first (a version
/// changed, or a row with the same natural key was inserted), so the attempt is made again on
/// what is now stored; or a failure to report.
#[derive(Debug)]
pub enum WriteError {
    /// Another writer committed first; try again.
    Race,
    /// A failure to report.
    Fail(ServiceError),
}

impl From<ServiceError> for WriteError {
    fn from(error: ServiceError) -> Self {
        WriteError::Fail(error)
    }
}

impl From<sea_orm::DbErr> for WriteError {
    fn from(error: sea_orm::DbErr) -> Self {
        match error.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => WriteError::Race,
            _ => WriteError::Fail(ServiceError::from(error)),
        }
    }
}

impl From<api::convert::ConversionError> for WriteError {
    fn from(error: api::convert::ConversionError) -> Self {
        WriteError::Fail(error.into())
    }
}

/// Runs `attempt` until it commits, retrying (bounded) when another writer got there first.
pub async fn retry<T, F, Fut>(what: &str, mut attempt: F) -> Result<T, ServiceError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, WriteError>>,
{
    for _ in 0..MAX_ATTEMPTS {
        match attempt().await {
            Ok(value) => return Ok(value),
            Err(WriteError::Race) => tracing::debug!(what, "another writer committed first; retrying"),
            Err(WriteError::Fail(error)) => return Err(error),
        }
    }
    Err(ServiceError::Unavailable(format!("{what}: too many concurrent changes; try again")))
}
