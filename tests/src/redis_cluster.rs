//! A Redis Cluster of a test's own: three masters, each with a replica, on free loopback ports,
//! speaking TLS only (clients, the cluster bus and replication), made with `redis-cli --cluster
//! create` as an operator makes one. A test kills a master to see its replica take over. Every
//! node is stopped and its files removed when the value is dropped.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// One `redis-server` of the cluster.
struct Node {
    port: u16,
    child: Option<Child>,
}

/// The cluster (see the module docs).
pub struct RedisCluster {
    nodes: Vec<Node>,
    dir: PathBuf,
    ca_file: PathBuf,
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    panic!("the test's Redis Cluster: {what}: {e}")
}

/// A free loopback port whose cluster bus port (10000 above) is free too.
fn free_port_pair() -> u16 {
    loop {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| fail("free port", e));
        let port = listener.local_addr().unwrap_or_else(|e| fail("free port", e)).port();
        if port < 55_000 && std::net::TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
}

/// How many nodes: three masters and a replica of each.
const NODES: usize = 6;

impl RedisCluster {
    /// Starts six nodes under `dir`, with the server certificate `cert_file` and `key_file`
    /// (which must name 127.0.0.1) signed by the CA in `ca_file`, makes them one cluster of three
    /// masters with a replica each, and returns once every node says the cluster is ok.
    pub async fn start(dir: &Path, cert_file: &Path, key_file: &Path, ca_file: &Path) -> RedisCluster {
        let dir = dir.join(format!("redis-cluster-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail("directory", e));
        let mut cluster = RedisCluster { nodes: Vec::new(), dir, ca_file: ca_file.to_owned() };
        for _ in 0..NODES {
            let port = free_port_pair();
            let child = cluster.start_node(port, cert_file, key_file).await;
            cluster.nodes.push(Node { port, child: Some(child) });
        }
        let mut create = vec!["--cluster".to_owned(), "create".to_owned()];
        create.extend(cluster.nodes.iter().map(|node| format!("127.0.0.1:{}", node.port)));
        create.extend(["--cluster-replicas", "1", "--cluster-yes"].map(str::to_owned));
        let created = cluster.cli(cluster.nodes[0].port, &create).await;
        assert!(created.contains("All 16384 slots covered"), "redis-cli --cluster create said:\n{created}");
        for node in 0..NODES {
            cluster.until_ok(cluster.nodes[node].port).await;
            cluster.until_replicating(cluster.nodes[node].port).await;
        }
        cluster
    }

    /// Waits until the node on `port`, if it is a replica, has its master's data and a live link
    /// to it: a replica that never synchronised does not take over when its master dies.
    async fn until_replicating(&self, port: u16) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let info = self.cli(port, &["INFO".to_owned(), "replication".to_owned()]).await;
            if info.contains("role:master") || info.contains("master_link_status:up") {
                return;
            }
            assert!(tokio::time::Instant::now() < deadline, "the replica at {port} never synchronised:\n{info}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn start_node(&self, port: u16, cert_file: &Path, key_file: &Path) -> Child {
        let node_dir = self.dir.join(port.to_string());
        std::fs::create_dir_all(&node_dir).unwrap_or_else(|e| fail("directory", e));
        let mut child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", "0", "--tls-port", &port.to_string()])
            .arg("--tls-cert-file")
            .arg(cert_file)
            .arg("--tls-key-file")
            .arg(key_file)
            .arg("--tls-ca-cert-file")
            .arg(&self.ca_file)
            .args(["--tls-auth-clients", "no", "--tls-cluster", "yes", "--tls-replication", "yes"])
            .args(["--cluster-enabled", "yes", "--cluster-node-timeout", "1000"])
            .args(["--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0"])
            .arg("--dir")
            .arg(&node_dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| fail("redis-server (install redis-server)", e));
        let stdout = child.stdout.take().unwrap_or_else(|| fail("redis-server", "no output"));
        let mut lines = BufReader::new(stdout).lines();
        loop {
            match lines.next_line().await {
                Ok(Some(line)) if line.contains("Ready to accept connections") => break,
                Ok(Some(_)) => {}
                other => fail(&format!("node on port {port}"), format!("stopped before it listened: {other:?}")),
            }
        }
        // Keep reading, so that the node never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        child
    }

    /// `redis-cli` over TLS against the node on `port`: its output.
    async fn cli(&self, port: u16, args: &[String]) -> String {
        let output = Command::new("redis-cli")
            .args(["--tls", "-h", "127.0.0.1", "-p", &port.to_string()])
            .arg("--cacert")
            .arg(&self.ca_file)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .await
            .unwrap_or_else(|e| fail("redis-cli (install redis-tools)", e));
        String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
    }

    /// Waits until the node on `port` says the cluster is ok (a minute at most: far more than a
    /// loaded machine needs).
    async fn until_ok(&self, port: u16) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let info = self.cli(port, &["CLUSTER".to_owned(), "INFO".to_owned()]).await;
            if info.contains("cluster_state:ok") {
                return;
            }
            assert!(tokio::time::Instant::now() < deadline, "the cluster never became ok at {port}:\n{info}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The nodes' URLs, comma-separated, as a service's `redis_url` names a cluster.
    pub fn urls(&self) -> String {
        self.nodes.iter().map(|node| format!("rediss://127.0.0.1:{}", node.port)).collect::<Vec<_>>().join(",")
    }

    /// The port of the master serving `key`'s slot, as the node on `asked` sees it.
    async fn master_of(&self, asked: u16, key: &str) -> Option<u16> {
        let slot: u16 = self
            .cli(asked, &["CLUSTER".to_owned(), "KEYSLOT".to_owned(), key.to_owned()])
            .await
            .trim()
            .parse()
            .unwrap_or_else(|e| fail("CLUSTER KEYSLOT", e));
        let nodes = self.cli(asked, &["CLUSTER".to_owned(), "NODES".to_owned()]).await;
        nodes.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let flags = fields.get(2)?;
            if !flags.split(',').any(|flag| flag == "master") || flags.contains("fail") {
                return None;
            }
            let serves = fields.iter().skip(8).any(|range| {
                let (first, last) = range.split_once('-').unwrap_or((range, range));
                matches!((first.parse::<u16>(), last.parse::<u16>()), (Ok(first), Ok(last)) if (first..=last).contains(&slot))
            });
            if !serves {
                return None;
            }
            fields.get(1)?.split(['@', ',']).next()?.rsplit_once(':')?.1.parse().ok()
        })
    }

    /// Kills (SIGKILL) the master serving `key`'s slot, as a lost machine would; its port.
    pub async fn kill_master_of(&mut self, key: &str) -> u16 {
        let port =
            self.master_of(self.nodes[0].port, key).await.unwrap_or_else(|| fail("kill", "no master for the key"));
        let node = self.nodes.iter_mut().find(|node| node.port == port).unwrap_or_else(|| fail("kill", port));
        if let Some(mut child) = node.child.take() {
            let _ = child.kill().await;
        }
        port
    }

    /// Waits until a node still running says `key`'s slot is served by a master other than the
    /// one on `killed` (its replica took over) and the cluster is ok again; the new master's port.
    pub async fn failed_over(&self, key: &str, killed: u16) -> u16 {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let asked = self.nodes.iter().find(|node| node.child.is_some()).unwrap_or_else(|| fail("failover", "no node"));
        loop {
            if let Some(port) = self.master_of(asked.port, key).await
                && port != killed
            {
                self.until_ok(asked.port).await;
                return port;
            }
            assert!(tokio::time::Instant::now() < deadline, "no replica took over from the master on {killed}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(child) = &mut node.child {
                let _ = child.start_kill();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
