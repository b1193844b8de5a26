//! `membership_tables`: every table as it now stands, closed ones included.

use sea_orm::entity::prelude::*;

/// A table.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_tables")]
pub struct Model {
    /// The table's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub table_id: String,
    /// The room.
    pub room: String,
    /// The table's number in the room.
    pub number: i64,
    /// Its name.
    pub name: String,
    /// Its status (the contract's enum name).
    pub status: String,
    /// When opened.
    pub opened_at: DateTimeWithTimeZone,
    /// When closed.
    pub closed_at: Option<DateTimeWithTimeZone>,
    /// The table's version.
    pub version: i64,
    /// The encoded `Table`.
    pub record: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
