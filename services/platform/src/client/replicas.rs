//! A service run as several replicas behind one name in the configuration
//! (`endpoints.game = "http://game-0:50051,http://game-1:50051"`): calls are balanced over the
//! replicas that answer their health check, so one that stops, drains or loses a dependency is
//! taken out within a probe, not left to fail half the calls until it returns.
//!
//! tonic's balancer alone keeps a replica whose connection is refused in its set, and each call
//! routed there fails until the replica is back. Here a task probes every replica's health
//! (`grpc.health.v1`, the service's own name, which a replica reports NOT_SERVING while it drains
//! or while its database or Redis is away) every [`PROBE_INTERVAL`], and takes a replica out of
//! the set or puts it back as the probes say. When no replica answers, every one is kept: a call
//! then fails at once with UNAVAILABLE at a dead replica, where an empty set would leave it
//! waiting for one to come back.

use std::time::Duration;

use tonic::transport::channel::Change;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// How often each replica's health is asked.
pub const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// How long a replica has to answer its probe before it counts as away.
const PROBE_TIMEOUT: Duration = Duration::from_millis(400);

/// A channel balanced over `replicas` (address and endpoint), each probed as serving `service`
/// (its full gRPC name); the probing stops once the channel and every clone of it are dropped.
/// Must be called within a Tokio runtime.
pub fn balanced(replicas: Vec<(String, Endpoint)>, service: &'static str) -> Channel {
    let (channel, changes) = Channel::balance_channel::<String>(replicas.len().max(1) * 2);
    tokio::spawn(follow(replicas, service, changes));
    channel
}

/// Puts every replica in the set, then keeps the set to those that answer their probes.
async fn follow(
    replicas: Vec<(String, Endpoint)>,
    service: &'static str,
    changes: tokio::sync::mpsc::Sender<Change<String, Endpoint>>,
) {
    // A replica is trusted until a probe says otherwise: the first calls need not wait for one.
    let mut in_set = vec![true; replicas.len()];
    for (address, endpoint) in &replicas {
        if changes.send(Change::Insert(address.clone(), endpoint.clone())).await.is_err() {
            return;
        }
    }
    let probes: Vec<HealthClient<Channel>> =
        replicas.iter().map(|(_, endpoint)| HealthClient::new(endpoint.connect_lazy())).collect();
    let mut ticks = tokio::time::interval(PROBE_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if changes.is_closed() {
            return;
        }
        let serving = futures::future::join_all(probes.iter().map(|probe| serves(probe.clone(), service))).await;
        let any = serving.iter().any(|serving| *serving);
        for (i, (address, endpoint)) in replicas.iter().enumerate() {
            let keep = serving[i] || !any;
            if keep == in_set[i] {
                continue;
            }
            let change = if keep {
                tracing::info!(replica = %address, service, "replica serving again: calls go to it");
                Change::Insert(address.clone(), endpoint.clone())
            } else {
                tracing::warn!(replica = %address, service, "replica not serving: calls go to the others");
                Change::Remove(address.clone())
            };
            if changes.send(change).await.is_err() {
                return;
            }
            in_set[i] = keep;
        }
    }
}

/// Whether the replica behind `probe` answers that it serves `service`, within [`PROBE_TIMEOUT`].
async fn serves(mut probe: HealthClient<Channel>, service: &str) -> bool {
    let request = HealthCheckRequest { service: service.to_owned() };
    match tokio::time::timeout(PROBE_TIMEOUT, probe.check(request)).await {
        Ok(Ok(answer)) => answer.into_inner().status == ServingStatus::Serving as i32,
        _ => false,
    }
}
