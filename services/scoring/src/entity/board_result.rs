//! `scoring_board_results`: one table's result (or adjusted score) on a board, and its scores.

use sea_orm::entity::prelude::*;

/// A board result row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_board_results")]
pub struct Model {
    /// The result's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub result_id: String,
    /// The session.
    pub session_id: String,
    /// The board number.
    pub board_number: i32,
    /// The contestant that sat North-South.
    pub ns_contestant: String,
    /// The contestant that sat East-West.
    pub ew_contestant: String,
    /// The deal id it was recorded under; none for an adjusted score on a board not played.
    pub deal_id: Option<String>,
    /// The encoded `DealResult` obtained at the table, if the board was played.
    pub table_result: Option<Vec<u8>>,
    /// The encoded `Adjustment` in force, if any.
    pub adjustment: Option<Vec<u8>>,
    /// `ResultKind` as its number.
    pub kind: i32,
    /// `ResultSource` of the result in force, as its number.
    pub source: i32,
    /// The ruling behind the adjustment in force, or empty.
    pub ruling_id: String,
    /// The appeal behind the result in force, or empty.
    pub appeal_id: String,
    /// The encoded `ScoreValues` of North-South as of `version`.
    pub ns_values: Vec<u8>,
    /// The encoded `ScoreValues` of East-West as of `version`.
    pub ew_values: Vec<u8>,
    /// The session version that last changed the result or its scores.
    pub version: i64,
    /// When it was first recorded.
    pub recorded_at: DateTimeWithTimeZone,
    /// Law 87B: the form of the board the table played, as the Director found it; 0 the correct
    /// form.
    pub form: i32,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
