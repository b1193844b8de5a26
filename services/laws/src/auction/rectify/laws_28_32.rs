//! Laws 28-32: calls out of rotation. The call at the turn of the player in turn's partner or
//! left-hand opponent, or at the right-hand opponent's turn (Law 28B), accepted (Law 29A) or
//! cancelled with the rectification of Laws 30 (pass), 31 (bid) and 32 (double or redouble).
//! One module for the five Laws because they share one stage: a call out of rotation, accepted
//! or cancelled.

use crate::auction::Auction;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionOption, CallRequirement, Contingency, Effect, LeadPenaltyRule, OptionKind, PassDuration, RecordedCall,
    Restriction, TurnOf,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Laws 28B, 29, 30, 31, 32: a call out of rotation.
    pub(super) fn out_of_rotation_options(&self, offender: Seat, entry: usize, turn_of: Seat) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let call = self.entries[entry].call;
        let position = TurnOf::of(offender, turn_of).unwrap_or(TurnOf::Partner);
        let dup = self.is_duplicate();
        let mut options = vec![Self::accept_by_calling(
            lho,
            self.cite(29, "A", "A"),
            vec![self.stands_effect(entry), Effect::CallMade { seat: lho, call: None }],
        )];
        if position == TurnOf::RightHandOpponent {
            let law = self.cite(28, "B", "B");
            let mut effects = vec![self.cancel_effect(entry, law)];
            if dup {
                effects.push(Effect::UnauthorizedInformation { side: offender.side(), law: Law::duplicate(16, "C2") });
            } else {
                // Rubber Law 29: "Information arising from withdrawn calls out of rotation ... is
                // unauthorized Information for the offending side ... and Law 16B1 applies"; the
                // call voided by the call in turn (28B) is such a call.
                effects.push(self.ui(offender));
            }
            effects.push(Effect::CallMade { seat: turn_of, call: None });
            options.push(Self::option(
                OptionKind::CallInTurn,
                Chooser::NonOffendingSide,
                Some(turn_of),
                law,
                CallRequirement::AnyCall,
                effects,
            ));
        }
        let (chooser, chooser_seat) = if dup { (Chooser::Official, None) } else { (Chooser::OffendersLho, Some(lho)) };
        let cancel_law = self.cite(29, "B", "B");
        let base = [self.cancel_effect(entry, cancel_law), Effect::AuctionRevertsTo { seat: turn_of }];
        let as_bid = matches!(call, RecordedCall::Bid { .. });
        let (law, effects) = self.out_of_rotation_effects(offender, call, position, as_bid);
        let mut cancel = base.to_vec();
        cancel.extend(effects);
        options.push(Self::option(OptionKind::CancelCall, chooser, chooser_seat, law, CallRequirement::None, cancel));
        if dup && call.is_pass() {
            // Law 30C: an artificial pass (or a pass of an artificial call) is dealt with under
            // Law 31; whether it was artificial is the director's finding.
            let (law, effects) = self.out_of_rotation_effects(offender, call, position, true);
            let mut cancel = base.to_vec();
            cancel.extend(effects);
            options.push(Self::option(
                OptionKind::CancelAsArtificialPass,
                Chooser::Official,
                None,
                law,
                CallRequirement::None,
                cancel,
            ));
        }
        options
    }

    /// What cancelling a call out of rotation entails (Laws 30-32), `as_bid` for a bid or a
    /// pass treated as one (duplicate Law 30C).
    fn out_of_rotation_effects(
        &self,
        offender: Seat,
        call: RecordedCall,
        position: TurnOf,
        as_bid: bool,
    ) -> (Law, Vec<Effect>) {
        let partner = offender.partner();
        let rho = position == TurnOf::RightHandOpponent;
        let on_rho = |pass: Law, other: Law| {
            Effect::Contingent(Contingency::OnRhoCall { offender, call, law_if_pass: pass, law_if_not_pass: other })
        };
        let comparable = |law: Law| {
            vec![
                Effect::UnauthorizedInformation { side: offender.side(), law: Law::duplicate(16, "C2") },
                Effect::Contingent(Contingency::ComparableRulingOnNextCall { offender, withdrawn: call, law }),
            ]
        };
        // Law 30 for a pass, 31 for a bid (or a pass treated as one), 32 for a double or redouble.
        let number = if call.is_double_or_redouble() {
            32
        } else if as_bid {
            31
        } else {
            30
        };
        let law = |section| self.cite(number, section, section);
        if rho && number != 30 {
            // Laws 31 and 32 at the right-hand opponent's turn wait for his call: the section,
            // then the sections for his passing and not passing, lettered B by the rubber Laws
            // and A by the duplicate Laws.
            let (at_rho, if_pass, if_not_pass) =
                if self.is_duplicate() { ("A", "A1", "A2") } else { ("B", "B1", "B2") };
            return (law(at_rho), vec![on_rho(law(if_pass), law(if_not_pass))]);
        }
        if self.is_duplicate() {
            return if rho {
                let law = Law::duplicate(30, "A");
                (law, vec![bar(offender, PassDuration::NextTurn, law), self.damage(offender)])
            } else {
                // The other sections (30B1, 31B, 32B) leave the call to a ruling on comparability.
                let law = law(if number == 30 { "B1" } else { "B" });
                (law, comparable(law))
            };
        }

        let ui = self.ui(offender);
        match call {
            RecordedCall::Pass => {
                if !self.any_bid() || position != TurnOf::Partner {
                    let law = Law::rubber(30, "A");
                    (law, vec![bar(offender, PassDuration::NextTurn, law), ui])
                } else {
                    let law = Law::rubber(30, "B");
                    (
                        law,
                        vec![
                            bar(offender, PassDuration::RestOfAuction, law),
                            Effect::Restriction(Restriction::NoDoubleOrRedoubleNextTurn { seat: partner, law }),
                            ui,
                        ],
                    )
                }
            }
            RecordedCall::Double | RecordedCall::Redouble => {
                let law = Law::rubber(32, "A");
                let mut effects = vec![bar(partner, PassDuration::RestOfAuction, law)];
                if let Some((bid_entry, _, bid)) = self.last_bid_entry() {
                    effects.push(Effect::Restriction(Restriction::MayNotDoubleOrRedoubleBid {
                        seat: offender,
                        bid,
                        entry: bid_entry,
                        law,
                    }));
                }
                effects.extend([
                    Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Rubber26B, law },
                    ui,
                    self.damage(offender),
                ]);
                (law, effects)
            }
            RecordedCall::Bid { .. } => {
                let law = Law::rubber(31, "A");
                (
                    law,
                    vec![
                        bar(partner, PassDuration::RestOfAuction, law),
                        Effect::Contingent(Contingency::LeadPenaltyOnNextCall { offender, changed: call, law }),
                        ui,
                        self.damage(offender),
                    ],
                )
            }
        }
    }
}
