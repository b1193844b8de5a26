//! The GameService as gRPC: who may do what for which seat, requests into stored commands, and
//! answers rendered for the caller. The rules are the laws'; the pipeline is [`Engine::execute`].

use std::sync::Arc;

use prost::Message;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use tonic::{Request, Response, Status};

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use api::game::v1::game_service_server::GameService;
use laws::table::{Phase, Viewer};
use laws::{Card, Seat};
use platform::ServiceError;
use platform::app::Peers;
use platform::auth::{Principal, Role};
use platform::page::Page;

use crate::engine::{self, Applied, CommandRequest, Engine, Loaded, LoadedDeal};
use crate::entity::{arbiter_calls, deals};
use crate::render::{self, DealContext};
use crate::stored::{StoredChoice, StoredStart, stored_action::Command};
use crate::translate::{self, Record};
use crate::{owners, pbn, setup, starting, store, watch};

/// The gRPC face of the game service.
pub struct GameApi {
    engine: Arc<Engine>,
    peers: Peers,
}

impl GameApi {
    /// Serves `engine`; `peers` reach the scoring service, whose duplicate sessions may already
    /// hold a board's hands.
    pub fn new(engine: Arc<Engine>, peers: Peers) -> GameApi {
        GameApi { engine, peers }
    }
}

fn deal(loaded: &Loaded) -> Result<&LoadedDeal, ServiceError> {
    loaded
        .deal
        .as_deref()
        .ok_or_else(|| ServiceError::FailedPrecondition(format!("table {} has no deal: start one", loaded.table_id)))
}

fn recorded(deal: &LoadedDeal) -> bool {
    deal.setup.mode == game::PlayMode::Recorded as i32
}

fn who(principal: &Principal) -> String {
    principal.subject.clone()
}

/// A player acts for his own seat; a table device (desk) records any seat, at a recorded table.
fn acts_for(principal: &Principal, deal: &LoadedDeal, seat: Seat, what: &str) -> Result<(), ServiceError> {
    if render::seat_of(principal, &deal.players) == Some(seat) {
        return Ok(());
    }
    if principal.has(Role::Desk) && recorded(deal) {
        return Ok(());
    }
    Err(ServiceError::PermissionDenied(format!(
        "{} may not {what} for {seat}: a player acts only for his own seat, and a table device records any seat only \
         at a recorded table",
        who(principal)
    )))
}

/// A card comes from the player's own hand, or from dummy's when he is declarer: declarer plays
/// dummy's cards (Law 45B), dummy plays none. A table device records any hand at a recorded table.
fn plays_from(principal: &Principal, deal: &LoadedDeal, seat: Seat) -> Result<(), ServiceError> {
    let contract = deal.state.contract();
    let dummy = contract.map(|c| c.dummy());
    let declarer = contract.map(|c| c.declarer);
    match render::seat_of(principal, &deal.players) {
        Some(own) if own == seat && Some(seat) != dummy => return Ok(()),
        Some(own) if Some(seat) == dummy && Some(own) == declarer => return Ok(()),
        Some(own) if own == seat => {
            return Err(ServiceError::PermissionDenied(format!(
                "{seat} is dummy: declarer plays dummy's cards (Law 45B)"
            )));
        }
        _ => {}
    }
    if principal.has(Role::Desk) && recorded(deal) {
        return Ok(());
    }
    Err(ServiceError::PermissionDenied(format!(
        "{} may not play {seat}'s cards: a player plays from his own hand (and declarer from dummy's); a table device \
         records plays only at a recorded table",
        who(principal)
    )))
}

/// One of the four players at the table, the desk, or the arbiter.
fn at_table(principal: &Principal, deal: &LoadedDeal, what: &str) -> Result<Option<Seat>, ServiceError> {
    let seat = render::seat_of(principal, &deal.players);
    if seat.is_some() || principal.has_any(&[Role::Desk, Role::Arbiter]) {
        return Ok(seat);
    }
    Err(ServiceError::PermissionDenied(format!("{} is not at this table and may not {what}", who(principal))))
}

/// A seat a player gives for himself: his own, or unspecified for his own.
fn own_seat(field: &str, given: i32, own: Option<Seat>) -> Result<i32, ServiceError> {
    match own {
        Some(own) if given == pb::Seat::Unspecified as i32 || given == own.to_proto() => Ok(own.to_proto()),
        Some(own) => Err(ServiceError::PermissionDenied(format!("{field}: a player speaks for his own seat, {own}"))),
        None => Ok(given),
    }
}

fn context<'a>(applied: &'a Applied<'_>) -> Result<DealContext<'a>, ServiceError> {
    applied.table.context().ok_or_else(|| ServiceError::internal("a command left the table without a deal"))
}

fn view(applied: &Applied<'_>, principal: &Principal) -> Option<game::TableView> {
    Some(applied.table.view(principal))
}

type Answer<T> = Result<Response<T>, Status>;

impl GameApi {
    /// A command `seat` makes about a claim (making it, conceding, facing a hand for it),
    /// answered with the deal's last claim as it now stands and the caller's view.
    async fn about_the_claim<R: TableCommand, T: Message + Default>(
        &self,
        request: &R,
        principal: &Principal,
        seat: Seat,
        what: &str,
        action: Command,
        respond: impl FnOnce(Option<game::Claim>, Option<game::TableView>) -> T,
    ) -> Answer<T> {
        self.run(
            command(request, principal),
            |loaded| {
                acts_for(principal, deal(loaded)?, seat, what)?;
                engine::action(loaded, &principal.subject, action)
            },
            |applied| {
                let context = context(&applied)?;
                let claim = context.state.claims().last().map(|(info, record)| context.claim(info, record));
                Ok(respond(claim, view(&applied, principal)))
            },
        )
        .await
    }

    async fn run<T: Message + Default>(
        &self,
        request: CommandRequest<'_>,
        build: impl FnOnce(&Loaded) -> Result<crate::stored::StoredAction, ServiceError>,
        respond: impl FnOnce(Applied<'_>) -> Result<T, ServiceError>,
    ) -> Answer<T> {
        Ok(Response::new(self.engine.execute(request, build, respond).await?))
    }
}

#[tonic::async_trait]
impl GameService for GameApi {
    async fn start_deal(&self, request: Request<game::StartDealRequest>) -> Answer<game::StartDealResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let command = CommandRequest {
            method: "StartDeal",
            table_id: &request.table_id,
            expected_version: request.expected_version,
            idempotency_key: &request.idempotency_key,
            request: request.encode_to_vec(),
            principal: &principal,
        };
        let prepared = async {
            let mut resolved = setup::resolve(&request)?;
            let session =
                starting::check_starter(&self.peers, &self.engine, &principal, &request.table_id, &mut resolved)
                    .await?;
            let deal_id = uuid::Uuid::now_v7().to_string();
            let (seed, deal) = starting::cards(&self.engine.db, &resolved, session.as_ref(), &deal_id).await?;
            Ok::<_, ServiceError>((deal_id, resolved, seed, deal))
        };
        let (deal_id, resolved, seed, deal) = match prepared.await {
            Ok(prepared) => prepared,
            // A retry of a start that went through may find its owners moved on (the pad
            // expects the deal after it) or away: its first answer is its answer.
            Err(refusal) => match self.engine.answered(&command).await {
                Ok(Some(answer)) => return Ok(Response::new(answer)),
                _ => return Err(refusal.into()),
            },
        };
        let start = StoredStart { setup: Some(resolved.setup), seed, deal };
        self.run(
            command,
            |_| Ok(engine::start_action(&deal_id, &principal.subject, start)),
            |applied| Ok(game::StartDealResponse { view: view(&applied, &principal) }),
        )
        .await
    }

    async fn get_table_state(
        &self,
        request: Request<game::GetTableStateRequest>,
    ) -> Answer<game::GetTableStateResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        if request.table_id.is_empty() {
            return Err(ServiceError::invalid("table_id", "missing; the table is required").into());
        }
        let loaded = self.engine.load_fresh(&request.table_id).await?;
        if let Some(deal) = loaded.deal.as_deref() {
            owners::may_see_board(&self.peers, &principal, deal).await?;
        }
        Ok(Response::new(game::GetTableStateResponse { view: Some(loaded.view(&principal)) }))
    }

    async fn make_call(&self, request: Request<game::MakeCallRequest>) -> Answer<game::MakeCallResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let seat = Seat::from_proto("seat", request.seat).map_err(ServiceError::from)?;
        self.run(
            command(&request, &principal),
            |loaded| {
                acts_for(&principal, deal(loaded)?, seat, "call")?;
                engine::action(loaded, &principal.subject, Command::Call(request.clone()))
            },
            |applied| Ok(game::MakeCallResponse { view: view(&applied, &principal) }),
        )
        .await
    }

    async fn play_card(&self, request: Request<game::PlayCardRequest>) -> Answer<game::PlayCardResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let seat = Seat::from_proto("seat", request.seat).map_err(ServiceError::from)?;
        Card::try_from(api::convert::required("card", request.card).map_err(ServiceError::from)?)
            .map_err(|e| ServiceError::from(e.within("card")))?;
        self.run(
            command(&request, &principal),
            |loaded| {
                plays_from(&principal, deal(loaded)?, seat)?;
                engine::action(loaded, &principal.subject, Command::Play(request.clone()))
            },
            |applied| Ok(game::PlayCardResponse { view: view(&applied, &principal) }),
        )
        .await
    }

    async fn record_irregularity(
        &self,
        request: Request<game::RecordIrregularityRequest>,
    ) -> Answer<game::RecordIrregularityResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| {
                let deal = deal(loaded)?;
                let own = at_table(&principal, deal, "record an irregularity")?;
                let mut stored = request.clone();
                if !principal.has_any(&[Role::Desk, Role::Arbiter]) {
                    stored.pointed_out_by = own_seat("pointed_out_by", request.pointed_out_by, own)?;
                }
                engine::action(loaded, &principal.subject, Command::Irregularity(stored))
            },
            |applied| {
                let context = context(&applied)?;
                let state = context.state;
                let record = state.irregularities().last();
                let arbiter_call =
                    record.and_then(|r| state.official_calls().iter().rev().find(|c| c.irregularities.contains(&r.id)));
                let decision = record
                    .and_then(|r| r.decisions.first())
                    .and_then(|d| state.decisions().iter().find(|x| x.id == *d));
                Ok(game::RecordIrregularityResponse {
                    irregularity: record.map(|r| context.irregularity(r)),
                    arbiter_call: arbiter_call.map(|c| context.arbiter_call(c)),
                    decision: decision.map(|d| context.decision(d, context.viewer_of(&principal))),
                    view: view(&applied, &principal),
                })
            },
        )
        .await
    }

    async fn claim(&self, request: Request<game::ClaimRequest>) -> Answer<game::ClaimResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let claimer = Seat::from_proto("claimer", request.claimer).map_err(ServiceError::from)?;
        let command = Command::Claim(request.clone());
        self.about_the_claim(&request, &principal, claimer, "claim", command, |claim, view| game::ClaimResponse {
            claim,
            view,
        })
        .await
    }

    async fn concede(&self, request: Request<game::ConcedeRequest>) -> Answer<game::ConcedeResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let conceder = Seat::from_proto("conceder", request.conceder).map_err(ServiceError::from)?;
        let command = Command::Concede(request.clone());
        self.about_the_claim(&request, &principal, conceder, "concede", command, |claim, view| game::ConcedeResponse {
            claim,
            view,
        })
        .await
    }

    async fn respond_to_claim(
        &self,
        request: Request<game::RespondToClaimRequest>,
    ) -> Answer<game::RespondToClaimResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let seat = Seat::from_proto("seat", request.seat).map_err(ServiceError::from)?;
        self.run(
            command(&request, &principal),
            |loaded| {
                acts_for(&principal, deal(loaded)?, seat, "answer a claim")?;
                engine::action(loaded, &principal.subject, Command::Respond(request.clone()))
            },
            |applied| {
                let context = context(&applied)?;
                let state = context.state;
                let (claim, number) = match state.claims().last() {
                    Some((info, record)) => (Some(context.claim(info, record)), Some(info.id)),
                    None => (None, None),
                };
                let call = state.official_calls().iter().rev().find(|c| number.is_some() && c.claim == number);
                Ok(game::RespondToClaimResponse {
                    claim,
                    arbiter_call: call.map(|c| context.arbiter_call(c)),
                    view: view(&applied, &principal),
                })
            },
        )
        .await
    }

    async fn face_hand(&self, request: Request<game::FaceHandRequest>) -> Answer<game::FaceHandResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let seat = Seat::from_proto("seat", request.seat).map_err(ServiceError::from)?;
        let command = Command::FaceHand(request.clone());
        self.about_the_claim(&request, &principal, seat, "face a hand", command, |claim, view| game::FaceHandResponse {
            claim,
            view,
        })
        .await
    }

    async fn call_arbiter(&self, request: Request<game::CallArbiterRequest>) -> Answer<game::CallArbiterResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| {
                let deal = deal(loaded)?;
                let own = at_table(&principal, deal, "call the arbiter")?;
                let mut stored = request.clone();
                if !principal.has(Role::Desk) {
                    stored.seat = own_seat("seat", request.seat, own)?;
                }
                engine::action(loaded, &principal.subject, Command::CallArbiter(stored))
            },
            |applied| {
                let context = context(&applied)?;
                let call = context.state.official_calls().last().map(|c| context.arbiter_call(c));
                Ok(game::CallArbiterResponse { arbiter_call: call, view: view(&applied, &principal) })
            },
        )
        .await
    }

    async fn resolve_arbiter_call(
        &self,
        request: Request<game::ResolveArbiterCallRequest>,
    ) -> Answer<game::ResolveArbiterCallResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| engine::action(loaded, &principal.subject, Command::Resolve(request.clone())),
            |applied| {
                let context = context(&applied)?;
                let number = translate::record_number(
                    context.deal_id,
                    Record::ArbiterCall,
                    "arbiter_call_id",
                    &request.arbiter_call_id,
                )?;
                let call =
                    context.state.official_calls().iter().find(|c| c.id == number).map(|c| context.arbiter_call(c));
                Ok(game::ResolveArbiterCallResponse { arbiter_call: call, view: view(&applied, &principal) })
            },
        )
        .await
    }

    async fn list_arbiter_calls(
        &self,
        request: Request<game::ListArbiterCallsRequest>,
    ) -> Answer<game::ListArbiterCallsResponse> {
        let request = request.into_inner();
        let page = Page::of(request.page.as_ref())?;
        let mut query = arbiter_calls::Entity::find();
        if !request.table_id.is_empty() {
            query = query.filter(arbiter_calls::Column::TableId.eq(request.table_id.as_str()));
        }
        if !request.include_resolved {
            query = query.filter(arbiter_calls::Column::Open.eq(true));
        }
        let rows = query
            .order_by_asc(arbiter_calls::Column::CalledAt)
            .order_by_asc(arbiter_calls::Column::ArbiterCallId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.engine.db)
            .await
            .map_err(ServiceError::from)?;
        let mut calls = rows
            .iter()
            .map(|row| game::ArbiterCall::decode(row.call.as_slice()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ServiceError::internal(format!("stored arbiter call: {e}")))?;
        let page = page.response(&mut calls);
        Ok(Response::new(game::ListArbiterCallsResponse { arbiter_calls: calls, page }))
    }

    async fn get_rectification_options(
        &self,
        request: Request<game::GetRectificationOptionsRequest>,
    ) -> Answer<game::GetRectificationOptionsResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        if request.table_id.is_empty() {
            return Err(ServiceError::invalid("table_id", "missing; the table is required").into());
        }
        let loaded = self.engine.load_fresh(&request.table_id).await?;
        let deal = deal(&loaded)?;
        at_table(&principal, deal, "see its rectification options")?;
        let context = loaded.context().ok_or_else(|| ServiceError::internal("a deal without its context"))?;
        let only = match request.decision_id.as_str() {
            "" => None,
            id => Some(translate::record_number(&deal.deal_id, Record::Decision, "decision_id", id)?),
        };
        let decisions = context.decisions(only, context.viewer_of(&principal));
        if only.is_some() && decisions.is_empty() {
            return Err(ServiceError::not_found(format!("rectification decision {}", request.decision_id)).into());
        }
        Ok(Response::new(game::GetRectificationOptionsResponse { decisions }))
    }

    async fn choose_rectification(
        &self,
        request: Request<game::ChooseRectificationRequest>,
    ) -> Answer<game::ChooseRectificationResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| {
                let deal = deal(loaded)?;
                let mut stored = request.clone();
                let official = if principal.has(Role::Arbiter) {
                    // The arbiter chooses himself, or records a player's choice when he names the seat.
                    request.chooser_seat == pb::Seat::Unspecified as i32
                } else if let Some(own) = render::seat_of(&principal, &deal.players) {
                    stored.chooser_seat = own_seat("chooser_seat", request.chooser_seat, Some(own))?;
                    false
                } else if principal.has(Role::Desk) {
                    if request.chooser_seat == pb::Seat::Unspecified as i32 {
                        return Err(ServiceError::invalid(
                            "chooser_seat",
                            "a table device records the choice of the player the Laws entitle: name his seat",
                        ));
                    }
                    false
                } else {
                    return Err(ServiceError::PermissionDenied(format!(
                        "{} is not at this table and may not choose a rectification",
                        principal.subject
                    )));
                };
                let command = Command::Choose(StoredChoice { request: Some(stored), official });
                engine::action(loaded, &principal.subject, command)
            },
            |applied| {
                let context = context(&applied)?;
                let state = context.state;
                let number =
                    translate::record_number(context.deal_id, Record::Decision, "decision_id", &request.decision_id)?;
                let viewer = context.viewer_of(&principal);
                let chosen = state.decisions().iter().find(|d| d.id == number).map(|d| context.decision(d, viewer));
                let next = state.open_decision().filter(|d| d.id > number).map(|d| context.decision(d, viewer));
                Ok(game::ChooseRectificationResponse {
                    decision: chosen,
                    next_decision: next,
                    view: view(&applied, &principal),
                })
            },
        )
        .await
    }

    async fn adjudicate_claim(
        &self,
        request: Request<game::AdjudicateClaimRequest>,
    ) -> Answer<game::AdjudicateClaimResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| engine::action(loaded, &principal.subject, Command::Adjudicate(request.clone())),
            |applied| {
                let context = context(&applied)?;
                let claim = context.state.claims().last().map(|(info, record)| context.claim(info, record));
                Ok(game::AdjudicateClaimResponse { claim, view: view(&applied, &principal) })
            },
        )
        .await
    }

    async fn enter_result(&self, request: Request<game::EnterResultRequest>) -> Answer<game::EnterResultResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| {
                let deal = deal(loaded)?;
                if render::seat_of(&principal, &deal.players).is_none() && !principal.has(Role::Desk) {
                    return Err(ServiceError::PermissionDenied(format!(
                        "{} is not at this table: its players or the desk enter the result",
                        principal.subject
                    )));
                }
                engine::action(loaded, &principal.subject, Command::EnterResult(request.clone()))
            },
            |applied| Ok(game::EnterResultResponse { view: view(&applied, &principal) }),
        )
        .await
    }

    async fn abandon_deal(&self, request: Request<game::AbandonDealRequest>) -> Answer<game::AbandonDealResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        self.run(
            command(&request, &principal),
            |loaded| engine::action(loaded, &principal.subject, Command::Abandon(request.clone())),
            |applied| Ok(game::AbandonDealResponse { view: view(&applied, &principal) }),
        )
        .await
    }

    async fn get_deal_record(
        &self,
        request: Request<game::GetDealRecordRequest>,
    ) -> Answer<game::GetDealRecordResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let (row, deal) = self.engine.load_deal(&request.deal_id).await?;
        let viewer = record_viewer(&principal, &deal)?;
        owners::may_see_board(&self.peers, &principal, &deal).await?;
        let context = DealContext {
            table_id: &row.table_id,
            version: row.table_version.max(0) as u64,
            deal_id: &deal.deal_id,
            setup: &deal.setup,
            state: &deal.state,
            actions: &deal.actions,
        };
        Ok(Response::new(game::GetDealRecordResponse { record: Some(context.record(viewer)) }))
    }

    async fn list_deals(&self, request: Request<game::ListDealsRequest>) -> Answer<game::ListDealsResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        let page = Page::of(request.page.as_ref())?;
        let mut query = deals::Entity::find();
        if !request.table_id.is_empty() {
            query = query.filter(deals::Column::TableId.eq(request.table_id.as_str()));
        }
        if !request.rubber_id.is_empty() {
            query = query.filter(deals::Column::RubberId.eq(request.rubber_id.as_str()));
        }
        if !request.session_id.is_empty() {
            query = query.filter(deals::Column::SessionId.eq(request.session_id.as_str()));
        }
        if !request.include_in_progress {
            query = query.filter(
                deals::Column::Phase
                    .is_in([game::DealPhase::Finished.as_str_name(), game::DealPhase::Abandoned.as_str_name()]),
            );
        }
        let rows = query
            .order_by_desc(deals::Column::StartedAt)
            .order_by_desc(deals::Column::DealId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.engine.db)
            .await
            .map_err(ServiceError::from)?;
        let next = page.response_to(rows.len());
        let mut summaries = Vec::with_capacity(rows.len());
        for row in rows.iter().take(usize::try_from(page.size).unwrap_or(usize::MAX)) {
            let setup = game::DealSetup::decode(row.setup.as_slice())
                .map_err(|e| ServiceError::internal(format!("stored setup of deal {}: {e}", row.deal_id)))?;
            let outcome = row
                .outcome
                .as_deref()
                .map(game::DealOutcome::decode)
                .transpose()
                .map_err(|e| ServiceError::internal(format!("stored outcome of deal {}: {e}", row.deal_id)))?;
            summaries.push(game::DealSummary {
                deal_id: row.deal_id.clone(),
                table_id: row.table_id.clone(),
                setup: Some(setup),
                phase: game::DealPhase::from_str_name(&row.phase).unwrap_or(game::DealPhase::Unspecified) as i32,
                outcome,
                started_at: Some(store::timestamp(row.started_at)),
            });
        }
        // A board's outcome (contract and tricks) tells of its cards: someone outside its table
        // reads it only once the board is released.
        let hidden: Vec<Option<(String, u32)>> = summaries
            .iter()
            .map(|summary| {
                let setup = summary.setup.as_ref()?;
                let outside = render::outside_board(&principal, &translate::players(setup), laws::Code::Duplicate);
                let (session, number) = owners::board_of(setup).filter(|_| outside && summary.outcome.is_some())?;
                Some((session.to_owned(), number))
            })
            .collect();
        let sessions: Vec<&str> = hidden.iter().flatten().map(|(session, _)| session.as_str()).collect();
        let released = if sessions.is_empty() {
            Default::default()
        } else {
            owners::released_boards(&self.peers, &sessions).await?
        };
        for (summary, board) in summaries.iter_mut().zip(&hidden) {
            if board.as_ref().is_some_and(|board| !released.contains(board)) {
                summary.outcome = None;
            }
        }
        Ok(Response::new(game::ListDealsResponse { deals: summaries, page: Some(next) }))
    }

    async fn export_deal_pbn(
        &self,
        request: Request<game::ExportDealPbnRequest>,
    ) -> Answer<game::ExportDealPbnResponse> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        if request.deal_ids.is_empty() {
            return Err(ServiceError::invalid("deal_ids", "name at least one deal").into());
        }
        let mut out = String::from(pbn::HEADER);
        for (i, deal_id) in request.deal_ids.iter().enumerate() {
            let (row, deal) = self.engine.load_deal(deal_id).await.map_err(|e| match e {
                ServiceError::InvalidArgument(m) => ServiceError::invalid(&format!("deal_ids[{i}]"), m),
                other => other,
            })?;
            if !deal.state.is_over() {
                return Err(ServiceError::FailedPrecondition(format!(
                    "deal_ids[{i}]: deal {deal_id} is still in progress; only finished deals are exported"
                ))
                .into());
            }
            let viewer = record_viewer(&principal, &deal)?;
            owners::may_see_board(&self.peers, &principal, &deal).await.map_err(|e| match e {
                ServiceError::PermissionDenied(m) => ServiceError::PermissionDenied(format!("deal_ids[{i}]: {m}")),
                other => other,
            })?;
            let context = DealContext {
                table_id: &row.table_id,
                version: row.table_version.max(0) as u64,
                deal_id: &deal.deal_id,
                setup: &deal.setup,
                state: &deal.state,
                actions: &deal.actions,
            };
            out.push('\n');
            out.push_str(&pbn::game(&context, viewer));
        }
        Ok(Response::new(game::ExportDealPbnResponse { pbn: out }))
    }

    type WatchTableStream = watch::WatchStream;

    async fn watch_table(&self, request: Request<game::WatchTableRequest>) -> Answer<Self::WatchTableStream> {
        let principal = Principal::of(&request)?.clone();
        let request = request.into_inner();
        if !request.table_id.is_empty()
            && let Some(deal) = self.engine.load_fresh(&request.table_id).await?.deal.as_deref()
        {
            // Later boards at this table reach an outsider withheld (render::filter_event).
            owners::may_see_board(&self.peers, &principal, deal).await?;
        }
        let stream = watch::watch(self.engine.clone(), principal, request.table_id, request.after_sequence).await?;
        Ok(Response::new(stream))
    }
}

/// Who reads a deal's record: a deal in progress only the arbiter (who alone sees all four
/// hands of a live deal); a finished one the arbiter, the committee and administration as
/// officials, a player as himself, anyone else as a spectator.
fn record_viewer(principal: &Principal, deal: &LoadedDeal) -> Result<Viewer, ServiceError> {
    if principal.has(Role::Arbiter) {
        return Ok(Viewer::Official);
    }
    if !deal.state.is_over() || deal.state.phase() == Phase::Claim {
        return Err(ServiceError::PermissionDenied(format!(
            "deal {} is in progress: only the arbiter sees its record before it ends",
            deal.deal_id
        )));
    }
    if principal.has_any(&[Role::Committee, Role::Admin]) {
        return Ok(Viewer::Official);
    }
    Ok(render::viewer(principal, &deal.players))
}

/// A table command as the contract shapes it: the table, the version the client saw, and the
/// idempotency key. The RPC's name goes into the idempotency hash.
trait TableCommand: Message {
    /// The RPC.
    const METHOD: &'static str;
    /// The table.
    fn table_id(&self) -> &str;
    /// The table's version as the client saw it.
    fn expected_version(&self) -> u64;
    /// The client's idempotency key.
    fn idempotency_key(&self) -> &str;
}

macro_rules! table_commands {
    ($($request:ident => $method:literal),* $(,)?) => {
        $(impl TableCommand for game::$request {
            const METHOD: &'static str = $method;
            fn table_id(&self) -> &str {
                &self.table_id
            }
            fn expected_version(&self) -> u64 {
                self.expected_version
            }
            fn idempotency_key(&self) -> &str {
                &self.idempotency_key
            }
        })*
    };
}

table_commands! {
    MakeCallRequest => "MakeCall",
    PlayCardRequest => "PlayCard",
    RecordIrregularityRequest => "RecordIrregularity",
    ClaimRequest => "Claim",
    ConcedeRequest => "Concede",
    RespondToClaimRequest => "RespondToClaim",
    FaceHandRequest => "FaceHand",
    CallArbiterRequest => "CallArbiter",
    ResolveArbiterCallRequest => "ResolveArbiterCall",
    ChooseRectificationRequest => "ChooseRectification",
    AdjudicateClaimRequest => "AdjudicateClaim",
    EnterResultRequest => "EnterResult",
    AbandonDealRequest => "AbandonDeal",
}

/// The engine's view of a table command from `principal`.
fn command<'a, R: TableCommand>(request: &'a R, principal: &'a Principal) -> CommandRequest<'a> {
    CommandRequest {
        method: R::METHOD,
        table_id: request.table_id(),
        expected_version: request.expected_version(),
        idempotency_key: request.idempotency_key(),
        request: request.encode_to_vec(),
        principal,
    }
}
