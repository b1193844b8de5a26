//! The gRPC face of the service: who may ask what (the contract's roles are checked before a
//! handler runs; here, that a player acts and sees only for himself), the translation of requests
//! into the room's commands, and of the room back into answers.

use std::sync::{Arc, Mutex};

use api::convert::ProtoEnum;
use api::membership::v1 as pb;
use api::membership::v1::membership_service_server::MembershipService;
use laws::draw::{Deck, SpreadPosition};
use laws::procedure::{Outcome, ProcedureError, TableId};
use laws::{Card, Seat};
use sea_orm::Set;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use platform::ServiceError;
use platform::auth::{Principal, Role};

use crate::commands::{self, PhysicalRequest, TableSpec};
use crate::draws::PhysicalCard;
use crate::engine::{Engine, Key};
use crate::entity::players;
use crate::journal::{Form, Options, Purpose};
use crate::state::{Changes, ClubState, player};
use crate::store::{Page, datetime, player_view};

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

fn form(kind: i32) -> Result<Form> {
    match api::common::v1::TableKind::try_from(kind) {
        Ok(api::common::v1::TableKind::Rubber) => Ok(Form::Rubber),
        Ok(api::common::v1::TableKind::Chicago) => Ok(Form::Chicago),
        Ok(api::common::v1::TableKind::Duplicate) => {
            Err(ServiceError::invalid("kind", "duplicate sessions are seated by the scoring service's session"))
        }
        Ok(api::common::v1::TableKind::Unspecified) => {
            Err(ServiceError::invalid("kind", "not given; rubber or Chicago"))
        }
        Err(_) => Err(ServiceError::invalid("kind", format!("unknown value {kind}"))),
    }
}

fn purpose(field: &str, raw: i32) -> Result<Purpose> {
    match pb::DrawPurpose::try_from(raw) {
        Ok(pb::DrawPurpose::Partnerships) => Ok(Purpose::Partnerships),
        Ok(pb::DrawPurpose::Precedence) => Ok(Purpose::Precedence),
        Ok(pb::DrawPurpose::GoingOut) => Ok(Purpose::GoingOut),
        Ok(pb::DrawPurpose::EntryFromOtherTable) => Ok(Purpose::EntryFromOtherTable),
        Ok(pb::DrawPurpose::Unspecified) => Err(ServiceError::invalid(field, "not given")),
        Err(_) => Err(ServiceError::invalid(field, format!("unknown value {raw}"))),
    }
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

    async fn options(&self, options: Option<pb::TableOptions>, form: Form) -> Result<Options> {
        let options = options.unwrap_or_default();
        if options.chicago_swap_vulnerability && form != Form::Chicago {
            return Err(ServiceError::invalid(
                "options.chicago_swap_vulnerability",
                "the switched vulnerability of the second and third deals is a Chicago option (Appendix 4 C)",
            ));
        }
        let arbiter = options.arbiter_player_id.trim().to_owned();
        if !arbiter.is_empty() && self.engine.store.player(&arbiter).await?.is_none() {
            return Err(ServiceError::invalid(
                "options.arbiter_player_id",
                format!("{arbiter} is not on the register"),
            ));
        }
        Ok(Options {
            no_consecutive_partners: options.no_consecutive_partners,
            pivot: options.pivot,
            chicago_swap_vulnerability: options.chicago_swap_vulnerability,
            club_laws: options.club_laws,
            arbiter_player_id: arbiter,
        })
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

/// A player who is not staff sees other players' names, not how the club reaches them.
fn redact(principal: &Principal, mut player: pb::Player) -> pb::Player {
    let privileged = principal.has_any(&[Role::Desk, Role::Admin, Role::Arbiter, Role::Committee]);
    if !privileged && principal.subject != player.player_id {
        player.contact = None;
    }
    player
}

#[tonic::async_trait]
impl MembershipService for Membership {
    async fn register_player(
        &self,
        request: Request<pb::RegisterPlayerRequest>,
    ) -> std::result::Result<Response<pb::RegisterPlayerResponse>, Status> {
        let request = request.into_inner();
        let key = Key::of("membership.RegisterPlayer", &request.idempotency_key, &request);
        if let Some(key) = &key
            && let Some((hash, bytes)) = self.engine.store.idempotent(key.scope, &key.key).await?
        {
            if hash != key.request_hash {
                return Err(ServiceError::invalid(
                    "idempotency_key",
                    format!("{} was used for a different request", key.key),
                )
                .into());
            }
            let first = prost::Message::decode(bytes.as_slice()).map_err(|e| ServiceError::internal(e.to_string()))?;
            return Ok(Response::new(first));
        }
        let name = required("name", &request.name)?.to_owned();
        let player_id = match request.player_id.trim() {
            "" => uuid::Uuid::now_v7().to_string(),
            id => id.to_owned(),
        };
        let contact = request.contact.unwrap_or_default();
        let member_number = Some(request.member_number.trim().to_owned()).filter(|n| !n.is_empty());
        let model = players::ActiveModel {
            player_id: Set(player_id),
            name: Set(name),
            member_number: Set(member_number),
            email: Set(contact.email.trim().to_owned()),
            phone: Set(contact.phone.trim().to_owned()),
            active: Set(true),
            registered_at: Set(datetime(chrono::Utc::now().timestamp_millis())),
            version: Set(1),
            ..Default::default()
        };
        let response = self
            .engine
            .store
            .register(model, key.as_ref().map(|k| (k.scope, k.key.as_str(), k.request_hash.as_str())))
            .await?;
        Ok(Response::new(response))
    }

    async fn update_player(
        &self,
        request: Request<pb::UpdatePlayerRequest>,
    ) -> std::result::Result<Response<pb::UpdatePlayerResponse>, Status> {
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        let name = required("name", &request.name)?.to_owned();
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
        let contact = request.contact.unwrap_or_default();
        let update = players::ActiveModel {
            name: Set(name),
            member_number: Set(Some(request.member_number.trim().to_owned()).filter(|n| !n.is_empty())),
            email: Set(contact.email.trim().to_owned()),
            phone: Set(contact.phone.trim().to_owned()),
            active: Set(request.active),
            ..Default::default()
        };
        let model = self.engine.store.update_player(&player_id, request.expected_version, update).await?;
        Ok(Response::new(pb::UpdatePlayerResponse { player: Some(player_view(&model)) }))
    }

    async fn get_player(
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

    async fn list_players(
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

    async fn arrive_in_room(
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

    async fn leave_room(
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

    async fn list_present_players(
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

    async fn open_table(
        &self,
        request: Request<pb::OpenTableRequest>,
    ) -> std::result::Result<Response<pb::OpenTableResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let key = Key::of("membership.OpenTable", &request.idempotency_key, &request);
        let form = form(request.kind)?;
        let options = self.options(request.options.clone(), form).await?;
        let state = self.engine.current().await?;
        let mut applicants = Vec::new();
        for (i, id) in request.applicant_player_ids.iter().enumerate() {
            applicants.push(self.active_player(&state, &format!("applicant_player_ids[{i}]"), id).await?);
        }
        let spec = TableSpec { name: request.name.clone(), form, options };
        // The groups of rule C are the applicants' standing before the table forms.
        let groups: Mutex<Vec<(u64, pb::PrecedenceGroup)>> = Mutex::new(Vec::new());
        let response = self
            .engine
            .execute(
                &principal.subject,
                key,
                |state, at| {
                    let standing = applicants
                        .iter()
                        .map(|p| {
                            let group = if state.room.is_leaving_a_table(player(*p)) {
                                pb::PrecedenceGroup::FromOtherTable
                            } else if state.room.has_played(player(*p)) {
                                pb::PrecedenceGroup::HasPlayed
                            } else {
                                pb::PrecedenceGroup::NotYetPlayed
                            };
                            (*p, group)
                        })
                        .collect();
                    *groups.lock().unwrap_or_else(|e| e.into_inner()) = standing;
                    commands::open_table(state, spec.clone(), &applicants, at).map(Some)
                },
                |state, changes| {
                    let groups = groups.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    let group = |p: u64| groups.iter().find(|(q, _)| *q == p).map_or(0, |(_, g)| *g as i32);
                    let mut ranking = Vec::new();
                    let mut number = None;
                    for outcome in &changes.outcomes {
                        match outcome {
                            Outcome::TableFormed { table, members, .. } => {
                                number = Some(table.0);
                                for p in members {
                                    ranking.push(pb::RankedApplicant {
                                        player_id: state.player_id(p.0),
                                        place: ranking.len() as u32 + 1,
                                        group: group(p.0),
                                        admitted: true,
                                    });
                                }
                            }
                            Outcome::Waiting { player: p, table, .. } if Some(table.0) == number => {
                                ranking.push(pb::RankedApplicant {
                                    player_id: state.player_id(p.0),
                                    place: ranking.len() as u32 + 1,
                                    group: group(p.0),
                                    admitted: false,
                                });
                            }
                            _ => {}
                        }
                    }
                    let table = number.and_then(|n| table_after(state, changes, n));
                    let precedence_draw =
                        changes.draws.iter().find(|d| d.purpose == pb::DrawPurpose::Precedence as i32).cloned();
                    Ok(pb::OpenTableResponse { table, ranking, precedence_draw })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn update_table_options(
        &self,
        request: Request<pb::UpdateTableOptionsRequest>,
    ) -> std::result::Result<Response<pb::UpdateTableOptionsResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        let form = state.form(number).ok_or_else(|| ServiceError::not_found(format!("table {}", request.table_id)))?;
        let options = self.options(request.options.clone(), form).await?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| {
                    let version = state.table(number).map_or(0, |t| t.version);
                    if version != request.expected_version {
                        return Err(ServiceError::Conflict(format!(
                            "table {} is at version {version}, not {}: read it again",
                            request.table_id, request.expected_version
                        )));
                    }
                    commands::update_options(state, number, options.clone(), at).map(Some)
                },
                |state, changes| Ok(pb::UpdateTableOptionsResponse { table: table_after(state, changes, number) }),
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn close_table(
        &self,
        request: Request<pb::CloseTableRequest>,
    ) -> std::result::Result<Response<pb::CloseTableResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let table_id = required("table_id", &request.table_id)?.to_owned();
        let state = self.engine.current().await?;
        let Some(number) = state.open_table(&table_id) else {
            // Closing a closed table changes nothing and returns it.
            let table = self
                .engine
                .store
                .table(&table_id)
                .await?
                .ok_or_else(|| ServiceError::not_found(format!("table {table_id}")))?;
            return Ok(Response::new(pb::CloseTableResponse { table: Some(table) }));
        };
        let reason = match request.reason.trim() {
            "" => "closed by the desk".to_owned(),
            reason => reason.to_owned(),
        };
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| match state.open_table(&table_id) {
                    Some(_) => commands::close_table(state, number, &reason, at).map(Some),
                    None => Ok(None),
                },
                |state, changes| Ok(pb::CloseTableResponse { table: table_after(state, changes, number) }),
            )
            .await?;
        match response.table {
            Some(_) => Ok(Response::new(response)),
            None => {
                let table = self.engine.store.table(&table_id).await?;
                Ok(Response::new(pb::CloseTableResponse { table }))
            }
        }
    }

    async fn get_table(
        &self,
        request: Request<pb::GetTableRequest>,
    ) -> std::result::Result<Response<pb::GetTableResponse>, Status> {
        let table_id = required("table_id", &request.get_ref().table_id)?.to_owned();
        let room = self.engine.live_room().await?;
        let table = match room.tables.into_iter().find(|t| t.table_id == table_id) {
            Some(table) => table,
            None => self
                .engine
                .store
                .table(&table_id)
                .await?
                .ok_or_else(|| ServiceError::not_found(format!("table {table_id}")))?,
        };
        Ok(Response::new(pb::GetTableResponse { table: Some(table) }))
    }

    async fn list_tables(
        &self,
        request: Request<pb::ListTablesRequest>,
    ) -> std::result::Result<Response<pb::ListTablesResponse>, Status> {
        let request = request.into_inner();
        let page = Page::of(request.page.as_ref())?;
        let room = self.engine.live_room().await?;
        let mut tables = if request.include_closed {
            self.engine.store.tables(true, page).await?
        } else {
            room.tables.into_iter().skip(page.offset as usize).take(page.size as usize + 1).collect()
        };
        let page = page.response(&mut tables);
        let next_opening_draw_seed_commitment = room.next_opening_draw_seed_commitment;
        Ok(Response::new(pb::ListTablesResponse { tables, page, next_opening_draw_seed_commitment }))
    }

    async fn apply_to_table(
        &self,
        request: Request<pb::ApplyToTableRequest>,
    ) -> std::result::Result<Response<pb::ApplyToTableResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        only_self(&principal, &player_id, "apply to a table")?;
        if !request.together_with_player_ids.is_empty() && !is_staff(&principal) {
            return Err(ServiceError::PermissionDenied(
                "together_with_player_ids: only the desk records applications made together".to_owned(),
            )
            .into());
        }
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        let applicant = self.active_player(&state, "player_id", &player_id).await?;
        let mut players = vec![applicant];
        for (i, id) in request.together_with_player_ids.iter().enumerate() {
            players.push(self.active_player(&state, &format!("together_with_player_ids[{i}]"), id).await?);
        }
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| {
                    // Applying again while an application waits returns that application.
                    if players.len() == 1 && state.waiting_application(number, applicant).is_some() {
                        return Ok(None);
                    }
                    commands::apply(state, number, &players, at).map(Some)
                },
                |state, changes| {
                    let application = |p: u64| {
                        let id = state.player_id(p);
                        changes
                            .applications
                            .iter()
                            .rev()
                            .find(|a| a.player_id == id && a.table_id == state.table_id(number))
                            .filter(|a| a.status != pb::ApplicationStatus::Waiting as i32)
                            .cloned()
                            .or_else(|| state.waiting_application(number, p).map(|a| state.application_view(a)))
                    };
                    Ok(pb::ApplyToTableResponse {
                        application: application(applicant),
                        table: table_after(state, changes, number),
                        together_with: players[1..].iter().filter_map(|p| application(*p)).collect(),
                        precedence_draw: changes
                            .draws
                            .iter()
                            .find(|d| d.purpose == pb::DrawPurpose::Precedence as i32)
                            .cloned(),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn withdraw_application(
        &self,
        request: Request<pb::WithdrawApplicationRequest>,
    ) -> std::result::Result<Response<pb::WithdrawApplicationResponse>, Status> {
        let principal = principal(&request)?;
        let application_id = required("application_id", &request.get_ref().application_id)?.to_owned();
        let state = self.engine.current().await?;
        let Some(application) = state.application(&application_id).cloned() else {
            // Not waiting: say what became of it.
            let stored = self
                .engine
                .store
                .application(&application_id)
                .await?
                .ok_or_else(|| ServiceError::not_found(format!("application {application_id}")))?;
            only_self(&principal, &stored.player_id, "withdraw an application")?;
            let status = pb::ApplicationStatus::try_from(stored.status).unwrap_or_default();
            return Err(ServiceError::Rule {
                message: format!(
                    "application {application_id} is {}: only a waiting application can be withdrawn (rule D of the \
                     Rules for Club Procedure)",
                    status.as_str_name().trim_start_matches("APPLICATION_STATUS_").to_lowercase()
                ),
                law: laws::Law::club_procedure('D'),
            }
            .into());
        };
        only_self(&principal, &state.player_id(application.player), "withdraw an application")?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| match state.application(&application_id) {
                    Some(_) => commands::withdraw(state, &application_id, at).map(Some),
                    None => Err(state.refusal(&ProcedureError::NotWaiting {
                        player: player(application.player),
                        table: TableId(application.table),
                    })),
                },
                |_, changes| {
                    Ok(pb::WithdrawApplicationResponse {
                        application: changes.applications.iter().find(|a| a.application_id == application_id).cloned(),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn leave_table(
        &self,
        request: Request<pb::LeaveTableRequest>,
    ) -> std::result::Result<Response<pb::LeaveTableResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        only_self(&principal, &player_id, "leave a table")?;
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        let member = self.number(&state, "player_id", &player_id).await?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::leave_table(state, number, member, at).map(Some),
                |state, changes| {
                    Ok(pb::LeaveTableResponse {
                        table: table_after(state, changes, number),
                        breaker_restriction: changes.restriction.clone(),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn make_fourth(
        &self,
        request: Request<pb::MakeFourthRequest>,
    ) -> std::result::Result<Response<pb::MakeFourthResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let player_id = required("player_id", &request.player_id)?.to_owned();
        only_self(&principal, &player_id, "answer a request to make a fourth")?;
        let state = self.engine.current().await?;
        let host = self.table(&state, "host_table_id", &request.host_table_id).await?;
        let number = self.active_player(&state, "player_id", &player_id).await?;
        let home: Mutex<Option<u64>> = Mutex::new(None);
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| {
                    let tables = state.room.tables_of(player(number));
                    *home.lock().unwrap_or_else(|e| e.into_inner()) =
                        tables.into_iter().map(|t| t.0).find(|t| *t != host);
                    commands::make_fourth(state, number, host, request.announced_return, at).map(Some)
                },
                |state, changes| {
                    let home = *home.lock().unwrap_or_else(|e| e.into_inner());
                    Ok(pb::MakeFourthResponse {
                        host_table: table_after(state, changes, host),
                        home_table: home.and_then(|n| table_after(state, changes, n)),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn draw_cards(
        &self,
        request: Request<pb::DrawCardsRequest>,
    ) -> std::result::Result<Response<pb::DrawCardsResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let purpose = purpose("purpose", request.purpose)?;
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        if request.player_ids.len() < 2 {
            return Err(ServiceError::invalid("player_ids", "at least two players draw").into());
        }
        let players = self.numbers(&state, "player_ids", &request.player_ids).await?;
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::draw_cards(state, number, purpose, &players, at).map(Some),
                |_, changes| Ok(pb::DrawCardsResponse { draw: changes.draws.last().cloned() }),
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn record_physical_draw(
        &self,
        request: Request<pb::RecordPhysicalDrawRequest>,
    ) -> std::result::Result<Response<pb::RecordPhysicalDrawResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        let draw_id = Some(request.draw_id.trim().to_owned()).filter(|id| !id.is_empty());
        let (purpose, players) = match &draw_id {
            Some(_) => (Purpose::Partnerships, Vec::new()),
            None => {
                if request.player_ids.len() < 2 {
                    return Err(ServiceError::invalid("player_ids", "at least two players draw").into());
                }
                (purpose("purpose", request.purpose)?, self.numbers(&state, "player_ids", &request.player_ids).await?)
            }
        };
        let mut cards = Vec::with_capacity(request.drawings.len());
        for (i, drawing) in request.drawings.iter().enumerate() {
            let field = |name: &str| format!("drawings[{i}].{name}");
            let player = self.number(&state, &field("player_id"), &drawing.player_id).await?;
            let card = Card::try_from(api::convert::required(&field("card"), drawing.card)?)
                .map_err(|e| e.within(&field("card")))?;
            let position =
                u8::try_from(drawing.spread_position).ok().and_then(|p| SpreadPosition::new(p).ok()).ok_or_else(
                    || ServiceError::invalid(&field("spread_position"), "0 to 51: a spread holds 52 cards (Law 1)"),
                )?;
            let deck = match drawing.deck {
                1 => Deck::First,
                2 => Deck::Second,
                other => return Err(ServiceError::invalid(&field("deck"), format!("1 or 2, not {other}")).into()),
            };
            cards.push(PhysicalCard { player, card, position, deck, more_than_one_card: drawing.more_than_one_card });
        }
        let physical = PhysicalRequest { draw_id, purpose, players, cards };
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::record_physical(state, number, physical.clone(), at).map(Some),
                |_, changes| Ok(pb::RecordPhysicalDrawResponse { draw: changes.draws.last().cloned() }),
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn get_draw(
        &self,
        request: Request<pb::GetDrawRequest>,
    ) -> std::result::Result<Response<pb::GetDrawResponse>, Status> {
        let draw_id = required("draw_id", &request.get_ref().draw_id)?.to_owned();
        let draw = self
            .engine
            .store
            .draw(&draw_id)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("draw {draw_id}")))?;
        Ok(Response::new(pb::GetDrawResponse { draw: Some(draw) }))
    }

    async fn list_draws(
        &self,
        request: Request<pb::ListDrawsRequest>,
    ) -> std::result::Result<Response<pb::ListDrawsResponse>, Status> {
        let request = request.into_inner();
        let table_id = required("table_id", &request.table_id)?;
        let page = Page::of(request.page.as_ref())?;
        let mut draws = self.engine.store.draws(table_id, page).await?;
        let page = page.response(&mut draws);
        Ok(Response::new(pb::ListDrawsResponse { draws, page }))
    }

    async fn start_rubber(
        &self,
        request: Request<pb::StartRubberRequest>,
    ) -> std::result::Result<Response<pb::StartRubberResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        let mut choices = Vec::with_capacity(request.seat_choices.len());
        for (i, choice) in request.seat_choices.iter().enumerate() {
            let seat = Seat::from_proto(&format!("seat_choices[{i}].seat"), choice.seat)?;
            let player = self.number(&state, &format!("seat_choices[{i}].player_id"), &choice.player_id).await?;
            if choices.iter().any(|(s, _)| *s == seat) {
                return Err(ServiceError::invalid(&format!("seat_choices[{i}].seat"), "a seat is chosen once").into());
            }
            choices.push((seat, player));
        }
        if !choices.is_empty() && choices.len() != 4 {
            return Err(
                ServiceError::invalid("seat_choices", "all four seats, or none for the server to seat them").into()
            );
        }
        let draw_id = Some(request.partnership_draw_id.trim().to_owned()).filter(|id| !id.is_empty());
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::start_rubber(state, number, draw_id.as_deref(), &choices, at).map(Some),
                |state, changes| {
                    Ok(pb::StartRubberResponse {
                        rubber: changes.rubbers.iter().find(|(r, _)| r.ended_at.is_none()).map(|(r, _)| r.clone()),
                        table: table_after(state, changes, number),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn end_rubber(
        &self,
        request: Request<pb::EndRubberRequest>,
    ) -> std::result::Result<Response<pb::EndRubberResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let rubber_id = required("rubber_id", &request.rubber_id)?.to_owned();
        let table_id = required("table_id", &request.table_id)?.to_owned();
        let completed = match pb::RubberStatus::try_from(request.status) {
            Ok(pb::RubberStatus::Finished) => true,
            Ok(pb::RubberStatus::Unfinished) => false,
            _ => {
                return Err(
                    ServiceError::invalid("status", "RUBBER_STATUS_FINISHED or RUBBER_STATUS_UNFINISHED").into()
                );
            }
        };
        let state = self.engine.current().await?;
        let number = state.open_table(&table_id);
        let response = match number {
            Some(number) => {
                self.engine
                    .execute(
                        &principal.subject,
                        None,
                        |state, at| match state.current_rubber(number) {
                            Some(rubber) if rubber.rubber_id == rubber_id => {
                                commands::end_rubber(state, number, &rubber_id, completed, at).map(Some)
                            }
                            _ => Ok(None),
                        },
                        |state, changes| {
                            let ended = changes.rubbers.iter().find(|(r, _)| r.rubber_id == rubber_id);
                            Ok(pb::EndRubberResponse {
                                rubber: ended.map(|(r, _)| r.clone()),
                                going_out: ended.and_then(|(_, g)| g.clone()),
                                table: table_after(state, changes, number),
                            })
                        },
                    )
                    .await?
            }
            None => pb::EndRubberResponse::default(),
        };
        if response.rubber.is_some() {
            return Ok(Response::new(response));
        }
        // Not the rubber in progress: a repeat of an end already recorded returns it (the game and
        // scoring services may report the same end more than once).
        let Some((rubber, going_out)) = self.engine.store.rubber(&rubber_id).await? else {
            return Err(ServiceError::not_found(format!("rubber {rubber_id}")).into());
        };
        if rubber.table_id != table_id {
            return Err(ServiceError::invalid(
                "table_id",
                format!("rubber {rubber_id} is at table {}", rubber.table_id),
            )
            .into());
        }
        if rubber.ended_at.is_none() {
            return Err(ServiceError::FailedPrecondition(format!("rubber {rubber_id} is not in progress")).into());
        }
        let table = self.engine.store.table(&table_id).await?;
        let table = match state.open_table(&table_id).and_then(|n| state.table(n)) {
            Some(live) => Some(live.clone()),
            None => table,
        };
        Ok(Response::new(pb::EndRubberResponse { rubber: Some(rubber), going_out, table }))
    }

    async fn get_rubber(
        &self,
        request: Request<pb::GetRubberRequest>,
    ) -> std::result::Result<Response<pb::GetRubberResponse>, Status> {
        let rubber_id = required("rubber_id", &request.get_ref().rubber_id)?.to_owned();
        let (rubber, _) = self
            .engine
            .store
            .rubber(&rubber_id)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("rubber {rubber_id}")))?;
        Ok(Response::new(pb::GetRubberResponse { rubber: Some(rubber) }))
    }

    async fn list_rubbers(
        &self,
        request: Request<pb::ListRubbersRequest>,
    ) -> std::result::Result<Response<pb::ListRubbersResponse>, Status> {
        let request = request.into_inner();
        let table_id = required("table_id", &request.table_id)?;
        let page = Page::of(request.page.as_ref())?;
        let mut rubbers = self.engine.store.rubbers(table_id, page).await?;
        let page = page.response(&mut rubbers);
        Ok(Response::new(pb::ListRubbersResponse { rubbers, page }))
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
