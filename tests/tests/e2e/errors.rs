//! Errors a client can act on, through the real app: a refusal under the Laws carries its reason
//! and the Law in `google.rpc.ErrorInfo`, a stale version says to read again, a malformed request
//! names its field in `BadRequest`, and a browser can read all of it through grpc-web and CORS
//! (docs/errors.md).

use std::process::Command;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::lineup::Lineup;
use e2e::{GameClient, TestApp};
use laws::Seat;
use platform::auth::Role;
use platform::error::{
    CURRENT_VERSION_KEY, ERROR_DOMAIN, LAW_CODE_KEY, LAW_KEY, LAW_METADATA_KEY, LAW_NUMBER_KEY, REASON_FIELD_INVALID,
    REASON_LAW_FORBIDS, REASON_STALE_VERSION,
};
use prost::Message;
use tonic::Code;
use tonic_types::StatusExt;

/// A rubber table with a digital deal started: North is to call.
struct Dealt {
    table_id: String,
    players: [String; 4],
    version: u64,
}

async fn dealt(app: &TestApp) -> Dealt {
    let lineup: Lineup = app.lineup(pb::TableKind::Rubber).await;
    let setup = lineup.first_deal(game::PlayMode::Digital, false);
    let mut desk = app.game("front-desk", &[Role::Desk]);
    let table = game::GetTableStateRequest { table_id: lineup.table_id.clone() };
    let version = desk.get_table_state(table).await.unwrap().into_inner().view.unwrap().version;
    let request = game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: version,
        idempotency_key: key(),
        setup: Some(setup),
        hands: None,
    };
    let view = desk.start_deal(request).await.unwrap().into_inner().view.unwrap();
    Dealt { table_id: lineup.table_id, players: lineup.players, version: view.version }
}

impl Dealt {
    fn player(&self, app: &TestApp, seat: Seat) -> GameClient {
        app.game(&self.players[seat.index()], &[Role::Player])
    }

    /// East's 1H at North's turn (Law 17), at `version`.
    fn east_out_of_turn(&self, version: u64) -> game::MakeCallRequest {
        game::MakeCallRequest {
            table_id: self.table_id.clone(),
            expected_version: version,
            idempotency_key: key(),
            seat: Seat::East.to_proto(),
            call: Some("1H".parse::<laws::Call>().unwrap().into()),
            artificial: None,
        }
    }
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[tokio::test]
async fn a_refusal_under_the_laws_names_its_reason_and_law_and_a_stale_version_says_read_again() {
    let app = TestApp::spawn().await;
    let table = dealt(&app).await;
    let mut east = table.player(&app, Seat::East);

    let status = east.make_call(table.east_out_of_turn(table.version)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    let info = status.get_details_error_info().unwrap_or_else(|| panic!("no ErrorInfo: {status:?}"));
    assert_eq!(info.reason, REASON_LAW_FORBIDS);
    assert_eq!(info.domain, ERROR_DOMAIN);
    let law = info.metadata.get(LAW_KEY).unwrap_or_else(|| panic!("no law: {info:?}"));
    assert!(law.starts_with("Law 17") && law.ends_with("of the Laws of Rubber Bridge"), "{law}");
    assert_eq!(info.metadata.get(LAW_CODE_KEY).map(String::as_str), Some("LAW_CODE_RUBBER"));
    assert_eq!(info.metadata.get(LAW_NUMBER_KEY).map(String::as_str), Some("17"));
    // The header older clients read says the same.
    assert_eq!(status.metadata().get(LAW_METADATA_KEY).and_then(|v| v.to_str().ok()), Some(law.as_str()));
    assert!(status.get_details_retry_info().is_none(), "retrying what the Laws refuse is useless");

    // A client that saw an older version reads again, then decides again: at once.
    let stale = table.version - 1;
    let status = east.make_call(table.east_out_of_turn(stale)).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{status:?}");
    let info = status.get_details_error_info().unwrap();
    assert_eq!(info.reason, REASON_STALE_VERSION);
    assert_eq!(info.metadata.get(CURRENT_VERSION_KEY), Some(&table.version.to_string()), "{info:?}");
    assert_eq!(status.get_details_retry_info().unwrap().retry_delay, Some(std::time::Duration::ZERO));
}

#[tokio::test]
async fn a_malformed_request_names_the_field_at_fault() {
    let app = TestApp::spawn().await;
    let table = dealt(&app).await;
    let mut north = table.player(&app, Seat::North);
    let request = game::MakeCallRequest { call: None, ..table.east_out_of_turn(table.version) };
    let request = game::MakeCallRequest { seat: Seat::North.to_proto(), ..request };

    let status = north.make_call(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert_eq!(status.get_details_error_info().unwrap().reason, REASON_FIELD_INVALID);
    let violations = status.get_details_bad_request().unwrap_or_else(|| panic!("no BadRequest: {status:?}"));
    assert_eq!(violations.field_violations.len(), 1, "{violations:?}");
    assert_eq!(violations.field_violations[0].field, "call");
    assert!(!violations.field_violations[0].description.is_empty());

    // Refused before any handler runs, by the contract's size limits: the same shape of error.
    let request = game::GetTableStateRequest { table_id: "t".repeat(300) };
    let status = north.get_table_state(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert_eq!(status.get_details_error_info().unwrap().reason, REASON_FIELD_INVALID);
    let violations = status.get_details_bad_request().unwrap_or_else(|| panic!("no BadRequest: {status:?}"));
    assert_eq!(violations.field_violations[0].field, "table_id", "{violations:?}");
}

/// A browser's grpc-web call refused under the Laws: CORS exposes the details header and the
/// Law's, and the details decode to the same reason a native client reads. (curl blocks its
/// thread, so the server needs another one.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_can_read_the_details_through_grpc_web() {
    let app = TestApp::spawn().await;
    let table = dealt(&app).await;
    let token = app.token(&table.players[Seat::East.index()], &[Role::Player]);
    let message = table.east_out_of_turn(table.version).encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(&message);

    let scratch = std::env::temp_dir().join(format!("grpc-web-errors-{}", uuid::Uuid::new_v4().simple()));
    let (request_file, body_file) = (scratch.with_extension("in"), scratch.with_extension("out"));
    std::fs::write(&request_file, frame).unwrap();
    let output = Command::new("curl")
        .args(["-s", "--http1.1", "-X", "POST", "-D", "-", "-o"])
        .arg(&body_file)
        .args(["-H", "content-type: application/grpc-web+proto", "-H", "x-grpc-web: 1"])
        .args(["-H", "origin: https://app.example.org", "-H"])
        .arg(format!("authorization: Bearer {token}"))
        .arg("--data-binary")
        .arg(format!("@{}", request_file.display()))
        .arg(format!("{}/bridgeclub.game.v1.GameService/MakeCall", app.uri()))
        .output()
        .expect("curl must be installed for the grpc-web test");
    let body = std::fs::read(&body_file).unwrap_or_default();
    for file in [&request_file, &body_file] {
        let _ = std::fs::remove_file(file);
    }

    let head = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut fields = header_lines(&head);
    fields.extend(trailer_lines(&body));
    let exposed = fields.get("access-control-expose-headers").map(|v| v.to_str().unwrap().to_ascii_lowercase());
    let exposed = exposed.unwrap_or_else(|| panic!("nothing exposed: {head}"));
    for name in ["grpc-status", "grpc-message", "grpc-status-details-bin", LAW_METADATA_KEY] {
        assert!(exposed.split(',').any(|e| e.trim() == name), "{name} not exposed: {exposed}");
    }
    let status = tonic::Status::from_header_map(&fields).unwrap_or_else(|| panic!("no status: {head} {body:?}"));
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(!status.details().is_empty(), "no grpc-status-details-bin: {head} {body:?}");
    let info = status.get_details_error_info().unwrap();
    assert_eq!(info.reason, REASON_LAW_FORBIDS);
    assert_eq!(info.metadata.get(LAW_NUMBER_KEY).map(String::as_str), Some("17"));
    assert!(fields.get(LAW_METADATA_KEY).is_some(), "{head} {body:?}");
}

/// The header fields of an HTTP/1.1 response head (the last one, after any `100 Continue`).
fn header_lines(head: &str) -> http::HeaderMap {
    let last = head.trim_end().rsplit("\r\n\r\n").next().unwrap_or_default();
    fields(last.lines().skip(1))
}

/// The fields of a grpc-web trailer frame (flag 0x80) in a response body, if any: the status
/// travels there when the server sent a message first.
fn trailer_lines(mut body: &[u8]) -> http::HeaderMap {
    while body.len() >= 5 {
        let length = u32::from_be_bytes([body[1], body[2], body[3], body[4]]) as usize;
        let payload = body.get(5..5 + length).unwrap_or_default();
        if body[0] & 0x80 != 0 {
            return fields(String::from_utf8_lossy(payload).lines());
        }
        body = body.get(5 + length..).unwrap_or_default();
    }
    http::HeaderMap::new()
}

fn fields<'a>(lines: impl Iterator<Item = &'a str>) -> http::HeaderMap {
    let mut map = http::HeaderMap::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        if let (Ok(name), Ok(value)) =
            (http::HeaderName::from_bytes(name.trim().as_bytes()), http::HeaderValue::from_str(value.trim()))
        {
            map.append(name, value);
        }
    }
    map
}
