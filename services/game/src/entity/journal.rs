//! `game_journal`: every event of every table, keyed (table, sequence); the first row of each
//! accepted command carries the command.

use sea_orm::entity::prelude::*;

/// One event.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "game_journal")]
pub struct Model {
    /// The table.
    #[sea_orm(primary_key, auto_increment = false)]
    pub table_id: String,
    /// The table's event sequence number, from 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The table's version after the command that produced the event.
    pub version: i64,
    /// The deal.
    pub deal_id: String,
    /// The event's kind, for people reading the table.
    pub kind: String,
    /// The event (an encoded `StoredEvent`).
    pub event: Vec<u8>,
    /// The command (an encoded `StoredAction`), on the first row of each command.
    pub action: Option<Vec<u8>>,
    /// The version of the Laws' rules (`laws::RULES_VERSION`) that accepted the command: replay
    /// judges again only what this version accepted, and trusts what another accepted.
    pub rules_version: i32,
    /// When it was accepted.
    pub created_at: DateTimeWithTimeZone,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
