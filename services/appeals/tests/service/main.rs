//! The appeals service's commands and queries against a SQLite database and an in-memory scoring
//! service (see `common`): rulings, the appeal lifecycle, the club's policy, per-principal rules,
//! delivery to scoring, notices and the audit.
//!
//! Grouped by concern: recording rulings (`rulings`), filing and withdrawing appeals under the
//! club's policy and the Laws (`filing`), the committee's hearing and decision (`committee`), and
//! what each principal reads and is told (`queries_and_notices`). This file keeps the helpers
//! that read a refusal.
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

mod committee;
mod filing;
mod game_committee;
mod procedure;
mod queries_and_notices;
mod roster;
mod rulings;

use platform::ServiceError;

fn code(result: &Result<impl std::fmt::Debug, ServiceError>) -> tonic::Code {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => error.code(),
    }
}

fn message<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> String {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => error.to_string(),
    }
}
