//! `membership_draws`: every draw with every card, for audit.

use sea_orm::entity::prelude::*;

/// A draw.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "membership_draws")]
pub struct Model {
    /// The draw's id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub draw_id: String,
    /// The table.
    pub table_id: String,
    /// What it decides (the contract's enum name).
    pub purpose: String,
    /// Complete or awaiting draws.
    pub status: String,
    /// When recorded first.
    pub created_at: DateTimeWithTimeZone,
    /// The encoded `Draw`.
    pub record: Vec<u8>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
