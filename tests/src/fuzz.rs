//! A fuzzer for the whole contract: random requests for every RPC of every service, built from the
//! contract's own descriptors, sent as raw HTTP/2 gRPC calls, so that the body can be anything:
//! a well-formed request with hostile values, a mutated one, random bytes, or broken framing.
//!
//! What it checks is the status contract: whatever a client sends, the answer is a status a client
//! can act on. INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE (every dependency is up), CANCELLED or a
//! reset stream (a panicking handler), a transport error, or no answer at all is a failure.
//!
//! Everything comes from one seed ([`Rng`]), so a failure names the seed and the case that shows
//! it, and runs again the same way. The e2e suite runs a few thousand cases with a fixed seed; the
//! `fuzz-requests` binary runs as many as it is asked (docs/status-codes.md has the figures).

use std::collections::BTreeMap;
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use http_body_util::BodyExt;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, Kind, MessageDescriptor, Value};
use tonic::Code;

use crate::Rng;

/// How long a unary call may take to answer before it counts as a hang.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How long an opened stream is read for its first answer before the fuzzer moves on.
const STREAM_LOOK: Duration = Duration::from_millis(100);

/// One RPC of the contract.
#[derive(Debug, Clone)]
pub struct Method {
    /// `/package.Service/Method`.
    pub path: String,
    /// Its request type.
    pub input: MessageDescriptor,
    /// Whether it answers with a stream.
    pub streaming: bool,
}

/// What a case sends.
#[derive(Debug, Clone)]
pub struct Case {
    /// The RPC.
    pub path: String,
    /// Whether it streams.
    pub streaming: bool,
    /// How the body was made.
    pub shape: &'static str,
    /// The HTTP/2 body: gRPC framing and the message (or not).
    pub body: Bytes,
    /// The bearer token presented.
    pub token: String,
}

/// How the server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A gRPC status (OK for a unary success or an opened stream).
    Status(Code, String),
    /// No status: the transport failed, or the call took too long.
    Broken(String),
}

impl Answer {
    /// Whether the answer breaks the status contract.
    pub fn breaks_contract(&self) -> bool {
        match self {
            Answer::Status(code, _) => matches!(
                code,
                Code::Internal
                    | Code::Unknown
                    | Code::DataLoss
                    | Code::Unavailable
                    | Code::Cancelled
                    | Code::DeadlineExceeded
            ),
            Answer::Broken(_) => true,
        }
    }

    /// A short label for the tally.
    pub fn label(&self) -> String {
        match self {
            Answer::Status(code, _) => format!("{code:?}"),
            Answer::Broken(_) => "broken".to_owned(),
        }
    }
}

/// Makes cases from a seed.
pub struct Fuzzer {
    methods: Vec<Method>,
    /// Strings worth trying: ids that exist, and hostile text.
    strings: Vec<String>,
    /// A token for each kind of caller, with its role.
    tokens: Vec<(platform::auth::Role, String)>,
    rng: Rng,
}

/// Every RPC of the club's services in the contract.
pub fn methods() -> Vec<Method> {
    let pool = DescriptorPool::decode(api::FILE_DESCRIPTOR_SET).unwrap_or_else(|e| panic!("descriptors: {e}"));
    pool.services()
        .filter(|s| s.full_name().starts_with("bridgeclub."))
        .flat_map(|service| {
            service
                .methods()
                .map(|m| Method {
                    path: format!("/{}/{}", service.full_name(), m.name()),
                    input: m.input(),
                    streaming: m.is_server_streaming(),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

impl Fuzzer {
    /// A fuzzer drawing from `seed`, trying the `known` ids (tables, players ...) among its
    /// strings and presenting one of `tokens` with each case: mostly one whose role the RPC
    /// allows, so that most cases reach the service rather than stop at the role check.
    pub fn new(seed: u64, known: Vec<String>, tokens: Vec<(platform::auth::Role, String)>) -> Fuzzer {
        let mut strings = known;
        strings.extend(
            [
                "",
                "\0",
                "t\0able",
                "o18446744073709551615",
                "o9223372036854775808",
                "o-1",
                "zzz",
                "' OR 1=1 --",
                "%s%n",
                "Ünïcødé ♠♥♦♣ 🂡",
                "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
                "player:1",
                "service:game",
            ]
            .map(str::to_owned),
        );
        strings.push("x".repeat(257));
        strings.push("é".repeat(3000));
        Fuzzer { methods: methods(), strings, tokens, rng: Rng(seed.max(1)) }
    }

    /// The RPCs it calls.
    pub fn methods(&self) -> &[Method] {
        &self.methods
    }

    /// The next case: a random RPC, caller and body.
    pub fn case(&mut self) -> Case {
        let method = self.methods[self.rng.below(self.methods.len())].clone();
        let allowed: Vec<usize> = (0..self.tokens.len())
            .filter(|&i| {
                api::allowed_roles(&method.path).is_some_and(|roles| {
                    roles.iter().any(|r| platform::auth::Role::from_proto(*r) == Some(self.tokens[i].0))
                })
            })
            .collect();
        let token = match allowed.len() {
            n if n > 0 && self.rng.below(10) < 8 => self.tokens[allowed[self.rng.below(n)]].1.clone(),
            _ => self.tokens[self.rng.below(self.tokens.len())].1.clone(),
        };
        let roll = self.rng.below(100);
        let (shape, message) = match roll {
            0..60 => ("random request", self.message(&method.input, 0).encode_to_vec()),
            60..75 => {
                let mut bytes = self.message(&method.input, 0).encode_to_vec();
                self.mutate(&mut bytes);
                ("mutated request", bytes)
            }
            75..80 => ("huge id", self.huge(&method.input)),
            80..92 => ("random bytes", self.bytes_below(200)),
            _ => ("broken framing", Vec::new()),
        };
        let body = if shape == "broken framing" { self.broken_frame() } else { frame(0, &message) };
        Case { path: method.path, streaming: method.streaming, shape, body, token }
    }

    fn message(&mut self, descriptor: &MessageDescriptor, depth: usize) -> DynamicMessage {
        let mut message = DynamicMessage::new(descriptor.clone());
        for field in descriptor.fields() {
            if self.rng.below(4) == 0 || field.is_map() {
                continue;
            }
            if let Some(oneof) = field.containing_oneof()
                && oneof.fields().any(|other| message.has_field(&other))
            {
                continue;
            }
            let value = if field.is_list() {
                let n = self.rng.below(4);
                Value::List((0..n).map(|_| self.value(&field.kind(), depth)).collect())
            } else {
                self.value(&field.kind(), depth)
            };
            let _ = message.try_set_field(&field, value);
        }
        message
    }

    fn value(&mut self, kind: &Kind, depth: usize) -> Value {
        let wide = [0u64, 1, 2, 3, 7, 13, 52, 100, 1 << 31, 1 << 32, 1 << 63, u64::MAX];
        let pick = wide[self.rng.below(wide.len())];
        let number = if self.rng.below(2) == 0 { pick } else { self.rng.next_u64() };
        match kind {
            Kind::Double => Value::F64(f64::from_bits(number)),
            Kind::Float => Value::F32(f32::from_bits(number as u32)),
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(number as i32),
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(number as i64),
            Kind::Uint32 | Kind::Fixed32 => Value::U32(number as u32),
            Kind::Uint64 | Kind::Fixed64 => Value::U64(number),
            Kind::Bool => Value::Bool(number % 2 == 1),
            Kind::String => Value::String(self.string()),
            Kind::Bytes => Value::Bytes(Bytes::from(self.bytes_below(64))),
            Kind::Message(inner) if depth < 5 => Value::Message(self.message(inner, depth + 1)),
            Kind::Message(inner) => Value::Message(DynamicMessage::new(inner.clone())),
            Kind::Enum(descriptor) => {
                let values: Vec<i32> = descriptor.values().map(|v| v.number()).collect();
                match self.rng.below(5) {
                    0 => Value::EnumNumber(number as i32),
                    _ => Value::EnumNumber(values.get(self.rng.below(values.len().max(1))).copied().unwrap_or(0)),
                }
            }
        }
    }

    fn string(&mut self) -> String {
        match self.rng.below(10) {
            0 => {
                let n = self.rng.below(40);
                (0..n).map(|_| char::from(b' ' + (self.rng.below(95) as u8))).collect()
            }
            _ => self.strings[self.rng.below(self.strings.len())].clone(),
        }
    }

    /// Random bytes, fewer than `limit` of them.
    fn bytes_below(&mut self, limit: usize) -> Vec<u8> {
        let n = self.rng.below(limit);
        (0..n).map(|_| self.rng.next_u64() as u8).collect()
    }

    /// A request whose first string field holds a megabyte.
    fn huge(&mut self, descriptor: &MessageDescriptor) -> Vec<u8> {
        let mut message = self.message(descriptor, 0);
        if let Some(field) = descriptor.fields().find(|f| f.kind() == Kind::String && !f.is_list()) {
            let _ = message.try_set_field(&field, Value::String("x".repeat(1 << 20)));
        }
        message.encode_to_vec()
    }

    fn mutate(&mut self, bytes: &mut Vec<u8>) {
        match self.rng.below(4) {
            0 if !bytes.is_empty() => {
                let i = self.rng.below(bytes.len());
                bytes[i] ^= 1 << self.rng.below(8);
            }
            1 if !bytes.is_empty() => bytes.truncate(self.rng.below(bytes.len())),
            2 => {
                let extra = self.bytes_below(16);
                bytes.extend(extra);
            }
            _ => {
                let i = self.rng.below(bytes.len() + 1);
                bytes.insert(i, self.rng.next_u64() as u8);
            }
        }
    }

    fn broken_frame(&mut self) -> Bytes {
        let payload = self.bytes_below(32);
        match self.rng.below(6) {
            0 => Bytes::new(),
            1 => frame(1, &payload),
            2 => frame(1 + (self.rng.below(254) as u8), &payload),
            3 => {
                // The length says more than the body holds.
                let mut body = BytesMut::new();
                body.put_u8(0);
                body.put_u32(payload.len() as u32 + 10);
                body.put_slice(&payload);
                body.freeze()
            }
            4 => Bytes::from(payload),
            _ => {
                let mut twice = BytesMut::from(&frame(0, &payload)[..]);
                twice.put_slice(&frame(0, &payload));
                twice.freeze()
            }
        }
    }
}

/// One gRPC length-prefixed message.
pub fn frame(flag: u8, message: &[u8]) -> Bytes {
    let mut body = BytesMut::with_capacity(5 + message.len());
    body.put_u8(flag);
    body.put_u32(message.len() as u32);
    body.put_slice(message);
    body.freeze()
}

/// Sends `case` on `channel` and reads its answer.
pub async fn send(channel: &tonic::transport::Channel, case: &Case) -> Answer {
    use tower::ServiceExt;

    let request = http::Request::builder()
        .method(http::Method::POST)
        .uri(case.path.as_str())
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("authorization", format!("Bearer {}", case.token))
        .body(tonic::body::Body::new(http_body_util::Full::new(case.body.clone())));
    let request = match request {
        Ok(request) => request,
        Err(e) => return Answer::Broken(format!("request: {e}")),
    };
    let answer = async {
        let response = match channel.clone().oneshot(request).await {
            Ok(response) => response,
            Err(e) => return Answer::Broken(format!("transport: {e}")),
        };
        if let Some(status) = tonic::Status::from_header_map(response.headers()) {
            return Answer::Status(status.code(), status.message().to_owned());
        }
        let mut body = response.into_body();
        loop {
            let next = if case.streaming {
                match tokio::time::timeout(STREAM_LOOK, body.frame()).await {
                    Ok(next) => next,
                    // Open and waiting for events: a good answer.
                    Err(_) => return Answer::Status(Code::Ok, "stream open".to_owned()),
                }
            } else {
                body.frame().await
            };
            match next {
                Some(Ok(frame)) => {
                    if let Some(trailers) = frame.trailers_ref() {
                        return match tonic::Status::from_header_map(trailers) {
                            Some(status) => Answer::Status(status.code(), status.message().to_owned()),
                            None => Answer::Broken("trailers without a status".to_owned()),
                        };
                    }
                    if case.streaming {
                        return Answer::Status(Code::Ok, "stream sent an event".to_owned());
                    }
                }
                Some(Err(e)) => return Answer::Broken(format!("body: {e}")),
                None => return Answer::Broken("the body ended without a status".to_owned()),
            }
        }
    };
    match tokio::time::timeout(ANSWER_WITHIN, answer).await {
        Ok(answer) => answer,
        Err(_) => Answer::Broken(format!("no answer within {ANSWER_WITHIN:?}")),
    }
}

/// Answers counted by RPC and code, with the cases that broke the contract.
#[derive(Debug, Default)]
pub struct Tally {
    /// Answers by code.
    pub by_code: BTreeMap<String, u64>,
    /// RPCs called, with how many cases each.
    pub by_method: BTreeMap<String, u64>,
    /// Each case that broke the contract, described.
    pub failures: Vec<String>,
    /// Cases sent.
    pub sent: u64,
    /// Cases that broke the contract.
    pub broken: u64,
}

impl Tally {
    /// Counts one answer.
    pub fn count(&mut self, case: &Case, answer: &Answer) {
        self.sent += 1;
        *self.by_code.entry(answer.label()).or_default() += 1;
        *self.by_method.entry(case.path.clone()).or_default() += 1;
        if answer.breaks_contract() {
            self.broken += 1;
        }
        if answer.breaks_contract() && self.failures.len() < 50 {
            let body: String = case.body.iter().take(48).map(|b| format!("{b:02x}")).collect();
            self.failures.push(format!("{} ({}, body {body}...): {answer:?}", case.path, case.shape));
        }
    }
}

/// A club with something in it for the fuzzer to hit: a table with a rubber in progress and its
/// pad, four players. Returns the ids worth trying and a token for each kind of caller.
pub async fn furnish(app: &crate::TestApp, tag: &str) -> (Vec<String>, Vec<(platform::auth::Role, String)>) {
    use platform::auth::Role;

    let mut desk = app.membership("desk", &[Role::Desk]);
    let mut pads = app.scoring("desk", &[Role::Desk]);
    let lineup = crate::lineup::Lineup::start(&mut desk, &mut pads, api::common::v1::TableKind::Rubber, tag).await;
    let mut known = vec![lineup.table_id.clone(), lineup.rubber_id.clone(), lineup.scorepad_id.clone()];
    known.extend(lineup.players.iter().cloned());
    let service = |name: &str| (Role::Service, app.token(&platform::auth::service_subject(name), &[Role::Service]));
    let tokens = vec![
        (Role::Admin, app.token("admin", &[Role::Admin])),
        (Role::Desk, app.token("desk", &[Role::Desk])),
        (Role::Arbiter, app.token("arbiter", &[Role::Arbiter])),
        (Role::Committee, app.token("committee", &[Role::Committee])),
        (Role::Player, app.token(&lineup.players[0], &[Role::Player])),
        (Role::Player, app.token(&lineup.players[1], &[Role::Player])),
        service("game"),
        service("appeals"),
    ];
    (known, tokens)
}

/// Sends `cases` cases from `fuzzer` to `uri`, `concurrency` at a time, and counts the answers.
pub async fn run(uri: &str, fuzzer: &mut Fuzzer, cases: u64, concurrency: usize) -> Tally {
    use futures::StreamExt;

    let channel = platform::client::channel(uri).unwrap_or_else(|e| panic!("channel: {e}"));
    let cases: Vec<Case> = (0..cases).map(|_| fuzzer.case()).collect();
    let mut tally = Tally::default();
    let mut answers = futures::stream::iter(cases)
        .map(|case| {
            let channel = channel.clone();
            async move {
                let answer = send(&channel, &case).await;
                (case, answer)
            }
        })
        .buffer_unordered(concurrency.max(1));
    while let Some((case, answer)) = answers.next().await {
        tally.count(&case, &answer);
    }
    tally
}
