//! `appeals_ruling_parties`: the players a ruling concerns (who may appeal it and receive its
//! notices).

use sea_orm::entity::prelude::*;

/// One player of one ruling.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_ruling_parties")]
pub struct Model {
    /// The ruling.
    #[sea_orm(primary_key, auto_increment = false)]
    pub ruling_id: String,
    /// The player.
    #[sea_orm(primary_key, auto_increment = false)]
    pub player_id: String,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
