//! `appeals_streams`: the last sequence number given out, per stream. Updating the row takes its
//! lock until the transaction ends, so notices commit in sequence order.

use sea_orm::entity::prelude::*;

/// One stream's counter.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "appeals_streams")]
pub struct Model {
    /// The stream's name.
    #[sea_orm(primary_key, auto_increment = false)]
    pub stream: String,
    /// The last sequence given out; 0 before the first.
    pub last_sequence: i64,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
