//! The club's register: registering and updating a player, and reading the register, where a
//! player who is not staff sees other players' names but not how the club reaches them.

use api::membership::v1 as pb;
use sea_orm::Set;
use tonic::{Request, Response, Status};

use platform::ServiceError;
use platform::auth::{Principal, Role};

use crate::engine::idempotency;
use crate::entity::players;
use crate::store::{Page, datetime, player_view};

use super::{Membership, principal, required};

/// The e-mail address of `contact`: empty, or one a mail can be sent to (the desk may have a
/// member's sign-in code mailed to it), else INVALID_ARGUMENT naming `contact.email`.
fn checked_email(contact: &pb::Contact) -> Result<String, ServiceError> {
    let email = contact.email.trim();
    if email.is_empty() {
        return Ok(String::new());
    }
    platform::mail::address(email).map_err(|problem| ServiceError::invalid("contact.email", problem))?;
    Ok(email.to_owned())
}

/// The subjects of staff accounts (`staff:<name>`) and of the services (`service:<name>`): a player
/// whose id began so would carry a token with that subject, and be taken for the account or the
/// service wherever a subject is compared (a committee's members, who recorded what).
const RESERVED_SUBJECT_PREFIXES: [&str; 2] = ["staff:", "service:"];

/// A player id the register may hold: not one of the reserved subjects.
fn checked_player_id(id: &str) -> Result<&str, ServiceError> {
    match RESERVED_SUBJECT_PREFIXES.iter().find(|prefix| id.starts_with(*prefix)) {
        Some(prefix) => Err(ServiceError::invalid(
            "player_id",
            format!("an id beginning {prefix:?} is a staff account's or a service's subject, not a player's"),
        )),
        None => Ok(id),
    }
}

/// A player who is not staff sees other players' names, not how the club reaches them.
fn redact(principal: &Principal, mut player: pb::Player) -> pb::Player {
    let privileged = principal.has_any(&[Role::Desk, Role::Admin, Role::Arbiter, Role::Committee]);
    if !privileged && principal.subject != player.player_id {
        player.contact = None;
    }
    player
}

impl Membership {
    pub(super) async fn register_player(
        &self,
        request: Request<pb::RegisterPlayerRequest>,
    ) -> std::result::Result<Response<pb::RegisterPlayerResponse>, Status> {
        let request = request.into_inner();
        let key = idempotency("membership.RegisterPlayer", &request.idempotency_key, &request);
        if let Some(key) = &key
            && let Some(first) = key.first_answer(self.engine.store.db()).await?
        {
            return Ok(Response::new(first));
        }
        let name = required("name", &request.name)?.to_owned();
        let contact = request.contact.unwrap_or_default();
        let email = checked_email(&contact)?;
        let player_id = match request.player_id.trim() {
            "" => uuid::Uuid::now_v7().to_string(),
            id => checked_player_id(id)?.to_owned(),
        };
        let member_number = Some(request.member_number.trim().to_owned()).filter(|n| !n.is_empty());
        let model = players::ActiveModel {
            player_id: Set(player_id),
            name: Set(name),
            member_number: Set(member_number),
            email: Set(email),
            phone: Set(contact.phone.trim().to_owned()),
            active: Set(true),
            registered_at: Set(datetime(chrono::Utc::now().timestamp_millis())),
            version: Set(1),
            ..Default::default()
        };
        let response = self.engine.store.register(model, key.as_ref()).await?;
        Ok(Response::new(response))
    }

    pub(super) async fn update_player(
        &self,
        request: Request<pb::UpdatePlayerRequest>,
    ) -> std::result::Result<Response<pb::UpdatePlayerResponse>, Status> {
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        let name = required("name", &request.name)?.to_owned();
        let contact = request.contact.unwrap_or_default();
        let email = checked_email(&contact)?;
        if !request.active {
            let state = self.engine.current().await?;
            if state.number_of(&player_id).is_some_and(|n| state.is_present(n)) {
                return Err(ServiceError::FailedPrecondition(format!(
                    "active: player {player_id} is in the room; record his departure (LeaveRoom) before making him \
                     inactive"
                ))
                .into());
            }
        }
        let update = players::ActiveModel {
            name: Set(name),
            member_number: Set(Some(request.member_number.trim().to_owned()).filter(|n| !n.is_empty())),
            email: Set(email),
            phone: Set(contact.phone.trim().to_owned()),
            active: Set(request.active),
            ..Default::default()
        };
        let model = self.engine.store.update_player(&player_id, request.expected_version, update).await?;
        Ok(Response::new(pb::UpdatePlayerResponse { player: Some(player_view(&model)) }))
    }

    pub(super) async fn get_player(
        &self,
        request: Request<pb::GetPlayerRequest>,
    ) -> std::result::Result<Response<pb::GetPlayerResponse>, Status> {
        let principal = principal(&request)?;
        let player_id = required("player_id", &request.get_ref().player_id)?.to_owned();
        let model = self
            .engine
            .store
            .player(&player_id)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("player {player_id}")))?;
        let room = self.engine.live_room().await?;
        let presence = room.present.into_iter().find(|p| p.player_id == player_id);
        Ok(Response::new(pb::GetPlayerResponse { player: Some(redact(&principal, player_view(&model))), presence }))
    }

    pub(super) async fn list_players(
        &self,
        request: Request<pb::ListPlayersRequest>,
    ) -> std::result::Result<Response<pb::ListPlayersResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let page = Page::of(request.page.as_ref())?;
        let mut rows = self.engine.store.players(request.name_contains.trim(), request.include_inactive, page).await?;
        let page = page.response(&mut rows);
        let players = rows.iter().map(|m| redact(&principal, player_view(m))).collect();
        Ok(Response::new(pb::ListPlayersResponse { players, page }))
    }
}
