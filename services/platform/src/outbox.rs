//! The one outbox worker: delivers the calls a service owes another (rows of `outbox`, written in
//! the transaction of the change that owes them) until the other service acknowledges them.
//!
//! - **Claiming.** A round claims the rows due with one statement that counts the attempt and
//!   moves the next one past a lease, so no other worker takes them while this one delivers. On
//!   Postgres the rows are picked `FOR UPDATE SKIP LOCKED`: several processes' workers share the
//!   rows due without waiting on one another. SQLite has one writer at a time, so its single
//!   statement is claim enough.
//! - **Delivering.** Different aggregates' rows are delivered side by side, one aggregate's rows
//!   in the order they were owed. The service's [`Courier`] makes the call and says how it went:
//!   acknowledged, refused for good (the row is closed with the reason: retrying cannot help), not
//!   now (tried again later), or settled by the courier itself (it closed the row in a
//!   transaction of its own, as appeals does when it records the ruling the call completed).
//! - **Backing off.** Each failure waits twice as long as the one before, up to a cap, with
//!   jitter, so that rows that failed together (the peer was away) do not come back together.
//! - **Dead letters.** After `max_attempts` failures a row is set aside (`dead_lettered_at`),
//!   logged as an error and counted (`outbox.dead_lettered`); an operator looks at `last_error`
//!   and, once the cause is fixed, clears the column to deliver it again.
//! - **Signals** ([`OutboxSignals`]). A change that owes a call wakes the worker at once, and the
//!   worker counts what it has delivered, so a command that needs one of its service's own calls
//!   to have arrived (a rubber's next deal, whose pad must show the deal before) waits for the
//!   next delivery instead of being refused and polling.
//! - **Retention.** Every `sweep_interval_ms` the worker deletes its delivered rows older than
//!   `keep_delivered_hours` and idempotency keys older than `keep_idempotency_hours`: a retry
//!   arrives within seconds or minutes, not weeks, and the table must not grow for ever.

use std::sync::{Arc, Weak};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, FixedOffset, Utc};
use sea_orm::sea_query::{Expr, LockBehavior, LockType, Query};
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use tracing::Instrument;

use crate::db::Db;
use crate::store::{idempotency_keys, outbox};

/// How a worker delivers (each service's `[<service>.outbox]` table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OutboxSettings {
    /// How often to look for rows due, in milliseconds, when nothing wakes the worker.
    pub poll_interval_ms: u64,
    /// The wait after the first failed attempt, in milliseconds; doubled after each failure.
    pub initial_backoff_ms: u64,
    /// The longest wait between attempts, in milliseconds.
    pub max_backoff_ms: u64,
    /// How long a claimed row stays with the worker that claimed it, in milliseconds.
    pub lease_ms: u64,
    /// Rows claimed per round.
    pub batch: u64,
    /// Failures after which a row is set aside as a dead letter.
    pub max_attempts: u32,
    /// How often to delete what is kept no longer, in milliseconds.
    pub sweep_interval_ms: u64,
    /// How long a delivered row is kept, in hours.
    pub keep_delivered_hours: u64,
    /// How long an idempotency key (and the answer stored with it) is kept, in hours.
    pub keep_idempotency_hours: u64,
}

impl Default for OutboxSettings {
    fn default() -> Self {
        OutboxSettings {
            poll_interval_ms: 1000,
            initial_backoff_ms: 250,
            max_backoff_ms: 30_000,
            lease_ms: 60_000,
            batch: 32,
            // With the default backoff, about a day and a half of trying.
            max_attempts: 5000,
            sweep_interval_ms: 3_600_000,
            keep_delivered_hours: 24 * 7,
            keep_idempotency_hours: 24 * 30,
        }
    }
}

impl OutboxSettings {
    /// The wait after the `failures`-th failure: doubling from the initial wait up to the cap,
    /// then between half of it and all of it, at random.
    pub fn backoff(&self, failures: u32) -> Duration {
        let doubling = failures.clamp(1, 20) - 1;
        let full = Ord::min(self.initial_backoff_ms.saturating_mul(1 << doubling), self.max_backoff_ms);
        let jittered = rand::random_range(full / 2..=full);
        Duration::from_millis(jittered)
    }
}

/// How one delivery went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// The peer took the call: the row is closed.
    Acknowledged,
    /// The peer refused it for good (retrying cannot help): the row is closed with the reason.
    Refused(String),
    /// Not now (the peer was away, or answered that it could not take it yet): tried again
    /// after the backoff.
    Retry(String),
    /// The courier closed the row, or noted its failure, itself.
    Settled,
}

/// How a worker and the commands around it signal each other (see the module docs). Clones share
/// them.
#[derive(Debug, Clone)]
pub struct OutboxSignals {
    owed: Arc<tokio::sync::Notify>,
    delivered: Arc<tokio::sync::watch::Sender<u64>>,
}

impl Default for OutboxSignals {
    fn default() -> Self {
        OutboxSignals {
            owed: Arc::new(tokio::sync::Notify::new()),
            delivered: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }
}

impl OutboxSignals {
    /// A change owes a call: the worker starts a round now rather than at its next poll.
    pub fn owed(&self) {
        self.owed.notify_one();
    }

    /// The count of rows the worker has delivered so far: `changed()` on it wakes after the next
    /// delivery. Subscribe before looking at what is still owed, so no delivery is missed.
    pub fn deliveries(&self) -> tokio::sync::watch::Receiver<u64> {
        self.delivered.subscribe()
    }

    fn delivered(&self, rows: u64) {
        self.delivered.send_modify(|count| *count += rows);
    }
}

/// Makes the calls of one service's rows.
#[async_trait]
pub trait Courier: Send + Sync + 'static {
    /// The service whose rows these are (`outbox.source`).
    fn source(&self) -> &'static str;

    /// Makes the call `row` owes.
    async fn deliver(&self, row: &outbox::Model) -> Delivery;
}

/// Now, as the database stores it.
fn now() -> DateTime<FixedOffset> {
    Utc::now().fixed_offset()
}

fn after(wait: Duration) -> DateTime<FixedOffset> {
    now() + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::MAX)
}

/// One service's worker (see the module docs).
pub struct Outbox<C: Courier> {
    db: Db,
    courier: C,
    settings: OutboxSettings,
    signals: OutboxSignals,
}

impl<C: Courier> Outbox<C> {
    /// A worker delivering `courier`'s rows from `db`.
    pub fn new(db: Db, courier: C, settings: OutboxSettings) -> Outbox<C> {
        Outbox { db, courier, settings, signals: OutboxSignals::default() }
    }

    /// The same worker, woken by and counting its deliveries on `signals` (shared with the
    /// service's commands).
    pub fn with_signals(mut self, signals: OutboxSignals) -> Outbox<C> {
        self.signals = signals;
        self
    }

    /// The courier that makes the calls.
    pub fn courier(&self) -> &C {
        &self.courier
    }

    /// Claims the rows due now (see the module docs).
    pub async fn claim(&self) -> Result<Vec<outbox::Model>, DbErr> {
        use sea_orm::sea_query::ExprTrait as _;
        let due = Query::select()
            .column(outbox::Column::Id)
            .from(outbox::Entity)
            .and_where(outbox::Column::Source.eq(self.courier.source()))
            .and_where(outbox::Column::DeliveredAt.is_null())
            .and_where(outbox::Column::DeadLetteredAt.is_null())
            .and_where(outbox::Column::NextAttemptAt.lte(now()))
            .order_by(outbox::Column::Id, sea_orm::Order::Asc)
            .limit(self.settings.batch)
            .lock_with_behavior(LockType::Update, LockBehavior::SkipLocked)
            .to_owned();
        outbox::Entity::update_many()
            .col_expr(outbox::Column::NextAttemptAt, Expr::value(after(Duration::from_millis(self.settings.lease_ms))))
            .col_expr(outbox::Column::Attempts, Expr::col(outbox::Column::Attempts).add(1))
            .filter(outbox::Column::Id.in_subquery(due))
            .exec_with_returning(&self.db)
            .await
    }

    /// Delivers every row due now; returns how many the peer acknowledged or the courier settled.
    ///
    /// One aggregate's rows go one after another, in the order they were owed; different
    /// aggregates' rows go side by side, so that one slow call (or a round of many tables'
    /// results at once) does not hold the others up.
    #[tracing::instrument(skip_all, fields(source = self.courier.source()))]
    pub async fn deliver_due(&self) -> Result<usize, DbErr> {
        let mut claimed = self.claim().await?;
        claimed.sort_by_key(|row| row.id);
        let mut by_aggregate: Vec<Vec<outbox::Model>> = Vec::new();
        let mut position = std::collections::HashMap::new();
        for row in claimed {
            let at = *position.entry(row.aggregate_id.clone()).or_insert_with(|| {
                by_aggregate.push(Vec::new());
                by_aggregate.len() - 1
            });
            by_aggregate[at].push(row);
        }
        let deliveries = by_aggregate.into_iter().map(|rows| async move {
            let mut delivered = 0;
            for row in rows {
                if self.deliver(&row).await? {
                    delivered += 1;
                }
            }
            Ok::<usize, DbErr>(delivered)
        });
        let mut delivered = 0;
        let mut failed = None;
        // As many at once as the round claimed (the `batch` setting).
        for outcome in futures::future::join_all(deliveries).await {
            match outcome {
                Ok(rows) => delivered += rows,
                // The row stays claimed until its lease runs out, and is delivered again then.
                Err(error) => failed = Some(error),
            }
        }
        failed.map_or(Ok(delivered), Err)
    }

    /// Makes one row's call and records how it went; `true` if it is now closed.
    async fn deliver(&self, row: &outbox::Model) -> Result<bool, DbErr> {
        // Under the trace of the request that owed the call: the peer's span joins it.
        let span = crate::telemetry::delivery_span(
            &row.topic,
            &row.aggregate_id,
            i64::from(row.attempts) + 1,
            row.trace_context.as_deref(),
        );
        match self.courier.deliver(row).instrument(span).await {
            Delivery::Acknowledged => close(&self.db, row, None).await?,
            Delivery::Refused(reason) => {
                tracing::warn!(outbox = row.id, topic = %row.topic, %reason, "the peer refused an owed call for good");
                close(&self.db, row, Some(format!("refused: {reason}"))).await?;
            }
            Delivery::Retry(reason) => {
                note_failure(&self.db, row, &reason, &self.settings).await?;
                return Ok(false);
            }
            Delivery::Settled => {}
        }
        // Told row by row: a command waiting for one of them goes on without waiting for the rest
        // of the round.
        self.signals.delivered(1);
        Ok(true)
    }

    /// Deletes delivered rows and idempotency keys older than the settings keep them.
    pub async fn sweep(&self) -> Result<(u64, u64), DbErr> {
        let hours = |h: u64| after(Duration::ZERO) - chrono::Duration::hours(i64::try_from(h).unwrap_or(i64::MAX / 4));
        let rows = outbox::Entity::delete_many()
            .filter(outbox::Column::Source.eq(self.courier.source()))
            .filter(outbox::Column::DeliveredAt.lt(hours(self.settings.keep_delivered_hours)))
            .exec(&self.db)
            .await?
            .rows_affected;
        let keys = idempotency_keys::Entity::delete_many()
            .filter(idempotency_keys::Column::CreatedAt.lt(hours(self.settings.keep_idempotency_hours)))
            .exec(&self.db)
            .await?
            .rows_affected;
        if rows + keys > 0 {
            tracing::info!(
                source = self.courier.source(),
                rows,
                keys,
                "old delivered rows and idempotency keys deleted"
            );
        }
        Ok((rows, keys))
    }
}

impl<C: Courier> Outbox<C> {
    /// Runs the worker until `owner` is dropped (the service was shut down): a round whenever its
    /// signals say a change owed a call or the poll interval passes, and a sweep every sweep
    /// interval.
    pub fn spawn<T: Send + Sync + 'static>(self, owner: Weak<T>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let poll = Duration::from_millis(self.settings.poll_interval_ms.max(1));
            let mut sweep = tokio::time::interval(Duration::from_millis(self.settings.sweep_interval_ms.max(1000)));
            sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                if owner.strong_count() == 0 {
                    return;
                }
                if let Err(error) = self.deliver_due().await {
                    tracing::warn!(source = self.courier.source(), %error, "outbox delivery round failed");
                }
                tokio::select! {
                    () = self.signals.owed.notified() => {}
                    () = tokio::time::sleep(poll) => {}
                    _ = sweep.tick() => {
                        if let Err(error) = self.sweep().await {
                            tracing::warn!(source = self.courier.source(), %error, "outbox sweep failed");
                        }
                    }
                }
            }
        })
    }
}

/// Closes `row`: delivered, with the refusal that ended it if it was refused.
async fn close(db: &Db, row: &outbox::Model, refusal: Option<String>) -> Result<(), DbErr> {
    outbox::Entity::update_many()
        .col_expr(outbox::Column::DeliveredAt, Expr::value(now()))
        .col_expr(outbox::Column::LastError, Expr::value(refusal))
        .filter(outbox::Column::Id.eq(row.id))
        .filter(outbox::Column::DeliveredAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Notes that the attempt `row.attempts` counts failed, and sets when to try again, or sets the
/// row aside as a dead letter once `max_attempts` attempts have been made. What a worker does
/// after a [`Delivery::Retry`] (its claim counted the attempt), and what a service that tries a
/// call within its request does when the call fails (it counts that attempt in `row` first).
pub async fn note_failure(db: &Db, row: &outbox::Model, reason: &str, settings: &OutboxSettings) -> Result<(), DbErr> {
    let failures = Ord::max(u32::try_from(row.attempts).unwrap_or(0), 1);
    let mut update = outbox::Entity::update_many()
        .col_expr(outbox::Column::Attempts, Expr::value(Ord::max(row.attempts, 1)))
        .col_expr(outbox::Column::LastError, Expr::value(reason.to_owned()))
        .filter(outbox::Column::Id.eq(row.id))
        .filter(outbox::Column::DeliveredAt.is_null());
    if failures >= settings.max_attempts {
        // Due at once, should an operator clear the dead letter.
        update = update
            .col_expr(outbox::Column::DeadLetteredAt, Expr::value(now()))
            .col_expr(outbox::Column::NextAttemptAt, Expr::value(now()));
        tracing::error!(outbox = row.id, topic = %row.topic, aggregate = %row.aggregate_id, failures, %reason, "owed call set aside as a dead letter");
        opentelemetry::global::meter("bridge-club")
            .u64_counter("outbox.dead_lettered")
            .with_description("Owed calls set aside after failing too often")
            .build()
            .add(1, &[opentelemetry::KeyValue::new("topic", row.topic.clone())]);
    } else {
        update = update.col_expr(outbox::Column::NextAttemptAt, Expr::value(after(settings.backoff(failures))));
        tracing::warn!(outbox = row.id, topic = %row.topic, aggregate = %row.aggregate_id, failures, %reason, "owed call not delivered; will retry");
    }
    update.exec(db).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use sea_orm::{ActiveValue::NotSet, Set};

    use super::*;

    /// Answers each delivery with the next of its scripted answers (the last one for ever).
    struct Scripted {
        answers: Mutex<Vec<Delivery>>,
    }

    #[async_trait]
    impl Courier for Scripted {
        fn source(&self) -> &'static str {
            "test"
        }

        async fn deliver(&self, _row: &outbox::Model) -> Delivery {
            let mut answers = self.answers.lock().unwrap();
            if answers.len() > 1 { answers.remove(0) } else { answers[0].clone() }
        }
    }

    async fn database() -> (Db, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("bc-outbox-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
        (crate::db::connect_and_migrate(&url).await.unwrap(), dir)
    }

    async fn owe(db: &Db, source: &str, at: DateTime<FixedOffset>) -> i64 {
        let row = outbox::ActiveModel {
            id: NotSet,
            source: Set(source.to_owned()),
            topic: Set("peer.Call".to_owned()),
            aggregate_id: Set("deal-1".to_owned()),
            payload: Set(Vec::new()),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set(at),
            created_at: Set(at),
            delivered_at: Set(None),
            trace_context: Set(None),
            dead_lettered_at: Set(None),
        };
        outbox::Entity::insert(row).exec(db).await.unwrap().last_insert_id
    }

    async fn row(db: &Db, id: i64) -> outbox::Model {
        outbox::Entity::find_by_id(id).one(db).await.unwrap().unwrap()
    }

    fn worker(db: &Db, answers: Vec<Delivery>, settings: OutboxSettings) -> Outbox<Scripted> {
        Outbox::new(db.clone(), Scripted { answers: Mutex::new(answers) }, settings)
    }

    /// Failures are due again at once, so that a test needs no waiting.
    fn at_once(max_attempts: u32) -> OutboxSettings {
        OutboxSettings { initial_backoff_ms: 0, max_backoff_ms: 0, max_attempts, ..Default::default() }
    }

    #[test]
    fn the_backoff_doubles_to_its_cap_with_jitter_below_it() {
        let settings = OutboxSettings { initial_backoff_ms: 100, max_backoff_ms: 1000, ..Default::default() };
        for _ in 0..50 {
            let waits: Vec<u64> = (1..=6).map(|n| settings.backoff(n).as_millis() as u64).collect();
            for (wait, full) in waits.iter().zip([100, 200, 400, 800, 1000, 1000]) {
                assert!((full / 2..=full).contains(wait), "{waits:?}");
            }
            assert!(settings.backoff(u32::MAX).as_millis() <= 1000);
        }
    }

    #[tokio::test]
    async fn a_row_is_retried_until_acknowledged_and_a_claimed_row_is_not_claimed_again() {
        let (db, dir) = database().await;
        let id = owe(&db, "test", now()).await;
        let other = owe(&db, "other-service", now()).await;
        let outbox = worker(&db, vec![Delivery::Retry("peer away".into()), Delivery::Acknowledged], at_once(10));
        assert_eq!(outbox.deliver_due().await.unwrap(), 0);
        let failed = row(&db, id).await;
        assert_eq!((failed.attempts, failed.last_error.as_deref()), (1, Some("peer away")));
        assert!(failed.delivered_at.is_none());
        assert_eq!(outbox.deliver_due().await.unwrap(), 1);
        let delivered = row(&db, id).await;
        assert!(delivered.delivered_at.is_some() && delivered.last_error.is_none(), "{delivered:?}");
        assert_eq!(delivered.attempts, 2, "every attempt counts, the successful one too");
        assert!(row(&db, other).await.delivered_at.is_none(), "another service's rows are its own");
        // A row claimed by one worker is leased: another worker does not take it meanwhile.
        let leased = owe(&db, "test", now()).await;
        assert_eq!(outbox.claim().await.unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [leased]);
        assert!(outbox.claim().await.unwrap().is_empty());
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn each_delivered_row_is_counted_on_the_signals_and_a_failure_is_not() {
        let (db, dir) = database().await;
        let signals = OutboxSignals::default();
        let mut deliveries = signals.deliveries();
        for _ in 0..2 {
            owe(&db, "test", now()).await;
        }
        let answers = vec![Delivery::Retry("peer away".into()), Delivery::Acknowledged];
        let outbox = worker(&db, answers, at_once(10)).with_signals(signals.clone());
        assert_eq!(outbox.deliver_due().await.unwrap(), 1);
        assert!(deliveries.has_changed().unwrap(), "a waiter wakes once a row is delivered");
        assert_eq!(*deliveries.borrow_and_update(), 1, "the failed row is not counted");
        assert_eq!(outbox.deliver_due().await.unwrap(), 1);
        assert_eq!(*deliveries.borrow_and_update(), 2);
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Holds the first row of aggregate "a" until a row of aggregate "b" has started, and notes
    /// when each call starts and ends.
    struct Gate {
        b_started: tokio::sync::Notify,
        calls: Mutex<Vec<String>>,
    }

    #[async_trait]
    impl Courier for Gate {
        fn source(&self) -> &'static str {
            "test"
        }

        async fn deliver(&self, row: &outbox::Model) -> Delivery {
            let name = format!("{}{}", row.aggregate_id, row.id);
            self.calls.lock().unwrap().push(format!("start {name}"));
            if row.aggregate_id == "b" {
                self.b_started.notify_one();
            } else if self.calls.lock().unwrap().len() == 1 {
                // Delivered one at a time, "b" would never start while "a" waits here.
                let waited = tokio::time::timeout(Duration::from_secs(30), self.b_started.notified()).await;
                if waited.is_err() {
                    return Delivery::Retry("b never started while a was being delivered".into());
                }
            }
            self.calls.lock().unwrap().push(format!("end {name}"));
            Delivery::Acknowledged
        }
    }

    #[tokio::test]
    async fn different_aggregates_rows_go_side_by_side_and_one_aggregates_in_order() {
        let (db, dir) = database().await;
        let mut owed = Vec::new();
        for aggregate in ["a", "a", "b"] {
            let id = owe(&db, "test", now()).await;
            outbox::Entity::update_many()
                .col_expr(outbox::Column::AggregateId, Expr::value(aggregate))
                .filter(outbox::Column::Id.eq(id))
                .exec(&db)
                .await
                .unwrap();
            owed.push(id);
        }
        let gate = Gate { b_started: tokio::sync::Notify::new(), calls: Mutex::new(Vec::new()) };
        let outbox = Outbox::new(db.clone(), gate, at_once(10));
        assert_eq!(outbox.deliver_due().await.unwrap(), 3);
        let calls = outbox.courier().calls.lock().unwrap().clone();
        let (a1, a2, b) = (format!("a{}", owed[0]), format!("a{}", owed[1]), format!("b{}", owed[2]));
        let at = |call: String| calls.iter().position(|c| *c == call).unwrap_or_else(|| panic!("{call}: {calls:?}"));
        assert!(at(format!("start {b}")) < at(format!("end {a1}")), "b went while a's first was out: {calls:?}");
        assert!(at(format!("end {a1}")) < at(format!("start {a2}")), "a's rows went in order: {calls:?}");
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn a_refusal_closes_the_row_with_its_reason() {
        let (db, dir) = database().await;
        let id = owe(&db, "test", now()).await;
        let outbox = worker(&db, vec![Delivery::Refused("FailedPrecondition: pad ended".into())], at_once(10));
        assert_eq!(outbox.deliver_due().await.unwrap(), 1);
        let closed = row(&db, id).await;
        assert!(closed.delivered_at.is_some());
        assert_eq!(closed.last_error.as_deref(), Some("refused: FailedPrecondition: pad ended"));
        assert!(outbox.claim().await.unwrap().is_empty());
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn a_row_that_keeps_failing_becomes_a_dead_letter_and_is_not_tried_again() {
        let (db, dir) = database().await;
        let id = owe(&db, "test", now()).await;
        let outbox = worker(&db, vec![Delivery::Retry("peer refuses".into())], at_once(3));
        for _ in 0..3 {
            assert_eq!(outbox.deliver_due().await.unwrap(), 0);
        }
        let dead = row(&db, id).await;
        assert_eq!(dead.attempts, 3);
        assert!(dead.dead_lettered_at.is_some() && dead.delivered_at.is_none(), "{dead:?}");
        assert!(outbox.claim().await.unwrap().is_empty(), "a dead letter is not claimed");
        // An operator clears it once the cause is fixed: it is delivered again.
        outbox::Entity::update_many()
            .col_expr(outbox::Column::DeadLetteredAt, Expr::value(Option::<DateTime<FixedOffset>>::None))
            .exec(&db)
            .await
            .unwrap();
        assert_eq!(outbox.claim().await.unwrap().len(), 1);
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    async fn the_sweep_deletes_only_what_is_past_its_retention() {
        let (db, dir) = database().await;
        let settings = OutboxSettings { keep_delivered_hours: 24, keep_idempotency_hours: 48, ..Default::default() };
        let old = now() - chrono::Duration::hours(72);
        let (delivered_long_ago, delivered_now, pending_long_ago) =
            (owe(&db, "test", old).await, owe(&db, "test", now()).await, owe(&db, "test", old).await);
        for (id, at) in [(delivered_long_ago, old), (delivered_now, now())] {
            outbox::Entity::update_many()
                .col_expr(outbox::Column::DeliveredAt, Expr::value(at))
                .filter(outbox::Column::Id.eq(id))
                .exec(&db)
                .await
                .unwrap();
        }
        for (key, at) in [("old", old), ("new", now())] {
            let stored = idempotency_keys::ActiveModel {
                scope: Set("game/t1/p1".into()),
                key: Set(key.into()),
                request_hash: Set("h".into()),
                response: Set(Vec::new()),
                created_at: Set(at.to_utc()),
            };
            idempotency_keys::Entity::insert(stored).exec(&db).await.unwrap();
        }
        let outbox = worker(&db, vec![Delivery::Acknowledged], settings);
        assert_eq!(outbox.sweep().await.unwrap(), (1, 1));
        let left: Vec<i64> = outbox::Entity::find().all(&db).await.unwrap().iter().map(|r| r.id).collect();
        assert_eq!(left, [delivered_now, pending_long_ago], "an undelivered row is kept however old");
        let keys: Vec<String> =
            idempotency_keys::Entity::find().all(&db).await.unwrap().into_iter().map(|k| k.key).collect();
        assert_eq!(keys, ["new"]);
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
}
