//! The game's commands on the platform's command runtime ([`platform::runtime`], and
//! docs/architecture.md, "How a command flows"): a table is an aggregate ([`Tables`]), and this
//! module only decides.
//!
//! 1. A command carries the table's expected version and an idempotency key. A key seen before
//!    returns the first answer; a stale version is ABORTED with the current one.
//! 2. The rules check happens in the laws ([`DealInProgress::apply`]) on the current state
//!    ([`decide`]), which says what the command writes, publishes and answers.
//! 3. The runtime appends the events to the journal keyed (table, sequence) atomically with
//!    everything else the command writes (one statement on Postgres, a transaction otherwise);
//!    the primary key is the commit point. Commands at many tables share that write (group
//!    commit), and each is answered only once it committed.
//! 4. Redis is then updated by the live store's compare-and-set script, which publishes the events
//!    on the table's channel.
//! 5. If Redis is flushed, restarted or behind, the state is rebuilt from the journal.
//!
//! Redis holds a table's current deal as the commands that replay to it ([`LiveTable`]), each
//! command appended as it is accepted; each process keeps the replayed state of the versions it
//! has seen, so a command replays nothing unless another process moved the table on.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use prost::Message;

use api::convert::ProtoEnum;
use api::game::v1 as game;
use api::scoring::v1 as scoring;
use laws::table::{DealInProgress, Event};
use platform::ServiceError;
use platform::auth::Principal;
use platform::db::Db;
use platform::live::SharedLiveStore;
use platform::runtime::{Change, Decision, Expected, Idempotency, LiveWrite, Runtime};

use crate::entity::deals;
use crate::render::{self, DealContext};
use crate::store::{self, Commit};
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
    pub setup: Arc<game::DealSetup>,
    /// Its players by seat.
    pub players: Arc<[String; 4]>,
    /// Its commands, from the start (shared: the next state's list holds the same commands, and
    /// copies only their handles).
    pub actions: Vec<Arc<StoredAction>>,
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
            actions: self.deal.as_ref().map(|d| d.actions.iter().map(|a| (**a).clone()).collect()).unwrap_or_default(),
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
    let actions = actions.into_iter().map(Arc::new).collect();
    let players = Arc::new(translate::players(&setup));
    Ok(LoadedDeal { deal_id: deal_id.to_owned(), players, setup: Arc::new(setup), actions, state })
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
    fn idempotency(&self) -> Idempotency {
        let scope = format!("game/{}/{}", self.table_id, self.principal.subject);
        Idempotency::new(scope, self.idempotency_key, self.method, &self.request)
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

/// The game service's state: the database, the live store, and the command runtime that runs its
/// tables ([`Tables`]).
pub struct Engine {
    /// The durable record.
    pub db: Db,
    /// Redis, or the in-process store.
    pub live: SharedLiveStore,
    runtime: Runtime<Tables>,
    /// The outbox worker's signals: told when a deal finishes, so it delivers at once.
    pub outbox: platform::outbox::OutboxSignals,
    /// How long a watch stream stays quiet before it sends a heartbeat.
    pub heartbeat: std::time::Duration,
}

impl Engine {
    /// An engine over these stores; its group commit's writers start on the current runtime.
    pub fn new(db: Db, live: SharedLiveStore) -> Engine {
        Engine {
            runtime: Runtime::new(db.clone(), live.clone(), Tables::default()),
            db,
            live,
            outbox: platform::outbox::OutboxSignals::default(),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
        }
    }

    /// The same engine, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: std::time::Duration) -> Engine {
        self.heartbeat = heartbeat;
        self
    }

    /// The tables with a deal in progress, as this process last saw them.
    pub fn live_tables(&self) -> &LiveTables {
        &self.runtime.aggregate().live_tables
    }

    /// The table as Redis has it, rebuilt from the journal if Redis has nothing (flushed,
    /// restarted) or cannot be reached.
    pub async fn load(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        self.runtime.load(table_id).await
    }

    /// The table as Redis has it, unless the journal has moved on (Redis behind: a process
    /// stopped between its commit and its Redis update), in which case it is rebuilt. One
    /// primary-key lookup in the journal; the state itself still comes from Redis.
    pub async fn load_fresh(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        self.runtime.load_fresh(table_id).await
    }

    /// The table as the journal has it.
    pub async fn read_journal(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        self.runtime.read_journal(table_id).await
    }

    /// Rebuilds the table's live state from the journal and writes it to Redis.
    pub async fn rebuild(&self, table_id: &str) -> Result<Loaded, ServiceError> {
        self.runtime.rebuild(table_id).await
    }

    /// The answer already given to this command, if it was made before with the same
    /// idempotency key: a command whose preparation asks other services (StartDeal asks the
    /// rubber's owners) looks here when that preparation fails, so that a retry gets its first
    /// answer even once those owners would say otherwise, or cannot be reached. Like
    /// [`Engine::execute`], it looks only after a failure: a retry whose preparation goes through
    /// meets its used key (or the version its first attempt moved on) at the commit, and is
    /// answered from the key there; a start that is no retry spends no lookup on it.
    pub async fn answered<R: Message + Default>(
        &self,
        request: &CommandRequest<'_>,
    ) -> Result<Option<R>, ServiceError> {
        if request.table_id.is_empty() || request.idempotency_key.is_empty() {
            return Ok(None);
        }
        request.idempotency().first_answer(&self.db).await
    }

    /// Runs one command through the pipeline (see the module docs and [`platform::runtime`]):
    /// `build` checks the request against the table as loaded and makes the command to store; the
    /// Laws judge it; `respond` renders the answer from the table after it.
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
        let idempotency = request.idempotency();
        let mut owes_scoring = false;
        // One attempt: a command carries the version it was made on.
        let mut once = Some((build, respond));
        let decide = |loaded: Loaded| {
            let decided = once
                .take()
                .ok_or_else(|| ServiceError::internal("a game command decided twice"))
                .and_then(|(build, respond)| decide(&loaded, build(&loaded)?, respond));
            owes_scoring = decided.as_ref().is_ok_and(|change| change.write.outbox.is_some());
            std::future::ready(decided.map(Decision::Changed))
        };
        let answer = self
            .runtime
            .execute(request.table_id, Expected::Version(request.expected_version), Some(&idempotency), decide)
            .await?;
        if owes_scoring {
            self.outbox.owed();
        }
        Ok(answer)
    }
}

/// Judges `stored` on the table as `loaded` and makes everything the command writes and
/// publishes, and its answer.
fn decide<R: Message>(
    loaded: &Loaded,
    stored: StoredAction,
    respond: impl FnOnce(Applied<'_>) -> Result<R, ServiceError>,
) -> Result<Change<Tables, R>, ServiceError> {
    let table_id = loaded.table_id.as_str();
    let (deal, events) = match &stored.command {
        Some(Command::Start(start)) => {
            if let Some(current) = loaded.deal.as_ref().filter(|d| !d.state.is_over()) {
                return Err(ServiceError::FailedPrecondition(format!(
                    "deal {} is still in progress at table {table_id}: it must finish or be abandoned first",
                    current.deal_id
                )));
            }
            let (state, events) = DealInProgress::start(translate::setup(start)?).map_err(crate::table_error)?;
            let setup = start.setup.clone().unwrap_or_default();
            let deal = LoadedDeal {
                deal_id: stored.deal_id.clone(),
                players: Arc::new(translate::players(&setup)),
                setup: Arc::new(setup),
                actions: vec![Arc::new(stored.clone())],
                state,
            };
            (deal, events)
        }
        _ => {
            let Some(current) = &loaded.deal else {
                return Err(ServiceError::FailedPrecondition(format!("table {table_id} has no deal: start one")));
            };
            let (state, events) = current.state.apply(&translate::action(&stored)?).map_err(crate::table_error)?;
            let mut actions = Vec::with_capacity(current.actions.len() + 1);
            actions.extend(current.actions.iter().cloned());
            actions.push(Arc::new(stored.clone()));
            let deal = LoadedDeal {
                deal_id: current.deal_id.clone(),
                setup: current.setup.clone(),
                players: current.players.clone(),
                actions,
                state,
            };
            (deal, events)
        }
    };
    let started = matches!(stored.command, Some(Command::Start(_)));
    let first_sequence = loaded.last_sequence + 1;
    let next = Loaded {
        table_id: table_id.to_owned(),
        version: loaded.version + 1,
        last_sequence: loaded.last_sequence + events.len() as u64,
        deal: Some(Arc::new(deal)),
    };
    let context = next.context().ok_or_else(|| ServiceError::internal("a command left the table without a deal"))?;
    let journaled: Vec<(u64, &'static str, crate::stored::StoredEvent)> = events
        .iter()
        .enumerate()
        .map(|(i, event)| {
            let sequence = first_sequence + i as u64;
            (sequence, render::event_kind(event), context.stored_event(event, sequence))
        })
        .collect();
    let response = respond(Applied { table: &next, events: &events })?;

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
    let outbox =
        if finished { owed_to_scoring(context.setup, &deal_id, outcome.as_ref(), state.deal().copied()) } else { None };
    // The deal's row moves only with its phase (and is written whole when the deal starts).
    let phase_before = loaded.deal.as_ref().filter(|d| d.deal_id == context.deal_id).map(|d| d.state.phase());
    let phase_moved = phase_before != Some(state.phase());

    // A command on the deal in progress appends itself to the deal's commands in Redis (a
    // `LiveTable` holding it alone, which decodes merged with what is there; the deal's id is
    // there already, and an empty string is not encoded, so the merge keeps it) rather than
    // sending them all again; a new deal replaces them.
    let same_deal = loaded.deal.as_ref().is_some_and(|before| before.deal_id == deal_id);
    let live = if same_deal {
        let fragment = LiveTable {
            version: next.version,
            last_sequence: next.last_sequence,
            deal_id: String::new(),
            actions: vec![stored.clone()],
        };
        LiveWrite::Append(Bytes::from(fragment.encode_to_vec()))
    } else {
        LiveWrite::Replace
    };
    let published =
        Bytes::from(EventBatch { events: journaled.iter().map(|(_, _, e)| e.clone()).collect() }.encode_to_vec());
    let write = Commit {
        table_id: table_id.to_owned(),
        from_version: loaded.version,
        version: next.version,
        deal_id,
        action: stored,
        events: journaled.into_iter().map(|(sequence, kind, event)| (sequence, kind, event.encode_to_vec())).collect(),
        new_deal,
        phase: render::phase_proto(state.phase()).as_str_name(),
        phase_moved,
        outcome: outcome.as_ref().map(Message::encode_to_vec),
        arbiter_calls,
        // The result's delivery, and scoring writing it, continue this command's trace.
        trace_context: outbox.as_ref().and_then(|_| platform::telemetry::capture_trace_context()),
        outbox,
    };
    Ok(Change { next, write, response, live, published: Some(published) })
}

/// The deal's row, written when it starts.
fn deal_row(table_id: &str, version: u64, stored: &StoredAction, setup: &game::DealSetup) -> deals::Model {
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
    deals::Model {
        deal_id: stored.deal_id.clone(),
        table_id: table_id.to_owned(),
        table_version: version as i64,
        kind: kind.to_owned(),
        mode: mode.to_owned(),
        rubber_id: rubber.map(|r| r.rubber_id.clone()),
        scorepad_id: rubber.map(|r| r.scorepad_id.clone()),
        session_id: board.map(|b| b.session_id.clone()),
        board_number: board.map(|b| b.board_number as i32),
        setup: setup.encode_to_vec(),
        phase: game::DealPhase::Auction.as_str_name().to_owned(),
        outcome: None,
        started_at,
        finished_at: None,
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
        let mut row = row;
        let (actions, version) = store::deal_actions(&self.db, &row.table_id, deal_id).await?;
        row.table_version = i64::try_from(version).unwrap_or(i64::MAX);
        let deal = self.runtime.aggregate().deal_from(deal_id, actions)?;
        Ok((row, deal))
    }
}

mod tables;
pub use tables::Tables;

#[cfg(test)]
mod tests;
