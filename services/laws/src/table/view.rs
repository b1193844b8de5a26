//! Who may see which cards of a deal in progress (hidden information).
//!
//! A player sees his own hand, and every card lying face up: dummy's hand once the opening lead
//! is faced (Law 41), a claimer's faced hand (duplicate Law 68C; rubber Laws 69-70), a
//! defender's hand faced for inspection after declarer's disputed claim (rubber Law 69), penalty
//! cards (Law 50A), a lead out of turn awaiting its decision, cards exposed during the auction
//! (Law 24). Played cards are public through the tricks. Anyone else at or around the table
//! (the desk, a spectator, a member not playing) sees only what lies face up (duplicate Law
//! 76). The Arbiter or Director sees all four hands, the only one who does while the deal is
//! live. Once the deal is over everyone may see the hands, except a duplicate board's, which
//! other tables may still have to play (duplicate Law 2: the same cards at every table).

use crate::cards::CardSet;
use crate::law::Code;
use crate::seat::Seat;

use super::DealInProgress;

/// Who is looking at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// One of the four players.
    Player(Seat),
    /// Anyone else: the desk, a spectator, a member not playing.
    Spectator,
    /// The Arbiter or Director.
    Official,
}

/// Whether `viewer` may see `seat`'s hand as dealt when the deal starts: a player his own, the
/// official all four, a spectator none.
pub fn sees_dealt_hand(viewer: Viewer, seat: Seat) -> bool {
    match viewer {
        Viewer::Official => true,
        Viewer::Player(own) => own == seat,
        Viewer::Spectator => false,
    }
}

/// Whether `viewer` may see every hand (and a digital deal's seed) once a deal under `code` is
/// over: the official always; the others unless it is a duplicate board, which other tables
/// may still have to play.
pub fn sees_finished_deal(viewer: Viewer, code: Code) -> bool {
    viewer == Viewer::Official || code != Code::Duplicate
}

impl DealInProgress {
    /// The cards still held that `viewer` may see, by seat: a player's own hand always (even
    /// when empty), and of the other hands only what lies face up; everything for the official,
    /// and for everyone once the deal is over (unless [`sees_finished_deal`] says otherwise).
    /// Empty when the hands are unknown.
    pub fn visible_hands(&self, viewer: Viewer) -> Vec<(Seat, CardSet)> {
        let Some(deal) = &self.deal else { return Vec::new() };
        let held = match &self.play {
            Some(play) => Seat::ALL.map(|seat| play.hand(seat)),
            None => deal.hands(),
        };
        if viewer == Viewer::Official || (self.is_over() && sees_finished_deal(viewer, self.code())) {
            return Seat::ALL.iter().map(|seat| (*seat, held[seat.index()])).collect();
        }
        let face_up = self.face_up_cards();
        Seat::ALL
            .iter()
            .filter_map(|seat| {
                let own = viewer == Viewer::Player(*seat);
                let cards = if own { held[seat.index()] } else { held[seat.index()].intersection(face_up) };
                (own || !cards.is_empty()).then_some((*seat, cards))
            })
            .collect()
    }

    /// Every unplayed card lying face up: in the play, faced hands, penalty cards and a lead out
    /// of turn awaiting its decision ([`crate::play::Play::face_up_cards`]); in the auction, the
    /// cards exposed during it (Law 24).
    pub fn face_up_cards(&self) -> CardSet {
        match &self.play {
            Some(play) => play.face_up_cards(),
            None => self.auction.exposed_cards().iter().flat_map(|e| e.cards.iter().copied()).collect(),
        }
    }
}
