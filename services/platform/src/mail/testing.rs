//! A stand-in for a club's mail server in tests: a small SMTP server on a loopback port that keeps
//! every mail it is given and hands it to the test through a channel. It speaks what a client
//! sending one mail needs (EHLO or HELO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT),
//! without STARTTLS, and can misbehave as real servers do: say nothing at all, refuse every
//! recipient, or take a mail and never confirm it. Used by this crate's unit tests and, through the
//! `test-support` feature, by the end-to-end tests.

use std::net::SocketAddr;

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// How the server behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Takes every mail and confirms it.
    Accept,
    /// Takes the connection and never says a word (a server hung, or a firewall that black-holes).
    Silent,
    /// Refuses every recipient: 550, no such mailbox.
    RefuseRecipients,
    /// Takes the mail (the test receives it) but never confirms it, so the client cannot know
    /// whether it was taken.
    HangAfterData,
}

/// A mail the server was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    /// The envelope's sender (MAIL FROM).
    pub from: String,
    /// The envelope's recipients (RCPT TO).
    pub recipients: Vec<String>,
    /// The message as sent after DATA (headers, a blank line, the body), dots unstuffed.
    pub data: String,
    /// The user name and password the client logged in with, if it did.
    pub login: Option<(String, String)>,
}

impl ReceivedMail {
    /// The value of the first header called `name` (any case), unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or_default();
        let mut lines = head.split("\r\n").peekable();
        while let Some(line) = lines.next() {
            let Some((key, value)) = line.split_once(':') else { continue };
            if key.eq_ignore_ascii_case(name) {
                let mut value = value.trim().to_owned();
                while let Some(next) = lines.next_if(|l| l.starts_with([' ', '\t'])) {
                    value.push(' ');
                    value.push_str(next.trim());
                }
                return Some(value);
            }
        }
        None
    }

    /// The body: everything after the headers.
    pub fn body(&self) -> &str {
        self.data.split_once("\r\n\r\n").map_or("", |(_, body)| body)
    }
}

/// See the module docs. Dropping it leaves the server running until the runtime ends; the mails
/// it takes after that are dropped.
#[derive(Debug)]
pub struct SmtpSink {
    address: SocketAddr,
    received: mpsc::UnboundedReceiver<ReceivedMail>,
}

impl SmtpSink {
    /// A server that takes every mail, on a free loopback port.
    pub async fn start() -> SmtpSink {
        Self::start_with(Behaviour::Accept).await
    }

    /// A server behaving as `behaviour` says, on a free loopback port.
    pub async fn start_with(behaviour: Behaviour) -> SmtpSink {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let address = listener.local_addr().expect("a bound address");
        let (sender, received) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, behaviour, sender.clone()));
            }
        });
        SmtpSink { address, received }
    }

    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// The next mail it takes, waiting for it.
    pub async fn next_mail(&mut self) -> Option<ReceivedMail> {
        self.received.recv().await
    }

    /// A mail it has taken and not yet handed over, if there is one.
    pub fn try_next_mail(&mut self) -> Option<ReceivedMail> {
        self.received.try_recv().ok()
    }
}

/// The longest line the server reads: a client gone mad does not fill the test's memory.
const MAX_LINE: usize = 64 * 1024;

async fn session(stream: TcpStream, behaviour: Behaviour, mails: mpsc::UnboundedSender<ReceivedMail>) {
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    if behaviour == Behaviour::Silent {
        // Hold the connection open, reading and never answering, until the client gives up.
        drain(&mut reader).await;
        return;
    }
    let mut mail = empty();
    if writer.write_all(b"220 sink.test ESMTP ready\r\n").await.is_err() {
        return;
    }
    while let Some(line) = read_line(&mut reader).await {
        let upper = line.to_ascii_uppercase();
        let reply: String = if upper.starts_with("EHLO") {
            "250-sink.test\r\n250-8BITMIME\r\n250-AUTH PLAIN\r\n250 SMTPUTF8".to_owned()
        } else if upper.starts_with("HELO") || upper.starts_with("NOOP") {
            "250 OK".to_owned()
        } else if upper.starts_with("AUTH PLAIN") {
            let mut encoded = line.get(10..).unwrap_or_default().trim().to_owned();
            if encoded.is_empty() {
                if writer.write_all(b"334 \r\n").await.is_err() {
                    return;
                }
                encoded = read_line(&mut reader).await.unwrap_or_default();
            }
            match plain_login(&encoded) {
                Some(login) => {
                    mail.login = Some(login);
                    "235 2.7.0 Authentication successful".to_owned()
                }
                None => "535 5.7.8 Authentication credentials invalid".to_owned(),
            }
        } else if upper.starts_with("MAIL FROM:") {
            mail.from = angle_bracketed(line.get(10..).unwrap_or_default());
            "250 OK".to_owned()
        } else if upper.starts_with("RCPT TO:") {
            if behaviour == Behaviour::RefuseRecipients {
                "550 5.1.1 No such mailbox here".to_owned()
            } else {
                mail.recipients.push(angle_bracketed(line.get(8..).unwrap_or_default()));
                "250 OK".to_owned()
            }
        } else if upper.starts_with("DATA") {
            if writer.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await.is_err() {
                return;
            }
            let Some(data) = read_data(&mut reader).await else { return };
            mail.data = data;
            // The next mail on this connection starts afresh, still logged in.
            let login = mail.login.clone();
            let taken = std::mem::replace(&mut mail, ReceivedMail { login, ..empty() });
            let _ = mails.send(taken);
            if behaviour == Behaviour::HangAfterData {
                drain(&mut reader).await;
                return;
            }
            "250 2.0.0 Queued".to_owned()
        } else if upper.starts_with("RSET") {
            mail.from.clear();
            mail.recipients.clear();
            "250 OK".to_owned()
        } else if upper.starts_with("QUIT") {
            let _ = writer.write_all(b"221 2.0.0 Bye\r\n").await;
            return;
        } else {
            "502 5.5.2 Command not recognised".to_owned()
        };
        if writer.write_all(format!("{reply}\r\n").as_bytes()).await.is_err() {
            return;
        }
    }
}

fn empty() -> ReceivedMail {
    ReceivedMail { from: String::new(), recipients: Vec::new(), data: String::new(), login: None }
}

/// One line without its line break; `None` at the end of the connection or past [`MAX_LINE`].
async fn read_line(reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Option<String> {
    let mut line = Vec::new();
    let read = reader.read_until(b'\n', &mut line).await.ok()?;
    if read == 0 || line.len() > MAX_LINE {
        return None;
    }
    while line.last().is_some_and(|b| matches!(b, b'\r' | b'\n')) {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

/// The message after DATA, up to the line holding a lone dot, with the dots the client doubled at
/// the start of lines taken away again (RFC 5321, 4.5.2).
async fn read_data(reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Option<String> {
    let mut lines = Vec::new();
    loop {
        let line = read_line(reader).await?;
        if line == "." {
            return Some(lines.join("\r\n"));
        }
        lines.push(line.strip_prefix('.').map_or(line.clone(), str::to_owned));
    }
}

async fn drain(reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) {
    while read_line(reader).await.is_some() {}
}

fn angle_bracketed(text: &str) -> String {
    let text = text.trim();
    let inner = text.split_once('<').and_then(|(_, rest)| rest.split_once('>')).map(|(inner, _)| inner);
    inner.unwrap_or(text).to_owned()
}

/// AUTH PLAIN's credentials: base64 of `authzid NUL user NUL password`.
fn plain_login(encoded: &str) -> Option<(String, String)> {
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let decoded = String::from_utf8(decoded).ok()?;
    let mut parts = decoded.split('\0');
    let _authorisation = parts.next()?;
    Some((parts.next()?.to_owned(), parts.next()?.to_owned()))
}
