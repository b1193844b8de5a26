//! The platform as production runs it: each service an operating-system process of its own (the
//! real binaries' code, `service-process`), the game service as several replicas, the
//! stand-alone gateway in front, every port on TLS, configured by a TOML file each as the chart
//! configures its pods. A test can kill a process (SIGKILL) and read what each one logged.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

/// What the processes share.
pub struct Setup<'a> {
    /// The Postgres database.
    pub database_url: &'a str,
    /// The Redis Cluster's nodes, comma-separated.
    pub redis_urls: &'a str,
    /// Their Redis key prefix.
    pub redis_prefix: &'a str,
    /// The signing key file every process shares.
    pub key_file: &'a Path,
    /// The server certificate, its key, and the CA every hop is checked against (Redis too).
    pub cert_file: &'a Path,
    /// See [`Setup::cert_file`].
    pub cert_key_file: &'a Path,
    /// See [`Setup::cert_file`].
    pub ca_file: &'a Path,
    /// Where the configuration files and logs go.
    pub dir: &'a Path,
    /// How many game replicas.
    pub game_replicas: usize,
    /// The `service-process` binary (`env!("CARGO_BIN_EXE_service-process")` in a test).
    pub binary: &'a Path,
}

/// One running process.
struct Process {
    name: &'static str,
    port: u16,
    child: Option<Child>,
    log: PathBuf,
}

/// The running platform (see the module docs).
pub struct Processes {
    processes: Vec<Process>,
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    panic!("the platform's processes: {what}: {e}")
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| fail("free port", e));
    listener.local_addr().unwrap_or_else(|e| fail("free port", e)).port()
}

impl Processes {
    /// Starts membership first (the one process that migrates the database, as the chart's Job
    /// does), then scoring, the game replicas and appeals, then the gateway; returns once every
    /// process's health check says it serves.
    pub async fn start(setup: &Setup<'_>) -> Processes {
        let names: Vec<&'static str> = ["membership", "scoring"]
            .into_iter()
            .chain(std::iter::repeat_n("game", setup.game_replicas.max(1)))
            .chain(["appeals", "gateway"])
            .collect();
        let processes: Vec<Process> = names
            .iter()
            .enumerate()
            .map(|(n, name)| Process {
                name,
                port: free_port(),
                child: None,
                log: setup.dir.join(format!("{n}-{name}.log")),
            })
            .collect();
        let endpoint = |name: &str| {
            let uris: Vec<String> = processes
                .iter()
                .filter(|process| process.name == name)
                .map(|process| format!("https://127.0.0.1:{}", process.port))
                .collect();
            uris.join(",")
        };
        let endpoints = format!(
            "[endpoints]\nmembership = {:?}\nscoring = {:?}\ngame = {:?}\nappeals = {:?}\n",
            endpoint("membership"),
            endpoint("scoring"),
            endpoint("game"),
            endpoint("appeals")
        );
        let tls = platform::tls::PeerTls::from_config(&platform::config::TlsConfig {
            ca_file: Some(setup.ca_file.to_owned()),
            ..Default::default()
        })
        .unwrap_or_else(|e| fail("TLS", e));
        let mut started = Processes { processes };
        // Membership migrates; the others refuse a schema behind their code, so they start after.
        for n in 0..started.processes.len() {
            let config = setup.dir.join(format!("{n}-{}.toml", started.processes[n].name));
            std::fs::write(&config, config_file(setup, &started.processes[n], n == 0, &endpoints))
                .unwrap_or_else(|e| fail("configuration", e));
            started.spawn(n, setup.binary, &config);
            if n == 0 {
                started.until_serving(0, &tls).await;
            }
        }
        for n in 1..started.processes.len() {
            started.until_serving(n, &tls).await;
        }
        started
    }

    /// Starts process `n` with the configuration file `config`, its output to its log.
    fn spawn(&mut self, n: usize, binary: &Path, config: &Path) {
        let process = &mut self.processes[n];
        let log = std::fs::File::create(&process.log).unwrap_or_else(|e| fail("log", e));
        let err = log.try_clone().unwrap_or_else(|e| fail("log", e));
        let child = Command::new(binary)
            .arg(process.name)
            .env("BRIDGE_CONFIG", config)
            .env("RUST_LOG", "warn,bridge::requests=debug")
            .env_remove("DATABASE_URL")
            .env_remove("REDIS_URL")
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(err))
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| fail("service-process", e));
        process.child = Some(child);
    }

    /// Waits until process `n` says it serves; fails with its log if it exits first.
    async fn until_serving(&mut self, n: usize, tls: &platform::tls::PeerTls) {
        let uri = format!("https://127.0.0.1:{}", self.processes[n].port);
        // Far more than starting ever takes, even on a loaded machine.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(child) = &mut self.processes[n].child
                && let Ok(Some(status)) = child.try_wait()
            {
                fail(&format!("{} exited ({status})", self.processes[n].name), self.log(n));
            }
            let channel = platform::client::channel_with(&uri, tls).unwrap_or_else(|e| fail("channel", e));
            let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
            let request = tonic_health::pb::HealthCheckRequest { service: String::new() };
            if let Ok(answer) = health.check(request).await
                && answer.into_inner().status == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
            {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                fail(&format!("{} never served on {uri}", self.processes[n].name), self.log(n));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The gateway's address, which clients call.
    pub fn gateway_uri(&self) -> String {
        let gateway = self.processes.iter().find(|p| p.name == "gateway").unwrap_or_else(|| fail("gateway", "none"));
        format!("https://127.0.0.1:{}", gateway.port)
    }

    /// What process `n` (in starting order) logged so far.
    fn log(&self, n: usize) -> String {
        std::fs::read_to_string(&self.processes[n].log).unwrap_or_default()
    }

    /// What each game replica logged so far, in order.
    pub fn game_logs(&self) -> Vec<String> {
        (0..self.processes.len()).filter(|n| self.processes[*n].name == "game").map(|n| self.log(n)).collect()
    }

    /// Kills (SIGKILL) every process and waits for them.
    pub async fn stop(&mut self) {
        for process in &mut self.processes {
            if let Some(mut child) = process.child.take() {
                let _ = child.kill().await;
            }
        }
    }
}

/// Process `process`'s configuration file: TLS on its port and on every call it makes, the
/// Redis Cluster, JSON logs (the access log among them). Redis's cool-down is short, so that the
/// services go back to the cluster soon after it recovers from a fault the test causes.
fn config_file(setup: &Setup<'_>, process: &Process, migrates: bool, endpoints: &str) -> String {
    let database = match process.name {
        // The gateway keeps no records: it is given no database, as in the chart.
        "gateway" => String::new(),
        _ => format!("database_url = {:?}\n", setup.database_url),
    };
    format!(
        "listen = \"127.0.0.1:{port}\"\n{database}redis_url = {redis:?}\nredis_prefix = {prefix:?}\n\
         [database]\nmigrate_on_start = {migrates}\n\
         [redis]\ncluster = true\nca_file = {ca:?}\ncommand_timeout_ms = 500\ncool_down_ms = 200\n\
         [tls]\ncert_file = {cert:?}\nkey_file = {key:?}\nca_file = {ca:?}\n\
         [auth]\nlocal_key_file = {key_file:?}\n\
         [telemetry]\nlog_format = \"json\"\n\
         [gateway]\nrequests_per_minute = 0\n{endpoints}",
        port = process.port,
        redis = setup.redis_urls,
        prefix = setup.redis_prefix,
        ca = setup.ca_file.display().to_string(),
        cert = setup.cert_file.display().to_string(),
        key = setup.cert_key_file.display().to_string(),
        key_file = setup.key_file.display().to_string(),
    )
}

impl Drop for Processes {
    fn drop(&mut self) {
        for process in &mut self.processes {
            if let Some(child) = &mut process.child {
                let _ = child.start_kill();
            }
        }
    }
}
