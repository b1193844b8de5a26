//! Rows appended in bulk (`platform::append`): on Postgres every table of a batch goes in one
//! statement, atomic without a transaction; on SQLite in multi-row inserts. Both must store the
//! same rows, and a conflict anywhere must store none of them.

use chrono::{FixedOffset, TimeZone, Utc};
use e2e::TestDatabase;
use game::entity::journal;
use platform::append::{Appended, insert_all};
use platform::store::idempotency_keys;
use sea_orm::{DatabaseConnection, DbErr, EntityName, EntityTrait, QueryOrder, SqlErr};

/// Three journal rows (one carrying its command, two not) and two first answers.
fn batch(table: &str, first_sequence: i64, keys: &[&str]) -> Vec<Appended> {
    let at = FixedOffset::east_opt(0).unwrap().with_ymd_and_hms(2026, 11, 27, 20, 0, 0).unwrap();
    let sequences: Vec<i64> = (first_sequence..first_sequence + 3).collect();
    let journal = Appended::new(journal::Entity.table_name(), 3)
        .text("table_id", vec![table.to_owned(); 3])
        .big_int("sequence", sequences)
        .big_int("version", vec![7, 7, 8])
        .text("deal_id", vec!["deal-1".to_owned(); 3])
        .text("kind", vec!["card".to_owned(), "trick".to_owned(), "card".to_owned()])
        .bytes("event", vec![vec![1, 2], vec![0], vec![3]])
        .optional_bytes("action", vec![Some(vec![9, 9]), None, Some(vec![8])])
        .int("rules_version", vec![4, 4, 5])
        .same_time("created_at", at);
    let answers = Appended::new(idempotency_keys::Entity.table_name(), keys.len())
        .text("scope", keys.iter().map(|_| "game/t".to_owned()).collect())
        .text("key", keys.iter().map(|k| (*k).to_owned()).collect())
        .text("request_hash", keys.iter().map(|k| format!("hash-{k}")).collect())
        .bytes("response", keys.iter().map(|k| k.as_bytes().to_vec()).collect())
        .same_time_utc("created_at", Utc.with_ymd_and_hms(2026, 11, 27, 20, 0, 0).unwrap());
    vec![journal, answers]
}

async fn stored(db: &DatabaseConnection) -> (Vec<journal::Model>, Vec<idempotency_keys::Model>) {
    let journal = journal::Entity::find().order_by_asc(journal::Column::Sequence).all(db).await.unwrap();
    let keys = idempotency_keys::Entity::find().order_by_asc(idempotency_keys::Column::Key).all(db).await.unwrap();
    (journal, keys)
}

async fn appends_the_same_rows_and_nothing_on_a_conflict(db: &DatabaseConnection) {
    insert_all(db, batch("t", 1, &["a", "b"])).await.unwrap();
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
    assert_eq!(journal[2].created_at.timestamp(), Utc.with_ymd_and_hms(2026, 11, 27, 20, 0, 0).unwrap().timestamp());
    assert_eq!(
        keys.iter().map(|k| (k.key.as_str(), k.response.as_slice())).collect::<Vec<_>>(),
        vec![("a", b"a".as_slice()), ("b", b"b".as_slice())]
    );

    // The journal's sequence 3 is taken: the whole batch is refused, its new key "c" included.
    let refused = insert_all(db, batch("t", 3, &["c"])).await.unwrap_err();
    assert!(matches!(refused.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))), "{refused:?}");
    let (journal, keys) = stored(db).await;
    assert_eq!(journal.len(), 3, "no row of a refused batch stays");
    assert_eq!(keys.len(), 2, "no row of a refused batch stays");

    // Nothing to append writes nothing; a column of the wrong length is refused before sending.
    insert_all(db, vec![Appended::new(journal::Entity.table_name(), 0)]).await.unwrap();
    let wrong = Appended::new(idempotency_keys::Entity.table_name(), 2).text("scope", vec!["x".to_owned()]);
    assert!(matches!(insert_all(db, vec![wrong]).await, Err(DbErr::Custom(_))));
}

#[tokio::test]
async fn postgres_takes_a_batch_of_two_tables_in_one_statement_atomically() {
    let database = TestDatabase::create().await;
    let db = platform::db::connect_and_migrate(database.url()).await.unwrap();
    appends_the_same_rows_and_nothing_on_a_conflict(db.connection()).await;
}

#[tokio::test]
async fn sqlite_takes_the_same_batch_in_multi_row_inserts() {
    let dir = std::env::temp_dir().join(format!("bc-append-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
    let db = platform::db::connect_and_migrate(&url).await.unwrap();
    // On SQLite the tables go one statement after another: a transaction makes them one.
    let txn = sea_orm::TransactionTrait::begin(db.connection()).await.unwrap();
    insert_all(&txn, batch("t", 1, &["a", "b"])).await.unwrap();
    txn.commit().await.unwrap();
    let (journal, keys) = stored(db.connection()).await;
    assert_eq!(journal.len(), 3);
    assert_eq!(journal[1].action, None);
    assert_eq!(keys.len(), 2);
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

/// Keys as first answers: those starting with "a" only append, the others are written in a
/// transaction; each path notes what it was given.
#[derive(Default)]
struct Keys {
    appended: std::sync::Mutex<Vec<String>>,
    transacted: std::sync::Mutex<Vec<String>>,
}

fn key_rows(keys: &[String]) -> Appended {
    Appended::new(idempotency_keys::Entity.table_name(), keys.len())
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
        insert_all(txn, vec![key_rows(items)]).await
    }

    fn only_appends(&self, item: &String) -> bool {
        item.starts_with('a')
    }

    fn appended(&self, items: &[String]) -> Vec<Appended> {
        self.0.appended.lock().unwrap().extend(items.iter().cloned());
        vec![key_rows(items)]
    }
}

#[tokio::test]
async fn group_commit_on_postgres_writes_the_appends_in_one_statement_and_the_rest_in_a_transaction() {
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
    assert!(keys.transacted.lock().unwrap().iter().all(|k| k.starts_with('t')), "appends never go the long way");
    assert!(keys.appended.lock().unwrap().iter().all(|k| k.starts_with('a')));
}
