//! What a draw for precedence decides (Rules for Club Procedure C-E): the order among players
//! of equal rank, the highest card first. Apart from the partnership draw because the club's
//! rules, not Law 3, call for it.

use crate::cards::Card;

use super::{DrawError, DrawnCard, PlayerId, check_distinct};

/// A draw for precedence among players of equal rank (Rules for Club Procedure C: "the
/// player who draws the highest-ranking card having precedence"; used also by rules D and E).
/// Cards rank as in Law 2 ([`Card`]'s order), so there are never ties.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PrecedenceDraw {
    ranked: Vec<DrawnCard>,
}

impl PrecedenceDraw {
    /// Checks the cards (distinct players, distinct cards: Law 3, Law 1) and ranks them,
    /// highest card first.
    pub fn new(cards: &[DrawnCard]) -> Result<PrecedenceDraw, DrawError> {
        check_distinct(cards)?;
        let mut ranked = cards.to_vec();
        ranked.sort_by_key(|d| std::cmp::Reverse(d.card));
        Ok(PrecedenceDraw { ranked })
    }

    /// The players from the highest card (first precedence) to the lowest.
    pub fn ranked(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.ranked.iter().map(|d| d.player)
    }

    /// The cards, highest first.
    pub fn cards(&self) -> &[DrawnCard] {
        &self.ranked
    }

    /// The card `player` drew, if he drew.
    pub fn card_of(&self, player: PlayerId) -> Option<Card> {
        self.ranked.iter().find(|d| d.player == player).map(|d| d.card)
    }

    /// Whether every one of `players` drew in this draw.
    pub fn covers(&self, players: &[PlayerId]) -> bool {
        players.iter().all(|p| self.card_of(*p).is_some())
    }

    /// `players` ordered by this draw, highest card first; players who did not draw come last
    /// in the order given.
    pub fn order(&self, players: &[PlayerId]) -> Vec<PlayerId> {
        let mut ordered = players.to_vec();
        ordered.sort_by_key(|p| std::cmp::Reverse(self.card_of(*p)));
        ordered
    }
}
