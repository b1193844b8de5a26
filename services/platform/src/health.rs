//! Health that follows what services cannot work without: a server's services report
//! NOT_SERVING in `grpc.health.v1` while a [`Dependency`] (the database) is away, and SERVING
//! again once it is back, by themselves.
//!
//! Redis is not such a dependency: services go on from the durable record without it. The
//! overall status (the empty service name, which liveness probes ask) is left alone: restarting
//! the process would not bring a database back.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

/// Something a server's services cannot work without.
#[derive(Clone)]
pub struct Dependency {
    name: &'static str,
    up: watch::Receiver<bool>,
    interval: Duration,
    probe: Arc<dyn Fn() -> BoxFuture<'static, ()> + Send + Sync>,
}

impl std::fmt::Debug for Dependency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dependency").field("name", &self.name).field("up", &*self.up.borrow()).finish_non_exhaustive()
    }
}

impl Dependency {
    /// The dependency `name`, up while `up` says so; `probe` runs every `interval` so that `up`
    /// changes even while no calls come (a [`crate::breaker::Breaker`] and its probe, typically).
    pub fn new(
        name: &'static str,
        up: watch::Receiver<bool>,
        interval: Duration,
        probe: impl Fn() -> BoxFuture<'static, ()> + Send + Sync + 'static,
    ) -> Dependency {
        Dependency { name, up, interval, probe: Arc::new(probe) }
    }
}

/// Probes `dependencies` and sets `services`' health to follow them, until aborted (the server
/// stopping) or the dependencies are dropped.
pub(crate) fn follow(
    dependencies: Vec<Dependency>,
    reporter: HealthReporter,
    services: Vec<&'static str>,
) -> Option<JoinHandle<()>> {
    if dependencies.is_empty() {
        return None;
    }
    Some(tokio::spawn(async move {
        let probing = futures::future::join_all(dependencies.iter().map(|dependency| {
            let (probe, interval) = (dependency.probe.clone(), dependency.interval);
            async move {
                let mut ticks = tokio::time::interval(interval);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    ticks.tick().await;
                    probe().await;
                }
            }
        }));
        let mut ups: Vec<(&'static str, watch::Receiver<bool>)> =
            dependencies.iter().map(|dependency| (dependency.name, dependency.up.clone())).collect();
        let reporting = async move {
            let mut serving = true;
            loop {
                let mut away = Vec::new();
                for (name, up) in &mut ups {
                    if !*up.borrow_and_update() {
                        away.push(*name);
                    }
                }
                if away.is_empty() != serving {
                    serving = away.is_empty();
                    let status = if serving { ServingStatus::Serving } else { ServingStatus::NotServing };
                    if serving {
                        tracing::info!(?services, "dependencies back; SERVING");
                    } else {
                        tracing::warn!(?services, ?away, "a dependency is away; NOT_SERVING until it is back");
                    }
                    for name in &services {
                        reporter.set_service_status(name, status).await;
                    }
                }
                let changes = ups.iter_mut().map(|(_, up)| Box::pin(up.changed()));
                if futures::future::select_all(changes).await.0.is_err() {
                    return;
                }
            }
        };
        tokio::select! {
            _ = probing => {}
            () = reporting => {}
        }
    }))
}
