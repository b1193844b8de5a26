//! `auth_revoked_sessions`: sign-in sessions ended before their access tokens expire, which every
//! service's auth layer refuses ([`crate::revocation`]).

use sea_orm::entity::prelude::*;

/// One ended session.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "auth_revoked_sessions")]
pub struct Model {
    /// The session: the `sid` claim of its tokens.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// Milliseconds since the epoch after which no access token of the session is valid anyway:
    /// until then it must be refused, after that the row is of no use.
    pub refuse_until_ms: i64,
    /// When it was ended, milliseconds since the epoch.
    pub revoked_at_ms: i64,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
