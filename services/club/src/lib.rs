#![forbid(unsafe_code)]
//! `bridge-club`: every service in one process on one port, with the gateway's edge (CORS and
//! grpc-web) in front, so browsers and apps can call everything from day one.
//!
//! With no configuration it is the embedded default: SQLite in the working directory, live
//! state in the process, a generated local signing key, `127.0.0.1:50051`. With `DATABASE_URL`
//! and `REDIS_URL` it runs on Postgres and Redis, as tests and production do. Services call one
//! another over the same port, exactly as they do when they run as separate processes.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use platform::app::{Peers, Resources, StartError};
use platform::config::PlatformConfig;
use platform::server::RunningServer;

/// Settings of the all-in-one process (the `[club]` table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Requests one principal (or, without a token, one client address) may make per minute at
    /// the edge; 0 disables the limit. Services calling one another are never limited.
    pub requests_per_minute: u64,
    /// The built screens (the web application, `npm run build --prefix web`) served at `/` beside
    /// the services; relative paths are from the working directory. Without `index.html` there,
    /// `/` says how to build them and the services are unaffected.
    pub screens_dir: PathBuf,
    /// The membership service's settings (loaded from the `[membership]` table).
    #[serde(skip)]
    pub membership: membership::Settings,
    /// The scoring service's settings (its own `[scoring]` table, loaded by the binary).
    #[serde(skip)]
    pub scoring: scoring::Settings,
    /// The appeals service's settings, loaded from its own `[appeals]` table (see `main.rs`).
    #[serde(skip)]
    pub appeals: appeals::Settings,
    /// The game service's settings, loaded from its own `[game]` section.
    #[serde(skip)]
    pub game: game::Settings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            requests_per_minute: gateway::EdgeOptions::default().requests_per_minute,
            screens_dir: gateway::default_screens_dir(),
            membership: membership::Settings::default(),
            scoring: scoring::Settings::default(),
            appeals: appeals::Settings::default(),
            game: game::Settings::default(),
        }
    }
}

/// A running club.
#[derive(Debug)]
pub struct Club {
    /// The server.
    pub server: RunningServer,
    /// Its resources (database, live store, keys).
    pub resources: Resources,
    /// The administrator made on this start, when the club had none (its first start).
    pub first_administrator: Option<membership::signin::FirstAdministrator>,
}

/// Why the club did not start.
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    /// Storage or keys.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The server.
    #[error(transparent)]
    Server(#[from] platform::server::ServerError),
    /// A peer channel.
    #[error("peer channel: {0}")]
    Peers(#[from] tonic::transport::Error),
}

impl Club {
    /// Connects storage as `platform` says and starts every service.
    pub async fn start(platform: &PlatformConfig, settings: &Settings) -> Result<Club, ClubError> {
        let resources = Resources::start(platform, "club").await?;
        Self::start_with(resources, settings).await
    }

    /// Starts every service on existing resources (tests share a database and Redis prefix
    /// across restarts this way).
    pub async fn start_with(resources: Resources, settings: &Settings) -> Result<Club, ClubError> {
        let listener = platform::server::bind(resources.config.listen).await?;
        let address = listener
            .local_addr()
            .map_err(|source| platform::server::ServerError::Bind { addr: resources.config.listen, source })?;
        // Every peer is this process, unless `[endpoints]` names another address for it; over
        // TLS when this port speaks it (`tls.server_name` is then the name its certificate carries).
        let scheme = if resources.tls.is_some() { "https" } else { "http" };
        let here = Some(format!("{scheme}://{address}"));
        let configured = &resources.config.endpoints;
        let endpoints = platform::config::Endpoints {
            membership: configured.membership.clone().or_else(|| here.clone()),
            game: configured.game.clone().or_else(|| here.clone()),
            scoring: configured.scoring.clone().or_else(|| here.clone()),
            appeals: configured.appeals.clone().or_else(|| here.clone()),
        };
        // Each service calls the others under its own identity, as it would in its own process.
        let peers = |service: &str| -> Result<Peers, ClubError> {
            Ok(Peers::from_endpoints(&endpoints, &resources.peer_tls, resources.peer_interceptor_for(service)?)?)
        };
        let edge = gateway::EdgeOptions {
            cors_allowed_origins: resources.config.cors_allowed_origins.clone(),
            requests_per_minute: settings.requests_per_minute,
            screens_dir: Some(settings.screens_dir.clone()),
        };
        let (sign_in, first_administrator) = membership::sign_in_service(&resources, &settings.membership).await?;
        let server = resources
            .server()
            .add_service(membership::service(&resources, &settings.membership, &peers("membership")?).await?)
            .add_service(sign_in)
            .add_service(scoring::service(&resources, &settings.scoring, &peers("scoring")?).await?)
            .add_service(appeals::service(&resources, &settings.appeals, &peers("appeals")?).await?)
            .add_service(game::service(&resources, &settings.game, &peers("game")?).await?)
            .behind_auth(gateway::rate_limit(edge.requests_per_minute, resources.live.clone()))
            .edge(gateway::edge(edge))
            .serve_on(listener)
            .await?;
        Ok(Club { server, resources, first_administrator })
    }
}

/// What `bridge-club` says on a club's first start: the administrator it made, and how to sign in
/// as him. Said once: the password is kept only as its hash.
pub fn first_start_notice(first: &membership::signin::FirstAdministrator, address: &str) -> String {
    format!(
        "first start: created the administrator account {name:?} with the password\n\n    {password}\n\n\
         (shown this once). Sign in with:\n\n    bridgectl --server http://{address} signin --name {name}\n\n\
         then give yourself a password of your own (bridgectl account reset-password {name}) and make the staff's \
         accounts (bridgectl account create <name> --role desk).\n",
        name = first.name,
        password = first.password,
    )
}

/// What the `bridge-club` binary does: loads the configuration (file and environment), starts
/// telemetry and every service, prints where it serves and how to get a token, and serves until
/// SIGTERM or ctrl-c.
pub async fn run() -> anyhow::Result<()> {
    use anyhow::Context;

    let mut config = platform::config::load::<Settings>("club")?;
    config.service.membership = platform::config::load::<membership::Settings>("membership")?.service;
    config.service.scoring = platform::config::load::<scoring::Settings>("scoring")?.service;
    config.service.appeals = platform::config::load::<appeals::Settings>("appeals")?.service;
    config.service.game = platform::config::load::<game::Settings>("game")?.service;
    let _telemetry = platform::telemetry::init("bridge-club", &config.platform.telemetry)?;
    let club = Club::start(&config.platform, &config.service).await.context("bridge-club did not start")?;
    let address = club.server.local_addr();
    println!("bridge-club is serving every service on {} (gRPC and grpc-web)", club.server.uri());
    println!("the screens: {}/ (from {})", club.server.uri(), config.service.screens_dir.display());
    if let Some(first) = &club.first_administrator {
        print!("{}", first_start_notice(first, &address.to_string()));
    }
    if club.resources.issuer.is_some() {
        println!(
            "staff sign in with: bridgectl signin --name <account>; members redeem the code the desk issues them \
             (bridgectl member code <player>); or mint a token with: bridgectl token --role desk --subject front-desk \
             (signed with {})",
            config.platform.auth.local_key_file.display()
        );
    }
    club.server.wait().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use figment::Figment;
    use figment::providers::{Format, Toml};

    /// The example configuration shows the all-in-one's defaults, the screens' directory among them.
    #[test]
    fn the_example_configuration_shows_the_club_s_defaults() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/bridge-club.example.toml");
        let config = platform::config::load_from::<Settings>("club", Figment::new().merge(Toml::file(path))).unwrap();
        assert_eq!(config.service, Settings::default());
        assert_eq!(config.service.screens_dir, PathBuf::from("web/dist"));
    }
}
