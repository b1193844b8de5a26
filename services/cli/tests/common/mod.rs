//! What the `bridgectl` process tests share: running the real binary against a spawned app.

use e2e::TestApp;
use platform::auth::Role;

/// Runs `bridgectl` as `subject` with `roles` against `app`: its standard output when it
/// succeeds, its error output when it fails, and a panic (naming the command and both outputs)
/// when it does not end as `succeeds` says. The environment's server and token are ignored, so
/// a developer's own settings never reach a test.
pub async fn bridgectl_ending(app: &TestApp, subject: &str, roles: &[Role], args: &[&str], succeeds: bool) -> String {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_bridgectl"));
    command
        .arg("--server")
        .arg(app.uri())
        .arg("--token")
        .arg(app.token(subject, roles))
        .args(args)
        .env_remove("BRIDGE_SERVER")
        .env_remove("BRIDGE_TOKEN");
    let shown = format!("bridgectl {}", args.join(" "));
    let output = tokio::task::spawn_blocking(move || command.output()).await.unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.success(), succeeds, "{shown}: {stderr}\n{stdout}");
    if succeeds { stdout } else { stderr }
}

/// Runs `bridgectl` as `subject` with `roles`; its standard output, or a panic with its error.
#[allow(dead_code, reason = "not every test file runs it this way")]
pub async fn bridgectl_as(app: &TestApp, subject: &str, roles: &[Role], args: &[&str]) -> String {
    bridgectl_ending(app, subject, roles, args, true).await
}
