//! WatchTable: a table's events, filtered for one principal, in sequence, without gaps or
//! repeats, on the platform's one watch loop ([`platform::watch::stream`]): the watcher
//! subscribes to the table's live channel first, then sends the table as the principal may see
//! it (or resumes after the sequence the client names), then the journal after it, then live
//! events, going back to the journal after any gap.

use std::sync::Arc;

use async_trait::async_trait;
use prost::Message;
use tonic::Status;

use api::game::v1 as game;
use platform::ServiceError;
use platform::auth::Principal;
use platform::watch::{LiveFeed, RecordPage, Seen, WatchSource, heartbeat};

use crate::engine::{Engine, channel};
use crate::render::filter_event;
use crate::store;
use crate::stored::{EventBatch, StoredEvent};

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
    let feed = LiveFeed::subscribe(engine.live.clone(), &channel(&table_id), engine.heartbeat).await?;
    let (first, last) = match after {
        Some(after) => (Vec::new(), after),
        None => {
            let loaded = engine.load_fresh(&table_id).await?;
            let view = loaded.view(&principal);
            let snapshot = game::TableEvent {
                sequence: loaded.last_sequence,
                occurred_at: None,
                deal_id: view.deal_id.clone(),
                version: loaded.version,
                event: Some(game::table_event::Event::Snapshot(view)),
            };
            (vec![response(snapshot)], loaded.last_sequence)
        }
    };
    Ok(platform::watch::stream::spawn(TableEvents { engine, principal, table_id }, feed, first, last))
}

fn response(event: game::TableEvent) -> game::WatchTableResponse {
    game::WatchTableResponse { event: Some(event), heartbeat: None }
}

/// One table's journal and channel, as one principal sees them.
struct TableEvents {
    engine: Arc<Engine>,
    principal: Principal,
    table_id: String,
}

impl TableEvents {
    fn seen(&self, sequence: u64, stored: &StoredEvent) -> Seen<game::WatchTableResponse> {
        let mut event = filter_event(stored, &self.principal);
        event.sequence = sequence;
        (sequence, Some(response(event)))
    }
}

#[async_trait]
impl WatchSource for TableEvents {
    type Item = game::WatchTableResponse;

    async fn record_after(&mut self, after: u64) -> Result<RecordPage<Self::Item>, ServiceError> {
        let page = store::events_after(&self.engine.db, &self.table_id, after, PAGE).await?;
        let events = page.iter().map(|(sequence, stored)| self.seen(*sequence, stored)).collect();
        Ok(RecordPage::limited(events, PAGE))
    }

    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<Self::Item>>> {
        let batch = EventBatch::decode(payload).ok()?;
        Some(
            batch
                .events
                .iter()
                .map(|stored| self.seen(stored.event.as_ref().map_or(0, |e| e.sequence), stored))
                .collect(),
        )
    }

    fn heartbeat(&self, last: u64) -> Self::Item {
        game::WatchTableResponse { event: None, heartbeat: Some(heartbeat(last)) }
    }
}
