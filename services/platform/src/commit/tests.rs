use std::sync::Mutex as StdMutex;

use sea_orm::{EntityTrait, PaginatorTrait, Set};
use tokio::sync::Notify;

use super::*;
use crate::store::idempotency_keys;

/// Writes each item as an idempotency key (a duplicate key is a conflict), noting each batch's
/// size; its first batch waits until `release` is notified, so that a test can queue others
/// behind it.
struct Keys {
    batches: StdMutex<Vec<usize>>,
    writing: Notify,
    release: Notify,
    hold_first: bool,
}

impl Keys {
    fn new(hold_first: bool) -> Keys {
        Keys { batches: StdMutex::new(Vec::new()), writing: Notify::new(), release: Notify::new(), hold_first }
    }
}

impl BatchWriter for Arc<Keys> {
    type Item = &'static str;
    type Error = DbErr;

    async fn write(&self, txn: &DatabaseTransaction, items: &[&'static str]) -> Result<(), DbErr> {
        let first = {
            let mut batches = self.batches.lock().unwrap();
            batches.push(items.len());
            batches.len() == 1
        };
        if first && self.hold_first {
            self.writing.notify_one();
            self.release.notified().await;
        }
        let rows = items.iter().map(|key| idempotency_keys::ActiveModel {
            scope: Set("test".to_owned()),
            key: Set((*key).to_owned()),
            request_hash: Set(String::new()),
            response: Set(Vec::new()),
            created_at: Set(chrono::Utc::now()),
        });
        idempotency_keys::Entity::insert_many(rows).exec_without_returning(txn).await?;
        Ok(())
    }
}

async fn database() -> (Db, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("bc-commit-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
    (crate::db::connect_and_migrate(&url).await.unwrap(), dir)
}

type Answer<'a> = std::pin::Pin<Box<dyn Future<Output = Result<(), CommitFailed<DbErr>>> + Send + 'a>>;

/// Each of `keys` queued (its future polled once, which sends it), not yet answered.
async fn queue<'a>(commits: &'a GroupCommit<Arc<Keys>>, keys: &[&'static str]) -> Vec<Answer<'a>> {
    let mut queued: Vec<Answer<'a>> = keys.iter().map(|key| Box::pin(commits.commit(*key)) as Answer<'a>).collect();
    for answer in &mut queued {
        assert!(futures::poll!(answer.as_mut()).is_pending(), "answered before the held transaction ended");
    }
    queued
}

async fn stored(db: &Db) -> u64 {
    idempotency_keys::Entity::find().count(db).await.unwrap()
}

#[tokio::test]
async fn commands_queued_while_a_transaction_commits_share_the_next_one() {
    let (db, dir) = database().await;
    let keys = Arc::new(Keys::new(true));
    let commits = GroupCommit::spawn(db.clone(), keys.clone(), GroupCommitSettings { max_batch: 16, writers: 1 });

    let first = tokio::spawn({
        let commits = commits.clone();
        async move { commits.commit("k0").await }
    });
    keys.writing.notified().await;
    // The writer is inside its first transaction: these five queue behind it.
    let queued = queue(&commits, &["k1", "k2", "k3", "k4", "k5"]).await;
    keys.release.notify_one();

    first.await.unwrap().unwrap();
    for answer in futures::future::join_all(queued).await {
        answer.unwrap();
    }
    assert_eq!(*keys.batches.lock().unwrap(), vec![1, 5], "one transaction for the first, one for the five");
    assert_eq!(stored(&db).await, 6);
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_conflict_in_a_batch_fails_only_its_own_command() {
    let (db, dir) = database().await;
    let keys = Arc::new(Keys::new(true));
    let commits = GroupCommit::spawn(db.clone(), keys.clone(), GroupCommitSettings { max_batch: 16, writers: 1 });

    let first = tokio::spawn({
        let commits = commits.clone();
        async move { commits.commit("taken").await }
    });
    keys.writing.notified().await;
    // "taken" again, among two strangers, all in the next batch.
    let batch = ["a", "taken", "b"];
    let queued = queue(&commits, &batch).await;
    keys.release.notify_one();

    first.await.unwrap().unwrap();
    for (key, answer) in batch.into_iter().zip(futures::future::join_all(queued).await) {
        match key {
            "taken" => assert!(matches!(answer, Err(CommitFailed::Write(_))), "the duplicate is refused"),
            _ => assert!(answer.is_ok(), "{key} is written although it shared a batch with a conflict"),
        }
    }
    // The batch of three failed as a whole, then each was written alone.
    assert_eq!(*keys.batches.lock().unwrap(), vec![1, 3, 1, 1, 1]);
    assert_eq!(stored(&db).await, 3, "taken, a and b, once each");
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_command_is_answered_only_once_its_transaction_committed() {
    let (db, dir) = database().await;
    let keys = Arc::new(Keys::new(true));
    let commits = GroupCommit::spawn(db.clone(), keys.clone(), GroupCommitSettings::default());

    let answer = tokio::spawn({
        let commits = commits.clone();
        async move { commits.commit("k").await }
    });
    keys.writing.notified().await;
    // The write is in progress: no answer yet, and nothing stored yet.
    assert!(!answer.is_finished());
    assert_eq!(stored(&db).await, 0);
    keys.release.notify_one();
    answer.await.unwrap().unwrap();
    assert_eq!(stored(&db).await, 1, "answered, and there");
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_stopped_group_commit_says_so_instead_of_hanging() {
    let (db, dir) = database().await;
    let commits = GroupCommit::spawn(db.clone(), Arc::new(Keys::new(false)), GroupCommitSettings::default());
    commits.commit("k").await.unwrap();
    // A queue whose writers are gone (their runtime shut down) refuses at once.
    let (queue, receiver) = mpsc::unbounded_channel::<Pending<Arc<Keys>>>();
    drop(receiver);
    let stopped: GroupCommit<Arc<Keys>> = GroupCommit { queue };
    assert!(matches!(stopped.commit("k2").await, Err(CommitFailed::Stopped)));
    drop(db);
    let _ = std::fs::remove_dir_all(dir);
}
