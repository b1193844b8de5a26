//! `bridge-scoring`: the scoring service on its own, as the Helm chart deploys it.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    scoring::standalone::run().await
}
