//! Duplicate Law 23: whether a call that replaced a withdrawn call is comparable, which the
//! Director rules when Laws 25, 30, 31 or 32 call for it. Apart because Laws 25 and 30-32 call
//! for the same ruling.

use crate::auction::Auction;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionOption, CallRequirement, Effect, LeadPenaltyRule, OptionKind, PassDuration,
};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Duplicate Law 23: is the call that replaced a withdrawn call comparable?
    pub(super) fn comparable_options(&self, offender: Seat, law: Law) -> Vec<AuctionOption> {
        let partner = offender.partner();
        let mut not_comparable = Vec::new();
        if law.number != 25 {
            not_comparable.push(bar(partner, PassDuration::NextTurn, law));
        }
        not_comparable.push(Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law });
        not_comparable.push(self.ui(offender));
        not_comparable.push(self.damage(offender));
        vec![
            Self::option(
                OptionKind::Comparable,
                Chooser::Official,
                None,
                Law::duplicate(23, "A"),
                CallRequirement::None,
                vec![Effect::ScoreMayBeAdjusted { side: offender.side(), law: Law::duplicate(23, "C") }],
            ),
            Self::option(
                OptionKind::NotComparable,
                Chooser::Official,
                None,
                law,
                CallRequirement::None,
                not_comparable,
            ),
        ]
    }
}
