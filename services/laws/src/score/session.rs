//! A duplicate pairs session: boards, each table's result or adjusted score, matchpointed
//! (Law 78A) or IMPed (Law 78B: cross-IMPs or Butler) and ranked.
//!
//! Our readings where the Laws leave the method to the conditions of contest (Law 78D):
//!
//! - Each direction is compared within itself: North-South pairs against the North-South
//!   scores of the other tables, East-West against East-West. For a balanced board the two are
//!   complements; a split (non-balancing) adjusted score gives each side of its table its own
//!   score, which is what the other pairs of that direction are compared with.
//! - A weighted score (Law 12C1(c)) earns the weighted sum of what each of its results would
//!   earn, and others are compared with it component by component, weighted the same way.
//! - An artificial score (Law 12C2) is not a score others can be compared with: a board's
//!   comparisons are among its other tables, and each pair's board result is a percentage of
//!   its own top. With a lone comparable result there is nothing to compare: 50%.
//! - Law 12C2(c): average plus is the greater of 60% and the pair's percentage on its boards
//!   without an artificial score; average minus the smaller of 40% and that percentage. At
//!   IMPs the same with +3 and -3 IMPs and the pair's average IMPs per board. A pair with no
//!   such board keeps 60/40 (+3/-3). This is the only way one board depends on another: a
//!   board is otherwise scored on its own ([`crate::score::board::score_board`]), and a pair's
//!   session is the sum of its boards ([`crate::score::board::Standings`]), the awards valued
//!   from it; [`Session::score`] is that same computation over every board.
//! - Matchpoint sessions rank by the mean of the board percentages (each board counts
//!   equally whatever the number of comparisons); IMP sessions by total IMPs. Cross-IMPs are
//!   averaged per comparison so that they sit on the same scale as the +3/-3 of Law 12C2(b).
//! - Ties share a rank (1, 2=, 2=, 4); scores within 1e-9 are equal.
//! - Law 87B, a fouled board: "the Director determines as closely as possible which scores were
//!   obtained on the board in its correct form and which in the changed form(s). He divides the
//!   scores on that basis into groups and rates each group separately". The Director says which
//!   form each table played ([`Session::set_form`]; 0 is the correct form, the default), and each
//!   table is compared only with the tables of the same board and the same form: matchpoints,
//!   cross-IMPs and the Butler datum are all taken within the group, and a group with a single
//!   comparable result has nothing to compare with (50%, 0 IMPs). The method the engine
//!   announces (Law 87B: "in the absence of a relevant regulation the Director selects and
//!   announces his method") is *the percentage of the group applied to the full top*: a table's
//!   matchpoint percentage is of its group's own top, and [`PairResult::matchpoints`] scales
//!   it to the board's nominal top over all the tables that played the board, so every table of
//!   a fouled board shares the same top as on any other board. (A Neuberg-style factoring of
//!   each group to the full top is another method a regulation might choose; it is not offered
//!   yet.) Teams are not grouped: Law 87C sends a fouled board at teams to Law 86B2 (adjusted
//!   scores), see [`crate::score::teams`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use crate::contract::Vulnerability;
use crate::law::{CitesLaw, Law};
use crate::rulings::{AdjustedScore, ArtificialScore, SideAdjustment};
use crate::score::board::{BoardScores, BoardTable, SideResult, SideScore, Standings, score_checked};
use crate::score::duplicate::BoardResult;
use crate::score::imps::DatumRule;
use crate::seat::Side;

/// A pair's number in the session (Law 4: partnerships are fixed for a pairs session).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairId(pub u32);

impl fmt::Display for PairId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pair {}", self.0)
    }
}

/// How the session is scored (Law 78, set by the conditions of contest, Law 78D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Matchpoints (Law 78A).
    Matchpoints,
    /// IMPs against every other result on the board, averaged per comparison (Law 78B).
    CrossImps,
    /// IMPs against a datum (Law 78B), taken as [`DatumRule`] says.
    Butler(DatumRule),
    /// Total points (Law 78C): the net total of all boards played. A weighted score counts
    /// its weighted sum of points. Artificial scores are refused: Law 12C2 defines them only
    /// in matchpoints and IMPs.
    TotalPoints,
}

impl Method {
    /// Whether a pair's session score is the sum of its boards (IMPs, total points) rather
    /// than the mean of its board percentages (matchpoints).
    pub(crate) const fn sums(self) -> bool {
        !matches!(self, Method::Matchpoints)
    }
}

/// What a table scored on a board: its result, or the Director's adjusted score (Law 12).
#[derive(Debug, Clone, PartialEq)]
pub enum TableScore {
    /// The result obtained at the table (Law 77).
    Result(BoardResult),
    /// An adjusted score (Law 12C), which replaces the table result.
    Adjusted(AdjustedScore),
}

/// One table's score on one board (Law 77; Law 12 when adjusted).
#[derive(Debug, Clone, PartialEq)]
pub struct TableResult {
    /// The board number.
    pub board: u32,
    /// The North-South pair.
    pub ns: PairId,
    /// The East-West pair.
    pub ew: PairId,
    /// What the table scored.
    pub score: TableScore,
}

/// Why a result does not fit the session (Law 2, Law 4, Law 78A, Law 79C).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A result for a board the session does not have.
    #[error("board {0} is not in this session (Law 78A: scores are compared on the same board)")]
    UnknownBoard(u32),
    /// A board declared twice.
    #[error("board {0} is already in this session (Law 2: a board has one dealer and vulnerability)")]
    BoardTwice(u32),
    /// A pair with two results on one board.
    #[error("{pair} already has a result on board {board} (Law 78A: each contestant scores a board once)")]
    PairTwice {
        /// The board.
        board: u32,
        /// The pair.
        pair: PairId,
    },
    /// A pair against itself.
    #[error("{pair} cannot sit both North-South and East-West on board {board} (Law 4)")]
    AgainstItself {
        /// The board.
        board: u32,
        /// The pair.
        pair: PairId,
    },
    /// An artificial adjusted score in a total-points session.
    #[error(
        "board {board}: an artificial adjusted score has no value at total points (Law 12C2 defines it in matchpoints and IMPs)"
    )]
    ArtificialAtTotalPoints {
        /// The board.
        board: u32,
    },
    /// A change to a result the session does not have.
    #[error("no result on board {board} with {ns} North-South (Law 79C: a correction replaces a recorded score)")]
    NoSuchResult {
        /// The board.
        board: u32,
        /// The North-South pair named.
        ns: PairId,
    },
    /// A form given for a result the session does not have.
    #[error(
        "no result on board {board} with {ns} North-South to put in a group (Law 87B: the Director divides the \
         scores obtained on the board into groups)"
    )]
    NoResultToGroup {
        /// The board.
        board: u32,
        /// The North-South pair named.
        ns: PairId,
    },
}

impl CitesLaw for SessionError {
    fn law(&self) -> Law {
        match self {
            SessionError::UnknownBoard(_) | SessionError::PairTwice { .. } => Law::duplicate(78, "A"),
            SessionError::BoardTwice(_) => Law::duplicate(2, ""),
            SessionError::AgainstItself { .. } => Law::duplicate(4, ""),
            SessionError::NoSuchResult { .. } => Law::duplicate(79, "C"),
            SessionError::ArtificialAtTotalPoints { .. } => Law::duplicate(12, "C2"),
            SessionError::NoResultToGroup { .. } => Law::duplicate(87, "B"),
        }
    }
}

/// A duplicate pairs session: its boards and the tables' scores on them (Law 78).
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    method: Method,
    boards: HashMap<u32, Vulnerability>,
    results: Vec<TableResult>,
    seated: HashSet<(u32, PairId)>,
    /// Law 87B: the form each table of a fouled board played, by board and North-South pair;
    /// absent is 0, the correct form.
    forms: HashMap<(u32, PairId), u8>,
}

/// One table's score on one board, as the session method measures it: a percentage of the
/// top (Law 78A), IMPs (Law 78B) or points (Law 78C).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardScore {
    /// The board.
    pub board: u32,
    /// The North-South pair.
    pub ns: PairId,
    /// The East-West pair.
    pub ew: PairId,
    /// North-South's score on the board.
    pub ns_value: f64,
    /// East-West's score on the board.
    pub ew_value: f64,
    /// North-South's matchpoint units (Law 78A) and the top they are out of, when the session
    /// is matchpointed and North-South's score is not artificial. On a fouled board the top is
    /// that of the table's group (Law 87B).
    pub ns_units: Option<(f64, u32)>,
    /// The same for East-West.
    pub ew_units: Option<(f64, u32)>,
}

/// A pair's session result (Law 78; Law 78D: the conditions of contest say how winners are
/// determined).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairResult {
    /// The pair.
    pub pair: PairId,
    /// Boards the pair scored.
    pub boards: u32,
    /// The session score: mean percentage (matchpoints), total IMPs, or total points.
    pub score: f64,
    /// Matchpoints: the sum of each board's percentage of that board's top, where the top
    /// counts every table that played it (Law 78A: 2(n-1)); `None` at IMPs. On a fouled board
    /// the percentage is of the table's group and the top still that of every table (Law 87B:
    /// the method the engine announces, the group's percentage applied to the full top).
    pub matchpoints: Option<f64>,
    /// Rank, 1 for the best; tied pairs share a rank.
    pub rank: u32,
    /// Whether another pair has the same score.
    pub tied: bool,
}

/// A scored session (Law 78).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionScore {
    /// Every table's score on every board, in the order the results were added.
    pub boards: Vec<BoardScore>,
    /// Every pair, best first.
    pub ranking: Vec<PairResult>,
}

impl SessionScore {
    /// A pair's result (Law 78).
    pub fn pair(&self, pair: PairId) -> Option<&PairResult> {
        self.ranking.iter().find(|p| p.pair == pair)
    }

    /// Ranks within a group of pairs (for example one direction of a Mitchell), ties shared;
    /// best first. Pairs not in the session are left out.
    pub fn rank_among(&self, group: &[PairId]) -> Vec<PairResult> {
        let members: HashSet<PairId> = group.iter().copied().collect();
        let mut ranked: Vec<PairResult> = self.ranking.iter().filter(|p| members.contains(&p.pair)).copied().collect();
        assign_ranks(&mut ranked);
        ranked
    }
}

const EPSILON: f64 = 1e-9;

impl Session {
    /// An empty session scored by `method` (Law 78).
    pub fn new(method: Method) -> Session {
        Session { method, boards: HashMap::new(), results: Vec::new(), seated: HashSet::new(), forms: HashMap::new() }
    }

    /// The scoring method (Law 78).
    pub const fn method(&self) -> Method {
        self.method
    }

    /// Adds a board with the vulnerability marked on it (Law 2: the conditions on a board
    /// apply even if it does not conform).
    pub fn add_board(&mut self, board: u32, vulnerability: Vulnerability) -> Result<(), SessionError> {
        if self.boards.insert(board, vulnerability).is_some() {
            return Err(SessionError::BoardTwice(board));
        }
        Ok(())
    }

    /// Adds a table's score on a board (Law 78A: each contestant scores a board once).
    pub fn add_result(&mut self, result: TableResult) -> Result<(), SessionError> {
        let board = result.board;
        if !self.boards.contains_key(&board) {
            return Err(SessionError::UnknownBoard(board));
        }
        if result.ns == result.ew {
            return Err(SessionError::AgainstItself { board, pair: result.ns });
        }
        self.check_method(board, &result.score)?;
        for pair in [result.ns, result.ew] {
            if self.seated.contains(&(board, pair)) {
                return Err(SessionError::PairTwice { board, pair });
            }
        }
        self.seated.insert((board, result.ns));
        self.seated.insert((board, result.ew));
        self.results.push(result);
        Ok(())
    }

    /// Replaces the score of the table on `board` where `ns` sat North-South: a corrected
    /// result (Law 79C), an adjusted score (Law 12) or an appeal's decision (Law 93). The
    /// session must then be scored again, as every pair's percentage may move.
    pub fn set_score(&mut self, board: u32, ns: PairId, score: TableScore) -> Result<(), SessionError> {
        let result = self
            .results
            .iter_mut()
            .find(|r| r.board == board && r.ns == ns)
            .ok_or(SessionError::NoSuchResult { board, ns })?;
        if self.method == Method::TotalPoints && has_artificial(&score) {
            return Err(SessionError::ArtificialAtTotalPoints { board });
        }
        result.score = score;
        Ok(())
    }

    /// Law 87B, a fouled board: the Director's finding that the table on `board` where `ns`
    /// sat North-South played the board in `form` (0 for the correct form, 1, 2, ... for each
    /// changed form he distinguishes). Tables are then compared only within their group, the
    /// tables of the same board and the same form (see the module's readings for the method
    /// announced). Setting form 0 puts the table back with the board's correct form. The
    /// session must then be scored again.
    pub fn set_form(&mut self, board: u32, ns: PairId, form: u8) -> Result<(), SessionError> {
        if !self.results.iter().any(|r| r.board == board && r.ns == ns) {
            return Err(SessionError::NoResultToGroup { board, ns });
        }
        if form == 0 {
            self.forms.remove(&(board, ns));
        } else {
            self.forms.insert((board, ns), form);
        }
        Ok(())
    }

    /// The form the table on `board` where `ns` sat North-South played (Law 87B): 0, the
    /// correct form, unless the Director found otherwise with [`Session::set_form`].
    pub fn form(&self, board: u32, ns: PairId) -> u8 {
        self.forms.get(&(board, ns)).copied().unwrap_or(0)
    }

    fn check_method(&self, board: u32, score: &TableScore) -> Result<(), SessionError> {
        if self.method == Method::TotalPoints && has_artificial(score) {
            return Err(SessionError::ArtificialAtTotalPoints { board });
        }
        Ok(())
    }

    /// The results, in the order added (Law 77, Law 12).
    pub fn results(&self) -> &[TableResult] {
        &self.results
    }

    /// Scores the whole session (Law 78A or 78B, Law 12C2) and ranks the pairs. Each table is
    /// compared with the other tables of its board that played it in the same form (Law 87B).
    /// It is [`score_board`] on every board and the boards' sum kept as [`Standings`], so that
    /// a session kept board by board scores exactly as this.
    pub fn score(&self) -> SessionScore {
        let (boards, standings) = self.score_boards();
        let ranking = standings.ranking(self.method);
        let mut out = Vec::with_capacity(self.results.len());
        for (i, r) in self.results.iter().enumerate() {
            let (board, local) = boards.index[i];
            let table = &boards.scored[&board].tables[local];
            let units = |side: &SideResult| match side.score {
                SideScore::Compared { units, .. } => units,
                SideScore::Artificial(_) => None,
            };
            out.push(BoardScore {
                board: r.board,
                ns: r.ns,
                ew: r.ew,
                ns_value: standings.value(self.method, &table.ns),
                ew_value: standings.value(self.method, &table.ew),
                ns_units: units(&table.ns),
                ew_units: units(&table.ew),
            });
        }
        SessionScore { boards: out, ranking }
    }

    /// Every board scored on its own, and the pairs' tallies over them.
    pub fn standings(&self) -> Standings {
        self.score_boards().1
    }

    fn score_boards(&self) -> (ScoredBoards, Standings) {
        let mut tables: BTreeMap<u32, Vec<BoardTable>> = BTreeMap::new();
        let mut index = Vec::with_capacity(self.results.len());
        for r in &self.results {
            let on_board = tables.entry(r.board).or_default();
            index.push((r.board, on_board.len()));
            on_board.push(BoardTable { ns: r.ns, ew: r.ew, score: r.score.clone(), form: self.form(r.board, r.ns) });
        }
        let mut standings = Standings::new();
        let mut scored = BTreeMap::new();
        for (board, on_board) in tables {
            let vulnerability = self.boards.get(&board).copied().unwrap_or_default();
            let board_scores = score_checked(self.method, vulnerability, &on_board);
            standings.replace(None, &board_scores);
            scored.insert(board, board_scores);
        }
        (ScoredBoards { scored, index }, standings)
    }
}

/// Each board's scores, and where each result of the session is among them.
struct ScoredBoards {
    scored: BTreeMap<u32, BoardScores>,
    index: Vec<(u32, usize)>,
}

pub(crate) fn has_artificial(score: &TableScore) -> bool {
    match score {
        TableScore::Result(_) => false,
        TableScore::Adjusted(a) => {
            Side::ALL.iter().any(|side| matches!(a.for_side(*side), SideAdjustment::Artificial(_)))
        }
    }
}

/// Law 12C2: the artificial score's value, with the session rule of 12C2(c) applied to
/// average plus and average minus when the pair has a percentage (or IMP average) of its own.
pub(crate) fn artificial_value(award: ArtificialScore, own: Option<f64>, imps: bool) -> f64 {
    let base = if imps { award.imps() } else { award.percentage() };
    match (award, own) {
        (ArtificialScore::AveragePlus, Some(own)) => base.max(own),
        (ArtificialScore::AverageMinus, Some(own)) => base.min(own),
        _ => base,
    }
}

/// Sorts best first and gives tied scores the same rank.
pub(crate) fn assign_ranks(ranked: &mut [PairResult]) {
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.pair.cmp(&b.pair)));
    let mut i = 0;
    while i < ranked.len() {
        let mut j = i + 1;
        while j < ranked.len() && (ranked[i].score - ranked[j].score).abs() < EPSILON {
            j += 1;
        }
        for p in &mut ranked[i..j] {
            p.rank = i as u32 + 1;
            p.tied = j - i > 1;
        }
        i = j;
    }
}
