//! `appeals_event_audience`: the players a notice is for (staff and the committee see all).

use sea_orm::entity::prelude::*;

/// One player of one notice.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_event_audience")]
pub struct Model {
    /// The notice.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The player.
    #[sea_orm(primary_key, auto_increment = false)]
    pub player_id: String,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
