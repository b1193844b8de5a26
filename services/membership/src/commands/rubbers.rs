//! Starting a rubber (the draws the room still asks for, the partnerships, and the seating Law 3
//! allows) and ending it.

use laws::draw::{Deck, DrawResult, DrawnCard, Partnerships, PlayerId, SeatChoice, Seating};
use laws::procedure::{DrawPurpose, Outcome, PartnershipSource, ProcedureEvent, TableId};
use laws::{Law, Seat};

use platform::ServiceError;

use crate::draws;
use crate::journal::{Command, Purpose};
use crate::state::{ClubState, player};

use super::line_up::{lining_up, pending_refusal};
use super::{Plan, Sim, draw_not_asked_for, server_draw_for};

/// A seat the desk chose for a player.
pub type SeatChoiceRequest = (Seat, u64);

/// What the desk recorded of the four's choices as a rubber starts (Law 3).
#[derive(Debug, Clone, Copy)]
pub struct RubberStart<'a> {
    /// A completed draw for partnerships to use; `None` for the one made since the last rubber,
    /// else a server draw if one may be made.
    pub partnership_draw_id: Option<&'a str>,
    /// The seats chosen; empty for the server to seat the four.
    pub seat_choices: &'a [SeatChoiceRequest],
    /// The deck the first dealer chose to deal with.
    pub deck: Deck,
    /// Partnerships the four agreed instead of drawing.
    pub agreed: Option<AgreedPartnerships>,
    /// The desk asks the server to make every draw still needed.
    pub server_draw: bool,
}

impl Default for RubberStart<'_> {
    /// Nothing chosen: the server draws and seats, and the first dealer deals with the first deck.
    fn default() -> Self {
        RubberStart {
            partnership_draw_id: None,
            seat_choices: &[],
            deck: Deck::First,
            agreed: None,
            server_draw: false,
        }
    }
}

/// Partnerships the four who play agreed (Law 3: "unless it is otherwise agreed"), and who they
/// agreed deals first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgreedPartnerships {
    /// Two of the four, partners.
    pub partners: [u64; 2],
    /// The first dealer.
    pub first_dealer: u64,
}

/// Starts a rubber: starts its draw if that has not begun (rule B), uses the draws made since the
/// last rubber, and has the server make every draw the room still asks for (going out, entry from
/// another table: rule E; then the partnerships, Law 3) when the desk asked for that or the
/// table's option says so; otherwise a draw still needed refuses the start, naming it. A pivot's
/// rotation or partnerships the four agreed take the place of the partnership draw. Seats the four
/// as Law 3 says.
pub fn start_rubber(state: &ClubState, table: u64, start: &RubberStart<'_>, at: i64) -> Result<Plan, ServiceError> {
    let RubberStart { partnership_draw_id, seat_choices, deck, agreed, server_draw } = *start;
    let server_draw = server_draw || state.options(table).is_some_and(|o| o.server_draws_automatic);
    if agreed.is_some() && partnership_draw_id.is_some() {
        return Err(ServiceError::invalid(
            "agreed_partnerships",
            "agreed partnerships are instead of a draw for them: give one or the other (Law 3)",
        ));
    }
    if let Some(pending) = state.pending_physical_draw(table) {
        return Err(pending_refusal(pending));
    }
    let mut sim = Sim::new(state, at);
    lining_up(&mut sim, table)?;
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let mut new_draws = Vec::new();
    let mut used_draw = None;
    let mut partnership_cards = None;
    let mut set = None;
    // Rule E can ask for at most a going-out draw, a "who would otherwise play" draw and an entry
    // draw before the partnerships; the bound only guards against a loop.
    for _ in 0..8 {
        match (sim.room.next_draw(TableId(table)), agreed) {
            (Some(needed), _) if needed.purpose != DrawPurpose::Partnerships => {
                if !server_draw {
                    return Err(draw_not_asked_for(
                        state,
                        &needed,
                        "record it (RecordPhysicalDraw), or ask the server for it (DrawCards, or StartRubber's \
                         server_draw)",
                    ));
                }
                let record = server_draw_for(state, &needed, &mut seeds, sim.at())?;
                let at = sim.at;
                sim.push(ProcedureEvent::LineUpDrawn {
                    table: TableId(table),
                    purpose: needed.purpose,
                    draw: record.cards(),
                    at,
                })?;
                new_draws.push(record);
            }
            (Some(needed), Some(agreed)) => {
                let partnerships = agreed_among(state, &needed.players, &agreed)?;
                let at = sim.at;
                let outcomes = sim.push(ProcedureEvent::RubberStarted {
                    table: TableId(table),
                    partnerships: PartnershipSource::Agreed(partnerships),
                    at,
                })?;
                set = partnerships_set(outcomes);
                break;
            }
            (Some(needed), None) => {
                let cards = match partnership_draw_id {
                    Some(id) => {
                        let draw = state
                            .line_up_draws(table)
                            .iter()
                            .find(|d| d.draw_id == id && d.purpose == Purpose::Partnerships && d.is_complete())
                            .ok_or_else(|| {
                                ServiceError::FailedPrecondition(format!(
                                    "partnership_draw_id: {id} is not a complete draw for partnerships for this rubber \
                                     at {}",
                                    state.table_id(table)
                                ))
                            })?;
                        used_draw = Some(draw.draw_id.clone());
                        draw.cards()
                    }
                    None => match state.partnership_draw(table) {
                        Some(draw) => {
                            used_draw = Some(draw.draw_id.clone());
                            draw.cards()
                        }
                        None if !server_draw => {
                            return Err(draw_not_asked_for(
                                state,
                                &needed,
                                "record it (RecordPhysicalDraw), ask the server for it (DrawCards, or StartRubber's \
                                 server_draw), or record the partnerships the four agreed (agreed_partnerships)",
                            ));
                        }
                        None => {
                            let record = server_draw_for(state, &needed, &mut seeds, sim.at())?;
                            let cards = record.cards();
                            new_draws.push(record);
                            cards
                        }
                    },
                };
                let four: [DrawnCard; 4] = cards.clone().try_into().map_err(|_| ServiceError::Rule {
                    message: "the draw for partnerships is four cards, one for each player (Law 3)".to_owned(),
                    law: Law::rubber(3, ""),
                })?;
                let at = sim.at;
                let outcomes = sim.push(ProcedureEvent::RubberStarted {
                    table: TableId(table),
                    partnerships: PartnershipSource::Drawn(four),
                    at,
                })?;
                set = partnerships_set(outcomes);
                partnership_cards = Some(cards);
                break;
            }
            (None, Some(_)) => {
                return Err(ServiceError::Rule {
                    message: format!(
                        "agreed_partnerships: {} is a pivot table, whose partnerships follow its rotation (Appendix \
                         4 B)",
                        state.table_id(table)
                    ),
                    law: Law::rubber(3, ""),
                });
            }
            (None, None) => {
                let at = sim.at;
                let outcomes = sim.push(ProcedureEvent::RubberStarted {
                    table: TableId(table),
                    partnerships: PartnershipSource::Pivot,
                    at,
                })?;
                set = partnerships_set(outcomes);
                break;
            }
        }
    }
    let Some(Outcome::PartnershipsSet { partnerships, first_dealer, no_consecutive_applied, .. }) = set else {
        return Err(ServiceError::internal("a rubber started without partnerships"));
    };
    // With partnerships agreed no card names the first dealer: the four agreed him too.
    let dealer = match agreed {
        Some(agreed) => player(agreed.first_dealer),
        None => first_dealer.unwrap_or(partnerships.sides()[0][0]),
    };
    let result = DrawResult { partnerships, first_dealer: dealer, no_consecutive_applied };
    let seating = seat(state, &result, partnership_cards.as_deref(), seat_choices, deck)?;
    let seats = Seat::ALL.map(|s| seating.player_at(s).0);
    let first_dealer = seating.first_dealer().index() as u8;
    let rubber_id = uuid::Uuid::now_v7().to_string();
    Ok(sim.plan(Command::StartRubber {
        table,
        rubber_id,
        draws: new_draws,
        partnership_draw_id: used_draw,
        seats,
        first_dealer,
        next_seeds: seeds.after(draws::SEEDS_AHEAD),
        first_deck: match seating.deck() {
            Deck::First => 1,
            Deck::Second => 2,
        },
        agreed: agreed.is_some(),
    }))
}

/// The partnerships agreed among the four who play (`four`), checked: the partners and the first
/// dealer are among them (Law 3).
fn agreed_among(
    state: &ClubState,
    four: &[PlayerId],
    agreed: &AgreedPartnerships,
) -> Result<Partnerships, ServiceError> {
    let named = |p: u64| four.contains(&player(p));
    let outsider = agreed.partners.iter().chain([&agreed.first_dealer]).find(|p| !named(**p));
    if let Some(p) = outsider {
        return Err(ServiceError::Rule {
            message: format!(
                "agreed_partnerships: player {} is not one of the four who play this rubber ({}) (Law 3)",
                state.player_id(*p),
                four.iter().map(|p| state.player_id(p.0)).collect::<Vec<_>>().join(", ")
            ),
            law: Law::rubber(3, ""),
        });
    }
    let [a, b] = agreed.partners.map(player);
    let others: Vec<PlayerId> = four.iter().copied().filter(|p| *p != a && *p != b).collect();
    let others: [PlayerId; 2] = others
        .try_into()
        .map_err(|_| ServiceError::invalid("agreed_partnerships.partner_player_ids", "two different players"))?;
    Partnerships::new([a, b], others).map_err(|e| state.refusal(&e))
}

fn partnerships_set(outcomes: Vec<Outcome>) -> Option<Outcome> {
    outcomes.into_iter().find(|o| matches!(o, Outcome::PartnershipsSet { .. }))
}

/// Law 3: the first dealer chooses his seat, his partner sits opposite, the opponents take the
/// other two. With no choices the server seats the first dealer North and the opponent with the
/// higher card East (on his left).
fn seat(
    state: &ClubState,
    result: &DrawResult,
    cards: Option<&[DrawnCard]>,
    choices: &[SeatChoiceRequest],
    deck: Deck,
) -> Result<Seating, ServiceError> {
    let refuse = |e: laws::draw::DrawError| state.refusal(&e);
    if choices.is_empty() {
        let [a, b] = result.opponents();
        let card = |p| cards.and_then(|c| c.iter().find(|d| d.player == p).map(|d| d.card));
        let lho = if card(b) > card(a) { b } else { a };
        return Seating::choose(result, SeatChoice { dealer_seat: Seat::North, deck, dealer_lho: lho }).map_err(refuse);
    }
    let dealer = result.first_dealer;
    let dealer_seat =
        choices.iter().find(|(_, p)| *p == dealer.0).map(|(s, _)| *s).ok_or_else(|| ServiceError::Rule {
            message: format!(
                "seat_choices: the first dealer, player {}, chooses his seat (Law 3), but he has none",
                state.player_id(dealer.0)
            ),
            law: Law::rubber(3, ""),
        })?;
    let lho = choices
        .iter()
        .find(|(s, _)| *s == dealer_seat.lho())
        .map(|(_, p)| player(*p))
        .ok_or_else(|| ServiceError::invalid("seat_choices", "every seat needs a player"))?;
    let seating = Seating::choose(result, SeatChoice { dealer_seat, deck, dealer_lho: lho }).map_err(refuse)?;
    for (s, p) in choices {
        if seating.player_at(*s).0 != *p {
            return Err(ServiceError::Rule {
                message: format!(
                    "seat_choices: player {} cannot sit {s:?}: the first dealer's partner sits opposite him and the \
                     opponents take the other two seats (Law 3)",
                    state.player_id(*p)
                ),
                law: Law::rubber(3, ""),
            });
        }
    }
    Ok(seating)
}

/// The rubber in progress ends (finished, or not: Law 80); the laws count consecutive rubbers
/// and lift breaker restrictions (rule E). A fourth whose rubber just ended may now return.
pub fn end_rubber(
    state: &ClubState,
    table: u64,
    rubber_id: &str,
    completed: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::RubberEnded { table: TableId(table), completed, at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::EndRubber { table, rubber_id: rubber_id.to_owned(), completed }))
}
