//! `bridgectl score`, `bridgectl scorepad` and `bridgectl session`: the scoring service from the
//! command line.
//!
//! ```text
//! bridgectl score contract 4SX --declarer N --vulnerable ns --tricks 9
//! bridgectl scorepad create --rubber <rubber-id>         # the rubber's pad, from its line-up
//! bridgectl scorepad show <scorepad-id> [--we ns|ew]      # the classic pad: we/they, above/below the line
//! bridgectl session show <session-id>                     # standings
//! bridgectl session export <session-id> --pbn [--out f]   # or --usebio
//! bridgectl session foul <session-id> <board> --form 9=1 --form 11=1 --reason "..."  # Law 87B
//! ```

use std::fmt::Write as _;

use anyhow::{Context, bail};
use api::common::v1 as pb;
use api::scoring::v1 as spb;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use clap::{Args, Subcommand, ValueEnum};

/// The scoring commands.
#[derive(Debug, Subcommand)]
pub enum Score {
    /// Scores one duplicate contract (Law 77).
    Contract {
        /// The contract as a score sheet writes it: 4S, 3NTX, 6HXX.
        contract: String,
        /// The declarer: N, E, S or W.
        #[arg(long)]
        declarer: String,
        /// Which sides are vulnerable.
        #[arg(long, value_enum, default_value = "none")]
        vulnerable: Vulnerable,
        /// Tricks won by declarer's side.
        #[arg(long)]
        tricks: u32,
    },
}

/// The scorepad commands.
#[derive(Debug, Subcommand)]
pub enum Scorepad {
    /// Creates the scorepad of a rubber the desk started (`rubber start`): its table, kind,
    /// players and first dealer come from the rubber (Law 3). Creating again returns the same pad.
    Create {
        /// The rubber.
        #[arg(long)]
        rubber: String,
        /// Translate the net score into even hundreds (Appendix 4 H2).
        #[arg(long)]
        round_to_hundreds: bool,
        /// Chicago: switch the vulnerability of the second and third deals (Appendix 4 C).
        #[arg(long)]
        chicago_swap_vulnerability: bool,
    },
    /// Draws a rubber or Chicago pad as players keep it: we and they, above and below the line.
    Show {
        /// The scorepad.
        scorepad_id: String,
        /// Which side is "we", the left column.
        #[arg(long, value_enum, default_value = "ns")]
        we: WeSide,
    },
}

/// The session commands.
#[derive(Debug, Subcommand)]
pub enum Session {
    /// Shows a session: its boards, results recorded and standings.
    Show {
        /// The session.
        session_id: String,
    },
    /// Exports a session's results.
    Export(Export),
    /// Law 87B, a fouled board: the form each table played (the director). Tables not named
    /// played the correct form; with no --form every table is put back in one group.
    Foul(Foul),
    /// Duplicate Law 8A, the movement: sends a table to boards, North-South against East-West
    /// (the desk, round by round, or the director). A board is started only at a table sent to
    /// it.
    Assign {
        /// The session.
        session_id: String,
        /// The table, as the game service knows it.
        table_id: String,
        /// The contestant sitting North-South.
        #[arg(long)]
        ns: String,
        /// The contestant sitting East-West.
        #[arg(long)]
        ew: String,
        /// The boards the table plays this round, such as 1-3 or 4,5.
        #[arg(long, value_parser = parse_boards)]
        boards: std::ops::RangeInclusive<u32>,
    },
    /// Releases a board before every table of the movement has played it, so that its hands may
    /// be shown to everyone (the director).
    Release {
        /// The session.
        session_id: String,
        /// The board.
        board: u32,
    },
}

/// `FIRST-LAST` or one board, as `--boards` takes it.
fn parse_boards(text: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let number = |t: &str| t.trim().parse::<u32>().map_err(|e| format!("{text:?}: {e}"));
    let range = match text.split_once('-') {
        Some((first, last)) => number(first)?..=number(last)?,
        None => number(text)?..=number(text)?,
    };
    if range.is_empty() || *range.start() == 0 {
        return Err(format!("{text:?}: boards are numbered from 1, first to last"));
    }
    Ok(range)
}

/// `session foul`.
#[derive(Debug, Args)]
pub struct Foul {
    /// The session.
    session_id: String,
    /// The fouled board.
    board: u32,
    /// A table that played a changed form: its North-South contestant and the form, as NS=FORM
    /// (form 1 to 255; 0 is the correct form). Repeat for each table.
    #[arg(long = "form", value_parser = parse_form)]
    forms: Vec<(String, u32)>,
    /// Why, for the record (Law 87A: what was displaced, or how dealer or vulnerability differed).
    #[arg(long, default_value = "")]
    reason: String,
}

/// `NS=FORM` as `--form` takes it.
fn parse_form(text: &str) -> Result<(String, u32), String> {
    let (ns, form) = text.split_once('=').ok_or_else(|| format!("{text:?}: say NS=FORM, for example 9=1"))?;
    let form = form.trim().parse().map_err(|e| format!("{text:?}: the form: {e}"))?;
    if ns.trim().is_empty() {
        return Err(format!("{text:?}: the North-South contestant is missing"));
    }
    Ok((ns.trim().to_owned(), form))
}

/// `session export`.
#[derive(Debug, Args)]
pub struct Export {
    /// The session.
    session_id: String,
    /// As PBN (boards with results).
    #[arg(long, conflicts_with = "usebio", required_unless_present = "usebio")]
    pbn: bool,
    /// As USEBIO XML.
    #[arg(long)]
    usebio: bool,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// Vulnerability on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Vulnerable {
    /// Neither side.
    None,
    /// North-South.
    Ns,
    /// East-West.
    Ew,
    /// Both sides.
    Both,
}

/// Which side is "we".
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WeSide {
    /// North-South.
    Ns,
    /// East-West.
    Ew,
}

type Client = ScoringServiceClient<platform::app::PeerChannel>;

fn seat(text: &str) -> anyhow::Result<pb::Seat> {
    let seat: laws::Seat = text.parse().with_context(|| format!("--declarer {text}"))?;
    Ok(match seat {
        laws::Seat::North => pb::Seat::North,
        laws::Seat::East => pb::Seat::East,
        laws::Seat::South => pb::Seat::South,
        laws::Seat::West => pb::Seat::West,
    })
}

/// Runs `score`.
pub async fn score(client: &mut Client, command: Score) -> anyhow::Result<()> {
    match command {
        Score::Contract { contract, declarer, vulnerable, tricks } => {
            let parsed: laws::Contract = contract.parse().with_context(|| format!("contract {contract}"))?;
            let vulnerability = match vulnerable {
                Vulnerable::None => pb::Vulnerability::None,
                Vulnerable::Ns => pb::Vulnerability::NorthSouth,
                Vulnerable::Ew => pb::Vulnerability::EastWest,
                Vulnerable::Both => pb::Vulnerability::Both,
            };
            let response = client
                .score_duplicate_contract(spb::ScoreDuplicateContractRequest {
                    contract: Some(parsed.into()),
                    declarer: seat(&declarer)? as i32,
                    vulnerability: vulnerability as i32,
                    tricks,
                })
                .await?
                .into_inner();
            print!("{}", contract_score(&contract, &response));
        }
    }
    Ok(())
}

fn item_name(item: i32) -> &'static str {
    match spb::ScoreItem::try_from(item).unwrap_or_default() {
        spb::ScoreItem::TrickPoints => "trick points",
        spb::ScoreItem::Overtricks => "overtricks",
        spb::ScoreItem::MadeDoubled => "making it doubled/redoubled",
        spb::ScoreItem::Slam => "slam",
        spb::ScoreItem::Undertricks => "undertricks",
        spb::ScoreItem::Honors => "honors",
        spb::ScoreItem::RubberBonus => "rubber",
        spb::ScoreItem::UnfinishedGame => "unfinished rubber: game",
        spb::ScoreItem::UnfinishedPartscore => "unfinished rubber: partscore",
        spb::ScoreItem::ChicagoGame => "game (Chicago)",
        spb::ScoreItem::ChicagoFourthDealPartscore => "fourth-deal partscore",
        spb::ScoreItem::GameBonus => "game bonus",
        spb::ScoreItem::PartscoreBonus => "partscore bonus",
        spb::ScoreItem::AppealPremiumMade => "appeal premium (made)",
        spb::ScoreItem::AppealPremiumDefeated => "appeal premium (defeated)",
        spb::ScoreItem::Unspecified => "?",
    }
}

/// One contract's score, item by item.
pub fn contract_score(contract: &str, response: &spb::ScoreDuplicateContractResponse) -> String {
    let mut out = String::new();
    for component in &response.components {
        let _ = writeln!(out, "  {:<30} {:>6}", item_name(component.item), component.points);
    }
    let _ = writeln!(out, "  {:<30} {:>6}", format!("{contract} for declarer"), response.declarer_score);
    let _ = writeln!(out, "  {:<30} {:>6}", "North-South", response.north_south_score);
    out
}

/// Runs `scorepad`.
pub async fn scorepad(client: &mut Client, command: Scorepad) -> anyhow::Result<()> {
    match command {
        Scorepad::Create { rubber, round_to_hundreds, chicago_swap_vulnerability } => {
            let request = spb::CreateScorepadRequest {
                rubber_id: rubber,
                options: Some(spb::ScorepadOptions { round_to_hundreds, chicago_swap_vulnerability }),
                ..Default::default()
            };
            let pad =
                client.create_scorepad(request).await?.into_inner().scorepad.context("the server sent no scorepad")?;
            println!("scorepad {} for rubber {} at {}", pad.scorepad_id, pad.rubber_id, pad.table_id);
            print!("{}", draw_pad(&pad, WeSide::Ns));
        }
        Scorepad::Show { scorepad_id, we } => {
            let pad = client
                .get_scorepad(spb::GetScorepadRequest { scorepad_id })
                .await?
                .into_inner()
                .scorepad
                .context("the server sent no scorepad")?;
            print!("{}", draw_pad(&pad, we));
        }
    }
    Ok(())
}

const COLUMN: usize = 14;

fn points(entry: &spb::ScoreEntry) -> String {
    // Struck entries stay on the pad, crossed out (Law 78; Club Appeals Committee).
    if entry.struck { format!("~{}~", entry.points) } else { entry.points.to_string() }
}

fn row(out: &mut String, we: &str, they: &str) {
    let _ = writeln!(out, "{we:>COLUMN$} | {they:<COLUMN$}");
}

fn rule(out: &mut String, mark: char) {
    let _ = writeln!(out, "{}+{}", mark.to_string().repeat(COLUMN + 1), mark.to_string().repeat(COLUMN + 1));
}

/// The pad as players draw it (Law 75): two columns, we on the left; premiums above the line,
/// written upward so the first is nearest the line; trick points below it, with a line under
/// each game; struck entries crossed out (~120~); then totals and the net score.
pub fn draw_pad(pad: &spb::Scorepad, we: WeSide) -> String {
    let we_side = if we == WeSide::Ns { pb::Side::NorthSouth } else { pb::Side::EastWest } as i32;
    let mut out = String::new();
    let kind = if pad.kind == pb::TableKind::Chicago as i32 { "Chicago" } else { "Rubber" };
    let status = spb::ScorepadStatus::try_from(pad.status).map_or("?", |s| match s {
        spb::ScorepadStatus::InProgress => "in progress",
        spb::ScorepadStatus::Finished => "finished",
        spb::ScorepadStatus::EndedUnfinished => "ended unfinished",
        spb::ScorepadStatus::Unspecified => "?",
    });
    let _ = writeln!(out, "{kind} {} ({status}, version {})", pad.scorepad_id, pad.version);
    let (we_label, they_label) = if we == WeSide::Ns { ("WE (N-S)", "THEY (E-W)") } else { ("WE (E-W)", "THEY (N-S)") };
    row(&mut out, we_label, they_label);
    rule(&mut out, '-');

    let columns = |entries: Vec<&spb::ScoreEntry>| -> (Vec<String>, Vec<String>) {
        let we: Vec<String> = entries.iter().filter(|e| e.side == we_side).map(|e| points(e)).collect();
        let they: Vec<String> = entries.iter().filter(|e| e.side != we_side).map(|e| points(e)).collect();
        (we, they)
    };
    let above: Vec<&spb::ScoreEntry> = pad.entries.iter().filter(|e| e.line == spb::ScoreLine::Above as i32).collect();
    let (we_above, they_above) = columns(above);
    let height = we_above.len().max(they_above.len());
    for i in (0..height).rev() {
        row(&mut out, we_above.get(i).map_or("", String::as_str), they_above.get(i).map_or("", String::as_str));
    }
    rule(&mut out, '=');
    let below: Vec<&spb::ScoreEntry> = pad.entries.iter().filter(|e| e.line == spb::ScoreLine::Below as i32).collect();
    let games = below.iter().map(|e| e.game_number).max().unwrap_or(0);
    for game in 1..=games {
        let (we_below, they_below) = columns(below.iter().copied().filter(|e| e.game_number == game).collect());
        for i in 0..we_below.len().max(they_below.len()) {
            row(&mut out, we_below.get(i).map_or("", String::as_str), they_below.get(i).map_or("", String::as_str));
        }
        // A line is drawn under a game won (Law 75), not under the game in progress.
        if pad.games.len() >= game as usize {
            rule(&mut out, '-');
        }
    }
    rule(&mut out, '=');
    let (ns, ew) = (pad.north_south.unwrap_or_default(), pad.east_west.unwrap_or_default());
    let (we_score, they_score) = if we == WeSide::Ns { (ns, ew) } else { (ew, ns) };
    row(&mut out, &we_score.total.to_string(), &they_score.total.to_string());
    row(&mut out, &format!("games {}", we_score.games_won), &format!("games {}", they_score.games_won));
    if let Some(net) = pad.net {
        let winner = match pb::Side::try_from(net.winner) {
            Ok(pb::Side::NorthSouth) => "North-South",
            Ok(pb::Side::EastWest) => "East-West",
            _ => "",
        };
        if winner.is_empty() {
            let _ = writeln!(out, "net: a tie");
        } else if net.rounded_margin != net.margin {
            let _ = writeln!(out, "net: {winner} by {} (rounded from {})", net.rounded_margin, net.margin);
        } else {
            let _ = writeln!(out, "net: {winner} by {}", net.margin);
        }
    }
    out.push_str(&deals_text(pad));
    if let Some(next) = pad.next_deal {
        let dealer = pb::Seat::try_from(next.dealer).map_or("?", |s| match s {
            pb::Seat::North => "North",
            pb::Seat::East => "East",
            pb::Seat::South => "South",
            pb::Seat::West => "West",
            pb::Seat::Unspecified => "?",
        });
        let vulnerable = pb::Vulnerability::try_from(next.vulnerability).map_or("?", |v| match v {
            pb::Vulnerability::None => "nobody",
            pb::Vulnerability::NorthSouth => "North-South",
            pb::Vulnerability::EastWest => "East-West",
            pb::Vulnerability::Both => "both sides",
            pb::Vulnerability::Unspecified => "?",
        });
        let _ = writeln!(out, "next: deal {}, {dealer} deals, {vulnerable} vulnerable", next.deal_number);
    }
    for flag in &pad.review_flags {
        let _ = writeln!(out, "for the arbiter: {flag}");
    }
    if pad.entries.iter().any(|e| e.struck) {
        let _ = writeln!(out, "(~n~: struck by a correction or an appeal, kept on the pad)");
    }
    out
}

/// Each deal on the pad: its result, where it came from, and the entries it made, side, line
/// and item (Law 77), struck ones marked.
fn deals_text(pad: &spb::Scorepad) -> String {
    let mut out = String::new();
    for deal in &pad.deals {
        let result = match deal.result.as_ref().and_then(|r| r.outcome.as_ref()) {
            Some(pb::deal_result::Outcome::Played(played)) => {
                match played.contract.and_then(|c| laws::DeclaredContract::try_from(c).ok()) {
                    Some(contract) => format!("{contract}, {} tricks", played.tricks),
                    None => format!("{} tricks", played.tricks),
                }
            }
            Some(pb::deal_result::Outcome::PassedOut(_)) => "passed out".to_owned(),
            None => "no result".to_owned(),
        };
        let source = spb::ResultSource::try_from(deal.source)
            .map_or_else(|_| "?".to_owned(), |s| s.as_str_name().trim_start_matches("RESULT_SOURCE_").to_lowercase());
        let struck = if deal.struck { " (struck)" } else { "" };
        let _ = writeln!(out, "deal {}: {result}, from the {source}{struck}", deal.deal_number);
        for entry in pad.entries.iter().filter(|e| e.deal_id == deal.deal_id) {
            let side = if entry.side == pb::Side::NorthSouth as i32 { "North-South" } else { "East-West" };
            let line = if entry.line == spb::ScoreLine::Above as i32 { "above" } else { "below" };
            let _ = writeln!(out, "  {side:<11} {:>6} {line}  {}", points(entry), item_name(entry.item));
        }
    }
    out
}

/// Runs `session`.
pub async fn session(client: &mut Client, command: Session) -> anyhow::Result<()> {
    match command {
        Session::Show { session_id } => {
            let session = client
                .get_session(spb::GetSessionRequest { session_id: session_id.clone(), ..Default::default() })
                .await?
                .into_inner()
                .session
                .context("the server sent no session")?;
            let standings = client.get_standings(spb::GetStandingsRequest { session_id }).await?.into_inner();
            print!("{}", show_session(&session, &standings));
            print!("{}", show_movement(&session));
        }
        Session::Export(export) => {
            let text = if export.pbn {
                client
                    .export_session_pbn(spb::ExportSessionPbnRequest { session_id: export.session_id })
                    .await?
                    .into_inner()
                    .pbn
            } else if export.usebio {
                client
                    .export_session_usebio(spb::ExportSessionUsebioRequest { session_id: export.session_id })
                    .await?
                    .into_inner()
                    .xml
            } else {
                bail!("say --pbn or --usebio");
            };
            match export.out {
                Some(path) => std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?,
                None => print!("{text}"),
            }
        }
        Session::Foul(foul) => {
            let board = foul.board;
            let response = client
                .mark_fouled_board(spb::MarkFouledBoardRequest {
                    session_id: foul.session_id,
                    board_number: board,
                    forms: foul
                        .forms
                        .into_iter()
                        .map(|(ns, form)| spb::BoardForm { north_south_contestant_id: ns, form })
                        .collect(),
                    reason: foul.reason,
                })
                .await?
                .into_inner();
            print!("{}", show_fouled(board, &response));
        }
        Session::Assign { session_id, table_id, ns, ew, boards } => {
            let assignments = boards
                .map(|board_number| spb::TableAssignment {
                    table_id: table_id.clone(),
                    board_number,
                    north_south_contestant_id: ns.clone(),
                    east_west_contestant_id: ew.clone(),
                })
                .collect();
            let response = client.assign_tables(spb::AssignTablesRequest { session_id, assignments }).await?;
            print!("{}", show_movement(&response.into_inner().session.context("the server sent no session")?));
        }
        Session::Release { session_id, board } => {
            let request = spb::ReleaseBoardRequest { session_id, board_number: board };
            let session = client.release_board(request).await?.into_inner().session.context("no session")?;
            print!("{}", show_movement(&session));
        }
    }
    Ok(())
}

/// A session's movement, board by board, and which boards may be shown to everyone.
pub fn show_movement(session: &spb::Session) -> String {
    let mut out = String::new();
    for board in &session.boards {
        let tables: Vec<String> = session
            .movement
            .iter()
            .filter(|a| a.board_number == board.number)
            .map(|a| format!("{} ({} v {})", a.table_id, a.north_south_contestant_id, a.east_west_contestant_id))
            .collect();
        let shown = if board.released { "released" } else { "hidden until played everywhere" };
        let tables = if tables.is_empty() { "no table yet".to_owned() } else { tables.join(", ") };
        let _ = writeln!(out, "board {:>2}: {tables}; {shown}", board.number);
    }
    out
}

/// A fouled board's results by group (Law 87B).
pub fn show_fouled(board: u32, response: &spb::MarkFouledBoardResponse) -> String {
    let mut out = String::new();
    let version = response.version.as_ref().map_or(0, |v| v.version);
    let _ = writeln!(out, "board {board} (Law 87B), version {version}");
    let mut results: Vec<&spb::BoardResult> = response.board_results.iter().collect();
    results.sort_by_key(|r| r.form);
    for result in results {
        let key = result.key.clone().unwrap_or_default();
        let form = if result.form == 0 { "correct form".to_owned() } else { format!("changed form {}", result.form) };
        let ns = result.north_south.unwrap_or_default();
        let percentage = ns.percentage.map(|p| format!("{}%", hundredths(i64::from(p.basis_points))));
        let imps = ns.imps.map(|i| format!("{} IMPs", hundredths(i.hundredths)));
        let _ = writeln!(
            out,
            "  {form:<16} {:>4} v {:<4} {}",
            key.north_south_contestant_id,
            key.east_west_contestant_id,
            percentage.or(imps).unwrap_or_default()
        );
    }
    out
}

fn hundredths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", value.unsigned_abs() / 100, value.unsigned_abs() % 100)
}

/// A session and its standings as a table.
pub fn show_session(session: &spb::Session, standings: &spb::GetStandingsResponse) -> String {
    let mut out = String::new();
    let method = spb::ScoringMethod::try_from(session.scoring_method).unwrap_or_default();
    let _ = writeln!(
        out,
        "{} ({}, {} boards, {} contestants, version {}{})",
        session.name,
        match method {
            spb::ScoringMethod::Matchpoints => "matchpoints",
            spb::ScoringMethod::CrossImps => "cross-IMPs",
            spb::ScoringMethod::ButlerImps => "Butler IMPs",
            spb::ScoringMethod::TeamImps => "team IMPs",
            spb::ScoringMethod::TotalPoints => "total points",
            spb::ScoringMethod::Unspecified => "?",
        },
        session.boards.len(),
        session.contestants.len(),
        standings.version,
        if session.status == spb::SessionStatus::Published as i32 { ", published" } else { "" }
    );
    let _ = writeln!(out, "{:>5}  {:<24} {:>10} {:>7}", "rank", "contestant", "score", "boards");
    for standing in &standings.standings {
        let name = session
            .contestants
            .iter()
            .find(|c| c.contestant_id == standing.contestant_id)
            .map_or(standing.contestant_id.clone(), |c| format!("{} {}", c.contestant_id, c.name));
        let score = standing.score.unwrap_or_default();
        let value = match method {
            spb::ScoringMethod::Matchpoints => {
                score.percentage.map(|p| format!("{}%", hundredths(i64::from(p.basis_points)))).unwrap_or_default()
            }
            spb::ScoringMethod::CrossImps | spb::ScoringMethod::ButlerImps | spb::ScoringMethod::TeamImps => {
                score.imps.map(|i| hundredths(i.hundredths)).unwrap_or_default()
            }
            _ => score.points.map(|p| hundredths(p.hundredths)).unwrap_or_default(),
        };
        let rank = if standing.tied { format!("{}=", standing.rank) } else { standing.rank.to_string() };
        let _ = writeln!(out, "{rank:>5}  {name:<24} {value:>10} {:>7}", standing.boards_played);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn entry(side: pb::Side, line: spb::ScoreLine, points: u32, game: u32, struck: bool) -> spb::ScoreEntry {
        spb::ScoreEntry {
            side: side as i32,
            line: line as i32,
            points,
            game_number: if line == spb::ScoreLine::Below { game } else { 0 },
            struck,
            ..Default::default()
        }
    }

    #[test]
    fn the_movement_is_shown_board_by_board() {
        assert_eq!(parse_boards("1-3").unwrap(), 1..=3);
        assert_eq!(parse_boards("7").unwrap(), 7..=7);
        assert!(parse_boards("0-2").is_err() && parse_boards("3-1").is_err() && parse_boards("x").is_err());
        let session = spb::Session {
            boards: (1..=2).map(|number| spb::Board { number, released: number == 2, ..Default::default() }).collect(),
            movement: vec![spb::TableAssignment {
                table_id: "t1".into(),
                board_number: 1,
                north_south_contestant_id: "1".into(),
                east_west_contestant_id: "2".into(),
            }],
            ..Default::default()
        };
        assert_eq!(
            show_movement(&session),
            "board  1: t1 (1 v 2); hidden until played everywhere\nboard  2: no table yet; released\n"
        );
    }

    #[test]
    fn the_pad_is_drawn_we_and_they_above_and_below_the_line() {
        use pb::Side::{EastWest as Ew, NorthSouth as Ns};
        use spb::ScoreLine::{Above, Below};
        let pad = spb::Scorepad {
            scorepad_id: "p".into(),
            kind: pb::TableKind::Rubber as i32,
            status: spb::ScorepadStatus::Finished as i32,
            entries: vec![
                entry(Ns, Below, 90, 1, false),
                entry(Ns, Above, 30, 0, false),
                entry(Ew, Below, 60, 1, false),
                entry(Ew, Below, 40, 1, false),
                entry(Ns, Below, 120, 2, false),
                entry(Ns, Below, 100, 3, false),
                entry(Ns, Above, 500, 0, false),
                entry(Ew, Above, 50, 0, true),
            ],
            north_south: Some(spb::SideScore { total: 840, games_won: 2, ..Default::default() }),
            east_west: Some(spb::SideScore { total: 100, games_won: 1, ..Default::default() }),
            games: vec![spb::GameRecord::default(); 3],
            net: Some(spb::NetScore { winner: Ns as i32, margin: 740, rounded_margin: 740 }),
            ..Default::default()
        };
        let drawn = draw_pad(&pad, WeSide::Ns);
        let lines: Vec<&str> = drawn.lines().collect();
        // Premiums above the line, the latest furthest from it; struck ones crossed out.
        assert_eq!(lines[3], "           500 |               ");
        assert_eq!(lines[4], "            30 | ~50~          ");
        assert_eq!(lines[5], "===============+===============");
        // Below: game 1 (90 | 60, 40), a line, game 2, a line, game 3, a line.
        assert_eq!(lines[6], "            90 | 60            ");
        assert_eq!(lines[7], "               | 40            ");
        assert_eq!(lines[8], "---------------+---------------");
        assert_eq!(lines[9], "           120 |               ");
        assert!(drawn.contains("net: North-South by 740"), "{drawn}");
        assert!(drawn.contains("~n~: struck"), "{drawn}");
        // From East-West's side the columns swap.
        let theirs = draw_pad(&pad, WeSide::Ew);
        assert!(theirs.lines().any(|l| l == "            60 | 90            "), "{theirs}");
    }

    #[test]
    fn the_pad_lists_each_deal_with_its_result_and_entries() {
        let contract = laws::DeclaredContract { contract: "1NT".parse().unwrap(), declarer: laws::Seat::South };
        let pad = spb::Scorepad {
            deals: vec![spb::RecordedDeal {
                deal_id: "d1".into(),
                deal_number: 1,
                result: Some(pb::DealResult {
                    outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                        contract: Some(contract.into()),
                        tricks: 7,
                    })),
                    honors: vec![],
                }),
                source: spb::ResultSource::Game as i32,
                ..Default::default()
            }],
            entries: vec![spb::ScoreEntry {
                deal_id: "d1".into(),
                item: spb::ScoreItem::TrickPoints as i32,
                ..entry(pb::Side::NorthSouth, spb::ScoreLine::Below, 40, 1, false)
            }],
            ..Default::default()
        };
        let drawn = draw_pad(&pad, WeSide::Ns);
        assert!(
            drawn.contains("deal 1: 1NT by South, 7 tricks, from the game\n  North-South     40 below  trick points\n"),
            "{drawn}"
        );
    }

    #[test]
    fn a_pad_is_created_for_a_rubber() {
        #[derive(Debug, clap::Parser)]
        struct Cli {
            #[command(subcommand)]
            command: Scorepad,
        }
        use clap::Parser;
        let cli = Cli::try_parse_from(["scorepad", "create", "--rubber", "r1", "--round-to-hundreds"]).unwrap();
        let Scorepad::Create { rubber, round_to_hundreds, chicago_swap_vulnerability } = cli.command else { panic!() };
        assert_eq!((rubber.as_str(), round_to_hundreds, chicago_swap_vulnerability), ("r1", true, false));
        assert!(Cli::try_parse_from(["scorepad", "create"]).is_err(), "the rubber is required");
    }

    #[test]
    fn law_87b_forms_are_given_as_ns_equals_form_and_shown_by_group() {
        assert_eq!(parse_form("9=1"), Ok(("9".to_owned(), 1)));
        assert!(parse_form("9").is_err());
        assert!(parse_form("=1").is_err());
        assert!(parse_form("9=x").is_err());
        let result = |ns: &str, form: u32, bp: i32| spb::BoardResult {
            key: Some(pb::BoardResultKey {
                north_south_contestant_id: ns.into(),
                east_west_contestant_id: "x".into(),
                ..Default::default()
            }),
            form,
            north_south: Some(spb::ScoreValues {
                percentage: Some(pb::Percentage { basis_points: bp }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let response = spb::MarkFouledBoardResponse {
            version: Some(spb::ScoreVersion { version: 7, ..Default::default() }),
            board_results: vec![result("9", 1, 10000), result("1", 0, 5000)],
        };
        let text = show_fouled(1, &response);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "board 1 (Law 87B), version 7");
        assert!(lines[1].contains("correct form") && lines[1].contains("50.00%"), "{text}");
        assert!(lines[2].contains("changed form 1") && lines[2].contains("100.00%"), "{text}");
    }

    #[test]
    fn a_contract_score_lists_its_parts() {
        let response = spb::ScoreDuplicateContractResponse {
            declarer_score: 420,
            north_south_score: -420,
            components: vec![
                spb::ScoreComponent { item: spb::ScoreItem::TrickPoints as i32, points: 120 },
                spb::ScoreComponent { item: spb::ScoreItem::GameBonus as i32, points: 300 },
            ],
        };
        let text = contract_score("4S", &response);
        assert!(text.contains("trick points") && text.contains("game bonus") && text.contains("-420"), "{text}");
    }
}
