//! The one schema history of the platform. Every service's tables are created and changed here,
//! in order, and the same migrations run on Postgres and on SQLite (the embedded default).
//! They are applied at start-up by every service and by `bridgectl migrate`.

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_platform;
mod m20261122_000010_membership;
mod m20261122_000020_scoring;
mod m20261122_000030_game;
mod m20261122_000040_appeals;
mod m20261122_000050_outbox_trace;
mod m20261122_000060_fouled_board;
mod m20261126_000070_movement;
mod m20261126_000080_rules_version;
mod m20261127_000090_outbox_dead_letter;
mod m20261127_000100_session_storage;
mod m20261127_000110_session_standings;
mod m20261127_000120_membership_snapshots;
mod m20261127_000130_outbox_due;
mod m20261127_000147_appeal_procedure;
mod m20261127_000150_appeals_committee_roster;
mod m20261206_000160_sign_in;

/// Applies the migrations in order.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_platform::Migration),
            Box::new(m20261122_000010_membership::Migration),
            Box::new(m20261122_000020_scoring::Migration),
            Box::new(m20261122_000030_game::Migration),
            Box::new(m20261122_000040_appeals::Migration),
            Box::new(m20261122_000050_outbox_trace::Migration),
            Box::new(m20261122_000060_fouled_board::Migration),
            Box::new(m20261126_000070_movement::Migration),
            Box::new(m20261126_000080_rules_version::Migration),
            Box::new(m20261127_000090_outbox_dead_letter::Migration),
            Box::new(m20261127_000100_session_storage::Migration),
            Box::new(m20261127_000110_session_standings::Migration),
            Box::new(m20261127_000120_membership_snapshots::Migration),
            Box::new(m20261127_000130_outbox_due::Migration),
            Box::new(m20261127_000147_appeal_procedure::Migration),
            Box::new(m20261127_000150_appeals_committee_roster::Migration),
            Box::new(m20261206_000160_sign_in::Migration),
        ]
    }
}
