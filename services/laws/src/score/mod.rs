//! Scoring: the Law 81 table of rubber bridge and the Law 77 table of duplicate, which share
//! every number for trick points, overtricks, the insult, slams and undertricks; then the
//! scorepads and comparisons built on them.
//!
//! - [`ContractScore`]: the items of one contract's result that both codes score alike
//!   (rubber Law 81, duplicate Law 77). The tables are written once, here.
//! - [`duplicate`]: one board's score (Law 77), with the game or partscore bonus.
//! - [`rubber`]: the rubber scorepad (Laws 72-81), corrections under Law 78.
//! - [`chicago`]: four-deal bridge (Rubber Bridge Appendix 4).
//! - [`honors`]: honors (Law 81) from a known deal.
//! - [`matchpoints`], [`imps`]: Law 78A and Law 78B comparisons of one board.
//! - [`board`]: one board of a pairs session scored on its own, and each pair's running tally.
//! - [`session`]: a duplicate session, matchpointed or IMPed and ranked, with Law 12
//!   adjusted scores ([`crate::rulings`]).
//! - [`teams`]: team matches scored by IMPs (Law 78B), a team's two tables netted.
//! - [`pad`]: the entries a rubber or Chicago scorepad is made of.
//! - [`correction`]: who may correct a recorded score, and until when (Law 78; duplicate
//!   Law 79C).

pub mod board;
pub mod chicago;
pub mod correction;
pub mod duplicate;
pub mod honors;
pub mod imps;
pub mod matchpoints;
pub mod pad;
pub mod rubber;
pub mod session;
pub mod teams;

use std::fmt;

use crate::contract::{Contract, Denomination, Doubling};
use crate::law::{CitesLaw, Law};

/// The number of tricks declarer's side won, after any revoke transfer (Law 77 of rubber
/// bridge, Law 64 of duplicate: transferred tricks count as won in play): 0 to 13.
///
/// Built only by [`Tricks::new`], so a `Tricks` never exceeds the thirteen tricks of a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tricks(u8);

impl Tricks {
    /// All thirteen tricks (Law 8).
    pub const ALL: Tricks = Tricks(13);

    /// `won` tricks, if a deal has that many (Law 8: thirteen cards to each player, so a deal
    /// has thirteen tricks; Definitions: a trick is four cards, one from each player).
    pub const fn new(won: u8) -> Result<Tricks, ScoreError> {
        if won <= 13 { Ok(Tricks(won)) } else { Err(ScoreError::TooManyTricks(won)) }
    }

    /// The count, 0-13 (Law 8).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The tricks the other side won (Law 8: thirteen in all).
    pub const fn others(self) -> Tricks {
        Tricks(13 - self.0)
    }
}

impl fmt::Display for Tricks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Why a result cannot be scored (Law 8, Law 81).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// More than thirteen tricks.
    #[error("{0} tricks: a deal has only 13 tricks (Law 8)")]
    TooManyTricks(u8),
    /// An honors claim that does not exist at this denomination: four or five trump honors
    /// need a trump suit, four aces count only at notrump (Law 81; Definitions: Honors).
    #[error("{points} honors at {denomination}: {reason} (Law 81)")]
    HonorsDoNotFit {
        /// The points claimed.
        points: u32,
        /// The contract's denomination.
        denomination: Denomination,
        /// What is wrong.
        reason: &'static str,
    },
}

impl CitesLaw for ScoreError {
    fn law(&self) -> Law {
        match self {
            ScoreError::TooManyTricks(_) => Law::rubber(8, ""),
            ScoreError::HonorsDoNotFit { .. } => Law::rubber(81, ""),
        }
    }
}

/// Whether the contract was made, and by how much (Definitions: overtrick, undertrick;
/// Law 72).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Made, with this many overtricks (Definitions: each trick won in excess of the contract).
    Made {
        /// Tricks won beyond the contract.
        overtricks: u8,
    },
    /// Defeated by this many undertricks (Definitions: each trick by which declarer's side
    /// falls short), at least one.
    Defeated {
        /// Tricks short of the contract.
        undertricks: u8,
    },
}

impl Outcome {
    /// The outcome of `contract` when declarer's side won `tricks` (Definitions: the contract
    /// undertakes level plus six tricks).
    pub const fn of(contract: Contract, tricks: Tricks) -> Outcome {
        let needed = contract.tricks_required();
        if tricks.0 >= needed {
            Outcome::Made { overtricks: tricks.0 - needed }
        } else {
            Outcome::Defeated { undertricks: needed - tricks.0 }
        }
    }

    /// Whether the contract was fulfilled (Law 72A).
    pub const fn is_made(self) -> bool {
        matches!(self, Outcome::Made { .. })
    }
}

/// Trick points for the odd tricks bid and made (rubber Law 81, duplicate Law 77 trick
/// score): 20 a trick in clubs or diamonds, 30 in hearts or spades, 40 for the first and 30
/// for each later trick at notrump; doubled x2, redoubled x4. Only the tricks named in the
/// contract count (rubber Law 72A); overtricks are premiums.
pub const fn trick_points(contract: Contract) -> u32 {
    let level = contract.level() as u32;
    let per_contract = match contract.denomination() {
        Denomination::Clubs | Denomination::Diamonds => 20 * level,
        Denomination::Hearts | Denomination::Spades => 30 * level,
        Denomination::NoTrump => 40 + 30 * (level - 1),
    };
    per_contract * contract.doubling.multiplier()
}

/// The value of one overtrick (rubber Law 81, duplicate Law 77): the undoubled trick value
/// (20 in a minor, 30 in a major or notrump) whatever the vulnerability; doubled 100 not
/// vulnerable, 200 vulnerable; redoubled 200 and 400.
pub const fn overtrick_value(denomination: Denomination, doubling: Doubling, vulnerable: bool) -> u32 {
    match (doubling, vulnerable) {
        (Doubling::Undoubled, _) => {
            if denomination.is_minor() {
                20
            } else {
                30
            }
        }
        (Doubling::Doubled, false) => 100,
        (Doubling::Doubled, true) => 200,
        (Doubling::Redoubled, false) => 200,
        (Doubling::Redoubled, true) => 400,
    }
}

/// The premium for making a doubled (50) or redoubled (100) contract, the "insult" (rubber
/// Law 81, duplicate Law 77).
pub const fn insult(doubling: Doubling) -> u32 {
    match doubling {
        Doubling::Undoubled => 0,
        Doubling::Doubled => 50,
        Doubling::Redoubled => 100,
    }
}

/// The slam premium for a slam bid and made (rubber Law 81, duplicate Law 77): small slam
/// (level 6) 500 not vulnerable, 750 vulnerable; grand slam (level 7) 1000 and 1500. Twelve
/// tricks made in a lower contract earn no slam premium: the slam must be bid.
pub const fn slam_premium(level: u8, vulnerable: bool) -> u32 {
    match (level, vulnerable) {
        (6, false) => 500,
        (6, true) => 750,
        (7, false) => 1000,
        (7, true) => 1500,
        _ => 0,
    }
}

/// The undertrick penalty the defenders score for `undertricks` (rubber Law 81, duplicate
/// Law 77), by declarer's vulnerability:
///
/// | | first | each additional | bonus from the 4th on |
/// |---|---|---|---|
/// | not vulnerable, undoubled | 50 | 50 | 0 |
/// | not vulnerable, doubled | 100 | 200 | 100 |
/// | not vulnerable, redoubled | 200 | 400 | 200 |
/// | vulnerable, undoubled | 100 | 100 | - |
/// | vulnerable, doubled | 200 | 300 | - |
/// | vulnerable, redoubled | 400 | 600 | - |
pub const fn undertrick_penalty(doubling: Doubling, vulnerable: bool, undertricks: u8) -> u32 {
    if undertricks == 0 {
        return 0;
    }
    let n = undertricks as u32;
    let doubled = match vulnerable {
        // 100, then 200 each for the 2nd and 3rd, then 300 each (200 + the 100 bonus).
        false => {
            let second_and_third = if n >= 3 { 2 } else { n - 1 };
            let fourth_on = n.saturating_sub(3);
            100 + 200 * second_and_third + 300 * fourth_on
        }
        true => 200 + 300 * (n - 1),
    };
    match doubling {
        Doubling::Undoubled => {
            if vulnerable {
                100 * n
            } else {
                50 * n
            }
        }
        Doubling::Doubled => doubled,
        // Every redoubled figure of the table is twice the doubled one.
        Doubling::Redoubled => 2 * doubled,
    }
}

/// The items of one contract's result that rubber bridge (Law 81) and duplicate (Law 77)
/// score alike: trick points, overtricks, the insult and the slam premium to declarer's side
/// when the contract is made; undertricks to the defenders when it is defeated.
///
/// What differs between the codes is around these items: rubber bridge adds honors, games
/// and the rubber premium ([`rubber`]); Chicago adds game and fourth-deal premiums
/// ([`chicago`]); duplicate adds the game or partscore bonus of each board ([`duplicate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContractScore {
    /// The contract scored.
    pub contract: Contract,
    /// Whether declarer's side was vulnerable.
    pub vulnerable: bool,
    /// Tricks won by declarer's side.
    pub tricks: Tricks,
    /// Made or defeated, and by how much.
    pub outcome: Outcome,
    /// Trick points to declarer's side (0 when defeated).
    pub trick_points: u32,
    /// Overtrick premiums to declarer's side.
    pub overtricks: u32,
    /// The premium for making a doubled or redoubled contract.
    pub insult: u32,
    /// The slam premium, when a slam was bid and made.
    pub slam: u32,
    /// Undertrick penalties to the defenders (0 when made).
    pub undertricks: u32,
}

impl ContractScore {
    /// Scores `contract` for declarer's side, `vulnerable` or not, when it won `tricks`
    /// (rubber Law 81, duplicate Law 77).
    pub const fn of(contract: Contract, vulnerable: bool, tricks: Tricks) -> ContractScore {
        let outcome = Outcome::of(contract, tricks);
        let mut score = ContractScore {
            contract,
            vulnerable,
            tricks,
            outcome,
            trick_points: 0,
            overtricks: 0,
            insult: 0,
            slam: 0,
            undertricks: 0,
        };
        match outcome {
            Outcome::Made { overtricks } => {
                score.trick_points = trick_points(contract);
                score.overtricks =
                    overtricks as u32 * overtrick_value(contract.denomination(), contract.doubling, vulnerable);
                score.insult = insult(contract.doubling);
                score.slam = slam_premium(contract.level(), vulnerable);
            }
            Outcome::Defeated { undertricks } => {
                score.undertricks = undertrick_penalty(contract.doubling, vulnerable, undertricks);
            }
        }
        score
    }

    /// Whether the contract was made (Law 72A).
    pub const fn is_made(&self) -> bool {
        self.outcome.is_made()
    }

    /// Declarer's premium points: overtricks, insult and slam (Law 72B).
    pub const fn declarer_premiums(&self) -> u32 {
        self.overtricks + self.insult + self.slam
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Bid;

    fn contract(text: &str) -> Contract {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn law_81_trick_score_counts_only_the_tricks_bid() {
        assert_eq!(trick_points(contract("4S")), 120);
        assert_eq!(trick_points(contract("3NT")), 100);
        assert_eq!(trick_points(contract("2NT")), 70);
        assert_eq!(trick_points(contract("5D")), 100);
        assert_eq!(trick_points(contract("1NTXX")), 160);
        assert_eq!(trick_points(contract("2CX")), 80);
        assert_eq!(trick_points(contract("7NTXX")), 880);
    }

    #[test]
    fn law_81_undertrick_cumulative_table() {
        // The undertrick totals for 1 to 13 down, computed from the rows of the Law 81 table.
        let nv_x = [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500];
        let v_x = [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800];
        for n in 1..=13u8 {
            let i = usize::from(n - 1);
            assert_eq!(undertrick_penalty(Doubling::Undoubled, false, n), 50 * u32::from(n));
            assert_eq!(undertrick_penalty(Doubling::Undoubled, true, n), 100 * u32::from(n));
            assert_eq!(undertrick_penalty(Doubling::Doubled, false, n), nv_x[i]);
            assert_eq!(undertrick_penalty(Doubling::Doubled, true, n), v_x[i]);
            assert_eq!(undertrick_penalty(Doubling::Redoubled, false, n), 2 * nv_x[i]);
            assert_eq!(undertrick_penalty(Doubling::Redoubled, true, n), 2 * v_x[i]);
        }
    }

    #[test]
    fn law_81_slam_must_be_bid() {
        let six = ContractScore::of(contract("6S"), true, Tricks(13));
        assert_eq!((six.trick_points, six.overtricks, six.slam), (180, 30, 750));
        let four = ContractScore::of(contract("4S"), true, Tricks(12));
        assert_eq!(four.slam, 0, "twelve tricks in 4S earn no slam premium");
    }

    #[test]
    fn law_81_doubled_overtricks_and_insult() {
        // Worked case S6 (docs/worked-cases.md): 3S doubled, not vulnerable, 10 tricks.
        let s = ContractScore::of(contract("3SX"), false, Tricks(10));
        assert_eq!((s.trick_points, s.insult, s.overtricks), (180, 50, 100));
    }

    #[test]
    fn a_deal_has_thirteen_tricks() {
        assert_eq!(Tricks::new(14), Err(ScoreError::TooManyTricks(14)));
        assert_eq!(Tricks::new(14).err().map(|e| e.law()), Some(Law::rubber(8, "")));
        assert_eq!(Tricks::new(9).map(Tricks::others), Tricks::new(4));
        assert!(Bid::new(7, Denomination::NoTrump).is_some());
    }
}
