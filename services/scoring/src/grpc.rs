//! The gRPC face of the service: the contract's roles are enforced before these handlers run
//! (platform auth layer); here are the per-principal checks, the translation of requests, and
//! errors through [`ServiceError`]. The work is in [`crate::store`], [`crate::calc`] and
//! [`crate::export`].

use api::common::v1 as pb;
use api::membership::v1 as membership;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use api::scoring::v1 as spb;
use api::scoring::v1::scoring_service_server::ScoringService;
use laws::Deal;
use platform::ServiceError;
use platform::app::Peers;
use platform::auth::{Principal, Role};
use tonic::{Request, Response, Status};

use crate::store::Page;
use crate::store::pads::Pads;
use crate::store::sessions::Sessions;
use crate::{calc, export};

/// The scoring service.
#[derive(Debug, Clone)]
pub struct Scoring {
    pads: Pads,
    sessions: Sessions,
    peers: Peers,
}

impl Scoring {
    /// The service over its scorepads and sessions; `peers` reach membership, which owns the
    /// rubbers that scorepads keep the score of.
    pub fn new(pads: Pads, sessions: Sessions, peers: Peers) -> Scoring {
        Scoring { pads, sessions, peers }
    }

    /// Every player a session's contestants name is an active member on membership's register,
    /// asked of membership one player at a time, all at once.
    async fn check_players(&self, request: &spb::CreateSessionRequest) -> Result<(), ServiceError> {
        let named: Vec<(String, &str)> = request
            .contestants
            .iter()
            .enumerate()
            .flat_map(|(c, contestant)| {
                contestant
                    .player_ids
                    .iter()
                    .enumerate()
                    .map(move |(p, id)| (format!("contestants[{c}].player_ids[{p}]"), id.as_str()))
            })
            .collect();
        if named.is_empty() {
            return Ok(());
        }
        let channel = self.peers.membership()?;
        let asked = named.iter().map(|(field, id)| {
            let mut client = MembershipServiceClient::new(channel.clone());
            async move {
                let request = membership::GetPlayerRequest { player_id: (*id).to_owned() };
                let answer =
                    platform::client::ask("membership", &format!("player {id}"), client.get_player(request)).await;
                match answer {
                    Ok(found) if found.player.as_ref().is_some_and(|p| p.active) => Ok(()),
                    Ok(_) => Err(ServiceError::FailedPrecondition(format!(
                        "{field}: player {id} is inactive on the register and cannot take part"
                    ))),
                    Err(ServiceError::NotFound(_)) => Err(ServiceError::FailedPrecondition(format!(
                        "{field}: membership has no player {id}; the desk registers him first"
                    ))),
                    Err(other) => Err(other),
                }
            }
        });
        futures::future::join_all(asked).await.into_iter().collect()
    }

    /// A scorepad is created only for a rubber membership holds, and takes from it what it
    /// owns: the table, the kind, the line-up and the first dealer (Law 3). What the request
    /// also gives must agree. If membership cannot be reached, nothing is created (UNAVAILABLE).
    async fn settle_from_rubber(&self, request: &mut spb::CreateScorepadRequest) -> Result<(), ServiceError> {
        let rubber_id = required_id("rubber_id", &request.rubber_id)?;
        let ask = membership::GetRubberRequest { rubber_id: rubber_id.to_owned() };
        let channel = self.peers.membership()?;
        let what = format!("rubber {rubber_id}");
        let rubber = platform::client::ask("membership", &what, MembershipServiceClient::new(channel).get_rubber(ask))
            .await
            .map_err(|e| {
                let hint = "; a scorepad keeps the score of a rubber the desk started (StartRubber)";
                platform::client::unknown_reference("rubber_id", hint, e)
            })?
            .rubber
            .ok_or_else(|| ServiceError::internal("GetRubber answered without a rubber"))?;
        let agrees = |field: &str, given: &mut i32, owned: i32, law: &str| match *given {
            0 => {
                *given = owned;
                Ok(())
            }
            value if value == owned => Ok(()),
            _ => Err(ServiceError::FailedPrecondition(format!(
                "{field}: rubber {rubber_id} has another {field} ({law}); leave it out to take the rubber's"
            ))),
        };
        agrees("kind", &mut request.kind, rubber.kind, "the table's kind, rubber or Chicago")?;
        agrees("first_dealer", &mut request.first_dealer, rubber.first_dealer, "Law 3")?;
        match request.table_id.as_str() {
            "" => request.table_id.clone_from(&rubber.table_id),
            table if table == rubber.table_id => {}
            table => {
                return Err(ServiceError::PermissionDenied(format!(
                    "table_id: rubber {rubber_id} is played at table {}, not at table {table}",
                    rubber.table_id
                )));
            }
        }
        platform::lineup::settle(&rubber, "players", &mut request.players)
    }
}

fn principal<T>(request: &Request<T>) -> Result<Principal, Status> {
    Principal::of(request).cloned()
}

fn ok<T>(value: T) -> Result<Response<T>, Status> {
    Ok(Response::new(value))
}

/// Who may write a result (Laws 72 to 81 for a pad, Law 78 for a session): the game service for
/// the deals it played, which it started only for the pad's rubber or the movement's table, or
/// the desk, the arbiter or the administrator entering one by hand (recorded with who entered
/// it). No other service writes results.
fn writes_results(principal: &Principal) -> Result<(), ServiceError> {
    if principal.has_any(&[Role::Desk, Role::Arbiter, Role::Admin]) || principal.is_service("game") {
        return Ok(());
    }
    Err(ServiceError::PermissionDenied(format!(
        "{} may not record a result: a result comes from its table (the game service) or is entered by the desk or \
         the arbiter",
        principal.subject
    )))
}

fn required_id<'a>(field: &str, id: &'a str) -> Result<&'a str, ServiceError> {
    if id.is_empty() { Err(ServiceError::invalid(field, "empty; an id is required")) } else { Ok(id) }
}

#[tonic::async_trait]
impl ScoringService for Scoring {
    async fn create_scorepad(
        &self,
        request: Request<spb::CreateScorepadRequest>,
    ) -> Result<Response<spb::CreateScorepadResponse>, Status> {
        let mut body = request.into_inner();
        self.settle_from_rubber(&mut body).await?;
        let scorepad = self.pads.create(body).await?;
        ok(spb::CreateScorepadResponse { scorepad: Some(scorepad) })
    }

    async fn get_scorepad(
        &self,
        request: Request<spb::GetScorepadRequest>,
    ) -> Result<Response<spb::GetScorepadResponse>, Status> {
        let id = required_id("scorepad_id", &request.get_ref().scorepad_id)?;
        ok(spb::GetScorepadResponse { scorepad: Some(self.pads.get(id).await?) })
    }

    async fn get_next_deal(
        &self,
        request: Request<spb::GetNextDealRequest>,
    ) -> Result<Response<spb::GetNextDealResponse>, Status> {
        let caller = principal(&request)?;
        let body = request.get_ref();
        let id = required_id("scorepad_id", &body.scorepad_id)?;
        // A played deal's result is the game service's to say (it owns the deals played at a
        // table), even when nothing is written: no one else may make the pad's next deal seem
        // other than it is.
        if body.played.is_some() && !caller.is_service("game") {
            return Err(ServiceError::PermissionDenied(format!(
                "{} may not name a played deal: only the game service, which played it, may ask for the deal after it",
                caller.subject
            ))
            .into());
        }
        if let Some(played) = &body.played {
            if played.scorepad_id != body.scorepad_id {
                return Err(ServiceError::invalid("played.scorepad_id", "not the scorepad asked about").into());
            }
            required_id("played.deal_id", &played.deal_id)?;
        }
        ok(self.pads.next_deal(id, body.played.as_ref()).await?)
    }

    async fn list_scorepads(
        &self,
        request: Request<spb::ListScorepadsRequest>,
    ) -> Result<Response<spb::ListScorepadsResponse>, Status> {
        ok(self.pads.list(request.get_ref()).await?)
    }

    async fn record_deal_result(
        &self,
        request: Request<spb::RecordDealResultRequest>,
    ) -> Result<Response<spb::RecordDealResultResponse>, Status> {
        let caller = principal(&request)?;
        writes_results(&caller)?;
        let by = caller.subject;
        let body = request.into_inner();
        required_id("scorepad_id", &body.scorepad_id)?;
        let hands = body.hands.clone().map(Deal::try_from).transpose().map_err(|e| e.within("hands"))?;
        let (pad, version) = self.pads.record(&body, hands, &by).await?;
        ok(spb::RecordDealResultResponse { scorepad: Some(pad.to_proto()), version: Some(version) })
    }

    async fn correct_deal_result(
        &self,
        request: Request<spb::CorrectDealResultRequest>,
    ) -> Result<Response<spb::CorrectDealResultResponse>, Status> {
        let by = principal(&request)?.subject;
        let body = request.into_inner();
        required_id("scorepad_id", &body.scorepad_id)?;
        required_id("deal_id", &body.deal_id)?;
        let (pad, version) = self.pads.correct(&body, &by).await?;
        ok(spb::CorrectDealResultResponse { scorepad: Some(pad.to_proto()), version: Some(version) })
    }

    async fn agree_net_score(
        &self,
        request: Request<spb::AgreeNetScoreRequest>,
    ) -> Result<Response<spb::AgreeNetScoreResponse>, Status> {
        let principal = principal(&request)?;
        let body = request.into_inner();
        required_id("scorepad_id", &body.scorepad_id)?;
        ok(spb::AgreeNetScoreResponse { scorepad: Some(self.pads.agree(&body, &principal).await?) })
    }

    async fn end_unfinished_rubber(
        &self,
        request: Request<spb::EndUnfinishedRubberRequest>,
    ) -> Result<Response<spb::EndUnfinishedRubberResponse>, Status> {
        let by = principal(&request)?.subject;
        let body = request.into_inner();
        required_id("scorepad_id", &body.scorepad_id)?;
        let (pad, version) = self.pads.end(&body, &by).await?;
        ok(spb::EndUnfinishedRubberResponse { scorepad: Some(pad.to_proto()), version: Some(version) })
    }

    async fn create_session(
        &self,
        request: Request<spb::CreateSessionRequest>,
    ) -> Result<Response<spb::CreateSessionResponse>, Status> {
        let request = request.into_inner();
        // A malformed request is told so before membership is asked anything.
        crate::session::define(request.clone())?;
        self.check_players(&request).await?;
        ok(spb::CreateSessionResponse { session: Some(self.sessions.create(request).await?) })
    }

    async fn assign_tables(
        &self,
        request: Request<spb::AssignTablesRequest>,
    ) -> Result<Response<spb::AssignTablesResponse>, Status> {
        let principal = principal(&request)?;
        required_id("session_id", &request.get_ref().session_id)?;
        ok(spb::AssignTablesResponse { session: Some(self.sessions.assign(request.get_ref(), &principal).await?) })
    }

    async fn release_board(
        &self,
        request: Request<spb::ReleaseBoardRequest>,
    ) -> Result<Response<spb::ReleaseBoardResponse>, Status> {
        let principal = principal(&request)?;
        required_id("session_id", &request.get_ref().session_id)?;
        ok(spb::ReleaseBoardResponse { session: Some(self.sessions.release(request.get_ref(), &principal).await?) })
    }

    async fn get_session(
        &self,
        request: Request<spb::GetSessionRequest>,
    ) -> Result<Response<spb::GetSessionResponse>, Status> {
        let principal = principal(&request)?;
        let id = required_id("session_id", &request.get_ref().session_id)?;
        let mut session = self.sessions.get(id, &principal).await?;
        let request = request.get_ref();
        crate::session::narrow(&mut session, request.board_number, &request.contestant_ids);
        ok(spb::GetSessionResponse { session: Some(session) })
    }

    async fn list_sessions(
        &self,
        request: Request<spb::ListSessionsRequest>,
    ) -> Result<Response<spb::ListSessionsResponse>, Status> {
        let principal = principal(&request)?;
        ok(self.sessions.list(request.get_ref(), &principal).await?)
    }

    async fn record_board_result(
        &self,
        request: Request<spb::RecordBoardResultRequest>,
    ) -> Result<Response<spb::RecordBoardResultResponse>, Status> {
        let caller = principal(&request)?;
        writes_results(&caller)?;
        let (result, version) = self.sessions.record(request.get_ref(), &caller.subject).await?;
        ok(spb::RecordBoardResultResponse { result: Some(result), version: Some(version) })
    }

    async fn correct_board_result(
        &self,
        request: Request<spb::CorrectBoardResultRequest>,
    ) -> Result<Response<spb::CorrectBoardResultResponse>, Status> {
        let by = principal(&request)?.subject;
        let (result, version) = self.sessions.correct(request.get_ref(), &by).await?;
        ok(spb::CorrectBoardResultResponse { result: Some(result), version: Some(version) })
    }

    async fn list_board_results(
        &self,
        request: Request<spb::ListBoardResultsRequest>,
    ) -> Result<Response<spb::ListBoardResultsResponse>, Status> {
        let principal = principal(&request)?;
        required_id("session_id", &request.get_ref().session_id)?;
        ok(self.sessions.list_results(request.get_ref(), &principal).await?)
    }

    async fn get_standings(
        &self,
        request: Request<spb::GetStandingsRequest>,
    ) -> Result<Response<spb::GetStandingsResponse>, Status> {
        let id = required_id("session_id", &request.get_ref().session_id)?;
        ok(self.sessions.standings(id).await?)
    }

    async fn publish_official_scores(
        &self,
        request: Request<spb::PublishOfficialScoresRequest>,
    ) -> Result<Response<spb::PublishOfficialScoresResponse>, Status> {
        let by = principal(&request)?.subject;
        let id = required_id("session_id", &request.get_ref().session_id)?;
        ok(spb::PublishOfficialScoresResponse { session: Some(self.sessions.publish(id, &by).await?) })
    }

    async fn apply_adjustment(
        &self,
        request: Request<spb::ApplyAdjustmentRequest>,
    ) -> Result<Response<spb::ApplyAdjustmentResponse>, Status> {
        let caller = principal(&request)?;
        if !caller.is_service("appeals") {
            return Err(ServiceError::PermissionDenied(format!(
                "{} may not adjust a score: an adjusted score comes only from a ruling or decision on record in the \
                 appeals service",
                caller.subject
            ))
            .into());
        }
        let by = caller.subject;
        let body = request.into_inner();
        required_id("ruling_id", &body.ruling_id)?;
        match body.target.as_ref().and_then(|t| t.target.as_ref()) {
            None => {
                Err(ServiceError::invalid("target", "missing; a scorepad deal or a board result is required").into())
            }
            Some(pb::score_target::Target::ScorepadDeal(deal)) => {
                required_id("target.scorepad_deal.scorepad_id", &deal.scorepad_id)?;
                required_id("target.scorepad_deal.deal_id", &deal.deal_id)?;
                let (pad, version) = self.pads.adjust(deal, &body, &by).await?;
                ok(spb::ApplyAdjustmentResponse {
                    version: Some(version),
                    scorepad: Some(pad.to_proto()),
                    board_results: Vec::new(),
                })
            }
            Some(pb::score_target::Target::BoardResult(key)) => {
                required_id("target.board_result.session_id", &key.session_id)?;
                let (board_results, version) = self.sessions.adjust(key, &body, &by).await?;
                ok(spb::ApplyAdjustmentResponse { version: Some(version), scorepad: None, board_results })
            }
        }
    }

    async fn mark_fouled_board(
        &self,
        request: Request<spb::MarkFouledBoardRequest>,
    ) -> Result<Response<spb::MarkFouledBoardResponse>, Status> {
        let by = principal(&request)?.subject;
        let (board_results, version) = self.sessions.mark_fouled(request.get_ref(), &by).await?;
        ok(spb::MarkFouledBoardResponse { version: Some(version), board_results })
    }

    async fn list_score_versions(
        &self,
        request: Request<spb::ListScoreVersionsRequest>,
    ) -> Result<Response<spb::ListScoreVersionsResponse>, Status> {
        use spb::list_score_versions_request::Owner;
        let principal = principal(&request)?;
        let body = request.into_inner();
        let page = Page::of(body.page.as_ref())?;
        let target = body.target.as_ref().and_then(|t| t.target.as_ref());
        match body.owner.as_ref() {
            None => Err(ServiceError::invalid("owner", "missing; a scorepad or a session is required").into()),
            Some(Owner::ScorepadId(id)) => {
                let deal = match target {
                    None => None,
                    Some(pb::score_target::Target::ScorepadDeal(d)) => Some(d.deal_id.as_str()),
                    Some(_) => {
                        return Err(ServiceError::invalid("target", "a scorepad's versions concern its deals").into());
                    }
                };
                ok(self.pads.versions(required_id("scorepad_id", id)?, deal, page).await?)
            }
            Some(Owner::SessionId(id)) => {
                let key = match target {
                    None => None,
                    Some(pb::score_target::Target::BoardResult(k)) => Some(k),
                    Some(_) => {
                        return Err(
                            ServiceError::invalid("target", "a session's versions concern its board results").into()
                        );
                    }
                };
                ok(self.sessions.versions(required_id("session_id", id)?, key, page, &principal).await?)
            }
        }
    }

    async fn score_duplicate_contract(
        &self,
        request: Request<spb::ScoreDuplicateContractRequest>,
    ) -> Result<Response<spb::ScoreDuplicateContractResponse>, Status> {
        ok(calc::score_duplicate_contract(request.get_ref())?)
    }

    async fn score_rubber(
        &self,
        request: Request<spb::ScoreRubberRequest>,
    ) -> Result<Response<spb::ScoreRubberResponse>, Status> {
        ok(calc::score_rubber(request.get_ref())?)
    }

    async fn convert_to_imps(
        &self,
        request: Request<spb::ConvertToImpsRequest>,
    ) -> Result<Response<spb::ConvertToImpsResponse>, Status> {
        ok(calc::convert_to_imps(request.get_ref()))
    }

    async fn matchpoint_scores(
        &self,
        request: Request<spb::MatchpointScoresRequest>,
    ) -> Result<Response<spb::MatchpointScoresResponse>, Status> {
        ok(calc::matchpoint_scores(request.get_ref())?)
    }

    type WatchScorepadStream = tokio_stream::wrappers::ReceiverStream<Result<spb::WatchScorepadResponse, Status>>;

    async fn watch_scorepad(
        &self,
        request: Request<spb::WatchScorepadRequest>,
    ) -> Result<Response<Self::WatchScorepadStream>, Status> {
        let body = request.get_ref();
        let id = required_id("scorepad_id", &body.scorepad_id)?;
        ok(self.pads.watch(id, body.after_sequence).await?)
    }

    type WatchSessionStream = tokio_stream::wrappers::ReceiverStream<Result<spb::WatchSessionResponse, Status>>;

    async fn watch_session(
        &self,
        request: Request<spb::WatchSessionRequest>,
    ) -> Result<Response<Self::WatchSessionStream>, Status> {
        let principal = principal(&request)?;
        let body = request.get_ref();
        let id = required_id("session_id", &body.session_id)?;
        ok(self.sessions.watch(id, body.after_sequence, &principal).await?)
    }

    async fn export_session_pbn(
        &self,
        request: Request<spb::ExportSessionPbnRequest>,
    ) -> Result<Response<spb::ExportSessionPbnResponse>, Status> {
        let principal = principal(&request)?;
        let id = required_id("session_id", &request.get_ref().session_id)?;
        let (session, results, _) = self.sessions.for_export(id, &principal).await?;
        ok(spb::ExportSessionPbnResponse { pbn: export::pbn(&session, &results) })
    }

    async fn export_session_usebio(
        &self,
        request: Request<spb::ExportSessionUsebioRequest>,
    ) -> Result<Response<spb::ExportSessionUsebioResponse>, Status> {
        let principal = principal(&request)?;
        let id = required_id("session_id", &request.get_ref().session_id)?;
        let (session, results, standings) = self.sessions.for_export(id, &principal).await?;
        ok(spb::ExportSessionUsebioResponse { xml: export::usebio(&session, &results, &standings) })
    }
}
