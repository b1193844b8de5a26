//! Which cards a player may play now, and which obligation a card would fail.
//!
//! The obligations apply in the order the Laws rank them: following suit comes first (Law 44C:
//! "this obligation takes precedence over all other requirements"); then lead and play
//! restrictions imposed in rectification (Law 26, 50D2, 51B, 57); then penalty cards (Law
//! 50D1(b): the duty to follow suit or to comply with a restriction takes precedence over
//! playing a major penalty card; Law 50C for a minor one). A player who cannot comply with a
//! restriction plays any otherwise legal card (Law 59).

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::play::PlayRequirement;
use crate::seat::Seat;

use super::{Failure, Play};

/// The result of applying every obligation to one player's hand.
pub(crate) struct Obligations {
    /// The cards he may play.
    pub allowed: CardSet,
    /// The cards allowed before penalty cards are considered (to find the penalty cards that
    /// can legally be played, Law 50D1(a), 51A).
    pub before_penalty_cards: CardSet,
    /// The first obligation the card asked about would fail, if any.
    pub failure: Option<Failure>,
}

/// Narrows the allowed set step by step, remembering the first step that excluded the card
/// asked about.
struct Narrowing {
    allowed: CardSet,
    card: Option<Card>,
    failure: Option<Failure>,
}

impl Narrowing {
    fn narrow(&mut self, to: CardSet, failure: impl FnOnce() -> Failure) {
        if self.failure.is_none()
            && let Some(card) = self.card
            && self.allowed.contains(card)
            && !to.contains(card)
        {
            self.failure = Some(failure());
        }
        self.allowed = to;
    }
}

/// Cards of `suit` in `set` strictly below the rank of an honour (Law 50C).
fn below_honour(set: CardSet, suit: Suit) -> CardSet {
    set.suit(suit).iter().filter(|card| !card.rank.is_honor()).collect()
}

/// The lowest card of `suit` in `set`.
fn lowest_in(set: CardSet, suit: Suit) -> Option<Card> {
    set.suit(suit).iter().next()
}

impl Play {
    /// Applies every obligation to `seat`'s hand for his next card, and says which one `card`
    /// would fail.
    pub(crate) fn obligations(&self, seat: Seat, card: Option<Card>) -> Obligations {
        if let Some((_, lying)) = self.face_down.filter(|(leader, _)| *leader == seat) {
            // The lead is made, face down (duplicate Law 41A, rubber Appendix 3): facing it is all
            // that is left, whatever obligation arose since; any other card is refused before.
            let allowed: CardSet = [lying].into_iter().collect();
            return Obligations { allowed, before_penalty_cards: allowed, failure: None };
        }
        let hand = self.hands[seat.index()];
        let mut n = Narrowing { allowed: hand, card, failure: None };
        let trick = self.current_trick();
        match trick.and_then(|t| t.suit_led()) {
            None => self.lead_obligations(seat, &mut n),
            Some(led) => self.follow_obligations(seat, led, &mut n),
        }
        let before_penalty_cards = n.allowed;
        if self.is_defender(seat) {
            self.penalty_card_obligations(seat, &mut n);
        }
        if let Some((to, failure)) = self.surplus_narrowing(seat, n.allowed) {
            n.narrow(to, || failure);
        }
        Obligations { allowed: n.allowed, before_penalty_cards, failure: n.failure }
    }

    fn lead_obligations(&self, seat: Seat, n: &mut Narrowing) {
        let Some(restriction) = self.lead_restriction.filter(|r| r.player == seat) else {
            return;
        };
        if let Some((suit, law)) = restriction.required
            && n.allowed.has_suit(suit)
        {
            n.narrow(n.allowed.suit(suit), || Failure::LeadRequired { suit, law });
        }
        if let Some((suits, law)) = restriction.forbidden {
            let rest: CardSet = n.allowed.iter().filter(|c| !suits.contains(c.suit)).collect();
            if !rest.is_empty() {
                let led = n.card.map_or(Suit::Clubs, |c| c.suit);
                n.narrow(rest, || Failure::LeadForbidden { suit: led, law });
            }
        }
    }

    fn follow_obligations(&self, seat: Seat, led: Suit, n: &mut Narrowing) {
        let hand = n.allowed;
        if hand.has_suit(led) {
            let law = self.cite(44, "", "C");
            n.narrow(hand.suit(led), || Failure::FollowSuit { suit: led, law });
        }
        let Some(restriction) = self.play_restriction.filter(|r| r.player == seat) else {
            return;
        };
        let law = restriction.law;
        let requirement = restriction.requirement;
        let follows = hand.has_suit(led);
        let to = match requirement {
            PlayRequirement::Highest if follows => n.allowed.highest_in(led).map(|c| CardSet::EMPTY.with(c)),
            PlayRequirement::Lowest if follows => lowest_in(n.allowed, led).map(|c| CardSet::EMPTY.with(c)),
            PlayRequirement::Suit(suit) if !follows && n.allowed.has_suit(suit) => Some(n.allowed.suit(suit)),
            PlayRequirement::NotSuit(suit) if !follows => {
                let rest = n.allowed.difference(n.allowed.suit(suit));
                (!rest.is_empty()).then_some(rest)
            }
            PlayRequirement::Card(card) | PlayRequirement::OneOfTwo { card, .. } if n.allowed.contains(card) => {
                Some(CardSet::EMPTY.with(card))
            }
            _ => None,
        };
        if let Some(to) = to {
            let suit = match requirement {
                PlayRequirement::Suit(suit) | PlayRequirement::NotSuit(suit) => suit,
                PlayRequirement::Card(card) | PlayRequirement::OneOfTwo { card, .. } => card.suit,
                PlayRequirement::Highest | PlayRequirement::Lowest => led,
            };
            n.narrow(to, || Failure::PlayRequirement { requirement, suit, law });
        }
    }

    fn penalty_card_obligations(&self, seat: Seat, n: &mut Narrowing) {
        let majors = self.majors(seat).intersection(n.allowed);
        if !majors.is_empty() {
            let card = self.designated.filter(|d| majors.contains(*d)).or_else(|| majors.iter().next());
            if let Some(card) = card {
                let to = if self.designated == Some(card) { CardSet::EMPTY.with(card) } else { majors };
                let law = self.cite(50, "", "D1");
                n.narrow(to, || Failure::PenaltyCard { card, minor: false, law });
            }
            return;
        }
        if let Some(minor) = self.minor(seat)
            && n.allowed.contains(minor)
        {
            let to = n.allowed.difference(below_honour(n.allowed, minor.suit)).with(minor);
            let law = self.cite(50, "", "C");
            n.narrow(to, || Failure::PenaltyCard { card: minor, minor: true, law });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Rank;

    #[test]
    fn law_50c_honours_are_not_below_honour_rank() {
        let set: CardSet = ["HA", "HT", "H9", "H2", "S2"].iter().filter_map(|c| c.parse::<Card>().ok()).collect();
        let low = below_honour(set, Suit::Hearts);
        assert_eq!(low.len(), 2);
        assert!(low.contains(Card::new(Suit::Hearts, Rank::Nine)));
        assert_eq!(lowest_in(set, Suit::Hearts), Some(Card::new(Suit::Hearts, Rank::Two)));
    }
}
