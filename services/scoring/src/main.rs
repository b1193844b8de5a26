//! `bridge-scoring`: the scoring service on its own, as the Helm chart deploys it.

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = platform::config::load::<scoring::Settings>("scoring")?;
    let _telemetry = platform::telemetry::init("bridge-scoring", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "scoring").await.context("scoring resources")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )?;
    let service = scoring::service(&resources, &config.service, &peers).await?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    tracing::info!(address = %server.local_addr(), "bridge-scoring serving");
    server.wait().await?;
    Ok(())
}
