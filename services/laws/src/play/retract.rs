//! Retraction of a card played (Law 47): a change of an unintended designation (duplicate Law
//! 45C4(b) and 47C; rubber Law 45D and 47B), a card dummy placed that declarer did not name
//! (duplicate Law 45D; rubber Law 46), a lead or play made because an opponent said it was the
//! player's turn, or after an opponent's mistaken explanation (duplicate Law 47E; rubber Law
//! 47D), and then the opponents' right to withdraw the cards they played after the card changed
//! (duplicate Law 47D; rubber Law 47C).
//!
//! None of these retractions makes a penalty card: the card goes back to the hand "without
//! further rectification" (duplicate Law 47C-E) or "without penalty" (rubber Law 45D, 47D).
//! The retractions that do make one are part of a rectification the engine applies itself
//! (Law 47A-B: Laws 52, 58, 62).

use crate::cards::{Card, CardSet};
use crate::irregularities::play::{Retraction, Seats, Situation};
use crate::law::{Code, Law};
use crate::seat::{Seat, Side};

use super::record::{Events, PlayEvent, Recorded};
use super::{Play, PlayError, RevokeStatus};

/// The card the last action recorded, with the play as it was before it (for Law 47E1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LastRecord {
    /// The hand the card came from.
    pub(crate) seat: Seat,
    /// The card.
    pub(crate) card: Card,
    /// The play before the card was recorded.
    pub(crate) before: Play,
    /// Whether the card is a duplicate opening lead made in turn, kept for Law 47E2(a) only.
    pub(crate) opening_lead: bool,
}

impl Play {
    /// Records that `seat`'s played card (dummy's seat for a card of dummy's) is taken back on
    /// the ground `retraction` gives, and applies Law 47:
    ///
    /// - [`Retraction::ChangeOfDesignation`]: the card goes back to the hand and the card
    ///   designated instead takes its place in the trick. Duplicate: only declarer's
    ///   designation of a card from dummy, until declarer plays again from either hand (Law
    ///   45C4(b)); rubber: any player's, before he plays again (Law 45D: "without pause for
    ///   thought"). Each opponent who played after it a card that was legal before the change
    ///   may withdraw his card (a pending decision).
    /// - [`Retraction::UndesignatedDummyCard`]: dummy's card goes back and the card declarer
    ///   named is played in its place; a defender who played after it may withdraw his card
    ///   (duplicate Law 45D1; rubber Law 46). Refused once each side has played to the next
    ///   trick: the card stands (duplicate Law 45D2).
    /// - [`Retraction::ToldItWasHisTurn`]: the last card recorded, led or played out of turn,
    ///   is retracted as though never made, so nobody may accept it (duplicate Law 47E1; rubber
    ///   Law 47D). Duplicate: it establishes no revoke (Law 63A1 does not apply); rubber Law 63
    ///   makes no such exception, so a revoke the lead established stays established.
    /// - [`Retraction::MistakenExplanation`]: the card goes back to the hand and the player
    ///   plays again. Duplicate: only if no card was played since, and not an opening lead once
    ///   dummy has faced a card (Law 47E2(a); too late, the Director may adjust, 47E2(b)); the
    ///   engine spreads dummy with the faced opening lead (Law 41), so an opening lead is
    ///   retracted by the next ground instead.
    /// - [`Retraction::OpeningLeadBeforeDummyFaced`]: the opening lead just made goes back and
    ///   the play is as before it, dummy's hand no longer face up (duplicate Law 47E2(a), the
    ///   table reporting that dummy had faced no card). Refused once anything else has
    ///   happened since the lead. Rubber: as the previous ground (Law 47D). Rubber (Law 47D): a card on the trick in
    ///   progress; the opponents who played after it may withdraw theirs (Law 47C).
    ///
    /// The card must be on the trick in progress, or on the trick just completed while no card
    /// has been played to the next. A card the engine finds a revoke is no longer one once
    /// withdrawn. Refused, with the Law, where the ground does not hold (duplicate Law 47F2:
    /// otherwise a played card may not be withdrawn).
    pub fn retract(&self, seat: Seat, retraction: Retraction) -> Result<Recorded, PlayError> {
        if self.is_complete() {
            return Err(PlayError::PlayOver { law: self.over_law() });
        }
        if self.is_suspended() {
            return Err(PlayError::PlaySuspended { law: self.suspended_law() });
        }
        let law = retraction.law(self.code);
        if let Some(returned) = self.retract_face_down_lead(seat, retraction)? {
            return Ok(returned);
        }
        if let Retraction::ToldItWasHisTurn { by } = retraction {
            Self::opponent_informed(seat, by, law)?;
            return self.retract_as_never_made(seat, law);
        }
        if let Retraction::OpeningLeadBeforeDummyFaced { by } = retraction {
            Self::opponent_informed(seat, by, law)?;
            return self.retract_opening_lead(seat, by, law);
        }
        if let Some(situation) = &self.pending {
            return Err(PlayError::DecisionPending { situation: Box::new(situation.clone()), law: self.pending_law() });
        }
        let refuse = |reason| PlayError::RetractionRefused { seat, reason, law };
        let mut next = self.successor();
        let mut events = Events::keep();
        match retraction {
            Retraction::ChangeOfDesignation { card } => {
                if self.code == Code::Duplicate && seat != self.dummy() {
                    return Err(PlayError::RetractionRefused {
                        seat,
                        reason: "only declarer's designation of a card from dummy may be changed (Law 45C4(b))",
                        law: Law::duplicate(47, "F2"),
                    });
                }
                let (t, old) = self.card_in_reach(seat).ok_or_else(|| refuse("he has no card on this trick"))?;
                self.ensure_held(seat, card, law)?;
                let declaring = self.contract.declaring_side();
                if seat.side() == declaring && self.tricks[t].played_after(seat).any(|s| s.side() == declaring) {
                    // Duplicate Law 45C4(b): "until he next plays a card from either his own hand
                    // or from dummy"; rubber Law 45D: "without pause for thought".
                    return Err(PlayError::RetractionRefused {
                        seat,
                        reason: "declarer has played again since",
                        law: self.cite(45, "D", "C4(b)"),
                    });
                }
                // "An opponent [who] has, in turn, played a card that was legal before the
                // change": not one whose card was a revoke.
                let revoked: Seats = self
                    .revokes
                    .iter()
                    .filter(|r| r.trick as usize == t && r.status == RevokeStatus::Unestablished)
                    .map(|r| r.offender)
                    .collect();
                let later: Seats = self.tricks[t]
                    .played_after(seat)
                    .filter(|s| s.side() != seat.side() && !revoked.contains(*s))
                    .collect();
                // The right to withdraw comes before anything the new card brings (settled
                // once the decision is made).
                if !later.is_empty() {
                    next.pending = Some(Situation::ChangeOfPlay {
                        changed: seat,
                        trick: t as u8,
                        later,
                        offending: seat.side(),
                        law: self.cite(45, "D", "C4(b)"),
                    });
                }
                next.substitute(seat, t, old, card, law, &mut events);
            }
            Retraction::UndesignatedDummyCard { named } => {
                let dummy = self.dummy();
                if seat != dummy {
                    return Err(refuse("only dummy places a card declarer did not name"));
                }
                let Some((t, wrong)) = self.card_in_reach(dummy) else {
                    return Err(self.too_late_for_dummys_card(law));
                };
                self.ensure_held(dummy, named, law)?;
                let later: Seats = self.tricks[t].played_after(dummy).filter(|s| self.is_defender(*s)).collect();
                if !later.is_empty() {
                    next.pending = Some(Situation::ChangeOfPlay {
                        changed: dummy,
                        trick: t as u8,
                        later,
                        offending: dummy.side(),
                        law,
                    });
                }
                next.substitute(dummy, t, wrong, named, law, &mut events);
            }
            Retraction::MistakenExplanation { by } => {
                Self::opponent_informed(seat, by, law)?;
                let (t, card) = self.card_in_reach(seat).ok_or_else(|| refuse("he has no card on this trick"))?;
                let trick = self.tricks[t];
                if self.code == Code::Duplicate {
                    if trick.in_order().last().map(|(s, _)| s) != Some(seat) {
                        return Err(PlayError::RetractionRefused {
                            seat,
                            reason: "a card has been played since; the Director may adjust the score",
                            law: Law::duplicate(47, "E2(b)"),
                        });
                    }
                    if t == 0 && trick.leader() == seat && self.dummy_visible() {
                        return Err(refuse("an opening lead may not be retracted once dummy has faced a card"));
                    }
                }
                // Rubber Law 47C: after his change of play, the opponents who played after him
                // may change theirs.
                let later: Seats = trick.played_after(seat).filter(|s| s.side() != seat.side()).collect();
                if !later.is_empty() {
                    next.pending = Some(Situation::ChangeOfPlay {
                        changed: seat,
                        trick: t as u8,
                        later,
                        offending: by.side(),
                        law: Law::rubber(47, "C"),
                    });
                }
                next.withdraw_card(seat, t);
                events.push(PlayEvent::CardWithdrawn { seat, card, trick: t as u8, law });
                next.settle();
            }
            Retraction::ToldItWasHisTurn { .. } | Retraction::OpeningLeadBeforeDummyFaced { .. } => {}
        }
        if let Some(situation) = next.pending.clone() {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// Records that the card `seat` has on the trick in progress (or on the trick just
    /// completed, while no card has been played to the next) came out together with the cards
    /// `also_visible`, whose faces were visible too, and that he designates `designated`, one
    /// of them, as the card he plays (Law 58B2 duplicate; Law 58 rubber). This is the case
    /// [`Play::record_simultaneous`] cannot record: the designation comes after an opponent
    /// has played to the trick.
    ///
    /// - `designated` takes the place of the recorded card in the trick if it is another card.
    /// - Every other visible card is withdrawn: a defender's becomes a penalty card ("each
    ///   other card exposed becomes a penalty card"), declarer's or dummy's goes back to the
    ///   hand ("must restore any other card to the correct hand", rubber).
    /// - The opponents who played to the trick after him may withdraw their cards and
    ///   substitute others without further rectification (duplicate Law 58B3: "After an
    ///   offending player withdraws a visible card, an opponent who subsequently played to
    ///   that trick may withdraw his play"; rubber Law 58 gives the right only to a defender
    ///   after declarer withdrew a card: "If declarer withdraws a visible card and a defender
    ///   has already played to that card, such defender may, without penalty, withdraw his
    ///   card and substitute another"). A pending decision, as after any change of play.
    ///
    /// Refused when only one card was visible (it is played: Law 58B1), for a card not held
    /// or not among those that came out together, and once both sides have played to the
    /// next trick (then Law 67 applies: duplicate Law 58B4, rubber Law 58).
    pub fn designate_simultaneous(
        &self,
        seat: Seat,
        designated: Card,
        also_visible: &[Card],
    ) -> Result<Recorded, PlayError> {
        self.ensure_can_play()?;
        let law = self.cite(58, "", "B2");
        let refuse = |reason| PlayError::RetractionRefused { seat, reason, law };
        let (t, recorded) = self.card_in_reach(seat).ok_or_else(|| PlayError::RetractionRefused {
            seat,
            reason: "he has no card on this trick; once both sides have played to the next trick Law 67 applies",
            law: self.cite(58, "", "B4"),
        })?;
        if also_visible.is_empty() {
            return Err(PlayError::RetractionRefused {
                seat,
                reason: "only one card was visible, so that card is played",
                law: self.cite(58, "", "B1"),
            });
        }
        let mut seen = CardSet::EMPTY;
        for card in also_visible {
            if *card == recorded || seen.contains(*card) {
                return Err(refuse("each other visible card is named once, and not the card on the trick"));
            }
            self.ensure_held(seat, *card, law)?;
            seen.insert(*card);
        }
        if designated != recorded && !seen.contains(designated) {
            return Err(refuse("the card designated must be one of the cards that came out together"));
        }
        let withdrawn: Vec<Card> =
            std::iter::once(recorded).chain(also_visible.iter().copied()).filter(|c| *c != designated).collect();
        let mut next = self.successor();
        let mut events = Events::keep();
        let declaring = self.contract.declaring_side();
        // Duplicate Law 58B3 gives any opponent who played after the right; rubber Law 58 only
        // a defender, after declarer withdrew a card.
        let opponents_may_change = self.code == Code::Duplicate || seat.side() == declaring;
        let later: Seats = self.tricks[t].played_after(seat).filter(|s| s.side() != seat.side()).collect();
        if opponents_may_change && !later.is_empty() {
            // The right to withdraw comes before anything the designated card brings.
            next.pending = Some(Situation::ChangeOfPlay {
                changed: seat,
                trick: t as u8,
                later,
                offending: seat.side(),
                law: self.cite(58, "", "B3"),
            });
        }
        if designated != recorded {
            // Settled below, once the withdrawn cards are penalty cards.
            next.substitute_unsettled(seat, t, recorded, designated, law, &mut events);
        }
        let deliberate = withdrawn.len() > 1;
        for card in withdrawn {
            if next.is_defender(seat) {
                next.make_penalty_card(seat, card, deliberate, law, &mut events);
            } else if card != recorded {
                // The recorded card's withdrawal is an event of the substitution already.
                events.push(PlayEvent::CardReturned { seat, card, law });
            }
        }
        next.settle();
        if let Some(situation) = next.pending.clone() {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// Keeps `before`, the play before `seat` recorded `card`, when the card was led or played
    /// out of turn and changed the play: Law 47E1 may yet retract it as though never made. A
    /// card in turn needs no such memory, so recorded and digital play of the same legal cards
    /// stay equal (digital play keeps the same memory of a duplicate opening lead); nor does a
    /// card picked up at once (Law 53 at trick 13, duplicate Law 54E).
    ///
    /// A duplicate opening lead made in turn is kept too, until the next action: it may be
    /// retracted after a mistaken explanation until dummy has faced a card (Law 47E2(a)).
    pub(crate) fn remember_last_record(&mut self, before: &Play, seat: Seat, card: Card) {
        if before.next_to_play() == Some(seat) {
            if self.code == Code::Duplicate && !before.opening_lead_faced && self.opening_lead_faced {
                let before = before.successor();
                self.last_record = Some(Box::new(LastRecord { seat, card, before, opening_lead: true }));
            }
            return;
        }
        let before = before.successor();
        if *self != before {
            self.last_record = Some(Box::new(LastRecord { seat, card, before, opening_lead: false }));
        }
    }

    /// Law 47E: the misinformation must come from an opponent.
    fn opponent_informed(seat: Seat, by: Seat, law: Law) -> Result<(), PlayError> {
        if by.side() == seat.side() {
            return Err(PlayError::RetractionRefused {
                seat,
                reason: "the misinformation did not come from an opponent",
                law,
            });
        }
        Ok(())
    }

    fn ensure_held(&self, seat: Seat, card: Card, law: Law) -> Result<(), PlayError> {
        if self.hands[seat.index()].contains(card) { Ok(()) } else { Err(PlayError::CardNotHeld { seat, card, law }) }
    }

    /// Law 47E1 (duplicate; rubber Law 47D): the last card recorded, led or played out of turn
    /// because an opponent said it was his turn, is retracted as though it had not been made.
    fn retract_as_never_made(&self, seat: Seat, law: Law) -> Result<Recorded, PlayError> {
        let refuse = |reason| PlayError::RetractionRefused { seat, reason, law };
        let Some(last) = self.last_record.as_deref().filter(|last| last.seat == seat && !last.opening_lead) else {
            return Err(refuse(
                "only a card he has just led or played out of turn, before anything else happened, is retracted so",
            ));
        };
        let before = &last.before;
        let mut play = before.clone();
        let mut events = Events::keep();
        let card = last.card;
        match self.tricks.iter().position(|t| t.card(seat) == Some(card)) {
            Some(trick) => events.push(PlayEvent::CardWithdrawn { seat, card, trick: trick as u8, law }),
            None => events.push(PlayEvent::CardReturned { seat, card, law }),
        }
        if self.code != Code::Duplicate {
            // Rubber Law 63: a lead or play to the following trick, legal or not, establishes
            // the side's revoke; Law 47D retracts the card "without penalty" but does not undo
            // that.
            let had_played = before.current_trick().is_some_and(|t| t.card(seat).is_some());
            play.establish(seat, before.completed + u8::from(had_played), &mut events);
        }
        Ok(Recorded { play, events: events.into_vec() })
    }

    /// Duplicate Law 47E2(a): the opening lead, just made, goes back to the hand and the play
    /// is as it was before it; dummy's hand is no longer face up. Rubber Law 47D has no such
    /// limit: there the lead is retracted as any card after a mistaken explanation.
    fn retract_opening_lead(&self, seat: Seat, by: Seat, law: Law) -> Result<Recorded, PlayError> {
        if self.code != Code::Duplicate {
            return self.retract(seat, Retraction::MistakenExplanation { by });
        }
        let refuse = |reason| PlayError::RetractionRefused { seat, reason, law };
        if let Some(situation) = &self.pending {
            return Err(PlayError::DecisionPending { situation: Box::new(situation.clone()), law: self.pending_law() });
        }
        let Some(last) = self.last_record.as_deref().filter(|last| last.opening_lead && last.seat == seat) else {
            return Err(refuse(
                "only the opening lead, before any other card was played or anything else happened, is retracted so",
            ));
        };
        let mut events = Events::keep();
        events.push(PlayEvent::CardWithdrawn { seat, card: last.card, trick: 0, law });
        Ok(Recorded { play: last.before.clone(), events: events.into_vec() })
    }

    /// The trick and card `seat` played that a retraction can still reach: his card on the trick
    /// in progress, or on the trick just completed while nobody has played to the next.
    fn card_in_reach(&self, seat: Seat) -> Option<(usize, Card)> {
        let cur = self.cur();
        let current = self.tricks.get(cur)?;
        if let Some(card) = current.card(seat) {
            return Some((cur, card));
        }
        if cur > 0 && current.is_empty() {
            return self.tricks[cur - 1].card(seat).map(|card| (cur - 1, card));
        }
        None
    }

    /// Why dummy's card on an earlier trick can no longer be exchanged for the card declarer
    /// named (duplicate Law 45D2), or cannot be here.
    fn too_late_for_dummys_card(&self, law: Law) -> PlayError {
        let dummy = self.dummy();
        let cur = self.cur();
        let on_last_trick = cur > 0 && self.tricks[cur - 1].card(dummy).is_some();
        let played = |side| self.tricks.get(cur).is_some_and(|t| t.in_order().any(|(s, _)| s.side() == side));
        let both_sides = played(Side::NorthSouth) && played(Side::EastWest);
        match (on_last_trick, both_sides) {
            (true, true) => PlayError::RetractionRefused {
                seat: dummy,
                reason: "each side has played to the next trick, so dummy's card stands",
                law: if self.code == Code::Duplicate { Law::duplicate(45, "D2") } else { Law::rubber(46, "") },
            },
            (true, _) => PlayError::CannotRecord {
                what: "exchanging dummy's card on the last trick after a card was played to the next",
                law,
            },
            (false, _) => PlayError::RetractionRefused { seat: dummy, reason: "dummy has no card on this trick", law },
        }
    }

    /// Replaces `seat`'s card `old` on trick `t` by `new` from his hand, in the same place in
    /// the order of play: the old card goes back to the hand without further rectification and
    /// the new one is played as a fact (a revoke if it fails an obligation, Law 61A).
    fn substitute(&mut self, seat: Seat, t: usize, old: Card, new: Card, law: Law, events: &mut Events) {
        self.substitute_unsettled(seat, t, old, new, law, events);
        self.settle();
    }

    fn substitute_unsettled(&mut self, seat: Seat, t: usize, old: Card, new: Card, law: Law, events: &mut Events) {
        let position = self.tricks[t].position(seat).unwrap_or(0);
        self.withdraw_card(seat, t);
        events.push(PlayEvent::CardWithdrawn { seat, card: old, trick: t as u8, law });
        self.note_revoke(seat, new, events);
        self.hands[seat.index()].remove(new);
        self.tricks[t].put_at(seat, new, position);
        if self.designated == Some(new) {
            self.designated = None;
        }
        events.push(PlayEvent::CardPlayed { seat, card: new, trick: t as u8 });
        if self.tricks[t].is_complete() {
            self.complete_trick(events);
        }
    }

    /// Takes `seat`'s card on trick `t` back into his hand without further rectification,
    /// reopening the trick if it was complete; a revoke it was is forgotten.
    pub(crate) fn withdraw_card(&mut self, seat: Seat, t: usize) -> Option<Card> {
        if t < self.cur() {
            self.reopen(t);
        }
        let card = self.tricks[t].take(seat)?;
        self.hands[seat.index()].insert(card);
        // A card no longer played is no revoke; nobody had drawn attention to it (then Law 62
        // would be correcting it instead).
        self.revokes.retain(|r| {
            !(r.offender == seat && r.trick as usize == t && r.card == card && r.status == RevokeStatus::Unestablished)
        });
        Some(card)
    }
}
