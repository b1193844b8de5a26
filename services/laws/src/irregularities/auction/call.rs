//! A call as a player really made it ([`RecordedCall`]) and what the Laws ask of it: whose turn
//! it was ([`TurnOf`]), why Law 19 forbids a double ([`DoubleFault`]), who called after the
//! close ([`AfterCloseRole`]) and what it specifies (Laws 26 and 27). Apart from the
//! irregularities because every call recorded is one, irregular or not.

use std::fmt;

use crate::cards::SuitSet;
use crate::contract::{Bid, Call, Denomination};
use crate::seat::Seat;

/// A call as a player really made it at the table (recorded play).
///
/// Unlike [`Call`] it can name a level above seven (Law 38). Who made it, and whether it was
/// his turn, in rotation, sufficient, admissible or after the close, is judged by
/// [`crate::auction::Auction::record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordedCall {
    /// Pass.
    Pass,
    /// Double.
    Double,
    /// Redouble.
    Redouble,
    /// A bid of the level the player named, in a denomination. Levels 1-7 are bids (Law 18A);
    /// a level above seven is the irregularity of Law 38; level 0 names no bid at all and is
    /// refused by the auction.
    Bid {
        /// The level named.
        level: u8,
        /// The denomination named.
        denomination: Denomination,
    },
}

impl RecordedCall {
    /// The call as the Laws know calls (Definitions, Law 18A): `None` for a bid outside 1-7.
    pub const fn legal(self) -> Option<Call> {
        match self {
            RecordedCall::Pass => Some(Call::Pass),
            RecordedCall::Double => Some(Call::Double),
            RecordedCall::Redouble => Some(Call::Redouble),
            RecordedCall::Bid { level, denomination } => match Bid::new(level, denomination) {
                Some(bid) => Some(Call::Bid(bid)),
                None => None,
            },
        }
    }

    /// The denomination named, if the call is a bid (Law 18).
    pub const fn denomination(self) -> Option<Denomination> {
        match self {
            RecordedCall::Bid { denomination, .. } => Some(denomination),
            _ => None,
        }
    }

    /// Whether the call is a pass.
    pub const fn is_pass(self) -> bool {
        matches!(self, RecordedCall::Pass)
    }

    /// Whether the call is a double or a redouble (Law 19).
    pub const fn is_double_or_redouble(self) -> bool {
        matches!(self, RecordedCall::Double | RecordedCall::Redouble)
    }
}

impl From<Call> for RecordedCall {
    fn from(call: Call) -> RecordedCall {
        match call {
            Call::Pass => RecordedCall::Pass,
            Call::Double => RecordedCall::Double,
            Call::Redouble => RecordedCall::Redouble,
            Call::Bid(bid) => RecordedCall::Bid { level: bid.level(), denomination: bid.denomination() },
        }
    }
}

impl From<Bid> for RecordedCall {
    fn from(bid: Bid) -> RecordedCall {
        RecordedCall::from(Call::Bid(bid))
    }
}

impl fmt::Display for RecordedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordedCall::Pass => f.write_str("Pass"),
            RecordedCall::Double => f.write_str("X"),
            RecordedCall::Redouble => f.write_str("XX"),
            RecordedCall::Bid { level, denomination } => write!(f, "{level}{denomination}"),
        }
    }
}

/// Whose turn it was when a call out of rotation was made, seen from the offender (Laws 30-32
/// rectify differently at the offender's right-hand opponent's, partner's or left-hand
/// opponent's turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnOf {
    /// The offender's right-hand opponent was to call (Law 30A, 31B rubber / 31A duplicate, 32B
    /// rubber / 32A duplicate).
    RightHandOpponent,
    /// The offender's partner was to call (Law 30B, 31A rubber / 31B duplicate, 32A rubber /
    /// 32B duplicate).
    Partner,
    /// The offender's left-hand opponent was to call and the offender had not called before
    /// (rubber Law 31A "before any player has called when offender's LHO was the dealer";
    /// duplicate Laws 30B1 and 31B).
    LeftHandOpponent,
}

impl TurnOf {
    /// The relation of `turn` to `offender`; `None` if they are the same seat.
    pub const fn of(offender: Seat, turn: Seat) -> Option<TurnOf> {
        match (turn.index() + 4 - offender.index()) % 4 {
            1 => Some(TurnOf::LeftHandOpponent),
            2 => Some(TurnOf::Partner),
            3 => Some(TurnOf::RightHandOpponent),
            _ => None,
        }
    }
}

impl fmt::Display for TurnOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnOf::RightHandOpponent => "at his right-hand opponent's turn",
            TurnOf::Partner => "at his partner's turn",
            TurnOf::LeftHandOpponent => "at his left-hand opponent's turn",
        })
    }
}

/// Why a double or redouble is not permitted by Law 19 (Law 19A1/B1 of duplicate; Law 19 of
/// rubber bridge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleFault {
    /// Nobody has bid: there is no bid to double.
    NoBid,
    /// The last bid was made by the doubler's own side, not by an opponent.
    OwnSideBid,
    /// The last bid has already been doubled or redoubled: a call other than pass intervened.
    AlreadyDoubled,
    /// The last bid has not been doubled: there is no double to redouble.
    NoDouble,
    /// The double was made by the redoubler's own side, not by an opponent.
    OwnSideDouble,
    /// The double has already been redoubled.
    AlreadyRedoubled,
}

impl fmt::Display for DoubleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DoubleFault::NoBid => "there is no bid to double",
            DoubleFault::OwnSideBid => "the last bid was made by his own side",
            DoubleFault::AlreadyDoubled => "the last bid has already been doubled",
            DoubleFault::NoDouble => "there is no double to redouble",
            DoubleFault::OwnSideDouble => "the double was made by his own side",
            DoubleFault::AlreadyRedoubled => "the double has already been redoubled",
        })
    }
}

/// What the player who called after the close of the auction turned out to be (Law 39: the
/// rectification differs for a defender and for the declaring side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AfterCloseRole {
    /// The future declarer or dummy.
    DeclaringSide,
    /// A future defender.
    Defender,
    /// The deal was passed out: there is no declarer and no defender.
    PassedOut,
}

/// What a call specifies, the one notion behind rubber Law 26 ("the changed call was in a
/// suit ... did not repeat that suit"; "When the irregular call artificially relates to a
/// denomination other than the one actually named, 'such suit' is the suit or suits to which
/// the call relates"), duplicate Law 26B ("any suit which has not been specified in the legal
/// auction by the offender") and duplicate Law 27B1(a) ("specifies the same denomination(s)").
///
/// A natural bid specifies the denomination it names (Law 18A); an artificial call specifies
/// the suit or suits it relates to, whatever it names; a natural pass, double or redouble
/// specifies no denomination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Specifies {
    /// One or more suits.
    Suits(SuitSet),
    /// Notrump (a natural notrump bid).
    NoTrump,
    /// No denomination: a natural pass, double or redouble, or an artificial call that relates
    /// to no suit.
    Nothing,
}

impl Specifies {
    /// What `call` specifies; `relates_to` is `Some` for an artificial call, with the suits it
    /// relates to.
    pub(crate) fn of(call: RecordedCall, relates_to: Option<SuitSet>) -> Specifies {
        match (relates_to, call) {
            (Some(suits), _) if suits.is_empty() => Specifies::Nothing,
            (Some(suits), _) => Specifies::Suits(suits),
            (None, RecordedCall::Bid { denomination, .. }) => match denomination.trump() {
                Some(suit) => Specifies::Suits(SuitSet::single(suit)),
                None => Specifies::NoTrump,
            },
            (None, _) => Specifies::Nothing,
        }
    }

    /// The suits specified (none for notrump or no denomination).
    pub(crate) fn suits(self) -> SuitSet {
        match self {
            Specifies::Suits(suits) => suits,
            Specifies::NoTrump | Specifies::Nothing => SuitSet::EMPTY,
        }
    }
}
