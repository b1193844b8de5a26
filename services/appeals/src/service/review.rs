//! The stages of an appeal around the committee's hearing, as the club's policy arranges them
//! (`laws::appeal_procedure`): the Director in charge's review of an appeal on a point of law
//! before the committee hears it (duplicate Law 93B1), and a decided appeal taken further beyond
//! the club, with its status as the body reports it (Law 93C). A refusal under the policy names
//! the policy version that applied (the one in force when the ruling was recorded). A further
//! appeal's changed decision reaches the score in `further`.

mod further;

use api::appeals::v1 as pb;
use chrono::Utc;
use laws::appeal_procedure::{check_further_appeal, check_review_done, check_reviewable, review_required};
use platform::ServiceError;
use platform::auth::{Principal, Role};

use super::rows::appeal_moved;
use super::{Appeals, required_text};
use crate::book::Book;
use crate::entity::{appeal, policy, ruling};
use crate::procedure::{bench_of, options_of};
use crate::records::{Parties, decode, ruling_kind, timestamp};
use crate::store;

/// The id of the ruling in force for `appeal` (see [`Appeals::ruling_in_force`]): the one the
/// review put in force, or the ruling appealed (also for an appeal recorded before it was kept).
pub(super) fn in_force_id<'a>(row: &'a appeal::Model, appeal: &'a pb::Appeal) -> &'a str {
    let corrected = appeal.review.as_ref().map(|r| r.corrected_ruling_id.trim()).unwrap_or_default();
    if !corrected.is_empty() {
        corrected
    } else if !appeal.ruling_in_force_id.is_empty() {
        &appeal.ruling_in_force_id
    } else {
        &row.ruling_id
    }
}

/// An appeal as a stage finds it: its row and record, its ruling, who it concerns, and the policy
/// in force when the ruling was recorded.
struct Found {
    row: appeal::Model,
    appeal: pb::Appeal,
    ruling_row: ruling::Model,
    parties: Parties,
    policy_row: policy::Model,
}

impl Appeals {
    async fn found(&self, appeal_id: &str, expected_version: Option<u64>) -> Result<Found, ServiceError> {
        let row = self.appeal_row(appeal_id).await?;
        if let Some(expected) = expected_version
            && row.version.unsigned_abs() != expected
        {
            return Err(ServiceError::Conflict(format!(
                "appeal {} is at version {}, not {expected}; read it again",
                row.appeal_id, row.version
            )));
        }
        let appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let policy_row = store::policy_version(&self.db, ruling_row.policy_version).await?;
        Ok(Found { row, appeal, ruling_row, parties, policy_row })
    }

    /// The ruling in force for an appeal: the corrected ruling the Director in charge's review
    /// put in force (Law 93B1), or else the ruling appealed. The committee's decision is applied
    /// relative to it.
    pub(super) async fn ruling_in_force(
        &self,
        row: &appeal::Model,
        appeal: &pb::Appeal,
    ) -> Result<ruling::Model, ServiceError> {
        self.recorded_ruling(in_force_id(row, appeal)).await
    }

    /// Refuses the committee's hearing of an appeal the Director in charge must review first
    /// (Law 93B1), naming the policy that holds the review.
    pub(super) async fn check_reviewed(
        &self,
        ruling_row: &ruling::Model,
        appeal: &pb::Appeal,
    ) -> Result<(), ServiceError> {
        let policy_row = store::policy_version(&self.db, ruling_row.policy_version).await?;
        let options = options_of(&policy_row)?;
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let form = Parties::from_json(&ruling_row.parties)?.form.form();
        let required = review_required(form, bench_of(appeal), &options, ruling_kind("kind", ruling.kind)?);
        check_review_done(required, appeal.review.is_some())
            .map_err(|refusal| store::refused_under(&policy_row, refusal))
    }

    /// Records the Director in charge's review of a filed appeal (Law 93B1).
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, director = %principal.subject))]
    pub async fn review_appeal(
        &self,
        principal: &Principal,
        request: pb::ReviewAppealRequest,
    ) -> Result<pb::ReviewAppealResponse, ServiceError> {
        if !principal.has(Role::Arbiter) {
            return Err(ServiceError::PermissionDenied(format!(
                "{} is not a director; the Director in charge reviews an appeal (Law 93B1)",
                principal.subject
            )));
        }
        let outcome = pb::ReviewOutcome::try_from(request.outcome)
            .ok()
            .filter(|o| *o != pb::ReviewOutcome::Unspecified)
            .ok_or_else(|| ServiceError::invalid("outcome", "confirmed or corrected is required"))?;
        let corrected = request.corrected_ruling_id.trim();
        match (outcome, corrected.is_empty()) {
            (pb::ReviewOutcome::Corrected, true) => {
                return Err(ServiceError::invalid(
                    "corrected_ruling_id",
                    "required when corrected: record the corrected ruling on the deal, then name it",
                ));
            }
            (pb::ReviewOutcome::Confirmed, false) => {
                return Err(ServiceError::invalid("corrected_ruling_id", "a confirmed ruling names no correction"));
            }
            _ => {}
        }
        let reasons = required_text("reasons", &request.reasons, "the director's reasons")?.to_owned();
        let (request, reasons) = (&request, reasons.as_str());
        self.on_book(None, |book| async move {
            let Found { row, mut appeal, ruling_row, parties, policy_row } =
                self.found(&request.appeal_id, Some(request.expected_version)).await?;
            if row.status != "filed" {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is {}; the Director in charge reviews an appeal before the committee hears it (Law 93B1)",
                    row.appeal_id, row.status
                )));
            }
            if appeal.review.is_some() {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} was already reviewed; his ruling may now be appealed to the committee (Law 93B1)",
                    row.appeal_id
                )));
            }
            let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
            let form = parties.form.form();
            let options = options_of(&policy_row)?;
            check_reviewable(form, bench_of(&appeal), &options, ruling_kind("kind", ruling.kind)?)
                .map_err(|refusal| store::refused_under(&policy_row, refusal))?;
            let corrected_ruling_id = request.corrected_ruling_id.trim();
            if !corrected_ruling_id.is_empty() {
                let correction = self.recorded_ruling(corrected_ruling_id).await?;
                if correction.target_key != ruling_row.target_key || correction.ruled_at <= ruling_row.ruled_at {
                    return Err(ServiceError::FailedPrecondition(format!(
                        "ruling {corrected_ruling_id} is not a later ruling on the same deal as ruling {}; a \
                         correction is recorded on the deal after the ruling appealed",
                        ruling_row.ruling_id
                    )));
                }
            }
            let now = Utc::now();
            // The corrected ruling is the one in force for the appeal from now on (Law 93B1: "His
            // ruling may be appealed to the committee"); it reached the score when it was recorded.
            appeal.ruling_in_force_id =
                if corrected_ruling_id.is_empty() { row.ruling_id.clone() } else { corrected_ruling_id.to_owned() };
            appeal.review = Some(pb::DirectorReview {
                director_id: principal.subject.clone(),
                outcome: request.outcome,
                reasons: reasons.to_owned(),
                corrected_ruling_id: corrected_ruling_id.to_owned(),
                reviewed_at: Some(timestamp(now)),
            });
            appeal.version = row.version.unsigned_abs() + 1;
            let event = pb::appeal_event::Event::AppealReviewed(appeal.clone());
            let by = (principal.subject.as_str(), now);
            let (notice, update) = appeal_moved(by, &row, &ruling_row.target_key, parties.everyone(), &appeal, event);
            Ok(Book::change(book, Some(notice), vec![update], pb::ReviewAppealResponse { appeal: Some(appeal) }))
        })
        .await
    }

    /// Takes a decided appeal further, to the body the club's policy names (Law 93C1), or refers
    /// it there (Law 93C2).
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, caller = %principal.subject))]
    pub async fn file_further_appeal(
        &self,
        principal: &Principal,
        request: pb::FileFurtherAppealRequest,
    ) -> Result<pb::FileFurtherAppealResponse, ServiceError> {
        let staff = principal.has_any(&[Role::Arbiter, Role::Committee]);
        let given = request.appellant_player_id.trim();
        let appellant = if staff {
            given.to_owned()
        } else if given.is_empty() || given == principal.subject {
            principal.subject.clone()
        } else {
            return Err(ServiceError::PermissionDenied(format!(
                "{} may take an appeal further only for himself; the director files for another player",
                principal.subject
            )));
        };
        let grounds = required_text("grounds", &request.grounds, "the grounds of the further appeal")?.to_owned();
        let (request, appellant, grounds) = (&request, appellant.as_str(), grounds.as_str());
        self.on_book(None, |book| async move {
            let Found { row, mut appeal, ruling_row, parties, policy_row } =
                self.found(&request.appeal_id, Some(request.expected_version)).await?;
            if !appellant.is_empty() && !parties.includes(appellant) {
                return Err(ServiceError::FailedPrecondition(format!(
                    "{appellant} was not a party to the deal of appeal {}; a party takes it further, or the director \
                     or the committee refers it (Law 93C)",
                    row.appeal_id
                )));
            }
            let options = options_of(&policy_row)?;
            let body = check_further_appeal(parties.form.form(), &options, row.status == "decided")
                .map_err(|refusal| store::refused_under(&policy_row, refusal))?;
            if let Some(further) = &appeal.further_appeal {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} was already taken further to {}",
                    row.appeal_id, further.body
                )));
            }
            let now = Utc::now();
            appeal.further_appeal = Some(pb::FurtherAppeal {
                body: body.to_owned(),
                appellant_player_id: appellant.to_owned(),
                filed_by: principal.subject.clone(),
                grounds: grounds.to_owned(),
                filed_at: Some(timestamp(now)),
                status: pb::FurtherAppealStatus::Filed as i32,
                note: String::new(),
                updated_at: Some(timestamp(now)),
                new_decision: None,
                score_versions: Vec::new(),
            });
            appeal.version = row.version.unsigned_abs() + 1;
            let event = pb::appeal_event::Event::AppealTakenFurther(appeal.clone());
            let by = (principal.subject.as_str(), now);
            let (notice, update) = appeal_moved(by, &row, &ruling_row.target_key, parties.everyone(), &appeal, event);
            Ok(Book::change(book, Some(notice), vec![update], pb::FileFurtherAppealResponse { appeal: Some(appeal) }))
        })
        .await
    }

    /// Records where a further appeal stands, as the body it went to reports it.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, caller = %principal.subject))]
    pub async fn record_further_appeal_status(
        &self,
        principal: &Principal,
        request: pb::RecordFurtherAppealStatusRequest,
    ) -> Result<pb::RecordFurtherAppealStatusResponse, ServiceError> {
        use pb::FurtherAppealStatus as Status;
        let status = match Status::try_from(request.status) {
            Ok(Status::Unspecified | Status::Filed) | Err(_) => {
                return Err(ServiceError::invalid(
                    "status",
                    "accepted, declined, upheld, changed or withdrawn is required (filed is recorded by filing it)",
                ));
            }
            Ok(status) => status,
        };
        match (status, request.new_decision.is_some()) {
            (Status::Changed, false) => {
                super::adjustment_of("new_decision", None)?;
            }
            (Status::Changed, true) => {
                super::adjustment_of("new_decision", request.new_decision.as_ref())?;
            }
            (_, true) => {
                return Err(ServiceError::invalid(
                    "new_decision",
                    "only a changed decision names the decision in force",
                ));
            }
            _ => {}
        }
        let note = request.note.trim().to_owned();
        if status == Status::Changed {
            // The decision the body put in force reaches the score (Law 93C2).
            return self.record_further_change(principal, &request, &note).await;
        }
        let (request, note) = (&request, note.as_str());
        self.on_book(None, |book| async move {
            let Found { row, mut appeal, ruling_row, parties, .. } =
                self.found(&request.appeal_id, Some(request.expected_version)).await?;
            let Some(further) = appeal.further_appeal.as_mut() else {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} was not taken further; file the further appeal first",
                    row.appeal_id
                )));
            };
            if row.pending_appeal.is_some() {
                return Err(ServiceError::Conflict(format!(
                    "a decision on appeal {} is being applied to the score; read it again shortly",
                    row.appeal_id
                )));
            }
            let settled = [Status::Declined, Status::Upheld, Status::Changed, Status::Withdrawn];
            if settled.iter().any(|s| *s as i32 == further.status) {
                return Err(ServiceError::FailedPrecondition(format!(
                    "the further appeal of appeal {} to {} is settled; its outcome stands",
                    row.appeal_id, further.body
                )));
            }
            let now = Utc::now();
            further.status = status as i32;
            note.clone_into(&mut further.note);
            further.updated_at = Some(timestamp(now));
            further.new_decision.clone_from(&request.new_decision);
            appeal.version = row.version.unsigned_abs() + 1;
            let event = pb::appeal_event::Event::AppealTakenFurther(appeal.clone());
            let by = (principal.subject.as_str(), now);
            let (notice, update) = appeal_moved(by, &row, &ruling_row.target_key, parties.everyone(), &appeal, event);
            let answer = pb::RecordFurtherAppealStatusResponse { appeal: Some(appeal) };
            Ok(Book::change(book, Some(notice), vec![update], answer))
        })
        .await
    }
}
