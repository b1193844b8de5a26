//! `scoring-load`: records results against a running scoring service at a sustained rate and
//! reports the rate achieved and the latencies, as the game service and the desk would load it.
//!
//! ```text
//! scoring-load --server http://127.0.0.1:50051 --mode pads --rate 200 --seconds 30 --concurrency 16
//! scoring-load --mode sessions --rate 100 --seconds 30 --pairs 40 --boards 27
//! scoring-load --mode writes --sizes 100,1000,2500,5000 --board-tables 1000
//! ```
//! `pads`: rubber scorepads, each recording its next deal (RecordDealResult), a new pad when one
//! finishes; each worker's pads are those of the rubbers its own table of four plays one after
//! another in the membership service (a scorepad is kept only for a rubber membership started). `sessions`: duplicate sessions, each recording its tables' results board by board
//! (RecordBoardResult), every result rescoring its board. `writes`: the cost of one write by the size
//! of the session, and a ruling's latency to the standings ([`writes`]). The token is `--token` (or
//! `BRIDGE_TOKEN`), or one minted with the local key file the server uses.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use api::common::v1 as pb;
use api::membership::v1 as mpb;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use api::scoring::v1 as spb;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use clap::{Parser, ValueEnum};
use platform::auth::{Role, TokenIssuer, load_or_create_local_secret};
use tokio::sync::{Mutex, mpsc};

mod writes;

type Client = ScoringServiceClient<platform::app::PeerChannel>;

/// What to load.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    /// Rubber scorepads: RecordDealResult.
    Pads,
    /// Duplicate sessions: RecordBoardResult.
    Sessions,
    /// One write's cost by session size, and a ruling's latency (one client, no rate).
    Writes,
}

/// Records results at a sustained rate and reports throughput and latency.
#[derive(Debug, Parser)]
#[command(name = "scoring-load", about)]
struct Args {
    /// The server.
    #[arg(long, env = "BRIDGE_SERVER", default_value = "http://127.0.0.1:50051")]
    server: String,
    /// A token with the admin or desk role; without one, one is minted with --key-file.
    #[arg(long, env = "BRIDGE_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// The server's local signing key.
    #[arg(long, default_value = "bridge-club.key")]
    key_file: std::path::PathBuf,
    /// What to record.
    #[arg(long, value_enum, default_value = "pads")]
    mode: Mode,
    /// Results a second to offer.
    #[arg(long, default_value_t = 100)]
    rate: u32,
    /// How long to run.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Requests in flight at most (one pad or session per worker).
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Sessions mode: pairs per session (half sit North-South).
    #[arg(long, default_value_t = 40)]
    pairs: u32,
    /// Sessions mode: boards per session.
    #[arg(long, default_value_t = 27)]
    boards: u32,
    /// Writes mode: the session sizes, in results; the first is the baseline.
    #[arg(long, value_delimiter = ',', default_value = "100,1000,2500,5000")]
    sizes: Vec<u32>,
    /// Writes mode: tables on the board a ruling changes.
    #[arg(long, default_value_t = 1000)]
    board_tables: u32,
    /// Writes mode: rulings timed.
    #[arg(long, default_value_t = 20)]
    rulings: u32,
    /// Writes mode: the server's database URL. When given, its planner statistics are refreshed
    /// (ANALYZE) after each session is filled, as autovacuum keeps them in a running club: a
    /// database made for the run has none until autovacuum's first pass (a minute or more), and
    /// until then Postgres may read a board's rows by scanning the whole session.
    #[arg(long)]
    analyze_database: Option<String>,
}

/// A fixed pseudo-random sequence (64-bit LCG), so every run offers the same work.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(bound)) as u32
    }
}

const SEATS: [pb::Seat; 4] = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];

fn result(rng: &mut Lcg) -> anyhow::Result<pb::DealResult> {
    const CONTRACTS: [&str; 8] = ["4S", "3NT", "2H", "4HX", "6S", "1NT", "5DX", "3C"];
    let contract: laws::Contract = CONTRACTS[rng.next(8) as usize].parse()?;
    let needed = u32::from(contract.tricks_required());
    Ok(pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(pb::DeclaredContract {
                contract: Some(contract.into()),
                declarer: SEATS[rng.next(4) as usize] as i32,
            }),
            tricks: (needed + rng.next(5)).saturating_sub(2).min(13),
        })),
        honors: Vec::new(),
    })
}

/// One worker's pad: its id and the next deal to record.
struct PadState {
    scorepad_id: String,
    next: u32,
}

type Members = MembershipServiceClient<platform::app::PeerChannel>;

/// One worker's table in the membership service: its four players play one rubber after another,
/// since a scorepad is kept only for a rubber membership started (Law 3).
struct TableState {
    table_id: String,
    rubber_id: Option<String>,
}

/// Registers four players for `worker`, brings them into the room and opens a table for them.
async fn new_table(members: &mut Members, worker: usize) -> anyhow::Result<TableState> {
    let tag = uuid::Uuid::new_v4().simple().to_string();
    let players: Vec<String> = (0..4).map(|i| format!("load-{worker}-{i}-{tag}")).collect();
    for id in &players {
        members
            .register_player(mpb::RegisterPlayerRequest {
                player_id: id.clone(),
                name: id.clone(),
                member_number: id.clone(),
                contact: None,
                idempotency_key: String::new(),
            })
            .await?;
        members.arrive_in_room(mpb::ArriveInRoomRequest { player_id: id.clone() }).await?;
    }
    let table = members
        .open_table(mpb::OpenTableRequest {
            name: format!("load {worker}"),
            kind: pb::TableKind::Rubber as i32,
            options: None,
            applicant_player_ids: players,
            idempotency_key: String::new(),
            returning_fourth_player_ids: Vec::new(),
            precedence_drawings: Vec::new(),
            server_draw: true,
        })
        .await?
        .into_inner()
        .table
        .context("no table")?;
    Ok(TableState { table_id: table.table_id, rubber_id: None })
}

/// Ends the table's rubber, if one goes on, starts the next (a server draw for partners) and
/// opens its pad.
async fn new_pad(client: &mut Client, members: &mut Members, table: &mut TableState) -> anyhow::Result<PadState> {
    if let Some(rubber_id) = table.rubber_id.take() {
        members
            .end_rubber(mpb::EndRubberRequest {
                table_id: table.table_id.clone(),
                rubber_id,
                status: mpb::RubberStatus::Finished as i32,
            })
            .await?;
    }
    let rubber = members
        .start_rubber(mpb::StartRubberRequest {
            table_id: table.table_id.clone(),
            server_draw: true,
            ..Default::default()
        })
        .await?
        .into_inner()
        .rubber
        .context("no rubber")?;
    table.rubber_id = Some(rubber.rubber_id.clone());
    let pad = client
        .create_scorepad(spb::CreateScorepadRequest { rubber_id: rubber.rubber_id, ..Default::default() })
        .await?
        .into_inner()
        .scorepad
        .context("no pad")?;
    Ok(PadState { scorepad_id: pad.scorepad_id, next: 1 })
}

/// One worker's session: its id and the next (board, table) to record.
struct SessionState {
    session_id: String,
    board: u32,
    table: u32,
}

async fn new_session(client: &mut Client, pairs: u32, boards: u32) -> anyhow::Result<SessionState> {
    let session = client
        .create_session(spb::CreateSessionRequest {
            name: "load".into(),
            contestant_kind: spb::ContestantKind::Pairs as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: (1..=boards).map(|number| spb::Board { number, ..Default::default() }).collect(),
            contestants: (1..=pairs)
                .map(|n| spb::Contestant { name: format!("pair {n}"), ..Default::default() })
                .collect(),
        })
        .await?
        .into_inner()
        .session
        .context("no session")?;
    Ok(SessionState { session_id: session.session_id, board: 1, table: 0 })
}

/// The latencies measured and the errors seen.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

/// A token for `subject` signed with the server's local key.
fn mint(args: &Args, subject: &str, role: Role) -> anyhow::Result<String> {
    // Only an existing key: a new one would sign tokens the server refuses.
    if !args.key_file.exists() {
        bail!(
            "no --token and no key at {}: pass --token, or --key-file with the server's local key",
            args.key_file.display()
        );
    }
    let secret = load_or_create_local_secret(&args.key_file)
        .with_context(|| format!("reading the key at {}", args.key_file.display()))?;
    Ok(TokenIssuer::hs256(&secret).issue(subject, &[role], Duration::from_secs(3600))?)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.rate == 0 || args.concurrency == 0 {
        bail!("--rate and --concurrency must be positive");
    }
    let token = match &args.token {
        Some(token) => token.clone(),
        None => mint(&args, "scoring-load", Role::Admin)?,
    };
    let channel = platform::client::channel(&args.server)?;
    let interceptor = platform::client::ClientInterceptor::with_token(&token).map_err(|e| anyhow::anyhow!("{e}"))?;
    let channel = tonic::service::interceptor::InterceptedService::new(channel, interceptor);
    let client = ScoringServiceClient::new(channel.clone());
    let members = MembershipServiceClient::new(channel);
    if let Mode::Writes = args.mode {
        // Adjusted scores are taken only from the appeals service.
        let appeals_token = mint(&args, "service:appeals", Role::Service)?;
        let appeals_channel = platform::client::channel(&args.server)?;
        let interceptor =
            platform::client::ClientInterceptor::with_token(&appeals_token).map_err(|e| anyhow::anyhow!("{e}"))?;
        let appeals = ScoringServiceClient::new(tonic::service::interceptor::InterceptedService::new(
            appeals_channel,
            interceptor,
        ));
        let analyze = match &args.analyze_database {
            Some(url) => Some(sea_orm::Database::connect(url.as_str()).await.context("connecting to the database")?),
            None => None,
        };
        let plan =
            writes::Plan { sizes: args.sizes.clone(), board_tables: args.board_tables, rulings: args.rulings, analyze };
        return writes::run(client, appeals, &plan).await;
    }

    // A ticket a tick, at the rate offered; workers take them. A full queue drops tickets, so a
    // server that cannot keep up shows as a lower achieved rate, not as a growing backlog.
    let (tickets, queue) = mpsc::channel::<Instant>(args.concurrency * 2);
    let queue = Arc::new(Mutex::new(queue));
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let offered = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let ticker = {
        let offered = offered.clone();
        let period = Duration::from_secs_f64(1.0 / f64::from(args.rate));
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(period);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
            while Instant::now() < deadline {
                interval.tick().await;
                offered.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let _ = tickets.try_send(Instant::now());
            }
        })
    };

    let started = Instant::now();
    let mut workers = Vec::new();
    for worker in 0..args.concurrency {
        let mut client = client.clone();
        let mut members = members.clone();
        let queue = queue.clone();
        let (mode, pairs, boards) = (args.mode, args.pairs, args.boards);
        workers.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut rng = Lcg(worker as u64 + 1);
            let mut table = None;
            let mut pad = None;
            let mut session = None;
            loop {
                let ticket = { queue.lock().await.recv().await };
                let Some(_) = ticket else { break };
                let begun = Instant::now();
                let outcome: anyhow::Result<()> = async {
                    match mode {
                        Mode::Writes => {}
                        Mode::Pads => {
                            if pad.is_none() {
                                if table.is_none() {
                                    table = Some(new_table(&mut members, worker).await?);
                                }
                                let table = table.as_mut().context("table")?;
                                pad = Some(new_pad(&mut client, &mut members, table).await?);
                            }
                            let state = pad.as_mut().context("pad")?;
                            let response = client
                                .record_deal_result(spb::RecordDealResultRequest {
                                    scorepad_id: state.scorepad_id.clone(),
                                    deal_id: format!("{}-{}", state.scorepad_id, state.next),
                                    deal_number: state.next,
                                    result: Some(result(&mut rng)?),
                                    source: spb::ResultSource::Game as i32,
                                    hands: None,
                                })
                                .await?
                                .into_inner();
                            state.next += 1;
                            if response.scorepad.is_some_and(|p| p.next_deal.is_none()) {
                                pad = None;
                            }
                        }
                        Mode::Sessions => {
                            if session.is_none() {
                                session = Some(new_session(&mut client, pairs, boards).await?);
                            }
                            let state = session.as_mut().context("session")?;
                            let tables = pairs / 2;
                            let (board, table) = (state.board, state.table);
                            client
                                .record_board_result(spb::RecordBoardResultRequest {
                                    key: Some(pb::BoardResultKey {
                                        session_id: state.session_id.clone(),
                                        board_number: board,
                                        north_south_contestant_id: (2 * table + 1).to_string(),
                                        east_west_contestant_id: (2 * ((table + board) % tables) + 2).to_string(),
                                    }),
                                    deal_id: format!("{}-{board}-{table}", state.session_id),
                                    result: Some(result(&mut rng)?),
                                    source: spb::ResultSource::Game as i32,
                                    hands: None,
                                })
                                .await?;
                            state.table += 1;
                            if state.table == tables {
                                state.table = 0;
                                state.board += 1;
                            }
                            if state.board > boards {
                                session = None;
                            }
                        }
                    }
                    Ok(())
                }
                .await;
                match outcome {
                    Ok(()) => tally.latencies.push(begun.elapsed()),
                    Err(error) => tally.errors.push(error.to_string()),
                }
            }
            tally
        }));
    }
    ticker.await?;
    // Let the workers finish what is queued, then stop them.
    drop(queue);
    let mut tally = Tally::default();
    for worker in workers {
        let mut part = worker.await?;
        tally.latencies.append(&mut part.latencies);
        tally.errors.append(&mut part.errors);
    }
    let elapsed = started.elapsed();
    tally.latencies.sort();
    let percentile = |p: f64| {
        let index = ((tally.latencies.len() as f64 - 1.0) * p).round() as usize;
        tally.latencies.get(index).copied().unwrap_or_default()
    };
    let done = tally.latencies.len();
    println!(
        "{:?}: offered {} at {}/s for {}s with {} workers; recorded {done} in {:.1}s = {:.1}/s; errors {}",
        args.mode,
        offered.load(std::sync::atomic::Ordering::Relaxed),
        args.rate,
        args.seconds,
        args.concurrency,
        elapsed.as_secs_f64(),
        done as f64 / elapsed.as_secs_f64(),
        tally.errors.len()
    );
    println!(
        "latency ms: p50 {:.1}  p95 {:.1}  p99 {:.1}  max {:.1}",
        percentile(0.50).as_secs_f64() * 1e3,
        percentile(0.95).as_secs_f64() * 1e3,
        percentile(0.99).as_secs_f64() * 1e3,
        tally.latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    if let Some(first) = tally.errors.first() {
        println!("first error: {first}");
    }
    Ok(())
}
