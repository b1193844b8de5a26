//! A further appeal's changed decision applied to the score (duplicate Law 93C2: the Regulating
//! Authority "has authority to resolve any matter finally"). When the body reports that it changed
//! the decision, the decision it put in force replaces the one standing at the club (the
//! committee's, or the ruling in force when the committee upheld it) and reaches the score the way
//! a committee's decision does: parked on the appeal with the call it owes the scoring service,
//! then recorded with the score version and a notice to the parties and every player whose score
//! moved (see [`crate::delivery`]). A retry of the same changed status answers what was recorded
//! and changes the score once. The call goes under the ruling in force and the appeal's id marked
//! as its further appeal's (`<appeal>/further`), so that the scoring service, idempotent by
//! ruling and appeal id, tells it apart from the committee's own decision on the same appeal.

use api::appeals::v1 as pb;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;
use platform::runtime::Decision;

use super::in_force_id;
use crate::book::{Book, Row};
use crate::delivery::{Delivered, TOPIC_FURTHER};
use crate::entity::appeal;
use crate::records::{Parties, decode, encode, request_hash, timestamp};
use crate::service::rows::appeal_moved;
use crate::service::{Appeals, adjustment_of};
use crate::store;

type Change = scoring_pb::apply_adjustment_request::Change;

/// The appeal as the changed status finds it.
#[allow(clippy::large_enum_variant)] // made once per attempt, never stored
enum Found {
    /// Recorded already with the same decision in force: nothing to do.
    Stands(pb::Appeal),
    /// Ready: its row, the appeal as it will stand, and who it concerns.
    Ready { row: appeal::Model, changed: pb::Appeal, target_key: String, parties: Parties },
}

impl Appeals {
    /// Records that the body a decided appeal went to changed its decision, and applies the
    /// decision it put in force to the score (see the module docs).
    pub(super) async fn record_further_change(
        &self,
        principal: &Principal,
        request: &pb::RecordFurtherAppealStatusRequest,
        note: &str,
    ) -> Result<pb::RecordFurtherAppealStatusResponse, ServiceError> {
        let scope = format!("appeals.RecordFurtherAppealStatus/{}", principal.subject);
        let key = format!("further/{}", request.appeal_id);
        let hash = request_hash(request);
        let row = self.appeal_row(&request.appeal_id).await?;
        if row.pending_appeal.is_some() {
            if row.pending_scope.as_deref() == Some(scope.as_str())
                && row.pending_key.as_deref() == Some(key.as_str())
                && row.pending_hash.as_deref() == Some(hash.as_str())
            {
                return self.resume_further(&row, &scope, &key, &hash).await;
            }
            return Err(ServiceError::Conflict(format!(
                "a decision on appeal {} is being applied to the score; read it again shortly",
                row.appeal_id
            )));
        }
        let appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        let Some(change) = self.further_change(&row, &appeal, request.new_decision.as_ref()).await? else {
            return self.on_book(None, |book| self.further_now(book, principal, request, note)).await;
        };
        let (change, key_triple) = (&change, (scope.as_str(), key.as_str(), hash.as_str()));
        let parked: bool =
            self.on_book(None, |book| self.park_further(book, request, note, change, key_triple)).await?;
        if !parked {
            let current: pb::Appeal = decode("appeal", &self.appeal_row(&request.appeal_id).await?.appeal)?;
            return Ok(pb::RecordFurtherAppealStatusResponse { appeal: Some(current) });
        }
        let outbox_id = self
            .undelivered(TOPIC_FURTHER, &request.appeal_id)
            .await?
            .ok_or_else(|| ServiceError::internal("a parked further appeal owes the scoring service nothing"))?;
        match self.deliver(outbox_id).await? {
            Delivered::Further(answer) => Ok(*answer),
            _ => Err(ServiceError::internal("a further appeal's delivery answered otherwise")),
        }
    }

    /// What the score owes the body's decision: its adjusted score, or the table result back when
    /// the decision standing at the club adjusted the score and the body's adjusts nothing.
    async fn further_change(
        &self,
        row: &appeal::Model,
        appeal: &pb::Appeal,
        new_decision: Option<&pb::RulingDecision>,
    ) -> Result<Option<Change>, ServiceError> {
        let new_adjustment = adjustment_of("new_decision", new_decision)?;
        let standing = match &appeal.decision {
            Some(decided) if decided.outcome != pb::AppealOutcome::Upheld as i32 => decided.new_decision.clone(),
            _ => decode::<pb::Ruling>("ruling", &self.ruling_in_force(row, appeal).await?.ruling)?.decision,
        };
        let standing_adjusted = adjustment_of("decision", standing.as_ref()).ok().flatten().is_some();
        Ok(match new_adjustment {
            Some(adjustment) => Some(Change::Adjustment(adjustment)),
            None if standing_adjusted => Some(Change::RestoreTableResult(scoring_pb::RestoreTableResult {})),
            None => None,
        })
    }

    /// The appeal as the changed status finds it (see [`Found`]).
    async fn found_further(
        &self,
        request: &pb::RecordFurtherAppealStatusRequest,
        note: &str,
    ) -> Result<Found, ServiceError> {
        use pb::FurtherAppealStatus as Status;
        let row = self.appeal_row(&request.appeal_id).await?;
        let mut appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        let Some(further) = appeal.further_appeal.as_mut() else {
            return Err(ServiceError::FailedPrecondition(format!(
                "appeal {} was not taken further; file the further appeal first",
                row.appeal_id
            )));
        };
        if further.status == Status::Changed as i32 && further.new_decision == request.new_decision {
            return Ok(Found::Stands(appeal));
        }
        let settled = [Status::Declined, Status::Upheld, Status::Changed, Status::Withdrawn];
        if settled.iter().any(|s| *s as i32 == further.status) {
            return Err(ServiceError::FailedPrecondition(format!(
                "the further appeal of appeal {} to {} is settled; its outcome stands",
                row.appeal_id, further.body
            )));
        }
        if row.version.unsigned_abs() != request.expected_version {
            return Err(ServiceError::Conflict(format!(
                "appeal {} is at version {}, not {}; read it again",
                row.appeal_id, row.version, request.expected_version
            )));
        }
        if row.pending_appeal.is_some() {
            return Err(ServiceError::Conflict(format!(
                "a decision on appeal {} is being applied to the score; read it again shortly",
                row.appeal_id
            )));
        }
        further.status = Status::Changed as i32;
        note.clone_into(&mut further.note);
        further.updated_at = Some(timestamp(Utc::now()));
        further.new_decision.clone_from(&request.new_decision);
        appeal.version = row.version.unsigned_abs() + 1;
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        Ok(Found::Ready { row, changed: appeal, target_key: ruling_row.target_key, parties })
    }

    /// A changed decision that changes no score, recorded at once with its notice.
    async fn further_now(
        &self,
        book: u64,
        principal: &Principal,
        request: &pb::RecordFurtherAppealStatusRequest,
        note: &str,
    ) -> Result<Decision<Book, pb::RecordFurtherAppealStatusResponse>, ServiceError> {
        let (row, appeal, target_key, parties) = match self.found_further(request, note).await? {
            Found::Stands(current) => {
                return Ok(Decision::Unchanged(pb::RecordFurtherAppealStatusResponse { appeal: Some(current) }));
            }
            Found::Ready { row, changed, target_key, parties } => (row, changed, target_key, parties),
        };
        let event = pb::appeal_event::Event::AppealTakenFurther(appeal.clone());
        let by = (principal.subject.as_str(), Utc::now());
        let (notice, update) = appeal_moved(by, &row, &target_key, parties.everyone(), &appeal, event);
        let answer = pb::RecordFurtherAppealStatusResponse { appeal: Some(appeal) };
        Ok(Book::change(book, Some(notice), vec![update], answer))
    }

    /// A changed decision that changes the score, parked on its appeal with the call it owes the
    /// scoring service. False when it was recorded the same way meanwhile.
    async fn park_further(
        &self,
        book: u64,
        request: &pb::RecordFurtherAppealStatusRequest,
        note: &str,
        change: &Change,
        (scope, key, hash): (&str, &str, &str),
    ) -> Result<Decision<Book, bool>, ServiceError> {
        let (row, appeal) = match self.found_further(request, note).await? {
            Found::Stands(_) => return Ok(Decision::Unchanged(false)),
            Found::Ready { row, changed, .. } => (row, changed),
        };
        let in_force = self.recorded_ruling(in_force_id(&row, &appeal)).await?;
        let ruling: pb::Ruling = decode("ruling", &in_force.ruling)?;
        let body = appeal.further_appeal.as_ref().map(|f| f.body.as_str()).unwrap_or_default();
        let call = scoring_pb::ApplyAdjustmentRequest {
            ruling_id: in_force.ruling_id.clone(),
            appeal_id: format!("{}/further", row.appeal_id),
            target: ruling.deal.as_ref().and_then(|d| d.score_target.clone()),
            change: Some(change.clone()),
            reason: format!("appeal {} taken further: {body} changed the decision ({note})", row.appeal_id),
            law: Some(laws::Law::duplicate(93, "C2").into()),
        };
        let rows = vec![
            Row::ParkDecision {
                appeal_id: row.appeal_id.clone(),
                from_version: row.version,
                decided: encode(&appeal),
                key: (scope.to_owned(), key.to_owned(), hash.to_owned()),
            },
            self.owe(TOPIC_FURTHER, &row.appeal_id, &call, Utc::now()),
        ];
        Ok(Book::change(book, None, rows, true))
    }

    /// Answers a retry of a changed status whose first attempt left it being applied.
    async fn resume_further(
        &self,
        row: &appeal::Model,
        scope: &str,
        key: &str,
        hash: &str,
    ) -> Result<pb::RecordFurtherAppealStatusResponse, ServiceError> {
        if let Some(outbox_id) = self.undelivered(TOPIC_FURTHER, &row.appeal_id).await?
            && let Delivered::Further(answer) = self.deliver(outbox_id).await?
        {
            return Ok(*answer);
        }
        store::stored_response(&self.db, scope, key, hash).await?.ok_or_else(|| {
            ServiceError::Unavailable(format!("appeal {}'s further appeal is being applied; retry", row.appeal_id))
        })
    }
}
