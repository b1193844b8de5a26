//! `bridge-membership`: the membership service on its own, as the Helm chart runs it.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    membership::standalone::run().await
}
