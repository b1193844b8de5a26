//! Reading rulings, appeals, the policy and a score's audit trail. A player sees the rulings and
//! appeals of deals they played (or whose contestant they belong to); the desk, the arbiters, the
//! committee and the administration see all.

use std::collections::BTreeMap;

use api::appeals::v1 as pb;
use platform::ServiceError;
use platform::auth::Principal;
use platform::page::Keyset;
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::{appeal, ruling, ruling_party};
use crate::records::{Parties, decode, score_owner, target_key};
use crate::service::{Appeals, sees_everything};
use crate::store;

/// The player a list is restricted to: the one asked for, and for a player their own id.
fn list_player(principal: &Principal, asked: &str) -> Result<Option<String>, ServiceError> {
    if sees_everything(principal) {
        return Ok(Some(asked.to_owned()).filter(|p| !p.is_empty()));
    }
    if !asked.is_empty() && asked != principal.subject {
        return Err(ServiceError::PermissionDenied(format!(
            "{} may list only the rulings and appeals of deals they played",
            principal.subject
        )));
    }
    Ok(Some(principal.subject.clone()))
}

impl Appeals {
    /// A ruling as the contract shows it: its appeals' ids filled in.
    pub(crate) async fn ruling_message(&self, row: &ruling::Model) -> Result<pb::Ruling, ServiceError> {
        let mut ruling: pb::Ruling = decode("ruling", &row.ruling)?;
        ruling.appeal_ids = appeal::Entity::find()
            .filter(appeal::Column::RulingId.eq(&row.ruling_id))
            .order_by_asc(appeal::Column::Sequence)
            .all(&self.db)
            .await?
            .into_iter()
            .map(|a| a.appeal_id)
            .collect();
        Ok(ruling)
    }

    /// Refuses a player who is not a party of the ruling.
    fn check_party(principal: &Principal, row: &ruling::Model) -> Result<(), ServiceError> {
        if sees_everything(principal) || Parties::from_json(&row.parties)?.includes(&principal.subject) {
            Ok(())
        } else {
            Err(ServiceError::PermissionDenied(format!(
                "{} did not play the deal of ruling {}; a player sees the rulings of deals they played",
                principal.subject, row.ruling_id
            )))
        }
    }

    /// A ruling.
    pub async fn get_ruling(
        &self,
        principal: &Principal,
        ruling_id: &str,
    ) -> Result<pb::GetRulingResponse, ServiceError> {
        let row = self.recorded_ruling(ruling_id).await?;
        Self::check_party(principal, &row)?;
        Ok(pb::GetRulingResponse { ruling: Some(self.ruling_message(&row).await?) })
    }

    /// Rulings, newest first.
    pub async fn list_rulings(
        &self,
        principal: &Principal,
        request: pb::ListRulingsRequest,
    ) -> Result<pb::ListRulingsResponse, ServiceError> {
        let page = Keyset::of(request.page.as_ref())?;
        let mut query = ruling::Entity::find().filter(ruling::Column::Status.eq(ruling::RECORDED));
        if let Some(start) = page.before {
            query = query.filter(ruling::Column::Sequence.lt(start));
        }
        if !request.deal_id.is_empty() {
            query = query.filter(ruling::Column::DealId.eq(&request.deal_id));
        }
        if let Some(target) = &request.score_target {
            query = query.filter(ruling::Column::TargetKey.eq(target_key("score_target", target)?));
        }
        if let Some(player) = list_player(principal, &request.player_id)? {
            query = query.filter(
                ruling::Column::RulingId.in_subquery(
                    Query::select()
                        .column(ruling_party::Column::RulingId)
                        .from(ruling_party::Entity)
                        .and_where(ruling_party::Column::PlayerId.eq(player))
                        .to_owned(),
                ),
            );
        }
        let mut rows = query.order_by_desc(ruling::Column::Sequence).limit(page.fetch()).all(&self.db).await?;
        let next = page.response(&mut rows, |r| r.sequence.unwrap_or_default());
        let mut appeals: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for a in appeal::Entity::find()
            .filter(appeal::Column::RulingId.is_in(rows.iter().map(|r| r.ruling_id.clone())))
            .order_by_asc(appeal::Column::Sequence)
            .all(&self.db)
            .await?
        {
            appeals.entry(a.ruling_id).or_default().push(a.appeal_id);
        }
        let rulings = rows
            .iter()
            .map(|row| {
                let mut ruling: pb::Ruling = decode("ruling", &row.ruling)?;
                ruling.appeal_ids = appeals.remove(&row.ruling_id).unwrap_or_default();
                Ok(ruling)
            })
            .collect::<Result<Vec<_>, ServiceError>>()?;
        Ok(pb::ListRulingsResponse { rulings, page: next })
    }

    /// An appeal and its ruling.
    pub async fn get_appeal(
        &self,
        principal: &Principal,
        appeal_id: &str,
    ) -> Result<pb::GetAppealResponse, ServiceError> {
        let row = self.appeal_row(appeal_id).await?;
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        if let Err(refused) = Self::check_party(principal, &ruling_row) {
            // The committee a game's players agreed reads the appeals it hears.
            if !self.sits_for_the_game(&principal.subject, &ruling_row).await? {
                return Err(refused);
            }
        }
        Ok(pb::GetAppealResponse {
            appeal: Some(decode("appeal", &row.appeal)?),
            ruling: Some(self.ruling_message(&ruling_row).await?),
        })
    }

    /// A decided appeal's notice ([`crate::notice`]), for whoever may read the appeal.
    pub async fn decision_notice(
        &self,
        principal: &Principal,
        appeal_id: &str,
    ) -> Result<pb::GetDecisionNoticeResponse, ServiceError> {
        let read = self.get_appeal(principal, appeal_id).await?;
        let (Some(appeal), Some(ruling)) = (read.appeal, read.ruling) else {
            return Err(ServiceError::internal(format!("appeal {appeal_id} read without its ruling")));
        };
        if appeal.decision.is_none() {
            return Err(ServiceError::FailedPrecondition(format!(
                "appeal {appeal_id} is not decided yet: its notice is written once the committee decides"
            )));
        }
        Ok(pb::GetDecisionNoticeResponse { html: crate::notice::render(&appeal, &ruling) })
    }

    /// Appeals, newest first.
    pub async fn list_appeals(
        &self,
        principal: &Principal,
        request: pb::ListAppealsRequest,
    ) -> Result<pb::ListAppealsResponse, ServiceError> {
        let page = Keyset::of(request.page.as_ref())?;
        let mut query = appeal::Entity::find();
        if let Some(start) = page.before {
            query = query.filter(appeal::Column::Sequence.lt(start));
        }
        match pb::AppealStatus::try_from(request.status) {
            Ok(pb::AppealStatus::Unspecified) => {}
            Ok(status) => query = query.filter(appeal::Column::Status.eq(crate::records::status_name(status))),
            Err(_) => return Err(ServiceError::invalid("status", format!("unknown value {}", request.status))),
        }
        if !request.ruling_id.is_empty() {
            query = query.filter(appeal::Column::RulingId.eq(&request.ruling_id));
        }
        if let Some(player) = list_player(principal, &request.player_id)? {
            query = query.filter(
                appeal::Column::RulingId.in_subquery(
                    Query::select()
                        .column(ruling_party::Column::RulingId)
                        .from(ruling_party::Entity)
                        .and_where(ruling_party::Column::PlayerId.eq(player))
                        .to_owned(),
                ),
            );
        }
        let mut rows = query.order_by_desc(appeal::Column::Sequence).limit(page.fetch()).all(&self.db).await?;
        let next = page.response(&mut rows, |r| r.sequence);
        let appeals = rows.iter().map(|row| decode("appeal", &row.appeal)).collect::<Result<Vec<_>, _>>()?;
        Ok(pb::ListAppealsResponse { appeals, page: next })
    }

    /// The policy in force.
    pub async fn get_policy(&self) -> Result<pb::GetAppealPolicyResponse, ServiceError> {
        let row = store::current_policy(&self.db).await?;
        Ok(pb::GetAppealPolicyResponse { policy: Some(store::policy_message(&row)) })
    }

    /// The chain of score versions, rulings, appeals and decisions behind a score, oldest first:
    /// the score versions from the scoring service, the rest from this service's notices. A
    /// player sees every score version (scores are public in the club) and the rulings and
    /// appeals of deals they played.
    pub async fn score_audit(
        &self,
        principal: &Principal,
        request: pb::GetScoreAuditRequest,
    ) -> Result<pb::GetScoreAuditResponse, ServiceError> {
        use pb::appeal_event::Event;
        use pb::audit_entry::Entry;
        let target = request.target.ok_or_else(|| ServiceError::invalid("target", "required"))?;
        let key = target_key("target", &target)?;
        let owner = score_owner(&target).ok_or_else(|| ServiceError::invalid("target", "required"))?;
        let versions = self.scoring.score_versions(owner, target).await?;
        let mut entries: Vec<pb::AuditEntry> = versions
            .into_iter()
            .map(|version| pb::AuditEntry {
                occurred_at: version.recorded_at,
                actor: version.recorded_by.clone(),
                entry: Some(Entry::ScoreVersion(version)),
            })
            .collect();
        let mut visible: BTreeMap<String, bool> = BTreeMap::new();
        for row in store::events_of_target(&self.db, &key).await? {
            if !sees_everything(principal) {
                let may_see = match visible.get(&row.ruling_id) {
                    Some(may_see) => *may_see,
                    None => {
                        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
                        let may_see = Parties::from_json(&ruling_row.parties)?.includes(&principal.subject);
                        visible.insert(row.ruling_id.clone(), may_see);
                        may_see
                    }
                };
                if !may_see {
                    continue;
                }
            }
            let notice: pb::AppealEvent = decode("notice", &row.event)?;
            let entry = match notice.event {
                Some(Event::RulingRecorded(ruling)) => Entry::Ruling(ruling),
                Some(Event::AppealFiled(appeal)) => Entry::AppealFiled(appeal),
                Some(Event::AppealHeard(appeal)) => Entry::AppealHeard(appeal),
                Some(Event::AppealDecided(appeal)) => Entry::AppealDecided(appeal),
                Some(Event::AppealWithdrawn(appeal)) => Entry::AppealWithdrawn(appeal),
                Some(Event::AppealReviewed(appeal)) => Entry::AppealReviewed(appeal),
                Some(Event::AppealTakenFurther(appeal)) => Entry::AppealTakenFurther(appeal),
                None => continue,
            };
            entries.push(pb::AuditEntry { occurred_at: notice.occurred_at, actor: row.actor, entry: Some(entry) });
        }
        // Oldest first; the sort is stable, so a score version made by a ruling or decision comes
        // before the notice that recorded it when they share a timestamp.
        entries.sort_by_key(|e| e.occurred_at.map(|t| (t.seconds, t.nanos)));
        Ok(pb::GetScoreAuditResponse { entries })
    }
}
