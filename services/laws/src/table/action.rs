//! What a table does: every action a service sends to [`super::DealInProgress::apply`], one
//! type apart from the code that applies it so the whole vocabulary reads in one place.

use crate::cards::{Card, SuitSet};
use crate::contract::Call;
use crate::play::StatedLine;
use crate::score::honors::HonorsClaim;
use crate::seat::Seat;

use super::{Actor, DealResult, Fact};

/// What a table does (see [`DealInProgress::apply`](super::DealInProgress::apply)).
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
    /// The opening lead made face down (duplicate Law 41A; in rubber bridge by the players'
    /// agreement, Appendix 3): by the opening leader it lies face down until an
    /// [`Action::Play`] of the same card by him faces it (Law 41C), and dummy waits; by anyone
    /// else, at a recording table, it goes back to the hand without penalty and is recorded as
    /// [`FactKind::FaceDownLeadReturned`](super::FactKind::FaceDownLeadReturned). A digital table
    /// takes it only from the opening leader, with a card he may lead.
    FaceDownLead {
        /// The player leading.
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
        /// The statement as data, which the engine enforces if the claim is disputed and play
        /// continues (rubber Law 69, 70B); `None` for words alone.
        line: Option<StatedLine>,
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
    /// A defender faces his hand for inspection by his partner while play continues after
    /// declarer's disputed claim (rubber Law 69); declarer may then impose no penalty for his
    /// irregularities.
    FaceHand {
        /// The claim being played on.
        claim: u32,
        /// The defender.
        seat: Seat,
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
