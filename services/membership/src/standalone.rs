//! What the `bridge-membership` binary does (the service on its own, one Deployment of the Helm
//! chart): loads the configuration, starts telemetry and the service, and serves until SIGTERM
//! or ctrl-c. The e2e tests run it as a process of its own too.

/// Runs `bridge-membership` (see the module docs).
pub async fn run() -> anyhow::Result<()> {
    // Held to the end: it keeps telemetry installed.
    let started = platform::app::Standalone::<crate::Settings>::start("membership", "bridge-membership").await?;
    let service = crate::service(&started.resources, &started.config.service, &started.peers).await?;
    let (sign_in, first) = crate::sign_in_service(&started.resources, &started.config.service).await?;
    let server = started
        .resources
        .server()
        .add_service(service)
        .add_service(sign_in)
        .serve(started.config.platform.listen)
        .await?;
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
