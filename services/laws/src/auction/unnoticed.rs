//! Recorded play: a double or redouble Law 19 does not permit, made in turn, that nobody
//! noticed. It stands as the players saw it until attention is drawn to it: during the auction
//! period Law 36 rectifies it (rubber Laws 35A and 36); after the opening lead was faced
//! duplicate Law 36C scores the contract as if it had not been made. Apart from the other
//! recorded calls because such a call stands until attention is drawn to it, possibly after the
//! auction.

use crate::contract::{Call, Contract, DeclaredContract, Doubling};
use crate::irregularities::auction::{RecordedCall, Restriction};
use crate::seat::Seat;

use super::{Auction, AuctionError, AuctionOutcome, CallEntry, CallStatus, InTurn, Recorded};

impl Auction {
    /// Recorded play: `seat`, in turn, made a double or redouble that Law 19 does not permit
    /// and nobody drew attention to it. It is recorded as
    /// [`CallStatus::Unnoticed`] and the auction goes on over it; the next calls are judged as
    /// the players made them. If attention is drawn later in the auction period,
    /// [`Auction::draw_attention_to`] applies Law 36 (rubber Laws 35A and 36); if only after
    /// the opening lead, [`Auction::contract_to_score_if_found_after_opening_lead`] gives the
    /// contract duplicate Law 36C scores.
    ///
    /// Any other call (legal, an irregularity of another kind, or an inadmissible double or
    /// redouble out of rotation, which "may never be accepted", duplicate Law 32) is recorded
    /// exactly as [`Auction::record`] records it: the Laws condone or rectify those by the next
    /// call.
    pub fn record_unnoticed(&self, seat: Seat, call: RecordedCall) -> Result<Recorded, AuctionError> {
        let unnoticed = self.pending.is_none() && !self.is_closed() && seat == self.turn();
        if unnoticed && let InTurn::Inadmissible(fault) = self.judge_in_turn(seat, call) {
            let mut next = self.clone();
            let law = self.cite(36, "", "C");
            next.restrictions.retain(|r| !matches!(r, Restriction::MustRepeat { seat: s, .. } if *s == seat));
            next.push_standing(seat, call, CallStatus::Unnoticed { fault, law });
            next.settle();
            return Ok(Recorded::from_auction(next));
        }
        self.record(seat, call)
    }

    /// Recorded play: attention is drawn, during the auction period (before the opening lead is
    /// faced), to the inadmissible double or redouble at `entry` of [`Auction::calls`] that was
    /// recorded unnoticed ([`Auction::record_unnoticed`]).
    ///
    /// If nobody has called since, it is the ordinary Law 36 case, with its options. If the
    /// offender's left-hand opponent has called over it, duplicate Law 36A: "If offender's LHO
    /// calls before rectification of an inadmissible double or redouble the inadmissible call
    /// and all subsequent calls are cancelled. The auction reverts to the player whose turn it
    /// was to call and proceeds as though there had been no irregularity. The lead
    /// restrictions in Law 26B do not apply." (rubber Laws 35A and 36 alike); that holds even
    /// when the auction had closed, so it reopens. The one option offered is to apply it.
    pub fn draw_attention_to(&self, entry: usize) -> Result<Recorded, AuctionError> {
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        let Some(&CallEntry { seat, call, status: CallStatus::Unnoticed { fault, .. }, .. }) = self.entries.get(entry)
        else {
            return Err(AuctionError::NotUnnoticed { entry, law: self.cite(36, "", "") });
        };
        let mut next = self.clone();
        next.open_unnoticed(entry, seat, call, fault);
        Ok(Recorded::from_auction(next))
    }

    /// Duplicate Law 36C: "When attention is drawn to an inadmissible double or redouble only
    /// after the opening lead has been faced, the final contract is scored as if the
    /// inadmissible call had not been made."
    ///
    /// For a closed auction with a contract and nothing pending: the contract to score if
    /// attention is drawn to its unnoticed inadmissible doubles and redoubles
    /// ([`CallStatus::Unnoticed`]) only after the opening lead was faced (whether it was is
    /// the play's business). The doubling is recomputed without them; a double or redouble
    /// that Law 19 permits only because of one (a redouble of an inadmissible double) goes with
    /// it. With no unnoticed call this is the contract of [`Auction::outcome`].
    ///
    /// `None` under the rubber-bridge codes: their Law 36 has no section C (it cancels the
    /// inadmissible call and all later calls with no limit of time), and the Laws do not say
    /// what happens once the play has begun, so the question is for the players or the
    /// arbiter, not for the engine.
    pub fn contract_to_score_if_found_after_opening_lead(&self) -> Option<DeclaredContract> {
        if !self.is_duplicate() {
            return None;
        }
        let Some(AuctionOutcome::Contract(outcome)) = self.outcome() else { return None };
        let (bid_entry, bidder, bid) = self.last_bid_entry()?;
        let mut doubling = Doubling::Undoubled;
        let mut doubler = None;
        for (i, seat, call) in self.standing().filter(|(i, ..)| *i > bid_entry) {
            if matches!(self.entries[i].status, CallStatus::Unnoticed { .. }) {
                continue;
            }
            match call {
                Call::Double if doubling == Doubling::Undoubled && seat.is_opponent(bidder) => {
                    doubling = Doubling::Doubled;
                    doubler = Some(seat);
                }
                Call::Redouble if doubling == Doubling::Doubled && doubler.is_some_and(|d| seat.is_opponent(d)) => {
                    doubling = Doubling::Redoubled;
                }
                _ => {}
            }
        }
        Some(DeclaredContract { contract: Contract::new(bid, doubling), declarer: outcome.contract.declarer })
    }
}
