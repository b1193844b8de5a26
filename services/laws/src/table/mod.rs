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
//!   judgement (unauthorised information, misinformation, ...) are recorded as facts. One card
//!   is not refused: declarer's against his disputed claim waits for the defenders to accept it
//!   or have it withdrawn (rubber Law 69), as [`Play::record`] holds it at a recording table.
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

// This file holds the state and its queries; each kind of action is applied in a module of
// its own (calls and cards, the hand-overs, facts, decisions, claims, the official, result
// entry), and the types a service exchanges with the table sit beside them.
mod action;
mod auction_facts;
mod calls_and_cards;
mod claims;
mod decisions;
mod error;
mod events;
mod facts;
mod handover;
mod obligations;
mod officials;
mod play_facts;
mod recording;
mod records;
mod replay;
mod result_entry;
mod setup;
mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use error::{ErrorKind, TableError};
pub use events::Event;
pub use facts::{Fact, FactKind, IrregularityRecord};
pub use obligations::{Obligation, ObligationKind};
pub use records::{
    Actor, ClaimInfo, DealResult, DecisionRecord, Ending, OfficialCall, Outcome, RectificationOption, Settlement,
};
pub use replay::ReplayError;
pub use setup::{Hands, Mode, Phase, Setup};
pub use view::{Viewer, sees_dealt_hand, sees_finished_deal};

use crate::auction::{Auction, AuctionOutcome};
use crate::cards::{Deal, DealSeed};
use crate::contract::DeclaredContract;
use crate::irregularities::auction::ReservedAdjustment;
use crate::law::{Code, Law};
use crate::penalty::PenaltyCard;
use crate::play::{ClaimRecord, Play};
use crate::seat::Seat;
use replay::Checks;

/// The number of the action that made a record: 0 is the start of the deal, 1 the first
/// action after it. The service keeps who acted and when for each step.
pub type Step = u32;

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
    /// Whether an action of this deal was accepted under rules version 1, which asked nobody
    /// about equity after an established revoke (Law 64): replayed, the deal ends as it did then.
    before_equity_entry: bool,
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
            before_equity_entry: false,
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
        if let Some(play) = next.play.as_ref().filter(|p| next.before_equity_entry && p.equity_restored().is_none()) {
            next.play = Some(play.without_equity_entry());
        }
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
    /// rectification gave the side no further redress at the time. The auction's first, then the
    /// play's (Laws 47, 55, 62C; rubber 70A and 71C, duplicate 68).
    pub fn reserved_adjustments(&self) -> Vec<ReservedAdjustment> {
        let play = self.play.as_ref().map(Play::reserved_adjustments).unwrap_or_default();
        self.auction.reserved_adjustments().iter().chain(play).copied().collect()
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

    /// The player whose opening lead lies face down, not yet faced (duplicate Law 41A; rubber
    /// Appendix 3). Its card is in his hand, which he alone sees.
    pub fn face_down_lead(&self) -> Option<Seat> {
        self.play.as_ref().and_then(Play::face_down_lead).map(|(seat, _)| seat)
    }

    /// The penalty cards on the table (Law 50), face up for everyone.
    pub fn penalty_cards(&self) -> Vec<PenaltyCard> {
        self.play.as_ref().map(|p| p.penalty_cards().copied().collect()).unwrap_or_default()
    }

    // ----- actions -----

    /// Hands each action to the code that applies it; what it created links the decisions it
    /// brings ([`DealInProgress::track_decisions`]).
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
            Action::FaceDownLead { seat, card } => {
                self.ensure_live("a face-down opening lead")?;
                self.ensure_no_official(checks)?;
                let record = self.lead_face_down(*seat, *card, checks)?;
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
            Action::Claim { claimer, tricks, statement, line } => {
                self.ensure_live("a claim")?;
                self.ensure_no_official(checks)?;
                self.claim(*claimer, *tricks, statement, line.as_ref())?;
                Ok(Effects::default())
            }
            Action::Concede { conceder, tricks } => {
                self.ensure_live("a concession")?;
                self.ensure_no_official(checks)?;
                self.concede(*conceder, *tricks)?;
                Ok(Effects::default())
            }
            Action::RespondToClaim { claim, seat, agree } => {
                self.ensure_live("an answer to a claim")?;
                self.respond_to_claim(*claim, *seat, *agree)?;
                Ok(Effects::default())
            }
            Action::FaceHand { claim, seat } => {
                self.ensure_live("facing a hand for inspection")?;
                self.face_hand(*claim, *seat)?;
                Ok(Effects::default())
            }
            Action::Adjudicate { claim, tricks, reasons } => {
                self.ensure_live("an adjudication")?;
                self.adjudicate(*claim, *tricks, reasons)?;
                Ok(Effects::default())
            }
            Action::CallOfficial { seat, reason } => {
                self.call_official(*seat, reason)?;
                Ok(Effects::default())
            }
            Action::ResolveOfficialCall { call, note } => {
                self.resolve_official_call(*call, note)?;
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

    /// Refuses `what` once the deal has ended.
    fn ensure_live(&self, what: &'static str) -> Result<(), TableError> {
        match self.phase() {
            phase @ (Phase::Finished | Phase::Abandoned) => Err(TableError::DealOver { what, phase }),
            _ => Ok(()),
        }
    }

    /// Law `number` with the rubber section or the duplicate section, by the code in force.
    fn cite(&self, number: u8, rubber: &'static str, duplicate: &'static str) -> Law {
        if self.setup.code == Code::Duplicate { Law::duplicate(number, duplicate) } else { Law::rubber(number, rubber) }
    }

    /// The play to act on, or why there is none: the hands were not entered (the table enters
    /// the result instead), or the deal is not at the play.
    fn play_for(&self, what: &'static str) -> Result<&Play, TableError> {
        match &self.play {
            Some(play) => Ok(play),
            None if self.awaiting_result && self.deal.is_none() && !self.setup.result_only => {
                Err(TableError::HandsUnknown)
            }
            None => Err(TableError::WrongPhase { what, phase: self.phase() }),
        }
    }
}
