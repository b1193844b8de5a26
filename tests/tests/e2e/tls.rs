//! TLS on the public port and between the services: the club serves only TLS with a certificate
//! of the deployment's CA, its services call one another over TLS checked against that CA, a
//! plaintext or untrusting client gets nowhere, and a renewed certificate is taken without a
//! restart.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::TestApp;
use e2e::certificates::TestCa;
use platform::auth::Role;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// The directory of this test's certificates (a `Configure` is a plain function).
static DIR: OnceLock<PathBuf> = OnceLock::new();

fn dir() -> &'static PathBuf {
    DIR.get_or_init(|| std::env::temp_dir().join(format!("bc-tls-{}", uuid::Uuid::new_v4().simple())))
}

/// The club's port speaks TLS with the certificate `first` signed; its services check one
/// another against the first CA, by the name its certificate carries; renewals are looked for
/// every 50 ms.
fn with_tls(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    config.tls.cert_file = Some(dir().join("server.pem"));
    config.tls.key_file = Some(dir().join("server-key.pem"));
    config.tls.ca_file = Some(dir().join("first-ca.pem"));
    config.tls.server_name = Some("club.test".to_owned());
    config.tls.reload_interval_ms = 50;
}

/// The certificate the server presents to a client that trusts `ca`, by the name `club.test`;
/// an error when the handshake fails.
async fn health_with(uri: &str, ca: &std::path::Path) -> Result<i32, String> {
    let tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(std::fs::read(ca).unwrap()))
        .domain_name("club.test");
    let channel = tonic::transport::Endpoint::from_shared(uri.to_owned())
        .unwrap()
        .tls_config(tls)
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| format!("{e:?}"))?;
    let answer = HealthClient::new(channel)
        .check(HealthCheckRequest { service: String::new() })
        .await
        .map_err(|e| format!("{e:?}"))?;
    Ok(answer.into_inner().status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_club_speaks_only_tls_its_services_call_one_another_over_it_and_a_renewal_needs_no_restart() {
    let first = TestCa::new(dir(), "first");
    first.issue(&["club.test", "127.0.0.1"], "server");
    let app = TestApp::spawn_with(with_tls).await;
    let uri = app.uri();
    assert!(uri.starts_with("https://"), "{uri}");

    // A rubber and its deal: the scorepad is settled from membership's rubber, and the deal from
    // membership and scoring, each over a TLS hop between the services.
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let mut desk = app.game("front-desk", &[Role::Desk]);
    let request = game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: 0,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(lineup.first_deal(game::PlayMode::Digital, false)),
        hands: None,
    };
    let started = desk.start_deal(request).await.unwrap_or_else(|s| panic!("deal started over TLS: {s:?}"));
    assert!(started.into_inner().view.is_some());

    // Nothing in plaintext: a gRPC client speaking HTTP/2 without TLS gets no answer.
    let plain = uri.replacen("https://", "http://", 1);
    let channel = platform::client::channel(&plain).unwrap();
    let refused = HealthClient::new(channel).check(HealthCheckRequest { service: String::new() }).await;
    assert!(refused.is_err(), "a plaintext call was answered: {refused:?}");

    // A client that does not trust the CA is refused at the handshake.
    let stranger = TestCa::new(dir(), "stranger");
    assert!(health_with(&uri, &stranger.ca_file()).await.is_err(), "a certificate the client does not trust");
    assert_eq!(health_with(&uri, &first.ca_file()).await, Ok(1), "SERVING over TLS");

    // The deployment renews the certificate from another CA (cert-manager rewrites the secret):
    // new connections get the new one, without a restart.
    let second = TestCa::new(dir(), "second");
    second.issue(&["club.test", "127.0.0.1"], "server");
    let deadline = Instant::now() + Duration::from_secs(30);
    while health_with(&uri, &second.ca_file()).await.is_err() {
        assert!(Instant::now() < deadline, "the renewed certificate was never presented");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(health_with(&uri, &first.ca_file()).await.is_err(), "the old certificate is no longer presented");
    let _ = std::fs::remove_dir_all(dir());
}

#[test]
fn a_certificate_without_its_key_or_a_key_of_another_is_refused_at_start_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("bc-tls-bad-{}", uuid::Uuid::new_v4().simple()));
    let ca = TestCa::new(&dir, "ca");
    let (cert, _) = ca.issue(&["club.test"], "one");
    let (_, other_key) = ca.issue(&["club.test"], "two");
    let mismatched = platform::tls::ServerCertificate::load(&cert, &other_key).unwrap_err();
    assert!(mismatched.to_string().contains("two-key.pem"), "{mismatched}");
    let config = platform::config::TlsConfig { cert_file: Some(cert), ..Default::default() };
    let alone = platform::tls::server_certificate(&config).unwrap_err();
    assert!(alone.to_string().contains("key_file"), "{alone}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A free port on loopback, for a server the test starts itself.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Stops the Redis this test started, however the test ends.
struct Stop(std::process::Child);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn live_state_reaches_redis_over_tls_checked_against_the_deployment_s_ca() {
    use platform::live::LiveStore as _;
    let dir = std::env::temp_dir().join(format!("bc-rediss-{}", uuid::Uuid::new_v4().simple()));
    let ca = TestCa::new(&dir, "redis");
    let (cert, key) = ca.issue(&["localhost", "127.0.0.1"], "redis");
    let port = free_port();
    let _redis = Stop(
        std::process::Command::new("redis-server")
            .args(["--port", "0", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--tls-port", &port.to_string(), "--tls-auth-clients", "no"])
            .arg("--tls-cert-file")
            .arg(&cert)
            .arg("--tls-key-file")
            .arg(&key)
            .arg("--tls-ca-cert-file")
            .arg(ca.ca_file())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (with TLS) could not be started"),
    );
    let url = format!("rediss://127.0.0.1:{port}");
    let config = platform::config::RedisConfig { ca_file: Some(ca.ca_file()), ..Default::default() };
    // The server takes a moment to listen: connecting is retried until it does.
    let deadline = Instant::now() + Duration::from_secs(20);
    let store = loop {
        match platform::live::RedisStore::connect_with(&url, "tls-test", &config).await {
            Ok(store) => break store,
            Err(e) => {
                assert!(Instant::now() < deadline, "no TLS connection to Redis: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    let written = store.compare_and_set("table-1", 0, bytes::Bytes::from_static(b"deal"), None).await.unwrap();
    assert!(matches!(written, platform::live::CasOutcome::Applied(1)), "{written:?}");
    assert_eq!(store.get("table-1").await.unwrap().map(|v| v.value), Some(bytes::Bytes::from_static(b"deal")));

    // Without the CA, the server's certificate is not trusted: no connection.
    let untrusting = platform::config::RedisConfig::default();
    let refused = platform::live::RedisStore::connect_with(&url, "tls-test", &untrusting).await;
    assert!(refused.is_err(), "a Redis certificate from an unknown CA was trusted");
    drop(store);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn records_reach_postgres_over_tls_verified_against_the_deployment_s_ca() {
    use sea_orm::ConnectionTrait as _;
    let dir = std::env::temp_dir().join(format!("bc-pgtls-{}", uuid::Uuid::new_v4().simple()));
    let ca = TestCa::new(&dir, "postgres");
    let (cert, key) = ca.issue(&["localhost", "127.0.0.1"], "postgres");
    let server = e2e::postgres_server::PostgresServer::start_with_tls(&cert, &key).await;
    let verified = format!("{}?sslmode=verify-full&sslrootcert={}", server.url(), ca.ca_file().display());
    let db = platform::db::connect_and_migrate(&verified).await.unwrap_or_else(|e| panic!("TLS to Postgres: {e}"));
    let row = db
        .query_one_raw(sea_orm::Statement::from_string(
            sea_orm::DbBackend::Postgres,
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
        ))
        .await
        .unwrap()
        .unwrap();
    assert!(row.try_get::<bool>("", "ssl").unwrap(), "the connection is encrypted");
    db.close().await.unwrap();

    // A CA the server's certificate is not from: refused, not silently downgraded.
    let stranger = TestCa::new(&dir, "stranger");
    let wrong = format!("{}?sslmode=verify-full&sslrootcert={}", server.url(), stranger.ca_file().display());
    assert!(platform::db::connect(&wrong).await.is_err(), "a certificate from an unknown CA was trusted");
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}
