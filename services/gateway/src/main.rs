//! `bridge-gateway`: the stand-alone edge in front of the separately deployed services.

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = platform::config::load::<gateway::Settings>("gateway")?;
    let _telemetry = platform::telemetry::init("bridge-gateway", &config.platform.telemetry)?;
    let resources =
        platform::app::EdgeResources::start(&config.platform, "gateway").await.context("gateway resources")?;
    let server = gateway::start(&resources, &config.service).await.context("bridge-gateway did not start")?;
    tracing::info!(address = %server.local_addr(), "bridge-gateway serving");
    server.wait().await?;
    Ok(())
}
