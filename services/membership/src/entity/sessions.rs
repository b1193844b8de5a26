//! `membership_sessions`: every session signing in opened.

use sea_orm::entity::prelude::*;

/// One session: a sign-in and the refreshes that followed it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_sessions")]
pub struct Model {
    /// The session's id: the `sid` claim of its access tokens.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// Whom its tokens speak for: a member's player id or `staff:<account>`.
    pub subject: String,
    /// `member` or `staff`.
    pub kind: String,
    /// The roles its tokens grant, comma-separated.
    pub roles: String,
    /// When it was opened, milliseconds since the epoch.
    pub created_at_ms: i64,
    /// When it ends of itself (no refresh after), milliseconds since the epoch.
    pub expires_at_ms: i64,
    /// When it was ended early, if it was.
    pub ended_at_ms: Option<i64>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
