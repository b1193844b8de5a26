//! `appeals_committee_roster`: the club's appeals committee, one row per member's term
//! (migrations/src/m20261127_000150_appeals_committee_roster.rs).

use sea_orm::entity::prelude::*;

/// One member's term on the committee.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_committee_roster")]
pub struct Model {
    /// The entry's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub entry_id: String,
    /// The member, a player on membership's register.
    pub member_id: String,
    /// Whether he chairs the committee during the term.
    pub chair: bool,
    /// When the term begins.
    pub term_from: DateTimeUtc,
    /// When it ends, if it does.
    pub term_until: Option<DateTimeUtc>,
    /// The entry's version, from 1.
    pub version: i64,
    /// Who last changed it.
    pub updated_by: String,
    /// When.
    pub updated_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
