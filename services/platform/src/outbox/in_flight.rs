//! The rows a worker has claimed and not yet settled: one aggregate's rows go one after another,
//! in the order they were owed (a peer takes a table's results in order), and different
//! aggregates' rows go side by side, so that one slow call does not hold up the other tables.
//! Rows claimed while an earlier row of their aggregate is still out queue behind it.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;

use futures::StreamExt as _;
use futures::stream::FuturesUnordered;
use sea_orm::DbErr;
use tracing::Instrument as _;

use super::{Courier, Outbox};
use crate::store::outbox;

/// One row's call and its record: the aggregate it was owed for, and whether the row is closed.
type Call<'a> = Pin<Box<dyn Future<Output = (String, Result<bool, DbErr>)> + Send + 'a>>;

/// See the module docs.
pub(super) struct InFlight<'a, C: Courier> {
    outbox: &'a Outbox<C>,
    /// The calls out now, one per aggregate.
    running: FuturesUnordered<Call<'a>>,
    /// For each aggregate with a call out, the rows claimed behind it, each with the span of the
    /// claim that took it (its delivery links that span).
    waiting: HashMap<String, VecDeque<(outbox::Model, tracing::Span)>>,
    held: usize,
}

impl<'a, C: Courier> InFlight<'a, C> {
    pub(super) fn new(outbox: &'a Outbox<C>) -> Self {
        InFlight { outbox, running: FuturesUnordered::new(), waiting: HashMap::new(), held: 0 }
    }

    /// Rows claimed and not yet settled.
    pub(super) fn held(&self) -> usize {
        self.held
    }

    /// Takes `rows`, claimed in the order they were owed under the span `claim`: each starts
    /// now, or after the rows of its aggregate already held.
    pub(super) fn add(&mut self, rows: Vec<outbox::Model>, claim: &tracing::Span) {
        for row in rows {
            self.held += 1;
            match self.waiting.get_mut(&row.aggregate_id) {
                Some(queue) => queue.push_back((row, claim.clone())),
                None => {
                    self.waiting.insert(row.aggregate_id.clone(), VecDeque::new());
                    self.start(row, claim.clone());
                }
            }
        }
    }

    fn start(&mut self, row: outbox::Model, claim: tracing::Span) {
        let outbox = self.outbox;
        let call = async move { (row.aggregate_id.clone(), outbox.deliver(&row).await) };
        self.running.push(Box::pin(call.instrument(claim)));
    }

    /// The outcome of the next call to end (`None` when none is out), and that aggregate's next
    /// row started. If recording the outcome failed, the aggregate's rows behind it are let go:
    /// they stay claimed until their lease runs out and are delivered, in order, then.
    ///
    /// Cancel-safe: nothing is awaited after a call has ended.
    pub(super) async fn next(&mut self) -> Option<Result<bool, DbErr>> {
        let (aggregate, outcome) = self.running.next().await?;
        self.held -= 1;
        let next = match (&outcome, self.waiting.get_mut(&aggregate)) {
            (Ok(_), Some(queue)) => queue.pop_front(),
            _ => None,
        };
        match next {
            Some((row, claim)) => self.start(row, claim),
            None => {
                let dropped = self.waiting.remove(&aggregate).map_or(0, |queue| queue.len());
                self.held -= dropped;
            }
        }
        Some(outcome)
    }
}
