//! Rows written in bulk (`platform::bulk`): on Postgres every part of a batch (rows inserted,
//! rows updated by key) goes in one statement, atomic without a transaction; on SQLite in
//! multi-row inserts and updates. Both must store the same rows, and a conflict anywhere must
//! store none of them.

use chrono::{FixedOffset, TimeZone, Utc};
use e2e::TestDatabase;
use game::entity::{deals, journal};
use platform::bulk::{Rows, write_all};
use platform::store::idempotency_keys;
use sea_orm::{DatabaseConnection, DbErr, EntityName, EntityTrait, QueryOrder, SqlErr};

fn at() -> chrono::DateTime<FixedOffset> {
    FixedOffset::east_opt(0).unwrap().with_ymd_and_hms(2026, 11, 27, 20, 0, 0).unwrap()
}

/// Three journal rows (one carrying its command, two not) and two first answers.
fn batch(table: &str, first_sequence: i64, keys: &[&str]) -> Vec<Rows> {
    let sequences: Vec<i64> = (first_sequence..first_sequence + 3).collect();
    let journal = Rows::insert(journal::Entity.table_name(), 3)
        .text("table_id", vec![table.to_owned(); 3])
        .big_int("sequence", sequences)
        .big_int("version", vec![7, 7, 8])
        .text("deal_id", vec!["deal-1".to_owned(); 3])
        .text("kind", vec!["card".to_owned(), "trick".to_owned(), "card".to_owned()])
        .bytes("event", vec![vec![1, 2], vec![0], vec![3]])
        .optional_bytes("action", vec![Some(vec![9, 9]), None, Some(vec![8])])
        .int("rules_version", vec![4, 4, 5])
        .same_time("created_at", at());
    let answers = Rows::insert(idempotency_keys::Entity.table_name(), keys.len())
        .text("scope", keys.iter().map(|_| "game/t".to_owned()).collect())
        .text("key", keys.iter().map(|k| (*k).to_owned()).collect())
        .text("request_hash", keys.iter().map(|k| format!("hash-{k}")).collect())
        .bytes("response", keys.iter().map(|k| k.as_bytes().to_vec()).collect())
        .same_time_utc("created_at", Utc.with_ymd_and_hms(2026, 11, 27, 20, 0, 0).unwrap());
    vec![journal, answers]
}

/// Two deals' rows, one of a rubber and one of a board (the optional columns each way).
fn two_deals() -> Rows {
    let started = vec![at(), at() + chrono::Duration::seconds(90)];
    Rows::insert(deals::Entity.table_name(), 2)
        .text("deal_id", vec!["deal-1".to_owned(), "deal-2".to_owned()])
        .text("table_id", vec!["t".to_owned(), "u".to_owned()])
        .big_int("table_version", vec![1, 1])
        .text("kind", vec!["rubber".to_owned(), "duplicate".to_owned()])
        .text("mode", vec!["recorded".to_owned(), "digital".to_owned()])
        .optional_text("rubber_id", vec![Some("r".to_owned()), None])
        .optional_text("scorepad_id", vec![Some("p".to_owned()), None])
        .optional_text("session_id", vec![None, Some("s".to_owned())])
        .optional_int("board_number", vec![None, Some(7)])
        .bytes("setup", vec![vec![1], vec![2]])
        .text("phase", vec!["DEAL_PHASE_AUCTION".to_owned(); 2])
        .times("started_at", started)
}

/// `deal-1` finished at version `version` (its phase, outcome and time set), by key.
fn finish_deal_1(version: i64) -> Rows {
    Rows::update(deals::Entity.table_name(), "deal_id", 1)
        .text("deal_id", vec!["deal-1".to_owned()])
        .big_int("table_version", vec![version])
        .text("phase", vec!["DEAL_PHASE_FINISHED".to_owned()])
        .bytes("outcome", vec![vec![5, 5]])
        .same_time("finished_at", at() + chrono::Duration::minutes(7))
}

async fn stored(db: &DatabaseConnection) -> (Vec<journal::Model>, Vec<idempotency_keys::Model>) {
    let journal = journal::Entity::find().order_by_asc(journal::Column::Sequence).all(db).await.unwrap();
    let keys = idempotency_keys::Entity::find().order_by_asc(idempotency_keys::Column::Key).all(db).await.unwrap();
    (journal, keys)
}

async fn deal_rows(db: &DatabaseConnection) -> Vec<deals::Model> {
    deals::Entity::find().order_by_asc(deals::Column::DealId).all(db).await.unwrap()
}

/// `write` takes a batch as one (on SQLite, in a transaction of the test's own).
async fn writes_the_same_rows_and_nothing_on_a_conflict<F, Fut>(db: &DatabaseConnection, write: F)
where
    F: Fn(Vec<Rows>) -> Fut,
    Fut: std::future::Future<Output = Result<(), DbErr>>,
{
    let mut first = batch("t", 1, &["a", "b"]);
    first.push(two_deals());
    write(first).await.unwrap();
    let (journal, keys) = stored(db).await;
    assert_eq!(journal.len(), 3);
    assert_eq!(
        journal.iter().map(|r| r.action.clone()).collect::<Vec<_>>(),
        vec![Some(vec![9, 9]), None, Some(vec![8])]
    );
    assert_eq!(journal.iter().map(|r| r.version).collect::<Vec<_>>(), vec![7, 7, 8]);
    assert_eq!(journal.iter().map(|r| r.rules_version).collect::<Vec<_>>(), vec![4, 4, 5]);
    assert_eq!(journal[1].kind, "trick");
    assert_eq!(journal[0].event, vec![1, 2]);
    assert_eq!(journal[2].created_at.timestamp(), at().timestamp());
    assert_eq!(
        keys.iter().map(|k| (k.key.as_str(), k.response.as_slice())).collect::<Vec<_>>(),
        vec![("a", b"a".as_slice()), ("b", b"b".as_slice())]
    );
    let deals = deal_rows(db).await;
    assert_eq!(
        deals.iter().map(|d| (d.rubber_id.as_deref(), d.session_id.as_deref(), d.board_number)).collect::<Vec<_>>(),
        vec![(Some("r"), None, None), (None, Some("s"), Some(7))]
    );
    assert_eq!(deals[1].started_at.timestamp() - deals[0].started_at.timestamp(), 90, "each row its own time");
    assert_eq!((deals[0].outcome.clone(), deals[0].finished_at), (None, None));

    // The journal's sequence 3 is taken: the whole batch is refused, its new key "c" and its
    // update of deal-1 included.
    let mut refused = batch("t", 3, &["c"]);
    refused.push(finish_deal_1(9));
    let refused = write(refused).await.unwrap_err();
    assert!(matches!(refused.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))), "{refused:?}");
    let (journal, keys) = stored(db).await;
    assert_eq!(journal.len(), 3, "no row of a refused batch stays");
    assert_eq!(keys.len(), 2, "no row of a refused batch stays");
    assert_eq!(deal_rows(db).await, deals, "no update of a refused batch stays");

    // The same update beside rows that fit: it moves deal-1 alone, by its key.
    let mut next = batch("t", 4, &["c"]);
    next.push(finish_deal_1(9));
    write(next).await.unwrap();
    let moved = deal_rows(db).await;
    assert_eq!((moved[0].table_version, moved[0].phase.as_str()), (9, "DEAL_PHASE_FINISHED"));
    assert_eq!(moved[0].outcome, Some(vec![5, 5]));
    assert_eq!(moved[0].finished_at.map(|t| t.timestamp()), Some((at() + chrono::Duration::minutes(7)).timestamp()));
    assert_eq!(moved[1], deals[1], "the other deal is untouched");
    assert_eq!(moved[0].started_at, deals[0].started_at, "columns not named are kept");

    // Nothing to write writes nothing; a column of the wrong length, or an update without its
    // key, is refused before sending.
    write(vec![Rows::insert(journal::Entity.table_name(), 0)]).await.unwrap();
    let wrong = Rows::insert(idempotency_keys::Entity.table_name(), 2).text("scope", vec!["x".to_owned()]);
    assert!(matches!(write(vec![wrong]).await, Err(DbErr::Custom(_))));
    let keyless = Rows::update(deals::Entity.table_name(), "deal_id", 1).text("phase", vec!["x".to_owned()]);
    assert!(matches!(write(vec![keyless]).await, Err(DbErr::Custom(_))));
}

#[tokio::test]
async fn postgres_takes_a_batch_of_inserts_and_updates_in_one_statement_atomically() {
    let database = TestDatabase::create().await;
    let db = platform::db::connect_and_migrate(database.url()).await.unwrap();
    let conn = db.connection();
    writes_the_same_rows_and_nothing_on_a_conflict(conn, |parts| write_all(conn, parts)).await;
}

#[tokio::test]
async fn sqlite_takes_the_same_batch_one_statement_after_another_in_a_transaction() {
    let dir = std::env::temp_dir().join(format!("bc-bulk-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
    let db = platform::db::connect_and_migrate(&url).await.unwrap();
    let conn = db.connection();
    // On SQLite the parts go one statement after another: a transaction makes them one.
    writes_the_same_rows_and_nothing_on_a_conflict(conn, |parts| async move {
        let txn = sea_orm::TransactionTrait::begin(conn).await?;
        write_all(&txn, parts).await?;
        txn.commit().await
    })
    .await;
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

/// Keys as first answers: those starting with "a" are written in one statement, the others in a
/// transaction; each path notes what it was given.
#[derive(Default)]
struct Keys {
    in_one_statement: std::sync::Mutex<Vec<String>>,
    transacted: std::sync::Mutex<Vec<String>>,
}

fn key_rows(keys: &[String]) -> Rows {
    Rows::insert(idempotency_keys::Entity.table_name(), keys.len())
        .text("scope", keys.iter().map(|_| "test".to_owned()).collect())
        .text("key", keys.to_vec())
        .text("request_hash", keys.iter().map(|_| String::new()).collect())
        .bytes("response", keys.iter().map(|_| Vec::new()).collect())
        .same_time_utc("created_at", Utc::now())
}

/// The writer the group commit owns, sharing its notes with the test.
struct KeysWriter(std::sync::Arc<Keys>);

impl platform::commit::BatchWriter for KeysWriter {
    type Item = String;
    type Error = DbErr;

    async fn write(&self, txn: &sea_orm::DatabaseTransaction, items: &[String]) -> Result<(), DbErr> {
        self.0.transacted.lock().unwrap().extend(items.iter().cloned());
        write_all(txn, vec![key_rows(items)]).await
    }

    fn one_statement(&self, item: &String) -> bool {
        item.starts_with('a')
    }

    fn rows(&self, items: &[String]) -> Vec<Rows> {
        self.0.in_one_statement.lock().unwrap().extend(items.iter().cloned());
        vec![key_rows(items)]
    }
}

#[tokio::test]
async fn group_commit_on_postgres_writes_what_it_can_in_one_statement_and_the_rest_in_a_transaction() {
    use platform::commit::{CommitFailed, GroupCommit, GroupCommitSettings};
    let database = TestDatabase::create().await;
    let db = platform::db::connect_and_migrate(database.url()).await.unwrap();
    let keys = std::sync::Arc::new(Keys::default());
    // One writer, so that whatever is queued goes in the same batch.
    let commits =
        GroupCommit::spawn(db.clone(), KeysWriter(keys.clone()), GroupCommitSettings { max_batch: 16, writers: 1 });
    commits.commit("a0".to_owned()).await.unwrap();

    let names = ["a1", "t1", "a2", "a0", "t2"];
    let answers = futures::future::join_all(names.iter().map(|name| commits.commit((*name).to_owned()))).await;
    for (name, answer) in names.iter().zip(&answers) {
        match (*name, answer) {
            // "a0" is taken: its own refusal, and no other command's.
            ("a0", Err(CommitFailed::Write(error))) => {
                assert!(matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))), "{error:?}")
            }
            ("a0", Ok(())) => panic!("a key written twice"),
            (name, answer) => assert!(answer.is_ok(), "{name}: {answer:?}"),
        }
    }
    let stored: Vec<String> = idempotency_keys::Entity::find()
        .order_by_asc(idempotency_keys::Column::Key)
        .all(db.connection())
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.key)
        .collect();
    assert_eq!(stored, vec!["a0", "a1", "a2", "t1", "t2"]);
    assert!(
        keys.transacted.lock().unwrap().iter().all(|k| k.starts_with('t')),
        "one statement's never go the long way"
    );
    assert!(keys.in_one_statement.lock().unwrap().iter().all(|k| k.starts_with('a')));
}
