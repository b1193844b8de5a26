//! `idempotency_keys` (a platform table): the first answer to each command.

use sea_orm::entity::prelude::*;

/// One remembered answer.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    /// Whose key: `game/<table>/<principal>`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub scope: String,
    /// The client's idempotency key.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// SHA-256 (hex) of the method and the request, so a key reused for another request is refused.
    pub request_hash: String,
    /// The encoded response.
    pub response: Vec<u8>,
    /// When.
    pub created_at: DateTimeWithTimeZone,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
