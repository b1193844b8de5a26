//! The appeals service's commands: recording a ruling, filing, withdrawing, hearing and deciding an
//! appeal, and publishing the appeal policy. Bridge questions (who may appeal, until when, what
//! the committee may change) are the laws crate's ([`laws::appeals`]); how a decision rescores a
//! deal is the scoring service's, which applies it with [`laws::rulings`].
//!
//! # Never half-applied
//!
//! A command that changes only this service's records runs in one transaction with its notice and
//! its stored answer. A ruling with an adjusted score, and a decision that changes the score, also
//! owe the scoring service a call (`ApplyAdjustment`), so they go in two steps (see
//! [`crate::delivery`]): the ruling is written as pending, or the decision is parked on the
//! appeal, together with an outbox row, in one transaction; then the call is made, and a second
//! transaction records the ruling or the decision with the score version it made, adds the notice
//! and stores the answer. If the scoring service refuses (the adjustment is malformed or does not
//! fit the score), the pending ruling is dropped or the parked decision cleared, and the caller
//! gets the refusal; if it cannot be reached, the caller gets UNAVAILABLE and the background worker
//! delivers it later (a retry with the same idempotency key resumes it). `ApplyAdjustment` is
//! idempotent by ruling and appeal id, so a call made twice changes the score once.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::convert::ProtoEnum;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::{Principal, Role};
use platform::db::Db;
use platform::live::SharedLiveStore;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, TransactionTrait};

use crate::delivery::{Delivered, TOPIC_DECISION, TOPIC_RULING};
use crate::entity::{appeal, outbox, ruling, ruling_party};
use crate::records::{
    ContestantRecord, FormRecord, Parties, cite, decode, elapsed, encode, from_duration, from_timestamp, request_hash,
    ruling_kind, status_name, target_key, timestamp,
};
use crate::scoring::ScoreKeeper;
use crate::store::{self, NewEvent};
use platform::outbox::OutboxSettings;

/// The appeals service's state: its database, its live channel, and the scoring service.
pub struct Appeals {
    pub(crate) db: Db,
    pub(crate) live: SharedLiveStore,
    pub(crate) scoring: Arc<dyn ScoreKeeper>,
    /// How long a fresh outbox row waits before the background worker may try it, so that the
    /// request that wrote it normally delivers it itself.
    pub(crate) worker_grace: Duration,
    /// Committee principals already recorded, so that their calls do not write every time.
    committee_seen: Mutex<HashSet<String>>,
    /// How long a watch stream stays quiet before it sends a heartbeat.
    pub(crate) heartbeat: Duration,
    /// How the outbox worker, and a request that delivers its own call, treat failures.
    pub(crate) outbox: OutboxSettings,
}

/// The appeals service's outbox settings unless configured: a call that failed within its
/// request waits 2 seconds before the worker tries it again, doubling up to five minutes.
pub fn outbox_defaults() -> OutboxSettings {
    OutboxSettings { poll_interval_ms: 5000, initial_backoff_ms: 2000, max_backoff_ms: 300_000, ..Default::default() }
}

impl std::fmt::Debug for Appeals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appeals").finish_non_exhaustive()
    }
}

/// Whether `principal` sees every ruling, appeal and notice: the desk, the arbiters, the committee
/// and the administration. A player sees those about deals they played.
pub fn sees_everything(principal: &Principal) -> bool {
    principal.has_any(&[Role::Desk, Role::Arbiter, Role::Committee, Role::Admin])
}

fn require_key(key: &str) -> Result<&str, ServiceError> {
    if key.trim().is_empty() {
        Err(ServiceError::invalid("idempotency_key", "required: choose one per command and reuse it on retries"))
    } else if key.len() > 200 {
        Err(ServiceError::invalid("idempotency_key", "at most 200 characters"))
    } else {
        Ok(key)
    }
}

fn required_text<'a>(field: &str, value: &'a str, what: &str) -> Result<&'a str, ServiceError> {
    let value = value.trim();
    if value.is_empty() { Err(ServiceError::invalid(field, format!("required: {what}"))) } else { Ok(value) }
}

/// Whether a ruling decision is an adjusted score, and the adjustment if so. A decision with
/// nothing set, or an adjusted score of no kind, is refused naming the field.
fn adjustment_of(
    field: &str,
    decision: Option<&pb::RulingDecision>,
) -> Result<Option<common::Adjustment>, ServiceError> {
    use pb::ruling_decision::Decision;
    match decision.and_then(|d| d.decision.as_ref()) {
        None => Err(ServiceError::invalid(field, "a rectification, result stands or an adjusted score is required")),
        Some(Decision::AdjustedScore(adjustment)) if adjustment.kind.is_none() => Err(ServiceError::invalid(
            &format!("{field}.adjusted_score"),
            "assigned, weighted, artificial or split is required",
        )),
        Some(Decision::AdjustedScore(adjustment)) => Ok(Some(adjustment.clone())),
        Some(Decision::Rectification(_) | Decision::ResultStands(_)) => Ok(None),
    }
}

impl Appeals {
    /// The service over `db`, `live` and `scoring`.
    pub fn new(db: Db, live: SharedLiveStore, scoring: Arc<dyn ScoreKeeper>, worker_grace: Duration) -> Appeals {
        Appeals {
            db,
            live,
            scoring,
            worker_grace,
            committee_seen: Mutex::new(HashSet::new()),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
            outbox: outbox_defaults(),
        }
    }

    /// The same service, its owed calls delivered with `settings`.
    pub fn with_outbox(mut self, settings: OutboxSettings) -> Appeals {
        self.outbox = settings;
        self
    }

    /// The same service, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Appeals {
        self.heartbeat = heartbeat;
        self
    }

    /// Publishes a committed notice to watchers. A notice that fails to publish is not lost:
    /// watchers find it in the database when the next one arrives or when they resynchronise.
    pub(crate) async fn publish(&self, notice: store::LiveNotice) {
        let payload = bytes::Bytes::from(encode(&notice));
        if let Err(error) = self.live.publish(store::CHANNEL, payload).await {
            tracing::warn!(%error, "appeal notice not published; watchers will read it from the database");
        }
    }

    /// Records that a principal with the committee role called, so that others may name them as
    /// a member of a hearing or decision.
    pub async fn note_committee_member(&self, principal: &Principal) -> Result<(), ServiceError> {
        if !principal.has(Role::Committee) {
            return Ok(());
        }
        if self.committee_seen.lock().unwrap_or_else(|e| e.into_inner()).contains(&principal.subject) {
            return Ok(());
        }
        store::note_committee_member(&self.db, &principal.subject).await?;
        self.committee_seen.lock().unwrap_or_else(|e| e.into_inner()).insert(principal.subject.clone());
        Ok(())
    }

    // ----- rulings -----

    /// Records a ruling (see the module docs for how an adjusted score reaches the score).
    #[tracing::instrument(skip_all, fields(arbiter = %principal.subject))]
    pub async fn record_ruling(
        &self,
        principal: &Principal,
        request: pb::RecordRulingRequest,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let scope = format!("appeals.RecordRuling/{}", principal.subject);
        let hash = request_hash(&request);
        if let Some(answer) = store::stored_response(&self.db, &scope, &key, &hash).await? {
            return Ok(answer);
        }
        if let Some(pending) = self.pending_ruling(&scope, &key, &hash).await? {
            return self.resume_ruling(&pending, &scope, &key, &hash).await;
        }

        let deal = request.deal.clone().ok_or_else(|| ServiceError::invalid("deal", "required"))?;
        let table_kind =
            common::TableKind::try_from(deal.kind)
                .ok()
                .filter(|k| *k != common::TableKind::Unspecified)
                .ok_or_else(|| ServiceError::invalid("deal.kind", "rubber, Chicago or duplicate is required"))?;
        let target = deal.score_target.clone().ok_or_else(|| ServiceError::invalid("deal.score_target", "required"))?;
        let target_key = target_key("deal.score_target", &target)?;
        let irregularity = required_text("irregularity", &request.irregularity, "the irregularity, in words")?;
        if request.laws.is_empty() {
            return Err(ServiceError::invalid("laws", "cite at least one Law the ruling applies"));
        }
        let laws = request
            .laws
            .iter()
            .enumerate()
            .map(|(i, citation)| cite(&format!("laws[{i}]"), citation))
            .collect::<Result<Vec<_>, _>>()?;
        ruling_kind("kind", request.kind)?;
        if request.offending_side != 0 {
            laws::Side::from_proto("offending_side", request.offending_side)?;
        }
        let adjustment = adjustment_of("decision", request.decision.as_ref())?;
        let (deal, parties, score_owner) = self.resolve_deal(deal, table_kind, &target, adjustment.is_some()).await?;
        let policy = store::current_policy(&self.db).await?;

        let now = Utc::now();
        let ruling = pb::Ruling {
            ruling_id: uuid::Uuid::now_v7().to_string(),
            deal: Some(deal.clone()),
            irregularity: irregularity.to_owned(),
            irregularity_id: request.irregularity_id.clone(),
            laws,
            facts: request.facts.trim().to_owned(),
            kind: request.kind,
            offending_side: request.offending_side,
            decision: request.decision.clone(),
            right_to_appeal_advised: request.right_to_appeal_advised,
            ruled_by: principal.subject.clone(),
            ruled_at: Some(timestamp(now)),
            appeal_ids: Vec::new(),
        };
        let row = ruling::ActiveModel {
            ruling_id: Set(ruling.ruling_id.clone()),
            status: Set(ruling::RECORDED.to_owned()),
            sequence: Set(None),
            deal_id: Set(deal.deal_id.clone()),
            table_kind: Set(table_kind as i32),
            target_key: Set(target_key.clone()),
            score_owner: Set(score_owner),
            policy_version: Set(policy.version),
            ruled_by: Set(principal.subject.clone()),
            ruled_at: Set(now),
            ruling: Set(encode(&ruling)),
            parties: Set(parties.to_json()?),
            score_version: Set(None),
            idempotency_scope: Set(scope.clone()),
            idempotency_key: Set(key.clone()),
            request_hash: Set(hash.clone()),
        };

        let Some(adjustment) = adjustment else {
            // No score changes: the ruling, its notice and the answer commit together.
            let txn = self.db.begin().await?;
            let sequence = store::next_sequence(&txn).await?;
            if let Some(answer) = store::stored_response(&txn, &scope, &key, &hash).await? {
                return Ok(answer);
            }
            let mut row = row;
            row.sequence = Set(Some(i64::try_from(sequence).map_err(ServiceError::internal)?));
            ruling::Entity::insert(row).exec_without_returning(&txn).await?;
            insert_parties(&txn, &ruling.ruling_id, &parties).await?;
            let notice = store::append_event(
                &txn,
                NewEvent {
                    sequence,
                    at: now,
                    actor: &principal.subject,
                    ruling_id: &ruling.ruling_id,
                    appeal_id: None,
                    target_key: &target_key,
                    event: pb::appeal_event::Event::RulingRecorded(ruling.clone()),
                    audience: &parties.everyone(),
                },
            )
            .await?;
            let answer = pb::RecordRulingResponse { ruling: Some(ruling), score_version: None };
            store::store_response(&txn, &scope, &key, &hash, &answer).await?;
            txn.commit().await?;
            self.publish(notice).await;
            return Ok(answer);
        };

        // The adjusted score is owed to the scoring service: the ruling waits as pending.
        let call = scoring_pb::ApplyAdjustmentRequest {
            ruling_id: ruling.ruling_id.clone(),
            appeal_id: String::new(),
            target: Some(target),
            change: Some(scoring_pb::apply_adjustment_request::Change::Adjustment(adjustment)),
            reason: format!("ruling {}: {}", ruling.ruling_id, ruling.irregularity),
            law: ruling.laws.first().cloned(),
        };
        let mut row = row;
        row.status = Set(ruling::PENDING.to_owned());
        let txn = self.db.begin().await?;
        let inserted = ruling::Entity::insert(row).exec_without_returning(&txn).await;
        if let Err(error) = inserted {
            drop(txn);
            // The same key raced this request and won: answer as its retry would.
            return match self.pending_ruling(&scope, &key, &hash).await? {
                Some(pending) => self.resume_ruling(&pending, &scope, &key, &hash).await,
                None => Err(error.into()),
            };
        }
        let outbox_id = self.owe(&txn, TOPIC_RULING, &ruling.ruling_id, &call, now).await?;
        txn.commit().await?;
        match self.deliver(outbox_id).await? {
            Delivered::Ruling(answer) => Ok(*answer),
            Delivered::Decision(_) => Err(ServiceError::internal("a ruling's delivery answered for a decision")),
        }
    }

    /// Writes an outbox row owing `call` to the scoring service.
    async fn owe(
        &self,
        txn: &sea_orm::DatabaseTransaction,
        topic: &str,
        aggregate_id: &str,
        call: &scoring_pb::ApplyAdjustmentRequest,
        now: chrono::DateTime<Utc>,
    ) -> Result<i64, ServiceError> {
        let grace = chrono::Duration::from_std(self.worker_grace).unwrap_or_else(|_| chrono::Duration::seconds(5));
        let inserted = outbox::Entity::insert(outbox::ActiveModel {
            source: Set("appeals".to_owned()),
            topic: Set(topic.to_owned()),
            aggregate_id: Set(aggregate_id.to_owned()),
            payload: Set(encode(call)),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set((now + grace).into()),
            created_at: Set(now.into()),
            delivered_at: Set(None),
            // Whoever delivers it (this request, a retry, the worker) continues this trace.
            trace_context: Set(platform::telemetry::capture_trace_context()),
            dead_lettered_at: Set(None),
            ..Default::default()
        })
        .exec(txn)
        .await?;
        Ok(inserted.last_insert_id)
    }

    /// A ruling still pending for `(scope, key)`.
    async fn pending_ruling(&self, scope: &str, key: &str, hash: &str) -> Result<Option<ruling::Model>, ServiceError> {
        let row = ruling::Entity::find()
            .filter(ruling::Column::IdempotencyScope.eq(scope))
            .filter(ruling::Column::IdempotencyKey.eq(key))
            .one(&self.db)
            .await?;
        match row {
            Some(row) if row.request_hash != hash => Err(ServiceError::invalid(
                "idempotency_key",
                format!("{key:?} was already used for a different request; choose a new key"),
            )),
            other => Ok(other),
        }
    }

    /// Answers a retry of a ruling whose first attempt left it pending (or that completed since).
    async fn resume_ruling(
        &self,
        pending: &ruling::Model,
        scope: &str,
        key: &str,
        hash: &str,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        if let Some(outbox_id) = self.undelivered(TOPIC_RULING, &pending.ruling_id).await?
            && let Delivered::Ruling(answer) = self.deliver(outbox_id).await?
        {
            return Ok(*answer);
        }
        store::stored_response(&self.db, scope, key, hash)
            .await?
            .ok_or_else(|| ServiceError::Unavailable(format!("ruling {} is being recorded; retry", pending.ruling_id)))
    }

    /// The undelivered outbox row of `aggregate_id`, if any.
    pub(crate) async fn undelivered(&self, topic: &str, aggregate_id: &str) -> Result<Option<i64>, ServiceError> {
        Ok(outbox::Entity::find()
            .filter(outbox::Column::Source.eq("appeals"))
            .filter(outbox::Column::Topic.eq(topic))
            .filter(outbox::Column::AggregateId.eq(aggregate_id))
            .filter(outbox::Column::DeliveredAt.is_null())
            .one(&self.db)
            .await?
            .map(|row| row.id))
    }

    /// Who played the deal, from the scoring service, checked against what the director gave:
    /// a scorepad's four players, or a board's two contestants. An adjusted score needs a result
    /// on record to adjust.
    async fn resolve_deal(
        &self,
        mut deal: pb::DealReference,
        table_kind: common::TableKind,
        target: &common::ScoreTarget,
        adjusted: bool,
    ) -> Result<(pb::DealReference, Parties, String), ServiceError> {
        use common::score_target::Target;
        match (&target.target, table_kind) {
            (Some(Target::ScorepadDeal(at)), common::TableKind::Rubber | common::TableKind::Chicago) => {
                let pad = self.scoring.scorepad(&at.scorepad_id).await?;
                if pad.kind != deal.kind {
                    return Err(ServiceError::invalid(
                        "deal.kind",
                        format!("scorepad {} is a {} scorepad", pad.scorepad_id, table_kind_name(pad.kind)),
                    ));
                }
                if !deal.deal_id.is_empty() && deal.deal_id != at.deal_id {
                    return Err(ServiceError::invalid("deal.deal_id", "must be the score target's deal"));
                }
                if !deal.table_id.is_empty() && deal.table_id != pad.table_id {
                    return Err(ServiceError::invalid(
                        "deal.table_id",
                        format!("scorepad {} is kept for table {}", pad.scorepad_id, pad.table_id),
                    ));
                }
                for (i, given) in deal.players.iter().enumerate() {
                    if !pad.players.contains(given) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}]"),
                            format!("{} did not sit at that seat on scorepad {}", given.player_id, pad.scorepad_id),
                        ));
                    }
                }
                if adjusted && !pad.deals.iter().any(|d| d.deal_id == at.deal_id && !d.struck) {
                    return Err(ServiceError::FailedPrecondition(format!(
                        "deal {} has no result on scorepad {} to adjust; an adjusted score replaces a recorded result",
                        at.deal_id, pad.scorepad_id
                    )));
                }
                deal.deal_id = at.deal_id.clone();
                deal.table_id = pad.table_id.clone();
                deal.players = pad.players.clone();
                let form =
                    if table_kind == common::TableKind::Rubber { FormRecord::Rubber } else { FormRecord::Chicago };
                let players = pad.players.iter().map(|p| p.player_id.clone()).collect();
                Ok((deal, Parties { form, players, contestants: None }, pad.scorepad_id))
            }
            (Some(Target::BoardResult(at)), common::TableKind::Duplicate) => {
                let named = [at.north_south_contestant_id.clone(), at.east_west_contestant_id.clone()];
                let session = self.scoring.session_for_board(&at.session_id, at.board_number, &named).await?;
                if !session.boards.iter().any(|b| b.number == at.board_number) {
                    return Err(ServiceError::invalid(
                        "deal.score_target.board_result.board_number",
                        format!("session {} has no board {}", session.session_id, at.board_number),
                    ));
                }
                let contestant = |field: &str, id: &str| {
                    session.contestants.iter().find(|c| c.contestant_id == id).cloned().ok_or_else(|| {
                        ServiceError::invalid(
                            &format!("deal.score_target.board_result.{field}"),
                            format!("session {} has no contestant {id}", session.session_id),
                        )
                    })
                };
                let ns = contestant("north_south_contestant_id", &at.north_south_contestant_id)?;
                let ew = contestant("east_west_contestant_id", &at.east_west_contestant_id)?;
                if ns.contestant_id == ew.contestant_id {
                    return Err(ServiceError::invalid(
                        "deal.score_target.board_result",
                        "a contestant cannot sit both North-South and East-West",
                    ));
                }
                let form = match scoring_pb::ContestantKind::try_from(session.contestant_kind) {
                    Ok(scoring_pb::ContestantKind::Pairs) => FormRecord::Pairs,
                    Ok(scoring_pb::ContestantKind::Teams) => FormRecord::Teams,
                    Ok(scoring_pb::ContestantKind::Individuals) => FormRecord::Individuals,
                    _ => {
                        return Err(ServiceError::internal(format!(
                            "session {} has no contestant kind",
                            session.session_id
                        )));
                    }
                };
                let mut seats = BTreeSet::new();
                for (i, given) in deal.players.iter().enumerate() {
                    let seat = laws::Seat::from_proto(&format!("deal.players[{i}].seat"), given.seat)?;
                    if !seats.insert(seat as u8) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}].seat"),
                            format!("{seat} is given twice"),
                        ));
                    }
                    let own = if seat.side() == laws::Side::NorthSouth { &ns } else { &ew };
                    if !own.player_ids.contains(&given.player_id) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}].player_id"),
                            format!(
                                "{} is not a player of contestant {}, which sat {}",
                                given.player_id,
                                own.contestant_id,
                                seat.side()
                            ),
                        ));
                    }
                }
                let result = self.scoring.board_result(at).await?;
                match result.as_ref() {
                    None if adjusted => {
                        return Err(ServiceError::FailedPrecondition(format!(
                            "board {} of session {} has no result for {} against {} to adjust; an adjusted score \
                             replaces a recorded result",
                            at.board_number, at.session_id, at.north_south_contestant_id, at.east_west_contestant_id
                        )));
                    }
                    Some(result) if deal.deal_id.is_empty() => deal.deal_id = result.deal_id.clone(),
                    Some(result) if deal.deal_id != result.deal_id => {
                        return Err(ServiceError::invalid(
                            "deal.deal_id",
                            format!("the board's result was recorded for deal {}", result.deal_id),
                        ));
                    }
                    _ if deal.deal_id.is_empty() => {
                        return Err(ServiceError::invalid(
                            "deal.deal_id",
                            "required: the board has no result to take it from",
                        ));
                    }
                    _ => {}
                }
                let record = |c: &scoring_pb::Contestant| ContestantRecord {
                    contestant_id: c.contestant_id.clone(),
                    members: c.player_ids.clone(),
                    captain: Some(c.captain_player_id.clone()).filter(|id| !id.is_empty()),
                };
                let players = deal.players.iter().map(|p| p.player_id.clone()).collect();
                let parties = Parties { form, players, contestants: Some([record(&ns), record(&ew)]) };
                Ok((deal, parties, session.session_id))
            }
            _ => Err(ServiceError::invalid(
                "deal.score_target",
                "a rubber or Chicago deal is scored on a scorepad, a duplicate board in a session",
            )),
        }
    }

    // ----- appeals -----

    /// Files an appeal: a player for himself, or the director for a player (Law 92C).
    #[tracing::instrument(skip_all, fields(ruling_id = %request.ruling_id, caller = %principal.subject))]
    pub async fn file_appeal(
        &self,
        principal: &Principal,
        request: pb::FileAppealRequest,
    ) -> Result<pb::FileAppealResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let appellant = if principal.has(Role::Arbiter) {
            required_text("appellant_player_id", &request.appellant_player_id, "the player the director files for")?
                .to_owned()
        } else if request.appellant_player_id.is_empty() || request.appellant_player_id == principal.subject {
            principal.subject.clone()
        } else {
            return Err(ServiceError::PermissionDenied(format!(
                "{} may appeal only for himself; the director files an appeal for another player (Law 92C)",
                principal.subject
            )));
        };
        let scope = format!("appeals.FileAppeal/{}", principal.subject);
        let hash = request_hash(&request);
        if let Some(answer) = store::stored_response(&self.db, &scope, &key, &hash).await? {
            return Ok(answer);
        }
        let grounds = required_text("grounds", &request.grounds, "the grounds of the appeal")?.to_owned();
        let ruling_row = self.recorded_ruling(&request.ruling_id).await?;
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy = store::policy_rules(&store::policy_version(&self.db, ruling_row.policy_version).await?)?;

        policy.check_allowed(form).map_err(ServiceError::rule)?;
        laws::appeals::check_appealable(form, ruling_kind("kind", ruling.kind)?).map_err(ServiceError::rule)?;
        let mut concurring: Vec<String> = Vec::new();
        for player in &request.concurring_player_ids {
            if !player.is_empty() && *player != appellant && !concurring.contains(player) {
                concurring.push(player.clone());
            }
        }
        let concurring_refs: Vec<&str> = concurring.iter().map(String::as_str).collect();
        parties.check_appellant(&appellant, &concurring_refs)?;

        let now = Utc::now();
        let start = if form.is_duplicate() {
            let session = self.scoring.session(&ruling_row.score_owner).await?;
            session.scores_published_at.as_ref().and_then(from_timestamp)
        } else {
            Some(ruling_row.ruled_at)
        };
        policy.check_time_limit(form, start.map(|start| elapsed(start, now))).map_err(ServiceError::rule)?;
        let (limit, _) = policy.time_limit(form);
        let deadline = start.and_then(|start| chrono::Duration::from_std(limit).ok().map(|limit| start + limit));

        let txn = self.db.begin().await?;
        let sequence = store::next_sequence(&txn).await?;
        if let Some(answer) = store::stored_response(&txn, &scope, &key, &hash).await? {
            return Ok(answer);
        }
        let open = appeal::Entity::find()
            .filter(appeal::Column::RulingId.eq(&ruling_row.ruling_id))
            .filter(appeal::Column::Status.is_in(["filed", "heard", "decided"]))
            .one(&txn)
            .await?;
        if let Some(open) = open {
            return Err(ServiceError::FailedPrecondition(if open.status == "decided" {
                format!(
                    "ruling {} was decided on appeal {}; the committee's decision is final at the club",
                    ruling_row.ruling_id, open.appeal_id
                )
            } else {
                format!(
                    "appeal {} against ruling {} is already {}; withdraw it or wait for its decision",
                    open.appeal_id, ruling_row.ruling_id, open.status
                )
            }));
        }
        let appeal = pb::Appeal {
            appeal_id: uuid::Uuid::now_v7().to_string(),
            ruling_id: ruling_row.ruling_id.clone(),
            appellant_player_id: appellant,
            concurring_player_ids: concurring,
            grounds,
            status: pb::AppealStatus::Filed as i32,
            filed_at: Some(timestamp(now)),
            deadline: deadline.map(timestamp),
            hearing: None,
            decision: None,
            withdrawn_at: None,
            version: 1,
            withdrawal_reason: String::new(),
        };
        appeal::Entity::insert(appeal::ActiveModel {
            appeal_id: Set(appeal.appeal_id.clone()),
            ruling_id: Set(appeal.ruling_id.clone()),
            status: Set(status_name(pb::AppealStatus::Filed).to_owned()),
            sequence: Set(i64::try_from(sequence).map_err(ServiceError::internal)?),
            appeal: Set(encode(&appeal)),
            version: Set(1),
            pending_appeal: Set(None),
            pending_scope: Set(None),
            pending_key: Set(None),
            pending_hash: Set(None),
            updated_at: Set(now),
        })
        .exec_without_returning(&txn)
        .await?;
        let notice = store::append_event(
            &txn,
            NewEvent {
                sequence,
                at: now,
                actor: &principal.subject,
                ruling_id: &ruling_row.ruling_id,
                appeal_id: Some(&appeal.appeal_id),
                target_key: &ruling_row.target_key,
                event: pb::appeal_event::Event::AppealFiled(appeal.clone()),
                audience: &parties.everyone(),
            },
        )
        .await?;
        let answer = pb::FileAppealResponse { appeal: Some(appeal) };
        store::store_response(&txn, &scope, &key, &hash, &answer).await?;
        txn.commit().await?;
        self.publish(notice).await;
        Ok(answer)
    }

    /// A ruling on record.
    pub(crate) async fn recorded_ruling(&self, ruling_id: &str) -> Result<ruling::Model, ServiceError> {
        ruling::Entity::find_by_id(ruling_id.to_owned())
            .filter(ruling::Column::Status.eq(ruling::RECORDED))
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("ruling {ruling_id:?}")))
    }

    /// An appeal's row.
    pub(crate) async fn appeal_row(&self, appeal_id: &str) -> Result<appeal::Model, ServiceError> {
        appeal::Entity::find_by_id(appeal_id.to_owned())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("appeal {appeal_id:?}")))
    }

    /// Withdraws an appeal not yet decided: the appellant, or the director for him.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, caller = %principal.subject))]
    pub async fn withdraw_appeal(
        &self,
        principal: &Principal,
        request: pb::WithdrawAppealRequest,
    ) -> Result<pb::WithdrawAppealResponse, ServiceError> {
        let row = self.appeal_row(&request.appeal_id).await?;
        let current: pb::Appeal = decode("appeal", &row.appeal)?;
        if !principal.has(Role::Arbiter) && current.appellant_player_id != principal.subject {
            return Err(ServiceError::PermissionDenied(format!(
                "only the appellant {} or the director may withdraw appeal {}",
                current.appellant_player_id, row.appeal_id
            )));
        }
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;

        let now = Utc::now();
        let txn = self.db.begin().await?;
        let sequence = store::next_sequence(&txn).await?;
        let row = appeal::Entity::find_by_id(row.appeal_id.clone())
            .one(&txn)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("appeal {:?}", request.appeal_id)))?;
        let mut appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        match row.status.as_str() {
            // Withdrawing again changes nothing: the first withdrawal stands.
            "withdrawn" => return Ok(pb::WithdrawAppealResponse { appeal: Some(appeal) }),
            "decided" => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is decided; a decided appeal cannot be withdrawn",
                    row.appeal_id
                )));
            }
            _ if row.pending_appeal.is_some() => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is being decided; its decision is being applied to the score",
                    row.appeal_id
                )));
            }
            _ => {}
        }
        appeal.status = pb::AppealStatus::Withdrawn as i32;
        appeal.withdrawn_at = Some(timestamp(now));
        appeal.withdrawal_reason = request.reason.trim().to_owned();
        appeal.version = row.version.unsigned_abs() + 1;
        self.update_appeal(&txn, &row, &appeal, now).await?;
        let notice = store::append_event(
            &txn,
            NewEvent {
                sequence,
                at: now,
                actor: &principal.subject,
                ruling_id: &row.ruling_id,
                appeal_id: Some(&row.appeal_id),
                target_key: &ruling_row.target_key,
                event: pb::appeal_event::Event::AppealWithdrawn(appeal.clone()),
                audience: &parties.everyone(),
            },
        )
        .await?;
        txn.commit().await?;
        self.publish(notice).await;
        Ok(pb::WithdrawAppealResponse { appeal: Some(appeal) })
    }

    /// Writes `appeal` over `row`, if the row is still at the version read (ABORTED otherwise).
    async fn update_appeal(
        &self,
        txn: &sea_orm::DatabaseTransaction,
        row: &appeal::Model,
        appeal: &pb::Appeal,
        now: chrono::DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let status = pb::AppealStatus::try_from(appeal.status).unwrap_or(pb::AppealStatus::Unspecified);
        let updated = appeal::Entity::update_many()
            .set(appeal::ActiveModel {
                status: Set(status_name(status).to_owned()),
                appeal: Set(encode(appeal)),
                version: Set(i64::try_from(appeal.version).map_err(ServiceError::internal)?),
                pending_appeal: Set(None),
                pending_scope: Set(None),
                pending_key: Set(None),
                pending_hash: Set(None),
                updated_at: Set(now),
                ..Default::default()
            })
            .filter(appeal::Column::AppealId.eq(&row.appeal_id))
            .filter(appeal::Column::Version.eq(row.version))
            // A decision parked meanwhile (by another process) is not overwritten.
            .filter(appeal::Column::PendingAppeal.is_null())
            .exec(txn)
            .await?;
        if updated.rows_affected == 1 {
            Ok(())
        } else {
            Err(ServiceError::Conflict(format!(
                "appeal {} changed while this request ran; read it again",
                row.appeal_id
            )))
        }
    }

    /// Records the hearing of an appeal.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, member = %principal.subject))]
    pub async fn hear_appeal(
        &self,
        principal: &Principal,
        request: pb::HearAppealRequest,
    ) -> Result<pb::HearAppealResponse, ServiceError> {
        let mut hearing = request.hearing.clone().ok_or_else(|| ServiceError::invalid("hearing", "required"))?;
        for (i, statement) in hearing.statements.iter_mut().enumerate() {
            statement.speaker =
                required_text(&format!("hearing.statements[{i}].speaker"), &statement.speaker, "who spoke")?.to_owned();
            statement.text =
                required_text(&format!("hearing.statements[{i}].text"), &statement.text, "what was said")?.to_owned();
            match pb::SpeakerRole::try_from(statement.role) {
                Ok(pb::SpeakerRole::Unspecified) | Err(_) => {
                    return Err(ServiceError::invalid(
                        &format!("hearing.statements[{i}].role"),
                        "appellant side, other side, arbiter or witness is required",
                    ));
                }
                Ok(_) => {}
            }
        }
        if let Some(heard_at) = &hearing.heard_at {
            match from_timestamp(heard_at) {
                Some(at) if at <= Utc::now() => {}
                _ => return Err(ServiceError::invalid("hearing.heard_at", "a hearing is recorded after it is held")),
            }
        }
        let row = self.appeal_row(&request.appeal_id).await?;
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy = store::policy_rules(&store::policy_version(&self.db, ruling_row.policy_version).await?)?;
        let members: Vec<&str> = hearing.committee_member_ids.iter().map(String::as_str).collect();
        policy.check_committee(form, &members, &principal.subject).map_err(ServiceError::rule)?;
        self.check_members_hold_the_role(&hearing.committee_member_ids).await?;

        let now = Utc::now();
        let txn = self.db.begin().await?;
        let sequence = store::next_sequence(&txn).await?;
        let row = appeal::Entity::find_by_id(row.appeal_id.clone())
            .one(&txn)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("appeal {:?}", request.appeal_id)))?;
        if row.version.unsigned_abs() != request.expected_version {
            return Err(ServiceError::Conflict(format!(
                "appeal {} is at version {}, not {}; read it again",
                row.appeal_id, row.version, request.expected_version
            )));
        }
        if row.status != "filed" {
            return Err(ServiceError::FailedPrecondition(format!(
                "appeal {} is {}; only a filed appeal is heard",
                row.appeal_id, row.status
            )));
        }
        let mut appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        hearing.heard_at = hearing.heard_at.or(Some(timestamp(now)));
        appeal.hearing = Some(hearing);
        appeal.status = pb::AppealStatus::Heard as i32;
        appeal.version = row.version.unsigned_abs() + 1;
        self.update_appeal(&txn, &row, &appeal, now).await?;
        let notice = store::append_event(
            &txn,
            NewEvent {
                sequence,
                at: now,
                actor: &principal.subject,
                ruling_id: &row.ruling_id,
                appeal_id: Some(&row.appeal_id),
                target_key: &ruling_row.target_key,
                event: pb::appeal_event::Event::AppealHeard(appeal.clone()),
                audience: &parties.everyone(),
            },
        )
        .await?;
        txn.commit().await?;
        self.publish(notice).await;
        Ok(pb::HearAppealResponse { appeal: Some(appeal) })
    }

    /// Refuses members who never acted with the committee role: the service sees only its
    /// caller's token, so a member is known to hold the role once they have called it.
    async fn check_members_hold_the_role(&self, members: &[String]) -> Result<(), ServiceError> {
        let unknown = store::unknown_committee_members(&self.db, members).await?;
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(ServiceError::FailedPrecondition(format!(
                "{} never signed in with the committee role; each member signs in (for example `bridgectl appeal \
                 list`) before sitting",
                unknown.join(", ")
            )))
        }
    }

    /// Decides an appeal (see the module docs for how a decision reaches the score).
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, member = %principal.subject))]
    pub async fn decide_appeal(
        &self,
        principal: &Principal,
        request: pb::DecideAppealRequest,
    ) -> Result<pb::DecideAppealResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let scope = format!("appeals.DecideAppeal/{}", principal.subject);
        let hash = request_hash(&request);
        if let Some(answer) = store::stored_response(&self.db, &scope, &key, &hash).await? {
            return Ok(answer);
        }
        let outcome = pb::AppealOutcome::try_from(request.outcome)
            .ok()
            .filter(|o| *o != pb::AppealOutcome::Unspecified)
            .ok_or_else(|| ServiceError::invalid("outcome", "upheld, overruled or varied is required"))?;
        let reasons = required_text("reasons", &request.reasons, "the committee's reasons")?.to_owned();
        let new_adjustment = match outcome {
            pb::AppealOutcome::Upheld if request.new_decision.is_some() => {
                return Err(ServiceError::invalid("new_decision", "an upheld ruling stands: give no new decision"));
            }
            pb::AppealOutcome::Upheld => None,
            _ => adjustment_of("new_decision", request.new_decision.as_ref())?,
        };

        let row = self.appeal_row(&request.appeal_id).await?;
        if row.pending_scope.as_deref() == Some(scope.as_str()) && row.pending_key.as_deref() == Some(key.as_str()) {
            if row.pending_hash.as_deref() != Some(hash.as_str()) {
                return Err(ServiceError::invalid(
                    "idempotency_key",
                    format!("{key:?} was already used for a different request; choose a new key"),
                ));
            }
            return self.resume_decision(&row, &scope, &key, &hash).await;
        }
        let current: pb::Appeal = decode("appeal", &row.appeal)?;
        if row.status == "decided" {
            // A retry without the key, or a second member recording the same decision: the
            // decision stands and nothing changes. Anything else would decide it differently.
            return match &current.decision {
                Some(decision)
                    if decision.outcome == request.outcome && decision.new_decision == request.new_decision =>
                {
                    Ok(pb::DecideAppealResponse { appeal: Some(current) })
                }
                _ => Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is already decided; its decision stands and cannot be decided differently",
                    row.appeal_id
                ))),
            };
        }
        if row.pending_appeal.is_some() {
            return Err(ServiceError::Conflict(format!(
                "a decision on appeal {} is being applied to the score; read it again shortly",
                row.appeal_id
            )));
        }
        if row.status != "heard" {
            return Err(ServiceError::FailedPrecondition(format!(
                "appeal {} is {}; an appeal is decided after it is heard",
                row.appeal_id, row.status
            )));
        }
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy = store::policy_rules(&store::policy_version(&self.db, ruling_row.policy_version).await?)?;
        let members: Vec<&str> = request.committee_member_ids.iter().map(String::as_str).collect();
        policy.check_committee(form, &members, &principal.subject).map_err(ServiceError::rule)?;
        let sat = current.hearing.as_ref().map(|h| h.committee_member_ids.as_slice()).unwrap_or_default();
        if let Some(absent) = request.committee_member_ids.iter().find(|m| !sat.contains(m)) {
            return Err(ServiceError::FailedPrecondition(format!(
                "{absent} did not sit at the hearing of appeal {}; those who heard it decide it",
                row.appeal_id
            )));
        }
        if outcome != pb::AppealOutcome::Upheld {
            laws::appeals::check_committee_may_change(form, ruling_kind("kind", ruling.kind)?)
                .map_err(ServiceError::rule)?;
        }

        let now = Utc::now();
        let mut decided = current.clone();
        decided.status = pb::AppealStatus::Decided as i32;
        decided.version = row.version.unsigned_abs() + 1;
        decided.decision = Some(pb::AppealDecision {
            outcome: request.outcome,
            reasons: reasons.clone(),
            new_decision: request.new_decision.clone(),
            committee_member_ids: request.committee_member_ids.clone(),
            decided_at: Some(timestamp(now)),
            score_versions: Vec::new(),
        });

        // What the score owes the decision: the committee's adjusted score, or the table result
        // back when it replaces the arbiter's adjusted score with a decision that adjusts nothing.
        let target = ruling.deal.as_ref().and_then(|d| d.score_target.clone());
        let ruling_adjusted = adjustment_of("ruling.decision", ruling.decision.as_ref())?.is_some();
        let change = match new_adjustment {
            Some(adjustment) => Some(scoring_pb::apply_adjustment_request::Change::Adjustment(adjustment)),
            None if outcome != pb::AppealOutcome::Upheld && ruling_adjusted => Some(
                scoring_pb::apply_adjustment_request::Change::RestoreTableResult(scoring_pb::RestoreTableResult {}),
            ),
            None => None,
        };
        let Some(change) = change else {
            let txn = self.db.begin().await?;
            let sequence = store::next_sequence(&txn).await?;
            if let Some(answer) = store::stored_response(&txn, &scope, &key, &hash).await? {
                return Ok(answer);
            }
            self.update_appeal(&txn, &row, &decided, now).await?;
            let notice = store::append_event(
                &txn,
                NewEvent {
                    sequence,
                    at: now,
                    actor: &principal.subject,
                    ruling_id: &row.ruling_id,
                    appeal_id: Some(&row.appeal_id),
                    target_key: &ruling_row.target_key,
                    event: pb::appeal_event::Event::AppealDecided(decided.clone()),
                    audience: &parties.everyone(),
                },
            )
            .await?;
            let answer = pb::DecideAppealResponse { appeal: Some(decided) };
            store::store_response(&txn, &scope, &key, &hash, &answer).await?;
            txn.commit().await?;
            self.publish(notice).await;
            return Ok(answer);
        };

        let law = if form.is_duplicate() { laws::Law::duplicate(93, "B3") } else { laws::Law::club_appeals() };
        let call = scoring_pb::ApplyAdjustmentRequest {
            ruling_id: row.ruling_id.clone(),
            appeal_id: row.appeal_id.clone(),
            target,
            change: Some(change),
            reason: format!("appeal {} {}: {}", row.appeal_id, outcome_word(outcome), reasons),
            law: Some(law.into()),
        };
        let txn = self.db.begin().await?;
        let parked = appeal::Entity::update_many()
            .set(appeal::ActiveModel {
                pending_appeal: Set(Some(encode(&decided))),
                pending_scope: Set(Some(scope.clone())),
                pending_key: Set(Some(key.clone())),
                pending_hash: Set(Some(hash.clone())),
                updated_at: Set(now),
                ..Default::default()
            })
            .filter(appeal::Column::AppealId.eq(&row.appeal_id))
            .filter(appeal::Column::Version.eq(row.version))
            .filter(appeal::Column::PendingAppeal.is_null())
            .exec(&txn)
            .await?;
        if parked.rows_affected != 1 {
            return Err(ServiceError::Conflict(format!(
                "appeal {} changed while this request ran; read it again",
                row.appeal_id
            )));
        }
        let outbox_id = self.owe(&txn, TOPIC_DECISION, &row.appeal_id, &call, now).await?;
        txn.commit().await?;
        match self.deliver(outbox_id).await? {
            Delivered::Decision(answer) => Ok(*answer),
            Delivered::Ruling(_) => Err(ServiceError::internal("a decision's delivery answered for a ruling")),
        }
    }

    /// Answers a retry of a decision whose first attempt left it being applied.
    async fn resume_decision(
        &self,
        row: &appeal::Model,
        scope: &str,
        key: &str,
        hash: &str,
    ) -> Result<pb::DecideAppealResponse, ServiceError> {
        if let Some(outbox_id) = self.undelivered(TOPIC_DECISION, &row.appeal_id).await?
            && let Delivered::Decision(answer) = self.deliver(outbox_id).await?
        {
            return Ok(*answer);
        }
        store::stored_response(&self.db, scope, key, hash)
            .await?
            .ok_or_else(|| ServiceError::Unavailable(format!("appeal {} is being decided; retry", row.appeal_id)))
    }

    // ----- policy -----

    /// Publishes a new appeal policy; it applies to rulings made from now on.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject))]
    pub async fn update_policy(
        &self,
        principal: &Principal,
        request: pb::UpdateAppealPolicyRequest,
    ) -> Result<pb::UpdateAppealPolicyResponse, ServiceError> {
        let given = request.policy.ok_or_else(|| ServiceError::invalid("policy", "required"))?;
        let rules = laws::appeals::AppealPolicy::new(
            given.appeals_allowed,
            from_duration("policy.rubber_time_limit", given.rubber_time_limit.as_ref())?,
            from_duration("policy.duplicate_time_limit", given.duplicate_time_limit.as_ref())?,
            given.committee_size,
        )
        .map_err(ServiceError::rule)?;
        let txn = self.db.begin().await?;
        let current = store::current_policy(&txn).await?;
        if current.version.unsigned_abs() != request.expected_version {
            return Err(ServiceError::Conflict(format!(
                "the appeal policy is at version {}, not {}; read it again",
                current.version, request.expected_version
            )));
        }
        let row = store::policy_row(current.version + 1, &rules, Utc::now(), &principal.subject);
        let inserted = crate::entity::policy::Entity::insert(row.clone()).exec_without_returning(&txn).await;
        if inserted.is_err() {
            return Err(ServiceError::Conflict("the appeal policy was changed at the same time; read it again".into()));
        }
        txn.commit().await?;
        let published = store::policy_version(&self.db, current.version + 1).await?;
        Ok(pb::UpdateAppealPolicyResponse { policy: Some(store::policy_message(&published)) })
    }
}

/// Inserts the players a ruling concerns.
pub(crate) async fn insert_parties(
    txn: &impl sea_orm::ConnectionTrait,
    ruling_id: &str,
    parties: &Parties,
) -> Result<(), ServiceError> {
    let everyone = parties.everyone();
    if everyone.is_empty() {
        return Ok(());
    }
    ruling_party::Entity::insert_many(
        everyone
            .into_iter()
            .map(|player| ruling_party::ActiveModel { ruling_id: Set(ruling_id.to_owned()), player_id: Set(player) }),
    )
    .exec_without_returning(txn)
    .await?;
    Ok(())
}

fn outcome_word(outcome: pb::AppealOutcome) -> &'static str {
    match outcome {
        pb::AppealOutcome::Upheld => "upheld the ruling",
        pb::AppealOutcome::Overruled => "overruled the ruling",
        pb::AppealOutcome::Varied => "varied the ruling",
        pb::AppealOutcome::Unspecified => "decided",
    }
}

fn table_kind_name(kind: i32) -> &'static str {
    match common::TableKind::try_from(kind) {
        Ok(common::TableKind::Rubber) => "rubber",
        Ok(common::TableKind::Chicago) => "Chicago",
        Ok(common::TableKind::Duplicate) => "duplicate",
        _ => "unknown",
    }
}
