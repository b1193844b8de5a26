//! Designating a card from dummy (Law 46): which card an incomplete or invalid designation
//! names, and who completes it when the Law names none.
//!
//! Duplicate Law 46B deems a card for most incomplete designations ("high", "low", "win", a
//! suit alone, a rank alone) "except when declarer's different intention is incontrovertible"
//! (the table then records the card he meant); rubber Law 46 deems nothing: declarer must
//! complete a partial designation, and dummy plays nothing until he does.

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::play::{Designation, Situation};
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::record::{Events, PlayEvent, Recorded};
use super::{Play, PlayError};

/// What an incomplete or invalid designation from dummy amounts to (Law 46).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DesignationOutcome {
    /// The card declarer is deemed to have called: it is played (duplicate Law 46B1-3; a
    /// designation that fits only one card in rubber Law 46).
    Deemed(Card),
    /// Declarer must name one of these cards: he completes a partial designation (rubber Law
    /// 46), says which of two or more cards of the rank he meant (duplicate Law 46B3(b)), or,
    /// the call being invalid, names any legal card (duplicate Law 46B4).
    DeclarerDesignates(CardSet),
    /// Either defender names one of these cards, dummy's legal cards (duplicate Law 46B5, after
    /// "play anything").
    DefenderDesignates(CardSet),
}

/// The outcome of a designation and the Law that gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DesignationRuling {
    /// What it amounts to.
    pub outcome: DesignationOutcome,
    /// The Law.
    pub law: Law,
}

impl DesignationRuling {
    /// A ruling whose choice among `cards` is made by `outcome`'s chooser, or deemed when only
    /// one card is left to choose.
    fn among(cards: CardSet, defenders: bool, law: Law) -> DesignationRuling {
        let outcome = match cards.iter().next() {
            Some(card) if cards.len() == 1 => DesignationOutcome::Deemed(card),
            _ if defenders => DesignationOutcome::DefenderDesignates(cards),
            _ => DesignationOutcome::DeclarerDesignates(cards),
        };
        DesignationRuling { outcome, law }
    }

    fn deemed(card: Card, law: Law) -> DesignationRuling {
        DesignationRuling { outcome: DesignationOutcome::Deemed(card), law }
    }
}

/// The lowest card of `suit` in `set`.
fn lowest(set: CardSet, suit: Suit) -> Option<Card> {
    set.suit(suit).iter().next()
}

/// Whether `card` beats `best`, the best card so far of a trick (of the suit led or a trump):
/// a higher card of its suit, or a trump over a card that is not one (Law 44E-F).
fn beats(card: Card, best: Card, trumps: Option<Suit>) -> bool {
    if card.suit == best.suit { card.rank > best.rank } else { Some(card.suit) == trumps }
}

impl Play {
    /// What `designation` of a card from dummy amounts to now (Law 46), for the hand due to
    /// play being dummy's. Duplicate Law 46B:
    /// - "high" / "low": the highest / lowest card of the suit led (46B1(a), (c));
    /// - "win": the lowest card that it is known will win the trick (46B1(b)): one that beats
    ///   the cards played and that no card declarer cannot see, in the hand of a defender still
    ///   to play, could beat (a defender who has shown out of a suit holds none of it; any
    ///   other may be void in the suit led and ruff);
    /// - a suit alone: its lowest card (46B2);
    /// - a rank alone: when leading, the card of that rank in the suit with which dummy won the
    ///   preceding trick (46B3(a)); otherwise the legal card of that rank, and declarer says
    ///   which when there are two or more (46B3(b));
    /// - a card not in dummy: invalid, declarer names any legal card (46B4);
    /// - "play anything": either defender names the card (46B5).
    ///
    /// Where the words fit no card (as "high" when dummy cannot follow), declarer names the
    /// card (46A: a designation states suit and rank). Rubber Law 46: declarer completes any
    /// partial designation, choosing among the cards his words fit.
    pub fn interpret_designation(&self, designation: Designation) -> Result<DesignationRuling, PlayError> {
        self.ensure_can_play()?;
        if !self.dummy_visible() || self.next_to_play() != Some(self.dummy()) {
            return Err(PlayError::CannotRecord {
                what: "a designation of a card from dummy when dummy is not due to play",
                law: self.cite(46, "", "A"),
            });
        }
        Ok(self.designation_ruling(designation))
    }

    /// Records declarer's designation of a card from dummy (Law 46): a card deemed designated
    /// is played (a revoke if it fails an obligation, Law 61A); otherwise a decision is pending
    /// for declarer, or for either defender after "play anything", to name the card.
    pub fn designate_from_dummy(&self, designation: Designation) -> Result<Recorded, PlayError> {
        let ruling = self.interpret_designation(designation)?;
        let mut next = self.successor();
        let mut events = Events::keep();
        match ruling.outcome {
            DesignationOutcome::Deemed(card) => next.play_with_check(self.dummy(), card, &mut events),
            _ => {
                let situation = Situation::IncompleteDesignation { designation };
                next.pending = Some(situation.clone());
                events.push(PlayEvent::DecisionRequired { situation });
            }
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// [`Play::interpret_designation`] once dummy is known to be due to play.
    pub(crate) fn designation_ruling(&self, designation: Designation) -> DesignationRuling {
        let dummy = self.dummy();
        let hand = self.hands[dummy.index()];
        let legal = self.obligations(dummy, None).allowed;
        let led = self.current_trick().and_then(|t| t.suit_led());
        if self.code != Code::Duplicate {
            let law = Law::rubber(46, "");
            let fits = match designation {
                Designation::Card(card) if hand.contains(card) => {
                    return DesignationRuling::deemed(card, Law::rubber(45, ""));
                }
                Designation::Suit(suit) => hand.suit(suit),
                Designation::Rank(rank) => hand.iter().filter(|c| c.rank == rank).collect(),
                Designation::High | Designation::Low => led.map_or(CardSet::EMPTY, |s| hand.suit(s)),
                Designation::Card(_) | Designation::Win | Designation::Anything => legal,
            };
            return DesignationRuling::among(if fits.is_empty() { legal } else { fits }, false, law);
        }
        let law = |section| Law::duplicate(46, section);
        let incomplete = DesignationRuling::among(legal, false, law("A"));
        match designation {
            Designation::Card(card) if hand.contains(card) => DesignationRuling::deemed(card, Law::duplicate(45, "B")),
            Designation::Card(_) => DesignationRuling::among(legal, false, law("B4")),
            Designation::High => led
                .and_then(|s| hand.highest_in(s))
                .map_or(incomplete, |card| DesignationRuling::deemed(card, law("B1(a)"))),
            Designation::Low => led
                .and_then(|s| lowest(hand, s))
                .map_or(incomplete, |card| DesignationRuling::deemed(card, law("B1(c)"))),
            Designation::Win => {
                let winners = self.known_winners(dummy, legal);
                match winners.iter().next() {
                    None => DesignationRuling::among(legal, false, law("B1(b)")),
                    // "The lowest card": within one suit; across suits (a lead) declarer says.
                    Some(first) if winners.suit(first.suit) == winners => {
                        DesignationRuling::deemed(first, law("B1(b)"))
                    }
                    Some(_) => DesignationRuling::among(winners, false, law("B1(b)")),
                }
            }
            Designation::Suit(suit) => lowest(hand, suit)
                .map_or(DesignationRuling::among(legal, false, law("B4")), |card| {
                    DesignationRuling::deemed(card, law("B2"))
                }),
            Designation::Rank(rank) => {
                if led.is_none()
                    && let Some(previous) = self.completed.checked_sub(1).map(|t| self.tricks[t as usize])
                    && previous.winner() == Some(dummy)
                    && let Some(won) = previous.card(dummy)
                    && hand.contains(Card::new(won.suit, rank))
                {
                    return DesignationRuling::deemed(Card::new(won.suit, rank), law("B3(a)"));
                }
                let of_rank: CardSet = hand.iter().filter(|c| c.rank == rank).collect();
                if of_rank.is_empty() {
                    return DesignationRuling::among(legal, false, law("B4"));
                }
                let playable = of_rank.intersection(legal);
                DesignationRuling::among(if playable.is_empty() { legal } else { playable }, false, law("B3(b)"))
            }
            Designation::Anything => DesignationRuling::among(legal, true, law("B5")),
        }
    }

    /// The cards among `legal` that `seat` could play knowing they will win the trick
    /// (duplicate Law 46B1(b)), from what declarer sees: his hand, dummy's, the played cards and
    /// the penalty cards.
    fn known_winners(&self, seat: Seat, legal: CardSet) -> CardSet {
        let trumps = self.trumps();
        let Some(trick) = self.current_trick() else { return CardSet::EMPTY };
        let mut seen = self.hands[self.declarer().index()].union(self.hands[self.dummy().index()]);
        let mut voids: [Vec<Suit>; 4] = Default::default();
        for played in self.tricks.iter().take(self.cur() + 1) {
            let led = played.suit_led();
            for (player, card) in played.in_order() {
                seen.insert(card);
                // The leader shows no void: his card differs from the suit led only after a
                // rubber Law 67B2 replacement.
                if let Some(led) = led
                    && card.suit != led
                    && player != played.leader()
                {
                    voids[player.index()].push(led);
                }
            }
        }
        for pc in self.penalty_cards() {
            seen.insert(pc.card);
        }
        let unseen = CardSet::PACK.difference(seen);
        let best =
            trick.in_order().map(|(_, c)| c).reduce(|best, card| if beats(card, best, trumps) { card } else { best });
        let still_to_play: Vec<Seat> = trick.waiting().filter(|s| *s != seat && self.is_defender(*s)).collect();
        legal
            .iter()
            .filter(|card| {
                // A card of another suit than the one led wins only as a trump.
                let led = trick.suit_led().unwrap_or(card.suit);
                if card.suit != led && Some(card.suit) != trumps {
                    return false;
                }
                if best.is_some_and(|best| !beats(*card, best, trumps)) {
                    return false;
                }
                still_to_play.iter().all(|defender| {
                    let own: CardSet =
                        self.penalty_cards().filter(|pc| pc.owner == *defender).map(|pc| pc.card).collect();
                    // He may hold any card declarer cannot see, except in a suit he has shown out
                    // of, and may be void in the suit led and ruff.
                    unseen
                        .union(own)
                        .iter()
                        .filter(|d| !voids[defender.index()].contains(&d.suit))
                        .all(|d| !beats(d, *card, trumps))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_44_a_trump_beats_the_suit_led_and_a_discard_beats_nothing() {
        let c = |s: &str| s.parse::<Card>().unwrap_or_else(|e| panic!("{e}"));
        assert!(beats(c("S2"), c("HA"), Some(Suit::Spades)));
        assert!(!beats(c("DA"), c("H2"), Some(Suit::Spades)));
        assert!(beats(c("H3"), c("H2"), None));
        assert!(!beats(c("S3"), c("S4"), Some(Suit::Spades)));
    }
}
