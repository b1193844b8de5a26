//! A surplus card found on a trick older than the one just completed: a later lead has closed it
//! (rubber Law 12B2, "or had been played to a previous trick"; the Club Laws keep it; duplicate
//! Law 13C, a quitted trick). Apart from the surplus card in the trick in progress because the
//! offender cannot play his substitute in turn: the table tells the engine which card of his he
//! puts in its place, and the engine checks it and rewrites the old trick.

use crate::cards::Card;
use crate::law::Code;
use crate::seat::Seat;

use super::record::{Events, PlayEvent, Recorded};
use super::{Play, PlayError, winner};

impl Play {
    /// Records that `offender`'s card `card` on trick `trick` (0-12), a trick a later lead has
    /// closed, was a surplus card, and that he puts `substitute`, a card of his hand, in its place.
    ///
    /// Rubber Law 12B2: "if the surplus card has been led or played, or had been played to a
    /// previous trick, the offender must substitute for it a card from his hand that he can legally
    /// play to the trick, and, if possible, a card of the same suit as the surplus card. The
    /// offending side may not thereby win a trick it had lost, but it may lose a trick it had won."
    /// The right of the non-offenders to change their plays lasts only "before the lead to the
    /// next trick", so there is none here. Duplicate Law 13C: the card is removed and the play
    /// continues "without further rectification"; the Director may adjust the score, as the trick
    /// was quitted.
    ///
    /// - The card recorded as his on that trick is one he still holds (the surplus card only
    ///   looked like it): it goes back to his hand, and `substitute`, from his hand so completed,
    ///   takes its place in the order of play.
    /// - `substitute` must be a card he can legally play to that trick: of the suit led to it if
    ///   he holds one now; rubber and Club, of the surplus card's suit if he holds one he may so
    ///   play. When he led to the trick, it must be of the suit led (another suit would make the
    ///   other cards follow a suit never led).
    /// - The trick then goes to whoever wins it as the cards lie, except that under the rubber Law
    ///   a trick the non-offenders had won stays theirs.
    /// - His failures to follow suit from that trick on are judged again on his hand as it now
    ///   was (Law 61), as when a card goes back to the hand under Law 67B2.
    /// - Duplicate: an adjustment is reserved against the offending side (Law 13C).
    ///
    /// Refused, naming the Law, while a decision is pending, a claim is considered or play is
    /// over; for a trick not older than the one just completed (see [`Play::surplus_card`]); and
    /// for a substitute that is not his or not one the Law allows.
    pub fn surplus_card_on_older_trick(
        &self,
        offender: Seat,
        card: Card,
        trick: u8,
        substitute: Card,
    ) -> Result<Recorded, PlayError> {
        self.ensure_can_play()?;
        let law = self.surplus_law();
        let t = trick as usize;
        let cur = self.cur();
        let closed = t + 1 < cur || (t + 1 == cur && self.tricks.get(cur).is_some_and(|next| !next.is_empty()));
        if !closed {
            return Err(PlayError::CannotRecord { what: "a surplus card on a trick no later lead has closed", law });
        }
        let Some(recorded) = self.tricks[t].card(offender).filter(|c| *c == card) else {
            return Err(PlayError::CannotRecord { what: "a surplus card he did not play to that trick", law });
        };
        let hand = self.hands[offender.index()].with(recorded);
        if !hand.contains(substitute) {
            return Err(PlayError::CardNotHeld { seat: offender, card: substitute, law });
        }
        let played = self.tricks[t];
        let led = played.suit_led().filter(|_| played.leader() != offender);
        let legal = |card: Card| led.is_none_or(|suit| !hand.has_suit(suit) || card.suit == suit);
        let surplus_suit = recorded.suit;
        let wanted = match self.code {
            Code::Duplicate => None,
            _ => Some(surplus_suit).filter(|suit| hand.iter().any(|c| c.suit == *suit && legal(c))),
        };
        let leads_another_suit = played.leader() == offender && substitute.suit != surplus_suit;
        if !legal(substitute) || wanted.is_some_and(|suit| substitute.suit != suit) || leads_another_suit {
            return Err(PlayError::CannotRecord {
                what: "a substitute the Law does not allow for the surplus card",
                law,
            });
        }
        let mut next = self.successor();
        let mut events = Events::keep();
        let position = played.position(offender).unwrap_or(0);
        let had = played.winner();
        next.tricks[t].put_at(offender, substitute, position);
        let now = winner(played.leader(), &next.tricks[t].cards(), self.trumps()).or(had);
        let owner = match (had, now) {
            // "The offending side may not thereby win a trick it had lost."
            (Some(had), Some(now))
                if self.code != Code::Duplicate && had.side() != offender.side() && now.side() == offender.side() =>
            {
                had
            }
            (_, Some(now)) => now,
            (Some(had), None) => had,
            (None, None) => played.leader(),
        };
        next.tricks[t].award(owner);
        next.hands[offender.index()] = hand.without(substitute);
        events.push(PlayEvent::CardWithdrawn { seat: offender, card: recorded, trick, law });
        events.push(PlayEvent::CardPlayed { seat: offender, card: substitute, trick });
        next.judge_revokes_again(offender, t);
        if self.code == Code::Duplicate {
            // Law 13C: "unless such a card is found to have been played to a quitted trick".
            next.reserve(offender.side(), law);
        }
        next.settle();
        Ok(Recorded { play: next, events: events.into_vec() })
    }
}
