//! Hands and deals (Law 8): the whole pack divided into four hands of thirteen, checked
//! whenever it comes from outside (a PBN string, four hands from a message), and the server's
//! deal from a committed seed. Apart from the pack and its cards because a deal is checked as a
//! whole, and its seed is a secret with a public commitment.

use std::fmt;
use std::str::FromStr;

use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

use crate::law::{CitesLaw, Law};
use crate::seat::Seat;

use super::{Card, CardSet, shuffled_pack};

/// Why four hands are not a deal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// A hand does not hold thirteen cards (Law 8: each player receives thirteen cards).
    #[error("{seat} holds {count} cards; each hand must hold 13 (Law 8)")]
    WrongCount {
        /// The hand at fault.
        seat: Seat,
        /// How many cards it holds.
        count: usize,
    },
    /// A card appears twice (Law 1: the pack has 52 different cards).
    #[error("{0} appears more than once; a pack has 52 different cards (Law 1)")]
    Duplicate(Card),
    /// The text is not a PBN deal.
    #[error("not a PBN deal: {0}")]
    Syntax(String),
}

impl CitesLaw for DealError {
    fn law(&self) -> Law {
        match self {
            DealError::WrongCount { .. } => Law::rubber(8, ""),
            DealError::Duplicate(_) | DealError::Syntax(_) => Law::rubber(1, ""),
        }
    }
}

/// A deal: the whole pack divided into four hands of thirteen (Law 1, Law 8).
///
/// Built only by [`Deal::new`], [`Deal::from_pbn`] or [`Deal::from_seed`], so a `Deal` always
/// holds each of the 52 cards exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deal {
    hands: [CardSet; 4],
}

impl Deal {
    /// Checks that four hands (North, East, South, West) form a deal: 13 cards each (Law 8)
    /// and no card twice (Law 1).
    pub fn new(hands: [CardSet; 4]) -> Result<Deal, DealError> {
        let mut seen = CardSet::EMPTY;
        for seat in Seat::ALL {
            let hand = hands[seat.index()];
            if let Some(card) = seen.intersection(hand).iter().next() {
                return Err(DealError::Duplicate(card));
            }
            seen = seen.union(hand);
        }
        for seat in Seat::ALL {
            let count = hands[seat.index()].len();
            if count != 13 {
                return Err(DealError::WrongCount { seat, count });
            }
        }
        Ok(Deal { hands })
    }

    /// The hand of `seat`, as dealt.
    pub const fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// The four hands, North first.
    pub const fn hands(&self) -> [CardSet; 4] {
        self.hands
    }

    /// The seat that was dealt `card`.
    pub fn holder(&self, card: Card) -> Seat {
        Seat::ALL.into_iter().find(|seat| self.hand(*seat).contains(card)).unwrap_or(Seat::North) // unreachable: a Deal holds every card
    }

    /// Reads a PBN `[Deal]` value: `N:` (the first hand's seat) then four hands clockwise,
    /// separated by spaces. Unknown hands (`-`) are refused: a deal here is always complete.
    pub fn from_pbn(pbn: &str) -> Result<Deal, DealError> {
        let pbn = pbn.trim();
        let (first, rest) = pbn
            .split_once(':')
            .ok_or_else(|| DealError::Syntax(format!("{pbn:?} must start with the first hand's seat, as in \"N:\"")))?;
        let first: Seat = first.parse().map_err(|e: crate::seat::ParseSeatError| DealError::Syntax(e.to_string()))?;
        let parts: Vec<&str> = rest.split_whitespace().collect();
        if parts.len() != 4 {
            return Err(DealError::Syntax(format!("expected four hands, found {}", parts.len())));
        }
        let mut hands = [CardSet::EMPTY; 4];
        for (i, part) in parts.iter().enumerate() {
            hands[first.after(i).index()] = CardSet::from_pbn(part)?;
        }
        Deal::new(hands)
    }

    /// Writes the deal as a PBN `[Deal]` value starting with `first`.
    pub fn to_pbn(&self, first: Seat) -> String {
        let hands: Vec<String> = (0..4).map(|i| self.hand(first.after(i)).to_pbn()).collect();
        format!("{}:{}", first.letter(), hands.join(" "))
    }

    /// The deal produced by a 32-byte seed: the pack is shuffled with ChaCha20 (an unbiased
    /// Fisher-Yates shuffle with rejection sampling, so every deal is equally likely) and dealt
    /// one card at a time clockwise starting with North, as Law 8 deals one at a time.
    ///
    /// The same seed always gives the same deal, so a server can publish
    /// [`DealSeed::commitment`] before the auction and the seed after the deal, and anyone can
    /// replay it. The algorithm is part of the platform's contract and must never change.
    pub fn from_seed(seed: &DealSeed) -> Deal {
        let pack = shuffled_pack(&mut chacha20::ChaCha20Rng::from_seed(seed.0));
        let mut hands = [CardSet::EMPTY; 4];
        for (i, card) in pack.into_iter().enumerate() {
            hands[i % 4].insert(card);
        }
        Deal { hands }
    }
}

impl FromStr for Deal {
    type Err = DealError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Deal::from_pbn(s)
    }
}

/// The secret 32 bytes a server deal is made from (see [`Deal::from_seed`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealSeed(pub [u8; 32]);

impl DealSeed {
    /// SHA-256 of the seed: published when the deal starts, so that once the seed is revealed
    /// anyone can check the deal was fixed before the first call.
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// Whether `commitment` is the commitment of this seed.
    pub fn verifies(&self, commitment: &[u8; 32]) -> bool {
        &self.commitment() == commitment
    }
}

impl fmt::Debug for DealSeed {
    /// Never prints the seed itself: a logged seed would reveal a live deal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DealSeed(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};

    #[test]
    fn law_1_and_8_a_deal_is_one_pack_in_four_hands_of_thirteen() {
        let short = "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";
        assert_eq!(short.parse::<Deal>(), Err(DealError::WrongCount { seat: Seat::North, count: 12 }));
        let twice = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765A";
        assert!(matches!(twice.parse::<Deal>(), Err(DealError::Syntax(_) | DealError::Duplicate(_))));
        let dup = "N:AKQJ.T98.765.432 A98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";
        assert_eq!(dup.parse::<Deal>(), Err(DealError::Duplicate(Card::new(Suit::Spades, Rank::Ace))));
        assert_eq!(DealError::Duplicate(Card::new(Suit::Spades, Rank::Ace)).law(), Law::rubber(1, ""));
    }

    #[test]
    fn pbn_round_trips_from_any_first_seat() {
        let deal = Deal::from_seed(&DealSeed([7; 32]));
        for seat in Seat::ALL {
            assert_eq!(Deal::from_pbn(&deal.to_pbn(seat)), Ok(deal));
        }
    }

    #[test]
    fn seeded_deals_are_replayable_and_committed() {
        let seed = DealSeed([42; 32]);
        assert_eq!(Deal::from_seed(&seed), Deal::from_seed(&seed));
        assert_ne!(Deal::from_seed(&seed), Deal::from_seed(&DealSeed([43; 32])));
        assert!(seed.verifies(&seed.commitment()));
        assert!(!DealSeed([43; 32]).verifies(&seed.commitment()));
        // The shuffle is part of the contract: this deal must never change.
        assert_eq!(
            Deal::from_seed(&DealSeed([0; 32])).to_pbn(Seat::North),
            "N:AKT82.87.83.JT93 QJ76.KQ.J642.Q42 95.954.AQ5.AK876 43.AJT632.KT97.5"
        );
    }
}
