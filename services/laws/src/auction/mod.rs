//! The auction (Laws 17-40 of both codes): correct procedure, and the irregularities of the
//! auction with their rectifications.
//!
//! An [`Auction`] is an immutable value: every action returns the next state or a typed error
//! that names the Law, and never changes the state it was called on. Replaying the same
//! actions gives the same state, so a service can persist the actions and rebuild from them.
//!
//! Two ways in:
//! - **Digital play** ([`Auction::call`]): the player whose turn it is makes a call; anything
//!   the Laws treat as an irregularity is refused (an insufficient bid: Law 27; a double of
//!   partner's bid: Laws 19 and 36; a call by a player barred by a rectification: the Law that
//!   barred him, and Law 37; a call after the close: Law 39). [`Auction::legal_calls`] lists
//!   what the user interface may offer.
//! - **Recorded play** ([`Auction::record`], [`Auction::change_call`],
//!   [`Auction::expose_cards`], [`Auction::record_simultaneous`]): what really happened at a
//!   table with physical cards, irregularities included. An irregularity becomes a
//!   [`PendingIrregularity`] listing the options the Laws give and to whom; nobody calls until
//!   it is settled (rubber Law 13, duplicate Law 9B2) except by the calls that by Law condone
//!   it (Laws 27A, 28B, 29A, 35-39, duplicate Law 25B1), and [`Auction::rectify`] applies the
//!   option chosen.
//!
//! **One irregularity at a time.** While an irregularity awaits rectification no second one
//! can arise lawfully: rubber Law 13 ("After attention has been drawn to an irregularity, no
//! player should call or play until all questions in regard to the assessment of a penalty
//! have been determined"), Club Law 13 ("No player should call or play until the Arbiter has
//! determined and explained all matters in regard to the irregularity") and duplicate Law 9B2
//! ("No player shall take any action until the Director has explained all matters in regard to
//! rectification"; Law 10C1: he "shall explain all the options available"). The Laws
//! themselves give a meaning to a few calls made before rectification, and those are taken:
//! the offender's left-hand opponent condoning by calling (rubber Laws 15B, 27, 29A, 35;
//! duplicate Laws 25B1, 27A1, 29A, 36A-39B), the player in turn calling over a call out of
//! rotation (Law 28B), and the offender's premature replacement of an insufficient bid (rubber
//! Law 13 and footnote 9 to Law 27, duplicate Laws 9C and 27C). Any other call, change of
//! call or exposure while one is pending is refused with
//! [`AuctionError::RectificationPending`], citing Law 13 or 9B2: the official rules first (a
//! non-offender's action before the director is summoned may, at his discretion, forfeit the
//! right to rectification, duplicate Law 11A; that ruling is the official's, and is entered
//! once the first irregularity is settled). An irregularity that a rectification itself leads
//! to (a replacement that is again insufficient, a ruling the next call calls for) follows as
//! the next stage of the same pending irregularity, or opens once it is settled.
//!
//! Judgement questions (was a call unintended? is a replacement "comparable", or "the same or
//! a more precise meaning"? was a pass artificial?) are never guessed: they are options chosen
//! by the player or official the Laws name, and the engine records the choice.
//!
//! ```
//! use laws::auction::{Auction, AuctionOutcome};
//! use laws::{Call, Code, Seat};
//!
//! let calls = ["1H", "Pass", "2H", "X", "Pass", "Pass", "Pass"];
//! let auction = calls.iter().try_fold(Auction::new(Seat::North, Code::Rubber), |auction, call| {
//!     auction.call(call.parse::<Call>().unwrap())
//! })?;
//! assert!(auction.is_closed());
//! let Some(AuctionOutcome::Contract(result)) = auction.outcome() else { panic!("not passed out") };
//! assert_eq!(result.contract.to_string(), "2HX by North");
//! assert_eq!(result.contract.opening_leader(), Seat::East);
//!
//! // An insufficient bid is refused in digital play, naming the Law.
//! let auction = Auction::new(Seat::North, Code::Duplicate).call("1S".parse().unwrap())?;
//! let err = auction.call("1H".parse().unwrap()).unwrap_err();
//! assert_eq!(err.to_string(), "insufficient bid 1H over 1S (Law 27 of the Laws of Duplicate Bridge)");
//! # Ok::<(), laws::auction::AuctionError>(())
//! ```

mod rectify;
mod trusted;

use std::fmt;

use crate::cards::{Card, Suit, SuitSet};
use crate::contract::{Bid, Call, Contract, DeclaredContract, Doubling};
use crate::irregularities::auction::{
    AuctionChoice, AuctionOption, CallRequirement, DoubleFault, Effect, Irregularity, OptionKind, RecordedCall,
    ReservedAdjustment, Restriction, Specifies,
};
use crate::law::{CitesLaw, Code, Law};
use crate::penalty::{LeadPenalty, PenaltyCard, PenaltyCardKind, PendingLeadPenalty};
use crate::seat::Seat;

use rectify::{Contingent, DueLeadPenalty, Stage};

/// The state of one auction under a code of Laws.
///
/// Chicago, the Alternative Club Laws and the Rules for Club Procedure use the auction Laws of
/// rubber bridge (with the Club Laws' additions where `Code::Club` is given); `Code::Duplicate`
/// uses the 2017 Laws of Duplicate Bridge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Auction {
    code: Code,
    dealer: Seat,
    entries: Vec<CallEntry>,
    restrictions: Vec<Restriction>,
    contingencies: Vec<Contingent>,
    lead_penalties: Vec<DueLeadPenalty>,
    exposures: Vec<ExposedCards>,
    penalty_cards: Vec<ExposedCards>,
    adjustments: Vec<ReservedAdjustment>,
    pending: Option<PendingIrregularity>,
    /// Set only while an artificial call is being recorded (always `None` between actions).
    announcing: Option<Announcement>,
}

/// One call as recorded, in auction order, with what became of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallEntry {
    /// Who called.
    pub seat: Seat,
    /// What he called.
    pub call: RecordedCall,
    /// Whether it stands, and why not if not.
    pub status: CallStatus,
    /// Recorded play: `Some` if the call was artificial, with the suit or suits it relates to
    /// (possibly none, for an artificial call that shows no suit); `None` for a natural call,
    /// which specifies the denomination it names (Law 18A). Rubber Law 26A: "When the
    /// irregular call artificially relates to a denomination other than the one actually
    /// named, 'such suit' is the suit or suits to which the call relates"; duplicate Laws 26B
    /// and 27B1(a) turn on the suits a call "specifies". See [`Auction::record_artificial`].
    pub relates_to: Option<SuitSet>,
}

impl CallEntry {
    /// Whether the call was recorded as artificial ([`CallEntry::relates_to`]).
    pub const fn is_artificial(&self) -> bool {
        self.relates_to.is_some()
    }

    /// The suits the call specifies (rubber Law 26A; duplicate Laws 26B and 27B1(a)): the
    /// suits an artificial call relates to, the suit a natural suit bid names, and none for a
    /// natural notrump bid, pass, double or redouble.
    pub fn suits_specified(&self) -> SuitSet {
        Specifies::of(self.call, self.relates_to).suits()
    }
}

/// A call being recorded as artificial, while [`Auction::record_artificial`] and its siblings
/// record it: the entry it creates is marked with the suits it relates to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Announcement {
    /// Who makes it; `None` for a call a rectification choice carries whose caller the option
    /// does not name (any player making that call).
    seat: Option<Seat>,
    call: RecordedCall,
    relates_to: SuitSet,
}

/// What became of a recorded call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallStatus {
    /// Made in rotation (or accepted, or condoned) and part of the legal auction.
    Made,
    /// Made out of rotation and accepted by the offender's left-hand opponent calling over it
    /// (Law 29A): it stands and the auction continues from it, and `turn_of` lost that turn
    /// (Law 34 gives it back if one of the closing passes robbed him of it).
    MadeOutOfRotation {
        /// The player whose turn it was.
        turn_of: Seat,
    },
    /// A pass deemed made by a player required to pass, whose left-hand opponent called at his
    /// turn (Law 28A).
    DeemedPass {
        /// Law 28A.
        law: Law,
    },
    /// A pass substituted by a rectification (rubber Law 27D; Laws 37, 38).
    Substituted {
        /// The Law that substituted it.
        law: Law,
    },
    /// Recorded play: a double or redouble Law 19 does not permit, made in turn with nobody
    /// drawing attention to it ([`Auction::record_unnoticed`]). The auction went on over it as
    /// the players saw it, so it stands for rotation and for the play; if attention is drawn
    /// during the auction period, Law 36 (rubber Laws 35A and 36) rectifies it
    /// ([`Auction::draw_attention_to`]); if only after the opening lead has been faced, duplicate
    /// Law 36C scores the contract as if it had not been made
    /// ([`Auction::contract_to_score_if_found_after_opening_lead`]).
    Unnoticed {
        /// Why Law 19 does not permit it.
        fault: DoubleFault,
        /// Law 36 (duplicate Law 36C).
        law: Law,
    },
    /// The subject of an irregularity awaiting rectification.
    Pending,
    /// Cancelled or withdrawn.
    Cancelled {
        /// The Law that cancelled it.
        law: Law,
    },
}

impl CallStatus {
    /// Whether the call is part of the legal auction.
    pub const fn stands(self) -> bool {
        matches!(
            self,
            CallStatus::Made
                | CallStatus::MadeOutOfRotation { .. }
                | CallStatus::DeemedPass { .. }
                | CallStatus::Substituted { .. }
                | CallStatus::Unnoticed { .. }
        )
    }
}

/// Cards a player exposed or led during the auction (Law 24). They stay face up on the table
/// until the auction closes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExposedCards {
    /// Whose cards.
    pub seat: Seat,
    /// The cards.
    pub cards: Vec<Card>,
    /// Whether a card was led prematurely (Law 24B).
    pub led: bool,
}

/// An irregularity awaiting rectification: what happened and the options the Laws give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingIrregularity {
    irregularity: Irregularity,
    options: Vec<AuctionOption>,
    stage: Stage,
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
    fn from_auction(auction: Auction) -> Recorded {
        if auction.pending.is_some() { Recorded::AwaitingRectification(auction) } else { Recorded::Made(auction) }
    }

    /// The same outcome with the announcement of an artificial call spent.
    fn announced(self) -> Recorded {
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

/// How an auction ended (Law 22).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuctionOutcome {
    /// Nobody bid: the hands are abandoned (rubber Law 22A) or returned to the board without a
    /// redeal (duplicate Law 22B).
    PassedOut,
    /// The final bid became the contract (rubber Law 22B, duplicate Law 22A).
    Contract(ContractOutcome),
}

/// A contract and what the auction's irregularities carry into the play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractOutcome {
    /// The contract and declarer (Definitions: the player of the contracting side who first
    /// named the denomination).
    pub contract: DeclaredContract,
    /// Lead penalties against a defender whose partner offended (Law 26): only those whose
    /// offender's partner is a defender.
    pub lead_penalties: Vec<PendingLeadPenalty>,
    /// Cards exposed during the auction by a player who became a defender (Law 24, duplicate
    /// Law 24E); a declaring-side offender's cards go back to his hand (duplicate Law 24D).
    pub penalty_cards: Vec<PenaltyCard>,
    /// Adjustments the official (or the players) may make at the end of play.
    pub reserved_adjustments: Vec<ReservedAdjustment>,
}

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

/// The judgement of a call by the player in turn.
enum InTurn {
    /// Legal: it is simply made.
    Legal,
    /// Not a call the Laws rectify but one the player may not make at all (he must repeat his
    /// call, rubber Laws 31B1/32B1; he may not double, rubber Laws 30B/32A): refused in both
    /// modes.
    Refused(AuctionError),
    /// Law 27: an insufficient bid.
    Insufficient {
        /// The bid.
        bid: Bid,
        /// The bid it fails to supersede.
        over: Bid,
    },
    /// Laws 19 and 36: a double or redouble Law 19 does not permit.
    Inadmissible(DoubleFault),
    /// Law 37: a bid, double or redouble by a player required to pass.
    RequiredToPass(Law),
}

/// Which family of auction Laws a code uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Laws of Rubber Bridge 2014 (rubber, Chicago, club procedure).
    Rubber,
    /// Laws of Rubber Bridge 2014 with the Alternative Club Laws (an arbiter).
    Club,
    /// Laws of Duplicate Bridge 2017.
    Duplicate,
}

impl Auction {
    /// A new auction: `dealer` makes the first call (Law 17), under `code`.
    pub fn new(dealer: Seat, code: Code) -> Auction {
        Auction {
            code,
            dealer,
            entries: Vec::with_capacity(16),
            restrictions: Vec::new(),
            contingencies: Vec::new(),
            lead_penalties: Vec::new(),
            exposures: Vec::new(),
            penalty_cards: Vec::new(),
            adjustments: Vec::new(),
            pending: None,
            announcing: None,
        }
    }

    /// The code of Laws the auction is conducted under.
    pub const fn code(&self) -> Code {
        self.code
    }

    /// The dealer, who calls first (Law 17).
    pub const fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Every call recorded, in auction order, with what became of it (cancelled calls
    /// included: they matter for Law 16 and for the record).
    pub fn calls(&self) -> &[CallEntry] {
        &self.entries
    }

    /// The legal auction: the calls that stand, with their seats.
    pub fn standing_calls(&self) -> impl DoubleEndedIterator<Item = (Seat, Call)> + '_ {
        self.standing().map(|(_, seat, call)| (seat, call))
    }

    /// The player whose turn it is to call in the legal auction (Law 17: the dealer first,
    /// then clockwise from the last call that stands), or `None` once the auction is closed.
    /// While an irregularity is pending this is still the player whose turn it is, though
    /// nobody may call until it is settled ([`Auction::pending`]).
    pub fn next_to_call(&self) -> Option<Seat> {
        (!self.is_closed()).then(|| self.turn())
    }

    /// Whether three passes in rotation have followed a call (Law 17; rubber Law 22,
    /// duplicate Law 22; not if one of them robbed a player of his turn, Law 34).
    pub fn is_closed(&self) -> bool {
        let mut calls = self.standing().rev();
        for _ in 0..3 {
            if !matches!(calls.next(), Some((_, _, Call::Pass))) {
                return false;
            }
        }
        calls.next().is_some()
    }

    /// The irregularity awaiting rectification, if any.
    pub fn pending(&self) -> Option<&PendingIrregularity> {
        self.pending.as_ref()
    }

    /// The restrictions now in force on later calls (who must pass, who may not double, who
    /// must repeat), each with its Law.
    pub fn restrictions(&self) -> &[Restriction] {
        &self.restrictions
    }

    /// Cards exposed or led during the auction (Law 24), which stay face up until it closes.
    pub fn exposed_cards(&self) -> &[ExposedCards] {
        &self.exposures
    }

    /// Adjustments reserved so far for the end of play (Laws 16, 23, 27, 72C; Club Laws).
    pub fn reserved_adjustments(&self) -> &[ReservedAdjustment] {
        &self.adjustments
    }

    /// The last bid that stands and who made it (Law 18: later bids must supersede it).
    pub fn last_bid(&self) -> Option<(Seat, Bid)> {
        self.last_bid_entry().map(|(_, seat, bid)| (seat, bid))
    }

    /// The calls [`Auction::call`] would accept now: what a digital table offers the player
    /// whose turn it is. Empty when the auction is closed or an irregularity is pending.
    pub fn legal_calls(&self) -> Vec<Call> {
        if self.pending.is_some() || self.is_closed() {
            return Vec::new();
        }
        let seat = self.turn();
        let mut calls = Vec::with_capacity(38);
        for call in [Call::Pass, Call::Double, Call::Redouble].into_iter().chain(Bid::all().map(Call::Bid)) {
            if self.check_in_turn(seat, call).is_ok() {
                calls.push(call);
            }
        }
        calls
    }

    /// Digital play: the player whose turn it is makes `call`.
    ///
    /// Refused, with the Law, if the auction is closed (Law 39), an irregularity is pending
    /// (rubber Law 13, duplicate Law 9B2), the bid is insufficient (Law 27), the double or
    /// redouble is not permitted by Law 19 (Law 36), or a rectification forbids it (the Law that
    /// imposed it; Law 37).
    pub fn call(&self, call: Call) -> Result<Auction, AuctionError> {
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        if self.is_closed() {
            return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") });
        }
        let seat = self.turn();
        self.check_in_turn(seat, call)?;
        self.record(seat, call.into()).map(Recorded::into_auction)
    }

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
    /// The suits are kept on the call's entry ([`CallEntry::relates_to`]) and used wherever the
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
    fn announcing(&self, seat: Seat, call: RecordedCall, relates_to: SuitSet) -> Auction {
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

    /// Law 21B (rubber and Club Law 21): `seat` changes his last call to `call` because of
    /// misinformation given him by `by`, an opponent. Digital and recorded play alike: the
    /// explanations are human at either table.
    ///
    /// Rubber Law 21: "Until the auction is closed, a player may, without penalty, change any
    /// call he may have made as a result of misinformation given him by an opponent, provided
    /// his partner has not subsequently called. If he elects to correct his call, his LHO may
    /// then, in turn and without penalty, change any subsequent call he may have made."
    /// Duplicate Law 21B1(a): "Until the end of the auction period (see Law 17D) and provided
    /// that his partner has not subsequently called, a player may change a call without other
    /// rectification for his side when the Director judges that the decision to make the call
    /// could well have been influenced by misinformation given to the player by an opponent."
    ///
    /// **Which call.** "Provided his partner has not subsequently called": in rotation only the
    /// player's last call can qualify (after any earlier call of his, his partner called), and
    /// at most one call stands after it, his left-hand opponent's. So the change is of his
    /// last call that stands.
    ///
    /// **The calls after it.** The Law withdraws only the changed call: the left-hand
    /// opponent's call over it is not cancelled but his to keep or change ("his LHO may then,
    /// in turn ... change any subsequent call he may have made"). It is held aside while the
    /// new call takes the changed call's place, then offered back to him
    /// ([`OptionKind::KeepCall`] or [`OptionKind::WithdrawCall`]); if it is no longer a legal
    /// call over the new one (an insufficient bid now, or a double of a pass), it cannot stand
    /// and is withdrawn, and he calls again, without penalty.
    ///
    /// **Whose judgement.** Whether the call "could well have been influenced by
    /// misinformation" is never guessed: the change awaits the judgement as a
    /// [`PendingIrregularity`] of kind
    /// [`IrregularityKind::CallChangedAfterMisinformation`](crate::irregularities::auction::IrregularityKind::CallChangedAfterMisinformation),
    /// whose options are [`OptionKind::ChangeAfterMisinformation`] (the Director is to presume
    /// mistaken explanation rather than mistaken call absent evidence, Law 21B1(b)) and
    /// [`OptionKind::NoMisinformation`] (Law 21A). The Director rules in duplicate, the Arbiter
    /// under the Club Laws ("When it is determined that misinformation has been given the
    /// Arbiter should be called", Club Law 21); in rubber bridge the players settle it.
    ///
    /// **Closed auction.** Under the duplicate Laws the change is allowed until the end of the
    /// auction period, so also in the Clarification Period (Law 17D1: until a defender faces
    /// the opening lead): the auction reopens. Whether the lead has been faced is the play's
    /// business: the caller refuses the change once it has. Under the rubber-bridge codes the
    /// change is allowed only "until the auction is closed".
    ///
    /// **Information.** Duplicate: Law 16C applies to the withdrawn calls (authorised for the
    /// non-offending side, unauthorised for the side that misinformed), recorded as a reserved
    /// adjustment against the misinforming side. Club Law 21: the Arbiter adjusts at the end of
    /// play if the non-offending side was damaged, also reserved. Rubber Law 21 gives the
    /// change "without penalty" and reserves nothing.
    ///
    /// Refused with [`AuctionError::NotMisinformedByOpponent`] (Law 21A) if `by` is not an
    /// opponent; [`AuctionError::NoCallToChange`] (Law 21) if `seat` has no call;
    /// [`AuctionError::TooLateToChange`] (Law 21B3; rubber and Club Law 21) if his partner has
    /// called since or, under the rubber-bridge codes, the auction is closed; the usual
    /// [`AuctionError::RectificationPending`] while an irregularity is pending; and with the
    /// Law the new call breaks if it is not a legal call in place of the changed one (the
    /// Laws give no procedure for an irregular replacement under Law 21).
    pub fn change_after_misinformation(
        &self,
        seat: Seat,
        call: RecordedCall,
        by: Seat,
    ) -> Result<Recorded, AuctionError> {
        if let RecordedCall::Bid { level: 0, denomination } = call {
            return Err(AuctionError::NotABid { level: 0, denomination, law: self.cite(18, "", "A") });
        }
        if let Some(pending) = &self.pending {
            return Err(self.pending_error(pending));
        }
        if !by.is_opponent(seat) {
            return Err(AuctionError::NotMisinformedByOpponent { seat, by, law: self.cite(21, "", "A") });
        }
        let mut next = self.clone();
        next.open_misinformation_change(seat, call, by)?;
        Ok(Recorded::from_auction(next))
    }

    /// Like [`Auction::change_after_misinformation`], where the new call is artificial and
    /// relates to `relates_to` (see [`Auction::record_artificial`]).
    pub fn change_after_misinformation_artificial(
        &self,
        seat: Seat,
        call: RecordedCall,
        by: Seat,
        relates_to: SuitSet,
    ) -> Result<Recorded, AuctionError> {
        self.announcing(seat, call, relates_to).change_after_misinformation(seat, call, by).map(Recorded::announced)
    }

    /// Law 21B3 (rubber and Club Law 21): it is too late for `seat` to change a call he made
    /// because of misinformation given him by `by`, an opponent; "the Director judges that the
    /// offending side gained an advantage from the irregularity he awards an adjusted score".
    /// The adjustment is reserved against the misinforming side for the end of play (whether
    /// the side gained is the official's judgement, or the players' in rubber bridge).
    ///
    /// Refused with [`AuctionError::NotMisinformedByOpponent`] (Law 21A) if `by` is not an
    /// opponent.
    pub fn misinformation_too_late(&self, seat: Seat, by: Seat) -> Result<Auction, AuctionError> {
        if !by.is_opponent(seat) {
            return Err(AuctionError::NotMisinformedByOpponent { seat, by, law: self.cite(21, "", "A") });
        }
        let mut next = self.clone();
        next.reserve(ReservedAdjustment { offending_side: by.side(), law: self.misinformation_law("B3") });
        Ok(next)
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

    /// How the auction ended, once it is closed and nothing awaits rectification: passed out,
    /// or the contract with the obligations its irregularities carry into the play.
    pub fn outcome(&self) -> Option<AuctionOutcome> {
        if !self.is_closed() || self.pending.is_some() {
            return None;
        }
        let Some((bid_entry, bidder, bid)) = self.last_bid_entry() else {
            return Some(AuctionOutcome::PassedOut);
        };
        let side = bidder.side();
        let declarer = self
            .standing()
            .find_map(|(_, seat, call)| match call {
                Call::Bid(b) if seat.side() == side && b.denomination() == bid.denomination() => Some(seat),
                _ => None,
            })
            .unwrap_or(bidder);
        let doubling =
            self.standing().filter(|(i, ..)| *i > bid_entry).fold(Doubling::Undoubled, |d, (_, _, c)| match c {
                Call::Double => Doubling::Doubled,
                Call::Redouble => Doubling::Redoubled,
                _ => d,
            });
        let contract = DeclaredContract { contract: Contract::new(bid, doubling), declarer };
        let defends = |offender: Seat| offender.side() != side;

        let mut lead_penalties: Vec<PendingLeadPenalty> = Vec::new();
        for due in self.lead_penalties.iter().cloned().chain(self.unresolved_lead_penalties()) {
            if !defends(due.offender) {
                continue;
            }
            if let Some(penalty) = self.lead_penalty_for(&due) {
                let pending = PendingLeadPenalty { player: due.offender.partner(), penalty, law: due.law };
                if !lead_penalties.contains(&pending) {
                    lead_penalties.push(pending);
                }
            }
        }

        let mut penalty_cards: Vec<PenaltyCard> = Vec::new();
        for seat in Seat::ALL.into_iter().filter(|s| defends(*s)) {
            let exposed: Vec<&ExposedCards> = self.penalty_cards.iter().filter(|e| e.seat == seat).collect();
            let count: usize = exposed.iter().map(|e| e.cards.len()).sum();
            for exposure in exposed {
                for &card in &exposure.cards {
                    // Law 50: an honor, a card led (deliberate play), or one of two or more
                    // penalty cards is major; a single low card exposed inadvertently is minor.
                    let major = card.rank.is_honor() || exposure.led || count > 1;
                    let kind = if major { PenaltyCardKind::Major } else { PenaltyCardKind::Minor };
                    penalty_cards.push(PenaltyCard { card, owner: seat, kind, law: self.cite(24, "", "E") });
                }
            }
        }

        Some(AuctionOutcome::Contract(ContractOutcome {
            contract,
            lead_penalties,
            penalty_cards,
            reserved_adjustments: self.adjustments.clone(),
        }))
    }

    // ----- queries on the legal auction -----

    fn family(&self) -> Family {
        match self.code {
            Code::Duplicate => Family::Duplicate,
            Code::Club => Family::Club,
            Code::Rubber | Code::Chicago | Code::ClubProcedure => Family::Rubber,
        }
    }

    fn is_duplicate(&self) -> bool {
        self.family() == Family::Duplicate
    }

    /// Law `number` with the rubber section or the duplicate section, by code.
    fn cite(&self, number: u8, rubber: &'static str, duplicate: &'static str) -> Law {
        if self.is_duplicate() { Law::duplicate(number, duplicate) } else { Law::rubber(number, rubber) }
    }

    /// `rubber` under the rubber-bridge codes, `duplicate` under the duplicate Laws (for rules
    /// the two codes number differently).
    fn by_code(&self, rubber: Law, duplicate: Law) -> Law {
        if self.is_duplicate() { duplicate } else { rubber }
    }

    /// The Law that stops all calls while an irregularity is settled.
    fn cite_procedure(&self) -> Law {
        match self.family() {
            Family::Rubber => Law::rubber(13, ""),
            Family::Club => Law::club(13, ""),
            Family::Duplicate => Law::duplicate(9, "B2"),
        }
    }

    fn pending_error(&self, pending: &PendingIrregularity) -> AuctionError {
        AuctionError::RectificationPending {
            irregularity: Box::new(pending.irregularity.clone()),
            law: self.cite_procedure(),
        }
    }

    /// The calls that stand, with their positions.
    fn standing(&self) -> impl DoubleEndedIterator<Item = (usize, Seat, Call)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.status.stands())
            .filter_map(|(i, e)| e.call.legal().map(|call| (i, e.seat, call)))
    }

    fn last_standing(&self) -> Option<(usize, Seat, Call)> {
        self.standing().next_back()
    }

    /// Whose turn it is in the legal auction.
    fn turn(&self) -> Seat {
        self.last_standing().map_or(self.dealer, |(_, seat, _)| seat.next())
    }

    fn last_bid_entry(&self) -> Option<(usize, Seat, Bid)> {
        self.standing().rev().find_map(|(i, seat, call)| match call {
            Call::Bid(bid) => Some((i, seat, bid)),
            _ => None,
        })
    }

    fn any_bid(&self) -> bool {
        self.last_bid_entry().is_some()
    }

    /// Why Law 19 forbids `seat` to double or redouble now, if it does.
    fn double_fault(&self, seat: Seat, call: RecordedCall) -> Option<DoubleFault> {
        let Some((bid_entry, bidder, _)) = self.last_bid_entry() else {
            return match call {
                RecordedCall::Double => Some(DoubleFault::NoBid),
                RecordedCall::Redouble => Some(DoubleFault::NoDouble),
                _ => None,
            };
        };
        let mut doubled_by = None;
        let mut redoubled = false;
        for (_, s, c) in self.standing().filter(|(i, ..)| *i > bid_entry) {
            match c {
                Call::Double => doubled_by = Some(s),
                Call::Redouble => redoubled = true,
                _ => {}
            }
        }
        match call {
            RecordedCall::Double if !seat.is_opponent(bidder) => Some(DoubleFault::OwnSideBid),
            RecordedCall::Double if doubled_by.is_some() => Some(DoubleFault::AlreadyDoubled),
            RecordedCall::Redouble => match doubled_by {
                None => Some(DoubleFault::NoDouble),
                Some(doubler) if !seat.is_opponent(doubler) => Some(DoubleFault::OwnSideDouble),
                Some(_) if redoubled => Some(DoubleFault::AlreadyRedoubled),
                Some(_) => None,
            },
            _ => None,
        }
    }

    /// The Law requiring `seat` to pass at his next call, if any.
    fn must_pass_now(&self, seat: Seat) -> Option<Law> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustPass { seat: s, law, .. } if *s == seat => Some(*law),
            _ => None,
        })
    }

    /// The Law requiring `seat` to pass for the rest of the auction, if any.
    fn barred_throughout(&self, seat: Seat) -> Option<Law> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustPass {
                seat: s,
                duration: crate::irregularities::auction::PassDuration::RestOfAuction,
                law,
            } if *s == seat => Some(*law),
            _ => None,
        })
    }

    /// The call `seat` must repeat, if any.
    fn must_repeat(&self, seat: Seat) -> Option<(RecordedCall, Law)> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustRepeat { seat: s, call, law } if *s == seat => Some((*call, *law)),
            _ => None,
        })
    }

    /// The Law forbidding `seat` to double or redouble now (rubber Laws 30B, 32A), if any.
    fn double_forbidden(&self, seat: Seat) -> Option<Law> {
        let last_bid = self.last_bid_entry().map(|(i, ..)| i);
        self.restrictions.iter().find_map(|r| match r {
            Restriction::NoDoubleOrRedoubleNextTurn { seat: s, law } if *s == seat => Some(*law),
            Restriction::MayNotDoubleOrRedoubleBid { seat: s, entry, law, .. }
                if *s == seat && Some(*entry) == last_bid =>
            {
                Some(*law)
            }
            _ => None,
        })
    }

    /// How the Laws judge `call` by `seat`, the player in turn, with nothing pending: the one
    /// statement of the in-turn rules, shared by digital play (which refuses irregularities)
    /// and recorded play (which opens them).
    fn judge_in_turn(&self, seat: Seat, call: RecordedCall) -> InTurn {
        if let Some((required, law)) = self.must_repeat(seat)
            && required != call
        {
            return InTurn::Refused(AuctionError::MustRepeat { seat, call: required, law });
        }
        if call.is_double_or_redouble()
            && let Some(fault) = self.double_fault(seat, call)
        {
            // A double Law 19 forbids is Law 36's even from a player required to pass (duplicate
            // Law 37A says so; in rubber bridge Law 35B would otherwise let it stand).
            return InTurn::Inadmissible(fault);
        }
        if let Some(required_by) = self.must_pass_now(seat)
            && !call.is_pass()
        {
            return InTurn::RequiredToPass(required_by);
        }
        if call.is_double_or_redouble()
            && let Some(law) = self.double_forbidden(seat)
        {
            return InTurn::Refused(AuctionError::MayNotDoubleOrRedouble { seat, law });
        }
        if let (Some(Call::Bid(bid)), Some((_, _, over))) = (call.legal(), self.last_bid_entry())
            && !bid.is_sufficient_over(over)
        {
            return InTurn::Insufficient { bid, over };
        }
        InTurn::Legal
    }

    /// Whether `call` by `seat`, the player in turn, is legal now (digital play): an
    /// irregularity is refused with the error naming its Law.
    fn check_in_turn(&self, seat: Seat, call: Call) -> Result<(), AuctionError> {
        match self.judge_in_turn(seat, call.into()) {
            InTurn::Legal => Ok(()),
            InTurn::Refused(err) => Err(err),
            InTurn::Insufficient { bid, over } => {
                Err(AuctionError::InsufficientBid { bid, over, law: self.cite(27, "", "") })
            }
            InTurn::Inadmissible(fault) => {
                Err(AuctionError::InadmissibleDouble { seat, call, fault, law: self.cite(19, "", "") })
            }
            InTurn::RequiredToPass(law) => Err(AuctionError::RequiredToPass { seat, law }),
        }
    }

    /// Checks the call a choice carries against the option's requirement.
    fn check_requirement(&self, option: &AuctionOption, call: Option<Call>) -> Result<(), AuctionError> {
        let wrong = || AuctionError::WrongCallForOption { requirement: option.call, law: option.law };
        let call = match (option.call, call) {
            (CallRequirement::None, None) => return Ok(()),
            (CallRequirement::None, Some(_)) | (_, None) => return Err(wrong()),
            (_, Some(call)) => call,
        };
        let not_allowed = || AuctionError::ReplacementNotAllowed { call, requirement: option.call, law: option.law };
        let seat = option.chooser_seat.unwrap_or(self.turn());
        let allowed = match option.call {
            CallRequirement::None => false,
            CallRequirement::AnyCall => true,
            CallRequirement::Exactly(required) => call == required,
            CallRequirement::AnyLegal => self.legal_replacement(seat, call),
            CallRequirement::AnyLegalExcept(other) => call != other && self.legal_replacement(seat, call),
            CallRequirement::SufficientBidOrPass => match call {
                Call::Pass => true,
                Call::Bid(bid) => self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over)),
                Call::Double | Call::Redouble => false,
            },
            CallRequirement::DoubleOrRedouble => matches!(call, Call::Double | Call::Redouble),
            CallRequirement::InsufficientBid => match call {
                Call::Bid(bid) => self.last_bid().is_some_and(|(_, over)| !bid.is_sufficient_over(over)),
                _ => false,
            },
            CallRequirement::SufficientBidSpecifying(suits) => match call {
                Call::Bid(bid) => {
                    self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over))
                        && Specifies::of(call.into(), self.choice_relation(call.into())) == Specifies::Suits(suits)
                }
                _ => false,
            },
        };
        if allowed { Ok(()) } else { Err(not_allowed()) }
    }

    /// The suits an artificial call carried by a rectification choice relates to
    /// ([`Auction::rectify_artificial`]); `None` for a natural call.
    fn choice_relation(&self, call: RecordedCall) -> Option<SuitSet> {
        self.announcing.filter(|a| a.call == call).map(|a| a.relates_to)
    }

    /// The suits `seat`'s latest recorded `call` relates to, if it was artificial.
    fn entry_relation(&self, seat: Seat, call: RecordedCall) -> Option<SuitSet> {
        self.entries.iter().rev().find(|e| e.seat == seat && e.call == call).and_then(|e| e.relates_to)
    }

    /// Rubber Law 27A ("if the insufficient bid and sufficient bid are both not artificial")
    /// and duplicate Law 27B1(a) ("the lowest sufficient bid which specifies the same
    /// denomination(s) as that specified by the withdrawn call"): the replacement chosen under
    /// [`OptionKind::LowestSufficientBid`] must specify what the insufficient bid specified,
    /// and under the rubber Laws neither may be artificial.
    fn check_same_denominations(
        &self,
        option: &AuctionOption,
        stage: &Stage,
        call: Option<Call>,
    ) -> Result<(), AuctionError> {
        let (OptionKind::LowestSufficientBid, Stage::Replacement { entry, fixed, .. }, Some(call)) =
            (option.kind, stage, call)
        else {
            return Ok(());
        };
        let withdrawn = self.entries[*entry];
        // A premature replacement that stands (duplicate Law 27C) carries its own relation.
        let relation = match fixed {
            Some(f) => self.entries[*f].relates_to,
            None => self.choice_relation(call.into()),
        };
        let same = Specifies::of(withdrawn.call, withdrawn.relates_to) == Specifies::of(call.into(), relation);
        let natural = !self.is_duplicate() && relation.is_none() && withdrawn.relates_to.is_none();
        if same && (self.is_duplicate() || natural) {
            Ok(())
        } else {
            Err(AuctionError::ReplacementNotAllowed { call, requirement: option.call, law: option.law })
        }
    }

    /// Whether `call` is a legal call for `seat` at the point of the legal auction where he is
    /// replacing a withdrawn call (Law 19 and sufficiency; a rectification's restrictions on
    /// him are applied when the call is made).
    fn legal_replacement(&self, seat: Seat, call: Call) -> bool {
        match call {
            Call::Pass => true,
            Call::Double | Call::Redouble => self.double_fault(seat, call.into()).is_none(),
            Call::Bid(bid) => self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over)),
        }
    }

    /// The lead penalty a due penalty gives at the end of the auction (duplicate Law 26B turns
    /// on the suits the offender specified in the legal auction).
    fn lead_penalty_for(&self, due: &DueLeadPenalty) -> Option<LeadPenalty> {
        match &due.penalty {
            Some(penalty) => Some(penalty.clone()),
            None => {
                // "any suit which has not been specified in the legal auction by the offender":
                // an artificial call specifies the suits it relates to, not the one it names.
                let specified: SuitSet = self
                    .standing()
                    .filter(|(_, seat, _)| *seat == due.offender)
                    .fold(SuitSet::EMPTY, |suits, (i, ..)| suits.union(self.entries[i].suits_specified()));
                let open: Vec<Suit> = SuitSet::ALL.difference(specified).to_vec();
                (!open.is_empty()).then_some(LeadPenalty::ForbidOneOf(open))
            }
        }
    }
}

impl fmt::Display for Auction {
    /// The legal auction as a score sheet shows it, from the dealer: `N: 1H Pass 2H X ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.dealer.letter())?;
        for (_, call) in self.standing_calls() {
            write!(f, " {call}")?;
        }
        Ok(())
    }
}
