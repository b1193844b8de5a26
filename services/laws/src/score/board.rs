//! One board of a duplicate pairs session scored on its own, and each pair's running tally over
//! the session.
//!
//! Law 78A compares "the scores on a board" with one another, Law 78B nets a board's scores
//! against each other or a datum taken from that board, and Law 87B groups only the tables of
//! the fouled board: a board's values depend on no other board. So a result recorded, corrected
//! or adjusted needs only its own board scored again ([`score_board`]); the session is then the
//! sum of its boards, kept per pair as a [`Tally`] that takes one board's contribution out and
//! puts the new one in ([`Standings::replace`]).
//!
//! The one thing a board takes from the rest of the session is Law 12C2(c): "the contestant's
//! session score" bounds an average plus or average minus. A tally keeps a pair's artificial
//! awards apart from its compared boards, so the awards' values follow from the tally itself
//! ([`Standings::value`]), and [`Standings::replace`] names the pairs whose percentage moved and
//! who hold such an award: exactly their boards have a value that moved elsewhere.
//!
//! Sums are kept in fixed point ([`Exact`]), so a tally built board by board, in any order, with
//! boards taken out and put back, is the same to the last bit as one built from scratch:
//! [`crate::score::session::Session::score`] builds its ranking with these same tallies.

use std::collections::{BTreeMap, BTreeSet};

use crate::contract::Vulnerability;
use crate::rulings::{ArtificialScore, SideAdjustment};
use crate::score::duplicate::BoardResult;
use crate::score::imps::{imps, imps_f64};
use crate::score::matchpoints::top;
use crate::score::session::{
    Method, PairId, PairResult, SessionError, TableScore, artificial_value, assign_ranks, has_artificial,
};
use crate::seat::Side;

/// One table's score on a board, as [`score_board`] takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardTable {
    /// The North-South pair.
    pub ns: PairId,
    /// The East-West pair.
    pub ew: PairId,
    /// What the table scored.
    pub score: TableScore,
    /// Law 87B: the form of the board the table played; 0 the correct form.
    pub form: u8,
}

/// One side's score on a board, before the session is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SideScore {
    /// Compared with the board's other tables (Law 78): a percentage of the top, IMPs or
    /// points, with the matchpoint units and the top of the table's group at matchpoints.
    Compared {
        /// The value.
        value: f64,
        /// Matchpoint units and the group's top (Law 78A, Law 87B), at matchpoints.
        units: Option<(f64, u32)>,
    },
    /// An artificial award (Law 12C2): its value follows the pair's session score
    /// ([`Standings::value`]).
    Artificial(ArtificialScore),
}

/// One side of one table on a board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideResult {
    /// The pair.
    pub pair: PairId,
    /// Its score on the board.
    pub score: SideScore,
    /// Its points (Law 77): its result's score or its assigned or weighted adjusted score; none
    /// for an artificial award, which has no points (Law 12C2).
    pub points: Option<f64>,
}

/// One table of a scored board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoredTable {
    /// North-South.
    pub ns: SideResult,
    /// East-West.
    pub ew: SideResult,
}

impl ScoredTable {
    /// The table's two sides.
    pub const fn sides(&self) -> [SideResult; 2] {
        [self.ns, self.ew]
    }
}

/// A board scored on its own (Law 78; Law 87B).
#[derive(Debug, Clone, PartialEq)]
pub struct BoardScores {
    /// The board's top over every table that played it, `2(n - 1)` (Law 78A): what a pair's
    /// board counts for in its matchpoint total, a fouled board's groups included.
    pub nominal_top: u32,
    /// Each table, in the order given.
    pub tables: Vec<ScoredTable>,
}

/// Scores one board (Law 78A or 78B; Law 87B: each table compared only with the tables that
/// played the same form), checking what [`crate::score::session::Session::add_result`] checks:
/// a pair plays the board once (Law 78A), never against itself (Law 4), and no artificial score
/// at total points (Law 12C2).
pub fn score_board(
    method: Method,
    board: u32,
    vulnerability: Vulnerability,
    tables: &[BoardTable],
) -> Result<BoardScores, SessionError> {
    let mut seated = BTreeSet::new();
    for table in tables {
        if table.ns == table.ew {
            return Err(SessionError::AgainstItself { board, pair: table.ns });
        }
        for pair in [table.ns, table.ew] {
            if !seated.insert(pair) {
                return Err(SessionError::PairTwice { board, pair });
            }
        }
        if method == Method::TotalPoints && has_artificial(&table.score) {
            return Err(SessionError::ArtificialAtTotalPoints { board });
        }
    }
    Ok(score_checked(method, vulnerability, tables))
}

/// [`score_board`] for tables already checked.
pub(crate) fn score_checked(method: Method, vulnerability: Vulnerability, tables: &[BoardTable]) -> BoardScores {
    let side_result = |table: &BoardTable, side: Side| SideResult {
        pair: match side {
            Side::NorthSouth => table.ns,
            Side::EastWest => table.ew,
        },
        score: SideScore::Compared { value: 0.0, units: None },
        points: points(&table.score, side, vulnerability),
    };
    let mut out: Vec<ScoredTable> = tables
        .iter()
        .map(|t| ScoredTable { ns: side_result(t, Side::NorthSouth), ew: side_result(t, Side::EastWest) })
        .collect();
    // Law 87B: the groups are the tables that played one form, in the order given.
    let mut by_form: Vec<usize> = (0..tables.len()).collect();
    by_form.sort_by_key(|i| tables[*i].form);
    let mut scratch = Scratch::default();
    for group in by_form.chunk_by(|a, b| tables[*a].form == tables[*b].form) {
        for side in Side::ALL {
            scratch.load(group, tables, side, vulnerability);
            for (local, &index) in group.iter().enumerate() {
                let score = match (scratch.artificial[local], scratch.value(local, method)) {
                    (Some(award), _) => SideScore::Artificial(award),
                    (None, Some((value, units, top))) => {
                        SideScore::Compared { value, units: (method == Method::Matchpoints).then_some((units, top)) }
                    }
                    (None, None) => SideScore::Compared { value: 0.0, units: None },
                };
                match side {
                    Side::NorthSouth => out[index].ns.score = score,
                    Side::EastWest => out[index].ew.score = score,
                }
            }
        }
    }
    BoardScores { nominal_top: top(tables.len()), tables: out }
}

/// A side's points on a board (Law 77): none for an artificial award (Law 12C2).
fn points(score: &TableScore, side: Side, vulnerability: Vulnerability) -> Option<f64> {
    let of = |r: &BoardResult| f64::from(r.score_for(side, vulnerability));
    match score {
        TableScore::Result(r) => Some(of(r)),
        TableScore::Adjusted(adjusted) => match adjusted.for_side(side) {
            SideAdjustment::Assigned(r) => Some(of(r)),
            SideAdjustment::Weighted(w) => Some(w.components().iter().map(|(r, weight)| of(r) * weight).sum()),
            SideAdjustment::Artificial(_) => None,
        },
    }
}

/// A sum kept in fixed point (2^-40 units, about 1e-12), so that adding and taking out values
/// in any order gives the same sum to the last bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub struct Exact(pub i128);

const SCALE: f64 = (1u64 << 40) as f64;

impl Exact {
    /// `value`, to the nearest unit.
    pub fn of(value: f64) -> Exact {
        Exact((value * SCALE).round() as i128)
    }

    /// The sum as a float.
    pub fn get(self) -> f64 {
        self.0 as f64 / SCALE
    }
}

impl std::ops::AddAssign for Exact {
    fn add_assign(&mut self, other: Exact) {
        self.0 += other.0;
    }
}

impl std::ops::SubAssign for Exact {
    fn sub_assign(&mut self, other: Exact) {
        self.0 -= other.0;
    }
}

/// How many boards a pair holds one kind of artificial award on, and their tops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Awards {
    /// The boards.
    pub count: u32,
    /// The sum of those boards' nominal tops (Law 78A).
    pub top: u64,
}

/// A pair's session so far: its boards with a compared score apart from its artificial awards
/// (Law 12C2(c) takes the pair's percentage on the former to value the latter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Boards played or scored.
    pub boards: u32,
    /// Boards with a compared score.
    pub compared_boards: u32,
    /// The sum of the compared values.
    pub compared: Exact,
    /// The sum of the compared values as matchpoints of each board's nominal top.
    pub compared_matchpoints: Exact,
    /// The sum of the points (Law 77).
    pub points: Exact,
    /// The sum of the nominal tops of every board.
    pub top: u64,
    /// Average plus, average and average minus awards ([`Tally::AWARDS`] order).
    pub awards: [Awards; 3],
}

impl Tally {
    /// The artificial awards in the order [`Tally::awards`] keeps them.
    pub const AWARDS: [ArtificialScore; 3] =
        [ArtificialScore::AveragePlus, ArtificialScore::Average, ArtificialScore::AverageMinus];

    fn award_index(award: ArtificialScore) -> usize {
        match award {
            ArtificialScore::AveragePlus => 0,
            ArtificialScore::Average => 1,
            ArtificialScore::AverageMinus => 2,
        }
    }

    fn apply(&mut self, side: &SideResult, nominal_top: u32, add: bool) {
        let top = u64::from(nominal_top);
        let points = side.points.map(Exact::of).unwrap_or_default();
        let (compared, matchpoints, award) = match side.score {
            SideScore::Compared { value, .. } => {
                (Some(Exact::of(value)), Exact::of(value / 100.0 * f64::from(nominal_top)), None)
            }
            SideScore::Artificial(award) => (None, Exact::default(), Some(Self::award_index(award))),
        };
        if add {
            self.boards += 1;
            self.top += top;
            self.points += points;
            if let Some(compared) = compared {
                self.compared_boards += 1;
                self.compared += compared;
                self.compared_matchpoints += matchpoints;
            }
            if let Some(i) = award {
                self.awards[i].count += 1;
                self.awards[i].top += top;
            }
        } else {
            // Only what was put in is taken out, so nothing goes below zero.
            self.boards = self.boards.saturating_sub(1);
            self.top = self.top.saturating_sub(top);
            self.points -= points;
            if let Some(compared) = compared {
                self.compared_boards = self.compared_boards.saturating_sub(1);
                self.compared -= compared;
                self.compared_matchpoints -= matchpoints;
            }
            if let Some(i) = award {
                self.awards[i].count = self.awards[i].count.saturating_sub(1);
                self.awards[i].top = self.awards[i].top.saturating_sub(top);
            }
        }
    }

    /// The pair's own score per board on its compared boards, Law 12C2(c)'s "session score":
    /// a percentage, or IMPs per board; none without such a board.
    pub fn own(&self) -> Option<f64> {
        (self.compared_boards > 0).then(|| self.compared.get() / f64::from(self.compared_boards))
    }

    /// Law 12C2: an artificial award's value for this pair.
    pub fn artificial(&self, award: ArtificialScore, method: Method) -> f64 {
        artificial_value(award, self.own(), method.sums())
    }

    /// Whether a move of [`Tally::own`] moves one of the pair's award values: average plus and
    /// average minus follow the session score (Law 12C2(c)), average does not.
    pub fn follows_own(&self) -> bool {
        self.awards[0].count > 0 || self.awards[2].count > 0
    }

    /// The pair's session result, unranked (Law 78).
    pub fn result(&self, pair: PairId, method: Method) -> PairResult {
        let mut total = self.compared;
        let mut matchpoints = self.compared_matchpoints;
        for (award, tally) in Self::AWARDS.iter().zip(&self.awards) {
            if tally.count == 0 {
                continue;
            }
            let value = self.artificial(*award, method);
            total += Exact(Exact::of(value).0 * i128::from(tally.count));
            matchpoints += Exact::of(value / 100.0 * tally.top as f64);
        }
        let sums = method.sums();
        PairResult {
            pair,
            boards: self.boards,
            score: if sums { total.get() } else { total.get() / f64::from(self.boards.max(1)) },
            matchpoints: (!sums).then_some(matchpoints.get()),
            rank: 0,
            tied: false,
        }
    }
}

/// Every pair's tally in a session (Law 78), kept board by board.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Standings {
    tallies: BTreeMap<PairId, Tally>,
}

impl Standings {
    /// No board yet.
    pub fn new() -> Standings {
        Standings::default()
    }

    /// Tallies as kept before.
    pub fn from_tallies(tallies: impl IntoIterator<Item = (PairId, Tally)>) -> Standings {
        Standings { tallies: tallies.into_iter().collect() }
    }

    /// Every pair's tally.
    pub fn tallies(&self) -> impl Iterator<Item = (PairId, &Tally)> {
        self.tallies.iter().map(|(p, t)| (*p, t))
    }

    /// A pair's tally.
    pub fn tally(&self, pair: PairId) -> Option<&Tally> {
        self.tallies.get(&pair)
    }

    /// A board scored anew: its old scores (none for a board not scored before) taken out of
    /// the tallies and the new ones put in. Returns the pairs whose Law 12C2(c) session score
    /// moved and who hold an average plus or average minus: the values of those awards, on
    /// this board or any other, have moved (their boards are to be scored again; their tallies
    /// need nothing more).
    pub fn replace(&mut self, old: Option<&BoardScores>, new: &BoardScores) -> BTreeSet<PairId> {
        let mut before: BTreeMap<PairId, Option<f64>> = BTreeMap::new();
        let sides = old.into_iter().flat_map(|o| o.tables.iter()).chain(&new.tables).flat_map(ScoredTable::sides);
        for side in sides {
            before.entry(side.pair).or_insert_with(|| self.tallies.get(&side.pair).and_then(Tally::own));
        }
        if let Some(old) = old {
            for side in old.tables.iter().flat_map(ScoredTable::sides) {
                self.tallies.entry(side.pair).or_default().apply(&side, old.nominal_top, false);
            }
        }
        for side in new.tables.iter().flat_map(ScoredTable::sides) {
            self.tallies.entry(side.pair).or_default().apply(&side, new.nominal_top, true);
        }
        self.tallies.retain(|_, t| t.boards > 0);
        before
            .into_iter()
            .filter(|(pair, own)| {
                self.tallies
                    .get(pair)
                    .is_some_and(|t| t.follows_own() && t.own().map(f64::to_bits) != own.map(f64::to_bits))
            })
            .map(|(pair, _)| pair)
            .collect()
    }

    /// A side's value on its board: its compared value, or its artificial award's value for the
    /// pair's session score as it now stands (Law 12C2(c)).
    pub fn value(&self, method: Method, side: &SideResult) -> f64 {
        match side.score {
            SideScore::Compared { value, .. } => value,
            SideScore::Artificial(award) => match self.tallies.get(&side.pair) {
                Some(tally) => tally.artificial(award, method),
                None => artificial_value(award, None, method.sums()),
            },
        }
    }

    /// Every pair, ranked, best first (Law 78D: ties share a rank).
    pub fn ranking(&self, method: Method) -> Vec<PairResult> {
        let mut ranking: Vec<PairResult> = self.tallies.iter().map(|(p, t)| t.result(*p, method)).collect();
        assign_ranks(&mut ranking);
        ranking
    }
}

/// One direction of one board, reused across boards to keep allocation down.
#[derive(Default)]
struct Scratch {
    /// (score from this direction's side, weight), grouped by table.
    components: Vec<(i32, f64)>,
    /// Each table's range in `components` (empty for an artificial score).
    ranges: Vec<(usize, usize)>,
    artificial: Vec<Option<ArtificialScore>>,
    /// Comparable components sorted by score, with the weight at or below each.
    sorted: Vec<(i32, f64)>,
    cumulative: Vec<f64>,
    comparable_tables: usize,
    datum: Option<f64>,
}

impl Scratch {
    fn load(&mut self, group: &[usize], tables: &[BoardTable], side: Side, vulnerability: Vulnerability) {
        self.components.clear();
        self.ranges.clear();
        self.artificial.clear();
        for &index in group {
            let start = self.components.len();
            let mut award = None;
            let mut push = |r: &BoardResult, w: f64| self.components.push((r.score_for(side, vulnerability), w));
            match &tables[index].score {
                TableScore::Result(r) => push(r, 1.0),
                TableScore::Adjusted(adjusted) => match adjusted.for_side(side) {
                    SideAdjustment::Artificial(a) => award = Some(*a),
                    SideAdjustment::Assigned(r) => push(r, 1.0),
                    SideAdjustment::Weighted(w) => w.components().iter().for_each(|(r, w)| push(r, *w)),
                },
            }
            self.ranges.push((start, self.components.len()));
            self.artificial.push(award);
        }
        self.comparable_tables = self.artificial.iter().filter(|a| a.is_none()).count();
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.components);
        self.sorted.sort_unstable_by_key(|(s, _)| *s);
        self.cumulative.clear();
        let mut running = 0.0;
        self.cumulative.push(0.0);
        for (_, w) in &self.sorted {
            running += w;
            self.cumulative.push(running);
        }
        self.datum = None;
    }

    /// Weight of the comparable components scoring below `score`, and at or below it.
    fn weight_below_and_at(&self, score: i32) -> (f64, f64) {
        let below = self.sorted.partition_point(|(s, _)| *s < score);
        let at_or_below = self.sorted.partition_point(|(s, _)| *s <= score);
        (self.cumulative[below], self.cumulative[at_or_below])
    }

    fn table(&self, local: usize) -> &[(i32, f64)] {
        let (start, end) = self.ranges[local];
        &self.components[start..end]
    }

    /// The table's value in this direction: (value, matchpoint units, top); `None` when its
    /// score here is artificial.
    fn value(&mut self, local: usize, method: Method) -> Option<(f64, f64, u32)> {
        if self.artificial[local].is_some() {
            return None;
        }
        let others = self.comparable_tables - 1;
        match method {
            Method::Matchpoints => {
                let own = self.table(local);
                let mut units = 0.0;
                for &(score, weight) in own {
                    let (below, at_or_below) = self.weight_below_and_at(score);
                    units += weight * (below + at_or_below);
                    // Less the comparisons of the table with itself.
                    for &(other, other_weight) in own {
                        let cmp = match other.cmp(&score) {
                            std::cmp::Ordering::Less => 2.0,
                            std::cmp::Ordering::Equal => 1.0,
                            std::cmp::Ordering::Greater => 0.0,
                        };
                        units -= weight * other_weight * cmp;
                    }
                }
                let top = top(self.comparable_tables);
                let percentage = if top == 0 { 50.0 } else { 100.0 * units / f64::from(top) };
                Some((percentage, units, top))
            }
            Method::CrossImps => {
                if others == 0 {
                    return Some((0.0, 0.0, 0));
                }
                let mut total = 0.0;
                for (other, _) in self.ranges.iter().enumerate().filter(|(o, _)| *o != local) {
                    if self.artificial[other].is_some() {
                        continue;
                    }
                    for &(a, wa) in self.table(local) {
                        for &(b, wb) in self.table(other) {
                            total += wa * wb * f64::from(imps(a - b));
                        }
                    }
                }
                Some((total / others as f64, 0.0, 0))
            }
            Method::TotalPoints => {
                let points = self.table(local).iter().map(|(s, w)| f64::from(*s) * w).sum();
                Some((points, 0.0, 0))
            }
            Method::Butler(rule) => {
                let datum = match self.datum {
                    Some(d) => d,
                    None => {
                        let expected: Vec<f64> = (0..self.ranges.len())
                            .filter(|t| self.artificial[*t].is_none())
                            .map(|t| self.table(t).iter().map(|(s, w)| f64::from(*s) * w).sum())
                            .collect();
                        let d = rule.datum(&expected).unwrap_or(0.0);
                        self.datum = Some(d);
                        d
                    }
                };
                let value = self.table(local).iter().map(|(s, w)| w * f64::from(imps_f64(f64::from(*s) - datum))).sum();
                Some((value, 0.0, 0))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::DeclaredContract;
    use crate::rulings::AdjustedScore;
    use crate::score::Tricks;
    use crate::seat::Seat;

    fn made(tricks: u8) -> TableScore {
        TableScore::Result(BoardResult::Played {
            contract: DeclaredContract {
                contract: "4S".parse().unwrap_or_else(|e| panic!("{e}")),
                declarer: Seat::North,
            },
            tricks: Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")),
        })
    }

    fn table(ns: u32, ew: u32, score: TableScore) -> BoardTable {
        BoardTable { ns: PairId(ns), ew: PairId(ew), score, form: 0 }
    }

    fn board(tables: &[BoardTable]) -> BoardScores {
        score_board(Method::Matchpoints, 1, Vulnerability::None, tables).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Law 12C2(c): average plus is at least 60% and average minus at most 40%, "the percentage
    /// obtained ... on the other boards of that session" taking their place beyond those bounds.
    /// Pair 1 holds average plus on board 2 and is alone on board 1 (50%: the award is 60%);
    /// a second table on board 1 that pair 1 beats takes it to 100%, and with it the award on
    /// board 2, which must be valued again: `replace` names pair 1, and only pair 1.
    #[test]
    fn law_12c2c_a_board_that_moves_a_pairs_percentage_names_its_average_plus() {
        let award =
            TableScore::Adjusted(AdjustedScore::artificial(ArtificialScore::AveragePlus, ArtificialScore::Average));
        let mut standings = Standings::new();
        let board_2 = board(&[table(1, 2, award)]);
        standings.replace(None, &board_2);
        let alone = board(&[table(1, 2, made(10))]);
        standings.replace(None, &alone);
        let plus = board_2.tables[0].ns;
        assert_eq!(standings.value(Method::Matchpoints, &plus), 60.0);

        let field = board(&[table(1, 2, made(10)), table(3, 4, made(9))]);
        let moved = standings.replace(Some(&alone), &field);
        assert_eq!(moved.into_iter().collect::<Vec<_>>(), vec![PairId(1)], "pair 2's average does not move");
        assert_eq!(standings.value(Method::Matchpoints, &plus), 100.0);
        let pair_1 = standings.ranking(Method::Matchpoints).into_iter().find(|p| p.pair == PairId(1));
        assert_eq!(pair_1.map(|p| (p.boards, p.score)), Some((2, 100.0)));
    }

    /// Law 78A: each contestant is awarded "two scoring units ... for each score inferior to
    /// his, one scoring unit for each score equal to his, and zero scoring units for each score
    /// that is superior to his": a board's units come from its own tables alone, and take the
    /// board's old units out of a tally as exactly as they went in.
    #[test]
    fn law_78a_a_board_is_scored_from_its_own_tables_and_taken_out_exactly() {
        let tables = [table(1, 2, made(10)), table(3, 4, made(10)), table(5, 6, made(8))];
        let scored = board(&tables);
        let units: Vec<Option<(f64, u32)>> = scored
            .tables
            .iter()
            .map(|t| match t.ns.score {
                SideScore::Compared { units, .. } => units,
                SideScore::Artificial(_) => None,
            })
            .collect();
        assert_eq!(units, vec![Some((3.0, 4)), Some((3.0, 4)), Some((0.0, 4))]);
        let mut standings = Standings::new();
        standings.replace(None, &scored);
        let corrected = board(&[table(1, 2, made(10)), table(3, 4, made(11)), table(5, 6, made(8))]);
        standings.replace(Some(&scored), &corrected);
        let mut fresh = Standings::new();
        fresh.replace(None, &corrected);
        assert_eq!(standings, fresh);
    }

    /// Law 78A and Law 4: a pair plays a board once, never against itself.
    #[test]
    fn law_78a_a_board_refuses_a_pair_twice() {
        let twice = [table(1, 2, made(10)), table(2, 3, made(9))];
        assert_eq!(
            score_board(Method::Matchpoints, 7, Vulnerability::None, &twice),
            Err(SessionError::PairTwice { board: 7, pair: PairId(2) })
        );
        let itself = [table(1, 1, made(10))];
        assert_eq!(
            score_board(Method::Matchpoints, 7, Vulnerability::None, &itself),
            Err(SessionError::AgainstItself { board: 7, pair: PairId(1) })
        );
    }
}
