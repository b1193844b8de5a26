#![forbid(unsafe_code)]
//! # The game service: the live deal at every table
//!
//! Every table's deal in progress: the deal, the auction, the play, claims, and the
//! irregularities that happen at real tables. The rules are the laws crate's
//! ([`laws::table::DealInProgress`] drives the auction and play engines); this service keeps the
//! state durable ([`store`]: a Postgres journal keyed (table, sequence)), live ([`engine`]: Redis,
//! rebuilt from the journal when it is flushed or behind), private per seat ([`render`]), and
//! streamed ([`watch`]). A finished deal's result goes to scoring through the outbox
//! ([`outbox`]).
//!
//! Two ways a table plays: **digital**, the server deals from a seed whose SHA-256 is published
//! at the start and revealed at the end, and illegal calls and plays are refused with their Law;
//! **recorded**, the cards are physical and calls, plays and irregularities are recorded as
//! facts, rectified with the options the Laws give, or only the result is entered.

pub mod engine;
pub mod entity;
pub mod grpc;
pub mod outbox;
pub mod owners;
pub mod pbn;
pub mod render;
pub mod setup;
pub mod standalone;
pub mod starting;
pub mod store;
pub mod stored;
pub mod translate;
pub mod watch;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use api::game::v1::game_service_server::GameServiceServer;
use laws::table::{ErrorKind, TableError};
use platform::ServiceError;
use platform::app::{Peers, Resources, StartError};

/// The game service's settings (the `[game]` table).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// How results are delivered to scoring.
    pub outbox: outbox::OutboxSettings,
}

/// The game service on `resources`, with its outbox worker running and its live tables reported
/// (the `game.live_tables` gauge).
pub async fn service(
    resources: &Resources,
    settings: &Settings,
    peers: &Peers,
) -> Result<GameServiceServer<grpc::GameApi>, StartError> {
    let engine = Arc::new(
        engine::Engine::new(resources.db.clone(), resources.live.clone())
            .with_heartbeat(resources.config.streams.heartbeat_interval()),
    );
    outbox::spawn(&engine, peers.clone(), settings.outbox.clone());
    let weak = Arc::downgrade(&engine);
    platform::telemetry::observe_gauge(
        "game.live_tables",
        "tables with a deal in progress, as this process last saw them",
        move || weak.upgrade().map(|engine| engine.live_tables().count()),
    );
    Ok(GameServiceServer::new(grpc::GameApi::new(engine, peers.clone())))
}

/// A refusal of the laws as the platform reports it: a rule names its Law (FAILED_PRECONDITION),
/// a malformed action is INVALID_ARGUMENT, an unknown record NOT_FOUND, a choice the Laws give to
/// someone else PERMISSION_DENIED.
pub(crate) fn table_error(error: TableError) -> ServiceError {
    let message = error.to_string();
    match (error.kind(), error.law()) {
        (ErrorKind::Rule, Some(law)) => ServiceError::Rule { message, law },
        (ErrorKind::Rule | ErrorKind::Precondition, _) => ServiceError::FailedPrecondition(message),
        (ErrorKind::Invalid, _) => ServiceError::InvalidArgument(message.into()),
        (ErrorKind::NotFound, _) => ServiceError::NotFound(message),
        (ErrorKind::NotEntitled, _) => ServiceError::PermissionDenied(message),
    }
}
