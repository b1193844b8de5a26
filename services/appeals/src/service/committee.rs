//! The committee's part: hearing a filed appeal and deciding a heard one, with a decision that
//! changes the score parked until the scoring service applies it. Kept apart from filing: only
//! the committee acts here, under the policy's rules on who sits.

use api::appeals::v1 as pb;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;
use platform::runtime::{self, Decision};

use super::panel::{Named, Sitting};
use super::rows::appeal_moved;
use super::{Appeals, adjustment_of, idempotency, require_key, required_text};
use crate::book::{Book, Row};
use crate::delivery::{Delivered, TOPIC_DECISION};
use crate::entity::appeal;
use crate::records::{Parties, decode, encode, from_timestamp, request_hash, ruling_kind, timestamp};
use crate::store;
use laws::appeal_procedure::Bench;

impl Appeals {
    /// Records the hearing of an appeal.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, member = %principal.subject))]
    pub async fn hear_appeal(
        &self,
        principal: &Principal,
        request: pb::HearAppealRequest,
    ) -> Result<pb::HearAppealResponse, ServiceError> {
        self.hear_appeal_on(principal, request, Bench::Committee).await
    }

    /// Records the hearing of an appeal by `bench`: the committee, or the Director in charge
    /// under Law 93A (`super::director`).
    pub(crate) async fn hear_appeal_on(
        &self,
        principal: &Principal,
        request: pb::HearAppealRequest,
        bench: Bench,
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
        let (request, hearing) = (&request, &hearing);
        self.on_book(None, |book| self.decide_hearing(book, principal, request, hearing.clone(), bench)).await
    }

    async fn decide_hearing(
        &self,
        book: u64,
        principal: &Principal,
        request: &pb::HearAppealRequest,
        mut hearing: pb::Hearing,
        bench: Bench,
    ) -> Result<Decision<Book, pb::HearAppealResponse>, ServiceError> {
        let row = self.appeal_row(&request.appeal_id).await?;
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy_row = store::policy_version(&self.db, ruling_row.policy_version).await?;
        let policy = store::policy_rules(&policy_row)?;
        let members: Vec<&str> = hearing.committee_member_ids.iter().map(String::as_str).collect();
        let filed: pb::Appeal = decode("appeal", &row.appeal)?;
        crate::procedure::check_bench(form, &filed, bench, &policy_row)?;
        if bench == Bench::Committee {
            // The club's roster, or the game's own committee (`super::panel`).
            let at = hearing.heard_at.as_ref().and_then(from_timestamp).unwrap_or_else(Utc::now);
            let in_force = self.ruling_in_force(&row, &filed).await?;
            let named = Named {
                appeal_id: &row.appeal_id,
                ruling_row: &ruling_row,
                parties: &parties,
                policy: &policy,
                members: &members,
                corrected_by: (in_force.ruling_id != ruling_row.ruling_id).then_some(in_force.ruled_by.as_str()),
            };
            self.check_panel(Sitting::Hearing(at), principal, &named).await?;
            self.check_reviewed(&ruling_row, &filed).await?;
        } else {
            super::director::impartial_director(form, &members, &parties, &ruling_row.ruled_by)?;
        }
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
        let now = Utc::now();
        let mut appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        hearing.heard_at = hearing.heard_at.or(Some(timestamp(now)));
        appeal.hearing = Some(hearing);
        appeal.status = pb::AppealStatus::Heard as i32;
        appeal.version = row.version.unsigned_abs() + 1;
        let event = pb::appeal_event::Event::AppealHeard(appeal.clone());
        let by = (principal.subject.as_str(), now);
        let (notice, update) = appeal_moved(by, &row, &ruling_row.target_key, parties.everyone(), &appeal, event);
        Ok(Book::change(book, Some(notice), vec![update], pb::HearAppealResponse { appeal: Some(appeal) }))
    }

    /// Decides an appeal (see the module docs for how a decision reaches the score).
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, member = %principal.subject))]
    pub async fn decide_appeal(
        &self,
        principal: &Principal,
        request: pb::DecideAppealRequest,
    ) -> Result<pb::DecideAppealResponse, ServiceError> {
        self.decide_appeal_on(principal, request, Bench::Committee).await
    }

    /// Decides an appeal by `bench`: the committee, or the Director in charge under Law 93A
    /// (`super::director`).
    pub(crate) async fn decide_appeal_on(
        &self,
        principal: &Principal,
        request: pb::DecideAppealRequest,
        bench: Bench,
    ) -> Result<pb::DecideAppealResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let scope = format!("appeals.DecideAppeal/{}", principal.subject);
        let hash = request_hash(&request);
        let idempotency = idempotency(scope.clone(), &key, hash.clone());
        if let Some(answer) = idempotency.first_answer(&self.db).await? {
            return Ok(answer);
        }
        let outcome = pb::AppealOutcome::try_from(request.outcome)
            .ok()
            .filter(|o| *o != pb::AppealOutcome::Unspecified)
            .ok_or_else(|| ServiceError::invalid("outcome", "upheld, overruled or varied is required"))?;
        let reasons = required_text("reasons", &request.reasons, "the committee's reasons")?.to_owned();
        match (request.dissenting_member_ids.is_empty(), request.dissent.trim().is_empty()) {
            (false, true) => {
                required_text("dissent", &request.dissent, "the dissenters' reasons, since a member dissents")?;
            }
            (true, false) => {
                return Err(ServiceError::invalid("dissent", "no member dissents: name the dissenters"));
            }
            _ => {}
        }
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
        // What the score owes the decision (a recorded ruling does not change): the committee's
        // adjusted score, or the table result back when it replaces the arbiter's adjusted score
        // with a decision that adjusts nothing. Relative to the ruling in force: the one appealed,
        // or the corrected ruling the Director in charge's review put in force (Law 93B1).
        let ruling_row = self.ruling_in_force(&row, &decode("appeal", &row.appeal)?).await?;
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let ruling_adjusted = adjustment_of("ruling.decision", ruling.decision.as_ref())?.is_some();
        let change = match new_adjustment {
            Some(adjustment) => Some(scoring_pb::apply_adjustment_request::Change::Adjustment(adjustment)),
            None if outcome != pb::AppealOutcome::Upheld && ruling_adjusted => Some(
                scoring_pb::apply_adjustment_request::Change::RestoreTableResult(scoring_pb::RestoreTableResult {}),
            ),
            None => None,
        };
        let decision = Decided { principal, request: &request, reasons: &reasons, key: (&scope, &key, &hash), bench };
        let Some(change) = change else {
            return self.on_book(Some(&idempotency), |book| self.decide_now(book, &decision)).await;
        };
        let (change, outcome) = (&change, outcome);
        let parked: bool = self.on_book(None, |book| self.park_decision(book, &decision, change, outcome)).await?;
        if !parked {
            // Decided meanwhile, the same way: the decision stands.
            let current: pb::Appeal = decode("appeal", &self.appeal_row(&request.appeal_id).await?.appeal)?;
            return Ok(pb::DecideAppealResponse { appeal: Some(current) });
        }
        let outbox_id = self
            .undelivered(TOPIC_DECISION, &request.appeal_id)
            .await?
            .ok_or_else(|| ServiceError::internal("a parked decision owes the scoring service nothing"))?;
        match self.deliver(outbox_id).await? {
            Delivered::Decision(answer) => Ok(*answer),
            _ => Err(ServiceError::internal("a decision's delivery answered otherwise")),
        }
    }

    /// The appeal as the decision finds it: decided already the same way (nothing to do), or
    /// heard by the members who decide it, its ruling one the committee may change, and the
    /// appeal as it will stand decided.
    async fn check_decision(&self, decision: &Decided<'_>) -> Result<Checked, ServiceError> {
        let Decided { principal, request, reasons, .. } = decision;
        let row = self.appeal_row(&request.appeal_id).await?;
        let current: pb::Appeal = decode("appeal", &row.appeal)?;
        if row.status == "decided" {
            // A retry without the key, or a second member recording the same decision: the
            // decision stands and nothing changes. Anything else would decide it differently.
            return match &current.decision {
                Some(decided) if decided.outcome == request.outcome && decided.new_decision == request.new_decision => {
                    Ok(Checked::Stands(current))
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
        // The committee changes the ruling in force (Law 93B1), on the same deal as the one appealed.
        let in_force = self.ruling_in_force(&row, &current).await?;
        let ruling: pb::Ruling = decode("ruling", &in_force.ruling)?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy_row = store::policy_version(&self.db, ruling_row.policy_version).await?;
        let policy = store::policy_rules(&policy_row)?;
        let members: Vec<&str> = request.committee_member_ids.iter().map(String::as_str).collect();
        crate::procedure::check_bench(form, &current, decision.bench, &policy_row)?;
        if decision.bench == Bench::Committee {
            let named = Named {
                appeal_id: &row.appeal_id,
                ruling_row: &ruling_row,
                parties: &parties,
                policy: &policy,
                members: &members,
                corrected_by: (in_force.ruling_id != ruling_row.ruling_id).then_some(in_force.ruled_by.as_str()),
            };
            self.check_panel(Sitting::Decision, principal, &named).await?;
        } else {
            super::director::impartial_director(form, &members, &parties, &ruling_row.ruled_by)?;
        }
        let dissenting: Vec<&str> = request.dissenting_member_ids.iter().map(String::as_str).collect();
        laws::appeals::check_votes(form, &members, &dissenting).map_err(ServiceError::rule)?;
        let sat = current.hearing.as_ref().map(|h| h.committee_member_ids.as_slice()).unwrap_or_default();
        if let Some(absent) = request.committee_member_ids.iter().find(|m| !sat.contains(m)) {
            return Err(ServiceError::FailedPrecondition(format!(
                "{absent} did not sit at the hearing of appeal {}; those who heard it decide it",
                row.appeal_id
            )));
        }
        if request.outcome != pb::AppealOutcome::Upheld as i32 {
            laws::appeals::check_committee_may_change(form, ruling_kind("kind", ruling.kind)?)
                .map_err(ServiceError::rule)?;
        }
        let now = Utc::now();
        let mut decided = current;
        decided.status = pb::AppealStatus::Decided as i32;
        decided.version = row.version.unsigned_abs() + 1;
        decided.decision = Some(pb::AppealDecision {
            outcome: request.outcome,
            reasons: (*reasons).to_owned(),
            new_decision: request.new_decision.clone(),
            committee_member_ids: request.committee_member_ids.clone(),
            decided_at: Some(timestamp(now)),
            score_versions: Vec::new(),
            dissenting_member_ids: request.dissenting_member_ids.clone(),
            dissent: request.dissent.trim().to_owned(),
            lacked_merit: request.lacked_merit,
        });
        crate::deposits::settle_on_decision(&mut decided, request.lacked_merit, now);
        let ruling_id = in_force.ruling_id;
        Ok(Checked::Ready { row, target_key: ruling_row.target_key, ruling_id, ruling, parties, decided, now })
    }

    /// A decision that changes no score, recorded at once with its notice.
    async fn decide_now(
        &self,
        book: u64,
        decision: &Decided<'_>,
    ) -> Result<runtime::Decision<Book, pb::DecideAppealResponse>, ServiceError> {
        let (row, target_key, parties, decided, now) = match self.check_decision(decision).await? {
            Checked::Stands(current) => {
                return Ok(runtime::Decision::Unchanged(pb::DecideAppealResponse { appeal: Some(current) }));
            }
            Checked::Ready { row, target_key, parties, decided, now, .. } => (row, target_key, parties, decided, now),
        };
        let event = pb::appeal_event::Event::AppealDecided(decided.clone());
        let by = (decision.principal.subject.as_str(), now);
        let (notice, update) = appeal_moved(by, &row, &target_key, parties.everyone(), &decided, event);
        Ok(Book::change(book, Some(notice), vec![update], pb::DecideAppealResponse { appeal: Some(decided) }))
    }

    /// A decision that changes the score, parked on its appeal with the call it owes the scoring
    /// service (the book's version stays: no notice until the score has changed). False when the
    /// appeal was decided the same way meanwhile.
    async fn park_decision(
        &self,
        book: u64,
        decision: &Decided<'_>,
        change: &scoring_pb::apply_adjustment_request::Change,
        outcome: pb::AppealOutcome,
    ) -> Result<runtime::Decision<Book, bool>, ServiceError> {
        let (row, ruling_id, ruling, parties, decided, now) = match self.check_decision(decision).await? {
            Checked::Stands(_) => return Ok(runtime::Decision::Unchanged(false)),
            Checked::Ready { row, ruling_id, ruling, parties, decided, now, .. } => {
                (row, ruling_id, ruling, parties, decided, now)
            }
        };
        let form = parties.form.form();
        let law = if form.is_duplicate() { laws::Law::duplicate(93, "B3") } else { laws::Law::club_appeals() };
        let call = scoring_pb::ApplyAdjustmentRequest {
            ruling_id,
            appeal_id: row.appeal_id.clone(),
            target: ruling.deal.as_ref().and_then(|d| d.score_target.clone()),
            change: Some(change.clone()),
            reason: format!("appeal {} {}: {}", row.appeal_id, outcome_word(outcome), decision.reasons),
            law: Some(law.into()),
        };
        let (scope, key, hash) = decision.key;
        let rows = vec![
            Row::ParkDecision {
                appeal_id: row.appeal_id.clone(),
                from_version: row.version,
                decided: encode(&decided),
                key: (scope.to_owned(), key.to_owned(), hash.to_owned()),
            },
            self.owe(TOPIC_DECISION, &row.appeal_id, &call, now),
        ];
        Ok(Book::change(book, None, rows, true))
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
}

fn outcome_word(outcome: pb::AppealOutcome) -> &'static str {
    match outcome {
        pb::AppealOutcome::Upheld => "upheld the ruling",
        pb::AppealOutcome::Overruled => "overruled the ruling",
        pb::AppealOutcome::Varied => "varied the ruling",
        pb::AppealOutcome::Unspecified => "decided",
    }
}

/// A decision as the committee gives it.
struct Decided<'a> {
    principal: &'a Principal,
    request: &'a pb::DecideAppealRequest,
    reasons: &'a str,
    /// The command's idempotency scope, key and request hash.
    key: (&'a str, &'a str, &'a str),
    /// Who decides: the committee, or the Director in charge (Law 93A).
    bench: Bench,
}

/// The appeal as a decision finds it.
#[allow(clippy::large_enum_variant)] // made once per attempt, never stored
enum Checked {
    /// Decided already, the same way.
    Stands(pb::Appeal),
    /// Ready to be decided.
    Ready {
        row: appeal::Model,
        target_key: String,
        /// The ruling in force, which the decision changes (Law 93B1).
        ruling_id: String,
        ruling: pb::Ruling,
        parties: Parties,
        decided: pb::Appeal,
        now: chrono::DateTime<Utc>,
    },
}
