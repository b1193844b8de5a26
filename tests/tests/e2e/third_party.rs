//! The platform as a client that is not ours sees it: Python grpcio checks health and lists the
//! services through reflection.

use e2e::TestApp;

/// Every service of the contract, as health and reflection name them.
const SERVICES: [&str; 4] = [
    "bridgeclub.membership.v1.MembershipService",
    "bridgeclub.game.v1.GameService",
    "bridgeclub.scoring.v1.ScoringService",
    "bridgeclub.appeals.v1.AppealsService",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_grpcio_sees_every_service_serving_and_reflected() {
    let app = TestApp::spawn().await;
    let python = tokio::task::spawn_blocking(|| {
        e2e::python_with(&[
            ("grpc", "grpcio"),
            ("grpc_health.v1", "grpcio-health-checking"),
            ("grpc_reflection.v1alpha", "grpcio-reflection"),
        ])
    })
    .await
    .unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("python/check_server.py");
    let target = app.club().server.local_addr().to_string();
    let output = tokio::process::Command::new(python).arg(script).arg(target).args(SERVICES).output().await.unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["health"][""], "SERVING", "{report}");
    for service in SERVICES {
        assert_eq!(report["health"][service], "SERVING", "{service}: {report}");
        assert!(
            report["reflection"].as_array().unwrap().iter().any(|s| s == service),
            "{service} not reflected: {report}"
        );
    }
    assert!(report["reflection"].as_array().unwrap().iter().any(|s| s == "grpc.health.v1.Health"), "{report}");
}
