//! Laws 35-39: inadmissible calls. A double or redouble Law 19 does not permit (Law 36), a
//! call by a player required to pass (Law 37), a bid of more than seven (Law 38), a call after
//! the auction closed (Law 39); each condoned by the left-hand opponent's call (rubber Law 35,
//! duplicate Laws 36A-39B) or rectified.

use crate::auction::Auction;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AfterCloseRole, AuctionOption, CallRequirement, Effect, FinalCall, LeadPenaltyRule, OptionKind, PassDuration,
    RecordedCall,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Law 36 (rubber Laws 35A and 36): a double or redouble Law 19 does not permit.
    pub(super) fn inadmissible_double_options(
        &self,
        offender: Seat,
        entry: usize,
        turn_of: Seat,
    ) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let oor = self.entries[entry].seat != turn_of;
        // Rubber Law 35A; duplicate Law 36A.
        let condone_law = self.by_code(Law::rubber(35, "A"), Law::duplicate(36, "A"));
        let cancel_law = self.cite(36, "", "B1");
        let revert = oor.then_some(Effect::AuctionRevertsTo { seat: turn_of });
        let mut enforce = vec![self.cancel_effect(entry, cancel_law)];
        enforce.extend(revert.clone());
        let bar_law = if dup { Law::duplicate(36, if oor { "B4" } else { "B2" }) } else { Law::rubber(36, "") };
        enforce.push(bar(partner, PassDuration::RestOfAuction, bar_law));
        let rule = if dup { LeadPenaltyRule::Duplicate26B } else { LeadPenaltyRule::Rubber26B };
        enforce.push(Effect::LeadPenalty { offender, rule, law: bar_law });
        if !dup {
            enforce.push(self.ui(offender));
        }
        enforce.push(self.damage(offender));
        let mut options = vec![
            Self::option(
                OptionKind::AcceptByCalling,
                Chooser::OffendersLho,
                Some(lho),
                condone_law,
                CallRequirement::AnyCall,
                vec![
                    self.cancel_from_effect(entry, condone_law),
                    Effect::ChoiceCallCancelled { seat: lho, law: condone_law },
                ],
            ),
            Self::option(OptionKind::Enforce, self.enforcer(), None, bar_law, CallRequirement::None, enforce),
        ];
        if !dup {
            let mut waive = vec![self.cancel_effect(entry, cancel_law)];
            waive.extend(revert);
            options.push(self.waive_option(waive));
        }
        options
    }

    /// Law 36A (rubber Laws 35A and 36): the inadmissible call was condoned by a later call;
    /// it and every later call are cancelled.
    pub(super) fn condoned_inadmissible_options(&self, entry: usize) -> Vec<AuctionOption> {
        let law = self.by_code(Law::rubber(35, "A"), Law::duplicate(36, "A"));
        vec![Self::option(
            OptionKind::Enforce,
            self.enforcer(),
            None,
            law,
            CallRequirement::None,
            vec![self.cancel_from_effect(entry, law)],
        )]
    }

    /// Law 37 (rubber Law 35B): a call by a player required to pass.
    pub(super) fn required_to_pass_options(&self, offender: Seat, entry: usize, turn_of: Seat) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let in_turn = self.entries[entry].seat == turn_of;
        let law = self.cite(37, "", "B");
        let call = self.entries[entry].call;
        let cancel = self.cancel_effect(entry, law);
        let substitute = if in_turn {
            Effect::PassSubstituted { seat: offender }
        } else {
            Effect::AuctionRevertsTo { seat: turn_of }
        };
        let rule = if dup {
            LeadPenaltyRule::Duplicate26B
        } else {
            LeadPenaltyRule::Rubber26 { changed: call, against: FinalCall::Known(RecordedCall::Pass) }
        };
        let mut enforce = vec![
            cancel.clone(),
            bar(offender, PassDuration::RestOfAuction, law),
            bar(partner, PassDuration::RestOfAuction, law),
            Effect::LeadPenalty { offender, rule, law },
        ];
        if !dup {
            enforce.push(self.ui(offender));
        }
        enforce.extend([self.damage(offender), substitute.clone()]);
        let mut options = vec![
            Self::option(
                OptionKind::AcceptByCalling,
                Chooser::OffendersLho,
                Some(lho),
                self.by_code(Law::rubber(35, "B"), Law::duplicate(37, "A")),
                CallRequirement::AnyCall,
                vec![self.stands_effect(entry), Effect::CallMade { seat: lho, call: None }],
            ),
            Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce),
        ];
        if !dup {
            options.push(self.waive_option(vec![cancel, substitute]));
        }
        options
    }

    /// Law 38 (rubber Law 35C): a bid of more than seven.
    pub(super) fn above_seven_options(&self, offender: Seat, entry: usize, turn_of: Seat) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let in_turn = self.entries[entry].seat == turn_of;
        let law = self.cite(38, "", "B");
        let call = self.entries[entry].call;
        let substitute = if in_turn {
            Effect::PassSubstituted { seat: offender }
        } else {
            Effect::AuctionRevertsTo { seat: turn_of }
        };
        // Rubber Law 35C; duplicate Laws 38B-D.
        let condone_law = self.by_code(Law::rubber(35, "C"), Law::duplicate(38, "D"));
        let cancel_law = self.by_code(Law::rubber(35, "C"), Law::duplicate(38, "B"));
        let mut condone = vec![
            self.cancel_from_effect(entry, cancel_law),
            Effect::ChoiceCallCancelled { seat: lho, law: cancel_law },
        ];
        if dup {
            // Duplicate Law 38C applies even when the LHO called; only 26B and 72C go (38D).
            let side_law = Law::duplicate(38, "C");
            condone.push(bar(offender, PassDuration::RestOfAuction, side_law));
            condone.push(bar(partner, PassDuration::RestOfAuction, side_law));
        }
        condone.push(substitute.clone());
        let rule = if dup {
            LeadPenaltyRule::Duplicate26B
        } else {
            LeadPenaltyRule::Rubber26 { changed: call, against: FinalCall::Known(RecordedCall::Pass) }
        };
        let side_law = self.cite(38, "", "C");
        let mut enforce = vec![
            self.cancel_effect(entry, law),
            bar(offender, PassDuration::RestOfAuction, side_law),
            bar(partner, PassDuration::RestOfAuction, side_law),
            Effect::LeadPenalty { offender, rule, law: self.cite(38, "", "D") },
        ];
        if !dup {
            enforce.push(self.ui(offender));
        }
        enforce.extend([self.damage(offender), substitute.clone()]);
        let mut options = vec![
            Self::option(
                OptionKind::AcceptByCalling,
                Chooser::OffendersLho,
                Some(lho),
                condone_law,
                CallRequirement::AnyCall,
                condone,
            ),
            Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce),
        ];
        if !dup {
            options.push(self.waive_option(vec![self.cancel_effect(entry, law), substitute]));
        }
        options
    }

    /// Law 39 (rubber Law 35D): a call after the auction closed.
    pub(super) fn after_close_options(&self, offender: Seat, entry: usize, role: AfterCloseRole) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let dup = self.is_duplicate();
        let call = self.entries[entry].call;
        let cancel_law = self.cite(39, "", "A");
        let cancel = self.cancel_effect(entry, cancel_law);
        // Rubber Law 35D; duplicate Law 39B.
        let condone_law = self.by_code(Law::rubber(35, "D"), Law::duplicate(39, "B"));
        let mut options = vec![Self::option(
            OptionKind::AcceptByCalling,
            Chooser::OffendersLho,
            Some(lho),
            condone_law,
            CallRequirement::AnyCall,
            vec![
                self.cancel_from_effect(entry, cancel_law),
                Effect::ChoiceCallCancelled { seat: lho, law: cancel_law },
            ],
        )];
        if role == AfterCloseRole::Defender && !call.is_pass() {
            let law = self.cite(39, "B", "C");
            let rule = if dup {
                LeadPenaltyRule::Duplicate26B
            } else {
                LeadPenaltyRule::Rubber26 { changed: call, against: FinalCall::None }
            };
            let enforce = vec![cancel.clone(), Effect::LeadPenalty { offender, rule, law }];
            options.push(Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce));
            if !dup {
                options.push(self.waive_option(vec![cancel]));
            }
        } else {
            let law = self.cite(39, "A", "B");
            options.push(Self::option(
                OptionKind::Enforce,
                self.enforcer(),
                None,
                law,
                CallRequirement::None,
                vec![cancel],
            ));
        }
        options
    }
}
