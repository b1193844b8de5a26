//! The trusted path into the play: a card a journal kept, which the Laws accepted when it was
//! played, replayed as played (see [`crate::table::DealInProgress::apply_unchecked`]).

use super::record::Events;
use super::{Play, PlayError};
use crate::cards::Card;
use crate::seat::Seat;

impl Play {
    /// **Trusted input only** (a journal replaying what the Laws accepted): plays `card` for the
    /// hand due to play, as a legal card.
    ///
    /// Unlike [`Play::card`], the card is not judged against following suit (Law 44C), lead and
    /// play restrictions (Laws 26, 50, 51, 56, 57) or penalty cards (Laws 50, 52), and no revoke
    /// is noted: it was judged when it was played, by the rules of the day, and a later change to
    /// those rules must not unmake it. A revoke noted then stays noted, and earlier revokes become
    /// established as they would (Law 63A). For every card that [`Play::card`] accepts the result
    /// is the same. New cards always go through [`Play::card`].
    ///
    /// Refused where no card can be played at all: the play is over, suspended by a claim or
    /// waiting for a decision, or the card is not in the hand due to play.
    ///
    /// ```
    /// use laws::auction::{Auction, AuctionOutcome};
    /// use laws::play::Play;
    /// use laws::{Code, Deal, Seat};
    ///
    /// let deal: Deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765".parse()?;
    /// let auction = ["1S", "Pass", "Pass", "Pass"]
    ///     .iter()
    ///     .try_fold(Auction::new(Seat::North, Code::Rubber), |a, c| a.call(c.parse().unwrap()))?;
    /// let Some(AuctionOutcome::Contract(outcome)) = auction.outcome() else { unreachable!() };
    /// let play = Play::new(deal, outcome.contract, Code::Rubber, Vec::new(), Vec::new())?;
    /// // East leads the club ace; South, who holds clubs, discards a diamond: a revoke, which
    /// // today's Laws refuse. Replayed as the journal kept it, it stands as played.
    /// let play = play.card("CA".parse()?)?;
    /// assert!(play.card("DA".parse()?).is_err());
    /// let replayed = play.card_unchecked("DA".parse()?)?;
    /// assert_eq!(replayed.next_to_play(), Some(Seat::West));
    /// assert!(replayed.revokes().is_empty());
    /// // A legal card is the same either way; a card from another hand is refused.
    /// assert_eq!(play.card_unchecked("C8".parse()?)?, play.card("C8".parse()?)?);
    /// assert!(play.card_unchecked("SA".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn card_unchecked(&self, card: Card) -> Result<Play, PlayError> {
        self.ensure_can_play()?;
        let Some(seat) = self.next_to_play() else {
            return Err(PlayError::PlayOver { law: self.over_law() });
        };
        self.ensure_holds(seat, card)?;
        let mut next = self.successor();
        let trick = next.completed;
        next.establish(seat, trick, &mut Events::discard());
        next.put_card(seat, card, &mut Events::discard());
        next.remember_last_record(self, seat, card);
        Ok(next)
    }

    /// Refuses `card` unless it is in `seat`'s hand: in another hand it is a lead or play out of
    /// turn (Laws 53, 57); in none, it was played already (Law 45).
    pub(super) fn ensure_holds(&self, seat: Seat, card: Card) -> Result<(), PlayError> {
        if self.hands[seat.index()].contains(card) {
            return Ok(());
        }
        Err(match Seat::ALL.into_iter().find(|s| self.hands[s.index()].contains(card)) {
            Some(holder) => PlayError::NotYourTurn {
                card,
                holder,
                turn: seat,
                law: if self.current_trick().is_some_and(super::Trick::is_empty) {
                    self.cite(53, "", "A")
                } else {
                    self.cite(57, "", "")
                },
            },
            None => PlayError::CardAlreadyPlayed { card, law: self.cite(45, "", "") },
        })
    }
}
