//! Publishing the club's appeal policy. Kept apart: only the administration changes it, and it
//! applies to rulings made afterwards.

use api::appeals::v1 as pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;
use sea_orm::{EntityTrait, TransactionTrait};

use super::Appeals;
use crate::records::from_duration;
use crate::store;

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
