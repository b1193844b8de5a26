//! Dependencies failing under load, each a server of the test's own: Redis killed with SIGKILL
//! while commands and reads run (they go on from the journal, and Redis coming back, with what it
//! held before, is picked up), Postgres stopped (calls answer UNAVAILABLE at once and health says
//! NOT_SERVING until it is back, then SERVING by itself), and the embedded SQLite default under
//! eight concurrent writers (none refused). Every call answers within a second; nothing
//! acknowledged is lost.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::common::v1 as pb;
use api::game::v1 as game;
use api::membership::v1 as membership;
use api::scoring::v1 as scoring;
use e2e::postgres_server::PostgresServer;
use e2e::redis_server::RedisServer;
use e2e::{GameClient, MembershipClient, ScoringClient, TestApp, as_configured};
use platform::auth::Role;
use platform::live::{LiveStore, RedisStore};
use tokio::time::Instant;
use tonic::{Code, Status};
use tonic_health::pb::health_check_response::ServingStatus;

/// Every call must answer within this, whatever is down.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
/// How long a condition may take to come true before the test fails: a bound on a broken
/// platform, never something the test waits out.
const BOUND: Duration = Duration::from_secs(60);
/// Pause between a refused call and the same call again, so a writer does not spin.
const RETRY_PAUSE: Duration = Duration::from_millis(20);

const SERVICES: [&str; 4] = [
    "bridgeclub.membership.v1.MembershipService",
    "bridgeclub.game.v1.GameService",
    "bridgeclub.scoring.v1.ScoringService",
    "bridgeclub.appeals.v1.AppealsService",
];

/// Polls `condition` until it holds; fails the test, saying `what`, after [`BOUND`].
async fn eventually<F, Fut>(what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + BOUND;
    while !condition().await {
        assert!(Instant::now() < deadline, "never happened: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What one call answered, as a writer goes on from it.
enum Answer<T> {
    /// OK: acknowledged.
    Ok(T),
    /// UNAVAILABLE within the second: ask again.
    Again,
    /// Anything else: the contract is broken (recorded); the writer stops.
    Wrong,
}

/// What the writers saw: answers that kept the contract, and those that broke it.
#[derive(Default)]
struct Answers {
    ok: AtomicUsize,
    unavailable: AtomicUsize,
    slowest_ms: AtomicU64,
    /// Calls made and not answered yet.
    in_flight: AtomicUsize,
    /// While set, writers make no new calls.
    paused: AtomicBool,
    /// Too slow, or a code that is neither OK nor UNAVAILABLE.
    wrong: Mutex<Vec<String>>,
}

impl Answers {
    /// Makes `call` and checks its answer: OK or UNAVAILABLE, within [`ANSWER_WITHIN`] (a late OK
    /// is recorded as wrong, but still acknowledged: what was acknowledged counts).
    async fn call<T>(&self, what: &str, call: impl Future<Output = Result<tonic::Response<T>, Status>>) -> Answer<T> {
        while self.paused.load(Ordering::SeqCst) {
            tokio::time::sleep(RETRY_PAUSE).await;
        }
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let started = Instant::now();
        let answer = tokio::time::timeout(BOUND, call).await;
        let elapsed = started.elapsed();
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.slowest_ms.fetch_max(elapsed.as_millis() as u64, Ordering::SeqCst);
        if elapsed > ANSWER_WITHIN {
            self.wrong.lock().unwrap().push(format!("{what}: answered after {elapsed:?}"));
        }
        match answer {
            Ok(Ok(response)) => {
                self.ok.fetch_add(1, Ordering::SeqCst);
                Answer::Ok(response.into_inner())
            }
            Ok(Err(status)) if status.code() == Code::Unavailable => {
                self.unavailable.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(RETRY_PAUSE).await;
                Answer::Again
            }
            Ok(Err(status)) => {
                self.wrong.lock().unwrap().push(format!("{what}: {:?} {}", status.code(), status.message()));
                Answer::Wrong
            }
            Err(_) => {
                self.wrong.lock().unwrap().push(format!("{what}: no answer within {BOUND:?}"));
                Answer::Wrong
            }
        }
    }

    /// Holds the writers' next calls, and returns once none is in flight.
    async fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        eventually("the writers' calls answered", || async { self.in_flight.load(Ordering::SeqCst) == 0 }).await;
    }

    fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }

    fn ok(&self) -> usize {
        self.ok.load(Ordering::SeqCst)
    }

    /// Waits for `at_least` answers OK in all; fails at once if an answer broke the contract.
    async fn wait_for_ok(&self, at_least: usize, while_: &str) {
        eventually(&format!("{at_least} answers OK {while_}"), || async {
            self.assert_kept_the_contract();
            self.ok() >= at_least
        })
        .await;
    }

    fn assert_kept_the_contract(&self) {
        let wrong = self.wrong.lock().unwrap();
        assert!(wrong.is_empty(), "answers that broke the contract:\n{}", wrong.join("\n"));
    }

    fn figures(&self) -> String {
        format!(
            "{} OK, {} UNAVAILABLE, slowest {} ms",
            self.ok(),
            self.unavailable.load(Ordering::SeqCst),
            self.slowest_ms.load(Ordering::SeqCst)
        )
    }
}

/// Registers players one after another until `stop`, each with its idempotency key until it is
/// acknowledged, reading each back (through the live room) once registered; returns the players
/// acknowledged.
async fn registrar(
    mut desk: MembershipClient,
    tag: String,
    answers: Arc<Answers>,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let mut acknowledged = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let id = format!("fault-{tag}-{}", acknowledged.len());
        let request = membership::RegisterPlayerRequest {
            player_id: id.clone(),
            name: format!("Fault {tag} {}", acknowledged.len()),
            member_number: String::new(),
            contact: None,
            idempotency_key: format!("register-{id}"),
        };
        match answers.call("RegisterPlayer", desk.register_player(request.clone())).await {
            Answer::Ok(_) => acknowledged.push(id.clone()),
            Answer::Again => continue,
            Answer::Wrong => break,
        }
        // Read-your-write: a reader never sees the register older than what was acknowledged.
        let read = answers.call("GetPlayer", desk.get_player(membership::GetPlayerRequest { player_id: id.clone() }));
        match read.await {
            Answer::Ok(read) => assert_eq!(read.player.map(|p| p.player_id), Some(id)),
            Answer::Again => {}
            Answer::Wrong => break,
        }
    }
    acknowledged
}

/// Every player on the register.
async fn register(desk: &mut MembershipClient) -> Vec<String> {
    let mut players = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = membership::ListPlayersRequest {
            page: Some(pb::PageRequest { page_size: 500, page_token: page_token.clone() }),
            ..Default::default()
        };
        let page = desk.list_players(request).await.unwrap().into_inner();
        players.extend(page.players.into_iter().map(|p| p.player_id));
        match page.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
            Some(next) => page_token = next,
            None => return players,
        }
    }
}

fn pcall(call: &str) -> pb::Call {
    call.parse::<laws::Call>().unwrap().into()
}

/// Every bid from 1C to 7NT: an auction that goes on for 35 calls.
fn bids() -> Vec<String> {
    (1..=7).flat_map(|level| ["C", "D", "H", "S", "NT"].map(|strain| format!("{level}{strain}"))).collect()
}

/// Bids at `table_id` (North deals) until `stop` or the bids run out: each call made on the
/// version just read, with its idempotency key until it is acknowledged. Returns the calls
/// acknowledged, in order.
async fn bidder(
    (mut desk, mut arbiter): (GameClient, GameClient),
    table_id: String,
    answers: Arc<Answers>,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let seats = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];
    let mut acknowledged = Vec::new();
    for (i, bid) in bids().into_iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let key = uuid::Uuid::new_v4().to_string();
        loop {
            let read = game::GetTableStateRequest { table_id: table_id.clone() };
            let state = match answers.call("GetTableState", arbiter.get_table_state(read)).await {
                Answer::Ok(state) => state,
                Answer::Again => continue,
                Answer::Wrong => return acknowledged,
            };
            let request = game::MakeCallRequest {
                table_id: table_id.clone(),
                expected_version: state.view.unwrap().version,
                idempotency_key: key.clone(),
                seat: seats[i % 4] as i32,
                call: Some(pcall(&bid)),
                artificial: None,
            };
            match answers.call("MakeCall", desk.make_call(request)).await {
                Answer::Ok(_) => {
                    acknowledged.push(bid);
                    break;
                }
                Answer::Again => {}
                Answer::Wrong => return acknowledged,
            }
        }
    }
    acknowledged
}

/// Starts the first deal of a new rubber at a table of `app`'s, played at the table and recorded
/// by the desk; returns the table.
async fn rubber_deal(app: &TestApp) -> String {
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let setup = lineup.first_deal(game::PlayMode::Recorded, false);
    let request = game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: 0,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(setup),
        hands: None,
    };
    app.game("front-desk", &[Role::Desk]).start_deal(request).await.unwrap();
    lineup.table_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_killed_under_load_commands_and_reads_go_on_from_the_journal_and_its_return_is_picked_up() {
    // It keeps its data across the kill: when it is back it holds values the journal has passed.
    let mut redis = RedisServer::start_persistent().await;
    let app = TestApp::spawn_on_redis(&redis.url(), as_configured).await;
    let tables = [rubber_deal(&app).await, rubber_deal(&app).await];
    let answers = Arc::new(Answers::default());
    let stop = Arc::new(AtomicBool::new(false));
    let game_clients = || (app.game("front-desk", &[Role::Desk]), app.game("the-arbiter", &[Role::Arbiter]));
    let bidders: Vec<_> = tables
        .iter()
        .map(|table| tokio::spawn(bidder(game_clients(), table.clone(), answers.clone(), stop.clone())))
        .collect();
    let desk = app.membership("front-desk", &[Role::Desk]);
    let registrar = tokio::spawn(registrar(desk, "redis".into(), answers.clone(), stop.clone()));

    answers.wait_for_ok(20, "before Redis is killed").await;
    redis.stop().await;
    answers.wait_for_ok(answers.ok() + 30, "while Redis is away").await;

    // Back with what it held when it was killed: behind the journal, which went on meanwhile.
    answers.pause().await;
    redis.restart().await;
    let as_restarted = RedisStore::connect(&redis.url(), app.redis.prefix()).await.unwrap();
    let mut arbiter = app.game("the-arbiter", &[Role::Arbiter]);
    for table in &tables {
        let stored = as_restarted.get(&::game::engine::table_key(table)).await.unwrap().unwrap().version;
        let request = game::GetTableStateRequest { table_id: table.clone() };
        let journal = arbiter.get_table_state(request).await.unwrap().into_inner().view.unwrap().version;
        assert!(stored < journal, "Redis came back with table {table} at {stored}, behind the journal's {journal}");
    }
    answers.resume();
    // Picked up by itself: the services' own store reads Redis again.
    let live = &app.club().resources.live;
    eventually("the services' store reads Redis again", || async {
        live.get(&::game::engine::table_key(&tables[0])).await.is_ok()
    })
    .await;
    answers.wait_for_ok(answers.ok() + 30, "after Redis is back").await;
    stop.store(true, Ordering::SeqCst);
    let mut calls = Vec::new();
    for bidder in bidders {
        calls.push(bidder.await.unwrap());
    }
    let registered = registrar.await.unwrap();
    eprintln!("redis killed: {}", answers.figures());
    answers.assert_kept_the_contract();

    // Every acknowledged action is in the journal, once, in order; Redis has it too.
    for (table, calls) in tables.iter().zip(&calls) {
        let request = game::GetTableStateRequest { table_id: table.clone() };
        let view = arbiter.get_table_state(request).await.unwrap().into_inner().view.unwrap();
        let auction: Vec<_> = view.auction.iter().map(|entry| entry.call).collect();
        let expected: Vec<_> = calls.iter().map(|call| Some(pcall(call))).collect();
        assert_eq!(auction, expected, "table {table} holds exactly the calls acknowledged");
        let stored = live.get(&::game::engine::table_key(table)).await.unwrap().map(|v| v.version);
        assert_eq!(stored, Some(view.version), "Redis holds table {table} as the journal has it");
    }
    let mut on_register = register(&mut app.membership("front-desk", &[Role::Desk])).await;
    on_register.retain(|id| id.starts_with("fault-"));
    on_register.sort();
    let mut expected = registered;
    expected.sort();
    assert_eq!(on_register, expected, "the register holds exactly the registrations acknowledged");
}

/// The platform (`bridge-club`) on the database at `database_url` (the embedded SQLite default in
/// `dir` when `None`), without Redis; its key in `dir`.
async fn club_on(database_url: Option<String>, dir: &std::path::Path) -> club::Club {
    let mut config = platform::config::PlatformConfig {
        database_url,
        sqlite_path: dir.join("bridge-club.db"),
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        ..Default::default()
    };
    config.auth.local_key_file = dir.join("bridge-club.key");
    let settings = club::Settings { requests_per_minute: 0, ..Default::default() };
    club::Club::start(&config, &settings).await.unwrap_or_else(|e| panic!("bridge-club did not start: {e}"))
}

/// A channel to `club` presenting a token for `subject` with `roles`.
fn channel(club: &club::Club, subject: &str, roles: &[Role]) -> platform::app::PeerChannel {
    let issuer = club.resources.issuer.as_ref().unwrap();
    let token = issuer.issue(subject, roles, Duration::from_secs(3600)).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    tonic::service::interceptor::InterceptedService::new(
        platform::client::channel(&club.server.uri()).unwrap(),
        interceptor,
    )
}

/// Each service's health, as `grpc.health.v1` reports it.
async fn health(club: &club::Club) -> Vec<ServingStatus> {
    let mut client =
        tonic_health::pb::health_client::HealthClient::new(platform::client::channel(&club.server.uri()).unwrap());
    let mut statuses = Vec::new();
    for service in SERVICES {
        let request = tonic_health::pb::HealthCheckRequest { service: service.to_owned() };
        let status = client.check(request).await.unwrap().into_inner().status;
        statuses.push(ServingStatus::try_from(status).unwrap());
    }
    statuses
}

/// A directory of the test's own, removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!("bc_faults_{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Checks that `call` answers UNAVAILABLE within [`ANSWER_WITHIN`].
async fn unavailable_at_once<T: std::fmt::Debug>(what: &str, call: impl Future<Output = Result<T, Status>>) {
    let started = Instant::now();
    let answer = tokio::time::timeout(BOUND, call).await.unwrap_or_else(|_| panic!("{what}: no answer"));
    let elapsed = started.elapsed();
    match answer {
        Err(status) if status.code() == Code::Unavailable => {}
        other => panic!("{what} with the database away: {other:?}, not UNAVAILABLE"),
    }
    assert!(elapsed <= ANSWER_WITHIN, "{what} answered UNAVAILABLE only after {elapsed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_calls_answer_unavailable_at_once_and_health_follows_it() {
    let mut postgres = PostgresServer::start().await;
    let dir = TempDir::new();
    let club = club_on(Some(postgres.url()), &dir.0).await;
    assert_eq!(health(&club).await, [ServingStatus::Serving; 4]);
    let answers = Arc::new(Answers::default());
    let stop = Arc::new(AtomicBool::new(false));
    let desk = || MembershipClient::new(channel(&club, "front-desk", &[Role::Desk]));
    let registrars: Vec<_> =
        (0..4).map(|n| tokio::spawn(registrar(desk(), format!("pg{n}"), answers.clone(), stop.clone()))).collect();

    answers.wait_for_ok(20, "before Postgres stops").await;
    postgres.stop().await;
    eventually("every service NOT_SERVING while Postgres is away", || async {
        health(&club).await == [ServingStatus::NotServing; 4]
    })
    .await;
    // Commands and reads, of every service, answer UNAVAILABLE at once: the writers' own retries
    // keep the pool busy meanwhile.
    let mut members = desk();
    let mut tables = GameClient::new(channel(&club, "the-arbiter", &[Role::Arbiter]));
    let mut pads = ScoringClient::new(channel(&club, "front-desk", &[Role::Desk]));
    for n in 0..10 {
        let register = membership::RegisterPlayerRequest {
            player_id: format!("away-{n}"),
            name: format!("Away {n}"),
            idempotency_key: format!("away-{n}"),
            ..Default::default()
        };
        unavailable_at_once("RegisterPlayer", members.register_player(register)).await;
        let read = membership::GetPlayerRequest { player_id: "fault-pg0-0".into() };
        unavailable_at_once("GetPlayer", members.get_player(read)).await;
        let read = game::GetTableStateRequest { table_id: format!("table-{n}") };
        unavailable_at_once("GetTableState", tables.get_table_state(read)).await;
        let read = scoring::GetScorepadRequest { scorepad_id: format!("pad-{n}") };
        unavailable_at_once("GetScorepad", pads.get_scorepad(read)).await;
    }
    let refused = answers.unavailable.load(Ordering::SeqCst);

    postgres.restart().await;
    eventually("every service SERVING once Postgres is back", || async {
        health(&club).await == [ServingStatus::Serving; 4]
    })
    .await;
    answers.wait_for_ok(answers.ok() + 20, "after Postgres is back").await;
    stop.store(true, Ordering::SeqCst);
    let mut acknowledged = Vec::new();
    for registrar in registrars {
        acknowledged.extend(registrar.await.unwrap());
    }
    eprintln!("postgres stopped: {} ({refused} UNAVAILABLE while it was away)", answers.figures());
    answers.assert_kept_the_contract();
    let mut on_register = register(&mut desk()).await;
    on_register.sort();
    acknowledged.sort();
    assert_eq!(on_register, acknowledged, "the register holds exactly the registrations acknowledged");
    club.server.shutdown().await.unwrap();
}

/// What one scoring writer does on the embedded default, as `scoring-load --mode pads` does:
/// registers four players, seats them at a table, and records `results` deal results on the pads of
/// the rubbers they play, one after another. Every call is made once: any failure is returned.
async fn pad_writer(club: &club::Club, writer: usize, results: u32) -> Result<(), String> {
    let admin = channel(club, "sqlite-writer", &[Role::Admin]);
    let (mut members, mut pads) = (MembershipClient::new(admin.clone()), ScoringClient::new(admin));
    let fail =
        |what: &str, status: Status| format!("writer {writer}: {what}: {:?} {}", status.code(), status.message());
    let players: Vec<String> = (0..4).map(|seat| format!("sqlite-{writer}-{seat}")).collect();
    for id in &players {
        let register =
            membership::RegisterPlayerRequest { player_id: id.clone(), name: id.clone(), ..Default::default() };
        members.register_player(register).await.map_err(|s| fail("RegisterPlayer", s))?;
        let arrive = membership::ArriveInRoomRequest { player_id: id.clone() };
        members.arrive_in_room(arrive).await.map_err(|s| fail("ArriveInRoom", s))?;
    }
    let open = membership::OpenTableRequest {
        name: format!("sqlite {writer}"),
        kind: pb::TableKind::Rubber as i32,
        applicant_player_ids: players,
        ..Default::default()
    };
    let table = members.open_table(open).await.map_err(|s| fail("OpenTable", s))?.into_inner().table.unwrap();
    let mut recorded = 0;
    let mut rubber: Option<String> = None;
    while recorded < results {
        if let Some(rubber_id) = rubber.take() {
            let end = membership::EndRubberRequest {
                table_id: table.table_id.clone(),
                rubber_id,
                status: membership::RubberStatus::Finished as i32,
            };
            members.end_rubber(end).await.map_err(|s| fail("EndRubber", s))?;
        }
        let start = membership::StartRubberRequest {
            table_id: table.table_id.clone(),
            server_draw: true,
            ..Default::default()
        };
        let started = members.start_rubber(start).await.map_err(|s| fail("StartRubber", s))?.into_inner();
        let rubber_id = started.rubber.unwrap().rubber_id;
        rubber = Some(rubber_id.clone());
        let create = scoring::CreateScorepadRequest { rubber_id, ..Default::default() };
        let pad = pads.create_scorepad(create).await.map_err(|s| fail("CreateScorepad", s))?.into_inner();
        let scorepad_id = pad.scorepad.unwrap().scorepad_id;
        for deal in 1.. {
            let contract: laws::Contract = "4S".parse().unwrap();
            let result = pb::DealResult {
                outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                    contract: Some(pb::DeclaredContract {
                        contract: Some(contract.into()),
                        declarer: [pb::Seat::North, pb::Seat::East][deal % 2] as i32,
                    }),
                    tricks: 10,
                })),
                honors: Vec::new(),
            };
            let record = scoring::RecordDealResultRequest {
                scorepad_id: scorepad_id.clone(),
                deal_id: format!("{scorepad_id}-{deal}"),
                deal_number: deal as u32,
                result: Some(result),
                source: scoring::ResultSource::Game as i32,
                hands: None,
            };
            let pad = pads.record_deal_result(record).await.map_err(|s| fail("RecordDealResult", s))?.into_inner();
            recorded += 1;
            if recorded == results || pad.scorepad.is_some_and(|p| p.next_deal.is_none()) {
                break;
            }
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_sqlite_default_takes_eight_concurrent_writers_without_a_failure() {
    const WRITERS: usize = 8;
    const RESULTS: u32 = 12;
    let dir = TempDir::new();
    let club = Arc::new(club_on(None, &dir.0).await);
    let writers: Vec<_> = (0..WRITERS)
        .map(|writer| {
            let club = club.clone();
            tokio::spawn(async move { pad_writer(&club, writer, RESULTS).await })
        })
        .collect();
    let mut failures = Vec::new();
    for writer in writers {
        if let Err(failure) = writer.await.unwrap() {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "writers refused on SQLite:\n{}", failures.join("\n"));
    // Every result is on its pad.
    let mut pads = ScoringClient::new(channel(&club, "front-desk", &[Role::Desk]));
    let mut recorded = 0;
    let mut page_token = String::new();
    loop {
        let request = scoring::ListScorepadsRequest {
            page: Some(pb::PageRequest { page_size: 100, page_token: page_token.clone() }),
            ..Default::default()
        };
        let page = pads.list_scorepads(request).await.unwrap().into_inner();
        recorded += page.scorepads.iter().map(|pad| pad.deals.len()).sum::<usize>();
        match page.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
            Some(next) => page_token = next,
            None => break,
        }
    }
    assert_eq!(recorded, WRITERS * RESULTS as usize, "every result acknowledged is recorded");
}

/// Plays `deals` one-suit deals of `lineup`'s rubber through `game`, each call within `within`:
/// a start refused because the deal before is still on its way to the pad is sent again.
async fn play_deals(
    mut game: GameClient,
    lineup: e2e::lineup::Lineup,
    deals: u32,
    within: Duration,
) -> Result<(), String> {
    use e2e::one_suit_deal;
    let mut version = 0;
    for deal_number in 1..=deals {
        let view = loop {
            let setup = game::DealSetup {
                source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
                    rubber_id: lineup.rubber_id.clone(),
                    scorepad_id: lineup.scorepad_id.clone(),
                    deal_number,
                    club_laws: false,
                })),
                kind: pb::TableKind::Rubber as i32,
                mode: game::PlayMode::Recorded as i32,
                ..Default::default()
            };
            let request = game::StartDealRequest {
                table_id: lineup.table_id.clone(),
                expected_version: version,
                idempotency_key: uuid::Uuid::new_v4().to_string(),
                setup: Some(setup),
                hands: Some(game::start_deal_request::Hands::DealPbn(one_suit_deal::HANDS.to_owned())),
            };
            match tokio::time::timeout(within, game.start_deal(request)).await {
                Err(_) => {
                    return Err(format!("{}: the start of deal {deal_number} took over {within:?}", lineup.table_id));
                }
                Ok(Ok(answer)) => break answer.into_inner().view.unwrap(),
                // A client tries again a moment later, as the desk's screen does.
                Ok(Err(status)) if status.message().contains("still be on its way") => {
                    tokio::time::sleep(Duration::from_millis(2)).await
                }
                Ok(Err(status)) => return Err(format!("{}: start of deal {deal_number}: {status:?}", lineup.table_id)),
            }
        };
        version = view.version;
        let dealer = view.setup.map_or(0, |setup| setup.dealer);
        let dealer = one_suit_deal::SEATS.iter().position(|seat| *seat as i32 == dealer).unwrap_or(0);
        for step in 0..one_suit_deal::ACTIONS {
            let key = uuid::Uuid::new_v4().to_string();
            let acted = tokio::time::timeout(
                within,
                one_suit_deal::act(&mut game, &lineup.table_id, version, &key, dealer, step),
            );
            version = match acted.await {
                Err(_) => {
                    return Err(format!(
                        "{}: action {step} of deal {deal_number} took over {within:?}",
                        lineup.table_id
                    ));
                }
                Ok(Err(status)) => {
                    return Err(format!("{}: action {step} of deal {deal_number}: {status:?}", lineup.table_id));
                }
                Ok(Ok(view)) => view.version,
            };
        }
    }
    Ok(())
}

/// The embedded default under a club's evening: many tables playing deal after deal at once, each
/// deal's result delivered to its pad while the next starts. No call is refused: with fewer pooled
/// connections than the club's writers (its services' group commits and outbox workers), calls
/// waited the whole busy timeout for a connection, failed UNAVAILABLE and opened the database's
/// breaker. (A call still bounded, at 30 s, so that a hang fails the test rather than stalls it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_sqlite_default_plays_many_tables_at_once_without_a_stall() {
    const TABLES: usize = 64;
    let dir = TempDir::new();
    let club = club_on(None, &dir.0).await;
    let mut desk = MembershipClient::new(channel(&club, "front-desk", &[Role::Desk]));
    let mut pads = ScoringClient::new(channel(&club, "front-desk", &[Role::Desk]));
    let game = GameClient::new(channel(&club, "front-desk", &[Role::Desk]));
    let mut lineups = Vec::new();
    for table in 0..TABLES {
        lineups.push(
            e2e::lineup::Lineup::start(&mut desk, &mut pads, pb::TableKind::Rubber, &format!("evening-{table}")).await,
        );
    }
    let players: Vec<_> = lineups
        .into_iter()
        .map(|lineup| tokio::spawn(play_deals(game.clone(), lineup, 3, Duration::from_secs(30))))
        .collect();
    let mut failures = Vec::new();
    for player in players {
        if let Err(failure) = player.await.unwrap() {
            failures.push(failure);
        }
    }
    assert!(failures.is_empty(), "tables stalled or refused on SQLite:\n{}", failures.join("\n"));
}
