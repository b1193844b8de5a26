//! `idempotency_keys`: the first answer to each command with an idempotency key.

use sea_orm::entity::prelude::*;

/// One remembered answer.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    /// Whose key: the command and, where keys are per principal or per table, those
    /// (`appeals.RecordRuling/<subject>`, `game/<table>/<principal>`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub scope: String,
    /// The client's idempotency key.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// [`super::request_hash`] of the request the key was first used for.
    pub request_hash: String,
    /// The encoded first response.
    pub response: Vec<u8>,
    /// When it was stored.
    pub created_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
