//! `membership_snapshots`: a room's state after a journal entry (`crate::state::snapshot`).

use sea_orm::entity::prelude::*;

/// One snapshot.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_snapshots")]
pub struct Model {
    /// The room.
    #[sea_orm(primary_key, auto_increment = false)]
    pub room: String,
    /// The journal entry it follows: the room's version.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// Its layout (`crate::state::snapshot::FORMAT`).
    pub format: i32,
    /// The state.
    pub state: Vec<u8>,
    /// When it was taken.
    pub taken_at: DateTimeWithTimeZone,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
