//! `service-process <service>`: one service of the platform (`membership`, `scoring`, `game`,
//! `appeals`) or the stand-alone `gateway` as a child process of the e2e tests, configured as its
//! own binary is (`BRIDGE_CONFIG` and the environment). It is the real binary's code (each
//! crate's `standalone::run`), built with the tests so that they can find it
//! (`CARGO_BIN_EXE_service-process`).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let service = std::env::args().nth(1).unwrap_or_default();
    match service.as_str() {
        "membership" => membership::standalone::run().await,
        "scoring" => scoring::standalone::run().await,
        "game" => game::standalone::run().await,
        "appeals" => appeals::standalone::run().await,
        "gateway" => gateway::standalone::run().await,
        other => anyhow::bail!("service-process: no service {other:?} (membership, scoring, game, appeals, gateway)"),
    }
}
