//! `game_arbiter_calls`: the calls for the arbiter across the room.

use sea_orm::entity::prelude::*;

/// One call.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "game_arbiter_calls")]
pub struct Model {
    /// The call's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub arbiter_call_id: String,
    /// The table.
    pub table_id: String,
    /// The deal.
    pub deal_id: String,
    /// Not yet resolved.
    pub open: bool,
    /// When the arbiter was called.
    pub called_at: DateTimeWithTimeZone,
    /// When he resolved it.
    pub resolved_at: Option<DateTimeWithTimeZone>,
    /// The encoded `ArbiterCall`.
    pub call: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
