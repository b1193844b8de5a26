//! A defender's hand faced for his partner's inspection after declarer's disputed claim (rubber
//! Law 69).
//!
//! "When his claim or concession is not allowed, declarer must play on, leaving his hand face up
//! on the table. At any time either defender may face his hand for inspection by his partner,
//! and declarer may not impose a penalty for any irregularity committed by a defender whose hand
//! is so faced." (Law 69.)
//!
//! - **When.** While play continues after declarer's claim or concession was disputed under the
//!   Laws of Rubber Bridge. "At any time" is read as any time the play can go on: not while a
//!   decision on an irregularity is pending, so that the decision is made on the state in which
//!   the irregularity was committed (a face-up hand would otherwise change its options after the
//!   fact). Under the Alternative Club Laws the Arbiter adjudicates a disputed claim and nothing
//!   is played on (Club Law 69); in duplicate the Director does (Law 70), and play on by
//!   agreement voids the claim (Law 68D2(b)), so the duplicate Laws give no such right. Both are
//!   refused, as is a defender's disputed claim (Law 70B gives the claimer's partner no such
//!   right).
//! - **What it shows.** The hand lies face up for the rest of the deal, for everyone at the
//!   table, like dummy's (its cards are among [`Play::face_up_cards`]).
//! - **No penalty.** From then on the engine makes no penalty card of that defender's cards (a
//!   card he exposes, leads out of turn, withdraws or plays with another goes back to his hand,
//!   face up with the rest), offers declarer no lead or play restriction for his irregularities
//!   (Law 50D2-51 on a lead out of turn, Law 57, rubber Law 62 on the twelfth trick), and no
//!   substitution of a penalty card he failed to play (Law 52). A revoke from a faced hand
//!   transfers no trick (Law 64D3). What restores the normal order of play is not a penalty and
//!   stays: declarer may still have a lead out of turn retracted, and a revoke is still
//!   corrected. Penalty cards he had before he faced his hand stay (the irregularity that made
//!   them was not committed by a defender whose hand was faced).

use crate::cards::Card;
use crate::irregularities::play::Situation;
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::record::{Events, PlayEvent};
use super::{ClaimStatus, Play, PlayError};

impl Play {
    /// The Law that gives a defender the right to face his hand after declarer's disputed claim.
    pub(crate) const fn inspection_law() -> Law {
        Law::rubber(69, "")
    }

    /// A defender faces his hand for inspection by his partner while play continues after
    /// declarer's disputed claim (rubber Law 69: "At any time either defender may face his hand
    /// for inspection by his partner"). Refused, naming the Law, for declarer or dummy, for a
    /// hand already faced, when no claim of declarer's is being played on after a dispute (Club
    /// Law 69 and duplicate Law 70 have the official adjudicate instead), and while a decision
    /// is pending or the play is over.
    pub fn face_for_inspection(&self, seat: Seat) -> Result<Play, PlayError> {
        self.ensure_can_play()?;
        let refuse = |action, law| Err(PlayError::ClaimResponseRefused { seat, action, law });
        let law = match self.code {
            Code::Duplicate => Law::duplicate(68, "D2"),
            Code::Club => Law::club(69, ""),
            _ => Self::inspection_law(),
        };
        let played_on = self
            .claims
            .last()
            .filter(|c| c.status == ClaimStatus::PlayContinued && !c.disputed.is_empty())
            .is_some_and(|c| c.claim.claimer == self.declarer());
        if self.code != Code::Rubber || !played_on {
            return refuse(
                "face his hand for inspection: only while play continues after declarer's disputed claim",
                law,
            );
        }
        if !self.is_defender(seat) {
            return refuse("face his hand for inspection: only a defender may", law);
        }
        if self.hand_faced(seat) {
            return refuse("face his hand for inspection: it is face up already", law);
        }
        let mut next = self.successor();
        next.faced = next.faced.with(seat);
        let last = next.claims.len() - 1;
        next.claims[last].faced_for_inspection = next.claims[last].faced_for_inspection.with(seat);
        next.settle();
        Ok(next)
    }

    /// Whether `seat` is a defender who faced his hand for inspection after declarer's disputed
    /// claim: declarer may impose no penalty for his irregularities (rubber Law 69).
    pub fn faced_for_inspection(&self, seat: Seat) -> bool {
        self.claims.iter().any(|c| c.faced_for_inspection.contains(seat))
    }

    /// Whether declarer may impose no penalty on `owner` for a card that would become a penalty
    /// card: it then goes back to his face-up hand instead (rubber Law 69), told as returned.
    pub(crate) fn penalty_card_barred(&self, owner: Seat, card: Card, events: &mut Events) -> bool {
        if !self.faced_for_inspection(owner) {
            return false;
        }
        events.push(PlayEvent::CardReturned { seat: owner, card, law: Self::inspection_law() });
        true
    }

    /// Raises `situation` for a decision, unless only a penalty could answer it because the
    /// offender's hand is faced for inspection (rubber Law 69): a premature lead or play by him
    /// (Law 57, whose every option restricts his partner's play) is then not raised at all, and
    /// his card stands or goes back to his hand as the caller left it.
    pub(crate) fn raise(&mut self, situation: Situation) {
        if let Situation::PrematurePlay { offender, .. } = situation
            && self.faced_for_inspection(offender)
        {
            return;
        }
        self.pending = Some(situation);
    }
}
