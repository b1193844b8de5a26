//! Tests of the identity provider's tokens, against a JWKS served on a loopback port.

use jsonwebtoken::{EncodingKey, Header};
use serde_json::json;

use super::*;
use crate::auth::testing::JwksServer;
use crate::auth::{AuthLayer, MethodPolicy, TokenIssuer, TokenVerifier};

const ISSUER: &str = "https://id.club.example";
const EC_A: &[u8] = include_bytes!("../testdata/ec-a.pem");
const EC_B: &[u8] = include_bytes!("../testdata/ec-b.pem");
const RSA_A: &[u8] = include_bytes!("../testdata/rsa-a.pem");

/// A signing key of the test's provider and its public half as a JWK.
struct Signer {
    kid: &'static str,
    algorithm: Algorithm,
    key: EncodingKey,
}

impl Signer {
    fn ec(kid: &'static str, pem: &[u8]) -> Self {
        Signer { kid, algorithm: Algorithm::ES256, key: EncodingKey::from_ec_pem(pem).unwrap() }
    }

    fn rsa(kid: &'static str, pem: &[u8]) -> Self {
        Signer { kid, algorithm: Algorithm::RS256, key: EncodingKey::from_rsa_pem(pem).unwrap() }
    }

    fn jwk(&self) -> Jwk {
        let mut jwk = Jwk::from_encoding_key(&self.key, self.algorithm).unwrap();
        jwk.common.key_id = Some(self.kid.to_owned());
        jwk
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.algorithm);
        header.kid = Some(self.kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

fn claims(extra: Value) -> Value {
    let now = jsonwebtoken::get_current_timestamp() as i64;
    let mut claims = json!({"iss": ISSUER, "aud": "bridge-club", "sub": "idp-user-1", "exp": now + 600, "iat": now});
    if let (Some(claims), Some(extra)) = (claims.as_object_mut(), extra.as_object()) {
        claims.extend(extra.clone());
    }
    claims
}

fn config(url: &str) -> IdentityProviderConfig {
    let mut config = IdentityProviderConfig::new(ISSUER, url);
    config.audience = Some("bridge-club".into());
    config.min_refetch_interval_secs = 0;
    config
}

async fn provider(config: IdentityProviderConfig) -> Arc<IdentityProvider> {
    let provider = Arc::new(IdentityProvider::new(config).unwrap());
    provider.refresh().await.unwrap();
    provider
}

fn policy() -> MethodPolicy {
    Arc::new(|path| match path {
        "/x.v1.S/DeskOnly" => Some(&[Role::Desk][..]),
        _ => None,
    })
}

fn headers(token: &str) -> http::HeaderMap {
    let mut h = http::HeaderMap::new();
    h.insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    h
}

#[tokio::test]
async fn the_member_claim_names_the_subject_and_known_roles_are_kept() {
    let signer = Signer::ec("a", EC_A);
    let (_server, url) = JwksServer::start(vec![signer.jwk()]).await;
    let mut config = config(&url);
    config.member_claim = "player_id".into();
    config.roles_claim = "https://club.example/roles".into();
    let provider = provider(config).await;
    let token = signer
        .sign(&claims(json!({"player_id": "p-17", "https://club.example/roles": ["desk", "Player", "treasurer", 3]})));
    let (principal, _) = provider.verify(&token).unwrap();
    assert_eq!(principal.subject, "p-17");
    assert_eq!(principal.roles, HashSet::from([Role::Desk, Role::Player]));
    // Nested roles, as some providers put them.
    let mut config = provider.config.clone();
    config.roles_claim = "realm_access.roles".into();
    let nested = IdentityProvider::new(config).unwrap();
    *nested.keys.write().unwrap() = provider.keys.read().unwrap().clone();
    let token = signer.sign(&claims(json!({"player_id": 17, "realm_access": {"roles": ["arbiter"]}})));
    let (principal, _) = nested.verify(&token).unwrap();
    assert_eq!((principal.subject.as_str(), principal.roles), ("17", HashSet::from([Role::Arbiter])));
    // No member claim: refused; roles that are not a list: refused.
    let token = signer.sign(&claims(json!({"realm_access": {"roles": ["arbiter"]}})));
    assert!(matches!(nested.verify(&token), Err(AuthError::Invalid(_))));
    let token = signer.sign(&claims(json!({"player_id": "p", "realm_access": {"roles": "desk"}})));
    assert!(matches!(nested.verify(&token), Err(AuthError::Invalid(_))));
}

#[tokio::test]
async fn the_provider_may_not_grant_the_service_role() {
    let signer = Signer::ec("a", EC_A);
    let (_server, url) = JwksServer::start(vec![signer.jwk()]).await;
    let provider = provider(config(&url)).await;
    let token = signer.sign(&claims(json!({"sub": "service:game", "roles": ["desk", "service"]})));
    let refused = provider.verify(&token).unwrap_err();
    assert!(matches!(&refused, AuthError::Invalid(m) if m.contains("service")), "{refused:?}");
    assert_eq!(refused.status().code(), tonic::Code::Unauthenticated);
}

#[tokio::test]
async fn wrong_issuer_audience_key_or_expiry_is_refused() {
    let signer = Signer::rsa("r", RSA_A);
    let (_server, url) = JwksServer::start(vec![signer.jwk(), Signer::ec("a", EC_A).jwk()]).await;
    let provider = provider(config(&url)).await;
    let verifier = TokenVerifier::hs256(b"secret").with_identity_provider(provider.clone());
    let good = signer.sign(&claims(json!({"roles": ["desk"]})));
    assert_eq!(verifier.verify(&good).unwrap().subject, "idp-user-1");
    let now = jsonwebtoken::get_current_timestamp() as i64;
    let refused = [
        ("issuer", signer.sign(&claims(json!({"iss": "https://other.example"})))),
        ("audience", signer.sign(&claims(json!({"aud": "another-app"})))),
        ("no audience", signer.sign(&json!({"iss": ISSUER, "sub": "x", "exp": now + 600}))),
        ("expired", signer.sign(&claims(json!({"exp": now - 3600})))),
        ("not yet valid", signer.sign(&claims(json!({"nbf": now + 3600})))),
        // Signed with another key under a published key's id.
        ("forged", Signer::ec("a", EC_B).sign(&claims(json!({})))),
        // The RSA key's id on a token of another algorithm.
        ("algorithm", Signer { kid: "r", ..Signer::ec("a", EC_A) }.sign(&claims(json!({})))),
    ];
    for (what, token) in refused {
        let error = verifier.verify(&token).unwrap_err();
        assert_eq!(error.status().code(), tonic::Code::Unauthenticated, "{what}: {error:?}");
    }
    // The platform's own tokens are still the platform's.
    let own = TokenIssuer::hs256(b"secret").issue("desk-1", &[Role::Desk], Duration::from_secs(60)).unwrap();
    assert_eq!(verifier.verify(&own).unwrap().subject, "desk-1");
}

#[tokio::test]
async fn an_unknown_key_fetches_the_set_again_at_most_so_often() {
    let (a, b, c) = (Signer::ec("a", EC_A), Signer::ec("b", EC_B), Signer::rsa("c", RSA_A));
    let (server, url) = JwksServer::start(vec![a.jwk()]).await;
    let quick = provider(config(&url)).await;
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret").with_identity_provider(quick), policy());
    let desk = |signer: &Signer| headers(&signer.sign(&claims(json!({"roles": ["desk"]}))));
    assert!(layer.authorize_fetching("/x.v1.S/DeskOnly", &desk(&a)).await.is_ok());
    assert_eq!(server.fetches(), 1, "a known key waits on no fetch");
    // Not published: fetched again, still not there, refused.
    let refused = layer.authorize_fetching("/x.v1.S/DeskOnly", &desk(&b)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated, "{}", refused.message());
    assert_eq!(server.fetches(), 2);
    // Published since: the next fetch finds it. The synchronous check never fetches.
    server.publish(b.jwk());
    assert_eq!(layer.authorize("/x.v1.S/DeskOnly", &desk(&b)).unwrap_err().code(), tonic::Code::Unavailable);
    assert!(layer.authorize_fetching("/x.v1.S/DeskOnly", &desk(&b)).await.is_ok());
    assert_eq!(server.fetches(), 3);

    // With the fetches spaced, an unknown key asks for none until the interval has passed.
    server.publish(c.jwk());
    let mut spaced = config(&url);
    spaced.min_refetch_interval_secs = 3600;
    let spaced = provider(spaced).await;
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret").with_identity_provider(spaced), policy());
    let before = server.fetches();
    let refused = layer.authorize_fetching("/x.v1.S/DeskOnly", &desk(&Signer::rsa("d", RSA_A))).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    assert!(layer.authorize_fetching("/x.v1.S/DeskOnly", &desk(&c)).await.is_ok(), "c was there at the refresh");
    assert_eq!(server.fetches(), before);
}

#[tokio::test]
async fn keys_that_cannot_be_fetched_answer_unavailable() {
    // A port nothing listens on.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    drop(listener);
    let mut quick = config(&url);
    quick.fetch_timeout_ms = 500;
    let provider = Arc::new(IdentityProvider::new(quick).unwrap());
    assert!(provider.refresh().await.is_err());
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret").with_identity_provider(provider), policy());
    let token = Signer::ec("a", EC_A).sign(&claims(json!({"roles": ["desk"]})));
    let refused = layer.authorize("/x.v1.S/DeskOnly", &headers(&token)).unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unavailable, "{}", refused.message());
    let refused = layer.authorize_fetching("/x.v1.S/DeskOnly", &headers(&token)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unavailable, "{}", refused.message());
    // Spared a fetch by the spacing, a caller still hears that the last one failed.
    let mut spaced = config(&url);
    spaced.min_refetch_interval_secs = 3600;
    let provider = Arc::new(IdentityProvider::new(spaced).unwrap());
    assert!(provider.refresh().await.is_err());
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret").with_identity_provider(provider), policy());
    let refused = layer.authorize_fetching("/x.v1.S/DeskOnly", &headers(&token)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unavailable, "{}", refused.message());
}

#[test]
fn the_provider_needs_its_own_issuer() {
    assert!(IdentityProvider::new(IdentityProviderConfig::new(crate::auth::ISSUER, "http://x/jwks")).is_err());
    assert!(IdentityProvider::new(IdentityProviderConfig::new("", "http://x/jwks")).is_err());
}
