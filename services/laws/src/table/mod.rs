//! The deal in progress at one table, as a whole: the deal, the auction, the hand-over to the
//! play with the obligations the auction leaves (Law 26 lead penalties, Law 24 penalty cards),
//! the play, irregularities recorded as facts and the decisions they bring, calls for the
//! official (Club Law 13; duplicate Law 9B), claims and concessions (Laws 68-71), result entry
//! for tables that play with physical cards, abandonment, and who may see which cards.
//!
//! [`DealInProgress`] is an immutable value like [`Auction`] and [`Play`], which it drives:
//! [`DealInProgress::apply`] takes an [`Action`] and returns the next state and the [`Event`]s
//! the action amounts to, or a [`TableError`] (naming the Law where a Law refuses) and no
//! change. The same actions replayed give the same state, so a service stores the actions and
//! rebuilds the state from them; records carry the [`Step`] (the number of the action) that
//! made them, so the service can attach who acted and when.
//!
//! Two ways a table plays ([`Mode`]):
//! - **digital**: the server dealt the cards; calls and plays go through [`Auction::call`] and
//!   [`Play::card`], so anything the Laws forbid is refused with its Law. Only matters of
//!   judgement (unauthorised information, misinformation, ...) are recorded as facts.
//! - **recorded**: the cards are physical; calls and plays are facts ([`Auction::record`],
//!   [`Play::record`]), irregularities become decisions whose options the Laws give, and the
//!   effects of the option chosen are enforced from then on. A table may also enter only the
//!   result. Without the hands the auction is still checked, but the play cannot be, so once
//!   the auction closes the table enters the result.
//!
//! ```
//! use laws::table::{Action, DealInProgress, Hands, Mode, Phase, Setup, Viewer};
//! use laws::{Code, Seat, Vulnerability};
//!
//! let deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765".parse()?;
//! let setup = Setup {
//!     code: Code::Club,
//!     mode: Mode::Recorded,
//!     dealer: Seat::North,
//!     vulnerability: Vulnerability::None,
//!     hands: Hands::Entered(deal),
//!     result_only: false,
//! };
//! let (table, _) = DealInProgress::start(setup)?;
//! // North opens 1S; East bids 1H, an insufficient bid (Law 27): a fact at a physical table.
//! let (table, _) = table.apply(&Action::Call { seat: Seat::North, call: "1S".parse()?, relates_to: None })?;
//! let (table, _) = table.apply(&Action::Call { seat: Seat::East, call: "1H".parse()?, relates_to: None })?;
//! let decision = table.open_decision().expect("Law 27 gives options");
//! assert!(decision.options.iter().any(|o| o.name == "accept_by_calling"));
//! // Under the Alternative Club Laws the Arbiter is summoned at once (Club Law 13).
//! assert_eq!(table.open_official_calls().count(), 1);
//! assert_eq!(table.phase(), Phase::Auction);
//! // East sees his own hand and nobody else's.
//! assert_eq!(table.visible_hands(Viewer::Player(Seat::East)).len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod events;
mod replay;
mod view;

#[cfg(test)]
mod tests;

pub use events::Event;
pub use replay::ReplayError;
pub use view::{Viewer, sees_dealt_hand, sees_finished_deal};

use std::fmt;

use crate::auction::{Auction, AuctionError, AuctionOutcome, CallStatus, PendingIrregularity};
use crate::cards::{Card, Deal, DealSeed, Suit, SuitSet};
use crate::contract::{Call, DeclaredContract, Vulnerability};
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionChoice, CallRequirement, IrregularityKind as AuctionIrregularity, OptionKind, PassDuration, RecordedCall,
    ReservedAdjustment, Restriction as AuctionRestriction,
};
use crate::irregularities::play::{
    Decision, Designation, LeadChoice, PlayOption, PlayRequirement, Retraction, Situation,
};
use crate::law::{Code, Law};
use crate::penalty::{LeadPenalty, PenaltyCard};
use crate::play::{Claim, ClaimRecord, ClaimResponse, ClaimStatus, DrawnBy, Exposure, Play, PlayError, PlayEvent};
use crate::score::honors::{Honors, HonorsClaim, honors_claim};
use crate::seat::Seat;
use replay::Checks;

/// The number of the action that made a record: 0 is the start of the deal, 1 the first
/// action after it. The service keeps who acted and when for each step.
pub type Step = u32;

/// How a table plays (see the [module documentation](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The server dealt; illegal calls and plays are refused with their Law.
    Digital,
    /// Physical cards: calls and plays are recorded as facts, irregularities included.
    Recorded,
}

/// Where the cards of a deal come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hands {
    /// Dealt by the server from a secret seed ([`Deal::from_seed`]); the seed's commitment is
    /// published at the start and the seed revealed at the end.
    Seeded(DealSeed),
    /// Entered by the table (physical cards whose hands were recorded).
    Entered(Deal),
    /// Physical cards whose hands were not entered.
    Unknown,
}

/// What a deal is: fixed when it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The code of Laws: [`Code::Rubber`] (Chicago too), [`Code::Club`] (rubber bridge with the
    /// Alternative Club Laws and an Arbiter) or [`Code::Duplicate`].
    pub code: Code,
    /// Digital or recorded.
    pub mode: Mode,
    /// The dealer, who calls first (Law 17).
    pub dealer: Seat,
    /// Vulnerability (Law 73; Appendix 4 C; duplicate Law 2).
    pub vulnerability: Vulnerability,
    /// The cards.
    pub hands: Hands,
    /// Recorded mode only: the table enters only the result.
    pub result_only: bool,
}

/// The stage a deal has reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The auction (Laws 17-40).
    Auction,
    /// The play (Laws 41-67).
    Play,
    /// Play suspended by a claim or concession being considered (Law 68).
    Claim,
    /// Only the result is to be entered.
    ResultEntry,
    /// Over, with a result (or passed out).
    Finished,
    /// Abandoned without a result.
    Abandoned,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Auction => "during the auction",
            Phase::Play => "during the play",
            Phase::Claim => "while a claim is considered",
            Phase::ResultEntry => "while the table is to enter the result",
            Phase::Finished => "once the deal has ended",
            Phase::Abandoned => "once the deal was abandoned",
        })
    }
}

/// The kinds of irregularity a table records as fact (the contract's `IrregularityKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FactKind {
    /// A card exposed or led during the auction (Law 24).
    ExposedCardDuringAuction,
    /// A call changed (Law 25).
    ChangeOfCall,
    /// An insufficient bid (Law 27).
    InsufficientBid,
    /// A call out of rotation (Laws 28-32).
    CallOutOfRotation,
    /// Simultaneous calls (Law 33): the other player's call, deemed made after the call in
    /// turn.
    SimultaneousCalls,
    /// An inadmissible call (Laws 35-39).
    InadmissibleCall,
    /// An opening lead out of turn (Law 54).
    OpeningLeadOutOfTurn,
    /// A lead out of turn after the opening lead (Laws 53, 55, 56).
    LeadOutOfTurn,
    /// A premature lead or play by a defender (Law 57).
    PrematurePlay,
    /// A defender's card exposed during the play (Laws 49-50).
    ExposedCard,
    /// Declarer's or dummy's card exposed (Law 48).
    DeclarerExposedCard,
    /// Attention drawn to a revoke (Laws 61-64).
    Revoke,
    /// A defective trick (Law 67).
    DefectiveTrick,
    /// Unauthorised information (Law 16).
    UnauthorizedInformation,
    /// Misinformation (Laws 21, 40).
    Misinformation,
    /// Dummy exceeding his rights (Laws 42-43).
    DummyIrregularity,
    /// Anything else.
    Other,
    /// A played card's unintended designation changed: declarer's designation of a card from
    /// dummy (duplicate Law 45C4(b), 47C), any player's (rubber Law 45D, 47B). The card is the
    /// one designated instead; the card changed is the one its hand played to the trick.
    ChangeOfDesignation,
    /// Dummy placed in the played position a card declarer did not name (duplicate Law 45D;
    /// rubber Law 46). The card is the one declarer named.
    UndesignatedDummyCard,
    /// An incomplete or invalid designation of a card from dummy (Law 46). The designation is
    /// what declarer said.
    IncompleteDesignation,
    /// A lead or play out of turn because an opponent, the offender, mistakenly said it was
    /// the player's turn: retracted (duplicate Law 47E1; rubber Law 47D). The card is the one
    /// retracted.
    MisinformedOfTurn,
    /// A card retracted because of an opponent's mistaken explanation, the opponent being the
    /// offender (duplicate Law 47E2(a); rubber Law 47D). The card is the one retracted.
    RetractionAfterMisexplanation,
    /// Two or more cards led or played at once from one hand, their faces visible, and the
    /// player's designation made after an opponent played to the trick (duplicate Law 58B2-3;
    /// rubber Law 58). The card is the one designated; the other visible cards are in
    /// [`Fact::also_visible`]. The hand is the card's holder; the offender is the player who
    /// designates (declarer for dummy's cards).
    SimultaneousCards,
    /// The opening lead retracted because of an opponent's mistaken explanation, the opponent
    /// being the offender, before dummy faced any card (duplicate Law 47E2(a); rubber Law 47D).
    /// The card is the one retracted. Recorded play only: a digital table shows dummy with the
    /// lead.
    OpeningLeadRetractedBeforeDummyFaced,
    /// A double or redouble Law 19 does not permit, made in turn, that nobody noticed: it
    /// stands in the auction as made until attention is drawn to it (duplicate Law 36; rubber
    /// Laws 35A and 36). The call is the double or redouble. Recorded play only.
    UnnoticedInadmissibleCall,
    /// Attention drawn to an unnoticed inadmissible double or redouble, the offender's call
    /// (the last such call of his). During the auction period, Law 36 (36A once a later call
    /// stands: it and every later call are cancelled); after the opening lead was faced, the
    /// contract is scored as if it had not been made (duplicate Law 36C).
    AttentionToUnnoticedCall,
    /// A card contributed to a trick the player had already played to: a fifth card, or a
    /// second card of his (duplicate Law 45E with 67A2; rubber Law 67A2). The card is the extra
    /// card, the trick (1-13) the trick it went to. A defender's becomes a penalty card,
    /// declarer's or dummy's goes back. A card the official deems led is a lead instead.
    ExtraCardToTrick,
    /// A call changed because of misinformation from an opponent (duplicate Law 21B; rubber and
    /// Club Law 21). The offender is the opponent who gave the misinformation; the misinformed
    /// player is [`Fact::misinformed`], and the call changed is his last call (his partner must
    /// not have called since); the call is the new call. The official (the players in rubber
    /// bridge) then judges whether the call was influenced by the misinformation, and the
    /// misinformed player's left-hand opponent may change a call he made over the changed one
    /// (Law 21B2). Until the end of the auction period in duplicate (the Clarification
    /// Period included: the auction reopens); until the auction is closed under the rubber
    /// codes. Digital tables record it too: explanations are human there as well, and the
    /// change is the remedy the Laws give, not an irregular call the server could refuse.
    CallChangedAfterMisinformation,
}

impl FactKind {
    /// Whether the kind is a matter of judgement the engine records without rectifying
    /// (these are the only kinds a digital table records).
    pub const fn is_judgement(self) -> bool {
        matches!(
            self,
            FactKind::DefectiveTrick
                | FactKind::UnauthorizedInformation
                | FactKind::Misinformation
                | FactKind::DummyIrregularity
                | FactKind::Other
        )
    }
}

impl fmt::Display for FactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FactKind::ExposedCardDuringAuction => "a card exposed during the auction",
            FactKind::ChangeOfCall => "a change of call",
            FactKind::InsufficientBid => "an insufficient bid",
            FactKind::CallOutOfRotation => "a call out of rotation",
            FactKind::SimultaneousCalls => "a simultaneous call",
            FactKind::InadmissibleCall => "an inadmissible call",
            FactKind::OpeningLeadOutOfTurn => "an opening lead out of turn",
            FactKind::LeadOutOfTurn => "a lead out of turn",
            FactKind::PrematurePlay => "a premature lead or play",
            FactKind::ExposedCard => "an exposed card",
            FactKind::DeclarerExposedCard => "a card of declarer's exposed",
            FactKind::Revoke => "a revoke",
            FactKind::DefectiveTrick => "a defective trick",
            FactKind::UnauthorizedInformation => "unauthorised information",
            FactKind::Misinformation => "misinformation",
            FactKind::DummyIrregularity => "dummy exceeding his rights",
            FactKind::Other => "an irregularity",
            FactKind::ChangeOfDesignation => "a change of designation",
            FactKind::UndesignatedDummyCard => "a card dummy played that declarer did not name",
            FactKind::IncompleteDesignation => "an incomplete designation from dummy",
            FactKind::MisinformedOfTurn => "a player misinformed that it was his turn",
            FactKind::RetractionAfterMisexplanation => "a card retracted after a mistaken explanation",
            FactKind::SimultaneousCards => "cards played together",
            FactKind::OpeningLeadRetractedBeforeDummyFaced => "an opening lead retracted before dummy was faced",
            FactKind::UnnoticedInadmissibleCall => "an inadmissible double or redouble nobody noticed",
            FactKind::AttentionToUnnoticedCall => "attention drawn to an unnoticed inadmissible call",
            FactKind::ExtraCardToTrick => "an extra card played to a trick",
            FactKind::CallChangedAfterMisinformation => "a call changed because of misinformation",
        })
    }
}

/// An irregularity as the table tells it. Which details are needed depends on the kind: a
/// call for the auction kinds, a card for the lead, play and exposure kinds, a trick (1-13)
/// for a revoke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// What happened.
    pub kind: FactKind,
    /// Who committed it.
    pub offender: Seat,
    /// The call, for the auction kinds.
    pub call: Option<Call>,
    /// The card, for the lead, play and exposure kinds.
    pub card: Option<Card>,
    /// The trick, 1 to 13, for a revoke or a defective trick.
    pub trick: Option<u8>,
    /// For an exposed card: exposed deliberately (Law 50B: then a major penalty card whatever
    /// its rank).
    pub deliberate: bool,
    /// For an incomplete designation: what declarer said (Law 46).
    pub designation: Option<Designation>,
    /// For cards played together: the other cards whose faces were visible (Law 58B).
    pub also_visible: Vec<Card>,
    /// For the auction kinds, when the call made is artificial: the suits it relates to
    /// (possibly none), as in [`Action::Call`].
    pub relates_to: Option<SuitSet>,
    /// For a call changed because of misinformation ([`FactKind::CallChangedAfterMisinformation`]):
    /// the misinformed player, an opponent of the offender, whose last call is the one changed
    /// (Law 21B1(a): "provided that his partner has not subsequently called"). For
    /// [`FactKind::Misinformation`]: the player misinformed when it is too late to change his
    /// call, which reserves an adjustment against the offender's side (Law 21B3).
    pub misinformed: Option<Seat>,
    /// In words, as the table tells it.
    pub description: String,
}

/// An irregularity as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IrregularityRecord {
    /// Its number in the deal, from 1.
    pub id: u32,
    /// What happened (the kind as the Laws judge it).
    pub fact: Fact,
    /// The player who drew attention to it, if a player did.
    pub pointed_out_by: Option<Seat>,
    /// The Law that governs it.
    pub law: Law,
    /// The decisions it brought, in order.
    pub decisions: Vec<u32>,
    /// The irregular call's position in [`Auction::calls`], for the auction kinds.
    pub call_index: Option<usize>,
    /// The action that recorded it.
    pub step: Step,
}

/// Who made a choice or an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    /// The Arbiter (Alternative Club Laws) or Director (duplicate).
    Official,
    /// The player at this seat (or the table device recording his choice).
    Seat(Seat),
}

/// What an option does when chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Choice {
    Auction(OptionKind),
    Play(PlayOption),
}

/// One option the Laws give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RectificationOption {
    /// A stable machine-readable name (`accept_by_calling`, `reject_lead`, ...).
    pub name: String,
    /// What it does, in words, with its Law and effects.
    pub description: String,
    /// The Law that gives it.
    pub law: Law,
    /// Whom the Laws give it to.
    pub chooser: Chooser,
    /// The seats entitled to choose it at this table; empty when only the official may.
    pub chooser_seats: Vec<Seat>,
    /// The call a choice of it must carry (auction options).
    pub call: CallRequirement,
    /// The cards the option concerns that lie in a hand not every player may see (rubber Law
    /// 62's twelfth-trick options: [`PlayOption::concealed_card`]). The description never names
    /// them: show them to the official only.
    pub official_cards: Vec<Card>,
    choice: Choice,
}

/// The decision the deal is waiting for, or was.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PendingSource {
    Auction(PendingIrregularity),
    Play(Decision),
}

/// How a decision was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settlement {
    /// The option chosen (its index), or `None` when the decision lapsed (the deal ended, or
    /// the irregularity was condoned by a call or play that the options do not name).
    pub option: Option<usize>,
    /// Who chose; `None` when it lapsed.
    pub by: Option<Actor>,
    /// The action that settled it.
    pub step: Step,
}

/// A choice the Laws give after an irregularity, with its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionRecord {
    /// Its number in the deal, from 1.
    pub id: u32,
    /// The irregularity that brought it, if any was recorded.
    pub irregularity: Option<u32>,
    /// What it is about, in words.
    pub situation: String,
    /// The Law that governs it.
    pub law: Law,
    /// The options.
    pub options: Vec<RectificationOption>,
    /// The action that raised it.
    pub step: Step,
    /// How it was settled, once it was.
    pub settled: Option<Settlement>,
    source: PendingSource,
}

/// A call for the Arbiter (Club Law 13) or the Director (duplicate Law 9B).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfficialCall {
    /// Its number in the deal, from 1.
    pub id: u32,
    /// The player who called, if a player did.
    pub seat: Option<Seat>,
    /// Why, in words.
    pub reason: String,
    /// The irregularities it concerns.
    pub irregularities: Vec<u32>,
    /// The disputed claim it concerns.
    pub claim: Option<u32>,
    /// The action that made the call.
    pub step: Step,
    /// The action that resolved it, and the official's note.
    pub resolved: Option<(Step, String)>,
}

/// A claim or concession, beside the play engine's record of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimInfo {
    /// Its number in the deal, from 1.
    pub id: u32,
    /// A concession (the claimer's side gives tricks up) rather than a claim.
    pub concession: bool,
    /// The action that made it.
    pub step: Step,
    /// The official's decision on it: the action, and the reasons.
    pub adjudication: Option<(Step, String)>,
}

/// The result of a deal for scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealResult {
    /// All four passed (Law 22).
    PassedOut,
    /// A contract and the tricks declarer's side took, after any revoke transfer (Law 64;
    /// rubber Law 77: as though won in play).
    Played {
        /// The contract and its declarer.
        contract: DeclaredContract,
        /// Tricks won by declarer's side, 0 to 13.
        tricks: u8,
    },
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Thirteen tricks played.
    PlayedOut,
    /// A claim agreed (Law 69).
    Claimed,
    /// A concession agreed (Law 69).
    Conceded,
    /// A disputed claim decided by the official (Club Laws 69-70; duplicate Law 70).
    ClaimAdjudicated,
    /// Passed out (Law 22).
    PassedOut,
    /// The result entered without the play recorded.
    ResultEntered,
    /// Abandoned; no result.
    Abandoned,
}

/// How a deal ended and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// The result, unless abandoned.
    pub result: Option<DealResult>,
    /// Honors held (Law 81): never in duplicate, never on a passed-out deal.
    pub honors: Vec<HonorsClaim>,
    /// Tricks transferred for established revokes (Law 64), counted in the result.
    pub tricks_transferred: u8,
    /// Why it was abandoned, as given.
    pub reason: String,
    /// The action that ended it.
    pub step: Step,
}

/// What a table does (see [`DealInProgress::apply`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A call by `seat`: refused if illegal in digital play; a fact in recorded play.
    Call {
        /// Who calls.
        seat: Seat,
        /// The call.
        call: Call,
        /// For an artificial call, the suits it relates to (possibly none), as the
        /// partnership's methods disclose; `None` for a natural call (rubber Law 26A; duplicate
        /// Laws 26B and 27B1(a) ask what a call "specified").
        relates_to: Option<SuitSet>,
    },
    /// A card from `seat`'s hand (dummy's seat when declarer plays from dummy).
    Play {
        /// The hand the card comes from.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// An irregularity recorded as a fact.
    Irregularity {
        /// What happened.
        fact: Fact,
        /// The player who drew attention to it.
        pointed_out_by: Option<Seat>,
    },
    /// The choice of an option of the open decision.
    Choose {
        /// The decision.
        decision: u32,
        /// The option's index.
        option: usize,
        /// The call the option carries, where it needs one.
        call: Option<Call>,
        /// For an artificial call carried, the suits it relates to (as in [`Action::Call`]).
        relates_to: Option<SuitSet>,
        /// Who chooses.
        by: Actor,
    },
    /// A claim of `tricks` of the remaining tricks (Law 68A).
    Claim {
        /// The claimer.
        claimer: Seat,
        /// Tricks his side will win.
        tricks: u8,
        /// His statement of the line of play.
        statement: String,
    },
    /// A concession of `tricks` of the remaining tricks (Law 68B).
    Concede {
        /// The player conceding.
        conceder: Seat,
        /// Tricks his side gives up.
        tricks: u8,
    },
    /// An answer to the claim being considered.
    RespondToClaim {
        /// The claim.
        claim: u32,
        /// Who answers.
        seat: Seat,
        /// Agree (or dispute).
        agree: bool,
    },
    /// The official's decision on a disputed claim.
    Adjudicate {
        /// The claim.
        claim: u32,
        /// Of the remaining tricks, how many the claimer's side is awarded.
        tricks: u8,
        /// The reasons.
        reasons: String,
    },
    /// A call for the official.
    CallOfficial {
        /// The player calling, if a player.
        seat: Option<Seat>,
        /// Why.
        reason: String,
    },
    /// The official settles a call.
    ResolveOfficialCall {
        /// The call.
        call: u32,
        /// What was explained or ruled.
        note: String,
    },
    /// The result, entered without the play (recorded mode).
    EnterResult {
        /// The result.
        result: DealResult,
        /// Honors claimed (Law 81).
        honors: Vec<HonorsClaim>,
    },
    /// The deal is abandoned without a result.
    Abandon {
        /// Why.
        reason: String,
    },
}

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

/// What a restriction in force requires or forbids (the contract's `RestrictionKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObligationKind {
    /// Must pass at the next turn to call (Law 24B, 30A ...).
    PassNextTurn,
    /// Must pass whenever it is his turn to call (Law 27C, 30B, 31, 32 ...).
    PassRestOfAuction,
    /// May not double or redouble (rubber Laws 30B, 32A).
    NoDoubleOrRedouble,
    /// Must repeat his call out of rotation (rubber Laws 31B1, 32B1; duplicate 31A1, 32A1).
    MustRepeatCall,
    /// Declarer may require or forbid the named suits at this player's first lead (Law 26A).
    LeadRequireOrForbid,
    /// Declarer may forbid one suit at this player's first lead (Law 26B).
    LeadForbidAnyOneSuit,
    /// Must lead the named suit (Law 26, 50D2, 51B exercised).
    LeadRequired,
    /// May not lead the named suits while he retains the lead.
    LeadForbidden,
    /// Must play his highest card of the suit led (Law 57A).
    PlayHighest,
    /// Must play his lowest card of the suit led (Law 57A).
    PlayLowest,
    /// Must play a card of the named suit (duplicate Law 57A3).
    PlaySuitRequired,
    /// May not play a card of the named suit (Law 57).
    PlaySuitForbidden,
    /// Must play one card named by declarer (rubber Law 62, twelfth trick; Law 50D1 designation).
    PlayCardRequired,
}

/// An obligation a rectification left in force.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Obligation {
    /// The player it binds.
    pub seat: Seat,
    /// What it requires or forbids.
    pub kind: ObligationKind,
    /// The suits it names.
    pub suits: Vec<Suit>,
    /// The Law that imposed it.
    pub law: Law,
    /// In words.
    pub description: String,
}

/// The deal in progress at one table (see the [module documentation](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealInProgress {
    setup: Setup,
    deal: Option<Deal>,
    auction: Auction,
    play: Option<Play>,
    awaiting_result: bool,
    /// The contract to score when it differs from the contract played: duplicate Law 36C.
    scored_as: Option<DeclaredContract>,
    irregularities: Vec<IrregularityRecord>,
    decisions: Vec<DecisionRecord>,
    official_calls: Vec<OfficialCall>,
    claims: Vec<ClaimInfo>,
    outcome: Option<Outcome>,
    step: Step,
}

/// What one action created, for linking the decisions it brings.
#[derive(Debug, Default)]
struct Effects {
    /// The irregularity record the action created, if any.
    record: Option<u32>,
    /// The decision the action chose from, if any.
    chose: Option<u32>,
}

impl DealInProgress {
    /// Starts a deal. Refused for a setup no deal can start from: a digital deal without
    /// dealt cards, a result-only deal in digital mode, or a code that governs no play.
    pub fn start(setup: Setup) -> Result<(DealInProgress, Vec<Event>), TableError> {
        let code = match setup.code {
            Code::Rubber | Code::Chicago => Code::Rubber,
            Code::Club => Code::Club,
            Code::Duplicate => Code::Duplicate,
            Code::ClubProcedure => {
                return Err(TableError::Setup("the Rules for Club Procedure govern no deal: use a code of Laws"));
            }
        };
        let deal = match &setup.hands {
            Hands::Seeded(seed) => Some(Deal::from_seed(seed)),
            Hands::Entered(deal) => Some(*deal),
            Hands::Unknown => None,
        };
        match setup.mode {
            Mode::Digital if deal.is_none() => {
                return Err(TableError::Setup("a digital deal is dealt by the server: it needs its cards"));
            }
            Mode::Digital if setup.result_only => {
                return Err(TableError::Setup("only a recorded deal (physical cards) may enter only its result"));
            }
            _ => {}
        }
        let setup = Setup { code, ..setup };
        let table = DealInProgress {
            auction: Auction::new(setup.dealer, code),
            awaiting_result: setup.result_only,
            scored_as: None,
            setup,
            deal,
            play: None,
            irregularities: Vec::new(),
            decisions: Vec::new(),
            official_calls: Vec::new(),
            claims: Vec::new(),
            outcome: None,
            step: 0,
        };
        Ok((table, vec![Event::DealStarted]))
    }

    /// Applies `action` and returns the next state with the events it amounts to (never
    /// none); on a refusal nothing changes.
    pub fn apply(&self, action: &Action) -> Result<(DealInProgress, Vec<Event>), TableError> {
        self.advance(action, Checks::Laws)
    }

    /// [`DealInProgress::apply`], judging the action by the Laws or trusting it
    /// ([`DealInProgress::apply_unchecked`]).
    fn advance(&self, action: &Action, checks: Checks) -> Result<(DealInProgress, Vec<Event>), TableError> {
        let mut next = self.clone();
        next.step += 1;
        let effects = next.dispatch(action, checks)?;
        next.track_decisions(action, &effects);
        next.finish_if_over();
        let events = events::between(self, &next);
        if events.is_empty() {
            return Err(TableError::NothingHappened);
        }
        Ok((next, events))
    }

    // ----- queries -----

    /// The setup (with Chicago given as [`Code::Rubber`], whose Laws it is played under).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The code of Laws applied.
    pub fn code(&self) -> Code {
        self.setup.code
    }

    /// The cards as dealt, when known.
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// The seed of a digital deal.
    pub fn seed(&self) -> Option<&DealSeed> {
        match &self.setup.hands {
            Hands::Seeded(seed) => Some(seed),
            _ => None,
        }
    }

    /// The auction, every call recorded.
    pub fn auction(&self) -> &Auction {
        &self.auction
    }

    /// The play, once the auction has closed with a contract and the cards are known.
    pub fn play(&self) -> Option<&Play> {
        self.play.as_ref()
    }

    /// The number of actions applied since the start.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The stage the deal has reached.
    pub fn phase(&self) -> Phase {
        match &self.outcome {
            Some(outcome) if outcome.ending == Ending::Abandoned => Phase::Abandoned,
            Some(_) => Phase::Finished,
            None if self.awaiting_result => Phase::ResultEntry,
            None => match &self.play {
                Some(play) if play.is_suspended() => Phase::Claim,
                Some(_) => Phase::Play,
                None => Phase::Auction,
            },
        }
    }

    /// Whether the deal is over (finished or abandoned).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How the deal ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The contract: the play's (declarer changes when he accepts an opening lead out of turn
    /// by spreading his hand, Law 54), else the auction's once it closed with one.
    pub fn contract(&self) -> Option<DeclaredContract> {
        match &self.play {
            Some(play) => Some(play.contract()),
            None => match self.auction.outcome() {
                Some(AuctionOutcome::Contract(outcome)) => Some(outcome.contract),
                _ => None,
            },
        }
    }

    /// The contract the deal will be scored as when it differs from the contract played
    /// (duplicate Law 36C: an inadmissible double or redouble found after the opening lead was
    /// faced is scored as if it had not been made).
    pub fn contract_scored(&self) -> Option<DeclaredContract> {
        self.scored_as.filter(|scored| Some(*scored) != self.contract())
    }

    /// The adjustments the official may make at the end of play, each against the side whose
    /// infraction may have damaged the other (Laws 16, 21B3, 23C, 27D, 72C; Club Law 21): the
    /// rectification gave the side no further redress at the time.
    pub fn reserved_adjustments(&self) -> &[ReservedAdjustment] {
        self.auction.reserved_adjustments()
    }

    /// Every irregularity recorded.
    pub fn irregularities(&self) -> &[IrregularityRecord] {
        &self.irregularities
    }

    /// Every decision raised, settled ones included.
    pub fn decisions(&self) -> &[DecisionRecord] {
        &self.decisions
    }

    /// The decision the deal waits for: nobody calls or plays until it is made (rubber Law 13;
    /// duplicate Law 9B2).
    pub fn open_decision(&self) -> Option<&DecisionRecord> {
        self.decisions.iter().find(|d| d.settled.is_none())
    }

    /// Every call for the official.
    pub fn official_calls(&self) -> &[OfficialCall] {
        &self.official_calls
    }

    /// The calls for the official not yet resolved.
    pub fn open_official_calls(&self) -> impl Iterator<Item = &OfficialCall> + '_ {
        self.official_calls.iter().filter(|c| c.resolved.is_none())
    }

    /// Every claim and concession, with the play engine's record of it.
    pub fn claims(&self) -> Vec<(&ClaimInfo, &ClaimRecord)> {
        let records = self.play.as_ref().map_or(&[][..], Play::claims);
        self.claims.iter().zip(records.iter()).collect()
    }

    /// Who is to call or play next; `None` while a decision, an official call or a claim holds
    /// the game up, and once the deal is over.
    pub fn next_to_act(&self) -> Option<Seat> {
        if self.outcome.is_some() || self.open_decision().is_some() || self.open_official_calls().next().is_some() {
            return None;
        }
        match self.phase() {
            Phase::Auction => self.auction.next_to_call(),
            Phase::Play => self.play.as_ref().and_then(Play::next_to_play),
            _ => None,
        }
    }

    /// The penalty cards on the table (Law 50), face up for everyone.
    pub fn penalty_cards(&self) -> Vec<PenaltyCard> {
        self.play.as_ref().map(|p| p.penalty_cards().copied().collect()).unwrap_or_default()
    }

    /// The obligations in force: the auction's restrictions on calls, the lead penalties the
    /// auction left for the play (Law 26), and the play's lead and play restrictions.
    pub fn obligations(&self) -> Vec<Obligation> {
        let mut out = Vec::new();
        match &self.play {
            None => {
                for restriction in self.auction.restrictions() {
                    let (kind, law) = match restriction {
                        AuctionRestriction::MustPass { duration: PassDuration::NextTurn, law, .. } => {
                            (ObligationKind::PassNextTurn, *law)
                        }
                        AuctionRestriction::MustPass { duration: PassDuration::RestOfAuction, law, .. } => {
                            (ObligationKind::PassRestOfAuction, *law)
                        }
                        AuctionRestriction::NoDoubleOrRedoubleNextTurn { law, .. }
                        | AuctionRestriction::MayNotDoubleOrRedoubleBid { law, .. } => {
                            (ObligationKind::NoDoubleOrRedouble, *law)
                        }
                        AuctionRestriction::MustRepeat { law, .. } => (ObligationKind::MustRepeatCall, *law),
                    };
                    out.push(Obligation {
                        seat: restriction.seat(),
                        kind,
                        suits: Vec::new(),
                        law,
                        description: restriction.to_string(),
                    });
                }
            }
            Some(play) => {
                for penalty in play.lead_penalties() {
                    let (kind, suits) = match &penalty.penalty {
                        LeadPenalty::RequireOrForbid(suits) => (ObligationKind::LeadRequireOrForbid, suits.clone()),
                        LeadPenalty::ForbidAnyOneSuit => (ObligationKind::LeadForbidAnyOneSuit, Vec::new()),
                        LeadPenalty::ForbidOneOf(suits) => (ObligationKind::LeadForbidAnyOneSuit, suits.clone()),
                    };
                    let description = match kind {
                        ObligationKind::LeadRequireOrForbid => format!(
                            "declarer may require or forbid {}'s lead of {} the first time he has the lead ({})",
                            penalty.player,
                            suit_list(&suits),
                            penalty.law
                        ),
                        _ if suits.is_empty() => format!(
                            "declarer may forbid {}'s lead of any one suit the first time he has the lead ({})",
                            penalty.player, penalty.law
                        ),
                        _ => format!(
                            "declarer may forbid {}'s lead of one of {} the first time he has the lead ({})",
                            penalty.player,
                            suit_list(&suits),
                            penalty.law
                        ),
                    };
                    out.push(Obligation { seat: penalty.player, kind, suits, law: penalty.law, description });
                }
                if let Some(restriction) = play.lead_restriction() {
                    if let Some((suit, law)) = restriction.required {
                        out.push(Obligation {
                            seat: restriction.player,
                            kind: ObligationKind::LeadRequired,
                            suits: vec![suit],
                            law,
                            description: format!("{} must lead {suit} if he can ({law})", restriction.player),
                        });
                    }
                    if let Some((suits, law)) = restriction.forbidden {
                        out.push(Obligation {
                            seat: restriction.player,
                            kind: ObligationKind::LeadForbidden,
                            suits: suits.iter().collect(),
                            law,
                            description: format!(
                                "{} may not lead {suits} while he retains the lead ({law})",
                                restriction.player
                            ),
                        });
                    }
                }
                if let Some(restriction) = play.play_restriction() {
                    let (kind, suits) = match restriction.requirement {
                        PlayRequirement::Highest => (ObligationKind::PlayHighest, Vec::new()),
                        PlayRequirement::Lowest => (ObligationKind::PlayLowest, Vec::new()),
                        PlayRequirement::Suit(suit) => (ObligationKind::PlaySuitRequired, vec![suit]),
                        PlayRequirement::NotSuit(suit) => (ObligationKind::PlaySuitForbidden, vec![suit]),
                        PlayRequirement::Card(_) | PlayRequirement::OneOfTwo { .. } => {
                            (ObligationKind::PlayCardRequired, Vec::new())
                        }
                    };
                    let description = match restriction.requirement {
                        // The card itself may be in a hidden hand: name only what the Law
                        // requires (a twelfth-trick requirement names it without showing it).
                        PlayRequirement::Card(_) => {
                            format!("{} must play the card declarer named ({})", restriction.player, restriction.law)
                        }
                        requirement => format!("{} must {requirement} ({})", restriction.player, restriction.law),
                    };
                    out.push(Obligation { seat: restriction.player, kind, suits, law: restriction.law, description });
                }
                if let Some(card) = play.designated_penalty_card() {
                    let owner = play.penalty_cards().find(|pc| pc.card == card).map(|pc| pc.owner);
                    if let Some(owner) = owner {
                        let law = play
                            .penalty_cards()
                            .find(|pc| pc.card == card)
                            .map_or(self.cite(50, "", "D1"), |pc| pc.law);
                        out.push(Obligation {
                            seat: owner,
                            kind: ObligationKind::PlayCardRequired,
                            suits: vec![card.suit],
                            law,
                            description: format!(
                                "{owner} must play the penalty card {card} declarer designated ({law})"
                            ),
                        });
                    }
                }
            }
        }
        out
    }

    // ----- actions -----

    fn dispatch(&mut self, action: &Action, checks: Checks) -> Result<Effects, TableError> {
        match action {
            Action::Call { seat, call, relates_to } => {
                self.ensure_live("a call")?;
                self.ensure_no_official(checks)?;
                self.call(*seat, *call, *relates_to, checks)?;
                Ok(Effects::default())
            }
            Action::Play { seat, card } => {
                self.ensure_live("a play")?;
                self.ensure_no_official(checks)?;
                let record = self.play_card(*seat, *card, checks)?;
                Ok(Effects { record, chose: None })
            }
            Action::Irregularity { fact, pointed_out_by } => {
                self.ensure_live("recording an irregularity")?;
                let record = self.record_fact(fact, *pointed_out_by)?;
                Ok(Effects { record: Some(record), chose: None })
            }
            Action::Choose { decision, option, call, relates_to, by } => {
                self.ensure_live("a rectification choice")?;
                self.choose(*decision, *option, *call, *relates_to, *by)?;
                Ok(Effects { record: None, chose: Some(*decision) })
            }
            Action::Claim { claimer, tricks, statement } => {
                self.ensure_live("a claim")?;
                self.ensure_no_official(checks)?;
                let play = self.play_for("a claim")?;
                let next = play.claim(Claim::new(*claimer, *tricks, statement.clone()))?;
                self.play = Some(next);
                self.claims.push(ClaimInfo {
                    id: self.claims.len() as u32 + 1,
                    concession: false,
                    step: self.step,
                    adjudication: None,
                });
                Ok(Effects::default())
            }
            Action::Concede { conceder, tricks } => {
                self.ensure_live("a concession")?;
                self.ensure_no_official(checks)?;
                let play = self.play_for("a concession")?;
                let remaining = play.remaining_tricks();
                if *tricks > remaining {
                    return Err(
                        PlayError::TooManyTricks { tricks: *tricks, remaining, law: self.cite(68, "", "B1") }.into()
                    );
                }
                let next = play.claim(Claim::new(*conceder, remaining - tricks, String::new()))?;
                self.play = Some(next);
                self.claims.push(ClaimInfo {
                    id: self.claims.len() as u32 + 1,
                    concession: true,
                    step: self.step,
                    adjudication: None,
                });
                Ok(Effects::default())
            }
            Action::RespondToClaim { claim, seat, agree } => {
                self.ensure_live("an answer to a claim")?;
                self.current_claim(*claim)?;
                let play = self.play_for("an answer to a claim")?;
                let response = if *agree { ClaimResponse::Agree(*seat) } else { ClaimResponse::Dispute(*seat) };
                let next = play.respond_to_claim(response)?;
                let disputed = next.claims().last().is_some_and(|c| c.status == ClaimStatus::Disputed);
                self.play = Some(next);
                if disputed && self.official().is_some() {
                    // Club Laws 69-70, duplicate Law 68D: a disputed claim goes to the official.
                    self.summon(None, format!("claim {claim} disputed by {seat}"), None, Some(*claim));
                }
                Ok(Effects::default())
            }
            Action::Adjudicate { claim, tricks, reasons } => {
                self.ensure_live("an adjudication")?;
                self.current_claim(*claim)?;
                let play = self.play_for("an adjudication")?;
                let next = play.adjudicate(*tricks)?;
                self.play = Some(next);
                let step = self.step;
                if let Some(info) = self.claims.iter_mut().find(|c| c.id == *claim) {
                    info.adjudication = Some((step, reasons.clone()));
                }
                // The official's decision settles the call that brought him to the table.
                for call in self.official_calls.iter_mut().filter(|c| c.claim == Some(*claim) && c.resolved.is_none()) {
                    call.resolved = Some((step, reasons.clone()));
                }
                Ok(Effects::default())
            }
            Action::CallOfficial { seat, reason } => {
                if self.phase() == Phase::Abandoned {
                    return Err(TableError::DealOver { what: "calling the arbiter", phase: Phase::Abandoned });
                }
                self.summon(*seat, reason.clone(), None, None);
                Ok(Effects::default())
            }
            Action::ResolveOfficialCall { call, note } => {
                let step = self.step;
                let found = self
                    .official_calls
                    .iter_mut()
                    .find(|c| c.id == *call)
                    .ok_or(TableError::NoSuchOfficialCall(*call))?;
                if found.resolved.is_some() {
                    return Err(TableError::OfficialCallResolved(*call));
                }
                found.resolved = Some((step, note.clone()));
                Ok(Effects::default())
            }
            Action::EnterResult { result, honors } => {
                self.ensure_live("entering a result")?;
                self.enter_result(*result, honors, checks)?;
                Ok(Effects::default())
            }
            Action::Abandon { reason } => {
                self.ensure_live("abandoning the deal")?;
                self.settle_open_decision();
                self.outcome = Some(Outcome {
                    ending: Ending::Abandoned,
                    result: None,
                    honors: Vec::new(),
                    tricks_transferred: 0,
                    reason: reason.clone(),
                    step: self.step,
                });
                Ok(Effects::default())
            }
        }
    }

    fn ensure_live(&self, what: &'static str) -> Result<(), TableError> {
        match self.phase() {
            phase @ (Phase::Finished | Phase::Abandoned) => Err(TableError::DealOver { what, phase }),
            _ => Ok(()),
        }
    }

    /// The official of the code in force and the Law that stops the game while he deals with
    /// the table; `None` under the Laws of Rubber Bridge without an Arbiter.
    fn official(&self) -> Option<(&'static str, Law)> {
        match self.setup.code {
            // Duplicate Law 9B2: no player shall take any action until the Director has
            // explained all matters in regard to rectification.
            Code::Duplicate => Some(("Director", Law::duplicate(9, "B2"))),
            // Club Law 13: the Arbiter is summoned at once and rules.
            Code::Club => Some(("Arbiter", Law::club(13, ""))),
            _ => None,
        }
    }

    /// Refuses calls and plays while an official call is open (Club Law 13; duplicate Law
    /// 9B2; rubber Law 13 when a club's arbiter is called to a rubber table). Trusted input was
    /// judged by the rules of its day.
    fn ensure_no_official(&self, checks: Checks) -> Result<(), TableError> {
        if checks == Checks::Trusted || self.open_official_calls().next().is_none() {
            return Ok(());
        }
        let (official, law) = self.official().unwrap_or(("Arbiter", Law::rubber(13, "")));
        Err(TableError::OfficialAtTable { official, law })
    }

    fn cite(&self, number: u8, rubber: &'static str, duplicate: &'static str) -> Law {
        if self.setup.code == Code::Duplicate { Law::duplicate(number, duplicate) } else { Law::rubber(number, rubber) }
    }

    fn play_for(&self, what: &'static str) -> Result<&Play, TableError> {
        match &self.play {
            Some(play) => Ok(play),
            None if self.awaiting_result && self.deal.is_none() && !self.setup.result_only => {
                Err(TableError::HandsUnknown)
            }
            None => Err(TableError::WrongPhase { what, phase: self.phase() }),
        }
    }

    fn current_claim(&self, claim: u32) -> Result<(), TableError> {
        if claim == 0 || claim as usize > self.claims.len() {
            return Err(TableError::NoSuchClaim(claim));
        }
        if claim as usize != self.claims.len() {
            return Err(TableError::ClaimNotCurrent(claim));
        }
        Ok(())
    }

    /// A call: digital play refuses anything irregular (Law 17 for the turn, and the auction's
    /// own Laws); recorded play takes it as a fact. In recorded play a call after the auction
    /// closed, before the opening lead, is Law 39's: the auction takes it and the play waits
    /// for its rectification.
    fn call(&mut self, seat: Seat, call: Call, relates_to: Option<SuitSet>, checks: Checks) -> Result<(), TableError> {
        if self.setup.result_only {
            return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
        }
        match self.setup.mode {
            Mode::Digital => {
                if self.play.is_some() || self.auction.is_closed() {
                    // Law 39: the auction is closed.
                    return Err(self.auction.call(call).err().map_or(TableError::NothingHappened, Into::into));
                }
                if let Some(turn) = self.auction.next_to_call()
                    && turn != seat
                    && self.auction.pending().is_none()
                {
                    return Err(TableError::NotYourTurn { seat, turn, act: "call", law: self.cite(17, "", "") });
                }
                if checks == Checks::Trusted {
                    // A call the Laws of its day accepted, made as it was made.
                    self.auction = self.auction.call_unchecked(call, relates_to)?;
                    return self.after_auction();
                }
                let next = self.auction.call(call)?;
                // A legal call in turn: recording it as made keeps what it relates to.
                self.auction = match relates_to {
                    Some(suits) => self.auction.record_artificial(seat, call.into(), suits)?.into_auction(),
                    None => next,
                };
            }
            Mode::Recorded => {
                if let Some(play) = &self.play
                    && (!play.tricks().is_empty() || play.decision().is_some() || play.dummy_visible())
                {
                    return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") }.into());
                }
                self.auction = match relates_to {
                    Some(suits) => self.auction.record_artificial(seat, call.into(), suits)?,
                    None => self.auction.record(seat, call.into())?,
                }
                .into_auction();
                self.play = None;
            }
        }
        self.after_auction()
    }

    /// Hands the auction over to the play once it has closed with nothing to rectify: the
    /// contract with the lead penalties and penalty cards it carries (Laws 24, 26), or the end
    /// of a passed-out deal (Law 22); without the cards the table enters the result.
    fn after_auction(&mut self) -> Result<(), TableError> {
        self.awaiting_result = self.setup.result_only;
        match self.auction.outcome() {
            None => Ok(()),
            Some(AuctionOutcome::PassedOut) => {
                self.settle_open_decision();
                self.outcome = Some(Outcome {
                    ending: Ending::PassedOut,
                    result: Some(DealResult::PassedOut),
                    honors: Vec::new(),
                    tricks_transferred: 0,
                    reason: String::new(),
                    step: self.step,
                });
                Ok(())
            }
            Some(AuctionOutcome::Contract(outcome)) => {
                match self.deal {
                    Some(deal) => {
                        self.play = Some(Play::new(
                            deal,
                            outcome.contract,
                            self.setup.code,
                            outcome.lead_penalties,
                            outcome.penalty_cards,
                        )?);
                    }
                    None => self.awaiting_result = true,
                }
                Ok(())
            }
        }
    }

    /// A card: digital play through [`Play::card`] for the hand due (Law 44); recorded play as
    /// a fact. A recorded card the Laws pick up or make a penalty card without a decision is
    /// recorded as an irregularity.
    fn play_card(&mut self, seat: Seat, card: Card, checks: Checks) -> Result<Option<u32>, TableError> {
        let play = self.play_for("a play")?;
        match self.setup.mode {
            Mode::Digital => {
                if let Some(turn) = play.next_to_play()
                    && turn != seat
                    && play.decision().is_none()
                    && !play.is_suspended()
                {
                    return Err(TableError::NotYourTurn { seat, turn, act: "play", law: self.cite(44, "", "B") });
                }
                // A card the Laws of its day accepted is played as it was played.
                let next = if checks == Checks::Trusted { play.card_unchecked(card)? } else { play.card(card)? };
                self.play = Some(next);
                Ok(None)
            }
            Mode::Recorded => {
                let before_pending = play.decision();
                let faced = play.dummy_visible();
                let recorded = play.record(seat, card)?;
                let next_pending = recorded.play.decision();
                self.play = Some(recorded.play);
                if next_pending.is_some() && next_pending != before_pending {
                    // The decision's own record is made when the decision is tracked.
                    return Ok(None);
                }
                let auto = recorded.events.iter().find_map(|event| match event {
                    PlayEvent::CardReturned { seat: s, card: c, law } if *s == seat && *c == card => Some(*law),
                    PlayEvent::PenaltyCard(pc) if pc.owner == seat && pc.card == card => Some(pc.law),
                    _ => None,
                });
                match auto {
                    Some(law) => {
                        let kind = match law.number {
                            // Law 57; a lead before declarer's Law 50D2 choice; a card of the
                            // offending side before rectification (Law 60C).
                            57 | 50 | 60 => FactKind::PrematurePlay,
                            48 | 24 => FactKind::OpeningLeadOutOfTurn,
                            54 => FactKind::OpeningLeadOutOfTurn,
                            _ if !faced => FactKind::OpeningLeadOutOfTurn,
                            _ => FactKind::LeadOutOfTurn,
                        };
                        let fact = Fact {
                            kind,
                            offender: seat,
                            call: None,
                            card: Some(card),
                            trick: None,
                            deliberate: true,
                            designation: None,
                            also_visible: Vec::new(),
                            misinformed: None,
                            relates_to: None,
                            description: format!("{seat} played the {card} out of turn"),
                        };
                        Ok(Some(self.add_record(fact, None, law)))
                    }
                    None => Ok(None),
                }
            }
        }
    }

    /// Records an irregularity as a fact; for the kinds the engines rectify, the Laws judge
    /// what it is and the decision it brings follows.
    fn record_fact(&mut self, fact: &Fact, pointed_out_by: Option<Seat>) -> Result<u32, TableError> {
        let offender = fact.offender;
        if self.setup.mode == Mode::Digital
            && !fact.kind.is_judgement()
            && !matches!(
                fact.kind,
                FactKind::Revoke | FactKind::RetractionAfterMisexplanation | FactKind::CallChangedAfterMisinformation
            )
        {
            return Err(TableError::DigitalFact { kind: fact.kind });
        }
        let missing = |detail| TableError::MissingDetail { kind: fact.kind, detail };
        match fact.kind {
            FactKind::InsufficientBid
            | FactKind::CallOutOfRotation
            | FactKind::InadmissibleCall
            | FactKind::SimultaneousCalls
            | FactKind::ChangeOfCall => {
                let call = fact.call.ok_or_else(|| missing("the call made"))?;
                if self.setup.result_only {
                    return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
                }
                if let Some(play) = &self.play
                    && (!play.tricks().is_empty() || play.decision().is_some() || play.dummy_visible())
                {
                    return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") }.into());
                }
                let before = self.auction.pending().cloned();
                let recorded = match (fact.kind, fact.relates_to) {
                    (FactKind::ChangeOfCall, Some(suits)) => {
                        self.auction.change_call_artificial(offender, call.into(), suits)?
                    }
                    (FactKind::ChangeOfCall, None) => self.auction.change_call(offender, call.into())?,
                    (_, Some(suits)) => self.auction.record_artificial(offender, call.into(), suits)?,
                    (_, None) => self.auction.record(offender, call.into())?,
                };
                let auction = recorded.into_auction();
                let Some(pending) = auction.pending().filter(|p| Some(*p) != before.as_ref()).cloned() else {
                    return Err(TableError::NotAnIrregularity {
                        what: format!("{offender}'s {call}"),
                        kind: fact.kind,
                        act: "call",
                        law: self.cite(17, "", ""),
                    });
                };
                self.auction = auction;
                self.play = None;
                self.after_auction()?;
                let irregularity = pending.irregularity();
                let judged = Fact { kind: auction_fact_kind(&irregularity.kind), ..fact.clone() };
                Ok(self.add_record(judged, pointed_out_by, irregularity.law))
            }
            FactKind::CallChangedAfterMisinformation => {
                let call = fact.call.ok_or_else(|| missing("the call made in place of the changed call"))?;
                if self.setup.result_only {
                    return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
                }
                let changer =
                    fact.misinformed.ok_or_else(|| missing("the misinformed player, who changes his call"))?;
                // Duplicate Law 17D1: the auction period ends when a defender faces the opening
                // lead (a lead out of turn included); rubber Law 21: "Until the auction is
                // closed", which the auction checks.
                if let Some(play) = &self.play
                    && (!play.tricks().is_empty() || play.decision().is_some() || play.dummy_visible())
                {
                    let law = match self.setup.code {
                        Code::Duplicate => Law::duplicate(21, "B3"),
                        Code::Club => Law::club(21, ""),
                        _ => Law::rubber(21, ""),
                    };
                    let reason = "the auction period has ended";
                    return Err(AuctionError::TooLateToChange { seat: changer, reason, law }.into());
                }
                let auction = match fact.relates_to {
                    Some(suits) => {
                        self.auction.change_after_misinformation_artificial(changer, call.into(), offender, suits)?
                    }
                    None => self.auction.change_after_misinformation(changer, call.into(), offender)?,
                }
                .into_auction();
                let law = auction.pending().map_or(self.cite(21, "", "B1"), |p| p.irregularity().law);
                self.auction = auction;
                self.play = None;
                self.after_auction()?;
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::UnnoticedInadmissibleCall => {
                let call = fact.call.ok_or_else(|| missing("the double or redouble"))?;
                if self.setup.result_only {
                    return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
                }
                if self.play.is_some() {
                    return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") }.into());
                }
                // A call after the close, or any call while a rectification is pending, is
                // judged by the auction (Law 39; Law 9B2 duplicate, Law 13 rubber).
                let auction = self.auction.record_unnoticed(offender, call.into())?.into_auction();
                let unnoticed = auction.calls().last().and_then(|entry| match entry.status {
                    CallStatus::Unnoticed { law, .. } => Some(law),
                    _ => None,
                });
                let Some(law) = unnoticed else {
                    return Err(TableError::NotAnIrregularity {
                        what: format!("{offender}'s {call}"),
                        kind: fact.kind,
                        act: "call",
                        law: self.cite(19, "", ""),
                    });
                };
                self.auction = auction;
                self.after_auction()?;
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::AttentionToUnnoticedCall => {
                let call = fact.call.ok_or_else(|| missing("the double or redouble"))?;
                let recorded: RecordedCall = call.into();
                let entry = self
                    .auction
                    .calls()
                    .iter()
                    .rposition(|e| {
                        e.seat == offender && e.call == recorded && matches!(e.status, CallStatus::Unnoticed { .. })
                    })
                    .ok_or_else(|| TableError::NotAnIrregularity {
                        what: format!("{offender}'s {call}"),
                        kind: fact.kind,
                        act: "call",
                        law: self.cite(36, "", ""),
                    })?;
                let lead_faced = self.play.as_ref().is_some_and(|p| !p.tricks().is_empty() || p.dummy_visible());
                if lead_faced {
                    // Duplicate Law 36C: "the final contract is scored as if the inadmissible
                    // call had not been made". The rubber Laws give nothing once play has begun:
                    // the fact is recorded for the players (or the Arbiter) to settle.
                    let law = if self.setup.code == Code::Duplicate {
                        self.scored_as = self.auction.contract_to_score_if_found_after_opening_lead();
                        Law::duplicate(36, "C")
                    } else {
                        self.cite(36, "", "")
                    };
                    let id = self.add_record(fact.clone(), pointed_out_by, law);
                    self.irregularities[id as usize - 1].call_index = Some(entry);
                    return Ok(id);
                }
                let auction = self.auction.draw_attention_to(entry)?.into_auction();
                let law = auction.pending().map_or(self.cite(36, "", "A"), |p| p.irregularity().law);
                self.auction = auction;
                self.play = None;
                self.after_auction()?;
                let id = self.add_record(fact.clone(), pointed_out_by, law);
                self.irregularities[id as usize - 1].call_index = Some(entry);
                Ok(id)
            }
            FactKind::ExposedCardDuringAuction if self.play.is_none() => {
                let card = fact.card.ok_or_else(|| missing("the card exposed"))?;
                if self.awaiting_result && self.auction.outcome().is_none() {
                    return Err(TableError::WrongPhase { what: "an exposed card", phase: Phase::ResultEntry });
                }
                let auction = self.auction.expose_cards(offender, &[card], false)?.into_auction();
                let law = auction.pending().map_or(self.cite(24, "", ""), |p| p.irregularity().law);
                self.auction = auction;
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::ExposedCardDuringAuction | FactKind::ExposedCard | FactKind::DeclarerExposedCard => {
                let card = fact.card.ok_or_else(|| missing("the card exposed"))?;
                let play = self.play_for("an exposed card")?;
                let how = if fact.deliberate { Exposure::Deliberate } else { Exposure::Inadvertent };
                let recorded = play.expose(offender, &[card], how)?;
                let law = rectification_law(&recorded.events).unwrap_or(self.cite(49, "", ""));
                let kind = if recorded.play.is_defender(offender) && !recorded.play.faced_hands().contains(offender) {
                    FactKind::ExposedCard
                } else {
                    FactKind::DeclarerExposedCard
                };
                self.play = Some(recorded.play);
                Ok(self.add_record(Fact { kind, ..fact.clone() }, pointed_out_by, law))
            }
            FactKind::OpeningLeadOutOfTurn | FactKind::LeadOutOfTurn | FactKind::PrematurePlay => {
                let card = fact.card.ok_or_else(|| missing("the card led or played"))?;
                let play = self.play_for("a lead or play out of turn")?;
                let before = play.decision();
                let faced = play.dummy_visible();
                let recorded = play.record(offender, card)?;
                let decision = recorded.play.decision().filter(|d| Some(d) != before.as_ref());
                let judged = match &decision {
                    Some(decision) => match decision.situation {
                        Situation::OpeningLeadOutOfTurn { .. } => Some((FactKind::OpeningLeadOutOfTurn, decision.law)),
                        Situation::DeclarerLeadOutOfTurn { .. } | Situation::DefenderLeadOutOfTurn { .. } => {
                            Some((FactKind::LeadOutOfTurn, decision.law))
                        }
                        Situation::PrematurePlay { .. } => Some((FactKind::PrematurePlay, decision.law)),
                        _ => None,
                    },
                    None => recorded.events.iter().find_map(|event| match event {
                        PlayEvent::CardReturned { law, .. } => {
                            Some((if faced { FactKind::LeadOutOfTurn } else { FactKind::OpeningLeadOutOfTurn }, *law))
                        }
                        PlayEvent::PenaltyCard(pc) if pc.owner == offender => Some((FactKind::PrematurePlay, pc.law)),
                        _ => None,
                    }),
                };
                let Some((kind, law)) = judged else {
                    return Err(TableError::NotAnIrregularity {
                        what: format!("{offender}'s {card}"),
                        kind: fact.kind,
                        act: "play",
                        law: self.cite(44, "", "B"),
                    });
                };
                self.play = Some(recorded.play);
                Ok(self.add_record(Fact { kind, ..fact.clone() }, pointed_out_by, law))
            }
            FactKind::Revoke => {
                let trick = fact.trick.filter(|t| (1..=13).contains(t)).ok_or_else(|| missing("the trick, 1 to 13"))?;
                let play = self.play_for("drawing attention to a revoke")?;
                let next = play.draw_attention_to_revoke(offender, trick - 1, DrawnBy::Player)?;
                let established = next.revokes().iter().any(|r| {
                    r.offender == offender && r.trick == trick - 1 && r.status == crate::play::RevokeStatus::Established
                });
                // Law 62: a revoke not established is corrected; Law 63-64: an established one
                // stands and tricks are transferred after play.
                let law = if established { self.cite(64, "", "A") } else { self.cite(62, "", "") };
                self.play = Some(next);
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::ChangeOfDesignation
            | FactKind::UndesignatedDummyCard
            | FactKind::MisinformedOfTurn
            | FactKind::RetractionAfterMisexplanation
            | FactKind::OpeningLeadRetractedBeforeDummyFaced => {
                let card = fact.card.ok_or_else(|| missing("the card designated, named or retracted"))?;
                let play = self.play_for("taking back a card played")?;
                let holder = play.deal().holder(card);
                let retraction = match fact.kind {
                    FactKind::ChangeOfDesignation => Retraction::ChangeOfDesignation { card },
                    FactKind::UndesignatedDummyCard => Retraction::UndesignatedDummyCard { named: card },
                    FactKind::MisinformedOfTurn => Retraction::ToldItWasHisTurn { by: offender },
                    FactKind::OpeningLeadRetractedBeforeDummyFaced => {
                        Retraction::OpeningLeadBeforeDummyFaced { by: offender }
                    }
                    _ => Retraction::MistakenExplanation { by: offender },
                };
                let recorded = play.retract(holder, retraction)?;
                let taken_back = recorded.events.iter().any(|event| match event {
                    PlayEvent::CardWithdrawn { card: c, .. } | PlayEvent::CardReturned { card: c, .. } => *c == card,
                    _ => false,
                });
                if matches!(
                    retraction,
                    Retraction::ToldItWasHisTurn { .. }
                        | Retraction::MistakenExplanation { .. }
                        | Retraction::OpeningLeadBeforeDummyFaced { .. }
                ) && !taken_back
                {
                    return Err(PlayError::RetractionRefused {
                        seat: holder,
                        reason: "the card named is not the card he played",
                        law: retraction.law(self.setup.code),
                    }
                    .into());
                }
                self.play = Some(recorded.play);
                Ok(self.add_record(fact.clone(), pointed_out_by, retraction.law(self.setup.code)))
            }
            FactKind::SimultaneousCards => {
                let card = fact.card.ok_or_else(|| missing("the card designated"))?;
                if fact.also_visible.is_empty() {
                    return Err(missing("the other cards whose faces were visible"));
                }
                let play = self.play_for("cards played together")?;
                let holder = play.deal().holder(card);
                let recorded = play.designate_simultaneous(holder, card, &fact.also_visible)?;
                self.play = Some(recorded.play);
                Ok(self.add_record(fact.clone(), pointed_out_by, self.cite(58, "", "B2")))
            }
            FactKind::ExtraCardToTrick => {
                let card = fact.card.ok_or_else(|| missing("the extra card"))?;
                let trick = fact.trick.filter(|t| (1..=13).contains(t)).ok_or_else(|| missing("the trick, 1 to 13"))?;
                let play = self.play_for("an extra card to a trick")?;
                let holder = play.deal().holder(card);
                let recorded = play.record_extra_card(holder, card, trick - 1)?;
                let law = rectification_law(&recorded.events).unwrap_or(self.cite(67, "A2", "45E"));
                self.play = Some(recorded.play);
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::IncompleteDesignation => {
                let designation = fact.designation.ok_or_else(|| missing("what declarer said"))?;
                let play = self.play_for("a designation from dummy")?;
                let ruling = play.interpret_designation(designation)?;
                if let Designation::Card(card) = designation
                    && play.hand(play.dummy()).contains(card)
                {
                    return Err(TableError::NotAnIrregularity {
                        what: format!("declarer's call of the {card}"),
                        kind: fact.kind,
                        act: "play",
                        law: ruling.law,
                    });
                }
                let recorded = play.designate_from_dummy(designation)?;
                self.play = Some(recorded.play);
                Ok(self.add_record(fact.clone(), pointed_out_by, ruling.law))
            }
            FactKind::Misinformation if fact.misinformed.is_some() => {
                // Law 21B3 (rubber and Club Law 21): too late to change the call; the score
                // may be adjusted at the end of play, against the side that misinformed.
                let misinformed = fact.misinformed.ok_or_else(|| missing("the misinformed player"))?;
                self.auction = self.auction.misinformation_too_late(misinformed, offender)?;
                let law = self.auction.reserved_adjustments().last().map_or(self.cite(21, "", "B3"), |r| r.law);
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
            FactKind::DefectiveTrick
            | FactKind::UnauthorizedInformation
            | FactKind::Misinformation
            | FactKind::DummyIrregularity
            | FactKind::Other => {
                if fact.kind == FactKind::DefectiveTrick && !fact.trick.is_some_and(|t| (1..=13).contains(&t)) {
                    return Err(missing("the trick, 1 to 13"));
                }
                let law = self.judgement_law(fact.kind);
                Ok(self.add_record(fact.clone(), pointed_out_by, law))
            }
        }
    }

    /// The Law that governs a matter of judgement in the code in force.
    fn judgement_law(&self, kind: FactKind) -> Law {
        let club = self.setup.code == Code::Club;
        match kind {
            FactKind::UnauthorizedInformation if club => Law::club(16, ""),
            FactKind::UnauthorizedInformation => self.cite(16, "", ""),
            FactKind::Misinformation if club => Law::club(21, ""),
            FactKind::Misinformation => self.cite(21, "", ""),
            FactKind::DummyIrregularity => self.cite(43, "", ""),
            FactKind::DefectiveTrick => self.cite(67, "", ""),
            _ => self.official().map_or(Law::rubber(13, ""), |(_, law)| law),
        }
    }

    /// Adds an irregularity record; under a code with an official, summons him (Club Law 13;
    /// duplicate Law 9B1(a): the Director must be summoned at once when attention is drawn to
    /// an irregularity).
    fn add_record(&mut self, fact: Fact, pointed_out_by: Option<Seat>, law: Law) -> u32 {
        let id = self.irregularities.len() as u32 + 1;
        let reason = if fact.description.is_empty() {
            format!("{} by {} ({law})", fact.kind, fact.offender)
        } else {
            format!("{} by {}: {} ({law})", fact.kind, fact.offender, fact.description)
        };
        // A call irregularity is the last call recorded (the call itself, or the changed call).
        let call_index =
            (self.play.is_none() && fact.call.is_some()).then(|| self.auction.calls().len().checked_sub(1)).flatten();
        // Nobody noticed it: nobody called the official (Law 9B1(a) duplicate, Club Law 9).
        let noticed = fact.kind != FactKind::UnnoticedInadmissibleCall;
        self.irregularities.push(IrregularityRecord {
            id,
            fact,
            pointed_out_by,
            law,
            decisions: Vec::new(),
            call_index,
            step: self.step,
        });
        if self.official().is_some() && noticed {
            self.summon(pointed_out_by, reason, Some(id), None);
        }
        id
    }

    /// Opens a call for the official, or adds an irregularity to the one already open.
    fn summon(&mut self, seat: Option<Seat>, reason: String, irregularity: Option<u32>, claim: Option<u32>) {
        if claim.is_none()
            && let Some(id) = irregularity
            && let Some(open) = self.official_calls.iter_mut().rev().find(|c| c.resolved.is_none() && c.claim.is_none())
        {
            open.irregularities.push(id);
            return;
        }
        self.official_calls.push(OfficialCall {
            id: self.official_calls.len() as u32 + 1,
            seat,
            reason,
            irregularities: irregularity.into_iter().collect(),
            claim,
            step: self.step,
            resolved: None,
        });
    }

    /// A choice of an option of the open decision, by a player the Laws entitle (or the table
    /// device recording his choice) or by the official.
    fn choose(
        &mut self,
        decision: u32,
        option: usize,
        call: Option<Call>,
        relates_to: Option<SuitSet>,
        by: Actor,
    ) -> Result<(), TableError> {
        let index = self.decisions.iter().position(|d| d.id == decision).ok_or(TableError::NoSuchDecision(decision))?;
        let record = &self.decisions[index];
        if record.settled.is_some() {
            return Err(TableError::DecisionSettled(decision));
        }
        let chosen = record.options.get(option).ok_or(TableError::NoSuchOption { decision, option })?.clone();
        if let Actor::Seat(seat) = by
            && !chosen.chooser_seats.contains(&seat)
        {
            return Err(TableError::NotEntitled {
                seat,
                option: chosen.name,
                chooser: chosen.chooser,
                law: chosen.law,
            });
        }
        match chosen.choice {
            Choice::Auction(kind) => {
                let choice = AuctionChoice { option: kind, call };
                self.auction = match relates_to {
                    Some(suits) => self.auction.rectify_artificial(choice, suits)?,
                    None => self.auction.rectify(choice)?,
                };
                self.play = None;
                self.after_auction()?;
            }
            Choice::Play(option) => {
                let play = self.play_for("a rectification choice")?;
                let next = play.rectify(option)?;
                self.play = Some(next);
            }
        }
        self.decisions[index].settled = Some(Settlement { option: Some(option), by: Some(by), step: self.step });
        Ok(())
    }

    /// Result entry at a recorded table: for a result-only deal, for a deal whose hands were
    /// not entered once the auction closed, or for a table that stops recording the play. What
    /// was recorded must agree: the auction's contract (Law 22), honors that fit the contract
    /// and the hands (Law 81), none in duplicate (Law 77).
    ///
    /// Trusted input (a result the Laws of its day accepted) is entered as it was, with the
    /// honors claimed.
    fn enter_result(&mut self, result: DealResult, honors: &[HonorsClaim], checks: Checks) -> Result<(), TableError> {
        if self.setup.mode == Mode::Digital {
            return Err(TableError::DigitalResult);
        }
        let known = if self.play.is_some() {
            self.contract().map(Some)
        } else {
            match self.auction.outcome() {
                Some(AuctionOutcome::Contract(outcome)) => Some(Some(outcome.contract)),
                Some(AuctionOutcome::PassedOut) => Some(None),
                None => None,
            }
        };
        let describe = |contract: Option<DeclaredContract>| match contract {
            Some(contract) => contract.to_string(),
            None => "passed out".to_owned(),
        };
        let entered = match result {
            DealResult::PassedOut => None,
            DealResult::Played { contract, tricks } => {
                if tricks > 13 {
                    return Err(TableError::TooManyTricks(tricks));
                }
                Some(contract)
            }
        };
        if let Some(recorded) = known
            && recorded != entered
            && checks == Checks::Laws
        {
            let law = match recorded {
                Some(_) => self.cite(22, "B", "A"),
                None => self.cite(22, "A", "B"),
            };
            return Err(TableError::ResultMismatch { entered: describe(entered), recorded: describe(recorded), law });
        }
        let honors = match checks {
            Checks::Laws => self.check_honors(entered, honors)?,
            Checks::Trusted => honors.to_vec(),
        };
        self.settle_open_decision();
        self.outcome = Some(Outcome {
            ending: Ending::ResultEntered,
            result: Some(result),
            honors,
            tricks_transferred: 0,
            reason: String::new(),
            step: self.step,
        });
        Ok(())
    }

    /// Honors as Law 81 scores them: only on a played deal, fitting the denomination, at most
    /// one hand's holding; when the cards are known they decide. Duplicate has none (Law 77).
    fn check_honors(
        &self,
        contract: Option<DeclaredContract>,
        claimed: &[HonorsClaim],
    ) -> Result<Vec<HonorsClaim>, TableError> {
        let law = Law::rubber(81, "");
        if self.setup.code == Code::Duplicate {
            if claimed.is_empty() {
                return Ok(Vec::new());
            }
            return Err(TableError::Honors {
                reason: "honors are not scored in duplicate".to_owned(),
                law: Law::duplicate(77, ""),
            });
        }
        let Some(contract) = contract else {
            if claimed.is_empty() {
                return Ok(Vec::new());
            }
            return Err(TableError::Honors { reason: "honors are never scored on a passed-out deal".to_owned(), law });
        };
        let denomination = contract.contract.denomination();
        if let Some(misfit) = claimed.iter().find(|h| !h.honors.fits(denomination)) {
            let reason = match misfit.honors {
                Honors::FourAces => format!("four aces score only at notrump, not at {denomination}"),
                _ => "trump honors need a trump suit: at notrump only four aces score".to_owned(),
            };
            return Err(TableError::Honors { reason, law });
        }
        if claimed.len() > 1 {
            return Err(TableError::Honors {
                reason: "only one hand can hold scorable honors: claim them once".to_owned(),
                law,
            });
        }
        if let Some(deal) = &self.deal {
            let held: Vec<HonorsClaim> = honors_claim(deal, denomination).into_iter().collect();
            if held != claimed {
                let reason = match held.first() {
                    Some(h) => format!("the hands show {} held by {}", h.honors, h.side),
                    None => "the hands show no scorable honors".to_owned(),
                };
                return Err(TableError::Honors { reason, law });
            }
        }
        Ok(claimed.to_vec())
    }

    /// Ends the deal once the play is over: thirteen tricks, or a claim agreed or decided.
    fn finish_if_over(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let Some(play) = &self.play else { return };
        if !play.is_complete() {
            return;
        }
        let ending = if play.completed_tricks() == 13 {
            Ending::PlayedOut
        } else {
            match (play.claims().last().map(|c| c.status), self.claims.last()) {
                (Some(ClaimStatus::Adjudicated), _) => Ending::ClaimAdjudicated,
                (_, Some(info)) if info.concession => Ending::Conceded,
                _ => Ending::Claimed,
            }
        };
        let contract = self.scored_as.unwrap_or_else(|| play.contract());
        let tricks = play.declarer_tricks().unwrap_or(0);
        let transfer = play.revoke_transfer();
        let honors = match (&self.deal, self.setup.code) {
            (_, Code::Duplicate) | (None, _) => Vec::new(),
            (Some(deal), _) => honors_claim(deal, contract.contract.denomination()).into_iter().collect(),
        };
        self.settle_open_decision();
        self.outcome = Some(Outcome {
            ending,
            result: Some(DealResult::Played { contract, tricks }),
            honors,
            tricks_transferred: transfer.to.iter().sum(),
            reason: String::new(),
            step: self.step,
        });
    }

    /// A decision still open when the deal ends lapses.
    fn settle_open_decision(&mut self) {
        let step = self.step;
        for decision in self.decisions.iter_mut().filter(|d| d.settled.is_none()) {
            decision.settled = Some(Settlement { option: None, by: None, step });
        }
    }

    // ----- decisions -----

    /// The decision the engines are waiting for.
    fn pending_source(&self) -> Option<PendingSource> {
        match &self.play {
            Some(play) => play.decision().map(PendingSource::Play),
            None => self.auction.pending().cloned().map(PendingSource::Auction),
        }
    }

    /// Keeps the decision records in step with the engines: a decision that disappeared
    /// without a choice was settled by the call or play that condoned it (Laws 27A, 28B, 29A,
    /// 53A: by calling or playing over it); a new one is recorded with its options and linked
    /// to the irregularity that brought it.
    fn track_decisions(&mut self, action: &Action, effects: &Effects) {
        let now = self.pending_source();
        let open = self.decisions.iter().position(|d| d.settled.is_none());
        if let Some(i) = open {
            if Some(&self.decisions[i].source) == now.as_ref() {
                return;
            }
            let (option, by) = match action {
                Action::Call { seat, .. } | Action::Play { seat, .. } => {
                    let option = self.decisions[i].options.iter().position(|o| {
                        o.chooser_seats.contains(seat)
                            && matches!(
                                o.choice,
                                Choice::Auction(OptionKind::AcceptByCalling | OptionKind::CallInTurn)
                                    | Choice::Play(PlayOption::AcceptLead)
                            )
                    });
                    (option, Some(Actor::Seat(*seat)))
                }
                _ => (None, None),
            };
            self.decisions[i].settled = Some(Settlement { option, by, step: self.step });
        }
        let Some(source) = now else { return };
        let irregularity = match (effects.chose, effects.record) {
            (Some(chosen), _) => self.decisions.iter().find(|d| d.id == chosen).and_then(|d| d.irregularity),
            (None, Some(record)) => Some(record),
            (None, None) => match fresh_fact(&source) {
                Some((fact, law)) => Some(self.add_record(fact, None, law)),
                None => self.irregularities.last().map(|r| r.id),
            },
        };
        let id = self.decisions.len() as u32 + 1;
        let (situation, law, options) = match &source {
            PendingSource::Auction(pending) => {
                (pending.irregularity().to_string(), pending.irregularity().law, auction_options(pending))
            }
            PendingSource::Play(decision) => (decision.situation.to_string(), decision.law, play_options(decision)),
        };
        if let Some(record) = irregularity.and_then(|r| self.irregularities.iter_mut().find(|i| i.id == r)) {
            record.decisions.push(id);
        }
        self.decisions.push(DecisionRecord {
            id,
            irregularity,
            situation,
            law,
            options,
            step: self.step,
            settled: None,
            source,
        });
    }
}

/// The Law under which a recorded card became a penalty card or went back to the hand.
fn rectification_law(events: &[PlayEvent]) -> Option<Law> {
    events.iter().find_map(|event| match event {
        PlayEvent::PenaltyCard(pc) => Some(pc.law),
        PlayEvent::CardReturned { law, .. } => Some(*law),
        _ => None,
    })
}

/// The irregularity a decision raised by a call or card records, when the decision is about
/// that call or card (and not a later choice an earlier irregularity gives declarer).
fn fresh_fact(source: &PendingSource) -> Option<(Fact, Law)> {
    let fact = |kind, offender, call, card, trick: Option<u8>, description: String| Fact {
        kind,
        offender,
        call,
        card,
        trick,
        deliberate: false,
        designation: None,
        also_visible: Vec::new(),
        misinformed: None,
        relates_to: None,
        description,
    };
    match source {
        PendingSource::Auction(pending) => {
            let irregularity = pending.irregularity();
            let call = irregularity.call.and_then(|c| c.legal());
            let card = match &irregularity.kind {
                AuctionIrregularity::CardsExposed { cards, .. } => cards.first().copied(),
                _ => None,
            };
            Some((
                fact(
                    auction_fact_kind(&irregularity.kind),
                    irregularity.offender,
                    call,
                    card,
                    None,
                    irregularity.to_string(),
                ),
                irregularity.law,
            ))
        }
        PendingSource::Play(decision) => {
            let description = decision.situation.to_string();
            let made = match decision.situation {
                Situation::OpeningLeadOutOfTurn { offender, card } => {
                    fact(FactKind::OpeningLeadOutOfTurn, offender, None, Some(card), None, description)
                }
                Situation::DeclarerLeadOutOfTurn { from, card, .. } => {
                    fact(FactKind::LeadOutOfTurn, from, None, Some(card), None, description)
                }
                Situation::DefenderLeadOutOfTurn { offender, card, .. } => {
                    fact(FactKind::LeadOutOfTurn, offender, None, Some(card), None, description)
                }
                Situation::PrematurePlay { offender, card, .. } => {
                    fact(FactKind::PrematurePlay, offender, None, Some(card), None, description)
                }
                _ => return None,
            };
            Some((made, decision.law))
        }
    }
}

/// The contract's kind of an auction irregularity as the auction engine judged it.
fn auction_fact_kind(kind: &AuctionIrregularity) -> FactKind {
    match kind {
        AuctionIrregularity::CardsExposed { .. } => FactKind::ExposedCardDuringAuction,
        AuctionIrregularity::ChangeOfCall { .. } => FactKind::ChangeOfCall,
        AuctionIrregularity::InsufficientBid { .. } => FactKind::InsufficientBid,
        AuctionIrregularity::CallOutOfRotation { .. } => FactKind::CallOutOfRotation,
        AuctionIrregularity::InadmissibleDouble { .. }
        | AuctionIrregularity::CallWhenRequiredToPass { .. }
        | AuctionIrregularity::BidAboveSeven
        | AuctionIrregularity::CallAfterClose { .. } => FactKind::InadmissibleCall,
        AuctionIrregularity::ComparableCallQuestion { .. } => FactKind::Other,
        AuctionIrregularity::CallChangedAfterMisinformation { .. } => FactKind::CallChangedAfterMisinformation,
    }
}

/// The options of an auction irregularity, with the seats entitled to each.
fn auction_options(pending: &PendingIrregularity) -> Vec<RectificationOption> {
    let offender = pending.irregularity().offender;
    pending
        .options()
        .iter()
        .map(|option| {
            let chooser_seats = match (option.chooser_seat, option.chooser) {
                (Some(seat), _) => vec![seat],
                (None, Chooser::Offender) => vec![offender],
                (None, Chooser::OffendersLho) => vec![offender.lho()],
                // Either member of the non-offending side (rubber Law 10C-style acceptance).
                (None, Chooser::NonOffendingSide) => vec![offender.rho(), offender.lho()],
                (None, Chooser::Declarer | Chooser::Official) => Vec::new(),
            };
            RectificationOption {
                name: option.kind.name().to_owned(),
                description: option.to_string(),
                law: option.law,
                chooser: option.chooser,
                chooser_seats,
                call: option.call,
                official_cards: Vec::new(),
                choice: Choice::Auction(option.kind),
            }
        })
        .collect()
}

/// The options of a play decision.
fn play_options(decision: &Decision) -> Vec<RectificationOption> {
    let seats: Vec<Seat> = decision.seats.iter().collect();
    decision
        .offers
        .iter()
        .map(|offer| {
            let effects: Vec<String> = offer.effects.iter().map(ToString::to_string).collect();
            let mut description = format!("{} ({})", offer.option, offer.law);
            if !effects.is_empty() {
                description.push_str(": ");
                description.push_str(&effects.join("; "));
            }
            RectificationOption {
                name: play_option_name(&offer.option).to_owned(),
                description,
                law: offer.law,
                chooser: decision.chooser,
                chooser_seats: seats.clone(),
                call: CallRequirement::None,
                official_cards: offer.option.concealed_card().into_iter().collect(),
                choice: Choice::Play(offer.option),
            }
        })
        .collect()
}

fn play_option_name(option: &PlayOption) -> &'static str {
    match option {
        PlayOption::AcceptLead => "accept_lead",
        PlayOption::AcceptLeadAndBecomeDummy => "accept_lead_and_become_dummy",
        PlayOption::RejectLead { .. } => "reject_lead",
        PlayOption::RetractLead => "retract_lead",
        PlayOption::Lead(LeadChoice::Require(_)) => "require_lead",
        PlayOption::Lead(LeadChoice::Forbid(_)) => "forbid_lead",
        PlayOption::Lead(LeadChoice::NoRestriction) => "no_lead_restriction",
        PlayOption::PartnerPlays(_) => "partner_plays",
        PlayOption::AcceptPlay => "accept_play",
        PlayOption::SubstitutePenaltyCard(_) => "substitute_penalty_card",
        PlayOption::DesignatePenaltyCard(_) => "designate_penalty_card",
        PlayOption::WithdrawAfterRevoke(_) => "withdraw_after_revoke",
        PlayOption::WithdrawCard => "withdraw_card",
        PlayOption::KeepCard => "keep_card",
        PlayOption::Waive => "waive",
        PlayOption::WithdrawAfterChange(_) => "withdraw_after_change",
        PlayOption::DesignateFromDummy(_) => "designate_from_dummy",
    }
}

fn suit_list(suits: &[Suit]) -> String {
    let names: Vec<String> = suits.iter().map(ToString::to_string).collect();
    names.join(" or ")
}
