//! `scoring_board_releases`: boards the Director released before every table of the movement
//! had played them.

use sea_orm::entity::prelude::*;

/// One released board.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_board_releases")]
pub struct Model {
    /// The session.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// The board.
    #[sea_orm(primary_key, auto_increment = false)]
    pub board_number: i32,
    /// The Director who released it.
    pub released_by: String,
    /// When.
    pub released_at: DateTimeWithTimeZone,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
