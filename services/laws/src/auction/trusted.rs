//! The trusted path into the auction: a call a journal kept, which the Laws accepted when it was
//! made, replayed as made (see [`crate::table::DealInProgress::apply_unchecked`]).

use super::{Announcement, Auction, AuctionError, CallStatus};
use crate::cards::SuitSet;
use crate::contract::Call;
use crate::irregularities::auction::Restriction;

impl Auction {
    /// **Trusted input only** (a journal replaying what the Laws accepted): the player whose
    /// turn it is makes `call`, as a legal call in turn, artificial and relating to `relates_to`
    /// if given (duplicate Law 40; rubber Law 26A).
    ///
    /// Unlike [`Auction::call`], the call is not judged by Laws 18, 19, 27 and 36-37 nor against
    /// the restrictions rectifications left: it was judged when it was made, by the rules of the
    /// day, and a later change to those rules must not unmake it. For every call that
    /// [`Auction::call`] accepts the result is the same. New calls always go through
    /// [`Auction::call`].
    ///
    /// Refused only where no call can be added at all: after the auction closed (Law 39), or
    /// while an irregularity awaits rectification (rubber Law 13; duplicate Law 9B2).
    ///
    /// ```
    /// use laws::auction::Auction;
    /// use laws::{Code, Seat};
    ///
    /// let auction = Auction::new(Seat::North, Code::Duplicate).call("1S".parse()?)?;
    /// // Today's Laws refuse East's 1H (Law 27); a journal that kept it as accepted replays it.
    /// assert!(auction.call("1H".parse()?).is_err());
    /// let replayed = auction.call_unchecked("1H".parse()?, None)?;
    /// assert_eq!(replayed.to_string(), "N: 1S 1H");
    /// assert_eq!(replayed.next_to_call(), Some(Seat::South));
    /// // A legal call is the same either way.
    /// assert_eq!(auction.call_unchecked("2H".parse()?, None)?, auction.call("2H".parse()?)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn call_unchecked(&self, call: Call, relates_to: Option<SuitSet>) -> Result<Auction, AuctionError> {
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        if self.is_closed() {
            return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") });
        }
        let seat = self.turn();
        let mut next = self.clone();
        next.announcing =
            relates_to.map(|suits| Announcement { seat: Some(seat), call: call.into(), relates_to: suits });
        // As in turn: an obligation to repeat a call is spent by the call (rubber Laws 31B1, 32B1).
        next.restrictions.retain(|r| !matches!(r, Restriction::MustRepeat { seat: s, .. } if *s == seat));
        next.push_standing(seat, call.into(), CallStatus::Made);
        next.settle();
        next.announcing = None;
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use crate::auction::Auction;
    use crate::cards::{Suit, SuitSet};
    use crate::law::Code;
    use crate::seat::Seat;

    fn auction(code: Code, calls: &[&str]) -> Auction {
        calls.iter().fold(Auction::new(Seat::North, code), |a, c| a.call(c.parse().unwrap()).unwrap())
    }

    #[test]
    fn every_legal_call_replays_exactly_as_the_checked_call() {
        for code in [Code::Rubber, Code::Club, Code::Duplicate] {
            for prefix in [&[][..], &["1C"], &["1C", "X"], &["1C", "X", "XX", "Pass"], &["Pass", "Pass", "Pass"]] {
                let auction = auction(code, prefix);
                for call in auction.legal_calls() {
                    assert_eq!(auction.call_unchecked(call, None).unwrap(), auction.call(call).unwrap(), "{call}");
                }
            }
        }
    }

    #[test]
    fn an_artificial_call_keeps_the_suits_it_relates_to() {
        let auction = auction(Code::Duplicate, &["1NT"]);
        let stayman = SuitSet::from_iter([Suit::Hearts, Suit::Spades]);
        let replayed = auction.call_unchecked("Pass".parse().unwrap(), None).unwrap();
        let replayed = replayed.call_unchecked("2C".parse().unwrap(), Some(stayman)).unwrap();
        assert_eq!(replayed.calls().last().map(|e| e.relates_to), Some(Some(stayman)));
    }

    #[test]
    fn no_call_is_added_to_a_closed_auction() {
        let closed = auction(Code::Rubber, &["1H", "Pass", "Pass", "Pass"]);
        let error = closed.call_unchecked("1S".parse().unwrap(), None).unwrap_err();
        assert_eq!(crate::law::CitesLaw::law(&error).number, 39);
    }
}
