//! A table's members: applying to a table and withdrawing a waiting application (rule D),
//! leaving a table, and making a fourth at another (rule F).

use std::sync::Mutex;

use api::membership::v1 as pb;
use laws::procedure::{ProcedureError, TableId};
use tonic::{Request, Response, Status};

use platform::ServiceError;

use crate::commands;
use crate::state::player;

use super::{Membership, is_staff, only_self, principal, required, table_after};

impl Membership {
    pub(super) async fn apply_to_table(
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
        if !request.precedence_drawings.is_empty() && !is_staff(&principal) {
            return Err(ServiceError::PermissionDenied(
                "precedence_drawings: only the desk records a physical draw".to_owned(),
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
        let precedence = self.physical_cards(&state, "precedence_drawings", &request.precedence_drawings).await?;
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
                    commands::apply(state, number, &players, &precedence, request.server_draw, at).map(Some)
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

    pub(super) async fn mark_applications_together(
        &self,
        request: Request<pb::MarkApplicationsTogetherRequest>,
    ) -> std::result::Result<Response<pb::MarkApplicationsTogetherResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let state = self.engine.current().await?;
        let number = self.table(&state, "table_id", &request.table_id).await?;
        if request.application_ids.len() < 2 {
            return Err(ServiceError::invalid("application_ids", "two or more waiting applications").into());
        }
        for (i, id) in request.application_ids.iter().enumerate() {
            required(&format!("application_ids[{i}]"), id)?;
        }
        let precedence = self.physical_cards(&state, "precedence_drawings", &request.precedence_drawings).await?;
        let ids = request.application_ids.clone();
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| {
                    commands::join_applications(state, number, &ids, &precedence, request.server_draw, at).map(Some)
                },
                |state, changes| {
                    Ok(pb::MarkApplicationsTogetherResponse {
                        table: table_after(state, changes, number),
                        precedence_draw: changes.draws.last().cloned(),
                    })
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    pub(super) async fn withdraw_application(
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

    pub(super) async fn leave_table(
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

    pub(super) async fn make_fourth(
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
}
