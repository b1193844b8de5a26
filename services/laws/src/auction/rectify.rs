//! Recorded calls and their rectification: how a call made at the table is judged (in turn,
//! out of rotation, insufficient, inadmissible, after the close, a change of call), the options
//! each Law gives, and the interpreter that applies the effects of the option chosen.
//!
//! Every option is built here from the Law's text, once, and [`Auction::rectify`] applies
//! exactly the effects the option lists, so what the players are shown is what happens.

use crate::auction::{Auction, AuctionError, CallEntry, CallStatus, ExposedCards, Family, InTurn, PendingIrregularity};
use crate::cards::{Card, SuitSet};
use crate::contract::{Bid, Call};
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AfterCloseRole, AuctionOption, CallRequirement, Contingency, DoubleFault, Effect, FinalCall, Irregularity,
    IrregularityKind, LeadPenaltyRule, OptionKind, PassDuration, RecordedCall, ReservedAdjustment, Restriction,
    Specifies, TurnOf,
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

/// A call with what it relates to if artificial ([`CallEntry::relates_to`]).
pub(super) type Related = (RecordedCall, Option<SuitSet>);

/// Rubber Law 26: the penalty for changing `changed` when the offender's final call at that
/// turn is `final_call`, with the section that gives it.
///
/// "A. if the changed call was in a suit, and the substituted call did not repeat that suit,
/// declarer may either require the offender's partner to lead, or prohibit him from leading,
/// such suit ... When the irregular call artificially relates to a denomination other than the
/// one actually named, 'such suit' is the suit or suits to which the call relates." So a bid is
/// "in a suit" when it specifies one or more suits ([`Specifies`]): a natural suit bid, or an
/// artificial bid (notrump included) relating to suits; the suits it relates to that the final
/// call does not also specify are "such suit". "B. if the changed call was 1. in no-trump and
/// the player's final call at that turn was not, or 2. pass, double or redouble": a natural
/// notrump bid not followed by a natural notrump bid, and a pass, double or redouble. Our
/// reading for an artificial bid relating to no suit (a strong 2C, an asking bid), which the
/// Law names in neither section: it specifies no denomination, like a pass, double or
/// redouble, so 26B applies.
pub(super) fn rubber_26(changed: Related, final_call: Option<Related>) -> Option<(LeadPenalty, Law)> {
    if final_call == Some(changed) {
        // A call "changed" to itself was not changed.
        return None;
    }
    let finally = final_call.map_or(Specifies::Nothing, |(call, relates_to)| Specifies::of(call, relates_to));
    let forbid_any = Some((LeadPenalty::ForbidAnyOneSuit, Law::rubber(26, "B")));
    match changed {
        (RecordedCall::Bid { .. }, relates_to) => match Specifies::of(changed.0, relates_to) {
            Specifies::Suits(suits) => {
                let not_repeated = suits.difference(finally.suits());
                (!not_repeated.is_empty())
                    .then(|| (LeadPenalty::RequireOrForbid(not_repeated.to_vec()), Law::rubber(26, "A")))
            }
            Specifies::NoTrump if finally == Specifies::NoTrump => None,
            Specifies::NoTrump | Specifies::Nothing => forbid_any,
        },
        (RecordedCall::Pass | RecordedCall::Double | RecordedCall::Redouble, _) => forbid_any,
    }
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

    // ----- recording a call -----

    /// Judges and makes a call with nothing pending.
    pub(super) fn make_call(&mut self, seat: Seat, call: RecordedCall) -> Result<(), AuctionError> {
        if self.is_closed() {
            let role = match self.last_bid_entry() {
                None => AfterCloseRole::PassedOut,
                Some(_) => {
                    let declaring = self.outcome_declarer_side();
                    if Some(seat.side()) == declaring {
                        AfterCloseRole::DeclaringSide
                    } else {
                        AfterCloseRole::Defender
                    }
                }
            };
            let entry = self.push_pending(seat, call);
            self.open(seat, call, IrregularityKind::CallAfterClose { role }, Stage::AfterClose { entry, role });
            return Ok(());
        }
        let turn = self.turn();
        if let RecordedCall::Bid { level, .. } = call
            && level > 7
        {
            let entry = self.push_pending(seat, call);
            self.open(seat, call, IrregularityKind::BidAboveSeven, Stage::AboveSeven { entry, turn_of: turn });
            return Ok(());
        }
        if self.last_standing().map(|(_, s, _)| s) == Some(seat) {
            // A second call before anyone else has called: a change of call (Law 25; rubber
            // footnotes 12, 13 and 15, duplicate Laws 30B2, 31C, 32C).
            return self.open_change_of_call(seat, call);
        }
        if seat != turn {
            if seat.rho() == turn && self.must_pass_now(turn).is_some() {
                // Law 28A: the call is in rotation; the barred player is deemed to have passed.
                self.push_standing(turn, RecordedCall::Pass, CallStatus::DeemedPass { law: self.cite(28, "A", "A") });
                return self.make_call(seat, call);
            }
            let fault = if call.is_double_or_redouble() { self.double_fault(seat, call) } else { None };
            if let Some(fault) = fault {
                let entry = self.push_pending(seat, call);
                let kind = IrregularityKind::InadmissibleDouble { fault, out_of_rotation: true };
                self.open(seat, call, kind, Stage::Inadmissible { entry, turn_of: turn });
                return Ok(());
            }
            if let Some(required_by) = self.barred_throughout(seat)
                && !call.is_pass()
            {
                let entry = self.push_pending(seat, call);
                let kind = IrregularityKind::CallWhenRequiredToPass { required_by };
                self.open(seat, call, kind, Stage::RequiredToPass { entry, turn_of: turn, required_by });
                return Ok(());
            }
            let position = TurnOf::of(seat, turn).unwrap_or(TurnOf::Partner);
            let entry = self.push_pending(seat, call);
            let kind = IrregularityKind::CallOutOfRotation { turn_of: turn, position };
            self.open(seat, call, kind, Stage::OutOfRotation { entry, turn_of: turn });
            return Ok(());
        }

        let verdict = self.judge_in_turn(seat, call);
        if let InTurn::Refused(err) = verdict {
            return Err(err);
        }
        // The obligation to repeat a call is met by repeating it, even if it is then irregular.
        self.restrictions.retain(|r| !matches!(r, Restriction::MustRepeat { seat: s, .. } if *s == seat));
        let entry = self.entries.len();
        let irregularity = match verdict {
            InTurn::Insufficient { over, .. } => Some((
                IrregularityKind::InsufficientBid { over },
                Stage::InsufficientBid { entry, over, attempts: Vec::new() },
            )),
            InTurn::Inadmissible(fault) => Some((
                IrregularityKind::InadmissibleDouble { fault, out_of_rotation: false },
                Stage::Inadmissible { entry, turn_of: turn },
            )),
            InTurn::RequiredToPass(required_by) => Some((
                IrregularityKind::CallWhenRequiredToPass { required_by },
                Stage::RequiredToPass { entry, turn_of: turn, required_by },
            )),
            InTurn::Legal | InTurn::Refused(_) => None,
        };
        match irregularity {
            Some((kind, stage)) => {
                self.push_pending(seat, call);
                self.open(seat, call, kind, stage);
            }
            None => self.push_standing(seat, call, CallStatus::Made),
        }
        Ok(())
    }

    /// A call while an irregularity is pending: a condoning call, a premature replacement of
    /// an insufficient bid, or refused.
    pub(super) fn call_while_pending(&mut self, seat: Seat, call: RecordedCall) -> Result<(), AuctionError> {
        let Some(pending) = self.pending.clone() else {
            return self.make_call(seat, call);
        };
        let condoning = pending.options.iter().find(|o| {
            matches!(o.kind, OptionKind::AcceptByCalling | OptionKind::CallInTurn) && o.chooser_seat == Some(seat)
        });
        if let Some(option) = condoning {
            return self.apply_option(&option.clone(), Some(call));
        }
        if let Stage::InsufficientBid { entry, over, attempts } = &pending.stage
            && self.entries[*entry].seat == seat
        {
            let (entry, over, mut attempts) = (*entry, *over, attempts.clone());
            // Premature replacement. Rubber Law 27 footnote 9: every attempt is cancelled but
            // Law 26 applies to it. Duplicate Law 27C: the latest replacement stands unless the
            // insufficient bid is accepted; earlier ones are cancelled.
            if self.is_duplicate() {
                for &attempt in &attempts {
                    self.entries[attempt].status = CallStatus::Cancelled { law: Law::duplicate(27, "C") };
                }
                attempts.clear();
            }
            attempts.push(self.push_pending(seat, call));
            let stage = Stage::InsufficientBid { entry, over, attempts };
            self.pending = Some(self.pending_for(pending.irregularity.clone(), stage));
            return Ok(());
        }
        Err(self.pending_error(&pending))
    }

    /// Law 25: `seat` substitutes `call` for his last call.
    pub(super) fn open_change_of_call(&mut self, seat: Seat, call: RecordedCall) -> Result<(), AuctionError> {
        let mut standing = self.standing().rev();
        let last = standing.next();
        let before = standing.next();
        drop(standing);
        let no_call = || AuctionError::NoCallToChange { seat, law: self.cite(25, "", "") };
        let (first, lho_call) = match (last, before) {
            (Some((i, s, _)), _) if s == seat => (i, None),
            // Duplicate Law 25A: an unintended call may be replaced until partner calls.
            (Some((l, s, _)), Some((i, b, _))) if self.is_duplicate() && s == seat.lho() && b == seat => (i, Some(l)),
            _ => return Err(no_call()),
        };
        let first_status = self.entries[first].status;
        if lho_call.is_none() {
            self.entries[first].status = CallStatus::Pending;
        }
        let first_call = self.entries[first].call;
        let second = self.push_pending(seat, call);
        let stage = Stage::ChangeOfCall { first, first_status, second, lho_call };
        self.open(seat, call, IrregularityKind::ChangeOfCall { first: first_call }, stage);
        Ok(())
    }

    /// Law 21B (rubber and Club Law 21): `seat` changes his last standing call to `call`
    /// because of misinformation from `by` (an opponent; checked by the caller). See
    /// [`Auction::change_after_misinformation`].
    pub(super) fn open_misinformation_change(
        &mut self,
        seat: Seat,
        call: RecordedCall,
        by: Seat,
    ) -> Result<(), AuctionError> {
        let too_late = |reason| AuctionError::TooLateToChange { seat, reason, law: self.misinformation_law("B3") };
        if !self.is_duplicate() && self.is_closed() {
            // Rubber Law 21: "Until the auction is closed".
            return Err(too_late("the auction is closed"));
        }
        let Some((first, ..)) = self.standing().rfind(|(_, s, _)| *s == seat) else {
            return Err(AuctionError::NoCallToChange { seat, law: self.cite(21, "", "B1") });
        };
        let later: Vec<(usize, Seat)> = self.standing().filter(|(i, ..)| *i > first).map(|(i, s, _)| (i, s)).collect();
        if later.iter().any(|(_, s)| *s == seat.partner()) {
            // "provided his partner has not subsequently called".
            return Err(too_late("his partner has called since"));
        }
        if later.iter().any(|(_, s)| *s != seat.lho()) || later.len() > 1 {
            // Only the left-hand opponent's call can stand between his call and his partner's;
            // the Law lets only that one be changed.
            return Err(too_late("calls other than his left-hand opponent's stand after it"));
        }
        let lho_call = later.first().map(|(i, _)| *i);
        // The new call must be one he could make in place of the changed call.
        let mut probe = self.clone();
        if let Some(lho_entry) = lho_call {
            probe.entries.truncate(lho_entry);
        }
        probe.entries[first].status = CallStatus::Cancelled { law: self.cite(21, "", "B1") };
        if let Some(legal) = call.legal() {
            probe.check_in_turn(seat, legal)?;
        } else if let RecordedCall::Bid { .. } = call {
            return Err(AuctionError::BidAboveSeven { call, law: self.cite(38, "", "") });
        }
        let first_status = self.entries[first].status;
        self.entries[first].status = CallStatus::Pending;
        let first_call = self.entries[first].call;
        let second = self.push_pending(seat, call);
        let stage = Stage::Misinformation { first, first_status, second, lho_call, by };
        self.open(
            seat,
            call,
            IrregularityKind::CallChangedAfterMisinformation { first: first_call, misinformed_by: by },
            stage,
        );
        Ok(())
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

    /// Law 24: cards exposed during the auction.
    pub(super) fn open_exposure(&mut self, seat: Seat, cards: Vec<Card>, led: bool) {
        self.exposures.push(ExposedCards { seat, cards: cards.clone(), led });
        let kind = IrregularityKind::CardsExposed { cards: cards.clone(), led };
        let irregularity = Irregularity { offender: seat, call: None, kind, law: self.cite(24, "", "") };
        let stage = Stage::CardsExposed { offender: seat, cards, led };
        self.pending = Some(self.pending_for(irregularity, stage));
    }

    fn push_pending(&mut self, seat: Seat, call: RecordedCall) -> usize {
        let relates_to =
            self.announcing.filter(|a| a.call == call && a.seat.is_none_or(|s| s == seat)).map(|a| a.relates_to);
        self.entries.push(CallEntry { seat, call, status: CallStatus::Pending, relates_to });
        self.entries.len() - 1
    }

    /// Attention drawn to the unnoticed inadmissible call at `entry`: Law 36 if nobody has
    /// called since, Law 36A (rubber Laws 35A, 36) if the left-hand opponent has.
    pub(super) fn open_unnoticed(&mut self, entry: usize, seat: Seat, call: RecordedCall, fault: DoubleFault) {
        let kind = IrregularityKind::InadmissibleDouble { fault, out_of_rotation: false };
        let called_over = self.entries[entry + 1..].iter().any(|e| e.status.stands());
        if !called_over {
            self.entries[entry].status = CallStatus::Pending;
            self.open(seat, call, kind, Stage::Inadmissible { entry, turn_of: seat });
        } else {
            self.open(seat, call, kind, Stage::InadmissibleCondoned { entry });
        }
    }

    pub(super) fn push_standing(&mut self, seat: Seat, call: RecordedCall, status: CallStatus) {
        let entry = self.push_pending(seat, call);
        self.stand(entry, status);
    }

    /// The call at `entry` becomes part of the legal auction: the caller's next-turn
    /// restrictions are spent, and Law 34 is applied if it ends the auction.
    fn stand(&mut self, entry: usize, status: CallStatus) {
        self.entries[entry].status = status;
        let seat = self.entries[entry].seat;
        self.restrictions.retain(|r| match r {
            Restriction::MustPass { seat: s, duration: PassDuration::NextTurn, .. }
            | Restriction::NoDoubleOrRedoubleNextTurn { seat: s, .. }
            | Restriction::MustRepeat { seat: s, .. } => *s != seat,
            _ => true,
        });
        self.apply_law_34();
    }

    /// Law 34 (duplicate Law 17D3): three passes that close the auction do not close it if one
    /// of them was out of rotation and robbed a player of his turn; the auction reverts to him
    /// and the later passes are cancelled.
    fn apply_law_34(&mut self) {
        if !self.is_closed() {
            return;
        }
        let robbing = self
            .standing()
            .rev()
            .take(3)
            .filter(|(i, ..)| matches!(self.entries[*i].status, CallStatus::MadeOutOfRotation { .. }))
            .last()
            .map(|(i, seat, _)| (i, seat));
        let Some((from, offender)) = robbing else { return };
        let law = self.by_code(Law::rubber(34, ""), Law::duplicate(17, "D3"));
        for entry in &mut self.entries[from..] {
            if entry.status.stands() {
                entry.status = CallStatus::Cancelled { law };
            }
        }
        if self.is_duplicate() {
            self.reserve(ReservedAdjustment { offending_side: offender.side(), law: Law::duplicate(16, "C") });
        }
    }

    pub(super) fn reserve(&mut self, adjustment: ReservedAdjustment) {
        if !self.adjustments.contains(&adjustment) {
            self.adjustments.push(adjustment);
        }
    }

    fn restrict(&mut self, restriction: Restriction) {
        if !self.restrictions.contains(&restriction) {
            self.restrictions.push(restriction);
        }
    }

    fn due(&mut self, offender: Seat, penalty: Option<LeadPenalty>, law: Law) {
        let due = DueLeadPenalty { offender, penalty, law };
        if !self.lead_penalties.contains(&due) {
            self.lead_penalties.push(due);
        }
    }

    /// The declaring side, once the auction is closed with a contract.
    fn outcome_declarer_side(&self) -> Option<crate::seat::Side> {
        self.last_bid_entry().map(|(_, seat, _)| seat.side())
    }

    fn open(&mut self, offender: Seat, call: RecordedCall, kind: IrregularityKind, stage: Stage) {
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

    fn pending_for(&self, irregularity: Irregularity, stage: Stage) -> PendingIrregularity {
        let options = self.options_for(&irregularity, &stage);
        PendingIrregularity { irregularity, options, stage }
    }

    // ----- the options each Law gives -----

    fn options_for(&self, irregularity: &Irregularity, stage: &Stage) -> Vec<AuctionOption> {
        let offender = irregularity.offender;
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        match stage {
            Stage::InsufficientBid { entry, attempts, .. } => {
                let ib = self.entries[*entry].call;
                let attempt_law = self.cite(27, "", "C");
                let mut accept = vec![self.stands_effect(*entry)];
                for &a in attempts {
                    accept.push(self.cancel_effect(a, attempt_law));
                    if !dup {
                        let rule =
                            LeadPenaltyRule::Rubber26 { changed: self.entries[a].call, against: FinalCall::Known(ib) };
                        accept.push(Effect::LeadPenalty { offender, rule, law: attempt_law });
                    }
                }
                accept.push(Effect::CallMade { seat: lho, call: None });
                let mut options = vec![
                    Self::option(
                        OptionKind::AcceptByCalling,
                        Chooser::OffendersLho,
                        Some(lho),
                        self.cite(27, "", "A1"),
                        CallRequirement::AnyCall,
                        accept,
                    ),
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
                    let mut effects = vec![self.cancel_effect(*entry, law)];
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
            Stage::Replacement { entry, over, attempts, partner_barred, fixed } => {
                self.replacement_options(offender, *entry, *over, attempts, *partner_barred, *fixed)
            }
            Stage::SecondInsufficientBid { second, .. } => {
                let law = Law::duplicate(27, "B4");
                vec![
                    Self::option(
                        OptionKind::AcceptByCalling,
                        Chooser::OffendersLho,
                        Some(lho),
                        Law::duplicate(27, "A1"),
                        CallRequirement::AnyCall,
                        vec![self.stands_effect(*second), Effect::CallMade { seat: lho, call: None }],
                    ),
                    Self::option(
                        OptionKind::RejectInsufficientBid,
                        Chooser::OffendersLho,
                        Some(lho),
                        law,
                        CallRequirement::None,
                        vec![
                            self.cancel_effect(*second, law),
                            bar(partner, PassDuration::RestOfAuction, law),
                            Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law },
                            self.damage(offender),
                            Effect::OffenderMustReplace { offender },
                        ],
                    ),
                ]
            }
            Stage::OutOfRotation { entry, turn_of } => self.out_of_rotation_options(offender, *entry, *turn_of),
            Stage::Inadmissible { entry, turn_of } => {
                let oor = self.entries[*entry].seat != *turn_of;
                // Rubber Law 35A; duplicate Law 36A.
                let condone_law = self.by_code(Law::rubber(35, "A"), Law::duplicate(36, "A"));
                let cancel_law = self.cite(36, "", "B1");
                let revert = oor.then_some(Effect::AuctionRevertsTo { seat: *turn_of });
                let mut enforce = vec![self.cancel_effect(*entry, cancel_law)];
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
                            self.cancel_from_effect(*entry, condone_law),
                            Effect::ChoiceCallCancelled { seat: lho, law: condone_law },
                        ],
                    ),
                    Self::option(OptionKind::Enforce, self.enforcer(), None, bar_law, CallRequirement::None, enforce),
                ];
                if !dup {
                    let mut waive = vec![self.cancel_effect(*entry, cancel_law)];
                    waive.extend(revert);
                    options.push(self.waive_option(waive));
                }
                options
            }
            Stage::InadmissibleCondoned { entry } => {
                let law = self.by_code(Law::rubber(35, "A"), Law::duplicate(36, "A"));
                vec![Self::option(
                    OptionKind::Enforce,
                    self.enforcer(),
                    None,
                    law,
                    CallRequirement::None,
                    vec![self.cancel_from_effect(*entry, law)],
                )]
            }
            Stage::RequiredToPass { entry, turn_of, .. } => {
                let in_turn = self.entries[*entry].seat == *turn_of;
                let law = self.cite(37, "", "B");
                let call = self.entries[*entry].call;
                let cancel = self.cancel_effect(*entry, law);
                let substitute = if in_turn {
                    Effect::PassSubstituted { seat: offender }
                } else {
                    Effect::AuctionRevertsTo { seat: *turn_of }
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
                        vec![self.stands_effect(*entry), Effect::CallMade { seat: lho, call: None }],
                    ),
                    Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce),
                ];
                if !dup {
                    options.push(self.waive_option(vec![cancel, substitute]));
                }
                options
            }
            Stage::AboveSeven { entry, turn_of } => {
                let in_turn = self.entries[*entry].seat == *turn_of;
                let law = self.cite(38, "", "B");
                let call = self.entries[*entry].call;
                let substitute = if in_turn {
                    Effect::PassSubstituted { seat: offender }
                } else {
                    Effect::AuctionRevertsTo { seat: *turn_of }
                };
                // Rubber Law 35C; duplicate Laws 38B-D.
                let condone_law = self.by_code(Law::rubber(35, "C"), Law::duplicate(38, "D"));
                let cancel_law = self.by_code(Law::rubber(35, "C"), Law::duplicate(38, "B"));
                let mut condone = vec![
                    self.cancel_from_effect(*entry, cancel_law),
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
                    self.cancel_effect(*entry, law),
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
                    options.push(self.waive_option(vec![self.cancel_effect(*entry, law), substitute]));
                }
                options
            }
            Stage::AfterClose { entry, role } => {
                let call = self.entries[*entry].call;
                let cancel_law = self.cite(39, "", "A");
                let cancel = self.cancel_effect(*entry, cancel_law);
                // Rubber Law 35D; duplicate Law 39B.
                let condone_law = self.by_code(Law::rubber(35, "D"), Law::duplicate(39, "B"));
                let mut options = vec![Self::option(
                    OptionKind::AcceptByCalling,
                    Chooser::OffendersLho,
                    Some(lho),
                    condone_law,
                    CallRequirement::AnyCall,
                    vec![
                        self.cancel_from_effect(*entry, cancel_law),
                        Effect::ChoiceCallCancelled { seat: lho, law: cancel_law },
                    ],
                )];
                if *role == AfterCloseRole::Defender && !call.is_pass() {
                    let law = self.cite(39, "B", "C");
                    let rule = if dup {
                        LeadPenaltyRule::Duplicate26B
                    } else {
                        LeadPenaltyRule::Rubber26 { changed: call, against: FinalCall::None }
                    };
                    let enforce = vec![cancel.clone(), Effect::LeadPenalty { offender, rule, law }];
                    options.push(Self::option(
                        OptionKind::Enforce,
                        self.enforcer(),
                        None,
                        law,
                        CallRequirement::None,
                        enforce,
                    ));
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
            Stage::ChangeOfCall { first, second, lho_call, .. } => {
                self.change_of_call_options(offender, *first, *second, *lho_call)
            }
            Stage::Misinformation { first, second, lho_call, by, .. } => {
                self.misinformation_options(offender, *first, *second, *lho_call, *by)
            }
            Stage::LhoMayWithdraw { lho_call, law } => {
                let law = *law;
                let lho = self.entries[*lho_call].seat;
                // Duplicate Law 25A6: the offender's side; Law 21B2 ("but Law 16C applies"):
                // the left-hand opponent's own, the side that misinformed.
                // Rubber Law 21: "without penalty".
                let after_misinformation = law.number == 21;
                let ui = if after_misinformation {
                    self.is_duplicate()
                        .then(|| Effect::UnauthorizedInformation { side: lho.side(), law: self.ui_law() })
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
                        vec![self.stands_effect(*lho_call)],
                    ),
                    Self::option(
                        OptionKind::WithdrawCall,
                        Chooser::OffendersLho,
                        Some(lho),
                        law,
                        CallRequirement::None,
                        std::iter::once(self.cancel_effect(*lho_call, law)).chain(ui).collect(),
                    ),
                ]
            }
            Stage::CardsExposed { cards, led, .. } => {
                let single_low = cards.len() == 1 && !cards[0].rank.is_honor() && !led;
                let mut enforce = vec![Effect::PenaltyCardsIfDefender { offender, cards: cards.clone(), led: *led }];
                let section = match (single_low, dup, cards.len() > 1 && !led) {
                    (true, _, _) => "A",
                    (false, true, true) => "C",
                    _ => "B",
                };
                if !single_low {
                    enforce.push(bar(partner, PassDuration::NextTurn, self.cite(24, section, section)));
                    enforce.push(self.damage(offender));
                }
                if dup {
                    enforce
                        .push(Effect::UnauthorizedInformation { side: offender.side(), law: Law::duplicate(24, "") });
                }
                let law = self.cite(24, section, section);
                let mut options =
                    vec![Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce)];
                if !dup {
                    options.push(self.waive_option(Vec::new()));
                    if self.turn() == lho && !self.is_closed() {
                        options.push(Self::option(
                            OptionKind::AcceptByCalling,
                            Chooser::OffendersLho,
                            Some(lho),
                            Law::rubber(15, "B"),
                            CallRequirement::AnyCall,
                            vec![Effect::CallMade { seat: lho, call: None }],
                        ));
                    }
                }
                options
            }
            Stage::Comparable { law, .. } => {
                let mut not_comparable = Vec::new();
                if law.number != 25 {
                    not_comparable.push(bar(partner, PassDuration::NextTurn, *law));
                }
                not_comparable.push(Effect::LeadPenalty { offender, rule: LeadPenaltyRule::Duplicate26B, law: *law });
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
                        *law,
                        CallRequirement::None,
                        not_comparable,
                    ),
                ]
            }
        }
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

    /// Law 27 after the insufficient bid was not accepted: the replacements the offender may
    /// make, each with its rectification.
    fn replacement_options(
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
        effects.extend([Effect::ScoreMayBeAdjusted { side: offender.side(), law: adjust_b }, made.clone()]);
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

    /// Laws 28B, 29, 30, 31, 32: a call out of rotation.
    fn out_of_rotation_options(&self, offender: Seat, entry: usize, turn_of: Seat) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let call = self.entries[entry].call;
        let position = TurnOf::of(offender, turn_of).unwrap_or(TurnOf::Partner);
        let dup = self.is_duplicate();
        let mut options = vec![Self::option(
            OptionKind::AcceptByCalling,
            Chooser::OffendersLho,
            Some(lho),
            self.cite(29, "A", "A"),
            CallRequirement::AnyCall,
            vec![self.stands_effect(entry), Effect::CallMade { seat: lho, call: None }],
        )];
        if position == TurnOf::RightHandOpponent {
            let law = self.cite(28, "B", "B");
            let mut effects = vec![self.cancel_effect(entry, law)];
            if dup {
                effects.push(Effect::UnauthorizedInformation { side: offender.side(), law: Law::duplicate(16, "C2") });
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
        if self.is_duplicate() {
            if call.is_double_or_redouble() {
                return if rho {
                    (Law::duplicate(32, "A"), vec![on_rho(Law::duplicate(32, "A1"), Law::duplicate(32, "A2"))])
                } else {
                    (Law::duplicate(32, "B"), comparable(Law::duplicate(32, "B")))
                };
            }
            if as_bid {
                return if rho {
                    (Law::duplicate(31, "A"), vec![on_rho(Law::duplicate(31, "A1"), Law::duplicate(31, "A2"))])
                } else {
                    (Law::duplicate(31, "B"), comparable(Law::duplicate(31, "B")))
                };
            }
            return if rho {
                let law = Law::duplicate(30, "A");
                (law, vec![bar(offender, PassDuration::NextTurn, law), self.damage(offender)])
            } else {
                (Law::duplicate(30, "B1"), comparable(Law::duplicate(30, "B1")))
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
                if rho {
                    (Law::rubber(32, "B"), vec![on_rho(Law::rubber(32, "B1"), Law::rubber(32, "B2"))])
                } else {
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
            }
            RecordedCall::Bid { .. } => {
                if rho {
                    (Law::rubber(31, "B"), vec![on_rho(Law::rubber(31, "B1"), Law::rubber(31, "B2"))])
                } else {
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

    /// Law 25: the options after a change of call.
    fn change_of_call_options(
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
                options.push(Self::option(
                    OptionKind::AcceptByCalling,
                    Chooser::OffendersLho,
                    Some(lho),
                    law,
                    CallRequirement::AnyCall,
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
            options.push(Self::option(
                OptionKind::AcceptByCalling,
                Chooser::OffendersLho,
                Some(lho),
                law,
                CallRequirement::AnyCall,
                vec![
                    self.cancel_effect(first, law),
                    self.stands_effect(second),
                    Effect::CallMade { seat: lho, call: None },
                ],
            ));
        }
        options
    }

    /// Law 21B1 (rubber and Club Law 21): the judgement of a change of call because of
    /// misinformation, and what each answer does.
    fn misinformation_options(
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

    // ----- applying an option -----

    /// Applies the effects of `option` to the pending irregularity, in order; calls are made
    /// last, once the rest is in place.
    pub(super) fn apply_option(
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

    // ----- contingencies -----

    /// After every action: while nothing is pending, resolves the contingencies whose trigger
    /// (a call by the right player) has happened.
    pub(super) fn settle(&mut self) {
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
    pub(super) fn unresolved_lead_penalties(&self) -> Vec<DueLeadPenalty> {
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
