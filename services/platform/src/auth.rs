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
//!
//! A club with an identity provider of its own has its tokens checked too, against the keys the
//! provider publishes ([`identity_provider`]).

mod identity_provider;
#[cfg(any(test, feature = "test-support"))]
pub mod testing;

pub use identity_provider::{FetchError, IdentityProvider};

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
    /// A token of the club's identity provider names a key (`kid`) not among those it published
    /// when last fetched: the keys are fetched again before the token is refused.
    #[error("token signed with key {0:?}, which the identity provider does not publish; sign in with it again")]
    UnknownKey(String),
    /// The identity provider's keys could not be fetched, so its tokens cannot be checked now.
    #[error("{0}; try again shortly")]
    ProviderUnavailable(String),
}

/// The refusal of a token `jsonwebtoken` did not accept.
fn refusal_of(e: jsonwebtoken::errors::Error) -> AuthError {
    use jsonwebtoken::errors::ErrorKind;
    match e.kind() {
        ErrorKind::ExpiredSignature => AuthError::Expired,
        ErrorKind::InvalidSignature => AuthError::WrongKey,
        ErrorKind::InvalidToken | ErrorKind::Base64(_) | ErrorKind::Json(_) | ErrorKind::Utf8(_) => {
            AuthError::Malformed(e.to_string())
        }
        _ => AuthError::Invalid(e.to_string()),
    }
}

impl AuthError {
    /// The status a request refused for this answers with: UNAVAILABLE when the identity
    /// provider's keys cannot be had (the token may well be good), UNAUTHENTICATED otherwise.
    pub fn status(&self) -> Status {
        match self {
            AuthError::ProviderUnavailable(_) => crate::error::unavailable(self.to_string()),
            _ => crate::error::unauthenticated(self.to_string()),
        }
    }
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
    /// The key before the last rotation: its tokens are still taken while they live (see
    /// [`TokenVerifier::with_previous_rs256_pem`]).
    previous: Option<Arc<DecodingKey>>,
    validation: Arc<Validation>,
    verified: Arc<std::sync::Mutex<std::collections::HashMap<String, Verified>>>,
    /// The club's identity provider, whose tokens (by their `iss`) are checked against its keys.
    provider: Option<Arc<IdentityProvider>>,
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
        TokenVerifier {
            key: Arc::new(key),
            previous: None,
            validation: Arc::new(validation),
            verified: Arc::default(),
            provider: None,
        }
    }

    /// Also accepts the tokens of `provider` (those whose `iss` is its issuer).
    pub fn with_identity_provider(mut self, provider: Arc<IdentityProvider>) -> Self {
        self.provider = Some(provider);
        self
    }

    /// The club's identity provider, if one is configured.
    pub fn identity_provider(&self) -> Option<&Arc<IdentityProvider>> {
        self.provider.as_ref()
    }

    /// Whether `token` claims to come from the identity provider. The claim is read unverified
    /// only to choose the keys; those keys then check it.
    fn is_from_provider(&self, token: &str) -> Option<&IdentityProvider> {
        #[derive(Deserialize)]
        struct Issuer {
            iss: Option<String>,
        }
        let provider = self.provider.as_deref()?;
        let claims = jsonwebtoken::dangerous::insecure_decode_claims::<Issuer>(token).ok()?;
        (claims.iss.as_deref() == Some(provider.issuer())).then_some(provider)
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

    /// Also accepts tokens signed with the key this one replaced (a PEM RS256 public key), so a
    /// key can be rotated without refusing anyone: every verifier takes both keys first, then the
    /// signer moves to the new one, and the old one is dropped once its last tokens (service
    /// tokens included) are replaced.
    pub fn with_previous_rs256_pem(mut self, public_key_pem: &[u8]) -> Result<Self, AuthError> {
        let key = DecodingKey::from_rsa_pem(public_key_pem).map_err(|e| AuthError::Key(e.to_string()))?;
        self.previous = Some(Arc::new(key));
        Ok(self)
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
        let (principal, expires, session) = match self.is_from_provider(token) {
            Some(provider) => {
                let (principal, expires) = provider.verify(token)?;
                (principal, expires, None)
            }
            None => {
                let decoded = match (jsonwebtoken::decode::<Claims>(token, &self.key, &self.validation), &self.previous)
                {
                    (Err(e), Some(previous)) if *e.kind() == jsonwebtoken::errors::ErrorKind::InvalidSignature => {
                        jsonwebtoken::decode::<Claims>(token, previous, &self.validation)
                    }
                    (decoded, _) => decoded,
                };
                let data = decoded.map_err(refusal_of)?;
                let principal = Principal { subject: data.claims.sub, roles: data.claims.roles.into_iter().collect() };
                let session: Option<Arc<str>> = data.claims.sid.map(Arc::from);
                (principal, data.claims.exp, session)
            }
        };
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if verified.len() >= VERIFIED_LIMIT {
            verified.clear();
        }
        verified.insert(token.to_owned(), Verified { principal: principal.clone(), expires, session: session.clone() });
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

    /// Decides one request: the principal, or the status to answer with. Never waits on the
    /// network: a token naming a key of the identity provider not yet known answers UNAVAILABLE
    /// here ([`AuthService`] fetches the keys again first).
    pub fn authorize(&self, path: &str, headers: &http::HeaderMap) -> Result<Option<Principal>, Status> {
        self.decide(path, headers).map_err(|refusal| match refusal {
            Refusal::Status(status) => status,
            Refusal::UnknownKey(kid) => crate::error::unavailable(format!(
                "the identity provider's key {kid:?} is not known yet; try again shortly"
            )),
        })
    }

    /// [`AuthLayer::authorize`], fetching the identity provider's keys again (within its
    /// deadline, at most once every `min_refetch_interval_secs`) when the token names one not
    /// known. A key still missing after a fetch is refused as UNAUTHENTICATED; one missing
    /// because the keys could not be fetched, as UNAVAILABLE.
    pub async fn authorize_fetching(&self, path: &str, headers: &http::HeaderMap) -> Result<Option<Principal>, Status> {
        let kid = match self.decide(path, headers) {
            Err(Refusal::UnknownKey(kid)) => kid,
            Err(Refusal::Status(status)) => return Err(status),
            Ok(principal) => return Ok(principal),
        };
        let Some(provider) = self.verifier.identity_provider() else {
            return Err(AuthError::UnknownKey(kid).status());
        };
        let fetched = provider.refetch().await;
        match (self.decide(path, headers), fetched) {
            (Ok(principal), _) => Ok(principal),
            (Err(Refusal::Status(status)), _) => Err(status),
            (Err(Refusal::UnknownKey(kid)), Ok(())) => Err(AuthError::UnknownKey(kid).status()),
            (Err(Refusal::UnknownKey(_)), Err(e)) => Err(AuthError::ProviderUnavailable(e.to_string()).status()),
        }
    }

    fn decide(&self, path: &str, headers: &http::HeaderMap) -> Result<Option<Principal>, Refusal> {
        if is_public_path(path) {
            return Ok(None);
        }
        let (principal, session) = self.verifier.verify_headers_session(headers).map_err(|e| match e {
            AuthError::UnknownKey(kid) => Refusal::UnknownKey(kid),
            e => Refusal::Status(e.status()),
        })?;
        // A set lookup, no database: the set follows the database in the background.
        if session.is_some_and(|session| self.revocations.contains(&session)) {
            return Err(Refusal::Status(AuthError::Revoked.status()));
        }
        let allowed = (self.policy)(path).ok_or_else(|| {
            Refusal::Status(Status::from(crate::ServiceError::PermissionDenied(format!(
                "{path} is not open to any role"
            ))))
        })?;
        if !principal.has_any(allowed) {
            let allowed: Vec<&str> = allowed.iter().map(|r| r.as_str()).collect();
            let mut held: Vec<&str> = principal.roles.iter().map(|r| r.as_str()).collect();
            held.sort_unstable();
            return Err(Refusal::Status(Status::from(crate::ServiceError::PermissionDenied(format!(
                "{path} requires one of the roles [{}]; the token grants [{}]",
                allowed.join(", "),
                held.join(", ")
            )))));
        }
        Ok(Some(principal))
    }
}

/// Why [`AuthLayer`] did not let a request through.
enum Refusal {
    /// Answered with this status.
    Status(Status),
    /// The token names a key of the identity provider not known yet: worth fetching the keys.
    UnknownKey(String),
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
        let decided = match self.layer.decide(request.uri().path(), request.headers()) {
            Ok(principal) => Ok(principal),
            Err(Refusal::Status(status)) => Err(status),
            Err(Refusal::UnknownKey(_)) => {
                // Only here does a call wait on the network, bounded by the provider's deadline;
                // tokens naming a known key never come this way.
                let layer = self.layer.clone();
                // The service that was polled ready serves this call; a fresh clone waits for
                // the next (tower's rule for services called from a future).
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                return Box::pin(async move {
                    match layer.authorize_fetching(request.uri().path(), request.headers()).await {
                        Ok(principal) => {
                            admit(&mut request, principal);
                            inner.call(request).await
                        }
                        Err(status) => Ok(refuse(&request, status)),
                    }
                });
            }
        };
        match decided {
            Ok(principal) => {
                admit(&mut request, principal);
                Box::pin(self.inner.call(request))
            }
            Err(status) => {
                let response = refuse(&request, status);
                Box::pin(async move { Ok(response) })
            }
        }
    }
}

/// Hands the principal of a request let through to its handler.
fn admit<B>(request: &mut http::Request<B>, principal: Option<Principal>) {
    if let Some(principal) = principal {
        tracing::Span::current().record("enduser.id", principal.subject.as_str());
        request.extensions_mut().insert(principal);
    }
}

/// The answer to a request refused with `status`.
fn refuse<B, ResBody: Default>(request: &http::Request<B>, status: Status) -> http::Response<ResBody> {
    tracing::info!(path = request.uri().path(), code = ?status.code(), message = status.message(), "request refused");
    status.into_http::<ResBody>()
}

#[cfg(test)]
mod tests;
