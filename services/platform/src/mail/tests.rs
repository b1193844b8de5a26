//! The mailer against the stand-in server: a mail arrives as sent, logged in when configured; and
//! every way a server fails (silent, refusing, hanging after the mail, away, or without the
//! STARTTLS required) is UNAVAILABLE within the timeout.

use std::time::{Duration, Instant};

use tonic::Code;

use super::testing::{Behaviour, SmtpSink};
use super::*;
use crate::config::Secret;

fn plain(port: u16, timeout_ms: u64) -> MailConfig {
    let mut config = MailConfig::new("127.0.0.1", "Riverside Bridge Club <desk@club.example>");
    config.port = Some(port);
    config.tls = MailTls::None;
    config.timeout_ms = timeout_ms;
    config
}

fn to_ann() -> Mail {
    Mail {
        to: address("ann@club.example").unwrap(),
        to_name: Some("Ann\r\nBcc: eve@elsewhere.example".into()),
        subject: "Your code".into(),
        body: "Your code is 7K2D-QX9M-4HTA.\n.\nA line with a lone dot above.\n".into(),
    }
}

/// Sends `mail` with `config`, and how long it took.
async fn timed(config: &MailConfig, mail: Mail) -> (Result<(), ServiceError>, Duration) {
    let mailer = Mailer::new(config).unwrap();
    let start = Instant::now();
    // Bounded here too, so that a mailer that hangs fails the test instead of hanging it.
    let sent = tokio::time::timeout(Duration::from_secs(20), mailer.send(mail)).await.expect("the send hung");
    (sent, start.elapsed())
}

fn assert_unavailable(result: Result<(), ServiceError>, says: &str) {
    let error = result.expect_err("the send fails");
    assert_eq!(error.code(), Code::Unavailable, "{error}");
    assert!(error.to_string().contains(says), "{error}");
    assert!(error.to_string().contains("no mail was sent"), "{error}");
}

#[tokio::test]
async fn a_mail_arrives_as_sent_and_logged_in() {
    let mut sink = SmtpSink::start().await;
    let mut config = plain(sink.port(), 5_000);
    config.username = Some("desk".into());
    config.password = Some(Secret::new("mail password"));
    let (sent, _) = timed(&config, to_ann()).await;
    sent.unwrap();
    let mail = sink.next_mail().await.unwrap();
    assert_eq!(mail.from, "desk@club.example");
    assert_eq!(mail.recipients, ["ann@club.example"], "the name's line break added no recipient");
    assert_eq!(mail.login, Some(("desk".to_owned(), "mail password".to_owned())));
    assert_eq!(mail.header("Subject").as_deref(), Some("Your code"));
    assert!(mail.header("Bcc").is_none(), "a line break in a name starts no header: {}", mail.data);
    assert!(mail.header("Message-ID").is_some_and(|id| id.ends_with("@club.example>")), "{}", mail.data);
    assert!(mail.header("From").is_some_and(|from| from.contains("Riverside Bridge Club")), "{}", mail.data);
    assert!(mail.body().contains("7K2D-QX9M-4HTA"), "{}", mail.body());
    assert!(mail.body().contains("\r\n.\r\n"), "a lone dot in the text survives: {:?}", mail.body());
}

#[tokio::test]
async fn the_password_may_come_from_a_file() {
    let mut sink = SmtpSink::start().await;
    let file = std::env::temp_dir().join(format!("bc-mail-password-{}", uuid::Uuid::new_v4().simple()));
    std::fs::write(&file, "0123 456\n").unwrap();
    let mut config = plain(sink.port(), 5_000);
    config.username = Some("desk".into());
    config.password_file = Some(file.clone());
    let (sent, _) = timed(&config, to_ann()).await;
    std::fs::remove_file(&file).unwrap();
    sent.unwrap();
    let login = sink.next_mail().await.unwrap().login;
    assert_eq!(login, Some(("desk".to_owned(), "0123 456".to_owned())), "as written, without the line break");
    config.password = Some(Secret::new("another"));
    assert!(Mailer::new(&config).unwrap_err().to_string().contains("give one"));
    config.password = None;
    assert!(Mailer::new(&config).unwrap_err().to_string().contains("password_file"), "the file is gone");
}

#[tokio::test]
async fn a_silent_server_is_unavailable_within_the_timeout() {
    let sink = SmtpSink::start_with(Behaviour::Silent).await;
    let (sent, took) = timed(&plain(sink.port(), 300), to_ann()).await;
    assert_unavailable(sent, "within 300 ms");
    assert!(took < Duration::from_secs(3), "bounded by the timeout: {took:?}");
}

#[tokio::test]
async fn a_server_that_never_confirms_the_mail_is_unavailable_within_the_timeout() {
    let mut sink = SmtpSink::start_with(Behaviour::HangAfterData).await;
    let (sent, took) = timed(&plain(sink.port(), 300), to_ann()).await;
    assert_unavailable(sent, "within 300 ms");
    assert!(took < Duration::from_secs(3), "bounded by the timeout: {took:?}");
    assert!(sink.next_mail().await.is_some(), "the server did take the mail");
}

#[tokio::test]
async fn a_refused_recipient_is_unavailable_with_the_server_s_answer() {
    let mut sink = SmtpSink::start_with(Behaviour::RefuseRecipients).await;
    let (sent, _) = timed(&plain(sink.port(), 5_000), to_ann()).await;
    assert_unavailable(sent, "refused the mail: permanent error (550)");
    assert!(sink.try_next_mail().is_none());
}

#[tokio::test]
async fn a_server_that_is_away_is_unavailable_at_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let (sent, took) = timed(&plain(port, 5_000), to_ann()).await;
    assert_unavailable(sent, "could not be reached");
    assert!(took < Duration::from_secs(3), "a refused connection is not waited out: {took:?}");
}

#[tokio::test]
async fn starttls_required_is_never_given_up_for_plain_text() {
    let mut sink = SmtpSink::start().await;
    let mut config = plain(sink.port(), 5_000);
    config.tls = MailTls::Starttls;
    let (sent, _) = timed(&config, to_ann()).await;
    assert_eq!(sent.unwrap_err().code(), Code::Unavailable);
    assert!(sink.try_next_mail().is_none(), "nothing was sent in clear");
}

#[test]
fn a_section_that_cannot_work_is_refused_at_start() {
    let refused = |config: MailConfig| Mailer::new(&config).unwrap_err().to_string();
    assert!(refused(MailConfig::new(" ", "desk@club.example")).contains("host"));
    assert!(refused(MailConfig::new("smtp.club.example", "the desk")).contains("from"));
    let mut config = MailConfig::new("smtp.club.example", "desk@club.example");
    config.username = Some("desk".into());
    assert!(refused(config.clone()).contains("password"));
    config.username = None;
    config.password = Some(Secret::new("p"));
    assert!(refused(config).contains("username"));
    for tls in [MailTls::None, MailTls::Starttls, MailTls::Tls] {
        let mut config = MailConfig::new("smtp.club.example", "Club <desk@club.example>");
        config.tls = tls;
        config.club_name = Some("  Riverside\nBridge Club ".into());
        let mailer = Mailer::new(&config).unwrap();
        assert_eq!(mailer.club_name(), Some("Riverside Bridge Club"));
    }
}

#[test]
fn the_password_is_never_shown() {
    let mut config = MailConfig::new("smtp.club.example", "desk@club.example");
    config.username = Some("desk".into());
    config.password = Some(Secret::new("hunter2-mail"));
    assert!(!format!("{config:?}").contains("hunter2"), "{config:?}");
    assert!(!format!("{:?}", Mailer::new(&config).unwrap()).contains("hunter2"));
}

#[test]
fn addresses_are_checked_and_masked() {
    for good in ["ann@club.example", " bob.smith+bridge@mail.club.example "] {
        assert!(address(good).is_ok(), "{good}");
    }
    for bad in ["", "ann", "ann@", "@club.example", "ann@@club.example", "Ann <ann@club.example>", "a b@club.example"] {
        assert!(address(bad).is_err(), "{bad:?}");
    }
    assert_eq!(masked(&address("ann@club.example").unwrap()), "a***@club.example");
    assert_eq!(masked(&address("x@club.example").unwrap()), "x***@club.example");
}

#[test]
fn the_usual_port_follows_the_tls_mode() {
    let mut config = MailConfig::new("smtp.club.example", "desk@club.example");
    assert_eq!(config.port(), 587);
    config.tls = MailTls::Tls;
    assert_eq!(config.port(), 465);
    config.tls = MailTls::None;
    assert_eq!(config.port(), 25);
    config.port = Some(2525);
    assert_eq!(config.port(), 2525);
}
