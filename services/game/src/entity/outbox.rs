//! `outbox` (a platform table): messages owed to another service, delivered until acknowledged.

use sea_orm::entity::prelude::*;

/// One message.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "outbox")]
pub struct Model {
    /// Its id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The service that owes it (`game`).
    pub source: String,
    /// What it is (`scoring.RecordDealResult`, `scoring.RecordBoardResult`).
    pub topic: String,
    /// The deal it is about.
    pub aggregate_id: String,
    /// The encoded request.
    pub payload: Vec<u8>,
    /// Delivery attempts so far.
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// Not before.
    pub next_attempt_at: DateTimeWithTimeZone,
    /// When it was written.
    pub created_at: DateTimeWithTimeZone,
    /// When the peer acknowledged it.
    pub delivered_at: Option<DateTimeWithTimeZone>,
    /// The W3C trace context of the request that wrote it; its delivery continues that trace.
    pub trace_context: Option<String>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
