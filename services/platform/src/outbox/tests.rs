//! The worker on an SQLite file of its own, with scripted couriers.

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
    assert_eq!(outbox.claim(32).await.unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [leased]);
    assert!(outbox.claim(32).await.unwrap().is_empty());
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

/// Owes a row for `aggregate`, due now.
async fn owe_for(db: &Db, aggregate: &str) -> i64 {
    let id = owe(db, "test", now()).await;
    outbox::Entity::update_many()
        .col_expr(outbox::Column::AggregateId, Expr::value(aggregate))
        .filter(outbox::Column::Id.eq(id))
        .exec(db)
        .await
        .unwrap();
    id
}

#[tokio::test]
async fn each_delivered_row_is_told_with_its_aggregate_and_a_failure_is_not() {
    let (db, dir) = database().await;
    let signals = OutboxSignals::default();
    let mut deliveries = signals.deliveries();
    owe_for(&db, "deal-1").await;
    owe_for(&db, "deal-2").await;
    let answers = vec![Delivery::Retry("peer away".into()), Delivery::Acknowledged];
    let outbox = worker(&db, answers, at_once(10)).with_signals(signals.clone());
    assert_eq!(outbox.deliver_due().await.unwrap(), 1, "deal-1's row failed, deal-2's went");
    assert_eq!(deliveries.0.try_recv().unwrap().as_ref(), "deal-2", "only the delivered row is told");
    assert!(deliveries.0.try_recv().is_err());
    assert_eq!(outbox.deliver_due().await.unwrap(), 1);
    // A waiter for deal-1 wakes for its row and not for another's.
    assert_eq!(deliveries.of("deal-1").await, Ok(()));
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

/// Holds every row of aggregate "slow" until told to let it go, and notes when each call starts
/// and ends.
struct Held {
    go: tokio::sync::Semaphore,
    calls: Mutex<Vec<String>>,
}

#[async_trait]
impl Courier for std::sync::Arc<Held> {
    fn source(&self) -> &'static str {
        "test"
    }

    async fn deliver(&self, row: &outbox::Model) -> Delivery {
        let name = format!("{}{}", row.aggregate_id, row.id);
        self.calls.lock().unwrap().push(format!("start {name}"));
        if row.aggregate_id == "slow" {
            self.go.acquire().await.unwrap().forget();
        }
        self.calls.lock().unwrap().push(format!("end {name}"));
        Delivery::Acknowledged
    }
}

#[tokio::test]
async fn the_running_worker_claims_a_new_row_while_a_slow_one_is_out_and_keeps_each_aggregates_order() {
    let (db, dir) = database().await;
    let signals = OutboxSignals::default();
    let mut deliveries = signals.deliveries();
    let held = std::sync::Arc::new(Held { go: tokio::sync::Semaphore::new(0), calls: Mutex::default() });
    let slow = owe_for(&db, "slow").await;
    let owner = std::sync::Arc::new(());
    let worker = Outbox::new(db.clone(), held.clone(), at_once(10)).with_signals(signals.clone());
    let running = worker.spawn(std::sync::Arc::downgrade(&owner));
    // The slow row is out (its call has started) before the next rows are owed.
    while held.calls.lock().unwrap().is_empty() {
        tokio::task::yield_now().await;
    }
    let (behind, other) = (owe_for(&db, "slow").await, owe_for(&db, "other").await);
    signals.owed();
    // Delivered while the slow call is still out: a worker in rounds would wait for it.
    let waited = tokio::time::timeout(Duration::from_secs(30), deliveries.of("other")).await;
    assert!(waited.is_ok(), "the other table's row waited for the slow one: {:?}", held.calls.lock().unwrap());
    assert!(!held.calls.lock().unwrap().contains(&format!("start slow{behind}")), "a table's rows go in order");
    held.go.add_permits(2);
    deliveries.of("slow").await.unwrap();
    deliveries.of("slow").await.unwrap();
    let calls = held.calls.lock().unwrap().clone();
    let at = |call: String| calls.iter().position(|c| *c == call).unwrap_or_else(|| panic!("{call}: {calls:?}"));
    assert!(at(format!("end other{other}")) < at(format!("end slow{slow}")), "{calls:?}");
    assert!(at(format!("end slow{slow}")) < at(format!("start slow{behind}")), "{calls:?}");
    for id in [slow, behind, other] {
        assert!(row(&db, id).await.delivered_at.is_some(), "row {id} closed");
    }
    drop(owner);
    signals.owed();
    running.await.unwrap();
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
        owed.push(owe_for(&db, aggregate).await);
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
    assert!(outbox.claim(32).await.unwrap().is_empty());
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
    assert!(outbox.claim(32).await.unwrap().is_empty(), "a dead letter is not claimed");
    // An operator clears it once the cause is fixed: it is delivered again.
    outbox::Entity::update_many()
        .col_expr(outbox::Column::DeadLetteredAt, Expr::value(Option::<DateTime<FixedOffset>>::None))
        .exec(&db)
        .await
        .unwrap();
    assert_eq!(outbox.claim(32).await.unwrap().len(), 1);
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

#[tokio::test]
async fn the_backlog_counts_what_is_owed_how_long_it_has_waited_and_the_dead_letters() {
    let (db, dir) = database().await;
    let worker = worker(&db, vec![Delivery::Acknowledged], at_once(1));
    assert_eq!(worker.backlog().await.unwrap(), Backlog::default(), "nothing owed yet");

    let long_ago = now() - chrono::Duration::seconds(90);
    owe(&db, "test", long_ago).await;
    owe(&db, "test", now() - chrono::Duration::seconds(10)).await;
    owe(&db, "another-service", now() - chrono::Duration::hours(5)).await;
    let set_aside = owe(&db, "test", now() - chrono::Duration::hours(3)).await;
    outbox::Entity::update_many()
        .col_expr(outbox::Column::DeadLetteredAt, Expr::value(now()))
        .filter(outbox::Column::Id.eq(set_aside))
        .exec(&db)
        .await
        .unwrap();

    let backlog = worker.backlog().await.unwrap();
    assert_eq!((backlog.owed, backlog.dead_letters), (2, 1), "{backlog:?}: another source's rows are not counted");
    assert!(
        (90..3600).contains(&backlog.oldest_age.as_secs()),
        "the oldest owed row, not the dead letter nor another source's, sets the age: {backlog:?}"
    );

    worker.deliver_due().await.unwrap();
    let backlog = worker.backlog().await.unwrap();
    assert_eq!((backlog.owed, backlog.oldest_age, backlog.dead_letters), (0, Duration::ZERO, 1));
    db.close().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
