//! A member's sign-in code by e-mail (issue 17) on a real server, with a mail server the test runs
//! itself ([`SmtpSink`]): the desk has the code mailed, never sees it, and the member signs in with
//! the code read out of the mail. Without a mail server, or without an address, the desk is refused
//! FAILED_PRECONDITION with a reason of its own; a mail server that is silent, away, refusing, or
//! that takes the mail and never confirms it, is UNAVAILABLE within the timeout, and the code of a
//! mail not sent does not work.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use api::membership::v1 as pb;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use e2e::TestApp;
use platform::auth::Role;
use platform::config::{MailConfig, MailTls, PlatformConfig, Secret};
use platform::mail::testing::{Behaviour, ReceivedMail, SmtpSink};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use tonic::Code;
use tonic_types::StatusExt;

/// How long the servers that fail are given before UNAVAILABLE.
const SHORT_TIMEOUT_MS: u64 = 500;
/// What the test allows beyond that timeout before calling the answer late: a loaded machine.
const LEEWAY: Duration = Duration::from_secs(4);

/// The mail server of each test; the configuration hook is a plain function, so each test has its
/// own slot and hook.
static MAILED: OnceLock<u16> = OnceLock::new();
static NO_ADDRESS: OnceLock<u16> = OnceLock::new();
static SILENT: OnceLock<u16> = OnceLock::new();
static HANGING: OnceLock<u16> = OnceLock::new();
static REFUSING: OnceLock<u16> = OnceLock::new();
static AWAY: OnceLock<u16> = OnceLock::new();

fn mail_at(config: &mut PlatformConfig, port: &OnceLock<u16>, timeout_ms: u64) {
    let mut mail = MailConfig::new("127.0.0.1", "Riverside Bridge Club <desk@club.example>");
    mail.port = Some(*port.get().expect("the mail server starts first"));
    mail.tls = MailTls::None;
    mail.username = Some("desk@club.example".to_owned());
    mail.password = Some(Secret::new("the desk's mail password"));
    mail.club_name = Some("Riverside Bridge Club".to_owned());
    mail.timeout_ms = timeout_ms;
    config.mail = Some(mail);
}

fn mailed(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &MAILED, 10_000);
}

fn no_address(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &NO_ADDRESS, 10_000);
}

fn silent(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &SILENT, SHORT_TIMEOUT_MS);
}

fn hanging(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &HANGING, SHORT_TIMEOUT_MS);
}

fn refusing(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &REFUSING, SHORT_TIMEOUT_MS);
}

fn away(config: &mut PlatformConfig, _: &mut club::Settings) {
    mail_at(config, &AWAY, SHORT_TIMEOUT_MS);
}

fn desk(app: &TestApp) -> SignInServiceClient<platform::app::PeerChannel> {
    SignInServiceClient::new(app.channel(Some(&app.token("front-desk", &[Role::Desk]))))
}

async fn register(app: &TestApp, player_id: &str, name: &str, email: &str) -> Result<pb::Player, tonic::Status> {
    let request = pb::RegisterPlayerRequest {
        player_id: player_id.to_owned(),
        name: name.to_owned(),
        contact: Some(pb::Contact { email: email.to_owned(), phone: String::new() }),
        ..Default::default()
    };
    let answer = app.membership("front-desk", &[Role::Desk]).register_player(request).await?;
    Ok(answer.into_inner().player.unwrap())
}

/// The desk asks for `player_id`'s code `delivery`; the answer and how long it took. A call that
/// hangs fails the test rather than holding it.
async fn issue(
    app: &TestApp,
    player_id: &str,
    delivery: pb::CodeDelivery,
) -> (Result<pb::IssueSignInCodeResponse, tonic::Status>, Duration) {
    let request = pb::IssueSignInCodeRequest { player_id: player_id.to_owned(), delivery: delivery as i32 };
    let start = Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(30), desk(app).issue_sign_in_code(request))
        .await
        .expect("IssueSignInCode hung");
    (answer.map(tonic::Response::into_inner), start.elapsed())
}

async fn redeem(app: &TestApp, code: &str) -> Result<pb::SignedIn, tonic::Status> {
    let mut anonymous = SignInServiceClient::new(app.channel(None));
    let answer = anonymous.redeem_code(pb::RedeemCodeRequest { code: code.to_owned() }).await?;
    Ok(answer.into_inner().signed_in.unwrap())
}

fn reason(status: &tonic::Status) -> String {
    status.get_details_error_info().map(|info| info.reason).unwrap_or_default()
}

/// The next mail the server takes; a mail that never comes fails the test.
async fn next_mail(sink: &mut SmtpSink) -> ReceivedMail {
    tokio::time::timeout(Duration::from_secs(10), sink.next_mail()).await.expect("no mail came").expect("a mail")
}

/// The sign-in code in a mail's text: three groups of four letters and digits.
fn code_in(mail: &ReceivedMail) -> String {
    let is_code = |word: &&str| {
        let groups: Vec<&str> = word.split('-').collect();
        groups.len() == 3 && groups.iter().all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_alphanumeric()))
    };
    mail.body().split_whitespace().find(is_code).unwrap_or_else(|| panic!("no code in {}", mail.data)).to_owned()
}

/// The codes of `player_id` the database holds.
async fn codes_held(app: &TestApp, player_id: &str) -> u64 {
    use membership::entity::sign_in_codes;
    let db = app.database.connect().await;
    let held = sign_in_codes::Entity::find().filter(sign_in_codes::Column::PlayerId.eq(player_id)).count(&db).await;
    held.unwrap()
}

/// UNAVAILABLE with DEPENDENCY_UNAVAILABLE, well before the desk would give up.
fn assert_unavailable_in_time(answer: Result<pb::IssueSignInCodeResponse, tonic::Status>, took: Duration) {
    let status = answer.expect_err("the mail was not sent");
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert_eq!(reason(&status), "DEPENDENCY_UNAVAILABLE", "{status:?}");
    assert!(status.message().contains("no mail was sent"), "{status:?}");
    assert!(took < Duration::from_millis(SHORT_TIMEOUT_MS) + LEEWAY, "bounded by the mail timeout: {took:?}");
}

#[tokio::test]
async fn a_member_signs_in_with_the_code_the_desk_had_mailed_to_him() {
    let mut sink = SmtpSink::start().await;
    MAILED.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(mailed).await;
    register(&app, "ann", "Ann Smith", "ann.smith@club.example").await.unwrap();

    let (answer, _) = issue(&app, "ann", pb::CodeDelivery::Email).await;
    let answer = answer.unwrap();
    assert_eq!(answer.delivery, pb::CodeDelivery::Email as i32);
    assert_eq!(answer.sent_to, "a***@club.example");
    assert!(answer.code.is_empty(), "the desk does not see a mailed code: {answer:?}");
    assert!(answer.expires_at.is_some());

    let mail = next_mail(&mut sink).await;
    assert_eq!(mail.recipients, ["ann.smith@club.example"]);
    assert_eq!(mail.from, "desk@club.example");
    assert_eq!(mail.login, Some(("desk@club.example".to_owned(), "the desk's mail password".to_owned())));
    assert_eq!(mail.header("Subject").as_deref(), Some("Your sign-in code for Riverside Bridge Club"));
    let words = mail.body().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.starts_with("Dear Ann Smith,"), "{words}");
    assert!(words.contains("The desk of Riverside Bridge Club"), "{words}");
    assert!(words.contains("It works once, for 10 minutes (until "), "{words}");
    let code = code_in(&mail);
    assert!(!format!("{answer:?}").contains(&code), "the code is nowhere in the desk's answer");

    let signed_in = redeem(&app, &code).await.unwrap();
    assert_eq!(signed_in.subject, "ann");
    assert_eq!(signed_in.roles, [api::common::v1::Role::Player as i32]);
    assert_eq!(redeem(&app, &code).await.unwrap_err().code(), Code::Unauthenticated, "a code works once");

    // Shown to the desk, as before (also when the delivery is left unset): nothing is mailed.
    for delivery in [pb::CodeDelivery::ShowToDesk, pb::CodeDelivery::Unspecified] {
        let (answer, _) = issue(&app, "ann", delivery).await;
        let answer = answer.unwrap();
        assert_eq!((answer.delivery, answer.sent_to.as_str()), (pb::CodeDelivery::ShowToDesk as i32, ""));
        assert_eq!(redeem(&app, &answer.code).await.unwrap().subject, "ann");
    }
    assert!(sink.try_next_mail().is_none(), "a shown code is not mailed");

    let request = pb::IssueSignInCodeRequest { player_id: "ann".into(), delivery: 7 };
    let status = desk(&app).issue_sign_in_code(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.get_details_bad_request().unwrap().field_violations[0].field, "delivery");
}

#[tokio::test]
async fn without_a_mail_server_the_desk_is_refused_and_the_member_s_code_stays() {
    let app = TestApp::spawn().await;
    register(&app, "bob", "Bob", "bob@club.example").await.unwrap();
    let (shown, _) = issue(&app, "bob", pb::CodeDelivery::ShowToDesk).await;
    let (refused, _) = issue(&app, "bob", pb::CodeDelivery::Email).await;
    let status = refused.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert_eq!(reason(&status), "MAIL_NOT_CONFIGURED", "{status:?}");
    assert!(status.message().contains("[mail]"), "says what is missing: {status:?}");
    assert_eq!(redeem(&app, &shown.unwrap().code).await.unwrap().subject, "bob", "the shown code still works");
}

#[tokio::test]
async fn a_member_without_an_address_is_refused_and_a_malformed_one_is_never_stored() {
    let mut sink = SmtpSink::start().await;
    NO_ADDRESS.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(no_address).await;
    register(&app, "cat", "Cat", "").await.unwrap();
    let (shown, _) = issue(&app, "cat", pb::CodeDelivery::ShowToDesk).await;
    let (refused, _) = issue(&app, "cat", pb::CodeDelivery::Email).await;
    let status = refused.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert_eq!(reason(&status), "NO_EMAIL_ADDRESS", "{status:?}");
    assert_eq!(redeem(&app, &shown.unwrap().code).await.unwrap().subject, "cat", "the shown code still works");

    // An address mail cannot be sent to is refused where the desk types it.
    for bad in ["cat", "cat@", "Cat <cat@club.example>", "cat@club..example"] {
        let status = register(&app, "cat2", "Cat Two", bad).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{bad:?}: {status:?}");
        assert_eq!(status.get_details_bad_request().unwrap().field_violations[0].field, "contact.email");
    }
    let mut membership = app.membership("front-desk", &[Role::Desk]);
    let mut update = pb::UpdatePlayerRequest {
        player_id: "cat".into(),
        expected_version: 1,
        name: "Cat".into(),
        member_number: String::new(),
        contact: Some(pb::Contact { email: "cat at club.example".into(), phone: String::new() }),
        active: true,
    };
    let status = membership.update_player(update.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    update.contact = Some(pb::Contact { email: " cat@club.example ".into(), phone: String::new() });
    let player = membership.update_player(update).await.unwrap().into_inner().player.unwrap();
    assert_eq!(player.contact.unwrap().email, "cat@club.example");

    // Others see his name, not his address; he sees his own.
    let read = |viewer: &str| {
        let request = pb::GetPlayerRequest { player_id: "cat".into() };
        let mut client = app.membership(viewer, &[Role::Player]);
        async move { client.get_player(request).await.unwrap().into_inner().player.unwrap() }
    };
    assert!(read("someone-else").await.contact.is_none());
    assert_eq!(read("cat").await.contact.unwrap().email, "cat@club.example");

    // With an address, the mail goes.
    let (answer, _) = issue(&app, "cat", pb::CodeDelivery::Email).await;
    assert_eq!(answer.unwrap().sent_to, "c***@club.example");
    let code = code_in(&next_mail(&mut sink).await);
    assert_eq!(redeem(&app, &code).await.unwrap().subject, "cat");
}

#[tokio::test]
async fn a_silent_mail_server_is_unavailable_within_the_timeout_and_leaves_no_code() {
    let sink = SmtpSink::start_with(Behaviour::Silent).await;
    SILENT.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(silent).await;
    register(&app, "dan", "Dan", "dan@club.example").await.unwrap();
    let (answer, took) = issue(&app, "dan", pb::CodeDelivery::Email).await;
    assert_unavailable_in_time(answer, took);
    assert_eq!(codes_held(&app, "dan").await, 0, "the code of a mail not sent is withdrawn");
}

#[tokio::test]
async fn a_mail_taken_but_never_confirmed_leaves_a_code_that_does_not_work() {
    let mut sink = SmtpSink::start_with(Behaviour::HangAfterData).await;
    HANGING.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(hanging).await;
    register(&app, "eve", "Eve", "eve@club.example").await.unwrap();
    let (answer, took) = issue(&app, "eve", pb::CodeDelivery::Email).await;
    assert_unavailable_in_time(answer, took);
    // The server has the mail and might still deliver it: its code must not work.
    let code = code_in(&next_mail(&mut sink).await);
    assert_eq!(redeem(&app, &code).await.unwrap_err().code(), Code::Unauthenticated);
    assert_eq!(codes_held(&app, "eve").await, 0);
    // Asking again is safe: a new code works.
    let (shown, _) = issue(&app, "eve", pb::CodeDelivery::ShowToDesk).await;
    assert_eq!(redeem(&app, &shown.unwrap().code).await.unwrap().subject, "eve");
}

#[tokio::test]
async fn a_mail_server_that_refuses_the_mail_is_unavailable_saying_so() {
    let sink = SmtpSink::start_with(Behaviour::RefuseRecipients).await;
    REFUSING.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(refusing).await;
    register(&app, "fay", "Fay", "fay@club.example").await.unwrap();
    let (answer, took) = issue(&app, "fay", pb::CodeDelivery::Email).await;
    let message = answer.as_ref().err().map(|s| s.message().to_owned()).unwrap_or_default();
    assert_unavailable_in_time(answer, took);
    assert!(message.contains("refused the mail") && message.contains("550"), "{message}");
    assert_eq!(codes_held(&app, "fay").await, 0);
}

#[tokio::test]
async fn a_mail_server_that_is_away_is_unavailable_at_once() {
    // A port nothing listens on: the connection is refused.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    AWAY.set(listener.local_addr().unwrap().port()).unwrap();
    drop(listener);
    let app = TestApp::spawn_with(away).await;
    register(&app, "gus", "Gus", "gus@club.example").await.unwrap();
    let (answer, took) = issue(&app, "gus", pb::CodeDelivery::Email).await;
    assert_unavailable_in_time(answer, took);
    assert_eq!(codes_held(&app, "gus").await, 0);
}
