//! `scoring_events`: the numbered events of every watched stream.

use sea_orm::entity::prelude::*;

/// An event row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_events")]
pub struct Model {
    /// `scorepad:<id>` or `session:<id>`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub stream_id: String,
    /// The event's sequence number within its stream, from 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// The encoded `ScorepadEvent` or `SessionEvent`.
    pub payload: Vec<u8>,
    /// When it happened.
    pub occurred_at: DateTimeWithTimeZone,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
