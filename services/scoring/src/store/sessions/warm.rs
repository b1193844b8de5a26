//! A session as this process holds it: its row, and beside it the rows it has read or written at
//! that version (boards' results, contestants' standing rows) and the standings it last ranked.
//!
//! Why it is safe: a session's rows change only in the transaction that moves its version
//! ([`super::journal`]), so rows held at a version are the rows the database has at it. A state
//! loaded at another version starts with nothing held. Rows read while deciding on a state that
//! another writer has already moved past may be newer than the state; that decision fails at its
//! commit (the version moved) and the runtime drops the state, so nothing decided on them lands.
//!
//! Why it is worth it: a ruling on a board of a thousand results would otherwise read the
//! board's thousand rows and its two thousand contestants' rows for every change, and the
//! standings read after it would read them all again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use api::scoring::v1 as spb;
use platform::ServiceError;

use super::{Kept, Sessions};
use crate::entity::{board_result, session, session_standing};

impl Sessions {
    /// A board's rows at `state`'s version, in the order the session keeps them: held, or read
    /// and held.
    pub(super) async fn board_at(
        &self,
        state: &SessionState,
        board: i32,
    ) -> Result<Vec<board_result::Model>, ServiceError> {
        if let Some(rows) = state.board(board) {
            return Ok(rows.as_ref().clone());
        }
        let rows = Self::board_rows(&self.db, &state.row.session_id, board).await?;
        state.hold_board(board, &rows);
        Ok(rows)
    }

    /// The standing rows of `contestants` (those of the session) at `state`'s version, added to
    /// `kept`: those held, and the rest read and held.
    pub(super) async fn kept_at(
        &self,
        state: &SessionState,
        contestants: &[&str],
        kept: &mut Kept,
    ) -> Result<(), ServiceError> {
        let (found, missing) = state.kept(contestants);
        kept.extend(found)?;
        if !missing.is_empty() {
            let rows = Self::read_kept(&self.db, &state.row.session_id, &missing).await?;
            state.hold_kept(&rows, false);
            kept.extend(rows)?;
        }
        Ok(())
    }
}

/// A session's row and what is held beside it at its version (see the module docs).
#[derive(Debug)]
pub struct SessionState {
    /// The session's row.
    pub(super) row: session::Model,
    held: Mutex<Held>,
}

/// The rows held at the state's version.
#[derive(Debug, Default, Clone)]
struct Held {
    /// A board's rows, in the order the session keeps them, by board number.
    boards: HashMap<i32, Arc<Vec<board_result::Model>>>,
    /// Contestants' standing rows, by contestant id.
    kept: HashMap<String, Arc<session_standing::Model>>,
    /// Whether `kept` holds every contestant of the session.
    every_contestant: bool,
    /// The standings last ranked from them.
    standings: Option<Arc<Vec<spb::Standing>>>,
}

impl SessionState {
    /// The state of a row read from the database: nothing held yet.
    pub(super) fn loaded(row: session::Model) -> Arc<SessionState> {
        Arc::new(SessionState { row, held: Mutex::default() })
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state a change makes: its row, and what this state holds with the change's rows
    /// written over it. Rows of a board not held are not added: a board is held whole or not.
    pub(super) fn after(
        &self,
        row: session::Model,
        rows: &[board_result::Model],
        kept: &[session_standing::Model],
    ) -> Arc<SessionState> {
        let mut held = self.held().clone();
        held.standings = None;
        let mut boards: HashMap<i32, Vec<board_result::Model>> = HashMap::new();
        for changed in rows {
            let Some(board) = held.boards.get(&changed.board_number) else { continue };
            let board = boards.entry(changed.board_number).or_insert_with(|| board.as_ref().clone());
            match board.iter_mut().find(|m| m.result_id == changed.result_id) {
                Some(model) => *model = changed.clone(),
                None => board.push(changed.clone()),
            }
        }
        for (number, mut board) in boards {
            board.sort_by(|a, b| (a.recorded_at, &a.result_id).cmp(&(b.recorded_at, &b.result_id)));
            held.boards.insert(number, Arc::new(board));
        }
        for changed in kept {
            held.kept.insert(changed.contestant_id.clone(), Arc::new(changed.clone()));
        }
        Arc::new(SessionState { row, held: Mutex::new(held) })
    }

    /// A board's rows, if held.
    pub(super) fn board(&self, number: i32) -> Option<Arc<Vec<board_result::Model>>> {
        self.held().boards.get(&number).cloned()
    }

    /// Holds a board's rows as read.
    pub(super) fn hold_board(&self, number: i32, rows: &[board_result::Model]) {
        self.held().boards.insert(number, Arc::new(rows.to_vec()));
    }

    /// The standing rows held of `contestants`, and those not held.
    pub(super) fn kept<'a>(&self, contestants: &[&'a str]) -> (Vec<session_standing::Model>, Vec<&'a str>) {
        let held = self.held();
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for id in contestants {
            match held.kept.get(*id) {
                Some(row) => found.push(row.as_ref().clone()),
                None => missing.push(*id),
            }
        }
        (found, missing)
    }

    /// Holds standing rows as read; `every` when they are every contestant's.
    pub(super) fn hold_kept(&self, rows: &[session_standing::Model], every: bool) {
        let mut held = self.held();
        for row in rows {
            held.kept.insert(row.contestant_id.clone(), Arc::new(row.clone()));
        }
        held.every_contestant |= every;
    }

    /// Every contestant's standing row, in pair order, if all are held.
    pub(super) fn every_kept(&self) -> Option<Vec<session_standing::Model>> {
        let held = self.held();
        if !held.every_contestant {
            return None;
        }
        let mut rows: Vec<session_standing::Model> = held.kept.values().map(|r| r.as_ref().clone()).collect();
        rows.sort_by_key(|r| r.pair);
        Some(rows)
    }

    /// The standings last ranked at this version, if any.
    pub(super) fn standings(&self) -> Option<Arc<Vec<spb::Standing>>> {
        self.held().standings.clone()
    }

    /// Holds the standings ranked at this version.
    pub(super) fn hold_standings(&self, standings: Arc<Vec<spb::Standing>>) {
        self.held().standings = Some(standings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(version: i64) -> session::Model {
        session::Model {
            session_id: "s".into(),
            name: "s".into(),
            definition: Vec::new(),
            status: 0,
            version,
            last_sequence: 0,
            standings: Vec::new(),
            scores_published_at: None,
            correction_period_ends_at: None,
            created_at: crate::time::now(),
        }
    }

    fn result(id: &str, board: i32, version: i64, at: i64) -> board_result::Model {
        board_result::Model {
            result_id: id.into(),
            session_id: "s".into(),
            board_number: board,
            ns_contestant: format!("{id}-ns"),
            ew_contestant: format!("{id}-ew"),
            deal_id: None,
            table_result: None,
            adjustment: None,
            kind: 0,
            source: 0,
            ruling_id: String::new(),
            appeal_id: String::new(),
            ns_values: Vec::new(),
            ew_values: Vec::new(),
            version,
            recorded_at: chrono::DateTime::from_timestamp(at, 0).unwrap_or_default().fixed_offset(),
            form: 0,
        }
    }

    fn standing(contestant: &str, pair: i32, tally: u8) -> session_standing::Model {
        session_standing::Model { session_id: "s".into(), pair, contestant_id: contestant.into(), tally: vec![tally] }
    }

    /// A change's rows are written over the boards held, in the session's order; a board not
    /// held stays unheld, and the standings ranked before the change are dropped.
    #[test]
    fn a_change_writes_its_rows_over_what_is_held_and_drops_the_ranking() {
        let state = SessionState::loaded(row(3));
        state.hold_board(1, &[result("a", 1, 1, 10), result("b", 1, 2, 20)]);
        state.hold_kept(&[standing("p1", 1, 0), standing("p2", 2, 0)], true);
        state.hold_standings(Arc::new(vec![spb::Standing::default()]));

        let next = state.after(
            row(4),
            &[result("b", 1, 4, 20), result("c", 1, 4, 15), result("z", 2, 4, 30)],
            &[standing("p2", 2, 7)],
        );

        let board = next.board(1).expect("board 1 stays held");
        let order: Vec<(&str, i64)> = board.iter().map(|m| (m.result_id.as_str(), m.version)).collect();
        assert_eq!(order, [("a", 1), ("c", 4), ("b", 4)]);
        assert!(next.board(2).is_none(), "a board never read is not held from a change's rows alone");
        let every = next.every_kept().expect("every contestant stays held");
        assert_eq!(every.iter().map(|r| r.tally.clone()).collect::<Vec<_>>(), [vec![0], vec![7]]);
        assert!(next.standings().is_none());
        // The state before is untouched: it still answers for its own version.
        assert_eq!(state.board(1).map(|b| b.len()), Some(2));
        assert!(state.standings().is_some());
    }

    /// Contestants not held are named for reading; a partial read does not claim every one.
    #[test]
    fn contestants_not_held_are_named_to_be_read() {
        let state = SessionState::loaded(row(1));
        state.hold_kept(&[standing("p1", 1, 0)], false);
        let (found, missing) = state.kept(&["p1", "p2"]);
        assert_eq!(found.len(), 1);
        assert_eq!(missing, ["p2"]);
        assert!(state.every_kept().is_none());
    }
}
