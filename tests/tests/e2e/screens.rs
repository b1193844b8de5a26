//! The screens on the club's one port: `/` and a screen's address answer with the built
//! `index.html`, a content-hashed asset comes with its type and a year's caching, and gRPC goes
//! on working beside them; without a build, `/` says how to make one.

use std::process::Command;

/// The embedded default (SQLite, no Redis needed) with the screens served from `screens`.
async fn club_serving(dir: &std::path::Path, screens: &std::path::Path) -> club::Club {
    let mut config = platform::config::PlatformConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        sqlite_path: dir.join("bridge-club.db"),
        ..Default::default()
    };
    config.auth.local_key_file = dir.join("bridge-club.key");
    let settings = club::Settings { screens_dir: screens.to_owned(), ..Default::default() };
    club::Club::start(&config, &settings).await.unwrap()
}

/// A GET as a browser makes it (HTTP/1.1): the status line and headers, lower-cased, and the body.
fn get(url: &str) -> (String, String) {
    get_with(url, &[])
}

/// [`get`] with request headers.
fn get_with(url: &str, headers: &[&str]) -> (String, String) {
    let output = Command::new("curl")
        .args(["-s", "--http1.1", "-D", "/dev/stderr", url])
        .args(headers.iter().flat_map(|h| ["-H", h]))
        .output()
        .expect("curl must be installed for the screens test");
    (String::from_utf8_lossy(&output.stderr).to_ascii_lowercase(), String::from_utf8_lossy(&output.stdout).into_owned())
}

async fn health_serving(uri: &str) {
    let channel = platform::client::channel(uri).unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let request = tonic_health::pb::HealthCheckRequest { service: "bridgeclub.game.v1.GameService".to_owned() };
    let status = health.check(request).await.unwrap().into_inner().status;
    assert_eq!(status, tonic_health::pb::health_check_response::ServingStatus::Serving as i32);
}

// curl blocks its thread, so the server needs another one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screens_are_served_beside_the_services() {
    let dir = std::env::temp_dir().join(format!("bc-screens-{}", uuid::Uuid::new_v4().simple()));
    let screens = dir.join("dist");
    std::fs::create_dir_all(screens.join("assets")).unwrap();
    std::fs::write(screens.join("index.html"), "<!doctype html><title>Bridge club</title><div id=app></div>").unwrap();
    std::fs::write(screens.join("assets/index-4f2a9c1b.js"), "console.log('screens');").unwrap();
    // What the build writes beside each file: its compressed forms (the content does not matter here).
    std::fs::write(screens.join("assets/index-4f2a9c1b.js.br"), "brotli bytes").unwrap();
    let club = club_serving(&dir, &screens).await;
    let uri = club.server.uri();

    let (head, body) = get(&format!("{uri}/"));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(head.contains("cache-control: no-cache"), "index.html is revalidated on every load: {head}");
    assert!(body.contains("<title>Bridge club</title>"), "{body}");

    let (head, body) = get(&format!("{uri}/assets/index-4f2a9c1b.js"));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(head.contains("cache-control: public, max-age=31536000, immutable"), "{head}");
    assert_eq!(body, "console.log('screens');");

    // A browser that accepts Brotli gets the compressed file, with the JavaScript's type.
    let (head, body) = get_with(&format!("{uri}/assets/index-4f2a9c1b.js"), &["accept-encoding: br, gzip"]);
    assert!(head.contains("content-encoding: br"), "{head}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(head.contains("vary: accept-encoding"), "{head}");
    assert!(head.contains("cache-control: public, max-age=31536000, immutable"), "{head}");
    assert_eq!(body, "brotli bytes");
    // One that accepts only gzip, of which there is none here, gets the file as it is.
    let (head, body) = get_with(&format!("{uri}/assets/index-4f2a9c1b.js"), &["accept-encoding: gzip"]);
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(body, "console.log('screens');");

    // A screen's own address is the application too, so it can be reloaded.
    let (head, body) = get(&format!("{uri}/table/t1"));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(body.contains("<title>Bridge club</title>"), "{body}");
    // A missing asset is not the page.
    let (head, _) = get(&format!("{uri}/assets/index-00000000.js"));
    assert!(head.starts_with("http/1.1 404"), "{head}");

    // gRPC on the same port, over HTTP/2.
    health_serving(&uri).await;

    // Without a build, `/` says how to make one, and the services are unaffected.
    std::fs::remove_file(screens.join("index.html")).unwrap();
    let (head, body) = get(&format!("{uri}/"));
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(body.contains("npm run build --prefix web"), "{body}");
    health_serving(&uri).await;

    club.server.shutdown().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

/// The stand-alone gateway serves the screens too, beside the calls it forwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_serves_the_screens_beside_the_calls_it_forwards() {
    let dir = std::env::temp_dir().join(format!("bc-screens-{}", uuid::Uuid::new_v4().simple()));
    let screens = dir.join("dist");
    std::fs::create_dir_all(&screens).unwrap();
    std::fs::write(screens.join("index.html"), "<!doctype html><title>Bridge club</title>").unwrap();
    let club = club_serving(&dir, &dir.join("none")).await;

    let mut config = club.resources.config.clone();
    config.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    config.endpoints.game = Some(club.server.uri());
    let resources = platform::app::EdgeResources::with(&config, "gateway", club.resources.live.clone()).unwrap();
    let settings = gateway::Settings { requests_per_minute: 0, screens_dir: screens.clone() };
    let gateway = gateway::start(&resources, &settings).await.unwrap();

    let (head, body) = get(&format!("{}/", gateway.uri()));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(body.contains("<title>Bridge club</title>"), "{body}");
    health_serving(&gateway.uri()).await;

    gateway.shutdown().await.unwrap();
    club.server.shutdown().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}
