//! `membership_rubbers`: every rubber's line-up.

use sea_orm::entity::prelude::*;

/// A rubber.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_rubbers")]
pub struct Model {
    /// The rubber's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub rubber_id: String,
    /// The table.
    pub table_id: String,
    /// Its number at the table.
    pub number: i64,
    /// Where it stands (the contract's enum name).
    pub status: String,
    /// When started.
    pub started_at: DateTimeWithTimeZone,
    /// When ended.
    pub ended_at: Option<DateTimeWithTimeZone>,
    /// The encoded `Rubber`.
    pub record: Vec<u8>,
    /// The encoded `GoingOut` of its end.
    pub going_out: Option<Vec<u8>>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
