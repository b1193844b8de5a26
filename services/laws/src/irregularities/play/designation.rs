//! How declarer called for a card from dummy ([`Designation`], Law 46). Apart because a
//! designation is recorded as a fact of its own, before any decision.

use std::fmt;

use crate::cards::{Card, Rank, Suit};

/// How declarer called for a card from dummy (Law 46). The proper form names suit and rank
/// (duplicate Law 46A); the others are incomplete or invalid designations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Designation {
    /// "High", or words of like meaning (duplicate Law 46B1(a)).
    High,
    /// "Win" the trick (duplicate Law 46B1(b)).
    Win,
    /// "Low", or words of like meaning (duplicate Law 46B1(c)).
    Low,
    /// A suit but not a rank (duplicate Law 46B2).
    Suit(Suit),
    /// A rank but not a suit (duplicate Law 46B3).
    Rank(Rank),
    /// A card; when it is not in dummy the call is invalid (duplicate Law 46B4).
    Card(Card),
    /// Neither suit nor rank, as "play anything" (duplicate Law 46B5).
    Anything,
}

impl fmt::Display for Designation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Designation::High => f.write_str("\"high\""),
            Designation::Win => f.write_str("\"win\""),
            Designation::Low => f.write_str("\"low\""),
            Designation::Suit(suit) => write!(f, "{suit} without a rank"),
            Designation::Rank(rank) => write!(f, "the rank {rank} without a suit"),
            Designation::Card(card) => write!(f, "the {card}"),
            Designation::Anything => f.write_str("\"play anything\""),
        }
    }
}
