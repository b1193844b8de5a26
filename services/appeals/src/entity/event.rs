//! `appeals_events`: the notice stream, which is also the audit trail of rulings and appeals.

use sea_orm::entity::prelude::*;

/// One notice.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_events")]
pub struct Model {
    /// The sequence number, from 1, with no gaps.
    #[sea_orm(primary_key, auto_increment = false)]
    pub sequence: i64,
    /// When it happened.
    pub occurred_at: DateTimeUtc,
    /// The principal who acted.
    pub actor: String,
    /// `ruling_recorded`, `appeal_filed`, `appeal_heard`, `appeal_decided` or `appeal_withdrawn`.
    pub kind: String,
    /// The ruling concerned.
    pub ruling_id: String,
    /// The appeal concerned, if any.
    pub appeal_id: Option<String>,
    /// The score target, as a key.
    pub target_key: String,
    /// The notice (`bridgeclub.appeals.v1.AppealEvent`), encoded.
    pub event: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
