//! The command pipeline and the live state (docs/architecture.md, "Live state and durability"):
//!
//! 1. A command carries the table's expected version and an idempotency key. A key seen before
//!    returns the first answer; a stale version is ABORTED with the current one.
//! 2. The rules check happens in the laws ([`DealInProgress::apply`]) on the current state.
//! 3. The accepted events are appended to the Postgres journal keyed (table, sequence) in one
//!    transaction with everything else the command writes; the primary key is the commit point.
//!    Commands at many tables share that transaction (group commit, [`platform::commit`]), and
//!    each is answered only once it has committed.
//! 4. Redis is then updated by the live store's compare-and-set script, which publishes the events
//!    on the table's channel.
//! 5. If Redis is flushed, restarted or behind, the state is rebuilt from the journal.
//!
//! Redis holds a table's current deal as the commands that replay to it ([`LiveTable`]), each
//! command appended as it is accepted; each process keeps the replayed state of the versions it
//! has seen, so a command replays nothing unless another process moved the table on.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use prost::Message;

use api::convert::ProtoEnum;
use api::game::v1 as game;
use api::scoring::v1 as scoring;
use laws::table::{DealInProgress, Event};
use platform::ServiceError;
use platform::auth::Principal;
use platform::commit::{CommitFailed, GroupCommit, GroupCommitSettings};
use platform::db::Db;
use platform::live::{CasOutcome, SharedLiveStore, Versioned};
use sea_orm::ActiveValue::Set;

use crate::entity::deals;
use crate::render::{self, DealContext};
use crate::store::{self, Commit, CommitError};
use crate::stored::{EventBatch, LiveTable, StoredAction, StoredStart, stored_action::Command};
use crate::translate;

/// The live store key of a table's state (the braces are a Redis Cluster hash tag).
pub fn table_key(table_id: &str) -> String {
    format!("game:table:{{{table_id}}}")
}

/// The live channel of a table's events.
pub fn channel(table_id: &str) -> String {
    format!("game:events:{{{table_id}}}")
}

/// A deal replayed.
#[derive(Debug, Clone)]
pub struct LoadedDeal {
    /// The deal.
    pub deal_id: String,
    /// Its setup as resolved at the start.
    pub setup: game::DealSetup,
    /// Its players by seat.
    pub players: [String; 4],
    /// Its commands, from the start.
    pub actions: Vec<StoredAction>,
    /// The state they replay to.
    pub state: DealInProgress,
}

/// A table as loaded: its version, last event, and current (or last) deal.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The table.
    pub table_id: String,
    /// Its version.
    pub version: u64,
    /// Its last event sequence number.
    pub last_sequence: u64,
    /// Its deal, if it ever had one.
    pub deal: Option<Arc<LoadedDeal>>,
}

impl Loaded {
    /// What rendering the deal needs.
    pub fn context(&self) -> Option<DealContext<'_>> {
        self.deal.as_ref().map(|deal| DealContext {
            table_id: &self.table_id,
            version: self.version,
            deal_id: &deal.deal_id,
            setup: &deal.setup,
            state: &deal.state,
            actions: &deal.actions,
        })
    }

    /// The table as `principal` may see it; a table that never had a deal shows no deal.
    pub fn view(&self, principal: &Principal) -> game::TableView {
        match (self.context(), &self.deal) {
            (Some(context), Some(deal)) => context.table_view(render::viewer(principal, &deal.players)),
            _ => game::TableView {
                table_id: self.table_id.clone(),
                version: self.version,
                phase: game::DealPhase::NoDeal as i32,
                ..Default::default()
            },
        }
    }

    fn live(&self) -> LiveTable {
        LiveTable {
            version: self.version,
            last_sequence: self.last_sequence,
            deal_id: self.deal.as_ref().map(|d| d.deal_id.clone()).unwrap_or_default(),
            actions: self.deal.as_ref().map(|d| d.actions.clone()).unwrap_or_default(),
        }
    }
}

/// Replays a deal's commands as history: each as the Laws accepted it when it was made
/// ([`DealInProgress::replay`] with the rules version stored with it), so that a later change to a
/// rule leaves old deals readable. A command that cannot be applied, or that the version which
/// stored it refuses, means the journal is corrupt: an internal error naming it, never a guess.
pub fn replay(deal_id: &str, actions: Vec<StoredAction>) -> Result<LoadedDeal, ServiceError> {
    let corrupt = |what: String| ServiceError::internal(format!("deal {deal_id}: {what}"));
    let Some(Command::Start(start)) = actions.first().and_then(|a| a.command.as_ref()) else {
        return Err(corrupt("the journal does not begin with the deal's start".to_owned()));
    };
    let setup = start.setup.clone().ok_or_else(|| corrupt("a start without its setup".to_owned()))?;
    let (mut state, _) = DealInProgress::start(translate::setup(start)?)
        .map_err(|e| corrupt(format!("its start no longer applies: {e}")))?;
    for (step, action) in actions.iter().enumerate().skip(1) {
        let applied = translate::action(action).map_err(|e| corrupt(format!("command {step}: {e}")))?;
        state = state.replay(&applied, action.rules_version).map_err(|e| corrupt(format!("command {step}: {e}")))?.0;
    }
    Ok(LoadedDeal { deal_id: deal_id.to_owned(), players: translate::players(&setup), setup, actions, state })
}

/// What a command handler asks of the pipeline.
pub struct CommandRequest<'a> {
    /// The RPC, for the idempotency hash.
    pub method: &'static str,
    /// The table.
    pub table_id: &'a str,
    /// The version the client saw.
    pub expected_version: u64,
    /// The client's idempotency key.
    pub idempotency_key: &'a str,
    /// The encoded request, for the idempotency hash.
    pub request: Vec<u8>,
    /// Who sends it.
    pub principal: &'a Principal,
}

impl CommandRequest<'_> {
    /// Where its answer is kept (the table and the caller) and the hash that tells a repeat
    /// from another request under the same key.
    fn idempotency(&self) -> (String, String) {
        let scope = format!("game/{}/{}", self.table_id, self.principal.subject);
        (scope, platform::store::request_hash(self.method, &self.request))
    }
}

/// A command's effect, for the handler that renders its answer.
pub struct Applied<'a> {
    /// The table after the command.
    pub table: &'a Loaded,
    /// The laws' events of the command.
    pub events: &'a [Event],
}

/// The tables with a deal in progress as this process last saw them: noted whenever it loads a
/// table or commits a command, reported as the `game.live_tables` gauge (docs/architecture.md,
/// "Observability": live tables). It costs a set lookup per table read. A process counts only
/// the tables it has served: with several replicas, a deal finished by another one stays counted
/// here until this one reads the table again, and a table served by two is counted by both.
#[derive(Debug, Default)]
pub struct LiveTables(Mutex<HashSet<String>>);

impl LiveTables {
    /// Notes that `table_id`'s deal is (or is not) in progress.
    pub fn note(&self, table_id: &str, in_progress: bool) {
        let mut tables = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !in_progress {
            tables.remove(table_id);
        } else if !tables.contains(table_id) {
            tables.insert(table_id.to_owned());
        }
    }

    /// How many tables have a deal in progress.
    pub fn count(&self) -> u64 {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len() as u64
    }

    fn seen(&self, table: &Loaded) {
        self.note(&table.table_id, table.deal.as_ref().is_some_and(|deal| !deal.state.is_over()));
    }
}

/// The game service's state: the database, the live store, and the replayed deals this process
/// has seen.
pub struct Engine {
    /// The durable record.
    pub db: Db,
    /// Redis, or the in-process store.
    pub live: SharedLiveStore,
    cache: Mutex<HashMap<String, Arc<LoadedDeal>>>,
    /// Each table as this process last loaded or committed it: a command whose expected version
    /// is the one known here is judged on it without asking Redis (see [`Engine::execute`]).
    known: Mutex<HashMap<String, Loaded>>,
    /// Where accepted commands are written, many to a transaction.
    commits: GroupCommit<store::JournalWriter>,
    /// Woken when a deal finishes, so the outbox worker delivers at once.
    pub outbox: Arc<tokio::sync::Notify>,
    /// The tables with a deal in progress, as this process last saw them.
    pub live_tables: LiveTables,
    /// How long a watch stream stays quiet before it sends a heartbeat.
    pub heartbeat: std::time::Duration,
}

const CACHE_LIMIT: usize = 4096;

impl Engine {
    /// An engine over these stores; its group commit's writers start on the current runtime.
    pub fn new(db: Db, live: SharedLiveStore) -> Engine {
        Engine {
            commits: GroupCommit::spawn(db.clone(), store::JournalWriter, GroupCommitSettings::default()),
            db,
            live,
            cache: Mutex::new(HashMap::new()),
            known: Mutex::new(HashMap::new()),
            outbox: Arc::new(tokio::sync::Notify::new()),
            live_tables: LiveTables::default(),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
        }
    }

    /// The same engine, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: std::time::Duration) -> Engine {
        self.heartbeat = heartbeat;
        self
    }

    fn cached(&self, deal_id: &str, steps: usize) -> Option<Arc<LoadedDeal>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(deal_id).filter(|d| d.actions.len() == steps).cloned()
    }

    /// Notes `table` as this process last saw it.
    fn know(&self, table: &Loaded) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= CACHE_LIMIT && !known.contains_key(&table.table_id) {
            known.clear();
        }
        known.insert(table.table_id.clone(), table.clone());
    }

    /// The table as this process last saw it, if that was at `version`.
    fn known_at(&self, table_id: &str, version: u64) -> Option<Loaded> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.get(table_id).filter(|table| table.version == version).cloned()
    }

    fn forget(&self, table_id: &str) {
        self.known.lock().unwrap_or_else(|e| e.into_inner()).remove(table_id);
    }

    fn remember(&self, deal: &Arc<LoadedDeal>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(deal.deal_id.clone(), deal.clone());
    }

    /// A deal from its commands, replayed unless this process already has that state.
    fn deal_from(&self, deal_id: &str, actions: Vec<StoredAction>) -> Result<Arc<LoadedDeal>, ServiceError> {
        if let Some(deal) = self.cached(deal_id, actions.len())
            && deal.actions == actions
        {
            return Ok(deal);
        }
        let deal = Arc::new(replay(deal_id, actions)?);
        self.remember(&deal);
        Ok(deal)
    }

    fn loaded_from_live(&self, table_id: &str, live: LiveTable) -> Result<Loaded, ServiceError> {
        let deal = if live.deal_id.is_empty() { None } else { Some(self.deal_from(&live.deal_id, live.actions)?) };
        let loaded =
            Loaded { table_id: table_id.to_owned(), version: live.version, last_sequence: live.last_sequence, deal };
        self.live_tables.seen(&loaded);
        self.know(&loaded);
        Ok(loaded)
    }

    /// The table as Redis has it, rebuilt from the journal if Redis has nothing (flushed,
    /// restarted) or cannot be reached.
    #[tracing::instrument(skip(self))]
    pub async fn load(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        match self.live.get(&table_key(table_id)).await {
            Ok(Some(stored)) => {
                let live = LiveTable::decode(stored.value.as_ref())
                    .map_err(|e| ServiceError::internal(format!("live state of table {table_id}: {e}")))?;
                if live.version != stored.version {
                    return self.rebuild(table_id).await;
                }
                self.loaded_from_live(table_id, live)
            }
            Ok(None) => self.rebuild(table_id).await,
            Err(error) => {
                tracing::warn!(table = table_id, %error, "live store unavailable; reading the journal");
                self.read_journal(table_id).await
            }
        }
    }

    /// The table as Redis has it, unless the journal has moved on (Redis behind: a process
    /// stopped between its commit and its Redis update), in which case it is rebuilt. One
    /// primary-key lookup in the journal; the state itself still comes from Redis.
    pub async fn load_fresh(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        let loaded = self.load(table_id).await?;
        let journal = store::tail(&self.db, table_id).await?.map_or(0, |tail| tail.version);
        if journal != loaded.version { self.rebuild(table_id).await } else { Ok(loaded) }
    }

    /// The table as the journal has it.
    pub async fn read_journal(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        let Some(tail) = store::tail(&self.db, table_id).await? else {
            return Ok(Loaded { table_id: table_id.to_owned(), version: 0, last_sequence: 0, deal: None });
        };
        let actions = store::deal_actions(&self.db, table_id, &tail.deal_id).await?;
        let loaded = Loaded {
            table_id: table_id.to_owned(),
            version: tail.version,
            last_sequence: tail.sequence,
            deal: Some(self.deal_from(&tail.deal_id, actions)?),
        };
        self.live_tables.seen(&loaded);
        self.know(&loaded);
        Ok(loaded)
    }

    /// Rebuilds the table's live state from the journal and writes it to Redis.
    #[tracing::instrument(skip(self))]
    pub async fn rebuild(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        let loaded = self.read_journal(table_id).await?;
        if loaded.version > 0 {
            let value = Versioned { version: loaded.version, value: Bytes::from(loaded.live().encode_to_vec()) };
            if let Err(error) = self.live.put(&table_key(table_id), value).await {
                tracing::warn!(table = table_id, %error, "live state not rebuilt; the journal stays the record");
            } else {
                tracing::info!(table = table_id, version = loaded.version, "live state rebuilt from the journal");
            }
        }
        Ok(loaded)
    }

    /// The answer already given to this command, if it was made before with the same
    /// idempotency key: a command whose preparation asks other services (StartDeal asks the
    /// rubber's owners) looks here first, so that a retry gets its first answer even once those
    /// owners would say otherwise, or cannot be reached. [`Engine::execute`] looks only after a
    /// command fails, since a command that goes through meets a used key at its commit.
    pub async fn answered<R: Message + Default>(
        &self,
        request: &CommandRequest<'_>,
    ) -> Result<Option<R>, ServiceError> {
        if request.table_id.is_empty() || request.idempotency_key.is_empty() {
            return Ok(None);
        }
        let (scope, hash) = request.idempotency();
        platform::store::stored_response::<R>(&self.db, &scope, request.idempotency_key, &hash).await
    }

    /// Runs one command through the pipeline (see the module docs). `build` checks the request
    /// against the table as loaded and makes the command to store; `respond` renders the answer
    /// from the table after it.
    ///
    /// The idempotency key is not looked up before a command that goes through: the answer is
    /// stored under it in the command's transaction, whose insert refuses a key used before. A
    /// retry of a command that committed finds the table past its expected version, and a key
    /// reused for another request meets the stored key; both then get what the stored answer
    /// says (the first answer, or INVALID_ARGUMENT for the reuse) before any other error. So the
    /// hot path spends no round trip on a key that is almost never used twice.
    #[tracing::instrument(skip_all, fields(table = request.table_id, method = request.method))]
    pub async fn execute<R: Message + Default>(
        &self,
        request: CommandRequest<'_>,
        build: impl FnOnce(&Loaded) -> Result<StoredAction, ServiceError>,
        respond: impl FnOnce(Applied<'_>) -> Result<R, ServiceError>,
    ) -> Result<R, ServiceError> {
        if request.table_id.is_empty() {
            return Err(ServiceError::invalid("table_id", "missing; the table is required"));
        }
        if request.idempotency_key.is_empty() {
            return Err(ServiceError::invalid("idempotency_key", "missing; every command carries one"));
        }
        let (scope, hash) = request.idempotency();
        let key = request.idempotency_key;
        match self.decide_and_commit(request, (&scope, &hash), build, respond).await {
            Ok(answer) => Ok(answer),
            Err(error) => match platform::store::stored_response::<R>(&self.db, &scope, key, &hash).await {
                Ok(Some(first)) => Ok(first),
                Err(reused @ ServiceError::InvalidArgument(_)) => Err(reused),
                // Nothing stored (or the database cannot say): the command's own error stands.
                Ok(None) | Err(_) => Err(error),
            },
        }
    }

    /// Whether the table moved on in the journal past `loaded`: a refusal judged on a live state
    /// that fell behind is no refusal, and the client is told to read the table again.
    async fn refused(&self, loaded: &Loaded, error: ServiceError) -> ServiceError {
        match store::tail(&self.db, &loaded.table_id).await {
            Ok(tail) if tail.as_ref().map_or(0, |t| t.version) != loaded.version => {
                match self.rebuild(&loaded.table_id).await {
                    Ok(current) => stale(&current, loaded.version),
                    Err(_) => error,
                }
            }
            _ => error,
        }
    }

    async fn decide_and_commit<R: Message + Default>(
        &self,
        request: CommandRequest<'_>,
        (scope, hash): (&str, &str),
        build: impl FnOnce(&Loaded) -> Result<StoredAction, ServiceError>,
        respond: impl FnOnce(Applied<'_>) -> Result<R, ServiceError>,
    ) -> Result<R, ServiceError> {
        let CommandRequest { table_id, expected_version, idempotency_key, .. } = request;

        // The table this process last committed or loaded, when the client expects that version,
        // else the live state, is trusted here without asking the journal first: a state that
        // fell behind (a process stopped between its commit and its live update) is found out
        // before anything is written. A client holding the journal's version does not match it,
        // and the table is rebuilt; a command judged on it is refused at commit by the journal's
        // primary key (table, sequence), and a refusal by the Laws is checked against the
        // journal before it is answered ([`Engine::refused`]).
        let mut loaded = match self.known_at(table_id, expected_version) {
            Some(known) => known,
            None => self.load(table_id).await?,
        };
        if loaded.version != expected_version {
            loaded = self.rebuild(table_id).await?;
            if loaded.version != expected_version {
                return Err(stale(&loaded, expected_version));
            }
        }

        let stored = match build(&loaded) {
            Ok(stored) => stored,
            Err(error) => return Err(self.refused(&loaded, error).await),
        };
        let decided = match &stored.command {
            Some(Command::Start(start)) => {
                if let Some(current) = loaded.deal.as_ref().filter(|d| !d.state.is_over()) {
                    Err(ServiceError::FailedPrecondition(format!(
                        "deal {} is still in progress at table {table_id}: it must finish or be abandoned first",
                        current.deal_id
                    )))
                } else {
                    translate::setup(start).and_then(|setup| {
                        let (state, events) = DealInProgress::start(setup).map_err(crate::table_error)?;
                        let setup = start.setup.clone().unwrap_or_default();
                        let deal = LoadedDeal {
                            deal_id: stored.deal_id.clone(),
                            players: translate::players(&setup),
                            setup,
                            actions: vec![stored.clone()],
                            state,
                        };
                        Ok((deal, events))
                    })
                }
            }
            _ => match &loaded.deal {
                None => Err(ServiceError::FailedPrecondition(format!("table {table_id} has no deal: start one"))),
                Some(current) => translate::action(&stored).and_then(|action| {
                    let (state, events) = current.state.apply(&action).map_err(crate::table_error)?;
                    let mut actions = current.actions.clone();
                    actions.push(stored.clone());
                    let deal = LoadedDeal {
                        deal_id: current.deal_id.clone(),
                        setup: current.setup.clone(),
                        players: current.players.clone(),
                        actions,
                        state,
                    };
                    Ok((deal, events))
                }),
            },
        };
        let (deal, events) = match decided {
            Ok(decided) => decided,
            Err(error) => return Err(self.refused(&loaded, error).await),
        };
        let started = matches!(stored.command, Some(Command::Start(_)));
        let first_sequence = loaded.last_sequence + 1;
        let next = Loaded {
            table_id: table_id.to_owned(),
            version: loaded.version + 1,
            last_sequence: loaded.last_sequence + events.len() as u64,
            deal: Some(Arc::new(deal)),
        };
        let context =
            next.context().ok_or_else(|| ServiceError::internal("a command left the table without a deal"))?;
        let journaled: Vec<(u64, &'static str, crate::stored::StoredEvent)> = events
            .iter()
            .enumerate()
            .map(|(i, event)| {
                let sequence = first_sequence + i as u64;
                (sequence, render::event_kind(event), context.stored_event(event, sequence))
            })
            .collect();
        let response = respond(Applied { table: &next, events: &events })?;
        let response_bytes = response.encode_to_vec();

        let state = &context.state;
        let finished = events.contains(&Event::DealFinished);
        let outcome = state.outcome().map(|o| context.outcome(o));
        let arbiter_calls = events
            .iter()
            .filter_map(|event| match event {
                Event::OfficialCalled { id } | Event::OfficialCallResolved { id } => {
                    state.official_calls().iter().find(|c| c.id == *id)
                }
                _ => None,
            })
            .map(|call| {
                let proto = context.arbiter_call(call);
                (proto.arbiter_call_id.clone(), call.resolved.is_none(), proto.encode_to_vec())
            })
            .collect();
        let deal_id = context.deal_id.to_owned();
        let new_deal = if started { Some(deal_row(table_id, next.version, &stored, context.setup)) } else { None };
        let outbox = if finished {
            owed_to_scoring(context.setup, &deal_id, outcome.as_ref(), state.deal().copied())
        } else {
            None
        };
        let commit = Commit {
            table_id: table_id.to_owned(),
            from_version: loaded.version,
            version: next.version,
            deal_id: deal_id.clone(),
            action: stored,
            events: journaled.iter().map(|(sequence, kind, event)| (*sequence, *kind, event.encode_to_vec())).collect(),
            new_deal,
            phase: render::phase_proto(state.phase()).as_str_name().to_owned(),
            outcome: outcome.as_ref().map(Message::encode_to_vec),
            arbiter_calls,
            idempotency: (scope.to_owned(), idempotency_key.to_owned(), hash.to_owned(), response_bytes),
            outbox: outbox.clone(),
            // The result's delivery, and scoring writing it, continue this command's trace.
            trace_context: outbox.as_ref().and_then(|_| platform::telemetry::capture_trace_context()),
        };
        match self.commits.commit(commit).await {
            Ok(()) => {}
            Err(CommitFailed::Write(CommitError::Conflict)) => {
                // Another command took the version first, the live state was behind the journal,
                // or the key was used before ([`Engine::execute`] looks up its answer).
                self.forget(table_id);
                let current = self.rebuild(table_id).await?;
                return Err(stale(&current, expected_version));
            }
            Err(CommitFailed::Write(CommitError::Db(error))) => return Err(error.into()),
            Err(CommitFailed::Stopped) => {
                return Err(ServiceError::Unavailable("the game service is shutting down".to_owned()));
            }
        }
        if let Some(deal) = &next.deal {
            self.remember(deal);
        }
        self.live_tables.seen(&next);
        self.know(&next);
        self.publish(&loaded, &next, journaled.into_iter().map(|(_, _, e)| e).collect()).await;
        if outbox.is_some() {
            self.outbox.notify_one();
        }
        Ok(response)
    }

    /// Moves Redis to the new state and publishes the events; if Redis moved in between (a
    /// rebuild) the state is written outright. Redis failing loses nothing: the journal is the
    /// record, and the next reader rebuilds.
    ///
    /// A command on the deal in progress appends itself to the deal's commands in Redis (a
    /// [`LiveTable`] holding it alone, which decodes merged with what is there) rather than
    /// sending them all again; a new deal replaces them.
    async fn publish(&self, before: &Loaded, after: &Loaded, events: Vec<crate::stored::StoredEvent>) {
        let key = table_key(&after.table_id);
        let channel = channel(&after.table_id);
        let batch = Bytes::from(EventBatch { events }.encode_to_vec());
        let event = Some((channel.as_str(), batch.clone()));
        let same_deal = before.deal.as_ref().zip(after.deal.as_ref()).is_some_and(|(b, a)| b.deal_id == a.deal_id);
        let outcome = match after.deal.as_ref().and_then(|deal| deal.actions.last()).filter(|_| same_deal) {
            Some(action) => {
                // The deal's id is in Redis already: an empty string is not encoded, so the
                // merge keeps it.
                let fragment = LiveTable {
                    version: after.version,
                    last_sequence: after.last_sequence,
                    deal_id: String::new(),
                    actions: vec![action.clone()],
                };
                self.live.compare_and_append(&key, before.version, Bytes::from(fragment.encode_to_vec()), event).await
            }
            None => {
                let value = Bytes::from(after.live().encode_to_vec());
                self.live.compare_and_set(&key, before.version, value, event).await
            }
        };
        let written = match outcome {
            Ok(CasOutcome::Applied(_)) => return,
            Ok(CasOutcome::Conflict { current }) if current >= after.version => Ok(()),
            Ok(CasOutcome::Conflict { .. }) => {
                let value = Bytes::from(after.live().encode_to_vec());
                self.live.put(&key, Versioned { version: after.version, value }).await
            }
            Err(error) => Err(error),
        };
        let published = match written {
            Ok(()) => self.live.publish(&channel, batch).await,
            Err(error) => Err(error),
        };
        if let Err(error) = published {
            tracing::warn!(table = %after.table_id, %error, "live state not updated; the journal stays the record");
            // Whatever Redis holds may now be behind: drop it so the next reader rebuilds.
            let _ = self.live.delete(&key).await;
        }
    }
}

fn stale(current: &Loaded, expected: u64) -> ServiceError {
    ServiceError::Conflict(format!(
        "table {} is at version {}, not {expected}: another command came first; read the table and try again",
        current.table_id, current.version
    ))
}

/// The deal's row, written when it starts.
fn deal_row(table_id: &str, version: u64, stored: &StoredAction, setup: &game::DealSetup) -> deals::ActiveModel {
    let kind = match game_kind(setup) {
        Some(api::common::v1::TableKind::Chicago) => "chicago",
        Some(api::common::v1::TableKind::Duplicate) => "duplicate",
        _ => "rubber",
    };
    let mode = if setup.mode == game::PlayMode::Digital as i32 { "digital" } else { "recorded" };
    let (rubber, board) = match &setup.source {
        Some(game::deal_setup::Source::Rubber(r)) => (Some(r), None),
        Some(game::deal_setup::Source::Board(b)) => (None, Some(b)),
        None => (None, None),
    };
    let started_at = stored
        .at
        .and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .map_or_else(store::now, |t| t.fixed_offset());
    deals::ActiveModel {
        deal_id: Set(stored.deal_id.clone()),
        table_id: Set(table_id.to_owned()),
        table_version: Set(version as i64),
        kind: Set(kind.to_owned()),
        mode: Set(mode.to_owned()),
        rubber_id: Set(rubber.map(|r| r.rubber_id.clone())),
        scorepad_id: Set(rubber.map(|r| r.scorepad_id.clone())),
        session_id: Set(board.map(|b| b.session_id.clone())),
        board_number: Set(board.map(|b| b.board_number as i32)),
        setup: Set(setup.encode_to_vec()),
        phase: Set(game::DealPhase::Auction.as_str_name().to_owned()),
        outcome: Set(None),
        started_at: Set(started_at),
        finished_at: Set(None),
    }
}

fn game_kind(setup: &game::DealSetup) -> Option<api::common::v1::TableKind> {
    api::common::v1::TableKind::try_from(setup.kind).ok()
}

/// The message a finished deal owes scoring: the result on the rubber's scorepad, or the table's
/// result on the duplicate board, with the hands when known (honors follow them if an appeal
/// changes the denomination; a board's are kept for its PBN). An abandoned deal owes nothing.
fn owed_to_scoring(
    setup: &game::DealSetup,
    deal_id: &str,
    outcome: Option<&game::DealOutcome>,
    hands: Option<laws::Deal>,
) -> Option<(String, Vec<u8>)> {
    let result = outcome?.result.clone()?;
    match setup.source.as_ref()? {
        game::deal_setup::Source::Rubber(rubber) => Some((
            crate::outbox::RECORD_DEAL_RESULT.to_owned(),
            scoring::RecordDealResultRequest {
                scorepad_id: rubber.scorepad_id.clone(),
                deal_id: deal_id.to_owned(),
                deal_number: rubber.deal_number,
                result: Some(result),
                source: scoring::ResultSource::Game as i32,
                hands: hands.map(Into::into),
            }
            .encode_to_vec(),
        )),
        game::deal_setup::Source::Board(board) => Some((
            crate::outbox::RECORD_BOARD_RESULT.to_owned(),
            scoring::RecordBoardResultRequest {
                key: Some(api::common::v1::BoardResultKey {
                    session_id: board.session_id.clone(),
                    board_number: board.board_number,
                    north_south_contestant_id: board.north_south_contestant_id.clone(),
                    east_west_contestant_id: board.east_west_contestant_id.clone(),
                }),
                deal_id: deal_id.to_owned(),
                result: Some(result),
                source: scoring::ResultSource::Game as i32,
                hands: hands.map(Into::into),
            }
            .encode_to_vec(),
        )),
    }
}

/// A new deal's start as stored: the setup, and the cards (the board's, if another table fixed
/// them).
pub fn start_action(deal_id: &str, actor: &str, start: StoredStart) -> StoredAction {
    StoredAction {
        deal_id: deal_id.to_owned(),
        actor: actor.to_owned(),
        at: Some(store::timestamp(store::now())),
        command: Some(Command::Start(start)),
        rules_version: laws::RULES_VERSION,
    }
}

/// A command on the deal in progress, as stored.
pub fn action(loaded: &Loaded, actor: &str, command: Command) -> Result<StoredAction, ServiceError> {
    let deal = loaded
        .deal
        .as_ref()
        .ok_or_else(|| ServiceError::FailedPrecondition(format!("table {} has no deal: start one", loaded.table_id)))?;
    Ok(StoredAction {
        deal_id: deal.deal_id.clone(),
        actor: actor.to_owned(),
        at: Some(store::timestamp(store::now())),
        command: Some(command),
        rules_version: laws::RULES_VERSION,
    })
}

/// The seat `player_id` holds in `setup`, if he is one of its four players.
pub fn seat_of_player(setup: &game::DealSetup, player_id: &str) -> Option<laws::Seat> {
    setup.players.iter().find(|p| p.player_id == player_id).and_then(|p| laws::Seat::from_proto("seat", p.seat).ok())
}

impl Engine {
    /// A deal by id, from its row and the journal, whether in progress or over.
    #[tracing::instrument(skip(self))]
    pub async fn load_deal(&self, deal_id: &str) -> Result<(deals::Model, Arc<LoadedDeal>), ServiceError> {
        if deal_id.is_empty() {
            return Err(ServiceError::invalid("deal_id", "missing; the deal is required"));
        }
        let row =
            store::deal(&self.db, deal_id).await?.ok_or_else(|| ServiceError::not_found(format!("deal {deal_id}")))?;
        let actions = store::deal_actions(&self.db, &row.table_id, deal_id).await?;
        let deal = self.deal_from(deal_id, actions)?;
        Ok((row, deal))
    }
}

#[cfg(test)]
mod tests;
