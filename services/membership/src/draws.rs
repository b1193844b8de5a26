//! Conducting and recording draws (Law 3). The Law is `laws::draw`'s: the server's draw is
//! [`laws::draw::Spread::server_draw`] from a fresh CSPRNG seed, and every physical card the desk
//! records is checked by [`laws::draw::Spread::draw`]. This module only turns them into records
//! that keep every card, position, redraw and reason, and the seed.

use laws::cards::Card;
use laws::draw::{Deck, DrawAttempt, DrawError, DrawSeed, PlayerId, Spread, SpreadPosition};

use platform::ServiceError;

use crate::journal::{DrawRecord, Drawing, LawPurpose, Purpose, Redraw};
use crate::state::ClubState;

/// A new draw's id.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// A complete server draw among `players`, in that order: a fresh 32-byte seed from the thread's
/// CSPRNG (ChaCha, seeded by the operating system) shuffles and spreads the first deck, and each
/// player draws a position Law 3 allows. The seed is kept, so anyone can replay the draw
/// (`Spread::server_draw` is fixed for ever by the laws crate) and check the commitment.
#[tracing::instrument(skip_all, fields(purpose = ?purpose, players = players.len()))]
pub fn server_draw(
    state: &ClubState,
    purpose: Purpose,
    settles: LawPurpose,
    players: &[u64],
    at: i64,
) -> Result<DrawRecord, ServiceError> {
    let seed: [u8; 32] = rand::random();
    let ids: Vec<PlayerId> = players.iter().map(|p| PlayerId(*p)).collect();
    let spread = Spread::server_draw(Deck::First, &DrawSeed(seed), &ids).map_err(|e| state.refusal(&e))?;
    let drawings = spread
        .drawn()
        .iter()
        .map(|d| Drawing {
            player: d.player.0,
            card: d.card.to_string(),
            position: d.position.index(),
            deck: 1,
            more_than_one_card: false,
            redraw: None,
        })
        .collect();
    Ok(DrawRecord {
        draw_id: new_id(),
        purpose,
        physical: false,
        players: players.to_vec(),
        drawings,
        seed: Some(hex::encode(seed)),
        started_at: Some(at),
        completed_at: Some(at),
        settles,
    })
}

/// One physical card as the desk recorded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhysicalCard {
    /// Who drew it.
    pub player: u64,
    /// The card shown.
    pub card: Card,
    /// Its position in the spread.
    pub position: SpreadPosition,
    /// The deck it came from.
    pub deck: Deck,
    /// Whether the player took more than one card.
    pub more_than_one_card: bool,
}

/// The physical draw `draw` with `cards` recorded after what it holds: each card is checked
/// against Law 3 on the spread as the valid cards left it. A card Law 3 says to draw again for
/// (more than one card, an end card, a card adjoining another player's, the other deck) is kept
/// as an invalid drawing with its reason and the player awaits a redraw; any other fault (a player
/// who already holds a card, a card taken twice, a player not in the draw) refuses the request.
pub fn record_physical(
    state: &ClubState,
    draw: &DrawRecord,
    cards: &[PhysicalCard],
    at: i64,
) -> Result<DrawRecord, ServiceError> {
    let mut spread = Spread::face_down(Deck::First);
    for valid in draw.drawings.iter().filter(|d| d.redraw.is_none()) {
        let card =
            valid.card.parse::<Card>().map_err(|e| ServiceError::internal(format!("draw {}: {e}", draw.draw_id)))?;
        let position = SpreadPosition::new(valid.position).map_err(|e| ServiceError::internal(e.to_string()))?;
        spread = spread
            .draw(&DrawAttempt::one(PlayerId(valid.player), Deck::First, position, Some(card)))
            .map_err(|e| ServiceError::internal(format!("draw {}: {e}", draw.draw_id)))?
            .0;
    }
    let mut next = draw.clone();
    for (i, card) in cards.iter().enumerate() {
        if !next.players.contains(&card.player) {
            return Err(ServiceError::invalid(
                &format!("drawings[{i}].player_id"),
                format!("{} is not one of the players of draw {}", state.player_id(card.player), draw.draw_id),
            ));
        }
        // The desk records one position; a clump of cards is more than one card whatever the
        // other positions were, which is all Law 3 asks.
        let positions = if card.more_than_one_card { vec![card.position; 2] } else { vec![card.position] };
        let attempt = DrawAttempt { player: PlayerId(card.player), deck: card.deck, positions, card: Some(card.card) };
        let redraw = match spread.draw(&attempt) {
            Ok((after, _)) => {
                spread = after;
                None
            }
            Err(e) if e.must_draw_again() => Some(redraw_reason(&e)),
            Err(e) => return Err(state.refusal(&e)),
        };
        next.drawings.push(Drawing {
            player: card.player,
            card: card.card.to_string(),
            position: card.position.index(),
            deck: match card.deck {
                Deck::First => 1,
                Deck::Second => 2,
            },
            more_than_one_card: card.more_than_one_card,
            redraw,
        });
        if redraw.is_none() && next.started_at.is_none() {
            next.started_at = Some(at);
        }
    }
    if next.is_complete() && next.completed_at.is_none() {
        next.completed_at = Some(at);
    }
    Ok(next)
}

fn redraw_reason(error: &DrawError) -> Redraw {
    match error {
        DrawError::MoreThanOneCard { .. } => Redraw::MoreThanOneCard,
        DrawError::EndCard { .. } => Redraw::EndOfSpread,
        DrawError::AdjoiningCard { .. } => Redraw::AdjoiningCard,
        _ => Redraw::OtherDeck,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn physical(player: u64, card: &str, position: u8) -> PhysicalCard {
        PhysicalCard {
            player,
            card: card.parse().unwrap(),
            position: SpreadPosition::new(position).unwrap(),
            deck: Deck::First,
            more_than_one_card: false,
        }
    }

    fn empty(players: &[u64]) -> DrawRecord {
        DrawRecord {
            draw_id: "d".into(),
            purpose: Purpose::Partnerships,
            physical: true,
            players: players.to_vec(),
            drawings: vec![],
            seed: None,
            started_at: None,
            completed_at: None,
            settles: LawPurpose::Partnerships,
        }
    }

    #[test]
    fn a_server_draw_replays_from_its_seed() {
        let state = ClubState::new();
        let draw = server_draw(&state, Purpose::Partnerships, LawPurpose::Partnerships, &[4, 7, 9, 2], 5).unwrap();
        assert!(draw.is_complete());
        let seed: [u8; 32] = hex::decode(draw.seed.as_ref().unwrap()).unwrap().try_into().unwrap();
        let players: Vec<PlayerId> = [4, 7, 9, 2].map(PlayerId).to_vec();
        let replay = Spread::server_draw(Deck::First, &DrawSeed(seed), &players).unwrap();
        let replayed: Vec<(u64, String, u8)> =
            replay.drawn().iter().map(|d| (d.player.0, d.card.to_string(), d.position.index())).collect();
        let recorded: Vec<(u64, String, u8)> =
            draw.drawings.iter().map(|d| (d.player, d.card.clone(), d.position)).collect();
        assert_eq!(replayed, recorded);
    }

    #[test]
    fn law_3_an_end_card_or_an_adjoining_card_must_be_drawn_again() {
        let state = ClubState::new();
        let draw =
            record_physical(&state, &empty(&[1, 2]), &[physical(1, "SA", 20), physical(2, "HK", 21)], 9).unwrap();
        assert_eq!(draw.drawings[1].redraw, Some(Redraw::AdjoiningCard), "adjoining the card player 1 drew");
        assert_eq!(draw.awaiting(), vec![2]);
        let draw = record_physical(&state, &draw, &[physical(2, "HK", 50)], 10).unwrap();
        assert_eq!(draw.drawings[2].redraw, Some(Redraw::EndOfSpread), "one of the four cards at either end");
        let draw = record_physical(&state, &draw, &[physical(2, "HK", 30)], 11).unwrap();
        assert!(draw.is_complete());
        assert_eq!((draw.started_at, draw.completed_at), (Some(9), Some(11)));
        // A player who holds a valid card may not draw again: refused, naming Law 3.
        let err = record_physical(&state, &draw, &[physical(1, "D2", 40)], 12).unwrap_err();
        assert!(err.to_string().contains("Law 3"), "{err}");
    }
}
