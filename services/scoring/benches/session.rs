//! A duplicate session of 1,000 pairs on 27 boards (13,500 table results), matchpointed and
//! ranked through the service's code path: stored results (the contract's `DealResult`) in, the
//! laws crate's Law 78A scoring and Law 12C2(c) pass, the contract's `ScoreValues` and
//! `Standing`s out, as every change to a session does. Also one pad replayed from 8 versions.
//!
//! Kept short (small samples, short measurement) for a 2-core machine shared with others.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Duration;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use criterion::{Criterion, criterion_group, criterion_main};
use scoring::pad::{Header, Operation, Pad};
use scoring::session::{ButlerDatum, Row, score};

/// A fixed pseudo-random sequence (64-bit LCG), so every run measures the same work.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(bound)) as u32
    }
}

const SEATS: [pb::Seat; 4] = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];

fn result(rng: &mut Lcg) -> pb::DealResult {
    const CONTRACTS: [&str; 8] = ["4S", "3NT", "2H", "4HX", "6S", "1NT", "5DX", "3C"];
    let contract: laws::Contract = CONTRACTS[rng.next(8) as usize].parse().unwrap();
    let needed = u32::from(contract.tricks_required());
    let tricks = (needed + rng.next(5)).saturating_sub(2).min(13);
    pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(pb::DeclaredContract {
                contract: Some(contract.into()),
                declarer: SEATS[rng.next(4) as usize] as i32,
            }),
            tricks,
        })),
        honors: Vec::new(),
    }
}

fn session(pairs: u32, boards: u32) -> (spb::Session, Vec<Row>) {
    let request = spb::CreateSessionRequest {
        name: "bench".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=boards).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: (1..=pairs).map(|n| spb::Contestant { name: format!("pair {n}"), ..Default::default() }).collect(),
    };
    let definition = scoring::session::define(request).unwrap();
    let mut rng = Lcg(27);
    let tables = pairs / 2;
    let mut rows = Vec::new();
    for board in 1..=boards {
        for table in 0..tables {
            // A Mitchell-like movement: North-South pairs stay, East-West pairs move a table a round.
            rows.push(Row {
                board,
                ns: (2 * table + 1).to_string(),
                ew: (2 * ((table + board) % tables) + 2).to_string(),
                table_result: Some(result(&mut rng)),
                adjustment: None,
                form: 0,
            });
        }
    }
    (definition, rows)
}

fn rubber() -> Vec<Operation> {
    let deals = [
        ("2S", 0, 8),
        ("3HXX", 1, 6),
        ("2NT", 3, 8),
        ("3NT", 2, 10),
        ("4NT", 0, 9),
        ("3S", 2, 11),
        ("7D", 1, 13),
        ("4C", 3, 10),
    ];
    deals
        .iter()
        .enumerate()
        .map(|(i, (contract, seat, tricks))| {
            let contract: laws::Contract = contract.parse().unwrap();
            Operation::Record {
                deal_id: i.to_string(),
                result: pb::DealResult {
                    outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                        contract: Some(pb::DeclaredContract {
                            contract: Some(contract.into()),
                            declarer: SEATS[*seat] as i32,
                        }),
                        tricks: *tricks,
                    })),
                    honors: Vec::new(),
                },
                hands: None,
                source: spb::ResultSource::Game,
            }
        })
        .collect()
}

fn replay(operations: &[Operation]) -> spb::Scorepad {
    let mut pad = Pad::new(Header {
        scorepad_id: "bench".into(),
        kind: pb::TableKind::Rubber,
        table_id: String::new(),
        rubber_id: String::new(),
        players: Vec::new(),
        first_dealer: Some(laws::Seat::North),
        options: spb::ScorepadOptions::default(),
        created_at: None,
    })
    .unwrap();
    for operation in operations {
        let version = spb::ScoreVersion { version: pad.version() + 1, ..Default::default() };
        pad.apply(operation, version).unwrap();
    }
    pad.to_proto()
}

fn benches(c: &mut Criterion) {
    let (definition, rows) = session(1000, 27);
    c.bench_function("service path: matchpoint and rank 1,000 pairs x 27 boards", |b| {
        b.iter(|| score(black_box(&definition), black_box(&rows), ButlerDatum::default()).unwrap())
    });
    let operations = rubber();
    c.bench_function("service path: replay a rubber pad of 8 versions and render it", |b| {
        b.iter(|| replay(black_box(&operations)))
    });
}

criterion_group! {
    name = session_benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(session_benches);
