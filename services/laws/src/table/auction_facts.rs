//! Irregularities of the auction recorded as facts: each kind handed to the auction engine,
//! which judges what the call or card is under the Laws and opens the rectification they
//! give. Apart from the play's facts because they drive a different engine, and because an
//! auction fact can reopen an auction the play had taken over.

use crate::auction::{AuctionError, CallStatus};
use crate::irregularities::auction::RecordedCall;
use crate::law::{Code, Law};

use super::recording::{Judged, auction_fact_kind};
use super::{DealInProgress, Fact, FactKind, Phase, TableError};

impl DealInProgress {
    /// An irregular call (Laws 25, 27, 28-32, 33, 35-39): the auction judges what it is; a call
    /// the Laws make legal is no irregularity (Law 17).
    pub(super) fn apply_irregular_call(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let call = fact.call.ok_or_else(|| fact.missing("the call made"))?;
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
        Ok(Judged { kind: auction_fact_kind(&irregularity.kind), law: irregularity.law, call_index: None })
    }

    /// A call changed because of misinformation from an opponent (duplicate Law 21B; rubber and
    /// Club Law 21), until the end of the auction period.
    pub(super) fn apply_change_after_misinformation(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let call = fact.call.ok_or_else(|| fact.missing("the call made in place of the changed call"))?;
        if self.setup.result_only {
            return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
        }
        let changer = fact.misinformed.ok_or_else(|| fact.missing("the misinformed player, who changes his call"))?;
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
        Ok(Judged::as_told(fact, law))
    }

    /// A double or redouble Law 19 does not permit, made in turn, that nobody noticed (duplicate
    /// Law 36; rubber Laws 35A and 36): it stands as made.
    pub(super) fn apply_unnoticed_call(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let call = fact.call.ok_or_else(|| fact.missing("the double or redouble"))?;
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
        Ok(Judged::as_told(fact, law))
    }

    /// Attention drawn to an unnoticed inadmissible double or redouble: Law 36 (36A once a
    /// later call stands) during the auction period, duplicate Law 36C after the opening
    /// lead was faced.
    pub(super) fn apply_attention_to_unnoticed_call(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let call = fact.call.ok_or_else(|| fact.missing("the double or redouble"))?;
        let recorded: RecordedCall = call.into();
        let entry = self
            .auction
            .calls()
            .iter()
            .rposition(|e| e.seat == offender && e.call == recorded && matches!(e.status, CallStatus::Unnoticed { .. }))
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
            return Ok(Judged { call_index: Some(entry), ..Judged::as_told(fact, law) });
        }
        let auction = self.auction.draw_attention_to(entry)?.into_auction();
        let law = auction.pending().map_or(self.cite(36, "", "A"), |p| p.irregularity().law);
        self.auction = auction;
        self.play = None;
        self.after_auction()?;
        Ok(Judged { call_index: Some(entry), ..Judged::as_told(fact, law) })
    }

    /// A card exposed or led during the auction (Law 24).
    pub(super) fn apply_exposure_during_auction(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let card = fact.card.ok_or_else(|| fact.missing("the card exposed"))?;
        if self.awaiting_result && self.auction.outcome().is_none() {
            return Err(TableError::WrongPhase { what: "an exposed card", phase: Phase::ResultEntry });
        }
        let auction = self.auction.expose_cards(offender, &[card], false)?.into_auction();
        let law = auction.pending().map_or(self.cite(24, "", ""), |p| p.irregularity().law);
        self.auction = auction;
        Ok(Judged::as_told(fact, law))
    }

    /// Misinformation found too late for the misinformed player to change his call (Law 21B3;
    /// rubber and Club Law 21): an adjustment is reserved against the side that gave it.
    pub(super) fn apply_misinformation_too_late(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        // Law 21B3 (rubber and Club Law 21): too late to change the call; the score
        // may be adjusted at the end of play, against the side that misinformed.
        let misinformed = fact.misinformed.ok_or_else(|| fact.missing("the misinformed player"))?;
        self.auction = self.auction.misinformation_too_late(misinformed, offender)?;
        let law = self.auction.reserved_adjustments().last().map_or(self.cite(21, "", "B3"), |r| r.law);
        Ok(Judged::as_told(fact, law))
    }
}
