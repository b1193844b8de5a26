//! `appeals_rulings`: rulings, pending while their adjusted score is applied.

use sea_orm::entity::prelude::*;

/// A ruling is being applied by the scoring service and is not yet on record.
pub const PENDING: &str = "pending";
/// A ruling on record.
pub const RECORDED: &str = "recorded";

/// One ruling.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_rulings")]
pub struct Model {
    /// The ruling's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub ruling_id: String,
    /// [`PENDING`] or [`RECORDED`].
    pub status: String,
    /// The sequence of its `ruling_recorded` notice, once recorded; orders the list.
    pub sequence: Option<i64>,
    /// The game service's deal id.
    pub deal_id: String,
    /// The table kind (`bridgeclub.common.v1.TableKind`).
    pub table_kind: i32,
    /// The score target as a key (see `store::target_key`).
    pub target_key: String,
    /// The scorepad or session whose score versions the audit reads.
    pub score_owner: String,
    /// The appeal policy in force when the ruling was made.
    pub policy_version: i64,
    /// The arbiter or director.
    pub ruled_by: String,
    /// When.
    pub ruled_at: DateTimeUtc,
    /// The ruling (`bridgeclub.appeals.v1.Ruling`, without its appeal ids), encoded.
    pub ruling: Vec<u8>,
    /// Who may appeal and receives notices (`store::Parties`, JSON).
    pub parties: String,
    /// The score version its adjusted score made (`bridgeclub.scoring.v1.ScoreVersion`), encoded.
    pub score_version: Option<Vec<u8>>,
    /// The idempotency scope of the request that made it.
    pub idempotency_scope: String,
    /// The idempotency key of the request that made it.
    pub idempotency_key: String,
    /// The hash of that request.
    pub request_hash: String,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
