//! Honors (rubber Law 81; Definitions: "the holding of at least four of the top five trumps
//! or all four aces in a no-trump contract"). Scored above the line by the side holding them,
//! whether the contract is made or defeated, on any deal that is played; never on a passed-out
//! deal. Duplicate has no honors (Law 77).

use std::fmt;

use crate::cards::{Card, CardSet, Deal, Rank, Suit};
use crate::contract::Denomination;
use crate::score::ScoreError;
use crate::seat::{Seat, Side};

/// A scorable holding of honors (Law 81). Only a holding in one hand counts: honors split
/// between partners score nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Honors {
    /// Four of the five trump honors (A, K, Q, J, 10) in one hand: 100.
    FourTrumpHonors,
    /// All five trump honors in one hand: 150.
    FiveTrumpHonors,
    /// All four aces in one hand at a notrump contract: 150.
    FourAces,
}

impl Honors {
    /// The premium points (Law 81).
    pub const fn points(self) -> u32 {
        match self {
            Honors::FourTrumpHonors => 100,
            Honors::FiveTrumpHonors | Honors::FourAces => 150,
        }
    }

    /// Whether this holding scores at `denomination`: trump honors need a trump suit, aces
    /// count only at notrump (Law 81).
    pub const fn fits(self, denomination: Denomination) -> bool {
        matches!(
            (self, denomination),
            (Honors::FourAces, Denomination::NoTrump)
                | (Honors::FourTrumpHonors | Honors::FiveTrumpHonors, Denomination::Clubs)
                | (Honors::FourTrumpHonors | Honors::FiveTrumpHonors, Denomination::Diamonds)
                | (Honors::FourTrumpHonors | Honors::FiveTrumpHonors, Denomination::Hearts)
                | (Honors::FourTrumpHonors | Honors::FiveTrumpHonors, Denomination::Spades)
        )
    }

    /// The holding a score sheet's points stand for at `denomination` (100: four trump
    /// honors; 150: five trump honors, or four aces at notrump), checked against Law 81.
    pub fn from_points(points: u32, denomination: Denomination) -> Result<Honors, ScoreError> {
        let notrump = denomination == Denomination::NoTrump;
        let misfit = |reason| ScoreError::HonorsDoNotFit { points, denomination, reason };
        match (points, notrump) {
            (100, false) => Ok(Honors::FourTrumpHonors),
            (150, false) => Ok(Honors::FiveTrumpHonors),
            (150, true) => Ok(Honors::FourAces),
            (100, true) => Err(misfit("at notrump only all four aces in one hand score, for 150")),
            _ => Err(misfit("honors are worth 100 (four trump honors) or 150 (five, or four aces)")),
        }
    }
}

impl fmt::Display for Honors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Honors::FourTrumpHonors => "four trump honors",
            Honors::FiveTrumpHonors => "five trump honors",
            Honors::FourAces => "four aces",
        })
    }
}

/// Honors held by one side (Law 81: scored by the side holding them, declarer's side or the
/// defenders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HonorsClaim {
    /// The side whose hand holds them.
    pub side: Side,
    /// The holding.
    pub honors: Honors,
}

impl HonorsClaim {
    /// The premium points (Law 81).
    pub const fn points(self) -> u32 {
        self.honors.points()
    }
}

/// The honors of `deal` at `denomination`, if a hand holds any (Law 81): the seat and the
/// holding. At most one hand can: four of five trump honors in one hand leave at most one for
/// the others, and four aces in one hand leave none.
pub fn honors_in(deal: &Deal, denomination: Denomination) -> Option<(Seat, Honors)> {
    let wanted = match denomination.trump() {
        Some(trump) => honor_cards(trump),
        None => aces(),
    };
    Seat::ALL.into_iter().find_map(|seat| {
        let held = deal.hand(seat).intersection(wanted).len();
        let honors = match (denomination.trump(), held) {
            (Some(_), 5) => Honors::FiveTrumpHonors,
            (Some(_), 4) => Honors::FourTrumpHonors,
            (None, 4) => Honors::FourAces,
            _ => return None,
        };
        Some((seat, honors))
    })
}

/// The honors claim of `deal` at `denomination`, by side (Law 81).
pub fn honors_claim(deal: &Deal, denomination: Denomination) -> Option<HonorsClaim> {
    honors_in(deal, denomination).map(|(seat, honors)| HonorsClaim { side: seat.side(), honors })
}

fn honor_cards(suit: Suit) -> CardSet {
    [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack, Rank::Ten].into_iter().map(|rank| Card::new(suit, rank)).collect()
}

fn aces() -> CardSet {
    Suit::ALL.into_iter().map(|suit| Card::new(suit, Rank::Ace)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(pbn: &str) -> Deal {
        pbn.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn law_81_four_trump_honors_in_a_defenders_hand_score_100_for_the_defenders() {
        // Worked case S10 (docs/worked-cases.md): 4S; a defender (East) holds the spade A K Q J.
        let d = deal("N:T98.AKQ.J76.5432 AKQJ.765.432.T98 765.T98.AKQ.AKQJ 432.J432.T985.76");
        assert_eq!(honors_in(&d, Denomination::Spades), Some((Seat::East, Honors::FourTrumpHonors)));
        assert_eq!(
            honors_claim(&d, Denomination::Spades),
            Some(HonorsClaim { side: Side::EastWest, honors: Honors::FourTrumpHonors })
        );
        assert_eq!(Honors::FourTrumpHonors.points(), 100);
    }

    #[test]
    fn law_81_all_five_trump_honors_score_150() {
        let d = deal("N:AKQJT.765.432.98 98765.432.AKQ.JT 432.AKQJ.T98.765 .T98.J765.AKQ432");
        assert_eq!(honors_in(&d, Denomination::Spades), Some((Seat::North, Honors::FiveTrumpHonors)));
    }

    #[test]
    fn law_81_four_aces_count_only_at_notrump() {
        // Worked case S11 (docs/worked-cases.md): dummy holds all four aces: 150 at notrump,
        // nothing in a suit.
        let d = deal("N:A432.A32.A32.A32 KQJ.KQJ4.KQJ.KQJ T98.T98.T984.T98 765.765.765.7654");
        assert_eq!(honors_in(&d, Denomination::NoTrump), Some((Seat::North, Honors::FourAces)));
        assert_eq!(Honors::FourAces.points(), 150);
        assert_eq!(honors_in(&d, Denomination::Hearts), None, "A K Q J split between North and East");
    }

    #[test]
    fn law_81_honors_split_between_partners_score_nothing() {
        // North has S A K, South S Q J T: five honors in the partnership, none in one hand.
        let d = deal("N:AK2.AKQ2.432.432 987.JT9.AKQJ.765 QJT.876.T98.AKQJ 6543.543.765.T98");
        assert_eq!(honors_in(&d, Denomination::Spades), None);
    }

    #[test]
    fn law_81_claims_must_fit_the_denomination() {
        assert_eq!(Honors::from_points(150, Denomination::NoTrump), Ok(Honors::FourAces));
        assert_eq!(Honors::from_points(150, Denomination::Hearts), Ok(Honors::FiveTrumpHonors));
        assert!(Honors::from_points(100, Denomination::NoTrump).is_err());
        assert!(Honors::from_points(120, Denomination::Clubs).is_err());
        assert!(Honors::FourAces.fits(Denomination::NoTrump));
        assert!(!Honors::FourAces.fits(Denomination::Spades));
        assert!(!Honors::FourTrumpHonors.fits(Denomination::NoTrump));
    }
}
