//! The platform's `idempotency_keys`: the first answer to a command, by scope and key.

use sea_orm::entity::prelude::*;

/// One stored answer.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    /// The command and the principal (`appeals.RecordRuling/<subject>`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub scope: String,
    /// The client's key.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// The hash of the request, so a key reused for another request is refused.
    pub request_hash: String,
    /// The encoded response.
    pub response: Vec<u8>,
    /// When.
    pub created_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
