//! Applying the option chosen: its effects in order, then the calls it makes, then the
//! left-hand opponent's held call offered back (duplicate Law 25A6; Law 21B2). Apart from the
//! options so that what an option lists and what applying it does each read in one place.

use crate::auction::{Auction, AuctionError, CallEntry, CallStatus, ExposedCards};
use crate::irregularities::auction::{
    AuctionOption, Contingency, Effect, FinalCall, Irregularity, LeadPenaltyRule, RecordedCall, ReservedAdjustment,
};
use crate::law::Law;
use crate::penalty::LeadPenalty;

use super::law_26::rubber_26;
use super::{Contingent, Stage};

impl Auction {
    /// Applies the effects of `option` to the pending irregularity, in order; calls are made
    /// last, once the rest is in place.
    pub(in crate::auction) fn apply_option(
        &mut self,
        option: &AuctionOption,
        choice: Option<RecordedCall>,
    ) -> Result<(), AuctionError> {
        let Some(pending) = self.pending.take() else {
            return Err(AuctionError::NothingToRectify { law: self.cite_procedure() });
        };
        let offender = pending.irregularity.offender;
        let mut next_stage = None;
        let mut calls = Vec::new();
        let mut lho_withdrawal = None;
        for effect in &option.effects {
            match effect {
                Effect::CallMade { seat, call } => calls.push((*seat, *call)),
                Effect::LhoMayWithdrawCall { entry, law, .. } => lho_withdrawal = Some((*entry, *law)),
                Effect::OffenderMustReplace { .. } => {
                    next_stage = Some(match &pending.stage {
                        Stage::InsufficientBid { entry, over, attempts } => Stage::Replacement {
                            entry: *entry,
                            over: *over,
                            attempts: attempts.clone(),
                            partner_barred: false,
                            // Duplicate Law 27C: the premature replacement stands only "if legal".
                            fixed: attempts
                                .last()
                                .copied()
                                .filter(|&a| self.is_duplicate() && self.entries[a].call.legal().is_some()),
                        },
                        Stage::Replacement { entry, over, .. } => Stage::Replacement {
                            entry: *entry,
                            over: *over,
                            attempts: Vec::new(),
                            partner_barred: true,
                            fixed: None,
                        },
                        Stage::SecondInsufficientBid { first, over, .. } => Stage::Replacement {
                            entry: *first,
                            over: *over,
                            attempts: Vec::new(),
                            partner_barred: true,
                            fixed: None,
                        },
                        other => other.clone(),
                    });
                }
                Effect::LhoMayAcceptSecondInsufficientBid { .. } => {
                    let (first, over) = match &pending.stage {
                        Stage::Replacement { entry, over, .. } => (*entry, *over),
                        _ => return Err(self.pending_error(&pending)),
                    };
                    let second = match (&pending.stage, choice) {
                        (Stage::Replacement { fixed: Some(f), .. }, Some(call)) if self.entries[*f].call == call => *f,
                        (_, Some(call)) => self.push_pending(offender, call),
                        _ => return Err(self.pending_error(&pending)),
                    };
                    next_stage = Some(Stage::SecondInsufficientBid { first, second, over });
                }
                other => self.apply_effect(other, &pending.stage, option.law, choice),
            }
        }
        if let Some(stage) = next_stage {
            self.pending = Some(self.pending_for(pending.irregularity.clone(), stage));
        }
        // Duplicate Law 25A6: the left-hand opponent's call is held aside while the intended
        // call is made in its place in the auction, then offered back to him.
        let held = lho_withdrawal.map(|(entry, law)| (self.entries.remove(entry), law));
        for (seat, call) in calls {
            // What the pending call it re-makes related to, if artificial: kept on the call made.
            let mut relates_to = None;
            let call = match call {
                Some(call) => {
                    if let Some(last) = self.entries.iter().rposition(|e| e.status == CallStatus::Pending)
                        && self.entries[last].seat == seat
                        && self.entries[last].call == call
                        && self.pending.is_none()
                    {
                        relates_to = self.entries.remove(last).relates_to;
                    }
                    call
                }
                None => choice.ok_or(AuctionError::WrongCallForOption { requirement: option.call, law: option.law })?,
            };
            let made = self.entries.len();
            if self.pending.is_some() {
                self.call_while_pending(seat, call)?
            } else {
                self.make_call(seat, call)?
            }
            if let Some(suits) = relates_to
                && let Some(entry) = self.entries.get_mut(made)
                && entry.seat == seat
                && entry.call == call
                && entry.relates_to.is_none()
            {
                entry.relates_to = Some(suits);
            }
        }
        if let Some((mut held, law)) = held {
            self.reinstate_lho_call(&mut held, pending.irregularity, law);
        }
        Ok(())
    }

    /// Duplicate Law 25A6: after an unintended call was replaced, the left-hand opponent's call
    /// over it is offered back to him if it is still a legal call over the intended one;
    /// otherwise it is withdrawn. Law 21B2 (rubber Law 21) alike after a change because of
    /// misinformation, where a withdrawal is "without penalty" (duplicate: Law 16C applies).
    fn reinstate_lho_call(&mut self, held: &mut CallEntry, irregularity: Irregularity, law: Law) {
        let still_legal = self.pending.is_none()
            && !self.is_closed()
            && self.turn() == held.seat
            && held.call.legal().is_some_and(|c| self.check_in_turn(held.seat, c).is_ok());
        if still_legal {
            held.status = CallStatus::Pending;
            self.entries.push(*held);
            let stage = Stage::LhoMayWithdraw { lho_call: self.entries.len() - 1, law };
            self.pending = Some(self.pending_for(irregularity, stage));
        } else {
            // Kept in the record, after the intended call that replaced the call it answered.
            held.status = CallStatus::Cancelled { law };
            self.entries.push(*held);
            if law.number == 21 {
                // Law 21B2: "but Law 16C applies" (his own withdrawn call is unauthorised for
                // his side); rubber Law 21: "without penalty".
                if self.is_duplicate() {
                    self.reserve(ReservedAdjustment { offending_side: held.seat.side(), law: self.ui_law() });
                }
            } else {
                let side = held.seat.lho().side();
                self.reserve(ReservedAdjustment { offending_side: side, law });
            }
        }
    }

    fn apply_effect(&mut self, effect: &Effect, stage: &Stage, law: Law, choice: Option<RecordedCall>) {
        match effect {
            Effect::CallStands { entry, .. } => {
                let status = match stage.turn_of() {
                    Some(turn_of) if self.entries[*entry].seat != turn_of => CallStatus::MadeOutOfRotation { turn_of },
                    _ => match stage {
                        Stage::ChangeOfCall { first, first_status, .. }
                        | Stage::Misinformation { first, first_status, .. }
                            if first == entry =>
                        {
                            *first_status
                        }
                        _ => CallStatus::Made,
                    },
                };
                self.stand(*entry, status);
            }
            Effect::CallCancelled { entry, law, .. } => {
                self.entries[*entry].status = CallStatus::Cancelled { law: *law }
            }
            Effect::CallsFromCancelled { entry, law, .. } => {
                for e in &mut self.entries[*entry..] {
                    if e.status.stands() || e.status == CallStatus::Pending {
                        e.status = CallStatus::Cancelled { law: *law };
                    }
                }
            }
            Effect::ChoiceCallCancelled { seat, law } => {
                if let Some(call) = choice {
                    let entry = self.push_pending(*seat, call);
                    self.entries[entry].status = CallStatus::Cancelled { law: *law };
                }
            }
            Effect::PassSubstituted { seat } => {
                if !self.is_closed() && self.turn() == *seat {
                    self.push_standing(*seat, RecordedCall::Pass, CallStatus::Substituted { law });
                }
            }
            Effect::Restriction(restriction) => self.restrict(restriction.clone()),
            Effect::LeadPenalty { offender, rule, .. } => match rule {
                LeadPenaltyRule::Rubber26 { changed, against } => {
                    let final_call = match against {
                        FinalCall::Known(RecordedCall::Pass) => Some((RecordedCall::Pass, None)),
                        FinalCall::Known(call) => Some((*call, self.entry_relation(*offender, *call))),
                        FinalCall::Replacement => choice.map(|call| (call, self.choice_relation(call))),
                        FinalCall::None => None,
                        FinalCall::NextCall => {
                            let contingency =
                                Contingency::LeadPenaltyOnNextCall { offender: *offender, changed: *changed, law };
                            self.contingencies.push(Contingent { after: self.entries.len(), contingency });
                            return;
                        }
                    };
                    let changed = (*changed, self.entry_relation(*offender, *changed));
                    if let Some((penalty, law)) = rubber_26(changed, final_call) {
                        self.due(*offender, Some(penalty), law);
                    }
                }
                LeadPenaltyRule::Rubber26B => {
                    self.due(*offender, Some(LeadPenalty::ForbidAnyOneSuit), Law::rubber(26, "B"))
                }
                LeadPenaltyRule::Duplicate26B => self.due(*offender, None, Law::duplicate(26, "B")),
            },
            Effect::PenaltyCardsIfDefender { offender, cards, led } => {
                self.penalty_cards.push(ExposedCards { seat: *offender, cards: cards.clone(), led: *led });
            }
            Effect::Contingent(contingency) => {
                self.contingencies.push(Contingent { after: self.entries.len(), contingency: contingency.clone() });
            }
            Effect::UnauthorizedInformation { side, law } | Effect::ScoreMayBeAdjusted { side, law } => {
                self.reserve(ReservedAdjustment { offending_side: *side, law: *law });
            }
            // Rotation follows from the calls that stand; the remaining effects are handled by
            // `apply_option` itself.
            Effect::AuctionRevertsTo { .. }
            | Effect::CallMade { .. }
            | Effect::OffenderMustReplace { .. }
            | Effect::LhoMayAcceptSecondInsufficientBid { .. }
            | Effect::LhoMayWithdrawCall { .. } => {}
        }
    }
}
