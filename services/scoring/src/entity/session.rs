//! `scoring_sessions`: a duplicate session, its version and its standings as they stand.

use sea_orm::entity::prelude::*;

/// A session row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_sessions")]
pub struct Model {
    /// The session's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// Its name.
    pub name: String,
    /// The encoded `Session` as created: kind, method, boards and contestants.
    pub definition: Vec<u8>,
    /// `SessionStatus` as its number.
    pub status: i32,
    /// The session's score version; every change checks and increments it.
    pub version: i64,
    /// The last event sequence number of the session's stream.
    pub last_sequence: i64,
    /// The encoded standings as of `version`: a teams session's, or a pairs session's stored
    /// before they were kept a row per contestant (`session_standing`); else only a mark that
    /// they are.
    pub standings: Vec<u8>,
    /// When the official score was published.
    pub scores_published_at: Option<DateTimeWithTimeZone>,
    /// When the Law 79C correction period ends.
    pub correction_period_ends_at: Option<DateTimeWithTimeZone>,
    /// When the session was created.
    pub created_at: DateTimeWithTimeZone,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
