//! `bridge-game`: the game service on its own (one Deployment in the Helm chart).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    game::standalone::run().await
}
