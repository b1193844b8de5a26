//! Claims and concessions (Laws 68-71): made, answered, and decided by the official when
//! disputed (Club Laws 69-70; duplicate Law 70). The play engine keeps the claim itself; the
//! table keeps its number, its step and the official's decision. Apart from the play's calls
//! and cards because a claim suspends the play rather than continuing it.

use crate::play::{Claim, ClaimResponse, ClaimStatus, PlayError, StatedLine};
use crate::seat::Seat;

use super::{ClaimInfo, DealInProgress, TableError};

impl DealInProgress {
    /// A claim of `tricks` of the remaining tricks (Law 68A).
    pub(super) fn claim(
        &mut self,
        claimer: Seat,
        tricks: u8,
        statement: &str,
        line: Option<&StatedLine>,
    ) -> Result<(), TableError> {
        let play = self.play_for("a claim")?;
        let claim = Claim::new(claimer, tricks, statement.to_owned());
        let claim = match line {
            Some(line) => claim.with_line(line.clone()),
            None => claim,
        };
        let next = play.claim(claim)?;
        self.play = Some(next);
        self.note_claim(false);
        Ok(())
    }

    /// A concession of `tricks` of the remaining tricks (Law 68B): a claim of the rest.
    pub(super) fn concede(&mut self, conceder: Seat, tricks: u8) -> Result<(), TableError> {
        let play = self.play_for("a concession")?;
        let remaining = play.remaining_tricks();
        if tricks > remaining {
            return Err(PlayError::TooManyTricks { tricks, remaining, law: self.cite(68, "", "B1") }.into());
        }
        let next = play.claim(Claim::new(conceder, remaining - tricks, String::new()))?;
        self.play = Some(next);
        self.note_claim(true);
        Ok(())
    }

    /// The table's record of the claim or concession the play engine has just taken.
    fn note_claim(&mut self, concession: bool) {
        self.claims.push(ClaimInfo {
            id: self.claims.len() as u32 + 1,
            concession,
            step: self.step,
            adjudication: None,
        });
    }

    /// An answer to the claim being considered; a dispute goes to the official where there is
    /// one.
    pub(super) fn respond_to_claim(&mut self, claim: u32, seat: Seat, agree: bool) -> Result<(), TableError> {
        self.current_claim(claim)?;
        let play = self.play_for("an answer to a claim")?;
        let response = if agree { ClaimResponse::Agree(seat) } else { ClaimResponse::Dispute(seat) };
        let next = play.respond_to_claim(response)?;
        let disputed = next.claims().last().is_some_and(|c| c.status == ClaimStatus::Disputed);
        self.play = Some(next);
        if disputed && self.official().is_some() {
            // Club Laws 69-70, duplicate Law 68D: a disputed claim goes to the official.
            self.summon(None, format!("claim {claim} disputed by {seat}"), None, Some(claim));
        }
        Ok(())
    }

    /// A defender faces his hand for inspection by his partner while play continues after
    /// declarer's disputed claim (rubber Law 69).
    pub(super) fn face_hand(&mut self, claim: u32, seat: Seat) -> Result<(), TableError> {
        self.current_claim(claim)?;
        let play = self.play_for("facing a hand for inspection")?;
        let next = play.face_for_inspection(seat)?;
        self.play = Some(next);
        Ok(())
    }

    /// The official's decision on a disputed claim (Club Laws 69-70; duplicate Law 70).
    pub(super) fn adjudicate(&mut self, claim: u32, tricks: u8, reasons: &str) -> Result<(), TableError> {
        self.current_claim(claim)?;
        let play = self.play_for("an adjudication")?;
        let next = play.adjudicate(tricks)?;
        self.play = Some(next);
        let step = self.step;
        if let Some(info) = self.claims.iter_mut().find(|c| c.id == claim) {
            info.adjudication = Some((step, reasons.to_owned()));
        }
        // The official's decision settles the call that brought him to the table.
        for call in self.official_calls.iter_mut().filter(|c| c.claim == Some(claim) && c.resolved.is_none()) {
            call.resolved = Some((step, reasons.to_owned()));
        }
        Ok(())
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
}
