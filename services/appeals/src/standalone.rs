//! What the `bridge-appeals` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-appeals` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    // Held to the end: it keeps telemetry installed.
    let started = platform::app::Standalone::<crate::Settings>::start("appeals", "bridge-appeals").await?;
    let service =
        crate::service(&started.resources, &started.config.service, &started.peers).await.context("appeals service")?;
    let server = started.resources.server().add_service(service).serve(started.config.platform.listen).await?;
    tracing::info!(address = %server.local_addr(), "bridge-appeals serving");
    server.wait().await?;
    Ok(())
}
