//! `membership_staff_accounts`: the staff's accounts (signing in, issue 17).

use sea_orm::entity::prelude::*;

/// One staff account.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_staff_accounts")]
pub struct Model {
    /// The name it signs in with.
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    /// The Argon2id hash of its password (a PHC string, salt and parameters included).
    pub password_hash: String,
    /// Its roles, by their lowercase names, comma-separated.
    pub roles: String,
    /// When it was created.
    pub created_at: DateTimeUtc,
    /// When its password was last set.
    pub password_set_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
