//! The platform's `outbox`: a call owed to another service, written with the change that owes it
//! and delivered until the other service has answered.

use sea_orm::entity::prelude::*;

/// One owed call.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "outbox")]
pub struct Model {
    /// The row's id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The service that owes it (`appeals`).
    pub source: String,
    /// What it is.
    pub topic: String,
    /// The ruling or appeal it belongs to.
    pub aggregate_id: String,
    /// The encoded request.
    pub payload: Vec<u8>,
    /// Attempts that failed.
    pub attempts: i32,
    /// The last failure, or the refusal that ended it.
    pub last_error: Option<String>,
    /// When to try again.
    pub next_attempt_at: DateTimeUtc,
    /// When it was written.
    pub created_at: DateTimeUtc,
    /// When it was answered (applied or refused for good).
    pub delivered_at: Option<DateTimeUtc>,
    /// The W3C trace context of the request that wrote it; its delivery continues that trace.
    pub trace_context: Option<String>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
