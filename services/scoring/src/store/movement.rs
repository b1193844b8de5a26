//! A session's movement and which of its boards may be shown to everyone.
//!
//! Duplicate Law 8A: the Director instructs which boards each table plays and which contestants
//! sit there. The desk or the director records it here ([`assign`]), round by round or at once;
//! the game service then starts a board only at a table it is sent to. A board's hands, auction
//! and play stay hidden from everyone but the director and the table playing it until every
//! table the movement sends it to has a result on it, or the director releases it ([`release`]),
//! or the official score is published ([`released_boards`]).

use std::collections::{HashMap, HashSet};

use api::scoring::v1 as spb;
use platform::ServiceError;
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::{board_release, board_result, board_table, session};
use crate::time;

/// The tables of a session's movement, by board then table.
pub async fn movement<C: ConnectionTrait>(db: &C, session_id: &str) -> Result<Vec<spb::TableAssignment>, ServiceError> {
    let rows = board_table::Entity::find()
        .filter(board_table::Column::SessionId.eq(session_id))
        .order_by_asc(board_table::Column::BoardNumber)
        .order_by_asc(board_table::Column::TableId)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| spb::TableAssignment {
            table_id: row.table_id,
            board_number: u32::try_from(row.board_number).unwrap_or(0),
            north_south_contestant_id: row.ns_contestant,
            east_west_contestant_id: row.ew_contestant,
        })
        .collect())
}

/// The boards of a session everyone may see: with the official score published, all of them;
/// otherwise those the director released and those every table of whose movement has a result.
/// A board no table is sent to is not released by results (nothing says it has been played
/// everywhere it will be).
pub async fn released_boards<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    definition: &spb::Session,
) -> Result<HashSet<u32>, ServiceError> {
    if row.status == spb::SessionStatus::Published as i32 {
        return Ok(definition.boards.iter().map(|b| b.number).collect());
    }
    let released: Vec<i32> = board_release::Entity::find()
        .select_only()
        .column(board_release::Column::BoardNumber)
        .filter(board_release::Column::SessionId.eq(row.session_id.as_str()))
        .into_tuple()
        .all(db)
        .await?;
    let mut boards: HashSet<u32> = released.into_iter().filter_map(|b| u32::try_from(b).ok()).collect();
    let results: HashSet<(i32, String, String)> = board_result::Entity::find()
        .select_only()
        .column(board_result::Column::BoardNumber)
        .column(board_result::Column::NsContestant)
        .column(board_result::Column::EwContestant)
        .filter(board_result::Column::SessionId.eq(row.session_id.as_str()))
        .into_tuple()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let mut due: HashMap<i32, bool> = HashMap::new();
    for table in
        board_table::Entity::find().filter(board_table::Column::SessionId.eq(row.session_id.as_str())).all(db).await?
    {
        let played = results.contains(&(table.board_number, table.ns_contestant, table.ew_contestant));
        *due.entry(table.board_number).or_insert(true) &= played;
    }
    boards.extend(due.into_iter().filter(|(_, all)| *all).filter_map(|(board, _)| u32::try_from(board).ok()));
    Ok(boards)
}

/// Fills in what a session's readers are told of its movement and releases; the released
/// boards come back, for deciding what the reader may see.
pub async fn describe<C: ConnectionTrait>(
    db: &C,
    row: &session::Model,
    session: &mut spb::Session,
) -> Result<HashSet<u32>, ServiceError> {
    let released = released_boards(db, row, session).await?;
    for board in &mut session.boards {
        board.released = released.contains(&board.number);
    }
    session.movement = movement(db, &row.session_id).await?;
    Ok(released)
}

/// What is new in the tables and boards an assignment names, to be written with the session's
/// change (see [`assign`] and [`release`]).
#[derive(Debug, Default, Clone)]
pub struct MovementRows {
    /// Tables newly sent to boards.
    pub tables: Vec<board_table::ActiveModel>,
    /// A board the director releases.
    pub releases: Vec<board_release::ActiveModel>,
    /// The tables newly sent, as the contract names them (for the session's event).
    pub assigned: Vec<spb::TableAssignment>,
}

impl MovementRows {
    /// Nothing new: the change is a repeat.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.releases.is_empty()
    }

    /// Writes them; a row a racing writer stored first stands (the session's version, moved in
    /// the same transaction, settles the race).
    pub async fn write<C: ConnectionTrait>(&self, db: &C) -> Result<(), sea_orm::DbErr> {
        for row in &self.tables {
            board_table::Entity::insert(row.clone()).on_conflict_do_nothing().exec_without_returning(db).await?;
        }
        for row in &self.releases {
            board_release::Entity::insert(row.clone()).on_conflict_do_nothing().exec_without_returning(db).await?;
        }
        Ok(())
    }
}

/// The tables `assignments` newly add to the movement of `definition` (duplicate Law 8A), each
/// checked against the session's boards and contestants. A repeat adds nothing; a table already
/// sent to a board with other contestants is refused, and so is the whole request with it.
pub async fn assign<C: ConnectionTrait>(
    db: &C,
    definition: &spb::Session,
    assignments: &[spb::TableAssignment],
    by: &str,
) -> Result<MovementRows, ServiceError> {
    if assignments.is_empty() {
        return Err(ServiceError::invalid("assignments", "name at least one table and board"));
    }
    let session_id = definition.session_id.as_str();
    let mut rows = Vec::new();
    let mut named: HashMap<(i32, String), (&String, &String)> = HashMap::new();
    let mut assigned = Vec::new();
    for (i, assignment) in assignments.iter().enumerate() {
        let field = |name: &str| format!("assignments[{i}].{name}");
        if assignment.table_id.is_empty() {
            return Err(ServiceError::invalid(&field("table_id"), "empty; the table is required"));
        }
        if !definition.boards.iter().any(|b| b.number == assignment.board_number) {
            return Err(ServiceError::invalid(
                &field("board_number"),
                format!("session {session_id} has no board {}", assignment.board_number),
            ));
        }
        for (name, id) in [
            ("north_south_contestant_id", &assignment.north_south_contestant_id),
            ("east_west_contestant_id", &assignment.east_west_contestant_id),
        ] {
            if !definition.contestants.iter().any(|c| &c.contestant_id == id) {
                return Err(ServiceError::invalid(
                    &field(name),
                    format!("session {session_id} has no contestant {id:?}"),
                ));
            }
        }
        if assignment.north_south_contestant_id == assignment.east_west_contestant_id {
            return Err(ServiceError::invalid(&field("east_west_contestant_id"), "a contestant does not play itself"));
        }
        let board = i32::try_from(assignment.board_number).unwrap_or(i32::MAX);
        let existing = board_table::Entity::find_by_id((session_id.to_owned(), board, assignment.table_id.clone()))
            .one(db)
            .await?;
        match existing {
            Some(row)
                if row.ns_contestant == assignment.north_south_contestant_id
                    && row.ew_contestant == assignment.east_west_contestant_id => {}
            Some(row) => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "{}: table {} already plays board {} between {} and {} (duplicate Law 8A: the movement is the \
                     Director's, and a table plays a board once)",
                    field("table_id"),
                    row.table_id,
                    assignment.board_number,
                    row.ns_contestant,
                    row.ew_contestant
                )));
            }
            // Named twice in this request: the first is checked; the second must agree with it.
            None => match named.get(&(board, assignment.table_id.clone())) {
                Some(first)
                    if *first == (&assignment.north_south_contestant_id, &assignment.east_west_contestant_id) => {}
                Some(_) => {
                    return Err(ServiceError::invalid(
                        &field("table_id"),
                        format!(
                            "table {} is sent to board {} twice in this request, with other contestants",
                            assignment.table_id, assignment.board_number
                        ),
                    ));
                }
                None => {
                    assigned.push(assignment.clone());
                    named.insert(
                        (board, assignment.table_id.clone()),
                        (&assignment.north_south_contestant_id, &assignment.east_west_contestant_id),
                    );
                    rows.push(board_table::ActiveModel {
                        session_id: Set(session_id.to_owned()),
                        board_number: Set(board),
                        table_id: Set(assignment.table_id.clone()),
                        ns_contestant: Set(assignment.north_south_contestant_id.clone()),
                        ew_contestant: Set(assignment.east_west_contestant_id.clone()),
                        assigned_by: Set(by.to_owned()),
                        assigned_at: Set(time::now()),
                    });
                }
            },
        }
    }
    Ok(MovementRows { tables: rows, releases: Vec::new(), assigned })
}

/// The director's release of board `board_number`, unless he released it already.
pub async fn release<C: ConnectionTrait>(
    db: &C,
    definition: &spb::Session,
    board_number: u32,
    by: &str,
) -> Result<MovementRows, ServiceError> {
    if !definition.boards.iter().any(|b| b.number == board_number) {
        return Err(ServiceError::invalid(
            "board_number",
            format!("session {} has no board {board_number}", definition.session_id),
        ));
    }
    let board = i32::try_from(board_number).unwrap_or(i32::MAX);
    if board_release::Entity::find_by_id((definition.session_id.clone(), board)).one(db).await?.is_some() {
        return Ok(MovementRows::default());
    }
    let row = board_release::ActiveModel {
        session_id: Set(definition.session_id.clone()),
        board_number: Set(board),
        released_by: Set(by.to_owned()),
        released_at: Set(time::now()),
    };
    Ok(MovementRows { releases: vec![row], ..MovementRows::default() })
}
