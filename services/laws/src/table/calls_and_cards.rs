//! Calls and cards in turn: through the engines' checks at a digital table, as facts at a
//! recorded one. Apart from the hand-over ([`super::handover`]) that a call closing the auction
//! triggers, and from the irregularities a table records ([`super::recording`]).

use crate::auction::AuctionError;
use crate::cards::{Card, SuitSet};
use crate::contract::Call;
use crate::play::{PlayError, PlayEvent};
use crate::seat::Seat;

use super::recording::Judged;
use super::replay::Checks;
use super::{DealInProgress, Fact, FactKind, Mode, Phase, TableError};

impl DealInProgress {
    /// A call: digital play refuses anything irregular (Law 17 for the turn, and the auction's
    /// own Laws); recorded play takes it as a fact. In recorded play a call after the auction
    /// closed, before the opening lead, is Law 39's: the auction takes it and the play waits
    /// for its rectification.
    pub(super) fn call(
        &mut self,
        seat: Seat,
        call: Call,
        relates_to: Option<SuitSet>,
        checks: Checks,
    ) -> Result<(), TableError> {
        if self.setup.result_only {
            return Err(TableError::WrongPhase { what: "a call", phase: Phase::ResultEntry });
        }
        match self.setup.mode {
            Mode::Digital => {
                if self.play.is_some() || self.auction.is_closed() {
                    // Law 39: the auction is closed.
                    return Err(self.auction.call(call).err().map_or(TableError::NothingHappened, Into::into));
                }
                if let Some(turn) = self.auction.next_to_call()
                    && turn != seat
                    && self.auction.pending().is_none()
                {
                    return Err(TableError::NotYourTurn { seat, turn, act: "call", law: self.cite(17, "", "") });
                }
                if checks == Checks::Trusted {
                    // A call the Laws of its day accepted, made as it was made.
                    self.auction = self.auction.call_unchecked(call, relates_to)?;
                    return self.after_auction();
                }
                let next = self.auction.call(call)?;
                // A legal call in turn: recording it as made keeps what it relates to.
                self.auction = match relates_to {
                    Some(suits) => self.auction.record_artificial(seat, call.into(), suits)?.into_auction(),
                    None => next,
                };
            }
            Mode::Recorded => {
                if let Some(play) = &self.play
                    && (!play.tricks().is_empty() || play.decision().is_some() || play.dummy_visible())
                {
                    return Err(AuctionError::AuctionClosed { law: self.cite(39, "", "A") }.into());
                }
                self.auction = match relates_to {
                    Some(suits) => self.auction.record_artificial(seat, call.into(), suits)?,
                    None => self.auction.record(seat, call.into())?,
                }
                .into_auction();
                self.play = None;
            }
        }
        self.after_auction()
    }

    /// A card: digital play through [`Play::card`](crate::play::Play::card) for the hand due (Law 44); recorded play as
    /// a fact. A recorded card the Laws pick up or make a penalty card without a decision is
    /// recorded as an irregularity.
    ///
    /// After declarer's disputed claim under the Laws of Rubber Bridge, a card of his side that
    /// breaks his obligations (Law 69, 69A, 69B, 69D) is not refused at a digital table either:
    /// "either defender may accept the play or, provided neither defender has subsequently played,
    /// require declarer to withdraw the card so played and substitute another that conforms to his
    /// obligations" (Law 69). It waits, unplayed, for the defenders' decision, through the same
    /// [`Play::record`](crate::play::Play::record) a recording table uses. A play declarer prohibited
    /// under Law 70B is still refused: that Law gives no rectification.
    pub(super) fn play_card(&mut self, seat: Seat, card: Card, checks: Checks) -> Result<Option<u32>, TableError> {
        let play = self.play_for("a play")?;
        match self.setup.mode {
            Mode::Digital => {
                if let Some(turn) = play.next_to_play()
                    && turn != seat
                    && play.decision().is_none()
                    && !play.is_suspended()
                {
                    return Err(TableError::NotYourTurn { seat, turn, act: "play", law: self.cite(44, "", "B") });
                }
                let next = match play.card(card) {
                    // Law 69: the card waits for the defenders, as at a recording table. On the
                    // trusted path too, so that the choice the journal keeps next finds it.
                    Err(PlayError::ClaimObligation { seat: hand, law, .. }) if law.number == 69 => {
                        play.record(hand, card)?.play
                    }
                    // A card the Laws of its day accepted is played as it was played.
                    _ if checks == Checks::Trusted => play.card_unchecked(card)?,
                    played => played?,
                };
                self.play = Some(next);
                Ok(None)
            }
            Mode::Recorded => {
                let before_pending = play.decision();
                let faced = play.dummy_visible();
                let recorded = play.record(seat, card)?;
                let next_pending = recorded.play.decision();
                self.play = Some(recorded.play);
                if next_pending.is_some() && next_pending != before_pending {
                    // The decision's own record is made when the decision is tracked.
                    return Ok(None);
                }
                let auto = recorded.events.iter().find_map(|event| match event {
                    PlayEvent::CardReturned { seat: s, card: c, law } if *s == seat && *c == card => Some(*law),
                    PlayEvent::PenaltyCard(pc) if pc.owner == seat && pc.card == card => Some(pc.law),
                    _ => None,
                });
                match auto {
                    Some(law) => {
                        let kind = match law.number {
                            // Law 57; a lead before declarer's Law 50D2 choice; a card of the
                            // offending side before rectification (Law 60C).
                            57 | 50 | 60 => FactKind::PrematurePlay,
                            48 | 24 => FactKind::OpeningLeadOutOfTurn,
                            54 => FactKind::OpeningLeadOutOfTurn,
                            _ if !faced => FactKind::OpeningLeadOutOfTurn,
                            _ => FactKind::LeadOutOfTurn,
                        };
                        let fact = Fact {
                            kind,
                            offender: seat,
                            call: None,
                            card: Some(card),
                            trick: None,
                            deliberate: true,
                            designation: None,
                            also_visible: Vec::new(),
                            misinformed: None,
                            relates_to: None,
                            description: format!("{seat} played the {card} out of turn"),
                        };
                        Ok(Some(self.add_record(fact, None, law)))
                    }
                    None => Ok(None),
                }
            }
        }
    }
}

impl DealInProgress {
    /// An opening lead made face down ([`Play::lead_face_down`](crate::play::Play::lead_face_down):
    /// duplicate Laws 41A and 54; rubber Appendix 3). A digital table takes it only from the
    /// opening leader and only with a card he may lead, so that facing it cannot be refused
    /// (Law 41C). A recorded one that goes back to the hand is recorded as an irregularity.
    pub(super) fn lead_face_down(&mut self, seat: Seat, card: Card, checks: Checks) -> Result<Option<u32>, TableError> {
        let play = self.play_for("a face-down opening lead")?;
        if self.setup.mode == Mode::Digital {
            if let Some(turn) = play.next_to_play()
                && turn != seat
            {
                return Err(TableError::NotYourTurn { seat, turn, act: "lead", law: self.cite(41, "", "A") });
            }
            if checks != Checks::Trusted {
                play.card(card)?;
            }
        }
        let recorded = play.lead_face_down(seat, card)?;
        let returned = returned_law(&recorded.events, seat, card);
        self.play = Some(recorded.play);
        let Some(law) = returned else { return Ok(None) };
        let fact = Fact {
            kind: FactKind::FaceDownLeadReturned,
            offender: seat,
            call: None,
            card: Some(card),
            trick: None,
            deliberate: true,
            designation: None,
            also_visible: Vec::new(),
            misinformed: None,
            relates_to: None,
            description: format!("{seat}'s face-down lead went back to his hand"),
        };
        Ok(Some(self.add_record(fact, None, law)))
    }

    /// A face-down opening lead that went back to the hand, told as a fact: the same as the
    /// face-down lead itself, which must be one the Laws send back (duplicate Laws 41A, 54 and
    /// 54E; rubber Appendix 3).
    pub(super) fn apply_face_down_lead_returned(&mut self, fact: &Fact) -> Result<Judged, TableError> {
        let card = fact.card.ok_or_else(|| fact.missing("the card led face down"))?;
        let play = self.play_for("a face-down opening lead")?;
        let recorded = play.lead_face_down(fact.offender, card)?;
        let Some(law) = returned_law(&recorded.events, fact.offender, card) else {
            return Err(TableError::NotAnIrregularity {
                what: format!("{}'s face-down lead of the {card}", fact.offender),
                kind: fact.kind,
                act: "lead face down",
                law: self.cite(41, "", "A"),
            });
        };
        self.play = Some(recorded.play);
        Ok(Judged::as_told(fact, law))
    }
}

/// The Law under which `seat`'s `card` went back to his hand, if it did.
fn returned_law(events: &[PlayEvent], seat: Seat, card: Card) -> Option<crate::law::Law> {
    events.iter().find_map(|event| match event {
        PlayEvent::CardReturned { seat: s, card: c, law } if *s == seat && *c == card => Some(*law),
        _ => None,
    })
}
