//! The platform as a Kubernetes deployment runs it: each service a server of its own, with its
//! own service identity, calling the others over the network at their addresses, and clients
//! coming in through the stand-alone gateway. Every check one service makes of another's
//! records crosses a real gRPC hop here, as it does in production.

use platform::app::{EdgeResources, Peers, Resources};
use platform::config::{Endpoints, PlatformConfig};
use platform::server::RunningServer;

/// The four services and the gateway in front of them.
pub struct Split {
    /// The services' servers, membership, scoring, game (each replica) and appeals, by name.
    pub services: Vec<(&'static str, RunningServer)>,
    /// The stand-alone gateway, which clients call.
    pub gateway: RunningServer,
    /// The first service's resources (its key, which every process shares here, signs the tests'
    /// tokens).
    pub resources: Resources,
}

fn fail(what: &str, error: impl std::fmt::Display) -> ! {
    panic!("the split platform did not start: {what}: {error}")
}

impl Split {
    /// Starts each service on a port of its own with `config` (its database, Redis prefix and
    /// key) and `settings`, and the gateway in front of them; the game service as `replicas`
    /// servers on the same database and Redis prefix, named together in `endpoints.game` as a
    /// deployment with several replicas names them.
    pub async fn start_with_game_replicas(
        config: &PlatformConfig,
        settings: &club::Settings,
        replicas: usize,
    ) -> Split {
        let names: Vec<&'static str> = ["membership", "scoring"]
            .into_iter()
            .chain(std::iter::repeat_n("game", replicas.max(1)))
            .chain(["appeals"])
            .collect();
        let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let mut listeners = Vec::new();
        for _ in &names {
            listeners.push(platform::server::bind(loopback).await.unwrap_or_else(|e| fail("bind", e)));
        }
        let scheme = if config.tls.cert_file.is_some() { "https" } else { "http" };
        let uris = |name: &str| {
            let uris: Vec<String> = names
                .iter()
                .zip(&listeners)
                .filter(|(n, _)| **n == name)
                .map(|(_, listener)| {
                    format!("{scheme}://{}", listener.local_addr().unwrap_or_else(|e| fail("address", e)))
                })
                .collect();
            Some(uris.join(","))
        };
        let endpoints = Endpoints {
            membership: uris("membership"),
            scoring: uris("scoring"),
            game: uris("game"),
            appeals: uris("appeals"),
        };
        let mut config = config.clone();
        config.endpoints = endpoints.clone();
        let mut services = Vec::new();
        let mut first: Option<Resources> = None;
        // One at a time, so that the first migrates the database before the others look at it.
        for (name, listener) in names.into_iter().zip(listeners) {
            let resources = Resources::start(&config, name).await.unwrap_or_else(|e| fail(name, e));
            let peers = Peers::from_endpoints(&endpoints, &resources.peer_tls, resources.peer_interceptor.clone())
                .unwrap_or_else(|e| fail("peers", e));
            let builder = resources.server();
            first.get_or_insert_with(|| resources.clone());
            let builder = match name {
                "membership" => {
                    let (sign_in, _) = membership::sign_in_service(&resources, &settings.membership)
                        .await
                        .unwrap_or_else(|e| fail(name, e));
                    builder
                        .add_service(
                            membership::service(&resources, &settings.membership, &peers)
                                .await
                                .unwrap_or_else(|e| fail(name, e)),
                        )
                        .add_service(sign_in)
                }
                "scoring" => builder.add_service(
                    scoring::service(&resources, &settings.scoring, &peers).await.unwrap_or_else(|e| fail(name, e)),
                ),
                "game" => builder.add_service(
                    game::service(&resources, &settings.game, &peers).await.unwrap_or_else(|e| fail(name, e)),
                ),
                _ => builder.add_service(
                    appeals::service(&resources, &settings.appeals, &peers).await.unwrap_or_else(|e| fail(name, e)),
                ),
            };
            services.push((name, builder.serve_on(listener).await.unwrap_or_else(|e| fail(name, e))));
        }
        // The gateway keeps no records: it is given no database, as in the chart.
        let edge = EdgeResources::start(&config, "gateway").await.unwrap_or_else(|e| fail("gateway", e));
        let gateway_settings = gateway::Settings {
            requests_per_minute: settings.requests_per_minute,
            screens_dir: settings.screens_dir.clone(),
        };
        let gateway = gateway::start(&edge, &gateway_settings).await.unwrap_or_else(|e| fail("gateway", e));
        let resources = first.unwrap_or_else(|| fail("resources", "no service started"));
        Split { services, gateway, resources }
    }

    /// The addresses the game service's replicas listen on.
    pub fn game_replicas(&self) -> Vec<std::net::SocketAddr> {
        self.services.iter().filter(|(name, _)| *name == "game").map(|(_, server)| server.local_addr()).collect()
    }

    /// Stops the `n`th replica of the game service (from 0), as a node lost or a replica rolled
    /// would: it drains (NOT_SERVING) and closes its port.
    pub async fn stop_game_replica(&mut self, n: usize) {
        let index = self
            .services
            .iter()
            .enumerate()
            .filter(|(_, (name, _))| *name == "game")
            .nth(n)
            .map(|(index, _)| index)
            .unwrap_or_else(|| fail("stop", format!("no game replica {n}")));
        let (_, server) = self.services.remove(index);
        server.shutdown().await.unwrap_or_else(|e| fail("stop", e));
    }

    /// Stops the gateway and every service.
    pub async fn shutdown(self) {
        let _ = self.gateway.shutdown().await;
        for (_, server) in self.services {
            let _ = server.shutdown().await;
        }
    }
}
