//! `scoring_board_tables`: the movement of a session, one row a table a board is sent to
//! (duplicate Law 8A).

use sea_orm::entity::prelude::*;

/// One table of a board's movement.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_board_tables")]
pub struct Model {
    /// The session.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// The board.
    #[sea_orm(primary_key, auto_increment = false)]
    pub board_number: i32,
    /// The table (the game service's table id) that plays it.
    #[sea_orm(primary_key, auto_increment = false)]
    pub table_id: String,
    /// The contestant sitting North-South there.
    pub ns_contestant: String,
    /// The contestant sitting East-West there.
    pub ew_contestant: String,
    /// Who assigned it.
    pub assigned_by: String,
    /// When.
    pub assigned_at: DateTimeWithTimeZone,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
