//! `bridge-game`: the game service on its own (one Deployment in the Helm chart).

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = platform::config::load::<game::Settings>("game")?;
    let _telemetry = platform::telemetry::init("bridge-game", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "game").await.context("storage")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )?;
    let service = game::service(&resources, &config.service, &peers).await?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    println!("bridge-game is serving on {}", server.local_addr());
    server.wait().await?;
    Ok(())
}
