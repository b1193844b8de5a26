//! Tables: opening one from its applicants (rule C, with the precedence draw it may need), its
//! club options, closing it, and reading tables open or closed.

use std::sync::Mutex;

use api::membership::v1 as pb;
use laws::procedure::Outcome;
use tonic::{Request, Response, Status};

use platform::ServiceError;

use crate::commands::{self, TableSpec};
use crate::engine::idempotency;
use crate::journal::{Form, Options};
use crate::state::{player, precedence_group};
use crate::store::Page;

use super::{Membership, Result, principal, required, table_after};

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

impl Membership {
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
            server_draws_automatic: options.server_draws_automatic,
        })
    }

    pub(super) async fn open_table(
        &self,
        request: Request<pb::OpenTableRequest>,
    ) -> std::result::Result<Response<pb::OpenTableResponse>, Status> {
        let principal = principal(&request)?;
        let request = request.into_inner();
        let key = idempotency("membership.OpenTable", &request.idempotency_key, &request);
        let form = form(request.kind)?;
        let options = self.options(request.options.clone(), form).await?;
        let state = self.engine.current().await?;
        let mut applicants = Vec::new();
        for (i, id) in request.applicant_player_ids.iter().enumerate() {
            applicants.push(self.active_player(&state, &format!("applicant_player_ids[{i}]"), id).await?);
        }
        let mut returning = Vec::new();
        for (i, id) in request.returning_fourth_player_ids.iter().enumerate() {
            returning.push(self.number(&state, &format!("returning_fourth_player_ids[{i}]"), id).await?);
        }
        let precedence = self.physical_cards(&state, "precedence_drawings", &request.precedence_drawings).await?;
        let spec = TableSpec { name: request.name.clone(), form, options };
        // The groups of rule C are the applicants' standing before the table forms.
        let groups: Mutex<Vec<(u64, pb::PrecedenceGroup)>> = Mutex::new(Vec::new());
        let response = self
            .engine
            .execute(
                &principal.subject,
                key,
                |state, at| {
                    let standing = applicants.iter().map(|p| (*p, precedence_group(&state.room, player(*p)))).collect();
                    *groups.lock().unwrap_or_else(|e| e.into_inner()) = standing;
                    commands::open_table(
                        state,
                        spec.clone(),
                        &applicants,
                        &returning,
                        &precedence,
                        request.server_draw,
                        at,
                    )
                    .map(Some)
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

    pub(super) async fn update_table_options(
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

    pub(super) async fn close_table(
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

    pub(super) async fn get_table(
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

    /// What happens next at a table, or what forming a table or applying to one would need.
    pub(super) async fn get_next_steps(
        &self,
        request: Request<pb::GetNextStepsRequest>,
    ) -> std::result::Result<Response<pb::GetNextStepsResponse>, Status> {
        let request = request.into_inner();
        let state = self.engine.current().await?;
        let applicants = self.numbers(&state, "applicant_player_ids", &request.applicant_player_ids).await?;
        let table_id = request.table_id.trim();
        let next_steps = if table_id.is_empty() {
            if applicants.is_empty() {
                return Err(ServiceError::invalid(
                    "table_id",
                    "a table, or applicant_player_ids for a table to be formed",
                )
                .into());
            }
            // Only the draw option matters before the table exists (the laws' options rank no
            // applicant); the rest are checked when the table is opened.
            let options = request
                .options
                .as_ref()
                .map(|o| Options { server_draws_automatic: o.server_draws_automatic, ..Options::default() });
            state.formation_steps(&applicants, &options.unwrap_or_default())?
        } else if !applicants.is_empty() {
            let number = self.table(&state, "table_id", table_id).await?;
            state.application_steps(number, &applicants)?
        } else {
            match state.open_table(table_id) {
                Some(number) => state.table(number).and_then(|t| t.next_steps.clone()).unwrap_or_default(),
                None => {
                    let table = self
                        .engine
                        .store
                        .table(table_id)
                        .await?
                        .ok_or_else(|| ServiceError::not_found(format!("table_id: table {table_id}")))?;
                    table.next_steps.unwrap_or_else(|| pb::NextSteps {
                        step: pb::NextStep::Closed as i32,
                        summary: format!("{} is closed.", table.name),
                        ..pb::NextSteps::default()
                    })
                }
            }
        };
        Ok(Response::new(pb::GetNextStepsResponse { next_steps: Some(next_steps) }))
    }

    pub(super) async fn list_tables(
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
}
