//! `appeals_declared_conflicts`: the conflicts the club declares for its committee members
//! (migrations/src/m20261127_000150_appeals_committee_roster.rs).

use sea_orm::entity::prelude::*;

/// One declared conflict.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_declared_conflicts")]
pub struct Model {
    /// The conflict's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub conflict_id: String,
    /// The member conflicted.
    pub member_id: String,
    /// `player`, `partnership`, `table` or `appeal`.
    pub kind: String,
    /// The player, the partnership's first player, the table or the appeal.
    pub subject: String,
    /// The partnership's second player.
    pub subject_other: Option<String>,
    /// Why.
    pub reason: String,
    /// Who declared it.
    pub declared_by: String,
    /// When.
    pub declared_at: DateTimeUtc,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
