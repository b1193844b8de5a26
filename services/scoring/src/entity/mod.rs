//! The scoring service's tables (migrations/src/m20261122_000020_scoring.rs) as sea-orm entities.

pub mod board_release;
pub mod board_result;
pub mod board_table;
pub mod event;
pub mod score_version;
pub mod scorepad;
pub mod session;
pub mod session_standing;
