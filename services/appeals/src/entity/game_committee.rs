//! `appeals_game_committees`: the committee a rubber's players designated, and who of the four has
//! confirmed it (migrations/src/m20261127_000150_appeals_committee_roster.rs).

use sea_orm::entity::prelude::*;

/// One rubber's committee.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_game_committees")]
pub struct Model {
    /// The rubber (membership's).
    #[sea_orm(primary_key, auto_increment = false)]
    pub rubber_id: String,
    /// Its table.
    pub table_id: String,
    /// The members designated (a JSON array of player ids).
    pub members: String,
    /// The rubber's four players (a JSON array).
    pub players: String,
    /// Those of the four who have confirmed (a JSON array).
    pub confirmed: String,
    /// Whether all four have.
    pub agreed: bool,
    /// Who designated it.
    pub designated_by: String,
    /// When.
    pub designated_at: DateTimeUtc,
    /// When the fourth confirmed.
    pub agreed_at: Option<DateTimeUtc>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
