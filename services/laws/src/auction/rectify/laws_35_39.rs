//! Laws 35-39: inadmissible calls. A double or redouble Law 19 does not permit (Law 36), a call
//! by a player required to pass (Law 37), a bid of more than seven (Law 38), a call after the
//! auction closed (Law 39); each condoned by the left-hand opponent's call (rubber Law 35,
//! duplicate Laws 36A-39B) or rectified. One module because the Laws share their shape: the
//! left-hand opponent condones, or the rectification is enforced (or, in rubber bridge,
//! waived).

use crate::auction::Auction;
use crate::irregularities::auction::{
    AfterCloseRole, AuctionOption, CallRequirement, Effect, FinalCall, LeadPenaltyRule, OptionKind, PassDuration,
    RecordedCall,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

/// The kinds of inadmissible call, in the order of rubber Law 35's sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inadmissible {
    /// A double or redouble Law 19 does not permit (Law 36).
    Double,
    /// A call by a player required to pass (Law 37).
    RequiredToPass,
    /// A bid of more than seven (Law 38).
    AboveSeven,
    /// A call after the auction closed (Law 39).
    AfterClose,
}

/// The sections by which Laws 37 and 38 rectify alike, in the code in force: the one that
/// cancels the call (and names the rectification), the one that bars the offending side, and
/// the one that gives the lead penalty.
#[derive(Debug, Clone, Copy)]
struct BarredSide {
    cancel: Law,
    bar: Law,
    lead: Law,
}

impl Inadmissible {
    /// Rubber Law 35 ("Inadmissible calls condoned") and the duplicate Laws for the same case:
    /// the section of Law 35, then the duplicate Law and its section, under which the
    /// offender's left-hand opponent calling before rectification condones the call.
    const fn condoned(self) -> (&'static str, u8, &'static str) {
        match self {
            Inadmissible::Double => ("A", 36, "A"),
            Inadmissible::RequiredToPass => ("B", 37, "A"),
            Inadmissible::AboveSeven => ("C", 38, "D"),
            Inadmissible::AfterClose => ("D", 39, "B"),
        }
    }
}

impl Auction {
    /// The Law under which the left-hand opponent's call condones an inadmissible call of
    /// `kind`, in the code in force.
    fn condoned(&self, kind: Inadmissible) -> Law {
        let (rubber, number, duplicate) = kind.condoned();
        self.by_code(Law::rubber(35, rubber), Law::duplicate(number, duplicate))
    }

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
        let condone_law = self.condoned(Inadmissible::Double);
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
            Self::accept_by_calling(
                lho,
                condone_law,
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
        let law = self.condoned(Inadmissible::Double);
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
        let law = self.cite(37, "", "B");
        let condone = vec![self.stands_effect(entry), Effect::CallMade { seat: lho, call: None }];
        let sections = BarredSide { cancel: law, bar: law, lead: law };
        self.barred_side_options(
            offender,
            entry,
            turn_of,
            sections,
            self.condoned(Inadmissible::RequiredToPass),
            condone,
        )
    }

    /// Law 38 (rubber Law 35C): a bid of more than seven.
    pub(super) fn above_seven_options(&self, offender: Seat, entry: usize, turn_of: Seat) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let substitute = self.pass_or_revert(offender, entry, turn_of);
        // Rubber Law 35C; duplicate Laws 38B-D.
        let condone_law = self.condoned(Inadmissible::AboveSeven);
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
        condone.push(substitute);
        let sections =
            BarredSide { cancel: self.cite(38, "", "B"), bar: self.cite(38, "", "C"), lead: self.cite(38, "", "D") };
        self.barred_side_options(offender, entry, turn_of, sections, condone_law, condone)
    }

    /// The pass substituted for an offender who called in turn, or the auction reverting to
    /// the player whose turn it was (Laws 37 and 38 alike).
    fn pass_or_revert(&self, offender: Seat, entry: usize, turn_of: Seat) -> Effect {
        if self.entries[entry].seat == turn_of {
            Effect::PassSubstituted { seat: offender }
        } else {
            Effect::AuctionRevertsTo { seat: turn_of }
        }
    }

    /// The options Laws 37 and 38 give alike: the left-hand opponent condones the call by
    /// calling (`condone`, under `condone_law`); or the rectification is enforced, the call
    /// cancelled and both members of the offending side barred, with a lead penalty (Law 26B
    /// in duplicate; rubber Law 26 against the pass), and the pass substituted or the auction
    /// reverting; or, in rubber bridge, the penalty is waived (Law 15A).
    fn barred_side_options(
        &self,
        offender: Seat,
        entry: usize,
        turn_of: Seat,
        sections: BarredSide,
        condone_law: Law,
        condone: Vec<Effect>,
    ) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let call = self.entries[entry].call;
        let substitute = self.pass_or_revert(offender, entry, turn_of);
        let rule = if dup {
            LeadPenaltyRule::Duplicate26B
        } else {
            LeadPenaltyRule::Rubber26 { changed: call, against: FinalCall::Known(RecordedCall::Pass) }
        };
        let mut enforce = vec![
            self.cancel_effect(entry, sections.cancel),
            bar(offender, PassDuration::RestOfAuction, sections.bar),
            bar(partner, PassDuration::RestOfAuction, sections.bar),
            Effect::LeadPenalty { offender, rule, law: sections.lead },
        ];
        if !dup {
            enforce.push(self.ui(offender));
        }
        enforce.extend([self.damage(offender), substitute.clone()]);
        let mut options = vec![
            Self::accept_by_calling(lho, condone_law, condone),
            Self::option(OptionKind::Enforce, self.enforcer(), None, sections.cancel, CallRequirement::None, enforce),
        ];
        if !dup {
            options.push(self.waive_option(vec![self.cancel_effect(entry, sections.cancel), substitute]));
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
        let condone_law = self.condoned(Inadmissible::AfterClose);
        let mut options = vec![Self::accept_by_calling(
            lho,
            condone_law,
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
