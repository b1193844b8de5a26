#![forbid(unsafe_code)]
//! # The appeals service
//!
//! Rulings and appeals as first-class records (`bridgeclub.appeals.v1.AppealsService`):
//!
//! - an arbiter or director records a **ruling** on a deal: the irregularity, the Laws, the facts,
//!   the decision; an adjusted score is applied to the score by the scoring service at once;
//! - a **player of the deal** appeals it, where the club's published policy allows and within its
//!   time limit ([`laws::appeals`]: the Club Appeals Committee; duplicate Laws 92 and 93);
//! - the **committee** (members of the club's roster whose term covers the hearing, as many as
//!   the policy says, or the committee a rubber's players agreed before its first deal) hears it
//!   and decides it: upheld, overruled or varied. A decision that changes the result is applied
//!   by the scoring service (`ApplyAdjustment` with the appeal's id), which rescores only that
//!   deal with the Club Appeals Committee premiums (rubber), that deal with its own vulnerability
//!   (Chicago), or the board across the field and the session's ranking (duplicate), each as a
//!   new score version referencing the appeal;
//! - every step is a **notice** on `WatchAppeals` (all of them for staff and the committee, a
//!   player's own to a player) and an entry in the **audit** of the score.
//!
//! Who played a deal comes from the scoring service when the ruling is recorded (a scorepad's
//! players; a board's contestants with their members and captains) and is kept with the ruling.
//! How nothing is lost or applied twice across the two services is in [`service`] and
//! [`delivery`].

pub mod book;
pub mod delivery;
pub mod deposits;
pub mod entity;
pub mod grpc;
pub mod notice;
pub mod owners;
pub mod procedure;
pub mod queries;
pub mod records;
pub mod scoring;
pub mod service;
pub mod standalone;
pub mod store;
pub mod watch;

use std::sync::Arc;
use std::time::Duration;

use api::appeals::v1::appeals_service_server::AppealsServiceServer;
use platform::app::{Peers, Resources, StartError};
use serde::{Deserialize, Serialize};

pub use grpc::AppealsGrpc;
pub use service::Appeals;

/// The appeals service's settings (the `[appeals]` table). The policy fields are the club's first
/// published appeal policy, used only while no administrator has published one with
/// `UpdateAppealPolicy`; after that the published policy rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Whether appeals are heard (the Club Appeals Committee hears appeals only under a procedure
    /// published in advance). Off by default.
    pub appeals_allowed: bool,
    /// Rubber and Chicago: minutes after the ruling an appeal may be filed.
    pub rubber_time_limit_minutes: u64,
    /// Duplicate: minutes after the official score is published (Law 92B: 30).
    pub duplicate_time_limit_minutes: u64,
    /// Committee members who hear and decide an appeal (the director's guide: normally three).
    pub committee_size: u32,
    /// Seconds between the worker's attempts to deliver what the scoring service is owed.
    pub delivery_interval_seconds: u64,
}

impl Default for Settings {
    fn default() -> Self {
        let policy = laws::appeals::AppealPolicy::default();
        Settings {
            appeals_allowed: policy.appeals_allowed(),
            rubber_time_limit_minutes: policy.rubber_time_limit().as_secs() / 60,
            duplicate_time_limit_minutes: policy.duplicate_time_limit().as_secs() / 60,
            committee_size: policy.committee_size(),
            delivery_interval_seconds: 5,
        }
    }
}

impl Settings {
    /// The policy these settings describe.
    pub fn policy(&self) -> Result<laws::appeals::AppealPolicy, laws::appeals::PolicyError> {
        laws::appeals::AppealPolicy::new(
            self.appeals_allowed,
            Duration::from_secs(self.rubber_time_limit_minutes.saturating_mul(60)),
            Duration::from_secs(self.duplicate_time_limit_minutes.saturating_mul(60)),
            self.committee_size,
        )
    }
}

/// The appeals service on `resources`, calling the scoring service of `peers`, with its delivery
/// worker running until the returned service is dropped.
pub async fn service(
    resources: &Resources,
    settings: &Settings,
    peers: &Peers,
) -> Result<AppealsServiceServer<impl api::appeals::v1::appeals_service_server::AppealsService>, StartError> {
    let failed = |message: String| StartError::Service { service: "appeals", message };
    let policy = settings.policy().map_err(|e| failed(format!("[appeals] settings: {e}")))?;
    store::seed(&resources.db, &policy).await.map_err(|e| failed(format!("cannot seed the appeal policy: {e}")))?;
    let interval = Duration::from_secs(settings.delivery_interval_seconds.max(1));
    let appeals = Arc::new(
        Appeals::new(
            resources.db.clone(),
            resources.live.clone(),
            Arc::new(scoring::GrpcScoreKeeper::new(peers.clone())),
            interval * 2,
        )
        .with_heartbeat(resources.config.streams.heartbeat_interval())
        .with_owners(Arc::new(owners::GrpcOwners::new(peers.clone())))
        .with_outbox(platform::outbox::OutboxSettings {
            poll_interval_ms: interval.as_millis() as u64,
            ..service::outbox_defaults()
        }),
    );
    // The worker runs while the service does: it holds the only strong reference to `alive`.
    let alive = Arc::new(());
    delivery::worker(&appeals).spawn(Arc::downgrade(&alive));
    Ok(AppealsServiceServer::new(AppealsGrpc::new(appeals, alive)))
}
