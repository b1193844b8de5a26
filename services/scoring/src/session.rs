//! Duplicate sessions: their definition (boards and contestants), the translation of stored
//! results and adjusted scores into the laws crate's [`Session`], and of its scores back into the
//! contract's [`spb::ScoreValues`] and [`spb::Standing`].
//!
//! A pairs session is scored board by board ([`score_board`], [`board_values`]) with each pair's
//! tally kept over its boards ([`Standings`], [`standings`]); [`score`] does the same over every
//! board at once. Law 12C2(c) makes an average plus or minus follow the pair's percentage on its
//! other boards: the tallies value it ([`Standings::value`]). Weighted and split scores and artificial awards are kept as what they are (stored as
//! the contract's `Adjustment`), never as an invented contract.
//!
//! A fouled board (Law 87B) is scored in the groups the Director found, by the form each table
//! played ([`Row::form`]), with the method the laws crate announces: the group's percentage applied
//! to the board's full top. At teams the form is not used: Law 87C sends a fouled board to Law
//! 86B2 (adjusted scores).

use std::collections::{BTreeMap, HashMap, HashSet};

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::convert::score::board_result;
use api::scoring::v1 as spb;
use laws::deal::Board;
use laws::rulings::{AdjustedScore, ArtificialScore, SideAdjustment, WeightedScore};
use laws::score::board::{BoardScores, BoardTable, SideResult, SideScore, Standings, Tally};
use laws::score::duplicate::BoardResult;
use laws::score::imps::DatumRule;
use laws::score::session::{Method, PairId, PairResult, Session, SessionError, TableResult, TableScore};
use laws::score::teams::TeamMatch;
use laws::{Deal, Seat, Side, Vulnerability};
use platform::ServiceError;

/// How the Butler datum is taken (Law 78D leaves it to the conditions of contest): the laws
/// crate's [`DatumRule`], configurable per club.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ButlerDatum {
    /// Scores dropped at each end of the board before averaging.
    pub trim: usize,
    /// The fewest scores on a board for which the ends are dropped.
    pub trim_from: usize,
    /// Round the datum to the nearest ten points.
    pub round_to_ten: bool,
}

impl Default for ButlerDatum {
    fn default() -> Self {
        let rule = DatumRule::default();
        ButlerDatum { trim: rule.trim, trim_from: rule.trim_from, round_to_ten: rule.round_to_ten }
    }
}

impl From<ButlerDatum> for DatumRule {
    fn from(d: ButlerDatum) -> DatumRule {
        DatumRule { trim: d.trim, trim_from: d.trim_from, round_to_ten: d.round_to_ten }
    }
}

/// The session's boards, contestants and method, checked: what `CreateSession` stores.
pub fn define(request: spb::CreateSessionRequest) -> Result<spb::Session, ServiceError> {
    let kind = spb::ContestantKind::try_from(request.contestant_kind)
        .map_err(|_| ServiceError::invalid("contestant_kind", format!("unknown value {}", request.contestant_kind)))?;
    let method = spb::ScoringMethod::try_from(request.scoring_method)
        .map_err(|_| ServiceError::invalid("scoring_method", format!("unknown value {}", request.scoring_method)))?;
    match (kind, method) {
        (spb::ContestantKind::Unspecified, _) => {
            return Err(ServiceError::invalid("contestant_kind", "not given; pairs or teams is required"));
        }
        (spb::ContestantKind::Individuals, _) => {
            return Err(ServiceError::invalid(
                "contestant_kind",
                "individual events are not scored here: a board result names one contestant per direction, \
                 and individuals change partners during the session (Law 4)",
            ));
        }
        (_, spb::ScoringMethod::Unspecified) => {
            return Err(ServiceError::invalid("scoring_method", "not given; a scoring method (Law 78) is required"));
        }
        (spb::ContestantKind::Teams, spb::ScoringMethod::TeamImps) => {}
        (spb::ContestantKind::Teams, _) | (_, spb::ScoringMethod::TeamImps) => {
            return Err(ServiceError::invalid(
                "scoring_method",
                "teams are scored by team IMPs and only teams are (Law 78B: a team's two results on a board \
                 are netted)",
            ));
        }
        (spb::ContestantKind::Pairs, _) => {}
    }
    if request.name.trim().is_empty() {
        return Err(ServiceError::invalid("name", "empty; a session needs a name"));
    }
    if request.boards.is_empty() {
        return Err(ServiceError::invalid("boards", "empty; a session has at least one board"));
    }
    let mut numbers = HashSet::new();
    let mut boards = Vec::with_capacity(request.boards.len());
    for (i, board) in request.boards.into_iter().enumerate() {
        let field = format!("boards[{i}]");
        let by_law = Board::new(board.number).map_err(|e| ServiceError::invalid(&format!("{field}.number"), e))?;
        if !numbers.insert(board.number) {
            return Err(ServiceError::invalid(
                &format!("{field}.number"),
                format!("board {} is listed twice (Law 2: a board has one dealer and vulnerability)", board.number),
            ));
        }
        // Law 2: the board number gives dealer and vulnerability unless the board is marked
        // otherwise, in which case the marking applies for the session.
        let dealer = match board.dealer {
            0 => by_law.dealer(),
            raw => Seat::from_proto(&format!("{field}.dealer"), raw)?,
        };
        let vulnerability = match board.vulnerability {
            0 => by_law.vulnerability(),
            raw => Vulnerability::from_proto(&format!("{field}.vulnerability"), raw)?,
        };
        if let Some(deal) = board.deal.clone() {
            Deal::try_from(deal).map_err(|e| e.within(&format!("{field}.deal")))?;
        }
        boards.push(spb::Board {
            number: board.number,
            dealer: dealer.to_proto(),
            vulnerability: vulnerability.to_proto(),
            deal: board.deal,
            released: false,
        });
    }
    boards.sort_by_key(|b| b.number);
    if request.contestants.len() < 2 {
        return Err(ServiceError::invalid("contestants", "a session needs at least two contestants"));
    }
    let given: HashSet<String> = request.contestants.iter().map(|c| c.contestant_id.clone()).collect();
    let mut ids = HashSet::new();
    let mut next_number = 1;
    let mut contestants = Vec::with_capacity(request.contestants.len());
    for (i, mut contestant) in request.contestants.into_iter().enumerate() {
        if contestant.contestant_id.is_empty() {
            // Numbered as the pairs or teams are at the table, skipping ids the desk gave.
            while given.contains(&next_number.to_string()) {
                next_number += 1;
            }
            contestant.contestant_id = next_number.to_string();
            next_number += 1;
        }
        if !ids.insert(contestant.contestant_id.clone()) {
            return Err(ServiceError::invalid(
                &format!("contestants[{i}].contestant_id"),
                format!("{:?} is used twice", contestant.contestant_id),
            ));
        }
        if contestant.name.trim().is_empty() {
            contestant.name = format!(
                "{} {}",
                if kind == spb::ContestantKind::Teams { "Team" } else { "Pair" },
                contestant.contestant_id
            );
        }
        if !contestant.captain_player_id.is_empty() && kind != spb::ContestantKind::Teams {
            return Err(ServiceError::invalid(
                &format!("contestants[{i}].captain_player_id"),
                "only a team has a captain (Law 92D)",
            ));
        }
        if !contestant.captain_player_id.is_empty() && !contestant.player_ids.contains(&contestant.captain_player_id) {
            return Err(ServiceError::invalid(
                &format!("contestants[{i}].captain_player_id"),
                "the captain must be one of the team's players",
            ));
        }
        contestants.push(contestant);
    }
    Ok(spb::Session {
        session_id: String::new(),
        name: request.name,
        contestant_kind: kind as i32,
        scoring_method: method as i32,
        boards,
        contestants,
        status: spb::SessionStatus::Open as i32,
        scores_published_at: None,
        correction_period_ends_at: None,
        created_at: None,
        version: 0,
        movement: Vec::new(),
    })
}

/// A stored board result, as the scoring needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The board.
    pub board: u32,
    /// The North-South contestant.
    pub ns: String,
    /// The East-West contestant.
    pub ew: String,
    /// The result at the table, if the board was played.
    pub table_result: Option<pb::DealResult>,
    /// The adjusted score in force, if any.
    pub adjustment: Option<pb::Adjustment>,
    /// Law 87B: the form of the board the table played, as the Director found it; 0 the correct
    /// form. Tables are compared only within their board's form.
    pub form: u8,
}

/// What a session scores: each result's values per side, in the order given, and the standings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scored {
    /// North-South's and East-West's values for each row.
    pub values: Vec<(spb::ScoreValues, spb::ScoreValues)>,
    /// The standings, best first.
    pub standings: Vec<spb::Standing>,
    /// Each pair's tally (pairs sessions; teams are scored whole, see [`score`]).
    pub tallies: Option<Standings>,
}

/// The session's scoring method in the laws crate's terms (Law 78), for a pairs session.
pub fn method(session: &spb::Session, datum: ButlerDatum) -> Result<Method, ServiceError> {
    method_of(session.scoring_method, datum)
}

/// [`method`] from the session's `ScoringMethod` as its number.
pub fn method_of(scoring_method: i32, datum: ButlerDatum) -> Result<Method, ServiceError> {
    match spb::ScoringMethod::try_from(scoring_method) {
        Ok(spb::ScoringMethod::Matchpoints) => Ok(Method::Matchpoints),
        Ok(spb::ScoringMethod::CrossImps) => Ok(Method::CrossImps),
        Ok(spb::ScoringMethod::ButlerImps) => Ok(Method::Butler(datum.into())),
        Ok(spb::ScoringMethod::TotalPoints) => Ok(Method::TotalPoints),
        _ => Err(ServiceError::internal(format!("session with scoring method {scoring_method}"))),
    }
}

/// The session narrowed to what a reader asked for: one board (its conditions and movement) if
/// `board_number` is not 0, and the contestants named if any are. What the reader may see is
/// settled before: narrowing only leaves out.
pub fn narrow(session: &mut spb::Session, board_number: u32, contestant_ids: &[String]) {
    if board_number != 0 {
        session.boards.retain(|b| b.number == board_number);
        session.movement.retain(|m| m.board_number == board_number);
    }
    if !contestant_ids.is_empty() {
        session.contestants.retain(|c| contestant_ids.contains(&c.contestant_id));
    }
}

/// The board's conditions as the session has them (Law 2).
pub fn board_of(session: &spb::Session, number: u32) -> Option<&spb::Board> {
    session.boards.iter().find(|b| b.number == number)
}

/// The contestant's position in the session, as the laws crate numbers pairs.
pub fn pair_ids(session: &spb::Session) -> HashMap<&str, PairId> {
    session.contestants.iter().enumerate().map(|(i, c)| (c.contestant_id.as_str(), PairId(i as u32 + 1))).collect()
}

/// A contestant of the session, by id.
pub fn contestant<'a>(session: &'a spb::Session, id: &str) -> Option<&'a spb::Contestant> {
    session.contestants.iter().find(|c| c.contestant_id == id)
}

/// An adjusted score in the laws crate's terms (Law 12C), checked.
pub fn adjusted(adjustment: &pb::Adjustment) -> Result<AdjustedScore, ServiceError> {
    use pb::adjustment::Kind;
    match adjustment.kind.as_ref() {
        None => Err(ServiceError::invalid("adjustment.kind", "missing; a value is required")),
        Some(Kind::Assigned(a)) => Ok(AdjustedScore::assigned(assigned(a, "adjustment.assigned")?)),
        Some(Kind::Weighted(w)) => Ok(AdjustedScore::weighted(weighted(w, "adjustment.weighted")?)),
        Some(Kind::Artificial(a)) => Ok(AdjustedScore::artificial(
            award(a.north_south.as_ref(), "adjustment.artificial.north_south")?,
            award(a.east_west.as_ref(), "adjustment.artificial.east_west")?,
        )),
        Some(Kind::Split(s)) => Ok(AdjustedScore::split(
            side_adjustment(s.north_south.as_ref(), "adjustment.split.north_south")?,
            side_adjustment(s.east_west.as_ref(), "adjustment.split.east_west")?,
        )),
    }
}

fn assigned(score: &pb::AssignedScore, field: &str) -> Result<BoardResult, ServiceError> {
    let result = score.result.as_ref().ok_or_else(|| ServiceError::invalid(&format!("{field}.result"), "missing"))?;
    Ok(board_result(result).map_err(|e| e.within(&format!("{field}.result")))?)
}

fn weighted(score: &pb::WeightedScore, field: &str) -> Result<WeightedScore, ServiceError> {
    let mut components = Vec::with_capacity(score.results.len());
    for (i, component) in score.results.iter().enumerate() {
        let at = format!("{field}.results[{i}]");
        let result =
            component.result.as_ref().ok_or_else(|| ServiceError::invalid(&format!("{at}.result"), "missing"))?;
        let result = board_result(result).map_err(|e| e.within(&format!("{at}.result")))?;
        let weight = component.weight.map_or(0, |w| w.basis_points);
        components.push((result, f64::from(weight) / 10_000.0));
    }
    WeightedScore::new(components).map_err(ServiceError::rule)
}

fn award(award: Option<&pb::ArtificialAward>, field: &str) -> Result<ArtificialScore, ServiceError> {
    use pb::artificial_award::Award;
    match award.and_then(|a| a.award.as_ref()) {
        None => Err(ServiceError::invalid(field, "missing; an artificial award is required")),
        Some(Award::Grade(grade)) => match pb::ArtificialGrade::try_from(*grade) {
            Ok(pb::ArtificialGrade::AveragePlus) => Ok(ArtificialScore::AveragePlus),
            Ok(pb::ArtificialGrade::Average) => Ok(ArtificialScore::Average),
            Ok(pb::ArtificialGrade::AverageMinus) => Ok(ArtificialScore::AverageMinus),
            Ok(pb::ArtificialGrade::Unspecified) => {
                Err(ServiceError::invalid(&format!("{field}.grade"), "not given; a grade is required"))
            }
            Err(_) => Err(ServiceError::invalid(&format!("{field}.grade"), format!("unknown value {grade}"))),
        },
        Some(Award::Percentage(_) | Award::Imps(_)) => Err(ServiceError::invalid(
            field,
            "explicit artificial percentages and IMPs (Law 12C2d) are not supported; award a grade (Law 12C2a)",
        )),
    }
}

fn side_adjustment(side: Option<&pb::SideAdjustment>, field: &str) -> Result<SideAdjustment, ServiceError> {
    use pb::side_adjustment::Kind;
    match side.and_then(|s| s.kind.as_ref()) {
        None => Err(ServiceError::invalid(field, "missing; each side's adjustment is required")),
        Some(Kind::Assigned(a)) => Ok(SideAdjustment::Assigned(assigned(a, &format!("{field}.assigned"))?)),
        Some(Kind::Weighted(w)) => Ok(SideAdjustment::Weighted(weighted(w, &format!("{field}.weighted"))?)),
        Some(Kind::Artificial(a)) => Ok(SideAdjustment::Artificial(award(Some(a), &format!("{field}.artificial"))?)),
    }
}

/// The kind of result an adjustment makes (Law 12C).
pub fn result_kind(adjustment: Option<&pb::Adjustment>) -> spb::ResultKind {
    use pb::adjustment::Kind;
    match adjustment.and_then(|a| a.kind.as_ref()) {
        None => spb::ResultKind::Table,
        Some(Kind::Assigned(_)) => spb::ResultKind::Assigned,
        Some(Kind::Weighted(_)) => spb::ResultKind::Weighted,
        Some(Kind::Artificial(_)) => spb::ResultKind::Artificial,
        Some(Kind::Split(_)) => spb::ResultKind::Split,
    }
}

/// What a table scored, in the laws crate's terms: its adjusted score, else its result.
fn table_score(row: &Row) -> Result<TableScore, ServiceError> {
    match (&row.adjustment, &row.table_result) {
        (Some(adjustment), _) => Ok(TableScore::Adjusted(adjusted(adjustment)?)),
        (None, Some(result)) => Ok(TableScore::Result(board_result(result)?)),
        (None, None) => Err(ServiceError::internal(format!(
            "board {} {} v {} has neither a result nor an adjusted score",
            row.board, row.ns, row.ew
        ))),
    }
}

/// The laws session of `rows`: its boards and each table's score on them.
pub fn laws_session(session: &spb::Session, rows: &[Row], datum: ButlerDatum) -> Result<Session, ServiceError> {
    let mut laws = Session::new(method(session, datum)?);
    for board in &session.boards {
        let vulnerability = Vulnerability::from_proto("vulnerability", board.vulnerability)?;
        laws.add_board(board.number, vulnerability).map_err(ServiceError::rule)?;
    }
    let ids = pair_ids(session);
    let pair = |id: &str, field: &str| {
        ids.get(id)
            .copied()
            .ok_or_else(|| ServiceError::invalid(field, format!("{id:?} is not a contestant of this session")))
    };
    for row in rows {
        laws.add_result(TableResult {
            board: row.board,
            ns: pair(&row.ns, "key.north_south_contestant_id")?,
            ew: pair(&row.ew, "key.east_west_contestant_id")?,
            score: table_score(row)?,
        })
        .map_err(ServiceError::rule)?;
    }
    for row in rows.iter().filter(|r| r.form != 0) {
        let ns = pair(&row.ns, "key.north_south_contestant_id")?;
        laws.set_form(row.board, ns, row.form).map_err(ServiceError::rule)?;
    }
    Ok(laws)
}

fn hundredths(value: f64) -> i64 {
    (value * 100.0).round() as i64
}

/// A side's points on a board (Law 77): its result's score, or its assigned or weighted adjusted
/// score; none for an artificial award, which has no points (Law 12C2).
fn side_points(row: &Row, adjusted: Option<&AdjustedScore>, side: Side, vulnerability: Vulnerability) -> Option<f64> {
    let score = |r: &BoardResult| f64::from(r.score_for(side, vulnerability));
    match adjusted.map(|a| a.for_side(side)) {
        None => row.table_result.as_ref().and_then(|r| board_result(r).ok()).map(|r| score(&r)),
        Some(SideAdjustment::Assigned(r)) => Some(score(r)),
        Some(SideAdjustment::Weighted(w)) => Some(w.components().iter().map(|(r, weight)| score(r) * weight).sum()),
        Some(SideAdjustment::Artificial(_)) => None,
    }
}

/// Each board's vulnerability (Law 2, or as the board is marked).
fn vulnerabilities(session: &spb::Session) -> Result<HashMap<u32, Vulnerability>, ServiceError> {
    session
        .boards
        .iter()
        .map(|b| Ok((b.number, Vulnerability::from_proto("vulnerability", b.vulnerability)?)))
        .collect()
}

/// Scores the whole session (Law 78, Law 12C2(c)) and translates it for the contract: each
/// row's values per side, in the order of `rows`, and the standings.
pub fn score(session: &spb::Session, rows: &[Row], datum: ButlerDatum) -> Result<Scored, ServiceError> {
    if session.scoring_method == spb::ScoringMethod::TeamImps as i32 {
        return score_teams(session, rows);
    }
    score_pairs(session, rows, datum)
}

/// A teams session (Law 78B): each team's two tables of a board netted and converted to IMPs.
fn score_teams(session: &spb::Session, rows: &[Row]) -> Result<Scored, ServiceError> {
    let vulnerability = vulnerabilities(session)?;
    let mut laws = TeamMatch::new();
    for (board, v) in &vulnerability {
        laws.add_board(*board, *v).map_err(ServiceError::rule)?;
    }
    let ids = pair_ids(session);
    let team = |id: &str, field: &str| {
        ids.get(id)
            .copied()
            .ok_or_else(|| ServiceError::invalid(field, format!("{id:?} is not a team of this session")))
    };
    for row in rows {
        laws.add_result(TableResult {
            board: row.board,
            ns: team(&row.ns, "key.north_south_contestant_id")?,
            ew: team(&row.ew, "key.east_west_contestant_id")?,
            score: table_score(row)?,
        })
        .map_err(ServiceError::rule)?;
    }
    let scored = laws.score();
    let mut points_by_team: HashMap<PairId, f64> = HashMap::new();
    let mut values = Vec::with_capacity(rows.len());
    for ((row, tables), (ns_id, ew_id)) in
        rows.iter().zip(&scored.tables).zip(rows.iter().map(|r| (ids.get(r.ns.as_str()), ids.get(r.ew.as_str()))))
    {
        let v = vulnerability.get(&row.board).copied().unwrap_or_default();
        let adjusted = row.adjustment.as_ref().map(adjusted).transpose()?;
        let mut side = |side: Side, team: Option<&PairId>, imps: f64, counts: bool| {
            let points = side_points(row, adjusted.as_ref(), side, v);
            if let (Some(points), Some(team)) = (points, team) {
                *points_by_team.entry(*team).or_default() += points;
            }
            spb::ScoreValues {
                points: points.map(|p| pb::TotalPoints { hundredths: hundredths(p) }),
                imps: counts.then(|| pb::Imps { hundredths: hundredths(imps) }),
                ..Default::default()
            }
        };
        values.push((
            side(Side::NorthSouth, ns_id, tables.ns_imps, tables.ns_counts),
            side(Side::EastWest, ew_id, tables.ew_imps, tables.ew_counts),
        ));
    }
    let names: Vec<&str> = session.contestants.iter().map(|c| c.contestant_id.as_str()).collect();
    let standings = scored
        .ranking
        .iter()
        .map(|p| spb::Standing {
            rank: p.rank,
            tied: p.tied,
            contestant_id: names.get(p.pair.0 as usize - 1).map(|s| (*s).to_owned()).unwrap_or_default(),
            score: Some(spb::ScoreValues {
                points: Some(pb::TotalPoints {
                    hundredths: hundredths(points_by_team.get(&p.pair).copied().unwrap_or(0.0)),
                }),
                imps: Some(pb::Imps { hundredths: hundredths(p.score) }),
                ..Default::default()
            }),
            boards_played: p.boards,
        })
        .collect();
    Ok(Scored { values, standings, tallies: None })
}

/// A pairs session (Law 78A, 78B, 78C; Law 12C2(c)): every board scored on its own and the
/// pairs' tallies summed over them, as a change to one board is scored ([`score_board`]).
fn score_pairs(session: &spb::Session, rows: &[Row], datum: ButlerDatum) -> Result<Scored, ServiceError> {
    let method = method(session, datum)?;
    let mut by_board: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        by_board.entry(row.board).or_default().push(i);
    }
    let mut tallies = Standings::new();
    let mut scored = Vec::with_capacity(by_board.len());
    for (board, indices) in by_board {
        let on_board: Vec<&Row> = indices.iter().map(|i| &rows[*i]).collect();
        let scores = score_board(session, datum, board, &on_board)?;
        tallies.replace(None, &scores);
        scored.push((indices, scores));
    }
    let mut values = vec![Default::default(); rows.len()];
    for (indices, scores) in &scored {
        for (i, v) in indices.iter().zip(board_values(method, &tallies, scores)) {
            values[*i] = v;
        }
    }
    let standings = standings(session, method, &tallies);
    Ok(Scored { values, standings, tallies: Some(tallies) })
}

/// One board's rows scored on their own (Law 78; Law 87B within each form), in the order given.
pub fn score_board(
    session: &spb::Session,
    datum: ButlerDatum,
    board: u32,
    rows: &[&Row],
) -> Result<BoardScores, ServiceError> {
    let method = method(session, datum)?;
    let ids = pair_ids(session);
    score_board_in(method, &session.boards, |id| ids.get(id).copied(), board, rows)
}

/// [`score_board`] given the session's method, its boards and how its contestants are numbered
/// as pairs ([`pair_ids`]): what a change needs, without the session's whole definition.
pub fn score_board_in(
    method: Method,
    boards: &[spb::Board],
    pair_of: impl Fn(&str) -> Option<PairId>,
    board: u32,
    rows: &[&Row],
) -> Result<BoardScores, ServiceError> {
    let vulnerability = match boards.iter().find(|b| b.number == board) {
        Some(b) => Vulnerability::from_proto("vulnerability", b.vulnerability)?,
        None => return Err(ServiceError::rule(SessionError::UnknownBoard(board))),
    };
    let pair = |id: &str, field: &str| {
        pair_of(id).ok_or_else(|| ServiceError::invalid(field, format!("{id:?} is not a contestant of this session")))
    };
    let tables = rows
        .iter()
        .map(|row| {
            Ok(BoardTable {
                ns: pair(&row.ns, "key.north_south_contestant_id")?,
                ew: pair(&row.ew, "key.east_west_contestant_id")?,
                score: table_score(row)?,
                form: row.form,
            })
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    laws::score::board::score_board(method, board, vulnerability, &tables).map_err(ServiceError::rule)
}

/// Each table's values per side on a scored board, artificial awards valued from the pairs'
/// tallies as they now stand (Law 12C2(c)).
pub fn board_values(
    method: Method,
    tallies: &Standings,
    scores: &BoardScores,
) -> Vec<(spb::ScoreValues, spb::ScoreValues)> {
    let side_values = |side: &SideResult| {
        let value = tallies.value(method, side);
        let mut v = spb::ScoreValues {
            points: side.points.map(|p| pb::TotalPoints { hundredths: hundredths(p) }),
            ..Default::default()
        };
        match method {
            Method::Matchpoints => {
                let nominal_top = scores.nominal_top;
                let (units, top) = match side.score {
                    SideScore::Compared { units: Some(units), .. } => units,
                    _ => (value / 100.0 * f64::from(nominal_top), nominal_top),
                };
                v.matchpoints = Some(pb::Matchpoints { hundredths: hundredths(units) });
                v.top = Some(pb::Matchpoints { hundredths: i64::from(top) * 100 });
                v.percentage = Some(basis_points(value));
            }
            Method::CrossImps | Method::Butler(_) => v.imps = Some(pb::Imps { hundredths: hundredths(value) }),
            Method::TotalPoints => {}
        }
        v
    };
    scores.tables.iter().map(|t| (side_values(&t.ns), side_values(&t.ew))).collect()
}

/// The standings as the contract shows them, best first (Law 78).
pub fn standings(session: &spb::Session, method: Method, tallies: &Standings) -> Vec<spb::Standing> {
    let ids: Vec<&str> = session.contestants.iter().map(|c| c.contestant_id.as_str()).collect();
    standings_of(&ids, method, tallies)
}

/// [`standings`] given each pair's contestant id, in pair order ([`pair_ids`]).
pub fn standings_of(ids: &[&str], method: Method, tallies: &Standings) -> Vec<spb::Standing> {
    tallies
        .ranking(method)
        .iter()
        .map(|p: &PairResult| {
            let tally = tallies.tally(p.pair).copied().unwrap_or_default();
            standing(contestant_of(ids, p.pair), method, &tally, p)
        })
        .collect()
}

/// One contestant's standing from its tally and its result (ranked or not, Law 78).
pub fn standing(contestant_id: String, method: Method, tally: &Tally, p: &PairResult) -> spb::Standing {
    let mut score = spb::ScoreValues {
        points: Some(pb::TotalPoints { hundredths: hundredths(tally.points.get()) }),
        ..Default::default()
    };
    match method {
        Method::Matchpoints => {
            score.percentage = Some(basis_points(p.score));
            score.matchpoints = p.matchpoints.map(|m| pb::Matchpoints { hundredths: hundredths(m) });
            score.top = Some(pb::Matchpoints { hundredths: i64::try_from(tally.top).unwrap_or(i64::MAX / 100) * 100 });
        }
        Method::CrossImps | Method::Butler(_) => score.imps = Some(pb::Imps { hundredths: hundredths(p.score) }),
        Method::TotalPoints => score.points = Some(pb::TotalPoints { hundredths: hundredths(p.score) }),
    }
    spb::Standing { rank: p.rank, tied: p.tied, contestant_id, score: Some(score), boards_played: p.boards }
}

/// The contestant id of the laws crate's pair number ([`pair_ids`]).
pub fn contestant_of(ids: &[&str], pair: PairId) -> String {
    ids.get((pair.0 as usize).wrapping_sub(1)).map(|s| (*s).to_owned()).unwrap_or_default()
}

fn basis_points(percentage: f64) -> pb::Percentage {
    pb::Percentage { basis_points: (percentage * 100.0).round() as i32 }
}
