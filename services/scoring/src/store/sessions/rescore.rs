//! Rescoring a change and writing it: the changed board scored again, the standings moved by
//! the board's old and new scores, and the boards whose Law 12C2(c) artificial scores moved
//! valued again (see [`laws::score::board`]). Kept apart because this is the one place that
//! decides which rows, versions and events a change writes.

use std::collections::HashMap;

use laws::score::board::Standings;

use super::journal::{Columns, SessionWrite};
use super::streams::{board_event, standings_event};
use super::warm::SessionState;
use super::*;

/// A change to one board result, as a command decided it.
pub(super) struct Change {
    /// The result row after the change (new or updated).
    pub(super) row: board_result::Model,
    /// The version's cause, reason, law, result and adjustment (its number is given on commit).
    pub(super) version: spb::ScoreVersion,
    /// What was done, stored with the version.
    pub(super) operation: &'static str,
    /// The natural idempotency key.
    pub(super) idem_key: Option<String>,
    /// Hands for the board learned from the recording, to keep in the definition.
    pub(super) hands: Option<(u32, pb::Deal)>,
    /// Other rows of the same board changed with it (a fouled board's forms, Law 87B).
    pub(super) also: Vec<board_result::Model>,
}

/// What a change scores: the rows it read (its board, and any board valued again), the values
/// each now earns, in the same order, the standings rows that moved, and what is kept of the
/// standings after it.
struct Rescored {
    models: Vec<board_result::Model>,
    values: Vec<(spb::ScoreValues, spb::ScoreValues)>,
    /// The standings rows the change's event carries.
    moved: Vec<spb::Standing>,
    /// The session's standings kept in its row (teams), if they are.
    whole: Option<Vec<spb::Standing>>,
    /// The contestants' rows to write.
    kept: Vec<session_standing::Model>,
}

/// What a change needs of its session, read at the start of its transaction.
pub(super) struct Outline {
    /// The method and boards.
    pub(super) frame: Frame,
    /// The whole definition, when the change needs it: a teams session (scored whole), or one
    /// whose standings are not yet kept a row per contestant.
    pub(super) whole: Option<spb::Session>,
    /// The standings kept in the session's row.
    pub(super) stored: StoredStandings,
}

impl Outline {
    /// The session `row`'s outline.
    pub(super) fn of(row: &session::Model) -> Result<Outline, ServiceError> {
        let frame: Frame = decode(&row.definition, "session definition")?;
        let stored: StoredStandings = decode(&row.standings, "standings")?;
        let teams = frame.scoring_method == spb::ScoringMethod::TeamImps as i32;
        let whole = if teams || !stored.in_rows { Some(session_proto(row)?) } else { None };
        Ok(Outline { frame, whole, stored })
    }

    /// Whether the session is scored by team IMPs.
    pub(super) fn teams(&self) -> bool {
        self.frame.scoring_method == spb::ScoringMethod::TeamImps as i32
    }

    /// The board's conditions (Law 2).
    pub(super) fn board(&self, number: u32) -> Option<&spb::Board> {
        self.frame.boards.iter().find(|b| b.number == number)
    }

    fn definition(&self) -> Result<&spb::Session, ServiceError> {
        self.whole.as_ref().ok_or_else(|| ServiceError::internal("session definition not read"))
    }
}

/// What a change produces for its answer and its watchers.
pub(super) struct Committed {
    pub(super) version: spb::ScoreVersion,
    pub(super) results: Vec<spb::BoardResult>,
}

impl Sessions {
    /// The rows of one board, in the order the session scores them.
    pub(super) async fn board_rows<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
        board: i32,
    ) -> Result<Vec<board_result::Model>, ServiceError> {
        Ok(board_result::Entity::find()
            .filter(board_result::Column::SessionId.eq(session_id))
            .filter(board_result::Column::BoardNumber.eq(board))
            .order_by_asc(board_result::Column::RecordedAt)
            .order_by_asc(board_result::Column::ResultId)
            .all(db)
            .await?)
    }

    /// Rescores what `change` moves and makes what it writes (the change, the rescored results
    /// and standings, the versions and the events: [`SessionWrite`]), reading what it needs as
    /// the session stands. `on_board` is the change's board as stored.
    pub(super) async fn plan(
        &self,
        state: &SessionState,
        outline: Outline,
        on_board: Vec<board_result::Model>,
        change: Change,
    ) -> Result<(SessionWrite, Committed), ServiceError> {
        let db = &self.db;
        let row = &state.row;
        let session_id = row.session_id.clone();
        let stored = &outline.stored;
        // Hands learned for a board are kept in the definition, read whole for that alone.
        let definition_update = match &change.hands {
            Some((board, hands)) => {
                let mut definition: spb::Session = decode(&row.definition, "session definition")?;
                match definition.boards.iter_mut().find(|b| b.number == *board) {
                    Some(b) => {
                        b.deal = Some(hands.clone());
                        Some(definition.encode_to_vec())
                    }
                    None => None,
                }
            }
            None => None,
        };
        let mut rescored = if outline.teams() {
            // Teams are scored whole: a team's board nets its two tables of a match, and teams
            // sessions are a few tables a board, so keeping them board by board is not worth a
            // second path yet.
            let all = Self::results(db, &session_id).await?;
            let mut scored = self.rescore_whole(outline.definition()?, all, &change)?;
            scored.moved = moved_rows(&stored.standings, scored.whole.as_deref().unwrap_or_default());
            scored
        } else if !stored.in_rows {
            // A session stored before its standings were kept a row per contestant is scored
            // whole once to make them.
            let definition = outline.definition()?;
            let all = Self::results(db, &session_id).await?;
            let mut scored = self.rescore_whole(definition, all, &change)?;
            let whole = scored.whole.take().unwrap_or_default();
            scored.moved = moved_rows(&stored.standings, &whole);
            scored
        } else {
            self.rescore_board(state, &outline.frame, on_board, &change).await?
        };
        let changed: HashSet<&str> = std::iter::once(change.row.result_id.as_str())
            .chain(change.also.iter().map(|m| m.result_id.as_str()))
            .collect();

        let main_board = change.row.board_number;
        let mut number = u64::try_from(row.version).unwrap_or(0) + 1;
        let main = spb::ScoreVersion { version: number, ..change.version.clone() };
        // Which rows' scores moved: the changed one, its board across the field, and on other
        // boards only artificial scores following the session percentage (Law 12C2(c)).
        let mut rescored_boards: BTreeMap<i32, u64> = BTreeMap::new();
        rescored_boards.insert(main_board, number);
        let mut versions = vec![(main.clone(), change.operation, change.idem_key.clone())];
        let mut updated: Vec<usize> = Vec::new();
        let mut moved = vec![false; rescored.models.len()];
        for (i, (model, (ns, ew))) in rescored.models.iter_mut().zip(&rescored.values).enumerate() {
            let (ns, ew) = (ns.encode_to_vec(), ew.encode_to_vec());
            let is_change = changed.contains(model.result_id.as_str());
            if !is_change && model.ns_values == ns && model.ew_values == ew {
                continue;
            }
            let version = if model.board_number == main_board {
                number
            } else {
                number += 1;
                versions.push((recomputed(model, &main, number, main_board)?, "recompute", None));
                rescored_boards.entry(model.board_number).or_insert(number);
                number
            };
            model.ns_values = ns;
            model.ew_values = ew;
            model.version = i64::try_from(version).unwrap_or(i64::MAX);
            updated.push(i);
            moved[i] = true;
        }
        // The session's row keeps a teams session's standings; a pairs session's row says they
        // are kept a row per contestant, written once when they move there.
        let standings = match rescored.whole.take() {
            Some(standings) => Some(StoredStandings { standings, tallied: true, ..Default::default() }),
            None if !stored.in_rows => Some(StoredStandings { tallied: true, in_rows: true, ..Default::default() }),
            None => None,
        };
        let moved_standings = std::mem::take(&mut rescored.moved);

        // Events: each rescored board with its version and the results that moved on it (a
        // fouled board's regrouping, the whole board), then the standings rows that moved.
        let mut sequence = u64::try_from(row.last_sequence).unwrap_or(0);
        let mut payloads = Vec::new();
        let whole_board = change.operation == "foul";
        for (board, version_number) in &rescored_boards {
            let version = versions.iter().find(|(v, _, _)| v.version == *version_number).map(|(v, _, _)| v.clone());
            let on_board = rescored.models.iter().enumerate().filter(|(_, m)| m.board_number == *board);
            let results = on_board
                .filter(|(i, _)| whole_board || moved[*i])
                .map(|(_, m)| result_proto(m))
                .collect::<Result<Vec<_>, _>>()?;
            sequence += 1;
            payloads.push((
                sequence,
                board_event(&session_id, sequence, main.recorded_at, version, *board, results, !whole_board),
            ));
        }
        if !moved_standings.is_empty() {
            sequence += 1;
            payloads
                .push((sequence, standings_event(&session_id, sequence, main.recorded_at, number, moved_standings)));
        }

        // The session's row after the change: its version check settles races when it is written.
        let columns =
            Columns { standings: standings.is_some(), definition: definition_update.is_some(), published: false };
        let next = session::Model {
            version: i64::try_from(number).unwrap_or(i64::MAX),
            last_sequence: i64::try_from(sequence).unwrap_or(i64::MAX),
            standings: standings.map_or_else(|| row.standings.clone(), |s| s.encode_to_vec()),
            definition: definition_update.unwrap_or_else(|| row.definition.clone()),
            ..row.clone()
        };
        let rows: Vec<board_result::Model> = updated.iter().map(|i| rescored.models[*i].clone()).collect();
        let versions = versions
            .iter()
            .map(|(version, operation, idem_key)| {
                let replay = Replay {
                    operation: (*operation).to_owned(),
                    deal_id: change
                        .row
                        .deal_id
                        .clone()
                        .filter(|_| version.version == main.version && change.operation != "foul"),
                    hands: change.hands.as_ref().filter(|_| version.version == main.version).map(|(_, h)| h.clone()),
                    first_dealer: None,
                    source: spb::ResultSource::try_from(change.row.source).unwrap_or_default(),
                    idem_key: idem_key.clone(),
                };
                (version.clone(), replay)
            })
            .collect();
        let events: Vec<FeedEvent> =
            payloads.into_iter().map(|(sequence, payload)| FeedEvent { sequence, payload }).collect();

        rescored.models.retain(|m| m.board_number == main_board);
        let results = rescored.models.iter().map(result_proto).collect::<Result<Vec<_>, _>>()?;
        let kept = std::mem::take(&mut rescored.kept);
        let write = SessionWrite {
            next: state.after(next, &rows, &kept),
            from_version: row.version,
            columns,
            rows,
            kept,
            versions,
            events,
            movement: Default::default(),
        };
        Ok((write, Committed { version: main, results }))
    }

    /// The whole session scored with `change` applied (teams; a session without tallies), and
    /// every contestant's row (pairs).
    fn rescore_whole(
        &self,
        definition: &spb::Session,
        mut models: Vec<board_result::Model>,
        change: &Change,
    ) -> Result<Rescored, ServiceError> {
        apply(&mut models, change);
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        let scored = domain::score(definition, &rows, self.settings.datum)?;
        let kept = match &scored.tallies {
            Some(tallies) => rows_of(&definition.session_id, definition, tallies),
            None => Vec::new(),
        };
        Ok(Rescored { models, values: scored.values, moved: Vec::new(), whole: Some(scored.standings), kept })
    }

    /// The change's board scored again, the tallies of its contestants moved by its old and new
    /// scores, and the boards where a pair whose percentage moved holds an average plus or minus
    /// valued again (Law 12C2(c)): nothing else of the session is read, its contestants' rows
    /// included.
    async fn rescore_board(
        &self,
        state: &SessionState,
        frame: &Frame,
        mut models: Vec<board_result::Model>,
        change: &Change,
    ) -> Result<Rescored, ServiceError> {
        let session_id = state.row.session_id.as_str();
        let method = domain::method_of(frame.scoring_method, self.settings.datum)?;
        let board = change.row.board_number;
        let board_number = u32::try_from(board).unwrap_or(0);
        let before: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        apply(&mut models, change);
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        // The contestants whose tallies the board moves: those on it before and after.
        let mut contestants: Vec<&str> =
            before.iter().chain(&rows).flat_map(|r| [r.ns.as_str(), r.ew.as_str()]).collect();
        contestants.sort_unstable();
        contestants.dedup();
        let mut kept = Kept::default();
        self.kept_at(state, &contestants, &mut kept).await?;
        let score = |kept: &Kept, number: u32, rows: &[Row]| {
            domain::score_board_in(method, &frame.boards, |id| kept.pair(id), number, &rows.iter().collect::<Vec<_>>())
        };
        let old = if before.is_empty() { None } else { Some(score(&kept, board_number, &before)?) };
        let new = score(&kept, board_number, &rows)?;
        let mut tallies = kept.standings();
        let moved = tallies.replace(old.as_ref(), &new);
        let mut scored = vec![new];
        if !moved.is_empty() {
            let holders: Vec<String> = moved.iter().filter_map(|p| kept.contestant(*p)).map(str::to_owned).collect();
            for other in Self::award_boards(&self.db, session_id, board, &holders).await? {
                let on_other = self.board_at(state, other).await?;
                let rows: Vec<Row> = on_other.iter().map(domain_row).collect::<Result<_, _>>()?;
                // The other board's awards are valued from its pairs' tallies: read those not
                // read yet (their tallies do not move).
                let unread: Vec<&str> =
                    rows.iter().flat_map(|r| [r.ns.as_str(), r.ew.as_str()]).filter(|id| !kept.has(id)).collect();
                if !unread.is_empty() {
                    let mut more = Kept::default();
                    self.kept_at(state, &unread, &mut more).await?;
                    let added = more.standings();
                    tallies = Standings::from_tallies(tallies.tallies().chain(added.tallies()).map(|(p, t)| (p, *t)));
                    kept.absorb(more);
                }
                scored.push(score(&kept, u32::try_from(other).unwrap_or(0), &rows)?);
                models.extend(on_other);
            }
        }
        let values = scored.iter().flat_map(|s| domain::board_values(method, &tallies, s)).collect();
        let (kept, moved) = kept.changed(session_id, &contestants, method, &tallies);
        Ok(Rescored { models, values, moved, whole: None, kept })
    }

    /// The boards other than `board` where one of `contestants` holds an artificial score
    /// (whole or one side of a split), in board order.
    async fn award_boards<C: ConnectionTrait>(
        db: &C,
        session_id: &str,
        board: i32,
        contestants: &[String],
    ) -> Result<Vec<i32>, ServiceError> {
        let kinds = [spb::ResultKind::Artificial as i32, spb::ResultKind::Split as i32];
        let mut boards: Vec<i32> = board_result::Entity::find()
            .select_only()
            .column(board_result::Column::BoardNumber)
            .filter(board_result::Column::SessionId.eq(session_id))
            .filter(board_result::Column::BoardNumber.ne(board))
            .filter(board_result::Column::Kind.is_in(kinds))
            .filter(
                board_result::Column::NsContestant
                    .is_in(contestants.iter().map(String::as_str))
                    .or(board_result::Column::EwContestant.is_in(contestants.iter().map(String::as_str))),
            )
            .into_tuple()
            .all(db)
            .await?;
        boards.sort_unstable();
        boards.dedup();
        Ok(boards)
    }
}

/// `models` with the change applied: its row replaced or added, and the rows changed with it.
fn apply(models: &mut Vec<board_result::Model>, change: &Change) {
    match models.iter().position(|m| m.result_id == change.row.result_id) {
        Some(i) => models[i] = change.row.clone(),
        None => models.push(change.row.clone()),
    }
    for also in &change.also {
        if let Some(model) = models.iter_mut().find(|m| m.result_id == also.result_id) {
            *model = also.clone();
        }
    }
}

/// The version of a row on another board whose artificial score moved (Law 12C2(c)).
fn recomputed(
    model: &board_result::Model,
    main: &spb::ScoreVersion,
    number: u64,
    main_board: i32,
) -> Result<spb::ScoreVersion, ServiceError> {
    let key = key_of(model);
    Ok(spb::ScoreVersion {
        version: number,
        target: Some(board_target(&key)),
        cause: spb::ScoreVersionCause::Recomputed as i32,
        reason: format!(
            "rescored because board {main_board} changed: an artificial score follows the contestant's session \
             percentage (Law 12C2(c))"
        ),
        result: decode_opt(model.table_result.as_ref(), "table result")?,
        adjustment: decode_opt(model.adjustment.as_ref(), "adjustment")?,
        law: Some(Law::duplicate(12, "C2").into()),
        recorded_by: main.recorded_by.clone(),
        recorded_at: main.recorded_at,
        ..Default::default()
    })
}

/// The standings rows that differ from those stored (a contestant's score, rank, tie or
/// boards), in the new order.
fn moved_rows(before: &[spb::Standing], after: &[spb::Standing]) -> Vec<spb::Standing> {
    let before: HashMap<&str, &spb::Standing> = before.iter().map(|s| (s.contestant_id.as_str(), s)).collect();
    after.iter().filter(|s| before.get(s.contestant_id.as_str()) != Some(s)).cloned().collect()
}

/// Postgres takes at most 65,535 parameters a statement; a row has 17 columns.
const ROWS_PER_STATEMENT: usize = 1_000;

/// Writes the rows, new or rescored, a statement per thousand: a matchpointed board moves every
/// row on it when a result is added, so one statement per row would be the cost of a change.
pub(super) async fn write_rows<'a>(
    txn: &DatabaseTransaction,
    rows: impl Iterator<Item = &'a board_result::Model>,
) -> Result<(), sea_orm::DbErr> {
    use sea_orm::sea_query::OnConflict;
    let rows: Vec<&board_result::Model> = rows.collect();
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let models = chunk.iter().map(|m| board_result::ActiveModel::from((*m).clone()));
        let upsert = OnConflict::column(board_result::Column::ResultId)
            .update_columns([
                board_result::Column::TableResult,
                board_result::Column::Adjustment,
                board_result::Column::Kind,
                board_result::Column::Source,
                board_result::Column::RulingId,
                board_result::Column::AppealId,
                board_result::Column::NsValues,
                board_result::Column::EwValues,
                board_result::Column::Version,
                board_result::Column::Form,
                board_result::Column::DealId,
            ])
            .to_owned();
        board_result::Entity::insert_many(models).on_conflict(upsert).exec_without_returning(txn).await?;
    }
    Ok(())
}
