//! Scorepads as the command runtime runs them ([`platform::runtime::Aggregate`]): a pad is the
//! replay of its score versions (the journal); its row keeps the pad as it stands for reads, and
//! its live copy is only the head of its event feed, so a process brings its own copy of a pad up
//! to date from the versions after the one it has.

use std::sync::Arc;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::scoring::v1 as spb;
use bytes::Bytes;
use laws::{Deal, Seat};
use prost::Message;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::stream;
use crate::entity::{event, score_version, scorepad};
use crate::live::{FeedHead, channel, head_key};
use crate::pad::{Header, Operation, Pad};
use crate::store::{Replay, decode, decode_opt, version_proto, version_row};
use crate::time;
use platform::ServiceError;
use platform::db::Db;
use platform::runtime::{Aggregate, WriteError};

/// A pad as a command decides on it: the pad, and the last event of its feed.
#[derive(Debug, Clone)]
pub struct Standing {
    /// The pad.
    pub pad: Pad,
    /// The last event of its feed.
    pub last_sequence: u64,
}

/// What a change of a pad answers: the pad after it and the version that made it (or, for a
/// change made before, the version that made it then).
#[derive(Clone, PartialEq, Message)]
pub struct Changed {
    /// The pad as it now stands.
    #[prost(message, optional, tag = "1")]
    pub scorepad: Option<spb::Scorepad>,
    /// The version.
    #[prost(message, optional, tag = "2")]
    pub version: Option<spb::ScoreVersion>,
}

/// What one accepted change writes.
#[derive(Debug)]
pub struct PadWrite {
    /// The pad.
    pub scorepad_id: String,
    /// The new score version and how to replay it.
    pub version: spb::ScoreVersion,
    /// How it replays.
    pub replay: Replay,
    /// The pad as it now stands, for reads.
    pub state: spb::Scorepad,
    /// Its status number.
    pub status: i32,
    /// The event announcing it.
    pub event: (u64, Vec<u8>),
}

/// The scorepads (see the module docs).
#[derive(Debug, Default)]
pub struct PadJournal;

impl Aggregate for PadJournal {
    type State = Arc<Standing>;
    type Write = PadWrite;
    const NAME: &'static str = "scorepad";
    const LIVE_HOLDS_STATE: bool = false;

    fn version(state: &Arc<Standing>) -> u64 {
        state.pad.version()
    }

    fn live_key(&self, scorepad_id: &str) -> String {
        head_key(&stream(scorepad_id))
    }

    fn channel(&self, scorepad_id: &str) -> String {
        channel(&stream(scorepad_id))
    }

    fn to_live(&self, state: &Arc<Standing>) -> Bytes {
        Bytes::from(FeedHead { last_sequence: state.last_sequence }.encode_to_vec())
    }

    fn state_of_live(&self, _id: &str, _version: u64, _live: &[u8]) -> Result<Option<Arc<Standing>>, ServiceError> {
        Ok(None)
    }

    async fn read_journal(
        &self,
        db: &Db,
        scorepad_id: &str,
        known: Option<Arc<Standing>>,
    ) -> Result<Arc<Standing>, ServiceError> {
        let row = scorepad::Entity::find_by_id(scorepad_id)
            .one(db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("scorepad {scorepad_id}")))?;
        let last_sequence = u64::try_from(row.last_sequence).unwrap_or(0);
        let stored = u64::try_from(row.version).unwrap_or(0);
        if let Some(known) = &known
            && known.pad.version() == stored
        {
            return Ok(known.clone());
        }
        let known = known.filter(|k| k.pad.version() < stored).map(|k| k.pad.clone());
        let pad = replay(db, &row, known).await?;
        Ok(Arc::new(Standing { pad, last_sequence }))
    }

    async fn journal_version(&self, db: &Db, scorepad_id: &str) -> Result<u64, ServiceError> {
        let version = scorepad::Entity::find_by_id(scorepad_id)
            .select_only()
            .column(scorepad::Column::Version)
            .into_tuple::<i64>()
            .one(db)
            .await?;
        Ok(version.map_or(0, |v| u64::try_from(v).unwrap_or(0)))
    }

    /// Each change: its score version (whose primary key, and natural key when it has one, refuse
    /// a second writer), the pad's row moved from the version the change saw, and its event.
    async fn write(&self, txn: &DatabaseTransaction, writes: Vec<&PadWrite>) -> Result<(), WriteError> {
        for write in writes {
            let number = i64::try_from(write.version.version).unwrap_or(i64::MAX);
            score_version::Entity::insert(version_row(&write.scorepad_id, &write.version, write.replay.clone()))
                .exec_without_returning(txn)
                .await?;
            let (sequence, payload) = &write.event;
            let net_agreed_at = write.state.net_agreed_at.as_ref().and_then(time::from_timestamp);
            let updated = scorepad::Entity::update_many()
                .col_expr(scorepad::Column::Version, Expr::value(number))
                .col_expr(scorepad::Column::LastSequence, Expr::value(i64::try_from(*sequence).unwrap_or(i64::MAX)))
                .col_expr(scorepad::Column::State, Expr::value(write.state.encode_to_vec()))
                .col_expr(scorepad::Column::Status, Expr::value(write.status))
                .col_expr(scorepad::Column::NetAgreedAt, Expr::value(net_agreed_at))
                .filter(scorepad::Column::ScorepadId.eq(write.scorepad_id.as_str()))
                .filter(scorepad::Column::Version.eq(number - 1))
                .exec(txn)
                .await?;
            if updated.rows_affected != 1 {
                return Err(WriteError::Conflict);
            }
            insert_event(txn, &stream(&write.scorepad_id), *sequence, payload.clone()).await?;
        }
        Ok(())
    }
}

async fn insert_event(txn: &DatabaseTransaction, stream: &str, sequence: u64, payload: Vec<u8>) -> Result<(), DbErr> {
    let row = event::ActiveModel {
        stream_id: sea_orm::Set(stream.to_owned()),
        sequence: sea_orm::Set(i64::try_from(sequence).unwrap_or(i64::MAX)),
        payload: sea_orm::Set(payload),
        occurred_at: sea_orm::Set(time::now()),
    };
    event::Entity::insert(row).exec_without_returning(txn).await.map(|_| ())
}

/// The pad's header from its stored definition.
fn header(row: &scorepad::Model) -> Result<Header, ServiceError> {
    let definition: spb::CreateScorepadRequest = decode(&row.definition, "scorepad definition")?;
    Ok(Header {
        scorepad_id: row.scorepad_id.clone(),
        kind: pb::TableKind::try_from(definition.kind).unwrap_or(pb::TableKind::Unspecified),
        table_id: definition.table_id,
        rubber_id: definition.rubber_id,
        players: definition.players,
        first_dealer: match definition.first_dealer {
            0 => None,
            raw => Some(Seat::from_proto("first_dealer", raw)?),
        },
        options: definition.options.unwrap_or_default(),
        created_at: Some(time::timestamp(row.created_at)),
    })
}

/// The operation a stored version replays.
fn operation(row: &score_version::Model) -> Result<Operation, ServiceError> {
    let deal_id =
        || row.deal_id.clone().ok_or_else(|| ServiceError::internal(format!("version {} has no deal", row.version)));
    let result = || decode_opt::<pb::DealResult>(row.result.as_ref(), "deal result");
    let required = || result()?.ok_or_else(|| ServiceError::internal(format!("version {} has no result", row.version)));
    Ok(match row.operation.as_str() {
        "record" => Operation::Record {
            deal_id: deal_id()?,
            result: required()?,
            hands: decode_opt::<pb::Deal>(row.hands.as_ref(), "hands")?.map(Deal::try_from).transpose()?,
            source: spb::ResultSource::try_from(row.source).unwrap_or(spb::ResultSource::Unspecified),
        },
        "correct" => Operation::Correct {
            deal_id: deal_id()?,
            result: result()?,
            first_dealer: row.first_dealer.map(|raw| Seat::from_proto("first_dealer", raw)).transpose()?,
        },
        "rule" => Operation::Rule { deal_id: deal_id()?, result: Some(required()?) },
        "rule_restore" => Operation::Rule { deal_id: deal_id()?, result: None },
        "appeal" => Operation::Appeal { deal_id: deal_id()?, result: Some(required()?) },
        "appeal_restore" => Operation::Appeal { deal_id: deal_id()?, result: None },
        "end" => Operation::End,
        "agree_net" => Operation::AgreeNet,
        other => return Err(ServiceError::internal(format!("unknown scorepad operation {other:?}"))),
    })
}

/// Replays a pad's stored versions after `known` (from its empty pad, without it): the trusted
/// path, each version applied as it was accepted.
async fn replay<C: ConnectionTrait>(db: &C, row: &scorepad::Model, known: Option<Pad>) -> Result<Pad, ServiceError> {
    let mut pad = match known {
        Some(pad) => pad,
        None => Pad::new(header(row)?)?,
    };
    let versions = score_version::Entity::find()
        .filter(score_version::Column::OwnerId.eq(row.scorepad_id.as_str()))
        .filter(score_version::Column::Version.gt(i64::try_from(pad.version()).unwrap_or(i64::MAX)))
        .order_by_asc(score_version::Column::Version)
        .all(db)
        .await?;
    for stored in &versions {
        pad.apply(&operation(stored)?, version_proto(stored)?)?;
    }
    Ok(pad)
}
