//! Play after a disputed claim under the Laws of Rubber Bridge (Law 69, 69A-D; Law 70B), and
//! what the engine knows that an official adjudicating a claim can use (Club Law 69C;
//! duplicate Law 70D-E).
//!
//! Under the Laws of Rubber Bridge a disputed claim is not allowed and play continues with the
//! claimer's hand face up. When the table recorded the claimer's statement as data (a
//! [`StatedLine`]) the engine holds the play to what the Laws then impose; a claim stated in
//! words alone is played on unrestricted, as before, because the engine cannot read words
//! (`docs/laws-readings.md`, "Play after a disputed claim").
//!
//! After declarer's disputed claim, each card of declarer's side must, in this order, and each
//! only where some card can still comply (otherwise it does not bind, as Law 59 reads for
//! rectifications):
//!
//! 1. follow the order of the cards he stated (Law 69: "Declarer may not make any play
//!    inconsistent with the statement");
//! 2. on a lead, draw or not draw the outstanding trumps as he stated or as the defenders
//!    required (Law 69B);
//! 3. on a lead, lead the suits in the order he stated (Law 69);
//! 4. on a lead of a suit whose order he did not state, lead the leading hand's highest card of
//!    it (Law 69D: "it may be assumed from the top down");
//! 5. not be a finesse in a suit he did not state one in (Law 69A; [`Play::is_finesse`]
//!    defines a finesse), unless an opponent failed to follow to the suit or holds none of it.
//!
//! A card that breaks one of these is refused by [`Play::card`], naming the Law. Recorded
//! ([`Play::record`]) it waits, unplayed, for the defenders' decision: "either defender may
//! accept the play or ... require declarer to withdraw the card so played and substitute another
//! that conforms to his obligations" (Law 69). A digital table gives the defenders the same
//! right: it records such a card through [`Play::record`] instead of refusing it
//! (`table/calls_and_cards.rs`).
//!
//! After a defender's disputed claim, declarer decides at each turn of the claimer's partner
//! whether to prohibit a play the faced hand could suggest (Law 70B).

use std::fmt;

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::Chooser;
use crate::irregularities::play::{Decision, Effect, Offer, PlayOption, PlayRequirement, Seats, Situation, Suits};
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::record::Events;
use super::stated_line::{StatedLine, TrumpIntent};
use super::{ClaimRecord, ClaimStatus, Play, PlayError};

/// What the Laws impose on the play after a disputed claim, as it stands: the defenders'
/// requirement about the trumps (Law 69B) and declarer's prohibition on the claimer's partner
/// for the trick in progress (Law 70B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ClaimConduct {
    /// What the defenders required about the outstanding trumps (Law 69B), once chosen;
    /// [`TrumpIntent::Unstated`] if they required nothing.
    pub trumps_required: Option<TrumpIntent>,
    /// Declarer's prohibition on the claimer's partner and the trick (0-12) it binds (Law 70B).
    pub prohibition: Option<(u8, PlayRequirement)>,
    /// The trick (0-12) for which declarer last decided on a prohibition (Law 70B), so that he
    /// is asked once a turn.
    prohibition_settled: Option<u8>,
}

/// An obligation after a disputed claim that a card of declarer's side (Law 69) or of the
/// claimer's partner (Law 70B) would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimDuty {
    /// The statement put this card next (Law 69).
    StatedOrder(Card),
    /// The statement put this suit next to be led (Law 69).
    StatedSuit(Suit),
    /// Draw the outstanding trumps, as stated (Law 69) or required by a defender (Law 69B).
    DrawTrumps,
    /// Do not draw the outstanding trumps, as stated (Law 69) or required (Law 69B).
    LeaveTrumps,
    /// Lead this suit from the top down (Law 69D).
    TopDown(Suit),
    /// No finesse in this suit (Law 69A).
    NoFinesse(Suit),
    /// Declarer prohibited this play of the claimer's partner (Law 70B).
    Prohibited(PlayRequirement),
}

impl fmt::Display for ClaimDuty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimDuty::StatedOrder(card) => write!(f, "his statement plays the {card} next"),
            ClaimDuty::StatedSuit(suit) => write!(f, "his statement leads {suit} next"),
            ClaimDuty::DrawTrumps => f.write_str("he must draw the outstanding trumps"),
            ClaimDuty::LeaveTrumps => f.write_str("he may not draw the outstanding trumps"),
            ClaimDuty::TopDown(suit) => write!(f, "he leads {suit} from the top down"),
            ClaimDuty::NoFinesse(suit) => write!(f, "he stated no finesse in {suit}"),
            ClaimDuty::Prohibited(requirement) => write!(f, "declarer required him to {requirement}"),
        }
    }
}

/// A card that breaks an obligation after a disputed claim, and the Law that imposes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimBreach {
    /// The obligation.
    pub duty: ClaimDuty,
    /// The Law.
    pub law: Law,
}

/// Narrows the cards a hand may play step by step, skipping a step no card complies with, and
/// remembers the first step that excluded the card asked about.
struct Steps {
    allowed: CardSet,
    card: Option<Card>,
    breach: Option<ClaimBreach>,
}

impl Steps {
    fn narrow(&mut self, to: CardSet, duty: ClaimDuty, law: Law) {
        let to = to.intersection(self.allowed);
        if to.is_empty() {
            return;
        }
        if self.breach.is_none()
            && let Some(card) = self.card
            && self.allowed.contains(card)
            && !to.contains(card)
        {
            self.breach = Some(ClaimBreach { duty, law });
        }
        self.allowed = to;
    }
}

impl Play {
    /// The disputed claim being played on under the engine's enforcement: under the Laws of
    /// Rubber Bridge, disputed, with a stated line.
    fn claim_played_on(&self) -> Option<(&ClaimRecord, &StatedLine)> {
        if self.code != Code::Rubber {
            return None;
        }
        let record = self.claims.last().filter(|c| c.status == ClaimStatus::PlayContinued && !c.disputed.is_empty())?;
        Some((record, record.claim.line.as_ref()?))
    }

    /// What the Laws impose on the play after the disputed claim being played on, if any.
    pub fn claim_conduct(&self) -> Option<ClaimConduct> {
        self.claim_played_on().map(|(record, _)| record.conduct)
    }

    /// The cards of `seat`'s hand the obligations after a disputed claim leave him, of those
    /// `allowed` by every other obligation, and what `card` would break.
    pub(crate) fn claim_steps(
        &self,
        seat: Seat,
        allowed: CardSet,
        card: Option<Card>,
    ) -> (CardSet, Option<ClaimBreach>) {
        let mut steps = Steps { allowed, card, breach: None };
        let Some((record, line)) = self.claim_played_on() else {
            return (allowed, None);
        };
        let claimer = record.claim.claimer;
        if claimer == self.declarer() && !self.is_defender(seat) {
            self.declarer_steps(seat, record, line, &mut steps);
        } else if self.is_defender(claimer)
            && seat == claimer.partner()
            && let Some((trick, requirement)) = record.conduct.prohibition
            && trick == self.completed
        {
            let to = self.prohibited(seat, requirement);
            steps.narrow(to, ClaimDuty::Prohibited(requirement), Law::rubber(70, "B"));
        }
        (steps.allowed, steps.breach)
    }

    /// The cards `seat` may play under declarer's Law 70B prohibition.
    fn prohibited(&self, seat: Seat, requirement: PlayRequirement) -> CardSet {
        let hand = self.hands[seat.index()];
        let led = self.current_trick().and_then(|t| t.suit_led());
        let single = |card: Option<Card>| card.map_or(hand, |c| CardSet::EMPTY.with(c));
        match (requirement, led) {
            (PlayRequirement::NotSuit(suit), _) => hand.difference(hand.suit(suit)),
            (PlayRequirement::Highest, Some(led)) if hand.has_suit(led) => single(hand.highest_in(led)),
            (PlayRequirement::Lowest, Some(led)) if hand.has_suit(led) => single(hand.suit(led).iter().next()),
            _ => hand,
        }
    }

    fn declarer_steps(&self, seat: Seat, record: &ClaimRecord, line: &StatedLine, steps: &mut Steps) {
        let hand = self.hands[seat.index()];
        let side_cards = self.hands[self.declarer().index()].union(self.hands[self.dummy().index()]);
        let statement = Law::rubber(69, "");
        // 1. The stated order of the cards.
        let mut stated = line.cards.iter().copied().filter(|c| side_cards.contains(*c));
        if let Some(next) = stated.next() {
            let later: CardSet = stated.collect();
            let to = if hand.contains(next) { CardSet::EMPTY.with(next) } else { hand.difference(later) };
            steps.narrow(to, ClaimDuty::StatedOrder(next), statement);
        }
        let leading = self.current_trick().is_some_and(|t| t.is_empty());
        if leading {
            // 2. The trumps, as the defenders required (Law 69B) or as he stated.
            if let Some(trumps) = self.trumps()
                && !self.outstanding_trumps(self.declarer()).is_empty()
            {
                let (intent, law) = match record.conduct.trumps_required {
                    Some(required) if required != TrumpIntent::Unstated => (required, Law::rubber(69, "B")),
                    _ => (line.trumps, statement),
                };
                match intent {
                    TrumpIntent::Draw => steps.narrow(hand.suit(trumps), ClaimDuty::DrawTrumps, law),
                    TrumpIntent::Leave => {
                        steps.narrow(hand.difference(hand.suit(trumps)), ClaimDuty::LeaveTrumps, law);
                    }
                    TrumpIntent::Unstated => {}
                }
            }
            // 3. The stated order of the suits: the first one his side still holds.
            if let Some(suit) = line.suits.iter().copied().find(|s| side_cards.has_suit(*s)) {
                steps.narrow(hand.suit(suit), ClaimDuty::StatedSuit(suit), statement);
            }
            // 4. Law 69D: a suit whose order he did not state is led from the top down.
            let top_down: CardSet = Suit::ALL
                .into_iter()
                .flat_map(|suit| {
                    if line.orders_suit(suit) { hand.suit(suit) } else { hand.highest_in(suit).into_iter().collect() }
                })
                .collect();
            let suit = steps.card.map_or(Suit::Spades, |c| c.suit);
            steps.narrow(top_down, ClaimDuty::TopDown(suit), Law::rubber(69, "D"));
            return;
        }
        // 5. Law 69A: no finesse he did not state.
        let finesses: CardSet = steps
            .allowed
            .iter()
            .filter(|c| !line.finesses.contains(c.suit) && !self.finesse_excepted(c.suit) && self.is_finesse(seat, *c))
            .collect();
        let suit = steps.card.map_or(Suit::Spades, |c| c.suit);
        steps.narrow(hand.difference(finesses), ClaimDuty::NoFinesse(suit), Law::rubber(69, "A"));
    }

    /// Law 69A's exception: "unless an opponent failed to follow in that suit before the claim
    /// or concession or would subsequently fail to follow in that suit on any conceivable
    /// sequence of plays". Read as: a defender has failed to follow to the suit at any trick so
    /// far, or holds no card of it now (he fails to follow whenever it is played).
    pub fn finesse_excepted(&self, suit: Suit) -> bool {
        self.contract
            .declaring_side()
            .opponents()
            .seats()
            .into_iter()
            .any(|defender| self.shown_out(defender, suit) || !self.hands[defender.index()].has_suit(suit))
    }

    /// The suits in which Law 69A bars declarer's side a finesse after his disputed claim, as far
    /// as everyone at the table can tell: his side still holds the suit, the defenders between them
    /// hold some of it, his statement named no finesse in it, and no defender has failed to follow
    /// to it. The exception for a defender who holds none of the suit now is applied card by card
    /// ([`Play::finesse_excepted`]) but not told here: it would show the other players where the
    /// defenders' cards lie. Empty unless declarer's disputed claim is played on with a stated line.
    pub fn finesses_barred(&self) -> Suits {
        let Some((record, line)) = self.claim_played_on().filter(|(r, _)| r.claim.claimer == self.declarer()) else {
            return Suits::EMPTY;
        };
        let defenders = record.claim.claimer.side().opponents().seats();
        let held = |seats: [Seat; 2], suit| seats.iter().any(|s| self.hands[s.index()].has_suit(suit));
        let side = [self.declarer(), self.dummy()];
        Suit::ALL
            .into_iter()
            .filter(|suit| held(side, *suit) && held(defenders, *suit) && !line.finesses.contains(*suit))
            .filter(|suit| !defenders.iter().any(|d| self.shown_out(*d, *suit)))
            .fold(Suits::EMPTY, Suits::with)
    }

    /// The suits declarer's side leads from the top down after his disputed claim (Law 69D): those
    /// it still holds whose order of play his statement did not include. Empty unless declarer's
    /// disputed claim is played on with a stated line.
    pub fn top_down_suits(&self) -> Suits {
        let Some((_, line)) = self.claim_played_on().filter(|(r, _)| r.claim.claimer == self.declarer()) else {
            return Suits::EMPTY;
        };
        let side = self.hands[self.declarer().index()].union(self.hands[self.dummy().index()]);
        Suit::ALL
            .into_iter()
            .filter(|suit| side.has_suit(*suit) && !line.orders_suit(*suit))
            .fold(Suits::EMPTY, Suits::with)
    }

    /// Whether `seat` failed to follow to `suit` at a trick played so far. The leader's own card
    /// shows nothing: it may differ from the suit led only after a rubber Law 67B2 replacement.
    fn shown_out(&self, seat: Seat, suit: Suit) -> bool {
        self.tricks()
            .iter()
            .any(|t| t.leader() != seat && t.suit_led() == Some(suit) && t.card(seat).is_some_and(|c| c.suit != suit))
    }

    /// Whether `card`, played now from `seat`'s hand (declarer's or dummy's), is a finesse in the
    /// sense of Law 69A and its footnote: "a play the success of which depends on finding one
    /// defender rather than the other with or without a particular card". Precisely: the card is
    /// played to a trick another hand led, and with it in the trick
    ///
    /// 1. the best card of declarer's side in the trick, of the suit led, wins the trick so far;
    /// 2. a card of that suit that would beat it is outstanding: in a defender's hand and not
    ///    face up (so declarer cannot see where it is);
    /// 3. a defender still to play to the trick could hold it: his hand is not face up and he
    ///    has not failed to follow to the suit; and
    /// 4. so could the defender who has played to the trick: same test.
    ///
    /// Then whether the side's card wins depends on which defender holds the higher card. A lead
    /// is never a finesse (both defenders are still to play, so the card's fate does not depend
    /// on which holds the higher card), nor is the fourth card to a trick, nor a ruff. Letting a
    /// partner's card ride under an outstanding higher card (playing low from dummy's ace under
    /// declarer's queen led) is a finesse; so is playing a card that beats the cards played but
    /// not every outstanding one (dummy's queen from ace-queen after a low card).
    pub fn is_finesse(&self, seat: Seat, card: Card) -> bool {
        let declaring = self.contract.declaring_side();
        if seat.side() != declaring || !self.hands[seat.index()].contains(card) {
            return false;
        }
        let Some(trick) = self.current_trick() else { return false };
        let Some(led) = trick.suit_led() else { return false };
        let mut played: Vec<(Seat, Card)> = trick.in_order().collect();
        played.push((seat, card));
        let Some(&(first_seat, first_card)) = played.first() else { return false };
        let mut best = (first_seat, first_card);
        for &(s, c) in &played[1..] {
            let beats = if c.suit == best.1.suit { c.rank > best.1.rank } else { Some(c.suit) == self.trumps() };
            if beats {
                best = (s, c);
            }
        }
        if best.0.side() != declaring || best.1.suit != led {
            return false;
        }
        let face_up = self.face_up_cards();
        let defenders = declaring.opponents().seats();
        let outstanding: CardSet = defenders
            .iter()
            .fold(CardSet::EMPTY, |acc, d| acc.union(self.hands[d.index()].suit(led)))
            .iter()
            .filter(|c| c.rank > best.1.rank && !face_up.contains(*c))
            .collect();
        if outstanding.is_empty() {
            return false;
        }
        let could_hold = |d: Seat| {
            // A defender who discarded on this very trick has shown out of the suit too.
            !self.faced_hands().contains(d) && !self.shown_out(d, led) && trick.card(d).is_none_or(|c| c.suit == led)
        };
        // The suit was led by another hand, so exactly one defender has played to the trick
        // unless the card is the fourth; the other is still to play.
        let Some(after) = trick.waiting().find(|s| *s != seat && self.is_defender(*s)) else { return false };
        let before = after.partner();
        trick.card(before).is_some() && could_hold(after) && could_hold(before)
    }

    /// The cards `seat` (declarer's or dummy's hand) could play now that would be finesses
    /// ([`Play::is_finesse`]): for an official weighing a proposed line (Club Law 69C;
    /// duplicate Law 70E1).
    pub fn finesse_cards(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()].iter().filter(|c| self.is_finesse(seat, *c)).collect()
    }

    /// After declarer's claim is disputed under the Laws of Rubber Bridge: if his stated line
    /// said nothing about a trump a defender still holds, the defenders decide whether he must
    /// draw it or not (Law 69B: "if declarer may have been unaware ... either defender may
    /// require him to draw or not to draw the outstanding trump"). The engine cannot know what
    /// he was aware of; a statement silent on the trumps is read as leaving the doubt, which
    /// "must be resolved in favor of the defenders".
    pub(crate) fn after_dispute(&mut self) {
        let Some((record, line)) = self.claim_played_on() else { return };
        if record.claim.claimer == self.declarer()
            && line.trumps == TrumpIntent::Unstated
            && !self.outstanding_trumps(self.declarer()).is_empty()
            && self.pending.is_none()
        {
            self.pending = Some(Situation::ClaimTrumps { declarer: self.declarer() });
        }
    }

    /// At a turn of the claimer's partner after a defender's disputed claim, declarer decides
    /// whether to prohibit a play the faced hand could suggest (Law 70B); once a turn.
    pub(crate) fn raise_prohibition(&mut self, seat: Seat) {
        let Some((record, _)) = self.claim_played_on() else { return };
        let claimer = record.claim.claimer;
        if self.is_defender(claimer)
            && seat == claimer.partner()
            && record.conduct.prohibition_settled != Some(self.completed)
        {
            self.pending = Some(Situation::ClaimSuggestedPlay { partner: seat });
        }
    }

    /// Records a card that breaks the obligations after a disputed claim. Declarer's card waits,
    /// unplayed, for the defenders' decision (Law 69): `Ok(true)`. A card of the claimer's partner
    /// that declarer prohibited is refused (Law 70B gives no rectification, so the prohibited
    /// play is not made; the table records the card he plays instead). `Ok(false)` for any
    /// other card.
    pub(crate) fn hold_breach(&mut self, seat: Seat, card: Card) -> Result<bool, PlayError> {
        if self.pending.is_some() || self.next_to_play() != Some(seat) {
            return Ok(false);
        }
        let obligations = self.obligations(seat, Some(card));
        if obligations.failure.is_some() {
            return Ok(false);
        }
        let (_, breach) = self.claim_steps(seat, obligations.allowed, Some(card));
        match breach {
            Some(ClaimBreach { duty, law }) if law.number == 70 => {
                Err(PlayError::ClaimObligation { seat, card, duty, law })
            }
            Some(ClaimBreach { duty, law }) => {
                self.pending = Some(Situation::ClaimLineBreach { seat, card, duty, law });
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The decision for a situation after a disputed claim (any other situation has no
    /// options here: the official decides).
    pub(crate) fn claim_decision(&self, situation: &Situation) -> Decision {
        let defenders: Seats = self.contract.declaring_side().opponents().seats().into_iter().collect();
        let offer = |option, law, effects| Offer { option, law, effects };
        let law69 = Law::rubber(69, "");
        match *situation {
            // The decision cites the section the card breaks (69A, 69B, 69D, or Law 69's
            // statement); the choice itself is the closing paragraph of Law 69, which its options
            // cite: "either defender may accept the play or ... require declarer to withdraw".
            Situation::ClaimLineBreach { seat, card, law, .. } => Decision {
                situation: situation.clone(),
                chooser: Chooser::NonOffendingSide,
                seats: defenders,
                law,
                offers: vec![
                    offer(PlayOption::AcceptClaimPlay, law69, vec![Effect::PlayStands { seat, card }]),
                    offer(
                        PlayOption::WithdrawClaimPlay,
                        law69,
                        vec![Effect::CardReturned { seat, card }, Effect::SubstituteCard { seat }],
                    ),
                ],
            },
            Situation::ClaimTrumps { .. } => {
                let law = Law::rubber(69, "B");
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::NonOffendingSide,
                    seats: defenders,
                    law,
                    offers: vec![
                        offer(PlayOption::RequireTrumps(TrumpIntent::Draw), law, Vec::new()),
                        offer(PlayOption::RequireTrumps(TrumpIntent::Leave), law, Vec::new()),
                        offer(PlayOption::Waive, law, Vec::new()),
                    ],
                }
            }
            Situation::ClaimSuggestedPlay { partner } => {
                let law = Law::rubber(70, "B");
                let leading = self.current_trick().is_none_or(|t| t.is_empty());
                let led = self.current_trick().and_then(|t| t.suit_led());
                let mut requirements = Vec::new();
                if !leading {
                    requirements.extend([PlayRequirement::Lowest, PlayRequirement::Highest]);
                }
                requirements
                    .extend(Suit::ALL.into_iter().rev().filter(|s| Some(*s) != led).map(PlayRequirement::NotSuit));
                let mut offers = vec![offer(PlayOption::Waive, law, Vec::new())];
                offers.extend(requirements.into_iter().map(|requirement| {
                    offer(
                        PlayOption::ProhibitPlay(requirement),
                        law,
                        vec![Effect::PlayRequired { player: partner, requirement }],
                    )
                }));
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: Seats::single(self.declarer()),
                    law,
                    offers,
                }
            }
            _ => Decision {
                situation: situation.clone(),
                chooser: Chooser::Official,
                seats: Seats::EMPTY,
                law: law69,
                offers: Vec::new(),
            },
        }
    }

    /// Applies the option chosen for a situation after a disputed claim. `Ok(false)` when the
    /// situation is not one of these.
    pub(crate) fn rectify_claim(&mut self, situation: &Situation, option: PlayOption) -> bool {
        let completed = self.completed;
        match (situation, option) {
            (Situation::ClaimLineBreach { seat, card, .. }, PlayOption::AcceptClaimPlay) => {
                self.play_with_check(*seat, *card, &mut Events::discard());
            }
            (Situation::ClaimLineBreach { .. }, PlayOption::WithdrawClaimPlay) => {
                // The card never left the hand: declarer plays again, within his obligations.
            }
            (Situation::ClaimTrumps { .. }, PlayOption::RequireTrumps(intent)) => {
                if let Some(conduct) = conduct(self) {
                    conduct.trumps_required = Some(intent);
                }
            }
            (Situation::ClaimTrumps { .. }, PlayOption::Waive) => {
                if let Some(conduct) = conduct(self) {
                    conduct.trumps_required = Some(TrumpIntent::Unstated);
                }
            }
            (Situation::ClaimSuggestedPlay { .. }, PlayOption::ProhibitPlay(requirement)) => {
                if let Some(conduct) = conduct(self) {
                    conduct.prohibition = Some((completed, requirement));
                    conduct.prohibition_settled = Some(completed);
                }
            }
            (Situation::ClaimSuggestedPlay { .. }, PlayOption::Waive) => {
                if let Some(conduct) = conduct(self) {
                    conduct.prohibition = None;
                    conduct.prohibition_settled = Some(completed);
                }
            }
            _ => return false,
        }
        true
    }
}

impl ClaimRecord {
    /// Whether the claimer's statement mentioned the outstanding trumps, as far as the table
    /// recorded it as data: the first condition of the outstanding-trump rule an official applies
    /// (Club Law 69B1, duplicate Law 70C1: "claimer made no statement about that trump"). `None`
    /// for a statement in words alone, which the official reads himself.
    pub fn statement_mentions_trumps(&self) -> Option<bool> {
        self.claim.line.as_ref().map(|line| line.trumps != TrumpIntent::Unstated)
    }
}

/// The conduct of the last claim, to change.
fn conduct(play: &mut Play) -> Option<&mut ClaimConduct> {
    play.claims.last_mut().map(|record| &mut record.conduct)
}
