//! A crash of the whole platform under load: `bridge-club` runs as a child process (the real
//! binary's code, `club-process`), writers register players through it, and it is killed with
//! SIGKILL mid-load, then started again on the same database, Redis prefix, key and port. Every
//! call answers within a second (OK, or UNAVAILABLE while the server is away), a retry with the
//! same idempotency key applies once, and every registration that was acknowledged is there
//! afterwards: nothing acknowledged is lost.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use api::membership::v1 as membership;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use e2e::{TestDatabase, TestRedis, redis_url};
use platform::auth::{Role, TokenIssuer, load_or_create_local_secret};
use tonic::Code;

/// Each call must answer within this.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
const WRITERS: usize = 4;

struct ClubProcess {
    child: tokio::process::Child,
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

impl ClubProcess {
    async fn start(database: &TestDatabase, redis: &TestRedis, key: &std::path::Path, port: u16) -> ClubProcess {
        let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_club-process"))
            .env("BRIDGE_CONFIG", key.with_extension("no-such-file.toml"))
            .env("DATABASE_URL", database.url())
            .env("REDIS_URL", redis_url())
            .env("BRIDGE_REDIS_PREFIX", redis.prefix())
            .env("BRIDGE_LISTEN", format!("127.0.0.1:{port}"))
            .env("BRIDGE_AUTH__LOCAL_KEY_FILE", key)
            .env("BRIDGE_CLUB__REQUESTS_PER_MINUTE", "0")
            .env("RUST_LOG", "error")
            .stdout(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("club-process: {e}"));
        let process = ClubProcess { child };
        let uri = format!("http://127.0.0.1:{port}");
        // Serving once health says so; a minute is far more than start-up ever takes.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let channel = platform::client::channel(&uri).unwrap();
            let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
            let request = tonic_health::pb::HealthCheckRequest { service: String::new() };
            if let Ok(answer) = health.check(request).await
                && answer.into_inner().status == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
            {
                return process;
            }
            assert!(tokio::time::Instant::now() < deadline, "club-process did not start serving on {uri}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn kill(mut self) {
        self.child.start_kill().unwrap();
        self.child.wait().await.unwrap();
    }
}

/// What the writers saw.
#[derive(Default)]
struct Seen {
    acknowledged: std::sync::Mutex<Vec<String>>,
    acks: AtomicUsize,
    /// Answers that broke the contract: too slow, or a code a retry cannot fix.
    wrong: std::sync::Mutex<Vec<String>>,
}

async fn writer(uri: String, token: String, number: usize, stop: Arc<AtomicBool>, seen: Arc<Seen>) {
    let channel = platform::client::channel(&uri).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    let mut client =
        MembershipServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
    let mut next = 0;
    while !stop.load(Ordering::SeqCst) {
        let id = format!("crash-{number}-{next}");
        // The same request, with the same key, until it is acknowledged.
        loop {
            let mut request = tonic::Request::new(membership::RegisterPlayerRequest {
                player_id: id.clone(),
                name: format!("Crash {number} {next}"),
                idempotency_key: format!("key-{id}"),
                ..Default::default()
            });
            request.set_timeout(ANSWER_WITHIN);
            let started = tokio::time::Instant::now();
            let answer = client.register_player(request).await;
            match answer {
                Ok(answer) => {
                    assert_eq!(answer.into_inner().player.map(|p| p.player_id), Some(id.clone()));
                    seen.acknowledged.lock().unwrap().push(id.clone());
                    seen.acks.fetch_add(1, Ordering::SeqCst);
                    break;
                }
                // The server is away (killed, or starting), or the call was in flight when it died:
                // ask again, a little later, with the same key.
                Err(status)
                    if matches!(status.code(), Code::Unavailable | Code::Aborted | Code::Unknown | Code::Cancelled)
                        && started.elapsed() < ANSWER_WITHIN =>
                {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(status) => {
                    let elapsed = started.elapsed();
                    seen.wrong.lock().unwrap().push(format!(
                        "{id}: {:?} {} after {elapsed:?}",
                        status.code(),
                        status.message()
                    ));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
        next += 1;
    }
}

async fn wait_for_acks(seen: &Seen, at_least: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while seen.acks.load(Ordering::SeqCst) < at_least {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the writers stalled at {} acknowledgements",
            seen.acks.load(Ordering::SeqCst)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_loses_nothing_it_acknowledged_and_retries_apply_once() {
    let database = TestDatabase::create().await;
    let redis = TestRedis::create().await;
    let dir = std::env::temp_dir().join(format!("bc_crash_{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("bridge-club.key");
    let issuer = TokenIssuer::hs256(&load_or_create_local_secret(&key).unwrap());
    let token = issuer.issue("desk", &[Role::Desk], Duration::from_secs(3600)).unwrap();
    let port = free_port();
    let uri = format!("http://127.0.0.1:{port}");

    let club = ClubProcess::start(&database, &redis, &key, port).await;
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Seen::default());
    let writers: Vec<_> =
        (0..WRITERS).map(|n| tokio::spawn(writer(uri.clone(), token.clone(), n, stop.clone(), seen.clone()))).collect();

    wait_for_acks(&seen, 40).await;
    club.kill().await;
    let before_restart = seen.acks.load(Ordering::SeqCst);
    let club = ClubProcess::start(&database, &redis, &key, port).await;
    wait_for_acks(&seen, before_restart + 40).await;
    // And once more, while Redis keeps what the first process wrote.
    club.kill().await;
    let club = ClubProcess::start(&database, &redis, &key, port).await;
    wait_for_acks(&seen, seen.acks.load(Ordering::SeqCst) + 20).await;
    stop.store(true, Ordering::SeqCst);
    for writer in writers {
        writer.await.unwrap();
    }

    let wrong = seen.wrong.lock().unwrap().clone();
    assert!(wrong.is_empty(), "answers that broke the contract:\n{}", wrong.join("\n"));
    let acknowledged = seen.acknowledged.lock().unwrap().clone();
    let channel = platform::client::channel(&uri).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    let mut client =
        MembershipServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
    let mut registered = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = membership::ListPlayersRequest {
            page: Some(api::common::v1::PageRequest { page_size: 500, page_token: page_token.clone() }),
            ..Default::default()
        };
        let page = client.list_players(request).await.unwrap().into_inner();
        registered.extend(page.players.into_iter().map(|p| p.player_id));
        match page.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
            Some(next) => page_token = next,
            None => break,
        }
    }
    eprintln!("{} registrations acknowledged across two crashes", acknowledged.len());
    let mut expected = acknowledged.clone();
    expected.sort();
    registered.sort();
    assert_eq!(registered, expected, "the register holds exactly what was acknowledged, once each");
    club.kill().await;
    let _ = std::fs::remove_dir_all(&dir);
}
