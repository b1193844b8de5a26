//! The runtime against a small aggregate of its own: a tally that may not go below zero, journaled
//! one row per command in an SQLite table, its live copy in the in-process store.

use std::sync::Arc;

use sea_orm::{ConnectionTrait, DbBackend, Statement};

use super::*;
use crate::live::MemoryStore;

#[derive(Debug, Clone, PartialEq)]
struct Tally {
    version: u64,
    total: i64,
}

struct Tallies;

/// One command: add `delta` to tally `id`, at `version`.
struct Row {
    id: String,
    version: u64,
    delta: i64,
}

impl Aggregate for Tallies {
    type State = Tally;
    type Write = Row;
    const NAME: &'static str = "tally";

    fn version(state: &Tally) -> u64 {
        state.version
    }
    fn live_key(&self, id: &str) -> String {
        format!("tally:{id}")
    }
    fn channel(&self, id: &str) -> String {
        format!("tally:{id}:events")
    }
    fn to_live(&self, state: &Tally) -> Bytes {
        Bytes::from(state.total.to_string())
    }
    fn state_of_live(&self, _id: &str, version: u64, live: &[u8]) -> Result<Option<Tally>, ServiceError> {
        let total = std::str::from_utf8(live).ok().and_then(|s| s.parse().ok());
        let total = total.ok_or_else(|| ServiceError::internal("live tally unreadable"))?;
        Ok(Some(Tally { version, total }))
    }
    async fn read_journal(&self, db: &Db, id: &str, known: Option<Tally>) -> Result<Tally, ServiceError> {
        let mut tally = known.unwrap_or(Tally { version: 0, total: 0 });
        let rows = db
            .query_all_raw(Statement::from_sql_and_values(
                DbBackend::Sqlite,
                "SELECT version, delta FROM tally_journal WHERE id = ? AND version > ? ORDER BY version",
                [id.into(), (tally.version as i64).into()],
            ))
            .await?;
        for row in rows {
            let version: i64 = row.try_get("", "version")?;
            let delta: i64 = row.try_get("", "delta")?;
            tally = Tally { version: version as u64, total: tally.total + delta };
        }
        Ok(tally)
    }
    async fn journal_version(&self, db: &Db, id: &str) -> Result<u64, ServiceError> {
        let row = db
            .query_one_raw(Statement::from_sql_and_values(
                DbBackend::Sqlite,
                "SELECT COALESCE(MAX(version), 0) AS v FROM tally_journal WHERE id = ?",
                [id.into()],
            ))
            .await?;
        Ok(row.map(|row| row.try_get::<i64>("", "v")).transpose()?.unwrap_or(0) as u64)
    }
    async fn write(&self, txn: &DatabaseTransaction, writes: Vec<&Row>) -> Result<(), WriteError> {
        for row in writes {
            txn.execute_raw(Statement::from_sql_and_values(
                DbBackend::Sqlite,
                "INSERT INTO tally_journal (id, version, delta) VALUES (?, ?, ?)",
                [row.id.clone().into(), (row.version as i64).into(), row.delta.into()],
            ))
            .await?;
        }
        Ok(())
    }
}

/// The answer: the tally after the command.
#[derive(Clone, PartialEq, prost::Message)]
struct Total {
    #[prost(int64, tag = "1")]
    total: i64,
    #[prost(uint64, tag = "2")]
    version: u64,
}

/// Adds `delta`, refusing a tally below zero; adding nothing changes nothing.
fn add(
    id: &str,
    delta: i64,
) -> impl FnMut(Tally) -> std::future::Ready<Result<Decision<Tallies, Total>, ServiceError>> + '_ {
    move |tally| std::future::ready(decide_add(id, delta, &tally))
}

fn decide_add(id: &str, delta: i64, tally: &Tally) -> Result<Decision<Tallies, Total>, ServiceError> {
    {
        if delta == 0 {
            return Ok(Decision::Unchanged(Total { total: tally.total, version: tally.version }));
        }
        let total = tally.total + delta;
        if total < 0 {
            return Err(ServiceError::FailedPrecondition(format!("tally {id} would go below zero")));
        }
        let next = Tally { version: tally.version + 1, total };
        Ok(Decision::Changed(Change {
            write: Row { id: id.to_owned(), version: next.version, delta },
            response: Total { total, version: next.version },
            live: LiveWrite::Replace,
            published: Some(Bytes::from(delta.to_string())),
            next,
        }))
    }
}

struct Fixture {
    db: Db,
    live: SharedLiveStore,
    dir: std::path::PathBuf,
}

impl Fixture {
    async fn new() -> Fixture {
        let dir = std::env::temp_dir().join(format!("bc-runtime-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
        let db = crate::db::connect_and_migrate(&url).await.unwrap();
        db.execute_unprepared(
            "CREATE TABLE tally_journal (id TEXT NOT NULL, version INTEGER NOT NULL, delta INTEGER NOT NULL, \
             PRIMARY KEY (id, version))",
        )
        .await
        .unwrap();
        Fixture { db, live: Arc::new(MemoryStore::new()), dir }
    }

    fn runtime(&self) -> Runtime<Tallies> {
        Runtime::new(self.db.clone(), self.live.clone(), Tallies)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn key(key: &str, delta: i64) -> Idempotency {
    Idempotency::new("tally", key, "Add", &delta.to_be_bytes())
}

#[tokio::test]
async fn a_command_commits_updates_the_live_copy_and_a_repeat_gets_its_first_answer() {
    let fixture = Fixture::new().await;
    let runtime = fixture.runtime();
    let mut events = fixture.live.subscribe("tally:a:events").await.unwrap();
    let first = runtime.execute("a", Expected::Version(0), Some(&key("k1", 5)), add("a", 5)).await.unwrap();
    assert_eq!(first, Total { total: 5, version: 1 });
    let live = fixture.live.get("tally:a").await.unwrap().expect("the live copy is written");
    assert_eq!((live.version, live.value.as_ref()), (1, b"5".as_slice()));
    use futures::StreamExt;
    assert_eq!(events.next().await, Some(crate::live::ChannelMessage::Message(Bytes::from("5"))));

    // The retry finds the tally moved on, and gets what the first attempt answered.
    let again = runtime.execute("a", Expected::Version(0), Some(&key("k1", 5)), add("a", 5)).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(runtime.read_journal("a").await.unwrap(), Tally { version: 1, total: 5 }, "applied once");

    let reused = runtime.execute::<Total, _>("a", Expected::Version(1), Some(&key("k1", 7)), add("a", 7)).await;
    assert!(matches!(reused, Err(ServiceError::InvalidArgument(_))), "{reused:?}");
}

#[tokio::test]
async fn a_client_behind_is_told_the_current_version() {
    let fixture = Fixture::new().await;
    let runtime = fixture.runtime();
    runtime.execute::<Total, _>("a", Expected::Version(0), Some(&key("k1", 1)), add("a", 1)).await.unwrap();
    let stale = runtime.execute::<Total, _>("a", Expected::Version(0), Some(&key("k2", 1)), add("a", 1)).await;
    match stale {
        Err(ServiceError::Stale { message, current, expected }) => {
            assert!(message.contains("is at version 1, not 0"), "{message}");
            assert_eq!((current, expected), (1, 0));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
}

#[tokio::test]
async fn two_processes_deciding_on_the_same_version_both_apply_one_after_the_other() {
    let fixture = Fixture::new().await;
    let (one, two) = (fixture.runtime(), fixture.runtime());
    one.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", 2)).await.unwrap();
    two.load("a").await.unwrap();
    one.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", 3)).await.unwrap();
    // `two` knows version 1; its commit at version 2 meets `one`'s, and it decides again on 2.
    let answer = two.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", 4)).await.unwrap();
    assert_eq!(answer, Total { total: 9, version: 3 });
    assert_eq!(one.current("a").await.unwrap(), Tally { version: 3, total: 9 });
}

#[tokio::test]
async fn a_refusal_judged_on_a_state_behind_the_journal_is_decided_again() {
    let fixture = Fixture::new().await;
    let (one, two) = (fixture.runtime(), fixture.runtime());
    two.load("a").await.unwrap();
    one.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", 10)).await.unwrap();
    // `two` still knows a tally of 0, on which taking 4 is refused; the journal says 10.
    let answer = two.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", -4)).await.unwrap();
    assert_eq!(answer, Total { total: 6, version: 2 });
    // A refusal the journal agrees with stands.
    let refused = two.execute::<Total, _>("a", Expected::Latest { attempts: 4 }, None, add("a", -7)).await;
    assert!(matches!(refused, Err(ServiceError::FailedPrecondition(_))), "{refused:?}");
}

#[tokio::test]
async fn a_repeated_command_that_now_changes_nothing_gets_its_first_answer() {
    let fixture = Fixture::new().await;
    let runtime = fixture.runtime();
    let k = key("k1", 0);
    // Stored as if an earlier attempt had answered it.
    let first = Total { total: 42, version: 9 };
    crate::store::store_response(&fixture.db, &k.scope, &k.key, &k.request_hash, &first).await.unwrap();
    let answer =
        runtime.execute::<Total, _>("a", Expected::Latest { attempts: 1 }, Some(&k), add("a", 0)).await.unwrap();
    assert_eq!(answer, first);
    let unkeyed = runtime.execute::<Total, _>("a", Expected::Latest { attempts: 1 }, None, add("a", 0)).await.unwrap();
    assert_eq!(unkeyed, Total { total: 0, version: 0 });
}

#[tokio::test]
async fn a_lost_live_copy_is_rebuilt_from_the_journal_and_a_stale_one_is_outrun() {
    let fixture = Fixture::new().await;
    let runtime = fixture.runtime();
    for (k, delta) in [("k1", 3), ("k2", 4)] {
        runtime
            .execute::<Total, _>("a", Expected::Latest { attempts: 1 }, Some(&key(k, delta)), add("a", delta))
            .await
            .unwrap();
    }
    fixture.live.clear().await.unwrap();
    let other = fixture.runtime();
    assert_eq!(other.load("a").await.unwrap(), Tally { version: 2, total: 7 });
    let live = fixture.live.get("tally:a").await.unwrap().expect("written back");
    assert_eq!((live.version, live.value.as_ref()), (2, b"7".as_slice()));

    // A live copy left behind (a writer stopped before updating it) is found out by the journal.
    fixture.live.put("tally:a", Versioned { version: 1, value: Bytes::from("3") }).await.unwrap();
    assert_eq!(fixture.runtime().load_fresh("a").await.unwrap(), Tally { version: 2, total: 7 });
}

#[test]
fn rows_are_split_into_inserts_of_at_most_the_limit_in_order() {
    assert!(in_chunks(Vec::<u32>::new()).is_empty(), "no rows, no insert");
    let exact: Vec<usize> = (0..ROWS_PER_INSERT).collect();
    assert_eq!(in_chunks(exact.clone()), vec![exact]);
    let over: Vec<usize> = (0..2 * ROWS_PER_INSERT + 1).collect();
    let chunks = in_chunks(over.clone());
    assert_eq!(chunks.iter().map(Vec::len).collect::<Vec<_>>(), [ROWS_PER_INSERT, ROWS_PER_INSERT, 1]);
    assert_eq!(chunks.concat(), over, "every row once, in order");
}
