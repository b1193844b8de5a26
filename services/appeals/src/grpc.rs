//! The gRPC face of the appeals service: takes the caller's principal (the contract's roles were
//! checked before the handler), notes committee members, and hands the request to
//! [`crate::service::Appeals`]; errors become statuses through `platform::ServiceError`.

use std::sync::Arc;

use api::appeals::v1 as pb;
use api::appeals::v1::appeals_service_server::AppealsService;
use platform::ServiceError;
use platform::auth::Principal;
use tonic::{Request, Response, Status};

use crate::service::Appeals;
use crate::watch::{NoticeStream, watch};

/// The service the server mounts. Dropping it (the server shut down) stops the delivery worker.
#[derive(Debug, Clone)]
pub struct AppealsGrpc {
    appeals: Arc<Appeals>,
    _worker: Arc<()>,
}

impl AppealsGrpc {
    /// Serves `appeals`; `worker` is what keeps its delivery worker running until dropped.
    pub fn new(appeals: Arc<Appeals>, worker: Arc<()>) -> Self {
        AppealsGrpc { appeals, _worker: worker }
    }

    /// The caller, after noting a committee member (see `store::note_committee_member`).
    async fn caller<T>(&self, request: &Request<T>) -> Result<Principal, Status> {
        let principal = Principal::of(request)?.clone();
        self.appeals.note_committee_member(&principal).await?;
        Ok(principal)
    }
}

fn answer<T>(result: Result<T, ServiceError>) -> Result<Response<T>, Status> {
    result.map(Response::new).map_err(Status::from)
}

#[tonic::async_trait]
impl AppealsService for AppealsGrpc {
    async fn record_ruling(
        &self,
        request: Request<pb::RecordRulingRequest>,
    ) -> Result<Response<pb::RecordRulingResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.record_ruling(&principal, request.into_inner()).await)
    }

    async fn get_ruling(
        &self,
        request: Request<pb::GetRulingRequest>,
    ) -> Result<Response<pb::GetRulingResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.get_ruling(&principal, &request.get_ref().ruling_id).await)
    }

    async fn list_rulings(
        &self,
        request: Request<pb::ListRulingsRequest>,
    ) -> Result<Response<pb::ListRulingsResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.list_rulings(&principal, request.into_inner()).await)
    }

    async fn file_appeal(
        &self,
        request: Request<pb::FileAppealRequest>,
    ) -> Result<Response<pb::FileAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.file_appeal(&principal, request.into_inner()).await)
    }

    async fn withdraw_appeal(
        &self,
        request: Request<pb::WithdrawAppealRequest>,
    ) -> Result<Response<pb::WithdrawAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.withdraw_appeal(&principal, request.into_inner()).await)
    }

    async fn hear_appeal(
        &self,
        request: Request<pb::HearAppealRequest>,
    ) -> Result<Response<pb::HearAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.hear_appeal(&principal, request.into_inner()).await)
    }

    async fn decide_appeal(
        &self,
        request: Request<pb::DecideAppealRequest>,
    ) -> Result<Response<pb::DecideAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.decide_appeal(&principal, request.into_inner()).await)
    }

    async fn director_hear_appeal(
        &self,
        request: Request<pb::DirectorHearAppealRequest>,
    ) -> Result<Response<pb::DirectorHearAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.director_hear_appeal(&principal, request.into_inner()).await)
    }

    async fn director_decide_appeal(
        &self,
        request: Request<pb::DirectorDecideAppealRequest>,
    ) -> Result<Response<pb::DirectorDecideAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.director_decide_appeal(&principal, request.into_inner()).await)
    }

    async fn review_appeal(
        &self,
        request: Request<pb::ReviewAppealRequest>,
    ) -> Result<Response<pb::ReviewAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.review_appeal(&principal, request.into_inner()).await)
    }

    async fn file_further_appeal(
        &self,
        request: Request<pb::FileFurtherAppealRequest>,
    ) -> Result<Response<pb::FileFurtherAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.file_further_appeal(&principal, request.into_inner()).await)
    }

    async fn record_further_appeal_status(
        &self,
        request: Request<pb::RecordFurtherAppealStatusRequest>,
    ) -> Result<Response<pb::RecordFurtherAppealStatusResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.record_further_appeal_status(&principal, request.into_inner()).await)
    }

    async fn get_appeal(
        &self,
        request: Request<pb::GetAppealRequest>,
    ) -> Result<Response<pb::GetAppealResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.get_appeal(&principal, &request.get_ref().appeal_id).await)
    }

    async fn get_decision_notice(
        &self,
        request: Request<pb::GetDecisionNoticeRequest>,
    ) -> Result<Response<pb::GetDecisionNoticeResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.decision_notice(&principal, &request.get_ref().appeal_id).await)
    }

    async fn list_appeals(
        &self,
        request: Request<pb::ListAppealsRequest>,
    ) -> Result<Response<pb::ListAppealsResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.list_appeals(&principal, request.into_inner()).await)
    }

    async fn get_appeal_policy(
        &self,
        request: Request<pb::GetAppealPolicyRequest>,
    ) -> Result<Response<pb::GetAppealPolicyResponse>, Status> {
        self.caller(&request).await?;
        answer(self.appeals.get_policy().await)
    }

    async fn update_appeal_policy(
        &self,
        request: Request<pb::UpdateAppealPolicyRequest>,
    ) -> Result<Response<pb::UpdateAppealPolicyResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.update_policy(&principal, request.into_inner()).await)
    }

    async fn get_score_audit(
        &self,
        request: Request<pb::GetScoreAuditRequest>,
    ) -> Result<Response<pb::GetScoreAuditResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.score_audit(&principal, request.into_inner()).await)
    }

    type WatchAppealsStream = NoticeStream;

    async fn watch_appeals(
        &self,
        request: Request<pb::WatchAppealsRequest>,
    ) -> Result<Response<Self::WatchAppealsStream>, Status> {
        let principal = self.caller(&request).await?;
        answer(watch(self.appeals.clone(), principal, request.get_ref().after_sequence).await)
    }

    // The committee as the club runs it: its roster, the conflicts it declares, a game's own
    // committee (`crate::service::roster`, `conflicts`, `game_committee`).

    async fn add_roster_entry(
        &self,
        request: Request<pb::AddRosterEntryRequest>,
    ) -> Result<Response<pb::AddRosterEntryResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.add_roster_entry(&principal, request.into_inner()).await)
    }

    async fn update_roster_entry(
        &self,
        request: Request<pb::UpdateRosterEntryRequest>,
    ) -> Result<Response<pb::UpdateRosterEntryResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.update_roster_entry(&principal, request.into_inner()).await)
    }

    async fn remove_roster_entry(
        &self,
        request: Request<pb::RemoveRosterEntryRequest>,
    ) -> Result<Response<pb::RemoveRosterEntryResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.remove_roster_entry(&principal, request.into_inner()).await)
    }

    async fn list_roster_entries(
        &self,
        request: Request<pb::ListRosterEntriesRequest>,
    ) -> Result<Response<pb::ListRosterEntriesResponse>, Status> {
        self.caller(&request).await?;
        answer(self.appeals.list_roster_entries(request.into_inner()).await)
    }

    async fn declare_conflict(
        &self,
        request: Request<pb::DeclareConflictRequest>,
    ) -> Result<Response<pb::DeclareConflictResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.declare_conflict(&principal, request.into_inner()).await)
    }

    async fn withdraw_conflict(
        &self,
        request: Request<pb::WithdrawConflictRequest>,
    ) -> Result<Response<pb::WithdrawConflictResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.withdraw_conflict(&principal, request.into_inner()).await)
    }

    async fn list_conflicts(
        &self,
        request: Request<pb::ListConflictsRequest>,
    ) -> Result<Response<pb::ListConflictsResponse>, Status> {
        self.caller(&request).await?;
        answer(self.appeals.list_conflicts(request.into_inner()).await)
    }

    async fn designate_game_committee(
        &self,
        request: Request<pb::DesignateGameCommitteeRequest>,
    ) -> Result<Response<pb::DesignateGameCommitteeResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.designate_game_committee(&principal, request.into_inner()).await)
    }

    async fn confirm_game_committee(
        &self,
        request: Request<pb::ConfirmGameCommitteeRequest>,
    ) -> Result<Response<pb::ConfirmGameCommitteeResponse>, Status> {
        let principal = self.caller(&request).await?;
        answer(self.appeals.confirm_game_committee(&principal, request.into_inner()).await)
    }

    async fn get_game_committee(
        &self,
        request: Request<pb::GetGameCommitteeRequest>,
    ) -> Result<Response<pb::GetGameCommitteeResponse>, Status> {
        self.caller(&request).await?;
        answer(self.appeals.get_game_committee(request.into_inner()).await)
    }
}
