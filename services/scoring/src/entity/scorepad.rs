//! `scoring_scorepads`: a rubber or Chicago pad, its version, and the pad as it stands.

use sea_orm::entity::prelude::*;

/// A scorepad row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_scorepads")]
pub struct Model {
    /// The pad's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub scorepad_id: String,
    /// `TableKind` as its number.
    pub kind: i32,
    /// The membership service's table.
    pub table_id: String,
    /// The membership service's rubber line-up (one pad per rubber).
    pub rubber_id: String,
    /// The encoded `CreateScorepadRequest` the pad was created from (players, dealer, options).
    pub definition: Vec<u8>,
    /// `ScorepadStatus` as its number, kept for listing.
    pub status: i32,
    /// The pad's score version; every change checks and increments it.
    pub version: i64,
    /// The last event sequence number of the pad's stream.
    pub last_sequence: i64,
    /// The encoded `Scorepad` as of `version`.
    pub state: Vec<u8>,
    /// When the pad was created.
    pub created_at: DateTimeWithTimeZone,
    /// When the players agreed the net score.
    pub net_agreed_at: Option<DateTimeWithTimeZone>,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
