//! Result entry at a recorded table: the result a table enters without the play recorded,
//! checked against what was recorded (the auction's contract, Law 22) and the honors claimed
//! (Law 81; none in duplicate, Law 77). Apart from the play because the engines do not
//! produce this result: the table states it.

use crate::auction::AuctionOutcome;
use crate::contract::DeclaredContract;
use crate::law::{Code, Law};
use crate::score::honors::{Honors, HonorsClaim, honors_claim};

use super::replay::Checks;
use super::{DealInProgress, DealResult, Ending, Mode, Outcome, TableError};

impl DealInProgress {
    /// Result entry at a recorded table: for a result-only deal, for a deal whose hands were
    /// not entered once the auction closed, or for a table that stops recording the play. What
    /// was recorded must agree: the auction's contract (Law 22), honors that fit the contract
    /// and the hands (Law 81), none in duplicate (Law 77).
    ///
    /// Trusted input (a result the Laws of its day accepted) is entered as it was, with the
    /// honors claimed.
    pub(super) fn enter_result(
        &mut self,
        result: DealResult,
        honors: &[HonorsClaim],
        checks: Checks,
    ) -> Result<(), TableError> {
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
}
