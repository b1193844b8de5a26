//! What the `bridge-game` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-game` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    let config = platform::config::load::<crate::Settings>("game")?;
    let _telemetry = platform::telemetry::init("bridge-game", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "game").await.context("storage")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )?;
    let service = crate::service(&resources, &config.service, &peers).await?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    println!("bridge-game is serving on {}", server.local_addr());
    server.wait().await?;
    Ok(())
}
