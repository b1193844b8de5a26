//! The membership service's tables, as sea-orm entities (the schema is in
//! `migrations/src/m20261122_000010_membership.rs`, and for signing in
//! `migrations/src/m20261206_000160_sign_in.rs`).

pub mod applications;
pub mod draws;
pub mod journal;
pub mod players;
pub mod refresh_tokens;
pub mod room_events;
pub mod rubbers;
pub mod sessions;
pub mod sign_in_codes;
pub mod snapshots;
pub mod staff_accounts;
pub mod table_events;
pub mod tables;

pub use platform::store::idempotency_keys as idempotency;
