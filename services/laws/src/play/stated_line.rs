//! A claimer's statement in a form the engine can hold him to (rubber Law 69: "a comprehensive
//! statement as to his proposed plan of play, including the order in which he will play the
//! remaining cards"; Law 70B, a defender's "proposed plan of defense"; duplicate Law 68C).
//!
//! The verbatim statement stays on the [`Claim`](super::Claim); a [`StatedLine`] is what the
//! table recorded of it as data. It is optional: a claim recorded with words alone is played on
//! as before, the players applying Laws 69-70 themselves, because the engine cannot read words.
//! A claim recorded with a stated line, even an empty one ("declarer made no relevant
//! statement", Law 69A), is played on under the engine's enforcement
//! (`docs/laws-readings.md`, "Play after a disputed claim").

use std::fmt;

use crate::cards::{Card, Suit};
use crate::irregularities::play::Suits;

/// What the claimer said about the outstanding trumps (rubber Law 69B; Club Law 69B1 and
/// duplicate Law 70C1 ask whether "declarer made no statement about that trump").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TrumpIntent {
    /// Nothing: he may have been unaware that a trump remained (Law 69B).
    #[default]
    Unstated,
    /// He will draw the outstanding trumps: while a defender holds one, declarer's side leads
    /// trumps whenever the hand on lead has one.
    Draw,
    /// He will not draw them: while a defender holds one, declarer's side leads no trump while
    /// the hand on lead has another card.
    Leave,
}

impl fmt::Display for TrumpIntent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrumpIntent::Unstated => "nothing said about the outstanding trumps",
            TrumpIntent::Draw => "draw the outstanding trumps",
            TrumpIntent::Leave => "not draw the outstanding trumps",
        })
    }
}

/// The claimer's line of play as data (see the [module documentation](self)). Every part may be
/// empty; an empty part is a statement that said nothing on that point.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StatedLine {
    /// Cards of the claimer's side in the order he said he would play them ("the ace and king of
    /// spades, then the hearts"): Law 69, "the order in which he will play the remaining
    /// cards". A suit with a card here has its order stated, so Law 69D does not apply to it.
    pub cards: Vec<Card>,
    /// Suits in the order he said his side would lead them ("run the diamonds, then the
    /// clubs").
    pub suits: Vec<Suit>,
    /// What he said about the outstanding trumps (Law 69B).
    pub trumps: TrumpIntent,
    /// Suits in which he said he would take a finesse: Law 69A forbids only a finesse he did
    /// not state.
    pub finesses: Suits,
}

impl StatedLine {
    /// Whether the statement said anything the engine can enforce (Law 69A: "if declarer made
    /// no relevant statement").
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
            && self.suits.is_empty()
            && self.trumps == TrumpIntent::Unstated
            && self.finesses == Suits::EMPTY
    }

    /// Whether the statement gave the order of play in `suit` (Law 69D: "if declarer's
    /// statement did not include the order of play when leading a suit").
    pub fn orders_suit(&self, suit: Suit) -> bool {
        self.cards.iter().any(|card| card.suit == suit)
    }
}

impl fmt::Display for StatedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.cards.is_empty() {
            let cards: Vec<String> = self.cards.iter().map(ToString::to_string).collect();
            parts.push(format!("play {} in that order", cards.join(", ")));
        }
        if !self.suits.is_empty() {
            let suits: Vec<String> = self.suits.iter().map(ToString::to_string).collect();
            parts.push(format!("lead {} in that order", suits.join(", then ")));
        }
        if self.trumps != TrumpIntent::Unstated {
            parts.push(self.trumps.to_string());
        }
        if self.finesses != Suits::EMPTY {
            parts.push(format!("finesse in {}", self.finesses));
        }
        if parts.is_empty() { f.write_str("no relevant statement") } else { f.write_str(&parts.join("; ")) }
    }
}
