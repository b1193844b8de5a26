//! The deal in progress: what the game service pays per command (one `apply`) and when it
//! rebuilds a table from its journal (replaying a whole deal, about sixty actions).
//!
//! Kept short (small samples, short measurement) for a 2-core machine shared with others.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use laws::table::{Action, DealInProgress, Hands, Mode, Setup};
use laws::{Code, DealSeed, Seat, Vulnerability};

fn setup(seed: u8) -> Setup {
    Setup {
        code: Code::Duplicate,
        mode: Mode::Digital,
        dealer: Seat::North,
        vulnerability: Vulnerability::None,
        hands: Hands::Seeded(DealSeed([seed; 32])),
        result_only: false,
    }
}

/// The actions of a whole deal: 1NT passed out to the end, each hand its first legal card.
fn whole_deal(seed: u8) -> Vec<Action> {
    let (mut table, _) = DealInProgress::start(setup(seed)).unwrap_or_else(|e| panic!("{e}"));
    let mut actions = Vec::new();
    for (seat, call) in [(Seat::North, "1N"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")] {
        actions.push(Action::Call { seat, call: call.parse().unwrap_or_else(|e| panic!("{e}")), relates_to: None });
    }
    for action in &actions {
        table = table.apply(action).unwrap_or_else(|e| panic!("{e}")).0;
    }
    while let Some(play) = table.play().filter(|_| !table.is_over()) {
        let seat = play.next_to_play().unwrap_or_else(|| panic!("someone plays"));
        let card = play.legal_cards().iter().next().unwrap_or_else(|| panic!("a legal card"));
        let action = Action::Play { seat, card };
        table = table.apply(&action).unwrap_or_else(|e| panic!("{e}")).0;
        actions.push(action);
    }
    actions
}

fn replay(seed: u8, actions: &[Action]) -> DealInProgress {
    let (table, _) = DealInProgress::start(setup(seed)).unwrap_or_else(|e| panic!("{e}"));
    actions.iter().fold(table, |table, action| table.apply(action).unwrap_or_else(|e| panic!("{e}")).0)
}

fn benches(c: &mut Criterion) {
    let actions = whole_deal(3);
    c.bench_function("table: replay a whole deal (4 calls, 52 cards)", |b| {
        b.iter(|| replay(3, black_box(&actions)));
    });
    let before_last = replay(3, &actions[..actions.len() - 1]);
    let last = actions[actions.len() - 1].clone();
    c.bench_function("table: apply one card (the last, ending the deal)", |b| {
        b.iter(|| black_box(&before_last).apply(black_box(&last)).unwrap_or_else(|e| panic!("{e}")));
    });
}

criterion_group! {
    name = table;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = benches
}
criterion_main!(table);
