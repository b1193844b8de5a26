//! The card room: a player's arrival and departure, and who is present (rule C: in the order they
//! entered).

use std::sync::Mutex;

use api::membership::v1 as pb;
use platform::ServiceError;
use tonic::{Request, Response, Status};

use crate::commands;
use crate::store::Page;

use super::{Membership, only_self, principal, required, table_after};

impl Membership {
    pub(super) async fn arrive_in_room(
        &self,
        request: Request<pb::ArriveInRoomRequest>,
    ) -> std::result::Result<Response<pb::ArriveInRoomResponse>, Status> {
        let principal = principal(&request)?;
        let player_id = required("player_id", &request.get_ref().player_id)?.to_owned();
        only_self(&principal, &player_id, "record an arrival")?;
        let state = self.engine.current().await?;
        let number = self.active_player(&state, "player_id", &player_id).await?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::arrive(state, &player_id, number, at),
                |state, _| Ok(pb::ArriveInRoomResponse { presence: state.presence(number).cloned() }),
            )
            .await?;
        Ok(Response::new(response))
    }

    pub(super) async fn correct_arrival(
        &self,
        request: Request<pb::CorrectArrivalRequest>,
    ) -> std::result::Result<Response<pb::CorrectArrivalResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        let arrived_at = request.arrived_at.ok_or_else(|| ServiceError::invalid("arrived_at", "missing"))?;
        let arrived_at = u32::try_from(arrived_at.nanos)
            .ok()
            .filter(|n| *n < 1_000_000_000)
            .and_then(|nanos| arrived_at.seconds.checked_mul(1_000)?.checked_add(i64::from(nanos / 1_000_000)))
            .filter(|ms| *ms >= 0)
            .ok_or_else(|| ServiceError::invalid("arrived_at", "not a time since 1970"))?;
        let state = self.engine.current().await?;
        let number = self.number(&state, "player_id", &player_id).await?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::correct_arrival(state, number, arrived_at, &request.reason, at).map(Some),
                |state, _| Ok(pb::CorrectArrivalResponse { presence: state.presence(number).cloned() }),
            )
            .await?;
        Ok(Response::new(response))
    }

    pub(super) async fn leave_room(
        &self,
        request: Request<pb::LeaveRoomRequest>,
    ) -> std::result::Result<Response<pb::LeaveRoomResponse>, Status> {
        let principal = principal(&request)?;
        let player_id = required("player_id", &request.get_ref().player_id)?.to_owned();
        only_self(&principal, &player_id, "record a departure")?;
        let state = self.engine.current().await?;
        let number = self.number(&state, "player_id", &player_id).await?;
        let left: Mutex<Option<u64>> = Mutex::new(None);
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| {
                    let home = state.presence(number).and_then(|p| state.open_table(&p.table_id));
                    *left.lock().unwrap_or_else(|e| e.into_inner()) = home;
                    commands::leave_room(state, number, at).map(Some)
                },
                |state, changes| {
                    let home = *left.lock().unwrap_or_else(|e| e.into_inner());
                    Ok(pb::LeaveRoomResponse {
                        table_left: home.and_then(|n| table_after(state, changes, n)),
                        breaker_restriction: changes.restriction.clone(),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    pub(super) async fn list_present_players(
        &self,
        request: Request<pb::ListPresentPlayersRequest>,
    ) -> std::result::Result<Response<pb::ListPresentPlayersResponse>, Status> {
        let page = Page::of(request.get_ref().page.as_ref())?;
        let room = self.engine.live_room().await?;
        let mut present: Vec<pb::Presence> =
            room.present.into_iter().skip(page.offset as usize).take(page.size as usize + 1).collect();
        let page = page.response(&mut present);
        Ok(Response::new(pb::ListPresentPlayersResponse { present, page }))
    }
}
