//! `idempotency_keys`, the platform's table of first answers (migrations: platform).

use sea_orm::entity::prelude::*;

/// The first answer to a command with an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    /// The command (`membership.OpenTable`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub scope: String,
    /// The client's key.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    /// SHA-256 of the encoded request, hex: a key reused for another request is refused.
    pub request_hash: String,
    /// The encoded first response.
    pub response: Vec<u8>,
    /// When.
    pub created_at: DateTimeWithTimeZone,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
