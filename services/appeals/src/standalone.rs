//! What the `bridge-appeals` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-appeals` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    let config = platform::config::load::<crate::Settings>("appeals")?;
    let _telemetry = platform::telemetry::init("bridge-appeals", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "appeals").await.context("appeals resources")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )
    .context("peer endpoints")?;
    let service = crate::service(&resources, &config.service, &peers).await.context("appeals service")?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    tracing::info!(address = %server.local_addr(), "bridge-appeals serving");
    server.wait().await?;
    Ok(())
}
