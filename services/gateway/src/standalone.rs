//! What the `bridge-gateway` binary does (the edge in front of the separately deployed
//! services): loads the configuration, starts telemetry and the gateway, and serves until
//! SIGTERM or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-gateway` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    let config = platform::config::load::<crate::Settings>("gateway")?;
    let _telemetry = platform::telemetry::init("bridge-gateway", &config.platform.telemetry)?;
    let resources =
        platform::app::EdgeResources::start(&config.platform, "gateway").await.context("gateway resources")?;
    let server = crate::start(&resources, &config.service).await.context("bridge-gateway did not start")?;
    tracing::info!(address = %server.local_addr(), "bridge-gateway serving");
    server.wait().await?;
    Ok(())
}
