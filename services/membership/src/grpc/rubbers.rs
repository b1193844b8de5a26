//! Rubbers: starting one (its remaining draws and the seating), ending it (with a repeated end
//! answered as recorded), and reading rubbers back.

use api::convert::ProtoEnum;
use api::membership::v1 as pb;
use laws::Seat;
use laws::draw::Deck;
use tonic::{Request, Response, Status};

use platform::ServiceError;

use crate::commands;
use crate::store::Page;

use super::{Membership, principal, required, table_after};

impl Membership {
    pub(super) async fn start_rubber(
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
        let deck = match request.first_deck {
            0 | 1 => Deck::First,
            2 => Deck::Second,
            _ => return Err(ServiceError::invalid("first_deck", "1 or 2: a table has two decks (Law 1)").into()),
        };
        let agreed = match &request.agreed_partnerships {
            None => None,
            Some(agreed) => {
                let field = "agreed_partnerships.partner_player_ids";
                let [a, b] = agreed.partner_player_ids.as_slice() else {
                    return Err(ServiceError::invalid(field, "two players, partners").into());
                };
                let partners = [
                    self.number(&state, &format!("{field}[0]"), a).await?,
                    self.number(&state, &format!("{field}[1]"), b).await?,
                ];
                if partners[0] == partners[1] {
                    return Err(ServiceError::invalid(field, "two different players").into());
                }
                let dealer = &agreed.first_dealer_player_id;
                let first_dealer = self.number(&state, "agreed_partnerships.first_dealer_player_id", dealer).await?;
                Some(commands::AgreedPartnerships { partners, first_dealer })
            }
        };
        let start = commands::RubberStart {
            partnership_draw_id: draw_id.as_deref(),
            seat_choices: &choices,
            deck,
            agreed,
            server_draw: request.server_draw,
        };
        let response = self
            .engine
            .execute(
                &principal.subject,
                None,
                |state, at| commands::start_rubber(state, number, &start, at).map(Some),
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

    pub(super) async fn end_rubber(
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

    pub(super) async fn get_rubber(
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

    pub(super) async fn list_rubbers(
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
}
