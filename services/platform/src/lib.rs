#![forbid(unsafe_code)]
//! What every bridge-club service shares, so that each cross-cutting thing is done one way:
//!
//! - [`app`]: the resources a service process starts with;
//! - [`config`]: one typed struct per service, from a TOML file and the environment;
//! - [`telemetry`]: `tracing` with OpenTelemetry export and W3C trace context on every hop;
//! - [`server`]: health, reflection, request tracing, auth, graceful shutdown, and hooks for the edge;
//! - [`auth`]: JWT bearer tokens (HS256 locally, RS256 in production) and per-RPC roles;
//! - [`revocation`]: sessions ended early, refused by every service from a set kept in memory;
//! - [`breaker`]: the circuit breaker that makes every dependency fail fast while it is away;
//! - [`health`]: services NOT_SERVING while their database is away, SERVING once it is back;
//! - [`error`]: the one mapping of service errors to `tonic::Status`;
//! - [`contract`]: the same contract for what tonic answers itself (unreadable requests) and for panics;
//! - [`db`]: Postgres or SQLite through sea-orm, migrated at start-up;
//! - [`live`]: live state in Redis (or in process) with versioned compare-and-set and fan-out;
//! - [`mail`]: the club's mail server, bounded by its timeout, and a stand-in for tests;
//! - [`outbox`]: the one outbox worker: claiming, backoff with jitter, dead letters, retention;
//! - [`store`]: the platform's own tables (idempotency keys, the outbox) and their one use;
//! - [`bulk`]: rows inserted and updated in bulk, in one statement on Postgres;
//! - [`commit`]: group commit: many commands in one transaction, each answered once it commits;
//! - [`runtime`]: the one command pipeline: state, expected version, idempotency, journal, live copy;
//! - [`client`]: channels to other services that carry trace context and a token;
//! - [`watch`]: the one watch loop every stream runs: a live feed that outlives its subscription,
//!   catching up from the record after any gap, and heartbeats.

/// Every bridge-club process allocates through mimalloc: the live path allocates and frees many
/// small buffers per action (requests, events, rows, answers), and under load glibc's allocator
/// took about a fifth of the server's CPU (see the README's performance section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod app;
pub mod auth;
pub mod breaker;
pub mod bulk;
pub mod client;
pub mod commit;
pub mod config;
pub mod contract;
pub mod db;
pub mod error;
pub mod health;
pub mod lineup;
pub mod live;
pub mod mail;
pub mod outbox;
pub mod page;
pub mod revocation;
pub mod runtime;
pub mod server;
pub mod store;
pub mod telemetry;
pub mod tls;
pub mod watch;

pub use error::{ServiceError, ServiceResult};
