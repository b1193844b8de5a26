//! What the deal keeps besides the engines' own state: the decisions irregularities bring
//! and how they were settled, the calls for the official, the claims, and how the deal ended
//! with its result. Plain records, apart from the state machine that writes them.

use crate::auction::PendingIrregularity;
use crate::cards::Card;
use crate::contract::DeclaredContract;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{CallRequirement, OptionKind};
use crate::irregularities::play::{Decision, PlayOption};
use crate::law::Law;
use crate::score::honors::HonorsClaim;
use crate::seat::Seat;

use super::Step;

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
pub(super) enum Choice {
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
    pub(super) choice: Choice,
}

/// The decision the deal is waiting for, or was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PendingSource {
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
    pub(super) source: PendingSource,
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
