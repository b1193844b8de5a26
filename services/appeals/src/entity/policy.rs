//! `appeals_policies`: every appeal policy the club has published, by version.

use sea_orm::entity::prelude::*;

/// One published policy.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_policies")]
pub struct Model {
    /// The version, from 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub version: i64,
    /// Whether appeals are heard.
    pub appeals_allowed: bool,
    /// Rubber and Chicago: seconds after the ruling.
    pub rubber_time_limit_secs: i64,
    /// Duplicate: seconds after the official score is published (Law 92B).
    pub duplicate_time_limit_secs: i64,
    /// Members who hear and decide.
    pub committee_size: i32,
    /// When it was published.
    pub published_at: DateTimeUtc,
    /// Who published it.
    pub published_by: String,
    /// The club's options for the stages of an appeal (`bridgeclub.appeals.v1.AppealProcedure`,
    /// encoded); none when absent.
    pub procedure: Option<Vec<u8>>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
