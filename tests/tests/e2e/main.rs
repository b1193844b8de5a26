//! End-to-end tests. One binary (linking is the slow part of building tests), one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod appeals;
mod board_secrecy;
mod bulk;
mod crash;
mod errors;
mod faults;
mod foundation;
mod fuzz;
mod game;
mod jwks;
mod live_store;
mod mail;
mod membership;
mod migrations;
mod outbox;
mod paging;
mod replay;
mod replicas;
mod scoring;
mod screens;
mod signin;
mod streams;
mod third_party;
mod tls;
mod trust;
