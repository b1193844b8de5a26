//! A service run as several replicas behind the stand-alone gateway (`endpoints.game` naming
//! them all, as a deployment with two game replicas does): calls are balanced over the replicas
//! that answer their health checks, and one that stops is taken out of the set, so a table plays
//! on at the other and nothing acknowledged is lost. A name standing for the replicas
//! (`dns+http://...`, a Kubernetes headless Service) is looked up for them.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::certificates::TestCa;
use e2e::lineup::Lineup;
use e2e::one_suit_deal;
use e2e::{TestApp, as_configured};
use platform::auth::Role;
use tonic::Code;

/// The `step`th action after the start of the one-suit deal North dealt; the table's version after it.
async fn act(
    game: &mut e2e::GameClient,
    table_id: &str,
    version: u64,
    key: &str,
    step: usize,
) -> Result<u64, tonic::Status> {
    Ok(one_suit_deal::act(game, table_id, version, key, 0, step).await?.version)
}

/// A call through the gateway, bounded: a replica that is away must be UNAVAILABLE at once,
/// never a hang and never another refusal.
async fn within<T>(call: impl std::future::Future<Output = Result<T, tonic::Status>>) -> Result<T, tonic::Status> {
    let answer = tokio::time::timeout(Duration::from_secs(10), call).await.expect("a call through the gateway hung");
    if let Err(status) = &answer {
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    }
    answer
}

#[tokio::test]
async fn a_table_plays_on_when_one_of_two_game_replicas_stops_and_loses_nothing() {
    plays_on_when_a_replica_stops(&mut TestApp::spawn_split_with_game_replicas(2, as_configured).await).await;
}

/// The directory of the TLS test's certificates (a `Configure` is a plain function).
static DIR: OnceLock<PathBuf> = OnceLock::new();

fn dir() -> &'static PathBuf {
    DIR.get_or_init(|| std::env::temp_dir().join(format!("bc-replicas-tls-{}", uuid::Uuid::new_v4().simple())))
}

/// Every port speaks TLS; the services and the gateway check one another against the test's CA,
/// by the name the certificate carries.
fn with_tls(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    config.tls.cert_file = Some(dir().join("server.pem"));
    config.tls.key_file = Some(dir().join("server-key.pem"));
    config.tls.ca_file = Some(dir().join("ca-ca.pem"));
    config.tls.server_name = Some("club.test".to_owned());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_too_a_table_plays_on_when_one_of_two_game_replicas_stops() {
    let ca = TestCa::new(dir(), "ca");
    ca.issue(&["club.test", "127.0.0.1"], "server");
    let mut app = TestApp::spawn_split_with_game_replicas(2, with_tls).await;
    assert!(app.uri().starts_with("https://"), "{}", app.uri());
    plays_on_when_a_replica_stops(&mut app).await;

    // A name standing for the replicas over TLS: each address found is checked against the
    // name the certificates carry (`[tls] server_name`), not against the address.
    let tls = platform::config::TlsConfig {
        ca_file: Some(ca.ca_file()),
        server_name: Some("club.test".to_owned()),
        ..Default::default()
    };
    let tls = platform::tls::PeerTls::from_config(&tls).unwrap();
    let port = app.game_replicas()[0].port();
    let mut game = game_through(&app, &format!("dns+https://localhost:{port}"), &tls);
    reads_twenty_in_a_row(&mut game).await;
    let _ = std::fs::remove_dir_all(dir());
}

/// The directory of the certificate naming only `localhost`.
static LOCALHOST_DIR: OnceLock<PathBuf> = OnceLock::new();

fn localhost_dir() -> &'static PathBuf {
    LOCALHOST_DIR
        .get_or_init(|| std::env::temp_dir().join(format!("bc-replicas-localhost-{}", uuid::Uuid::new_v4().simple())))
}

/// TLS with a certificate that names `localhost` and no address, and no `[tls] server_name`.
fn with_a_localhost_certificate(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    config.tls.cert_file = Some(localhost_dir().join("localhost.pem"));
    config.tls.key_file = Some(localhost_dir().join("localhost-key.pem"));
    config.tls.ca_file = Some(localhost_dir().join("ca-ca.pem"));
}

#[tokio::test]
async fn over_tls_an_address_found_by_name_is_checked_against_that_name() {
    let ca = TestCa::new(localhost_dir(), "ca");
    ca.issue(&["localhost"], "localhost");
    let app = TestApp::spawn_with(with_a_localhost_certificate).await;
    let port = app.club().server.local_addr().port();
    // No `server_name`: only the CA.
    let tls = platform::config::TlsConfig { ca_file: Some(ca.ca_file()), ..Default::default() };
    let tls = platform::tls::PeerTls::from_config(&tls).unwrap();

    // The addresses `localhost` stands for are checked against "localhost", which the
    // certificate names: calls go through.
    let mut game = game_through(&app, &format!("dns+https://localhost:{port}"), &tls);
    reads_twenty_in_a_row(&mut game).await;

    // The same server named by its address is checked against 127.0.0.1, which the certificate
    // does not name: the handshake fails, and the call with it, at once.
    let mut direct = game_through(&app, &format!("https://127.0.0.1:{port}"), &tls);
    let read = game::GetTableStateRequest { table_id: "a-table-never-used".to_owned() };
    let refused = within(direct.get_table_state(read)).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unavailable);
    let _ = std::fs::remove_dir_all(localhost_dir());
}

/// A desk's game client over a channel to `uris` ([`platform::client::service_channel`]).
fn game_through(app: &TestApp, uris: &str, tls: &platform::tls::PeerTls) -> e2e::GameClient {
    let channel =
        platform::client::service_channel(uris, api::game::v1::game_service_server::SERVICE_NAME, tls).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&app.token("front-desk", &[Role::Desk])).unwrap();
    e2e::GameClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor))
}

/// Reads a table no one used until twenty reads in a row went through: a replica that does not
/// answer ("localhost" may resolve to ::1 as well, where nothing listens) fails its reads with
/// UNAVAILABLE until its probe takes it out.
async fn reads_twenty_in_a_row(game: &mut e2e::GameClient) {
    let read = game::GetTableStateRequest { table_id: "a-table-never-used".to_owned() };
    let (mut in_a_row, mut failed) = (0, 0u64);
    while in_a_row < 20 {
        match within(game.get_table_state(read.clone())).await {
            Ok(answer) => {
                assert_eq!(answer.into_inner().view.unwrap().version, 0);
                in_a_row += 1;
            }
            Err(_) => {
                in_a_row = 0;
                failed += 1;
                assert!(failed < 1_000_000, "no replica behind the name was reached");
                tokio::task::yield_now().await;
            }
        }
    }
}

/// A deal started and its auction made with both replicas serving; then one replica stops, and
/// the deal is played out at the other.
async fn plays_on_when_a_replica_stops(app: &mut TestApp) {
    let (mut desk, mut pads) = app.desk_clients();
    let lineup = Lineup::start(&mut desk, &mut pads, pb::TableKind::Rubber, "replicas").await;
    let mut game = app.game("front-desk", &[Role::Desk]);
    let mut version =
        game.start_deal(one_suit_deal::first_start(&lineup)).await.unwrap().into_inner().view.unwrap().version;
    // Both replicas serve the table: the gateway spreads the calls over them.
    for step in 0..4 {
        version = act(&mut game, &lineup.table_id, version, &uuid::Uuid::new_v4().to_string(), step).await.unwrap();
    }

    app.stop_game_replica(0).await;

    // Until its probe takes the stopped replica out, a call the gateway sends there is
    // UNAVAILABLE at once. Reads go on until twenty in a row went through: were the stopped
    // replica still in the set, about half of them would fail.
    let read = game::GetTableStateRequest { table_id: lineup.table_id.clone() };
    let (mut in_a_row, mut failed) = (0, 0u64);
    while in_a_row < 20 {
        match within(game.get_table_state(read.clone())).await {
            Ok(_) => in_a_row += 1,
            Err(_) => {
                in_a_row = 0;
                failed += 1;
                assert!(failed < 1_000_000, "the stopped replica was never taken out");
                tokio::task::yield_now().await;
            }
        }
    }
    // Then the table plays on at the other replica, every card at its first try.
    for step in 4..one_suit_deal::ACTIONS {
        let key = uuid::Uuid::new_v4().to_string();
        version = within(act(&mut game, &lineup.table_id, version, &key, step)).await.unwrap();
    }

    // Nothing acknowledged is lost: the table, read again, holds the whole deal.
    let state = within(game.get_table_state(read)).await.unwrap().into_inner().view.unwrap();
    assert_eq!(state.version, version);
    assert_eq!(state.auction.len(), 4);
    assert_eq!(state.tricks.iter().map(|t| t.cards.len()).sum::<usize>(), 52);
    assert_eq!(state.phase, game::DealPhase::Finished as i32, "{state:?}");
}

#[tokio::test]
async fn a_name_standing_for_the_replicas_reaches_them_and_fails_fast_once_none_serves() {
    let mut app = TestApp::spawn_split_with_game_replicas(1, as_configured).await;
    let port = app.game_replicas()[0].port();
    let mut game = game_through(&app, &format!("dns+http://localhost:{port}"), &platform::tls::PeerTls::default());
    reads_twenty_in_a_row(&mut game).await;

    // With no replica serving, calls are not left waiting for one: UNAVAILABLE at once.
    app.stop_game_replica(0).await;
    let read = game::GetTableStateRequest { table_id: "a-table-never-used".to_owned() };
    for _ in 0..5 {
        let refused = within(game.get_table_state(read.clone())).await.unwrap_err();
        assert_eq!(refused.code(), Code::Unavailable);
    }
}
