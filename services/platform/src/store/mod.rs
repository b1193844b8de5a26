//! The platform's own tables (created by the platform migration), which every service writes:
//! one entity each, and the one way to use them.
//!
//! - [`idempotency_keys`]: the first answer to a command by (scope, key), stored in the same
//!   transaction as the change, so that a retried command returns it and changes nothing
//!   (docs/architecture.md, "Live state and durability");
//! - [`outbox`]: a call owed to another service, written with the change that owes it and
//!   delivered until the other service acknowledges it (with the trace context of the request
//!   that wrote it, see [`crate::telemetry::capture_trace_context`]);
//! - [`revoked_sessions`]: sign-in sessions ended early, whose tokens every service refuses
//!   ([`crate::revocation`]).

pub mod idempotency_keys;
pub mod outbox;
pub mod revoked_sessions;

use sea_orm::{ConnectionTrait, EntityTrait, Set};

use crate::ServiceError;

/// SHA-256 (hex) of `method` and the encoded request: what an idempotency key is bound to, so
/// that a key reused for another request is noticed.
pub fn request_hash(method: &str, encoded_request: &[u8]) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(method.as_bytes());
    hasher.update([0]);
    hasher.update(encoded_request);
    hex::encode(hasher.finalize())
}

/// The answer stored for (`scope`, `key`), if the command ran before. A key used before for a
/// different request is refused (INVALID_ARGUMENT): the client reused it by mistake, and
/// answering the first request would hide that.
pub async fn stored_response<M: prost::Message + Default>(
    db: &impl ConnectionTrait,
    scope: &str,
    key: &str,
    hash: &str,
) -> Result<Option<M>, ServiceError> {
    let row = idempotency_keys::Entity::find_by_id((scope.to_owned(), key.to_owned())).one(db).await?;
    match row {
        None => Ok(None),
        Some(row) if row.request_hash != hash => Err(ServiceError::invalid(
            "idempotency_key",
            format!("{key:?} was already used for a different request; choose a new key"),
        )),
        Some(row) => M::decode(row.response.as_slice())
            .map(Some)
            .map_err(|e| ServiceError::internal(format!("stored answer for {scope}/{key}: {e}"))),
    }
}

/// Stores the answer to (`scope`, `key`); call it inside the transaction of the change.
pub async fn store_response<M: prost::Message>(
    txn: &impl ConnectionTrait,
    scope: &str,
    key: &str,
    hash: &str,
    response: &M,
) -> Result<(), ServiceError> {
    store_encoded_response(txn, scope, key, hash, response.encode_to_vec()).await
}

/// [`store_response`] for an answer already encoded.
pub async fn store_encoded_response(
    txn: &impl ConnectionTrait,
    scope: &str,
    key: &str,
    hash: &str,
    response: Vec<u8>,
) -> Result<(), ServiceError> {
    idempotency_keys::Entity::insert(idempotency_keys::ActiveModel {
        scope: Set(scope.to_owned()),
        key: Set(key.to_owned()),
        request_hash: Set(hash.to_owned()),
        response: Set(response),
        created_at: Set(chrono::Utc::now()),
    })
    .exec_without_returning(txn)
    .await?;
    Ok(())
}
