//! The live store's contract, checked on real Redis and on the in-process store alike.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use e2e::TestRedis;
use futures::StreamExt;
use platform::live::{CasOutcome, ChannelMessage, LiveStore, MemoryStore, RedisStore, Versioned};

async fn versions_advance_and_stale_writes_conflict(store: Arc<dyn LiveStore>) {
    assert_eq!(store.get("table:{1}").await.unwrap(), None);
    assert_eq!(
        store.compare_and_set("table:{1}", 0, Bytes::from_static(b"a"), None).await.unwrap(),
        CasOutcome::Applied(1)
    );
    assert_eq!(
        store.compare_and_set("table:{1}", 0, Bytes::from_static(b"b"), None).await.unwrap(),
        CasOutcome::Conflict { current: 1 }
    );
    assert_eq!(
        store.compare_and_set("table:{1}", 1, Bytes::from_static(b"c"), None).await.unwrap(),
        CasOutcome::Applied(2)
    );
    assert_eq!(store.get("table:{1}").await.unwrap(), Some(Versioned { version: 2, value: Bytes::from_static(b"c") }));
    store.put("table:{1}", Versioned { version: 9, value: Bytes::from_static(b"rebuilt") }).await.unwrap();
    assert_eq!(store.get("table:{1}").await.unwrap().map(|v| v.version), Some(9));
    store.delete("table:{1}").await.unwrap();
    assert_eq!(store.get("table:{1}").await.unwrap(), None);
}

async fn subscribers_see_every_accepted_write_in_order(store: Arc<dyn LiveStore>) {
    let mut events = store.subscribe("events:{2}").await.unwrap();
    let mut version = 0;
    for i in 0..20u8 {
        let outcome = store
            .compare_and_set("table:{2}", version, Bytes::from(vec![i]), Some(("events:{2}", Bytes::from(vec![i]))))
            .await;
        version = match outcome.unwrap() {
            CasOutcome::Applied(v) => v,
            other => panic!("unexpected {other:?}"),
        };
        // A rejected write publishes nothing.
        let stale = store.compare_and_set("table:{2}", 0, Bytes::new(), Some(("events:{2}", Bytes::from_static(b"x"))));
        assert!(matches!(stale.await.unwrap(), CasOutcome::Conflict { .. }));
    }
    for i in 0..20u8 {
        let message = tokio::time::timeout(Duration::from_secs(5), events.next()).await.unwrap();
        assert_eq!(message, Some(ChannelMessage::Message(Bytes::from(vec![i]))));
    }
}

async fn a_value_mirroring_a_record_moves_to_the_record_version(store: Arc<dyn LiveStore>) {
    let mut events = store.subscribe("events:{5}").await.unwrap();
    let moved = |versions: (u64, u64), value: &'static [u8], append: bool| {
        let store = store.clone();
        async move {
            let event = Some(("events:{5}", Bytes::from_static(value)));
            store.compare_and_move("table:{5}", versions, Bytes::from_static(value), event, append).await.unwrap()
        }
    };
    // A session's version steps by the boards a change rescores.
    assert_eq!(moved((0, 3), b"a", false).await, CasOutcome::Applied(3));
    assert_eq!(moved((1, 4), b"x", false).await, CasOutcome::Conflict { current: 3 }, "a stale move changes nothing");
    assert_eq!(moved((3, 4), b"b", true).await, CasOutcome::Applied(4));
    assert_eq!(store.get("table:{5}").await.unwrap(), Some(Versioned { version: 4, value: Bytes::from_static(b"ab") }));
    for published in [b"a".as_slice(), b"b"] {
        let message = tokio::time::timeout(Duration::from_secs(5), events.next()).await.unwrap();
        assert_eq!(message, Some(ChannelMessage::Message(Bytes::copy_from_slice(published))));
    }
}

async fn appends_grow_the_value_and_stale_appends_conflict(store: Arc<dyn LiveStore>) {
    let mut events = store.subscribe("events:{4}").await.unwrap();
    let append = |expected: u64, fragment: &'static [u8]| {
        let store = store.clone();
        async move {
            let event = Some(("events:{4}", Bytes::from_static(fragment)));
            store.compare_and_append("table:{4}", expected, Bytes::from_static(fragment), event).await.unwrap()
        }
    };
    // Appending to nothing starts the value.
    assert_eq!(append(0, b"ab").await, CasOutcome::Applied(1));
    assert_eq!(append(1, b"cd").await, CasOutcome::Applied(2));
    assert_eq!(append(1, b"xx").await, CasOutcome::Conflict { current: 2 }, "a stale append changes nothing");
    assert_eq!(append(2, b"e").await, CasOutcome::Applied(3));
    assert_eq!(
        store.get("table:{4}").await.unwrap(),
        Some(Versioned { version: 3, value: Bytes::from_static(b"abcde") })
    );
    // A whole write replaces what the appends built.
    store.compare_and_set("table:{4}", 3, Bytes::from_static(b"new"), None).await.unwrap();
    assert_eq!(append(4, b"!").await, CasOutcome::Applied(5));
    assert_eq!(store.get("table:{4}").await.unwrap().map(|v| v.value), Some(Bytes::from_static(b"new!")));
    for published in [b"ab".as_slice(), b"cd", b"e", b"!"] {
        let message = tokio::time::timeout(Duration::from_secs(5), events.next()).await.unwrap();
        assert_eq!(message, Some(ChannelMessage::Message(Bytes::copy_from_slice(published))));
    }
}

async fn counters_expire(store: Arc<dyn LiveStore>) {
    assert_eq!(store.increment("rate:{a}", Duration::from_millis(300)).await.unwrap(), 1);
    assert_eq!(store.increment("rate:{a}", Duration::from_millis(300)).await.unwrap(), 2);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(store.increment("rate:{a}", Duration::from_millis(300)).await.unwrap(), 1);
}

async fn clear_removes_everything_of_this_store(store: Arc<dyn LiveStore>) {
    store.compare_and_set("table:{3}", 0, Bytes::from_static(b"a"), None).await.unwrap();
    store.clear().await.unwrap();
    assert_eq!(store.get("table:{3}").await.unwrap(), None);
}

#[tokio::test]
async fn redis_store_keeps_the_contract() {
    let redis = TestRedis::create().await;
    versions_advance_and_stale_writes_conflict(redis.store()).await;
    subscribers_see_every_accepted_write_in_order(redis.store()).await;
    appends_grow_the_value_and_stale_appends_conflict(redis.store()).await;
    a_value_mirroring_a_record_moves_to_the_record_version(redis.store()).await;
    counters_expire(redis.store()).await;
    clear_removes_everything_of_this_store(redis.store()).await;
}

/// On a Redis Cluster (three masters with a replica each, TLS only), the same contract: each
/// command goes to the master of its key's slot, a subscription made on any node hears what is
/// published through another, and clearing reaches the keys on every master.
#[tokio::test]
async fn redis_cluster_store_keeps_the_contract() {
    let dir = std::env::temp_dir().join(format!("bc-live-cluster-{}", uuid::Uuid::new_v4().simple()));
    let ca = e2e::certificates::TestCa::new(&dir, "ca");
    let (cert, key) = ca.issue(&["127.0.0.1"], "server");
    let cluster = e2e::redis_cluster::RedisCluster::start(&dir, &cert, &key, &ca.ca_file()).await;
    let config = platform::config::RedisConfig { cluster: true, ca_file: Some(ca.ca_file()), ..Default::default() };
    let store: Arc<dyn LiveStore> =
        Arc::new(RedisStore::connect_with(&cluster.urls(), "test_cluster", &config).await.unwrap());
    versions_advance_and_stale_writes_conflict(store.clone()).await;
    subscribers_see_every_accepted_write_in_order(store.clone()).await;
    appends_grow_the_value_and_stale_appends_conflict(store.clone()).await;
    a_value_mirroring_a_record_moves_to_the_record_version(store.clone()).await;
    counters_expire(store.clone()).await;
    clear_removes_everything_of_this_store(store.clone()).await;

    // Keys of many tables fall in slots of all three masters; clearing removes every one.
    for table in 0..30 {
        store.compare_and_set(&format!("table:{{{table}}}"), 0, Bytes::from_static(b"a"), None).await.unwrap();
    }
    store.clear().await.unwrap();
    for table in 0..30 {
        assert_eq!(store.get(&format!("table:{{{table}}}")).await.unwrap(), None, "table {table}");
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn memory_store_keeps_the_contract() {
    versions_advance_and_stale_writes_conflict(Arc::new(MemoryStore::new())).await;
    subscribers_see_every_accepted_write_in_order(Arc::new(MemoryStore::new())).await;
    appends_grow_the_value_and_stale_appends_conflict(Arc::new(MemoryStore::new())).await;
    a_value_mirroring_a_record_moves_to_the_record_version(Arc::new(MemoryStore::new())).await;
    counters_expire(Arc::new(MemoryStore::new())).await;
    clear_removes_everything_of_this_store(Arc::new(MemoryStore::new())).await;
}

#[tokio::test]
async fn two_redis_prefixes_do_not_see_each_other() {
    let (a, b) = (TestRedis::create().await, TestRedis::create().await);
    a.store().compare_and_set("table:{1}", 0, Bytes::from_static(b"a"), None).await.unwrap();
    assert_eq!(b.store().get("table:{1}").await.unwrap(), None);
    b.store().clear().await.unwrap();
    assert!(a.store().get("table:{1}").await.unwrap().is_some());
}

#[tokio::test]
async fn concurrent_writers_at_one_version_have_exactly_one_winner() {
    let redis = TestRedis::create().await;
    let store = redis.store();
    let attempts = (0..16).map(|i| {
        let store = store.clone();
        tokio::spawn(async move { store.compare_and_set("table:{race}", 0, Bytes::from(vec![i]), None).await })
    });
    let outcomes = futures::future::join_all(attempts).await;
    let winners = outcomes
        .into_iter()
        .filter(|o| matches!(o.as_ref().unwrap().as_ref().unwrap(), CasOutcome::Applied(1)))
        .count();
    assert_eq!(winners, 1);
}

#[tokio::test]
async fn a_redis_that_forgot_the_script_is_sent_it_whole_once() {
    let redis = e2e::redis_server::RedisServer::start().await;
    let store = platform::live::RedisStore::connect(&redis.url(), "scripts").await.unwrap();
    // A fresh Redis has never seen the script: the call by SHA is refused, and sent whole.
    assert_eq!(
        store.compare_and_set("table:{1}", 0, Bytes::from_static(b"a"), None).await.unwrap(),
        CasOutcome::Applied(1)
    );
    assert_eq!(
        store.compare_and_set("table:{1}", 1, Bytes::from_static(b"b"), None).await.unwrap(),
        CasOutcome::Applied(2)
    );
    redis.flush_scripts().await;
    assert_eq!(
        store.compare_and_set("table:{1}", 2, Bytes::from_static(b"c"), None).await.unwrap(),
        CasOutcome::Applied(3)
    );
    assert_eq!(
        store.compare_and_set("table:{1}", 2, Bytes::from_static(b"d"), None).await.unwrap(),
        CasOutcome::Conflict { current: 3 }
    );
    assert_eq!(store.get("table:{1}").await.unwrap(), Some(Versioned { version: 3, value: Bytes::from_static(b"c") }));
}
