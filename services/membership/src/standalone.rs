//! What the `bridge-membership` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

use anyhow::Context;

/// Runs `bridge-membership` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    let config = platform::config::load::<crate::Settings>("membership")?;
    let _telemetry = platform::telemetry::init("bridge-membership", &config.platform.telemetry)?;
    let resources = platform::app::Resources::start(&config.platform, "membership")
        .await
        .context("bridge-membership did not start")?;
    let peers = platform::app::Peers::from_endpoints(
        &config.platform.endpoints,
        &resources.peer_tls,
        resources.peer_interceptor.clone(),
    )?;
    let service = crate::service(&resources, &config.service, &peers).await?;
    let (sign_in, first) = crate::sign_in_service(&resources, &config.service).await?;
    let server = resources.server().add_service(service).add_service(sign_in).serve(config.platform.listen).await?;
    println!("bridge-membership is serving on {}", server.local_addr());
    if let Some(first) = first {
        // Shown once, in this start's log: the password is kept only as its hash.
        println!(
            "first start: created the administrator account {:?} with the password {}; sign in with `bridgectl \
             signin --name {}` and set a password of your own (`bridgectl account reset-password`)",
            first.name, first.password, first.name
        );
    }
    server.wait().await?;
    Ok(())
}
