//! `--mode writes`: what one write to a duplicate session costs as the session grows, and how
//! soon a ruling shows in the standings, in one run.
//!
//! - **Writes by session size.** For each size (100, 1,000, 2,500 and 5,000 results unless
//!   `--sizes` says otherwise) a session of sections of ten tables, each section its own twenty
//!   pairs and ten boards (a congress session in sections), is filled with that many results;
//!   then one more section's hundred results are recorded one at a time and each is timed. The
//!   boards written to hold the same one to ten results at every size, so any difference is the
//!   cost of the session's size. The first size is the baseline, measured after an unreported
//!   pass at that size that warms the server up. With `--analyze-database`, the planner
//!   statistics are refreshed after each fill, as autovacuum keeps them in a running club.
//! - **A ruling on a big board.** A session of one board played at `--board-tables` tables
//!   (1,000 unless told) is filled; then an adjusted score (as the appeals service sends it,
//!   `service:appeals`) changes one table's result, and the time from the request to
//!   GetStandings showing the version it made is measured, `--rulings` times.

use std::time::{Duration, Instant};

use anyhow::Context;
use api::common::v1 as pb;
use api::scoring::v1 as spb;

use crate::{Client, Lcg, result};

/// Tables a section plays at; boards a section plays.
const TABLES: u32 = 10;
const BOARDS: u32 = 10;

/// What the writes mode measures.
pub struct Plan {
    /// The session sizes, in results.
    pub sizes: Vec<u32>,
    /// Tables on the board a ruling changes.
    pub board_tables: u32,
    /// How many rulings are timed.
    pub rulings: u32,
    /// The server's database, to refresh its planner statistics after each fill.
    pub analyze: Option<sea_orm::DatabaseConnection>,
}

/// Refreshes the planner statistics of the scoring tables, if the plan says where (see
/// `--analyze-database`), and says so.
async fn analyze(plan: &Plan) -> anyhow::Result<&'static str> {
    use sea_orm::ConnectionTrait;
    let Some(db) = &plan.analyze else { return Ok("") };
    for table in ["scoring_sessions", "scoring_board_results", "scoring_session_standings", "scoring_score_versions"] {
        db.execute_unprepared(&format!("ANALYZE {table}")).await.with_context(|| format!("analyzing {table}"))?;
    }
    Ok("; statistics refreshed")
}

fn pair_session(name: &str, pairs: u32, boards: u32) -> spb::CreateSessionRequest {
    spb::CreateSessionRequest {
        name: name.into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=boards).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: (1..=pairs).map(|n| spb::Contestant { name: format!("pair {n}"), ..Default::default() }).collect(),
    }
}

/// Records section `section`'s result on its board `board` (0-based) at table `table`: North-South
/// pairs stay, East-West pairs move a table a round.
async fn record_in_section(
    client: &mut Client,
    session_id: &str,
    section: u32,
    board: u32,
    table: u32,
    rng: &mut Lcg,
) -> anyhow::Result<()> {
    let pair = |n: u32| (20 * section + n).to_string();
    let board_number = BOARDS * section + board + 1;
    record(
        client,
        session_id,
        board_number,
        pair(2 * table + 1),
        pair(2 * ((table + board) % TABLES) + 2),
        result(rng)?,
    )
    .await
}

async fn record(
    client: &mut Client,
    session_id: &str,
    board_number: u32,
    ns: String,
    ew: String,
    result: pb::DealResult,
) -> anyhow::Result<()> {
    client
        .record_board_result(spb::RecordBoardResultRequest {
            key: Some(pb::BoardResultKey {
                session_id: session_id.to_owned(),
                board_number,
                north_south_contestant_id: ns.clone(),
                east_west_contestant_id: ew,
            }),
            deal_id: format!("{session_id}-{board_number}-{ns}"),
            result: Some(result),
            source: spb::ResultSource::Game as i32,
            hands: None,
        })
        .await?;
    Ok(())
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |p: f64| times.get(((times.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default();
    let mean = times.iter().sum::<Duration>().checked_div(times.len() as u32).unwrap_or_default();
    format!(
        "n {}  mean {:.1}  p50 {:.1}  p95 {:.1}  max {:.1} ms",
        times.len(),
        ms(mean),
        ms(at(0.5)),
        ms(at(0.95)),
        ms(times.last().copied().unwrap_or_default())
    )
}

/// Runs the plan: `client` records as the admin, `appeals` applies adjusted scores as the
/// appeals service.
pub async fn run(mut client: Client, mut appeals: Client, plan: &Plan) -> anyhow::Result<()> {
    let mut rng = Lcg(7);
    let mut baseline = None;
    // A first pass at the first size, not reported, so that the baseline does not carry the
    // costs of a fresh server (connections opened, statements prepared).
    let first = plan.sizes.first().copied().into_iter();
    for (pass, size) in first.chain(plan.sizes.iter().copied()).enumerate() {
        let sections = size.div_ceil(TABLES * BOARDS);
        let session = client
            .create_session(pair_session("writes", 20 * (sections + 1), BOARDS * (sections + 1)))
            .await?
            .into_inner()
            .session
            .context("no session")?;
        let filling = Instant::now();
        let mut filled = 0;
        'fill: for section in 0..sections {
            for board in 0..BOARDS {
                for table in 0..TABLES {
                    if filled == size {
                        break 'fill;
                    }
                    record_in_section(&mut client, &session.session_id, section, board, table, &mut rng).await?;
                    filled += 1;
                }
            }
        }
        let filling = filling.elapsed();
        let analyzed = analyze(plan).await?;
        let mut times = Vec::new();
        for board in 0..BOARDS {
            for table in 0..TABLES {
                let begun = Instant::now();
                record_in_section(&mut client, &session.session_id, sections, board, table, &mut rng).await?;
                times.push(begun.elapsed());
            }
        }
        if pass == 0 {
            continue;
        }
        let mean = times.iter().sum::<Duration>().as_secs_f64() / times.len().max(1) as f64;
        let base = *baseline.get_or_insert(mean);
        println!(
            "writes into a session of {filled} results ({} pairs, {} boards; filled in {:.1}s{analyzed}): {}  ({:.2}x the \
             {} baseline)",
            20 * (sections + 1),
            BOARDS * (sections + 1),
            filling.as_secs_f64(),
            summary(times),
            mean / base,
            plan.sizes.first().copied().unwrap_or(0),
        );
    }
    ruling(&mut client, &mut appeals, plan, &mut rng).await
}

/// A board of `plan.board_tables` results, then adjusted scores on one of its tables, each
/// timed until GetStandings reflects it.
async fn ruling(client: &mut Client, appeals: &mut Client, plan: &Plan, rng: &mut Lcg) -> anyhow::Result<()> {
    let tables = plan.board_tables;
    let session = client
        .create_session(pair_session("ruling", 2 * tables, 1))
        .await?
        .into_inner()
        .session
        .context("no session")?;
    let filling = Instant::now();
    for table in 0..tables {
        record(client, &session.session_id, 1, (2 * table + 1).to_string(), (2 * table + 2).to_string(), result(rng)?)
            .await?;
    }
    let filling = filling.elapsed();
    let analyzed = analyze(plan).await?;
    let key = pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: 1,
        north_south_contestant_id: (tables + 1).to_string(),
        east_west_contestant_id: (tables + 2).to_string(),
    };
    let (mut times, mut applied) = (Vec::new(), Vec::new());
    for n in 0..plan.rulings {
        let begun = Instant::now();
        let made = appeals
            .apply_adjustment(spb::ApplyAdjustmentRequest {
                ruling_id: format!("bench-{}-{n}", session.session_id),
                appeal_id: String::new(),
                target: Some(pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key.clone())) }),
                change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
                    kind: Some(pb::adjustment::Kind::Assigned(pb::AssignedScore { result: Some(result(rng)?) })),
                })),
                reason: "bench".into(),
                law: None,
            })
            .await?
            .into_inner()
            .version
            .context("no version")?
            .version;
        applied.push(begun.elapsed());
        loop {
            let standings = client
                .get_standings(spb::GetStandingsRequest { session_id: session.session_id.clone() })
                .await?
                .into_inner();
            if standings.version >= made {
                break;
            }
        }
        times.push(begun.elapsed());
    }
    println!(
        "a ruling on one table of a board of {tables} results (filled in {:.1}s{analyzed}), until GetStandings shows it: \
         {}",
        filling.as_secs_f64(),
        summary(times)
    );
    println!("  of which ApplyAdjustment's answer: {}", summary(applied));
    Ok(())
}
