//! What every watch stream shares: a live feed that outlives the live store's subscription, and
//! heartbeats on a quiet stream.
//!
//! A watcher subscribes to its channel before it reads the durable record, then forwards what is
//! published, reading the record again whenever it may have missed something. [`LiveFeed`] is
//! that subscription. When the live store drops it (Redis closed the connection, or restarted),
//! [`LiveFeed::next`] subscribes again at once and answers [`Next::CatchUp`]: what was published
//! in between is in the record, and the watcher reads it from the last sequence it sent, so the
//! client sees no gap and no repeat. If the store cannot be reached to subscribe again, `next`
//! fails and the watcher ends the stream with [`resume_status`]: UNAVAILABLE, naming the sequence
//! to resume after.
//!
//! Load balancers and proxies cut connections that carry nothing for a while (often 60 seconds)
//! without telling either end. A watcher that has sent nothing for the heartbeat interval
//! ([`crate::config::StreamsConfig::heartbeat_interval_ms`]) gets [`Next::Heartbeat`] and sends a
//! [`api::common::v1::Heartbeat`] carrying the sequence to resume after; clients skip it.
//!
//! [`stream`] is the one watch loop every service's streams run on top of the feed.

use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use tokio::time::{Instant, Sleep};

use crate::live::{ChannelMessage, LiveError, SharedLiveStore};

pub mod stream;

pub use stream::{RecordPage, Seen, WatchSource};

/// The heartbeat interval unless configured: well inside the usual 60-second idle timeouts.
pub const DEFAULT_HEARTBEAT: Duration = Duration::from_secs(15);

/// What a watcher does next (see [`LiveFeed::next`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A message published on the channel.
    Message(Bytes),
    /// Messages may have been missed (the watcher fell behind the channel, or the subscription
    /// was lost and made again): read the record after the last sequence sent.
    CatchUp,
    /// Nothing was sent for the heartbeat interval: send a heartbeat.
    Heartbeat,
}

/// One watcher's subscription to a channel (see the module docs).
pub struct LiveFeed {
    live: SharedLiveStore,
    channel: String,
    subscription: BoxStream<'static, ChannelMessage>,
    heartbeat: Duration,
    quiet: Pin<Box<Sleep>>,
}

impl std::fmt::Debug for LiveFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveFeed").field("channel", &self.channel).finish_non_exhaustive()
    }
}

impl LiveFeed {
    /// Subscribes to `channel`; a heartbeat is due after `heartbeat` without anything sent.
    pub async fn subscribe(live: SharedLiveStore, channel: &str, heartbeat: Duration) -> Result<LiveFeed, LiveError> {
        let subscription = live.subscribe(channel).await?;
        Ok(LiveFeed {
            live,
            channel: channel.to_owned(),
            subscription,
            heartbeat,
            quiet: Box::pin(tokio::time::sleep(heartbeat)),
        })
    }

    /// Waits for what the watcher must do next. Fails only when the subscription was lost and
    /// the live store cannot be reached to make it again: the watcher then ends its stream with
    /// [`resume_status`]. Cancel-safe: a message is never taken without being returned.
    pub async fn next(&mut self) -> Result<Next, LiveError> {
        tokio::select! {
            message = self.subscription.next() => match message {
                Some(ChannelMessage::Message(payload)) => Ok(Next::Message(payload)),
                Some(ChannelMessage::Lagged(missed)) => {
                    tracing::info!(channel = %self.channel, missed, "watcher fell behind its channel; reading the record");
                    Ok(Next::CatchUp)
                }
                None => {
                    tracing::info!(channel = %self.channel, "live subscription lost; subscribing again");
                    self.subscription = self.live.subscribe(&self.channel).await?;
                    Ok(Next::CatchUp)
                }
            },
            () = self.quiet.as_mut() => {
                self.sent();
                Ok(Next::Heartbeat)
            }
        }
    }

    /// Something was sent to the client: the quiet interval starts again.
    pub fn sent(&mut self) {
        self.quiet.as_mut().reset(Instant::now() + self.heartbeat);
    }
}

/// The status that ends a stream whose live feed is lost: UNAVAILABLE, telling the client to
/// watch again after `last`, the sequence to resume after (house rule: a dependency away is
/// UNAVAILABLE at once, with what to do about it).
pub fn resume_status(error: &LiveError, last: u64) -> tonic::Status {
    crate::error::unavailable(format!(
        "the live feed was lost and cannot be resumed now ({error}); watch again with after_sequence = {last} \
         to resume without a gap"
    ))
}

/// A heartbeat carrying the sequence a client resumes after.
pub fn heartbeat(last_sequence: u64) -> api::common::v1::Heartbeat {
    api::common::v1::Heartbeat { last_sequence }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::live::{LiveStore, MemoryStore};

    #[tokio::test]
    async fn a_quiet_feed_asks_for_a_heartbeat_and_a_message_comes_first() {
        let live = Arc::new(MemoryStore::new());
        let quiet = Duration::from_millis(50);
        let mut feed = LiveFeed::subscribe(live.clone(), "events:{1}", quiet).await.unwrap();
        live.publish("events:{1}", Bytes::from_static(b"a")).await.unwrap();
        assert_eq!(feed.next().await.unwrap(), Next::Message(Bytes::from_static(b"a")));
        feed.sent();
        let started = Instant::now();
        assert_eq!(feed.next().await.unwrap(), Next::Heartbeat);
        assert!(started.elapsed() >= quiet, "a heartbeat only after the quiet interval");
        // The next one counts from the heartbeat sent.
        assert_eq!(feed.next().await.unwrap(), Next::Heartbeat);
        assert!(started.elapsed() >= quiet * 2);
    }

    #[test]
    fn the_resume_status_is_unavailable_and_names_the_sequence() {
        let status = resume_status(&LiveError::Unavailable("redis: connection refused".into()), 41);
        assert_eq!(status.code(), tonic::Code::Unavailable);
        assert!(status.message().contains("after_sequence = 41"), "{}", status.message());
    }
}
