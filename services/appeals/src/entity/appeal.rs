//! `appeals_appeals`: appeals, with the decision waiting while scoring applies it.

use sea_orm::entity::prelude::*;

/// One appeal.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_appeals")]
pub struct Model {
    /// The appeal's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub appeal_id: String,
    /// The ruling appealed.
    pub ruling_id: String,
    /// `filed`, `heard`, `decided` or `withdrawn`.
    pub status: String,
    /// The sequence of its `appeal_filed` notice; orders the list.
    pub sequence: i64,
    /// The appeal (`bridgeclub.appeals.v1.Appeal`), encoded.
    pub appeal: Vec<u8>,
    /// Incremented by every visible change; updates filter on it.
    pub version: i64,
    /// The appeal as its decision will make it, while scoring applies the decision.
    pub pending_appeal: Option<Vec<u8>>,
    /// The idempotency scope of the pending decision.
    pub pending_scope: Option<String>,
    /// The idempotency key of the pending decision.
    pub pending_key: Option<String>,
    /// The hash of the pending decision's request.
    pub pending_hash: Option<String>,
    /// When the row last changed.
    pub updated_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
