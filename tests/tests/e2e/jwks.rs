//! A club's own identity provider (issue 17): the platform checks its tokens against the keys it
//! publishes, here a JWKS the test serves itself on a loopback port, signed with the test's own
//! keys. A desk and a player of the provider call the services; a key the provider publishes later
//! is fetched when a token first names it; a key it never published is refused; and a provider
//! away at start answers UNAVAILABLE until it is back.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use api::membership::v1 as pb;
use e2e::{MembershipClient, TestApp};
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use platform::auth::testing::JwksServer;
use platform::config::{IdentityProviderConfig, PlatformConfig};
use serde_json::json;
use tonic::Code;

const ISSUER: &str = "https://id.club.example/realms/club";
const AUDIENCE: &str = "bridge-club-services";

/// The JWKS URL of each test's provider; the configuration hook is a plain function.
static SERVED_URL: OnceLock<String> = OnceLock::new();
static AWAY_URL: OnceLock<String> = OnceLock::new();

fn provider_at(config: &mut PlatformConfig, url: &str) {
    let mut provider = IdentityProviderConfig::new(ISSUER, url);
    provider.audience = Some(AUDIENCE.to_owned());
    provider.member_claim = "player_id".to_owned();
    // Every unknown key may fetch at once: the test publishes keys and expects them seen.
    provider.min_refetch_interval_secs = 0;
    config.auth.identity_provider = Some(provider);
}

fn served(config: &mut PlatformConfig, _: &mut club::Settings) {
    provider_at(config, SERVED_URL.get().expect("the JWKS is served first"));
}

fn away(config: &mut PlatformConfig, _: &mut club::Settings) {
    provider_at(config, AWAY_URL.get().expect("the JWKS address is chosen first"));
}

/// A signing key of the provider.
struct Signer {
    kid: &'static str,
    algorithm: Algorithm,
    key: EncodingKey,
}

impl Signer {
    fn rsa(kid: &'static str, pem: &[u8]) -> Self {
        Signer { kid, algorithm: Algorithm::RS256, key: EncodingKey::from_rsa_pem(pem).unwrap() }
    }

    fn ec(kid: &'static str, pem: &[u8]) -> Self {
        Signer { kid, algorithm: Algorithm::ES256, key: EncodingKey::from_ec_pem(pem).unwrap() }
    }

    /// The public half, as the provider publishes it.
    fn jwk(&self) -> Jwk {
        let mut jwk = Jwk::from_encoding_key(&self.key, self.algorithm).unwrap();
        jwk.common.key_id = Some(self.kid.to_owned());
        jwk
    }

    /// A token of the provider for member `player_id` with `roles`.
    fn token(&self, player_id: &str, roles: &[&str]) -> String {
        let now = chrono::Utc::now().timestamp();
        let claims = json!({
            "iss": ISSUER, "aud": AUDIENCE, "sub": format!("idp|{player_id}"), "player_id": player_id,
            "roles": roles, "iat": now, "exp": now + 600,
        });
        let mut header = Header::new(self.algorithm);
        header.kid = Some(self.kid.to_owned());
        jsonwebtoken::encode(&header, &claims, &self.key).unwrap()
    }
}

fn membership(app: &TestApp, token: &str) -> MembershipClient {
    MembershipClient::new(app.channel(Some(token)))
}

async fn register(app: &TestApp, token: &str, player_id: &str) -> Result<(), tonic::Status> {
    let request =
        pb::RegisterPlayerRequest { player_id: player_id.to_owned(), name: player_id.to_owned(), ..Default::default() };
    membership(app, token).register_player(request).await.map(|_| ())
}

async fn get_player(app: &TestApp, token: &str, player_id: &str) -> Result<pb::Player, tonic::Status> {
    let request = pb::GetPlayerRequest { player_id: player_id.to_owned() };
    Ok(membership(app, token).get_player(request).await?.into_inner().player.unwrap_or_default())
}

fn code(result: Result<impl std::fmt::Debug, tonic::Status>, what: &str) -> Code {
    match result {
        Ok(answer) => panic!("{what}: accepted ({answer:?})"),
        Err(status) => {
            tracing::info!(what, message = status.message(), "refused");
            status.code()
        }
    }
}

#[tokio::test]
async fn jwks_tokens_of_the_club_s_identity_provider_are_honoured() {
    let rsa = Signer::rsa("rsa-1", include_bytes!("jwks/rsa-1.pem"));
    let rotated = Signer::ec("ec-2", include_bytes!("jwks/ec-2.pem"));
    let stranger = Signer::ec("ec-3", include_bytes!("jwks/ec-3.pem"));
    let jwks = JwksServer::default();
    jwks.publish(rsa.jwk());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    SERVED_URL.set(format!("http://{}/.well-known/jwks.json", listener.local_addr().unwrap())).unwrap();
    jwks.serve(listener);
    let app = TestApp::spawn_with(served).await;

    // The provider's desk registers a member; the member, by the id the provider's member claim
    // holds, reads his own record.
    let player_id = format!("p-{}", uuid::Uuid::new_v4().simple());
    register(&app, &rsa.token("desk-1", &["desk", "treasurer"]), &player_id).await.unwrap();
    let player = get_player(&app, &rsa.token(&player_id, &["player"]), &player_id).await.unwrap();
    assert_eq!(player.player_id, player_id);
    // A player may not do the desk's work: roles come from the provider's claim only.
    let refused = register(&app, &rsa.token(&player_id, &["player"]), "p-other").await;
    assert_eq!(code(refused, "a player registering"), Code::PermissionDenied);

    // A key the provider has not published yet is refused; once published, the next token
    // naming it fetches the set again and is accepted.
    let refused = get_player(&app, &rotated.token(&player_id, &["player"]), &player_id).await;
    assert_eq!(code(refused, "a key not published yet"), Code::Unauthenticated);
    jwks.publish(rotated.jwk());
    let player = get_player(&app, &rotated.token(&player_id, &["player"]), &player_id).await.unwrap();
    assert_eq!(player.player_id, player_id);

    // A key the provider never published, under its own id or a published one's: refused.
    let refused = get_player(&app, &stranger.token(&player_id, &["player"]), &player_id).await;
    assert_eq!(code(refused, "an unpublished key"), Code::Unauthenticated);
    let forged = Signer { kid: "ec-2", ..Signer::ec("ec-3", include_bytes!("jwks/ec-3.pem")) };
    let refused = get_player(&app, &forged.token(&player_id, &["player"]), &player_id).await;
    assert_eq!(code(refused, "a forgery under a published key's id"), Code::Unauthenticated);
    // The provider may not make a service of the platform.
    let refused = get_player(&app, &rsa.token("service:game", &["service", "desk"]), &player_id).await;
    assert_eq!(code(refused, "the service role from the provider"), Code::Unauthenticated);
    // The platform's own tokens still work beside the provider's.
    get_player(&app, &app.token("front-desk", &[platform::auth::Role::Desk]), &player_id).await.unwrap();
    assert!(jwks.fetches() >= 2, "fetched at start and for the new key");
}

#[tokio::test]
async fn jwks_away_at_start_answers_unavailable_until_it_is_back() {
    let signer = Signer::ec("ec-2", include_bytes!("jwks/ec-2.pem"));
    // An address nobody answers at yet.
    let address = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    AWAY_URL.set(format!("http://{address}/jwks.json")).unwrap();
    let app = TestApp::spawn_with(away).await;
    let desk = signer.token("desk-2", &["desk"]);
    let player_id = format!("p-{}", uuid::Uuid::new_v4().simple());
    assert_eq!(code(register(&app, &desk, &player_id).await, "the provider away"), Code::Unavailable);

    let jwks = JwksServer::default();
    jwks.publish(signer.jwk());
    jwks.serve(tokio::net::TcpListener::bind(address).await.unwrap());
    let start = Instant::now();
    loop {
        match register(&app, &desk, &player_id).await {
            Ok(()) => break,
            Err(status) => assert!(
                status.code() == Code::Unavailable && start.elapsed() < Duration::from_secs(10),
                "the provider back: {status:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
