//! Law 27: an insufficient bid. Its acceptance or not, the replacements the offender may make
//! with their rectifications (rubber Law 27A-D; duplicate Law 27B1-B4, the Club Law's Arbiter),
//! and the premature replacements of duplicate Law 27C and rubber footnote 9. Apart because its
//! options are the most numerous and differ most between the codes.

use crate::auction::{Auction, Family};
use crate::contract::{Bid, Call};
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionOption, CallRequirement, Effect, FinalCall, LeadPenaltyRule, OptionKind, PassDuration, RecordedCall,
    Specifies,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Law 27: the insufficient bid awaits its acceptance by the left-hand opponent (27A1) or
    /// not (27B); a premature replacement may also be ruled an unintended call (Law 25A).
    pub(super) fn insufficient_bid_options(
        &self,
        offender: Seat,
        entry: usize,
        attempts: &[usize],
    ) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let dup = self.is_duplicate();
        let ib = self.entries[entry].call;
        let attempt_law = self.cite(27, "", "C");
        let mut accept = vec![self.stands_effect(entry)];
        for &a in attempts {
            accept.push(self.cancel_effect(a, attempt_law));
            if !dup {
                let rule = LeadPenaltyRule::Rubber26 { changed: self.entries[a].call, against: FinalCall::Known(ib) };
                accept.push(Effect::LeadPenalty { offender, rule, law: attempt_law });
            }
        }
        accept.push(Effect::CallMade { seat: lho, call: None });
        let mut options = vec![
            Self::accept_by_calling(lho, self.cite(27, "", "A1"), accept),
            Self::option(
                OptionKind::RejectInsufficientBid,
                Chooser::OffendersLho,
                Some(lho),
                self.cite(27, "", "B"),
                CallRequirement::None,
                vec![Effect::OffenderMustReplace { offender }],
            ),
        ];
        if let Some((&last, earlier)) = attempts.split_last() {
            let law = self.cite(25, "A", "A1");
            let mut effects = vec![self.cancel_effect(entry, law)];
            effects.extend(earlier.iter().map(|&a| self.cancel_effect(a, law)));
            effects.push(Effect::CallMade { seat: offender, call: Some(self.entries[last].call) });
            options.push(Self::option(
                OptionKind::UnintendedCall,
                self.judge(),
                None,
                law,
                CallRequirement::None,
                effects,
            ));
        }
        options
    }

    /// Duplicate Law 27B4: a second insufficient bid, which the left-hand opponent may accept or
    /// not.
    pub(super) fn second_insufficient_bid_options(&self, offender: Seat, second: usize) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let law = Law::duplicate(27, "B4");
        vec![
            Self::accept_by_calling(
                lho,
                Law::duplicate(27, "A1"),
                vec![self.stands_effect(second), Effect::CallMade { seat: lho, call: None }],
            ),
            Self::option(
                OptionKind::RejectInsufficientBid,
                Chooser::OffendersLho,
                Some(lho),
                law,
                CallRequirement::None,
                vec![
                    self.cancel_effect(second, law),
                    bar(partner, PassDuration::RestOfAuction, law),
                    Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                    self.damage(offender),
                    Effect::OffenderMustReplace { offender },
                ],
            ),
        ]
    }

    /// Law 27 after the insufficient bid was not accepted: the replacements the offender may
    /// make, each with its rectification.
    pub(super) fn replacement_options(
        &self,
        offender: Seat,
        entry: usize,
        over: Bid,
        attempts: &[usize],
        partner_barred: bool,
        fixed: Option<usize>,
    ) -> Vec<AuctionOption> {
        let partner = offender.partner();
        let ib = self.entries[entry].call;
        // Rubber Law 27A: "if the insufficient bid and sufficient bid are both not artificial";
        // duplicate Law 27B1(a): "the lowest sufficient bid which specifies the same
        // denomination(s) as that specified by the withdrawn call". For a natural insufficient
        // bid that is the lowest sufficient bid in its denomination; for an artificial one the
        // rubber Laws give no such correction, and under the duplicate Laws which bid is the
        // lowest to specify the same suits in the partnership's methods is the director's
        // ruling.
        let artificial = self.entries[entry].relates_to;
        let lowest = match artificial {
            Some(_) => None,
            None => ib.denomination().and_then(|d| Bid::lowest_sufficient(over, d)).map(Call::Bid),
        };
        let fixed_call = fixed.and_then(|f| self.entries[f].call.legal());
        let withdraw = self.cancel_effect(entry, self.cite(27, "", "B"));
        // The replacement: the standing premature one (duplicate Law 27C), or the choice's call.
        let made = Effect::CallMade { seat: offender, call: fixed_call.map(RecordedCall::from) };
        let requirement = |free: CallRequirement| fixed_call.map_or(free, CallRequirement::Exactly);
        let mut options = Vec::new();

        if self.is_duplicate() {
            // Earlier premature replacements were cancelled when the next was made; one that
            // cannot stand (not a legal call) is cancelled along with the insufficient bid.
            let stale: Vec<Effect> = attempts
                .iter()
                .filter(|&&a| Some(a) != fixed)
                .map(|&a| self.cancel_effect(a, Law::duplicate(27, "C")))
                .collect();
            let replacing = |rest: Vec<Effect>| -> Vec<Effect> {
                let mut effects = vec![withdraw.clone()];
                effects.extend(stale.iter().cloned());
                effects.extend(rest);
                effects
            };
            let chooser = |c: Chooser| if fixed.is_some() { Chooser::Official } else { c };
            let seat = fixed.is_none().then_some(offender);
            let adjust_27d = Effect::ScoreMayBeAdjusted { side: offender.side(), law: Law::duplicate(27, "D") };
            let is_sufficient_or_pass = |c: Call| match c {
                Call::Pass => true,
                Call::Bid(b) => b.is_sufficient_over(over),
                _ => false,
            };
            if let Some(suits) = artificial {
                let fixed_specifies = fixed.map(|f| Specifies::of(self.entries[f].call, self.entries[f].relates_to));
                let fixed_ok = fixed_call.is_none_or(|f| matches!(f, Call::Bid(b) if b.is_sufficient_over(over)))
                    && fixed_specifies.is_none_or(|s| s == Specifies::Suits(suits));
                if !suits.is_empty() && fixed_ok {
                    options.push(Self::option(
                        OptionKind::LowestSufficientBid,
                        Chooser::Official,
                        None,
                        Law::duplicate(27, "B1a"),
                        requirement(CallRequirement::SufficientBidSpecifying(suits)),
                        replacing(vec![adjust_27d.clone(), made.clone()]),
                    ));
                }
            }
            if let Some(lowest) = lowest
                && fixed_call.is_none_or(|f| f == lowest)
            {
                options.push(Self::option(
                    OptionKind::LowestSufficientBid,
                    chooser(Chooser::Offender),
                    seat,
                    Law::duplicate(27, "B1a"),
                    CallRequirement::Exactly(lowest),
                    replacing(vec![adjust_27d.clone(), made.clone()]),
                ));
            }
            if fixed_call.is_none_or(|f| is_sufficient_or_pass(f) || matches!(f, Call::Double | Call::Redouble)) {
                options.push(Self::option(
                    OptionKind::ComparableCall,
                    Chooser::Official,
                    None,
                    Law::duplicate(27, "B1b"),
                    requirement(CallRequirement::AnyLegal),
                    replacing(vec![adjust_27d, made.clone()]),
                ));
            }
            if fixed_call.is_none_or(is_sufficient_or_pass) {
                let law = Law::duplicate(27, "B2");
                options.push(Self::option(
                    OptionKind::OtherSufficientBidOrPass,
                    chooser(Chooser::Offender),
                    seat,
                    law,
                    requirement(CallRequirement::SufficientBidOrPass),
                    replacing(vec![
                        bar(partner, PassDuration::RestOfAuction, law),
                        Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                        self.damage(offender),
                        made.clone(),
                    ]),
                ));
            }
            if !partner_barred && fixed_call.is_none_or(|f| matches!(f, Call::Double | Call::Redouble)) {
                // The insufficient bid itself stays to be replaced.
                let law = Law::duplicate(27, "B3");
                let mut effects = stale.clone();
                effects.extend([
                    match fixed {
                        Some(f) => self.cancel_effect(f, law),
                        None => Effect::ChoiceCallCancelled { seat: offender, law },
                    },
                    bar(partner, PassDuration::RestOfAuction, law),
                    Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                    self.damage(offender),
                    Effect::OffenderMustReplace { offender },
                ]);
                options.push(Self::option(
                    OptionKind::DoubleOrRedouble,
                    chooser(Chooser::Offender),
                    seat,
                    law,
                    requirement(CallRequirement::DoubleOrRedouble),
                    effects,
                ));
            }
            let fixed_insufficient =
                fixed_call.is_some_and(|f| matches!(f, Call::Bid(b) if !b.is_sufficient_over(over)));
            if fixed_call.is_none() || fixed_insufficient {
                options.push(Self::option(
                    OptionKind::AnotherInsufficientBid,
                    chooser(Chooser::Offender),
                    seat,
                    Law::duplicate(27, "B4"),
                    requirement(CallRequirement::InsufficientBid),
                    replacing(vec![Effect::LhoMayAcceptSecondInsufficientBid { lho: offender.lho() }]),
                ));
            }
            return options;
        }

        // Rubber bridge: every premature attempt is cancelled and Law 26 applies to it against
        // the final call (footnote 9).
        let attempt_law = Law::rubber(27, "");
        let attempts_26 = |against: FinalCall| -> Vec<Effect> {
            attempts
                .iter()
                .flat_map(|&a| {
                    let changed = self.entries[a].call;
                    [
                        self.cancel_effect(a, attempt_law),
                        Effect::LeadPenalty {
                            offender,
                            rule: LeadPenaltyRule::Rubber26 { changed, against },
                            law: attempt_law,
                        },
                    ]
                })
                .collect()
        };
        let made = Effect::CallMade { seat: offender, call: None };
        if let Some(lowest) = lowest {
            let mut effects = vec![withdraw.clone()];
            effects.extend(attempts_26(FinalCall::Replacement));
            // Footnote 10: partner must not use information from the withdrawn bid.
            effects.extend([self.ui(offender), made.clone()]);
            options.push(Self::option(
                OptionKind::LowestSufficientBid,
                Chooser::Offender,
                Some(offender),
                Law::rubber(27, "A"),
                CallRequirement::Exactly(lowest),
                effects,
            ));
        }
        let (chooser, seat, law_b, adjust_b) = match self.family() {
            Family::Club => (Chooser::Official, None, Law::club(27, ""), Law::club(27, "")),
            _ => (Chooser::Offender, Some(offender), Law::rubber(27, "B"), Law::rubber(27, "B")),
        };
        let mut effects = vec![withdraw.clone()];
        effects.extend(attempts_26(FinalCall::Replacement));
        // The rubber Law's preamble: "Law 16B1 may apply" to every substitution, this one too.
        effects.extend([
            self.ui(offender),
            Effect::ScoreMayBeAdjusted { side: offender.side(), law: adjust_b },
            made.clone(),
        ]);
        options.push(Self::option(
            OptionKind::SameOrMorePreciseMeaning,
            chooser,
            seat,
            law_b,
            CallRequirement::AnyLegal,
            effects,
        ));

        let law = Law::rubber(27, "C");
        let mut effects = vec![
            withdraw.clone(),
            bar(partner, PassDuration::RestOfAuction, law),
            Effect::LeadPenalty {
                offender,
                rule: LeadPenaltyRule::Rubber26 { changed: ib, against: FinalCall::Replacement },
                law,
            },
        ];
        effects.extend(attempts_26(FinalCall::Replacement));
        effects.extend([self.ui(offender), self.damage(offender), made]);
        options.push(Self::option(
            OptionKind::OtherSufficientBidOrPass,
            Chooser::Offender,
            Some(offender),
            law,
            CallRequirement::SufficientBidOrPass,
            effects,
        ));

        let law = Law::rubber(27, "D");
        let pass = FinalCall::Known(RecordedCall::Pass);
        let mut effects = vec![
            withdraw,
            Effect::ChoiceCallCancelled { seat: offender, law },
            bar(partner, PassDuration::RestOfAuction, law),
            Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Rubber26 { changed: ib, against: pass }, law },
            Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Rubber26B, law },
        ];
        effects.extend(attempts_26(pass));
        effects.extend([self.ui(offender), self.damage(offender), Effect::PassSubstituted { seat: offender }]);
        options.push(Self::option(
            OptionKind::DoubleOrRedouble,
            Chooser::Offender,
            Some(offender),
            law,
            CallRequirement::DoubleOrRedouble,
            effects,
        ));
        options
    }
}
