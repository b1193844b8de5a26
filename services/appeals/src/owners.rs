//! What the appeals service asks of the other owners for its committees (docs/trust.md): whether a
//! player is on membership's register (a roster member, a member of a game's committee, a player
//! a conflict names), whether a staff account holds the committee role (a roster member who signs
//! in as staff), a rubber's table and four players (membership's), and whether the game
//! service has started any deal of the rubber (a game's committee is agreed before its first deal).
//!
//! [`Owners`] is the seam: [`GrpcOwners`] asks over gRPC through [`Peers`]; the crate's tests put
//! an in-memory one behind it.

use api::game::v1 as game;
use api::game::v1::game_service_client::GameServiceClient;
use api::membership::v1 as membership;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use platform::ServiceError;
use platform::app::Peers;
use platform::client::ask;

/// The other owners' answers the appeals service's committees need.
#[async_trait::async_trait]
pub trait Owners: Send + Sync + 'static {
    /// A player on the register, or `None` if membership has none by that id.
    async fn player(&self, player_id: &str) -> Result<Option<membership::Player>, ServiceError>;

    /// A staff account by name (its subject is `staff:<name>`), or `None` if membership has none.
    async fn account(&self, name: &str) -> Result<Option<membership::Account>, ServiceError>;

    /// A rubber, or `None` if membership has none by that id.
    async fn rubber(&self, rubber_id: &str) -> Result<Option<membership::Rubber>, ServiceError>;

    /// Whether any deal of the rubber has started, finished or not.
    async fn deals_started(&self, rubber_id: &str) -> Result<bool, ServiceError>;
}

/// Owners nobody configured: every question is UNAVAILABLE.
#[derive(Debug, Clone, Copy)]
pub struct Unconfigured;

#[async_trait::async_trait]
impl Owners for Unconfigured {
    async fn player(&self, _: &str) -> Result<Option<membership::Player>, ServiceError> {
        Err(ServiceError::Unavailable("the appeals service has no membership service configured".into()))
    }

    async fn account(&self, _: &str) -> Result<Option<membership::Account>, ServiceError> {
        Err(ServiceError::Unavailable("the appeals service has no membership service configured".into()))
    }

    async fn rubber(&self, _: &str) -> Result<Option<membership::Rubber>, ServiceError> {
        Err(ServiceError::Unavailable("the appeals service has no membership service configured".into()))
    }

    async fn deals_started(&self, _: &str) -> Result<bool, ServiceError> {
        Err(ServiceError::Unavailable("the appeals service has no game service configured".into()))
    }
}

/// The membership and game services over gRPC.
#[derive(Debug, Clone)]
pub struct GrpcOwners {
    peers: Peers,
}

impl GrpcOwners {
    /// Asks the services of `peers`.
    pub fn new(peers: Peers) -> Self {
        GrpcOwners { peers }
    }
}

/// `None` for the owner's NOT_FOUND; any other refusal or failure as it came.
fn found<T>(answer: Result<T, ServiceError>) -> Result<Option<T>, ServiceError> {
    match answer {
        Ok(found) => Ok(Some(found)),
        Err(ServiceError::NotFound(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

#[async_trait::async_trait]
impl Owners for GrpcOwners {
    #[tracing::instrument(skip(self))]
    async fn player(&self, player_id: &str) -> Result<Option<membership::Player>, ServiceError> {
        let mut client = MembershipServiceClient::new(self.peers.membership()?);
        let request = membership::GetPlayerRequest { player_id: player_id.to_owned() };
        let answer = ask("membership", &format!("player {player_id}"), client.get_player(request)).await;
        Ok(found(answer)?.and_then(|a| a.player))
    }

    #[tracing::instrument(skip(self))]
    async fn account(&self, name: &str) -> Result<Option<membership::Account>, ServiceError> {
        let mut client = SignInServiceClient::new(self.peers.membership()?);
        let request = membership::GetAccountRequest { name: name.to_owned() };
        let answer = ask("membership", &format!("staff account {name}"), client.get_account(request)).await;
        Ok(found(answer)?.and_then(|a| a.account))
    }

    #[tracing::instrument(skip(self))]
    async fn rubber(&self, rubber_id: &str) -> Result<Option<membership::Rubber>, ServiceError> {
        let mut client = MembershipServiceClient::new(self.peers.membership()?);
        let request = membership::GetRubberRequest { rubber_id: rubber_id.to_owned() };
        let answer = ask("membership", &format!("rubber {rubber_id}"), client.get_rubber(request)).await;
        Ok(found(answer)?.and_then(|a| a.rubber))
    }

    #[tracing::instrument(skip(self))]
    async fn deals_started(&self, rubber_id: &str) -> Result<bool, ServiceError> {
        let mut client = GameServiceClient::new(self.peers.game()?);
        let request = game::ListDealsRequest {
            rubber_id: rubber_id.to_owned(),
            include_in_progress: true,
            page: Some(api::common::v1::PageRequest { page_size: 1, page_token: String::new() }),
            ..Default::default()
        };
        let answer = ask("game", &format!("the deals of rubber {rubber_id}"), client.list_deals(request)).await?;
        Ok(!answer.deals.is_empty())
    }
}
