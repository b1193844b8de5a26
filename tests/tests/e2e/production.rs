//! The platform as production runs it: each service an operating-system process of its own, two
//! game replicas behind the stand-alone gateway, every hop on TLS with the test's certificates
//! (clients to the gateway, the gateway to the services, the services to one another and to
//! Redis), and live state on a Redis Cluster of three masters, each with a replica. Several
//! tables play whole deals through the gateway, the replicas answering in turn; mid-run the
//! master holding one table's live state is killed, and its replica takes over. Every call
//! answers at once (OK, or UNAVAILABLE and retried with its idempotency key), and nothing
//! acknowledged is lost.

use std::time::Duration;

use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::certificates::TestCa;
use e2e::lineup::Lineup;
use e2e::one_suit_deal;
use e2e::processes::{Processes, Setup};
use e2e::redis_cluster::RedisCluster;
use e2e::{GameClient, MembershipClient, ScoringClient, TestDatabase};
use platform::auth::{Role, TokenIssuer, load_or_create_local_secret};
use platform::live::LiveStore as _;
use tonic::Code;

/// How many tables play at once.
const TABLES: usize = 4;

/// A client through the gateway over TLS, presenting `token`.
fn through(uri: &str, tls: &platform::tls::PeerTls, token: &str) -> platform::app::PeerChannel {
    let channel = platform::client::channel_with(uri, tls).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(token).unwrap();
    tonic::service::interceptor::InterceptedService::new(channel, interceptor)
}

/// Plays the deal at `table_id` from action `steps.start` (the table at `version`) up to
/// `steps.end`: each action sent until it is acknowledged, a retry carrying the same idempotency
/// key. Every answer comes within seconds, and every refusal is UNAVAILABLE (Redis or a replica
/// away for a moment). The table's version after its last action.
async fn play(mut game: GameClient, table_id: String, mut version: u64, steps: std::ops::Range<usize>) -> u64 {
    for step in steps {
        let key = uuid::Uuid::new_v4().to_string();
        let mut refused = 0;
        loop {
            let answer = tokio::time::timeout(
                Duration::from_secs(10),
                one_suit_deal::act(&mut game, &table_id, version, &key, 0, step),
            )
            .await
            .unwrap_or_else(|_| panic!("action {step} at {table_id} hung"));
            match answer {
                Ok(view) => {
                    version = view.version;
                    break;
                }
                Err(status) => {
                    assert_eq!(status.code(), Code::Unavailable, "action {step} at {table_id}: {status:?}");
                    refused += 1;
                    assert!(refused < 10_000, "action {step} at {table_id} was never taken: {status:?}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
    version
}

/// Reads the table through the gateway until its live copy on the cluster is at `version`
/// (a minute at most: far more than a breaker's cool-down on a loaded machine).
async fn back_on_the_cluster(game: &mut GameClient, live: &platform::live::RedisStore, table_id: &str, version: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let read = game::GetTableStateRequest { table_id: table_id.to_owned() };
        let view = game.get_table_state(read).await.unwrap().into_inner().view.unwrap();
        assert_eq!(view.version, version, "{table_id}");
        let copy = live.get(&::game::engine::table_key(table_id)).await.ok().flatten();
        if copy.is_some_and(|copy| copy.version == version) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "the live copy of {table_id} never came back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every table plays `steps` at once; the tables' versions after.
async fn all_play(game: &GameClient, tables: &[(Lineup, u64)], steps: std::ops::Range<usize>) -> Vec<u64> {
    let players = tables
        .iter()
        .map(|(lineup, version)| tokio::spawn(play(game.clone(), lineup.table_id.clone(), *version, steps.clone())));
    let mut versions = Vec::new();
    for player in players.collect::<Vec<_>>() {
        versions.push(player.await.unwrap());
    }
    versions
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_over_tls_on_a_redis_cluster_lose_nothing_when_a_master_is_killed_mid_run() {
    let dir = std::env::temp_dir().join(format!("bc-production-{}", uuid::Uuid::new_v4().simple()));
    let ca = TestCa::new(&dir, "ca");
    let (cert_file, cert_key_file) = ca.issue(&["127.0.0.1", "localhost"], "server");
    let mut cluster = RedisCluster::start(&dir, &cert_file, &cert_key_file, &ca.ca_file()).await;
    let database = TestDatabase::create().await;
    let key_file = dir.join("bridge-club.key");
    let issuer = TokenIssuer::hs256(&load_or_create_local_secret(&key_file).unwrap());
    let prefix = format!("test_{}", uuid::Uuid::new_v4().simple());
    let setup = Setup {
        database_url: database.url(),
        redis_urls: &cluster.urls(),
        redis_prefix: &prefix,
        key_file: &key_file,
        cert_file: &cert_file,
        cert_key_file: &cert_key_file,
        ca_file: &ca.ca_file(),
        dir: &dir,
        game_replicas: 2,
        binary: std::path::Path::new(env!("CARGO_BIN_EXE_service-process")),
    };
    let mut platform = Processes::start(&setup).await;

    // Clients reach the gateway over TLS only, checking it against the test's CA.
    let uri = platform.gateway_uri();
    assert!(uri.starts_with("https://"), "{uri}");
    let tls = platform::tls::PeerTls::from_config(&platform::config::TlsConfig {
        ca_file: Some(ca.ca_file()),
        ..Default::default()
    })
    .unwrap();
    let token = issuer.issue("front-desk", &[Role::Desk], Duration::from_secs(3600)).unwrap();
    let mut desk = MembershipClient::new(through(&uri, &tls, &token));
    let mut pads = ScoringClient::new(through(&uri, &tls, &token));
    let mut game = GameClient::new(through(&uri, &tls, &token));

    let mut tables = Vec::new();
    for table in 0..TABLES {
        let lineup = Lineup::start(&mut desk, &mut pads, pb::TableKind::Rubber, &format!("cluster-{table}")).await;
        let version =
            game.start_deal(one_suit_deal::first_start(&lineup)).await.unwrap().into_inner().view.unwrap().version;
        tables.push((lineup, version));
    }

    // A quarter of each deal with the cluster whole.
    let quarter = one_suit_deal::ACTIONS / 4;
    let versions = all_play(&game, &tables, 0..quarter).await;
    tables.iter_mut().zip(versions).for_each(|(table, version)| table.1 = version);

    // The master holding the first table's live state dies; the tables play on to half-way
    // while its slots have no master, then its replica takes over.
    let live_key = format!("{prefix}:{}", ::game::engine::table_key(&tables[0].0.table_id));
    let killed = cluster.kill_master_of(&live_key).await;
    let half = one_suit_deal::ACTIONS / 2;
    let versions = all_play(&game, &tables, quarter..half).await;
    tables.iter_mut().zip(versions).for_each(|(table, version)| table.1 = version);
    let during_failover: Vec<u64> = tables.iter().map(|(_, version)| *version).collect();
    let promoted = cluster.failed_over(&live_key, killed).await;
    assert_ne!(promoted, killed);

    // The services come back to the cluster by themselves: a table read brings its live copy,
    // which missed the writes of the outage, up to the journal.
    let config = platform::config::RedisConfig { cluster: true, ca_file: Some(ca.ca_file()), ..Default::default() };
    let live = platform::live::RedisStore::connect_with(&cluster.urls(), &prefix, &config).await.unwrap();
    for (lineup, version) in &tables {
        back_on_the_cluster(&mut game, &live, &lineup.table_id, *version).await;
    }

    // The rest of each deal, on the cluster as it is now.
    let finals = all_play(&game, &tables, half..one_suit_deal::ACTIONS).await;

    // Its live copy moved on with the deal, on the promoted master too.
    for (((lineup, _), version), before) in tables.iter().zip(&finals).zip(&during_failover) {
        let copy = live.get(&::game::engine::table_key(&lineup.table_id)).await.unwrap();
        let copied = copy.map_or(0, |copy| copy.version);
        assert!(copied > *before && copied <= *version, "the live copy of {} is at {copied}", lineup.table_id);
    }

    // Nothing acknowledged is lost: each table, read again, holds its whole deal at the version
    // of its last acknowledged action.
    for ((lineup, _), version) in tables.iter().zip(finals.iter().copied()) {
        let read = game::GetTableStateRequest { table_id: lineup.table_id.clone() };
        let view = game.get_table_state(read).await.unwrap().into_inner().view.unwrap();
        assert_eq!(view.version, version, "{}", lineup.table_id);
        assert_eq!(view.auction.len(), 4);
        assert_eq!(view.tricks.iter().map(|trick| trick.cards.len()).sum::<usize>(), 52);
        assert_eq!(view.phase, game::DealPhase::Finished as i32, "{view:?}");
    }

    // The gateway sent the tables' cards to both replicas, each answering some (their access
    // logs).
    let answered: Vec<usize> = platform
        .game_logs()
        .iter()
        .map(|log| {
            log.lines().filter(|line| line.contains("GameService/PlayCard") && line.contains("answered")).count()
        })
        .collect();
    assert_eq!(answered.len(), 2);
    assert!(answered.iter().all(|cards| *cards > 0), "cards answered by each replica: {answered:?}");
    assert!(answered.iter().sum::<usize>() >= TABLES * 52, "{answered:?}");

    platform.stop().await;
    drop(cluster);
    drop(database);
    let _ = std::fs::remove_dir_all(&dir);
}
