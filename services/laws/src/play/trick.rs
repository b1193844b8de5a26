//! Tricks: four cards, one from each hand, and who won them (Law 44).

use crate::cards::{Card, Suit};
use crate::seat::Seat;

/// One trick: the leader, the card each hand played (by seat), the order they were played in,
/// and, once four cards are in, the winner (Law 44B, 44E-F).
///
/// Cards are kept by seat rather than by position because at a real table a card can be played
/// out of rotation and still stand (Law 57D duplicate, Law 60); the winner depends only on
/// which hand contributed which card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Trick {
    leader: Seat,
    cards: [Option<Card>; 4],
    order: [Option<Seat>; 4],
    winner: Option<Seat>,
    /// The suit the other hands followed, kept when the leader's card is later replaced by one
    /// of another suit (rubber Law 67B2, a defective trick found late): they followed the card
    /// faced as the lead, so that suit stays the suit led for every rule that looks back at the
    /// trick (following suit, showing out, revokes).
    followed: Option<Suit>,
}

impl Trick {
    /// An empty trick to be led by `leader`.
    pub(crate) const fn new(leader: Seat) -> Trick {
        Trick { leader, cards: [None; 4], order: [None; 4], winner: None, followed: None }
    }

    /// The hand that led (or is to lead) to this trick (Law 44A, 44G).
    pub const fn leader(&self) -> Seat {
        self.leader
    }

    /// The card `seat` contributed, if any.
    pub const fn card(&self, seat: Seat) -> Option<Card> {
        self.cards[seat.index()]
    }

    /// The cards by seat, North first.
    pub const fn cards(&self) -> [Option<Card>; 4] {
        self.cards
    }

    /// The cards in the order they were played.
    pub fn in_order(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        self.order.iter().flatten().filter_map(|seat| self.cards[seat.index()].map(|card| (*seat, card)))
    }

    /// Number of cards played so far.
    pub fn len(&self) -> usize {
        self.cards.iter().flatten().count()
    }

    /// Whether no card has been played.
    pub fn is_empty(&self) -> bool {
        self.cards.iter().all(Option::is_none)
    }

    /// Whether all four hands have played (Law 44B: the four cards constitute a trick).
    pub fn is_complete(&self) -> bool {
        self.cards.iter().all(Option::is_some)
    }

    /// The suit of the card led, once the leader has played; after his lead was replaced by a
    /// card of another suit under rubber Law 67B2, the suit of the lead the others followed.
    pub fn suit_led(&self) -> Option<Suit> {
        self.followed.or_else(|| self.card(self.leader).map(|card| card.suit))
    }

    /// Keeps the suit led as it is before the leader's card is replaced (rubber Law 67B2).
    pub(crate) fn keep_suit_led(&mut self) {
        self.followed = self.suit_led();
    }

    /// The winner, once the trick is complete (Law 44E: the highest trump; Law 44F: otherwise
    /// the highest card of the suit led).
    pub const fn winner(&self) -> Option<Seat> {
        self.winner
    }

    /// The seats that have not yet played, in rotation from the leader.
    pub fn waiting(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..4).map(|i| self.leader.after(i)).filter(|seat| self.cards[seat.index()].is_none())
    }

    /// The next seat in rotation from the leader without a card (Law 44B: each other player in
    /// turn), or `None` when complete.
    pub fn next_in_rotation(&self) -> Option<Seat> {
        self.waiting().next()
    }

    /// The position (0 first) at which `seat` played, if it did.
    pub(crate) fn position(&self, seat: Seat) -> Option<usize> {
        self.order.iter().position(|s| *s == Some(seat))
    }

    /// The seats that played after `seat`, in the order they played.
    pub(crate) fn played_after(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        let from = self.position(seat).map_or(4, |p| p + 1);
        self.order.iter().skip(from).flatten().copied()
    }

    pub(crate) fn put(&mut self, seat: Seat, card: Card) {
        self.cards[seat.index()] = Some(card);
        if let Some(slot) = self.order.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some(seat);
        }
    }

    /// Puts `card` from `seat` at `position` in the order of play (0 first), the cards played
    /// after it moving down: a card substituted for one withdrawn takes its place (Law 45C4(b),
    /// 45D, 46).
    pub(crate) fn put_at(&mut self, seat: Seat, card: Card, position: usize) {
        self.cards[seat.index()] = Some(card);
        let count = self.order.iter().flatten().filter(|s| **s != seat).count();
        let position = position.min(count);
        let mut order = [None; 4];
        let mut others = self.order.iter().flatten().filter(|s| **s != seat).copied();
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = if i == position { Some(seat) } else { others.next() };
        }
        self.order = order;
        self.winner = None;
    }

    /// Takes `seat`'s card back out of the trick (a withdrawal under Laws 47, 52, 53, 62).
    pub(crate) fn take(&mut self, seat: Seat) -> Option<Card> {
        let card = self.cards[seat.index()].take()?;
        let mut order = [None; 4];
        for (slot, s) in order.iter_mut().zip(self.order.iter().flatten().filter(|s| **s != seat)) {
            *slot = Some(*s);
        }
        self.order = order;
        self.winner = None;
        Some(card)
    }

    /// Gives the trick to `seat` whatever the cards: the offending side may not win a trick
    /// it had lost by substituting for a surplus card (rubber Law 12B2).
    pub(crate) fn award(&mut self, seat: Seat) {
        self.winner = Some(seat);
    }

    /// Forgets the winner: the trick is being corrected (Law 52, Law 62).
    pub(crate) fn reopen(&mut self) {
        self.winner = None;
    }

    /// Decides the winner of a complete trick and records it; `trumps` is `None` at notrump.
    pub(crate) fn settle(&mut self, trumps: Option<Suit>) -> Option<Seat> {
        self.winner = winner(self.leader, &self.cards, trumps);
        self.winner
    }
}

/// The winner of four cards led by `leader` (Law 44E-F): the highest trump if any was played,
/// otherwise the highest card of the suit led. `None` unless all four cards are present.
pub fn winner(leader: Seat, cards: &[Option<Card>; 4], trumps: Option<Suit>) -> Option<Seat> {
    let mut best = leader;
    let mut best_card = cards[leader.index()]?;
    for step in 1..4 {
        let seat = leader.after(step);
        let card = cards[seat.index()]?;
        // The best card so far is always of the suit led or a trump, so a card of another suit
        // beats it only by being a trump.
        let beats = if card.suit == best_card.suit { card.rank > best_card.rank } else { Some(card.suit) == trumps };
        if beats {
            best = seat;
            best_card = card;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Rank;

    fn c(text: &str) -> Option<Card> {
        text.parse().ok()
    }

    #[test]
    fn law_44f_without_trumps_the_highest_card_of_the_suit_led_wins() {
        // North leads the heart king; East discards the spade ace, which cannot win.
        let cards = [c("HK"), c("SA"), c("H2"), c("HQ")];
        assert_eq!(winner(Seat::North, &cards, None), Some(Seat::North));
        assert_eq!(winner(Seat::North, &cards, Some(Suit::Clubs)), Some(Seat::North));
    }

    #[test]
    fn law_44e_a_trick_containing_a_trump_is_won_by_the_highest_trump() {
        let cards = [c("HK"), c("S2"), c("HA"), c("S3")];
        assert_eq!(winner(Seat::North, &cards, Some(Suit::Spades)), Some(Seat::West));
        assert_eq!(winner(Seat::North, &cards, None), Some(Seat::South));
    }

    #[test]
    fn law_44_a_trick_needs_four_cards() {
        let cards = [c("HK"), None, c("HA"), c("S3")];
        assert_eq!(winner(Seat::North, &cards, None), None);
        let mut trick = Trick::new(Seat::East);
        trick.put(Seat::East, Card::new(Suit::Clubs, Rank::Two));
        trick.put(Seat::West, Card::new(Suit::Clubs, Rank::Three));
        assert_eq!(trick.next_in_rotation(), Some(Seat::South));
        assert_eq!(trick.played_after(Seat::East).collect::<Vec<_>>(), vec![Seat::West]);
        assert_eq!(trick.take(Seat::East), Some(Card::new(Suit::Clubs, Rank::Two)));
        assert_eq!(trick.in_order().collect::<Vec<_>>(), vec![(Seat::West, Card::new(Suit::Clubs, Rank::Three))]);
    }
}
