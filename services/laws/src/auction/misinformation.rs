//! A call changed because of misinformation from an opponent (duplicate Law 21B; rubber and
//! Club Law 21), or the misinformation found too late to change it (Law 21B3). Digital and
//! recorded play alike: the explanations are human at either table. Apart from the rest of
//! recorded play because Law 21 applies at a digital table too.

use crate::cards::SuitSet;
use crate::irregularities::auction::{RecordedCall, ReservedAdjustment};
use crate::seat::Seat;

use super::{Auction, AuctionError, Recorded};

impl Auction {
    /// Law 21B (rubber and Club Law 21): `seat` changes his last call to `call` because of
    /// misinformation given him by `by`, an opponent. Digital and recorded play alike: the
    /// explanations are human at either table.
    ///
    /// Rubber Law 21: "Until the auction is closed, a player may, without penalty, change any
    /// call he may have made as a result of misinformation given him by an opponent, provided
    /// his partner has not subsequently called. If he elects to correct his call, his LHO may
    /// then, in turn and without penalty, change any subsequent call he may have made."
    /// Duplicate Law 21B1(a): "Until the end of the auction period (see Law 17D) and provided
    /// that his partner has not subsequently called, a player may change a call without other
    /// rectification for his side when the Director judges that the decision to make the call
    /// could well have been influenced by misinformation given to the player by an opponent."
    ///
    /// **Which call.** "Provided his partner has not subsequently called": in rotation only the
    /// player's last call can qualify (after any earlier call of his, his partner called), and
    /// at most one call stands after it, his left-hand opponent's. So the change is of his
    /// last call that stands.
    ///
    /// **The calls after it.** The Law withdraws only the changed call: the left-hand
    /// opponent's call over it is not cancelled but his to keep or change ("his LHO may then,
    /// in turn ... change any subsequent call he may have made"). It is held aside while the
    /// new call takes the changed call's place, then offered back to him
    /// ([`OptionKind::KeepCall`](crate::irregularities::auction::OptionKind::KeepCall) or [`OptionKind::WithdrawCall`](crate::irregularities::auction::OptionKind::WithdrawCall)); if it is no longer a legal
    /// call over the new one (an insufficient bid now, or a double of a pass), it cannot stand
    /// and is withdrawn, and he calls again, without penalty.
    ///
    /// **Whose judgement.** Whether the call "could well have been influenced by
    /// misinformation" is never guessed: the change awaits the judgement as a
    /// [`PendingIrregularity`](super::PendingIrregularity) of kind
    /// [`IrregularityKind::CallChangedAfterMisinformation`](crate::irregularities::auction::IrregularityKind::CallChangedAfterMisinformation),
    /// whose options are [`OptionKind::ChangeAfterMisinformation`](crate::irregularities::auction::OptionKind::ChangeAfterMisinformation) (the Director is to presume
    /// mistaken explanation rather than mistaken call absent evidence, Law 21B1(b)) and
    /// [`OptionKind::NoMisinformation`](crate::irregularities::auction::OptionKind::NoMisinformation) (Law 21A). The Director rules in duplicate, the Arbiter
    /// under the Club Laws ("When it is determined that misinformation has been given the
    /// Arbiter should be called", Club Law 21); in rubber bridge the players settle it.
    ///
    /// **Closed auction.** Under the duplicate Laws the change is allowed until the end of the
    /// auction period, so also in the Clarification Period (Law 17D1: until a defender faces
    /// the opening lead): the auction reopens. Whether the lead has been faced is the play's
    /// business: the caller refuses the change once it has. Under the rubber-bridge codes the
    /// change is allowed only "until the auction is closed".
    ///
    /// **Information.** Duplicate: Law 16C applies to the withdrawn calls (authorised for the
    /// non-offending side, unauthorised for the side that misinformed), recorded as a reserved
    /// adjustment against the misinforming side. Club Law 21: the Arbiter adjusts at the end of
    /// play if the non-offending side was damaged, also reserved. Rubber Law 21 gives the
    /// change "without penalty" and reserves nothing.
    ///
    /// Refused with [`AuctionError::NotMisinformedByOpponent`] (Law 21A) if `by` is not an
    /// opponent; [`AuctionError::NoCallToChange`] (Law 21) if `seat` has no call;
    /// [`AuctionError::TooLateToChange`] (Law 21B3; rubber and Club Law 21) if his partner has
    /// called since or, under the rubber-bridge codes, the auction is closed; the usual
    /// [`AuctionError::RectificationPending`] while an irregularity is pending; and with the
    /// Law the new call breaks if it is not a legal call in place of the changed one (the
    /// Laws give no procedure for an irregular replacement under Law 21).
    pub fn change_after_misinformation(
        &self,
        seat: Seat,
        call: RecordedCall,
        by: Seat,
    ) -> Result<Recorded, AuctionError> {
        if let RecordedCall::Bid { level: 0, denomination } = call {
            return Err(AuctionError::NotABid { level: 0, denomination, law: self.cite(18, "", "A") });
        }
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        if !by.is_opponent(seat) {
            return Err(AuctionError::NotMisinformedByOpponent { seat, by, law: self.cite(21, "", "A") });
        }
        let mut next = self.clone();
        next.open_misinformation_change(seat, call, by)?;
        Ok(Recorded::from_auction(next))
    }

    /// Like [`Auction::change_after_misinformation`], where the new call is artificial and
    /// relates to `relates_to` (see [`Auction::record_artificial`]).
    pub fn change_after_misinformation_artificial(
        &self,
        seat: Seat,
        call: RecordedCall,
        by: Seat,
        relates_to: SuitSet,
    ) -> Result<Recorded, AuctionError> {
        self.announcing(seat, call, relates_to).change_after_misinformation(seat, call, by).map(Recorded::announced)
    }

    /// Law 21B3 (rubber and Club Law 21): it is too late for `seat` to change a call he made
    /// because of misinformation given him by `by`, an opponent; "the Director judges that the
    /// offending side gained an advantage from the irregularity he awards an adjusted score".
    /// The adjustment is reserved against the misinforming side for the end of play (whether
    /// the side gained is the official's judgement, or the players' in rubber bridge).
    ///
    /// Refused with [`AuctionError::NotMisinformedByOpponent`] (Law 21A) if `by` is not an
    /// opponent.
    pub fn misinformation_too_late(&self, seat: Seat, by: Seat) -> Result<Auction, AuctionError> {
        if !by.is_opponent(seat) {
            return Err(AuctionError::NotMisinformedByOpponent { seat, by, law: self.cite(21, "", "A") });
        }
        let mut next = self.clone();
        next.reserve(ReservedAdjustment { offending_side: by.side(), law: self.misinformation_law("B3") });
        Ok(next)
    }
}
