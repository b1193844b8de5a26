//! Recorded play: what really happened at a table with physical cards (Laws 45-60).

use crate::cards::Card;
use crate::irregularities::play::Situation;
use crate::law::{Code, Law};
use crate::penalty::PenaltyCard;
use crate::seat::Seat;

use super::{Play, PlayError};

/// Something that happened when a card was recorded, for the service's event stream.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PlayEvent {
    /// A card was played to a trick (Law 45).
    CardPlayed {
        /// The hand it came from.
        seat: Seat,
        /// The card.
        card: Card,
        /// The trick (0-12).
        trick: u8,
    },
    /// The opening lead is faced and dummy's hand spread (Law 41).
    DummyFaced {
        /// Dummy.
        dummy: Seat,
    },
    /// A trick is complete (Law 44E-G).
    TrickWon {
        /// The trick (0-12).
        trick: u8,
        /// The hand that won it, which leads next.
        winner: Seat,
    },
    /// The thirteenth trick is complete.
    PlayEnded,
    /// An irregularity awaits a decision ([`Play::decision`]).
    DecisionRequired {
        /// What happened.
        situation: Situation,
    },
    /// A lead out of turn became a correct lead because the hand next in rotation played to it
    /// (Law 53A; Law 60A).
    LeadAccepted {
        /// The hand that led.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The proper leader led after a lead out of turn by an opponent: his lead stands and the
    /// card led out of turn is withdrawn (Law 53B duplicate, Law 53 rubber).
    IrregularLeadWithdrawn {
        /// The hand that had led out of turn.
        seat: Seat,
        /// The card withdrawn.
        card: Card,
    },
    /// A card became a penalty card (Law 49-50, 54, 56-58, 60, 62).
    PenaltyCard(PenaltyCard),
    /// A card was picked up with no rectification (declarer's and dummy's exposed cards, Law
    /// 48; a declaring-side opening lead, duplicate Law 54E / Law 24D; a lead out of turn at
    /// trick 13, Law 53).
    CardReturned {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
        /// The Law.
        law: Law,
    },
    /// A played card was taken back into its hand without further rectification (Law 47; the
    /// withdrawals of Laws 45C4(b), 45D and 46).
    CardWithdrawn {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
        /// The trick (0-12) it had been played to.
        trick: u8,
        /// The Law.
        law: Law,
    },
    /// A revoke was committed. Hidden information: the Laws act on it only when attention is
    /// drawn (Law 62), so publish it to nobody but the official until then.
    Revoke {
        /// The offender.
        seat: Seat,
        /// The trick (0-12).
        trick: u8,
    },
    /// A revoke became established (Law 63). Hidden information, as [`PlayEvent::Revoke`].
    RevokeEstablished {
        /// The offender.
        seat: Seat,
        /// The trick (0-12).
        trick: u8,
    },
}

/// Collects events while recording; discards them for digital play, so that `card` allocates
/// nothing for them.
pub(crate) struct Events(Option<Vec<PlayEvent>>);

impl Events {
    pub(crate) const fn discard() -> Events {
        Events(None)
    }

    pub(crate) const fn keep() -> Events {
        Events(Some(Vec::new()))
    }

    pub(crate) fn push(&mut self, event: PlayEvent) {
        if let Some(events) = &mut self.0 {
            events.push(event);
        }
    }

    pub(crate) fn into_vec(self) -> Vec<PlayEvent> {
        self.0.unwrap_or_default()
    }
}

/// The result of recording what happened at the table: the next state and what it amounted
/// to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The play after the action.
    pub play: Play,
    /// What happened, in order.
    pub events: Vec<PlayEvent>,
}

/// How a defender's card came to be exposed, which decides whether a single card below honour
/// rank is a minor or a major penalty card (Law 50B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exposure {
    /// Unintentionally, as by dropping it or playing two cards at once.
    Inadvertent,
    /// Deliberately (shown, named as being in his hand, or played).
    Deliberate,
}

/// Who drew attention to a revoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawnBy {
    /// Declarer or a defender (or dummy after play, Law 42).
    Player,
    /// Dummy, after forfeiting his rights, first asking declarer whether a play from
    /// declarer's hand is a revoke (rubber Law 43C, duplicate Law 43B2(b)).
    DummyOutOfRights,
}

impl Play {
    /// Records that `seat` led or played `card` at the table, in turn or not, legally or not.
    ///
    /// - In turn and legal: as [`Play::card`].
    /// - A card that fails an obligation (a revoke, Law 61A) stands as played; the Laws act on
    ///   it when attention is drawn ([`Play::draw_attention_to_revoke`]). It becomes
    ///   established when the offender or his partner plays to a later trick (Law 63).
    /// - A lead out of turn: an opening lead by a defender (Law 54), a lead by declarer from
    ///   either hand (Law 55), a defender's lead (Law 56), each a pending decision; at trick
    ///   13 it is retracted (Law 53). While it is pending, a card from the hand next in
    ///   rotation accepts it (Law 53A), a card from the other defender after declarer's lead
    ///   accepts it and is a premature play (Law 53C duplicate, rubber footnote 22), and a card
    ///   from the proper leader, if an opponent of the offender and not the hand next in
    ///   rotation, is his proper lead (Law 53B; [`Play::record_proper_lead`] when he is both).
    /// - A defender playing, or leading to the next trick, before his partner played (Law 57A):
    ///   a pending decision for declarer; no rectification once declarer has played from both
    ///   hands (Law 57C1). A defender playing at his right-hand opponent's turn after his
    ///   partner played: the card is played at his turn if legal, otherwise a major penalty
    ///   card (duplicate Law 57D). Declarer's premature play stands (duplicate Law 57C3).
    /// - Before the opening lead, a declaring-side card led is picked up (duplicate Law 54E
    ///   and 24D; rubber Law 48).
    /// - While the opening lead lies face down ([`Play::lead_face_down`]), the leader's card
    ///   must be that one, and faces it; his partner's faced lead out of turn retracts it
    ///   (duplicate Law 54; rubber Appendix 3) and is judged under Law 54.
    pub fn record(&self, seat: Seat, card: Card) -> Result<Recorded, PlayError> {
        if self.is_complete() {
            return Err(PlayError::PlayOver { law: self.over_law() });
        }
        if self.is_suspended() {
            return Err(PlayError::PlaySuspended { law: self.suspended_law() });
        }
        if !self.hands[seat.index()].contains(card) {
            return Err(PlayError::CardNotHeld { seat, card, law: self.cite(45, "", "A") });
        }
        self.check_defective_card(seat, card)?;
        self.check_face_down_lead(seat, card)?;
        let mut next = self.successor();
        let mut events = Events::keep();
        next.face_down_lead_settled(seat, &mut events);
        match self.pending.clone() {
            Some(situation) => next.record_while_pending(situation, seat, card, &mut events)?,
            // Law 69: a card against a disputed claim's obligations waits for the defenders.
            None if next.hold_breach(seat, card)? => {}
            None => next.record_card(seat, card, &mut events)?,
        }
        next.remember_last_record(self, seat, card);
        if let Some(situation) = next.pending.clone().filter(|s| Some(s) != self.pending.as_ref()) {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// A card while a decision is pending.
    ///
    /// - After a lead out of turn: acceptance by play (Law 53A, 60A), the other defender's
    ///   premature play (Law 53C), or the proper lead (Law 53B). A card from the offending side
    ///   does not affect the opponents' rights and is itself rectified (Law 60C): a defender's
    ///   card becomes a major penalty card (Law 49, exposed before he was entitled to play it,
    ///   deliberately), declarer's or dummy's goes back to the hand (Law 48A: declarer is not
    ///   subject to rectification for exposing a card).
    /// - After a defender's premature lead or play (Law 57A): a card from his side before
    ///   declarer has chosen is rectified as above (Law 60C).
    /// - While declarer is to state his Law 50D2 option: a lead by the defender who has the
    ///   lead becomes a major penalty card (duplicate Law 50D2: "if the defender leads
    ///   prematurely, he is subject to rectification under Law 49"; rubber Law 50: "The
    ///   defender may not lead until declarer has indicated his choice", and Law 49), and
    ///   declarer still states his option.
    ///
    /// Any other card waits for the decision (Law 9B2 duplicate, Law 13 rubber).
    fn record_while_pending(
        &mut self,
        situation: Situation,
        seat: Seat,
        card: Card,
        events: &mut Events,
    ) -> Result<(), PlayError> {
        let refuse = || PlayError::DecisionPending { situation: Box::new(situation.clone()), law: self.pending_law() };
        if let Situation::PrematurePlay { offender, .. } = situation {
            // Law 60C: the offender's partner plays before declarer has chosen what he must
            // play (Law 57A): his card is exposed before he was entitled to play it.
            if seat.side() != offender.side() {
                return Err(refuse());
            }
            let law = self.cite(60, "", "C");
            self.make_penalty_card(seat, card, true, law, events);
            return Ok(());
        }
        if let Situation::PenaltyCardLead { leader } = situation {
            if seat != leader {
                return Err(refuse());
            }
            let law = self.cite(50, "", "D2");
            self.make_penalty_card(seat, card, true, law, events);
            return Ok(());
        }
        let (offender, led, proper, declarers_lead) = match situation {
            Situation::OpeningLeadOutOfTurn { offender, card } => {
                (offender, card, self.contract.opening_leader(), false)
            }
            Situation::DeclarerLeadOutOfTurn { from, card, proper_leader } => (from, card, proper_leader, true),
            Situation::DefenderLeadOutOfTurn { offender, card, proper_leader } => {
                (offender, card, proper_leader, false)
            }
            _ => return Err(refuse()),
        };
        if seat.side() == offender.side() {
            let law = self.cite(60, "", "C");
            if self.is_defender(seat) {
                self.make_penalty_card(seat, card, true, law, events);
            } else {
                events.push(PlayEvent::CardReturned { seat, card, law });
            }
            return Ok(());
        }
        if seat == offender.lho() || (declarers_lead && seat == offender.rho()) {
            self.pending = None;
            self.accept_lead(offender, led, events);
            events.push(PlayEvent::LeadAccepted { seat: offender, card: led });
            return self.record_card(seat, card, events);
        }
        if seat == proper {
            return self.proper_lead_instead(offender, led, seat, card, events);
        }
        Err(refuse())
    }

    /// The proper leader, an opponent of the player who led out of turn, makes his proper lead
    /// instead of playing to the irregular lead (Law 53B duplicate, Law 53 rubber): his lead
    /// stands and the card led out of turn is withdrawn, a major penalty card if a defender's
    /// (Law 49, 50B: exposed through deliberate play). When the proper leader is also the hand
    /// next in rotation, a card [`Play::record`]ed from him accepts the irregular lead instead
    /// (Law 53A); this records his proper lead.
    pub fn record_proper_lead(&self, seat: Seat, card: Card) -> Result<Recorded, PlayError> {
        let refuse = || PlayError::CannotRecord {
            what: "a proper lead without an opponent's lead out of turn to replace",
            law: self.cite(53, "", "B"),
        };
        let (offender, led, proper) = match self.pending {
            Some(Situation::DeclarerLeadOutOfTurn { from, card, proper_leader }) => (from, card, proper_leader),
            Some(Situation::DefenderLeadOutOfTurn { offender, card, proper_leader }) => (offender, card, proper_leader),
            _ => return Err(refuse()),
        };
        if seat != proper || seat.side() == offender.side() {
            return Err(refuse());
        }
        if !self.hands[seat.index()].contains(card) {
            return Err(PlayError::CardNotHeld { seat, card, law: self.cite(45, "", "A") });
        }
        let mut next = self.successor();
        let mut events = Events::keep();
        next.proper_lead_instead(offender, led, seat, card, &mut events)?;
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    fn proper_lead_instead(
        &mut self,
        offender: Seat,
        led: Card,
        seat: Seat,
        card: Card,
        events: &mut Events,
    ) -> Result<(), PlayError> {
        self.pending = None;
        events.push(PlayEvent::IrregularLeadWithdrawn { seat: offender, card: led });
        if self.is_defender(offender) {
            let law = self.cite(49, "", "");
            self.make_penalty_card(offender, led, true, law, events);
        }
        self.record_card(seat, card, events)
    }

    /// The lead out of turn stands: the offender is the leader of the trick (Law 53A).
    pub(crate) fn accept_lead(&mut self, seat: Seat, card: Card, events: &mut Events) {
        let cur = self.cur();
        self.tricks[cur] = super::Trick::new(seat);
        self.put_card(seat, card, events);
    }

    /// A card with no decision pending.
    fn record_card(&mut self, seat: Seat, card: Card, events: &mut Events) -> Result<(), PlayError> {
        let cur = self.cur();
        let trick = self.tricks[cur];
        let Some(proper) = trick.next_in_rotation() else {
            return Err(PlayError::PlayOver { law: self.over_law() });
        };
        if trick.is_empty() {
            if seat == proper {
                self.play_with_check(seat, card, events);
                return Ok(());
            }
            return self.lead_out_of_turn(seat, card, proper, events);
        }
        if trick.card(seat).is_some() {
            if self.is_defender(seat) && trick.card(seat.partner()).is_none() && cur < 12 {
                // Law 57A: a lead to the next trick before partner played to this one.
                self.establish(seat, self.completed + 1, events);
                let law = self.cite(57, "", "A");
                self.make_penalty_card(seat, card, true, law, events);
                self.raise(Situation::PrematurePlay { offender: seat, card, to_next_trick: true });
                return Ok(());
            }
            return Err(PlayError::CannotRecord {
                what: "a lead to the next trick before this trick is complete",
                law: self.cite(44, "", "B"),
            });
        }
        if seat == proper {
            self.play_with_check(seat, card, events);
            return Ok(());
        }
        if self.is_defender(seat) && trick.card(seat.partner()).is_none() {
            let declarer_played_both = trick.card(self.declarer()).is_some() && trick.card(self.dummy()).is_some();
            if declarer_played_both {
                // Law 57C1 duplicate, Law 57 rubber: no rectification; the card stands.
                self.play_with_check(seat, card, events);
                return Ok(());
            }
            self.raise(Situation::PrematurePlay { offender: seat, card, to_next_trick: false });
            if self.code == Code::Duplicate {
                // Law 57A: "the card so led or played becomes a major penalty card".
                self.make_penalty_card(seat, card, true, Law::duplicate(57, "A"), events);
            } else {
                // Rubber Law 57 makes no penalty card of a card played to the current trick:
                // it stands as played, and declarer's option binds the partner.
                self.play_with_check(seat, card, events);
            }
            return Ok(());
        }
        if self.is_defender(seat)
            && self.code == Code::Duplicate
            && self.obligations(seat, Some(card)).failure.is_some()
        {
            // Law 57D: played at his right-hand opponent's turn and not legal: a major penalty
            // card; he plays again at his turn.
            self.make_penalty_card(seat, card, true, Law::duplicate(57, "D"), events);
            return Ok(());
        }
        // Law 57D duplicate (a legal card is played at his proper turn), Law 57C3 duplicate
        // (declarer's premature play stands), Law 45 rubber: the card stands in its place.
        self.play_with_check(seat, card, events);
        Ok(())
    }

    /// A lead by a hand other than the proper leader.
    fn lead_out_of_turn(&mut self, seat: Seat, card: Card, proper: Seat, events: &mut Events) -> Result<(), PlayError> {
        if self.completed == 12 {
            // Law 53 (rubber footnote 22, duplicate footnote 17): at trick 13 a lead out of
            // turn cannot be accepted and is retracted.
            events.push(PlayEvent::CardReturned { seat, card, law: self.cite(53, "", "A") });
            return Ok(());
        }
        // Law 63: any lead to a later trick, legal or not, establishes an earlier revoke.
        self.establish(seat, self.completed, events);
        if !self.opening_lead_faced {
            if self.is_defender(seat) {
                self.pending = Some(Situation::OpeningLeadOutOfTurn { offender: seat, card });
            } else {
                let law = if self.code == Code::Duplicate { Law::duplicate(54, "E") } else { Law::rubber(48, "") };
                events.push(PlayEvent::CardReturned { seat, card, law });
            }
            return Ok(());
        }
        if self.must_lead_from.is_some() && self.is_defender(seat) {
            // Law 60B: a defender plays after declarer was required to retract his lead out of
            // turn, before declarer led from the correct hand.
            let law = self.cite(60, "", "B");
            self.make_penalty_card(seat, card, true, law, events);
            return Ok(());
        }
        self.pending = Some(if self.is_defender(seat) {
            Situation::DefenderLeadOutOfTurn { offender: seat, card, proper_leader: proper }
        } else {
            Situation::DeclarerLeadOutOfTurn { from: seat, card, proper_leader: proper }
        });
        Ok(())
    }

    /// Makes `card` a penalty card of `owner` (a defender): major if deliberate or an honour
    /// (Law 50B). Not for a defender whose hand is faced for inspection after declarer's
    /// disputed claim: the card goes back to his face-up hand (rubber Law 69: "declarer may not
    /// impose a penalty for any irregularity committed by a defender whose hand is so faced").
    pub(crate) fn make_penalty_card(
        &mut self,
        owner: Seat,
        card: Card,
        deliberate: bool,
        law: Law,
        events: &mut Events,
    ) {
        if self.penalty_card_barred(owner, card, events) {
            return;
        }
        let kind = Self::penalty_kind(card, deliberate);
        self.add_penalty_card(PenaltyCard { card, owner, kind, law }, events);
    }

    /// Records cards exposed other than in play: dropped, shown, or named as being in the hand.
    ///
    /// A defender's cards become penalty cards (Law 49; during the Clarification Period in
    /// duplicate, Law 24E): a single card below honour rank exposed inadvertently is minor,
    /// any other major, and all are major once one defender has two or more (Law 50B).
    /// Declarer's and dummy's cards never become penalty cards (Law 48). Refused for a card
    /// not in the hand (Law 45) and once the play is over.
    pub fn expose(&self, seat: Seat, cards: &[Card], how: Exposure) -> Result<Recorded, PlayError> {
        if self.is_complete() {
            return Err(PlayError::PlayOver { law: self.over_law() });
        }
        if let Some(card) = cards.iter().find(|c| !self.hands[seat.index()].contains(**c)) {
            return Err(PlayError::CardNotHeld { seat, card: *card, law: self.cite(45, "", "A") });
        }
        let mut next = self.successor();
        let mut events = Events::keep();
        if self.hand_faced(seat) {
            // A faced hand's cards are face up already: a claimer faced them under the Law, so
            // they are not penalty cards (rubber Law 70B; duplicate Law 68C with Law 49), nor are
            // a defender's faced for inspection (rubber Law 69).
            let law = match (self.is_defender(seat), self.code) {
                (false, _) => self.cite(48, "", "A"),
                (true, _) if self.faced_for_inspection(seat) => Self::inspection_law(),
                (true, Code::Duplicate) => Law::duplicate(68, "C"),
                (true, _) => Law::rubber(70, "B"),
            };
            for card in cards {
                events.push(PlayEvent::CardReturned { seat, card: *card, law });
            }
            return Ok(Recorded { play: next, events: events.into_vec() });
        }
        if !self.is_defender(seat) {
            let law = self.cite(48, "", "A");
            for card in cards {
                events.push(PlayEvent::CardReturned { seat, card: *card, law });
            }
            return Ok(Recorded { play: next, events: events.into_vec() });
        }
        let law = if self.code == Code::Duplicate && !self.opening_lead_faced {
            Law::duplicate(24, "E")
        } else {
            self.cite(49, "", "")
        };
        // Law 50B: "a single card ... exposed unintentionally" is minor; several exposed at
        // once are each major.
        let deliberate = how == Exposure::Deliberate || cards.len() > 1;
        for card in cards {
            next.make_penalty_card(seat, *card, deliberate, law, &mut events);
        }
        let before = next.pending.clone();
        next.settle();
        if let Some(situation) = next.pending.clone().filter(|s| Some(s) != before.as_ref()) {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// Records that `seat` contributed `card` to `trick` (0-12), which he had already played
    /// to: a fifth card on a complete trick, or a second card of his on the trick in progress
    /// (too many cards, Law 67A2). The card is taken back:
    ///
    /// - Duplicate Law 45E: "A fifth card contributed to a trick by a defender becomes a
    ///   penalty card, subject to Law 50" (a major one: he played it), and "When declarer
    ///   contributes a fifth card to a trick from his own hand or dummy, it is returned to the
    ///   hand without further rectification". Law 67A: only before a player of each side has
    ///   played to the following trick.
    /// - Rubber Law 67A2: "he withdraws all but one card, leaving a card he can legally play"; a
    ///   defender's card withdrawn becomes a penalty card (Law 67A3, Law 50: a low card played
    ///   to a trick with another is exposed inadvertently, so minor), declarer's goes back (Law
    ///   48). Only until he has played to a subsequent trick.
    ///
    /// When the Director (or the players) deem the card led, it is a lead: record it with
    /// [`Play::record`] instead (duplicate Law 45E: then Law 53, 55 or 56 applies). Later than
    /// the Law allows, Law 67B applies: [`Play::defective_trick`].
    pub fn record_extra_card(&self, seat: Seat, card: Card, trick: u8) -> Result<Recorded, PlayError> {
        self.ensure_can_play()?;
        if !self.hands[seat.index()].contains(card) {
            return Err(PlayError::CardNotHeld { seat, card, law: self.cite(45, "", "A") });
        }
        let law = match (self.code, self.is_defender(seat)) {
            (Code::Duplicate, true) => Law::duplicate(45, "E1"),
            (Code::Duplicate, false) => Law::duplicate(45, "E2"),
            _ => Law::rubber(67, "A2"),
        };
        let t = trick as usize;
        if self.tricks.get(t).is_none_or(|played| played.card(seat).is_none()) {
            return Err(PlayError::CannotRecord { what: "an extra card to a trick he has not played to", law });
        }
        if !self.defect_in_time(seat, t) {
            return Err(PlayError::CannotRecord {
                what: "an extra card to a trick the play has gone past (Law 67B applies)",
                law: self.cite(67, "B", "B"),
            });
        }
        let mut next = self.successor();
        let mut events = Events::keep();
        if next.is_defender(seat) {
            next.make_penalty_card(seat, card, self.code == Code::Duplicate, law, &mut events);
        } else {
            events.push(PlayEvent::CardReturned { seat, card, law });
        }
        next.settle();
        if let Some(situation) = next.pending.clone() {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Ok(Recorded { play: next, events: events.into_vec() })
    }

    /// Records two or more cards led or played at once from one hand (Law 58B): `played` is
    /// the card played (the only one visible, or the one the player designates), and
    /// `also_visible` the other cards whose faces were visible. A defender's other visible
    /// cards become penalty cards (Law 58B2, exposed unintentionally: Law 50B); declarer's are
    /// returned (Law 58 rubber, 58B2 duplicate).
    pub fn record_simultaneous(&self, seat: Seat, played: Card, also_visible: &[Card]) -> Result<Recorded, PlayError> {
        if let Some(card) = also_visible.iter().find(|c| !self.hands[seat.index()].contains(**c) || **c == played) {
            return Err(PlayError::CardNotHeld { seat, card: *card, law: self.cite(58, "", "B") });
        }
        let Recorded { mut play, mut events } = self.record(seat, played)?;
        let law = self.cite(58, "", "B2");
        let mut sink = Events::keep();
        for card in also_visible {
            if play.is_defender(seat) {
                let deliberate = also_visible.len() > 1;
                play.make_penalty_card(seat, *card, deliberate, law, &mut sink);
            } else {
                sink.push(PlayEvent::CardReturned { seat, card: *card, law });
            }
        }
        events.extend(sink.into_vec());
        Ok(Recorded { play, events })
    }
}

impl Play {
    /// Ends a ruling that leaves `offender` to put a card of his own on a trick (a surplus card
    /// replaced, rubber Law 12B2; a card missing from a trick found late, Law 67B1): the one card
    /// he may play, if there is only one, is played at once; then the play settles, and a decision
    /// it opens is told.
    pub(super) fn offender_supplies(mut self, offender: Seat, mut events: Events) -> Recorded {
        let allowed = self.obligations(offender, None).allowed;
        if allowed.len() == 1
            && let Some(only) = allowed.iter().next()
        {
            self.play_with_check(offender, only, &mut events);
        }
        self.settle();
        if let Some(situation) = self.pending.clone() {
            events.push(PlayEvent::DecisionRequired { situation });
        }
        Recorded { play: self, events: events.into_vec() }
    }
}
