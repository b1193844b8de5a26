//! The sea-orm entities of the game service's tables and of the platform tables it writes
//! (`idempotency_keys`, `outbox`); the schema itself is in the `migration` crate.

pub mod arbiter_calls;
pub mod boards;
pub mod deals;
pub mod journal;

pub use platform::store::{idempotency_keys as idempotency, outbox};
