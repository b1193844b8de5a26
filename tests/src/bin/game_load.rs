//! `game-load`: plays legal deals at many tables against a running server, with a fixed number of
//! actions in flight, and reports actions a second and latency percentiles beside a bare tonic
//! server (the standard health service, nothing else) measured the same way in the same run.
//!
//! ```text
//! cargo run --release --bin bridge-club &                  # or with DATABASE_URL and REDIS_URL
//! cargo run --release -p e2e --bin game-load -- --tables 64 --in-flight 64 --seconds 20
//! ```
//!
//! Each table is a rubber the desk starts in the membership service (four registered players
//! seated by a partnership draw, with its scorepad), so every deal goes through the same checks
//! of its owners as a real one. A deal is recorded from the table device (the desk role), with
//! the hands entered: each player holds one whole suit, the dealer opens 1NT and the others pass,
//! and every trick is won by the opening leader, who leads his suit to the end. That is 57 actions
//! (the start, four calls, 52 cards), each one legal, each judged by the Laws, journaled, put in
//! live state and streamed; the finished deal's result goes to the pad through the outbox, and
//! the next deal starts at once, settled from the pad as it will stand once that result arrives
//! (deals are scored in order, Law 73).
//!
//! The token is minted with the server's local key file (`--key-file`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use api::common::v1 as pb;
use api::game::v1 as game;
use clap::Parser;
use e2e::lineup::Lineup;
use e2e::one_suit_deal;
use platform::auth::{Role, TokenIssuer, load_or_create_local_secret};
use tokio::sync::Mutex;

/// Plays deals at many tables and compares with a bare tonic server.
#[derive(Debug, Parser)]
#[command(name = "game-load", about)]
struct Args {
    /// The server.
    #[arg(long, env = "BRIDGE_SERVER", default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The server's local signing key.
    #[arg(long, default_value = "bridge-club.key")]
    key_file: std::path::PathBuf,
    /// Tables playing.
    #[arg(long, default_value_t = 64)]
    tables: usize,
    /// Actions in flight at most (each table has at most one).
    #[arg(long, default_value_t = 64)]
    in_flight: usize,
    /// How long each measurement runs.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// HTTP/2 connections each side's clients share: tables (and the baseline's workers) take
    /// them in turn. One is how a gateway reaches the service; as many as tables is one
    /// connection per table device.
    #[arg(long, default_value_t = 1)]
    connections: usize,
    /// Skip the bare tonic baseline.
    #[arg(long)]
    no_baseline: bool,
}

type GameClient = api::game::v1::game_service_client::GameServiceClient<platform::app::PeerChannel>;

/// Latencies of one measurement, in microseconds: of every request, and apart, of the calls and
/// cards (the live path), of those among them that move the deal to its next phase (the
/// auction's last pass, the last card: they also write the deal's row, and the last card what the
/// deal owes its pad), and of the deals' starts (which also ask the rubber's owners).
#[derive(Default)]
struct Measured {
    latencies: Vec<u32>,
    moves: Vec<u32>,
    phase_moves: Vec<u32>,
    starts: Vec<u32>,
    errors: u64,
    elapsed: Duration,
}

/// The line reporting `latencies` (sorted here): count or rate, then percentiles.
fn percentiles(name: &str, latencies: &mut [u32], amount: String) -> String {
    latencies.sort_unstable();
    let at = |q: f64| {
        let i = ((latencies.len() as f64 - 1.0) * q).round() as usize;
        f64::from(latencies.get(i).copied().unwrap_or(0)) / 1000.0
    };
    format!(
        "{name:<30} {amount:>9}  p50 {:>6.2} ms  p90 {:>6.2} ms  p99 {:>6.2} ms  max {:>7.2} ms",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    )
}

impl Measured {
    fn report(&mut self, name: &str) -> f64 {
        let rate = self.latencies.len() as f64 / self.elapsed.as_secs_f64();
        let errors = self.errors;
        println!("{}  errors {errors}", percentiles(name, &mut self.latencies, format!("{rate:.0}/s")));
        if !self.starts.is_empty() {
            let count = self.moves.len();
            println!("{}", percentiles("  of which calls and cards", &mut self.moves, format!("{count}")));
            let count = self.phase_moves.len();
            println!("{}", percentiles("    of which phase moves", &mut self.phase_moves, format!("{count}")));
            let count = self.starts.len();
            println!("{}", percentiles("  of which deals started", &mut self.starts, format!("{count}")));
        }
        rate
    }
}

/// One table's rubber and where its deal stands.
struct Table {
    lineup: Lineup,
    client: GameClient,
    version: u64,
    deal_number: u32,
    /// The next action of the deal in progress: 0 starts it, 1-4 are the calls, 5-56 the cards.
    step: usize,
    dealer: usize,
}

impl Table {
    /// Sends the table's next action; `Ok(false)` if a start was refused because an earlier
    /// result is still on its way to the pad (the table tries again).
    async fn act(&mut self) -> Result<bool, tonic::Status> {
        let key = uuid::Uuid::new_v4().to_string();
        let table_id = self.lineup.table_id.clone();
        let view = match self.step {
            0 => {
                let setup = game::DealSetup {
                    source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
                        rubber_id: self.lineup.rubber_id.clone(),
                        scorepad_id: self.lineup.scorepad_id.clone(),
                        deal_number: self.deal_number,
                        club_laws: false,
                    })),
                    kind: pb::TableKind::Rubber as i32,
                    mode: game::PlayMode::Recorded as i32,
                    ..Default::default()
                };
                let request = game::StartDealRequest {
                    table_id,
                    expected_version: self.version,
                    idempotency_key: key,
                    setup: Some(setup),
                    hands: Some(game::start_deal_request::Hands::DealPbn(one_suit_deal::HANDS.to_owned())),
                };
                match self.client.start_deal(request).await {
                    Ok(answer) => answer.into_inner().view,
                    Err(status)
                        if status.code() == tonic::Code::FailedPrecondition
                            && status.message().contains("still be on its way") =>
                    {
                        return Ok(false);
                    }
                    Err(status) => return Err(status),
                }
            }
            step => {
                Some(one_suit_deal::act(&mut self.client, &table_id, self.version, &key, self.dealer, step - 1).await?)
            }
        };
        let view = view.ok_or_else(|| tonic::Status::internal("an answer without the table"))?;
        self.version = view.version;
        if self.step == 0 {
            let dealer = view.setup.as_ref().map_or(0, |s| s.dealer);
            self.dealer = one_suit_deal::SEATS.iter().position(|s| *s as i32 == dealer).unwrap_or(0);
        }
        self.step += 1;
        if self.step == 1 + one_suit_deal::ACTIONS {
            self.step = 0;
            self.deal_number += 1;
        }
        Ok(true)
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let issuer = TokenIssuer::hs256(&load_or_create_local_secret(&args.key_file)?);
    let token = issuer.issue("game-load", &[Role::Desk], Duration::from_secs(24 * 3600))?;
    let channel = || -> anyhow::Result<platform::app::PeerChannel> {
        let channel = platform::client::channel(&args.server)?;
        let interceptor = platform::client::ClientInterceptor::with_token(&token)?;
        Ok(tonic::service::interceptor::InterceptedService::new(channel, interceptor))
    };
    let run = uuid::Uuid::new_v4().simple().to_string();

    println!("seating {} tables at {}", args.tables, args.server);
    let mut tables = Vec::with_capacity(args.tables);
    let mut desk = e2e::MembershipClient::new(channel()?);
    let mut pads = e2e::ScoringClient::new(channel()?);
    let connections = args.connections.max(1);
    let shared: Vec<_> = (0..connections).map(|_| channel()).collect::<anyhow::Result<_>>()?;
    for n in 0..args.tables {
        let lineup = Lineup::start(&mut desk, &mut pads, pb::TableKind::Rubber, &format!("{}-{n}", &run[..8])).await;
        tables.push(Arc::new(Mutex::new(Table {
            lineup,
            client: GameClient::new(shared[n % connections].clone()),
            version: 0,
            deal_number: 1,
            step: 0,
            dealer: 0,
        })));
    }

    let window = Duration::from_secs(args.seconds);
    println!(
        "{} tables, {} actions in flight, {} connection(s) a side, {} s each",
        args.tables, args.in_flight, connections, args.seconds
    );
    let baseline = if args.no_baseline { None } else { Some(bare_tonic(args.in_flight, connections, window).await?) };
    let cpu_before = own_cpu_seconds();
    let mut game = play(&tables, args.in_flight, window).await;
    let cpu = own_cpu_seconds().zip(cpu_before).map(|(after, before)| after - before);
    println!();
    let bare = baseline.map(|mut b| b.report("bare tonic (health check)"));
    let actions = game.latencies.len();
    let ours = game.report("game actions (start/call/card)");
    if let Some(bare) = bare {
        println!("game actions: {:.1}% of bare tonic's rate", 100.0 * ours / bare);
    }
    // What the load itself costs the machine: on a machine shared with the server, Postgres and
    // Redis, it bounds the rate as they do (deploy/bench-game.sh adds them up).
    if let Some(cpu) = cpu.filter(|_| actions > 0) {
        println!("load generator CPU per game action: {:.3} ms", cpu * 1000.0 / actions as f64);
    }
    Ok(())
}

/// This process's CPU time (user and system) so far, in seconds, where Linux reports it.
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces, within parentheses): utime and
    // stime are the 12th and 13th, in clock ticks.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let per_second: f64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok()?.trim().parse().ok())?;
    Some(ticks / per_second)
}

/// Each of `in_flight` workers takes the next table that is free and sends its next action.
async fn play(tables: &[Arc<Mutex<Table>>], in_flight: usize, window: Duration) -> Measured {
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let workers: Vec<_> = (0..in_flight)
        .map(|w| {
            // Worker w drives tables w, w + in_flight, ...: each table has one action in flight.
            let mine: Vec<_> = tables.iter().skip(w).step_by(in_flight).cloned().collect();
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut measured = Measured::default();
                let mut turn = 0;
                while !stop.load(Ordering::Relaxed) && !mine.is_empty() {
                    let table = &mine[turn % mine.len()];
                    turn += 1;
                    let mut table = table.lock().await;
                    let (sent, step) = (Instant::now(), table.step);
                    match table.act().await {
                        Ok(true) => {
                            let took = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                            measured.latencies.push(took);
                            match step {
                                0 => measured.starts.push(took),
                                // The auction's last pass and the deal's last card.
                                4 | 56 => {
                                    measured.moves.push(took);
                                    measured.phase_moves.push(took);
                                }
                                _ => measured.moves.push(took),
                            }
                        }
                        // The pad is still recording the deal before; this table waits its turn.
                        Ok(false) => tokio::time::sleep(Duration::from_millis(2)).await,
                        Err(status) => {
                            measured.errors += 1;
                            if measured.errors <= 3 {
                                eprintln!("table {}: {:?} {}", table.lineup.table_id, status.code(), status.message());
                            }
                            // Read the table again before going on.
                            resync(&mut table).await;
                        }
                    }
                }
                measured
            })
        })
        .collect();
    tokio::time::sleep(window).await;
    stop.store(true, Ordering::Relaxed);
    let mut total = Measured { elapsed: started.elapsed(), ..Default::default() };
    for worker in workers {
        if let Ok(measured) = worker.await {
            total.latencies.extend(measured.latencies);
            total.moves.extend(measured.moves);
            total.phase_moves.extend(measured.phase_moves);
            total.starts.extend(measured.starts);
            total.errors += measured.errors;
        }
    }
    total
}

/// After a refusal, takes the table's version and step from the server (or starts over: a
/// start on a stale version is refused and comes back here).
async fn resync(table: &mut Table) {
    table.step = 0;
    let request = game::GetTableStateRequest { table_id: table.lineup.table_id.clone() };
    let Ok(answer) = table.client.get_table_state(request).await else { return };
    let Some(view) = answer.into_inner().view else { return };
    table.version = view.version;
    let over = view.phase != game::DealPhase::Auction as i32 && view.phase != game::DealPhase::Play as i32;
    if over || view.deal_id.is_empty() {
        table.step = 0;
    } else {
        let cards: usize = view.tricks.iter().map(|t| t.cards.len()).sum();
        table.step = 1 + view.auction.len() + cards;
    }
}

/// The same closed loop against a bare tonic server on loopback, over the same number of
/// connections: the standard health service, no auth, no tracing, nothing stored.
async fn bare_tonic(in_flight: usize, connections: usize, window: Duration) -> anyhow::Result<Measured> {
    let (_, health) = tonic_health::server::health_reporter();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    // As the platform's server does: a response is several small writes, which Nagle's
    // algorithm would otherwise hold until the client's delayed ACK.
    let incoming = tokio_stream::StreamExt::map(tokio_stream::wrappers::TcpListenerStream::new(listener), |stream| {
        if let Ok(stream) = &stream {
            let _ = stream.set_nodelay(true);
        }
        stream
    });
    let server = tokio::spawn(tonic::transport::Server::builder().add_service(health).serve_with_incoming(incoming));
    let channels: Vec<_> =
        (0..connections).map(|_| platform::client::channel(&format!("http://{address}"))).collect::<Result<_, _>>()?;
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let workers: Vec<_> = (0..in_flight)
        .map(|w| {
            let mut client = tonic_health::pb::health_client::HealthClient::new(channels[w % connections].clone());
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut measured = Measured::default();
                while !stop.load(Ordering::Relaxed) {
                    let sent = Instant::now();
                    match client.check(tonic_health::pb::HealthCheckRequest::default()).await {
                        Ok(_) => measured.latencies.push(sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32),
                        Err(_) => measured.errors += 1,
                    }
                }
                measured
            })
        })
        .collect();
    tokio::time::sleep(window).await;
    stop.store(true, Ordering::Relaxed);
    let mut total = Measured { elapsed: started.elapsed(), ..Default::default() };
    for worker in workers {
        if let Ok(measured) = worker.await {
            total.latencies.extend(measured.latencies);
            total.errors += measured.errors;
        }
    }
    server.abort();
    Ok(total)
}
