//! The sea-orm entities of the appeals service's tables (migrations/src/m20261122_000040_appeals.rs)
//! and of the two platform tables it writes (`idempotency_keys`, `outbox`).

pub mod appeal;
pub mod committee_member;
pub mod committee_roster;
pub mod declared_conflict;
pub mod event;
pub mod event_audience;
pub mod game_committee;
pub mod policy;
pub mod ruling;
pub mod ruling_party;
pub mod stream;

pub use platform::store::{idempotency_keys as idempotency_key, outbox};
