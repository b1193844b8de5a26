//! The commands that change a session's results: a result recorded, corrected, adjusted, a
//! board found fouled, the official score published. Each decides what changes on one board
//! and hands it to [`super::rescore`]; kept apart from the reads because only these write.

use std::sync::Arc;

use bytes::Bytes;
use platform::runtime::{self, Decision, Expected, LiveWrite};

use super::journal::{Columns, SessionChanged, SessionJournal, SessionWrite};
use super::*;
use crate::live::FeedBatch;
use crate::store::MAX_ATTEMPTS;

use super::warm::SessionState;

impl Sessions {
    /// Records a table's result on a board and rescores the board, idempotent by deal id.
    #[tracing::instrument(skip_all, fields(deal_id = %request.deal_id))]
    pub async fn record(
        &self,
        request: &spb::RecordBoardResultRequest,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion), ServiceError> {
        let key = request.key.clone().ok_or_else(|| ServiceError::invalid("key", "missing"))?;
        if request.deal_id.is_empty() {
            return Err(ServiceError::invalid("deal_id", "empty; the deal id is the idempotency key"));
        }
        let result = request.result.clone().ok_or_else(|| ServiceError::invalid("result", "missing"))?;
        let laws_result = api::convert::score::board_result(&result).map_err(|e| e.within("result"))?;
        // Honors are not scored in duplicate (Law 77): the result is kept as the board scores it.
        let result = pb::DealResult::from(laws_result);
        let source = match spb::ResultSource::try_from(request.source) {
            Ok(s @ (spb::ResultSource::Game | spb::ResultSource::Desk)) => s,
            _ => return Err(ServiceError::invalid("source", "the game service or the desk is required")),
        };
        let hands = request
            .hands
            .clone()
            .map(|h| Deal::try_from(h).map(pb::Deal::from).map_err(|e| e.within("hands")))
            .transpose()?;
        let changed = self
            .runtime
            .execute(&key.session_id, latest(), None, |state| {
                self.decide_record(state, &key, request, &result, source, hands.as_ref(), recorded_by)
            })
            .await?;
        one_result(changed)
    }

    #[allow(clippy::too_many_arguments)] // the request, as checked, taken apart
    async fn decide_record(
        &self,
        state: Arc<SessionState>,
        key: &pb::BoardResultKey,
        request: &spb::RecordBoardResultRequest,
        result: &pb::DealResult,
        source: spb::ResultSource,
        hands: Option<&pb::Deal>,
        recorded_by: &str,
    ) -> Result<Decision<SessionJournal, SessionChanged>, ServiceError> {
        let row = &state.row;
        let db = &self.db;
        let outline = Outline::of(row)?;
        self.check_key(&state, &outline, key).await?;
        let encoded = result.encode_to_vec();
        let idem_key = format!("deal:{}", request.deal_id);
        let teams = outline.teams();
        let board = i32::try_from(key.board_number).unwrap_or(i32::MAX);
        let on_board = self.board_at(&state, board).await?;
        // What the result may clash with: its board, and the deal wherever it was recorded, in
        // the order the session keeps them.
        let mut candidates: Vec<&board_result::Model> = on_board.iter().collect();
        let same_deal = board_result::Entity::find()
            .filter(board_result::Column::SessionId.eq(key.session_id.as_str()))
            .filter(board_result::Column::DealId.eq(request.deal_id.as_str()))
            .all(db)
            .await?;
        candidates.extend(same_deal.iter().filter(|m| m.board_number != board));
        candidates.sort_by(|a, b| {
            (a.board_number, a.recorded_at, &a.result_id).cmp(&(b.board_number, b.recorded_at, &b.result_id))
        });
        // A board the director scored as not played at this table (an adjusted score) may be
        // played after all: its table result is recorded, and the adjusted score stays in force
        // until a ruling restores the table result.
        let late = on_board.iter().find(|m| key_of(m) == *key && m.table_result.is_none()).cloned();
        for existing in candidates.into_iter().filter(|m| late.as_ref().is_none_or(|l| l.result_id != m.result_id)) {
            let same_deal = existing.deal_id.as_deref() == Some(request.deal_id.as_str());
            let same_key = key_of(existing) == *key;
            let same_result = existing.table_result.as_deref() == Some(encoded.as_slice());
            if same_key && same_result {
                // The same result again (from the game service or the desk): nothing changes.
                let first = match existing.deal_id.as_deref() {
                    Some(deal) => Self::version_by_key(db, &key.session_id, &format!("deal:{deal}")).await?,
                    None => None,
                };
                return Ok(unchanged(vec![result_proto(existing)?], first.unwrap_or_default()));
            }
            if same_deal {
                return Err(ServiceError::AlreadyExists(format!(
                    "deal {} is already recorded for board {} {} v {} with another result; correct it with \
                     CorrectBoardResult (Law 79C)",
                    request.deal_id, existing.board_number, existing.ns_contestant, existing.ew_contestant
                )));
            }
            if existing.board_number == board {
                // A pair plays a board once; a team once in each direction, at the two tables of
                // its match (Law 78B).
                let clash = if teams {
                    [
                        (&existing.ns_contestant, &key.north_south_contestant_id),
                        (&existing.ew_contestant, &key.east_west_contestant_id),
                    ]
                    .into_iter()
                    .find(|(seated, asked)| seated == asked)
                    .map(|(_, asked)| asked)
                } else {
                    [&key.north_south_contestant_id, &key.east_west_contestant_id]
                        .into_iter()
                        .find(|c| **c == existing.ns_contestant || **c == existing.ew_contestant)
                };
                if let Some(contestant) = clash {
                    return Err(ServiceError::Rule {
                        message: format!(
                            "contestant {contestant} already has a result on board {} (version {}); a different \
                             result is corrected with CorrectBoardResult (Law 78A: each contestant scores a board \
                             once)",
                            key.board_number, existing.version
                        ),
                        law: Law::duplicate(78, "A"),
                    });
                }
            }
        }
        let hands = match (hands, outline.board(key.board_number).and_then(|b| b.deal.as_ref())) {
            (Some(given), Some(known)) if given != known => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "board {} was played with other hands at another table: every table plays the same cards \
                     (Law 87: a fouled board is the director's to rule on)",
                    key.board_number
                )));
            }
            (Some(given), None) => Some((key.board_number, given.clone())),
            _ => None,
        };
        let recorded_at = time::now();
        let model = match late {
            Some(late) => {
                board_result::Model { deal_id: Some(request.deal_id.clone()), table_result: Some(encoded), ..late }
            }
            None => board_result::Model {
                result_id: uuid::Uuid::now_v7().to_string(),
                session_id: key.session_id.clone(),
                board_number: board,
                ns_contestant: key.north_south_contestant_id.clone(),
                ew_contestant: key.east_west_contestant_id.clone(),
                deal_id: Some(request.deal_id.clone()),
                table_result: Some(encoded),
                adjustment: None,
                kind: spb::ResultKind::Table as i32,
                source: source as i32,
                ruling_id: String::new(),
                appeal_id: String::new(),
                ns_values: Vec::new(),
                ew_values: Vec::new(),
                version: 0,
                recorded_at,
                form: 0,
            },
        };
        let version = spb::ScoreVersion {
            target: Some(board_target(key)),
            cause: spb::ScoreVersionCause::ResultRecorded as i32,
            result: Some(result.clone()),
            law: Some(Law::duplicate(77, "").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(recorded_at)),
            ..Default::default()
        };
        let change = Change {
            row: model.clone(),
            version,
            operation: "record",
            idem_key: Some(idem_key),
            hands,
            also: Vec::new(),
        };
        let (write, committed) = self.plan(&state, outline, on_board, change).await?;
        let mine = committed
            .results
            .into_iter()
            .find(|r| r.result_id == model.result_id)
            .ok_or_else(|| ServiceError::internal("recorded result missing after rescoring"))?;
        Ok(accepted(write, vec![mine], committed.version))
    }

    /// Corrects a board result (Law 79C) and rescores the board.
    #[tracing::instrument(skip_all)]
    pub async fn correct(
        &self,
        request: &spb::CorrectBoardResultRequest,
        recorded_by: &str,
    ) -> Result<(spb::BoardResult, spb::ScoreVersion), ServiceError> {
        let key = request.key.clone().ok_or_else(|| ServiceError::invalid("key", "missing"))?;
        let result = request
            .corrected_result
            .clone()
            .ok_or_else(|| ServiceError::invalid("corrected_result", "missing; a value is required"))?;
        let laws_result = api::convert::score::board_result(&result).map_err(|e| e.within("corrected_result"))?;
        let result = pb::DealResult::from(laws_result);
        let expected = Expected::Version(request.expected_version);
        let changed = self
            .runtime
            .execute(&key.session_id, expected, None, |state| {
                self.decide_correct(state, &key, request, &result, recorded_by)
            })
            .await?;
        one_result(changed)
    }

    async fn decide_correct(
        &self,
        state: Arc<SessionState>,
        key: &pb::BoardResultKey,
        request: &spb::CorrectBoardResultRequest,
        result: &pb::DealResult,
        recorded_by: &str,
    ) -> Result<Decision<SessionJournal, SessionChanged>, ServiceError> {
        let row = &state.row;
        let period = match (row.scores_published_at, row.correction_period_ends_at) {
            (None, _) => CorrectionPeriod::BeforePublication,
            (Some(_), Some(ends)) if time::now() > ends => CorrectionPeriod::Expired,
            (Some(_), _) => CorrectionPeriod::Running,
        };
        check_board_correction(period, request.approved_after_correction_period).map_err(ServiceError::rule)?;
        let outline = Outline::of(row)?;
        self.check_key(&state, &outline, key).await?;
        let board = i32::try_from(key.board_number).unwrap_or(i32::MAX);
        let on_board = self.board_at(&state, board).await?;
        let mut model = on_board.iter().find(|m| key_of(m) == *key).cloned().ok_or_else(|| {
            ServiceError::not_found(format!(
                "a result on board {} for {} v {}",
                key.board_number, key.north_south_contestant_id, key.east_west_contestant_id
            ))
        })?;
        if model.table_result.is_none() {
            return Err(ServiceError::FailedPrecondition(format!(
                "board {} was not played at this table: its score is an adjusted score, changed by a ruling",
                key.board_number
            )));
        }
        model.table_result = Some(result.encode_to_vec());
        if model.adjustment.is_none() {
            model.source = spb::ResultSource::Correction as i32;
        }
        let version = spb::ScoreVersion {
            target: Some(board_target(key)),
            cause: spb::ScoreVersionCause::Correction as i32,
            reason: request.reason.clone(),
            result: Some(result.clone()),
            adjustment: decode_opt(model.adjustment.as_ref(), "adjustment")?,
            law: Some(Law::duplicate(79, if period == CorrectionPeriod::Expired { "C2" } else { "C1" }).into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(time::now())),
            ..Default::default()
        };
        let change =
            Change { row: model.clone(), version, operation: "correct", idem_key: None, hands: None, also: Vec::new() };
        let (write, committed) = self.plan(&state, outline, on_board, change).await?;
        let mine = committed
            .results
            .into_iter()
            .find(|r| r.result_id == model.result_id)
            .ok_or_else(|| ServiceError::internal("corrected result missing after rescoring"))?;
        Ok(accepted(write, vec![mine], committed.version))
    }

    /// Applies a ruling's or an appeal's adjusted score to a board result (Law 12; Law 93) and
    /// rescores the board, idempotent by ruling id and appeal id together.
    #[tracing::instrument(skip_all, fields(ruling_id = %request.ruling_id))]
    pub async fn adjust(
        &self,
        key: &pb::BoardResultKey,
        request: &spb::ApplyAdjustmentRequest,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion), ServiceError> {
        use spb::apply_adjustment_request::Change as Requested;
        let adjustment = match request.change.as_ref() {
            None => return Err(ServiceError::invalid("change", "missing; an adjustment or a restore is required")),
            Some(Requested::RestoreTableResult(_)) => None,
            Some(Requested::Adjustment(adjustment)) => {
                domain::adjusted(adjustment)?;
                Some(adjustment.clone())
            }
        };
        let changed = self
            .runtime
            .execute(&key.session_id, latest(), None, |state| {
                self.decide_adjust(state, key, request, adjustment.as_ref(), recorded_by)
            })
            .await?;
        Ok((changed.results, changed.version.unwrap_or_default()))
    }

    async fn decide_adjust(
        &self,
        state: Arc<SessionState>,
        key: &pb::BoardResultKey,
        request: &spb::ApplyAdjustmentRequest,
        adjustment: Option<&pb::Adjustment>,
        recorded_by: &str,
    ) -> Result<Decision<SessionJournal, SessionChanged>, ServiceError> {
        let row = &state.row;
        let db = &self.db;
        let outline = Outline::of(row)?;
        self.check_key(&state, &outline, key).await?;
        let board = i32::try_from(key.board_number).unwrap_or(i32::MAX);
        let on_board = self.board_at(&state, board).await?;
        let idem_key = format!("ruling:{}/{}", request.ruling_id, request.appeal_id);
        if let Some(first) = Self::version_by_key(db, &key.session_id, &idem_key).await? {
            let results = on_board.iter().map(result_proto).collect::<Result<Vec<_>, _>>()?;
            return Ok(unchanged(results, first));
        }
        let now = time::now();
        let mut model = match on_board.iter().find(|m| key_of(m) == *key) {
            Some(existing) => existing.clone(),
            None if adjustment.is_some() => board_result::Model {
                // An adjusted score for a board the table could not play (Law 12C2).
                result_id: uuid::Uuid::now_v7().to_string(),
                session_id: key.session_id.clone(),
                board_number: i32::try_from(key.board_number).unwrap_or(i32::MAX),
                ns_contestant: key.north_south_contestant_id.clone(),
                ew_contestant: key.east_west_contestant_id.clone(),
                deal_id: None,
                table_result: None,
                adjustment: None,
                kind: spb::ResultKind::NotPlayed as i32,
                source: spb::ResultSource::Ruling as i32,
                ruling_id: String::new(),
                appeal_id: String::new(),
                ns_values: Vec::new(),
                ew_values: Vec::new(),
                version: 0,
                recorded_at: now,
                form: 0,
            },
            None => {
                return Err(ServiceError::not_found(format!(
                    "a result on board {} for {} v {}",
                    key.board_number, key.north_south_contestant_id, key.east_west_contestant_id
                )));
            }
        };
        if adjustment.is_none() && model.table_result.is_none() {
            return Err(ServiceError::FailedPrecondition(format!(
                "board {} has no table result to restore: it was not played at this table",
                key.board_number
            )));
        }
        let appeal = !request.appeal_id.is_empty();
        model.adjustment = adjustment.map(Message::encode_to_vec);
        model.kind = domain::result_kind(adjustment) as i32;
        model.source = match (adjustment, appeal) {
            (_, true) => spb::ResultSource::Appeal,
            (Some(_), false) => spb::ResultSource::Ruling,
            (None, false) => spb::ResultSource::Correction,
        } as i32;
        model.ruling_id = request.ruling_id.clone();
        model.appeal_id = request.appeal_id.clone();
        let (cause, default_law) = if appeal {
            (spb::ScoreVersionCause::AppealDecision, Law::duplicate(93, ""))
        } else {
            (spb::ScoreVersionCause::Adjustment, Law::duplicate(12, "C"))
        };
        let version = spb::ScoreVersion {
            version: 0,
            target: Some(board_target(key)),
            cause: cause as i32,
            reason: request.reason.clone(),
            result: decode_opt(model.table_result.as_ref(), "table result")?,
            adjustment: adjustment.cloned(),
            ruling_id: request.ruling_id.clone(),
            appeal_id: request.appeal_id.clone(),
            law: citation(request.law.as_ref()).or_else(|| Some(default_law.into())),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(now)),
        };
        let operation = if adjustment.is_some() { "adjust" } else { "restore" };
        let change = Change { row: model, version, operation, idem_key: Some(idem_key), hands: None, also: Vec::new() };
        let (write, committed) = self.plan(&state, outline, on_board, change).await?;
        Ok(accepted(write, committed.results, committed.version))
    }

    /// Law 87B, a fouled board: records the form each table of the board played (tables not
    /// named played the correct form, 0) and rescores the board group by group. Giving the
    /// grouping the board already has changes nothing and returns the version that made it.
    #[tracing::instrument(skip_all, fields(session_id = %request.session_id, board = request.board_number))]
    pub async fn mark_fouled(
        &self,
        request: &spb::MarkFouledBoardRequest,
        recorded_by: &str,
    ) -> Result<(Vec<spb::BoardResult>, spb::ScoreVersion), ServiceError> {
        if request.session_id.is_empty() {
            return Err(ServiceError::invalid("session_id", "empty; a value is required"));
        }
        if request.board_number == 0 {
            return Err(ServiceError::invalid("board_number", "not given; the fouled board is required"));
        }
        let mut forms: BTreeMap<String, u8> = BTreeMap::new();
        for (i, given) in request.forms.iter().enumerate() {
            let field = format!("forms[{i}]");
            if given.north_south_contestant_id.is_empty() {
                return Err(ServiceError::invalid(
                    &format!("{field}.north_south_contestant_id"),
                    "empty; the table is named by its North-South contestant",
                ));
            }
            let form = u8::try_from(given.form).map_err(|_| {
                ServiceError::invalid(&format!("{field}.form"), format!("{} is not a form: 0 to 255", given.form))
            })?;
            if forms.insert(given.north_south_contestant_id.clone(), form).is_some() {
                return Err(ServiceError::invalid(
                    &format!("{field}.north_south_contestant_id"),
                    format!("{:?} is named twice: a table played one form", given.north_south_contestant_id),
                ));
            }
        }
        let changed = self
            .runtime
            .execute(&request.session_id, latest(), None, |state| self.decide_foul(state, request, &forms, recorded_by))
            .await?;
        Ok((changed.results, changed.version.unwrap_or_default()))
    }

    async fn decide_foul(
        &self,
        state: Arc<SessionState>,
        request: &spb::MarkFouledBoardRequest,
        forms: &BTreeMap<String, u8>,
        recorded_by: &str,
    ) -> Result<Decision<SessionJournal, SessionChanged>, ServiceError> {
        let row = &state.row;
        let db = &self.db;
        let outline = Outline::of(row)?;
        if outline.teams() {
            return Err(ServiceError::Rule {
                message: "a fouled board at teams is not scored in groups: Law 87C sends it to Law 86B2, adjusted \
                          scores the Director awards through a ruling"
                    .to_owned(),
                law: Law::duplicate(87, "C"),
            });
        }
        if outline.board(request.board_number).is_none() {
            return Err(ServiceError::invalid(
                "board_number",
                format!("board {} is not in this session", request.board_number),
            ));
        }
        let board = i32::try_from(request.board_number).unwrap_or(i32::MAX);
        let stored = self.board_at(&state, board).await?;
        let on_board: Vec<&board_result::Model> = stored.iter().collect();
        for (i, given) in request.forms.iter().enumerate() {
            if !on_board.iter().any(|m| m.ns_contestant == given.north_south_contestant_id) {
                return Err(ServiceError::invalid(
                    &format!("forms[{i}].north_south_contestant_id"),
                    format!(
                        "no result on board {} with {:?} North-South to put in a group (Law 87B: the Director \
                         divides the scores obtained on the board)",
                        request.board_number, given.north_south_contestant_id
                    ),
                ));
            }
        }
        let form_of = |m: &board_result::Model| i32::from(forms.get(&m.ns_contestant).copied().unwrap_or(0));
        if on_board.iter().all(|m| m.form == form_of(m)) {
            // The board is grouped so already: the version that made the grouping, if any.
            let first = score_version::Entity::find()
                .filter(score_version::Column::OwnerId.eq(request.session_id.as_str()))
                .filter(score_version::Column::BoardNumber.eq(board))
                .filter(score_version::Column::Operation.eq("foul"))
                .order_by_desc(score_version::Column::Version)
                .one(db)
                .await?;
            let version = first.as_ref().map(version_proto).transpose()?.unwrap_or_default();
            let results = on_board.into_iter().map(result_proto).collect::<Result<Vec<_>, _>>()?;
            return Ok(unchanged(results, version));
        }
        let mut changed: Vec<board_result::Model> =
            on_board.into_iter().map(|m| board_result::Model { form: form_of(m), ..m.clone() }).collect();
        let main = changed.remove(0);
        let key = pb::BoardResultKey {
            session_id: request.session_id.clone(),
            board_number: request.board_number,
            north_south_contestant_id: String::new(),
            east_west_contestant_id: String::new(),
        };
        let version = spb::ScoreVersion {
            target: Some(board_target(&key)),
            cause: spb::ScoreVersionCause::FouledBoard as i32,
            reason: request.reason.clone(),
            law: Some(Law::duplicate(87, "B").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(time::now())),
            ..Default::default()
        };
        let change = Change { row: main, version, operation: "foul", idem_key: None, hands: None, also: changed };
        let (write, committed) = self.plan(&state, outline, stored, change).await?;
        Ok(accepted(write, committed.results, committed.version))
    }

    /// Publishes the official score, starting the correction period (Law 79C) and the appeal
    /// period (Law 92B). Publishing again changes nothing.
    #[tracing::instrument(skip_all, fields(session_id))]
    pub async fn publish(&self, session_id: &str, recorded_by: &str) -> Result<spb::Session, ServiceError> {
        let changed = self
            .runtime
            .execute(session_id, latest(), None, |state| std::future::ready(self.decide_publish(&state, recorded_by)))
            .await?;
        changed.session.ok_or_else(|| ServiceError::internal("a publication answered without its session"))
    }

    fn decide_publish(
        &self,
        state: &SessionState,
        recorded_by: &str,
    ) -> Result<Decision<SessionJournal, SessionChanged>, ServiceError> {
        let row = &state.row;
        if row.scores_published_at.is_some() {
            let session = Some(session_proto(row)?);
            return Ok(Decision::Unchanged(SessionChanged { results: Vec::new(), version: None, session }));
        }
        let now = time::now();
        let period = chrono::Duration::from_std(self.settings.correction_period).unwrap_or(chrono::Duration::MAX);
        let ends = now.checked_add_signed(period).unwrap_or(now);
        let number = u64::try_from(row.version).unwrap_or(0) + 1;
        let sequence = u64::try_from(row.last_sequence).unwrap_or(0) + 1;
        let published = session::Model {
            version: i64::try_from(number).unwrap_or(i64::MAX),
            last_sequence: i64::try_from(sequence).unwrap_or(i64::MAX),
            status: spb::SessionStatus::Published as i32,
            scores_published_at: Some(now),
            correction_period_ends_at: Some(ends),
            ..row.clone()
        };
        let session = session_proto(&published)?;
        let version = spb::ScoreVersion {
            version: number,
            cause: spb::ScoreVersionCause::Published as i32,
            reason: "the official score was published".to_owned(),
            law: Some(Law::duplicate(79, "C").into()),
            recorded_by: recorded_by.to_owned(),
            recorded_at: Some(time::timestamp(now)),
            ..Default::default()
        };
        let payload = spb::SessionEvent {
            sequence,
            occurred_at: Some(time::timestamp(now)),
            session_id: row.session_id.clone(),
            event: Some(spb::session_event::Event::ScoresPublished(spb::ScoresPublished {
                session: Some(session.clone()),
            })),
        }
        .encode_to_vec();
        let write = SessionWrite {
            next: state.after(published, &[], &[]),
            from_version: row.version,
            columns: Columns { published: true, ..Columns::default() },
            rows: Vec::new(),
            kept: Vec::new(),
            versions: vec![(version.clone(), Replay { operation: "publish".to_owned(), ..Default::default() })],
            events: vec![FeedEvent { sequence, payload }],
            movement: Default::default(),
        };
        let mut decision = accepted(write, Vec::new(), version);
        if let Decision::Changed(change) = &mut decision {
            change.response.session = Some(session);
        }
        Ok(decision)
    }
}

/// A command without an expected version: decided again when another writer came first.
pub(super) fn latest() -> Expected {
    Expected::Latest { attempts: MAX_ATTEMPTS as u32 }
}

/// The answer of a change made before: nothing is written.
fn unchanged(results: Vec<spb::BoardResult>, version: spb::ScoreVersion) -> Decision<SessionJournal, SessionChanged> {
    Decision::Unchanged(SessionChanged { results, version: Some(version), session: None })
}

/// An accepted change: what it writes, the feed's head after it and its events, and its answer.
fn accepted(
    write: SessionWrite,
    results: Vec<spb::BoardResult>,
    version: spb::ScoreVersion,
) -> Decision<SessionJournal, SessionChanged> {
    let published = FeedBatch { events: write.events.clone() }.encode_to_vec();
    Decision::Changed(runtime::Change {
        next: write.next.clone(),
        response: SessionChanged { results, version: Some(version), session: None },
        live: LiveWrite::Replace,
        published: Some(Bytes::from(published)),
        write,
    })
}

/// The one result a record or a correction answers with, and its version.
fn one_result(changed: SessionChanged) -> Result<(spb::BoardResult, spb::ScoreVersion), ServiceError> {
    let result =
        changed.results.into_iter().next().ok_or_else(|| ServiceError::internal("a change without its result"))?;
    Ok((result, changed.version.unwrap_or_default()))
}
