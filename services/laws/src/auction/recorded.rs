//! Recorded play: what really happened at a table with physical cards, irregularities
//! included. A call, a change of call, cards exposed, simultaneous calls and the choice of a
//! rectification, each judged by the Laws; an irregularity awaits its rectification as a
//! [`PendingIrregularity`]. Apart from digital play ([`Auction::call`]), which only refuses.

use crate::cards::{Card, SuitSet};
use crate::irregularities::auction::{AuctionChoice, AuctionOption, Effect, Irregularity, OptionKind, RecordedCall};
use crate::seat::Seat;

use super::rectify::Stage;
use super::{Announcement, Auction, AuctionError};

/// An irregularity awaiting rectification: what happened and the options the Laws give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingIrregularity {
    pub(super) irregularity: Irregularity,
    pub(super) options: Vec<AuctionOption>,
    pub(super) stage: Stage,
}

impl PendingIrregularity {
    /// What happened, and the Law.
    pub fn irregularity(&self) -> &Irregularity {
        &self.irregularity
    }

    /// The options the Laws give at this point, each with its chooser, Law and effects.
    pub fn options(&self) -> &[AuctionOption] {
        &self.options
    }

    /// The option of this kind, if offered.
    pub fn option(&self, kind: OptionKind) -> Option<&AuctionOption> {
        self.options.iter().find(|o| o.kind == kind)
    }
}

/// What [`Auction::record`] made of a recorded call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// The call was made (legal and in turn, deemed in rotation, or condoning an
    /// irregularity) and nothing awaits rectification.
    Made(Auction),
    /// An irregularity awaits rectification (this call's, or a ruling it called for):
    /// see [`Auction::pending`].
    AwaitingRectification(Auction),
}

impl Recorded {
    pub(super) fn from_auction(auction: Auction) -> Recorded {
        if auction.pending.is_some() { Recorded::AwaitingRectification(auction) } else { Recorded::Made(auction) }
    }

    /// The same outcome with the announcement of an artificial call spent.
    pub(super) fn announced(self) -> Recorded {
        let mut auction = self.into_auction();
        auction.announcing = None;
        Recorded::from_auction(auction)
    }

    /// The auction after the call.
    pub fn auction(&self) -> &Auction {
        match self {
            Recorded::Made(a) | Recorded::AwaitingRectification(a) => a,
        }
    }

    /// The auction after the call, by value.
    pub fn into_auction(self) -> Auction {
        match self {
            Recorded::Made(a) | Recorded::AwaitingRectification(a) => a,
        }
    }
}

impl Auction {
    /// Recorded play: `seat` made `call` at the table, in turn or not, legal or not.
    ///
    /// A legal call in turn is simply made. A call by the player to act while an irregularity
    /// is pending is accepted where the Law makes that call condone it (the offender's
    /// left-hand opponent accepting an insufficient bid, Law 27A, or a call out of rotation,
    /// Law 29A; the player in turn calling over an opponent's call out of rotation, Law 28B;
    /// the left-hand opponent calling before rectification of an inadmissible call, Laws
    /// 35-39; duplicate Law 25B1), or where the offender replaces his insufficient bid
    /// prematurely (rubber Law 27 footnote 9, duplicate Law 27C); any other call while
    /// something is pending is refused (rubber Law 13, duplicate Law 9B2). Anything else
    /// irregular becomes a pending irregularity with its options.
    pub fn record(&self, seat: Seat, call: RecordedCall) -> Result<Recorded, AuctionError> {
        if let RecordedCall::Bid { level: 0, denomination } = call {
            return Err(AuctionError::NotABid { level: 0, denomination, law: self.cite(18, "", "A") });
        }
        let mut next = self.clone();
        if self.pending.is_some() {
            next.call_while_pending(seat, call)?;
        } else {
            next.make_call(seat, call)?;
        }
        next.settle();
        Ok(Recorded::from_auction(next))
    }

    /// Recorded play: like [`Auction::record`], for an artificial call, one that relates to
    /// the suit or suits `relates_to` rather than to the denomination it names (or to no suit,
    /// given [`SuitSet::EMPTY`]), as the partnership's methods disclose (duplicate Law 40).
    ///
    /// The suits are kept on the call's entry ([`CallEntry::relates_to`](super::CallEntry::relates_to)) and used wherever the
    /// Laws ask what a call specifies: rubber Law 26A ("When the irregular call artificially
    /// relates to a denomination other than the one actually named, 'such suit' is the suit or
    /// suits to which the call relates"), rubber Law 27A (an artificial insufficient bid has no
    /// correction "in the same denomination"), duplicate Law 26B ("any suit which has not been
    /// specified in the legal auction by the offender") and duplicate Law 27B1(a) ("the lowest
    /// sufficient bid which specifies the same denomination(s) as that specified by the
    /// withdrawn call"). Whether a call is artificial, and what it shows, is the players' (or
    /// the official's) statement of fact; the engine does not judge it.
    pub fn record_artificial(
        &self,
        seat: Seat,
        call: RecordedCall,
        relates_to: SuitSet,
    ) -> Result<Recorded, AuctionError> {
        self.announcing(seat, call, relates_to).record(seat, call).map(Recorded::announced)
    }

    /// A copy of the auction that marks `seat`'s next `call` as artificial, relating to
    /// `relates_to`, when it is entered.
    pub(super) fn announcing(&self, seat: Seat, call: RecordedCall, relates_to: SuitSet) -> Auction {
        let mut announcing = self.clone();
        announcing.announcing = Some(Announcement { seat: Some(seat), call, relates_to });
        announcing
    }

    /// Recorded play: like [`Auction::change_call`], where the substituted call is artificial
    /// and relates to `relates_to` (see [`Auction::record_artificial`]).
    pub fn change_call_artificial(
        &self,
        seat: Seat,
        call: RecordedCall,
        relates_to: SuitSet,
    ) -> Result<Recorded, AuctionError> {
        self.announcing(seat, call, relates_to).change_call(seat, call).map(Recorded::announced)
    }

    /// Like [`Auction::rectify`], where the call the choice carries is artificial and relates
    /// to `relates_to` (see [`Auction::record_artificial`]): an artificial replacement of an
    /// insufficient bid (rubber Law 27A admits none; duplicate Law 27B1(a) admits one that
    /// specifies the same suits), or an artificial call condoning an irregularity.
    pub fn rectify_artificial(&self, choice: AuctionChoice, relates_to: SuitSet) -> Result<Auction, AuctionError> {
        let Some(call) = choice.call else {
            let requirement = self.pending.as_ref().and_then(|p| p.option(choice.option)).map(|o| (o.call, o.law));
            return match requirement {
                Some((requirement, law)) => Err(AuctionError::WrongCallForOption { requirement, law }),
                None => self.rectify(choice),
            };
        };
        // The player who makes the call the option carries.
        let seat = self.pending.as_ref().and_then(|p| p.option(choice.option)).and_then(|o| {
            o.effects.iter().find_map(|e| match e {
                Effect::CallMade { seat, call: None } | Effect::ChoiceCallCancelled { seat, .. } => Some(*seat),
                _ => None,
            })
        });
        let mut announcing = self.clone();
        announcing.announcing = Some(Announcement { seat, call: call.into(), relates_to });
        let mut next = announcing.rectify(choice)?;
        next.announcing = None;
        Ok(next)
    }

    /// Law 33: `other_seat` called at the same moment as the player whose turn it was; his
    /// call is deemed to come after the in-turn call, so both are recorded in that order.
    pub fn record_simultaneous(
        &self,
        in_turn_call: RecordedCall,
        other_seat: Seat,
        other_call: RecordedCall,
    ) -> Result<Recorded, AuctionError> {
        let first = self.record(self.turn(), in_turn_call)?.into_auction();
        first.record(other_seat, other_call)
    }

    /// Recorded play, Law 25: `seat` substitutes `call` for his last call (at the same turn;
    /// or, under duplicate Law 25A, before his partner has called and before the end of the
    /// auction period, to replace an unintended call).
    pub fn change_call(&self, seat: Seat, call: RecordedCall) -> Result<Recorded, AuctionError> {
        if let RecordedCall::Bid { level: 0, denomination } = call {
            return Err(AuctionError::NotABid { level: 0, denomination, law: self.cite(18, "", "A") });
        }
        if let Some(pending) = &self.pending {
            // A change of a call still awaiting rectification is a premature replacement,
            // which only an insufficient bid's Law provides for.
            return match pending.stage {
                Stage::InsufficientBid { entry, .. } if self.entries[entry].seat == seat => self.record(seat, call),
                _ => Err(self.pending_error(pending)),
            };
        }
        let mut next = self.clone();
        next.open_change_of_call(seat, call)?;
        next.settle();
        Ok(Recorded::from_auction(next))
    }

    /// Recorded play, Law 24: during the auction `seat` faced `cards` on the table or held
    /// them where his partner could see them; `led` if he led one prematurely.
    pub fn expose_cards(&self, seat: Seat, cards: &[Card], led: bool) -> Result<Recorded, AuctionError> {
        if self.is_closed() {
            return Err(AuctionError::ExposedAfterAuction { law: self.cite(49, "", "") });
        }
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        let distinct = cards.iter().copied().collect::<crate::cards::CardSet>().len() == cards.len();
        if cards.is_empty() || !distinct {
            return Err(AuctionError::NoCardsExposed { law: self.cite(24, "", "") });
        }
        let mut next = self.clone();
        next.open_exposure(seat, cards.to_vec(), led);
        Ok(Recorded::from_auction(next))
    }

    /// Applies the option chosen for the pending irregularity, checking that it is one of the
    /// options offered and that the call it carries meets the option's requirement (for
    /// example a sufficient bid or a pass in place of an insufficient bid, Law 27).
    pub fn rectify(&self, choice: AuctionChoice) -> Result<Auction, AuctionError> {
        let Some(pending) = &self.pending else {
            return Err(AuctionError::NothingToRectify { law: self.cite_procedure() });
        };
        let Some(option) = pending.option(choice.option) else {
            return Err(AuctionError::OptionNotOffered { option: choice.option, law: pending.irregularity.law });
        };
        self.check_requirement(option, choice.call)?;
        self.check_same_denominations(option, &pending.stage, choice.call)?;
        let option = option.clone();
        let mut next = self.clone();
        next.apply_option(&option, choice.call.map(RecordedCall::from))?;
        next.settle();
        Ok(next)
    }
}
