//! A room's state as a snapshot, so that a process starting on a long journal replays only the
//! entries after the latest snapshot rather than every entry since the room opened.
//!
//! A snapshot is the state itself, serialized (the contract's messages it keeps are stored in
//! their protobuf encoding). It is written beside the journal entry it follows and is only ever
//! a shortcut: a snapshot this build cannot read (written by another version of the code) is
//! passed over, and the journal is replayed from the start as before.

use prost::Message;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

use platform::ServiceError;

use super::ClubState;

/// The layout of the snapshots this build writes and reads: bumped whenever [`ClubState`] (or a
/// type it holds) changes shape, so that older snapshots are passed over.
pub const FORMAT: i32 = 1;

impl ClubState {
    /// The state as a snapshot.
    pub fn snapshot(&self) -> Result<Vec<u8>, ServiceError> {
        serde_json::to_vec(self).map_err(|e| ServiceError::internal(format!("room snapshot: {e}")))
    }

    /// The state a snapshot holds.
    pub fn from_snapshot(bytes: &[u8]) -> Result<ClubState, ServiceError> {
        serde_json::from_slice(bytes).map_err(|e| ServiceError::internal(format!("room snapshot unreadable: {e}")))
    }
}

fn decode<M: Message + Default, E: serde::de::Error>(bytes: &[u8]) -> Result<M, E> {
    M::decode(bytes).map_err(E::custom)
}

/// A contract message, as its encoding.
pub mod proto {
    use super::*;

    /// Writes `message` encoded.
    pub fn serialize<M: Message, S: Serializer>(message: &M, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&message.encode_to_vec())
    }

    /// Reads a message from its encoding.
    pub fn deserialize<'de, M: Message + Default, D: Deserializer<'de>>(deserializer: D) -> Result<M, D::Error> {
        decode(&Vec::<u8>::deserialize(deserializer)?)
    }
}

/// An optional contract message, as its encoding.
pub mod proto_opt {
    use super::*;

    /// Writes `message` encoded, if there is one.
    pub fn serialize<M: Message, S: Serializer>(message: &Option<M>, serializer: S) -> Result<S::Ok, S::Error> {
        match message {
            Some(message) => serializer.serialize_some(&message.encode_to_vec()),
            None => serializer.serialize_none(),
        }
    }

    /// Reads an optional message from its encoding.
    pub fn deserialize<'de, M: Message + Default, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<M>, D::Error> {
        Option::<Vec<u8>>::deserialize(deserializer)?.map(|bytes| decode(&bytes)).transpose()
    }
}

/// Contract messages by number, each as its encoding.
pub mod proto_map {
    use std::collections::BTreeMap;

    use super::*;

    /// Writes each message encoded.
    pub fn serialize<M: Message, S: Serializer>(map: &BTreeMap<u64, M>, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(map.iter().map(|(k, m)| (k, m.encode_to_vec())))
    }

    /// Reads each message from its encoding.
    pub fn deserialize<'de, M: Message + Default, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<u64, M>, D::Error> {
        BTreeMap::<u64, Vec<u8>>::deserialize(deserializer)?
            .into_iter()
            .map(|(k, bytes)| Ok((k, decode(&bytes)?)))
            .collect()
    }
}

/// How a member came to a table, as the contract numbers it.
pub mod source {
    use api::membership::v1 as pb;

    use super::*;

    /// Writes the source's number.
    pub fn serialize<S: Serializer>(source: &pb::MembershipSource, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i32(*source as i32)
    }

    /// Reads a source from its number.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<pb::MembershipSource, D::Error> {
        let number = i32::deserialize(deserializer)?;
        pb::MembershipSource::try_from(number).map_err(|_| D::Error::custom(format!("membership source {number}")))
    }
}
