//! `bridge-appeals`: the appeals service on its own (one Deployment of the Helm chart). It calls
//! the scoring service at `endpoints.scoring`.

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = platform::config::load::<appeals::Settings>("appeals")?;
    let _telemetry = platform::telemetry::init("bridge-appeals", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "appeals").await.context("appeals resources")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )
    .context("peer endpoints")?;
    let service = appeals::service(&resources, &config.service, &peers).await.context("appeals service")?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    tracing::info!(address = %server.local_addr(), "bridge-appeals serving");
    server.wait().await?;
    Ok(())
}
