//! The command runtime: the one pipeline every event-sourced aggregate's commands go through
//! (docs/architecture.md, "How a command flows").
//!
//! A service describes its aggregate ([`Aggregate`]): what its state is, how the journal replays
//! to it (the trusted path: history as it was accepted), what the live store keeps of it, and
//! what one accepted command writes. A command handler only decides: given the state, the Laws
//! either refuse or say what the command changes and what it answers ([`Decision`]). The
//! [`Runtime`] owns everything else, once:
//!
//! - **the state to decide on**: the one this process last committed or loaded, when it is at the
//!   version the client expects, else the live store's copy, else a replay of the journal (which
//!   is written back to the live store);
//! - **the expected version**: a command carries the version its client saw
//!   ([`Expected::Version`]) and is refused as stale (ABORTED, naming the current version) if
//!   another came first; or it applies to whatever is current ([`Expected::Latest`]) and is
//!   decided again, a bounded number of times, when another writer commits first;
//! - **idempotency**: the first answer is stored under the client's key in the command's own
//!   transaction. Its insert refuses a key used before, so the hot path spends no lookup on it;
//!   a command that fails looks the key up and answers what the first attempt answered (or
//!   INVALID_ARGUMENT when the key was used for another request);
//! - **the journal append**, many aggregates' commands to one write, a statement or a transaction
//!   ([`crate::commit`]), each answered only once it has committed; the journal's primary key is
//!   the commit point;
//! - **the live store**: compare-and-set (or append) from the version before to the version after,
//!   publishing the command's events in the same script; a live store that is away or behind
//!   loses nothing, since the journal is the record and the next reader rebuilds;
//! - **a refusal judged on a state that fell behind** is no refusal: the journal is asked whether
//!   it moved on, and the command is decided again or told to read again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use prost::Message;
use sea_orm::{DatabaseTransaction, DbErr, EntityName, SqlErr};

use crate::ServiceError;
use crate::bulk::{self, Rows};
use crate::commit::{BatchWriter, CommitFailed, GroupCommit};
use crate::db::Db;
use crate::live::{CasOutcome, SharedLiveStore, Versioned};
use crate::store::idempotency_keys;

/// A command's idempotency: where its first answer is kept, the client's key, and the hash that
/// tells a repeat from another request under the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idempotency {
    /// Where the answer is kept (the service, and what the key is unique within).
    pub scope: String,
    /// The client's key.
    pub key: String,
    /// [`crate::store::request_hash`] of the method and the encoded request.
    pub request_hash: String,
}

impl Idempotency {
    /// The idempotency of `encoded_request` to `method` under `key`, kept in `scope`.
    pub fn new(scope: impl Into<String>, key: impl Into<String>, method: &str, encoded_request: &[u8]) -> Self {
        Idempotency {
            scope: scope.into(),
            key: key.into(),
            request_hash: crate::store::request_hash(method, encoded_request),
        }
    }

    /// The answer stored under this key, if the command ran before; INVALID_ARGUMENT if the key
    /// was used for another request.
    pub async fn first_answer<R: Message + Default>(
        &self,
        db: &impl sea_orm::ConnectionTrait,
    ) -> Result<Option<R>, ServiceError> {
        crate::store::stored_response(db, &self.scope, &self.key, &self.request_hash).await
    }
}

/// Why a command's write did not commit.
#[derive(Debug)]
pub enum WriteError {
    /// Another command took the version first, or the idempotency key was used at the same
    /// moment: nothing was written.
    Conflict,
    /// The database failed.
    Db(DbErr),
}

impl From<DbErr> for WriteError {
    fn from(error: DbErr) -> Self {
        match error.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(_)) => WriteError::Conflict,
            _ => WriteError::Db(error),
        }
    }
}

/// An aggregate the runtime runs (see the module docs): its state, its record and its live copy.
pub trait Aggregate: Send + Sync + 'static {
    /// The state the journal replays to, at a version. Cloned per command: keep what is large
    /// behind an `Arc`.
    type State: Clone + Send + Sync + 'static;
    /// What one accepted command writes, beside its first answer.
    type Write: Send + Sync + 'static;

    /// What one aggregate is called in messages ("table", "room").
    const NAME: &'static str;

    /// Whether the live copy holds the whole state, read back by [`Aggregate::state_of_live`].
    /// When it is a read model (or only a feed's head), a process brings its own copy up to date
    /// from the journal's tail instead, and the live copy is only written.
    const LIVE_HOLDS_STATE: bool = true;

    /// The version `state` is at: 0 before anything, one more for every command.
    fn version(state: &Self::State) -> u64;

    /// The live store key of aggregate `id`.
    fn live_key(&self, id: &str) -> String;

    /// The live channel its events are published on.
    fn channel(&self, id: &str) -> String;

    /// What the live store keeps of `state`.
    fn to_live(&self, state: &Self::State) -> Bytes;

    /// The state from what the live store keeps at `version`, or `None` when the live copy cannot
    /// be used (half written, or a read model that does not hold the whole state): the journal is
    /// then replayed and the live copy written again.
    fn state_of_live(&self, id: &str, version: u64, live: &[u8]) -> Result<Option<Self::State>, ServiceError>;

    /// The state the journal replays to (the trusted path), starting from `known` when this
    /// process already has an earlier state of it.
    fn read_journal(
        &self,
        db: &Db,
        id: &str,
        known: Option<Self::State>,
    ) -> impl Future<Output = Result<Self::State, ServiceError>> + Send;

    /// The version the journal has reached (a primary-key lookup, not a replay).
    fn journal_version(&self, db: &Db, id: &str) -> impl Future<Output = Result<u64, ServiceError>> + Send;

    /// Writes accepted commands in `txn`, many aggregates' at once: any conflict fails the whole
    /// (the group commit then writes each alone).
    fn write<'a>(
        &'a self,
        txn: &'a DatabaseTransaction,
        writes: Vec<&'a Self::Write>,
    ) -> impl Future<Output = Result<(), WriteError>> + Send + 'a;

    /// Whether all `write` does is insert and update rows in bulk ([`Aggregate::rows`]): most
    /// commands, a journal row or a few. Such commands are written with their first answers in
    /// one statement ([`BatchWriter::one_statement`]); the default, none, has [`Aggregate::write`]
    /// write every command in a transaction.
    fn one_statement(&self, _write: &Self::Write) -> bool {
        false
    }

    /// The rows `writes` write, each of which is [`Aggregate::one_statement`]; no two parts may
    /// touch the same row.
    fn rows(&self, _writes: &[&Self::Write]) -> Vec<Rows> {
        Vec::new()
    }

    /// Called with every state this process loads or commits (a gauge of live aggregates, say).
    fn seen(&self, _state: &Self::State) {}
}

/// What a command may apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// Only the version the client saw: another command first makes it stale (ABORTED).
    Version(u64),
    /// Whatever is current: decided again, up to `attempts` times, when another writer commits
    /// first.
    Latest {
        /// How many times it is decided at most.
        attempts: u32,
    },
}

/// How the live copy moves with a command.
#[derive(Debug, Clone)]
pub enum LiveWrite {
    /// Replaced by [`Aggregate::to_live`] of the state after.
    Replace,
    /// This fragment appended to it ([`crate::live::LiveStore::compare_and_append`]).
    Append(Bytes),
}

/// What deciding a command came to.
pub enum Decision<A: Aggregate, R> {
    /// Nothing to change: the answer as things stand.
    Unchanged(R),
    /// The command is accepted.
    Changed(Change<A, R>),
}

/// An accepted command: the state after it, what it writes, what it answers, and what the live
/// copy and the watchers get.
pub struct Change<A: Aggregate, R> {
    /// The state after the command, at a later version (most aggregates count one a command).
    /// A change that adds nothing to the aggregate's history (a record that waits on another
    /// service, say) keeps the version: nothing then checks it at the write, which guards its own
    /// rows, and the live copy does not move.
    pub next: A::State,
    /// What it writes.
    pub write: A::Write,
    /// Its answer.
    pub response: R,
    /// How the live copy moves.
    pub live: LiveWrite,
    /// What is published on the channel, if anything.
    pub published: Option<Bytes>,
}

/// One command's write as the group commit carries it: the aggregate's, and its first answer.
pub struct Journaled<W> {
    write: W,
    answer: Option<(Idempotency, Vec<u8>)>,
}

/// The group commit's writer: the aggregate's rows, then every first answer in one insert.
pub struct RuntimeWriter<A>(std::sync::Arc<A>);

/// Rows to a multi-row insert: well under either database's limit on bound parameters.
pub const ROWS_PER_INSERT: usize = 500;

impl<A: Aggregate> BatchWriter for RuntimeWriter<A> {
    type Item = Journaled<A::Write>;
    type Error = WriteError;

    async fn write(&self, txn: &DatabaseTransaction, items: &[Journaled<A::Write>]) -> Result<(), WriteError> {
        self.0.write(txn, items.iter().map(|item| &item.write).collect()).await?;
        bulk::write_all(txn, vec![first_answers(items)]).await?;
        Ok(())
    }

    fn one_statement(&self, item: &Journaled<A::Write>) -> bool {
        self.0.one_statement(&item.write)
    }

    fn rows(&self, items: &[Journaled<A::Write>]) -> Vec<Rows> {
        let mut rows = self.0.rows(&items.iter().map(|item| &item.write).collect::<Vec<_>>());
        rows.push(first_answers(items));
        rows
    }
}

/// The batch's first answers, as `idempotency_keys` rows.
fn first_answers<W>(items: &[Journaled<W>]) -> Rows {
    let answers: Vec<&(Idempotency, Vec<u8>)> = items.iter().filter_map(|item| item.answer.as_ref()).collect();
    Rows::insert(idempotency_keys::Entity.table_name(), answers.len())
        .text("scope", answers.iter().map(|(i, _)| i.scope.clone()).collect())
        .text("key", answers.iter().map(|(i, _)| i.key.clone()).collect())
        .text("request_hash", answers.iter().map(|(i, _)| i.request_hash.clone()).collect())
        .bytes("response", answers.iter().map(|(_, response)| response.clone()).collect())
        .same_time_utc("created_at", chrono::Utc::now())
}

/// `rows` taken apart into inserts of at most [`ROWS_PER_INSERT`], moved rather than copied.
pub fn in_chunks<T>(mut rows: Vec<T>) -> Vec<Vec<T>> {
    let mut chunks = Vec::with_capacity(rows.len().div_ceil(ROWS_PER_INSERT));
    while rows.len() > ROWS_PER_INSERT {
        let rest = rows.split_off(ROWS_PER_INSERT);
        chunks.push(std::mem::replace(&mut rows, rest));
    }
    if !rows.is_empty() {
        chunks.push(rows);
    }
    chunks
}

/// How many aggregates' states a process keeps before it starts again from none.
const KNOWN_LIMIT: usize = 4096;

/// Runs an aggregate's commands (see the module docs).
pub struct Runtime<A: Aggregate> {
    /// The durable record.
    pub db: Db,
    /// The live store.
    pub live: SharedLiveStore,
    aggregate: std::sync::Arc<A>,
    commits: GroupCommit<RuntimeWriter<A>>,
    /// Each aggregate as this process last loaded or committed it: a command expecting that
    /// version is decided on it without asking the live store.
    known: Mutex<HashMap<String, A::State>>,
}

impl<A: Aggregate> std::fmt::Debug for Runtime<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime").field("aggregate", &A::NAME).finish_non_exhaustive()
    }
}

impl<A: Aggregate> Runtime<A> {
    /// The runtime of `aggregate` over these stores; its group commit's writers start on the
    /// current tokio runtime.
    pub fn new(db: Db, live: SharedLiveStore, aggregate: A) -> Runtime<A> {
        let aggregate = std::sync::Arc::new(aggregate);
        let writer = RuntimeWriter(aggregate.clone());
        Runtime {
            commits: GroupCommit::spawn(db.clone(), writer, db.group_commit()),
            db,
            live,
            aggregate,
            known: Mutex::new(HashMap::new()),
        }
    }

    /// The aggregate's description.
    pub fn aggregate(&self) -> &A {
        &self.aggregate
    }

    fn know(&self, id: &str, state: &A::State) {
        self.aggregate.seen(state);
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= KNOWN_LIMIT && !known.contains_key(id) {
            known.clear();
        }
        match known.get_mut(id) {
            // A state read from a live copy that fell behind does not replace a newer one.
            Some(current) if A::version(current) > A::version(state) => {}
            Some(current) => *current = state.clone(),
            None => {
                known.insert(id.to_owned(), state.clone());
            }
        }
    }

    fn known(&self, id: &str) -> Option<A::State> {
        self.known.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    fn forget(&self, id: &str) {
        self.known.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// The aggregate as the live store has it, replayed from the journal if the live store has
    /// nothing usable (flushed, restarted, half written) or cannot be reached.
    #[tracing::instrument(skip(self), fields(aggregate = A::NAME))]
    pub async fn load(&self, id: &str) -> Result<A::State, ServiceError> {
        if !A::LIVE_HOLDS_STATE {
            return self.current(id).await;
        }
        match self.live.get(&self.aggregate.live_key(id)).await {
            Ok(Some(stored)) => match self.aggregate.state_of_live(id, stored.version, stored.value.as_ref())? {
                Some(state) => {
                    self.know(id, &state);
                    Ok(state)
                }
                None => self.rebuild(id).await,
            },
            Ok(None) => self.rebuild(id).await,
            Err(error) => {
                tracing::warn!(id, %error, "live store unavailable; reading the journal");
                self.read_journal(id).await
            }
        }
    }

    /// [`Runtime::load`], unless the journal has moved on (the live store behind: a process
    /// stopped between its commit and its live update), in which case it is rebuilt.
    pub async fn load_fresh(&self, id: &str) -> Result<A::State, ServiceError> {
        let loaded = self.load(id).await?;
        let journal = self.aggregate.journal_version(&self.db, id).await?;
        if journal != A::version(&loaded) { self.rebuild(id).await } else { Ok(loaded) }
    }

    /// The aggregate as the journal has it, replaying from the start.
    pub async fn read_journal(&self, id: &str) -> Result<A::State, ServiceError> {
        let state = self.aggregate.read_journal(&self.db, id, None).await?;
        self.know(id, &state);
        Ok(state)
    }

    /// The aggregate as the journal has it, replaying only what this process has not seen.
    pub async fn current(&self, id: &str) -> Result<A::State, ServiceError> {
        let state = self.aggregate.read_journal(&self.db, id, self.known(id)).await?;
        self.know(id, &state);
        Ok(state)
    }

    /// Rebuilds the live copy from the journal.
    #[tracing::instrument(skip(self), fields(aggregate = A::NAME))]
    pub async fn rebuild(&self, id: &str) -> Result<A::State, ServiceError> {
        let state = self.current(id).await?;
        let version = A::version(&state);
        if version > 0 {
            let value = Versioned { version, value: self.aggregate.to_live(&state) };
            if let Err(error) = self.live.put(&self.aggregate.live_key(id), value).await {
                tracing::warn!(id, %error, "live copy not rebuilt; the journal stays the record");
            } else {
                tracing::info!(id, version, "live copy rebuilt from the journal");
            }
        }
        Ok(state)
    }

    /// Runs one command (see the module docs): `decide` is asked on the state the command
    /// applies to, once or (with [`Expected::Latest`]) again after another writer came first.
    ///
    /// Deciding may read what the aggregate keeps beside its state (an aggregate whose state is
    /// the rows it has written reads the few it needs): whatever it reads was written by commands
    /// that moved the version, so a decision on rows newer than the state's version fails at its
    /// commit like any other and is decided again.
    #[tracing::instrument(skip_all, fields(aggregate = A::NAME, id))]
    pub async fn execute<R, D>(
        &self,
        id: &str,
        expected: Expected,
        idempotency: Option<&Idempotency>,
        mut decide: impl FnMut(A::State) -> D,
    ) -> Result<R, ServiceError>
    where
        R: Message + Default,
        D: Future<Output = Result<Decision<A, R>, ServiceError>>,
    {
        let attempts = match expected {
            Expected::Version(_) => 1,
            Expected::Latest { attempts } => attempts.max(1),
        };
        let mut fresh = false;
        for attempt in 0..attempts {
            let outcome = self.attempt(id, expected, idempotency, fresh, &mut decide).await;
            match outcome {
                Attempt::Done(answer) => return answer,
                Attempt::Failed(error) => return self.answered_before(idempotency, error).await,
                Attempt::Again => {
                    if let Some(idempotency) = idempotency
                        && let Some(first) = idempotency.first_answer(&self.db).await?
                    {
                        return Ok(first);
                    }
                    fresh = true;
                    tracing::debug!(attempt, id, "another writer came first; deciding again");
                    let pause = rand::random::<u64>() % (2 + u64::from(attempt.min(20)) * 2);
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                }
            }
        }
        Err(ServiceError::Conflict(format!(
            "the {} changed {attempts} times while this command was being decided; send it again",
            A::NAME
        )))
    }

    /// A command that failed gets the answer stored under its key, if it ran before (a retry of
    /// one that committed finds the aggregate moved on), and INVALID_ARGUMENT for a key reused
    /// for another request, before any other error.
    async fn answered_before<R: Message + Default>(
        &self,
        idempotency: Option<&Idempotency>,
        error: ServiceError,
    ) -> Result<R, ServiceError> {
        let Some(idempotency) = idempotency else { return Err(error) };
        match idempotency.first_answer(&self.db).await {
            Ok(Some(first)) => Ok(first),
            Err(reused @ ServiceError::InvalidArgument(_)) => Err(reused),
            // Nothing stored (or the database cannot say): the command's own error stands.
            Ok(None) | Err(_) => Err(error),
        }
    }

    /// The state a command is decided on: with an expected version, the one known here at that
    /// version, else the live copy, else the journal; otherwise the latest, from the journal's
    /// tail once another writer has come first.
    async fn state_for(&self, id: &str, expected: Expected, fresh: bool) -> Result<A::State, ServiceError> {
        match expected {
            Expected::Version(version) => {
                let mut state = match self.known(id).filter(|s| A::version(s) == version) {
                    Some(known) => known,
                    None => self.load(id).await?,
                };
                if A::version(&state) != version {
                    state = self.rebuild(id).await?;
                    if A::version(&state) != version {
                        return Err(stale::<A>(id, A::version(&state), version));
                    }
                }
                Ok(state)
            }
            Expected::Latest { .. } if fresh => self.current(id).await,
            Expected::Latest { .. } => match self.known(id) {
                Some(known) => Ok(known),
                None => self.current(id).await,
            },
        }
    }

    async fn attempt<R, D>(
        &self,
        id: &str,
        expected: Expected,
        idempotency: Option<&Idempotency>,
        fresh: bool,
        decide: &mut impl FnMut(A::State) -> D,
    ) -> Attempt<R>
    where
        R: Message + Default,
        D: Future<Output = Result<Decision<A, R>, ServiceError>>,
    {
        let state = match self.state_for(id, expected, fresh).await {
            Ok(state) => state,
            Err(error) => return Attempt::Failed(error),
        };
        let before = A::version(&state);
        let change = match decide(state).await {
            Ok(Decision::Changed(change)) => change,
            Ok(Decision::Unchanged(answer)) => {
                // A repeat of a command that changed something gets that first answer, not how
                // things stand now.
                return match idempotency {
                    Some(idempotency) => match idempotency.first_answer(&self.db).await {
                        Ok(first) => Attempt::Done(Ok(first.unwrap_or(answer))),
                        Err(error) => Attempt::Failed(error),
                    },
                    None => Attempt::Done(Ok(answer)),
                };
            }
            Err(error) => return self.refused(id, before, expected, error).await,
        };
        if A::version(&change.next) < before {
            return Attempt::Failed(ServiceError::internal(format!(
                "{} {id}: a command moved version {before} to {}",
                A::NAME,
                A::version(&change.next)
            )));
        }
        let Change { next, write, response, live, published } = change;
        let answer = idempotency.map(|idempotency| (idempotency.clone(), response.encode_to_vec()));
        match self.commits.commit(Journaled { write, answer }).await {
            Ok(()) => {}
            Err(CommitFailed::Write(WriteError::Conflict)) => {
                // Another command took the version first, the state decided on was behind the
                // journal, or the key was used before.
                self.forget(id);
                return match expected {
                    Expected::Version(version) => match self.rebuild(id).await {
                        Ok(current) => Attempt::Failed(stale::<A>(id, A::version(&current), version)),
                        Err(error) => Attempt::Failed(error),
                    },
                    Expected::Latest { .. } => Attempt::Again,
                };
            }
            Err(CommitFailed::Write(WriteError::Db(error))) => return Attempt::Failed(error.into()),
            Err(CommitFailed::Stopped) => {
                return Attempt::Failed(ServiceError::Unavailable("the service is shutting down".to_owned()));
            }
        }
        self.know(id, &next);
        if A::version(&next) > before {
            self.publish(id, before, &next, live, published).await;
        } else if let Some(payload) = published {
            // A change the version does not count has no live copy to move: it is only told.
            if let Err(error) = self.live.publish(&self.aggregate.channel(id), payload).await {
                tracing::warn!(id, %error, "change not published; watchers read it from the record");
            }
        }
        Attempt::Done(Ok(response))
    }

    /// A refusal judged on a state the journal has moved past is no refusal: the command is
    /// decided again (latest) or told to read again (expected version).
    async fn refused<R>(&self, id: &str, decided_on: u64, expected: Expected, error: ServiceError) -> Attempt<R> {
        match self.aggregate.journal_version(&self.db, id).await {
            Ok(journal) if journal != decided_on => match expected {
                Expected::Latest { .. } => Attempt::Again,
                Expected::Version(version) => match self.rebuild(id).await {
                    Ok(current) => Attempt::Failed(stale::<A>(id, A::version(&current), version)),
                    Err(_) => Attempt::Failed(error),
                },
            },
            _ => Attempt::Failed(error),
        }
    }

    /// Moves the live copy to the state after and publishes the events; if it moved in between
    /// (a rebuild, a writer behind) it is written outright. The live store failing loses
    /// nothing: the journal is the record, and the next reader rebuilds.
    async fn publish(&self, id: &str, before: u64, after: &A::State, live: LiveWrite, published: Option<Bytes>) {
        let key = self.aggregate.live_key(id);
        let channel = self.aggregate.channel(id);
        let version = A::version(after);
        let event = published.clone().map(|payload| (channel.as_str(), payload));
        let outcome = match live {
            LiveWrite::Append(fragment) => {
                self.live.compare_and_move(&key, (before, version), fragment, event, true).await
            }
            LiveWrite::Replace => {
                let value = self.aggregate.to_live(after);
                self.live.compare_and_move(&key, (before, version), value, event, false).await
            }
        };
        let written = match outcome {
            Ok(CasOutcome::Applied(_)) => return,
            Ok(CasOutcome::Conflict { current }) if current >= version => Ok(()),
            Ok(CasOutcome::Conflict { .. }) => {
                self.live.put(&key, Versioned { version, value: self.aggregate.to_live(after) }).await
            }
            Err(error) => Err(error),
        };
        let sent = match (written, published) {
            (Ok(()), Some(payload)) => self.live.publish(&channel, payload).await,
            (written, _) => written,
        };
        if let Err(error) = sent {
            tracing::warn!(id, %error, "live copy not updated; the journal stays the record");
            // Whatever the live store holds may now be behind: drop it so the next reader rebuilds.
            let _ = self.live.delete(&key).await;
        }
    }
}

enum Attempt<R> {
    Done(Result<R, ServiceError>),
    Failed(ServiceError),
    Again,
}

/// The refusal of a command whose client saw an older version.
pub fn stale<A: Aggregate>(id: &str, current: u64, expected: u64) -> ServiceError {
    ServiceError::Stale {
        message: format!(
            "{} {id} is at version {current}, not {expected}: another command came first; read the {} and try again",
            A::NAME,
            A::NAME
        ),
        current,
        expected,
    }
}

#[cfg(test)]
mod tests;
