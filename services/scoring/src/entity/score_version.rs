//! `scoring_score_versions`: one version of a pad's or session's score: what changed it, the
//! operation a replay applies, and why.

use sea_orm::entity::prelude::*;

/// A score version row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_score_versions")]
pub struct Model {
    /// The scorepad or session.
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner_id: String,
    /// The version number within its owner, from 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub version: i64,
    /// `ScoreVersionCause` as its number.
    pub cause: i32,
    /// What a replay of a scorepad applies (see `pad::Operation`); for sessions, what was done.
    pub operation: String,
    /// The encoded `ScoreTarget`, if the version concerns one deal or board result.
    pub target: Option<Vec<u8>>,
    /// The deal id the version concerns (scorepads), for filtering and replay.
    pub deal_id: Option<String>,
    /// The board number the version concerns (sessions).
    pub board_number: Option<i32>,
    /// The North-South contestant of the board result (sessions).
    pub ns_contestant: Option<String>,
    /// The East-West contestant of the board result (sessions).
    pub ew_contestant: Option<String>,
    /// The encoded `DealResult` the version puts in force, if any.
    pub result: Option<Vec<u8>>,
    /// The encoded `Adjustment` the version puts in force, if any.
    pub adjustment: Option<Vec<u8>>,
    /// The encoded `Deal` (the hands), when the recorder knew them.
    pub hands: Option<Vec<u8>>,
    /// A Chicago diagram correction's first dealer, as a `Seat` number.
    pub first_dealer: Option<i32>,
    /// `ResultSource` as its number.
    pub source: i32,
    /// Why, in words.
    pub reason: String,
    /// The ruling behind the change, or empty.
    pub ruling_id: String,
    /// The appeal behind the change, or empty.
    pub appeal_id: String,
    /// The encoded `LawCitation` the change was made under.
    pub law: Option<Vec<u8>>,
    /// The principal who made the change.
    pub recorded_by: String,
    /// When.
    pub recorded_at: DateTimeWithTimeZone,
    /// The natural idempotency key (`deal:<id>`, `ruling:<ruling>/<appeal>`), unique per owner.
    pub idem_key: Option<String>,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
