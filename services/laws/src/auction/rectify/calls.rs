//! Recording a call: judged against rotation, sufficiency, Law 19 and the restrictions in
//! force; opened as a pending irregularity with its stage, or made. Also the bookkeeping every
//! rectification shares: calls that stand (with Law 34), restrictions, lead penalties due and
//! adjustments reserved. Apart from the options of each Law because every Law starts from the
//! call recorded here.

use crate::auction::{Auction, AuctionError, CallEntry, CallStatus, ExposedCards, InTurn};
use crate::cards::Card;
use crate::irregularities::auction::{
    AfterCloseRole, DoubleFault, Irregularity, IrregularityKind, OptionKind, PassDuration, RecordedCall,
    ReservedAdjustment, Restriction, TurnOf,
};
use crate::law::Law;
use crate::penalty::LeadPenalty;
use crate::seat::Seat;

use super::{DueLeadPenalty, Stage};

impl Auction {
    /// Judges and makes a call with nothing pending.
    pub(in crate::auction) fn make_call(&mut self, seat: Seat, call: RecordedCall) -> Result<(), AuctionError> {
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
    pub(in crate::auction) fn call_while_pending(
        &mut self,
        seat: Seat,
        call: RecordedCall,
    ) -> Result<(), AuctionError> {
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
    pub(in crate::auction) fn open_change_of_call(
        &mut self,
        seat: Seat,
        call: RecordedCall,
    ) -> Result<(), AuctionError> {
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
    pub(in crate::auction) fn open_misinformation_change(
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

    /// Law 24: cards exposed during the auction.
    pub(in crate::auction) fn open_exposure(&mut self, seat: Seat, cards: Vec<Card>, led: bool) {
        self.exposures.push(ExposedCards { seat, cards: cards.clone(), led });
        let kind = IrregularityKind::CardsExposed { cards: cards.clone(), led };
        let irregularity = Irregularity { offender: seat, call: None, kind, law: self.cite(24, "", "") };
        let stage = Stage::CardsExposed { offender: seat, cards, led };
        self.pending = Some(self.pending_for(irregularity, stage));
    }

    pub(super) fn push_pending(&mut self, seat: Seat, call: RecordedCall) -> usize {
        let relates_to =
            self.announcing.filter(|a| a.call == call && a.seat.is_none_or(|s| s == seat)).map(|a| a.relates_to);
        self.entries.push(CallEntry { seat, call, status: CallStatus::Pending, relates_to });
        self.entries.len() - 1
    }

    /// Attention drawn to the unnoticed inadmissible call at `entry`: Law 36 if nobody has
    /// called since, Law 36A (rubber Laws 35A, 36) if the left-hand opponent has.
    pub(in crate::auction) fn open_unnoticed(
        &mut self,
        entry: usize,
        seat: Seat,
        call: RecordedCall,
        fault: DoubleFault,
    ) {
        let kind = IrregularityKind::InadmissibleDouble { fault, out_of_rotation: false };
        let called_over = self.entries[entry + 1..].iter().any(|e| e.status.stands());
        if !called_over {
            self.entries[entry].status = CallStatus::Pending;
            self.open(seat, call, kind, Stage::Inadmissible { entry, turn_of: seat });
        } else {
            self.open(seat, call, kind, Stage::InadmissibleCondoned { entry });
        }
    }

    pub(in crate::auction) fn push_standing(&mut self, seat: Seat, call: RecordedCall, status: CallStatus) {
        let entry = self.push_pending(seat, call);
        self.stand(entry, status);
    }

    /// The call at `entry` becomes part of the legal auction: the caller's next-turn
    /// restrictions are spent, and Law 34 is applied if it ends the auction.
    pub(super) fn stand(&mut self, entry: usize, status: CallStatus) {
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

    pub(in crate::auction) fn reserve(&mut self, adjustment: ReservedAdjustment) {
        if !self.adjustments.contains(&adjustment) {
            self.adjustments.push(adjustment);
        }
    }

    pub(super) fn restrict(&mut self, restriction: Restriction) {
        if !self.restrictions.contains(&restriction) {
            self.restrictions.push(restriction);
        }
    }

    pub(super) fn due(&mut self, offender: Seat, penalty: Option<LeadPenalty>, law: Law) {
        let due = DueLeadPenalty { offender, penalty, law };
        if !self.lead_penalties.contains(&due) {
            self.lead_penalties.push(due);
        }
    }

    /// The declaring side, once the auction is closed with a contract.
    fn outcome_declarer_side(&self) -> Option<crate::seat::Side> {
        self.last_bid_entry().map(|(_, seat, _)| seat.side())
    }
}
