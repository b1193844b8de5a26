//! `bridge-club`: run the whole platform in one process (see the crate docs).

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut config = platform::config::load::<club::Settings>("club")?;
    config.service.membership = platform::config::load::<membership::Settings>("membership")?.service;
    config.service.scoring = platform::config::load::<scoring::Settings>("scoring")?.service;
    config.service.appeals = platform::config::load::<appeals::Settings>("appeals")?.service;
    config.service.game = platform::config::load::<game::Settings>("game")?.service;
    let _telemetry = platform::telemetry::init("bridge-club", &config.platform.telemetry)?;
    let club = club::Club::start(&config.platform, &config.service).await.context("bridge-club did not start")?;
    let address = club.server.local_addr();
    println!("bridge-club is serving every service on {address} (gRPC and grpc-web)");
    if club.resources.issuer.is_some() {
        println!(
            "get a token with: cargo run --bin bridgectl -- token --role desk --subject front-desk (signed with {})",
            config.platform.auth.local_key_file.display()
        );
    }
    club.server.wait().await?;
    Ok(())
}
