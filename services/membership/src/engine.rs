//! Running the room on the platform's command runtime ([`platform::runtime`]): the room is one
//! aggregate ([`RoomJournal`]); commands race on its version and commit at the journal's primary
//! key, many to a transaction; the live room (rosters, queues, presence) is kept in the live store
//! (Redis) and rebuilt from the journal whenever it is missing or behind; watchers get every
//! event, in order, exactly once, across a lost live subscription too, and heartbeats while
//! nothing happens ([`platform::watch`]).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use prost::Message;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use api::membership::v1 as pb;
use platform::ServiceError;
use platform::db::Db;
use platform::live::SharedLiveStore;
use platform::runtime::{Aggregate, Change, Decision, Expected, Idempotency, LiveWrite, Runtime, WriteError};
use platform::watch::{LiveFeed, RecordPage, Seen, WatchSource, heartbeat};

use crate::commands::Plan;
use crate::journal::Entry;
use crate::state::{Changes, ClubState, snapshot, timestamp};
use sea_orm::DatabaseTransaction;

use crate::store::Store;

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

/// The idempotency of `request` to the command `scope` under the client's `key`, if it carries
/// one (the answer is kept in the command's scope; the hash binds it to the request).
pub fn idempotency(scope: &'static str, key: &str, request: &impl Message) -> Option<Idempotency> {
    (!key.is_empty()).then(|| Idempotency::new(scope, key, scope, &request.encode_to_vec()))
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The room as the command runtime runs it ([`platform::runtime::Aggregate`]): its state is the
/// fold of its journal ([`ClubState`]); its live copy is the read model [`LiveRoom`], which does
/// not hold the whole state, so a process brings its own copy up to date from the journal's tail.
#[derive(Debug)]
pub struct RoomJournal {
    store: Store,
    key: String,
    channel: String,
    /// A snapshot of the room is written with every entry whose number is a multiple of this.
    snapshot_every: u64,
}

/// How often the room is snapshotted, in journal entries, unless configured.
pub const SNAPSHOT_EVERY: u64 = 500;

/// One accepted entry: its number, the entry, and what it changed.
#[derive(Debug)]
pub struct Entered {
    sequence: u64,
    entry: Entry,
    changes: Changes,
    /// The room after the entry, when it is snapshotted.
    snapshot: Option<Vec<u8>>,
}

impl Aggregate for RoomJournal {
    type State = Arc<ClubState>;
    type Write = Entered;
    const NAME: &'static str = "room";
    const LIVE_HOLDS_STATE: bool = false;

    fn version(state: &Arc<ClubState>) -> u64 {
        state.seq
    }

    fn live_key(&self, _room: &str) -> String {
        self.key.clone()
    }

    fn channel(&self, _room: &str) -> String {
        self.channel.clone()
    }

    fn to_live(&self, state: &Arc<ClubState>) -> Bytes {
        Bytes::from(LiveRoom::of(state).encode_to_vec())
    }

    fn state_of_live(&self, _room: &str, _version: u64, _live: &[u8]) -> Result<Option<Arc<ClubState>>, ServiceError> {
        Ok(None)
    }

    /// The room as of the journal's last entry: `known`, brought up to date with the entries
    /// committed since (the whole journal, without it).
    async fn read_journal(
        &self,
        _db: &Db,
        _room: &str,
        known: Option<Arc<ClubState>>,
    ) -> Result<Arc<ClubState>, ServiceError> {
        let known = match known {
            Some(known) => known,
            None => Arc::new(self.latest_snapshot().await?),
        };
        let tail = self.store.entries_after(known.seq).await?;
        if tail.is_empty() {
            return Ok(known);
        }
        let mut state = (*known).clone();
        let replayed = tail.len();
        for (seq, entry) in tail {
            if seq != state.seq + 1 {
                return Err(ServiceError::internal(format!("journal gap: entry {seq} after {}", state.seq)));
            }
            state = state.apply(seq, &entry)?.0;
        }
        tracing::debug!(replayed, sequence = state.seq, "room brought up to date from the journal");
        Ok(Arc::new(state))
    }

    async fn journal_version(&self, _db: &Db, _room: &str) -> Result<u64, ServiceError> {
        self.store.head().await
    }

    async fn write(&self, txn: &DatabaseTransaction, writes: Vec<&Entered>) -> Result<(), WriteError> {
        for entered in writes {
            self.store.write(txn, entered.sequence, &entered.entry, &entered.changes).await?;
            if let Some(state) = &entered.snapshot {
                let keep_after = entered.sequence.saturating_sub(self.snapshot_every);
                self.store.write_snapshot(txn, (entered.sequence, keep_after), snapshot::FORMAT, state).await?;
            }
        }
        Ok(())
    }
}

impl RoomJournal {
    /// The room as the latest snapshot this build can read has it (an empty room without one).
    async fn latest_snapshot(&self) -> Result<ClubState, ServiceError> {
        let Some((sequence, bytes)) = self.store.latest_snapshot(snapshot::FORMAT).await? else {
            return Ok(ClubState::new());
        };
        match ClubState::from_snapshot(&bytes) {
            Ok(state) if state.seq == sequence => {
                tracing::info!(sequence, "room starts from its snapshot");
                Ok(state)
            }
            Ok(state) => {
                tracing::warn!(sequence, holds = state.seq, "room snapshot holds another entry; replaying the journal");
                Ok(ClubState::new())
            }
            Err(error) => {
                tracing::warn!(sequence, %error, "room snapshot unreadable; replaying the journal");
                Ok(ClubState::new())
            }
        }
    }
}

/// The room's engine (see the module docs).
pub struct Engine {
    /// The durable record.
    pub store: Store,
    runtime: Runtime<RoomJournal>,
    room: String,
    max_attempts: u32,
    heartbeat: Duration,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("room", &self.room).finish_non_exhaustive()
    }
}

impl Engine {
    /// The engine of `room`; its group commit's writers start on the current tokio runtime. Keys
    /// are hash-tagged by room, so the room's key and channel live on one Redis Cluster shard.
    pub fn new(store: Store, live: SharedLiveStore, settings: &crate::Settings) -> Engine {
        let room = settings.room.as_str();
        let journal = RoomJournal {
            store: store.clone(),
            key: format!("membership:{{{room}}}:room"),
            channel: format!("membership:{{{room}}}:events"),
            snapshot_every: settings.snapshot_every.max(1),
        };
        Engine {
            runtime: Runtime::new(store.db().clone(), live, journal),
            store,
            room: room.to_owned(),
            max_attempts: settings.max_attempts.max(1),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
        }
    }

    /// The room's live channel, subscribed to before a watcher reads the record.
    async fn subscribe(&self) -> Result<LiveFeed, ServiceError> {
        let channel = &self.runtime.aggregate().channel;
        Ok(LiveFeed::subscribe(self.runtime.live.clone(), channel, self.heartbeat).await?)
    }

    /// The same engine, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Engine {
        self.heartbeat = heartbeat;
        self
    }

    /// The room as of the journal's last entry: this process's copy, brought up to date with the
    /// entries other writers committed since (the whole journal, in a fresh process).
    #[tracing::instrument(skip_all)]
    pub async fn current(&self) -> Result<Arc<ClubState>, ServiceError> {
        self.runtime.current(&self.room).await
    }

    /// Runs a command on the command runtime ([`platform::runtime`]): decides on the room as this
    /// process knows it, commits at the next room version, and decides again (a bounded number of
    /// times, after a short random pause) when another writer committed that version first.
    /// `respond` builds the answer from the room after the command (or as it is, when the
    /// decision changes nothing); with an idempotency key the answer is stored with the change
    /// and a repeat returns it.
    #[tracing::instrument(skip_all, fields(actor = %actor))]
    pub async fn execute<R: Message + Default>(
        &self,
        actor: &str,
        idempotency: Option<Idempotency>,
        decide: impl Fn(&ClubState, i64) -> Result<Option<Plan>, ServiceError>,
        respond: impl Fn(&ClubState, &Changes) -> Result<R, ServiceError>,
    ) -> Result<R, ServiceError> {
        let attempts = Expected::Latest { attempts: self.max_attempts };
        let decided = self
            .runtime
            .execute(&self.room, attempts, idempotency.as_ref(), |state: Arc<ClubState>| {
                std::future::ready(Self::decided(
                    &state,
                    actor,
                    &decide,
                    &respond,
                    self.runtime.aggregate().snapshot_every,
                ))
            })
            .await;
        match decided {
            Ok(answer) => Ok(answer),
            Err(error) => Err(self.named(error).await),
        }
    }

    /// One command decided on `state`: nothing to change, or the journal entry, the room after it
    /// and what watchers are told.
    fn decided<R>(
        state: &ClubState,
        actor: &str,
        decide: &impl Fn(&ClubState, i64) -> Result<Option<Plan>, ServiceError>,
        respond: &impl Fn(&ClubState, &Changes) -> Result<R, ServiceError>,
        snapshot_every: u64,
    ) -> Result<Decision<RoomJournal, R>, ServiceError> {
        let at = now_ms().max(state.clock);
        let Some(plan) = decide(state, at)? else {
            return Ok(Decision::Unchanged(respond(state, &Changes::default())?));
        };
        let entry = Entry {
            at,
            actor: actor.to_owned(),
            command: plan.command,
            events: plan.events,
            opening_seeds: plan.opening_seeds,
        };
        let sequence = state.seq + 1;
        let (next, changes) = state.apply(sequence, &entry)?;
        let response = respond(&next, &changes)?;
        let published = Published {
            journal_sequence: sequence,
            room_events: changes.room_events.clone(),
            table_events: changes.table_events.clone(),
        };
        let snapshot = if sequence.is_multiple_of(snapshot_every.max(1)) { Some(next.snapshot()?) } else { None };
        Ok(Decision::Changed(Change {
            next: Arc::new(next),
            write: Entered { sequence, entry, changes, snapshot },
            response,
            live: LiveWrite::Replace,
            published: Some(Bytes::from(published.encode_to_vec())),
        }))
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

    /// The live room: from the live store when it holds the journal's last entry, otherwise
    /// rebuilt from the journal (and written back).
    #[tracing::instrument(skip_all)]
    pub async fn live_room(&self) -> Result<LiveRoom, ServiceError> {
        let head = self.store.head().await?;
        match self.runtime.live.get(&self.runtime.aggregate().key).await {
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
        let state = self.runtime.rebuild(&self.room).await?;
        Ok(LiveRoom::of(&state))
    }

    /// The room's events after `after` (or a snapshot first, without it), then every new one as
    /// it happens, on the platform's one watch loop ([`platform::watch::stream`]).
    pub async fn watch_room(
        self: &Arc<Self>,
        after: Option<u64>,
    ) -> Result<ReceiverStream<Result<pb::WatchRoomResponse, tonic::Status>>, ServiceError> {
        let feed = self.subscribe().await?;
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
        let feed = self.subscribe().await?;
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
