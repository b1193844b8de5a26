//! Rescoring a change and writing it: the changed board scored again, the standings moved by
//! the board's old and new scores, and the boards whose Law 12C2(c) artificial scores moved
//! valued again (see [`laws::score::board`]). Kept apart because this is the one place that
//! decides which rows, versions and events a change writes.

use super::*;

/// A change to one board result, as a command decided it.
pub(super) struct Change {
    /// The result row after the change (new or updated).
    pub(super) row: board_result::Model,
    /// Whether the row is new.
    pub(super) insert: bool,
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

/// What a committed change produced.
pub(super) struct Committed {
    pub(super) version: spb::ScoreVersion,
    pub(super) results: Vec<spb::BoardResult>,
    pub(super) events: Vec<FeedEvent>,
}

impl Sessions {
    /// Rescores the session with `change` applied, writes the change, the rescored results and
    /// standings, the versions and the events, and commits.
    pub(super) async fn commit(
        &self,
        txn: DatabaseTransaction,
        row: &session::Model,
        mut definition: spb::Session,
        stored: Vec<board_result::Model>,
        change: Change,
    ) -> Result<Committed, WriteError> {
        let session_id = row.session_id.clone();
        let mut models = stored;
        let position = models.iter().position(|m| m.result_id == change.row.result_id);
        match position {
            Some(i) => models[i] = change.row.clone(),
            None => models.push(change.row.clone()),
        }
        for also in &change.also {
            if let Some(model) = models.iter_mut().find(|m| m.result_id == also.result_id) {
                *model = also.clone();
            }
        }
        let changed: HashSet<&str> = std::iter::once(change.row.result_id.as_str())
            .chain(change.also.iter().map(|m| m.result_id.as_str()))
            .collect();
        if let Some((board, hands)) = &change.hands
            && let Some(b) = definition.boards.iter_mut().find(|b| b.number == *board)
        {
            b.deal = Some(hands.clone());
        }
        let rows: Vec<Row> = models.iter().map(domain_row).collect::<Result<_, _>>()?;
        let scored = domain::score(&definition, &rows, self.settings.datum)?;

        let main_board = change.row.board_number;
        let mut number = u64::try_from(row.version).unwrap_or(0) + 1;
        let main = spb::ScoreVersion { version: number, ..change.version.clone() };
        // Which rows' scores moved: the changed one, its board across the field, and on other
        // boards only artificial scores following the session percentage (Law 12C2(c)).
        let mut rescored_boards: BTreeMap<i32, u64> = BTreeMap::new();
        rescored_boards.insert(main_board, number);
        let mut versions = vec![(main.clone(), change.operation, change.idem_key.clone())];
        let mut updated: Vec<usize> = Vec::new();
        for (i, (model, (ns, ew))) in models.iter_mut().zip(&scored.values).enumerate() {
            let (ns, ew) = (ns.encode_to_vec(), ew.encode_to_vec());
            let is_change = changed.contains(model.result_id.as_str());
            if !is_change && model.ns_values == ns && model.ew_values == ew {
                continue;
            }
            let version = if model.board_number == main_board {
                number
            } else {
                number += 1;
                let key = key_of(model);
                versions.push((
                    spb::ScoreVersion {
                        version: number,
                        target: Some(board_target(&key)),
                        cause: spb::ScoreVersionCause::Recomputed as i32,
                        reason: format!(
                            "rescored because board {main_board} changed: an artificial score follows the \
                             contestant's session percentage (Law 12C2(c))"
                        ),
                        result: decode_opt(model.table_result.as_ref(), "table result")?,
                        adjustment: decode_opt(model.adjustment.as_ref(), "adjustment")?,
                        law: Some(Law::duplicate(12, "C2").into()),
                        recorded_by: main.recorded_by.clone(),
                        recorded_at: main.recorded_at,
                        ..Default::default()
                    },
                    "recompute",
                    None,
                ));
                rescored_boards.entry(model.board_number).or_insert(number);
                number
            };
            model.ns_values = ns;
            model.ew_values = ew;
            model.version = i64::try_from(version).unwrap_or(i64::MAX);
            updated.push(i);
        }
        let standings = StoredStandings { standings: scored.standings }.encode_to_vec();
        let standings_changed = standings != row.standings;

        // Events: each rescored board with its version, then the standings.
        let mut sequence = u64::try_from(row.last_sequence).unwrap_or(0);
        let mut payloads = Vec::new();
        let occurred_at = main.recorded_at;
        for (board, version_number) in &rescored_boards {
            let version = versions.iter().find(|(v, _, _)| v.version == *version_number).map(|(v, _, _)| v.clone());
            let results =
                models.iter().filter(|m| m.board_number == *board).map(result_proto).collect::<Result<Vec<_>, _>>()?;
            sequence += 1;
            payloads.push((
                sequence,
                spb::SessionEvent {
                    sequence,
                    occurred_at,
                    session_id: session_id.clone(),
                    event: Some(spb::session_event::Event::BoardRescored(spb::BoardRescored {
                        version,
                        board_number: u32::try_from(*board).unwrap_or(0),
                        results,
                    })),
                }
                .encode_to_vec(),
            ));
        }
        if standings_changed {
            sequence += 1;
            let stored: StoredStandings = decode(&standings, "standings")?;
            payloads.push((
                sequence,
                spb::SessionEvent {
                    sequence,
                    occurred_at,
                    session_id: session_id.clone(),
                    event: Some(spb::session_event::Event::StandingsChanged(spb::StandingsChanged {
                        version: number,
                        standings: stored.standings,
                    })),
                }
                .encode_to_vec(),
            ));
        }

        // Writes: the session first (its version check settles races), then rows and history.
        let updated_session = session::Entity::update_many()
            .col_expr(session::Column::Version, Expr::value(i64::try_from(number).unwrap_or(i64::MAX)))
            .col_expr(session::Column::LastSequence, Expr::value(i64::try_from(sequence).unwrap_or(i64::MAX)))
            .col_expr(session::Column::Standings, Expr::value(standings))
            .col_expr(session::Column::Definition, Expr::value(definition.encode_to_vec()))
            .filter(session::Column::SessionId.eq(session_id.as_str()))
            .filter(session::Column::Version.eq(row.version))
            .exec(&txn)
            .await?;
        if updated_session.rows_affected != 1 {
            return Err(WriteError::Race);
        }
        for i in updated {
            let model = &models[i];
            if model.result_id == change.row.result_id && change.insert {
                let active: board_result::ActiveModel = model.clone().into();
                board_result::Entity::insert(active).exec_without_returning(&txn).await?;
            } else {
                board_result::Entity::update_many()
                    .col_expr(board_result::Column::TableResult, Expr::value(model.table_result.clone()))
                    .col_expr(board_result::Column::Adjustment, Expr::value(model.adjustment.clone()))
                    .col_expr(board_result::Column::Kind, Expr::value(model.kind))
                    .col_expr(board_result::Column::Source, Expr::value(model.source))
                    .col_expr(board_result::Column::RulingId, Expr::value(model.ruling_id.clone()))
                    .col_expr(board_result::Column::AppealId, Expr::value(model.appeal_id.clone()))
                    .col_expr(board_result::Column::NsValues, Expr::value(model.ns_values.clone()))
                    .col_expr(board_result::Column::EwValues, Expr::value(model.ew_values.clone()))
                    .col_expr(board_result::Column::Version, Expr::value(model.version))
                    .col_expr(board_result::Column::Form, Expr::value(model.form))
                    .filter(board_result::Column::ResultId.eq(model.result_id.as_str()))
                    .exec(&txn)
                    .await?;
            }
        }
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

        let results =
            models.iter().filter(|m| m.board_number == main_board).map(result_proto).collect::<Result<Vec<_>, _>>()?;
        let events = payloads.into_iter().map(|(sequence, payload)| FeedEvent { sequence, payload }).collect();
        Ok(Committed { version: main, results, events })
    }
}
