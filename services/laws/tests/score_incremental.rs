//! A session kept board by board ([`laws::score::board`]) scores exactly as the session scored
//! whole ([`Session::score`]): after every change to one board, that board scored again, the
//! tallies moved by its old and new scores, and the boards of the pairs named by
//! [`Standings::replace`] valued again, every table's values and every pair's result equal the
//! whole session's, to the last bit. Boards not named keep the values they had.

use std::collections::BTreeMap;

use laws::rulings::{AdjustedScore, ArtificialScore, SideAdjustment, WeightedScore};
use laws::score::Tricks;
use laws::score::board::{BoardScores, BoardTable, SideScore, Standings, score_board};
use laws::score::duplicate::BoardResult;
use laws::score::imps::DatumRule;
use laws::score::session::{Method, PairId, Session, TableResult, TableScore};
use laws::{DeclaredContract, Seat, Vulnerability};
use proptest::prelude::*;

const CONTRACTS: [&str; 6] = ["1NT", "3NT", "4S", "2H", "6D", "3CX"];
const AWARDS: [ArtificialScore; 3] =
    [ArtificialScore::AveragePlus, ArtificialScore::Average, ArtificialScore::AverageMinus];
const VULNERABILITY: [Vulnerability; 4] =
    [Vulnerability::None, Vulnerability::NorthSouth, Vulnerability::EastWest, Vulnerability::Both];

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::Matchpoints),
        Just(Method::CrossImps),
        Just(Method::Butler(DatumRule::default())),
        Just(Method::TotalPoints),
    ]
}

fn result() -> impl Strategy<Value = BoardResult> {
    (0..CONTRACTS.len(), any::<bool>(), 0..=13u8).prop_map(|(c, north, tricks)| BoardResult::Played {
        contract: DeclaredContract {
            contract: CONTRACTS[c].parse().unwrap_or_else(|e| panic!("{e}")),
            declarer: if north { Seat::North } else { Seat::East },
        },
        tricks: Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")),
    })
}

fn side(artificial: bool) -> BoxedStrategy<SideAdjustment> {
    let weighted = (result(), result(), prop_oneof![Just(0.25), Just(0.5)]).prop_map(|(a, b, w)| {
        SideAdjustment::Weighted(WeightedScore::new(vec![(a, w), (b, 1.0 - w)]).unwrap_or_else(|e| panic!("{e}")))
    });
    let assigned = result().prop_map(SideAdjustment::Assigned);
    if !artificial {
        return prop_oneof![assigned, weighted].boxed();
    }
    let award = (0..3usize).prop_map(|a| SideAdjustment::Artificial(AWARDS[a]));
    prop_oneof![assigned, weighted, award].boxed()
}

/// A table's score: mostly results, and every kind of adjusted score (Law 12C); no artificial
/// score at total points (Law 12C2 defines it in matchpoints and IMPs).
fn score(artificial: bool) -> BoxedStrategy<TableScore> {
    let played = result().prop_map(TableScore::Result);
    let assigned = result().prop_map(|r| TableScore::Adjusted(AdjustedScore::assigned(r)));
    let split =
        (side(artificial), side(artificial)).prop_map(|(a, b)| TableScore::Adjusted(AdjustedScore::split(a, b)));
    if !artificial {
        return prop_oneof![4 => played, 1 => assigned, 1 => split].boxed();
    }
    let awards =
        (0..3usize, 0..3usize).prop_map(|(a, b)| TableScore::Adjusted(AdjustedScore::artificial(AWARDS[a], AWARDS[b])));
    prop_oneof![4 => played, 1 => assigned, 2 => awards, 1 => split].boxed()
}

/// One change to one board.
#[derive(Debug, Clone)]
enum Change {
    /// A table's first score on the board (Law 77; Law 12C2 for a board not played).
    Add { ns: u32, ew: u32, score: TableScore },
    /// A correction or an adjusted score (Law 79C, Law 12C).
    Rescore { table: usize, score: TableScore },
    /// Law 87B: the Director puts a table in a group.
    Form { table: usize, form: u8 },
}

fn change(pairs: u32, artificial: bool) -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (1..=pairs, 1..=pairs, score(artificial)).prop_map(|(ns, ew, score)| Change::Add { ns, ew, score }),
        2 => (0..8usize, score(artificial)).prop_map(|(table, score)| Change::Rescore { table, score }),
        1 => (0..8usize, 0..3u8).prop_map(|(table, form)| Change::Form { table, form }),
    ]
}

fn case() -> impl Strategy<Value = (Method, u32, u32, Vec<(u32, Change)>)> {
    (method(), 1..=4u32, 4..=8u32).prop_flat_map(|(method, boards, pairs)| {
        let artificial = method != Method::TotalPoints;
        let changes = prop::collection::vec((1..=boards, change(pairs, artificial)), 1..40);
        (Just(method), Just(boards), Just(pairs), changes)
    })
}

/// The session as kept board by board: each board's tables, their scores, and the values each
/// table shows, as a store would keep them.
struct Kept {
    method: Method,
    tables: BTreeMap<u32, Vec<BoardTable>>,
    scores: BTreeMap<u32, BoardScores>,
    shown: BTreeMap<u32, Vec<(f64, f64)>>,
    standings: Standings,
}

impl Kept {
    fn vulnerability(board: u32) -> Vulnerability {
        VULNERABILITY[board as usize % 4]
    }

    fn show(&mut self, board: u32) {
        let shown = self.scores[&board]
            .tables
            .iter()
            .map(|t| (self.standings.value(self.method, &t.ns), self.standings.value(self.method, &t.ew)))
            .collect();
        self.shown.insert(board, shown);
    }

    /// Applies a change as a store would: only its board scored again, then the boards of the
    /// pairs whose artificial scores moved valued again.
    fn apply(&mut self, board: u32, change: &Change) {
        let mut tables = self.tables.get(&board).cloned().unwrap_or_default();
        match change {
            Change::Add { ns, ew, score } => {
                let taken = tables.iter().any(|t| [t.ns, t.ew].iter().any(|p| p.0 == *ns || p.0 == *ew));
                if ns == ew || taken {
                    return;
                }
                tables.push(BoardTable { ns: PairId(*ns), ew: PairId(*ew), score: score.clone(), form: 0 });
            }
            Change::Rescore { table, score } => match tables.get_mut(*table) {
                Some(t) => t.score = score.clone(),
                None => return,
            },
            Change::Form { table, form } => match tables.get_mut(*table) {
                Some(t) => t.form = *form,
                None => return,
            },
        }
        let new =
            score_board(self.method, board, Self::vulnerability(board), &tables).unwrap_or_else(|e| panic!("{e}"));
        let moved = self.standings.replace(self.scores.get(&board), &new);
        self.tables.insert(board, tables);
        self.scores.insert(board, new);
        self.show(board);
        let others: Vec<u32> = self
            .scores
            .iter()
            .filter(|(b, s)| {
                **b != board
                    && s.tables
                        .iter()
                        .flat_map(|t| t.sides())
                        .any(|side| moved.contains(&side.pair) && matches!(side.score, SideScore::Artificial(_)))
            })
            .map(|(b, _)| *b)
            .collect();
        for other in others {
            self.show(other);
        }
    }

    fn whole(&self, boards: u32) -> Session {
        let mut session = Session::new(self.method);
        for board in 1..=boards {
            session.add_board(board, Self::vulnerability(board)).unwrap_or_else(|e| panic!("{e}"));
        }
        for (board, tables) in &self.tables {
            for t in tables {
                let result = TableResult { board: *board, ns: t.ns, ew: t.ew, score: t.score.clone() };
                session.add_result(result).unwrap_or_else(|e| panic!("{e}"));
                session.set_form(*board, t.ns, t.form).unwrap_or_else(|e| panic!("{e}"));
            }
        }
        session
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Law 78 and Law 12C2(c): a session kept board by board equals the session scored whole.
    #[test]
    fn law_78_a_session_kept_board_by_board_scores_as_the_whole_session((method, boards, _pairs, changes) in case()) {
        let mut kept = Kept {
            method,
            tables: BTreeMap::new(),
            scores: BTreeMap::new(),
            shown: BTreeMap::new(),
            standings: Standings::new(),
        };
        for (board, change) in &changes {
            kept.apply(*board, change);
            let whole = kept.whole(boards);
            let scored = whole.score();
            let mut at = 0;
            for (board, shown) in &kept.shown {
                for (local, (ns, ew)) in shown.iter().enumerate() {
                    let expected = &scored.boards[at];
                    prop_assert_eq!((expected.board, local), (*board, local));
                    prop_assert_eq!((*ns, *ew), (expected.ns_value, expected.ew_value), "board {} table {}", board, local);
                    let units = |s: &SideScore| match s { SideScore::Compared { units, .. } => *units, SideScore::Artificial(_) => None };
                    let table = &kept.scores[board].tables[local];
                    prop_assert_eq!((units(&table.ns.score), units(&table.ew.score)), (expected.ns_units, expected.ew_units));
                    at += 1;
                }
            }
            prop_assert_eq!(at, scored.boards.len());
            prop_assert_eq!(kept.standings.ranking(method), scored.ranking.clone());
            prop_assert_eq!(&kept.standings, &whole.standings());
        }
    }
}
