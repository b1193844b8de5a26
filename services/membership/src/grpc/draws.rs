//! Draws for the next rubber's line-up (Law 3): made by the server or recorded from physical
//! cards the desk reports, and read back for audit.

use api::membership::v1 as pb;
use laws::Card;
use laws::draw::{Deck, SpreadPosition};
use tonic::{Request, Response, Status};

use platform::ServiceError;

use crate::commands::{self, PhysicalRequest};
use crate::draws::PhysicalCard;
use crate::journal::Purpose;
use crate::state::ClubState;
use crate::store::Page;

use super::{Membership, Result, principal, required};

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
    pub(super) async fn draw_cards(
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

    pub(super) async fn record_physical_draw(
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
        let cards = self.physical_cards(&state, "drawings", &request.drawings).await?;
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

    /// The physical cards of a request's `field`, each checked as a card of the table's two
    /// decks in a spread of 52 (Law 1), drawn by a player of the register.
    pub(super) async fn physical_cards(
        &self,
        state: &ClubState,
        field: &str,
        drawings: &[pb::PhysicalDrawing],
    ) -> Result<Vec<PhysicalCard>> {
        let mut cards = Vec::with_capacity(drawings.len());
        for (i, drawing) in drawings.iter().enumerate() {
            let field = |name: &str| format!("{field}[{i}].{name}");
            let player = self.number(state, &field("player_id"), &drawing.player_id).await?;
            let card = Card::try_from(api::convert::required(&field("card"), drawing.card)?)
                .map_err(|e| e.within(&field("card")))?;
            let position =
                u8::try_from(drawing.spread_position).ok().and_then(|p| SpreadPosition::new(p).ok()).ok_or_else(
                    || ServiceError::invalid(&field("spread_position"), "0 to 51: a spread holds 52 cards (Law 1)"),
                )?;
            let deck = match drawing.deck {
                1 => Deck::First,
                2 => Deck::Second,
                other => return Err(ServiceError::invalid(&field("deck"), format!("1 or 2, not {other}"))),
            };
            cards.push(PhysicalCard { player, card, position, deck, more_than_one_card: drawing.more_than_one_card });
        }
        Ok(cards)
    }

    pub(super) async fn get_draw(
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

    pub(super) async fn list_draws(
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
}
