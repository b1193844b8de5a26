//! The membership service's tables, as sea-orm entities (the schema is in
//! `migrations/src/m20261122_000010_membership.rs`).

pub mod applications;
pub mod draws;
pub mod journal;
pub mod players;
pub mod room_events;
pub mod rubbers;
pub mod snapshots;
pub mod table_events;
pub mod tables;

pub use platform::store::idempotency_keys as idempotency;
