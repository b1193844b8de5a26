//! Tokens of a club's own identity provider, checked against the keys it publishes (its JWKS).
//!
//! A club that already signs its members in elsewhere points the services at that provider
//! (`[auth.identity_provider]`, [`crate::config::IdentityProviderConfig`]): a token whose `iss` is
//! the provider's is checked here, any other as before. The provider's keys are fetched at start
//! and every `refresh_interval_secs`, and kept in memory: a token naming a known key (`kid`) is
//! checked without the network. A token naming a key not yet known makes the caller fetch the set
//! again, at most once every `min_refetch_interval_secs` and within `fetch_timeout_ms`: a provider
//! rotates its keys by publishing the new one first, and a stranger inventing key ids must not
//! turn every call into a fetch.
//!
//! The provider may grant the people's roles (`player`, `desk`, ...) but never `service`: that
//! role is how the platform's own services vouch for a deal's result or an adjusted score, and
//! only the platform's key may mint it. A provider's token that claims it is refused, not
//! stripped: it shows a mapping gone wrong at the provider, which its administrator should hear
//! of rather than find the token quietly working with fewer roles.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

use super::{AuthError, Principal, Role};
use crate::config::IdentityProviderConfig;

/// The most bytes of a JWKS read: a set of a few keys is a few kilobytes.
const JWKS_LIMIT: usize = 1 << 20;

/// How soon a failed fetch is tried again by the background refresh.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(5);

/// One usable key of the set.
struct Key {
    key: DecodingKey,
    algorithm: Algorithm,
}

/// The keys as last fetched.
#[derive(Default)]
struct Keys {
    by_kid: HashMap<String, Arc<Key>>,
    /// Keys without a `kid`: used only by tokens that name none, when they are the only key.
    unnamed: Vec<Arc<Key>>,
    /// Whether a fetch has ever succeeded: until then the provider's tokens answer UNAVAILABLE.
    fetched: bool,
}

/// A club's identity provider: its settings, its keys, and the client that fetches them.
pub struct IdentityProvider {
    config: IdentityProviderConfig,
    keys: RwLock<Arc<Keys>>,
    /// The last fetch of the set, or try: the refetches an unknown key asks for are spaced by
    /// `min_refetch_interval_secs`. The lock also makes concurrent callers share one fetch.
    last_fetch: tokio::sync::Mutex<Option<LastFetch>>,
    client: reqwest::Client,
}

impl std::fmt::Debug for IdentityProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityProvider").field("issuer", &self.config.issuer).finish()
    }
}

/// When the set was last fetched, and how it went.
struct LastFetch {
    at: Instant,
    /// Why it failed, if it did: a caller spared a fetch by the spacing hears it, since the keys
    /// it was spared are no fresher than that failure.
    failure: Option<FetchError>,
}

/// Why the keys could not be fetched.
#[derive(Debug, Clone, thiserror::Error)]
#[error("identity provider's keys ({url}): {reason}")]
pub struct FetchError {
    url: String,
    reason: String,
}

impl IdentityProvider {
    /// A provider with no keys yet; [`IdentityProvider::refresh`] fetches them.
    pub fn new(config: IdentityProviderConfig) -> Result<Self, AuthError> {
        if config.issuer.trim().is_empty() || config.jwks_url.trim().is_empty() {
            return Err(AuthError::Key("[auth.identity_provider] needs both `issuer` and `jwks_url`".into()));
        }
        if config.issuer == super::ISSUER {
            return Err(AuthError::Key(format!(
                "[auth.identity_provider] issuer {:?} is the platform's own: the provider needs its own issuer",
                super::ISSUER
            )));
        }
        let client = reqwest::Client::builder()
            .timeout(config.fetch_timeout())
            .connect_timeout(config.fetch_timeout())
            .build()
            .map_err(|e| AuthError::Key(format!("identity provider client: {e}")))?;
        Ok(IdentityProvider { config, keys: RwLock::default(), last_fetch: tokio::sync::Mutex::new(None), client })
    }

    /// The issuer whose tokens this provider checks.
    pub fn issuer(&self) -> &str {
        &self.config.issuer
    }

    /// Checks a token of this provider with the keys in memory; never waits on the network.
    /// [`AuthError::UnknownKey`] tells the caller to [`IdentityProvider::refetch`] and try again.
    pub fn verify(&self, token: &str) -> Result<(Principal, i64), AuthError> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| AuthError::Malformed(e.to_string()))?;
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner()).clone();
        if !keys.fetched {
            // Every key is unknown until the first fetch succeeds: the caller tries one.
            return Err(AuthError::UnknownKey(header.kid.unwrap_or_default()));
        }
        let key = match &header.kid {
            Some(kid) => keys.by_kid.get(kid).cloned().ok_or_else(|| AuthError::UnknownKey(kid.clone()))?,
            None => match (keys.by_kid.len() + keys.unnamed.len(), keys.unnamed.first()) {
                (1, Some(only)) => only.clone(),
                _ => return Err(AuthError::Invalid("the token names no key (`kid`) of the identity provider".into())),
            },
        };
        if header.alg != key.algorithm {
            return Err(AuthError::WrongKey);
        }
        let mut validation = Validation::new(key.algorithm);
        validation.set_issuer(&[&self.config.issuer]);
        validation.leeway = 5;
        // Providers may date a token's start (`nbf`); when one does, it is honoured.
        validation.validate_nbf = true;
        match &self.config.audience {
            Some(audience) => {
                validation.set_audience(&[audience]);
                validation.set_required_spec_claims(&["exp", "iss", "aud"]);
            }
            None => {
                validation.validate_aud = false;
                validation.set_required_spec_claims(&["exp", "iss"]);
            }
        }
        let data = jsonwebtoken::decode::<serde_json::Map<String, Value>>(token, &key.key, &validation)
            .map_err(super::refusal_of)?;
        let claims = data.claims;
        let principal = self.principal_of(&claims)?;
        let expires = claims.get("exp").and_then(Value::as_i64).unwrap_or(0);
        Ok((principal, expires))
    }

    /// The principal the claims name: the member claim's value and the roles claim's known roles.
    fn principal_of(&self, claims: &serde_json::Map<String, Value>) -> Result<Principal, AuthError> {
        let subject = match claim(claims, &self.config.member_claim) {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => {
                return Err(AuthError::Invalid(format!(
                    "the identity provider's token has no member claim `{}` (a string)",
                    self.config.member_claim
                )));
            }
        };
        let roles: HashSet<Role> = match claim(claims, &self.config.roles_claim) {
            None | Some(Value::Null) => HashSet::new(),
            Some(Value::Array(names)) => {
                // Names the platform does not know are the provider's own business (its other
                // applications' roles): ignored, not a reason to refuse the member.
                names.iter().filter_map(Value::as_str).filter_map(|name| name.parse::<Role>().ok()).collect()
            }
            Some(_) => {
                return Err(AuthError::Invalid(format!(
                    "the identity provider's roles claim `{}` is not a list of role names",
                    self.config.roles_claim
                )));
            }
        };
        if roles.contains(&Role::Service) {
            return Err(AuthError::Invalid(
                "an identity provider may not grant the `service` role: only the platform's own key mints it".into(),
            ));
        }
        Ok(Principal { subject, roles })
    }

    /// Fetches the keys again because a token named one not known, unless a fetch was made less
    /// than `min_refetch_interval_secs` ago (then the keys as they are answer). Bounded by
    /// `fetch_timeout_ms`, waiting for a fetch another caller started included.
    pub async fn refetch(&self) -> Result<(), FetchError> {
        let deadline = self.config.fetch_timeout();
        let attempt = async {
            let mut last = self.last_fetch.lock().await;
            if let Some(recent) = last.as_ref().filter(|last| last.at.elapsed() < self.config.min_refetch_interval()) {
                return recent.failure.clone().map_or(Ok(()), Err);
            }
            let result = self.fetch_and_store().await;
            *last = Some(LastFetch { at: Instant::now(), failure: result.as_ref().err().cloned() });
            result
        };
        match tokio::time::timeout(deadline, attempt).await {
            Ok(result) => result,
            Err(_) => Err(self.fetch_error(format!("no answer within {} ms", deadline.as_millis()))),
        }
    }

    /// Fetches the keys now, whenever they were last fetched (start and the periodic refresh).
    pub async fn refresh(&self) -> Result<(), FetchError> {
        let mut last = self.last_fetch.lock().await;
        let result = self.fetch_and_store().await;
        *last = Some(LastFetch { at: Instant::now(), failure: result.as_ref().err().cloned() });
        result
    }

    async fn fetch_and_store(&self) -> Result<(), FetchError> {
        let set = self.fetch().await?;
        let mut keys = Keys { fetched: true, ..Keys::default() };
        for jwk in &set.keys {
            let Some(key) = usable(jwk) else {
                tracing::debug!(kid = ?jwk.common.key_id, "identity provider key skipped: not a public signing key");
                continue;
            };
            match &jwk.common.key_id {
                Some(kid) => {
                    keys.by_kid.insert(kid.clone(), Arc::new(key));
                }
                None => keys.unnamed.push(Arc::new(key)),
            }
        }
        tracing::info!(issuer = %self.config.issuer, keys = keys.by_kid.len() + keys.unnamed.len(), "identity provider keys fetched");
        *self.keys.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
        Ok(())
    }

    async fn fetch(&self) -> Result<JwkSet, FetchError> {
        let url = &self.config.jwks_url;
        let mut response = self.client.get(url).send().await.map_err(|e| self.fetch_error(e.to_string()))?;
        if !response.status().is_success() {
            return Err(self.fetch_error(format!("answered {}", response.status())));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.fetch_error(e.to_string()))? {
            if body.len() + chunk.len() > JWKS_LIMIT {
                return Err(self.fetch_error(format!("the key set is larger than {JWKS_LIMIT} bytes")));
            }
            body.extend_from_slice(&chunk);
        }
        serde_json::from_slice(&body).map_err(|e| self.fetch_error(format!("not a JWKS: {e}")))
    }

    fn fetch_error(&self, reason: String) -> FetchError {
        FetchError { url: self.config.jwks_url.clone(), reason }
    }

    /// Fetches the keys now and then every `refresh_interval_secs` (sooner again after a failure,
    /// so a provider away at start is picked up when it comes back), until the provider is
    /// dropped.
    pub fn follow(self: &Arc<Self>) {
        let provider: Weak<Self> = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(current) = provider.upgrade() else { return };
                let wait = match current.refresh().await {
                    Ok(()) => current.config.refresh_interval(),
                    Err(e) => {
                        tracing::warn!(error = %e, "identity provider keys not fetched; its tokens answer UNAVAILABLE until they are");
                        RETRY_AFTER_FAILURE.min(current.config.refresh_interval())
                    }
                };
                drop(current);
                tokio::time::sleep(wait).await;
            }
        });
    }
}

/// A claim by name; a name absent at the top level is read as a dotted path
/// (`realm_access.roles`), since providers nest roles. The name as a whole is tried first:
/// namespaced claims (`https://club.example/roles`) hold dots of their own.
fn claim<'a>(claims: &'a serde_json::Map<String, Value>, name: &str) -> Option<&'a Value> {
    if let Some(value) = claims.get(name) {
        return Some(value);
    }
    let mut parts = name.split('.');
    let mut value = claims.get(parts.next()?)?;
    for part in parts {
        value = value.as_object()?.get(part)?;
    }
    Some(value)
}

/// The key and algorithm of a JWK the platform accepts: public RSA and elliptic-curve keys (and
/// Ed25519). Shared secrets (`oct`) never belong in a published set and are skipped.
fn usable(jwk: &Jwk) -> Option<Key> {
    let from_params = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Algorithm::RS256,
        AlgorithmParameters::EllipticCurve(params) => match params.curve {
            EllipticCurve::P256 => Algorithm::ES256,
            EllipticCurve::P384 => Algorithm::ES384,
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(_) => Algorithm::EdDSA,
        _ => return None,
    };
    // The key's own `alg`, when it states one, is the only algorithm its tokens may use (an RSA
    // key may be published for RS384, say); it must agree with the key's kind.
    let algorithm = match jwk.common.key_algorithm {
        Some(stated) => {
            // Encryption algorithms (`RSA-OAEP`) parse as none: such a key signs nothing.
            let stated: Algorithm = stated.to_string().parse().ok()?;
            let same_family = match from_params {
                Algorithm::RS256 => matches!(
                    stated,
                    Algorithm::RS256
                        | Algorithm::RS384
                        | Algorithm::RS512
                        | Algorithm::PS256
                        | Algorithm::PS384
                        | Algorithm::PS512
                ),
                other => stated == other,
            };
            if !same_family {
                return None;
            }
            stated
        }
        None => from_params,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key { key, algorithm })
}

#[cfg(test)]
mod tests;
