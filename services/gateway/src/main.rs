//! `bridge-gateway`: the stand-alone edge in front of the separately deployed services.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    gateway::standalone::run().await
}
