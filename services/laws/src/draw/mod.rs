//! The draw (Law 3, with the card order of Law 2): the spread, legal and illegal draws, the
//! partnerships and first dealer it decides, the club's "no consecutive partners" rule
//! (Appendix 4 H3), pivot rotation (Appendix 4 B, footnote 32), draws for precedence (Rules
//! for Club Procedure C-E), and server draws from a committed seed.
//!
//! A draw attempt from outside becomes a drawn card only through [`Spread::draw`], which
//! checks the four requirements of Law 3 and, when one fails, says which one and that the
//! player must draw again. The spread is left as it was, so the player simply draws again.
//!
//! ```
//! use laws::cards::Card;
//! use laws::draw::{Deck, DrawAttempt, DrawnCard, PartnershipDraw, PlayerId, Spread, SpreadPosition};
//!
//! let spread = Spread::face_down(Deck::First);
//! let at = |i| SpreadPosition::new(i).unwrap();
//! let ann = PlayerId(1);
//!
//! // The fourth card from the left end may not be drawn: Law 3 says draw again.
//! let card: Card = "SA".parse().unwrap();
//! let err = spread.draw(&DrawAttempt::one(ann, Deck::First, at(3), Some(card))).unwrap_err();
//! assert!(err.must_draw_again());
//! assert_eq!(
//!     err.to_string(),
//!     "player 1 drew the card at position 3, one of the four cards at either end of the spread; \
//!      he must draw again (Law 3)"
//! );
//!
//! // Four legal draws decide the partnerships: the two highest cards play together and the
//! // highest card deals first (Law 3; Law 2 orders the cards by rank, then suit).
//! let cards = [(1, "SA"), (2, "H2"), (3, "HA"), (4, "C9")]
//!     .map(|(p, c)| DrawnCard { player: PlayerId(p), card: c.parse().unwrap() });
//! let result = PartnershipDraw::new(cards).unwrap().result(None, false);
//! assert_eq!(result.first_dealer, PlayerId(1));
//! assert!(result.partnerships.are_partners(PlayerId(1), PlayerId(3)));
//! assert!(result.partnerships.are_partners(PlayerId(4), PlayerId(2)));
//! ```

mod partnerships;
mod precedence;

use std::fmt;

use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

use crate::cards::Card;
use crate::law::{CitesLaw, Law};

pub use partnerships::{DrawResult, PartnershipDraw, Partnerships, PivotSchedule, SeatChoice, Seating};
pub use precedence::PrecedenceDraw;

/// A player in the club room: the identity the draw, the table membership rules and the
/// rubber line-ups are about (Law 3: "each player draws a card"; Rules for Club Procedure A:
/// a member is an applicant with the right to play at a table).
///
/// The number is the membership service's own key for the player; this crate only compares
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// One of the table's two decks (Law 1: two decks should be used, clearly distinguishable in
/// back design or color; Law 3: the first dealer chooses the deck he deals with; Law 7: they
/// are used alternately).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Deck {
    /// The first deck (in the club's records, the one listed first for the table).
    First,
    /// The second deck.
    Second,
}

impl Deck {
    /// The other deck (Law 7: the two decks are used alternately).
    pub const fn other(self) -> Deck {
        match self {
            Deck::First => Deck::Second,
            Deck::Second => Deck::First,
        }
    }
}

impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Deck::First => "the first deck",
            Deck::Second => "the second deck",
        })
    }
}

/// A position in a deck spread face down for the draw (Law 3): 0 is the card at the left end,
/// 51 the card at the right end.
///
/// Built only by [`SpreadPosition::new`], so it always names one of the 52 cards (Law 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpreadPosition(u8);

impl SpreadPosition {
    /// How many cards a spread holds (Law 1: a deck of 52 cards).
    pub const COUNT: u8 = 52;

    /// How many cards at each end of the spread may not be drawn (Law 3: "one of the four
    /// cards at either end of the deck").
    pub const END_CARDS: u8 = 4;

    /// The position `index` (0-51) of the spread; an error naming Law 1 past 51.
    pub const fn new(index: u8) -> Result<SpreadPosition, DrawError> {
        if index < Self::COUNT { Ok(SpreadPosition(index)) } else { Err(DrawError::NoSuchPosition { index }) }
    }

    /// The index, 0-51 from the left end.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this is one of the four cards at either end of the spread, which Law 3 forbids
    /// drawing.
    pub const fn is_at_end(self) -> bool {
        self.0 < Self::END_CARDS || self.0 >= Self::COUNT - Self::END_CARDS
    }

    /// Whether the two positions are next to each other in the spread (Law 3: a card
    /// adjoining one drawn by another player may not be drawn).
    pub const fn adjoins(self, other: SpreadPosition) -> bool {
        self.0.abs_diff(other.0) == 1
    }
}

impl fmt::Display for SpreadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a player did when he drew: which deck he drew from, which card or cards of the
/// spread he took, and (for a physical spread) the card he shows. Unchecked input; only
/// [`Spread::draw`] turns it into a drawn card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawAttempt {
    /// The player drawing.
    pub player: PlayerId,
    /// The deck he drew from.
    pub deck: Deck,
    /// The position of every card he took from the spread (Law 3: one only).
    pub positions: Vec<SpreadPosition>,
    /// The card shown, if the spread's faces are not known to the server (a physical spread
    /// recorded by the desk). For a server spread it may be left out; if given, it must match.
    pub card: Option<Card>,
}

impl DrawAttempt {
    /// The common case: one card at `position` from `deck`.
    pub fn one(player: PlayerId, deck: Deck, position: SpreadPosition, card: Option<Card>) -> DrawAttempt {
        DrawAttempt { player, deck, positions: vec![position], card }
    }
}

/// A card drawn legally from the spread: who drew it, from where, and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpreadDraw {
    /// The player who drew.
    pub player: PlayerId,
    /// The position of the card in the spread.
    pub position: SpreadPosition,
    /// The card.
    pub card: Card,
}

impl SpreadDraw {
    /// The player and card, which is all the results of a draw depend on.
    pub const fn drawn(self) -> DrawnCard {
        DrawnCard { player: self.player, card: self.card }
    }
}

/// A player and the card he drew: the input to every decision by draw (Law 3 partnerships;
/// Rules for Club Procedure C, D, E precedence). The events of the club procedure carry these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct DrawnCard {
    /// The player.
    pub player: PlayerId,
    /// The card he drew.
    pub card: Card,
}

/// The secret 32 bytes a server draw is made from (see [`Spread::shuffled`] and
/// [`Spread::server_draw`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawSeed(pub [u8; 32]);

impl DrawSeed {
    /// SHA-256 of the seed: published before the first card is drawn, so that once the seed
    /// is revealed anyone can check the spread was fixed in advance.
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// Whether `commitment` is the commitment of this seed.
    pub fn verifies(&self, commitment: &[u8; 32]) -> bool {
        &self.commitment() == commitment
    }
}

impl fmt::Debug for DrawSeed {
    /// Never prints the seed itself: a logged seed would reveal the spread before the draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DrawSeed(..)")
    }
}

/// A deck shuffled and spread face down for the draw (Law 3), with the cards drawn from it so
/// far.
///
/// Either the faces are known to the server ([`Spread::shuffled`], a server draw) or they are
/// not ([`Spread::face_down`], a physical spread whose drawn cards the desk records).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spread {
    deck: Deck,
    faces: Option<[Card; 52]>,
    drawn: Vec<SpreadDraw>,
}

impl Spread {
    /// At least this many players can always draw legally from one spread: each drawn card
    /// rules out itself and its two neighbours, and 44 of the 52 positions are not end cards
    /// (Law 3), so fifteen cards can never exhaust the spread.
    pub const ALWAYS_ROOM_FOR: usize = 15;

    /// A physical spread of `deck`: the faces are unknown until each drawn card is shown.
    pub fn face_down(deck: Deck) -> Spread {
        Spread { deck, faces: None, drawn: Vec::new() }
    }

    /// The spread of `deck` shuffled by a 32-byte seed: ChaCha20 drives an unbiased
    /// Fisher-Yates shuffle (rejection sampling, as [`crate::cards::Deal::from_seed`]), and the
    /// shuffled deck is spread left to right. Players may then choose positions themselves.
    ///
    /// The algorithm is part of the platform's contract and must never change: the same seed
    /// always gives the same spread, so a published commitment makes the draw auditable.
    pub fn shuffled(deck: Deck, seed: &DrawSeed) -> Spread {
        Spread::shuffle_with(deck, &mut chacha20::ChaCha20Rng::from_seed(seed.0))
    }

    /// A complete server draw: the spread of [`Spread::shuffled`], then each of `players` in
    /// turn draws one card at a position chosen uniformly among those Law 3 allows him, with
    /// the same ChaCha20 stream continuing after the shuffle. Replaying the seed replays the
    /// draw exactly.
    ///
    /// Fails (naming Law 3) if a player appears twice, or if the spread has no legal position
    /// left for a player; that cannot happen for up to [`Spread::ALWAYS_ROOM_FOR`] players.
    pub fn server_draw(deck: Deck, seed: &DrawSeed, players: &[PlayerId]) -> Result<Spread, DrawError> {
        let mut rng = chacha20::ChaCha20Rng::from_seed(seed.0);
        let mut spread = Spread::shuffle_with(deck, &mut rng);
        for &player in players {
            let legal = spread.legal_positions(player).count();
            if legal == 0 {
                return Err(spread.exhausted_or_repeat(player));
            }
            let choice = crate::cards::uniform_below(&mut rng, legal as u32) as usize;
            let Some(position) = spread.legal_positions(player).nth(choice) else {
                return Err(DrawError::SpreadExhausted { player });
            };
            spread = spread.draw(&DrawAttempt::one(player, deck, position, None))?.0;
        }
        Ok(spread)
    }

    fn shuffle_with(deck: Deck, rng: &mut chacha20::ChaCha20Rng) -> Spread {
        Spread { deck, faces: Some(crate::cards::shuffled_pack(rng)), drawn: Vec::new() }
    }

    fn exhausted_or_repeat(&self, player: PlayerId) -> DrawError {
        if self.drawn.iter().any(|d| d.player == player) {
            DrawError::AlreadyDrew { player }
        } else {
            DrawError::SpreadExhausted { player }
        }
    }

    /// The deck spread for this draw.
    pub const fn deck(&self) -> Deck {
        self.deck
    }

    /// The cards legally drawn so far, in the order they were drawn.
    pub fn drawn(&self) -> &[SpreadDraw] {
        &self.drawn
    }

    /// The players and their cards, in the order they drew: the input to
    /// [`PrecedenceDraw::new`] and [`PartnershipDraw::new`].
    pub fn cards(&self) -> Vec<DrawnCard> {
        self.drawn.iter().map(|d| d.drawn()).collect()
    }

    /// The card `player` drew, if he has drawn.
    pub fn card_of(&self, player: PlayerId) -> Option<Card> {
        self.drawn.iter().find(|d| d.player == player).map(|d| d.card)
    }

    /// The face at `position`, when the server knows the faces (a seeded spread).
    pub fn face(&self, position: SpreadPosition) -> Option<Card> {
        self.faces.map(|faces| faces[usize::from(position.index())])
    }

    /// The positions `player` may legally draw from now (Law 3): not one of the four cards
    /// at either end, not a card already drawn, not a card adjoining one drawn by another
    /// player. Empty if he has already drawn.
    pub fn legal_positions(&self, player: PlayerId) -> impl Iterator<Item = SpreadPosition> + '_ {
        let already = self.drawn.iter().any(|d| d.player == player);
        (SpreadPosition::END_CARDS..SpreadPosition::COUNT - SpreadPosition::END_CARDS)
            .map(SpreadPosition)
            .filter(move |p| !already && self.drawn.iter().all(|d| d.position != *p && !d.position.adjoins(*p)))
    }

    /// Checks one draw against Law 3 and, if it is legal, returns the spread with the card
    /// drawn and the card itself. On any error the spread is unchanged; for the four Law 3
    /// faults ([`DrawError::must_draw_again`]) the player simply draws again.
    pub fn draw(&self, attempt: &DrawAttempt) -> Result<(Spread, SpreadDraw), DrawError> {
        let player = attempt.player;
        if attempt.deck != self.deck {
            return Err(DrawError::OtherDeck { player, spread: self.deck });
        }
        let position = match attempt.positions.as_slice() {
            [] => return Err(DrawError::NoCard { player }),
            [position] => *position,
            several => return Err(DrawError::MoreThanOneCard { player, count: several.len() }),
        };
        if self.drawn.iter().any(|d| d.player == player) {
            return Err(DrawError::AlreadyDrew { player });
        }
        if let Some(taken) = self.drawn.iter().find(|d| d.position == position) {
            return Err(DrawError::AlreadyTaken { position, by: taken.player });
        }
        if position.is_at_end() {
            return Err(DrawError::EndCard { player, position });
        }
        if let Some(next_to) = self.drawn.iter().find(|d| d.position.adjoins(position)) {
            return Err(DrawError::AdjoiningCard { player, position, other: next_to.player });
        }
        let card = match (self.face(position), attempt.card) {
            (Some(face), None) => face,
            (Some(face), Some(shown)) if face == shown => face,
            (Some(face), Some(shown)) => return Err(DrawError::CardMismatch { player, position, shown, face }),
            (None, None) => return Err(DrawError::CardNotShown { player }),
            (None, Some(shown)) => {
                if self.drawn.iter().any(|d| d.card == shown) {
                    return Err(DrawError::DuplicateCard { card: shown });
                }
                shown
            }
        };
        let drawn = SpreadDraw { player, position, card };
        let mut next = self.clone();
        next.drawn.push(drawn);
        Ok((next, drawn))
    }
}

/// Why a draw, or a result built from drawn cards, is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// Law 3: a player must draw again if he draws a card from the other deck.
    #[error("{player} drew from the other deck, not {spread}; he must draw again (Law 3)")]
    OtherDeck {
        /// The player.
        player: PlayerId,
        /// The deck that is spread for this draw.
        spread: Deck,
    },
    /// Law 3: a player must draw again if he draws more than one card.
    #[error("{player} drew {count} cards at once; he must draw again, one card only (Law 3)")]
    MoreThanOneCard {
        /// The player.
        player: PlayerId,
        /// How many cards he took.
        count: usize,
    },
    /// Law 3: a player must draw again if he draws one of the four cards at either end.
    #[error(
        "{player} drew the card at position {position}, one of the four cards at either end of the spread; \
         he must draw again (Law 3)"
    )]
    EndCard {
        /// The player.
        player: PlayerId,
        /// The end position he drew.
        position: SpreadPosition,
    },
    /// Law 3: a player must draw again if he draws a card adjoining one drawn by another
    /// player.
    #[error(
        "{player} drew the card at position {position}, adjoining the card {other} drew; he must draw again (Law 3)"
    )]
    AdjoiningCard {
        /// The player.
        player: PlayerId,
        /// The position he drew.
        position: SpreadPosition,
        /// The player whose card it adjoins.
        other: PlayerId,
    },
    /// The attempt names no card at all (Law 3: each player draws a card).
    #[error("{player} drew no card; each player draws one card (Law 3)")]
    NoCard {
        /// The player.
        player: PlayerId,
    },
    /// A spread has 52 positions, 0-51 (Law 1: a deck of 52 cards).
    #[error("there is no position {index} in a spread of 52 cards (Law 1)")]
    NoSuchPosition {
        /// The index given.
        index: u8,
    },
    /// The card at that position has already been drawn.
    #[error("the card at position {position} has already been drawn by {by} (Law 3)")]
    AlreadyTaken {
        /// The position.
        position: SpreadPosition,
        /// Who drew it.
        by: PlayerId,
    },
    /// Each player draws one card (Law 3); this one already has.
    #[error("{player} has already drawn a card in this draw; each player draws one card (Law 3)")]
    AlreadyDrew {
        /// The player.
        player: PlayerId,
    },
    /// A physical spread's faces are unknown, so the card drawn must be reported.
    #[error("{player} drew from a face-down spread but the card he drew was not recorded (Law 3)")]
    CardNotShown {
        /// The player.
        player: PlayerId,
    },
    /// The card reported is not the card at that position of a server spread.
    #[error("{player} shows {shown}, but the card at position {position} is {face} (Law 3)")]
    CardMismatch {
        /// The player.
        player: PlayerId,
        /// The position drawn.
        position: SpreadPosition,
        /// The card reported.
        shown: Card,
        /// The card actually there.
        face: Card,
    },
    /// One deck holds each card once (Law 1), so no card can be drawn twice in one draw.
    #[error("{card} was drawn twice in one draw; a deck holds each card once (Law 1)")]
    DuplicateCard {
        /// The card reported twice.
        card: Card,
    },
    /// A player appears twice among the cards of one draw (Law 3: each player draws a card).
    #[error("{player} appears twice in one draw; each player draws one card (Law 3)")]
    SamePlayerTwice {
        /// The player.
        player: PlayerId,
    },
    /// No legal position is left for the player: every position is an end card, drawn, or
    /// adjoining a drawn card (Law 3). The spread must be gathered and spread again.
    #[error("no card is left in the spread that {player} may legally draw; spread a fresh deck (Law 3)")]
    SpreadExhausted {
        /// The player who could not draw.
        player: PlayerId,
    },
    /// The first dealer's partner sits opposite him and the opponents take the two remaining
    /// seats (Law 3): the player named for a seat is not one of the opponents.
    #[error("{player} is not an opponent of the first dealer, so he cannot take the seat on the dealer's left (Law 3)")]
    NotAnOpponent {
        /// The player named.
        player: PlayerId,
    },
    /// Two partnerships are four different players (Law 3: four players, two sides).
    #[error("two partnerships need four different players; {player} is named twice (Law 3)")]
    NotFourPlayers {
        /// A player named twice.
        player: PlayerId,
    },
}

impl DrawError {
    /// Whether this is one of the four faults after which Law 3 says the player "must draw
    /// again": more than one card, an end card, a card adjoining another player's, a card
    /// from the other deck.
    pub const fn must_draw_again(&self) -> bool {
        matches!(
            self,
            DrawError::OtherDeck { .. }
                | DrawError::MoreThanOneCard { .. }
                | DrawError::EndCard { .. }
                | DrawError::AdjoiningCard { .. }
        )
    }
}

impl CitesLaw for DrawError {
    fn law(&self) -> Law {
        match self {
            DrawError::NoSuchPosition { .. } | DrawError::DuplicateCard { .. } => Law::rubber(1, ""),
            _ => Law::rubber(3, ""),
        }
    }
}

/// Checks that the cards of one draw come from distinct players and are distinct cards
/// (Law 3: each player draws one card; Law 1: a deck holds each card once).
fn check_distinct(cards: &[DrawnCard]) -> Result<(), DrawError> {
    for (i, a) in cards.iter().enumerate() {
        for b in &cards[..i] {
            if a.player == b.player {
                return Err(DrawError::SamePlayerTwice { player: a.player });
            }
            if a.card == b.card {
                return Err(DrawError::DuplicateCard { card: a.card });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_spread_is_the_fixed_shuffle_of_its_seed() {
        let a = Spread::shuffled(Deck::First, &DrawSeed([1; 32]));
        let b = Spread::shuffled(Deck::First, &DrawSeed([1; 32]));
        assert_eq!(a, b);
        let faces: std::collections::HashSet<Card> =
            (0..52).filter_map(|i| SpreadPosition::new(i).ok()).filter_map(|p| a.face(p)).collect();
        assert_eq!(faces.len(), 52, "a spread is one whole deck (Law 1)");
    }
}
