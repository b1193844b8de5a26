//! Sets of suits and of seats, as the play's decisions name them ("one or more of such suits",
//! the players who may answer a decision). Apart because options, effects and situations all
//! use them.

use std::fmt;

use crate::cards::Suit;
use crate::seat::Seat;

/// A set of suits, such as the suits declarer forbids under Law 51B2(b) ("one or more of such
/// suits") or the suits in which a defender has penalty cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Suits(u8);

impl Suits {
    /// No suit.
    pub const EMPTY: Suits = Suits(0);

    /// The set holding only `suit`.
    pub const fn single(suit: Suit) -> Suits {
        Suits(1 << suit.index())
    }

    /// The set with `suit` added.
    #[must_use]
    pub const fn with(self, suit: Suit) -> Suits {
        Suits(self.0 | 1 << suit.index())
    }

    /// Whether the set holds `suit`.
    pub const fn contains(self, suit: Suit) -> bool {
        self.0 & (1 << suit.index()) != 0
    }

    /// Number of suits in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every suit of `self` is in `other`.
    pub const fn is_subset(self, other: Suits) -> bool {
        self.0 & !other.0 == 0
    }

    /// The suits from spades down to clubs (the order of Law 2, as people list them).
    pub fn iter(self) -> impl Iterator<Item = Suit> {
        Suit::ALL.into_iter().rev().filter(move |suit| self.contains(*suit))
    }

    /// Every non-empty subset of this set, in a fixed order (for Law 51B2(b) offers).
    pub fn non_empty_subsets(self) -> impl Iterator<Item = Suits> {
        let bits = self.0;
        (1..=bits).rev().filter(move |sub| sub & !bits == 0).map(Suits)
    }
}

impl FromIterator<Suit> for Suits {
    fn from_iter<I: IntoIterator<Item = Suit>>(iter: I) -> Self {
        iter.into_iter().fold(Suits::EMPTY, Suits::with)
    }
}

impl fmt::Display for Suits {
    /// "spades", "spades and hearts", "spades, hearts and clubs".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.len();
        if n == 0 {
            return f.write_str("no suit");
        }
        for (i, suit) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == n { " and " } else { ", " })?;
            }
            write!(f, "{suit}")?;
        }
        Ok(())
    }
}

/// A set of seats: the players who may answer a decision, the hands that are face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seats(u8);

impl Seats {
    /// No seat.
    pub const EMPTY: Seats = Seats(0);

    /// The set holding only `seat`.
    pub const fn single(seat: Seat) -> Seats {
        Seats(1 << seat.index())
    }

    /// The set with `seat` added.
    #[must_use]
    pub const fn with(self, seat: Seat) -> Seats {
        Seats(self.0 | 1 << seat.index())
    }

    /// The set with `seat` removed.
    #[must_use]
    pub const fn without(self, seat: Seat) -> Seats {
        Seats(self.0 & !(1 << seat.index()))
    }

    /// Whether the set holds `seat`.
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.index()) != 0
    }

    /// Number of seats in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in clockwise order from North.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |seat| self.contains(*seat))
    }

    /// Every subset of this set, the empty set included (for Law 62C1 offers).
    pub fn subsets(self) -> impl Iterator<Item = Seats> {
        let bits = self.0;
        (0..=bits).filter(move |sub| sub & !bits == 0).map(Seats)
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(Seats::EMPTY, Seats::with)
    }
}

impl fmt::Display for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nobody");
        }
        for (i, seat) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{seat}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suit_sets_list_as_people_say_them() {
        let both = Suits::single(Suit::Clubs).with(Suit::Spades);
        assert_eq!(both.to_string(), "spades and clubs");
        assert_eq!(both.non_empty_subsets().count(), 3, "Law 51B2(b): one or more of such suits");
        let three: Suits = [Suit::Hearts, Suit::Clubs, Suit::Diamonds].into_iter().collect();
        assert_eq!(three.to_string(), "hearts, diamonds and clubs");
        assert!(Suits::single(Suit::Hearts).is_subset(three));
    }

    #[test]
    fn seat_subsets_include_keeping_everything() {
        let seats = Seats::single(Seat::North).with(Seat::South);
        assert_eq!(seats.subsets().count(), 4, "Law 62C1: each non-offender may or may not withdraw");
        assert_eq!(seats.to_string(), "North and South");
    }
}
