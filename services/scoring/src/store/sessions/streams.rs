//! The watch stream of a session and the events a change stores for it: a player is not sent
//! the results of boards he has not played before publication. Kept apart because the events'
//! shape (what changed, not the whole board) is the stream's contract, not the rescoring's.

use super::*;

impl Sessions {
    /// Watches a session: results, rescored boards, standings, publication (see
    /// [`crate::live`]). A player is not sent the results of boards he has not played before
    /// publication.
    pub async fn watch(
        &self,
        session_id: &str,
        after: Option<u64>,
        principal: &Principal,
    ) -> Result<tokio_stream::wrappers::ReceiverStream<Result<spb::WatchSessionResponse, tonic::Status>>, ServiceError>
    {
        let row = Self::row(&self.db, session_id).await?;
        let definition = session_proto(&row)?;
        let db = self.db.clone();
        let id = session_id.to_owned();
        let snapshot_principal = principal.clone();
        let sessions = self.clone();
        let snapshot = Box::pin(async move {
            // One transaction, so that the standings are those of the version the row says.
            let txn = Self::read_txn(&db).await?;
            let row = Self::row(&txn, &id).await?;
            let session = session_proto(&row)?;
            let visibility = visibility(&txn, &row, &session, &snapshot_principal).await?;
            let standings = sessions.standings_now(&txn, &row).await?;
            txn.commit().await?;
            let sequence = u64::try_from(row.last_sequence).unwrap_or(0);
            let event = spb::SessionEvent {
                sequence,
                occurred_at: Some(time::timestamp(time::now())),
                session_id: id,
                event: Some(spb::session_event::Event::Snapshot(spb::SessionSnapshot {
                    session: Some(redact(session, &visibility)),
                    standings,
                })),
            };
            Ok((sequence, spb::WatchSessionResponse { event: Some(event), heartbeat: None }))
        });
        let staff = is_staff(principal);
        let mine: Vec<String> =
            contestants_of(&definition, &principal.subject).into_iter().map(str::to_owned).collect();
        let initial = match visibility(&self.db, &row, &definition, principal).await? {
            Visibility::All => (true, HashSet::new()),
            Visibility::Boards(boards) => (false, boards),
        };
        let seen = std::sync::Mutex::new(initial);
        let decode_event =
            move |_: u64, payload: &[u8]| -> Result<Option<spb::WatchSessionResponse>, ServiceError> {
                let event: spb::SessionEvent = decode(payload, "session event")?;
                let mut state = seen.lock().unwrap_or_else(|e| e.into_inner());
                let (published, played) = &mut *state;
                if let Some(spb::session_event::Event::ScoresPublished(_)) = &event.event {
                    *published = true;
                }
                if let Some(spb::session_event::Event::BoardRescored(board)) = &event.event
                    && !staff
                    && !*published
                {
                    // A board becomes visible to a player once his own result on it is recorded.
                    if board.results.iter().filter_map(|r| r.key.as_ref()).any(|k| {
                        mine.contains(&k.north_south_contestant_id) || mine.contains(&k.east_west_contestant_id)
                    }) {
                        played.insert(board.board_number);
                    }
                    if !played.contains(&board.board_number) {
                        return Ok(None);
                    }
                }
                Ok(Some(spb::WatchSessionResponse { event: Some(event), heartbeat: None }))
            };
        crate::live::watch(
            self.feed.clone(),
            self.db.clone(),
            Watch {
                stream: stream(session_id),
                after,
                snapshot,
                decode: Box::new(decode_event),
                beat: |last| spb::WatchSessionResponse {
                    event: None,
                    heartbeat: Some(platform::watch::heartbeat(last)),
                },
            },
        )
        .await
    }
}

/// An event of the session's stream, encoded as stored.
fn session_event(
    session_id: &str,
    sequence: u64,
    occurred_at: Option<prost_types::Timestamp>,
    event: spb::session_event::Event,
) -> Vec<u8> {
    spb::SessionEvent { sequence, occurred_at, session_id: session_id.to_owned(), event: Some(event) }.encode_to_vec()
}

/// A board rescored: its version and its results, all of them or only those that moved.
pub(super) fn board_event(
    session_id: &str,
    sequence: u64,
    occurred_at: Option<prost_types::Timestamp>,
    version: Option<spb::ScoreVersion>,
    board: i32,
    results: Vec<spb::BoardResult>,
    only_moved: bool,
) -> Vec<u8> {
    let board_number = u32::try_from(board).unwrap_or(0);
    let rescored = spb::BoardRescored { version, board_number, results, only_moved };
    session_event(session_id, sequence, occurred_at, spb::session_event::Event::BoardRescored(rescored))
}

/// The standings rows that moved with a version.
pub(super) fn standings_event(
    session_id: &str,
    sequence: u64,
    occurred_at: Option<prost_types::Timestamp>,
    version: u64,
    moved: Vec<spb::Standing>,
) -> Vec<u8> {
    let changed = spb::StandingsChanged { version, standings: moved, only_moved: true };
    session_event(session_id, sequence, occurred_at, spb::session_event::Event::StandingsChanged(changed))
}
