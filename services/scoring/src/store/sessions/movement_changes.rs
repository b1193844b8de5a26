//! The movement's changes as commands of the session (duplicate Law 8A): tables sent to boards
//! and a board the director releases are written with the session's next version and an event of
//! its stream, so that every screen watching the session learns of them as of results. Kept apart
//! from [`super::commands`] because they change no score.

use std::sync::Arc;

use bytes::Bytes;
use platform::runtime::{self, Decision, LiveWrite};

use super::commands::latest;
use super::journal::{Columns, SessionChanged, SessionJournal, SessionWrite};
use super::*;
use crate::live::FeedBatch;

impl Sessions {
    /// Adds tables to the session's movement (see [`movement::assign`]); a repeat changes nothing.
    #[tracing::instrument(skip_all, fields(session_id = %request.session_id))]
    pub async fn assign(
        &self,
        request: &spb::AssignTablesRequest,
        principal: &Principal,
    ) -> Result<spb::Session, ServiceError> {
        let by = principal.subject.as_str();
        self.runtime
            .execute(&request.session_id, latest(), None, |state| async move {
                let definition = session_proto(&state.row)?;
                let rows = movement::assign(&self.db, &definition, &request.assignments, by).await?;
                let assigned = rows.assigned.clone();
                Ok(movement_change(&state, rows, spb::MovementChanged { assigned, released_board: 0 }))
            })
            .await?;
        self.get(&request.session_id, principal).await
    }

    /// Records the director's release of a board (see [`movement::release`]); releasing again
    /// changes nothing.
    #[tracing::instrument(skip_all, fields(session_id = %request.session_id))]
    pub async fn release(
        &self,
        request: &spb::ReleaseBoardRequest,
        principal: &Principal,
    ) -> Result<spb::Session, ServiceError> {
        let by = principal.subject.as_str();
        self.runtime
            .execute(&request.session_id, latest(), None, |state| async move {
                let definition = session_proto(&state.row)?;
                let rows = movement::release(&self.db, &definition, request.board_number, by).await?;
                let released_board = request.board_number;
                Ok(movement_change(&state, rows, spb::MovementChanged { assigned: Vec::new(), released_board }))
            })
            .await?;
        self.get(&request.session_id, principal).await
    }
}

/// The session's next version with `rows` and the stream's event saying what changed; nothing when
/// the rows are already there.
fn movement_change(
    state: &Arc<SessionState>,
    rows: movement::MovementRows,
    changed: spb::MovementChanged,
) -> Decision<SessionJournal, SessionChanged> {
    let unchanged = SessionChanged { results: Vec::new(), version: None, session: None };
    if rows.is_empty() {
        return Decision::Unchanged(unchanged);
    }
    let row = &state.row;
    let sequence = u64::try_from(row.last_sequence).unwrap_or(0) + 1;
    let next = session::Model {
        version: row.version.saturating_add(1),
        last_sequence: i64::try_from(sequence).unwrap_or(i64::MAX),
        ..row.clone()
    };
    let now = time::now();
    let payload = spb::SessionEvent {
        sequence,
        occurred_at: Some(time::timestamp(now)),
        session_id: row.session_id.clone(),
        event: Some(spb::session_event::Event::MovementChanged(changed)),
    }
    .encode_to_vec();
    let events = vec![FeedEvent { sequence, payload }];
    let published = FeedBatch { events: events.clone() }.encode_to_vec();
    let write = SessionWrite {
        next: state.after(next, &[], &[]),
        from_version: row.version,
        columns: Columns::default(),
        rows: Vec::new(),
        kept: Vec::new(),
        versions: Vec::new(),
        events,
        movement: rows,
    };
    Decision::Changed(runtime::Change {
        next: write.next.clone(),
        response: unchanged,
        live: LiveWrite::Replace,
        published: Some(Bytes::from(published)),
        write,
    })
}
