//! What a rectification leaves in force on later calls ([`Restriction`]) and the adjustments it
//! reserves for the end of play ([`ReservedAdjustment`]). Apart because they outlive the option
//! that imposed them.

use std::fmt;

use crate::contract::Bid;
use crate::law::Law;
use crate::seat::{Seat, Side};

use super::RecordedCall;

/// How long a player must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassDuration {
    /// "when next it is his turn to call" (Laws 24B, 25B, 30A, 31B2, 32B2 ...).
    NextTurn,
    /// "whenever it is his turn to call" / "during the remainder of the auction" (Laws 27C,
    /// 30B, 31A, 32A, 36, 37, 38 ...).
    RestOfAuction,
}

/// A restriction on a player's later calls, imposed by a rectification.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Restriction {
    /// The player must pass.
    MustPass {
        /// The barred player.
        seat: Seat,
        /// For how long.
        duration: PassDuration,
        /// The Law that imposed it.
        law: Law,
    },
    /// Rubber Law 30B: at his next turn the offender's partner may make a sufficient bid or
    /// pass, but may not double or redouble.
    NoDoubleOrRedoubleNextTurn {
        /// The restricted player.
        seat: Seat,
        /// The Law that imposed it.
        law: Law,
    },
    /// Rubber Law 32A: the offender may not thereafter double or redouble the bid he doubled
    /// out of turn.
    MayNotDoubleOrRedoubleBid {
        /// The restricted player.
        seat: Seat,
        /// The bid.
        bid: Bid,
        /// The position of that bid in [`crate::auction::Auction::calls`].
        entry: usize,
        /// The Law that imposed it.
        law: Law,
    },
    /// The offender must repeat his call out of rotation at his turn (rubber Laws 31B1, 32B1;
    /// duplicate Laws 31A1, 32A1).
    MustRepeat {
        /// The player who must repeat.
        seat: Seat,
        /// The call he must repeat.
        call: RecordedCall,
        /// The Law that imposed it.
        law: Law,
    },
}

impl Restriction {
    /// The restricted player.
    pub const fn seat(&self) -> Seat {
        match self {
            Restriction::MustPass { seat, .. }
            | Restriction::NoDoubleOrRedoubleNextTurn { seat, .. }
            | Restriction::MayNotDoubleOrRedoubleBid { seat, .. }
            | Restriction::MustRepeat { seat, .. } => *seat,
        }
    }

    /// The Law that imposed it.
    pub const fn law(&self) -> Law {
        match self {
            Restriction::MustPass { law, .. }
            | Restriction::NoDoubleOrRedoubleNextTurn { law, .. }
            | Restriction::MayNotDoubleOrRedoubleBid { law, .. }
            | Restriction::MustRepeat { law, .. } => *law,
        }
    }
}

impl fmt::Display for Restriction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restriction::MustPass { seat, duration: PassDuration::NextTurn, law } => {
                write!(f, "{seat} must pass when next it is his turn to call ({law})")
            }
            Restriction::MustPass { seat, duration: PassDuration::RestOfAuction, law } => {
                write!(f, "{seat} must pass whenever it is his turn to call ({law})")
            }
            Restriction::NoDoubleOrRedoubleNextTurn { seat, law } => {
                write!(
                    f,
                    "at his next turn {seat} may make a sufficient bid or pass, but may not double or redouble ({law})"
                )
            }
            Restriction::MayNotDoubleOrRedoubleBid { seat, bid, law, .. } => {
                write!(f, "{seat} may not double or redouble {bid} ({law})")
            }
            Restriction::MustRepeat { seat, call, law } => write!(f, "{seat} must repeat {call} at his turn ({law})"),
        }
    }
}

/// A possible score adjustment the official (or the players, in rubber bridge without an
/// arbiter) may make at the end of play, recorded during the auction so that it is not
/// forgotten (Laws 16, 23, 27, 72C; Club Laws 16, 23, 27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReservedAdjustment {
    /// The side whose infraction may lead to the adjustment.
    pub offending_side: Side,
    /// The Law under which it may be made.
    pub law: Law,
}
