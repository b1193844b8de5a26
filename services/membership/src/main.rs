//! `bridge-membership`: the membership service on its own, as the Helm chart runs it.

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = platform::config::load::<membership::Settings>("membership")?;
    let _telemetry = platform::telemetry::init("bridge-membership", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "membership")
        .await
        .context("bridge-membership did not start")?;
    let peers = platform::app::Peers::from_endpoints(&config.platform.endpoints, resources.peer_interceptor.clone())?;
    let service = membership::service(&resources, &config.service, &peers).await?;
    let server = resources.server().add_service(service).serve(config.platform.listen).await?;
    println!("bridge-membership is serving on {}", server.local_addr());
    server.wait().await?;
    Ok(())
}
