//! [`RedisStore`]: the live store on one Redis, or on a Redis Cluster.
//!
//! On a cluster, each command goes to the master of its key's slot: a table's keys carry a hash
//! tag (`table:{42}`), so the version check, the write and the publish of one script touch one
//! shard. Channels are not keys: a classic PUBLISH reaches the subscribers of every node of the
//! cluster, so a subscription is made on any node that answers (the seeds are tried in turn,
//! starting from one the channel's name picks, to spread them), and ends when that node goes
//! away, as it does when a single Redis does: the watchers subscribe again and read the durable
//! record from where they were.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;

use super::{CasOutcome, ChannelMessage, Hub, LiveError, LiveStore, NewFanout, Versioned, receiver_stream};
use crate::breaker::Breaker;
use crate::config::RedisConfig;

/// Redis as the live store (see the module docs).
#[derive(Clone)]
pub struct RedisStore {
    /// The clients subscriptions are made through: the one Redis, or the cluster's seeds.
    subscribers: Arc<Vec<redis::Client>>,
    connection: Commands,
    prefix: String,
    hub: Arc<Hub>,
    breaker: Breaker,
    deadline: Duration,
}

/// Version check (ARGV[1]), write to version ARGV[6] (appending, when ARGV[5] is `a`) and publish
/// in one step. Stored as a hash {v: version, d: data}.
const CAS_SCRIPT: &str = r"
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return {0, current}
end
local new = tonumber(ARGV[6])
local data = ARGV[2]
if ARGV[5] == 'a' then
  data = (redis.call('HGET', KEYS[1], 'd') or '') .. data
end
redis.call('HSET', KEYS[1], 'v', new, 'd', data)
if ARGV[3] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return {1, new}
";

/// The SHA-1 Redis knows [`CAS_SCRIPT`] by.
static CAS_SHA: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| redis::Script::new(CAS_SCRIPT).get_hash().to_owned());

/// How a command to Redis failed.
enum Failure {
    /// Redis answered with an error: it is up.
    Answered(redis::RedisError),
    /// Redis is away, or its breaker is open.
    Away(LiveError),
}

impl RedisStore {
    /// Connects to `url` with the default deadline and cool-down ([`RedisConfig`]); every key and
    /// channel is prefixed with `prefix` and a colon.
    pub async fn connect(url: &str, prefix: &str) -> Result<Self, LiveError> {
        Self::connect_with(url, prefix, &RedisConfig::default()).await
    }

    /// Connects to `url` with `config`'s deadline and cool-down (see the module docs). With
    /// `config.cluster`, `url` names one or more nodes of a Redis Cluster, comma-separated.
    pub async fn connect_with(url: &str, prefix: &str, config: &RedisConfig) -> Result<Self, LiveError> {
        let unavailable = |e: redis::RedisError| LiveError::Unavailable(format!("{}: {e}", crate::app::redact(url)));
        let root_cert = match &config.ca_file {
            Some(path) => Some(
                std::fs::read(path)
                    .map_err(|e| LiveError::Unavailable(format!("redis.ca_file {}: {e}", path.display())))?,
            ),
            None => None,
        };
        let deadline = config.command_timeout();
        let (subscribers, connection) = if config.cluster {
            let seeds: Vec<&str> = url.split(',').map(str::trim).filter(|seed| !seed.is_empty()).collect();
            let subscribers =
                seeds.iter().map(|seed| client(seed, root_cert.as_deref())).collect::<Result<Vec<_>, _>>()?;
            let infos: Vec<redis::ConnectionInfo> =
                seeds.iter().map(|seed| connection_info(seed)).collect::<Result<_, _>>()?;
            let mut builder = redis::cluster::ClusterClientBuilder::new(infos)
                .tcp_settings(nodelay())
                .connection_timeout(deadline)
                .response_timeout(deadline)
                // A redirection (the slot moved, a replica took over) is followed once, at once:
                // anything longer is the breaker's to space out, as for a single Redis.
                .retries(1)
                .min_retry_wait(1)
                .max_retry_wait(deadline.as_millis().try_into().unwrap_or(u64::MAX))
                .retry_wait_formula(5, 2);
            if let Some(root_cert) = &root_cert {
                builder =
                    builder.certs(redis::TlsCertificates { client_tls: None, root_cert: Some(root_cert.clone()) });
            }
            let cluster = builder.build().map_err(unavailable)?;
            let connection = tokio::time::timeout(deadline, cluster.get_async_connection())
                .await
                .map_err(|_| {
                    LiveError::Unavailable(format!("{}: no answer within {deadline:?}", crate::app::redact(url)))
                })?
                .map_err(unavailable)?;
            (subscribers, Commands::Cluster(connection))
        } else {
            let client = client(url, root_cert.as_deref())?;
            // One attempt per reconnection, within the deadline: the manager's own retries (with
            // backoff) would hold every command waiting on the reconnection for seconds; the
            // breaker spaces the attempts out instead.
            let manager = redis::aio::ConnectionManagerConfig::new()
                .set_number_of_retries(0)
                .set_connection_timeout(Some(deadline))
                .set_response_timeout(Some(deadline));
            let connection =
                redis::aio::ConnectionManager::new_with_config(client.clone(), manager).await.map_err(unavailable)?;
            (vec![client], Commands::Single(connection))
        };
        Ok(RedisStore {
            subscribers: Arc::new(subscribers),
            connection,
            prefix: format!("{prefix}:"),
            hub: Arc::default(),
            breaker: Breaker::new("redis", config.cool_down()),
            deadline,
        })
    }

    /// The breaker of this store's commands: closed while Redis answers.
    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    /// Runs `command` once, within the deadline, unless the breaker refuses it: after Redis failed
    /// moments ago the answer is [`LiveError::Unavailable`] at once, and the caller goes on from
    /// the durable record instead of waiting for a reconnection.
    async fn run<T: redis::FromRedisValue>(&self, what: &str, command: &redis::Cmd) -> Result<T, LiveError> {
        self.attempt(what, command).await.map_err(|failure| match failure {
            Failure::Answered(e) => LiveError::Unavailable(format!("{what}: {e}")),
            Failure::Away(e) => e,
        })
    }

    /// [`RedisStore::run`], telling an error Redis answered with from Redis being away.
    async fn attempt<T: redis::FromRedisValue>(&self, what: &str, command: &redis::Cmd) -> Result<T, Failure> {
        let permit =
            self.breaker.admit().map_err(|open| Failure::Away(LiveError::Unavailable(format!("{what}: {open}"))))?;
        match tokio::time::timeout(self.deadline, self.connection.query::<T>(command)).await {
            Ok(Ok(value)) => {
                permit.succeeded();
                Ok(value)
            }
            Ok(Err(e)) => {
                // Redis answering with an error is up; only its absence opens the breaker.
                let away = is_transient(&e);
                permit.settle(away);
                if away {
                    Err(Failure::Away(LiveError::Unavailable(format!("{what}: {e}"))))
                } else {
                    Err(Failure::Answered(e))
                }
            }
            Err(_) => {
                permit.failed();
                Err(Failure::Away(LiveError::Unavailable(format!("{what}: no answer within {:?}", self.deadline))))
            }
        }
    }

    /// A subscription to `channel` (its full name) on the first node that takes it: the one
    /// Redis, or a cluster's seeds in turn from the one `channel`'s name picks (a PUBLISH on any
    /// node reaches the subscribers of all).
    async fn subscribe_anywhere(&self, channel: &str) -> Result<redis::aio::PubSub, redis::RedisError> {
        let count = self.subscribers.len();
        let first = channel.bytes().fold(0usize, |hash, byte| hash.wrapping_mul(31).wrapping_add(usize::from(byte)));
        let mut failure = None;
        for turn in 0..count {
            let client = &self.subscribers[(first + turn) % count];
            let attempt = async {
                let mut pubsub = client.get_async_pubsub().await?;
                pubsub.subscribe(channel).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            match attempt.await {
                Ok(pubsub) => return Ok(pubsub),
                Err(e) => failure = Some(e),
            }
        }
        Err(failure
            .unwrap_or_else(|| redis::RedisError::from((redis::ErrorKind::InvalidClientConfig, "no Redis named"))))
    }

    /// Subscribes to `channel` in Redis and feeds `fanout` from it until the subscription ends
    /// or nobody listens; then the hub forgets the fan-out, and its receivers' streams end. If the
    /// subscription cannot be made the fan-out ends at once, so that whoever joined it meanwhile
    /// is not left waiting either.
    async fn feed(&self, channel: String, fanout: NewFanout) -> Result<(), LiveError> {
        let NewFanout { sender, ready } = fanout;
        let full = self.key(&channel);
        let subscribed = tokio::time::timeout(SUBSCRIBE_TIMEOUT, self.subscribe_anywhere(&full)).await;
        let pubsub = match subscribed {
            Ok(Ok(pubsub)) => pubsub,
            failed => {
                self.hub.close(&channel, &sender);
                let why = match failed {
                    Ok(Err(e)) => e.to_string(),
                    _ => format!("no answer within {SUBSCRIBE_TIMEOUT:?}"),
                };
                return Err(LiveError::Unavailable(format!("subscribe {channel}: {why}")));
            }
        };
        let _ = ready.send(true);
        let hub = self.hub.clone();
        tokio::spawn(async move {
            // Held while the feed runs: subscribers joining it see it ready.
            let _ready = ready;
            let mut messages = pubsub.into_on_message();
            let mut idle = tokio::time::interval(Duration::from_secs(5));
            loop {
                tokio::select! {
                    message = messages.next() => match message {
                        Some(message) => {
                            let _ = sender.send(Bytes::copy_from_slice(message.get_payload_bytes()));
                        }
                        None => {
                            tracing::warn!(channel = %full, "redis subscription closed; its watchers subscribe again");
                            break;
                        }
                    },
                    _ = idle.tick() => {
                        if hub.close_if_unwatched(&channel, &sender) {
                            break;
                        }
                    }
                }
            }
            hub.close(&channel, &sender);
            // Dropping the last sender here ends every receiver's stream.
        });
        Ok(())
    }
}

/// Where commands go: one Redis, or a Redis Cluster (each command to the master of its key's
/// slot, following redirections as the slots move).
#[derive(Clone)]
enum Commands {
    Single(redis::aio::ConnectionManager),
    Cluster(redis::cluster_async::ClusterConnection),
}

impl Commands {
    async fn query<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> redis::RedisResult<T> {
        match self {
            Commands::Single(connection) => command.query_async(&mut connection.clone()).await,
            Commands::Cluster(connection) => command.query_async(&mut connection.clone()).await,
        }
    }
}

/// Commands are small writes sent while earlier ones are still unanswered: without TCP_NODELAY,
/// Nagle's algorithm holds them until Redis's delayed ACK (~40 ms).
fn nodelay() -> redis::io::tcp::TcpSettings {
    redis::io::tcp::TcpSettings::default().set_nodelay(true)
}

fn connection_info(url: &str) -> Result<redis::ConnectionInfo, LiveError> {
    use redis::IntoConnectionInfo as _;
    url.into_connection_info()
        .map(|info| info.set_tcp_settings(nodelay()))
        .map_err(|e| LiveError::Unavailable(format!("{}: {e}", crate::app::redact(url))))
}

/// A client of the Redis at `url`. `rediss://` is TLS, checked against the web's roots, or
/// against `root_cert` (a managed Redis's or the deployment's own CA) when it is given.
fn client(url: &str, root_cert: Option<&[u8]>) -> Result<redis::Client, LiveError> {
    let info = connection_info(url)?;
    match root_cert {
        Some(root_cert) => redis::Client::build_with_tls(
            info,
            redis::TlsCertificates { client_tls: None, root_cert: Some(root_cert.to_vec()) },
        ),
        None => redis::Client::open(info),
    }
    .map_err(|e| LiveError::Unavailable(format!("{}: {e}", crate::app::redact(url))))
}

/// How long subscribing to a channel may take before the store counts as unreachable.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether `error` says Redis is away (unreachable, silent, or not serving yet: loading its data,
/// failing over, a cluster's slot without a master), rather than Redis answering a command with
/// an error.
fn is_transient(error: &redis::RedisError) -> bool {
    use redis::{ErrorKind, ServerErrorKind};
    error.is_io_error()
        || error.is_connection_dropped()
        || error.is_connection_refusal()
        || error.is_timeout()
        || error.is_unrecoverable_error()
        || matches!(
            error.kind(),
            ErrorKind::Server(
                ServerErrorKind::BusyLoading
                    // A redirection still unresolved after the cluster client followed it: the
                    // slot's master is gone and no replica has taken over yet.
                    | ServerErrorKind::Moved
                    | ServerErrorKind::Ask
                    | ServerErrorKind::TryAgain
                    | ServerErrorKind::ClusterDown
                    | ServerErrorKind::MasterDown
                    | ServerErrorKind::ReadOnly
            )
        )
}

#[async_trait]
impl LiveStore for RedisStore {
    async fn get(&self, key: &str) -> Result<Option<Versioned>, LiveError> {
        let (version, data): (Option<u64>, Option<Vec<u8>>) =
            self.run("HMGET", redis::cmd("HMGET").arg(self.key(key)).arg("v").arg("d")).await?;
        match (version, data) {
            (Some(version), Some(data)) => Ok(Some(Versioned { version, value: Bytes::from(data) })),
            (None, None) => Ok(None),
            _ => Err(LiveError::Corrupt(format!("{key} has a version without data or data without a version"))),
        }
    }

    async fn compare_and_move(
        &self,
        key: &str,
        (expected, next): (u64, u64),
        value: Bytes,
        event: Option<(&str, Bytes)>,
        append: bool,
    ) -> Result<CasOutcome, LiveError> {
        // The version check, the write (or append) and the publish: one script call.
        let (channel, payload) = match event {
            Some((channel, payload)) => (self.key(channel), payload),
            None => (String::new(), Bytes::new()),
        };
        // The script by its SHA: a command in flight carries its arguments, not the script. A
        // Redis that does not know it (restarted, flushed its scripts) says NOSCRIPT, and the one
        // call that sends it whole also loads it for the next.
        let call = |command: &str, script: &str| {
            let mut call = redis::cmd(command);
            call.arg(script)
                .arg(1)
                .arg(self.key(key))
                .arg(expected)
                .arg(value.as_ref())
                .arg(&channel)
                .arg(payload.as_ref())
                .arg(if append { "a" } else { "" })
                .arg(next);
            call
        };
        let (applied, version): (u8, u64) = match self.attempt("EVALSHA cas", &call("EVALSHA", &CAS_SHA)).await {
            Ok(answer) => answer,
            Err(Failure::Answered(e)) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
                self.run("EVAL cas", &call("EVAL", CAS_SCRIPT)).await?
            }
            Err(Failure::Answered(e)) => return Err(LiveError::Unavailable(format!("EVALSHA cas: {e}"))),
            Err(Failure::Away(e)) => return Err(e),
        };
        Ok(if applied == 1 { CasOutcome::Applied(version) } else { CasOutcome::Conflict { current: version } })
    }

    async fn put(&self, key: &str, value: Versioned) -> Result<(), LiveError> {
        self.run::<()>(
            "HSET",
            redis::cmd("HSET").arg(self.key(key)).arg("v").arg(value.version).arg("d").arg(value.value.as_ref()),
        )
        .await
    }

    async fn delete(&self, key: &str) -> Result<(), LiveError> {
        self.run::<()>("DEL", redis::cmd("DEL").arg(self.key(key))).await
    }

    async fn publish(&self, channel: &str, payload: Bytes) -> Result<(), LiveError> {
        self.run::<()>("PUBLISH", redis::cmd("PUBLISH").arg(self.key(channel)).arg(payload.as_ref())).await
    }

    async fn subscribe(&self, channel: &str) -> Result<BoxStream<'static, ChannelMessage>, LiveError> {
        let (receiver, mut ready, created) = self.hub.subscribe(channel);
        match created {
            Some(fanout) => self.feed(channel.to_owned(), fanout).await?,
            // Joining a feed still subscribing: messages count from when its subscription is in
            // place, so wait for that (or for it to fail).
            None => {
                if ready.wait_for(|ready| *ready).await.is_err() {
                    return Err(LiveError::Unavailable(format!("subscribe {channel}: the subscription failed")));
                }
            }
        }
        Ok(receiver_stream(receiver))
    }

    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, LiveError> {
        let key = self.key(key);
        let mut command = redis::cmd("EVAL");
        command
            .arg("local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n")
            .arg(1)
            .arg(key)
            .arg(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        self.run("EVAL incr", &command).await
    }

    async fn clear(&self) -> Result<(), LiveError> {
        let pattern = format!("{}*", self.prefix);
        // A cluster's keys are scanned on each master, each deleted alone (keys of several slots
        // in one command are refused); a single Redis's are scanned and deleted in batches.
        let nodes: Vec<Option<(String, u16)>> = match &self.connection {
            Commands::Single(_) => vec![None],
            Commands::Cluster(_) => self.masters().await?.into_iter().map(Some).collect(),
        };
        for node in nodes {
            let mut cursor: u64 = 0;
            loop {
                let mut scan = redis::cmd("SCAN");
                scan.arg(cursor).arg("MATCH").arg(&pattern).arg("COUNT").arg(500);
                let (next, keys): (u64, Vec<String>) = match (&node, &self.connection) {
                    (Some((host, port)), Commands::Cluster(connection)) => {
                        use redis::cluster_routing::{RoutingInfo, SingleNodeRoutingInfo};
                        let to = RoutingInfo::SingleNode(SingleNodeRoutingInfo::ByAddress {
                            host: host.clone(),
                            port: *port,
                        });
                        let scanned = tokio::time::timeout(self.deadline, connection.clone().route_command(scan, to))
                            .await
                            .map_err(|_| LiveError::Unavailable(format!("SCAN {host}:{port}: no answer")))?
                            .map_err(|e| LiveError::Unavailable(format!("SCAN {host}:{port}: {e}")))?;
                        redis::FromRedisValue::from_redis_value(scanned)
                            .map_err(|e| LiveError::Corrupt(format!("SCAN {host}:{port}: {e}")))?
                    }
                    _ => self.run("SCAN", &scan).await?,
                };
                if node.is_some() {
                    for key in &keys {
                        self.run::<()>("DEL", redis::cmd("DEL").arg(key)).await?;
                    }
                } else if !keys.is_empty() {
                    self.run::<()>("DEL", redis::cmd("DEL").arg(&keys)).await?;
                }
                if next == 0 {
                    break;
                }
                cursor = next;
            }
        }
        Ok(())
    }
}

impl RedisStore {
    /// The addresses of the cluster's masters that are not failing (`CLUSTER NODES`).
    async fn masters(&self) -> Result<Vec<(String, u16)>, LiveError> {
        let nodes: String = self.run("CLUSTER NODES", &redis::cmd("CLUSTER").arg("NODES").clone()).await?;
        Ok(nodes
            .lines()
            .filter_map(|line| {
                let fields: Vec<&str> = line.split(' ').collect();
                let flags = fields.get(2)?;
                if !flags.split(',').any(|flag| flag == "master") || flags.contains("fail") {
                    return None;
                }
                let address = fields.get(1)?.split(['@', ',']).next()?;
                let (host, port) = address.rsplit_once(':')?;
                Some((host.to_owned(), port.parse().ok()?))
            })
            .collect())
    }
}
