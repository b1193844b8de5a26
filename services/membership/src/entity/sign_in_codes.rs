//! `membership_sign_in_codes`: the one-time codes members sign in with, while they can be used.

use sea_orm::entity::prelude::*;

/// One code.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_sign_in_codes")]
pub struct Model {
    /// The code's first characters, by which it is found; the rest is its secret.
    #[sea_orm(primary_key, auto_increment = false)]
    pub handle: String,
    /// The member it signs in.
    pub player_id: String,
    /// The Argon2id hash of the code's secret part.
    pub secret_hash: String,
    /// Who issued it (the desk's subject).
    pub issued_by: String,
    /// Milliseconds since the epoch after which it no longer works.
    pub expires_at_ms: i64,
    /// Wrong secrets tried with its handle.
    pub failures: i32,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
