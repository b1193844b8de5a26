//! Live state: versioned values with atomic compare-and-set, and per-channel fan-out.
//!
//! Services keep the current state of a table (a deal in progress, a roster) here for fast reads
//! and streaming, while Postgres keeps the durable record, from which every service goes on when
//! the live store fails. Two stores implement [`LiveStore`]:
//! - [`RedisStore`]: Redis through a `ConnectionManager` (reconnects on its own). Updates run as
//!   one Lua script that checks the version, writes, and publishes, because WATCH/MULTI is unsafe on
//!   a shared multiplexed connection. Every command has a short deadline and nothing is retried:
//!   after a failure a [`Breaker`] refuses commands at once ([`LiveError::Unavailable`]) for a
//!   cool-down, then lets one through to probe, so a Redis that is away costs callers nothing but
//!   the detour through the durable record.
//! - [`MemoryStore`]: the embedded default for a single process, with the same semantics.
//!
//! A value's version starts at 1 on first write; 0 means "absent" in [`LiveStore::compare_and_set`].
//! Keys are given by the caller, e.g. `table:{42}`: the braces are a Redis Cluster hash tag, so
//! everything about one table lives on one shard. Each store prefixes every key and channel with
//! its own prefix, so that deployments and tests can share one Redis without touching each other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use tokio::sync::{broadcast, watch};

mod redis_store;

pub use redis_store::RedisStore;

/// A value and its version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned {
    /// Incremented by one at every accepted write; 1 after the first.
    pub version: u64,
    /// The encoded value.
    pub value: Bytes,
}

/// The result of a compare-and-set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CasOutcome {
    /// The write happened; the value is now at this version.
    Applied(u64),
    /// Someone else wrote first: the current version (0 if absent) did not match.
    Conflict {
        /// The version actually stored.
        current: u64,
    },
}

/// A message on a channel, or notice that the subscriber fell behind and missed some (it must
/// resynchronise from the durable record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelMessage {
    /// A published payload.
    Message(Bytes),
    /// This many messages were dropped because the subscriber was too slow.
    Lagged(u64),
}

/// A live-state failure.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The store could not be reached or did not answer in time, or failed moments ago and is
    /// not asked again until its cool-down is over.
    #[error("live state store unavailable: {0}")]
    Unavailable(String),
    /// The store returned something this code did not write.
    #[error("live state store returned unexpected data: {0}")]
    Corrupt(String),
}

/// Versioned values and channels (see the module docs).
#[async_trait]
pub trait LiveStore: Send + Sync + 'static {
    /// The value at `key`, if any.
    async fn get(&self, key: &str) -> Result<Option<Versioned>, LiveError>;

    /// Writes `value` at `key` if the stored version is `expected` (0: absent), then publishes
    /// `event` on its channel, all atomically. The new version is `expected + 1`.
    async fn compare_and_set(
        &self,
        key: &str,
        expected: u64,
        value: Bytes,
        event: Option<(&str, Bytes)>,
    ) -> Result<CasOutcome, LiveError> {
        self.compare_and_move(key, (expected, expected + 1), value, event, false).await
    }

    /// [`LiveStore::compare_and_set`], except that `fragment` is appended to the stored value
    /// instead of replacing it: for values that compose by concatenation (an encoded protobuf
    /// message followed by another decodes as the two merged: repeated fields appended, single
    /// ones taken from the later), so that a long value grows by what changed and is neither sent
    /// nor rewritten whole.
    async fn compare_and_append(
        &self,
        key: &str,
        expected: u64,
        fragment: Bytes,
        event: Option<(&str, Bytes)>,
    ) -> Result<CasOutcome, LiveError> {
        self.compare_and_move(key, (expected, expected + 1), fragment, event, true).await
    }

    /// [`LiveStore::compare_and_set`] (or, with `append`, [`LiveStore::compare_and_append`]) to
    /// version `next` rather than `expected + 1`: for a value that mirrors a record whose versions
    /// can step by more than one at a time.
    async fn compare_and_move(
        &self,
        key: &str,
        (expected, next): (u64, u64),
        value: Bytes,
        event: Option<(&str, Bytes)>,
        append: bool,
    ) -> Result<CasOutcome, LiveError>;

    /// Writes `value` at `key` with exactly `version`, whatever was there (rebuilding live state
    /// from the durable record).
    async fn put(&self, key: &str, value: Versioned) -> Result<(), LiveError>;

    /// Removes `key`.
    async fn delete(&self, key: &str) -> Result<(), LiveError>;

    /// Publishes `payload` to the subscribers of `channel`.
    async fn publish(&self, channel: &str, payload: Bytes) -> Result<(), LiveError>;

    /// Subscribes to `channel`. Messages published after this call returns are delivered in order.
    /// The stream ends if the subscription is lost (Redis closed it, or restarted): what was
    /// published meanwhile is gone, so a subscriber subscribes again and reads the durable record
    /// from where it was.
    async fn subscribe(&self, channel: &str) -> Result<BoxStream<'static, ChannelMessage>, LiveError>;

    /// Increments the counter at `key`, creating it with a time-to-live of `ttl`; returns the
    /// new count (rate limiting).
    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, LiveError>;

    /// Deletes every key under this store's prefix: what a Redis flush does to this deployment,
    /// used by tests to check that services rebuild from the durable record, and to leave
    /// nothing behind.
    async fn clear(&self) -> Result<(), LiveError>;
}

/// The shared handle services hold.
pub type SharedLiveStore = Arc<dyn LiveStore>;

/// Per-channel fan-out: one upstream subscription per channel, however many watchers, so a
/// thousand phones watching one table cost one Redis subscription.
///
/// An entry lives as long as its feed: when the upstream subscription ends (Redis closed it, or
/// nobody listens any more) the entry is removed and its sender dropped, so every receiver's
/// stream ends (and its watcher subscribes again, starting a new feed) instead of waiting on a
/// sender nothing feeds.
#[derive(Default)]
struct Hub {
    channels: Mutex<HashMap<String, Fanout>>,
}

/// One channel's sender, and whether its upstream subscription is in place yet.
#[derive(Clone)]
struct Fanout {
    sender: broadcast::Sender<Bytes>,
    /// Becomes true once the upstream subscription is active; closed (its sender dropped) if it
    /// could not be made.
    ready: watch::Receiver<bool>,
}

/// A fan-out just created, which the caller must feed (or end with [`Hub::close`]).
struct NewFanout {
    sender: broadcast::Sender<Bytes>,
    ready: watch::Sender<bool>,
}

const CHANNEL_CAPACITY: usize = 1024;

impl Hub {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, Fanout>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver on `channel` (taken under the lock, so a feed ending for want of listeners
    /// cannot miss it), with the channel's readiness, and the new fan-out if there was none.
    fn subscribe(&self, channel: &str) -> (broadcast::Receiver<Bytes>, watch::Receiver<bool>, Option<NewFanout>) {
        let mut channels = self.channels();
        channels.retain(|_, fanout| fanout.sender.receiver_count() > 0);
        if let Some(fanout) = channels.get(channel) {
            return (fanout.sender.subscribe(), fanout.ready.clone(), None);
        }
        let (sender, receiver) = broadcast::channel(CHANNEL_CAPACITY);
        let (ready_sender, ready) = watch::channel(false);
        channels.insert(channel.to_owned(), Fanout { sender: sender.clone(), ready: ready.clone() });
        (receiver, ready, Some(NewFanout { sender, ready: ready_sender }))
    }

    /// The sender of `channel`, if anyone listens (the in-process store publishes through it).
    fn existing(&self, channel: &str) -> Option<broadcast::Sender<Bytes>> {
        self.channels().get(channel).map(|fanout| fanout.sender.clone())
    }

    /// Removes `channel`'s entry if it is still the one `sender` feeds (a newer feed may have
    /// replaced it). Once the caller drops `sender`, the entry's receivers see their stream end.
    fn close(&self, channel: &str, sender: &broadcast::Sender<Bytes>) {
        let mut channels = self.channels();
        if channels.get(channel).is_some_and(|fanout| fanout.sender.same_channel(sender)) {
            channels.remove(channel);
        }
    }

    /// Removes `channel`'s entry if nobody listens to `sender`; checked under the lock that
    /// [`Hub::subscribe`] takes, so a new receiver is either counted or gets a new feed.
    fn close_if_unwatched(&self, channel: &str, sender: &broadcast::Sender<Bytes>) -> bool {
        let mut channels = self.channels();
        if sender.receiver_count() > 0 {
            return false;
        }
        if channels.get(channel).is_some_and(|fanout| fanout.sender.same_channel(sender)) {
            channels.remove(channel);
        }
        true
    }
}

/// A receiver as the [`LiveStore::subscribe`] stream: it ends when the channel's feed ends.
fn receiver_stream(receiver: broadcast::Receiver<Bytes>) -> BoxStream<'static, ChannelMessage> {
    tokio_stream::wrappers::BroadcastStream::new(receiver)
        .map(|item| match item {
            Ok(payload) => ChannelMessage::Message(payload),
            Err(tokio_stream::wrappers::errors::BroadcastStreamRecvError::Lagged(n)) => ChannelMessage::Lagged(n),
        })
        .boxed()
}

/// The in-process store of the embedded default.
#[derive(Default)]
pub struct MemoryStore {
    values: Mutex<HashMap<String, Versioned>>,
    counters: Mutex<HashMap<String, (u64, std::time::Instant)>>,
    hub: Hub,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn values(&self) -> std::sync::MutexGuard<'_, HashMap<String, Versioned>> {
        self.values.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn deliver(&self, channel: &str, payload: Bytes) {
        if let Some(sender) = self.hub.existing(channel) {
            let _ = sender.send(payload);
        }
    }
}

#[async_trait]
impl LiveStore for MemoryStore {
    async fn get(&self, key: &str) -> Result<Option<Versioned>, LiveError> {
        Ok(self.values().get(key).cloned())
    }

    async fn compare_and_move(
        &self,
        key: &str,
        (expected, next): (u64, u64),
        value: Bytes,
        event: Option<(&str, Bytes)>,
        append: bool,
    ) -> Result<CasOutcome, LiveError> {
        // The version check, the write and the publish, all under the lock.
        let mut values = self.values();
        let current = values.get(key).map_or(0, |v| v.version);
        if current != expected {
            return Ok(CasOutcome::Conflict { current });
        }
        let value = match values.get(key).filter(|_| append) {
            Some(stored) => {
                let mut joined = Vec::with_capacity(stored.value.len() + value.len());
                joined.extend_from_slice(&stored.value);
                joined.extend_from_slice(&value);
                Bytes::from(joined)
            }
            None => value,
        };
        values.insert(key.to_owned(), Versioned { version: next, value });
        // Published under the lock, so subscribers see events in version order.
        if let Some((channel, payload)) = event {
            self.deliver(channel, payload);
        }
        Ok(CasOutcome::Applied(next))
    }

    async fn put(&self, key: &str, value: Versioned) -> Result<(), LiveError> {
        self.values().insert(key.to_owned(), value);
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<(), LiveError> {
        self.values().remove(key);
        Ok(())
    }

    async fn publish(&self, channel: &str, payload: Bytes) -> Result<(), LiveError> {
        self.deliver(channel, payload);
        Ok(())
    }

    async fn subscribe(&self, channel: &str) -> Result<BoxStream<'static, ChannelMessage>, LiveError> {
        let (receiver, _, created) = self.hub.subscribe(channel);
        if let Some(created) = created {
            // Nothing upstream to wait for: published messages go straight to the sender.
            let _ = created.ready.send(true);
        }
        Ok(receiver_stream(receiver))
    }

    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, LiveError> {
        let now = std::time::Instant::now();
        let mut counters = self.counters.lock().unwrap_or_else(|e| e.into_inner());
        counters.retain(|_, (_, expires)| *expires > now);
        let entry = counters.entry(key.to_owned()).or_insert((0, now + ttl));
        entry.0 += 1;
        Ok(entry.0)
    }

    async fn clear(&self) -> Result<(), LiveError> {
        self.values().clear();
        self.counters.lock().unwrap_or_else(|e| e.into_inner()).clear();
        Ok(())
    }
}
