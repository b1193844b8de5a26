//! The scoring service on a real server: calculators against the worked cases, scorepads,
//! duplicate sessions, adjustments, streams and exports.

mod calculators;
mod fouled;
mod incremental;
mod movement;
mod scorepads;
mod sessions;

use api::common::v1 as pb;

/// A contract as score sheets write it: "4S", "3NTX", "6HXX".
pub fn contract(text: &str) -> pb::Contract {
    let contract: laws::Contract = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    contract.into()
}

/// A played result: `text` by `declarer`, who took `tricks`.
pub fn played(text: &str, declarer: pb::Seat, tricks: u32) -> pb::DealResult {
    pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(pb::DeclaredContract { contract: Some(contract(text)), declarer: declarer as i32 }),
            tricks,
        })),
        honors: Vec::new(),
    }
}

/// A passed-out deal.
pub fn passed_out() -> pb::DealResult {
    pb::DealResult { outcome: Some(pb::deal_result::Outcome::PassedOut(pb::PassedOut {})), honors: Vec::new() }
}
