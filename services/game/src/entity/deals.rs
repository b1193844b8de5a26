//! `game_deals`: one row per deal, for lists and lookups.

use sea_orm::entity::prelude::*;

/// One deal.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "game_deals")]
pub struct Model {
    /// The deal.
    #[sea_orm(primary_key, auto_increment = false)]
    pub deal_id: String,
    /// The table.
    pub table_id: String,
    /// The table's version after the last command of this deal; updates filter on it.
    pub table_version: i64,
    /// rubber, chicago or duplicate.
    pub kind: String,
    /// digital or recorded.
    pub mode: String,
    /// The rubber, for a rubber or Chicago deal.
    pub rubber_id: Option<String>,
    /// The scorepad, for a rubber or Chicago deal.
    pub scorepad_id: Option<String>,
    /// The session, for a duplicate board.
    pub session_id: Option<String>,
    /// The board number, for a duplicate board.
    pub board_number: Option<i32>,
    /// The encoded `DealSetup`.
    pub setup: Vec<u8>,
    /// The phase, as the contract names it (`DEAL_PHASE_PLAY`).
    pub phase: String,
    /// The encoded `DealOutcome`, once finished.
    pub outcome: Option<Vec<u8>>,
    /// When it started.
    pub started_at: DateTimeWithTimeZone,
    /// When it ended.
    pub finished_at: Option<DateTimeWithTimeZone>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
