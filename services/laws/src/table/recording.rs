//! Recording an irregularity as a fact: the kinds a digital table may record, the dispatch of
//! each kind to the engine that judges it, the Law that governs a matter of judgement, and
//! the record itself with the official it summons. Apart from the per-kind recording
//! ([`super::auction_facts`], [`super::play_facts`]) so that the rules common to every fact
//! read in one place.

use crate::irregularities::auction::IrregularityKind as AuctionIrregularity;
use crate::law::{Code, Law};
use crate::play::PlayEvent;
use crate::seat::Seat;

use super::{DealInProgress, Fact, FactKind, IrregularityRecord, Mode, TableError};

/// How the Laws judged a fact the table told, once the engine that rectifies it has taken
/// it: its kind as the engine found it, the Law that governs it, and for attention drawn to
/// an unnoticed call, the position of that call.
pub(super) struct Judged {
    pub(super) kind: FactKind,
    pub(super) law: Law,
    pub(super) call_index: Option<usize>,
}

impl Judged {
    /// The fact of the kind told, under `law`.
    pub(super) fn as_told(fact: &Fact, law: Law) -> Judged {
        Judged { kind: fact.kind, law, call_index: None }
    }
}

impl DealInProgress {
    /// Records an irregularity as a fact; for the kinds the engines rectify, the Laws judge
    /// what it is and the decision it brings follows.
    pub(super) fn record_fact(&mut self, fact: &Fact, pointed_out_by: Option<Seat>) -> Result<u32, TableError> {
        if self.setup.mode == Mode::Digital
            && !fact.kind.is_judgement()
            && !matches!(
                fact.kind,
                FactKind::Revoke | FactKind::RetractionAfterMisexplanation | FactKind::CallChangedAfterMisinformation
            )
        {
            return Err(TableError::DigitalFact { kind: fact.kind });
        }
        let judged = match fact.kind {
            FactKind::InsufficientBid
            | FactKind::CallOutOfRotation
            | FactKind::InadmissibleCall
            | FactKind::SimultaneousCalls
            | FactKind::ChangeOfCall => self.apply_irregular_call(fact)?,
            FactKind::CallChangedAfterMisinformation => self.apply_change_after_misinformation(fact)?,
            FactKind::UnnoticedInadmissibleCall => self.apply_unnoticed_call(fact)?,
            FactKind::AttentionToUnnoticedCall => self.apply_attention_to_unnoticed_call(fact)?,
            FactKind::ExposedCardDuringAuction if self.play.is_none() => self.apply_exposure_during_auction(fact)?,
            FactKind::ExposedCardDuringAuction | FactKind::ExposedCard | FactKind::DeclarerExposedCard => {
                self.apply_exposed_card(fact)?
            }
            FactKind::OpeningLeadOutOfTurn | FactKind::LeadOutOfTurn | FactKind::PrematurePlay => {
                self.apply_lead_out_of_turn(fact)?
            }
            FactKind::DeclarerSawDummy | FactKind::DeclarerBeganToSpread => self.apply_declarer_and_faced_lead(fact)?,
            FactKind::CurrentTrickStatement => self.apply_current_trick_statement(fact)?,
            FactKind::SurplusCard => self.apply_surplus_card(fact)?,
            FactKind::FaceDownLeadReturned => self.apply_face_down_lead_returned(fact)?,
            FactKind::Revoke => self.apply_revoke(fact)?,
            FactKind::ChangeOfDesignation
            | FactKind::UndesignatedDummyCard
            | FactKind::MisinformedOfTurn
            | FactKind::RetractionAfterMisexplanation
            | FactKind::OpeningLeadRetractedBeforeDummyFaced => self.apply_retraction(fact)?,
            FactKind::SimultaneousCards => self.apply_simultaneous_cards(fact)?,
            FactKind::ExtraCardToTrick => self.apply_extra_card(fact)?,
            FactKind::DefectiveTrick => self.apply_defective_trick(fact)?,
            FactKind::IncompleteDesignation => self.apply_incomplete_designation(fact)?,
            FactKind::Misinformation if fact.misinformed.is_some() => self.apply_misinformation_too_late(fact)?,
            FactKind::UnauthorizedInformation
            | FactKind::Misinformation
            | FactKind::DummyIrregularity
            | FactKind::Other => Judged::as_told(fact, self.judgement_law(fact.kind)),
        };
        let id = self.add_record(Fact { kind: judged.kind, ..fact.clone() }, pointed_out_by, judged.law);
        if let Some(entry) = judged.call_index {
            // Attention drawn to an unnoticed call concerns that call, not the last one.
            self.irregularities[id as usize - 1].call_index = Some(entry);
        }
        Ok(id)
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
            _ => self.official().map_or(Law::rubber(13, ""), |(_, law)| law),
        }
    }

    /// Adds an irregularity record; under a code with an official, summons him (Club Law 13;
    /// duplicate Law 9B1(a): the Director must be summoned at once when attention is drawn to
    /// an irregularity).
    pub(super) fn add_record(&mut self, fact: Fact, pointed_out_by: Option<Seat>, law: Law) -> u32 {
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
}

/// The Law under which a recorded card became a penalty card or went back to the hand.
pub(super) fn rectification_law(events: &[PlayEvent]) -> Option<Law> {
    events.iter().find_map(|event| match event {
        PlayEvent::PenaltyCard(pc) => Some(pc.law),
        PlayEvent::CardReturned { law, .. } => Some(*law),
        _ => None,
    })
}

/// The contract's kind of an auction irregularity as the auction engine judged it.
pub(super) fn auction_fact_kind(kind: &AuctionIrregularity) -> FactKind {
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
