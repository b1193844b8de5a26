#![forbid(unsafe_code)]
//! `bridgectl`: the bridge club's command line.
//!
//! ```text
//! bridgectl signin --name desk1                       # staff: sign in (prints the access token)
//! bridgectl redeem ABCD-EFGH-JKMN                      # a member: sign in with the desk's code
//! bridgectl member code alice | member revoke alice    # the desk: a member's code, ending his sessions
//! bridgectl account create desk1 --role desk           # the administrator: staff accounts
//! bridgectl token --role desk --subject front-desk     # a token signed with the local key
//! bridgectl health                                     # is every service serving?
//! bridgectl migrate                                    # apply the schema to DATABASE_URL
//! bridgectl room arrive --player alice                 # the card room: room, table, rubber, draw
//! bridgectl appeal list|show|hear|decide|policy        # the appeals committee (see `appeals`)
//! bridgectl ruling show <ruling>
//! bridgectl audit score --scorepad <pad> --deal <deal>
//! bridgectl score contract 4SX --declarer N --vulnerable ns --tricks 9
//! bridgectl scorepad create --rubber <rubber-id>       # the rubber's pad (game start names it)
//! bridgectl scorepad show <scorepad-id>                # the classic pad, we/they, above/below the line
//! bridgectl session show <session-id>                  # standings
//! bridgectl session export <session-id> --pbn          # or --usebio
//! bridgectl game irregularity --table T --kind revoke --offender E --card C2 --trick 4
//! bridgectl game table --table T                       # the decisions and calls open at a table
//! bridgectl game calls                                 # the arbiter's open calls (see `game --help`)
//! ```
//! Calls go to `--server` (default `http://127.0.0.1:50051`, or `BRIDGE_SERVER`) with the token of
//! `--token` (or `BRIDGE_TOKEN`).

use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use platform::auth::{Role, TokenIssuer, load_or_create_local_secret};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

mod appeals;
mod game;
mod membership;
mod scoring;
mod signin;

/// The bridge club's command line.
#[derive(Debug, Parser)]
#[command(name = "bridgectl", version, about)]
struct Cli {
    /// The server to call.
    #[arg(long, global = true, env = "BRIDGE_SERVER", default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The bearer token to present (see `bridgectl token`).
    #[arg(long, global = true, env = "BRIDGE_TOKEN", hide_env_values = true)]
    token: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Prints a token signed with the local key (the file `bridge-club` created), or, where
    /// `BRIDGE_AUTH__RS256_PRIVATE_KEY_FILE` names a deployment's private key, signed with it:
    /// how the services' own tokens are made (`--role service --subject service:game`).
    Token {
        /// A role to grant; repeat for several (player, desk, arbiter, committee, admin, service).
        #[arg(long = "role", required = true, value_parser = parse_role)]
        roles: Vec<Role>,
        /// Who the token speaks for: a player's id, or a name for staff.
        #[arg(long)]
        subject: String,
        /// How long the token is valid, in hours.
        #[arg(long, default_value_t = 12)]
        hours: u64,
    },
    /// Signs a staff member in with his account name and password; prints the access token.
    Signin {
        /// The account name.
        #[arg(long)]
        name: String,
        /// The password; read from standard input if not given.
        #[arg(long, env = "BRIDGE_PASSWORD", hide_env_values = true)]
        password: Option<String>,
        /// Where to keep the refresh token (for `bridgectl refresh`); printed on standard error if
        /// not given.
        #[arg(long)]
        refresh_token_file: Option<std::path::PathBuf>,
    },
    /// Signs a member in with the one-time code the desk issued him; prints the access token.
    Redeem {
        /// The code, as printed (ABCD-EFGH-JKMN).
        code: String,
        /// Where to keep the refresh token (for `bridgectl refresh`).
        #[arg(long)]
        refresh_token_file: Option<std::path::PathBuf>,
    },
    /// Exchanges the refresh token kept in a file for new tokens; prints the access token.
    Refresh {
        /// The file `signin` or `redeem` wrote the refresh token to; the next one replaces it.
        #[arg(long)]
        refresh_token_file: std::path::PathBuf,
    },
    /// Staff accounts (the administrator).
    Account {
        #[command(subcommand)]
        command: signin::Account,
    },
    /// Members' sign-in codes and sessions (the desk).
    Member {
        #[command(subcommand)]
        command: signin::Member,
    },
    /// Asks the server whether each service is serving (grpc.health.v1).
    Health {
        /// Only this service (its full name, e.g. bridgeclub.game.v1.GameService).
        #[arg(long)]
        service: Option<String>,
    },
    /// Applies the schema migrations to the configured database (DATABASE_URL, or the SQLite file).
    Migrate,
    /// The card room: `room`, `table`, `rubber` and `draw` (the membership service).
    #[command(flatten)]
    Membership(membership::Command),
    /// The appeals service: `appeal`, `ruling` and `audit`.
    #[command(flatten)]
    Appeals(appeals::Command),
    /// The live game, for the desk and the arbiter: irregularities, what is open at a table, calls
    /// for the arbiter, rectification choices, rulings.
    Game {
        /// What to do.
        #[command(subcommand)]
        command: game::Command,
    },
    /// Scores a contract (the scoring service's calculator).
    Score {
        #[command(subcommand)]
        command: scoring::Score,
    },
    /// Rubber and Chicago scorepads.
    Scorepad {
        #[command(subcommand)]
        command: scoring::Scorepad,
    },
    /// Duplicate sessions.
    Session {
        #[command(subcommand)]
        command: scoring::Session,
    },
}

/// A channel to `server`. An `https://` server's certificate is checked against `[tls] ca_file`
/// (`BRIDGE_TLS__CA_FILE`, or the web's roots) by `server_name` (`BRIDGE_TLS__SERVER_NAME`), as the
/// services check one another's, so `bridgectl` reaches a deployment's private CA too (the chart's
/// probes run `bridgectl health` this way).
pub(crate) fn server_channel(server: &str) -> anyhow::Result<tonic::transport::Channel> {
    let config = platform::config::load::<platform::config::Endpoints>("cli")?;
    let tls = platform::tls::PeerTls::from_config(&config.platform.tls)?;
    platform::client::channel_with(server, &tls).with_context(|| format!("server {server}"))
}

/// A scoring client for `--server`, presenting `--token`.
fn scoring_client(
    cli: &Cli,
) -> anyhow::Result<api::scoring::v1::scoring_service_client::ScoringServiceClient<platform::app::PeerChannel>> {
    let channel = server_channel(&cli.server)?;
    let interceptor = match &cli.token {
        Some(token) => platform::client::ClientInterceptor::with_token(token).map_err(|e| anyhow::anyhow!("{e}"))?,
        None => bail!("a token is needed: pass --token or set BRIDGE_TOKEN (see `bridgectl token`)"),
    };
    Ok(api::scoring::v1::scoring_service_client::ScoringServiceClient::new(
        tonic::service::interceptor::InterceptedService::new(channel, interceptor),
    ))
}

fn parse_role(value: &str) -> Result<Role, String> {
    value.parse()
}

/// The services a complete platform serves, in the order `health` reports them.
const SERVICES: [&str; 5] = [
    "bridgeclub.membership.v1.MembershipService",
    "bridgeclub.membership.v1.SignInService",
    "bridgeclub.game.v1.GameService",
    "bridgeclub.scoring.v1.ScoringService",
    "bridgeclub.appeals.v1.AppealsService",
];

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let client = match &cli.command {
        Command::Score { .. } | Command::Scorepad { .. } | Command::Session { .. } => Some(scoring_client(&cli)?),
        _ => None,
    };
    match cli.command {
        Command::Token { roles, subject, hours } => {
            let config = platform::config::load::<platform::config::Endpoints>("cli")?;
            let issuer = match &config.platform.auth.rs256_private_key_file {
                Some(path) => {
                    let pem = std::fs::read(path).with_context(|| format!("private key {}", path.display()))?;
                    TokenIssuer::rs256_pem(&pem)?
                }
                None => {
                    let path = &config.platform.auth.local_key_file;
                    if !path.exists() {
                        bail!(
                            "no local key at {}: start bridge-club in this directory first (it creates the key), \
                             or set BRIDGE_AUTH__LOCAL_KEY_FILE (or BRIDGE_AUTH__RS256_PRIVATE_KEY_FILE for a \
                             deployment's key pair)",
                            path.display()
                        );
                    }
                    TokenIssuer::hs256(&load_or_create_local_secret(path)?)
                }
            };
            let lifetime = Duration::from_secs(hours.saturating_mul(3600));
            println!("{}", issuer.issue(&subject, &roles, lifetime)?);
        }
        Command::Health { service } => {
            let mut client = HealthClient::new(server_channel(&cli.server)?);
            let names: Vec<String> = match service {
                Some(name) => vec![name],
                None => std::iter::once(String::new()).chain(SERVICES.iter().map(|s| (*s).to_owned())).collect(),
            };
            let mut all_serving = true;
            for name in names {
                let status = match client.check(tonic_health::pb::HealthCheckRequest { service: name.clone() }).await {
                    Ok(response) => ServingStatus::try_from(response.into_inner().status)
                        .map_or_else(|_| "UNKNOWN".to_owned(), |s| s.as_str_name().to_owned()),
                    Err(status) if status.code() == tonic::Code::NotFound => "NOT_FOUND".to_owned(),
                    Err(status) => format!("{:?}: {}", status.code(), status.message()),
                };
                all_serving &= status == "SERVING";
                println!("{:<45} {status}", if name.is_empty() { "(server)" } else { &name });
            }
            if !all_serving {
                std::process::exit(1);
            }
        }
        Command::Signin { name, password, refresh_token_file } => {
            signin::sign_in(&cli.server, name, password, refresh_token_file).await?;
        }
        Command::Redeem { code, refresh_token_file } => signin::redeem(&cli.server, code, refresh_token_file).await?,
        Command::Refresh { refresh_token_file } => signin::refresh(&cli.server, refresh_token_file).await?,
        Command::Account { command } => signin::account(&cli.server, cli.token.as_deref(), command).await?,
        Command::Member { command } => signin::member(&cli.server, cli.token.as_deref(), command).await?,
        Command::Game { command } => game::run(&cli.server, cli.token.as_deref(), command).await?,
        Command::Migrate => {
            let config = platform::config::load::<platform::config::Endpoints>("cli")?;
            let url = config.platform.effective_database_url();
            platform::db::connect_and_migrate(&url)
                .await
                .with_context(|| format!("migrating {}", platform::app::redact(&url)))?;
            println!("migrations applied to {}", platform::app::redact(&url));
        }
        Command::Membership(command) => {
            let client = membership::client(&cli.server, cli.token.as_deref()).await?;
            membership::run(command, client).await?;
        }
        Command::Appeals(command) => appeals::run(command, &cli.server, cli.token.as_deref()).await?,
        Command::Score { command } => scoring::score(&mut client.context("scoring client")?, command).await?,
        Command::Scorepad { command } => scoring::scorepad(&mut client.context("scoring client")?, command).await?,
        Command::Session { command } => scoring::session(&mut client.context("scoring client")?, command).await?,
    }
    Ok(())
}
