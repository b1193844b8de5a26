//! Rescoring a change and writing it: the changed board scored again, the standings moved by
//! the board's old and new scores, and the boards whose Law 12C2(c) artificial scores moved
//! valued again (see [`laws::score::board`]). Kept apart because this is the one place that
//! decides which rows, versions and events a change writes.

use std::collections::HashMap;

use laws::score::board::{Awards, Exact, Standings, Tally};
use laws::score::session::PairId;

use super::streams::{board_event, standings_event};
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

/// A pair's tally as stored (see [`laws::score::board::Tally`]). Every field is a scalar, so
/// that the tallies of a thousand pairs decode without a thousand allocations: a fixed-point sum
/// is a varint when it fits 64 bits, and its 16 little-endian bytes only when it does not.
#[derive(Clone, PartialEq, Message)]
pub(super) struct StoredTally {
    #[prost(uint32, tag = "1")]
    pair: u32,
    #[prost(uint32, tag = "2")]
    boards: u32,
    #[prost(uint32, tag = "3")]
    compared_boards: u32,
    #[prost(sint64, tag = "4")]
    compared: i64,
    #[prost(sint64, tag = "5")]
    compared_matchpoints: i64,
    #[prost(sint64, tag = "6")]
    points: i64,
    #[prost(uint64, tag = "7")]
    top: u64,
    /// Average plus, average, average minus: boards and the sum of their tops.
    #[prost(uint32, tag = "8")]
    plus: u32,
    #[prost(uint64, tag = "9")]
    plus_top: u64,
    #[prost(uint32, tag = "10")]
    average: u32,
    #[prost(uint64, tag = "11")]
    average_top: u64,
    #[prost(uint32, tag = "12")]
    minus: u32,
    #[prost(uint64, tag = "13")]
    minus_top: u64,
    /// The three sums in order, 16 bytes each, when one of them does not fit 64 bits.
    #[prost(bytes = "vec", tag = "14")]
    wide: Vec<u8>,
}

fn store_tallies(tallies: &Standings) -> Vec<StoredTally> {
    tallies
        .tallies()
        .map(|(pair, t)| {
            let sums = [t.compared, t.compared_matchpoints, t.points];
            let narrow: Option<Vec<i64>> = sums.iter().map(|e| i64::try_from(e.0).ok()).collect();
            let (narrow, wide) = match narrow {
                Some(n) => (n, Vec::new()),
                None => (vec![0; 3], sums.iter().flat_map(|e| e.0.to_le_bytes()).collect()),
            };
            StoredTally {
                pair: pair.0,
                boards: t.boards,
                compared_boards: t.compared_boards,
                compared: narrow[0],
                compared_matchpoints: narrow[1],
                points: narrow[2],
                top: t.top,
                plus: t.awards[0].count,
                plus_top: t.awards[0].top,
                average: t.awards[1].count,
                average_top: t.awards[1].top,
                minus: t.awards[2].count,
                minus_top: t.awards[2].top,
                wide,
            }
        })
        .collect()
}

fn load_tallies(stored: &[StoredTally]) -> Result<Standings, ServiceError> {
    let mut tallies = Vec::with_capacity(stored.len());
    for t in stored {
        let sums = if t.wide.is_empty() {
            [t.compared, t.compared_matchpoints, t.points].map(|n| Exact(i128::from(n)))
        } else {
            let wide: &[u8; 48] = t
                .wide
                .as_slice()
                .try_into()
                .map_err(|_| ServiceError::internal("stored tally sums are not 48 bytes"))?;
            let at = |i: usize| {
                let mut bytes = [0u8; 16];
                bytes.copy_from_slice(&wide[16 * i..16 * (i + 1)]);
                Exact(i128::from_le_bytes(bytes))
            };
            [at(0), at(1), at(2)]
        };
        let award = |count, top| Awards { count, top };
        let tally = Tally {
            boards: t.boards,
            compared_boards: t.compared_boards,
            compared: sums[0],
            compared_matchpoints: sums[1],
            points: sums[2],
            top: t.top,
            awards: [award(t.plus, t.plus_top), award(t.average, t.average_top), award(t.minus, t.minus_top)],
        };
        tallies.push((PairId(t.pair), tally));
    }
    Ok(Standings::from_tallies(tallies))
}

/// What a change scores: the rows it read (its board, and any board valued again), the values
/// each now earns, in the same order, and the session's standings and tallies after it.
struct Rescored {
    models: Vec<board_result::Model>,
    values: Vec<(spb::ScoreValues, spb::ScoreValues)>,
    standings: Vec<spb::Standing>,
    tallies: Option<Standings>,
}

/// What a committed change produced.
pub(super) struct Committed {
    pub(super) version: spb::ScoreVersion,
    pub(super) results: Vec<spb::BoardResult>,
    pub(super) events: Vec<FeedEvent>,
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

    /// Rescores what `change` moves, writes the change, the rescored results and standings, the
    /// versions and the events, and commits. `on_board` is the change's board as stored.
    pub(super) async fn commit(
        &self,
        txn: DatabaseTransaction,
        row: &session::Model,
        mut definition: spb::Session,
        on_board: Vec<board_result::Model>,
        change: Change,
    ) -> Result<Committed, WriteError> {
        let session_id = row.session_id.clone();
        let stored: StoredStandings = decode(&row.standings, "standings")?;
        let hands_learned = match &change.hands {
            Some((board, hands)) => match definition.boards.iter_mut().find(|b| b.number == *board) {
                Some(b) => {
                    b.deal = Some(hands.clone());
                    true
                }
                None => false,
            },
            None => false,
        };
        let teams = definition.scoring_method == spb::ScoringMethod::TeamImps as i32;
        let mut rescored = if teams || !stored.tallied {
            // Teams are scored whole: a team's board nets its two tables of a match, and teams
            // sessions are a few tables a board, so keeping them board by board is not worth a
            // second path yet. A session stored before tallies were kept is scored whole once
            // to make them.
            let all = Self::results(&txn, &session_id).await?;
            self.rescore_whole(&definition, all, &change)?
        } else {
            self.rescore_board(&txn, &definition, &stored, on_board, &change).await?
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
        let moved_standings = moved_rows(&stored.standings, &rescored.standings);
        let tallies = rescored.tallies.as_ref().map(store_tallies).unwrap_or_default();
        let standings = StoredStandings {
            standings: rescored.standings,
            tallied: rescored.tallies.is_some() || stored.tallied,
            tallies,
        }
        .encode_to_vec();

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

        // Writes: the session first (its version check settles races), then rows and history.
        let mut update = session::Entity::update_many()
            .col_expr(session::Column::Version, Expr::value(i64::try_from(number).unwrap_or(i64::MAX)))
            .col_expr(session::Column::LastSequence, Expr::value(i64::try_from(sequence).unwrap_or(i64::MAX)))
            .col_expr(session::Column::Standings, Expr::value(standings));
        if hands_learned {
            update = update.col_expr(session::Column::Definition, Expr::value(definition.encode_to_vec()));
        }
        let updated_session = update
            .filter(session::Column::SessionId.eq(session_id.as_str()))
            .filter(session::Column::Version.eq(row.version))
            .exec(&txn)
            .await?;
        if updated_session.rows_affected != 1 {
            return Err(WriteError::Race);
        }
        write_rows(&txn, updated.iter().map(|i| &rescored.models[*i])).await?;
        for (version, operation, idem_key) in &versions {
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
            insert_version(&txn, &session_id, version, replay).await?;
        }
        let bytes: Vec<Vec<u8>> = payloads.iter().map(|(_, p)| p.clone()).collect();
        insert_events(&txn, &stream(&session_id), u64::try_from(row.last_sequence).unwrap_or(0) + 1, &bytes).await?;
        txn.commit().await?;

        rescored.models.retain(|m| m.board_number == main_board);
        let results = rescored.models.iter().map(result_proto).collect::<Result<Vec<_>, _>>()?;
        let events = payloads.into_iter().map(|(sequence, payload)| FeedEvent { sequence, payload }).collect();
        Ok(Committed { version: main, results, events })
    }

    /// The whole session scored with `change` applied (teams; a session without tallies).
    fn rescore_whole(
        &self,
        definition: &spb::Session,
        mut models: Vec<board_result::Model>,
        change: &Change,
    ) -> Result<Rescored, ServiceError> {
        apply(&mut models, change);
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        let scored = domain::score(definition, &rows, self.settings.datum)?;
        Ok(Rescored { models, values: scored.values, standings: scored.standings, tallies: scored.tallies })
    }

    /// The change's board scored again, the tallies moved by its old and new scores, and the
    /// boards where a pair whose percentage moved holds an average plus or minus valued again
    /// (Law 12C2(c)): nothing else of the session is read.
    async fn rescore_board(
        &self,
        txn: &DatabaseTransaction,
        definition: &spb::Session,
        stored: &StoredStandings,
        mut models: Vec<board_result::Model>,
        change: &Change,
    ) -> Result<Rescored, ServiceError> {
        let datum = self.settings.datum;
        let method = domain::method(definition, datum)?;
        let mut tallies = load_tallies(&stored.tallies)?;
        let board = change.row.board_number;
        let board_number = u32::try_from(board).unwrap_or(0);
        let old = if models.is_empty() {
            None
        } else {
            let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
            Some(domain::score_board(definition, datum, board_number, &rows.iter().collect::<Vec<_>>())?)
        };
        apply(&mut models, change);
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        let new = domain::score_board(definition, datum, board_number, &rows.iter().collect::<Vec<_>>())?;
        let moved = tallies.replace(old.as_ref(), &new);
        let mut scored = vec![new];
        if !moved.is_empty() {
            let ids: Vec<&str> = definition.contestants.iter().map(|c| c.contestant_id.as_str()).collect();
            let holders: Vec<String> = moved.iter().map(|p| domain::contestant_of(&ids, *p)).collect();
            for other in Self::award_boards(txn, &definition.session_id, board, &holders).await? {
                let on_other = Self::board_rows(txn, &definition.session_id, other).await?;
                let rows: Vec<Row> = on_other.iter().map(domain_row).collect::<Result<_, _>>()?;
                let other_number = u32::try_from(other).unwrap_or(0);
                scored.push(domain::score_board(definition, datum, other_number, &rows.iter().collect::<Vec<_>>())?);
                models.extend(on_other);
            }
        }
        let values = scored.iter().flat_map(|s| domain::board_values(method, &tallies, s)).collect();
        let standings = domain::standings(definition, method, &tallies);
        Ok(Rescored { models, values, standings, tallies: Some(tallies) })
    }

    /// The boards other than `board` where one of `contestants` holds an artificial score
    /// (whole or one side of a split), in board order.
    async fn award_boards(
        txn: &DatabaseTransaction,
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
            .all(txn)
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
async fn write_rows<'a>(
    txn: &DatabaseTransaction,
    rows: impl Iterator<Item = &'a board_result::Model>,
) -> Result<(), WriteError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A tally comes back from storage as it went in, sums beyond 64 bits too.
    #[test]
    fn a_stored_tally_loads_as_it_was() {
        let narrow = Tally {
            boards: 3,
            compared_boards: 2,
            compared: Exact(-7 << 40),
            compared_matchpoints: Exact(5),
            points: Exact(1 << 50),
            top: 12,
            awards: [Awards { count: 1, top: 4 }, Awards::default(), Awards { count: 2, top: 8 }],
        };
        let wide = Tally { points: Exact(i128::from(i64::MIN) * 4), ..narrow };
        let kept = Standings::from_tallies([(PairId(1), narrow), (PairId(2), wide)]);
        let stored = store_tallies(&kept);
        assert!(stored[0].wide.is_empty() && stored[1].wide.len() == 48);
        assert_eq!(load_tallies(&stored).ok(), Some(kept));
    }
}
