//! Law 21B (rubber and Club Law 21): a call changed because of misinformation, and the
//! judgement whether it could have been influenced by it. Apart from Law 25 because the change
//! awaits a judgement of the misinformation, not a penalty.

use crate::auction::{Auction, Family};
use crate::irregularities::Chooser;
use crate::irregularities::auction::{AuctionOption, CallRequirement, Effect, OptionKind};
use crate::seat::Seat;

impl Auction {
    /// Law 21B1 (rubber and Club Law 21): the judgement of a change of call because of
    /// misinformation, and what each answer does.
    pub(super) fn misinformation_options(
        &self,
        offender: Seat,
        first: usize,
        second: usize,
        lho_call: Option<usize>,
        by: Seat,
    ) -> Vec<AuctionOption> {
        let law = self.misinformation_law("B1");
        let second_call = self.entries[second].call;
        // Duplicate Law 21B1(a) and 21B1(b): the Director judges (presuming a mistaken
        // explanation absent evidence to the contrary); Club Law 21: the Arbiter; rubber
        // bridge: the players, the side that gave the explanation agreeing (the non-offending
        // side of this record, whose offender is the player changing his call).
        let chooser = match self.family() {
            Family::Rubber => Chooser::NonOffendingSide,
            Family::Club | Family::Duplicate => Chooser::Official,
        };
        let mut change =
            vec![self.cancel_effect(first, law), Effect::CallMade { seat: offender, call: Some(second_call) }];
        if let Some(entry) = lho_call {
            change.push(Effect::LhoMayWithdrawCall { lho: offender.lho(), entry, law: self.misinformation_law("B2") });
        }
        match self.family() {
            // Law 16C2 for the withdrawn call: unauthorised for the side that misinformed.
            Family::Duplicate => change.push(Effect::UnauthorizedInformation { side: by.side(), law: self.ui_law() }),
            // Club Law 21: "at the end of play if the Arbiter determines that the
            // non-offending side was damaged due to the irregularity he should award an
            // adjusted score".
            Family::Club => change.push(Effect::ScoreMayBeAdjusted { side: by.side(), law }),
            // Rubber Law 21: "without penalty".
            Family::Rubber => {}
        }
        let refused = self.cite(21, "", "A");
        vec![
            Self::option(OptionKind::ChangeAfterMisinformation, chooser, None, law, CallRequirement::None, change),
            Self::option(
                OptionKind::NoMisinformation,
                chooser,
                None,
                refused,
                CallRequirement::None,
                vec![self.stands_effect(first), self.cancel_effect(second, refused)],
            ),
        ]
    }
}
