//! `membership_applications`: every application as it now stands.

use sea_orm::entity::prelude::*;

/// An application.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_applications")]
pub struct Model {
    /// The application's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub application_id: String,
    /// The table.
    pub table_id: String,
    /// The applicant.
    pub player_id: String,
    /// Where it stands (the contract's enum name).
    pub status: String,
    /// When made.
    pub applied_at: DateTimeWithTimeZone,
    /// The encoded `Application`.
    pub record: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
