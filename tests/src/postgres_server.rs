//! A Postgres server of a test's own, on a free port, for tests that stop it and start it again:
//! the shared Postgres at [`crate::postgres_admin_url`] is never touched that way. Its cluster is
//! made with `initdb` in a directory of its own, and stopped and removed when the value is dropped.
//! Postgres refuses to run as root, so as root it runs as the `postgres` user.

use std::path::PathBuf;

/// Where the Postgres programs are (`BRIDGE_TEST_POSTGRES_BIN` overrides): the newest
/// `/usr/lib/postgresql/<version>/bin`.
fn bin_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("BRIDGE_TEST_POSTGRES_BIN") {
        return PathBuf::from(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .unwrap_or_else(|e| panic!("no Postgres programs in /usr/lib/postgresql ({e}); set BRIDGE_TEST_POSTGRES_BIN"))
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, dir)| dir).unwrap_or_else(|| panic!("no Postgres version in /usr/lib/postgresql"))
}

fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A running Postgres cluster of this test's own.
#[derive(Debug)]
pub struct PostgresServer {
    dir: PathBuf,
    port: u16,
    as_root: bool,
    running: bool,
    /// Settings added to the server's command line (TLS).
    options: String,
}

impl PostgresServer {
    /// Creates a cluster (user `postgres`, trust authentication) and starts it on a free loopback
    /// port; returns once it accepts connections.
    pub async fn start() -> PostgresServer {
        Self::start_with(None).await
    }

    /// [`PostgresServer::start`], accepting TLS connections (and plaintext ones, as a server
    /// whose clients choose with `sslmode`) with the PEM certificate and key given.
    pub async fn start_with_tls(cert_file: &std::path::Path, key_file: &std::path::Path) -> PostgresServer {
        Self::start_with(Some((cert_file, key_file))).await
    }

    async fn start_with(tls: Option<(&std::path::Path, &std::path::Path)>) -> PostgresServer {
        let port = {
            let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| panic!("free port: {e}"));
            listener.local_addr().unwrap_or_else(|e| panic!("free port: {e}")).port()
        };
        let dir = std::env::temp_dir().join(format!("bc_pg_{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut server =
            PostgresServer { dir, port, as_root: running_as_root(), running: false, options: String::new() };
        if server.as_root {
            server.run(tokio::process::Command::new("chown").args(["-R", "postgres:postgres"]).arg(&server.dir)).await;
        }
        let data = server.data();
        server
            .run(server.program("initdb").arg("-D").arg(&data).args([
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ]))
            .await;
        if let Some((cert_file, key_file)) = tls {
            // Postgres reads its key only if no one else can: owned by its user, mode 0600.
            let (cert, key) = (server.dir.join("server.crt"), server.dir.join("server.key"));
            std::fs::copy(cert_file, &cert).unwrap_or_else(|e| panic!("{}: {e}", cert_file.display()));
            std::fs::copy(key_file, &key).unwrap_or_else(|e| panic!("{}: {e}", key_file.display()));
            server.run(tokio::process::Command::new("chmod").arg("600").arg(&key)).await;
            if server.as_root {
                server.run(tokio::process::Command::new("chown").arg("postgres:postgres").arg(&cert).arg(&key)).await;
            }
            server.options =
                format!(" -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}", cert.display(), key.display());
        }
        server.restart().await;
        server
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// `program` of the Postgres installation, as the `postgres` user when this is root.
    fn program(&self, program: &str) -> tokio::process::Command {
        let path = bin_dir().join(program);
        let mut command = if self.as_root {
            let mut command = tokio::process::Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            tokio::process::Command::new(path)
        };
        command.stdin(std::process::Stdio::null());
        command
    }

    async fn run(&self, command: &mut tokio::process::Command) {
        let output = command.output().await.unwrap_or_else(|e| panic!("{command:?}: {e}"));
        assert!(
            output.status.success(),
            "{command:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Starts the server (again, after [`PostgresServer::stop`]) on the same port with the same
    /// data; returns once it accepts connections.
    pub async fn restart(&mut self) {
        assert!(!self.running, "the test's Postgres is running already");
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off{}",
            self.port,
            self.dir.display(),
            self.options
        );
        let (data, log) = (self.data(), self.dir.join("postgres.log"));
        self.run(
            self.program("pg_ctl")
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(&log)
                .args(["-w", "-t", "60", "-o"])
                .arg(options)
                .arg("start"),
        )
        .await;
        self.running = true;
    }

    /// Stops the server as an administrator would (`pg_ctl stop -m fast`: open sessions are
    /// ended, their transactions rolled back) and returns once it has exited.
    pub async fn stop(&mut self) {
        let data = self.data();
        self.run(self.program("pg_ctl").arg("-D").arg(&data).args(["-m", "fast", "-w", "stop"])).await;
        self.running = false;
    }

    /// `postgres://postgres@127.0.0.1:<port>/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        if self.running {
            let program = bin_dir().join("pg_ctl");
            let mut command = if self.as_root {
                let mut command = std::process::Command::new("runuser");
                command.args(["-u", "postgres", "--"]).arg(program);
                command
            } else {
                std::process::Command::new(program)
            };
            let _ = command.arg("-D").arg(self.data()).args(["-m", "immediate", "-w", "stop"]).output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
