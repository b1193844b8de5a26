//! The status contract under fuzzing: random requests for every RPC (valid shapes with hostile
//! values, mutated bytes, random bytes, broken gRPC framing, megabyte ids), from every kind of
//! caller, never answer INTERNAL, UNKNOWN or UNAVAILABLE, never reset the stream, never hang.
//! A fixed seed here; `fuzz-requests` runs the same at scale.

use e2e::TestApp;
use e2e::fuzz::{Fuzzer, furnish, run};

/// Seed of the CI run: a failure here reproduces with `fuzz-requests <cases> <seed>`.
const SEED: u64 = 20_261_126;
const CASES: u64 = 3_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_client_input_breaks_the_status_contract() {
    let app = TestApp::spawn().await;
    let (known, tokens) = furnish(&app, "fuzz-ci").await;
    let mut fuzzer = Fuzzer::new(SEED, known, tokens);
    let rpcs = fuzzer.methods().len();
    let tally = run(&app.uri(), &mut fuzzer, CASES, 8).await;
    assert_eq!(tally.sent, CASES);
    assert_eq!(tally.by_method.len(), rpcs, "every RPC is fuzzed: {:?}", tally.by_method.keys());
    assert!(tally.by_code.get("InvalidArgument").copied().unwrap_or(0) > 0, "{:?}", tally.by_code);
    assert!(
        tally.failures.is_empty(),
        "{} of {CASES} answers broke the contract (seed {SEED}):\n{}",
        tally.broken,
        tally.failures.join("\n")
    );
}
