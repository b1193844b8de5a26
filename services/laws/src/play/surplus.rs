//! A surplus card led or played to a trick: a card that was not part of the offender's hand in
//! this deal, picked up from a previous trick, from dummy, from the other deck or elsewhere
//! (rubber Law 12B2; the Alternative Club Laws have no Law 12 of their own, so the regular Law
//! stands; duplicate Law 13C). Apart from the other rectifications because the card is not one
//! the deal knows: the engine learns of it only when the table says so, and then takes it out
//! of the trick and has the offender put a card of his own in its place.
//!
//! A surplus card found in the offender's hand and never played changes nothing in the play:
//! it goes back to its proper place without penalty (rubber Law 12B1; duplicate Law 13C: "The
//! auction and play continue without further rectification"). The table records that fact
//! without asking the play ([`crate::table`]).

use crate::cards::{Card, CardSet};
use crate::irregularities::play::{PlayRequirement, Seats, Situation};
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::record::{Events, PlayEvent, Recorded};
use super::{Failure, Play, PlayError, winner};

/// A surplus card taken out of a trick, while its consequences last: until the offender has put
/// a card of his own in its place and a card is led to the next trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Surplus {
    /// The player who led or played it (dummy's seat for a card from dummy's hand).
    pub(crate) offender: Seat,
    /// The trick (0-12).
    pub(crate) trick: u8,
    /// The surplus card: its suit is the one the substitute must be of, if possible.
    pub(crate) card: Card,
    /// Its place in the order of play, which the substitute takes.
    pub(crate) position: usize,
    /// Whether the offender has still to put a card in its place.
    pub(crate) awaiting: bool,
    /// The non-offender who had won the trick, when it was complete: "The offending side may
    /// not thereby win a trick it had lost" (rubber Law 12B2).
    pub(crate) lost_to: Option<Seat>,
    /// The non-offenders who played to the trick after the surplus card (rubber Law 12B2: they
    /// may withdraw those plays).
    pub(crate) later: Seats,
}

impl Play {
    /// The Law a surplus card led or played falls under: rubber Law 12B2 (also under the Club
    /// Laws, which leave Law 12 as it is), duplicate Law 13C.
    pub(crate) const fn surplus_law(&self) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(13, "C"),
            _ => Law::rubber(12, "B2"),
        }
    }

    /// Records that `offender` (dummy's seat for a card from dummy's hand) led or played `card`
    /// to trick `trick` (0-12) and that it was a surplus card, attention being drawn to it
    /// before the lead to the next trick. Either the card stands on that trick as his (the
    /// surplus card looked like a card he holds, so the engine took that card of his: he still
    /// holds it, and it goes back to his hand), or it was just led or played to the trick in
    /// progress and the table could not record it (a card he does not hold).
    ///
    /// Rubber Law 12B2 (and the Club Laws, which keep it): "such surplus card shall be restored
    /// to its proper place, and ... the offender must substitute for it a card from his hand
    /// that he can legally play to the trick, and, if possible, a card of the same suit as the
    /// surplus card. The offending side may not thereby win a trick it had lost, but it may
    /// lose a trick it had won. When attention is drawn to the offence before the lead to the
    /// next trick, both members of the non-offending side may, without penalty, withdraw a play
    /// made subsequent to the offence and substitute any legal play."
    ///
    /// - The card leaves the trick, and the offender plays next: [`Play::legal_cards`] are the
    ///   cards he may legally play to the trick, narrowed to the surplus card's suit when he
    ///   has one he may play. A single such card is played at once. His card takes the surplus
    ///   card's place in the order of play.
    /// - When the trick is complete again, a non-offender who had won it keeps it if the
    ///   offending side would now win it; a trick the offending side had won goes to whoever
    ///   wins it now. A surplus card the table could not record that was the trick's fourth
    ///   card had completed it: the trick had been won by whoever it left winning.
    /// - Once the offender has substituted, the non-offenders who played after the surplus card
    ///   may withdraw their cards and play any legal card instead (a pending
    ///   [`Situation::ChangeOfPlay`] offering them alone the right; the offending side gets no
    ///   answering right, the Law gives it none).
    ///
    /// Duplicate Law 13C: "Any surplus card not part of the deal is removed if found. The
    /// auction and play continue without further rectification. No adjusted score may be
    /// awarded unless such a card is found to have been played to a quitted trick." The card is
    /// removed and the offender plays any legal card in its place (the Law asks for no card of
    /// the same suit); the trick goes to whoever wins it as the cards then lie; the opponents
    /// have no right to change their cards (Law 13C is silent, and "without further
    /// rectification"). When the trick was already complete (quitted), the Director may adjust
    /// the score: an adjustment is reserved against the offending side.
    ///
    /// Refused while a decision is pending, a claim is considered or play is over, for a card
    /// the offender neither has on that trick nor could have just led or played to it, and for a
    /// card on a trick a later lead has closed: the offender cannot play his substitute in turn
    /// there, so the table names it ([`Play::surplus_card_on_older_trick`]).
    pub fn surplus_card(&self, offender: Seat, card: Card, trick: u8) -> Result<Recorded, PlayError> {
        self.ensure_can_play()?;
        let law = self.surplus_law();
        let cur = self.cur();
        let t = trick as usize;
        let on_trick = self.tricks.get(t).and_then(|tr| tr.card(offender)) == Some(card);
        let mut next = self.successor();
        let mut events = Events::keep();
        if on_trick {
            let in_reach = t == cur || (t + 1 == cur && self.tricks[cur].is_empty());
            if !in_reach {
                return Err(PlayError::CannotRecord { what: "a surplus card on a trick closed by a later lead", law });
            }
            let played = self.tricks[t];
            let lost_to = played.winner().filter(|w| w.side() != offender.side());
            let later: Seats = played.played_after(offender).filter(|s| s.side() != offender.side()).collect();
            let position = played.position(offender).unwrap_or(0);
            if self.code == Code::Duplicate && played.is_complete() {
                // Law 13C: "unless such a card is found to have been played to a quitted trick".
                next.reserve(offender.side(), law);
            }
            next.withdraw_card(offender, t);
            events.push(PlayEvent::CardWithdrawn { seat: offender, card, trick, law });
            let later = if self.code == Code::Duplicate { Seats::EMPTY } else { later };
            let lost_to = if self.code == Code::Duplicate { None } else { lost_to };
            next.surplus = Some(Surplus { offender, trick, card, position, awaiting: true, lost_to, later });
        } else {
            // Just led or played, and not recordable as a card of his: he is to play now.
            if t != cur || self.next_to_play() != Some(offender) {
                return Err(PlayError::CannotRecord {
                    what: "a surplus card the offender did not lead or play to that trick",
                    law,
                });
            }
            // The fourth card, it completed the trick: whoever it left winning had won it.
            let mut cards = self.tricks[cur].cards();
            cards[offender.index()] = Some(card);
            let lost_to = winner(self.tricks[cur].leader(), &cards, self.trumps())
                .filter(|w| w.side() != offender.side() && self.code != Code::Duplicate);
            let position = self.tricks[cur].len();
            let surplus = Surplus { offender, trick, card, position, awaiting: true, lost_to, later: Seats::EMPTY };
            next.surplus = Some(surplus);
        }
        Ok(next.offender_supplies(offender, events))
    }

    /// The surplus card whose place the offender has still to fill, with the suit his card
    /// must be of if he can (rubber Law 12B2), or `None`.
    pub fn surplus_awaiting_substitute(&self) -> Option<(Seat, Card)> {
        self.surplus.filter(|s| s.awaiting).map(|s| (s.offender, s.card))
    }

    /// Rubber Law 12B2: the offender's card in place of a surplus card is "if possible, a card
    /// of the same suit as the surplus card", among the cards he may legally play. Duplicate
    /// Law 13C asks for none.
    pub(crate) fn surplus_narrowing(&self, seat: Seat, allowed: CardSet) -> Option<(CardSet, Failure)> {
        let surplus = self.surplus.filter(|s| s.awaiting && s.offender == seat && s.trick == self.completed)?;
        let suit = surplus.card.suit;
        if self.code == Code::Duplicate || !allowed.has_suit(suit) {
            return None;
        }
        let failure =
            Failure::PlayRequirement { requirement: PlayRequirement::Suit(suit), suit, law: self.surplus_law() };
        Some((allowed.suit(suit), failure))
    }

    /// Puts `seat`'s `card` into the trick in progress: in the surplus card's place when it is
    /// the offender's card in place of one, raising the non-offenders' right to withdraw their
    /// later plays (rubber Law 12B2). A card led to a later trick ends the surplus card's
    /// consequences.
    pub(crate) fn place_card(&mut self, seat: Seat, card: Card) {
        let cur = self.cur();
        if self.surplus.is_some_and(|s| (s.trick as usize) < cur) {
            self.surplus = None;
        }
        match self.surplus.filter(|s| s.awaiting && s.offender == seat && s.trick as usize == cur) {
            Some(surplus) => {
                self.tricks[cur].put_at(seat, card, surplus.position);
                self.surplus = Some(Surplus { awaiting: false, ..surplus });
                if !surplus.later.is_empty() {
                    self.pending = Some(Situation::ChangeOfPlay {
                        changed: seat,
                        trick: surplus.trick,
                        later: surplus.later,
                        offending: seat.side(),
                        law: self.surplus_law(),
                    });
                }
            }
            None => self.tricks[cur].put(seat, card),
        }
    }

    /// The winner of trick `t`, just completed, after a surplus card was taken out of it:
    /// "The offending side may not thereby win a trick it had lost, but it may lose a trick it
    /// had won" (rubber Law 12B2).
    pub(crate) fn surplus_winner(&mut self, t: usize, winner: Seat) -> Seat {
        match self.surplus.filter(|s| s.trick as usize == t).and_then(|s| s.lost_to.map(|to| (s.offender, to))) {
            Some((offender, to)) if winner.side() == offender.side() => {
                self.tricks[t].award(to);
                to
            }
            _ => winner,
        }
    }
}
