//! Team IMPs (Law 78B): in a match between two teams each board is played at two tables, the
//! teams sitting in opposite directions; a team's scores at the two tables are netted and the
//! net converted to IMPs. A session of several teams is a set of such matches.
//!
//! Our readings where the Laws leave the method to the conditions of contest (Law 78D):
//!
//! - A board counts between two teams once both tables have a score: team A North-South against
//!   B at one, B North-South against A at the other. Until then it is pending and counts for
//!   neither (a contestant's score is "the net total of" boards compared).
//! - Each side's net is its own score at the two tables, so a split (non-balancing) adjusted
//!   score is netted per side and the two teams' IMPs need not cancel (Law 12C1e, Law 86B).
//! - A weighted score (Law 12C1c) earns the weighted sum of the IMPs of each combination of its
//!   components with the other table's, as in [`crate::score::session`].
//! - An artificial score (Law 12C2b): a team with an artificial award on a board, at either
//!   table, gets its award for the board (+3, 0 or -3 IMPs; the mean if it has one at both
//!   tables), which needs no other table. Law 12C2(c): average plus is at least the team's
//!   average IMPs per board on its boards without an artificial score, average minus at most
//!   that.
//! - Teams rank by total IMPs; ties share a rank.
//! - A fouled board is not divided into groups here: Law 87C ("Teams Scoring: See Law 86B2")
//!   sends it to Law 86B2, so the Director awards adjusted scores ([`crate::rulings`]) where the
//!   two tables of a match did not play the board in identical form. Law 87B's groups are for
//!   pairs and individuals ([`crate::score::session::Session::set_form`]).

use std::collections::{HashMap, HashSet};

use crate::contract::Vulnerability;
use crate::rulings::{ArtificialScore, SideAdjustment};
use crate::score::imps::imps;
use crate::score::session::{
    PairId, PairResult, SessionError, TableResult, TableScore, artificial_value, assign_ranks,
};
use crate::seat::Side;

/// A team match, or a session of several: its boards and each table's score (Law 78B).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TeamMatch {
    boards: HashMap<u32, Vulnerability>,
    results: Vec<TableResult>,
    seated: HashSet<(u32, PairId, Side)>,
}

/// Each table's IMPs: the board's IMPs of the team sitting North-South and of the team sitting
/// East-West (the same figures at both tables of the board, each team's once), and whether the
/// board counts yet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableImps {
    /// The North-South team's IMPs on the board.
    pub ns_imps: f64,
    /// The East-West team's IMPs on the board.
    pub ew_imps: f64,
    /// Whether the North-South team's board counts: both tables have a score, or it has an
    /// artificial award.
    pub ns_counts: bool,
    /// The same for the East-West team.
    pub ew_counts: bool,
}

/// A scored team match (Law 78B).
#[derive(Debug, Clone, PartialEq)]
pub struct TeamsScore {
    /// Every table's IMPs, in the order the results were added.
    pub tables: Vec<TableImps>,
    /// Every team with a board that counts, best first; `score` is the total IMPs.
    pub ranking: Vec<PairResult>,
}

/// One side's score at one table, as netting needs it.
enum Part {
    /// Scores from the side's own point of view, with weights.
    Scores(Vec<(i32, f64)>),
    /// An artificial award.
    Artificial(ArtificialScore),
}

impl TeamMatch {
    /// An empty match.
    pub fn new() -> TeamMatch {
        TeamMatch::default()
    }

    /// Adds a board with the vulnerability marked on it (Law 2).
    pub fn add_board(&mut self, board: u32, vulnerability: Vulnerability) -> Result<(), SessionError> {
        if self.boards.insert(board, vulnerability).is_some() {
            return Err(SessionError::BoardTwice(board));
        }
        Ok(())
    }

    /// Adds a table's score on a board. A team plays a board once in each direction (Law 78B:
    /// at the two tables of its match).
    pub fn add_result(&mut self, result: TableResult) -> Result<(), SessionError> {
        let board = result.board;
        if !self.boards.contains_key(&board) {
            return Err(SessionError::UnknownBoard(board));
        }
        if result.ns == result.ew {
            return Err(SessionError::AgainstItself { board, pair: result.ns });
        }
        for (team, side) in [(result.ns, Side::NorthSouth), (result.ew, Side::EastWest)] {
            if self.seated.contains(&(board, team, side)) {
                return Err(SessionError::PairTwice { board, pair: team });
            }
        }
        self.seated.insert((board, result.ns, Side::NorthSouth));
        self.seated.insert((board, result.ew, Side::EastWest));
        self.results.push(result);
        Ok(())
    }

    fn part(&self, index: usize, side: Side) -> Part {
        let result = &self.results[index];
        let vulnerability = self.boards.get(&result.board).copied().unwrap_or_default();
        match &result.score {
            TableScore::Result(r) => Part::Scores(vec![(r.score_for(side, vulnerability), 1.0)]),
            TableScore::Adjusted(adjusted) => match adjusted.for_side(side) {
                SideAdjustment::Artificial(a) => Part::Artificial(*a),
                SideAdjustment::Assigned(r) => Part::Scores(vec![(r.score_for(side, vulnerability), 1.0)]),
                SideAdjustment::Weighted(w) => Part::Scores(
                    w.components().iter().map(|(r, weight)| (r.score_for(side, vulnerability), *weight)).collect(),
                ),
            },
        }
    }

    /// Scores every board (Law 78B, Law 12C2) and ranks the teams.
    pub fn score(&self) -> TeamsScore {
        let index: HashMap<(u32, PairId, PairId), usize> =
            self.results.iter().enumerate().map(|(i, r)| ((r.board, r.ns, r.ew), i)).collect();
        // A team's value on a board against one opponent: IMPs, or its artificial awards.
        enum Value {
            Imps(f64),
            Awards(Vec<ArtificialScore>),
            Pending,
        }
        let value = |here: usize, here_side: Side, there: Option<usize>| -> Value {
            let at_other = there.map(|t| self.part(t, here_side.opponents()));
            let awards: Vec<ArtificialScore> = [Some(self.part(here, here_side)), at_other]
                .into_iter()
                .flatten()
                .filter_map(|p| match p {
                    Part::Artificial(a) => Some(a),
                    Part::Scores(_) => None,
                })
                .collect();
            if !awards.is_empty() {
                return Value::Awards(awards);
            }
            match (self.part(here, here_side), there.map(|t| self.part(t, here_side.opponents()))) {
                (Part::Scores(a), Some(Part::Scores(b))) => {
                    let mut total = 0.0;
                    for (x, wx) in &a {
                        for (y, wy) in &b {
                            total += wx * wy * f64::from(imps(x + y));
                        }
                    }
                    Value::Imps(total)
                }
                _ => Value::Pending,
            }
        };
        // Per table and side: the team's value on the board.
        let values: Vec<[Value; 2]> = self
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let other = index.get(&(r.board, r.ew, r.ns)).copied();
                [value(i, Side::NorthSouth, other), value(i, Side::EastWest, other)]
            })
            .collect();
        // Each team's board value is counted once: at the table where it sat North-South, or,
        // when that table has no score yet, where it sat East-West.
        let counted_at = |i: usize, side: Side| -> bool {
            let r = &self.results[i];
            match side {
                Side::NorthSouth => true,
                Side::EastWest => !index.contains_key(&(r.board, r.ew, r.ns)),
            }
        };
        // Law 12C2(c): first the teams' averages on boards without an artificial score.
        let mut plain: HashMap<PairId, (f64, u32)> = HashMap::new();
        for (i, r) in self.results.iter().enumerate() {
            for (side, team) in [(Side::NorthSouth, r.ns), (Side::EastWest, r.ew)] {
                if let Value::Imps(v) = values[i][side.index()]
                    && counted_at(i, side)
                {
                    let entry = plain.entry(team).or_default();
                    entry.0 += v;
                    entry.1 += 1;
                }
            }
        }
        let resolve = |team: PairId, value: &Value| -> Option<f64> {
            match value {
                Value::Imps(v) => Some(*v),
                Value::Pending => None,
                Value::Awards(awards) => {
                    let own = plain.get(&team).filter(|(_, n)| *n > 0).map(|(sum, n)| sum / f64::from(*n));
                    let sum: f64 = awards.iter().map(|a| artificial_value(*a, own, true)).sum();
                    Some(sum / awards.len() as f64)
                }
            }
        };
        let mut tables = Vec::with_capacity(self.results.len());
        let mut totals: HashMap<PairId, (f64, u32)> = HashMap::new();
        for (i, r) in self.results.iter().enumerate() {
            let ns = resolve(r.ns, &values[i][0]);
            let ew = resolve(r.ew, &values[i][1]);
            for (side, team, v) in [(Side::NorthSouth, r.ns, ns), (Side::EastWest, r.ew, ew)] {
                if let Some(v) = v
                    && counted_at(i, side)
                {
                    let entry = totals.entry(team).or_default();
                    entry.0 += v;
                    entry.1 += 1;
                }
            }
            tables.push(TableImps {
                ns_imps: ns.unwrap_or(0.0),
                ew_imps: ew.unwrap_or(0.0),
                ns_counts: ns.is_some(),
                ew_counts: ew.is_some(),
            });
        }
        let mut ranking: Vec<PairResult> = totals
            .into_iter()
            .map(|(pair, (score, boards))| PairResult { pair, boards, score, matchpoints: None, rank: 0, tied: false })
            .collect();
        assign_ranks(&mut ranking);
        TeamsScore { tables, ranking }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{Contract, DeclaredContract};
    use crate::rulings::AdjustedScore;
    use crate::score::Tricks;
    use crate::score::duplicate::BoardResult;
    use crate::seat::Seat;

    fn played(contract: &str, declarer: Seat, tricks: u8) -> BoardResult {
        let contract: Contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
        BoardResult::Played {
            contract: DeclaredContract { contract, declarer },
            tricks: Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")),
        }
    }

    fn table(board: u32, ns: u32, ew: u32, score: TableScore) -> TableResult {
        TableResult { board, ns: PairId(ns), ew: PairId(ew), score }
    }

    fn result(r: BoardResult) -> TableScore {
        TableScore::Result(r)
    }

    #[test]
    fn law_78b_a_teams_two_tables_are_netted_and_converted() {
        // Board 1, nobody vulnerable: team 1 bids 4S= (+420) at table 1; team 2's North-South
        // stop in 2S+2 (+170) at table 2. Team 1 nets 420 - 170 = 250: 6 IMPs, team 2 -6.
        let mut m = TeamMatch::new();
        m.add_board(1, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 1, 2, result(played("4S", Seat::North, 10)))).unwrap_or_else(|e| panic!("{e}"));
        // With one table only, the board is pending.
        let pending = m.score();
        assert!(!pending.tables[0].ns_counts && !pending.tables[0].ew_counts);
        assert!(pending.ranking.is_empty());
        m.add_result(table(1, 2, 1, result(played("2S", Seat::South, 10)))).unwrap_or_else(|e| panic!("{e}"));
        let scored = m.score();
        assert_eq!(
            scored.tables,
            vec![
                TableImps { ns_imps: 6.0, ew_imps: -6.0, ns_counts: true, ew_counts: true },
                TableImps { ns_imps: -6.0, ew_imps: 6.0, ns_counts: true, ew_counts: true }
            ]
        );
        let totals: Vec<(u32, f64, u32, u32)> =
            scored.ranking.iter().map(|p| (p.pair.0, p.score, p.boards, p.rank)).collect();
        assert_eq!(totals, vec![(1, 6.0, 1, 1), (2, -6.0, 1, 2)]);
    }

    #[test]
    fn law_78b_a_team_plays_a_board_once_in_each_direction() {
        let mut m = TeamMatch::new();
        m.add_board(1, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 1, 2, result(BoardResult::PassedOut))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            m.add_result(table(1, 1, 3, result(BoardResult::PassedOut))),
            Err(SessionError::PairTwice { board: 1, pair: PairId(1) })
        );
        assert_eq!(m.add_result(table(2, 1, 2, result(BoardResult::PassedOut))), Err(SessionError::UnknownBoard(2)));
    }

    #[test]
    fn law_12c2b_an_artificial_award_is_three_imps_or_the_teams_average_under_12c2c() {
        // Board 1 scores team 1 +6 (as above); on board 2 table 2 could not play: team 2
        // (North-South there) is in no way at fault, team 1 directly at fault.
        let mut m = TeamMatch::new();
        m.add_board(1, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
        m.add_board(2, Vulnerability::NorthSouth).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 1, 2, result(played("4S", Seat::North, 10)))).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 2, 1, result(played("2S", Seat::South, 10)))).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(2, 1, 2, result(played("3NT", Seat::North, 9)))).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(
            2,
            2,
            1,
            TableScore::Adjusted(AdjustedScore::artificial(
                ArtificialScore::AveragePlus,
                ArtificialScore::AverageMinus,
            )),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let scored = m.score();
        // Team 2's own average is -6 a board, under +3: average plus is +3. Team 1's is +6, over
        // -3: average minus is -3 (Law 12C2(c)).
        assert_eq!((scored.tables[3].ns_imps, scored.tables[3].ew_imps), (3.0, -3.0));
        assert_eq!((scored.tables[2].ns_imps, scored.tables[2].ew_imps), (-3.0, 3.0));
        let totals: Vec<(u32, f64, u32)> = scored.ranking.iter().map(|p| (p.pair.0, p.score, p.boards)).collect();
        assert_eq!(totals, vec![(1, 3.0, 2), (2, -3.0, 2)]);
    }

    #[test]
    fn law_12c1c_a_weighted_score_weighs_the_imps_of_each_combination() {
        // Table 1: 4H= by North, +420. Table 2 (team 2 North-South): weighted half 4H= (+420),
        // half 4H-1 (-50). Team 1 nets 420 - 420 = 0 (0 IMPs) or 420 + 50 = 470 (10 IMPs): 5.
        let mut m = TeamMatch::new();
        m.add_board(1, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 1, 2, result(played("4H", Seat::North, 10)))).unwrap_or_else(|e| panic!("{e}"));
        let weighted = crate::rulings::WeightedScore::new(vec![
            (played("4H", Seat::North, 10), 0.5),
            (played("4H", Seat::North, 9), 0.5),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        m.add_result(table(1, 2, 1, TableScore::Adjusted(AdjustedScore::weighted(weighted))))
            .unwrap_or_else(|e| panic!("{e}"));
        let scored = m.score();
        assert_eq!((scored.tables[0].ns_imps, scored.tables[0].ew_imps), (5.0, -5.0));
    }
}
