//! `fuzz-requests`: the contract fuzzer at scale. Starts the whole platform on loopback against a
//! fresh Postgres database and Redis prefix (as the e2e tests do), furnishes it, sends random
//! requests for every RPC, and prints the answers by code and by RPC. Exits non-zero if any
//! answer broke the status contract.
//!
//! ```text
//! cargo run --release -p e2e --bin fuzz-requests -- [cases] [seed] [concurrency]
//! ```
//!
//! Defaults: 100000 cases, a seed from the clock, 16 at a time.

use std::time::Instant;

use e2e::fuzz::{Fuzzer, furnish, run};

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let cases: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let concurrency: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);

    let app = e2e::TestApp::spawn().await;
    let (known, tokens) = furnish(&app, "fuzz").await;
    let mut fuzzer = Fuzzer::new(seed, known, tokens);
    println!("fuzzing {} RPCs with {cases} cases, seed {seed}, {concurrency} at a time", fuzzer.methods().len());
    let started = Instant::now();
    let tally = run(&app.uri(), &mut fuzzer, cases, concurrency).await;
    let elapsed = started.elapsed();
    println!(
        "{} cases in {:.1} s ({:.0} a second)",
        tally.sent,
        elapsed.as_secs_f64(),
        tally.sent as f64 / elapsed.as_secs_f64()
    );
    println!("answers by code:");
    for (code, n) in &tally.by_code {
        println!("  {code:<20} {n}");
    }
    println!("RPCs called: {} (fewest cases: {})", tally.by_method.len(), tally.by_method.values().min().unwrap_or(&0));
    println!("contract broken: {}", tally.broken);
    for failure in &tally.failures {
        println!("  {failure}");
    }
    drop(app);
    if tally.broken > 0 {
        std::process::exit(1);
    }
}
