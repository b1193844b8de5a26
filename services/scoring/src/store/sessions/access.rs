//! Who may see what of a session before its official score is published: the hands and
//! results of a board stay with the tables that played it until it is released. Kept apart
//! because every read and the watch stream apply the same rules.

use std::collections::HashSet;

use api::scoring::v1 as spb;
use sea_orm::sea_query::ExprTrait;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};

use super::super::movement;
use crate::entity::{board_result, session};
use platform::ServiceError;
use platform::auth::{Principal, Role};

/// Which boards a principal may see the hands and results of before publication: every board
/// for the desk, the director, the committee and the administrator, and for everyone once the
/// official score is published; otherwise, for a player, only the boards his pair or team has a
/// result on (he must not see a board's hands or other tables' results before he plays it).
#[derive(Debug, Clone)]
pub(super) enum Visibility {
    /// Every board.
    All,
    /// These boards.
    Boards(HashSet<u32>),
}

impl Visibility {
    pub(super) fn sees(&self, board: u32) -> bool {
        match self {
            Visibility::All => true,
            Visibility::Boards(boards) => boards.contains(&board),
        }
    }
}

pub(super) fn is_staff(principal: &Principal) -> bool {
    principal.has_any(&[Role::Desk, Role::Arbiter, Role::Committee, Role::Admin, Role::Service])
}

/// The contestants `player_id` plays for.
pub(super) fn contestants_of<'a>(session: &'a spb::Session, player_id: &str) -> Vec<&'a str> {
    session
        .contestants
        .iter()
        .filter(|c| c.player_ids.iter().any(|p| p == player_id))
        .map(|c| c.contestant_id.as_str())
        .collect()
}

pub(super) async fn visibility<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    definition: &spb::Session,
    principal: &Principal,
) -> Result<Visibility, ServiceError> {
    if is_staff(principal) || row.status == spb::SessionStatus::Published as i32 {
        return Ok(Visibility::All);
    }
    // Every table of its movement has played it, or the director released it.
    let released = movement::released_boards(db, row, definition).await?;
    visibility_beside(db, row, definition, principal, released).await
}

/// [`visibility`], given the boards already known to be released (a reader that also shows
/// them asks once).
pub(super) async fn visibility_beside<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    definition: &spb::Session,
    principal: &Principal,
    released: HashSet<u32>,
) -> Result<Visibility, ServiceError> {
    if is_staff(principal) || row.status == spb::SessionStatus::Published as i32 {
        return Ok(Visibility::All);
    }
    let mine = contestants_of(definition, &principal.subject);
    if mine.is_empty() {
        return Ok(Visibility::Boards(released));
    }
    let boards: Vec<i32> = board_result::Entity::find()
        .select_only()
        .column(board_result::Column::BoardNumber)
        .filter(board_result::Column::SessionId.eq(row.session_id.as_str()))
        .filter(
            board_result::Column::NsContestant
                .is_in(mine.iter().copied())
                .or(board_result::Column::EwContestant.is_in(mine.iter().copied())),
        )
        .into_tuple()
        .all(db)
        .await?;
    Ok(Visibility::Boards(boards.into_iter().filter_map(|b| u32::try_from(b).ok()).chain(released).collect()))
}

/// The session with the hands of boards the principal may not see yet left out.
pub(super) fn redact(mut session: spb::Session, visibility: &Visibility) -> spb::Session {
    for board in &mut session.boards {
        if !visibility.sees(board.number) {
            board.deal = None;
        }
    }
    session
}
