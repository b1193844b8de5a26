//! `scoring_session_standings`: one contestant's standing in a pairs session, its tally over the
//! boards it played (ranks are derived when read).

use sea_orm::entity::prelude::*;

/// One contestant's row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scoring_session_standings")]
pub struct Model {
    /// The session.
    #[sea_orm(primary_key, auto_increment = false)]
    pub session_id: String,
    /// The contestant's position in the session's definition, from 1: the laws crate's pair.
    #[sea_orm(primary_key, auto_increment = false)]
    pub pair: i32,
    /// The contestant's id.
    pub contestant_id: String,
    /// The encoded tally (empty boards: the contestant has not played yet).
    pub tally: Vec<u8>,
}

/// No relations are navigated.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
