//! The pack (Law 1), the rank of cards and suits (Law 2), hands and deals (Law 8), PBN deal
//! strings, and server deals from a committed seed.
//!
//! A [`Deal`] is four hands of thirteen cards that together form one pack. Anything from
//! outside (a PBN string, a list of hands from a proto message) becomes a `Deal` only through
//! [`Deal::new`] or [`Deal::from_pbn`], which check Law 1 and Law 8 and say which was broken.
//!
//! ```
//! use laws::cards::{Card, Deal, Rank, Suit};
//! use laws::Seat;
//!
//! let deal: Deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
//!     .parse()
//!     .unwrap();
//! assert!(deal.hand(Seat::North).contains(Card::new(Suit::Spades, Rank::Ace)));
//! assert_eq!(deal.holder(Card::new(Suit::Clubs, Rank::Ace)), Seat::East);
//! assert_eq!(deal.to_pbn(Seat::North), "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765");
//! ```

mod hands;

use std::fmt;
use std::str::FromStr;

use rand_core::Rng;

pub use hands::{Deal, DealError, DealSeed};

/// A suit. Suits rank downward spades, hearts, diamonds, clubs (Law 2), which is the derived
/// order here (clubs lowest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Suit {
    /// Clubs, the lowest suit.
    Clubs,
    /// Diamonds.
    Diamonds,
    /// Hearts.
    Hearts,
    /// Spades, the highest suit.
    Spades,
}

impl Suit {
    /// All four suits from the lowest (clubs) to the highest (spades).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Index 0-3, clubs lowest.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name used by PBN: C, D, H, S.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit symbol, for people.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// Whether this is a major suit (spades or hearts).
    pub const fn is_major(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Spades)
    }

    /// Parses C, D, H, S (either case) or a suit symbol.
    pub fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' | '♣' => Some(Suit::Clubs),
            'D' | '♦' => Some(Suit::Diamonds),
            'H' | '♥' => Some(Suit::Hearts),
            'S' | '♠' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        })
    }
}

/// A set of suits: the suit or suits an artificial call relates to (rubber Law 26A, duplicate
/// Laws 26B, 27B1(a) and 29C speak of the denomination(s) a call "specifies" or "relates to").
///
/// A four-bit set, so that it is `Copy` and can ride on a recorded call.
///
/// ```
/// use laws::cards::{Suit, SuitSet};
///
/// let majors = SuitSet::of(&[Suit::Spades, Suit::Hearts]);
/// assert!(majors.contains(Suit::Hearts) && !majors.contains(Suit::Clubs));
/// assert_eq!(majors.to_vec(), vec![Suit::Hearts, Suit::Spades]);
/// assert_eq!(majors.to_string(), "hearts and spades");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SuitSet(u8);

impl SuitSet {
    /// No suit.
    pub const EMPTY: SuitSet = SuitSet(0);
    /// All four suits.
    pub const ALL: SuitSet = SuitSet(0b1111);

    /// The set of these suits (a suit named twice counts once).
    pub fn of(suits: &[Suit]) -> SuitSet {
        suits.iter().copied().collect()
    }

    /// The set holding only `suit`.
    pub const fn single(suit: Suit) -> SuitSet {
        SuitSet(1 << suit.index())
    }

    /// Whether `suit` is in the set.
    pub const fn contains(self, suit: Suit) -> bool {
        self.0 & (1 << suit.index()) != 0
    }

    /// Adds `suit`; returns whether it was new.
    pub fn insert(&mut self, suit: Suit) -> bool {
        let new = !self.contains(suit);
        self.0 |= 1 << suit.index();
        new
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many suits the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The suits of both sets.
    pub const fn union(self, other: SuitSet) -> SuitSet {
        SuitSet(self.0 | other.0)
    }

    /// The suits of this set that are not in `other`.
    pub const fn difference(self, other: SuitSet) -> SuitSet {
        SuitSet(self.0 & !other.0)
    }

    /// The suits from the lowest (clubs) to the highest (spades).
    pub fn iter(self) -> impl DoubleEndedIterator<Item = Suit> {
        Suit::ALL.into_iter().filter(move |s| self.contains(*s))
    }

    /// The suits from the lowest to the highest, as a vector.
    pub fn to_vec(self) -> Vec<Suit> {
        self.iter().collect()
    }
}

impl FromIterator<Suit> for SuitSet {
    fn from_iter<I: IntoIterator<Item = Suit>>(iter: I) -> SuitSet {
        let mut set = SuitSet::EMPTY;
        for suit in iter {
            set.insert(suit);
        }
        set
    }
}

impl fmt::Display for SuitSet {
    /// `hearts and spades`, `clubs, diamonds and hearts`, `no suit`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suits = self.to_vec();
        match suits.split_last() {
            None => f.write_str("no suit"),
            Some((last, [])) => last.fmt(f),
            Some((last, rest)) => {
                let names: Vec<String> = rest.iter().map(ToString::to_string).collect();
                write!(f, "{} and {last}", names.join(", "))
            }
        }
    }
}

/// The rank of a card within its suit: ace highest, two lowest (Law 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Rank {
    /// Two, the lowest.
    Two = 2,
    /// Three.
    Three,
    /// Four.
    Four,
    /// Five.
    Five,
    /// Six.
    Six,
    /// Seven.
    Seven,
    /// Eight.
    Eight,
    /// Nine.
    Nine,
    /// Ten.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace, the highest.
    Ace,
}

impl Rank {
    /// All thirteen ranks from the two up to the ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Index 0 (two) to 12 (ace).
    pub const fn index(self) -> usize {
        self as usize - 2
    }

    /// The one-character name used by PBN: 2-9, T, J, Q, K, A.
    pub const fn letter(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// Parses 2-9, T (or 1 as the first character of "10"), J, Q, K, A.
    pub fn from_char(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            '2' => Rank::Two,
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' => Rank::Ten,
            'J' => Rank::Jack,
            'Q' => Rank::Queen,
            'K' => Rank::King,
            'A' => Rank::Ace,
            _ => return None,
        })
    }

    /// Whether the card is an honor: ace, king, queen, jack or ten (Definitions).
    pub const fn is_honor(self) -> bool {
        self as u8 >= Rank::Ten as u8
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A playing card.
///
/// Cards are ordered as in the draw (Law 2, Law 3): by rank first, and between cards of equal
/// rank by suit (spades highest). That makes every draw decisive. Within a trick the winner is
/// decided by the play rules instead ([`crate::play`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Card {
    /// The card's suit.
    pub suit: Suit,
    /// The card's rank.
    pub rank: Rank,
}

impl Card {
    /// The card of the given suit and rank.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card { suit, rank }
    }

    /// A dense index 0-51: clubs two is 0, spades ace is 51.
    pub const fn index(self) -> usize {
        self.suit.index() * 13 + self.rank.index()
    }

    /// The card with dense index 0-51 (see [`Card::index`]); `None` past 51.
    pub const fn from_index(index: usize) -> Option<Card> {
        if index >= 52 {
            return None;
        }
        Some(Card { suit: Suit::ALL[index / 13], rank: Rank::ALL[index % 13] })
    }

    /// The card's position in the draw order (Law 2): 0 for the two of clubs, 51 for the ace
    /// of spades; rank decides first, suit between equal ranks.
    pub const fn draw_order(self) -> usize {
        self.rank.index() * 4 + self.suit.index()
    }

    /// The whole pack, clubs first, in rank order within each suit.
    pub fn pack() -> impl Iterator<Item = Card> {
        (0..52).filter_map(Card::from_index)
    }
}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Card {
    /// The draw order of Law 2: rank, then suit.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.draw_order().cmp(&other.draw_order())
    }
}

impl fmt::Display for Card {
    /// Suit letter then rank, as in PBN play records: `SA`, `HT`, `C2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit.letter(), self.rank.letter())
    }
}

/// A card name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown card {0:?}: expected a suit letter and a rank, such as SA, HT or C2")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads `SA`, `sa`, `S10`, `♠A`, and also rank-first forms such as `AS` or `10S`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseCardError(s.to_owned());
        let t = s.trim().replace("10", "T");
        let mut chars = t.chars();
        let (a, b) = (chars.next().ok_or_else(err)?, chars.next().ok_or_else(err)?);
        if chars.next().is_some() {
            return Err(err());
        }
        if let (Some(suit), Some(rank)) = (Suit::from_char(a), Rank::from_char(b)) {
            return Ok(Card::new(suit, rank));
        }
        match (Rank::from_char(a), Suit::from_char(b)) {
            (Some(rank), Some(suit)) => Ok(Card::new(suit, rank)),
            _ => Err(err()),
        }
    }
}

/// A set of cards: a hand, the cards of one suit in a hand, the cards played so far.
///
/// A 52-bit set, so that copying, holding and asking "does this hand hold a heart?" (Law 44,
/// following suit) cost nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// The whole pack of 52 cards (Law 1).
    pub const PACK: CardSet = CardSet((1 << 52) - 1);

    /// The set as 52 bits, bit [`Card::index`] for each card.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set from 52 bits; bits above 51 are dropped.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & Self::PACK.0)
    }

    /// Whether the set holds `card`.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds `card`; returns whether it was new.
    pub fn insert(&mut self, card: Card) -> bool {
        let new = !self.contains(card);
        self.0 |= 1 << card.index();
        new
    }

    /// Removes `card`; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.index());
        had
    }

    /// The set with `card` added.
    #[must_use]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.index())
    }

    /// The set with `card` removed.
    #[must_use]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.index()))
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards of one suit.
    pub const fn suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & (0x1fff << (suit.index() * 13)))
    }

    /// Whether the set holds any card of `suit` (Law 44C: a player must follow suit if able).
    pub const fn has_suit(self, suit: Suit) -> bool {
        !self.suit(suit).is_empty()
    }

    /// Cards in both sets.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in either set.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards in this set and not in `other`.
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The highest card of the set by rank within `suit`, if any.
    pub fn highest_in(self, suit: Suit) -> Option<Card> {
        let bits = self.suit(suit).0;
        (bits != 0).then(|| Card::from_index(63 - bits.leading_zeros() as usize)).flatten()
    }

    /// The cards from clubs two upward (suit by suit, rank order within a suit).
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// Writes the set as PBN does one hand: spades, hearts, diamonds, clubs, separated by
    /// dots, ranks from high to low (`AKQJ.T98.765.432`).
    pub fn to_pbn(self) -> String {
        let mut out = String::with_capacity(16);
        for (i, suit) in Suit::ALL.iter().rev().enumerate() {
            if i > 0 {
                out.push('.');
            }
            for rank in Rank::ALL.iter().rev() {
                if self.contains(Card::new(*suit, *rank)) {
                    out.push(rank.letter());
                }
            }
        }
        out
    }

    /// Reads one PBN hand (`AKQJ.T98.765.432`; a void is an empty suit between dots).
    pub fn from_pbn(hand: &str) -> Result<CardSet, DealError> {
        let suits: Vec<&str> = hand.split('.').collect();
        if suits.len() != 4 {
            return Err(DealError::Syntax(format!("hand {hand:?} must have four suits separated by dots")));
        }
        let mut set = CardSet::EMPTY;
        for (holding, suit) in suits.iter().zip(Suit::ALL.iter().rev()) {
            let holding = holding.replace("10", "T");
            for c in holding.chars() {
                let rank = Rank::from_char(c)
                    .ok_or_else(|| DealError::Syntax(format!("{c:?} in hand {hand:?} is not a rank")))?;
                let card = Card::new(*suit, rank);
                if !set.insert(card) {
                    return Err(DealError::Duplicate(card));
                }
            }
        }
        Ok(set)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;

    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pbn())
    }
}

/// Iterator over a [`CardSet`], lowest index first.
#[derive(Debug, Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Card::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

/// The pack in a random order: an unbiased Fisher-Yates shuffle of [`Card::pack`]. Seeded deals
/// and seeded draws both use it, so its output for a given generator must never change.
pub(crate) fn shuffled_pack(rng: &mut impl Rng) -> [Card; 52] {
    let mut pack = [Card::new(Suit::Clubs, Rank::Two); 52];
    for (slot, card) in pack.iter_mut().zip(Card::pack()) {
        *slot = card;
    }
    for i in (1..pack.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        pack.swap(i, j);
    }
    pack
}

/// An unbiased integer in `0..bound` (Lemire's method with rejection).
pub(crate) fn uniform_below(rng: &mut impl Rng, bound: u32) -> u32 {
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let product = u64::from(rng.next_u32()) * u64::from(bound);
        if (product as u32) >= threshold {
            return (product >> 32) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_2_draw_order_is_rank_then_suit() {
        let two_spades = Card::new(Suit::Spades, Rank::Two);
        let three_clubs = Card::new(Suit::Clubs, Rank::Three);
        let two_hearts = Card::new(Suit::Hearts, Rank::Two);
        assert!(three_clubs > two_spades, "rank decides first");
        assert!(two_spades > two_hearts, "between equal ranks, spades rank highest");
        let mut pack: Vec<Card> = Card::pack().collect();
        pack.sort();
        assert_eq!(pack.first(), Some(&Card::new(Suit::Clubs, Rank::Two)));
        assert_eq!(pack.last(), Some(&Card::new(Suit::Spades, Rank::Ace)));
    }

    #[test]
    fn cards_read_in_both_orders() {
        assert_eq!("SA".parse(), Ok(Card::new(Suit::Spades, Rank::Ace)));
        assert_eq!("10h".parse(), Ok(Card::new(Suit::Hearts, Rank::Ten)));
        assert_eq!("♦7".parse(), Ok(Card::new(Suit::Diamonds, Rank::Seven)));
        assert!("ZZ".parse::<Card>().is_err());
        assert!("SAK".parse::<Card>().is_err());
    }
}
