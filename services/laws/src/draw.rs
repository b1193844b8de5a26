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

use std::fmt;

use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

use crate::cards::Card;
use crate::law::{CitesLaw, Law};
use crate::seat::Seat;

/// A player in the club room: the identity the draw, the table membership rules and the
/// rubber line-ups are about (Law 3: "each player draws a card"; Rules for Club Procedure A:
/// a member is an applicant with the right to play at a table).
///
/// The number is the membership service's own key for the player; this crate only compares
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// A draw for precedence among players of equal rank (Rules for Club Procedure C: "the
/// player who draws the highest-ranking card having precedence"; used also by rules D and E).
/// Cards rank as in Law 2 ([`Card`]'s order), so there are never ties.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PrecedenceDraw {
    ranked: Vec<DrawnCard>,
}

impl PrecedenceDraw {
    /// Checks the cards (distinct players, distinct cards: Law 3, Law 1) and ranks them,
    /// highest card first.
    pub fn new(cards: &[DrawnCard]) -> Result<PrecedenceDraw, DrawError> {
        check_distinct(cards)?;
        let mut ranked = cards.to_vec();
        ranked.sort_by_key(|d| std::cmp::Reverse(d.card));
        Ok(PrecedenceDraw { ranked })
    }

    /// The players from the highest card (first precedence) to the lowest.
    pub fn ranked(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.ranked.iter().map(|d| d.player)
    }

    /// The cards, highest first.
    pub fn cards(&self) -> &[DrawnCard] {
        &self.ranked
    }

    /// The card `player` drew, if he drew.
    pub fn card_of(&self, player: PlayerId) -> Option<Card> {
        self.ranked.iter().find(|d| d.player == player).map(|d| d.card)
    }

    /// Whether every one of `players` drew in this draw.
    pub fn covers(&self, players: &[PlayerId]) -> bool {
        players.iter().all(|p| self.card_of(*p).is_some())
    }

    /// `players` ordered by this draw, highest card first; players who did not draw come last
    /// in the order given.
    pub fn order(&self, players: &[PlayerId]) -> Vec<PlayerId> {
        let mut ordered = players.to_vec();
        ordered.sort_by_key(|p| std::cmp::Reverse(self.card_of(*p)));
        ordered
    }
}

/// Two partnerships of two: the sides of one rubber (Law 3: "the two players who draw the
/// highest cards play as partners against the other two players").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Partnerships {
    sides: [[PlayerId; 2]; 2],
}

impl Partnerships {
    /// The partnerships `first` against `second`; four different players (Law 3).
    pub fn new(first: [PlayerId; 2], second: [PlayerId; 2]) -> Result<Partnerships, DrawError> {
        let all = [first[0], first[1], second[0], second[1]];
        for (i, p) in all.iter().enumerate() {
            if all[..i].contains(p) {
                return Err(DrawError::NotFourPlayers { player: *p });
            }
        }
        Ok(Partnerships { sides: [first, second] })
    }

    /// The two partnerships. For a draw, the first is the first dealer's.
    pub const fn sides(&self) -> [[PlayerId; 2]; 2] {
        self.sides
    }

    /// The four players.
    pub const fn players(&self) -> [PlayerId; 4] {
        [self.sides[0][0], self.sides[0][1], self.sides[1][0], self.sides[1][1]]
    }

    /// Whether `a` and `b` are partners.
    pub fn are_partners(&self, a: PlayerId, b: PlayerId) -> bool {
        a != b && self.sides.iter().any(|side| side.contains(&a) && side.contains(&b))
    }

    /// The partner of `player`, if he plays.
    pub fn partner_of(&self, player: PlayerId) -> Option<PlayerId> {
        self.sides.iter().find_map(|[a, b]| match player {
            p if p == *a => Some(*b),
            p if p == *b => Some(*a),
            _ => None,
        })
    }

    /// A partnership of this rubber that was also a partnership in `previous` (Appendix 4
    /// H3: "no two players may play a second consecutive rubber as partners at the same
    /// table"), if any.
    pub fn repeated_from(&self, previous: &Partnerships) -> Option<[PlayerId; 2]> {
        self.sides.into_iter().find(|[a, b]| previous.are_partners(*a, *b))
    }

    /// Whether both are the same two partnerships, in any order.
    pub fn same_as(&self, other: &Partnerships) -> bool {
        self.sides.iter().all(|[a, b]| other.are_partners(*a, *b))
    }
}

/// The four cards of the draw before a rubber (Law 3), ranked highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartnershipDraw {
    ranked: [DrawnCard; 4],
}

impl PartnershipDraw {
    /// Checks the four cards (four different players, four different cards: Law 3, Law 1)
    /// and ranks them by Law 2 (rank, then suit).
    pub fn new(cards: [DrawnCard; 4]) -> Result<PartnershipDraw, DrawError> {
        check_distinct(&cards)?;
        let mut ranked = cards;
        ranked.sort_by_key(|d| std::cmp::Reverse(d.card));
        Ok(PartnershipDraw { ranked })
    }

    /// The four players and cards, highest card first.
    pub const fn ranked(&self) -> [DrawnCard; 4] {
        self.ranked
    }

    /// The partnerships and first dealer this draw gives (Law 3): the two highest cards
    /// against the two lowest, the highest card deals first.
    ///
    /// With the club rule of Appendix 4 H3 (`no_consecutive_partners`), if that would make two
    /// players who were partners in `previous` (the last rubber at this table) partners
    /// again, "the player who has drawn the highest card should play with the player who has
    /// drawn the third-highest, against the other two". That always breaks every repeated
    /// pair: a player had only one partner last rubber.
    pub fn result(&self, previous: Option<&Partnerships>, no_consecutive_partners: bool) -> DrawResult {
        let [first, second, third, fourth] = self.ranked.map(|d| d.player);
        let by_law_3 = Partnerships { sides: [[first, second], [third, fourth]] };
        let repeats = no_consecutive_partners && previous.is_some_and(|prev| by_law_3.repeated_from(prev).is_some());
        let partnerships = if repeats { Partnerships { sides: [[first, third], [second, fourth]] } } else { by_law_3 };
        DrawResult { partnerships, first_dealer: first, no_consecutive_applied: repeats }
    }
}

/// What a partnership draw decides (Law 3): the partnerships and the first dealer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawResult {
    /// The two partnerships; the first dealer's is listed first.
    pub partnerships: Partnerships,
    /// The player with the highest card: he deals first and chooses his seat and the deck.
    pub first_dealer: PlayerId,
    /// Whether the club rule of Appendix 4 H3 changed the partnerships Law 3 would give.
    pub no_consecutive_applied: bool,
}

impl DrawResult {
    /// The first dealer's partner, who sits opposite him (Law 3).
    pub fn dealer_partner(&self) -> PlayerId {
        let [a, b] = self.partnerships.sides[0];
        if a == self.first_dealer { b } else { a }
    }

    /// The two opponents of the first dealer, who take the remaining seats as they wish.
    pub const fn opponents(&self) -> [PlayerId; 2] {
        self.partnerships.sides[1]
    }
}

/// The choices Law 3 gives after the draw: the first dealer's seat and deck, and which
/// opponent sits on his left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeatChoice {
    /// The seat the first dealer chooses.
    pub dealer_seat: Seat,
    /// The deck he chooses to deal with.
    pub deck: Deck,
    /// The opponent who takes the seat on the dealer's left.
    pub dealer_lho: PlayerId,
}

/// Who sits where for a rubber, and the first dealer and his deck (Law 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seating {
    seats: [PlayerId; 4],
    first_dealer: Seat,
    deck: Deck,
}

impl Seating {
    /// Seats the players as Law 3 says: the first dealer where he chose, his partner opposite,
    /// the opponents in the two remaining seats as they chose (`choice.dealer_lho` on the
    /// dealer's left). Fails if the player named for the dealer's left is not an opponent.
    pub fn choose(result: &DrawResult, choice: SeatChoice) -> Result<Seating, DrawError> {
        let [o1, o2] = result.opponents();
        let other = match choice.dealer_lho {
            p if p == o1 => o2,
            p if p == o2 => o1,
            p => return Err(DrawError::NotAnOpponent { player: p }),
        };
        let mut seats = [result.first_dealer; 4];
        seats[choice.dealer_seat.index()] = result.first_dealer;
        seats[choice.dealer_seat.partner().index()] = result.dealer_partner();
        seats[choice.dealer_seat.lho().index()] = choice.dealer_lho;
        seats[choice.dealer_seat.rho().index()] = other;
        Ok(Seating { seats, first_dealer: choice.dealer_seat, deck: choice.deck })
    }

    /// The player in `seat`.
    pub const fn player_at(&self, seat: Seat) -> PlayerId {
        self.seats[seat.index()]
    }

    /// The seat of `player`, if he plays.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.seats[s.index()] == player)
    }

    /// The seat of the first dealer.
    pub const fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// The deck the first dealer chose.
    pub const fn deck(&self) -> Deck {
        self.deck
    }
}

/// The fixed rotation of partnerships in a pivot game of four players (Appendix 4 B and its
/// footnote 32: "in a pivot game, partnerships for each rubber follow a fixed rotation"; taking
/// the proper seats for the next rubber counts as the cut for partners).
///
/// Over the three rubbers of a pivot each player partners each of the others once: the pivot
/// (the first dealer of the first rubber) keeps his partner for the first rubber, then
/// partners the higher-drawing opponent, then the lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PivotSchedule {
    order: [PlayerId; 4],
}

impl PivotSchedule {
    /// The number of rubbers in one pivot: every pair of the four partners once.
    pub const RUBBERS: usize = 3;

    /// The pivot that starts from the first rubber's draw.
    pub fn from_draw(result: &DrawResult) -> PivotSchedule {
        let [o1, o2] = result.opponents();
        PivotSchedule { order: [result.first_dealer, result.dealer_partner(), o1, o2] }
    }

    /// A pivot over four players in the given order (the first is the pivot and partners the
    /// second, third and fourth in turn); four different players (Law 3).
    pub fn new(order: [PlayerId; 4]) -> Result<PivotSchedule, DrawError> {
        Partnerships::new([order[0], order[1]], [order[2], order[3]])?;
        Ok(PivotSchedule { order })
    }

    /// The four players; the pivot first.
    pub const fn players(&self) -> [PlayerId; 4] {
        self.order
    }

    /// The partnerships of rubber `index` of the pivot (0, 1, 2); `None` once the pivot is
    /// complete.
    pub fn partnerships(&self, index: usize) -> Option<Partnerships> {
        let [pivot, a, b, c] = self.order;
        let sides = match index {
            0 => [[pivot, a], [b, c]],
            1 => [[pivot, b], [a, c]],
            2 => [[pivot, c], [a, b]],
            _ => return None,
        };
        Some(Partnerships { sides })
    }

    /// Whether `players` are this pivot's four, in any order.
    pub fn is_for(&self, players: &[PlayerId]) -> bool {
        players.len() == 4 && self.order.iter().all(|p| players.contains(p))
    }
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
