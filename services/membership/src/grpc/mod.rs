//! The gRPC face of the service: who may ask what (the contract's roles are checked before a
//! handler runs; here, that a player acts and sees only for himself), the translation of requests
//! into the room's commands, and of the room back into answers.
//!
//! Split by what the handlers serve: the club's register (`register`), the card room
//! (`room`), tables (`tables`), a table's members (`members`: applications, leaving, making a
//! fourth), draws (`draws`) and rubbers (`rubbers`). This module keeps the service, the checks
//! and lookups the handlers share, and the `MembershipService` implementation, which hands each
//! call to the handler of the same name (Rust looks up a type's own methods before a trait's, so
//! `self.open_table(request)` below is the handler in `tables`, not the trait method calling
//! itself). The watch streams stay here beside the stream types the trait declares.

mod draws;
mod members;
mod register;
mod room;
mod rubbers;
mod tables;

use std::sync::Arc;

use api::membership::v1 as pb;
use api::membership::v1::membership_service_server::MembershipService;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use platform::ServiceError;
use platform::auth::{Principal, Role};

use crate::engine::Engine;
use crate::state::{Changes, ClubState};

/// The membership service.
#[derive(Debug, Clone)]
pub struct Membership {
    engine: Arc<Engine>,
}

impl Membership {
    /// The service over `engine`.
    pub fn new(engine: Arc<Engine>) -> Membership {
        Membership { engine }
    }
}

type Result<T> = std::result::Result<T, ServiceError>;

fn principal<T>(request: &Request<T>) -> std::result::Result<Principal, Status> {
    Principal::of(request).cloned()
}

/// The desk and the administrator run the room; everyone else acts only for himself.
fn is_staff(principal: &Principal) -> bool {
    principal.has_any(&[Role::Desk, Role::Admin])
}

/// Rule of the house: nobody but the desk changes another player's membership.
fn only_self(principal: &Principal, player_id: &str, what: &str) -> Result<()> {
    if is_staff(principal) || principal.subject == player_id {
        Ok(())
    } else {
        Err(ServiceError::PermissionDenied(format!(
            "a player may {what} only for themselves: the token is {}'s, not {player_id}'s",
            principal.subject
        )))
    }
}

fn required<'a>(field: &str, value: &'a str) -> Result<&'a str> {
    let value = value.trim();
    if value.is_empty() { Err(ServiceError::invalid(field, "required")) } else { Ok(value) }
}

/// A table as it stands after a command: open, or as it was closed.
fn table_after(state: &ClubState, changes: &Changes, number: u64) -> Option<pb::Table> {
    state.table(number).cloned().or_else(|| {
        let id = state.table_id(number);
        changes.tables.iter().rev().find(|t| t.table_id == id).cloned()
    })
}

impl Membership {
    /// The register number of a player: from the room if he has been in it, else the register.
    async fn number(&self, state: &ClubState, field: &str, player_id: &str) -> Result<u64> {
        let player_id = required(field, player_id)?;
        if let Some(number) = state.number_of(player_id) {
            return Ok(number);
        }
        match self.engine.store.player(player_id).await? {
            Some(model) => Ok(model.number as u64),
            None => Err(ServiceError::not_found(format!("{field}: player {player_id} on the register"))),
        }
    }

    async fn numbers(&self, state: &ClubState, field: &str, ids: &[String]) -> Result<Vec<u64>> {
        let mut numbers = Vec::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            numbers.push(self.number(state, &format!("{field}[{i}]"), id).await?);
        }
        Ok(numbers)
    }

    /// The number of an open table; a closed one is FAILED_PRECONDITION.
    async fn table(&self, state: &ClubState, field: &str, table_id: &str) -> Result<u64> {
        let table_id = required(field, table_id)?;
        if let Some(number) = state.open_table(table_id) {
            return Ok(number);
        }
        if state.ever_opened(table_id) || self.engine.store.table(table_id).await?.is_some() {
            return Err(ServiceError::FailedPrecondition(format!("table {table_id} is closed")));
        }
        Err(ServiceError::not_found(format!("{field}: table {table_id}")))
    }

    /// A player who may take part: on the register and active.
    async fn active_player(&self, state: &ClubState, field: &str, player_id: &str) -> Result<u64> {
        let number = self.number(state, field, player_id).await?;
        if let Some(model) = self.engine.store.player(player_id).await?
            && !model.active
        {
            return Err(ServiceError::FailedPrecondition(format!(
                "{field}: player {player_id} is inactive on the register and cannot take part"
            )));
        }
        Ok(number)
    }
}

// Each call goes to the handler of the same name in the module that serves it (see the module
// docs): the type's own method, which Rust looks up before the trait's.
#[tonic::async_trait]
impl MembershipService for Membership {
    async fn register_player(
        &self,
        request: Request<pb::RegisterPlayerRequest>,
    ) -> std::result::Result<Response<pb::RegisterPlayerResponse>, Status> {
        self.register_player(request).await
    }

    async fn update_player(
        &self,
        request: Request<pb::UpdatePlayerRequest>,
    ) -> std::result::Result<Response<pb::UpdatePlayerResponse>, Status> {
        self.update_player(request).await
    }

    async fn get_player(
        &self,
        request: Request<pb::GetPlayerRequest>,
    ) -> std::result::Result<Response<pb::GetPlayerResponse>, Status> {
        self.get_player(request).await
    }

    async fn list_players(
        &self,
        request: Request<pb::ListPlayersRequest>,
    ) -> std::result::Result<Response<pb::ListPlayersResponse>, Status> {
        self.list_players(request).await
    }

    async fn arrive_in_room(
        &self,
        request: Request<pb::ArriveInRoomRequest>,
    ) -> std::result::Result<Response<pb::ArriveInRoomResponse>, Status> {
        self.arrive_in_room(request).await
    }

    async fn correct_arrival(
        &self,
        request: Request<pb::CorrectArrivalRequest>,
    ) -> std::result::Result<Response<pb::CorrectArrivalResponse>, Status> {
        self.correct_arrival(request).await
    }

    async fn leave_room(
        &self,
        request: Request<pb::LeaveRoomRequest>,
    ) -> std::result::Result<Response<pb::LeaveRoomResponse>, Status> {
        self.leave_room(request).await
    }

    async fn list_present_players(
        &self,
        request: Request<pb::ListPresentPlayersRequest>,
    ) -> std::result::Result<Response<pb::ListPresentPlayersResponse>, Status> {
        self.list_present_players(request).await
    }

    async fn open_table(
        &self,
        request: Request<pb::OpenTableRequest>,
    ) -> std::result::Result<Response<pb::OpenTableResponse>, Status> {
        self.open_table(request).await
    }

    async fn update_table_options(
        &self,
        request: Request<pb::UpdateTableOptionsRequest>,
    ) -> std::result::Result<Response<pb::UpdateTableOptionsResponse>, Status> {
        self.update_table_options(request).await
    }

    async fn close_table(
        &self,
        request: Request<pb::CloseTableRequest>,
    ) -> std::result::Result<Response<pb::CloseTableResponse>, Status> {
        self.close_table(request).await
    }

    async fn get_table(
        &self,
        request: Request<pb::GetTableRequest>,
    ) -> std::result::Result<Response<pb::GetTableResponse>, Status> {
        self.get_table(request).await
    }

    async fn get_next_steps(
        &self,
        request: Request<pb::GetNextStepsRequest>,
    ) -> std::result::Result<Response<pb::GetNextStepsResponse>, Status> {
        self.get_next_steps(request).await
    }

    async fn list_tables(
        &self,
        request: Request<pb::ListTablesRequest>,
    ) -> std::result::Result<Response<pb::ListTablesResponse>, Status> {
        self.list_tables(request).await
    }

    async fn apply_to_table(
        &self,
        request: Request<pb::ApplyToTableRequest>,
    ) -> std::result::Result<Response<pb::ApplyToTableResponse>, Status> {
        self.apply_to_table(request).await
    }

    async fn mark_applications_together(
        &self,
        request: Request<pb::MarkApplicationsTogetherRequest>,
    ) -> std::result::Result<Response<pb::MarkApplicationsTogetherResponse>, Status> {
        self.mark_applications_together(request).await
    }

    async fn withdraw_application(
        &self,
        request: Request<pb::WithdrawApplicationRequest>,
    ) -> std::result::Result<Response<pb::WithdrawApplicationResponse>, Status> {
        self.withdraw_application(request).await
    }

    async fn leave_table(
        &self,
        request: Request<pb::LeaveTableRequest>,
    ) -> std::result::Result<Response<pb::LeaveTableResponse>, Status> {
        self.leave_table(request).await
    }

    async fn make_fourth(
        &self,
        request: Request<pb::MakeFourthRequest>,
    ) -> std::result::Result<Response<pb::MakeFourthResponse>, Status> {
        self.make_fourth(request).await
    }

    async fn draw_cards(
        &self,
        request: Request<pb::DrawCardsRequest>,
    ) -> std::result::Result<Response<pb::DrawCardsResponse>, Status> {
        self.draw_cards(request).await
    }

    async fn record_physical_draw(
        &self,
        request: Request<pb::RecordPhysicalDrawRequest>,
    ) -> std::result::Result<Response<pb::RecordPhysicalDrawResponse>, Status> {
        self.record_physical_draw(request).await
    }

    async fn get_draw(
        &self,
        request: Request<pb::GetDrawRequest>,
    ) -> std::result::Result<Response<pb::GetDrawResponse>, Status> {
        self.get_draw(request).await
    }

    async fn list_draws(
        &self,
        request: Request<pb::ListDrawsRequest>,
    ) -> std::result::Result<Response<pb::ListDrawsResponse>, Status> {
        self.list_draws(request).await
    }

    async fn start_rubber(
        &self,
        request: Request<pb::StartRubberRequest>,
    ) -> std::result::Result<Response<pb::StartRubberResponse>, Status> {
        self.start_rubber(request).await
    }

    async fn end_rubber(
        &self,
        request: Request<pb::EndRubberRequest>,
    ) -> std::result::Result<Response<pb::EndRubberResponse>, Status> {
        self.end_rubber(request).await
    }

    async fn get_rubber(
        &self,
        request: Request<pb::GetRubberRequest>,
    ) -> std::result::Result<Response<pb::GetRubberResponse>, Status> {
        self.get_rubber(request).await
    }

    async fn list_rubbers(
        &self,
        request: Request<pb::ListRubbersRequest>,
    ) -> std::result::Result<Response<pb::ListRubbersResponse>, Status> {
        self.list_rubbers(request).await
    }

    type WatchRoomStream = ReceiverStream<std::result::Result<pb::WatchRoomResponse, Status>>;

    async fn watch_room(
        &self,
        request: Request<pb::WatchRoomRequest>,
    ) -> std::result::Result<Response<Self::WatchRoomStream>, Status> {
        let stream = self.engine.watch_room(request.get_ref().after_sequence).await?;
        Ok(Response::new(stream))
    }

    type WatchTableStream = ReceiverStream<std::result::Result<pb::WatchTableResponse, Status>>;

    async fn watch_table(
        &self,
        request: Request<pb::WatchTableRequest>,
    ) -> std::result::Result<Response<Self::WatchTableStream>, Status> {
        let request = request.into_inner();
        let table_id = required("table_id", &request.table_id)?;
        let stream = self.engine.watch_table(table_id, request.after_sequence).await?;
        Ok(Response::new(stream))
    }
}
