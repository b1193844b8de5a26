//! What the `bridge-scoring` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-scoring` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    let config = platform::config::load::<crate::Settings>("scoring")?;
    let _telemetry = platform::telemetry::init("bridge-scoring", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "scoring").await.context("scoring resources")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )?;
    let service = crate::service(&resources, &config.service, &peers).await?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    tracing::info!(address = %server.local_addr(), "bridge-scoring serving");
    server.wait().await?;
    Ok(())
}
