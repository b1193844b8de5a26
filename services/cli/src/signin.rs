//! Signing in, and the accounts and codes behind it (the membership service's sign-in service):
//!
//! ```text
//! bridgectl signin --name desk1                    # asks for the password; prints the access token
//! bridgectl redeem ABCD-EFGH-JKMN                  # a member's code; prints the access token
//! bridgectl refresh --refresh-token-file FILE      # new tokens for the ones in FILE
//! bridgectl member code alice                      # the desk: a one-time code for alice
//! bridgectl member code alice --email              # ... mailed to her address on the register
//! bridgectl member revoke alice                    # the desk: ends alice's sessions
//! bridgectl account create desk1 --role desk       # the administrator: staff accounts
//! bridgectl account list | set-roles | reset-password
//! ```
//!
//! `signin`, `redeem` and `refresh` print the access token alone on standard output, so that
//! `export BRIDGE_TOKEN=$(bridgectl signin --name desk1)` works, and say who signed in on standard
//! error. With `--refresh-token-file` the refresh token is written there (readable by its owner
//! only), where `refresh` reads it and writes the next one.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Subcommand;

use api::common::v1 as common;
use api::membership::v1 as pb;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use platform::app::PeerChannel;
use platform::auth::Role;

/// The administrator's commands for staff accounts.
#[derive(Debug, Subcommand)]
pub enum Account {
    /// Creates a staff account; prints the generated password unless `--password` gives one.
    Create {
        /// The account name (letters, digits, '.', '_', '-').
        name: String,
        /// A role: desk, arbiter, committee or admin; repeat for several.
        #[arg(long = "role", required = true, value_parser = parse_role)]
        roles: Vec<Role>,
        /// Its password (at least 10 characters); generated if not given.
        #[arg(long, env = "BRIDGE_NEW_PASSWORD", hide_env_values = true)]
        password: Option<String>,
    },
    /// Lists the staff accounts.
    List,
    /// Replaces an account's roles (its sessions end).
    SetRoles {
        /// The account name.
        name: String,
        /// A role; repeat for several.
        #[arg(long = "role", required = true, value_parser = parse_role)]
        roles: Vec<Role>,
    },
    /// Sets a new password on an account (its sessions end); prints it if generated.
    ResetPassword {
        /// The account name.
        name: String,
        /// The new password (at least 10 characters); generated if not given.
        #[arg(long, env = "BRIDGE_NEW_PASSWORD", hide_env_values = true)]
        password: Option<String>,
    },
}

/// The desk's commands for members' sign-in.
#[derive(Debug, Subcommand)]
pub enum Member {
    /// Issues a one-time sign-in code for a member, to hand to him (or mailed to him).
    Code {
        /// The member's player id.
        player: String,
        /// Mails the code to his e-mail address on the register, through the club's mail server,
        /// instead of printing it: the desk never sees it. Prints the address it went to, masked.
        #[arg(long)]
        email: bool,
    },
    /// Ends every session of a member: his tokens stop working.
    Revoke {
        /// The member's player id.
        player: String,
    },
}

fn parse_role(value: &str) -> Result<Role, String> {
    value.parse()
}

fn role_name(number: i32) -> String {
    common::Role::try_from(number)
        .ok()
        .and_then(Role::from_proto)
        .map_or_else(|| format!("role {number}"), |r| r.as_str().to_owned())
}

fn proto_roles(roles: &[Role]) -> Vec<i32> {
    roles
        .iter()
        .filter_map(|r| common::Role::from_str_name(&format!("ROLE_{}", r.as_str().to_ascii_uppercase())))
        .map(|r| r as i32)
        .collect()
}

/// A sign-in client for `server`, presenting `token` when there is one (signing in needs none).
pub fn client(server: &str, token: Option<&str>) -> anyhow::Result<SignInServiceClient<PeerChannel>> {
    let channel = crate::server_channel(server)?;
    let interceptor = match token {
        Some(token) => platform::client::ClientInterceptor::with_token(token).map_err(|e| anyhow::anyhow!("{e}"))?,
        None => platform::client::ClientInterceptor::default(),
    };
    Ok(SignInServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor)))
}

fn refused(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!("{:?}: {}", status.code(), status.message())
}

/// Prints the access token, says who signed in, and keeps the refresh token where asked.
fn signed_in(signed_in: Option<pb::SignedIn>, refresh_token_file: Option<&Path>) -> anyhow::Result<()> {
    let signed_in = signed_in.context("the server answered without tokens")?;
    let roles: Vec<String> = signed_in.roles.iter().map(|r| role_name(*r)).collect();
    let until = signed_in.access_expires_at.map(|t| t.seconds).unwrap_or_default();
    let until = chrono::DateTime::from_timestamp(until, 0).map(|t| t.to_rfc3339()).unwrap_or_default();
    eprintln!("signed in as {} [{}]; the access token is valid until {until}", signed_in.subject, roles.join(", "));
    match refresh_token_file {
        Some(path) => {
            write_private(path, &signed_in.refresh_token)?;
            eprintln!("refresh token written to {} (bridgectl refresh reads it)", path.display());
        }
        None => {
            eprintln!("refresh token (keep it secret; bridgectl refresh exchanges it): {}", signed_in.refresh_token)
        }
    }
    println!("{}", signed_in.access_token);
    Ok(())
}

/// Writes `contents` to `path`, readable and writable by its owner only.
fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).with_context(|| path.display().to_string())?;
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")?;
    Ok(())
}

/// `bridgectl signin`: the password from `--password` (or `BRIDGE_PASSWORD`), else the first line
/// of standard input.
pub async fn sign_in(
    server: &str,
    name: String,
    password: Option<String>,
    refresh_token_file: Option<PathBuf>,
) -> anyhow::Result<()> {
    let password = match password {
        Some(password) => password,
        None => {
            eprint!("password for {name}: ");
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line).context("reading the password")?;
            line.trim_end_matches(['\r', '\n']).to_owned()
        }
    };
    let answer = client(server, None)?.sign_in(pb::SignInRequest { name, password }).await.map_err(refused)?;
    signed_in(answer.into_inner().signed_in, refresh_token_file.as_deref())
}

/// `bridgectl redeem <code>`.
pub async fn redeem(server: &str, code: String, refresh_token_file: Option<PathBuf>) -> anyhow::Result<()> {
    let answer = client(server, None)?.redeem_code(pb::RedeemCodeRequest { code }).await.map_err(refused)?;
    signed_in(answer.into_inner().signed_in, refresh_token_file.as_deref())
}

/// `bridgectl refresh`: exchanges the refresh token kept in `file` and keeps the next one there.
pub async fn refresh(server: &str, file: PathBuf) -> anyhow::Result<()> {
    let refresh_token = std::fs::read_to_string(&file).with_context(|| file.display().to_string())?.trim().to_owned();
    if refresh_token.is_empty() {
        bail!("{} holds no refresh token: sign in again", file.display());
    }
    let answer = client(server, None)?.refresh(pb::RefreshRequest { refresh_token }).await.map_err(refused)?;
    signed_in(answer.into_inner().signed_in, Some(&file))
}

fn print_account(account: &pb::Account) {
    let roles: Vec<String> = account.roles.iter().map(|r| role_name(*r)).collect();
    let since = account.password_set_at.as_ref().map(|t| t.seconds).unwrap_or_default();
    let since = chrono::DateTime::from_timestamp(since, 0).map(|t| t.to_rfc3339()).unwrap_or_default();
    println!("{:<24} {:<32} password set {since}", account.name, roles.join(","));
}

/// `bridgectl account ...`.
pub async fn account(server: &str, token: Option<&str>, command: Account) -> anyhow::Result<()> {
    let token = token.context("a token is needed: pass --token or set BRIDGE_TOKEN (bridgectl signin)")?;
    let mut client = client(server, Some(token))?;
    match command {
        Account::Create { name, roles, password } => {
            let request =
                pb::CreateAccountRequest { name, roles: proto_roles(&roles), password: password.unwrap_or_default() };
            let answer = client.create_account(request).await.map_err(refused)?.into_inner();
            if let Some(account) = &answer.account {
                print_account(account);
            }
            if !answer.generated_password.is_empty() {
                println!("password: {} (shown this once)", answer.generated_password);
            }
        }
        Account::List => {
            for account in
                client.list_accounts(pb::ListAccountsRequest {}).await.map_err(refused)?.into_inner().accounts
            {
                print_account(&account);
            }
        }
        Account::SetRoles { name, roles } => {
            let request = pb::SetAccountRolesRequest { name, roles: proto_roles(&roles) };
            if let Some(account) = client.set_account_roles(request).await.map_err(refused)?.into_inner().account {
                print_account(&account);
            }
        }
        Account::ResetPassword { name, password } => {
            let request = pb::ResetPasswordRequest { name: name.clone(), password: password.unwrap_or_default() };
            let answer = client.reset_password(request).await.map_err(refused)?.into_inner();
            if answer.generated_password.is_empty() {
                println!("password of {name} set; its sessions are ended");
            } else {
                println!("password of {name}: {} (shown this once); its sessions are ended", answer.generated_password);
            }
        }
    }
    Ok(())
}

/// `bridgectl member ...`.
pub async fn member(server: &str, token: Option<&str>, command: Member) -> anyhow::Result<()> {
    let token = token.context("a token is needed: pass --token or set BRIDGE_TOKEN (bridgectl signin)")?;
    let mut client = client(server, Some(token))?;
    match command {
        Member::Code { player, email } => {
            let delivery = if email { pb::CodeDelivery::Email } else { pb::CodeDelivery::ShowToDesk };
            let request = pb::IssueSignInCodeRequest { player_id: player, delivery: delivery as i32 };
            let answer = client.issue_sign_in_code(request).await.map_err(refused)?.into_inner();
            let until = answer.expires_at.map(|t| t.seconds).unwrap_or_default();
            let until = chrono::DateTime::from_timestamp(until, 0).map(|t| t.to_rfc3339()).unwrap_or_default();
            if answer.delivery == pb::CodeDelivery::Email as i32 {
                println!("{}", answer.sent_to);
                eprintln!(
                    "a sign-in code for {} was mailed to {} (once, until {until}): he redeems it in the app",
                    answer.player_id, answer.sent_to
                );
            } else {
                println!("{}", answer.code);
                eprintln!("the sign-in code of {} (once, until {until}): he redeems it in the app", answer.player_id);
            }
        }
        Member::Revoke { player } => {
            let answer = client
                .revoke_member_sessions(pb::RevokeMemberSessionsRequest { player_id: player.clone() })
                .await
                .map_err(refused)?;
            println!("{} session(s) of {player} ended", answer.into_inner().sessions_revoked);
        }
    }
    Ok(())
}
