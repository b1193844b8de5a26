//! Signing in with `bridgectl` against the whole platform: the administrator makes a desk account,
//! the desk member signs in with its password, the desk issues a member's code, the member
//! redeems it and refreshes with the file the refresh token is kept in, and the desk revokes him.
//! Where the club has a mail server, the desk sets a member's address and has his code mailed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::OnceLock;
use std::time::Duration;

use api::membership::v1 as pb;
use e2e::{MembershipClient, TestApp};
use platform::auth::Role;
use platform::config::{MailConfig, MailTls};
use platform::mail::testing::SmtpSink;

async fn as_admin(app: &TestApp, args: &[&str]) -> String {
    common::bridgectl_as(app, "the-admin", &[Role::Admin], args).await
}

async fn as_desk(app: &TestApp, args: &[&str]) -> String {
    common::bridgectl_as(app, "front-desk", &[Role::Desk], args).await
}

/// The one line a sign-in prints on standard output: the access token.
fn access_token(stdout: &str) -> String {
    let token = stdout.trim();
    assert_eq!(token.split('.').count(), 3, "a JWT alone on standard output: {stdout:?}");
    token.to_owned()
}

async fn read_player(app: &TestApp, token: &str, player_id: &str) -> Result<pb::Player, tonic::Status> {
    let request = pb::GetPlayerRequest { player_id: player_id.to_owned() };
    Ok(MembershipClient::new(app.channel(Some(token))).get_player(request).await?.into_inner().player.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn staff_and_members_sign_in_with_bridgectl() {
    let app = TestApp::spawn().await;
    let created =
        as_admin(&app, &["account", "create", "desk1", "--role", "desk", "--password", "a long desk password"]).await;
    assert!(created.contains("desk1") && created.contains("desk"), "{created}");
    let generated = as_admin(&app, &["account", "create", "arb", "--role", "arbiter"]).await;
    assert!(generated.contains("password: "), "a generated password is shown once: {generated}");
    let listed = as_admin(&app, &["account", "list"]).await;
    assert!(listed.contains("admin") && listed.contains("desk1") && listed.contains("arb"), "{listed}");

    let desk =
        access_token(&as_admin(&app, &["signin", "--name", "desk1", "--password", "a long desk password"]).await);
    let register = pb::RegisterPlayerRequest { player_id: "jo".into(), name: "Jo".into(), ..Default::default() };
    MembershipClient::new(app.channel(Some(&desk))).register_player(register).await.unwrap();
    let refused = common::bridgectl_ending(
        &app,
        "x",
        &[Role::Desk],
        &["signin", "--name", "desk1", "--password", "wrong one"],
        false,
    )
    .await;
    assert!(refused.contains("Unauthenticated"), "{refused}");

    let code = as_desk(&app, &["member", "code", "jo"]).await.trim().to_owned();
    assert_eq!(code.len(), 14, "{code:?}");
    let dir = std::env::temp_dir().join(format!("bridgectl-signin-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("refresh");
    let file_arg = file.to_str().unwrap();
    let member = access_token(&as_desk(&app, &["redeem", &code, "--refresh-token-file", file_arg]).await);
    assert_eq!(read_player(&app, &member, "jo").await.unwrap().player_id, "jo");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600, "owner only");
    }
    let kept = std::fs::read_to_string(&file).unwrap();
    let member = access_token(&as_desk(&app, &["refresh", "--refresh-token-file", file_arg]).await);
    assert_ne!(std::fs::read_to_string(&file).unwrap(), kept, "the next refresh token replaces the spent one");

    let revoked = as_desk(&app, &["member", "revoke", "jo"]).await;
    assert!(revoked.contains("1 session"), "{revoked}");
    assert_eq!(read_player(&app, &member, "jo").await.unwrap_err().code(), tonic::Code::Unauthenticated);
    let refused =
        common::bridgectl_ending(&app, "x", &[Role::Desk], &["refresh", "--refresh-token-file", file_arg], false).await;
    assert!(refused.contains("Unauthenticated"), "{refused}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A deployment's services present tokens signed with its RS256 private key (the chart's
/// service-token secret): `bridgectl token` makes them where that key is configured.
#[test]
fn bridgectl_signs_a_service_token_with_a_deployment_s_private_key() {
    let testdata = concat!(env!("CARGO_MANIFEST_DIR"), "/../platform/src/auth/testdata");
    let dir = std::env::temp_dir().join(format!("bc-cli-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_bridgectl"))
        .args(["token", "--role", "service", "--subject", "service:game", "--hours", "1"])
        .current_dir(&dir)
        .env_remove("BRIDGE_CONFIG")
        .env("BRIDGE_AUTH__RS256_PRIVATE_KEY_FILE", format!("{testdata}/rsa-b.pem"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let token = String::from_utf8(output.stdout).unwrap();
    let public = std::fs::read(format!("{testdata}/rsa-b.pub.pem")).unwrap();
    let principal = platform::auth::TokenVerifier::rs256_pem(&public).unwrap().verify(token.trim()).unwrap();
    assert_eq!(principal.subject, "service:game");
    assert!(principal.has(Role::Service), "{principal:?}");
    let other = std::fs::read(format!("{testdata}/rsa-a.pub.pem")).unwrap();
    assert!(platform::auth::TokenVerifier::rs256_pem(&other).unwrap().verify(token.trim()).is_err());
}

/// The certificates of the TLS test below (a `Configure` is a plain function).
static TLS_DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

fn tls_dir() -> &'static std::path::PathBuf {
    TLS_DIR.get_or_init(|| std::env::temp_dir().join(format!("bc-cli-tls-{}", std::process::id())))
}

fn with_tls(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    config.tls.cert_file = Some(tls_dir().join("server.pem"));
    config.tls.key_file = Some(tls_dir().join("server-key.pem"));
    config.tls.ca_file = Some(tls_dir().join("club-ca.pem"));
    config.tls.server_name = Some("club.test".to_owned());
}

/// `bridgectl` reaches a server whose certificate a private CA signed when told the CA (the
/// chart's probes run `bridgectl health` so), and refuses the server when not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bridgectl_checks_a_tls_server_against_the_configured_ca() {
    let ca = e2e::certificates::TestCa::new(tls_dir(), "club");
    ca.issue(&["club.test", "127.0.0.1"], "server");
    let app = TestApp::spawn_with(with_tls).await;
    let health = |trusting: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_bridgectl"));
        command.args(["--server", &app.uri(), "health"]).env_remove("BRIDGE_CONFIG").current_dir(tls_dir());
        if trusting {
            command.env("BRIDGE_TLS__CA_FILE", ca.ca_file()).env("BRIDGE_TLS__SERVER_NAME", "club.test");
        }
        tokio::task::spawn_blocking(move || command.output().unwrap())
    };
    let trusted = health(true).await.unwrap();
    let stdout = String::from_utf8_lossy(&trusted.stdout);
    assert!(trusted.status.success(), "{stdout}{}", String::from_utf8_lossy(&trusted.stderr));
    assert!(stdout.contains("bridgeclub.game.v1.GameService") && stdout.contains("SERVING"), "{stdout}");
    let untrusted = health(false).await.unwrap();
    assert!(!untrusted.status.success(), "a server whose CA bridgectl was not told was trusted");
    drop(app);
    let _ = std::fs::remove_dir_all(tls_dir());
}

/// The port of the mail server the mailing test runs; the configuration hook is a plain function.
static MAIL_PORT: OnceLock<u16> = OnceLock::new();

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_has_a_member_s_code_mailed_with_bridgectl() {
    let mut sink = SmtpSink::start().await;
    MAIL_PORT.set(sink.port()).unwrap();
    let app = TestApp::spawn_with(|config, _| {
        let mut mail = MailConfig::new("127.0.0.1", "desk@club.example");
        mail.port = MAIL_PORT.get().copied();
        mail.tls = MailTls::None;
        config.mail = Some(mail);
    })
    .await;
    as_desk(&app, &["player", "register", "--id", "jo", "--name", "Jo"]).await;
    let args = ["member", "code", "jo", "--email"];
    let refused = common::bridgectl_ending(&app, "front-desk", &[Role::Desk], &args, false).await;
    assert!(refused.contains("FailedPrecondition") && refused.contains("no e-mail address"), "{refused}");

    let set = as_desk(&app, &["player", "set-email", "--player", "jo", "--email", "jo@club.example"]).await;
    assert!(set.contains("jo@club.example"), "{set}");
    let sent = as_desk(&app, &args).await;
    assert_eq!(sent.trim(), "j***@club.example", "the address it went to, masked, and no code");
    let mail = tokio::time::timeout(Duration::from_secs(10), sink.next_mail()).await.unwrap().unwrap();
    assert_eq!(mail.recipients, ["jo@club.example"]);
    let code = mail.body().split_whitespace().find(|w| w.len() == 14 && w.matches('-').count() == 2).unwrap();
    let member = access_token(&as_desk(&app, &["redeem", code]).await);
    assert_eq!(read_player(&app, &member, "jo").await.unwrap().player_id, "jo");
}
