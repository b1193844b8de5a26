//! Why the auction refuses a call or a rectification ([`AuctionError`]): each refusal names the
//! Law that refuses it. One list, apart from the code that raises them, so a caller sees every
//! refusal and its Law.

use crate::contract::{Bid, Call};
use crate::irregularities::auction::{CallRequirement, DoubleFault, Irregularity, OptionKind, RecordedCall};
use crate::law::{CitesLaw, Law};
use crate::seat::Seat;

/// A call or rectification the Laws do not allow now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuctionError {
    /// Law 18D/27: a bid that does not supersede the last bid.
    #[error("insufficient bid {bid} over {over} ({law})")]
    InsufficientBid {
        /// The bid.
        bid: Bid,
        /// The bid it fails to supersede.
        over: Bid,
        /// Law 27.
        law: Law,
    },
    /// Law 19 (rectified under Law 36): a double or redouble Law 19 does not permit.
    #[error("{seat} may not call {call}: {fault} ({law})")]
    InadmissibleDouble {
        /// Who.
        seat: Seat,
        /// Double or redouble.
        call: Call,
        /// Why not.
        fault: DoubleFault,
        /// Law 19.
        law: Law,
    },
    /// A player required to pass tried to bid, double or redouble (the Law that barred him;
    /// Law 37 rectifies it).
    #[error("{seat} must pass at this turn ({law}); a call by a player required to pass is cancelled under Law 37")]
    RequiredToPass {
        /// Who.
        seat: Seat,
        /// The Law that requires him to pass.
        law: Law,
    },
    /// Rubber Laws 31B1/32B1, duplicate 31A1/32A1: the offender must repeat his call.
    #[error("{seat} must repeat {call} ({law})")]
    MustRepeat {
        /// Who.
        seat: Seat,
        /// The call he must repeat.
        call: RecordedCall,
        /// The Law.
        law: Law,
    },
    /// Rubber Laws 30B and 32A: a double or redouble the player may not make.
    #[error("{seat} may not double or redouble here ({law})")]
    MayNotDoubleOrRedouble {
        /// Who.
        seat: Seat,
        /// The Law.
        law: Law,
    },
    /// Law 39 (digital play): the auction is closed.
    #[error("the auction is closed: a call after the final pass is cancelled ({law})")]
    AuctionClosed {
        /// Law 39.
        law: Law,
    },
    /// Law 18A: a bid names a level from one to seven.
    #[error("{level}{denomination} names no bid: a bid names a level from one to seven ({law})")]
    NotABid {
        /// The level named.
        level: u8,
        /// The denomination named.
        denomination: crate::contract::Denomination,
        /// Law 18.
        law: Law,
    },
    /// Law 38 (digital play cannot express it; rectify refuses it as a replacement).
    #[error("{call} is above seven: no contract of more than seven is ever permissible ({law})")]
    BidAboveSeven {
        /// The call.
        call: RecordedCall,
        /// Law 38.
        law: Law,
    },
    /// Rubber Law 13 / Club Law 13 / duplicate Law 9B2: nobody calls (or takes any other
    /// action) until the rectification of a pending irregularity is settled, except by the
    /// calls the Laws give a meaning before rectification (see the module documentation), so
    /// no second irregularity is opened while one is pending.
    #[error("no call until the rectification is settled: {irregularity} ({law})")]
    RectificationPending {
        /// The pending irregularity.
        irregularity: Box<Irregularity>,
        /// Law 13 or 9B2.
        law: Law,
    },
    /// Rubber Law 13 / duplicate Law 10: a rectification was chosen with nothing to rectify.
    #[error("no irregularity is awaiting rectification ({law})")]
    NothingToRectify {
        /// Law 13 or 10.
        law: Law,
    },
    /// The option chosen is not one the Laws give here.
    #[error("\"{option}\" is not an option here ({law})")]
    OptionNotOffered {
        /// The option chosen.
        option: OptionKind,
        /// The Law of the pending irregularity.
        law: Law,
    },
    /// The call carried by the choice does not meet the option's requirement.
    #[error("{call} is not allowed with this option: it must be {requirement} ({law})")]
    ReplacementNotAllowed {
        /// The call.
        call: Call,
        /// What the option requires.
        requirement: CallRequirement,
        /// The Law of the option.
        law: Law,
    },
    /// The option needs a call and the choice carried none, or the reverse.
    #[error("this option takes {requirement} ({law})")]
    WrongCallForOption {
        /// What the option requires.
        requirement: CallRequirement,
        /// The Law of the option.
        law: Law,
    },
    /// Law 25: the player has no call of his that can still be changed.
    #[error("{seat} has no call that can still be changed ({law})")]
    NoCallToChange {
        /// Who.
        seat: Seat,
        /// Law 25.
        law: Law,
    },
    /// Law 24 covers cards exposed during the auction; afterwards it is the play's Law 49.
    #[error("the auction is closed: a card exposed now is dealt with in the play ({law})")]
    ExposedAfterAuction {
        /// Law 49.
        law: Law,
    },
    /// Law 36: attention was drawn to a call that is not an inadmissible double or redouble
    /// recorded without attention drawn to it.
    #[error("call #{entry} is not a double or redouble recorded without attention drawn to it ({law})")]
    NotUnnoticed {
        /// The position given.
        entry: usize,
        /// Law 36.
        law: Law,
    },
    /// Law 24: an exposure names at least one card, each once.
    #[error("an exposure must name at least one card, each once ({law})")]
    NoCardsExposed {
        /// Law 24.
        law: Law,
    },
    /// Law 21A (rubber Law 21): a call may be changed only because of misinformation "given
    /// him by an opponent"; "no rectification or redress is due to a player who acts on the
    /// basis of his own misunderstanding" (or his partner's).
    #[error("{seat} may not change his call because of misinformation from {by}, who is not an opponent ({law})")]
    NotMisinformedByOpponent {
        /// The player who would change his call.
        seat: Seat,
        /// The player named as having misinformed him.
        by: Seat,
        /// Law 21A (rubber Law 21).
        law: Law,
    },
    /// Law 21B1(a) and 21B3 (rubber and Club Law 21): too late to change a call because of
    /// misinformation: his partner has called since, or the auction is closed (rubber
    /// bridge), or the auction period has ended (duplicate). The score may be adjusted instead.
    #[error(
        "too late for {seat} to change his call because of misinformation: {reason}; the score may be adjusted \
         instead ({law})"
    )]
    TooLateToChange {
        /// The player who would change his call.
        seat: Seat,
        /// Why it is too late.
        reason: &'static str,
        /// Law 21B3 (rubber Law 21, Club Law 21).
        law: Law,
    },
}

impl CitesLaw for AuctionError {
    fn law(&self) -> Law {
        match self {
            AuctionError::InsufficientBid { law, .. }
            | AuctionError::InadmissibleDouble { law, .. }
            | AuctionError::RequiredToPass { law, .. }
            | AuctionError::MustRepeat { law, .. }
            | AuctionError::MayNotDoubleOrRedouble { law, .. }
            | AuctionError::AuctionClosed { law }
            | AuctionError::NotABid { law, .. }
            | AuctionError::BidAboveSeven { law, .. }
            | AuctionError::RectificationPending { law, .. }
            | AuctionError::NothingToRectify { law }
            | AuctionError::OptionNotOffered { law, .. }
            | AuctionError::ReplacementNotAllowed { law, .. }
            | AuctionError::WrongCallForOption { law, .. }
            | AuctionError::NoCallToChange { law, .. }
            | AuctionError::ExposedAfterAuction { law }
            | AuctionError::NotUnnoticed { law, .. }
            | AuctionError::NoCardsExposed { law }
            | AuctionError::NotMisinformedByOpponent { law, .. }
            | AuctionError::TooLateToChange { law, .. } => *law,
        }
    }
}
