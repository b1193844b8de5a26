//! Time as the database stores it (timestamps with time zone) and as the contract sends it.

use chrono::{DateTime, FixedOffset, SubsecRound, Utc};

/// Now, as stored: to the microsecond, which is what Postgres keeps, so that an answer given
/// before a value was stored is the same as one read back after.
pub fn now() -> DateTime<FixedOffset> {
    Utc::now().trunc_subsecs(6).fixed_offset()
}

/// A stored time as a protobuf timestamp.
pub fn timestamp(at: DateTime<FixedOffset>) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: at.timestamp(), nanos: i32::try_from(at.timestamp_subsec_nanos()).unwrap_or(0) }
}

/// A protobuf timestamp as a stored time, if it is one.
pub fn from_timestamp(at: &prost_types::Timestamp) -> Option<DateTime<FixedOffset>> {
    let nanos = u32::try_from(at.nanos).ok()?;
    DateTime::<Utc>::from_timestamp(at.seconds, nanos).map(|t| t.fixed_offset())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip() {
        let at = now();
        assert_eq!(from_timestamp(&timestamp(at)), Some(at));
        assert_eq!(at.timestamp_subsec_nanos() % 1000, 0, "microseconds, as Postgres keeps them");
        assert_eq!(from_timestamp(&prost_types::Timestamp { seconds: 0, nanos: -1 }), None);
    }
}
