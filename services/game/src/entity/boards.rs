//! `game_boards`: the cards of each duplicate board, fixed by the first table that starts it.

use sea_orm::entity::prelude::*;

/// One board.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "game_boards")]
pub struct Model {
    /// The session.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// The board number.
    #[sea_orm(primary_key, auto_increment = false)]
    pub board_number: i32,
    /// The 32-byte seed of a board dealt by the server.
    pub seed: Option<Vec<u8>>,
    /// The hands of a board dealt with physical cards, as a PBN Deal tag value, once entered.
    pub deal_pbn: Option<String>,
    /// The deal that fixed the board.
    pub first_deal_id: String,
    /// When.
    pub created_at: DateTimeWithTimeZone,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
