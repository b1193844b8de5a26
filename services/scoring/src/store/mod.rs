//! Storage: the score versions, events and pages shared by scorepads ([`pads`]) and sessions
//! ([`sessions`]). Both run their changes on the platform's command runtime
//! ([`platform::runtime`]): a change is decided on its owner as it stands, then written (many
//! owners' changes to a transaction) only if the owner is still at the version it was decided on
//! (the update filters on that version and checks the rows affected), with its score versions,
//! its events and what reads serve; the live feed is told after the commit.

pub mod movement;
pub mod pads;
pub mod sessions;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use prost::Message;
use sea_orm::ActiveValue::Set;

use crate::entity::score_version;
use crate::time;
use platform::ServiceError;

/// How many times a command without an expected version is decided when another writer
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

pub use platform::page::Page;
