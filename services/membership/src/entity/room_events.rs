//! `membership_room_events`: the WatchRoom stream.

use sea_orm::entity::prelude::*;

/// One room event.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_room_events")]
pub struct Model {
    /// The room.
    #[sea_orm(primary_key, auto_increment = false)]
    pub room: String,
    /// The event's sequence number.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The journal entry that made it.
    pub journal_sequence: i64,
    /// The encoded `RoomEvent`.
    pub event: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
