//! The platform's one outbox worker on Postgres: workers of several processes claim the rows due
//! `FOR UPDATE SKIP LOCKED`, so they share them without waiting on one another and no row is
//! delivered by two at once.

use std::collections::BTreeSet;
use std::sync::Mutex;

use async_trait::async_trait;
use platform::outbox::{Courier, Delivery, Outbox, OutboxSettings};
use platform::store::outbox;
use sea_orm::{ActiveValue::NotSet, EntityTrait, Set};

use e2e::TestDatabase;

/// Records what it delivers.
struct Recording {
    delivered: Mutex<Vec<i64>>,
}

#[async_trait]
impl Courier for Recording {
    fn source(&self) -> &'static str {
        "e2e"
    }

    async fn deliver(&self, row: &outbox::Model) -> Delivery {
        // Give the other workers time to reach the same rows while this one holds them.
        tokio::task::yield_now().await;
        self.delivered.lock().unwrap().push(row.id);
        Delivery::Acknowledged
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_of_several_processes_deliver_each_row_once() {
    let database = TestDatabase::create().await;
    let db = platform::db::connect_and_migrate(database.url()).await.unwrap();
    let now = chrono::Utc::now().fixed_offset();
    let rows = (0..200).map(|i| outbox::ActiveModel {
        id: NotSet,
        source: Set("e2e".to_owned()),
        topic: Set("peer.Call".to_owned()),
        aggregate_id: Set(format!("deal-{i}")),
        payload: Set(Vec::new()),
        attempts: Set(0),
        last_error: Set(None),
        next_attempt_at: Set(now),
        created_at: Set(now),
        delivered_at: Set(None),
        trace_context: Set(None),
        dead_lettered_at: Set(None),
    });
    outbox::Entity::insert_many(rows).exec(&db).await.unwrap();

    // Four workers, each with its own connection pool, as four processes would have.
    let mut workers = Vec::new();
    for _ in 0..4 {
        let own = platform::db::connect(database.url()).await.unwrap();
        let settings = OutboxSettings { batch: 7, ..Default::default() };
        workers.push(Outbox::new(own, Recording { delivered: Mutex::new(Vec::new()) }, settings));
    }
    let backlog = workers[0].backlog().await.unwrap();
    assert_eq!((backlog.owed, backlog.dead_letters), (200, 0), "the backlog the metrics report, on Postgres");
    let rounds = workers.iter().map(|worker| async move {
        let mut total = 0;
        loop {
            let delivered = worker.deliver_due().await.unwrap();
            if delivered == 0 {
                return total;
            }
            total += delivered;
        }
    });
    let totals = futures::future::join_all(rounds).await;
    assert_eq!(totals.iter().sum::<usize>(), 200, "every row delivered: {totals:?}");

    let mut seen = BTreeSet::new();
    for worker in &workers {
        for id in worker.courier().delivered.lock().unwrap().iter() {
            assert!(seen.insert(*id), "row {id} was delivered twice");
        }
    }
    assert_eq!(seen.len(), 200);
    let open = outbox::Entity::find().all(&db).await.unwrap().into_iter().filter(|r| r.delivered_at.is_none()).count();
    assert_eq!(open, 0);
    assert_eq!(workers[0].backlog().await.unwrap(), platform::outbox::Backlog::default(), "nothing owed any more");
    db.close().await.unwrap();
}
