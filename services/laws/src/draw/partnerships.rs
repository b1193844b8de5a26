//! What the draw before a rubber decides (Law 3): the partnerships and the first dealer, with
//! the club's "no consecutive partners" rule (Appendix 4 H3); the seats the players then take;
//! and the pivot's fixed rotation of partnerships (Appendix 4 B). Apart from the spread and
//! its drawing rules because these only read the four cards once drawn.

use crate::seat::Seat;

use super::{Deck, DrawError, DrawnCard, PlayerId, check_distinct};

/// Two partnerships of two: the sides of one rubber (Law 3: "the two players who draw the
/// highest cards play as partners against the other two players").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Partnerships {
    sides: [[PlayerId; 2]; 2],
}

impl Partnerships {
    /// The partnerships `first` against `second`; four different players (Law 3).
    pub fn new(first: [PlayerId; 2], second: [PlayerId; 2]) -> Result<Partnerships, DrawError> {
        let all = [first[0], first[1], second[0], second[1]];
        for (i, p) in all.iter().enumerate() {
            if all[..i].contains(p) {
                return Err(DrawError::NotFourPlayers { player: *p });
            }
        }
        Ok(Partnerships { sides: [first, second] })
    }

    /// The two partnerships. For a draw, the first is the first dealer's.
    pub const fn sides(&self) -> [[PlayerId; 2]; 2] {
        self.sides
    }

    /// The four players.
    pub const fn players(&self) -> [PlayerId; 4] {
        [self.sides[0][0], self.sides[0][1], self.sides[1][0], self.sides[1][1]]
    }

    /// Whether `a` and `b` are partners.
    pub fn are_partners(&self, a: PlayerId, b: PlayerId) -> bool {
        a != b && self.sides.iter().any(|side| side.contains(&a) && side.contains(&b))
    }

    /// The partner of `player`, if he plays.
    pub fn partner_of(&self, player: PlayerId) -> Option<PlayerId> {
        self.sides.iter().find_map(|[a, b]| match player {
            p if p == *a => Some(*b),
            p if p == *b => Some(*a),
            _ => None,
        })
    }

    /// A partnership of this rubber that was also a partnership in `previous` (Appendix 4
    /// H3: "no two players may play a second consecutive rubber as partners at the same
    /// table"), if any.
    pub fn repeated_from(&self, previous: &Partnerships) -> Option<[PlayerId; 2]> {
        self.sides.into_iter().find(|[a, b]| previous.are_partners(*a, *b))
    }

    /// Whether both are the same two partnerships, in any order.
    pub fn same_as(&self, other: &Partnerships) -> bool {
        self.sides.iter().all(|[a, b]| other.are_partners(*a, *b))
    }
}

/// The four cards of the draw before a rubber (Law 3), ranked highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartnershipDraw {
    ranked: [DrawnCard; 4],
}

impl PartnershipDraw {
    /// Checks the four cards (four different players, four different cards: Law 3, Law 1)
    /// and ranks them by Law 2 (rank, then suit).
    pub fn new(cards: [DrawnCard; 4]) -> Result<PartnershipDraw, DrawError> {
        check_distinct(&cards)?;
        let mut ranked = cards;
        ranked.sort_by_key(|d| std::cmp::Reverse(d.card));
        Ok(PartnershipDraw { ranked })
    }

    /// The four players and cards, highest card first.
    pub const fn ranked(&self) -> [DrawnCard; 4] {
        self.ranked
    }

    /// The partnerships and first dealer this draw gives (Law 3): the two highest cards
    /// against the two lowest, the highest card deals first.
    ///
    /// With the club rule of Appendix 4 H3 (`no_consecutive_partners`), if that would make two
    /// players who were partners in `previous` (the last rubber at this table) partners
    /// again, "the player who has drawn the highest card should play with the player who has
    /// drawn the third-highest, against the other two". That always breaks every repeated
    /// pair: a player had only one partner last rubber.
    pub fn result(&self, previous: Option<&Partnerships>, no_consecutive_partners: bool) -> DrawResult {
        let [first, second, third, fourth] = self.ranked.map(|d| d.player);
        let by_law_3 = Partnerships { sides: [[first, second], [third, fourth]] };
        let repeats = no_consecutive_partners && previous.is_some_and(|prev| by_law_3.repeated_from(prev).is_some());
        let partnerships = if repeats { Partnerships { sides: [[first, third], [second, fourth]] } } else { by_law_3 };
        DrawResult { partnerships, first_dealer: first, no_consecutive_applied: repeats }
    }
}

/// What a partnership draw decides (Law 3): the partnerships and the first dealer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawResult {
    /// The two partnerships; the first dealer's is listed first.
    pub partnerships: Partnerships,
    /// The player with the highest card: he deals first and chooses his seat and the deck.
    pub first_dealer: PlayerId,
    /// Whether the club rule of Appendix 4 H3 changed the partnerships Law 3 would give.
    pub no_consecutive_applied: bool,
}

impl DrawResult {
    /// The first dealer's partner, who sits opposite him (Law 3).
    pub fn dealer_partner(&self) -> PlayerId {
        let [a, b] = self.partnerships.sides[0];
        if a == self.first_dealer { b } else { a }
    }

    /// The two opponents of the first dealer, who take the remaining seats as they wish.
    pub const fn opponents(&self) -> [PlayerId; 2] {
        self.partnerships.sides[1]
    }
}

/// The choices Law 3 gives after the draw: the first dealer's seat and deck, and which
/// opponent sits on his left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeatChoice {
    /// The seat the first dealer chooses.
    pub dealer_seat: Seat,
    /// The deck he chooses to deal with.
    pub deck: Deck,
    /// The opponent who takes the seat on the dealer's left.
    pub dealer_lho: PlayerId,
}

/// Who sits where for a rubber, and the first dealer and his deck (Law 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seating {
    seats: [PlayerId; 4],
    first_dealer: Seat,
    deck: Deck,
}

impl Seating {
    /// Seats the players as Law 3 says: the first dealer where he chose, his partner opposite,
    /// the opponents in the two remaining seats as they chose (`choice.dealer_lho` on the
    /// dealer's left). Fails if the player named for the dealer's left is not an opponent.
    pub fn choose(result: &DrawResult, choice: SeatChoice) -> Result<Seating, DrawError> {
        let [o1, o2] = result.opponents();
        let other = match choice.dealer_lho {
            p if p == o1 => o2,
            p if p == o2 => o1,
            p => return Err(DrawError::NotAnOpponent { player: p }),
        };
        let mut seats = [result.first_dealer; 4];
        seats[choice.dealer_seat.index()] = result.first_dealer;
        seats[choice.dealer_seat.partner().index()] = result.dealer_partner();
        seats[choice.dealer_seat.lho().index()] = choice.dealer_lho;
        seats[choice.dealer_seat.rho().index()] = other;
        Ok(Seating { seats, first_dealer: choice.dealer_seat, deck: choice.deck })
    }

    /// The player in `seat`.
    pub const fn player_at(&self, seat: Seat) -> PlayerId {
        self.seats[seat.index()]
    }

    /// The seat of `player`, if he plays.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.seats[s.index()] == player)
    }

    /// The seat of the first dealer.
    pub const fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// The deck the first dealer chose.
    pub const fn deck(&self) -> Deck {
        self.deck
    }
}

/// The fixed rotation of partnerships in a pivot game of four players (Appendix 4 B and its
/// footnote 32: "in a pivot game, partnerships for each rubber follow a fixed rotation"; taking
/// the proper seats for the next rubber counts as the cut for partners).
///
/// Over the three rubbers of a pivot each player partners each of the others once: the pivot
/// (the first dealer of the first rubber) keeps his partner for the first rubber, then
/// partners the higher-drawing opponent, then the lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PivotSchedule {
    order: [PlayerId; 4],
}

impl PivotSchedule {
    /// The number of rubbers in one pivot: every pair of the four partners once.
    pub const RUBBERS: usize = 3;

    /// The pivot that starts from the first rubber's draw.
    pub fn from_draw(result: &DrawResult) -> PivotSchedule {
        let [o1, o2] = result.opponents();
        PivotSchedule { order: [result.first_dealer, result.dealer_partner(), o1, o2] }
    }

    /// A pivot over four players in the given order (the first is the pivot and partners the
    /// second, third and fourth in turn); four different players (Law 3).
    pub fn new(order: [PlayerId; 4]) -> Result<PivotSchedule, DrawError> {
        Partnerships::new([order[0], order[1]], [order[2], order[3]])?;
        Ok(PivotSchedule { order })
    }

    /// The four players; the pivot first.
    pub const fn players(&self) -> [PlayerId; 4] {
        self.order
    }

    /// The partnerships of rubber `index` of the pivot (0, 1, 2); `None` once the pivot is
    /// complete.
    pub fn partnerships(&self, index: usize) -> Option<Partnerships> {
        let [pivot, a, b, c] = self.order;
        let sides = match index {
            0 => [[pivot, a], [b, c]],
            1 => [[pivot, b], [a, c]],
            2 => [[pivot, c], [a, b]],
            _ => return None,
        };
        Some(Partnerships { sides })
    }

    /// Whether `players` are this pivot's four, in any order.
    pub fn is_for(&self, players: &[PlayerId]) -> bool {
        players.len() == 4 && self.order.iter().all(|p| players.contains(p))
    }
}
