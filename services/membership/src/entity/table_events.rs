//! `membership_table_events`: the WatchTable streams.

use sea_orm::entity::prelude::*;

/// One table event.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_table_events")]
pub struct Model {
    /// The table.
    #[sea_orm(primary_key, auto_increment = false)]
    pub table_id: String,
    /// The event's sequence number at the table.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The journal entry that made it.
    pub journal_sequence: i64,
    /// The encoded `TableEvent`.
    pub event: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
