//! Delivery of what finished deals owe the scoring service: rows written to the `outbox` in the
//! same transaction as the deal's last event, sent by this background worker and retried with
//! backoff until scoring acknowledges them. Scoring records a result idempotently by deal id,
//! so a repeat (a delivery whose acknowledgement was lost) changes nothing there.
//!
//! Several processes may run the worker: each claims a row by moving its `attempts` counter on
//! from the value it read (the counter is the row's version), so a row is in one worker's hands
//! at a time.
//!
//! A row keeps the trace context of the command that finished the deal, and each attempt runs
//! under it ([`platform::telemetry::delivery_span`]): scoring writing the result shows in the
//! trace of the card played or the result entered.

use std::sync::{Arc, Weak};
use std::time::Duration;

use prost::Message;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use tracing::Instrument;

use api::scoring::v1 as scoring;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use platform::app::Peers;
use platform::db::Db;

use crate::engine::Engine;
use crate::entity::outbox;
use crate::store;

/// The outbox rows this service writes.
pub const SOURCE: &str = "game";
/// A rubber or Chicago deal's result for its scorepad.
pub const RECORD_DEAL_RESULT: &str = "scoring.RecordDealResult";
/// A duplicate table's result on its board.
pub const RECORD_BOARD_RESULT: &str = "scoring.RecordBoardResult";

/// How the worker delivers (the `[game.outbox]` table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OutboxSettings {
    /// How often to look for rows due, in milliseconds, when no deal finishing wakes the worker.
    pub poll_interval_ms: u64,
    /// The wait after the first failed attempt, in milliseconds; doubled after each failure.
    pub initial_backoff_ms: u64,
    /// The longest wait between attempts, in milliseconds.
    pub max_backoff_ms: u64,
    /// How long a claimed row stays with the worker that claimed it, in milliseconds.
    pub lease_ms: u64,
    /// Rows delivered per round.
    pub batch: u64,
}

impl Default for OutboxSettings {
    fn default() -> Self {
        OutboxSettings {
            poll_interval_ms: 1000,
            initial_backoff_ms: 250,
            max_backoff_ms: 30_000,
            lease_ms: 60_000,
            batch: 32,
        }
    }
}

impl OutboxSettings {
    fn backoff(&self, attempts: i32) -> Duration {
        let doubling = attempts.clamp(1, 20) as u32 - 1;
        Duration::from_millis(self.initial_backoff_ms.saturating_mul(1 << doubling).min(self.max_backoff_ms))
    }
}

/// Starts the worker. It stops once the engine is gone (the server was shut down).
pub fn spawn(engine: &Arc<Engine>, peers: Peers, settings: OutboxSettings) -> tokio::task::JoinHandle<()> {
    let weak: Weak<Engine> = Arc::downgrade(engine);
    let wake = engine.outbox.clone();
    tokio::spawn(async move {
        loop {
            let Some(engine) = weak.upgrade() else { return };
            if let Err(error) = deliver_due(&engine.db, &peers, &settings).await {
                tracing::warn!(%error, "outbox delivery round failed");
            }
            drop(engine);
            tokio::select! {
                _ = wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_millis(settings.poll_interval_ms)) => {}
            }
        }
    })
}

/// Delivers every row due now; returns how many were acknowledged.
#[tracing::instrument(skip_all)]
pub async fn deliver_due(db: &Db, peers: &Peers, settings: &OutboxSettings) -> Result<usize, DbErr> {
    let due = outbox::Entity::find()
        .filter(outbox::Column::Source.eq(SOURCE))
        .filter(outbox::Column::DeliveredAt.is_null())
        .filter(outbox::Column::NextAttemptAt.lte(store::now()))
        .order_by_asc(outbox::Column::Id)
        .limit(settings.batch)
        .all(db)
        .await?;
    let mut delivered = 0;
    for row in due {
        // Claim the row: only the worker that moves `attempts` on from what it read sends it.
        let lease = store::now() + chrono::Duration::milliseconds(settings.lease_ms as i64);
        let claimed = outbox::Entity::update_many()
            .col_expr(outbox::Column::Attempts, Expr::value(row.attempts + 1))
            .col_expr(outbox::Column::NextAttemptAt, Expr::value(lease))
            .filter(outbox::Column::Id.eq(row.id))
            .filter(outbox::Column::Attempts.eq(row.attempts))
            .filter(outbox::Column::DeliveredAt.is_null())
            .exec(db)
            .await?;
        if claimed.rows_affected != 1 {
            continue;
        }
        let attempts = row.attempts + 1;
        // Under the trace of the command that finished the deal: scoring's span joins it.
        let span = platform::telemetry::delivery_span(
            &row.topic,
            &row.aggregate_id,
            i64::from(attempts),
            row.trace_context.as_deref(),
        );
        match send(peers, &row).instrument(span).await {
            Ok(()) => {
                outbox::Entity::update_many()
                    .col_expr(outbox::Column::DeliveredAt, Expr::value(store::now()))
                    .col_expr(outbox::Column::LastError, Expr::value(Option::<String>::None))
                    .filter(outbox::Column::Id.eq(row.id))
                    .exec(db)
                    .await?;
                delivered += 1;
                tracing::info!(deal = %row.aggregate_id, topic = %row.topic, attempts, "result delivered to scoring");
            }
            Err(error) => {
                let retry = store::now() + chrono::Duration::from_std(settings.backoff(attempts)).unwrap_or_default();
                outbox::Entity::update_many()
                    .col_expr(outbox::Column::LastError, Expr::value(Some(error.clone())))
                    .col_expr(outbox::Column::NextAttemptAt, Expr::value(retry))
                    .filter(outbox::Column::Id.eq(row.id))
                    .exec(db)
                    .await?;
                tracing::warn!(deal = %row.aggregate_id, topic = %row.topic, attempts, %error, "scoring did not take the result; will retry");
            }
        }
    }
    Ok(delivered)
}

/// Sends one row to scoring; `Err` with the reason if scoring did not acknowledge it.
async fn send(peers: &Peers, row: &outbox::Model) -> Result<(), String> {
    let channel = peers.scoring().map_err(|e| e.to_string())?;
    let mut client = ScoringServiceClient::new(channel);
    let refused = |status: tonic::Status| format!("{:?}: {}", status.code(), status.message());
    match row.topic.as_str() {
        RECORD_DEAL_RESULT => {
            let request =
                scoring::RecordDealResultRequest::decode(row.payload.as_slice()).map_err(|e| e.to_string())?;
            client.record_deal_result(request).await.map_err(refused)?;
        }
        RECORD_BOARD_RESULT => {
            let request =
                scoring::RecordBoardResultRequest::decode(row.payload.as_slice()).map_err(|e| e.to_string())?;
            client.record_board_result(request).await.map_err(refused)?;
        }
        other => return Err(format!("unknown outbox topic {other}")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let settings = OutboxSettings { initial_backoff_ms: 100, max_backoff_ms: 1000, ..Default::default() };
        let waits: Vec<u64> = (1..=6).map(|n| settings.backoff(n).as_millis() as u64).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(settings.backoff(i32::MAX).as_millis(), 1000);
    }
}
