//! Identity and roles: JWT bearer tokens, checked at the edge of every server.
//!
//! A token carries the subject (a player's or official's id) and the roles the club gave them
//! (`player`, `desk`, `arbiter`, `committee`, `admin`), or, for another service of the platform
//! calling on its own behalf, `service`. Locally the platform signs and checks
//! HS256 tokens with a generated key; in production it checks RS256 tokens against a public key
//! and never holds the private one.
//!
//! [`AuthLayer`] validates the token of every request, refuses a token whose session was ended
//! ([`crate::revocation`]), checks the roles the contract allows for the method ([`MethodPolicy`]),
//! and hands the [`Principal`] to the handler through the request extensions. Health and
//! reflection stay open, so probes and tools need no token, and so do the RPCs the contract marks
//! anonymous (signing in, which hands tokens out).

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::task::{Context, Poll};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tonic::Status;

/// The issuer claim of every token this platform signs and accepts.
pub const ISSUER: &str = "bridge-club";

/// A role a principal may hold (docs/architecture.md, "Identity and roles").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A player: sees his own hand, makes his own calls and plays, applies to tables.
    Player,
    /// The front desk: runs the room, tables, line-ups and results entered by hand.
    Desk,
    /// The arbiter (rubber) or director (duplicate): rules on irregularities, sees all hands.
    Arbiter,
    /// A member of the appeals committee: hears and decides appeals.
    Committee,
    /// The club's administrator: everything the desk may do, plus settings.
    Admin,
    /// Another service of the platform calling on its own behalf, never a person: a scorepad
    /// takes a played deal's result from the game service only under this identity.
    Service,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 6] = [Role::Player, Role::Desk, Role::Arbiter, Role::Committee, Role::Admin, Role::Service];

    /// The lowercase name used in tokens and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Desk => "desk",
            Role::Arbiter => "arbiter",
            Role::Committee => "committee",
            Role::Admin => "admin",
            Role::Service => "service",
        }
    }
}

impl Role {
    /// The role of the contract's `Role` enum; `None` for `ROLE_UNSPECIFIED`.
    pub fn from_proto(role: api::common::v1::Role) -> Option<Role> {
        use api::common::v1::Role as Proto;
        match role {
            Proto::Unspecified => None,
            Proto::Player => Some(Role::Player),
            Proto::Desk => Some(Role::Desk),
            Proto::Arbiter => Some(Role::Arbiter),
            Proto::Committee => Some(Role::Committee),
            Proto::Admin => Some(Role::Admin),
            Proto::Service => Some(Role::Service),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Role::ALL.into_iter().find(|r| r.as_str().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            format!("unknown role {s:?}: expected one of player, desk, arbiter, committee, admin, service")
        })
    }
}

/// The subject of the token service `name` (such as "game") presents to the others. A service
/// checks a peer's subject where only one service may ask (a played deal's result comes only
/// from the game service, an adjusted score only from the appeals service).
pub fn service_subject(name: &str) -> String {
    format!("service:{name}")
}

impl Principal {
    /// Whether the caller is service `name` calling on its own behalf.
    pub fn is_service(&self, name: &str) -> bool {
        self.has(Role::Service) && self.subject == service_subject(name)
    }
}

/// The claims of a bridge-club token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Subject: who the token speaks for.
    pub sub: String,
    /// The roles granted.
    pub roles: Vec<Role>,
    /// Issuer, always [`ISSUER`].
    pub iss: String,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expiry (seconds since the epoch).
    pub exp: i64,
    /// The session the token belongs to, when it was handed out by signing in: ending the session
    /// ([`crate::revocation`]) refuses its tokens before they expire. Service tokens and those
    /// `bridgectl token` mints have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
}

/// The authenticated caller of a request, as handlers see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// Who the caller is.
    pub subject: String,
    /// The caller's roles.
    pub roles: HashSet<Role>,
}

impl Principal {
    /// Whether the caller holds `role`.
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// Whether the caller holds any of `roles`.
    pub fn has_any(&self, roles: &[Role]) -> bool {
        roles.iter().any(|r| self.has(*r))
    }

    /// The principal of a request that passed [`AuthLayer`]. Handlers call this; it fails only
    /// if the layer was not installed, which is a wiring bug reported as UNAUTHENTICATED.
    pub fn of<T>(request: &tonic::Request<T>) -> Result<&Principal, Status> {
        request
            .extensions()
            .get::<Principal>()
            .ok_or_else(|| crate::error::unauthenticated("no authenticated principal"))
    }
}

/// Why a token was refused.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// No `authorization: Bearer ...` header.
    #[error("missing bearer token: send `authorization: Bearer <token>`; {GET_A_TOKEN}")]
    Missing,
    /// The header names a bearer token but holds none.
    #[error("empty bearer token: the `authorization` header is `Bearer ` with nothing after it; {GET_A_TOKEN}")]
    Empty,
    /// The token expired.
    #[error("token expired; {GET_A_TOKEN}")]
    Expired,
    /// Not a token at all: not three base64url parts joined by dots, or parts that do not decode.
    #[error("malformed token ({0}): a token is three base64url parts joined by dots; {GET_A_TOKEN}")]
    Malformed(String),
    /// The token's session was ended (the desk revoked the member, the administrator changed the
    /// account, or a spent refresh token was used again).
    #[error("this token's session has ended; sign in again")]
    Revoked,
    /// A well-formed token this server did not sign (another key file, another club).
    #[error(
        "token not signed with this server's key: it was made with another key file (`bridge-club.key`) or for \
         another server; {GET_A_TOKEN}"
    )]
    WrongKey,
    /// Wrong issuer, a missing claim, or a role this platform does not know.
    #[error("invalid token: {0}; {GET_A_TOKEN}")]
    Invalid(String),
    /// A key could not be read.
    #[error("signing key: {0}")]
    Key(String),
}

/// How a caller gets a token, said with every refusal of one: a newcomer reads the refusal, not
/// the docs.
pub const GET_A_TOKEN: &str = "get one by signing in (`bridgectl signin --name <account>` for staff, `bridgectl redeem \
     <code>` with a code from the desk for members) or, holding the server's key, with `bridgectl token --role <role> \
     --subject <id>` (run where the server's `bridge-club.key` is)";

/// Checks tokens: HS256 with a shared secret (local), or RS256 with a public key (production).
///
/// A client sends the same token with every call until it expires, so a token once verified is
/// remembered with what it says and its expiry ([`VERIFIED_LIMIT`] of them): checking it again is a
/// lookup, not a signature and a JSON parse on every call. A remembered token past its expiry is
/// verified again (and refused as expired); only the exact token string verified before matches.
#[derive(Clone)]
pub struct TokenVerifier {
    key: Arc<DecodingKey>,
    validation: Arc<Validation>,
    verified: Arc<std::sync::Mutex<std::collections::HashMap<String, Verified>>>,
}

/// What a verified token says, remembered with it.
#[derive(Debug, Clone)]
struct Verified {
    principal: Principal,
    /// The `exp` claim.
    expires: i64,
    /// The `sid` claim.
    session: Option<Arc<str>>,
}

/// How many verified tokens a verifier remembers; when full it forgets them all and starts over.
pub const VERIFIED_LIMIT: usize = 4096;

impl fmt::Debug for TokenVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenVerifier").field("algorithms", &self.validation.algorithms).finish()
    }
}

impl TokenVerifier {
    fn with(key: DecodingKey, algorithm: Algorithm) -> Self {
        let mut validation = Validation::new(algorithm);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.leeway = 5;
        TokenVerifier { key: Arc::new(key), validation: Arc::new(validation), verified: Arc::default() }
    }

    /// A verifier for HS256 tokens signed with `secret`.
    pub fn hs256(secret: &[u8]) -> Self {
        Self::with(DecodingKey::from_secret(secret), Algorithm::HS256)
    }

    /// A verifier for RS256 tokens, from a PEM public key.
    pub fn rs256_pem(public_key_pem: &[u8]) -> Result<Self, AuthError> {
        let key = DecodingKey::from_rsa_pem(public_key_pem).map_err(|e| AuthError::Key(e.to_string()))?;
        Ok(Self::with(key, Algorithm::RS256))
    }

    /// Checks a token and returns its principal.
    pub fn verify(&self, token: &str) -> Result<Principal, AuthError> {
        self.verify_session(token).map(|(principal, _)| principal)
    }

    /// Checks a token and returns its principal and its session (the `sid` claim), if any.
    pub fn verify_session(&self, token: &str) -> Result<(Principal, Option<Arc<str>>), AuthError> {
        let now = jsonwebtoken::get_current_timestamp() as i64;
        {
            let verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
            // Stricter than the check below, which allows some leeway: never longer than it.
            if let Some(known) = verified.get(token).filter(|known| now < known.expires) {
                return Ok((known.principal.clone(), known.session.clone()));
            }
        }
        if token.is_empty() {
            return Err(AuthError::Empty);
        }
        let data = jsonwebtoken::decode::<Claims>(token, &self.key, &self.validation).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind;
            match e.kind() {
                ErrorKind::ExpiredSignature => AuthError::Expired,
                ErrorKind::InvalidSignature => AuthError::WrongKey,
                ErrorKind::InvalidToken | ErrorKind::Base64(_) | ErrorKind::Json(_) | ErrorKind::Utf8(_) => {
                    AuthError::Malformed(e.to_string())
                }
                _ => AuthError::Invalid(e.to_string()),
            }
        })?;
        let principal = Principal { subject: data.claims.sub, roles: data.claims.roles.into_iter().collect() };
        let session: Option<Arc<str>> = data.claims.sid.map(Arc::from);
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if verified.len() >= VERIFIED_LIMIT {
            verified.clear();
        }
        verified.insert(
            token.to_owned(),
            Verified { principal: principal.clone(), expires: data.claims.exp, session: session.clone() },
        );
        Ok((principal, session))
    }

    /// Reads the bearer token of a request's headers and verifies it.
    pub fn verify_headers(&self, headers: &http::HeaderMap) -> Result<Principal, AuthError> {
        self.verify_headers_session(headers).map(|(principal, _)| principal)
    }

    /// [`TokenVerifier::verify_headers`], with the token's session.
    pub fn verify_headers_session(
        &self,
        headers: &http::HeaderMap,
    ) -> Result<(Principal, Option<Arc<str>>), AuthError> {
        let value = headers.get(http::header::AUTHORIZATION).ok_or(AuthError::Missing)?;
        let value = value.to_str().map_err(|_| AuthError::Invalid("authorization header is not ASCII".into()))?;
        let token = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .ok_or_else(|| AuthError::Invalid("authorization header must be `Bearer <token>`".into()))?;
        self.verify_session(token.trim())
    }
}

/// Signs tokens. Locally with the HS256 secret; RS256 with a private key for tooling that holds
/// one (production services only verify).
#[derive(Clone)]
pub struct TokenIssuer {
    key: Arc<EncodingKey>,
    algorithm: Algorithm,
}

impl fmt::Debug for TokenIssuer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenIssuer").field("algorithm", &self.algorithm).finish()
    }
}

impl TokenIssuer {
    /// An issuer of HS256 tokens.
    pub fn hs256(secret: &[u8]) -> Self {
        TokenIssuer { key: Arc::new(EncodingKey::from_secret(secret)), algorithm: Algorithm::HS256 }
    }

    /// An issuer of RS256 tokens, from a PEM private key.
    pub fn rs256_pem(private_key_pem: &[u8]) -> Result<Self, AuthError> {
        let key = EncodingKey::from_rsa_pem(private_key_pem).map_err(|e| AuthError::Key(e.to_string()))?;
        Ok(TokenIssuer { key: Arc::new(key), algorithm: Algorithm::RS256 })
    }

    /// A token for `subject` with `roles`, valid for `ttl`.
    pub fn issue(&self, subject: &str, roles: &[Role], ttl: std::time::Duration) -> Result<String, AuthError> {
        let now = chrono::Utc::now().timestamp();
        let ttl = i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX / 2);
        self.issue_claims(&Claims {
            sub: subject.to_owned(),
            roles: roles.to_vec(),
            iss: ISSUER.to_owned(),
            iat: now,
            exp: now.saturating_add(ttl),
            sid: None,
        })
    }

    /// A token for `subject` with `roles` in session `session`, expiring at `expires` (seconds
    /// since the epoch): what signing in hands out, refused once the session is ended.
    pub fn issue_in_session(
        &self,
        subject: &str,
        roles: &[Role],
        session: &str,
        expires: i64,
    ) -> Result<String, AuthError> {
        self.issue_claims(&Claims {
            sub: subject.to_owned(),
            roles: roles.to_vec(),
            iss: ISSUER.to_owned(),
            iat: chrono::Utc::now().timestamp(),
            exp: expires,
            sid: Some(session.to_owned()),
        })
    }

    /// Signs arbitrary claims (tests use this to make expired tokens).
    pub fn issue_claims(&self, claims: &Claims) -> Result<String, AuthError> {
        jsonwebtoken::encode(&Header::new(self.algorithm), claims, &self.key).map_err(|e| AuthError::Key(e.to_string()))
    }
}

/// The local HS256 secret: read from `path`, or generated (32 random bytes, hex) and written
/// there with owner-only permissions if the file does not exist. The embedded default and
/// `bridgectl token` share this file.
pub fn load_or_create_local_secret(path: &Path) -> Result<Vec<u8>, AuthError> {
    match std::fs::read_to_string(path) {
        Ok(text) => hex::decode(text.trim()).map_err(|e| AuthError::Key(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let secret: [u8; 32] = rand::random();
            write_private(path, &hex::encode(secret))
                .map_err(|e| AuthError::Key(format!("{}: {e}", path.display())))?;
            Ok(secret.to_vec())
        }
        Err(e) => Err(AuthError::Key(format!("{}: {e}", path.display()))),
    }
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")
}

/// Which roles may call a gRPC method, by its path (`/package.Service/Method`). The contract
/// states them (`allowed_roles` option on every RPC); the api crate turns that into a function
/// of this type.
pub type MethodPolicy = Arc<dyn Fn(&str) -> Option<&'static [Role]> + Send + Sync>;

/// The contract's policy: the roles each RPC's `allowed_roles` option states (see
/// [`api::allowed_roles`]). Every server of the platform uses it.
pub fn contract_policy() -> MethodPolicy {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static TABLE: OnceLock<HashMap<&'static str, Vec<Role>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        api::ALLOWED_ROLES
            .iter()
            .map(|(path, roles)| (*path, roles.iter().filter_map(|r| Role::from_proto(*r)).collect()))
            .collect()
    });
    Arc::new(move |path| table.get(path).map(Vec::as_slice))
}

/// Paths any caller may use without a token: health checks, server reflection, and the RPCs the
/// contract marks anonymous (signing in: they check the credentials the request holds).
pub fn is_public_path(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/") || path.starts_with("/grpc.reflection.") || api::is_anonymous(path)
}

/// The tower layer that authenticates every request (see the module docs).
#[derive(Clone)]
pub struct AuthLayer {
    verifier: TokenVerifier,
    policy: MethodPolicy,
    revocations: crate::revocation::Revocations,
}

impl fmt::Debug for AuthLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthLayer").field("verifier", &self.verifier).finish()
    }
}

impl AuthLayer {
    /// A layer checking tokens with `verifier` and roles with `policy`.
    pub fn new(verifier: TokenVerifier, policy: MethodPolicy) -> Self {
        AuthLayer { verifier, policy, revocations: Default::default() }
    }

    /// Refuses the tokens of the sessions `revocations` holds.
    pub fn with_revocations(mut self, revocations: crate::revocation::Revocations) -> Self {
        self.revocations = revocations;
        self
    }

    /// Decides one request: the principal, or the status to answer with.
    pub fn authorize(&self, path: &str, headers: &http::HeaderMap) -> Result<Option<Principal>, Status> {
        if is_public_path(path) {
            return Ok(None);
        }
        let (principal, session) =
            self.verifier.verify_headers_session(headers).map_err(|e| crate::error::unauthenticated(e.to_string()))?;
        // A set lookup, no database: the set follows the database in the background.
        if session.is_some_and(|session| self.revocations.contains(&session)) {
            return Err(crate::error::unauthenticated(AuthError::Revoked.to_string()));
        }
        let allowed = (self.policy)(path).ok_or_else(|| {
            Status::from(crate::ServiceError::PermissionDenied(format!("{path} is not open to any role")))
        })?;
        if !principal.has_any(allowed) {
            let allowed: Vec<&str> = allowed.iter().map(|r| r.as_str()).collect();
            let mut held: Vec<&str> = principal.roles.iter().map(|r| r.as_str()).collect();
            held.sort_unstable();
            return Err(Status::from(crate::ServiceError::PermissionDenied(format!(
                "{path} requires one of the roles [{}]; the token grants [{}]",
                allowed.join(", "),
                held.join(", ")
            ))));
        }
        Ok(Some(principal))
    }
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = AuthService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AuthService { inner, layer: self.clone() }
    }
}

/// The service [`AuthLayer`] wraps around the routes.
#[derive(Clone)]
pub struct AuthService<S> {
    inner: S,
    layer: AuthLayer,
}

impl<S, B, ResBody> tower::Service<http::Request<B>> for AuthService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<ResBody>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    ResBody: Default + Send + 'static,
    B: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        // CORS preflights carry no credentials; the CORS layer outside this one answers them.
        if request.method() == http::Method::OPTIONS {
            return Box::pin(self.inner.call(request));
        }
        match self.layer.authorize(request.uri().path(), request.headers()) {
            Ok(principal) => {
                if let Some(principal) = principal {
                    tracing::Span::current().record("enduser.id", principal.subject.as_str());
                    request.extensions_mut().insert(principal);
                }
                Box::pin(self.inner.call(request))
            }
            Err(status) => {
                tracing::info!(path = request.uri().path(), code = ?status.code(), message = status.message(), "request refused");
                let response = status.into_http::<ResBody>();
                Box::pin(async move { Ok(response) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
            layer
                .authorize("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", &http::HeaderMap::new())
                .unwrap(),
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
}
