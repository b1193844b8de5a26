//! Delivery of what finished deals owe the scoring service: rows written to the `outbox` in the
//! same transaction as the deal's last event, delivered by the platform's one outbox worker
//! ([`platform::outbox`]: claiming, backoff with jitter, dead letters, retention) through the
//! [`ScoringCourier`] here. Scoring records a result idempotently by deal id, so a repeat (a
//! delivery whose acknowledgement was lost) changes nothing there.
//!
//! Every failure is retried, refusals included: a result refused now may be taken later (a
//! rubber's next deal arriving before the one it follows, whose delivery failed), and a result
//! must never be dropped by the game's own judgement. A row that keeps failing becomes a dead
//! letter for an operator to look at, not a silent loss.

use std::sync::Arc;

use async_trait::async_trait;
use prost::Message;

use api::scoring::v1 as scoring;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use platform::app::Peers;
use platform::outbox::{Courier, Delivery, Outbox};

pub use platform::outbox::OutboxSettings;

use crate::engine::Engine;
use crate::entity::outbox;

/// The outbox rows this service writes.
pub const SOURCE: &str = "game";
/// A rubber or Chicago deal's result for its scorepad.
pub const RECORD_DEAL_RESULT: &str = "scoring.RecordDealResult";
/// A duplicate table's result on its board.
pub const RECORD_BOARD_RESULT: &str = "scoring.RecordBoardResult";

/// Sends the game's rows to the scoring service.
pub struct ScoringCourier {
    peers: Peers,
}

#[async_trait]
impl Courier for ScoringCourier {
    fn source(&self) -> &'static str {
        SOURCE
    }

    async fn deliver(&self, row: &outbox::Model) -> Delivery {
        match send(&self.peers, row).await {
            Ok(()) => {
                tracing::info!(deal = %row.aggregate_id, topic = %row.topic, "result delivered to scoring");
                Delivery::Acknowledged
            }
            Err(reason) => Delivery::Retry(reason),
        }
    }
}

/// The worker delivering the game's rows from `engine`'s database.
pub fn worker(engine: &Engine, peers: Peers, settings: OutboxSettings) -> Outbox<ScoringCourier> {
    Outbox::new(engine.db.clone(), ScoringCourier { peers }, settings)
}

/// Starts the worker, woken whenever a deal finishes. It stops once the engine is gone (the
/// server was shut down).
pub fn spawn(engine: &Arc<Engine>, peers: Peers, settings: OutboxSettings) -> tokio::task::JoinHandle<()> {
    worker(engine, peers, settings).with_signals(engine.outbox.clone()).spawn(Arc::downgrade(engine))
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
