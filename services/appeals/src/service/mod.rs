//! The appeals service's commands: recording a ruling, filing, withdrawing, hearing and deciding an
//! appeal, and publishing the appeal policy. Bridge questions (who may appeal, until when, what
//! the committee may change) are the laws crate's ([`laws::appeals`]); how a decision rescores a
//! deal is the scoring service's, which applies it with [`laws::rulings`].
//!
//! # Never half-applied
//!
//! A command that changes only this service's records runs in one transaction with its notice and
//! its stored answer. A ruling with an adjusted score, and a decision that changes the score, also
//! owe the scoring service a call (`ApplyAdjustment`), so they go in two steps (see
//! [`crate::delivery`]): the ruling is written as pending, or the decision is parked on the
//! appeal, together with an outbox row, in one transaction; then the call is made, and a second
//! transaction records the ruling or the decision with the score version it made, adds the notice
//! and stores the answer. If the scoring service refuses (the adjustment is malformed or does not
//! fit the score), the pending ruling is dropped or the parked decision cleared, and the caller
//! gets the refusal; if it cannot be reached, the caller gets UNAVAILABLE and the background worker
//! delivers it later (a retry with the same idempotency key resumes it). `ApplyAdjustment` is
//! idempotent by ruling and appeal id, so a call made twice changes the score once.
//!
//! Split by concern: recording a ruling (`rulings`), filing and withdrawing an appeal
//! (`filing`), the committee's hearing and decision (`committee`), the Director in charge's hearing
//! and decision without a committee (`director`, Law 93A), his review before the committee and a
//! further appeal beyond the club (`review`, Laws 93B1 and 93C), publishing the policy
//! (`policy`), and the rows they all read and write (`rows`). This module keeps the service's
//! state and the checks of a request that every command shares.

mod committee;
mod conflicts;
mod director;
mod filing;
mod game_committee;
mod panel;
mod policy;
mod review;
mod roster;
mod rows;
mod rulings;

use std::collections::HashSet;

use futures::future::BoxFuture;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use platform::ServiceError;
use platform::auth::{Principal, Role};
use platform::db::Db;
use platform::live::SharedLiveStore;
use platform::outbox::OutboxSettings;

use platform::runtime::{Decision, Expected, Idempotency, Runtime};

use crate::book::{BOOK, Book};
use crate::scoring::ScoreKeeper;
use crate::store;

/// How many times a command is decided when other commands keep adding notices first.
const BOOK_ATTEMPTS: u32 = 16;

/// A command's idempotency under the appeals service's scopes and request hashes.
pub(crate) fn idempotency(scope: String, key: &str, request_hash: String) -> Idempotency {
    Idempotency { scope, key: key.to_owned(), request_hash }
}

/// The appeals service's state: its database, its live channel, the command runtime its book
/// runs on ([`crate::book`]), and the scoring service.
pub struct Appeals {
    pub(crate) db: Db,
    pub(crate) live: SharedLiveStore,
    pub(crate) book: Runtime<Book>,
    pub(crate) scoring: Arc<dyn ScoreKeeper>,
    /// How long a fresh outbox row waits before the background worker may try it, so that the
    /// request that wrote it normally delivers it itself.
    pub(crate) worker_grace: Duration,
    /// Committee principals already recorded, so that their calls do not write every time.
    committee_seen: Mutex<HashSet<String>>,
    /// How long a watch stream stays quiet before it sends a heartbeat.
    pub(crate) heartbeat: Duration,
    /// How the outbox worker, and a request that delivers its own call, treat failures.
    pub(crate) outbox: OutboxSettings,
    /// Membership and the game service, for the committee roster and a game's own committee.
    pub(crate) owners: Arc<dyn crate::owners::Owners>,
}

/// The appeals service's outbox settings unless configured: a call that failed within its
/// request waits 2 seconds before the worker tries it again, doubling up to five minutes.
pub fn outbox_defaults() -> OutboxSettings {
    OutboxSettings { poll_interval_ms: 5000, initial_backoff_ms: 2000, max_backoff_ms: 300_000, ..Default::default() }
}

impl std::fmt::Debug for Appeals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appeals").finish_non_exhaustive()
    }
}

/// Whether `principal` sees every ruling, appeal and notice: the desk, the arbiters, the committee
/// and the administration. A player sees those about deals they played.
pub fn sees_everything(principal: &Principal) -> bool {
    principal.has_any(&[Role::Desk, Role::Arbiter, Role::Committee, Role::Admin])
}

fn require_key(key: &str) -> Result<&str, ServiceError> {
    if key.trim().is_empty() {
        Err(ServiceError::invalid("idempotency_key", "required: choose one per command and reuse it on retries"))
    } else if key.len() > 200 {
        Err(ServiceError::invalid("idempotency_key", "at most 200 characters"))
    } else {
        Ok(key)
    }
}

/// A check made in the transaction of the write it guards, after it took whatever lock keeps a
/// concurrent write from passing the same check ([`insert_once`]).
type Guard =
    Box<dyn for<'t> FnOnce(&'t sea_orm::DatabaseTransaction) -> BoxFuture<'t, Result<(), ServiceError>> + Send>;

/// An administrator's insert made once per idempotency key: the row and the first answer are
/// written in one transaction (with `guard`'s check, if any), and a retry under the same key (or
/// one that lost the race to the first) gets that answer back without a second row. Without a key
/// no answer is kept.
#[allow(clippy::too_many_arguments)]
async fn insert_once<R, A>(
    db: &Db,
    method: &str,
    principal: &Principal,
    key: &str,
    request: &impl prost::Message,
    row: A,
    answer: R,
    guard: Option<Guard>,
) -> Result<R, ServiceError>
where
    R: prost::Message + Default,
    A: sea_orm::ActiveModelTrait + sea_orm::ActiveModelBehavior + Send,
    <A::Entity as sea_orm::EntityTrait>::Model: sea_orm::IntoActiveModel<A>,
{
    use sea_orm::{EntityTrait, TransactionTrait};
    let once = if key.is_empty() {
        None
    } else {
        let key = require_key(key)?;
        let scope = format!("appeals.{method}/{}", principal.subject);
        let hash = crate::records::request_hash(request);
        if let Some(first) = store::stored_response(db, &scope, key, &hash).await? {
            return Ok(first);
        }
        Some((scope, key, hash))
    };
    let written = async {
        let txn = db.begin().await?;
        if let Some(guard) = guard {
            guard(&txn).await?;
        }
        <A::Entity as EntityTrait>::insert(row).exec_without_returning(&txn).await?;
        if let Some((scope, key, hash)) = &once {
            platform::store::store_response(&txn, scope, key, hash, &answer).await?;
        }
        txn.commit().await?;
        Ok::<(), ServiceError>(())
    }
    .await;
    match (written, &once) {
        (Ok(()), _) => Ok(answer),
        // A retry that raced the first attempt: the first one's answer stands.
        (Err(error), Some((scope, key, hash))) => store::stored_response(db, scope, key, hash).await?.ok_or(error),
        (Err(error), None) => Err(error),
    }
}

fn required_text<'a>(field: &str, value: &'a str, what: &str) -> Result<&'a str, ServiceError> {
    let value = value.trim();
    if value.is_empty() { Err(ServiceError::invalid(field, format!("required: {what}"))) } else { Ok(value) }
}

/// Whether a ruling decision is an adjusted score, and the adjustment if so. A decision with
/// nothing set, or an adjusted score of no kind, is refused naming the field.
fn adjustment_of(
    field: &str,
    decision: Option<&pb::RulingDecision>,
) -> Result<Option<common::Adjustment>, ServiceError> {
    use pb::ruling_decision::Decision;
    match decision.and_then(|d| d.decision.as_ref()) {
        None => Err(ServiceError::invalid(field, "a rectification, result stands or an adjusted score is required")),
        Some(Decision::AdjustedScore(adjustment)) if adjustment.kind.is_none() => Err(ServiceError::invalid(
            &format!("{field}.adjusted_score"),
            "assigned, weighted, artificial or split is required",
        )),
        Some(Decision::AdjustedScore(adjustment)) => Ok(Some(adjustment.clone())),
        Some(Decision::Rectification(_) | Decision::ResultStands(_)) => Ok(None),
    }
}

impl Appeals {
    /// The service over `db`, `live` and `scoring`.
    pub fn new(db: Db, live: SharedLiveStore, scoring: Arc<dyn ScoreKeeper>, worker_grace: Duration) -> Appeals {
        Appeals {
            book: Runtime::new(db.clone(), live.clone(), Book),
            db,
            live,
            scoring,
            worker_grace,
            committee_seen: Mutex::new(HashSet::new()),
            heartbeat: platform::watch::DEFAULT_HEARTBEAT,
            outbox: outbox_defaults(),
            owners: Arc::new(crate::owners::Unconfigured),
        }
    }

    /// The same service, asking `owners` about players, rubbers and deals (the committee roster,
    /// declared conflicts, a game's own committee).
    pub fn with_owners(mut self, owners: Arc<dyn crate::owners::Owners>) -> Appeals {
        self.owners = owners;
        self
    }

    /// The same service, its owed calls delivered with `settings`.
    pub fn with_outbox(mut self, settings: OutboxSettings) -> Appeals {
        self.outbox = settings;
        self
    }

    /// The same service, its watch streams sending a heartbeat after `heartbeat` of quiet.
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> Appeals {
        self.heartbeat = heartbeat;
        self
    }

    /// Runs a command on the book ([`crate::book`]): decided on the book as it stands, and again
    /// (a bounded number of times) when another command added a notice first.
    pub(crate) async fn on_book<R, D>(
        &self,
        idempotency: Option<&Idempotency>,
        decide: impl FnMut(u64) -> D,
    ) -> Result<R, ServiceError>
    where
        R: prost::Message + Default,
        D: std::future::Future<Output = Result<Decision<Book, R>, ServiceError>>,
    {
        self.book.execute(BOOK, Expected::Latest { attempts: BOOK_ATTEMPTS }, idempotency, decide).await
    }

    /// Records that a principal with the committee role called, so that others may name them as
    /// a member of a hearing or decision.
    pub async fn note_committee_member(&self, principal: &Principal) -> Result<(), ServiceError> {
        if !principal.has(Role::Committee) {
            return Ok(());
        }
        if self.committee_seen.lock().unwrap_or_else(|e| e.into_inner()).contains(&principal.subject) {
            return Ok(());
        }
        store::note_committee_member(&self.db, &principal.subject).await?;
        self.committee_seen.lock().unwrap_or_else(|e| e.into_inner()).insert(principal.subject.clone());
        Ok(())
    }
}
