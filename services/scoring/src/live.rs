//! Live score feeds: each scorepad's and session's events reach watchers through the live store
//! (Redis), while Postgres keeps every event (`scoring_events`), numbered per stream.
//!
//! After a change commits, the command runtime ([`platform::runtime`]) publishes its events with
//! one compare-and-set on the stream's feed head (the last sequence published, at the owner's
//! version), so the head only moves forward and the publish is atomic with it. Nothing in the live store is needed to answer anything: if it is flushed,
//! behind, or down, watchers still get every event from Postgres.
//!
//! A watcher subscribes to the channel first, then reads from Postgres what it has not seen (a
//! snapshot, or the events after the sequence it resumes from), then forwards live events,
//! skipping those already sent. A gap in the sequence, a lagged subscription, a lost subscription
//! (made again at once) or a head ahead of what it has sent makes it read Postgres again, so it
//! sees every event once, in order. If the subscription cannot be made again the stream ends
//! UNAVAILABLE, naming the sequence to resume after; a quiet stream carries heartbeats
//! ([`platform::watch`]).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use async_trait::async_trait;
use prost::Message;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use tonic::Status;

use crate::entity::event;
use platform::ServiceError;
use platform::db::Db;
use platform::live::SharedLiveStore;
use platform::watch::{LiveFeed, RecordPage, Seen, WatchSource};

/// The events of one commit, as published on a stream's channel.
#[derive(Clone, PartialEq, Message)]
pub struct FeedBatch {
    /// The events, in sequence order.
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<FeedEvent>,
}

/// One event on a channel.
#[derive(Clone, PartialEq, Message)]
pub struct FeedEvent {
    /// Its sequence number in the stream.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// The encoded `ScorepadEvent` or `SessionEvent`.
    #[prost(bytes = "vec", tag = "2")]
    pub payload: Vec<u8>,
}

/// The feed head of a stream: the last sequence published.
#[derive(Clone, PartialEq, Message)]
pub struct FeedHead {
    /// The last sequence published.
    #[prost(uint64, tag = "1")]
    pub last_sequence: u64,
}

/// The live side of the score feeds.
#[derive(Clone)]
pub struct Feed {
    live: SharedLiveStore,
    heartbeat: Duration,
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feed").finish_non_exhaustive()
    }
}

/// The key of a stream's feed head; the braces are a Redis Cluster hash tag, keeping a stream's
/// keys on one shard.
pub fn head_key(stream: &str) -> String {
    format!("scoring:{{{stream}}}:head")
}

/// The channel a stream's events are published on.
pub fn channel(stream: &str) -> String {
    format!("scoring:{{{stream}}}:events")
}

impl Feed {
    /// A feed over `live`.
    pub fn new(live: SharedLiveStore) -> Feed {
        Feed { live, heartbeat: platform::watch::DEFAULT_HEARTBEAT }
    }

    /// The live store the feed publishes to.
    pub fn live(&self) -> &SharedLiveStore {
        &self.live
    }

    /// The same feed, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Feed {
        self.heartbeat = heartbeat;
        self
    }

    async fn head(&self, stream: &str) -> Option<u64> {
        match self.live.get(&head_key(stream)).await {
            Ok(Some(v)) => FeedHead::decode(v.value.as_ref()).ok().map(|h| h.last_sequence),
            _ => None,
        }
    }
}

/// Up to `limit` events of `stream` after `after`, from Postgres, in order.
pub async fn events_after(db: &Db, stream: &str, after: u64, limit: u64) -> Result<Vec<(u64, Vec<u8>)>, ServiceError> {
    let rows = event::Entity::find()
        .filter(event::Column::StreamId.eq(stream))
        .filter(event::Column::Sequence.gt(i64::try_from(after).unwrap_or(i64::MAX)))
        .order_by_asc(event::Column::Sequence)
        .limit(limit)
        .all(db)
        .await?;
    Ok(rows.into_iter().map(|r| (u64::try_from(r.sequence).unwrap_or(0), r.payload)).collect())
}

/// The last sequence of `stream` in Postgres.
pub async fn last_sequence(db: &Db, stream: &str) -> Result<u64, ServiceError> {
    let row = event::Entity::find()
        .filter(event::Column::StreamId.eq(stream))
        .order_by_desc(event::Column::Sequence)
        .one(db)
        .await?;
    Ok(row.map_or(0, |r| u64::try_from(r.sequence).unwrap_or(0)))
}

/// A boxed future, for the snapshot a watcher starts with.
pub type Snapshot<T> = Pin<Box<dyn Future<Output = Result<(u64, T), ServiceError>> + Send>>;

/// Turns a stored event (its sequence and payload) into what the watcher receives, or `None`
/// to leave it out for this principal.
pub type Decode<T> = Box<dyn Fn(u64, &[u8]) -> Result<Option<T>, ServiceError> + Send + Sync>;

/// What a watch sends: the stream, how to start and how to turn stored events into responses.
pub struct Watch<T> {
    /// The stream.
    pub stream: String,
    /// Resume after this sequence; `None` to start with the snapshot.
    pub after: Option<u64>,
    /// The snapshot and the sequence of the last event it reflects.
    pub snapshot: Snapshot<T>,
    /// An event as the watcher receives it (or `None` to leave it out for this principal).
    pub decode: Decode<T>,
    /// A heartbeat carrying the sequence to resume after, as the watcher receives it.
    pub beat: fn(u64) -> T,
}

/// Starts a watch (see the module docs) on the platform's one watch loop
/// ([`platform::watch::stream`]); the stream ends when the client goes away.
pub async fn watch<T: Send + 'static>(
    feed: Feed,
    db: Db,
    watch: Watch<T>,
) -> Result<tokio_stream::wrappers::ReceiverStream<Result<T, Status>>, ServiceError> {
    // Subscribe first: anything committed after this is on the channel, anything before is in
    // Postgres; the overlap is skipped by sequence.
    let live = LiveFeed::subscribe(feed.live.clone(), &channel(&watch.stream), feed.heartbeat).await?;
    let Watch { stream, after, snapshot, decode, beat } = watch;
    let (first, last) = match after {
        Some(after) => (Vec::new(), after),
        None => {
            let (sequence, first) = snapshot.await?;
            (vec![first], sequence)
        }
    };
    let source = ScoreEvents { feed, db, stream, decode, beat };
    Ok(platform::watch::stream::spawn(source, live, first, last))
}

/// Events read from Postgres at a time.
const PAGE: u64 = 500;

/// One score stream: its events in Postgres and on its channel, decoded for one principal.
struct ScoreEvents<T> {
    feed: Feed,
    db: Db,
    stream: String,
    decode: Decode<T>,
    beat: fn(u64) -> T,
}

#[async_trait]
impl<T: Send + 'static> WatchSource for ScoreEvents<T> {
    type Item = T;

    async fn record_after(&mut self, after: u64) -> Result<RecordPage<T>, ServiceError> {
        let events = events_after(&self.db, &self.stream, after, PAGE).await?;
        let seen = events
            .into_iter()
            .map(|(sequence, payload)| Ok((sequence, (self.decode)(sequence, &payload)?)))
            .collect::<Result<Vec<_>, ServiceError>>()?;
        Ok(RecordPage::limited(seen, PAGE))
    }

    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<T>>> {
        let batch = FeedBatch::decode(payload).ok()?;
        batch
            .events
            .into_iter()
            .map(|event| Some((event.sequence, (self.decode)(event.sequence, &event.payload).ok()?)))
            .collect()
    }

    fn heartbeat(&self, last: u64) -> T {
        (self.beat)(last)
    }

    async fn behind(&mut self, last: u64) -> bool {
        match self.feed.head(&self.stream).await {
            Some(head) => head > last,
            // No head: the live store was flushed or is down; ask Postgres.
            None => last_sequence(&self.db, &self.stream).await.is_ok_and(|stored| stored > last),
        }
    }
}
