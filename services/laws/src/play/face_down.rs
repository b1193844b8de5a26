//! The opening lead made face down (duplicate Law 41A-C and the preamble of Law 54; rubber
//! bridge by the players' agreement under Appendix 3 of the Laws of Rubber Bridge, which the
//! Alternative Club Laws leave as it is). Apart from the other leads because a face-down card is
//! not yet played: it lies on the table, still the leader's, until it is faced, and a face-down
//! lead out of turn goes back to the hand without the rectifications a faced one brings.

use crate::cards::Card;
use crate::irregularities::play::{Retraction, Situation};
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::record::{Events, PlayEvent, Recorded};
use super::{Play, PlayError};

impl Play {
    /// The rule for face-down opening leads: duplicate Law 41 with `section`; in rubber bridge
    /// Appendix 3, which the Laws print beside Law 41 and which has no letters of its own.
    pub(crate) const fn face_down_law(&self, section: &'static str) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(41, section),
            _ => Law::rubber(41, " and Appendix 3"),
        }
    }

    /// Records that `seat` made the opening lead face down with `card`.
    ///
    /// Duplicate Law 41A: "the defender on presumed declarer's left makes the opening lead face
    /// down. The face-down lead may be withdrawn only upon instruction of the Director after an
    /// irregularity (see Laws 47E and 54); the withdrawn card must be returned to the defender's
    /// hand." Rubber Appendix 3, by agreement: "If an opening lead is determined to be out of turn
    /// (before being faced), the leader returns the card to his hand without penalty. ... Then,
    /// the lead is faced (opening leader may not withdraw it)".
    ///
    /// - By the opening leader, in turn: the card lies face down ([`Play::face_down_lead`]);
    ///   dummy stays unspread. The leader's next card must be that one, which faces it (Law 41C);
    ///   any other is refused: he may not withdraw it.
    /// - By another player, the lead out of turn is found before it is faced: the card goes back
    ///   to his hand ([`PlayEvent::CardReturned`]), with no penalty card and no choice for
    ///   declarer, and the opening leader still leads. A card of declarer's or dummy's is an
    ///   attempt by the declaring side to lead, which exposes nothing (duplicate Law 54E and
    ///   Law 24 rule only exposed cards).
    /// - While a faced opening lead out of turn awaits declarer's decision, a face-down lead by
    ///   the offender's partner is retracted (duplicate Law 54: "When an opening lead out of turn
    ///   is faced and offender's partner leads face down, the Director requires the face down
    ///   lead to be retracted"); under Appendix 3 it was never played, so it goes back the same
    ///   way. The decision stays as it was.
    ///
    /// Refused while play is over, a claim is considered or another decision is pending; once
    /// the opening lead is faced (Law 41C: "the play period begins irrevocably"); for a card not
    /// held; for a second face-down lead by the leader, who may not change it; and for a card
    /// the leader may not lead (a lead restriction, a penalty card: Laws 26, 50), refused with
    /// that Law, so that a lead lying face down can always be faced.
    pub fn lead_face_down(&self, seat: Seat, card: Card) -> Result<Recorded, PlayError> {
        if let Some(Situation::OpeningLeadOutOfTurn { offender, .. }) = self.pending
            && !self.is_complete()
            && !self.is_suspended()
            && seat == offender.partner()
        {
            self.ensure_in_hand(seat, card)?;
            return Ok(self.returned(seat, card, self.face_down_retracted_law()));
        }
        self.ensure_can_play()?;
        if self.opening_lead_faced || !self.tricks[0].is_empty() {
            return Err(PlayError::CannotRecord {
                what: "a face-down lead once the opening lead is faced",
                law: self.face_down_law("C"),
            });
        }
        self.ensure_in_hand(seat, card)?;
        let leader = self.tricks[0].leader();
        if let Some((lying, _)) = self.face_down.filter(|(lying, _)| *lying == seat) {
            return Err(PlayError::CannotRecord {
                what: "another face-down lead: the one on the table may be withdrawn only after an irregularity",
                law: self.face_down_law(if lying == leader { "A" } else { "" }),
            });
        }
        if seat != leader {
            let law = match self.code {
                Code::Duplicate if !self.is_defender(seat) => Law::duplicate(54, "E"),
                _ => self.face_down_law("A"),
            };
            return Ok(self.returned(seat, card, law));
        }
        if let Some(failure) = self.obligations(seat, Some(card)).failure {
            // Faced, it would break the obligation: the table records the faced lead instead.
            return Err(failure.refusal(seat, card));
        }
        let mut next = self.successor();
        next.face_down = Some((seat, card));
        Ok(Recorded { play: next, events: Vec::new() })
    }

    /// The player whose opening lead lies face down, not yet faced, and its card: the card is
    /// still in his hand and known to him alone (duplicate Law 41A; rubber Appendix 3).
    pub const fn face_down_lead(&self) -> Option<(Seat, Card)> {
        self.face_down
    }

    /// Refuses any card but the face-down lead from the leader while it lies on the table:
    /// "The face-down lead may be withdrawn only upon instruction of the Director after an
    /// irregularity" (duplicate Law 41A); "the lead is faced (opening leader may not withdraw
    /// it)" (rubber Appendix 3). A card from another hand is judged as any other lead or play.
    pub(crate) fn check_face_down_lead(&self, seat: Seat, card: Card) -> Result<(), PlayError> {
        match self.face_down {
            Some((leader, lying)) if leader == seat && lying != card => Err(PlayError::CannotRecord {
                what: "another card than the face-down opening lead, which the leader may not withdraw",
                law: self.face_down_law("A"),
            }),
            _ => Ok(()),
        }
    }

    /// A card placed on the opening trick: the face-down lead, faced (Law 41C); or an opening
    /// lead out of turn faced by the leader's partner, when the face-down lead is retracted
    /// (duplicate Law 54; rubber Appendix 3, never played).
    pub(crate) fn face_down_lead_settled(&mut self, seat: Seat, events: &mut Events) {
        if let Some((leader, lying)) = self.face_down
            && self.completed == 0
        {
            if seat == leader.partner() && self.tricks[0].is_empty() {
                let law = self.face_down_retracted_law();
                events.push(PlayEvent::CardReturned { seat: leader, card: lying, law });
            }
            if seat == leader || seat == leader.partner() {
                self.face_down = None;
            }
        }
    }

    /// Why the proper leader's face-down lead goes back while his partner's faced lead out of
    /// turn is judged: duplicate Law 54 says so; under rubber Appendix 3 it was never played.
    const fn face_down_retracted_law(&self) -> Law {
        match self.code {
            Code::Duplicate => Law::duplicate(54, ""),
            _ => self.face_down_law(""),
        }
    }

    /// The face-down lead withdrawn because an opponent's explanation of a call was mistaken:
    /// "The face-down lead may be withdrawn only upon instruction of the Director after an
    /// irregularity (see Laws 47E and 54); the withdrawn card must be returned to the defender's
    /// hand" (duplicate Law 41A, with 47E2(a)). Under the rubber Laws a card already played may be
    /// retracted on that ground (Law 47D), so one lying face down may too. The card goes back to
    /// the leader's hand without further rectification and he leads again. `None` when no
    /// face-down lead of `seat`'s lies or the ground is another; refused when the explanation
    /// came from his own side.
    pub(crate) fn retract_face_down_lead(
        &self,
        seat: Seat,
        retraction: Retraction,
    ) -> Result<Option<Recorded>, PlayError> {
        let Some((_, card)) = self.face_down.filter(|(leader, _)| *leader == seat) else { return Ok(None) };
        let (Retraction::MistakenExplanation { by } | Retraction::OpeningLeadBeforeDummyFaced { by }) = retraction
        else {
            return Ok(None);
        };
        let law = retraction.law(self.code);
        if by.side() == seat.side() {
            let reason = "the misinformation did not come from an opponent";
            return Err(PlayError::RetractionRefused { seat, reason, law });
        }
        let mut next = self.successor();
        next.face_down = None;
        Ok(Some(Recorded { play: next, events: vec![PlayEvent::CardReturned { seat, card, law }] }))
    }

    fn ensure_in_hand(&self, seat: Seat, card: Card) -> Result<(), PlayError> {
        if self.hands[seat.index()].contains(card) {
            return Ok(());
        }
        Err(PlayError::CardNotHeld { seat, card, law: self.cite(45, "", "A") })
    }

    fn returned(&self, seat: Seat, card: Card, law: Law) -> Recorded {
        let next = self.successor();
        Recorded { play: next, events: vec![PlayEvent::CardReturned { seat, card, law }] }
    }
}
