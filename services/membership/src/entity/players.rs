//! `membership_players`: the club's register.

use sea_orm::entity::prelude::*;

/// A register entry.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_players")]
pub struct Model {
    /// The room's key for the player.
    #[sea_orm(primary_key)]
    pub number: i64,
    /// The player's id: the subject of their tokens.
    #[sea_orm(unique)]
    pub player_id: String,
    /// The name.
    pub name: String,
    /// The club's membership number, unique when set.
    pub member_number: Option<String>,
    /// Email address, or empty.
    pub email: String,
    /// Telephone, or empty.
    pub phone: String,
    /// Whether the player may take part.
    pub active: bool,
    /// When registered.
    pub registered_at: DateTimeWithTimeZone,
    /// Incremented by every update (optimistic concurrency).
    pub version: i64,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
