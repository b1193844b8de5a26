//! A defective trick found late: a trick to which a player failed to play a card, or to which
//! he played more than one, found after the time Law 67A allows for putting it right (rubber
//! Law 67B, which the Alternative Club Laws keep; duplicate Law 67B).
//!
//! Recorded play holds one card of each hand on a trick, so the table tells the engine of the
//! defect when it is found:
//! - A card missing: the trick in progress lacks the offender's card, and perhaps others (each
//!   player who played none is responsible for his own, and is told as a defect of his own, in
//!   the order of play). The table recorded no card of his because he played none; the cards
//!   played to the next trick before the defect was found are recorded after the ruling, in their
//!   order.
//! - A card too many: the engine holds the card on the trick that the table recorded as his, and
//!   the extra card is still in his hand in the engine, as the Law deems it to have been.

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::play::Seats;
use crate::law::{Code, Law};
use crate::seat::{Seat, Side};

use super::record::{Events, PlayEvent, Recorded};
use super::{Attention, Failure, Play, PlayError, Revoke, RevokeStatus};

/// A trick found defective late, a card missing, while the offenders have still to add theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Defective {
    /// The players who failed to play to the trick, told so far.
    pub(crate) offenders: Seats,
    /// The trick (0-12).
    pub(crate) trick: u8,
    /// The player whose card won the trick as it was quitted: his card "does not affect
    /// ownership of the trick" (duplicate Law 67B1); "the ownership of the defective trick cannot
    /// be changed" (rubber Law 67B).
    pub(crate) owner: Seat,
}

/// The winner of the cards on a trick, whatever their number: the highest trump, otherwise the
/// highest card of the suit led (Law 44E-F). `None` without the leader's card.
fn winner_of(leader: Seat, cards: &[Option<Card>; 4], trumps: Option<Suit>) -> Option<Seat> {
    let led = cards[leader.index()]?.suit;
    let present = (0..4).map(|step| leader.after(step)).filter_map(|seat| cards[seat.index()].map(|c| (seat, c)));
    let ruffed = trumps.filter(|t| present.clone().any(|(_, c)| c.suit == *t));
    let suit = ruffed.unwrap_or(led);
    present.filter(|(_, c)| c.suit == suit).max_by_key(|(_, c)| c.rank).map(|(seat, _)| seat)
}

impl Play {
    /// The Law of a defective trick found late in the code played, `section` "B1" (a card
    /// missing) or "B2" (a card too many): Law 67 is lettered alike in both texts.
    const fn defective_law(&self, section: &'static str) -> Law {
        self.cite(67, section, section)
    }

    /// Whether an extra card of `seat`'s on trick `t` is found in time for Law 67A: duplicate
    /// Law 67A, "before a player on each side has played to the following trick"; rubber Law
    /// 67A, "until the responsible player has played to a subsequent trick".
    pub(crate) fn defect_in_time(&self, seat: Seat, t: usize) -> bool {
        let cur = self.cur();
        if t + 1 < cur {
            return false;
        }
        let following = self.tricks.get(t + 1).filter(|_| t < cur);
        match self.code {
            Code::Duplicate => following.is_none_or(|f| {
                let sides: Vec<Side> = f.in_order().map(|(s, _)| s.side()).collect();
                !(sides.contains(&Side::NorthSouth) && sides.contains(&Side::EastWest))
            }),
            _ => following.is_none_or(|f| f.card(seat).is_none()),
        }
    }

    /// Records that trick `trick` (0-12) was found defective after the time Law 67A allows:
    /// `offender` failed to play a card to it (`extra` is `None`), or he played `extra` to it
    /// besides the card recorded there as his.
    ///
    /// A card missing, duplicate Law 67B1: "the Director shall require him forthwith to expose
    /// a card face-up in front of him and then place it appropriately among his played cards
    /// (this card does not affect ownership of the trick); if (a) the offender has a card of the
    /// suit led to the defective trick; he must choose such a card ... (b) the offender has no
    /// card of the suit led to the defective trick; he chooses any card ... He is deemed to have
    /// revoked on the defective trick and is subject to the loss of one trick transferred in
    /// accordance with Law 64A2." Rubber Law 67B1 (the Club Laws keep it): "he forthwith faces
    /// and adds a card to that trick, if possible one he could legally have played to it", the
    /// ownership of the trick unchanged, and no revoke.
    ///
    /// - The trick must be the trick in progress, with the three other hands' cards on it.
    /// - The offender plays next: [`Play::legal_cards`] are the cards he could legally play to
    ///   the trick (a card of the suit led if he has one); a single such card is played at once;
    ///   any other card is refused (`CannotRecord`, Law 67B1), not recorded as a revoke. The
    ///   trick stays with the player who had won it as quitted.
    /// - Duplicate: his card is a revoke, established and pointed out, which Law 64 rules at the
    ///   end of play with the rest (64A2 as he did not win the trick; the exemptions of 64B).
    ///
    /// A card too many, duplicate Law 67B2: "the Director ... requires the offender to restore
    /// to his hand all extra cards, leaving among the played cards the one faced in playing to
    /// the defective trick ... Ownership of the defective trick does not change. (b) A restored
    /// card is deemed to have belonged continuously to the offender's hand, and a failure to
    /// have played it to an earlier trick may constitute a revoke." Footnote: an extra card of
    /// a defender's that has been exposed becomes a penalty card. Rubber Law 67B2: "he
    /// withdraws all but one card, leaving the highest card he could legally have played to
    /// that trick. A withdrawn card may become a penalty card (Law 50); such a card is deemed to
    /// have belonged continuously to the offender's hand and failure to have played it to an
    /// earlier trick may constitute a revoke."
    ///
    /// - Duplicate: the card recorded on the trick is the one faced and stays; `extra` is
    ///   restored. Rubber and Club: of the two, the highest card he could legally have played
    ///   stays; when that is `extra`, of the same suit as the card recorded, the two change
    ///   places and the recorded card is restored. The trick keeps its winner.
    /// - A defender's restored card was played face up: a penalty card (major in duplicate, as a
    ///   played card, Law 50B; in rubber as a card exposed inadvertently with another, as Law
    ///   67A2). Declarer's and dummy's go back to the hand (Law 48).
    /// - The engine held the restored card in his hand throughout, so every revoke its holding
    ///   made on a later trick is already recorded: an established one in its suit is now
    ///   pointed out (Laws 63-64 rule it). One not yet established (or on the twelfth trick) is
    ///   left for the table to point out, for Law 62's correction.
    /// - Found while Law 67A still applies, the extra card is recorded as
    ///   [`Play::record_extra_card`] records it.
    ///
    /// Refused while a decision is pending, a claim is considered or play is over; for a card
    /// not held; for a trick the offender did not play to (a card too many) or one that is not
    /// the trick in progress lacking only his card (a card missing).
    ///
    /// Rubber: when the offender led to the trick and the card left is of another suit than his
    /// lead, the other three followed the lead they saw; the Law rules on the offender's cards
    /// alone ("he withdraws all but one card"), so the trick keeps that suit as the suit led
    /// ([`Trick::suit_led`](super::Trick::suit_led)) and nobody else's play to it is judged
    /// again. A lead cannot be a revoke, so none of his is added or dropped on it.
    pub fn defective_trick(&self, offender: Seat, trick: u8, extra: Option<Card>) -> Result<Recorded, PlayError> {
        self.ensure_can_play()?;
        match extra {
            None => self.missing_card(offender, trick),
            Some(card) => self.extra_card_found_late(offender, trick, card),
        }
    }

    /// The offender who has still to add his card to a trick found defective late, and the
    /// trick (0-12) (duplicate and rubber Law 67B1).
    pub fn defective_awaiting_card(&self) -> Option<(Seat, u8)> {
        let defective = self.defective?;
        let next = self.next_to_play().filter(|seat| defective.offenders.contains(*seat))?;
        Some((next, defective.trick))
    }

    /// A card missing (Law 67B1): the offender must be the next to play to the trick in progress,
    /// which has its lead; when more than his card is missing, each offender is told in the order
    /// of play, and the trick keeps the owner it had when the first was found ("the ownership of
    /// the defective trick cannot be changed", rubber Law 67B; duplicate 67B1).
    fn missing_card(&self, offender: Seat, trick: u8) -> Result<Recorded, PlayError> {
        let law = self.defective_law("B1");
        let cur = self.cur();
        let played = self.tricks[cur];
        if trick as usize != cur || played.is_empty() || self.next_to_play() != Some(offender) {
            return Err(PlayError::CannotRecord {
                what: "a card missing from a trick other than the trick in progress, the next in order to add his",
                law,
            });
        }
        let earlier = self.defective.filter(|d| d.trick == trick);
        let owner = match earlier {
            Some(defective) => defective.owner,
            None => winner_of(played.leader(), &played.cards(), self.trumps())
                .ok_or(PlayError::CannotRecord { what: "a trick without its lead", law })?,
        };
        let offenders = earlier.map_or(Seats::EMPTY, |d| d.offenders).with(offender);
        let mut next = self.successor();
        let events = Events::keep();
        next.defective = Some(Defective { offenders, trick, owner });
        Ok(next.offender_supplies(offender, events))
    }

    /// Refuses a card the offender may not add to a trick found defective late (Law 67B1): he
    /// must choose a card he could legally play to it, one of the suit led if he has one.
    pub(crate) fn check_defective_card(&self, seat: Seat, card: Card) -> Result<(), PlayError> {
        if self.defective.is_some_and(|d| d.offenders.contains(seat) && d.trick == self.completed)
            && self.obligations(seat, Some(card)).failure.is_some()
        {
            return Err(PlayError::CannotRecord {
                what: "a card he could not legally have played to the defective trick",
                law: self.defective_law("B1"),
            });
        }
        Ok(())
    }

    /// The winner of trick `t`, just completed: a trick found defective late keeps the owner it
    /// had as quitted, and in duplicate the card the offender added is a revoke (Law 67B1).
    pub(crate) fn defective_winner(&mut self, t: usize, winner: Seat, events: &mut Events) -> Seat {
        let Some(defective) = self.defective.filter(|d| d.trick as usize == t) else {
            return winner;
        };
        self.defective = None;
        self.tricks[t].award(defective.owner);
        for offender in defective.offenders.iter() {
            self.deemed_revoke(t, offender, events);
        }
        defective.owner
    }

    /// Duplicate Law 67B3: "When the Director determines that the offender did play a card to the
    /// trick, but that card was not placed among the quitted tricks, the Director finds the card
    /// and places it correctly among the offender's played cards." The table recorded the card
    /// where it was played, so the record already has it there, and nothing changes. The Law's
    /// adjusted score "if the same card was played to a subsequent trick" cannot arise from the
    /// record: no card is recorded twice. The rubber Law has no such case (the trick holds its
    /// four cards, so it is not defective).
    pub fn card_found_among_played(&self, offender: Seat, trick: u8, card: Card) -> bool {
        self.code == Code::Duplicate
            && (trick as usize) < self.cur()
            && self.tricks.get(trick as usize).and_then(|t| t.card(offender)) == Some(card)
    }

    /// Duplicate Law 67B1: the card an offender added to a trick found defective late is deemed a
    /// revoke on it.
    fn deemed_revoke(&mut self, t: usize, offender: Seat, events: &mut Events) {
        if self.code == Code::Duplicate
            && let (Some(card), Some(suit)) = (self.tricks[t].card(offender), self.tricks[t].suit_led())
        {
            // "He is deemed to have revoked on the defective trick and is subject to the loss of
            // one trick transferred in accordance with Law 64A2."
            self.revokes.push(Revoke {
                offender,
                trick: t as u8,
                card,
                failure: Failure::FollowSuit { suit, law: Law::duplicate(67, "B1") },
                status: RevokeStatus::Established,
                attention: Some(Attention::DuringPlay),
                from_faced_hand: self.hand_faced(offender),
                asked_by_dummy_out_of_rights: false,
            });
            events.push(PlayEvent::Revoke { seat: offender, trick: t as u8 });
            events.push(PlayEvent::RevokeEstablished { seat: offender, trick: t as u8 });
        }
    }

    fn extra_card_found_late(&self, offender: Seat, trick: u8, extra: Card) -> Result<Recorded, PlayError> {
        let law = self.defective_law("B2");
        if self.card_found_among_played(offender, trick, extra) {
            return Ok(Recorded { play: self.successor(), events: Vec::new() });
        }
        if !self.hands[offender.index()].contains(extra) {
            return Err(PlayError::CardNotHeld { seat: offender, card: extra, law: self.cite(45, "", "A") });
        }
        let t = trick as usize;
        let Some(on_trick) = self.tricks.get(t).filter(|_| t <= self.cur()).and_then(|tr| tr.card(offender)) else {
            return Err(PlayError::CannotRecord { what: "an extra card to a trick he has not played to", law });
        };
        if self.defect_in_time(offender, t) {
            return self.record_extra_card(offender, extra, trick);
        }
        let stays_extra = self.code != Code::Duplicate && self.leaves_extra(offender, t, on_trick, extra);
        let mut next = self.successor();
        let mut events = Events::keep();
        let restored = if stays_extra {
            let winner = self.tricks[t].winner();
            let position = self.tricks[t].position(offender).unwrap_or(0);
            if self.tricks[t].leader() == offender {
                // His lead replaced by a card of another suit: the others followed the lead they
                // saw, and the Law rules on his cards alone, so the trick keeps that suit led.
                next.tricks[t].keep_suit_led();
            }
            next.tricks[t].put_at(offender, extra, position);
            if let Some(winner) = winner {
                next.tricks[t].award(winner);
            }
            next.hands[offender.index()].remove(extra);
            next.hands[offender.index()].insert(on_trick);
            if extra.suit != on_trick.suit {
                next.judge_revokes_again(offender, t);
            }
            events.push(PlayEvent::CardWithdrawn { seat: offender, card: on_trick, trick, law });
            on_trick
        } else {
            extra
        };
        if next.is_defender(offender) {
            next.make_penalty_card(offender, restored, self.code == Code::Duplicate, law, &mut events);
        } else {
            events.push(PlayEvent::CardReturned { seat: offender, card: restored, law });
        }
        // "Deemed to have belonged continuously to the offender's hand": the revokes his holding
        // of it made on later tricks, established, are now pointed out.
        for revoke in &mut next.revokes {
            if revoke.offender == offender
                && revoke.trick > trick
                && revoke.trick != 11
                && revoke.status == RevokeStatus::Established
                && revoke.attention.is_none()
                && matches!(revoke.failure, Failure::FollowSuit { suit, .. } if suit == restored.suit)
            {
                revoke.attention = Some(Attention::DuringPlay);
            }
        }
        next.settle();
        if let Some(situation) = next.pending.clone() {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// Rubber Law 67B2: whether `extra` rather than `on_trick` is "the highest card he could
    /// legally have played to that trick". A card that follows suit is the one he could legally
    /// play when the other does not; of two legal cards of one suit, the higher rank; of two legal
    /// discards of different suits, a trump above a plain card, and otherwise the higher rank (an
    /// equal rank leaves the card recorded). When he led to the trick every card was a legal lead,
    /// so the higher of the two stays, of whichever suit.
    fn leaves_extra(&self, offender: Seat, t: usize, on_trick: Card, extra: Card) -> bool {
        // His hand as it was at that trick: what he holds now and what he played from it since.
        let mut then: CardSet = self.hands[offender.index()];
        for played in &self.tricks[t..=self.cur().min(12)] {
            if let Some(card) = played.card(offender) {
                then.insert(card);
            }
        }
        let trick = self.tricks[t];
        let led = trick.suit_led().filter(|_| trick.leader() != offender);
        let legal = |card: Card| led.is_none_or(|suit| !then.has_suit(suit) || card.suit == suit);
        let height = |card: Card| (Some(card.suit) == self.trumps(), card.rank);
        match (legal(on_trick), legal(extra)) {
            (_, false) => false,
            (false, true) => true,
            (true, true) if on_trick.suit == extra.suit => extra.rank > on_trick.rank,
            (true, true) => height(extra) > height(on_trick),
        }
    }

    /// After a card of another suit took the place of `offender`'s card on trick `t` (rubber Law
    /// 67B2), his failures to follow suit from that trick on are judged again on his hand as the
    /// Law deems it, the restored card "deemed to have belonged continuously to the offender's
    /// hand": a revoke the engine recorded that he no longer made is dropped, and one he now made
    /// is added, established if his side has played to a later trick (Law 63) and then pointed out
    /// except on the twelfth trick (Law 62), as the restored card's other revokes are.
    pub(super) fn judge_revokes_again(&mut self, offender: Seat, t: usize) {
        let last = self.cur().min(12);
        for k in t..=last {
            let trick = self.tricks[k];
            let (Some(card), Some(led)) = (trick.card(offender), trick.suit_led()) else { continue };
            if trick.leader() == offender {
                continue;
            }
            let mut held = self.hands[offender.index()];
            for later in &self.tricks[k..=last] {
                if let Some(played) = later.card(offender) {
                    held.insert(played);
                }
            }
            let revoked = held.has_suit(led) && card.suit != led;
            let recorded = self.revokes.iter().position(|r| {
                r.offender == offender
                    && r.trick as usize == k
                    && r.status != RevokeStatus::Corrected
                    && matches!(r.failure, Failure::FollowSuit { .. })
            });
            match (revoked, recorded) {
                (false, Some(i)) => {
                    self.revokes.remove(i);
                }
                (true, None) => {
                    let side = offender.side();
                    let established = self.tricks[k + 1..=last]
                        .iter()
                        .any(|later| later.in_order().any(|(seat, _)| seat.side() == side));
                    let at = self.revokes.iter().position(|r| r.trick as usize > k).unwrap_or(self.revokes.len());
                    let revoke = Revoke {
                        offender,
                        trick: k as u8,
                        card,
                        failure: Failure::FollowSuit { suit: led, law: self.cite(44, "", "C") },
                        status: if established { RevokeStatus::Established } else { RevokeStatus::Unestablished },
                        attention: (established && k != 11).then_some(Attention::DuringPlay),
                        from_faced_hand: self.hand_faced(offender),
                        asked_by_dummy_out_of_rights: false,
                    };
                    self.revokes.insert(at, revoke);
                }
                _ => {}
            }
        }
    }
}
