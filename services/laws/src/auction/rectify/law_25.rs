//! Law 25: a change of call, unintended (25A) or not (rubber 25B; duplicate 25B1-B2), and the
//! left-hand opponent's call over it that he may withdraw (duplicate Law 25A6; Law 21B2 alike
//! after a change because of misinformation). Apart because the call changed is the offender's
//! own, standing or held aside.

use crate::auction::Auction;
use crate::contract::Call;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionOption, CallRequirement, Contingency, Effect, FinalCall, LeadPenaltyRule, OptionKind, PassDuration,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Law 25: the options after a change of call.
    pub(super) fn change_of_call_options(
        &self,
        offender: Seat,
        first: usize,
        second: usize,
        lho_call: Option<usize>,
    ) -> Vec<AuctionOption> {
        let partner = offender.partner();
        let lho = offender.lho();
        let first_call = self.entries[first].call;
        let second_call = self.entries[second].call;
        let law_a = self.cite(25, "A", "A1");
        let unintended =
            vec![self.cancel_effect(first, law_a), Effect::CallMade { seat: offender, call: Some(second_call) }];
        if let Some(lho_entry) = lho_call {
            // Duplicate Law 25A after the left-hand opponent called: only an unintended call
            // may be replaced; otherwise the substitution is cancelled (25B2).
            let mut unintended = unintended;
            unintended.push(Effect::LhoMayWithdrawCall { lho, entry: lho_entry, law: Law::duplicate(25, "A6") });
            let law = Law::duplicate(25, "B2");
            return vec![
                Self::option(
                    OptionKind::UnintendedCall,
                    Chooser::Official,
                    None,
                    law_a,
                    CallRequirement::None,
                    unintended,
                ),
                Self::option(
                    OptionKind::SubstitutionCancelled,
                    Chooser::Official,
                    None,
                    law,
                    CallRequirement::None,
                    vec![
                        self.cancel_effect(second, law),
                        Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                        self.ui(offender),
                    ],
                ),
            ];
        }
        let second_stands = second_call.legal().is_some_and(|c| match c {
            Call::Bid(_) => true,
            _ => self.legal_replacement(offender, c),
        });
        let mut options = vec![Self::option(
            OptionKind::UnintendedCall,
            self.judge(),
            None,
            law_a,
            CallRequirement::None,
            unintended,
        )];
        if self.is_duplicate() {
            let law = Law::duplicate(25, "B2");
            options.push(Self::option(
                OptionKind::SubstitutionCancelled,
                Chooser::Official,
                None,
                law,
                CallRequirement::None,
                vec![
                    self.stands_effect(first),
                    self.cancel_effect(second, law),
                    Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                    self.ui(offender),
                ],
            ));
            if let (true, Some(replacement)) = (second_stands, second_call.legal()) {
                let law = Law::duplicate(25, "B1");
                options.push(Self::accept_by_calling(
                    lho,
                    law,
                    vec![
                        self.cancel_effect(first, law),
                        self.stands_effect(second),
                        self.ui(offender),
                        Effect::Contingent(Contingency::ComparableRulingNow {
                            offender,
                            withdrawn: first_call,
                            replacement,
                            law,
                        }),
                        Effect::CallMade { seat: lho, call: None },
                    ],
                ));
            }
            return options;
        }

        let law = Law::rubber(25, "B");
        let first_as_call = first_call.legal().unwrap_or(Call::Pass);
        options.push(Self::option(
            OptionKind::FirstCallStands,
            Chooser::Offender,
            Some(offender),
            law,
            CallRequirement::None,
            vec![
                self.stands_effect(first),
                self.cancel_effect(second, law),
                bar(partner, PassDuration::NextTurn, law),
                Effect::LeadPenalty {
                    offender,
                    rule: LeadPenaltyRule::Rubber26 { changed: second_call, against: FinalCall::Known(first_call) },
                    law,
                },
                self.ui(offender),
                self.damage(offender),
            ],
        ));
        options.push(Self::option(
            OptionKind::OtherLegalCall,
            Chooser::Offender,
            Some(offender),
            law,
            CallRequirement::AnyLegalExcept(first_as_call),
            vec![
                self.cancel_effect(first, law),
                self.cancel_effect(second, law),
                bar(partner, PassDuration::RestOfAuction, law),
                Effect::LeadPenalty {
                    offender,
                    rule: LeadPenaltyRule::Rubber26 { changed: first_call, against: FinalCall::Replacement },
                    law,
                },
                Effect::LeadPenalty {
                    offender,
                    rule: LeadPenaltyRule::Rubber26 { changed: second_call, against: FinalCall::Replacement },
                    law,
                },
                self.ui(offender),
                self.damage(offender),
                Effect::CallMade { seat: offender, call: None },
            ],
        ));
        if second_stands {
            // Law 15B: the left-hand opponent's call after the change forfeits the penalty; the
            // call last made stands.
            let law = Law::rubber(15, "B");
            options.push(Self::accept_by_calling(
                lho,
                law,
                vec![
                    self.cancel_effect(first, law),
                    self.stands_effect(second),
                    Effect::CallMade { seat: lho, call: None },
                ],
            ));
        }
        options
    }

    /// Duplicate Law 25A6 (after an unintended call was replaced) and Law 21B2 (rubber Law 21,
    /// after a change because of misinformation): the left-hand opponent keeps his call or
    /// withdraws it.
    pub(super) fn lho_withdrawal_options(&self, lho_call: usize, law: Law) -> Vec<AuctionOption> {
        let lho = self.entries[lho_call].seat;
        // Duplicate Law 25A6: the offender's side; Law 21B2 ("but Law 16C applies"):
        // the left-hand opponent's own, the side that misinformed.
        // Rubber Law 21: "without penalty".
        let after_misinformation = law.number == 21;
        let ui = if after_misinformation {
            self.is_duplicate().then(|| Effect::UnauthorizedInformation { side: lho.side(), law: self.ui_law() })
        } else {
            Some(Effect::UnauthorizedInformation { side: lho.lho().side(), law })
        };
        vec![
            Self::option(
                OptionKind::KeepCall,
                Chooser::OffendersLho,
                Some(lho),
                law,
                CallRequirement::None,
                vec![self.stands_effect(lho_call)],
            ),
            Self::option(
                OptionKind::WithdrawCall,
                Chooser::OffendersLho,
                Some(lho),
                law,
                CallRequirement::None,
                std::iter::once(self.cancel_effect(lho_call, law)).chain(ui).collect(),
            ),
        ]
    }
}
