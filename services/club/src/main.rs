//! `bridge-club`: run the whole platform in one process (see the crate docs).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    club::run().await
}
