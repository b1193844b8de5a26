//! WatchTable: a table's events, filtered for one principal, in sequence, without gaps or
//! repeats. The watcher subscribes to the table's live channel first, then reads the journal
//! after the sequence it resumes from (or sends a snapshot), then forwards live events, skipping
//! those already sent; a gap in the live events, or falling behind the channel, sends it back to
//! the journal. When the live store drops the subscription the watcher subscribes again and reads
//! the journal from its last sequence; if it cannot, the stream ends UNAVAILABLE, naming the
//! sequence to resume after. A quiet stream carries heartbeats ([`platform::watch`]).

use std::sync::Arc;

use prost::Message;
use tokio::sync::mpsc;
use tonic::Status;

use api::game::v1 as game;
use platform::ServiceError;
use platform::auth::Principal;
use platform::watch::{LiveFeed, Next, heartbeat, resume_status};

use crate::engine::{Engine, channel};
use crate::render::filter_event;
use crate::store;
use crate::stored::EventBatch;

/// Events read from the journal at a time.
const PAGE: u64 = 500;

/// The stream of one watcher.
pub type WatchStream = tokio_stream::wrappers::ReceiverStream<Result<game::WatchTableResponse, Status>>;

/// Starts watching `table_id` for `principal`.
pub async fn watch(
    engine: Arc<Engine>,
    principal: Principal,
    table_id: String,
    after: Option<u64>,
) -> Result<WatchStream, ServiceError> {
    if table_id.is_empty() {
        return Err(ServiceError::invalid("table_id", "missing; the table is required"));
    }
    // Subscribe before reading anything, so no event falls between the read and the live feed.
    let live = LiveFeed::subscribe(engine.live.clone(), &channel(&table_id), engine.heartbeat).await?;
    let (sender, receiver) = mpsc::channel(64);
    let mut watcher = Watcher { engine, principal, table_id, sender, live, last: 0 };
    match after {
        Some(after) => watcher.last = after,
        None => watcher.snapshot().await?,
    }
    tokio::spawn(async move {
        if let Err(status) = watcher.run().await {
            let _ = watcher.sender.send(Err(status)).await;
        }
    });
    Ok(tokio_stream::wrappers::ReceiverStream::new(receiver))
}

struct Watcher {
    engine: Arc<Engine>,
    principal: Principal,
    table_id: String,
    sender: mpsc::Sender<Result<game::WatchTableResponse, Status>>,
    live: LiveFeed,
    /// The last sequence number sent.
    last: u64,
}

/// The watcher went away.
struct Gone;

impl From<Gone> for ServiceError {
    fn from(_: Gone) -> Self {
        ServiceError::Unavailable("the watcher went away".to_owned())
    }
}

impl From<Gone> for Status {
    fn from(_: Gone) -> Self {
        Status::cancelled("the watcher went away")
    }
}

impl Watcher {
    async fn send(&mut self, event: game::TableEvent) -> Result<(), Gone> {
        let sequence = event.sequence;
        self.sender
            .send(Ok(game::WatchTableResponse { event: Some(event), heartbeat: None }))
            .await
            .map_err(|_| Gone)?;
        self.live.sent();
        self.last = self.last.max(sequence);
        Ok(())
    }

    /// The table as this principal may see it, carrying the last sequence it reflects.
    async fn snapshot(&mut self) -> Result<(), ServiceError> {
        let loaded = self.engine.load_fresh(&self.table_id).await?;
        let view = loaded.view(&self.principal);
        let event = game::TableEvent {
            sequence: loaded.last_sequence,
            occurred_at: None,
            deal_id: view.deal_id.clone(),
            version: loaded.version,
            event: Some(game::table_event::Event::Snapshot(view)),
        };
        self.send(event).await?;
        self.last = loaded.last_sequence;
        Ok(())
    }

    /// Sends every journaled event after the last one sent.
    async fn catch_up(&mut self) -> Result<(), ServiceError> {
        loop {
            let page = store::events_after(&self.engine.db, &self.table_id, self.last, PAGE).await?;
            let full = page.len() as u64 == PAGE;
            for (sequence, stored) in page {
                if sequence <= self.last {
                    continue;
                }
                let mut event = filter_event(&stored, &self.principal);
                event.sequence = sequence;
                self.send(event).await?;
            }
            if !full {
                return Ok(());
            }
        }
    }

    /// Forwards the live events until the client goes away; an error is the status that ends
    /// the stream.
    async fn run(&mut self) -> Result<(), Status> {
        self.catch_up().await?;
        loop {
            let next = tokio::select! {
                next = self.live.next() => next,
                () = self.sender.closed() => return Ok(()),
            };
            match next {
                // The live feed was lost and could not be made again.
                Err(error) => return Err(resume_status(&error, self.last)),
                Ok(Next::CatchUp) => self.catch_up().await?,
                Ok(Next::Heartbeat) => {
                    let beat = game::WatchTableResponse { event: None, heartbeat: Some(heartbeat(self.last)) };
                    if self.sender.send(Ok(beat)).await.is_err() {
                        return Ok(());
                    }
                }
                Ok(Next::Message(bytes)) => {
                    let batch = EventBatch::decode(bytes.as_ref())
                        .map_err(|e| ServiceError::internal(format!("live event of table {}: {e}", self.table_id)))?;
                    for stored in batch.events {
                        let sequence = stored.event.as_ref().map_or(0, |e| e.sequence);
                        if sequence <= self.last {
                            continue;
                        }
                        if sequence != self.last + 1 {
                            // A gap: the journal has what the live feed skipped.
                            self.catch_up().await?;
                            if sequence <= self.last {
                                continue;
                            }
                        }
                        let event = filter_event(&stored, &self.principal);
                        self.send(event).await?;
                    }
                }
            }
        }
    }
}
