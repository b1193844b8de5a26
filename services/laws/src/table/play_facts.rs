//! Irregularities of the play recorded as facts: each kind handed to the play engine, which
//! judges the card under the Laws and opens the decision they give, or settles it at once (a
//! card returned, a penalty card). Apart from the auction's facts because they drive the play
//! engine and need the cards.

use crate::irregularities::play::{Designation, Retraction, Situation};
use crate::play::{DrawnBy, Exposure, PlayError, PlayEvent};

use super::recording::{Judged, rectification_law};
use super::{DealInProgress, Fact, FactKind, Mode, TableError};

impl DealInProgress {
    /// A card exposed during the play: a defender's (Laws 49-50) or declarer's or dummy's (Law 48).
    pub(super) fn apply_exposed_card(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let card = fact.card.ok_or_else(|| fact.missing("the card exposed"))?;
        let play = self.play_for("an exposed card")?;
        let how = if fact.deliberate { Exposure::Deliberate } else { Exposure::Inadvertent };
        let recorded = play.expose(offender, &[card], how)?;
        let law = rectification_law(&recorded.events).unwrap_or(self.cite(49, "", ""));
        let kind = if recorded.play.is_defender(offender) && !recorded.play.faced_hands().contains(offender) {
            FactKind::ExposedCard
        } else {
            FactKind::DeclarerExposedCard
        };
        self.play = Some(recorded.play);
        Ok(Judged { kind, law, call_index: None })
    }

    /// A lead out of turn (Laws 53-56) or a premature lead or play (Law 57), as the play engine
    /// judges the card recorded.
    pub(super) fn apply_lead_out_of_turn(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let card = fact.card.ok_or_else(|| fact.missing("the card led or played"))?;
        let play = self.play_for("a lead or play out of turn")?;
        let before = play.decision();
        let faced = play.dummy_visible();
        let recorded = play.record(offender, card)?;
        let decision = recorded.play.decision().filter(|d| Some(d) != before.as_ref());
        let judged = match &decision {
            Some(decision) => match decision.situation {
                Situation::OpeningLeadOutOfTurn { .. } => Some((FactKind::OpeningLeadOutOfTurn, decision.law)),
                Situation::DeclarerLeadOutOfTurn { .. } | Situation::DefenderLeadOutOfTurn { .. } => {
                    Some((FactKind::LeadOutOfTurn, decision.law))
                }
                Situation::PrematurePlay { .. } => Some((FactKind::PrematurePlay, decision.law)),
                _ => None,
            },
            None => recorded.events.iter().find_map(|event| match event {
                PlayEvent::CardReturned { law, .. } => {
                    Some((if faced { FactKind::LeadOutOfTurn } else { FactKind::OpeningLeadOutOfTurn }, *law))
                }
                PlayEvent::PenaltyCard(pc) if pc.owner == offender => Some((FactKind::PrematurePlay, pc.law)),
                _ => None,
            }),
        };
        let Some((kind, law)) = judged else {
            return Err(TableError::NotAnIrregularity {
                what: format!("{offender}'s {card}"),
                kind: fact.kind,
                act: "play",
                law: self.cite(44, "", "B"),
            });
        };
        self.play = Some(recorded.play);
        Ok(Judged { kind, law, call_index: None })
    }

    /// What declarer did while an opening lead out of turn awaited his decision: he could have
    /// seen dummy's cards, so he must accept it (rubber Law 54B, duplicate Law 54C), or he began to
    /// spread his own hand, so he is deemed to have accepted it as dummy (rubber Law 54B,
    /// duplicate Law 54A; rubber footnote 23 when he had also seen dummy's cards).
    pub(super) fn apply_declarer_and_faced_lead(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let play = self.play_for("declarer's acts after an opening lead out of turn")?;
        if fact.offender != play.declarer() {
            return Err(TableError::NotAnIrregularity {
                what: format!("{}'s act", fact.offender),
                kind: fact.kind,
                act: "be done by declarer",
                law: self.cite(54, "B", "C"),
            });
        }
        let (next, law) = match fact.kind {
            FactKind::DeclarerSawDummy => (play.declarer_saw_dummy()?, self.cite(54, "B", "C")),
            _ if play.must_accept_faced_lead() => (play.declarer_began_to_spread()?, self.cite(54, "B", "C")),
            _ => (play.declarer_began_to_spread()?, self.cite(54, "B", "A")),
        };
        self.play = Some(next);
        Ok(Judged::as_told(fact, law))
    }

    /// A defender's statement about the trick in progress only (rubber Law 70A; duplicate Law
    /// 68): recorded, nothing rectified. It must be a defender, with a trick begun and not yet
    /// complete, and any card he showed must be his; he keeps it (no penalty card).
    pub(super) fn apply_current_trick_statement(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let law = match self.setup.code {
            crate::law::Code::Duplicate => crate::law::Law::duplicate(68, ""),
            _ => crate::law::Law::rubber(70, "A"),
        };
        let play = self.play_for("a statement about the trick in progress")?;
        let refuse = |reason: String| TableError::FactDoesNotFit { kind: fact.kind, reason, law };
        if !play.is_defender(fact.offender) {
            return Err(refuse(format!(
                "{} is not a defender, whose shown cards alone could be penalty cards",
                fact.offender
            )));
        }
        let in_progress = play.current_trick().is_some_and(|t| !t.is_empty() && !t.is_complete());
        if !in_progress {
            return Err(refuse("no trick is in progress".to_owned()));
        }
        if let Some(card) = fact.card.filter(|c| !play.hand(fact.offender).contains(*c)) {
            return Err(refuse(format!("the {card} is not in {}'s hand", fact.offender)));
        }
        // "... but Law 16 ... may apply to a claimer's partner": reserved for redress.
        self.play = Some(play.with_reserved_adjustment(fact.offender.side(), law));
        Ok(Judged::as_told(fact, law))
    }

    /// A surplus card (rubber Law 12B, kept by the Club Laws; duplicate Law 13C). Found in the
    /// offender's hand (no trick): it goes back to its proper place and nothing else happens,
    /// during the auction or the play (rubber 12B1: "there is no penalty"; duplicate 13C: "The
    /// auction and play continue without further rectification"). Led or played to a trick:
    /// the play takes it out and the offender substitutes (rubber 12B2).
    pub(super) fn apply_surplus_card(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let in_hand = match self.setup.code {
            crate::law::Code::Duplicate => crate::law::Law::duplicate(13, "C"),
            _ => crate::law::Law::rubber(12, "B1"),
        };
        let Some(trick) = fact.trick else {
            if self.play.as_ref().is_some_and(crate::play::Play::is_complete) {
                return Err(PlayError::PlayOver { law: in_hand }.into());
            }
            return Ok(Judged::as_told(fact, in_hand));
        };
        let trick = Some(trick).filter(|t| (1..=13).contains(t)).ok_or_else(|| fact.missing("the trick, 1 to 13"))?;
        let card = fact.card.ok_or_else(|| fact.missing("the surplus card"))?;
        let play = self.play_for("a surplus card led or played")?;
        let recorded = match fact.also_visible.first() {
            // On a trick a later lead has closed, with the card the offender puts in its place.
            Some(substitute) => play.surplus_card_on_older_trick(fact.offender, card, trick - 1, *substitute)?,
            None => play.surplus_card(fact.offender, card, trick - 1)?,
        };
        let law = recorded.play.surplus_law();
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, law))
    }

    /// A defective trick (Law 67). At a table recording its play, found late: a card missing
    /// or a card too many, put right under Law 67B ([`Play::defective_trick`](crate::play::Play::defective_trick));
    /// found in time, an extra card is Law 67A's. A digital table and a table without the hands
    /// record the fact for the official, as told; a card already among his played cards is
    /// duplicate Law 67B3's.
    pub(super) fn apply_defective_trick(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let trick = fact.trick.filter(|t| (1..=13).contains(t)).ok_or_else(|| fact.missing("the trick, 1 to 13"))?;
        let as_told = Judged::as_told(fact, self.cite(67, "", ""));
        let play = match &self.play {
            Some(play) if self.setup.mode == Mode::Recorded => play,
            _ => return Ok(as_told),
        };
        let recorded = play.defective_trick(fact.offender, trick - 1, fact.card)?;
        let law = match fact.card {
            None => self.cite(67, "B1", "B1"),
            Some(card) if play.card_found_among_played(fact.offender, trick - 1, card) => {
                crate::law::Law::duplicate(67, "B3")
            }
            Some(_) => rectification_law(&recorded.events).unwrap_or(self.cite(67, "B2", "B2")),
        };
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, law))
    }

    /// Attention drawn to a revoke: corrected if not established (Law 62), tricks transferred
    /// after play if established (Laws 63-64).
    pub(super) fn apply_revoke(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let trick = fact.trick.filter(|t| (1..=13).contains(t)).ok_or_else(|| fact.missing("the trick, 1 to 13"))?;
        let play = self.play_for("drawing attention to a revoke")?;
        let next = play.draw_attention_to_revoke(offender, trick - 1, DrawnBy::Player)?;
        let established = next.revokes().iter().any(|r| {
            r.offender == offender && r.trick == trick - 1 && r.status == crate::play::RevokeStatus::Established
        });
        // Law 62: a revoke not established is corrected; Law 63-64: an established one
        // stands and tricks are transferred after play.
        let law = if established { self.cite(64, "", "A") } else { self.cite(62, "", "") };
        self.play = Some(next);
        Ok(Judged::as_told(fact, law))
    }

    /// A card taken back: a change of designation (duplicate Law 45C4(b), 47C; rubber Laws 45D,
    /// 47B), a card dummy played that declarer did not name (duplicate Law 45D; rubber Law 46),
    /// or a card retracted after an opponent misinformed the player (duplicate Law 47E; rubber
    /// Law 47D).
    pub(super) fn apply_retraction(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let offender = fact.offender;
        let card = fact.card.ok_or_else(|| fact.missing("the card designated, named or retracted"))?;
        let play = self.play_for("taking back a card played")?;
        let holder = play.deal().holder(card);
        let retraction = match fact.kind {
            FactKind::ChangeOfDesignation => Retraction::ChangeOfDesignation { card },
            FactKind::UndesignatedDummyCard => Retraction::UndesignatedDummyCard { named: card },
            FactKind::MisinformedOfTurn => Retraction::ToldItWasHisTurn { by: offender },
            FactKind::OpeningLeadRetractedBeforeDummyFaced => Retraction::OpeningLeadBeforeDummyFaced { by: offender },
            _ => Retraction::MistakenExplanation { by: offender },
        };
        let recorded = play.retract(holder, retraction)?;
        let taken_back = recorded.events.iter().any(|event| match event {
            PlayEvent::CardWithdrawn { card: c, .. } | PlayEvent::CardReturned { card: c, .. } => *c == card,
            _ => false,
        });
        if matches!(
            retraction,
            Retraction::ToldItWasHisTurn { .. }
                | Retraction::MistakenExplanation { .. }
                | Retraction::OpeningLeadBeforeDummyFaced { .. }
        ) && !taken_back
        {
            return Err(PlayError::RetractionRefused {
                seat: holder,
                reason: "the card named is not the card he played",
                law: retraction.law(self.setup.code),
            }
            .into());
        }
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, retraction.law(self.setup.code)))
    }

    /// Cards played together from one hand, the designation made after an opponent played
    /// (duplicate Law 58B2-3; rubber Law 58).
    pub(super) fn apply_simultaneous_cards(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let card = fact.card.ok_or_else(|| fact.missing("the card designated"))?;
        if fact.also_visible.is_empty() {
            return Err(fact.missing("the other cards whose faces were visible"));
        }
        let play = self.play_for("cards played together")?;
        let holder = play.deal().holder(card);
        let recorded = play.designate_simultaneous(holder, card, &fact.also_visible)?;
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, self.cite(58, "", "B2")))
    }

    /// A card contributed to a trick the player had already played to (duplicate Law 45E with
    /// 67A2; rubber Law 67A2).
    pub(super) fn apply_extra_card(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let card = fact.card.ok_or_else(|| fact.missing("the extra card"))?;
        let trick = fact.trick.filter(|t| (1..=13).contains(t)).ok_or_else(|| fact.missing("the trick, 1 to 13"))?;
        let play = self.play_for("an extra card to a trick")?;
        let holder = play.deal().holder(card);
        let recorded = play.record_extra_card(holder, card, trick - 1)?;
        let law = rectification_law(&recorded.events).unwrap_or(self.cite(67, "A2", "45E"));
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, law))
    }

    /// An incomplete or invalid designation of a card from dummy (Law 46).
    pub(super) fn apply_incomplete_designation(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let designation = fact.designation.ok_or_else(|| fact.missing("what declarer said"))?;
        let play = self.play_for("a designation from dummy")?;
        let ruling = play.interpret_designation(designation)?;
        if let Designation::Card(card) = designation
            && play.hand(play.dummy()).contains(card)
        {
            return Err(TableError::NotAnIrregularity {
                what: format!("declarer's call of the {card}"),
                kind: fact.kind,
                act: "play",
                law: ruling.law,
            });
        }
        let recorded = play.designate_from_dummy(designation)?;
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, ruling.law))
    }
}
