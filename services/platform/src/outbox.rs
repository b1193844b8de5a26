//! The one outbox worker: delivers the calls a service owes another (rows of `outbox`, written in
//! the transaction of the change that owes them) until the other service acknowledges them.
//!
//! - **Claiming.** A round claims the rows due with one statement that counts the attempt and
//!   moves the next one past a lease, so no other worker takes them while this one delivers. On
//!   Postgres the rows are picked `FOR UPDATE SKIP LOCKED`: several processes' workers share the
//!   rows due without waiting on one another. SQLite has one writer at a time, so its single
//!   statement is claim enough.
//! - **Delivering.** Different aggregates' rows are delivered side by side, one aggregate's rows
//!   in the order they were owed ([`in_flight`]). The running worker claims again whenever a change
//!   owes a call, while earlier deliveries are still out: a result owed a moment after a claim
//!   does not wait for the slowest call of that claim (a rubber's next deal waits for it). The
//!   service's [`Courier`] makes the call and says how it went: acknowledged, refused for good
//!   (the row is closed with the reason: retrying cannot help), not now (tried again later), or
//!   settled by the courier itself (it closed the row in a transaction of its own, as appeals
//!   does when it records the ruling the call completed).
//! - **Backing off.** Each failure waits twice as long as the one before, up to a cap, with
//!   jitter, so that rows that failed together (the peer was away) do not come back together.
//! - **Dead letters.** After `max_attempts` failures a row is set aside (`dead_lettered_at`),
//!   logged as an error and counted (`outbox.dead_lettered`); an operator looks at `last_error`
//!   and, once the cause is fixed, clears the column to deliver it again.
//! - **Signals** ([`OutboxSignals`]). A change that owes a call wakes the worker at once, and the
//!   worker tells which aggregate each delivered row was owed for, so a command that needs one of
//!   its service's own calls to have arrived (a rubber's next deal, whose pad must show the deal
//!   before) waits for that delivery instead of being refused and polling, and is not woken by
//!   every other table's.
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

mod in_flight;

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
    /// How often the backlog is measured for the metrics ([`Backlog`]), in milliseconds.
    pub measure_interval_ms: u64,
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
            measure_interval_ms: 15_000,
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
    delivered: tokio::sync::broadcast::Sender<Arc<str>>,
}

/// Deliveries told and not yet seen before a waiter counts as having missed some (and looks
/// again at what it waits for).
const DELIVERIES_KEPT: usize = 1024;

impl Default for OutboxSignals {
    fn default() -> Self {
        OutboxSignals {
            owed: Arc::new(tokio::sync::Notify::new()),
            delivered: tokio::sync::broadcast::Sender::new(DELIVERIES_KEPT),
        }
    }
}

impl OutboxSignals {
    /// A change owes a call: the worker claims it now rather than at its next poll.
    pub fn owed(&self) {
        self.owed.notify_one();
    }

    /// The rows the worker delivers from now on. Subscribe before looking at what is still owed,
    /// so no delivery is missed.
    pub fn deliveries(&self) -> Deliveries {
        Deliveries(self.delivered.subscribe())
    }

    fn delivered(&self, aggregate_id: &str) {
        // No one waiting is the usual case, and not an error.
        if self.delivered.receiver_count() > 0 {
            let _ = self.delivered.send(Arc::from(aggregate_id));
        }
    }
}

/// The rows a worker delivers, as [`OutboxSignals::deliveries`] tells them.
#[derive(Debug)]
pub struct Deliveries(tokio::sync::broadcast::Receiver<Arc<str>>);

/// The worker has stopped: nothing more will be delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerStopped;

impl Deliveries {
    /// Waits until a row owed for `aggregate_id` has been delivered, or until deliveries were
    /// told faster than this waiter saw them (one of them may have been its own): either way the
    /// caller looks again at what is still owed.
    pub async fn of(&mut self, aggregate_id: &str) -> Result<(), WorkerStopped> {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match self.0.recv().await {
                Ok(delivered) if &*delivered == aggregate_id => return Ok(()),
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => return Ok(()),
                Err(RecvError::Closed) => return Err(WorkerStopped),
            }
        }
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

    /// Claims at most `limit` of the rows due now, in the order they were owed (see the module
    /// docs).
    pub async fn claim(&self, limit: u64) -> Result<Vec<outbox::Model>, DbErr> {
        use sea_orm::sea_query::ExprTrait as _;
        let due = Query::select()
            .column(outbox::Column::Id)
            .from(outbox::Entity)
            .and_where(outbox::Column::Source.eq(self.courier.source()))
            .and_where(outbox::Column::DeliveredAt.is_null())
            .and_where(outbox::Column::DeadLetteredAt.is_null())
            .and_where(outbox::Column::NextAttemptAt.lte(now()))
            .order_by(outbox::Column::Id, sea_orm::Order::Asc)
            .limit(limit)
            .lock_with_behavior(LockType::Update, LockBehavior::SkipLocked)
            .to_owned();
        outbox::Entity::update_many()
            .col_expr(outbox::Column::NextAttemptAt, Expr::value(after(Duration::from_millis(self.settings.lease_ms))))
            .col_expr(outbox::Column::Attempts, Expr::col(outbox::Column::Attempts).add(1))
            .filter(outbox::Column::Id.in_subquery(due))
            .exec_with_returning(&self.db)
            .await
            .map(|mut rows| {
                rows.sort_by_key(|row| row.id);
                rows
            })
    }

    /// Delivers every row due now, and waits for the last of them; returns how many the peer
    /// acknowledged or the courier settled. One aggregate's rows go one after another, in the
    /// order they were owed; different aggregates' rows go side by side ([`in_flight`]).
    #[tracing::instrument(skip_all, fields(source = self.courier.source()))]
    pub async fn deliver_due(&self) -> Result<usize, DbErr> {
        let mut in_flight = in_flight::InFlight::new(self);
        in_flight.add(self.claim(self.settings.batch).await?, &tracing::Span::current());
        let (mut delivered, mut failed) = (0, None);
        while let Some(outcome) = in_flight.next().await {
            match outcome {
                Ok(true) => delivered += 1,
                Ok(false) => {}
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
        // Told row by row: a command waiting for one of them goes on at once.
        self.signals.delivered(&row.aggregate_id);
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

/// What an outbox still owes, for the metrics an operator watches: a backlog that grows, or an
/// oldest row that keeps ageing, means a peer is away or refusing; dead letters wait for a person.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Rows not yet delivered (nor set aside).
    pub owed: u64,
    /// How long the oldest of them has waited (zero when none waits).
    pub oldest_age: Duration,
    /// Rows set aside after `max_attempts` failures, not cleared yet.
    pub dead_letters: u64,
}

impl<C: Courier> Outbox<C> {
    /// Measures this worker's source's backlog (three indexed reads).
    pub async fn backlog(&self) -> Result<Backlog, DbErr> {
        use sea_orm::{PaginatorTrait, QueryOrder, QuerySelect};
        let source = self.courier.source();
        let waiting = || {
            outbox::Entity::find()
                .filter(outbox::Column::Source.eq(source))
                .filter(outbox::Column::DeliveredAt.is_null())
        };
        let owed = waiting().filter(outbox::Column::DeadLetteredAt.is_null()).count(&self.db).await?;
        let oldest: Option<DateTime<FixedOffset>> = waiting()
            .filter(outbox::Column::DeadLetteredAt.is_null())
            .select_only()
            .column(outbox::Column::CreatedAt)
            .order_by_asc(outbox::Column::CreatedAt)
            .into_tuple()
            .one(&self.db)
            .await?;
        let dead_letters = waiting().filter(outbox::Column::DeadLetteredAt.is_not_null()).count(&self.db).await?;
        let oldest_age = oldest.map_or(Duration::ZERO, |at| (now() - at).to_std().unwrap_or(Duration::ZERO));
        Ok(Backlog { owed, oldest_age, dead_letters })
    }

    /// Reports the backlog as the gauges `outbox.owed`, `outbox.oldest_age_seconds` and
    /// `outbox.dead_letters` (labelled with the source), measured every `measure_interval_ms`
    /// while `owner` lives.
    fn report<T: Send + Sync + 'static>(self: &Arc<Self>, owner: Weak<T>) {
        use std::sync::atomic::{AtomicU64, Ordering};
        let measured: Arc<[AtomicU64; 3]> = Arc::new(Default::default());
        let source = opentelemetry::KeyValue::new("source", self.courier.source());
        for (index, name, description) in [
            (0, "outbox.owed", "calls owed to another service, not yet delivered"),
            (1, "outbox.oldest_age_seconds", "seconds the oldest undelivered call has waited"),
            (2, "outbox.dead_letters", "calls set aside after too many failures, waiting for an operator"),
        ] {
            let weak = Arc::downgrade(&measured);
            crate::telemetry::observe_gauge_with(name, description, vec![source.clone()], move || {
                Some(weak.upgrade()?[index].load(Ordering::Relaxed))
            });
        }
        let outbox = Arc::downgrade(self);
        let every = Duration::from_millis(self.settings.measure_interval_ms.max(1000));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let (Some(outbox), true) = (outbox.upgrade(), owner.strong_count() > 0) else { return };
                match outbox.backlog().await {
                    Ok(backlog) => {
                        measured[0].store(backlog.owed, Ordering::Relaxed);
                        measured[1].store(backlog.oldest_age.as_secs(), Ordering::Relaxed);
                        measured[2].store(backlog.dead_letters, Ordering::Relaxed);
                    }
                    Err(error) => tracing::debug!(source = outbox.courier.source(), %error, "outbox not measured"),
                }
            }
        });
    }
}

impl<C: Courier> Outbox<C> {
    /// Runs the worker until `owner` is dropped (the service was shut down): it claims whenever
    /// its signals say a change owed a call or the poll interval passes, keeping at most `batch`
    /// rows out at once, and sweeps every sweep interval.
    pub fn spawn<T: Send + Sync + 'static>(self, owner: Weak<T>) -> tokio::task::JoinHandle<()> {
        let outbox = Arc::new(self);
        outbox.report(owner.clone());
        tokio::spawn(async move { outbox.run(owner).await })
    }

    async fn run<T>(&self, owner: Weak<T>) {
        let source = self.courier.source();
        let mut poll = tokio::time::interval(Duration::from_millis(self.settings.poll_interval_ms.max(1)));
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut sweep = tokio::time::interval(Duration::from_millis(self.settings.sweep_interval_ms.max(1000)));
        sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let batch = usize::try_from(self.settings.batch.max(1)).unwrap_or(usize::MAX);
        let mut in_flight = in_flight::InFlight::new(self);
        // Whether rows may be due that are not claimed yet.
        let mut look = true;
        loop {
            if owner.strong_count() == 0 {
                return;
            }
            // Claims wait until half the batch is free: under a backlog, a claim per ended call
            // would double the worker's statements just when the database is busiest.
            let room = batch.saturating_sub(in_flight.held());
            if look && room >= batch.div_ceil(2) {
                // The span each delivery of this claim links (the trace it continues is the
                // request's that owed the call).
                let claim = tracing::info_span!("outbox.claim", source);
                match self.claim(room as u64).instrument(claim.clone()).await {
                    Ok(rows) => {
                        // A full claim may have left rows due: look again when there is room.
                        look = rows.len() == room;
                        in_flight.add(rows, &claim);
                    }
                    Err(error) => {
                        look = false;
                        tracing::warn!(source, %error, "claiming owed calls failed");
                    }
                }
            }
            tokio::select! {
                Some(outcome) = in_flight.next(), if in_flight.held() > 0 => {
                    if let Err(error) = outcome {
                        let retried = "recording a delivery failed; the row is tried again after its lease";
                        tracing::warn!(source, %error, "{retried}");
                    }
                }
                () = self.signals.owed.notified() => look = true,
                _ = poll.tick() => look = true,
                _ = sweep.tick() => {
                    if let Err(error) = self.sweep().await {
                        tracing::warn!(source, %error, "outbox sweep failed");
                    }
                }
            }
        }
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
mod tests;
