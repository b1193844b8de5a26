//! The Director in charge hearing and deciding an appeal the club has no Appeals Committee for
//! (duplicate Law 93A: he "shall hear and rule upon all appeals if there is no Appeals
//! Committee"). The hearing and the decision are the committee's commands with the director as
//! the one member sitting (`Bench::DirectorInCharge`): the same records, the same notices, the
//! same way to the score. Having given the ruling does not bar him
//! (`laws::appeal_procedure::bars`).

use api::appeals::v1 as pb;
use laws::appeal_procedure::{Bench, bars};
use laws::appeals::{AppealForm, Conflict};
use platform::ServiceError;
use platform::auth::{Principal, Role};

use super::Appeals;
use crate::records::Parties;

impl Appeals {
    /// Records the Director in charge's hearing of an appeal under Law 93A.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, director = %principal.subject))]
    pub async fn director_hear_appeal(
        &self,
        principal: &Principal,
        request: pb::DirectorHearAppealRequest,
    ) -> Result<pb::DirectorHearAppealResponse, ServiceError> {
        require_director(principal)?;
        let hearing = pb::HearAppealRequest {
            appeal_id: request.appeal_id,
            expected_version: request.expected_version,
            hearing: Some(pb::Hearing {
                committee_member_ids: vec![principal.subject.clone()],
                statements: request.statements,
                notes: request.notes,
                heard_at: None,
                duration: None,
            }),
        };
        let heard = self.hear_appeal_on(principal, hearing, Bench::DirectorInCharge).await?;
        Ok(pb::DirectorHearAppealResponse { appeal: heard.appeal })
    }

    /// Records the Director in charge's decision on an appeal he heard under Law 93A.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, director = %principal.subject))]
    pub async fn director_decide_appeal(
        &self,
        principal: &Principal,
        request: pb::DirectorDecideAppealRequest,
    ) -> Result<pb::DirectorDecideAppealResponse, ServiceError> {
        require_director(principal)?;
        #[allow(
            clippy::needless_update,
            reason = "the committee's request may gain fields the director's command does not give"
        )]
        let decision = pb::DecideAppealRequest {
            idempotency_key: request.idempotency_key,
            appeal_id: request.appeal_id,
            outcome: request.outcome,
            new_decision: request.new_decision,
            reasons: request.reasons,
            committee_member_ids: vec![principal.subject.clone()],
            dissenting_member_ids: Vec::new(),
            dissent: String::new(),
            lacked_merit: request.lacked_merit,
            ..Default::default()
        };
        let decided = self.decide_appeal_on(principal, decision, Bench::DirectorInCharge).await?;
        Ok(pb::DirectorDecideAppealResponse { appeal: decided.appeal })
    }
}

/// The contract lets only the arbiter role call the director's commands; a caller reaching them
/// otherwise (the service used directly) is refused the same way.
fn require_director(principal: &Principal) -> Result<(), ServiceError> {
    if principal.has(Role::Arbiter) {
        Ok(())
    } else {
        Err(ServiceError::PermissionDenied(format!(
            "{} is not a director; the Director in charge hears an appeal without a committee (Law 93A)",
            principal.subject
        )))
    }
}

/// Refuses the director when he is a party to the deal or a member of a contestant concerned; his
/// having given the ruling does not bar him (`laws::appeal_procedure::bars`).
pub(super) fn impartial_director(
    form: AppealForm,
    members: &[&str],
    parties: &Parties,
    ruled_by: &str,
) -> Result<(), ServiceError> {
    let conflicts = parties.conflicts(ruled_by);
    let conflicted: Vec<(&str, Conflict)> = conflicts
        .iter()
        .filter(|(_, conflict)| bars(Bench::DirectorInCharge, *conflict))
        .map(|(who, conflict)| (who.as_str(), *conflict))
        .collect();
    laws::appeals::check_impartial(form, members, &conflicted).map_err(ServiceError::rule)
}
