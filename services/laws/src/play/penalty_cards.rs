//! Penalty cards on the table (Laws 48-52 of both codes; duplicate Law 50): adding one, its kind,
//! and picking them up.

use crate::cards::{Card, CardSet};
use crate::irregularities::play::Suits;
use crate::seat::Seat;

use super::{Events, PenaltyCard, PenaltyCardKind, Play, PlayEvent};

impl Play {
    /// Adds a penalty card (for a defender only: Law 48, Law 24D) and makes every penalty card
    /// of a defender with two or more major (Law 50B).
    pub(super) fn add_penalty_card(&mut self, card: PenaltyCard, events: &mut Events) {
        if !self.is_defender(card.owner) {
            return;
        }
        self.penalty_records.retain(|pc| pc.card != card.card);
        self.penalty_records.push(card);
        let owner = card.owner;
        let count = self.penalty_cards().filter(|pc| pc.owner == owner).count();
        if count >= 2 {
            let hand = self.hands[owner.index()];
            for pc in &mut self.penalty_records {
                if pc.owner == owner && hand.contains(pc.card) {
                    pc.kind = PenaltyCardKind::Major;
                }
            }
        }
        events.push(PlayEvent::PenaltyCard(card));
    }

    /// The kind Law 50B gives a card: an honour, or a card exposed through deliberate play, is
    /// major; a single lower card exposed unintentionally is minor.
    pub(super) fn penalty_kind(card: Card, deliberate: bool) -> PenaltyCardKind {
        if deliberate || card.rank.is_honor() { PenaltyCardKind::Major } else { PenaltyCardKind::Minor }
    }

    /// `owner`'s major penalty cards on the table.
    pub(super) fn majors(&self, owner: Seat) -> CardSet {
        self.penalty_cards()
            .filter(|pc| pc.owner == owner && pc.kind == PenaltyCardKind::Major)
            .map(|pc| pc.card)
            .collect()
    }

    /// `owner`'s minor penalty card on the table (there is never more than one, Law 50B).
    pub(super) fn minor(&self, owner: Seat) -> Option<Card> {
        self.penalty_cards().find(|pc| pc.owner == owner && pc.kind == PenaltyCardKind::Minor).map(|pc| pc.card)
    }

    /// Picks up `owner`'s penalty cards in `suits` (Law 50D2(a), 51B).
    pub(super) fn pick_up(&mut self, owner: Seat, suits: Suits) {
        self.penalty_records.retain(|pc| !(pc.owner == owner && suits.contains(pc.card.suit)));
    }
}
