//! Recorded calls and their rectification: how a call made at the table is judged (in turn,
//! out of rotation, insufficient, inadmissible, after the close, a change of call), the options
//! each Law gives, and the interpreter that applies the effects of the option chosen.
//!
//! Every option is built from the Law's text, once, and [`Auction::rectify`] applies exactly
//! the effects the option lists, so what the players are shown is what happens.
//!
//! This module holds the stages of a pending irregularity, the choosers and effects every Law
//! uses, and the dispatch to the options of each Law. The rest is by concern: recording a call
//! ([`calls`]), the options of each Law or group of Laws (`law_21` to `laws_35_39`), applying
//! the option chosen ([`apply`]) and the contingencies a rectification leaves ([`contingencies`]).

mod apply;
mod calls;
mod contingencies;
mod law_21;
mod law_23;
mod law_24;
mod law_25;
mod law_26;
mod law_27;
mod laws_28_32;
mod laws_35_39;

use crate::auction::{Auction, CallEntry, CallStatus, Family, PendingIrregularity};
use crate::cards::Card;
use crate::contract::{Bid, Call};
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AfterCloseRole, AuctionOption, CallRequirement, Contingency, Effect, Irregularity, IrregularityKind, OptionKind,
    PassDuration, RecordedCall, Restriction,
};
use crate::law::Law;
use crate::penalty::LeadPenalty;
use crate::seat::Seat;

/// Where a pending irregularity stands in its rectification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stage {
    /// Law 27: the left-hand opponent is to accept the insufficient bid (by calling) or not.
    /// `attempts` are the offender's premature replacements (rubber Law 27 footnote 9,
    /// duplicate Law 27C).
    InsufficientBid { entry: usize, over: Bid, attempts: Vec<usize> },
    /// Law 27: not accepted; the offender must replace it. `partner_barred` once duplicate Law
    /// 27B3 has barred his partner; `fixed` is the premature replacement that stands (duplicate
    /// Law 27C) and is to be ruled on.
    Replacement { entry: usize, over: Bid, attempts: Vec<usize>, partner_barred: bool, fixed: Option<usize> },
    /// Duplicate Law 27B4: the left-hand opponent is to accept the second insufficient bid or
    /// not; if not, the offender replaces his first insufficient bid as under 27B3.
    SecondInsufficientBid { first: usize, second: usize, over: Bid },
    /// Laws 29-32.
    OutOfRotation { entry: usize, turn_of: Seat },
    /// Law 36.
    Inadmissible { entry: usize, turn_of: Seat },
    /// Law 36A (rubber Laws 35A and 36): attention drawn to an unnoticed inadmissible double
    /// or redouble after the offender's left-hand opponent called over it.
    InadmissibleCondoned { entry: usize },
    /// Law 37.
    RequiredToPass { entry: usize, turn_of: Seat, required_by: Law },
    /// Law 38.
    AboveSeven { entry: usize, turn_of: Seat },
    /// Law 39.
    AfterClose { entry: usize, role: AfterCloseRole },
    /// Law 25. The first call is held out of the legal auction while the change is settled
    /// (unless the left-hand opponent already called over it, duplicate Law 25A).
    ChangeOfCall { first: usize, first_status: CallStatus, second: usize, lho_call: Option<usize> },
    /// Duplicate Law 25A6: the left-hand opponent keeps or withdraws his call; Law 21B2
    /// (rubber Law 21): he keeps or changes it. `law` is the Law that gives him the choice.
    LhoMayWithdraw { lho_call: usize, law: Law },
    /// Law 21B (rubber and Club Law 21): the offender changed his call `first` to `second`
    /// because of misinformation from `by`; `lho_call` is his left-hand opponent's call over
    /// `first`, if any. The official (the players in rubber bridge) judges the change.
    Misinformation { first: usize, first_status: CallStatus, second: usize, lho_call: Option<usize>, by: Seat },
    /// Law 24.
    CardsExposed { offender: Seat, cards: Vec<Card>, led: bool },
    /// Duplicate Law 23: is the replacement comparable?
    Comparable { offender: Seat, withdrawn: RecordedCall, replacement: Call, law: Law },
}

impl Stage {
    /// The player whose turn it was when the irregular call was made, for calls judged against
    /// rotation.
    fn turn_of(&self) -> Option<Seat> {
        match self {
            Stage::OutOfRotation { turn_of, .. }
            | Stage::Inadmissible { turn_of, .. }
            | Stage::RequiredToPass { turn_of, .. }
            | Stage::AboveSeven { turn_of, .. } => Some(*turn_of),
            _ => None,
        }
    }
}

/// A contingency and the position in the record after which its trigger is looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Contingent {
    after: usize,
    contingency: Contingency,
}

/// A lead penalty due if the offender's partner becomes a defender. `penalty` is `None` for
/// duplicate Law 26B, whose suits are fixed only by the final legal auction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DueLeadPenalty {
    pub(super) offender: Seat,
    pub(super) penalty: Option<LeadPenalty>,
    pub(super) law: Law,
}

fn bar(seat: Seat, duration: PassDuration, law: Law) -> Effect {
    Effect::Restriction(Restriction::MustPass { seat, duration, law })
}

impl Auction {
    // ----- choosers and the Laws that recur -----

    /// Who confirms a rectification the Law leaves no choice in: the non-offending side in
    /// rubber bridge (who may instead waive it, Law 15A), the arbiter (Club Laws 13-14) or the
    /// director (duplicate Law 10A).
    fn enforcer(&self) -> Chooser {
        if self.family() == Family::Rubber { Chooser::NonOffendingSide } else { Chooser::Official }
    }

    /// Who decides a question of judgement: the players (the non-offending side must agree)
    /// in rubber bridge, the arbiter (Club Law 14) or the director.
    fn judge(&self) -> Chooser {
        self.enforcer()
    }

    /// The Law making information from withdrawn calls unauthorized.
    fn ui_law(&self) -> Law {
        match self.family() {
            Family::Rubber => Law::rubber(16, "B1"),
            Family::Club => Law::club(16, ""),
            Family::Duplicate => Law::duplicate(16, "C"),
        }
    }

    /// The Law for damage through an enforced pass or an infraction that could damage.
    fn damage_law(&self) -> Law {
        match self.family() {
            Family::Rubber => Law::rubber(23, ""),
            Family::Club => Law::club(23, ""),
            Family::Duplicate => Law::duplicate(72, "C"),
        }
    }

    fn ui(&self, offender: Seat) -> Effect {
        Effect::UnauthorizedInformation { side: offender.side(), law: self.ui_law() }
    }

    fn damage(&self, offender: Seat) -> Effect {
        Effect::ScoreMayBeAdjusted { side: offender.side(), law: self.damage_law() }
    }

    fn stands_effect(&self, entry: usize) -> Effect {
        let CallEntry { seat, call, .. } = self.entries[entry];
        Effect::CallStands { entry, seat, call }
    }

    fn cancel_effect(&self, entry: usize, law: Law) -> Effect {
        let CallEntry { seat, call, .. } = self.entries[entry];
        Effect::CallCancelled { entry, seat, call, law }
    }

    fn cancel_from_effect(&self, entry: usize, law: Law) -> Effect {
        let CallEntry { seat, call, .. } = self.entries[entry];
        Effect::CallsFromCancelled { entry, seat, call, law }
    }

    fn option(
        kind: OptionKind,
        chooser: Chooser,
        chooser_seat: Option<Seat>,
        law: Law,
        call: CallRequirement,
        effects: Vec<Effect>,
    ) -> AuctionOption {
        AuctionOption { kind, chooser, chooser_seat, law, call, effects }
    }

    /// Law 21 with `duplicate` as the duplicate section; Club Law 21 under the Club Laws
    /// (which let "Regular Law 21" stand, with the Arbiter's additions).
    pub(super) fn misinformation_law(&self, duplicate: &'static str) -> Law {
        match self.family() {
            Family::Rubber => Law::rubber(21, ""),
            Family::Club => Law::club(21, ""),
            Family::Duplicate => Law::duplicate(21, duplicate),
        }
    }

    /// Opens the pending irregularity `kind` of `offender`'s `call`: the Law of its kind, and
    /// the options of its stage.
    pub(super) fn open(&mut self, offender: Seat, call: RecordedCall, kind: IrregularityKind, stage: Stage) {
        let law = match &kind {
            IrregularityKind::CardsExposed { .. } => self.cite(24, "", ""),
            IrregularityKind::ChangeOfCall { .. } => self.cite(25, "", ""),
            IrregularityKind::InsufficientBid { .. } => self.cite(27, "", ""),
            IrregularityKind::CallOutOfRotation { .. } => self.cite(29, "", ""),
            IrregularityKind::InadmissibleDouble { .. } => self.cite(36, "", ""),
            IrregularityKind::CallWhenRequiredToPass { .. } => self.cite(37, "", ""),
            IrregularityKind::BidAboveSeven => self.cite(38, "", ""),
            IrregularityKind::CallAfterClose { .. } => self.cite(39, "", ""),
            IrregularityKind::ComparableCallQuestion { .. } => Law::duplicate(23, "A"),
            IrregularityKind::CallChangedAfterMisinformation { .. } => self.misinformation_law("B1"),
        };
        let irregularity = Irregularity { offender, call: Some(call), kind, law };
        self.pending = Some(self.pending_for(irregularity, stage));
    }

    /// The pending irregularity at `stage`, with the options the Laws give there.
    pub(super) fn pending_for(&self, irregularity: Irregularity, stage: Stage) -> PendingIrregularity {
        let options = self.options_for(&irregularity, &stage);
        PendingIrregularity { irregularity, options, stage }
    }

    // ----- the options each Law gives -----

    /// The options the Laws give at `stage`, each built by the module of its Law.
    fn options_for(&self, irregularity: &Irregularity, stage: &Stage) -> Vec<AuctionOption> {
        let offender = irregularity.offender;
        match stage {
            Stage::InsufficientBid { entry, attempts, .. } => self.insufficient_bid_options(offender, *entry, attempts),
            Stage::Replacement { entry, over, attempts, partner_barred, fixed } => {
                self.replacement_options(offender, *entry, *over, attempts, *partner_barred, *fixed)
            }
            Stage::SecondInsufficientBid { second, .. } => self.second_insufficient_bid_options(offender, *second),
            Stage::OutOfRotation { entry, turn_of } => self.out_of_rotation_options(offender, *entry, *turn_of),
            Stage::Inadmissible { entry, turn_of } => self.inadmissible_double_options(offender, *entry, *turn_of),
            Stage::InadmissibleCondoned { entry } => self.condoned_inadmissible_options(*entry),
            Stage::RequiredToPass { entry, turn_of, .. } => self.required_to_pass_options(offender, *entry, *turn_of),
            Stage::AboveSeven { entry, turn_of } => self.above_seven_options(offender, *entry, *turn_of),
            Stage::AfterClose { entry, role } => self.after_close_options(offender, *entry, *role),
            Stage::ChangeOfCall { first, second, lho_call, .. } => {
                self.change_of_call_options(offender, *first, *second, *lho_call)
            }
            Stage::Misinformation { first, second, lho_call, by, .. } => {
                self.misinformation_options(offender, *first, *second, *lho_call, *by)
            }
            Stage::LhoMayWithdraw { lho_call, law } => self.lho_withdrawal_options(*lho_call, *law),
            Stage::CardsExposed { cards, led, .. } => self.exposed_cards_options(offender, cards, *led),
            Stage::Comparable { law, .. } => self.comparable_options(offender, *law),
        }
    }

    /// The option of the offender's left-hand opponent who condones the irregularity by
    /// calling (rubber Law 15B and the Laws that apply it; duplicate Laws 25B1, 27A1, 29A and
    /// 36A-39B): any call of his, under `law`, with `effects`.
    fn accept_by_calling(lho: Seat, law: Law, effects: Vec<Effect>) -> AuctionOption {
        Self::option(
            OptionKind::AcceptByCalling,
            Chooser::OffendersLho,
            Some(lho),
            law,
            CallRequirement::AnyCall,
            effects,
        )
    }

    /// Rubber Law 15A: both members of the non-offending side waive the penalty; what the Law
    /// does regardless of penalty (cancelling a call that can never stand) still happens.
    fn waive_option(&self, effects: Vec<Effect>) -> AuctionOption {
        Self::option(
            OptionKind::Waive,
            Chooser::NonOffendingSide,
            None,
            Law::rubber(15, "A"),
            CallRequirement::None,
            effects,
        )
    }
}
