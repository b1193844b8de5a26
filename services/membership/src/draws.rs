//! Conducting and recording draws (Law 3). The Law is `laws::draw`'s: the server's draw is
//! [`laws::draw::Spread::server_draw`] from a CSPRNG seed the table committed to before the draw's
//! players were known ([`Seeds`]), and every physical card the desk records is checked by
//! [`laws::draw::Spread::draw`]. This module only turns them into records that keep every card,
//! position, redraw and reason, and the seed.

use laws::cards::Card;
use laws::draw::{Deck, DrawAttempt, DrawError, DrawSeed, PlayerId, Spread, SpreadPosition};

use platform::ServiceError;

use crate::journal::{DrawRecord, Drawing, LawPurpose, Purpose, Redraw};
use crate::state::ClubState;

/// A new draw's id.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// How many seeds a table keeps committed ahead: one StartRubber can make up to four server draws
/// (going out, who would otherwise play, entry from another table, partnerships: rule E and
/// Law 3), and every one of them must use a seed whose commitment was published before.
pub const SEEDS_AHEAD: usize = 4;

/// How many seeds the room keeps committed for the precedence draws made as tables are opened:
/// OpenTable makes at most one.
pub const OPENING_SEEDS_AHEAD: usize = 1;

/// A table's committed seeds as one command uses them: each server draw takes the one at the
/// front, in order, so the server has no choice of seed once the players are known; the command
/// then records the queue topped up with fresh seeds (their commitments are published with the
/// table as the command takes effect, before any later draw).
#[derive(Clone, Default)]
pub struct Seeds {
    queue: std::collections::VecDeque<[u8; 32]>,
    changed: bool,
}

/// Only the count: the seeds are secret until used, and a debug print can end up in a log.
impl std::fmt::Debug for Seeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seeds").field("committed", &self.queue.len()).field("changed", &self.changed).finish()
    }
}

impl Seeds {
    /// The seeds committed at a table, or by the room for opening draws: none for a table or a
    /// room from before commitments were kept.
    pub fn of(committed: &[[u8; 32]]) -> Seeds {
        Seeds { queue: committed.iter().copied().collect(), changed: false }
    }

    /// The next draw's seed, and whether it was committed before this command. With none left
    /// (a table, or a room, from before commitments were kept; or a StartRubber making more than
    /// [`SEEDS_AHEAD`] draws, which rule E does not allow) a fresh one is drawn from the thread's CSPRNG (ChaCha, seeded by the operating system) and
    /// the draw says it was committed at the draw: refusing would strand existing tables, and the
    /// draw remains replayable from its seed.
    pub fn take(&mut self) -> ([u8; 32], bool) {
        self.changed = true;
        match self.queue.pop_front() {
            Some(seed) => (seed, true),
            None => (rand::random(), false),
        }
    }

    /// The queue to record after the command, topped up to `ahead` fresh seeds (hex); `None` when
    /// the command used none and none were missing, so the journal says nothing.
    pub fn after(mut self, ahead: usize) -> Option<Vec<String>> {
        if !self.changed && self.queue.len() >= ahead {
            return None;
        }
        while self.queue.len() < ahead {
            self.queue.push_back(rand::random());
        }
        Some(self.queue.iter().map(hex::encode).collect())
    }
}

/// A complete server draw among `players`, in that order: the next committed seed of `seeds`
/// shuffles and spreads the first deck, and each player draws a position Law 3 allows. The seed is
/// kept and revealed with the draw, so anyone can replay it (`Spread::server_draw` is fixed for
/// ever by the laws crate) and check it against the commitment published before.
#[tracing::instrument(skip_all, fields(purpose = ?purpose, players = players.len()))]
pub fn server_draw(
    state: &ClubState,
    purpose: Purpose,
    settles: LawPurpose,
    players: &[u64],
    seeds: &mut Seeds,
    at: i64,
) -> Result<DrawRecord, ServiceError> {
    let (seed, committed_before) = seeds.take();
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
        committed_before,
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
        DrawRecord::new_physical(Purpose::Partnerships, players.to_vec(), LawPurpose::Partnerships)
    }

    #[test]
    fn a_server_draw_replays_from_its_seed() {
        let state = ClubState::new();
        let committed: [u8; 32] = rand::random();
        let mut seeds = Seeds::of(&[committed]);
        let draw =
            server_draw(&state, Purpose::Partnerships, LawPurpose::Partnerships, &[4, 7, 9, 2], &mut seeds, 5).unwrap();
        assert!(draw.is_complete());
        assert!(draw.committed_before);
        assert_eq!(draw.seed.as_deref(), Some(hex::encode(committed).as_str()), "the committed seed, not a fresh one");
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
    fn server_draws_take_committed_seeds_in_order_and_the_queue_is_topped_up() {
        let state = ClubState::new();
        let committed: Vec<[u8; 32]> = (0..SEEDS_AHEAD).map(|_| rand::random()).collect();
        let mut seeds = Seeds::of(&committed);
        let first = server_draw(&state, Purpose::GoingOut, LawPurpose::GoingOut, &[1, 2], &mut seeds, 1).unwrap();
        let second =
            server_draw(&state, Purpose::Partnerships, LawPurpose::Partnerships, &[1, 2, 3, 4], &mut seeds, 1).unwrap();
        assert_eq!(first.seed, Some(hex::encode(committed[0])));
        assert_eq!(second.seed, Some(hex::encode(committed[1])));
        let after = seeds.after(SEEDS_AHEAD).unwrap();
        assert_eq!(after.len(), SEEDS_AHEAD);
        assert_eq!(after[..2], [hex::encode(committed[2]), hex::encode(committed[3])], "the rest stay in order");
        assert!(!after.contains(&hex::encode(committed[0])) && !after.contains(&hex::encode(committed[1])));
        // A command that draws nothing at a table with its seeds committed records nothing.
        assert_eq!(Seeds::of(&committed).after(SEEDS_AHEAD), None);
    }

    #[test]
    fn a_table_without_committed_seeds_draws_with_a_fresh_one_and_says_so_then_commits() {
        let state = ClubState::new();
        let mut seeds = Seeds::of(&[]);
        let draw =
            server_draw(&state, Purpose::Partnerships, LawPurpose::Partnerships, &[1, 2, 3, 4], &mut seeds, 1).unwrap();
        assert!(!draw.committed_before, "committed at the moment of the draw");
        assert!(draw.seed.is_some());
        let after = seeds.after(SEEDS_AHEAD).unwrap();
        assert_eq!(after.len(), SEEDS_AHEAD, "the next draws' seeds are committed");
        assert!(!after.contains(draw.seed.as_ref().unwrap()));
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
