//! Duplicate scoring of one board (Law 77 of the Laws of Duplicate Bridge): the trick score,
//! overtricks, the insult, slams and undertricks shared with rubber bridge
//! ([`ContractScore`]), plus the game or partscore bonus of each board. Nothing carries over
//! between boards, and duplicate has no honors and no rubber premium.

use crate::contract::{Contract, DeclaredContract, Vulnerability};
use crate::score::{ContractScore, Tricks};
use crate::seat::Side;

/// The bonus for a contract made on a board (Law 77): game when its trick score is 100 or
/// more (300 not vulnerable, 500 vulnerable), else partscore (50).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MadeBonus {
    /// A trick score under 100: 50 (Law 77).
    Partscore,
    /// A trick score of 100 or more: 300 not vulnerable, 500 vulnerable (Law 77).
    Game,
}

/// The Law 77 score of one contract for declarer's side, item by item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DuplicateScore {
    /// The items duplicate shares with rubber bridge: trick points, overtricks, insult, slam,
    /// undertricks.
    pub items: ContractScore,
    /// Game or partscore, when the contract was made.
    pub bonus: Option<MadeBonus>,
    /// The bonus in points (0 when defeated).
    pub bonus_points: u32,
}

impl DuplicateScore {
    /// Scores `contract` for declarer's side, `vulnerable` or not, when it won `tricks`
    /// (Law 77).
    pub const fn of(contract: Contract, vulnerable: bool, tricks: Tricks) -> DuplicateScore {
        let items = ContractScore::of(contract, vulnerable, tricks);
        let (bonus, bonus_points) = if !items.is_made() {
            (None, 0)
        } else if items.trick_points >= 100 {
            (Some(MadeBonus::Game), if vulnerable { 500 } else { 300 })
        } else {
            (Some(MadeBonus::Partscore), 50)
        };
        DuplicateScore { items, bonus, bonus_points }
    }

    /// The signed score of declarer's side: positive when made, negative (the defenders'
    /// undertrick penalty) when defeated (Law 77).
    pub const fn total(&self) -> i32 {
        let i = &self.items;
        if i.is_made() {
            (i.trick_points + i.overtricks + i.insult + i.slam + self.bonus_points) as i32
        } else {
            -(i.undertricks as i32)
        }
    }

    /// Whether the board's trick score made a game (Law 77: 100 trick points or more on one
    /// board).
    pub const fn is_game(&self) -> bool {
        matches!(self.bonus, Some(MadeBonus::Game))
    }
}

/// The signed Law 77 score of declarer's side (see [`DuplicateScore::total`]).
pub const fn score(contract: Contract, vulnerable: bool, tricks: Tricks) -> i32 {
    DuplicateScore::of(contract, vulnerable, tricks).total()
}

/// The result of one board at one table (Law 77): a contract by a declarer with the tricks
/// declarer's side won (after any revoke transfer), or a pass-out (Law 22B: "each side enters
/// a zero score").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardResult {
    /// All four players passed.
    PassedOut,
    /// A contract was played.
    Played {
        /// The contract and its declarer.
        contract: DeclaredContract,
        /// Tricks won by declarer's side.
        tricks: Tricks,
    },
}

impl BoardResult {
    /// The score of `side` on a board with `vulnerability` (Law 77): declarer's side's score,
    /// negated for the defenders; zero for a pass-out.
    pub const fn score_for(&self, side: Side, vulnerability: Vulnerability) -> i32 {
        match self {
            BoardResult::PassedOut => 0,
            BoardResult::Played { contract, tricks } => {
                let declaring = contract.declaring_side();
                let own = score(contract.contract, vulnerability.is_vulnerable(declaring), *tricks);
                if declaring as usize == side as usize { own } else { -own }
            }
        }
    }

    /// North-South's score, the figure a traveller records (Law 77).
    pub const fn ns_score(&self, vulnerability: Vulnerability) -> i32 {
        self.score_for(Side::NorthSouth, vulnerability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::Seat;

    fn dup(text: &str, vulnerable: bool, tricks: u8) -> i32 {
        let contract: Contract = text.parse().unwrap_or_else(|e| panic!("{e}"));
        score(contract, vulnerable, Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")))
    }

    #[test]
    fn law_77_game_bonus_when_the_boards_trick_score_reaches_100() {
        assert_eq!(dup("3NT", false, 9), 400);
        assert_eq!(dup("3NT", true, 9), 600);
        assert_eq!(dup("4S", false, 10), 420);
        assert_eq!(dup("5C", false, 11), 400);
        // "2HX NV 8: +470 (120 is game)": doubling counts toward game.
        assert_eq!(dup("2HX", false, 8), 470);
    }

    #[test]
    fn law_77_partscore_bonus_50() {
        assert_eq!(dup("1NT", false, 7), 90);
        assert_eq!(dup("2S", false, 8), 110);
        // "2DX NV 8: +180 (80 is a partscore)".
        assert_eq!(dup("2DX", false, 8), 180);
        // "1CX NV 7: +140 (40 + 50 partscore + 50 insult)".
        assert_eq!(dup("1CX", false, 7), 140);
    }

    #[test]
    fn law_77_slam_bonus_on_top_of_game() {
        assert_eq!(dup("6S", false, 12), 980);
        assert_eq!(dup("6S", true, 12), 1430);
        assert_eq!(dup("7NT", true, 13), 2220);
        assert_eq!(dup("7NTXX", true, 13), 2980);
    }

    #[test]
    fn law_77_redoubled_overtricks_make_the_largest_score() {
        assert_eq!(dup("1NTXX", true, 13), 3160);
        assert_eq!(dup("1NTXX", false, 13), 1760);
    }

    #[test]
    fn law_77_undertricks_go_to_the_defenders() {
        assert_eq!(dup("4S", false, 7), -150);
        assert_eq!(dup("4HX", true, 7), -800);
        assert_eq!(dup("4HX", false, 6), -800);
        assert_eq!(dup("5CXX", false, 6), -2200);
        assert_eq!(dup("7NTXX", true, 0), -7600);
    }

    #[test]
    fn law_77_breakdown_is_data() {
        let contract: Contract = "4HX".parse().unwrap_or_else(|e| panic!("{e}"));
        let s = DuplicateScore::of(contract, true, Tricks::new(11).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(
            (s.items.trick_points, s.items.insult, s.items.overtricks, s.bonus, s.bonus_points, s.total()),
            (240, 50, 200, Some(MadeBonus::Game), 500, 990)
        );
        assert!(s.is_game());
    }

    #[test]
    fn law_22b_a_passed_out_board_scores_zero_for_both_sides() {
        assert_eq!(BoardResult::PassedOut.ns_score(Vulnerability::Both), 0);
        assert_eq!(BoardResult::PassedOut.score_for(Side::EastWest, Vulnerability::Both), 0);
    }

    #[test]
    fn law_77_board_vulnerability_is_declarers() {
        let contract =
            DeclaredContract { contract: "4S".parse().unwrap_or_else(|e| panic!("{e}")), declarer: Seat::East };
        let made = BoardResult::Played { contract, tricks: Tricks::new(10).unwrap_or_else(|e| panic!("{e}")) };
        assert_eq!(made.ns_score(Vulnerability::EastWest), -620);
        assert_eq!(made.ns_score(Vulnerability::NorthSouth), -420);
        assert_eq!(made.score_for(Side::EastWest, Vulnerability::EastWest), 620);
    }
}
