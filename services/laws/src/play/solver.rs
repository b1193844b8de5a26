//! Exhaustive search over the legal continuations of a play (following suit, Law 44C), for the
//! parts of claim rulings that are mechanical: tricks no play can lose (Law 71B), and whether
//! any play at all could lose a trick to an outstanding trump (Law 70C3).
//!
//! Positions are memoised at trick boundaries by the cards still unplayed and the leader: the
//! owner of every card is fixed by the deal, so those two determine the position.

use std::collections::{HashMap, HashSet};

use crate::cards::{Card, CardSet, Suit};
use crate::seat::{Seat, Side};

use super::trick::{Trick, winner};

/// The most tricks remaining for which the search runs.
pub(crate) const LIMIT: u8 = 8;

fn union(hands: &[CardSet; 4]) -> CardSet {
    hands.iter().fold(CardSet::EMPTY, |acc, hand| acc.union(*hand))
}

/// Tricks still to be completed from a position.
fn tricks_left(hands: &[CardSet; 4], trick: &Trick) -> u8 {
    ((union(hands).len() + trick.len()).div_ceil(4)) as u8
}

/// The cards a hand may play (Law 44C), keeping only one of each run of cards that no other
/// unplayed card separates: they win and lose exactly the same tricks.
fn moves(hand: CardSet, led: Option<Suit>, alive: CardSet) -> impl Iterator<Item = Card> {
    let legal = match led {
        Some(suit) if hand.has_suit(suit) => hand.suit(suit),
        _ => hand,
    };
    legal.iter().filter(move |card| {
        let above = alive.suit(card.suit).bits() & !((2u64 << card.index()) - 1);
        let next = (above != 0).then(|| Card::from_index(above.trailing_zeros() as usize)).flatten();
        !next.is_some_and(|next| legal.contains(next))
    })
}

fn alive(hands: &[CardSet; 4], trick: &Trick) -> CardSet {
    trick.cards().iter().flatten().fold(union(hands), |acc, card| acc.with(*card))
}

/// Whether every hand together can hold `side` to a number of tricks, memoising for each
/// position the largest number known to be impossible (if `side` cannot be held to `b`
/// tricks, it cannot be held to fewer).
struct Holder {
    trumps: Option<Suit>,
    side: Side,
    impossible: HashMap<(u64, Seat), u8>,
}

impl Holder {
    fn can_hold(&mut self, hands: [CardSet; 4], trick: Trick, budget: u8) -> bool {
        if budget >= tricks_left(&hands, &trick) {
            return true;
        }
        let Some(seat) = trick.next_in_rotation() else {
            let cards = trick.cards();
            let Some(won_by) = winner(trick.leader(), &cards, self.trumps) else {
                return false;
            };
            let won = u8::from(won_by.side() == self.side);
            if won > budget {
                return false;
            }
            return self.at(hands, won_by, budget - won);
        };
        let alive = alive(&hands, &trick);
        let mut candidates: Vec<Card> = moves(hands[seat.index()], trick.suit_led(), alive).collect();
        // Try first the cards most likely to keep `side` from winning: its own lowest, the
        // others' highest.
        if seat.side() == self.side {
            candidates.sort_by_key(|c| (Some(c.suit) == self.trumps, c.rank));
        } else {
            candidates.sort_by_key(|c| std::cmp::Reverse((Some(c.suit) == self.trumps, c.rank)));
        }
        for card in candidates {
            let mut after = hands;
            after[seat.index()].remove(card);
            let mut next = trick;
            next.put(seat, card);
            if self.can_hold(after, next, budget) {
                return true;
            }
        }
        false
    }

    /// A lower bound on the tricks `side` still wins: each of its trumps above every
    /// opponent's trump wins the trick it is played to, and the cards of one hand go to
    /// different tricks.
    fn sure_tricks(&self, hands: &[CardSet; 4]) -> u8 {
        let Some(trumps) = self.trumps else {
            return 0;
        };
        let [a, b] = self.side.opponents().seats();
        let best_opponent = hands[a.index()].union(hands[b.index()]).highest_in(trumps).map(|c| c.rank);
        self.side
            .seats()
            .iter()
            .map(|seat| hands[seat.index()].suit(trumps).iter().filter(|c| Some(c.rank) > best_opponent).count() as u8)
            .max()
            .unwrap_or(0)
    }

    fn at(&mut self, hands: [CardSet; 4], leader: Seat, budget: u8) -> bool {
        if self.sure_tricks(&hands) > budget {
            return false;
        }
        let key = (union(&hands).bits(), leader);
        if self.impossible.get(&key).is_some_and(|known| budget <= *known) {
            return false;
        }
        let possible = self.can_hold(hands, Trick::new(leader), budget);
        if !possible {
            let known = self.impossible.entry(key).or_insert(budget);
            *known = (*known).max(budget);
        }
        possible
    }
}

/// The fewest tricks `side` can win from here over every legal continuation, or `None` past
/// [`LIMIT`] tricks.
pub(crate) fn fewest_tricks(hands: [CardSet; 4], trick: Trick, trumps: Option<Suit>, side: Side) -> Option<u8> {
    let left = tricks_left(&hands, &trick);
    if left > LIMIT {
        return None;
    }
    let mut holder = Holder { trumps, side, impossible: HashMap::new() };
    (0..=left).find(|budget| holder.can_hold(hands, trick, *budget))
}

struct TrumpWins {
    trumps: Suit,
    holders: Side,
    failed: HashSet<(u64, Seat)>,
}

impl TrumpWins {
    fn in_trick(&mut self, hands: [CardSet; 4], trick: Trick) -> bool {
        let Some(seat) = trick.next_in_rotation() else {
            let cards = trick.cards();
            let Some(won_by) = winner(trick.leader(), &cards, Some(self.trumps)) else {
                return false;
            };
            if won_by.side() == self.holders && cards[won_by.index()].is_some_and(|c| c.suit == self.trumps) {
                return true;
            }
            return !union(&hands).is_empty() && self.at(hands, won_by);
        };
        let alive = alive(&hands, &trick);
        for card in moves(hands[seat.index()], trick.suit_led(), alive) {
            let mut after = hands;
            after[seat.index()].remove(card);
            let mut next = trick;
            next.put(seat, card);
            if self.in_trick(after, next) {
                return true;
            }
        }
        false
    }

    fn at(&mut self, hands: [CardSet; 4], leader: Seat) -> bool {
        let key = (union(&hands).bits(), leader);
        if self.failed.contains(&key) {
            return false;
        }
        let found = self.in_trick(hands, Trick::new(leader));
        if !found {
            self.failed.insert(key);
        }
        found
    }
}

/// Whether some legal continuation lets a trump held by `holders` win a trick, or `None` past
/// [`LIMIT`] tricks.
pub(crate) fn trump_can_win(hands: [CardSet; 4], trick: Trick, trumps: Suit, holders: Side) -> Option<bool> {
    if tricks_left(&hands, &trick) > LIMIT {
        return None;
    }
    let held = holders.seats().iter().any(|seat| hands[seat.index()].has_suit(trumps));
    if !held {
        return Some(false);
    }
    Some(TrumpWins { trumps, holders, failed: HashSet::new() }.in_trick(hands, trick))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(pbn: &str) -> CardSet {
        CardSet::from_pbn(pbn).unwrap_or_default()
    }

    #[test]
    fn touching_cards_are_one_move() {
        // North holds KQ of spades with nothing between them unplayed: one move.
        let hands = [hand("KQ2..."), hand("A43..."), hand("765..."), hand("JT9...")];
        let alive = union(&hands);
        let moves: Vec<Card> = moves(hands[0], None, alive).collect();
        assert_eq!(moves.len(), 2, "{moves:?}");
    }

    #[test]
    fn a_side_with_all_the_top_cards_cannot_lose_them() {
        // Three tricks left at notrump, South on lead with AKQ of spades; nobody else has a spade.
        let hands = [hand("..432."), hand("...432"), hand("AKQ..."), hand(".432..")];
        let fewest = fewest_tricks(hands, Trick::new(Seat::South), None, Side::NorthSouth);
        assert_eq!(fewest, Some(3));
        // With East on lead in clubs, North-South can be held to nothing but their own suit's
        // tricks once they get in: East wins the clubs first.
        let fewest = fewest_tricks(hands, Trick::new(Seat::East), None, Side::NorthSouth);
        assert_eq!(fewest, Some(0));
    }
}
