//! `appeals_committee_members`: the principals who have called this service with the committee
//! role. Only they may be named as members of a hearing or a decision: the service sees only its
//! caller's token, so this is how it knows the others hold the role too.

use sea_orm::entity::prelude::*;

/// One committee principal.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_committee_members")]
pub struct Model {
    /// The token subject.
    #[sea_orm(primary_key, auto_increment = false)]
    pub subject: String,
    /// When the principal first called with the committee role.
    pub first_seen_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
