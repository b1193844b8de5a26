//! Mail: the club's SMTP server, through which the membership service sends a member the sign-in
//! code the desk issued him (`[mail]`, [`crate::config::MailConfig`]).
//!
//! A mail is sent while the desk waits, so every send is bounded by the configured timeout as a
//! whole: the SMTP client's own timeout covers only connecting, and a server that takes the
//! connection and then says nothing would otherwise hold the desk for ever. Any failure, whether
//! the server is away, slow, or refuses the mail, is UNAVAILABLE (reason DEPENDENCY_UNAVAILABLE):
//! the caller decides what an unsent mail means (the membership service withdraws the code it
//! held).
//!
//! TLS is rustls with the webpki roots, as for every other outgoing connection of the platform.

#[cfg(any(test, feature = "test-support"))]
pub mod testing;

use std::str::FromStr;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub use lettre::Address;

use crate::ServiceError;
use crate::config::{MailConfig, MailTls};

/// A `[mail]` section that cannot work; the message names the key at fault.
#[derive(Debug, thiserror::Error)]
#[error("[mail] {0}")]
pub struct MailSetupError(String);

/// One plain-text mail to one person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    /// The address it goes to.
    pub to: Address,
    /// The person's name, shown beside the address.
    pub to_name: Option<String>,
    /// The subject line.
    pub subject: String,
    /// The text.
    pub body: String,
}

/// Sends mail through the configured server. Clones share the transport.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    server: String,
    timeout: Duration,
    club_name: Option<String>,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the credentials: only what identifies the server is shown.
        f.debug_struct("Mailer").field("server", &self.server).field("from", &self.from.to_string()).finish()
    }
}

impl Mailer {
    /// A mailer for `config`; a value that cannot work (no host, an unreadable sender, a user
    /// without a password) is refused here, at start-up, rather than at the first mail.
    pub fn new(config: &MailConfig) -> Result<Mailer, MailSetupError> {
        let host = config.host.trim();
        if host.is_empty() {
            return Err(MailSetupError("host: required, the mail server's host name".to_owned()));
        }
        let from = Mailbox::from_str(config.from.trim()).map_err(|e| {
            MailSetupError(format!(
                "from: {:?} is not a sender (`desk@club.example` or `Club <desk@club.example>`): {e}",
                config.from
            ))
        })?;
        let tls = match config.tls {
            MailTls::None => Tls::None,
            MailTls::Starttls => Tls::Required(tls_parameters(host)?),
            MailTls::Tls => Tls::Wrapper(tls_parameters(host)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(config.port())
            .tls(tls)
            .timeout(Some(config.timeout()));
        if let Some(name) = config.hello_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            builder = builder.hello_name(ClientId::Domain(name.to_owned()));
        }
        match (&config.username, password(config)?) {
            (Some(username), Some(password)) => {
                if config.tls == MailTls::None && !is_loopback(host) {
                    tracing::warn!(
                        server = host,
                        "[mail] logs in to a server on another host over plain text (tls = \"none\"): its password \
                         and the codes travel in clear"
                    );
                }
                builder = builder.credentials(Credentials::new(username.clone(), password));
            }
            (None, None) => {}
            (Some(_), None) => {
                return Err(MailSetupError("password (or password_file): required with username".to_owned()));
            }
            (None, Some(_)) => return Err(MailSetupError("username: required with password".to_owned())),
        }
        let club_name = config.club_name.as_deref().map(one_line).filter(|n| !n.is_empty());
        Ok(Mailer {
            transport: builder.build(),
            from,
            server: format!("{host}:{}", config.port()),
            timeout: config.timeout(),
            club_name,
        })
    }

    /// The club's name, when the configuration gives one.
    pub fn club_name(&self) -> Option<&str> {
        self.club_name.as_deref()
    }

    /// How long one mail may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sends `mail`, waiting at most [`Mailer::timeout`] for the server to take it. Every failure
    /// is [`ServiceError::Unavailable`], saying what the server did.
    pub async fn send(&self, mail: Mail) -> Result<(), ServiceError> {
        let message = self.message(mail)?;
        let failure = match tokio::time::timeout(self.timeout, self.transport.send(message)).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(error)) => {
                tracing::warn!(server = %self.server, %error, "a mail was not sent");
                describe(&error)
            }
            Err(_) => {
                tracing::warn!(server = %self.server, timeout_ms = self.timeout.as_millis(), "the mail server did not answer in time");
                format!("did not take the mail within {} ms", self.timeout.as_millis())
            }
        };
        Err(ServiceError::Unavailable(format!("the mail server {} {failure}; no mail was sent", self.server)))
    }

    fn message(&self, mail: Mail) -> Result<Message, ServiceError> {
        // A Message-ID of the sender's domain: without one of its own the library would name
        // `localhost`, which spam filters count against a mail.
        let message_id = format!("<{}@{}>", uuid::Uuid::new_v4().simple(), self.from.email.domain());
        Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(mail.to_name.as_deref().map(one_line), mail.to))
            .subject(one_line(&mail.subject))
            .message_id(Some(message_id))
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)
            .map_err(|e| ServiceError::internal(format!("a mail could not be composed: {e}")))
    }
}

/// The password, from `password` or `password_file` (not both).
fn password(config: &MailConfig) -> Result<Option<String>, MailSetupError> {
    match (&config.password, &config.password_file) {
        (Some(_), Some(_)) => Err(MailSetupError("password and password_file: give one of them".to_owned())),
        (Some(password), None) => Ok(Some(password.expose().to_owned())),
        (None, Some(path)) => {
            let read = std::fs::read_to_string(path)
                .map_err(|e| MailSetupError(format!("password_file: {}: {e}", path.display())))?;
            Ok(Some(read.trim_end_matches(['\r', '\n']).to_owned()))
        }
        (None, None) => Ok(None),
    }
}

fn tls_parameters(host: &str) -> Result<TlsParameters, MailSetupError> {
    TlsParameters::new(host.to_owned()).map_err(|e| MailSetupError(format!("tls: no TLS to {host}: {e}")))
}

fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// What a failed send did, in words for the desk: it says whether to try again or look at the
/// server's configuration.
fn describe(error: &lettre::transport::smtp::Error) -> String {
    if error.is_timeout() {
        "did not answer in time".to_owned()
    } else if error.is_tls() {
        format!("could not be reached securely (TLS): {error}")
    } else if error.is_permanent() {
        format!("refused the mail: {error}")
    } else if error.is_transient() {
        format!("refused the mail for now: {error}")
    } else {
        format!("could not be reached, or broke off: {error}")
    }
}

/// `text` on one line: a name or subject that came with a line break (or any control character)
/// is never allowed to start a new header.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_owned()
}

/// `text` as an address a mail can be sent to, or what is wrong with it in words.
pub fn address(text: &str) -> Result<Address, String> {
    Address::from_str(text.trim()).map_err(|e| format!("{:?} is not an e-mail address (name@domain): {e}", text.trim()))
}

/// `address` as the desk is told it: the first character of the name and the domain
/// (`a***@club.example`), enough to recognise it and no more.
pub fn masked(address: &Address) -> String {
    let first: String = address.user().chars().take(1).collect();
    format!("{first}***@{}", address.domain())
}

#[cfg(test)]
mod tests;
