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

// The state and its queries are here; the rest by concern: digital play's refusals and the
// in-turn rules (judge), recorded play (recorded, unnoticed, misinformation), the
// rectifications (rectify), the outcome, the errors, and the trusted path of a replay.
mod error;
mod judge;
mod misinformation;
mod outcome;
mod recorded;
mod rectify;
mod trusted;
mod unnoticed;

use std::fmt;

use crate::cards::{Card, SuitSet};
use crate::contract::{Bid, Call};
use crate::irregularities::auction::{DoubleFault, RecordedCall, ReservedAdjustment, Restriction, Specifies};
use crate::law::{Code, Law};
use crate::seat::Seat;

pub use error::AuctionError;
pub use outcome::{AuctionOutcome, ContractOutcome};
pub use recorded::{PendingIrregularity, Recorded};

use judge::InTurn;
use rectify::{Contingent, DueLeadPenalty};

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
