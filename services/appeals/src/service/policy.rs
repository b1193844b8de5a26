//! Publishing the club's appeal policy. Kept apart: only the administration changes it, and it
//! applies to rulings made afterwards.

use super::Appeals;
use crate::book::{Book, Row};
use crate::records::from_duration;
use crate::store;
use api::appeals::v1 as pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;

impl Appeals {
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
        let procedure = crate::procedure::options_given(given.procedure.as_ref())?;
        let (rules, expected, procedure) = (&rules, request.expected_version, &procedure);
        let version: i64 = self
            .on_book(None, |book| async move {
                let current = store::current_policy(&self.db).await?;
                if current.version.unsigned_abs() != expected {
                    return Err(ServiceError::Conflict(format!(
                        "the appeal policy is at version {}, not {expected}; read it again",
                        current.version
                    )));
                }
                let mut row = store::policy_row(current.version + 1, rules, Utc::now(), &principal.subject);
                row.procedure = sea_orm::ActiveValue::Set(procedure.clone());
                // A policy applies to rulings made afterwards: it adds no notice, and its own
                // version (the row's key) settles a race with another change of it.
                Ok(Book::change(book, None, vec![Row::InsertPolicy(Box::new(row))], current.version + 1))
            })
            .await?;
        let published = store::policy_version(&self.db, version).await?;
        Ok(pb::UpdateAppealPolicyResponse { policy: Some(store::policy_message(&published)) })
    }
}
