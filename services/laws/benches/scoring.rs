//! Scoring benchmarks: one contract (Law 77), a full rubber (Laws 72-81), a matchpointed
//! board of 1,000 results (Law 78A), cross-IMPs of a board of 100 results (Law 78B), and a
//! session of 1,000 pairs on 27 boards matchpointed and ranked.
//!
//! Kept short (small samples, short measurement) for a 2-core machine shared with others.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use laws::contract::Contract;
use laws::score::Tricks;
use laws::score::duplicate::{self, BoardResult};
use laws::score::imps::cross_imps;
use laws::score::matchpoints::matchpoints;
use laws::score::rubber::{DealResult, PlayedDeal, Rubber, RubberOptions};
use laws::score::session::{Method, PairId, Session, TableResult, TableScore};
use laws::{DeclaredContract, Seat, Side, Vulnerability};

/// A fixed pseudo-random sequence (64-bit LCG), so every run measures the same work.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(bound)) as u32
    }
}

fn contract(text: &str) -> Contract {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn tricks(n: u8) -> Tricks {
    Tricks::new(n).unwrap_or_else(|e| panic!("{e}"))
}

/// Plausible board results: a handful of contracts with tricks around the level.
fn board_result(rng: &mut Lcg) -> BoardResult {
    const CONTRACTS: [&str; 8] = ["4S", "3NT", "2H", "4HX", "6S", "1NT", "5DX", "3C"];
    let contract = contract(CONTRACTS[rng.next(CONTRACTS.len() as u32) as usize]);
    let needed = contract.tricks_required();
    let tricks = tricks((needed + rng.next(5) as u8).saturating_sub(2).min(13));
    let declarer = Seat::ALL[rng.next(4) as usize];
    BoardResult::Played { contract: DeclaredContract { contract, declarer }, tricks }
}

fn board_scores(n: usize, seed: u64) -> Vec<i32> {
    let mut rng = Lcg(seed);
    (0..n).map(|_| board_result(&mut rng).ns_score(Vulnerability::NorthSouth)).collect()
}

fn rubber_deals() -> Vec<DealResult> {
    [
        (Side::NorthSouth, "2S", 8),
        (Side::EastWest, "3HXX", 6),
        (Side::EastWest, "2NT", 8),
        (Side::NorthSouth, "3NT", 10),
        (Side::NorthSouth, "4NT", 9),
        (Side::NorthSouth, "3S", 11),
        (Side::EastWest, "7D", 13),
        (Side::EastWest, "4C", 10),
    ]
    .into_iter()
    .map(|(side, c, t)| {
        DealResult::Played(PlayedDeal::new(side, contract(c), tricks(t), None).unwrap_or_else(|e| panic!("{e}")))
    })
    .collect()
}

fn session(pairs: u32, boards: u32) -> Session {
    let mut rng = Lcg(27);
    let mut session = Session::new(Method::Matchpoints);
    let tables = pairs / 2;
    for board in 1..=boards {
        session
            .add_board(board, Vulnerability::from_sides(board % 2 == 0, board % 3 == 0))
            .unwrap_or_else(|e| panic!("{e}"));
        for table in 0..tables {
            // A Mitchell-like movement: NS pairs stay, EW pairs move one table a round.
            let ns = PairId(2 * table + 1);
            let ew = PairId(2 * ((table + board) % tables) + 2);
            let score = TableScore::Result(board_result(&mut rng));
            session.add_result(TableResult { board, ns, ew, score }).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    session
}

fn benches(c: &mut Criterion) {
    let four_hearts_doubled = contract("4HX");
    c.bench_function("score one contract (Law 77)", |b| {
        b.iter(|| duplicate::score(black_box(four_hearts_doubled), black_box(true), black_box(tricks(11))))
    });

    let deals = rubber_deals();
    c.bench_function("score a full rubber of 8 deals (Laws 72-81)", |b| {
        b.iter(|| {
            let rubber = black_box(&deals)
                .iter()
                .fold(Rubber::new(RubberOptions::default()), |r, d| r.record(*d).unwrap_or_else(|e| panic!("{e}")));
            rubber.settlement()
        })
    });

    let thousand = board_scores(1000, 1);
    c.bench_function("matchpoint a board of 1,000 results (Law 78A)", |b| b.iter(|| matchpoints(black_box(&thousand))));

    let hundred = board_scores(100, 2);
    c.bench_function("cross-IMP a board of 100 results (Law 78B)", |b| b.iter(|| cross_imps(black_box(&hundred))));

    let big = session(1000, 27);
    c.bench_function("matchpoint and rank 1,000 pairs x 27 boards", |b| b.iter(|| black_box(&big).score()));
}

criterion_group! {
    name = scoring;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(scoring);
