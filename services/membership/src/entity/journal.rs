//! `membership_journal`: every command the room accepted.

use sea_orm::entity::prelude::*;

/// One journal entry.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_journal")]
pub struct Model {
    /// The room.
    #[sea_orm(primary_key, auto_increment = false)]
    pub room: String,
    /// The entry's number in the room, from 1: the room's version after it.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The command's kind.
    pub kind: String,
    /// Who asked.
    pub actor: String,
    /// When.
    pub recorded_at: DateTimeWithTimeZone,
    /// The entry, JSON (`crate::journal::Entry`).
    #[sea_orm(column_type = "Text")]
    pub entry: String,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
