//! `membership_refresh_tokens`: every refresh token a session was given.

use sea_orm::entity::prelude::*;

/// One refresh token, by its hash.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_refresh_tokens")]
pub struct Model {
    /// SHA-256 (hex) of the token: it is 256 random bits, so a fast hash is enough and lets it be
    /// looked up.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    /// Its session.
    pub session_id: String,
    /// When it was given, milliseconds since the epoch.
    pub created_at_ms: i64,
    /// When it was exchanged, if it was: presenting it again ends the session.
    pub spent_at_ms: Option<i64>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
