//! The deal's two hand-overs: from the auction to the play once the auction closes with
//! nothing to rectify (the contract with the obligations it carries, or result entry without
//! the cards, or the end of a passed-out deal), and from a finished play to the outcome.
//! Apart because every path that can close the auction or the play ends here.

use crate::auction::AuctionOutcome;
use crate::law::Code;
use crate::play::{ClaimStatus, Play};
use crate::score::honors::honors_claim;

use super::{DealInProgress, DealResult, Ending, Outcome, Settlement, TableError};

impl DealInProgress {
    /// Hands the auction over to the play once it has closed with nothing to rectify: the
    /// contract with the lead penalties and penalty cards it carries (Laws 24, 26), or the end
    /// of a passed-out deal (Law 22); without the cards the table enters the result.
    pub(super) fn after_auction(&mut self) -> Result<(), TableError> {
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

    /// Ends the deal once the play is over: thirteen tricks, or a claim agreed or decided.
    pub(super) fn finish_if_over(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let Some(play) = &self.play else { return };
        if !play.is_complete() {
            return;
        }
        if matches!(
            play.decision().map(|d| d.situation),
            Some(crate::irregularities::play::Situation::RevokeEquity { .. })
        ) {
            // Law 64: the deal's result waits for the word on equity after an established revoke.
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
    pub(super) fn settle_open_decision(&mut self) {
        let step = self.step;
        for decision in self.decisions.iter_mut().filter(|d| d.settled.is_none()) {
            decision.settled = Some(Settlement { option: None, by: None, step });
        }
    }
}
