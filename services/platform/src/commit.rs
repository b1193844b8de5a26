//! Group commit: many aggregates' commands written in one database transaction, each acknowledged
//! only once that transaction has committed.
//!
//! A command written in a transaction of its own pays a round trip for each statement and a flush
//! of the write-ahead log at COMMIT; with many tables acting at once, those flushes and round trips
//! bound the rate long before the work does. A [`GroupCommit`] queues each command's write
//! instead. A writer takes whatever is queued (up to [`GroupCommitSettings::max_batch`]), hands it
//! all to the service's [`BatchWriter`] inside one transaction (which folds like statements into
//! one: a single multi-row insert for every journal row of the batch, say), commits, and only
//! then answers each command. Nothing is acknowledged before the transaction holding it commits,
//! so group commit loses nothing a command-at-a-time commit would keep.
//!
//! One command's refusal must not fail the strangers that shared its transaction: when a batch of
//! several fails, each of its commands is written again in a transaction of its own, and gets its
//! own answer (its conflict, or its success). A database that is away fails each of them fast
//! through the [`Db`]'s breaker, as it would have failed them one by one.
//!
//! Several writers run side by side ([`GroupCommitSettings::writers`]): while one waits for its
//! COMMIT, the next batch gathers behind it and the other writes it. On SQLite, which has one
//! writer, they simply take turns for its write lock.
//!
//! A command whose caller goes away (a cancelled request) is still written once queued: its
//! idempotency key then answers the caller's retry with what it did.

use std::future::Future;
use std::sync::Arc;

use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, DbErr, TransactionTrait};
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::bulk::{self, Rows};
use crate::db::Db;

/// Writes a batch of commands inside one transaction: the one thing a service adds to group
/// commit.
pub trait BatchWriter: Send + Sync + 'static {
    /// One command's write.
    type Item: Send + Sync + 'static;
    /// Why a write failed (a conflict, or the database's own error).
    type Error: From<DbErr> + Send + 'static;

    /// Writes all of `items` in `txn`, or fails: on failure the transaction is rolled back and,
    /// if there were several, each is written again alone.
    fn write<'a>(
        &'a self,
        txn: &'a DatabaseTransaction,
        items: &'a [Self::Item],
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'a;

    /// Whether all `item` writes is rows inserted and updated in bulk ([`BatchWriter::rows`]).
    /// On Postgres such commands go in one statement that commits on its own ([`crate::bulk`]):
    /// one round trip where a transaction takes one for BEGIN, one for each write and one for
    /// COMMIT. The default: none does, and every batch is written by [`BatchWriter::write`] in a
    /// transaction.
    fn one_statement(&self, _item: &Self::Item) -> bool {
        false
    }

    /// The rows `items` write, each of which is [`BatchWriter::one_statement`]; no two parts may
    /// touch the same row.
    fn rows(&self, _items: &[Self::Item]) -> Vec<Rows> {
        Vec::new()
    }
}

/// How batches are formed.
#[derive(Debug, Clone, Copy)]
pub struct GroupCommitSettings {
    /// The most commands in one transaction.
    pub max_batch: usize,
    /// Writers running side by side (each one transaction at a time).
    pub writers: usize,
}

impl Default for GroupCommitSettings {
    fn default() -> Self {
        GroupCommitSettings { max_batch: 128, writers: 2 }
    }
}

type Pending<W> = (<W as BatchWriter>::Item, oneshot::Sender<Result<(), <W as BatchWriter>::Error>>);

/// The queue in front of the writers (see the module docs). Clones share it.
pub struct GroupCommit<W: BatchWriter> {
    queue: mpsc::UnboundedSender<Pending<W>>,
}

impl<W: BatchWriter> Clone for GroupCommit<W> {
    fn clone(&self) -> Self {
        GroupCommit { queue: self.queue.clone() }
    }
}

impl<W: BatchWriter> std::fmt::Debug for GroupCommit<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit").finish_non_exhaustive()
    }
}

/// Why [`GroupCommit::commit`] got no answer.
#[derive(Debug, thiserror::Error)]
pub enum CommitFailed<E> {
    /// The write failed.
    #[error("the write failed")]
    Write(E),
    /// The writers have stopped (the process is shutting down): the command was not written.
    #[error("the writers have stopped")]
    Stopped,
}

impl<W: BatchWriter> GroupCommit<W> {
    /// Starts `settings.writers` writers over `db`; they stop once every clone is dropped and the
    /// queue is empty.
    pub fn spawn(db: Db, writer: W, settings: GroupCommitSettings) -> GroupCommit<W> {
        let (queue, receiver) = mpsc::unbounded_channel::<Pending<W>>();
        let receiver = Arc::new(Mutex::new(receiver));
        let writer = Arc::new(writer);
        let sizes = opentelemetry::global::meter("bridge-club")
            .u64_histogram("db.group_commit.size")
            .with_description("commands written in one transaction")
            .build();
        for _ in 0..settings.writers.max(1) {
            let (db, writer, receiver, sizes) = (db.clone(), writer.clone(), receiver.clone(), sizes.clone());
            tokio::spawn(run(db, writer, receiver, settings.max_batch.max(1), sizes));
        }
        GroupCommit { queue }
    }

    /// Writes `item` with whatever else is queued, and answers once its transaction committed
    /// (or failed).
    pub async fn commit(&self, item: W::Item) -> Result<(), CommitFailed<W::Error>> {
        let (answer, answered) = oneshot::channel();
        self.queue.send((item, answer)).map_err(|_| CommitFailed::Stopped)?;
        match answered.await {
            Ok(result) => result.map_err(CommitFailed::Write),
            Err(_) => Err(CommitFailed::Stopped),
        }
    }
}

async fn run<W: BatchWriter>(
    db: Db,
    writer: Arc<W>,
    receiver: Arc<Mutex<mpsc::UnboundedReceiver<Pending<W>>>>,
    max_batch: usize,
    sizes: opentelemetry::metrics::Histogram<u64>,
) {
    let mut batch: Vec<Pending<W>> = Vec::with_capacity(max_batch);
    loop {
        {
            // One writer gathers at a time: it waits for a first command, then takes whatever
            // queued up behind it while the other writers were committing.
            let mut receiver = receiver.lock().await;
            let Some(first) = receiver.recv().await else { return };
            batch.push(first);
            while batch.len() < max_batch {
                match receiver.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
        }
        sizes.record(batch.len() as u64, &[]);
        // On Postgres the commands written in bulk go in one statement, beside the others'
        // transaction: a card need not wait for the round trips of an arbiter's call.
        let bulk = db.get_database_backend() == DbBackend::Postgres;
        let (statement, others): (Vec<Pending<W>>, Vec<Pending<W>>) =
            batch.drain(..).partition(|(item, _)| bulk && writer.one_statement(item));
        tokio::join!(
            settle(&db, writer.as_ref(), statement, Path::Statement),
            settle(&db, writer.as_ref(), others, Path::Transaction)
        );
    }
}

/// How a group of commands is written.
#[derive(Debug, Clone, Copy)]
enum Path {
    /// [`BatchWriter::rows`] in one statement, which commits on its own.
    Statement,
    /// [`BatchWriter::write`] in a transaction.
    Transaction,
}

/// Writes `group` together and answers each command; if that fails and there were several, each
/// is written again alone, so that only the one at fault (or every one, if the database failed)
/// hears of it.
async fn settle<W: BatchWriter>(db: &Db, writer: &W, group: Vec<Pending<W>>, path: Path) {
    if group.is_empty() {
        return;
    }
    let (items, answers): (Vec<W::Item>, Vec<_>) = group.into_iter().unzip();
    match write(db, writer, &items, path).await {
        Ok(()) => {
            for answer in answers {
                let _ = answer.send(Ok(()));
            }
        }
        Err(error) if items.len() == 1 => {
            if let Some(answer) = answers.into_iter().next() {
                let _ = answer.send(Err(error));
            }
        }
        Err(_) => {
            for (item, answer) in items.into_iter().zip(answers) {
                let result = write(db, writer, std::slice::from_ref(&item), path).await;
                let _ = answer.send(result);
            }
        }
    }
}

/// One statement ([`Path::Statement`]), or one transaction: begin, the writes, commit (a failed
/// write rolls back on drop).
async fn write<W: BatchWriter>(db: &Db, writer: &W, items: &[W::Item], path: Path) -> Result<(), W::Error> {
    if let Path::Statement = path {
        return Ok(bulk::write_all(db, writer.rows(items)).await?);
    }
    let txn = db.begin().await?;
    writer.write(&txn, items).await?;
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests;
