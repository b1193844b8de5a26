//! Tests of the platform's own tokens and of the auth layer.

use super::*;
use std::time::Duration;

fn policy() -> MethodPolicy {
    Arc::new(|path| match path {
        "/x.v1.S/DeskOnly" => Some(&[Role::Desk, Role::Admin][..]),
        _ => None,
    })
}

fn headers(token: &str) -> http::HeaderMap {
    let mut h = http::HeaderMap::new();
    h.insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    h
}

#[test]
fn tokens_carry_subject_and_roles() {
    let issuer = TokenIssuer::hs256(b"secret");
    let token = issuer.issue("alice", &[Role::Desk], Duration::from_secs(60)).unwrap();
    let principal = TokenVerifier::hs256(b"secret").verify(&token).unwrap();
    assert_eq!(principal.subject, "alice");
    assert!(principal.has(Role::Desk));
    assert!(!principal.has(Role::Admin));
}

#[test]
fn forged_expired_and_missing_tokens_are_refused() {
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret"), policy());
    let forged = TokenIssuer::hs256(b"other").issue("mallory", &[Role::Admin], Duration::from_secs(60)).unwrap();
    let now = chrono::Utc::now().timestamp();
    let expired = TokenIssuer::hs256(b"secret")
        .issue_claims(&Claims {
            sub: "bob".into(),
            roles: vec![Role::Desk],
            iss: ISSUER.into(),
            iat: now - 7200,
            exp: now - 3600,
            sid: None,
        })
        .unwrap();
    for h in [headers(&forged), headers(&expired), http::HeaderMap::new()] {
        let err = layer.authorize("/x.v1.S/DeskOnly", &h).unwrap_err();
        assert_eq!(err.code(), tonic::Code::Unauthenticated, "{}", err.message());
    }
    assert!(layer.authorize("/x.v1.S/DeskOnly", &headers(&expired)).unwrap_err().message().contains("expired"));
}

#[test]
fn a_remembered_token_still_expires_and_a_forgery_of_it_is_still_refused() {
    let verifier = TokenVerifier::hs256(b"secret");
    let now = chrono::Utc::now().timestamp();
    let claims = |exp: i64| Claims {
        sub: "carol".into(),
        roles: vec![Role::Desk],
        iss: ISSUER.into(),
        iat: now,
        exp,
        sid: None,
    };
    let issuer = TokenIssuer::hs256(b"secret");
    // Verified once, then remembered: the same answer without verifying again.
    let token = issuer.issue_claims(&claims(now + 60)).unwrap();
    assert_eq!(verifier.verify(&token).unwrap().subject, "carol");
    assert_eq!(verifier.verify(&token).unwrap().subject, "carol");
    // A token remembered but past its expiry is verified again, and refused.
    let stale = issuer.issue_claims(&claims(now - 3600)).unwrap();
    let carol = verifier.verify(&token).unwrap();
    verifier
        .verified
        .lock()
        .unwrap()
        .insert(stale.clone(), Verified { principal: carol, expires: now - 3600, session: None });
    assert!(matches!(verifier.verify(&stale), Err(AuthError::Expired)));
    // Another signature over the same claims is another string: never taken for the first.
    let forged = TokenIssuer::hs256(b"other").issue_claims(&claims(now + 60)).unwrap();
    assert!(matches!(verifier.verify(&forged), Err(AuthError::WrongKey)));
}

#[test]
fn an_empty_or_malformed_token_is_told_what_is_wrong_and_how_to_get_one() {
    let verifier = TokenVerifier::hs256(b"secret");
    let refusal = |value: &str| {
        let mut headers = http::HeaderMap::new();
        headers.insert(http::header::AUTHORIZATION, value.parse().unwrap());
        verifier.verify_headers(&headers).unwrap_err()
    };
    let empty = refusal("Bearer ");
    assert!(matches!(empty, AuthError::Empty), "{empty:?}");
    let malformed = refusal("Bearer not-a-token");
    assert!(matches!(malformed, AuthError::Malformed(_)), "{malformed:?}");
    let garbled = refusal("Bearer a.b.c");
    assert!(matches!(garbled, AuthError::Malformed(_)), "{garbled:?}");
    for refused in [empty, malformed, garbled, AuthError::Missing, AuthError::Expired, AuthError::WrongKey] {
        assert!(refused.to_string().contains("bridgectl token"), "{refused}");
    }
    assert!(AuthError::Empty.to_string().starts_with("empty bearer token"));
}

#[test]
fn wrong_role_is_permission_denied_and_names_the_roles() {
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret"), policy());
    let token = TokenIssuer::hs256(b"secret").issue("p", &[Role::Player], Duration::from_secs(60)).unwrap();
    let err = layer.authorize("/x.v1.S/DeskOnly", &headers(&token)).unwrap_err();
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    assert!(err.message().contains("desk, admin"), "{}", err.message());
    let err = layer.authorize("/x.v1.S/Unknown", &headers(&token)).unwrap_err();
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
}

#[test]
fn the_contract_policy_is_the_contract_s_table() {
    let policy = contract_policy();
    assert_eq!(
        policy("/bridgeclub.appeals.v1.AppealsService/DecideAppeal"),
        Some(&[Role::Committee, Role::Player][..])
    );
    assert_eq!(policy("/bridgeclub.appeals.v1.AppealsService/DirectorDecideAppeal"), Some(&[Role::Arbiter][..]));
    assert_eq!(policy("/bridgeclub.appeals.v1.AppealsService/NoSuchMethod"), None);
    for (path, roles) in api::ALLOWED_ROLES {
        assert_eq!(policy(path).map(<[Role]>::len), Some(roles.len()), "{path}");
    }
}

#[test]
fn a_token_of_an_ended_session_is_refused_and_one_without_a_session_is_not() {
    let revocations = crate::revocation::Revocations::default();
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret"), policy()).with_revocations(revocations.clone());
    let issuer = TokenIssuer::hs256(b"secret");
    let later = chrono::Utc::now().timestamp() + 600;
    let in_session = issuer.issue_in_session("desk-1", &[Role::Desk], "s-1", later).unwrap();
    let minted = issuer.issue("desk-2", &[Role::Desk], Duration::from_secs(600)).unwrap();
    assert!(layer.authorize("/x.v1.S/DeskOnly", &headers(&in_session)).is_ok());
    revocations.note("s-1", later * 1000);
    let refused = layer.authorize("/x.v1.S/DeskOnly", &headers(&in_session)).unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    assert!(refused.message().contains("session has ended"), "{}", refused.message());
    assert!(layer.authorize("/x.v1.S/DeskOnly", &headers(&minted)).is_ok(), "minted tokens have no session");
}

#[test]
fn signing_in_needs_no_token_and_nothing_else_does() {
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret"), contract_policy());
    for method in ["SignIn", "RedeemCode", "Refresh"] {
        let path = format!("/bridgeclub.membership.v1.SignInService/{method}");
        assert_eq!(layer.authorize(&path, &http::HeaderMap::new()).unwrap(), None, "{path}");
    }
    let issue = "/bridgeclub.membership.v1.SignInService/IssueSignInCode";
    assert_eq!(layer.authorize(issue, &http::HeaderMap::new()).unwrap_err().code(), tonic::Code::Unauthenticated);
}

#[test]
fn health_and_reflection_are_open() {
    let layer = AuthLayer::new(TokenVerifier::hs256(b"secret"), policy());
    assert_eq!(layer.authorize("/grpc.health.v1.Health/Check", &http::HeaderMap::new()).unwrap(), None);
    assert_eq!(
        layer.authorize("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", &http::HeaderMap::new()).unwrap(),
        None
    );
}

#[test]
fn the_local_secret_is_created_once_and_reused() {
    let dir = std::env::temp_dir().join(format!("bridge-club-key-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("key");
    let first = load_or_create_local_secret(&path).unwrap();
    let second = load_or_create_local_secret(&path).unwrap();
    assert_eq!(first, second);
    assert_eq!(first.len(), 32);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn during_a_key_rotation_tokens_of_the_old_key_and_the_new_are_taken_and_no_others() {
    let old = TokenIssuer::rs256_pem(include_bytes!("testdata/rsa-a.pem")).unwrap();
    let new = TokenIssuer::rs256_pem(include_bytes!("testdata/rsa-b.pem")).unwrap();
    let stranger = TokenIssuer::hs256(b"a key nobody configured");
    let minute = Duration::from_secs(60);
    let from_old = old.issue("p1", &[Role::Player], minute).unwrap();
    let from_new = new.issue("p2", &[Role::Player], minute).unwrap();

    let before = TokenVerifier::rs256_pem(include_bytes!("testdata/rsa-a.pub.pem")).unwrap();
    assert!(before.verify(&from_new).is_err(), "a verifier that has not heard of the new key refuses it");

    let rotating = TokenVerifier::rs256_pem(include_bytes!("testdata/rsa-b.pub.pem"))
        .unwrap()
        .with_previous_rs256_pem(include_bytes!("testdata/rsa-a.pub.pem"))
        .unwrap();
    assert_eq!(rotating.verify(&from_new).unwrap().subject, "p2");
    assert_eq!(rotating.verify(&from_old).unwrap().subject, "p1", "the old key's tokens live on until they expire");
    assert!(rotating.verify(&stranger.issue("p3", &[Role::Admin], minute).unwrap()).is_err());
    let now = chrono::Utc::now().timestamp();
    let expired = old
        .issue_claims(&Claims {
            sub: "p1".into(),
            roles: vec![Role::Player],
            iss: ISSUER.into(),
            iat: now - 7200,
            exp: now - 3600,
            sid: None,
        })
        .unwrap();
    assert!(rotating.verify(&expired).is_err(), "the old key does not revive an expired token");

    let after = TokenVerifier::rs256_pem(include_bytes!("testdata/rsa-b.pub.pem")).unwrap();
    assert!(after.verify(&from_old).is_err(), "once the old key is dropped, its tokens are refused");
}
