//! Running the room: commands race on the room's version and commit at the journal's primary key;
//! the live room (rosters, queues, presence) is kept in the live store (Redis) and rebuilt from the
//! journal whenever it is missing or behind; watchers get every event, in order, exactly once,
//! across a lost live subscription too, and heartbeats while nothing happens ([`platform::watch`]).

use std::sync::{Arc, RwLock};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use prost::Message;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use api::membership::v1 as pb;
use platform::ServiceError;
use platform::live::{CasOutcome, SharedLiveStore};
use platform::watch::{LiveFeed, RecordPage, Seen, WatchSource, heartbeat};

use crate::commands::Plan;
use crate::journal::Entry;
use crate::state::{Changes, ClubState, timestamp};
use crate::store::{CommitError, Idempotent, Store};

/// The room as the live store keeps it: what reads and new watchers need, and the journal entry it
/// reflects (so a reader can tell it is behind).
#[derive(Clone, PartialEq, Message)]
pub struct LiveRoom {
    /// The journal entries it reflects.
    #[prost(uint64, tag = "1")]
    pub journal_sequence: u64,
    /// The last room event it reflects.
    #[prost(uint64, tag = "2")]
    pub room_sequence: u64,
    /// Everyone present, by arrival.
    #[prost(message, repeated, tag = "3")]
    pub present: Vec<pb::Presence>,
    /// Every open table, by opening.
    #[prost(message, repeated, tag = "4")]
    pub tables: Vec<pb::Table>,
    /// The commitment of the room's next table-opening draw seed (never the seed).
    #[prost(bytes = "vec", tag = "5")]
    pub next_opening_draw_seed_commitment: Vec<u8>,
}

impl LiveRoom {
    /// The live room of `state`.
    pub fn of(state: &ClubState) -> LiveRoom {
        LiveRoom {
            journal_sequence: state.seq,
            room_sequence: state.room_events,
            present: state.present(),
            tables: state.tables().cloned().collect(),
            next_opening_draw_seed_commitment: state.opening_commitment(),
        }
    }
}

/// What one journal entry publishes to watchers.
#[derive(Clone, PartialEq, Message)]
pub struct Published {
    /// The entry.
    #[prost(uint64, tag = "1")]
    pub journal_sequence: u64,
    /// Its room events.
    #[prost(message, repeated, tag = "2")]
    pub room_events: Vec<pb::RoomEvent>,
    /// Its table events.
    #[prost(message, repeated, tag = "3")]
    pub table_events: Vec<pb::TableEvent>,
}

/// A command's idempotency key.
#[derive(Debug, Clone)]
pub struct Key {
    /// The command.
    pub scope: &'static str,
    /// The client's key.
    pub key: String,
    /// [`platform::store::request_hash`] of the command and its request.
    pub request_hash: String,
}

impl Key {
    /// The key of `request`, if it carries one.
    pub fn of(scope: &'static str, key: &str, request: &impl Message) -> Option<Key> {
        (!key.is_empty()).then(|| Key {
            scope,
            key: key.to_owned(),
            request_hash: platform::store::request_hash(scope, &request.encode_to_vec()),
        })
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The room's engine (see the module docs).
pub struct Engine {
    /// The durable record.
    pub store: Store,
    live: SharedLiveStore,
    memo: RwLock<Arc<ClubState>>,
    key: String,
    channel: String,
    max_attempts: u32,
    heartbeat: Duration,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("key", &self.key).finish_non_exhaustive()
    }
}

impl Engine {
    /// The engine of `room`. Keys are hash-tagged by room, so the room's key and channel live on
    /// one Redis Cluster shard.
    pub fn new(store: Store, live: SharedLiveStore, room: &str, max_attempts: u32) -> Engine {
        Engine {
            store,
            live,
            memo: RwLock::new(Arc::new(ClubState::new())),
            key: format!("membership:{{{room}}}:room"),
            channel: format!("membership:{{{room}}}:events"),
            max_attempts: max_attempts.max(1),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
        }
    }

    /// The same engine, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Engine {
        self.heartbeat = heartbeat;
        self
    }

    fn memo(&self) -> Arc<ClubState> {
        self.memo.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn remember(&self, state: Arc<ClubState>) {
        let mut memo = self.memo.write().unwrap_or_else(|e| e.into_inner());
        if state.seq > memo.seq {
            *memo = state;
        }
    }

    /// The room as of the journal's last entry: this process's copy, brought up to date with the
    /// entries other writers committed since (the whole journal, in a fresh process).
    #[tracing::instrument(skip_all)]
    pub async fn current(&self) -> Result<Arc<ClubState>, ServiceError> {
        let memo = self.memo();
        let tail = self.store.entries_after(memo.seq).await?;
        if tail.is_empty() {
            return Ok(memo);
        }
        let mut state = (*memo).clone();
        let replayed = tail.len();
        for (seq, entry) in tail {
            if seq != state.seq + 1 {
                return Err(ServiceError::internal(format!("journal gap: entry {seq} after {}", state.seq)));
            }
            state = state.apply(seq, &entry)?.0;
        }
        tracing::debug!(replayed, sequence = state.seq, "room brought up to date from the journal");
        let state = Arc::new(state);
        self.remember(state.clone());
        Ok(state)
    }

    /// Runs a command: decides on the current room, commits at the next room version, and tries
    /// again (a bounded number of times, with a short random pause) when another writer committed
    /// that version first. `respond` builds the answer from the room after the command (or as it
    /// is, when the decision changes nothing); with an idempotency key the answer is stored with
    /// the change and a repeat returns it.
    #[tracing::instrument(skip_all, fields(actor = %actor))]
    pub async fn execute<R: Message + Default>(
        &self,
        actor: &str,
        key: Option<Key>,
        decide: impl Fn(&ClubState, i64) -> Result<Option<Plan>, ServiceError>,
        respond: impl Fn(&ClubState, &Changes) -> Result<R, ServiceError>,
    ) -> Result<R, ServiceError> {
        if let Some(key) = &key
            && let Some(first) = self.first_answer(key).await?
        {
            return Ok(first);
        }
        for attempt in 0..self.max_attempts {
            let state = self.current().await?;
            let at = now_ms().max(state.clock);
            let plan = match decide(&state, at) {
                Ok(plan) => plan,
                Err(e) => return Err(self.named(e).await),
            };
            let Some(plan) = plan else {
                return respond(&state, &Changes::default());
            };
            let entry = Entry {
                at,
                actor: actor.to_owned(),
                command: plan.command,
                events: plan.events,
                opening_seeds: plan.opening_seeds,
            };
            let seq = state.seq + 1;
            let (next, changes) = match state.apply(seq, &entry) {
                Ok(applied) => applied,
                Err(e) => return Err(self.named(e).await),
            };
            let response = respond(&next, &changes)?;
            let idempotent = key.as_ref().map(|k| Idempotent {
                scope: k.scope,
                key: k.key.clone(),
                request_hash: k.request_hash.clone(),
                response: response.encode_to_vec(),
            });
            match self.store.commit(seq, &entry, &changes, idempotent.as_ref()).await {
                Ok(()) => {
                    let next = Arc::new(next);
                    self.remember(next.clone());
                    self.publish(&next, &changes).await;
                    return Ok(response);
                }
                Err(CommitError::Lost) => {
                    if let Some(key) = &key
                        && let Some(first) = self.first_answer(key).await?
                    {
                        return Ok(first);
                    }
                    tracing::debug!(attempt, sequence = seq, "room version taken by another writer; trying again");
                    let pause = rand::random::<u64>() % (2 + u64::from(attempt.min(20)) * 2);
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                }
                Err(CommitError::Failed(e)) => return Err(e),
            }
        }
        Err(ServiceError::Conflict(format!(
            "the room changed {} times while this command was being decided; send it again",
            self.max_attempts
        )))
    }

    /// A refusal that names a player the room has never seen (`player #7`, say one who is on the
    /// register but not in the room) names him by his id, from the register.
    async fn named(&self, error: ServiceError) -> ServiceError {
        let ServiceError::Rule { message, law } = error else { return error };
        let mut named = String::with_capacity(message.len());
        let mut rest = message.as_str();
        while let Some(i) = rest.find("player #") {
            let after = &rest[i + "player #".len()..];
            let digits = after.chars().take_while(char::is_ascii_digit).count();
            named.push_str(&rest[..i]);
            let player = match after[..digits].parse::<u64>() {
                Ok(number) => self.store.player_by_number(number).await.ok().flatten(),
                Err(_) => None,
            };
            match player {
                Some(player) => named.push_str(&format!("player {}", player.player_id)),
                None => named.push_str(&rest[i..i + "player #".len() + digits]),
            }
            rest = &after[digits..];
        }
        named.push_str(rest);
        ServiceError::Rule { message: named, law }
    }

    async fn first_answer<R: Message + Default>(&self, key: &Key) -> Result<Option<R>, ServiceError> {
        let Some((hash, response)) = self.store.idempotent(key.scope, &key.key).await? else { return Ok(None) };
        if hash != key.request_hash {
            return Err(ServiceError::invalid(
                "idempotency_key",
                format!("{} was used for a different request", key.key),
            ));
        }
        R::decode(response.as_slice()).map(Some).map_err(|e| ServiceError::internal(format!("stored answer: {e}")))
    }

    /// Updates the live room and tells watchers. The change is committed already: a live store
    /// that is down only delays watchers and readers, who catch up from the journal.
    async fn publish(&self, state: &ClubState, changes: &Changes) {
        let payload = Published {
            journal_sequence: state.seq,
            room_events: changes.room_events.clone(),
            table_events: changes.table_events.clone(),
        };
        if let Err(e) = self.sync_live(state, Some(Bytes::from(payload.encode_to_vec()))).await {
            tracing::warn!(error = %e, sequence = state.seq, "live room not updated; readers will rebuild it");
        }
    }

    /// Makes the live room at least as new as `state` (never older: a writer that lost the race to
    /// an older one leaves the newer value), publishing `payload` with the write.
    async fn sync_live(&self, state: &ClubState, payload: Option<Bytes>) -> Result<(), ServiceError> {
        let value = Bytes::from(LiveRoom::of(state).encode_to_vec());
        for _ in 0..8 {
            let current = self.live.get(&self.key).await?;
            let (version, behind) = match &current {
                None => (0, true),
                Some(v) => {
                    (v.version, LiveRoom::decode(v.value.as_ref()).map_or(true, |r| r.journal_sequence < state.seq))
                }
            };
            if !behind {
                if let Some(payload) = payload {
                    self.live.publish(&self.channel, payload).await?;
                }
                return Ok(());
            }
            let event = payload.clone().map(|p| (self.channel.as_str(), p));
            match self.live.compare_and_set(&self.key, version, value.clone(), event).await? {
                CasOutcome::Applied(_) => return Ok(()),
                CasOutcome::Conflict { .. } => continue,
            }
        }
        if let Some(payload) = payload {
            self.live.publish(&self.channel, payload).await?;
        }
        Ok(())
    }

    /// The live room: from the live store when it holds the journal's last entry, otherwise
    /// rebuilt from the journal (and written back).
    #[tracing::instrument(skip_all)]
    pub async fn live_room(&self) -> Result<LiveRoom, ServiceError> {
        let head = self.store.head().await?;
        match self.live.get(&self.key).await {
            Ok(Some(value)) => match LiveRoom::decode(value.value.as_ref()) {
                Ok(room) if room.journal_sequence >= head => return Ok(room),
                Ok(room) => {
                    tracing::info!(live = room.journal_sequence, head, "live room behind the journal; rebuilding")
                }
                Err(e) => tracing::warn!(error = %e, "live room unreadable; rebuilding"),
            },
            Ok(None) => tracing::info!(head, "live room missing; rebuilding from the journal"),
            Err(e) => tracing::warn!(error = %e, "live store unavailable; answering from the journal"),
        }
        let state = self.current().await?;
        if let Err(e) = self.sync_live(&state, None).await {
            tracing::warn!(error = %e, "live room not written back");
        }
        Ok(LiveRoom::of(&state))
    }

    /// The room's events after `after` (or a snapshot first, without it), then every new one as
    /// it happens, on the platform's one watch loop ([`platform::watch::stream`]).
    pub async fn watch_room(
        self: &Arc<Self>,
        after: Option<u64>,
    ) -> Result<ReceiverStream<Result<pb::WatchRoomResponse, tonic::Status>>, ServiceError> {
        let feed = LiveFeed::subscribe(self.live.clone(), &self.channel, self.heartbeat).await?;
        let state = self.current().await?;
        let (first, last) = match after {
            None => {
                let snapshot = pb::RoomEvent {
                    sequence: state.room_events,
                    occurred_at: Some(timestamp(state.clock)),
                    event: Some(pb::room_event::Event::Snapshot(pb::RoomSnapshot {
                        present: state.present(),
                        tables: state.tables().cloned().collect(),
                        next_opening_draw_seed_commitment: state.opening_commitment(),
                    })),
                };
                (vec![RoomEvents::wrap(snapshot)], state.room_events)
            }
            Some(after) if after > state.room_events => {
                return Err(ServiceError::invalid(
                    "after_sequence",
                    format!("{after} is past the room's last event, {}", state.room_events),
                ));
            }
            Some(after) => (Vec::new(), after),
        };
        Ok(platform::watch::stream::spawn(RoomEvents { engine: self.clone() }, feed, first, last))
    }

    /// A table's events after `after` (or its snapshot first), then every new one, as
    /// [`Engine::watch_room`] does; the stream ends after the table closes.
    pub async fn watch_table(
        self: &Arc<Self>,
        table_id: &str,
        after: Option<u64>,
    ) -> Result<ReceiverStream<Result<pb::WatchTableResponse, tonic::Status>>, ServiceError> {
        let feed = LiveFeed::subscribe(self.live.clone(), &self.channel, self.heartbeat).await?;
        let state = self.current().await?;
        let table = match state.open_table(table_id).and_then(|n| state.table(n)) {
            Some(table) => table.clone(),
            None => {
                self.store.table(table_id).await?.ok_or_else(|| ServiceError::not_found(format!("table {table_id}")))?
            }
        };
        let mut source = TableEvents { engine: self.clone(), table_id: table_id.to_owned() };
        let (first, last) = match after {
            None => {
                let snapshot = pb::TableEvent {
                    sequence: table.version,
                    occurred_at: Some(timestamp(state.clock)),
                    table_id: table_id.to_owned(),
                    event: Some(pb::table_event::Event::Snapshot(table.clone())),
                };
                (vec![TableEvents::wrap(snapshot)], table.version)
            }
            Some(after) if after > table.version => {
                return Err(ServiceError::invalid(
                    "after_sequence",
                    format!("{after} is past the table's last event, {}", table.version),
                ));
            }
            Some(after) => (Vec::new(), after),
        };
        if table.status == pb::TableStatus::Closed as i32 {
            // A closed table changes no more: what the record holds is all there is.
            let mut sent = first;
            if let Some(mut after) = after {
                loop {
                    let page = source.record_after(after).await?;
                    after = page.events.last().map_or(after, |(sequence, _)| *sequence);
                    let more = page.more && !page.events.is_empty();
                    sent.extend(page.events.into_iter().filter_map(|(_, event)| event));
                    if !more {
                        break;
                    }
                }
            }
            let (tx, rx) = mpsc::channel(sent.len().max(1));
            for event in sent {
                let _ = tx.try_send(Ok(event));
            }
            return Ok(ReceiverStream::new(rx));
        }
        Ok(platform::watch::stream::spawn(source, feed, first, last))
    }
}

/// Room events read from the record at a time.
const PAGE: u64 = 500;

/// The room's events: its journal's room events, and those in each published entry.
struct RoomEvents {
    engine: Arc<Engine>,
}

impl RoomEvents {
    fn wrap(event: pb::RoomEvent) -> pb::WatchRoomResponse {
        pb::WatchRoomResponse { event: Some(event), heartbeat: None }
    }
}

#[async_trait]
impl WatchSource for RoomEvents {
    type Item = pb::WatchRoomResponse;

    async fn record_after(&mut self, after: u64) -> Result<RecordPage<Self::Item>, ServiceError> {
        let events = self.engine.store.room_events_after(after, PAGE).await?;
        Ok(RecordPage::limited(events.into_iter().map(|e| (e.sequence, Some(Self::wrap(e)))).collect(), PAGE))
    }

    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<Self::Item>>> {
        let published = Published::decode(payload).ok()?;
        Some(published.room_events.into_iter().map(|e| (e.sequence, Some(Self::wrap(e)))).collect())
    }

    fn heartbeat(&self, last: u64) -> Self::Item {
        pb::WatchRoomResponse { event: None, heartbeat: Some(heartbeat(last)) }
    }
}

/// One table's events: numbered per table, picked out of the room's published entries.
struct TableEvents {
    engine: Arc<Engine>,
    table_id: String,
}

impl TableEvents {
    fn wrap(event: pb::TableEvent) -> pb::WatchTableResponse {
        pb::WatchTableResponse { event: Some(event), heartbeat: None }
    }
}

#[async_trait]
impl WatchSource for TableEvents {
    type Item = pb::WatchTableResponse;

    async fn record_after(&mut self, after: u64) -> Result<RecordPage<Self::Item>, ServiceError> {
        let events = self.engine.store.table_events_after(&self.table_id, after, PAGE).await?;
        Ok(RecordPage::limited(events.into_iter().map(|e| (e.sequence, Some(Self::wrap(e)))).collect(), PAGE))
    }

    fn published(&mut self, payload: &[u8]) -> Option<Vec<Seen<Self::Item>>> {
        let published = Published::decode(payload).ok()?;
        let mine = published.table_events.into_iter().filter(|e| e.table_id == self.table_id);
        Some(mine.map(|e| (e.sequence, Some(Self::wrap(e)))).collect())
    }

    fn heartbeat(&self, last: u64) -> Self::Item {
        pb::WatchTableResponse { event: None, heartbeat: Some(heartbeat(last)) }
    }

    fn ends(&self, item: &Self::Item) -> bool {
        matches!(item.event.as_ref().and_then(|e| e.event.as_ref()), Some(pb::table_event::Event::TableClosed(_)))
    }
}
