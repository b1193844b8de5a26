//! What the appeals service asks of the scoring service: who played a deal (a scorepad's players,
//! a session's contestants), whether there is a result to adjust, when a session's official score
//! was published (the Law 92B period), applying an adjusted score or an appeal decision, and the
//! score versions of a target for the audit.
//!
//! [`ScoreKeeper`] is the seam: [`GrpcScoreKeeper`] calls the scoring service through
//! [`Peers`] (its token and the trace context ride along); the crate's tests put an in-memory
//! keeper behind it.

use api::scoring::v1 as pb;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use platform::ServiceError;
use platform::app::Peers;
use tonic::Code;

/// The scoring service's answers the appeals service needs.
#[async_trait::async_trait]
pub trait ScoreKeeper: Send + Sync + 'static {
    /// A scorepad.
    async fn scorepad(&self, scorepad_id: &str) -> Result<pb::Scorepad, ServiceError>;

    /// A duplicate session.
    async fn session(&self, session_id: &str) -> Result<pb::Session, ServiceError>;

    /// Every result on one board of a session.
    async fn board_results(&self, session_id: &str, board_number: u32) -> Result<Vec<pb::BoardResult>, ServiceError>;

    /// A duplicate session as a ruling on one of its boards needs it: that board alone among its
    /// boards and movement, and only the contestants named (its kind and publication as ever).
    async fn session_for_board(
        &self,
        session_id: &str,
        board_number: u32,
        contestant_ids: &[String],
    ) -> Result<pb::Session, ServiceError> {
        let mut session = self.session(session_id).await?;
        session.boards.retain(|b| b.number == board_number);
        session.movement.retain(|m| m.board_number == board_number);
        session.contestants.retain(|c| contestant_ids.contains(&c.contestant_id));
        Ok(session)
    }

    /// The result of one table on one board, if there is one.
    async fn board_result(
        &self,
        key: &api::common::v1::BoardResultKey,
    ) -> Result<Option<pb::BoardResult>, ServiceError> {
        let results = self.board_results(&key.session_id, key.board_number).await?;
        Ok(results.into_iter().find(|r| r.key.as_ref() == Some(key)))
    }

    /// Applies an adjusted score or an appeal decision. The error is the scoring service's
    /// status, so that the caller can tell a refusal (the request will never succeed) from a
    /// failure to reach it ([`is_refusal`]).
    async fn apply_adjustment(
        &self,
        request: pb::ApplyAdjustmentRequest,
    ) -> Result<pb::ApplyAdjustmentResponse, tonic::Status>;

    /// Every score version of `owner` concerning `target`, oldest first.
    async fn score_versions(
        &self,
        owner: pb::list_score_versions_request::Owner,
        target: api::common::v1::ScoreTarget,
    ) -> Result<Vec<pb::ScoreVersion>, ServiceError>;
}

/// Whether a status from the scoring service means the request will never succeed as sent (it
/// is malformed, or the Laws or the state of the score refuse it), as opposed to a failure that
/// a later attempt may get past (the service is down, overloaded, lost a race, or is not yet
/// served at its address, as during a rollout: UNIMPLEMENTED).
pub fn is_refusal(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::InvalidArgument
            | Code::FailedPrecondition
            | Code::NotFound
            | Code::AlreadyExists
            | Code::PermissionDenied
            | Code::Unauthenticated
            | Code::OutOfRange
    )
}

/// A refusal or failure from the scoring service, as this service reports it (see
/// [`platform::client::peer_error`]).
pub fn peer_error(what: &str, status: &tonic::Status) -> ServiceError {
    platform::client::peer_error("scoring", what, status)
}

/// The scoring service over gRPC.
#[derive(Debug, Clone)]
pub struct GrpcScoreKeeper {
    peers: Peers,
}

impl GrpcScoreKeeper {
    /// Calls the scoring service of `peers`.
    pub fn new(peers: Peers) -> Self {
        GrpcScoreKeeper { peers }
    }

    fn client(&self) -> Result<ScoringServiceClient<platform::app::PeerChannel>, ServiceError> {
        Ok(ScoringServiceClient::new(self.peers.scoring()?))
    }

    /// Every result on a board, or only the one where `north_south` sat North-South.
    async fn list_results(
        &self,
        session_id: &str,
        board_number: u32,
        north_south: &str,
    ) -> Result<Vec<pb::BoardResult>, ServiceError> {
        let mut client = self.client()?;
        let mut results = Vec::new();
        let mut page_token = String::new();
        loop {
            let request = pb::ListBoardResultsRequest {
                session_id: session_id.to_owned(),
                board_number,
                page: Some(api::common::v1::PageRequest { page_size: 500, page_token }),
                north_south_contestant_id: north_south.to_owned(),
            };
            let page = client
                .list_board_results(request)
                .await
                .map_err(|status| peer_error(&format!("board {board_number} of session {session_id}"), &status))?
                .into_inner();
            results.extend(page.results);
            match page.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
                Some(next) => page_token = next,
                None => return Ok(results),
            }
        }
    }

    async fn get_session(&self, request: pb::GetSessionRequest) -> Result<pb::Session, ServiceError> {
        let session_id = request.session_id.clone();
        let response = self
            .client()?
            .get_session(request)
            .await
            .map_err(|status| peer_error(&format!("session {session_id}"), &status))?;
        response.into_inner().session.ok_or_else(|| ServiceError::internal("GetSession answered without a session"))
    }
}

#[async_trait::async_trait]
impl ScoreKeeper for GrpcScoreKeeper {
    #[tracing::instrument(skip(self))]
    async fn scorepad(&self, scorepad_id: &str) -> Result<pb::Scorepad, ServiceError> {
        let request = pb::GetScorepadRequest { scorepad_id: scorepad_id.to_owned() };
        let response = self
            .client()?
            .get_scorepad(request)
            .await
            .map_err(|status| peer_error(&format!("scorepad {scorepad_id}"), &status))?;
        response.into_inner().scorepad.ok_or_else(|| ServiceError::internal("GetScorepad answered without a scorepad"))
    }

    #[tracing::instrument(skip(self))]
    async fn session(&self, session_id: &str) -> Result<pb::Session, ServiceError> {
        self.get_session(pb::GetSessionRequest { session_id: session_id.to_owned(), ..Default::default() }).await
    }

    /// Asks for the board and the contestants only: a session of a thousand tables is not sent
    /// whole for one ruling.
    #[tracing::instrument(skip(self))]
    async fn session_for_board(
        &self,
        session_id: &str,
        board_number: u32,
        contestant_ids: &[String],
    ) -> Result<pb::Session, ServiceError> {
        let request = pb::GetSessionRequest {
            session_id: session_id.to_owned(),
            board_number,
            contestant_ids: contestant_ids.to_vec(),
        };
        self.get_session(request).await
    }

    /// Asks for the one table's result, not the board's every result.
    #[tracing::instrument(skip(self))]
    async fn board_result(
        &self,
        key: &api::common::v1::BoardResultKey,
    ) -> Result<Option<pb::BoardResult>, ServiceError> {
        let results = self.list_results(&key.session_id, key.board_number, &key.north_south_contestant_id).await?;
        Ok(results.into_iter().find(|r| r.key.as_ref() == Some(key)))
    }

    #[tracing::instrument(skip(self))]
    async fn board_results(&self, session_id: &str, board_number: u32) -> Result<Vec<pb::BoardResult>, ServiceError> {
        self.list_results(session_id, board_number, "").await
    }

    #[tracing::instrument(skip_all, fields(ruling_id = %request.ruling_id, appeal_id = %request.appeal_id))]
    async fn apply_adjustment(
        &self,
        request: pb::ApplyAdjustmentRequest,
    ) -> Result<pb::ApplyAdjustmentResponse, tonic::Status> {
        let mut client = self.client().map_err(tonic::Status::from)?;
        client.apply_adjustment(request).await.map(tonic::Response::into_inner)
    }

    #[tracing::instrument(skip_all)]
    async fn score_versions(
        &self,
        owner: pb::list_score_versions_request::Owner,
        target: api::common::v1::ScoreTarget,
    ) -> Result<Vec<pb::ScoreVersion>, ServiceError> {
        let mut client = self.client()?;
        let mut versions = Vec::new();
        let mut page_token = String::new();
        loop {
            let request = pb::ListScoreVersionsRequest {
                owner: Some(owner.clone()),
                target: Some(target.clone()),
                page: Some(api::common::v1::PageRequest { page_size: 500, page_token }),
            };
            let page = client
                .list_score_versions(request)
                .await
                .map_err(|status| peer_error("the score versions", &status))?
                .into_inner();
            versions.extend(page.versions);
            match page.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
                Some(next) => page_token = next,
                None => return Ok(versions),
            }
        }
    }
}
