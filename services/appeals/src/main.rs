//! `bridge-appeals`: the appeals service on its own (one Deployment of the Helm chart). It calls
//! the scoring service at `endpoints.scoring`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    appeals::standalone::run().await
}
