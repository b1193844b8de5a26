//! Contingencies: rectifications that wait on a later call (the right-hand opponent's call
//! after a call out of rotation at his turn, the offender's next call for Law 26, a ruling on
//! comparability), resolved after every action once nothing is pending, and the lead penalties
//! still waiting when the auction closes. Apart because they fire after the option chosen, on
//! calls made later.

use crate::auction::{Auction, CallStatus};
use crate::contract::Call;
use crate::irregularities::auction::{
    Contingency, IrregularityKind, PassDuration, RecordedCall, ReservedAdjustment, Restriction,
};
use crate::law::Law;
use crate::penalty::LeadPenalty;
use crate::seat::Seat;

use super::law_26::rubber_26;
use super::{Contingent, DueLeadPenalty, Stage};

impl Auction {
    /// After every action: while nothing is pending, resolves the contingencies whose trigger
    /// (a call by the right player) has happened.
    pub(in crate::auction) fn settle(&mut self) {
        while self.pending.is_none() {
            let Some(index) = self.contingencies.iter().position(|c| self.trigger(c).is_some()) else { break };
            let contingent = self.contingencies.remove(index);
            let trigger = self.trigger(&contingent);
            self.fire(contingent, trigger);
        }
    }

    /// The call that triggers a contingency, if it has been made: `Some(None)` for one that
    /// needs no call.
    fn trigger(&self, contingent: &Contingent) -> Option<Option<(usize, RecordedCall)>> {
        let seat = match &contingent.contingency {
            Contingency::OnRhoCall { offender, .. } => offender.rho(),
            Contingency::LeadPenaltyOnNextCall { offender, .. }
            | Contingency::PartnerPassesUnlessDenominationRepeated { offender, .. }
            | Contingency::ComparableRulingOnNextCall { offender, .. } => *offender,
            Contingency::ComparableRulingNow { .. } => return Some(None),
        };
        self.standing()
            .find(|(i, s, _)| *i >= contingent.after && *s == seat)
            .map(|(i, _, _)| Some((i, self.entries[i].call)))
    }

    fn fire(&mut self, contingent: Contingent, trigger: Option<Option<(usize, RecordedCall)>>) {
        let made = trigger.flatten();
        let final_call = made.map(|(_, call)| call);
        let final_related = made.map(|(i, call)| (call, self.entries[i].relates_to));
        match contingent.contingency {
            Contingency::OnRhoCall { offender, call, law_if_pass, law_if_not_pass } => {
                let rho = offender.rho();
                // Rubber footnote 14: after an illegal call by the RHO is penalized, B2 applies.
                let illegal = !self.is_duplicate()
                    && self.entries[contingent.after..]
                        .iter()
                        .any(|e| e.seat == rho && matches!(e.status, CallStatus::Cancelled { .. }));
                if final_call == Some(RecordedCall::Pass) && !illegal {
                    self.restrict(Restriction::MustRepeat { seat: offender, call, law: law_if_pass });
                    return;
                }
                let after = self.entries.len();
                let partner = offender.partner();
                match (self.is_duplicate(), law_if_not_pass.number) {
                    (true, _) => {
                        let contingency =
                            Contingency::ComparableRulingOnNextCall { offender, withdrawn: call, law: law_if_not_pass };
                        self.contingencies.push(Contingent { after, contingency });
                    }
                    (false, 31) => {
                        let contingency = Contingency::PartnerPassesUnlessDenominationRepeated {
                            offender,
                            changed: call,
                            law: law_if_not_pass,
                        };
                        self.contingencies.push(Contingent { after, contingency });
                    }
                    (false, _) => {
                        self.restrict(Restriction::MustPass {
                            seat: partner,
                            duration: PassDuration::NextTurn,
                            law: law_if_not_pass,
                        });
                        self.due(offender, Some(LeadPenalty::ForbidAnyOneSuit), Law::rubber(26, "B"));
                        self.reserve(ReservedAdjustment { offending_side: offender.side(), law: self.ui_law() });
                        self.reserve(ReservedAdjustment { offending_side: offender.side(), law: self.damage_law() });
                    }
                }
            }
            Contingency::LeadPenaltyOnNextCall { offender, changed, .. } => {
                let changed = (changed, self.entry_relation(offender, changed));
                if let Some((penalty, law)) = rubber_26(changed, final_related) {
                    self.due(offender, Some(penalty), law);
                }
            }
            Contingency::PartnerPassesUnlessDenominationRepeated { offender, changed, law } => {
                let partner = offender.partner();
                let repeats = final_call.and_then(RecordedCall::denomination) == changed.denomination();
                if repeats {
                    self.restrict(Restriction::MustPass { seat: partner, duration: PassDuration::NextTurn, law });
                } else {
                    self.restrict(Restriction::MustPass { seat: partner, duration: PassDuration::RestOfAuction, law });
                    let changed = (changed, self.entry_relation(offender, changed));
                    if let Some((penalty, law)) = rubber_26(changed, final_related) {
                        self.due(offender, Some(penalty), law);
                    }
                    self.reserve(ReservedAdjustment { offending_side: offender.side(), law: self.ui_law() });
                }
                self.reserve(ReservedAdjustment { offending_side: offender.side(), law: self.damage_law() });
            }
            Contingency::ComparableRulingOnNextCall { offender, withdrawn, law } => {
                if let Some((_, replacement)) = made
                    && let Some(replacement) = replacement.legal()
                {
                    self.open_comparable(offender, withdrawn, replacement, law);
                }
            }
            Contingency::ComparableRulingNow { offender, withdrawn, replacement, law } => {
                self.open_comparable(offender, withdrawn, replacement, law);
            }
        }
    }

    fn open_comparable(&mut self, offender: Seat, withdrawn: RecordedCall, replacement: Call, law: Law) {
        let kind = IrregularityKind::ComparableCallQuestion { withdrawn, replacement };
        let stage = Stage::Comparable { offender, withdrawn, replacement, law };
        self.open(offender, replacement.into(), kind, stage);
    }

    /// Lead penalties still waiting on a call that never came because the auction closed: the
    /// withdrawn call was not replaced (rubber Law 26 against no final call; duplicate Law 26B).
    pub(in crate::auction) fn unresolved_lead_penalties(&self) -> Vec<DueLeadPenalty> {
        let mut due = Vec::new();
        for contingent in &self.contingencies {
            match &contingent.contingency {
                Contingency::LeadPenaltyOnNextCall { offender, changed, .. }
                | Contingency::PartnerPassesUnlessDenominationRepeated { offender, changed, .. } => {
                    if let Some((penalty, law)) = rubber_26((*changed, self.entry_relation(*offender, *changed)), None)
                    {
                        due.push(DueLeadPenalty { offender: *offender, penalty: Some(penalty), law });
                    }
                }
                Contingency::ComparableRulingOnNextCall { offender, .. } => {
                    due.push(DueLeadPenalty { offender: *offender, penalty: None, law: Law::duplicate(26, "B") });
                }
                Contingency::OnRhoCall { .. } | Contingency::ComparableRulingNow { .. } => {}
            }
        }
        due
    }
}
