#![forbid(unsafe_code)]
//! # The scoring service
//!
//! The score of every rubber, Chicago and duplicate session, kept exactly as the Laws keep it,
//! with every entry traceable to the deal or ruling that produced it; and the stateless
//! calculators the desk and the apps use. Every bridge rule comes from the [`laws`] crate; this
//! crate translates, stores and streams.
//!
//! - [`pad`]: rubber and Chicago scorepads re-derived by replaying their score versions (results,
//!   Law 78 corrections, rulings, appeal decisions, Law 80 endings) through the laws crate;
//! - [`session`]: duplicate sessions scored whole (Law 78, Law 12C2(c)) and ranked;
//! - [`store`]: Postgres (or SQLite): versions, events, optimistic concurrency, idempotency by
//!   deal id and by ruling and appeal id;
//! - [`live`]: live score feeds over the live store (Redis), resumable from Postgres;
//! - [`calc`]: the calculators; [`export`]: PBN and USEBIO;
//! - [`grpc`]: the `ScoringService` of the contract.

pub mod calc;
pub mod entity;
pub mod export;
pub mod grpc;
pub mod live;
pub mod pad;
pub mod session;
pub mod standalone;
pub mod store;
pub mod time;

use std::time::Duration;

use api::scoring::v1::scoring_service_server::ScoringServiceServer;
use platform::app::{Peers, Resources, StartError};
use serde::{Deserialize, Serialize};

use crate::live::Feed;
use crate::session::ButlerDatum;
use crate::store::pads::Pads;
use crate::store::sessions::{SessionSettings, Sessions};

/// The scoring service's settings (the `[scoring]` table; `BRIDGE_SCORING__*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Minutes after publication that the correction period runs (Law 79C1: 30 unless the
    /// organiser sets otherwise).
    pub correction_period_minutes: u64,
    /// How the Butler datum is taken (Law 78D leaves it to the conditions of contest).
    pub butler_datum: ButlerDatum,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { correction_period_minutes: 30, butler_datum: ButlerDatum::default() }
    }
}

/// The scoring service on `resources`. It asks membership (through `peers`) for the rubber a
/// scorepad is created for.
pub async fn service(
    resources: &Resources,
    settings: &Settings,
    peers: &Peers,
) -> Result<ScoringServiceServer<grpc::Scoring>, StartError> {
    Ok(ScoringServiceServer::new(scoring(resources, settings, peers)))
}

/// The service's implementation, for callers that serve it themselves (benchmarks).
pub fn scoring(resources: &Resources, settings: &Settings, peers: &Peers) -> grpc::Scoring {
    let feed = Feed::new(resources.live.clone()).with_heartbeat(resources.config.streams.heartbeat_interval());
    let session_settings = SessionSettings {
        datum: settings.butler_datum,
        correction_period: Duration::from_secs(settings.correction_period_minutes.saturating_mul(60)),
    };
    grpc::Scoring::new(
        Pads::new(resources.db.clone(), feed.clone()),
        Sessions::new(resources.db.clone(), feed, session_settings),
        peers.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use figment::providers::{Format, Toml};

    #[test]
    fn the_example_configuration_sets_the_scoring_section() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/bridge-club.example.toml");
        let config =
            platform::config::load_from::<Settings>("scoring", figment::Figment::new().merge(Toml::file(path)));
        let settings = config.map(|c| c.service).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(settings, Settings::default());
        let custom = platform::config::load_from::<Settings>(
            "scoring",
            figment::Figment::new().merge(Toml::string("[scoring]\ncorrection_period_minutes = 45")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(custom.service.correction_period_minutes, 45);
    }
}
