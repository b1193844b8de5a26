//! The official at the table: who he is under the code in force (the Arbiter of the Club Laws,
//! the Director of duplicate), the calls for him, and the stop on calls and plays while he
//! deals with the table (Club Law 13; duplicate Law 9B2). Apart because any action may summon
//! him, and calls and plays stop while he is at the table.

use crate::law::{Code, Law};
use crate::seat::Seat;

use super::replay::Checks;
use super::{DealInProgress, OfficialCall, Phase, TableError};

impl DealInProgress {
    /// The official of the code in force and the Law that stops the game while he deals with
    /// the table; `None` under the Laws of Rubber Bridge without an Arbiter.
    pub(super) fn official(&self) -> Option<(&'static str, Law)> {
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
    pub(super) fn ensure_no_official(&self, checks: Checks) -> Result<(), TableError> {
        if checks == Checks::Trusted || self.open_official_calls().next().is_none() {
            return Ok(());
        }
        let (official, law) = self.official().unwrap_or(("Arbiter", Law::rubber(13, "")));
        Err(TableError::OfficialAtTable { official, law })
    }

    /// Opens a call for the official, or adds an irregularity to the one already open.
    pub(super) fn summon(&mut self, seat: Option<Seat>, reason: String, irregularity: Option<u32>, claim: Option<u32>) {
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

    /// A call for the official, by a player or not, at any stage but an abandoned deal.
    pub(super) fn call_official(&mut self, seat: Option<Seat>, reason: &str) -> Result<(), TableError> {
        if self.phase() == Phase::Abandoned {
            return Err(TableError::DealOver { what: "calling the arbiter", phase: Phase::Abandoned });
        }
        self.summon(seat, reason.to_owned(), None, None);
        Ok(())
    }

    /// The official settles a call, once.
    pub(super) fn resolve_official_call(&mut self, call: u32, note: &str) -> Result<(), TableError> {
        let step = self.step;
        let found =
            self.official_calls.iter_mut().find(|c| c.id == call).ok_or(TableError::NoSuchOfficialCall(call))?;
        if found.resolved.is_some() {
            return Err(TableError::OfficialCallResolved(call));
        }
        found.resolved = Some((step, note.to_owned()));
        Ok(())
    }
}
