//! `outbox`: calls owed to another service, delivered until acknowledged.

use sea_orm::entity::prelude::*;

/// One owed call.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "outbox")]
pub struct Model {
    /// The row's id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The service that owes it (`game`, `appeals`).
    pub source: String,
    /// What it is (`scoring.RecordDealResult`, ...).
    pub topic: String,
    /// What it is about: a deal, a ruling, an appeal.
    pub aggregate_id: String,
    /// The encoded request.
    pub payload: Vec<u8>,
    /// Delivery attempts so far (a worker counts one as it claims the row).
    pub attempts: i32,
    /// Why the last attempt failed, or the refusal that ended it.
    pub last_error: Option<String>,
    /// Not before.
    pub next_attempt_at: DateTimeWithTimeZone,
    /// When it was written.
    pub created_at: DateTimeWithTimeZone,
    /// When the peer acknowledged it (applied, or refused for good).
    pub delivered_at: Option<DateTimeWithTimeZone>,
    /// The W3C trace context of the request that wrote it; its delivery continues that trace.
    pub trace_context: Option<String>,
    /// When it was set aside after failing too often (`crate::outbox`); cleared to try again.
    pub dead_lettered_at: Option<DateTimeWithTimeZone>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
