//! A service run as several replicas: calls are balanced over the replicas that answer their
//! health check, so one that stops, drains or loses a dependency is taken out within a probe, not
//! left to fail half the calls until it returns. The replicas are named in the configuration
//! either one by one (`endpoints.game = "http://game-0:50051,http://game-1:50051"`) or by a name
//! that resolves to all of them (`endpoints.game = "dns+http://club-game-replicas:50051"`, a
//! Kubernetes headless Service: its name resolves to the address of every ready pod), looked up
//! again every [`RESOLVE_INTERVAL`].
//!
//! tonic's balancer alone keeps a replica whose connection is refused in its set, and each call
//! routed there fails until the replica is back; and one connection to a Service's virtual
//! address pins every call to one pod, HTTP/2 being one long-lived connection. Here a task
//! probes every replica's health (`grpc.health.v1`, the service's own name, which a replica
//! reports NOT_SERVING while it drains or while its database or Redis is away) every
//! [`PROBE_INTERVAL`], and the set is the replicas that answer. When none answers, every known
//! replica is kept, and when none is known (the name does not resolve), the name itself: a call
//! then fails at once with UNAVAILABLE where an empty set would leave it waiting.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use tonic::transport::channel::Change;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::tls::PeerTls;

/// How often each replica's health is asked.
pub const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// How often a name standing for the replicas is looked up again.
pub const RESOLVE_INTERVAL: Duration = Duration::from_secs(5);

/// How long a replica has to answer its probe before it counts as away.
const PROBE_TIMEOUT: Duration = Duration::from_millis(400);

/// The prefix of a name that stands for every replica it resolves to.
pub const DISCOVER: &str = "dns+";

/// Where the replicas are.
#[derive(Debug, Clone)]
pub enum Replicas {
    /// These addresses.
    Listed(Vec<String>),
    /// Every address `uri`'s host resolves to (`uri` without [`DISCOVER`]).
    Discovered {
        /// `http://host:port` or `https://host:port`.
        uri: String,
    },
}

/// A channel balanced over `replicas`, each probed as serving `service` (its full gRPC name),
/// called over TLS as `tls` says; the probing stops once the channel and every clone of it are
/// dropped. Must be called within a Tokio runtime.
pub fn balanced(replicas: Replicas, service: &'static str, tls: &PeerTls) -> Result<Channel, tonic::transport::Error> {
    let mut follower = Follower::new(replicas, service, tls.clone())?;
    let (channel, changes) = Channel::balance_channel::<String>(16);
    // Until the first probes answer, calls go to every replica named, or to the name itself.
    let first = follower.fallback();
    for (address, endpoint) in &first {
        let _ = changes.try_send(Change::Insert(address.clone(), endpoint.clone()));
    }
    follower.in_set = first.into_keys().collect();
    tokio::spawn(async move { follower.follow(changes).await });
    Ok(channel)
}

/// The replicas as the probes last found them, and which of them calls go to.
struct Follower {
    replicas: Replicas,
    service: &'static str,
    tls: PeerTls,
    /// Every replica known, by address, with its endpoint and its probe.
    known: BTreeMap<String, (Endpoint, HealthClient<Channel>)>,
    /// The addresses calls go to.
    in_set: BTreeSet<String>,
}

impl Follower {
    fn new(replicas: Replicas, service: &'static str, tls: PeerTls) -> Result<Follower, tonic::transport::Error> {
        let mut follower = Follower { replicas, service, tls, known: BTreeMap::new(), in_set: BTreeSet::new() };
        if let Replicas::Listed(addresses) = &follower.replicas {
            for address in addresses.clone() {
                let endpoint = super::endpoint(&address, &follower.tls)?;
                follower.know(address, endpoint);
            }
        }
        Ok(follower)
    }

    fn know(&mut self, address: String, endpoint: Endpoint) {
        let probe = HealthClient::new(endpoint.connect_lazy());
        self.known.insert(address, (endpoint, probe));
    }

    /// Where calls go when no replica answers: every replica known, or the name itself.
    fn fallback(&self) -> BTreeMap<String, Endpoint> {
        if !self.known.is_empty() {
            return self.known.iter().map(|(address, (endpoint, _))| (address.clone(), endpoint.clone())).collect();
        }
        match &self.replicas {
            Replicas::Discovered { uri } => super::endpoint(uri, &self.tls)
                .map(|endpoint| BTreeMap::from([(uri.clone(), endpoint)]))
                .unwrap_or_default(),
            Replicas::Listed(_) => BTreeMap::new(),
        }
    }

    /// Looks the name up again (a failed lookup keeps the replicas known before).
    async fn resolve(&mut self) {
        let Replicas::Discovered { uri } = &self.replicas else { return };
        let Some((scheme, rest)) = uri.split_once("://") else { return };
        let authority = rest.split('/').next().unwrap_or(rest).to_owned();
        let host = authority.rsplit_once(':').map_or(authority.as_str(), |(host, _)| host).to_owned();
        let (scheme, uri) = (scheme.to_owned(), uri.clone());
        let Ok(found) = tokio::net::lookup_host(authority.as_str()).await else {
            tracing::warn!(%uri, "the replicas' name did not resolve; keeping the replicas known");
            return;
        };
        let found: BTreeSet<String> = found.map(|address| format!("{scheme}://{address}")).collect();
        self.known.retain(|address, _| found.contains(address));
        for address in found {
            if self.known.contains_key(&address) {
                continue;
            }
            if let Ok(endpoint) = super::endpoint_over(&address, self.tls.for_address_of(&host, &address)) {
                self.know(address, endpoint);
            }
        }
    }

    /// Probes the replicas every [`PROBE_INTERVAL`] (looking the name up again every
    /// [`RESOLVE_INTERVAL`]) and moves the set to those that serve.
    async fn follow(mut self, changes: tokio::sync::mpsc::Sender<Change<String, Endpoint>>) {
        let mut ticks = tokio::time::interval(PROBE_INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let resolve_every = (RESOLVE_INTERVAL.as_millis() / PROBE_INTERVAL.as_millis()).max(1);
        for tick in 0u128.. {
            ticks.tick().await;
            if changes.is_closed() {
                return;
            }
            if tick % resolve_every == 0 {
                self.resolve().await;
            }
            let probes = self.known.iter().map(|(address, (_, probe))| {
                let (address, probe) = (address.clone(), probe.clone());
                async move { serves(probe, self.service).await.then_some(address) }
            });
            let serving: BTreeSet<String> = futures::future::join_all(probes).await.into_iter().flatten().collect();
            let wanted: BTreeMap<String, Endpoint> = if serving.is_empty() {
                self.fallback()
            } else {
                serving.iter().filter_map(|a| self.known.get(a).map(|(e, _)| (a.clone(), e.clone()))).collect()
            };
            let gone: Vec<String> = self.in_set.iter().filter(|a| !wanted.contains_key(*a)).cloned().collect();
            for address in gone {
                tracing::warn!(replica = %address, service = self.service, "replica not serving: calls go to the others");
                if changes.send(Change::Remove(address.clone())).await.is_err() {
                    return;
                }
                self.in_set.remove(&address);
            }
            for (address, endpoint) in wanted {
                if self.in_set.contains(&address) {
                    continue;
                }
                tracing::info!(replica = %address, service = self.service, "replica serving: calls go to it");
                if changes.send(Change::Insert(address.clone(), endpoint)).await.is_err() {
                    return;
                }
                self.in_set.insert(address);
            }
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
