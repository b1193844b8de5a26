//! An auction irregularity as it happened: its kind with the facts that decide its
//! rectification, who committed it and the Law that governs it. Apart from the options because
//! the irregularity is the fact, the options what the Laws make of it.

use std::fmt;

use crate::cards::Card;
use crate::contract::{Bid, Call};
use crate::law::Law;
use crate::seat::Seat;

use super::{AfterCloseRole, DoubleFault, RecordedCall, TurnOf};

/// The kind of an auction irregularity, with the facts that decide its rectification.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IrregularityKind {
    /// Law 24: one or more cards of the offender's hand were faced or held so that his partner
    /// could see them; `led` if a card was led prematurely.
    CardsExposed {
        /// The cards exposed.
        cards: Vec<Card>,
        /// Whether a card was led prematurely (Law 24B).
        led: bool,
    },
    /// Law 25: the offender substituted another call for his call (at the same turn, or under
    /// duplicate Law 25A before his partner called).
    ChangeOfCall {
        /// The call he had made first.
        first: RecordedCall,
    },
    /// Law 27: a bid in rotation that does not supersede the last bid (Law 18D).
    InsufficientBid {
        /// The bid it failed to supersede.
        over: Bid,
    },
    /// Laws 29-32: a call when it was another player's turn (an insufficient bid out of
    /// rotation is one of these: rubber Law 27E, duplicate Law 27A2).
    CallOutOfRotation {
        /// The player whose turn it was.
        turn_of: Seat,
        /// That player's relation to the offender.
        position: TurnOf,
    },
    /// Law 36: a double or redouble not permitted by Law 19.
    InadmissibleDouble {
        /// Why Law 19 forbids it.
        fault: DoubleFault,
        /// Whether it was also made out of rotation (duplicate Law 36B4).
        out_of_rotation: bool,
    },
    /// Law 37: a bid, double or redouble by a player required to pass.
    CallWhenRequiredToPass {
        /// The Law that required him to pass.
        required_by: Law,
    },
    /// Law 38: a bid of more than seven.
    BidAboveSeven,
    /// Law 39: a call after the auction closed.
    CallAfterClose {
        /// Whether the caller is a defender, on the declaring side, or the deal was passed out.
        role: AfterCloseRole,
    },
    /// Duplicate Law 23: the director rules whether the offender's call, replacing a call
    /// that was cancelled, is comparable to it (Laws 30B1(b), 31A2, 31B, 32A2, 32B, 25B1).
    ComparableCallQuestion {
        /// The call that was withdrawn or cancelled.
        withdrawn: RecordedCall,
        /// The offender's call in its place.
        replacement: Call,
    },
    /// Law 21B (rubber and Club Law 21): the offender (here the player acting, not the side at
    /// fault) changes a call he made because of misinformation from an opponent,
    /// `misinformed_by`, whose side is the offending side for Law 16C and Law 21B3.
    CallChangedAfterMisinformation {
        /// The call he had made and now changes.
        first: RecordedCall,
        /// The opponent who gave the misinformation.
        misinformed_by: Seat,
    },
}

/// An irregularity as it happened: who, what, and the Law that governs it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Irregularity {
    /// The offender.
    pub offender: Seat,
    /// The offending call, if the irregularity is a call.
    pub call: Option<RecordedCall>,
    /// What kind of irregularity, with its facts.
    pub kind: IrregularityKind,
    /// The Law that rectifies it.
    pub law: Law,
}

impl fmt::Display for Irregularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = self.offender;
        match (&self.kind, self.call) {
            (IrregularityKind::CardsExposed { cards, led }, _) => {
                let names: Vec<String> = cards.iter().map(ToString::to_string).collect();
                let verb = if *led { "led" } else { "exposed" };
                write!(f, "{who} {verb} {} during the auction", names.join(" "))?;
            }
            (IrregularityKind::ChangeOfCall { first }, Some(call)) => {
                write!(f, "{who} changed his call {first} to {call}")?;
            }
            (IrregularityKind::InsufficientBid { over }, Some(call)) => {
                write!(f, "{who} made an insufficient bid of {call} over {over}")?;
            }
            (IrregularityKind::CallOutOfRotation { turn_of, position }, Some(call)) => {
                write!(f, "{who} called {call} out of rotation, {position} ({turn_of} was to call)")?;
            }
            (IrregularityKind::InadmissibleDouble { fault, .. }, Some(call)) => {
                write!(f, "{who} called {call}, which Law 19 does not permit: {fault}")?;
            }
            (IrregularityKind::CallWhenRequiredToPass { required_by }, Some(call)) => {
                write!(f, "{who} called {call} although required to pass ({required_by})")?;
            }
            (IrregularityKind::BidAboveSeven, Some(call)) => write!(f, "{who} bid {call}, above seven")?,
            (IrregularityKind::CallAfterClose { .. }, Some(call)) => {
                write!(f, "{who} called {call} after the auction closed")?;
            }
            (IrregularityKind::CallChangedAfterMisinformation { first, misinformed_by }, Some(call)) => {
                write!(f, "{who} changed his call {first} to {call} after misinformation from {misinformed_by}")?;
            }
            (IrregularityKind::ComparableCallQuestion { withdrawn, replacement }, _) => {
                write!(f, "{who} called {replacement} in place of his cancelled {withdrawn}: is it comparable?")?;
            }
            (_, None) => write!(f, "{who} committed an irregularity")?,
        }
        write!(f, " ({})", self.law)
    }
}
