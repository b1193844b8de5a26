//! Signing in (issue 17) on a real server: a member signs in on his phone with the code the desk
//! issued him, refreshes, plays a card at his table and is refused everywhere once the desk revokes
//! him; staff sign in with passwords and their roles are honoured; the first start makes one
//! administrator; a refresh token used twice ends its session; an ended session reaches every
//! replica and every separate service within the revocation bound.

use std::time::{Duration, Instant};

use api::game::v1 as game;
use api::membership::v1 as pb;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use e2e::{GameClient, MembershipClient, TestApp};
use laws::Seat;
use platform::app::PeerChannel;
use platform::auth::Role;
use tonic::Code;
use tonic_types::StatusExt;

use crate::game::rubber_four_spades;

type SignInClient = SignInServiceClient<PeerChannel>;

/// Signing in with no token, as a phone does before it has one.
fn anonymous(app: &TestApp) -> SignInClient {
    SignInServiceClient::new(app.channel(None))
}

fn with_token(app: &TestApp, token: &str) -> SignInClient {
    SignInServiceClient::new(app.channel(Some(token)))
}

fn desk(app: &TestApp) -> SignInClient {
    with_token(app, &app.token("front-desk", &[Role::Desk]))
}

async fn issue_code(app: &TestApp, player_id: &str) -> String {
    let request = pb::IssueSignInCodeRequest { player_id: player_id.to_owned(), ..Default::default() };
    desk(app).issue_sign_in_code(request).await.unwrap().into_inner().code
}

async fn redeem(app: &TestApp, code: &str) -> Result<pb::SignedIn, tonic::Status> {
    let answer = anonymous(app).redeem_code(pb::RedeemCodeRequest { code: code.to_owned() }).await?;
    Ok(answer.into_inner().signed_in.unwrap())
}

async fn refresh(app: &TestApp, refresh_token: &str) -> Result<pb::SignedIn, tonic::Status> {
    let answer = anonymous(app).refresh(pb::RefreshRequest { refresh_token: refresh_token.to_owned() }).await?;
    Ok(answer.into_inner().signed_in.unwrap())
}

async fn sign_in(app: &TestApp, name: &str, password: &str) -> Result<pb::SignedIn, tonic::Status> {
    let request = pb::SignInRequest { name: name.to_owned(), password: password.to_owned() };
    Ok(anonymous(app).sign_in(request).await?.into_inner().signed_in.unwrap())
}

fn reason(status: &tonic::Status) -> String {
    status.get_details_error_info().map(|info| info.reason).unwrap_or_default()
}

fn assert_refused(result: Result<impl std::fmt::Debug, tonic::Status>, what: &str) -> tonic::Status {
    let status = result.expect_err(what);
    assert_eq!(status.code(), Code::Unauthenticated, "{what}: {status:?}");
    assert_eq!(reason(&status), "UNAUTHENTICATED", "{what}: {status:?}");
    status
}

async fn register(app: &TestApp, player_id: &str) {
    let request =
        pb::RegisterPlayerRequest { player_id: player_id.to_owned(), name: player_id.to_owned(), ..Default::default() };
    app.membership("front-desk", &[Role::Desk]).register_player(request).await.unwrap();
}

async fn get_player(membership: &mut MembershipClient, player_id: &str) -> Result<pb::Player, tonic::Status> {
    let request = pb::GetPlayerRequest { player_id: player_id.to_owned() };
    Ok(membership.get_player(request).await?.into_inner().player.unwrap())
}

#[tokio::test]
async fn a_member_signs_in_with_the_desk_s_code_plays_a_card_and_is_refused_once_revoked() {
    let app = TestApp::spawn().await;
    // North declares four spades; East, our member, is on lead.
    let table = rubber_four_spades(&app).await;
    let east = table.players[Seat::East.index()].clone();

    // The desk issues his code; he redeems it on his phone, with no token.
    let code = issue_code(&app, &east).await;
    let signed_in = redeem(&app, &code).await.unwrap();
    assert_eq!(signed_in.subject, east, "the access token speaks for his player id");
    assert_eq!(signed_in.roles, [api::common::v1::Role::Player as i32]);
    assert!(!signed_in.session_id.is_empty());
    assert_refused(redeem(&app, &code).await, "a code works once");

    // He refreshes, and acts with the new access token: his own hand, then his lead.
    let refreshed = refresh(&app, &signed_in.refresh_token).await.unwrap();
    assert_ne!(refreshed.refresh_token, signed_in.refresh_token, "the refresh token rotates");
    assert_eq!(
        (refreshed.subject.as_str(), refreshed.session_id.as_str()),
        (east.as_str(), signed_in.session_id.as_str())
    );
    let mut phone = GameClient::new(app.channel(Some(&refreshed.access_token)));
    let view = table.view_as(&mut phone).await;
    assert_eq!(view.hands.len(), 1, "he sees his own hand only");
    let view = table.play_as(&mut phone, Seat::East, "CA").await.unwrap();
    assert_eq!(view.tricks.first().map(|t| t.cards.len()), Some(1), "his lead is on the table");
    let mut other_seat = GameClient::new(app.channel(Some(&refreshed.access_token)));
    let refused = table.play_as(&mut other_seat, Seat::South, "D2").await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "only his own seat: {refused:?}");

    // The desk revokes him: his refresh token and his access token are refused, at once.
    let request = pb::RevokeMemberSessionsRequest { player_id: east.clone() };
    let revoked = desk(&app).revoke_member_sessions(request).await.unwrap().into_inner();
    assert_eq!(revoked.sessions_revoked, 1);
    assert_refused(refresh(&app, &refreshed.refresh_token).await, "refresh after revocation");
    let request = game::GetTableStateRequest { table_id: table.id.clone() };
    let status = assert_refused(phone.get_table_state(request).await, "access token after revocation");
    assert!(status.message().contains("session has ended"), "{status:?}");
    // Tokens that belong to no session (the services', `bridgectl token`'s) keep working.
    let request = game::GetTableStateRequest { table_id: table.id.clone() };
    app.game("front-desk", &[Role::Desk]).get_table_state(request).await.unwrap();
}

#[tokio::test]
async fn a_code_is_refused_when_wrong_expired_or_tried_too_often_and_bad_input_names_the_field() {
    let app = TestApp::spawn().await;
    register(&app, "carol").await;
    let malformed = redeem(&app, "not a code").await.unwrap_err();
    assert_eq!(malformed.code(), Code::InvalidArgument);
    assert_eq!(malformed.get_details_bad_request().unwrap().field_violations[0].field, "code");
    let missing = desk(&app).issue_sign_in_code(pb::IssueSignInCodeRequest::default()).await.unwrap_err();
    assert_eq!(missing.code(), Code::InvalidArgument);
    let stranger = desk(&app)
        .issue_sign_in_code(pb::IssueSignInCodeRequest { player_id: "nobody".into(), ..Default::default() })
        .await;
    assert_eq!(stranger.unwrap_err().code(), Code::NotFound, "only a member on the register");
    let player_token = app.token("carol", &[Role::Player]);
    let request = pb::IssueSignInCodeRequest { player_id: "carol".into(), ..Default::default() };
    let denied = with_token(&app, &player_token).issue_sign_in_code(request).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied, "a member does not issue codes");

    // Five wrong tries with the code's first characters burn it: the right one no longer works.
    let code = issue_code(&app, "carol").await;
    let wrong = format!("{}-0000-0000", &code[..4]);
    let wrong = if wrong == code { format!("{}-1111-1111", &code[..4]) } else { wrong };
    for _ in 0..5 {
        let status = assert_refused(redeem(&app, &wrong).await, "a wrong code");
        assert!(!status.message().contains("carol"), "never says whose: {status:?}");
    }
    assert_refused(redeem(&app, &code).await, "a burnt code");
    // A new code replaces the last; it works, typed in lower case without dashes.
    let first = issue_code(&app, "carol").await;
    let second = issue_code(&app, "carol").await;
    assert_refused(redeem(&app, &first).await, "a replaced code");
    let typed = second.to_lowercase().replace('-', "");
    assert_eq!(redeem(&app, &typed).await.unwrap().subject, "carol");
}

#[tokio::test]
async fn a_refresh_token_used_twice_ends_its_session() {
    let app = TestApp::spawn().await;
    register(&app, "dave").await;
    let first = redeem(&app, &issue_code(&app, "dave").await).await.unwrap();
    let second = refresh(&app, &first.refresh_token).await.unwrap();
    // Someone replays the first refresh token: the whole session ends, for him and for the holder.
    let status = assert_refused(refresh(&app, &first.refresh_token).await, "a spent refresh token");
    assert!(status.message().contains("used before"), "{status:?}");
    assert_refused(refresh(&app, &second.refresh_token).await, "the session's latest refresh token");
    let mut membership = MembershipClient::new(app.channel(Some(&second.access_token)));
    assert_refused(get_player(&mut membership, "dave").await, "the session's access token");
    assert_refused(refresh(&app, "f".repeat(64).as_str()).await, "a refresh token never given");
    let empty = refresh(&app, "").await.unwrap_err();
    assert_eq!(empty.code(), Code::InvalidArgument);
    // Another sign-in is another session, unaffected.
    let again = redeem(&app, &issue_code(&app, "dave").await).await.unwrap();
    let mut membership = MembershipClient::new(app.channel(Some(&again.access_token)));
    get_player(&mut membership, "dave").await.unwrap();
}

#[tokio::test]
async fn staff_sign_in_with_passwords_and_their_roles_are_honoured() {
    let app = TestApp::spawn().await;
    // The first start made the administrator, with a password shown once.
    let first = app.club().first_administrator.clone().expect("the first start makes an administrator");
    assert_eq!(first.name, "admin");
    let admin = sign_in(&app, &first.name, &first.password).await.unwrap();
    assert_eq!(admin.subject, "staff:admin");
    assert_eq!(admin.roles, [api::common::v1::Role::Admin as i32]);
    let mut accounts = with_token(&app, &admin.access_token);

    // The administrator makes a desk account.
    let request = pb::CreateAccountRequest {
        name: "desk1".into(),
        roles: vec![api::common::v1::Role::Desk as i32],
        password: "a long desk password".into(),
    };
    accounts.create_account(request.clone()).await.unwrap();
    assert_eq!(accounts.create_account(request).await.unwrap_err().code(), Code::AlreadyExists);
    let bad = pb::CreateAccountRequest { name: "no spaces".into(), roles: vec![2], password: String::new() };
    let status = accounts.create_account(bad).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.get_details_bad_request().unwrap().field_violations[0].field, "name");
    let player_role = pb::CreateAccountRequest { name: "p".into(), roles: vec![1], password: String::new() };
    let status = accounts.create_account(player_role).await.unwrap_err();
    assert_eq!(status.get_details_bad_request().unwrap().field_violations[0].field, "roles");
    let listed = accounts.list_accounts(pb::ListAccountsRequest {}).await.unwrap().into_inner().accounts;
    assert_eq!(listed.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["admin", "desk1"]);

    // A wrong password and an unknown account are refused alike.
    let wrong = assert_refused(sign_in(&app, "desk1", "not the password").await, "a wrong password");
    let unknown = assert_refused(sign_in(&app, "nobody", "not the password").await, "an unknown account");
    assert_eq!(wrong.message(), unknown.message(), "never says whether the account exists");
    let blank = sign_in(&app, "", "x").await.unwrap_err();
    assert_eq!(blank.get_details_bad_request().unwrap().field_violations[0].field, "name");

    // The right one signs in, with the desk's roles and no more.
    let desk1 = sign_in(&app, "desk1", "a long desk password").await.unwrap();
    assert_eq!(desk1.subject, "staff:desk1");
    assert_eq!(desk1.roles, [api::common::v1::Role::Desk as i32]);
    let mut front = MembershipClient::new(app.channel(Some(&desk1.access_token)));
    let request = pb::RegisterPlayerRequest { player_id: "erin".into(), name: "Erin".into(), ..Default::default() };
    front.register_player(request).await.unwrap();
    let denied = with_token(&app, &desk1.access_token).list_accounts(pb::ListAccountsRequest {}).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied, "the desk manages no accounts");

    // New roles end the account's sessions: the next sign-in carries them.
    let request = pb::SetAccountRolesRequest { name: "desk1".into(), roles: vec![3] };
    accounts.set_account_roles(request).await.unwrap();
    assert_refused(get_player(&mut front, "erin").await, "a token with the old roles");
    let arbiter = sign_in(&app, "desk1", "a long desk password").await.unwrap();
    assert_eq!(arbiter.roles, [api::common::v1::Role::Arbiter as i32]);
    // The last administrator keeps his role.
    let request = pb::SetAccountRolesRequest { name: "admin".into(), roles: vec![2] };
    assert_eq!(accounts.set_account_roles(request).await.unwrap_err().code(), Code::FailedPrecondition);

    // A few wrong passwords, then the name is throttled, whether or not the account exists.
    for name in ["desk1", "nobody"] {
        let mut answers = Vec::new();
        for _ in 0..4 {
            answers.push(sign_in(&app, name, "still not the password").await.unwrap_err().code());
        }
        assert_eq!(answers, [Code::Unauthenticated; 4], "{name}: four wrong tries are only wrong");
        // The fifth blocks the name for a second: a try within it is throttled. (Should a slow
        // machine take longer than that between two tries, the next wrong one blocks it again.)
        let mut throttled = None;
        for _ in 0..5 {
            match sign_in(&app, name, "still not the password").await.unwrap_err() {
                status if status.code() == Code::ResourceExhausted => {
                    throttled = Some(status);
                    break;
                }
                status => assert_eq!(status.code(), Code::Unauthenticated, "{name}: {status:?}"),
            }
        }
        let throttled = throttled.unwrap_or_else(|| panic!("{name} was never throttled"));
        assert_eq!(reason(&throttled), "RATE_LIMITED");
        assert!(throttled.get_details_retry_info().and_then(|r| r.retry_delay).is_some());
    }
    // Resetting the password lifts the throttle and ends the sessions.
    let request = pb::ResetPasswordRequest { name: "desk1".into(), password: String::new() };
    let generated = accounts.reset_password(request).await.unwrap().into_inner().generated_password;
    let mut arbiter_client = MembershipClient::new(app.channel(Some(&arbiter.access_token)));
    assert_refused(get_player(&mut arbiter_client, "erin").await, "a token from before the reset");
    assert!(sign_in(&app, "desk1", &generated).await.is_ok());
}

#[tokio::test]
async fn the_first_start_alone_makes_an_administrator() {
    let mut app = TestApp::spawn().await;
    let first = app.club().first_administrator.clone().unwrap();
    assert!(first.password.len() >= 10);
    let notice = club::first_start_notice(&first, "127.0.0.1:50051");
    assert!(
        notice.contains(&first.password)
            && notice.contains("bridgectl --server http://127.0.0.1:50051 signin --name admin")
    );
    app.restart().await;
    assert_eq!(app.club().first_administrator, None, "told once: the club has its administrator");
    assert!(sign_in(&app, "admin", &first.password).await.is_ok(), "the password still signs him in");
}

/// Waits until reading `player` through `membership` is UNAUTHENTICATED, at most `bound`.
async fn refused_within(bound: Duration, membership: &mut MembershipClient, player: &str) -> Duration {
    let start = Instant::now();
    loop {
        match get_player(membership, player).await {
            Err(status) if status.code() == Code::Unauthenticated => return start.elapsed(),
            other => assert!(start.elapsed() < bound, "still accepted after {:?}: {other:?}", start.elapsed()),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn another_replica_refuses_a_revoked_token_within_the_poll_interval() {
    let app = TestApp::spawn().await;
    register(&app, "frank").await;
    let replica = app.replica().await;
    let signed_in = redeem(&app, &issue_code(&app, "frank").await).await.unwrap();
    let channel = platform::client::channel(&replica.server.uri()).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&signed_in.access_token).unwrap();
    let mut there = MembershipClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
    get_player(&mut there, "frank").await.unwrap();
    desk(&app).revoke_member_sessions(pb::RevokeMemberSessionsRequest { player_id: "frank".into() }).await.unwrap();
    // The default poll is a second; allow for a slow machine.
    let took = refused_within(Duration::from_secs(5), &mut there, "frank").await;
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[tokio::test]
async fn through_the_stand_alone_gateway_a_member_signs_in_and_is_refused_once_revoked() {
    let app = TestApp::spawn_split().await;
    register(&app, "gina").await;
    // The gateway routes the sign-in service by its package, as it does membership's.
    let signed_in = redeem(&app, &issue_code(&app, "gina").await).await.unwrap();
    let signed_in = refresh(&app, &signed_in.refresh_token).await.unwrap();
    let mut membership = MembershipClient::new(app.channel(Some(&signed_in.access_token)));
    get_player(&mut membership, "gina").await.unwrap();
    let mut scoring =
        api::scoring::v1::scoring_service_client::ScoringServiceClient::new(app.channel(Some(&signed_in.access_token)));
    let request = api::scoring::v1::ScoreRubberRequest::default();
    let before = scoring.score_rubber(request.clone()).await.err().map(|status| status.code());
    assert_ne!(before, Some(Code::Unauthenticated), "the scoring service takes his token");
    desk(&app).revoke_member_sessions(pb::RevokeMemberSessionsRequest { player_id: "gina".into() }).await.unwrap();
    refused_within(Duration::from_secs(5), &mut membership, "gina").await;
    let start = Instant::now();
    loop {
        let code = scoring.score_rubber(request.clone()).await.err().map(|status| status.code());
        if code == Some(Code::Unauthenticated) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "scoring still takes the token: {code:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_code_and_an_access_token_expire_and_a_refresh_outlives_the_access_token() {
    let app = TestApp::spawn_with(|_, settings| {
        settings.membership.sign_in.code_secs = 1;
        settings.membership.sign_in.access_token_secs = 1;
    })
    .await;
    register(&app, "hana").await;
    let stale = issue_code(&app, "hana").await;
    let fresh = issue_code(&app, "hana").await;
    let signed_in = redeem(&app, &fresh).await.unwrap();
    assert_refused(redeem(&app, &stale).await, "a replaced code");
    let stale = {
        register(&app, "ivan").await;
        issue_code(&app, "ivan").await
    };
    // Past the code's second and the access token's, and the verifier's five seconds of leeway:
    // expiries are whole seconds, so the token may be refused only from 7 s after it was made.
    tokio::time::sleep(Duration::from_millis(7_500)).await;
    assert_refused(redeem(&app, &stale).await, "an expired code");
    let mut membership = MembershipClient::new(app.channel(Some(&signed_in.access_token)));
    let status = assert_refused(get_player(&mut membership, "hana").await, "an expired access token");
    assert!(status.message().contains("expired"), "{status:?}");
    let refreshed = refresh(&app, &signed_in.refresh_token).await.unwrap();
    let mut membership = MembershipClient::new(app.channel(Some(&refreshed.access_token)));
    get_player(&mut membership, "hana").await.unwrap();
}

/// One grpc-web call as a phone's browser app makes it (HTTP/1.1, binary framing, trailers in the
/// body), with `token` if it has one: the response headers, and the message of the answer's data
/// frame (empty if it has none). curl blocks its thread, so the server needs another one.
fn grpc_web(app: &TestApp, path: &str, request: &impl prost::Message, token: Option<&str>) -> (String, Vec<u8>) {
    let message = request.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(&message);
    let base = std::env::temp_dir().join(format!("grpc-web-signin-{}", uuid::Uuid::new_v4().simple()));
    let (request_file, response_file) = (base.with_extension("in"), base.with_extension("out"));
    std::fs::write(&request_file, frame).unwrap();
    let mut curl = std::process::Command::new("curl");
    curl.args([
        "-s",
        "--http1.1",
        "-X",
        "POST",
        "-H",
        "content-type: application/grpc-web+proto",
        "-H",
        "x-grpc-web: 1",
    ]);
    if let Some(token) = token {
        curl.args(["-H", &format!("authorization: Bearer {token}")]);
    }
    let output = curl
        .args(["-D", "-", "-o"])
        .arg(&response_file)
        .arg("--data-binary")
        .arg(format!("@{}", request_file.display()))
        .arg(format!("{}{path}", app.uri()))
        .output()
        .expect("curl must be installed for the grpc-web test");
    let body = std::fs::read(&response_file).unwrap_or_default();
    let _ = std::fs::remove_file(&request_file);
    let _ = std::fs::remove_file(&response_file);
    let mut headers = String::from_utf8_lossy(&output.stdout).to_ascii_lowercase();
    let mut message = Vec::new();
    let mut rest = &body[..];
    while rest.len() >= 5 {
        let len = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        let (flag, payload) = (rest[0], &rest[5..5 + len]);
        if flag & 0x80 == 0 {
            message = payload.to_vec();
        } else {
            headers.push_str(&String::from_utf8_lossy(payload).to_ascii_lowercase());
        }
        rest = &rest[5 + len..];
    }
    (headers, message)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_signs_in_through_grpc_web_and_is_refused_there_once_revoked() {
    use prost::Message;
    let app = TestApp::spawn().await;
    // North declares four spades; East, a member signing in on his phone, is on lead.
    let table = rubber_four_spades(&app).await;
    let east = table.players[Seat::East.index()].clone();
    let code = issue_code(&app, &east).await;
    let redeem_path = "/bridgeclub.membership.v1.SignInService/RedeemCode";
    let (headers, message) = grpc_web(&app, redeem_path, &pb::RedeemCodeRequest { code }, None);
    assert!(headers.contains("grpc-status:0"), "{headers}");
    let signed_in = pb::RedeemCodeResponse::decode(&message[..]).unwrap().signed_in.unwrap();
    assert_eq!(signed_in.subject, east);

    let refresh_path = "/bridgeclub.membership.v1.SignInService/Refresh";
    let request = pb::RefreshRequest { refresh_token: signed_in.refresh_token };
    let (headers, message) = grpc_web(&app, refresh_path, &request, None);
    assert!(headers.contains("grpc-status:0"), "{headers}");
    let refreshed = pb::RefreshResponse::decode(&message[..]).unwrap().signed_in.unwrap();

    // With the refreshed token, through grpc-web: his opening lead at his table.
    let play_path = "/bridgeclub.game.v1.GameService/PlayCard";
    let lead = game::PlayCardRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        seat: api::common::v1::Seat::East as i32,
        card: Some("CA".parse::<laws::Card>().unwrap().into()),
        face_down: false,
    };
    let (headers, message) = grpc_web(&app, play_path, &lead, Some(&refreshed.access_token));
    assert!(headers.contains("grpc-status:0"), "{headers}");
    let view = game::PlayCardResponse::decode(&message[..]).unwrap().view.unwrap();
    assert_eq!(view.tricks.first().map(|t| t.cards.len()), Some(1), "his lead is on the table");
    assert_eq!(view.hands.len(), 2, "he sees his own hand and dummy, faced after the lead");

    let read_path = "/bridgeclub.membership.v1.MembershipService/GetPlayer";
    let read = pb::GetPlayerRequest { player_id: east.clone() };
    let (headers, message) = grpc_web(&app, read_path, &read, Some(&refreshed.access_token));
    assert!(headers.contains("grpc-status:0"), "{headers}");
    assert_eq!(pb::GetPlayerResponse::decode(&message[..]).unwrap().player.unwrap().player_id, east);

    let state_path = "/bridgeclub.game.v1.GameService/GetTableState";
    let state = game::GetTableStateRequest { table_id: table.id.clone() };
    desk(&app).revoke_member_sessions(pb::RevokeMemberSessionsRequest { player_id: east.clone() }).await.unwrap();
    let (headers, _) = grpc_web(&app, state_path, &state, Some(&refreshed.access_token));
    assert!(headers.contains("grpc-status: 16") || headers.contains("grpc-status:16"), "UNAUTHENTICATED: {headers}");
    let (headers, _) = grpc_web(&app, read_path, &read, Some(&refreshed.access_token));
    assert!(headers.contains("grpc-status: 16") || headers.contains("grpc-status:16"), "UNAUTHENTICATED: {headers}");
    let request = pb::RefreshRequest { refresh_token: refreshed.refresh_token };
    let (headers, _) = grpc_web(&app, refresh_path, &request, None);
    assert!(headers.contains("grpc-status: 16") || headers.contains("grpc-status:16"), "UNAUTHENTICATED: {headers}");
}
