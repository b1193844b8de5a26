//! Why a table refuses an action ([`TableError`]) and how a caller reports it ([`ErrorKind`]):
//! every refusal names its Law where a Law refuses. One list, apart from the state machine, so
//! a caller sees every refusal and how to report it.

use crate::auction::AuctionError;
use crate::irregularities::Chooser;
use crate::law::Law;
use crate::play::PlayError;
use crate::seat::Seat;

use super::{FactKind, Phase};

/// What the caller should report for a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The Laws do not allow it now: the message names the Law.
    Rule,
    /// The action is malformed (a detail missing, a number out of range).
    Invalid,
    /// It names a decision, option, claim or official call that does not exist.
    NotFound,
    /// The player may not take it: the Laws give it to someone else.
    NotEntitled,
    /// Not possible in the deal's state (and no Law is at stake).
    Precondition,
}

/// Why an action was refused; nothing changes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The auction engine refused it.
    #[error(transparent)]
    Auction(#[from] AuctionError),
    /// The play engine refused it.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The setup is not one a deal can start from.
    #[error("{0}")]
    Setup(&'static str),
    /// The deal is over.
    #[error("the deal has ended ({phase}); {what} is no longer possible")]
    DealOver {
        /// What was attempted.
        what: &'static str,
        /// Finished or abandoned.
        phase: Phase,
    },
    /// Not at this stage.
    #[error("{what} is not possible {phase}")]
    WrongPhase {
        /// What was attempted.
        what: &'static str,
        /// The stage.
        phase: Phase,
    },
    /// Nobody calls or plays while the official is dealing with the table.
    #[error("nobody calls or plays until the {official} has dealt with the table ({law})")]
    OfficialAtTable {
        /// "Arbiter" or "Director".
        official: &'static str,
        /// Club Law 13, duplicate Law 9B2, rubber Law 13.
        law: Law,
    },
    /// Digital play: not this player's turn.
    #[error("it is {turn}'s turn to {act}, not {seat}'s ({law})")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Whose turn it is.
        turn: Seat,
        /// "call" or "play".
        act: &'static str,
        /// Law 17 for calls, Law 44 for plays.
        law: Law,
    },
    /// A recorded deal whose hands were not entered: its play cannot be checked card by card.
    #[error("the hands of this deal were not entered, so its play cannot be recorded card by card: enter the result")]
    HandsUnknown,
    /// A digital table records only matters of judgement as facts.
    #[error(
        "{kind} cannot be recorded at a digital table: the server refuses illegal calls and plays, so only matters \
         of judgement (unauthorised information, misinformation and a card retracted after it, a defective trick, \
         dummy's rights, other) are recorded"
    )]
    DigitalFact {
        /// The kind recorded.
        kind: FactKind,
    },
    /// The call or card recorded as an irregularity is, by the Laws, no irregularity.
    #[error("{what} is not {kind}: the Laws make it a legal {act} ({law})")]
    NotAnIrregularity {
        /// The call or card, described.
        what: String,
        /// The kind stated.
        kind: FactKind,
        /// "call" or "play".
        act: &'static str,
        /// The Law that makes it legal.
        law: Law,
    },
    /// The fact cannot have happened as told: the Law that describes it does not fit the table.
    #[error("{kind} cannot be recorded: {reason} ({law})")]
    FactDoesNotFit {
        /// The kind stated.
        kind: FactKind,
        /// Why it does not fit.
        reason: String,
        /// The Law that describes the kind.
        law: Law,
    },
    /// A detail the kind needs is missing or out of range.
    #[error("{kind} needs {detail}")]
    MissingDetail {
        /// The kind.
        kind: FactKind,
        /// What is missing.
        detail: &'static str,
    },
    /// No such decision in this deal.
    #[error("this deal has no rectification decision {0}")]
    NoSuchDecision(u32),
    /// The decision was already settled.
    #[error("rectification decision {0} has already been settled")]
    DecisionSettled(u32),
    /// No such option.
    #[error("rectification decision {decision} has no option {option}")]
    NoSuchOption {
        /// The decision.
        decision: u32,
        /// The option asked for.
        option: usize,
    },
    /// The option is not this chooser's.
    #[error("{seat} may not choose \"{option}\": the Laws give it to {chooser} ({law})")]
    NotEntitled {
        /// Who tried.
        seat: Seat,
        /// The option.
        option: String,
        /// Whom the Laws give it to.
        chooser: Chooser,
        /// The Law that gives it.
        law: Law,
    },
    /// No such claim.
    #[error("this deal has no claim {0}")]
    NoSuchClaim(u32),
    /// The claim is not the one being considered.
    #[error("claim {0} is not the claim being considered")]
    ClaimNotCurrent(u32),
    /// No such official call.
    #[error("this deal has no arbiter call {0}")]
    NoSuchOfficialCall(u32),
    /// The official call was already resolved.
    #[error("arbiter call {0} is already resolved")]
    OfficialCallResolved(u32),
    /// A digital deal's result comes from its play.
    #[error("the result of a digital deal comes from its play and cannot be entered")]
    DigitalResult,
    /// The result entered contradicts what was recorded.
    #[error("the result entered ({entered}) does not agree with the auction: {recorded} ({law})")]
    ResultMismatch {
        /// The result entered.
        entered: String,
        /// What the auction produced.
        recorded: String,
        /// Law 22.
        law: Law,
    },
    /// More than thirteen tricks.
    #[error("{0} tricks: a deal has thirteen")]
    TooManyTricks(u8),
    /// Honors that cannot be scored.
    #[error("{reason} ({law})")]
    Honors {
        /// Why not.
        reason: String,
        /// Law 81, or duplicate Law 77.
        law: Law,
    },
    /// The action changed nothing (a bug in the caller, never journaled).
    #[error("the action changed nothing at the table")]
    NothingHappened,
}

impl TableError {
    /// The Law that refuses the action, if a Law does.
    pub fn law(&self) -> Option<Law> {
        use crate::law::CitesLaw;
        match self {
            TableError::Auction(e) => Some(e.law()),
            TableError::Play(e) => Some(e.law()),
            TableError::OfficialAtTable { law, .. }
            | TableError::NotYourTurn { law, .. }
            | TableError::NotAnIrregularity { law, .. }
            | TableError::FactDoesNotFit { law, .. }
            | TableError::NotEntitled { law, .. }
            | TableError::ResultMismatch { law, .. }
            | TableError::Honors { law, .. } => Some(*law),
            _ => None,
        }
    }

    /// How the caller should report it.
    pub fn kind(&self) -> ErrorKind {
        match self {
            TableError::Auction(_)
            | TableError::Play(_)
            | TableError::OfficialAtTable { .. }
            | TableError::NotYourTurn { .. }
            | TableError::NotAnIrregularity { .. }
            | TableError::FactDoesNotFit { .. }
            | TableError::ResultMismatch { .. }
            | TableError::Honors { .. } => ErrorKind::Rule,
            TableError::Setup(_) | TableError::MissingDetail { .. } | TableError::TooManyTricks(_) => {
                ErrorKind::Invalid
            }
            TableError::NoSuchDecision(_)
            | TableError::NoSuchOption { .. }
            | TableError::NoSuchClaim(_)
            | TableError::NoSuchOfficialCall(_) => ErrorKind::NotFound,
            TableError::NotEntitled { .. } => ErrorKind::NotEntitled,
            TableError::DealOver { .. }
            | TableError::WrongPhase { .. }
            | TableError::HandsUnknown
            | TableError::DigitalFact { .. }
            | TableError::DecisionSettled(_)
            | TableError::ClaimNotCurrent(_)
            | TableError::OfficialCallResolved(_)
            | TableError::DigitalResult
            | TableError::NothingHappened => ErrorKind::Precondition,
        }
    }
}
