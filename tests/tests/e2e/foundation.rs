//! The foundation on a real server: auth at the edge, trace context across hops, grpc-web and
//! CORS for browsers, and the contract served by reflection.

use std::process::Command;

use api::scoring::v1::{CreateScorepadRequest, ScoreDuplicateContractRequest};
use e2e::{ScoringClient, TestApp};
use platform::auth::{Claims, ISSUER, Role, TokenIssuer};
use tonic::Code;
use tracing::Instrument;

fn is_auth_refusal(code: Code) -> bool {
    matches!(code, Code::Unauthenticated | Code::PermissionDenied)
}

#[tokio::test]
async fn calls_without_a_valid_token_or_role_are_refused() {
    let app = TestApp::spawn().await;
    let key = std::fs::read_to_string(&app.club().resources.config.auth.local_key_file).unwrap();
    let secret = hex_decode(key.trim());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;

    let no_token = ScoringClient::new(app.channel(None)).create_scorepad(CreateScorepadRequest::default()).await;
    assert_eq!(no_token.unwrap_err().code(), Code::Unauthenticated);

    let forged = TokenIssuer::hs256(b"not the club's key")
        .issue("mallory", &[Role::Admin], std::time::Duration::from_secs(60))
        .unwrap();
    let status = ScoringClient::new(app.channel(Some(&forged)))
        .create_scorepad(CreateScorepadRequest::default())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "{}", status.message());

    let expired = TokenIssuer::hs256(&secret)
        .issue_claims(&Claims {
            sub: "desk".into(),
            roles: vec![Role::Desk],
            iss: ISSUER.into(),
            iat: now - 7200,
            exp: now - 3600,
            sid: None,
        })
        .unwrap();
    let status = ScoringClient::new(app.channel(Some(&expired)))
        .create_scorepad(CreateScorepadRequest::default())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    assert!(status.message().contains("expired"), "{}", status.message());

    // CreateScorepad is for the desk and admin; HearAppeal for the committee only.
    let status =
        app.scoring("p1", &[Role::Player]).create_scorepad(CreateScorepadRequest::default()).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    assert!(status.message().contains("desk, admin"), "{}", status.message());
    let status = app
        .appeals("desk", &[Role::Desk, Role::Arbiter])
        .hear_appeal(api::appeals::v1::HearAppealRequest::default())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);

    // The right role passes the edge (whatever the service then says of the empty request).
    let answer = app.scoring("desk", &[Role::Desk]).create_scorepad(CreateScorepadRequest::default()).await;
    if let Err(status) = answer {
        assert!(!is_auth_refusal(status.code()), "{status:?}");
    }
}

fn hex_decode(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_trace_crosses_the_gateway_into_the_service() {
    let (spans, guard) = e2e::telemetry();
    let app = TestApp::spawn().await;

    // A stand-alone gateway in front of the app, as in a Kubernetes deployment.
    let mut config = app.club().resources.config.clone();
    config.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    config.endpoints.scoring = Some(app.uri());
    let resources = platform::app::EdgeResources::with(&config, "gateway", app.club().resources.live.clone()).unwrap();
    let gateway =
        gateway::start(&resources, &gateway::Settings { requests_per_minute: 0, ..Default::default() }).await.unwrap();

    let token = app.token("desk", &[Role::Desk]);
    let channel = platform::client::channel(&gateway.uri()).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    let mut client = ScoringClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));

    let root = tracing::info_span!("test.client");
    let trace_id = {
        use opentelemetry::trace::TraceContextExt;
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        root.context().span().span_context().trace_id()
    };
    let _ = client.score_duplicate_contract(ScoreDuplicateContractRequest::default()).instrument(root).await;
    guard.flush();

    let path = "/bridgeclub.scoring.v1.ScoringService/ScoreDuplicateContract";
    let in_trace: Vec<_> = spans.all().into_iter().filter(|s| s.span_context.trace_id() == trace_id).collect();
    let server_spans: Vec<_> = in_trace.iter().filter(|s| s.name == path).collect();
    assert_eq!(server_spans.len(), 2, "the gateway's and the service's spans, in one trace: {in_trace:#?}");
    let root_span = in_trace.iter().find(|s| s.name == "test.client").expect("the client's span");
    let at_gateway =
        server_spans.iter().find(|s| s.parent_span_id == root_span.span_context.span_id()).expect("gateway span");
    assert!(
        server_spans.iter().any(|s| s.parent_span_id == at_gateway.span_context.span_id()),
        "the service's span is a child of the gateway's"
    );
    gateway.shutdown().await.unwrap();
}

/// A grpc-web call as a browser makes it: HTTP/1.1, binary framing, trailers in the body. (curl
/// blocks its thread, so the server needs another one.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_reach_the_club_through_grpc_web_and_cors() {
    let app = TestApp::spawn().await;
    let url = format!("{}/grpc.health.v1.Health/Check", app.uri());
    let frame = [0u8, 0, 0, 0, 0]; // an empty HealthCheckRequest: the server as a whole

    let body_file = std::env::temp_dir().join(format!("grpc-web-{}", uuid::Uuid::new_v4().simple()));
    std::fs::write(&body_file, frame).unwrap();
    let output = Command::new("curl")
        .args([
            "-s",
            "--http1.1",
            "-X",
            "POST",
            "-H",
            "content-type: application/grpc-web+proto",
            "-H",
            "x-grpc-web: 1",
        ])
        .args(["-H", "origin: https://app.example.org", "-D", "-", "--data-binary"])
        .arg(format!("@{}", body_file.display()))
        .arg(&url)
        .output()
        .expect("curl must be installed for the grpc-web test");
    std::fs::remove_file(&body_file).unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_ascii_lowercase();
    assert!(text.contains("content-type: application/grpc-web+proto"), "{text}");
    assert!(text.contains("access-control-allow-origin: https://app.example.org"), "{text}");
    assert!(text.contains("grpc-status:0"), "the trailer frame carries OK: {text}");

    let preflight = Command::new("curl")
        .args(["-s", "--http1.1", "-X", "OPTIONS", "-D", "-", "-o", "/dev/null"])
        .args(["-H", "origin: https://app.example.org", "-H", "access-control-request-method: POST"])
        .args(["-H", "access-control-request-headers: authorization,content-type,x-grpc-web"])
        .arg(format!("{}/bridgeclub.game.v1.GameService/PlayCard", app.uri()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&preflight.stdout).to_ascii_lowercase();
    assert!(text.contains("access-control-allow-origin: https://app.example.org"), "{text}");
    assert!(text.contains("authorization"), "{text}");
}

/// The embedded default: no database or Redis configured, so SQLite in a file and live state in
/// the process; migrations apply, the local key is created, and the server answers.
#[tokio::test]
async fn the_embedded_default_runs_on_sqlite_with_in_process_live_state() {
    let dir = std::env::temp_dir().join(format!("bc-embedded-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = platform::config::PlatformConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        sqlite_path: dir.join("bridge-club.db"),
        ..Default::default()
    };
    config.auth.local_key_file = dir.join("bridge-club.key");
    let club = club::Club::start(&config, &club::Settings::default()).await.unwrap();
    assert!(dir.join("bridge-club.db").exists() && dir.join("bridge-club.key").exists());
    assert!(club.resources.issuer.is_some(), "a local key signs tokens");

    let channel = platform::client::channel(&club.server.uri()).unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    // The server as a whole, and each of the four services it runs.
    for service in [
        "",
        "bridgeclub.membership.v1.MembershipService",
        "bridgeclub.game.v1.GameService",
        "bridgeclub.scoring.v1.ScoringService",
        "bridgeclub.appeals.v1.AppealsService",
    ] {
        let request = tonic_health::pb::HealthCheckRequest { service: service.to_owned() };
        let status = health.check(request).await.unwrap_or_else(|s| panic!("{service:?}: {s:?}"));
        let serving = tonic_health::pb::health_check_response::ServingStatus::Serving as i32;
        assert_eq!(status.into_inner().status, serving, "{service:?}");
    }

    club.server.shutdown().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}
