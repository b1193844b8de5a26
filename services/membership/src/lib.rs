#![forbid(unsafe_code)]
//! # The membership service
//!
//! The front desk of a rubber bridge club, live: the club's register, who is in the card room,
//! the tables with their members and queues, cut-ins, draws, and the line-up of every rubber. It
//! applies the Rules for Club Procedure (A-F) and the draw of Law 3 through
//! `laws::procedure` and `laws::draw`; it decides no rule itself.
//!
//! - The room is one state machine, `laws::procedure::Room`. Every command the room accepts is
//!   one [`journal::Entry`] in Postgres, keyed (room, sequence): the primary key is the commit
//!   point, so concurrent commands race on the room's version and the loser decides again on the
//!   new room ([`engine::Engine::execute`], bounded retries). Replaying the journal through
//!   [`state::ClubState::apply`] rebuilds the room exactly (draws are recorded, never redrawn).
//! - The live room (presence, rosters, queues, rubbers in progress) is kept in the live store
//!   (Redis) by compare-and-set, with each entry's events published on the room's channel. Reads
//!   come from it and rebuild it from the journal when it is missing or behind.
//! - Every change is a numbered room event and table event, stored with its entry; WatchRoom and
//!   WatchTable resume from any number without gaps or repeats.
//! - Draws are made by the server from a CSPRNG seed, recorded with the seed, every card and
//!   position; or physical cards are recorded by the desk and checked against Law 3. A server
//!   draw's seed was committed before its players were known: each table keeps the seeds of its
//!   next server draws ([`draws::Seeds`], secret, in the journal only) and shows their SHA-256
//!   commitments (`Table.next_draw_seed_commitments`, WatchTable `draw_seeds_committed`); a draw
//!   takes the seed at the front, reveals it, and the same entry commits a new one at the back.
//!   A commitment published with the result would prove nothing: the server could have tried
//!   seeds until one suited it. Per table, because draws are per table and a table's watchers
//!   are the ones who must see the commitment. A precedence draw made as a table is opened has no
//!   table before it, so the room keeps one seed for it (`RoomSnapshot` and `ListTables`
//!   `next_opening_draw_seed_commitment`, WatchRoom `opening_draw_seed_committed`), committed by
//!   the room's first entry. The one exception says so on the draw
//!   (`Draw.seed_committed_before_draw` false): the first server draw of a table (or opening draw
//!   of a room) from before commitments were kept; its successors are committed then, since
//!   refusing would strand the existing rooms.

pub mod commands;
pub mod draws;
pub mod engine;
pub mod entity;
pub mod grpc;
pub mod journal;
pub mod signin;
pub mod standalone;
pub mod state;
pub mod store;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use api::membership::v1::membership_service_server::{MembershipService, MembershipServiceServer};
use api::membership::v1::sign_in_service_server::SignInServiceServer;
use platform::app::{Peers, Resources, StartError};

/// The service's settings (the `[membership]` table; `BRIDGE_MEMBERSHIP__*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The card room this deployment runs: the key of its journal and of its live state.
    pub room: String,
    /// How many times a command is decided again when other commands changed the room first,
    /// before it is answered ABORTED.
    pub max_attempts: u32,
    /// How often the room's state is snapshotted, in journal entries: a process starting replays
    /// only the entries after the latest snapshot.
    pub snapshot_every: u64,
    /// How long tokens, sessions and sign-in codes last (`[membership.sign_in]`).
    pub sign_in: signin::SignInSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            room: "club".to_owned(),
            max_attempts: 100,
            snapshot_every: engine::SNAPSHOT_EVERY,
            sign_in: signin::SignInSettings::default(),
        }
    }
}

/// The membership service on `resources`; it calls no other service.
pub async fn service(
    resources: &Resources,
    settings: &Settings,
    _peers: &Peers,
) -> Result<MembershipServiceServer<impl MembershipService>, StartError> {
    let store = store::Store::new(resources.db.clone(), &settings.room);
    let engine = Arc::new(
        engine::Engine::new(store, resources.live.clone(), settings)
            .with_heartbeat(resources.config.streams.heartbeat_interval()),
    );
    // Bring the room up to date before serving, so the first request does not pay for the replay.
    // A failure here is not fatal: every request catches up from the journal anyway.
    if let Err(e) = engine.current().await {
        tracing::warn!(error = %e, "membership: the journal could not be replayed at start-up");
    }
    Ok(MembershipServiceServer::new(grpc::Membership::new(engine)))
}

/// The sign-in service on `resources` (signing with `resources.issuer`, noting ended sessions in
/// `resources.revocations`, mailing codes through the `[mail]` server if there is one), and the
/// administrator it made if the club had none: on a club's first start, whoever started it is told
/// the name and password (once; they are not kept). A `[mail]` section that cannot work stops it.
pub async fn sign_in_service(
    resources: &Resources,
    settings: &Settings,
) -> Result<(SignInServiceServer<signin::SignIn>, Option<signin::FirstAdministrator>), StartError> {
    let mailer = resources.config.mail.as_ref().map(platform::mail::Mailer::new).transpose();
    let mailer = mailer.map_err(|e| StartError::Service { service: "membership", message: e.to_string() })?;
    let sign_in = signin::SignIn::new(
        resources.db.clone(),
        resources.issuer.clone(),
        resources.revocations.clone(),
        settings.sign_in.clone(),
    )
    .with_mailer(mailer);
    let first = sign_in
        .first_administrator()
        .await
        .map_err(|e| StartError::Service { service: "membership", message: format!("first administrator: {e}") })?;
    Ok((SignInServiceServer::new(sign_in), first))
}
