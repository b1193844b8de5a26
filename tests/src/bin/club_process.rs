//! `club-process`: `bridge-club` as a child process of the e2e tests, for the tests that kill it
//! with SIGKILL (a crash, not a shutdown). It is the real binary's code (`club::run`), built with
//! the tests so that they can find it (`CARGO_BIN_EXE_club-process`).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    club::run().await
}
