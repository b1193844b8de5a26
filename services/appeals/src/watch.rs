//! `WatchAppeals`: notices in order, without gaps or repeats, resumable by sequence number.
//!
//! A watcher subscribes to the live channel first, then reads from the database every notice
//! after the sequence it resumes from, then forwards live notices, skipping those it has already
//! sent. Notices commit in sequence order (see [`store::next_sequence`]) and are published after
//! they commit, so when a live notice skips a number (one published late, or lost), or the
//! channel reports that the watcher lagged, it reads the database again from the last number it
//! saw; it also rereads every few seconds, so that a notice whose publication was lost is
//! delivered even if no other notice follows it. A player's stream carries only notices about
//! deals they played, so its sequence numbers skip the others.
//!
//! When the live store drops the subscription the watcher subscribes again and rereads the
//! database; if it cannot, the stream ends UNAVAILABLE, naming the sequence to resume after. A
//! quiet stream carries heartbeats ([`platform::watch`]).

use std::sync::Arc;
use std::time::Duration;

use api::appeals::v1 as pb;
use platform::ServiceError;
use platform::auth::Principal;
use platform::watch::{LiveFeed, Next, heartbeat, resume_status};
use prost::Message;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use crate::service::{Appeals, sees_everything};
use crate::store::{self, LiveNotice};

/// What the gRPC layer streams.
pub type NoticeStream = ReceiverStream<Result<pb::WatchAppealsResponse, tonic::Status>>;

/// How often a quiet watcher rereads the database for a notice whose publication was lost.
const RESYNC: Duration = Duration::from_secs(10);

/// Notices read from the database per query.
const BATCH: u64 = 500;

/// Starts a watch for `principal` after `after_sequence` (or from now).
pub async fn watch(
    appeals: Arc<Appeals>,
    principal: Principal,
    after_sequence: Option<u64>,
) -> Result<NoticeStream, ServiceError> {
    let feed = LiveFeed::subscribe(appeals.live.clone(), store::CHANNEL, appeals.heartbeat).await?;
    let start = match after_sequence {
        Some(after) => after,
        None => store::last_sequence(&appeals.db).await?,
    };
    let player = (!sees_everything(&principal)).then(|| principal.subject.clone());
    let (sender, receiver) = mpsc::channel(64);
    tokio::spawn(async move {
        let mut watcher = Watcher { appeals, sender, feed, player, last: start };
        watcher.run().await;
    });
    Ok(ReceiverStream::new(receiver))
}

struct Watcher {
    appeals: Arc<Appeals>,
    sender: mpsc::Sender<Result<pb::WatchAppealsResponse, tonic::Status>>,
    feed: LiveFeed,
    /// The player whose notices these are; `None` for staff and the committee, who see all.
    player: Option<String>,
    /// The last sequence number seen, sent or not.
    last: u64,
}

/// The watcher's client went away.
struct Gone;

impl Watcher {
    async fn run(&mut self) {
        if self.catch_up().await.is_err() {
            return;
        }
        let mut resync = tokio::time::interval(RESYNC);
        resync.tick().await;
        loop {
            let step = tokio::select! {
                () = self.sender.closed() => return,
                next = self.feed.next() => match next {
                    // The live feed was lost and could not be made again.
                    Err(error) => {
                        let _ = self.sender.send(Err(resume_status(&error, self.last))).await;
                        return;
                    }
                    Ok(Next::CatchUp) => self.catch_up().await,
                    Ok(Next::Heartbeat) => self.beat().await,
                    Ok(Next::Message(payload)) => self.forward(&payload).await,
                },
                _ = resync.tick() => self.catch_up().await,
            };
            if step.is_err() {
                return;
            }
        }
    }

    /// Forwards a live notice if it is the next one; otherwise reads the database.
    async fn forward(&mut self, payload: &[u8]) -> Result<(), Gone> {
        let Ok(LiveNotice { event: Some(event), audience }) = LiveNotice::decode(payload) else {
            return self.catch_up().await;
        };
        if event.sequence <= self.last {
            return Ok(());
        }
        if event.sequence != self.last + 1 {
            return self.catch_up().await;
        }
        self.last = event.sequence;
        let visible = self.player.as_ref().is_none_or(|player| audience.contains(player));
        if visible { self.send(event).await } else { Ok(()) }
    }

    /// Sends every notice after the last one seen, from the database.
    async fn catch_up(&mut self) -> Result<(), Gone> {
        loop {
            let batch = match store::events_after(&self.appeals.db, self.last, BATCH, self.player.as_deref()).await {
                Ok(batch) => batch,
                Err(error) => {
                    let _ = self.sender.send(Err(error.into())).await;
                    return Err(Gone);
                }
            };
            let full = batch.len() as u64 == BATCH;
            for (event, visible) in batch {
                self.last = event.sequence;
                if visible {
                    self.send(event).await?;
                }
            }
            if !full {
                return Ok(());
            }
        }
    }

    async fn send(&mut self, event: pb::AppealEvent) -> Result<(), Gone> {
        self.sender
            .send(Ok(pb::WatchAppealsResponse { event: Some(event), heartbeat: None }))
            .await
            .map_err(|_| Gone)?;
        self.feed.sent();
        Ok(())
    }

    /// A heartbeat on a quiet stream, carrying the last sequence seen (sent or not).
    async fn beat(&mut self) -> Result<(), Gone> {
        let beat = pb::WatchAppealsResponse { event: None, heartbeat: Some(heartbeat(self.last)) };
        self.sender.send(Ok(beat)).await.map_err(|_| Gone)
    }
}
