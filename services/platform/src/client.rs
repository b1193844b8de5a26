//! Calling another service: a channel that carries the caller's trace context and the
//! service's own token on every request.

use std::time::Duration;

use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::Interceptor;
use tonic::transport::{Channel, Endpoint};

use crate::telemetry::inject_trace_context;

/// Adds W3C trace context and, if set, a bearer token to every outgoing request. Generated
/// clients take it with `XServiceClient::with_interceptor(channel, interceptor)`.
#[derive(Debug, Clone, Default)]
pub struct ClientInterceptor {
    authorization: Option<MetadataValue<Ascii>>,
}

impl ClientInterceptor {
    /// An interceptor presenting `token` (a JWT) as `authorization: Bearer <token>`.
    pub fn with_token(token: &str) -> Result<Self, tonic::Status> {
        let value = format!("Bearer {token}")
            .parse()
            .map_err(|_| tonic::Status::invalid_argument("token is not valid ASCII metadata"))?;
        Ok(ClientInterceptor { authorization: Some(value) })
    }
}

impl Interceptor for ClientInterceptor {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        inject_trace_context(request.metadata_mut());
        if let Some(value) = &self.authorization {
            request.metadata_mut().insert("authorization", value.clone());
        }
        Ok(request)
    }
}

/// A lazily-connecting channel to `uri` (`http://host:port`): it connects on first use and
/// reconnects after failures, so a service starts even while its peers are still starting.
pub fn channel(uri: &str) -> Result<Channel, tonic::transport::Error> {
    channel_with(uri, &crate::tls::PeerTls::default())
}

/// [`channel`], over TLS checked as `tls` says when `uri` is `https://`.
pub fn channel_with(uri: &str, tls: &crate::tls::PeerTls) -> Result<Channel, tonic::transport::Error> {
    Ok(endpoint(uri, tls)?.connect_lazy())
}

/// A channel to a service at `uris`, which serves `service` (its full gRPC name): one address
/// is [`channel_with`]; several, separated by commas, are the service's replicas, and so are all
/// the addresses one name prefixed `dns+` resolves to (`dns+http://club-game-replicas:50051`):
/// calls are balanced over those that answer their health checks ([`replicas`]). Must be called
/// within a Tokio runtime.
pub fn service_channel(
    uris: &str,
    service: &'static str,
    tls: &crate::tls::PeerTls,
) -> Result<Channel, tonic::transport::Error> {
    let addresses: Vec<&str> = uris.split(',').map(str::trim).filter(|uri| !uri.is_empty()).collect();
    match addresses.as_slice() {
        // Nothing named: refused as the address it is not.
        [] => channel_with(uris.trim(), tls),
        [one] => match one.strip_prefix(replicas::DISCOVER) {
            Some(uri) => replicas::balanced(replicas::Replicas::Discovered { uri: uri.to_owned() }, service, tls),
            None => channel_with(one, tls),
        },
        several => replicas::balanced(
            replicas::Replicas::Listed(several.iter().map(|uri| (*uri).to_owned()).collect()),
            service,
            tls,
        ),
    }
}

/// The endpoint of `uri`, over TLS checked as `tls` says when it is `https://`.
fn endpoint(uri: &str, tls: &crate::tls::PeerTls) -> Result<Endpoint, tonic::transport::Error> {
    endpoint_over(uri, tls.for_uri(uri))
}

/// The endpoint of `uri` as every peer call has it, over `tls` when given.
fn endpoint_over(
    uri: &str,
    tls: Option<tonic::transport::ClientTlsConfig>,
) -> Result<Endpoint, tonic::transport::Error> {
    let mut endpoint = Endpoint::from_shared(uri.to_owned())?;
    if let Some(config) = tls {
        endpoint = endpoint.tls_config(config)?;
    }
    Ok(endpoint.connect_timeout(Duration::from_secs(3)).timeout(Duration::from_secs(30)).tcp_nodelay(true))
}

pub mod replicas;

/// How long a question to another service may take before the request that needed it fails
/// with UNAVAILABLE: a check against an owner must never hang the caller.
pub const PEER_DEADLINE: Duration = Duration::from_secs(3);

/// Asks another service (`peer`, such as "membership") one question about `what`, within
/// [`PEER_DEADLINE`]; its refusal or silence becomes this service's answer ([`peer_error`]).
pub async fn ask<T>(
    peer: &str,
    what: &str,
    call: impl std::future::Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Result<T, crate::ServiceError> {
    match tokio::time::timeout(PEER_DEADLINE, call).await {
        Ok(Ok(response)) => Ok(response.into_inner()),
        Ok(Err(status)) => Err(peer_error(peer, what, &status)),
        Err(_) => Err(crate::ServiceError::Unavailable(format!(
            "the {peer} service did not answer within {} s ({what}); nothing was changed, try again",
            PEER_DEADLINE.as_secs()
        ))),
    }
}

/// A refusal or failure from another service, as the calling service reports it: refusals keep
/// their code and say where they came from; the peer refusing this service itself is our own
/// misconfiguration (INTERNAL); everything else is UNAVAILABLE, to be retried.
pub fn peer_error(peer: &str, what: &str, status: &tonic::Status) -> crate::ServiceError {
    use crate::ServiceError;
    use tonic::Code;
    let message = format!("the {peer} service refused {what}: {}", status.message());
    match status.code() {
        Code::InvalidArgument | Code::OutOfRange => ServiceError::InvalidArgument(message.into()),
        Code::NotFound => ServiceError::NotFound(format!("{what}: {}", status.message())),
        Code::FailedPrecondition | Code::AlreadyExists => ServiceError::FailedPrecondition(message),
        Code::PermissionDenied | Code::Unauthenticated => {
            ServiceError::Internal(format!("the {peer} service refused this service's identity ({what}): {status}"))
        }
        Code::Unimplemented => ServiceError::Unavailable(format!(
            "the {peer} service is not served at its configured address (endpoints.{peer}) ({what})"
        )),
        _ => ServiceError::Unavailable(format!("the {peer} service did not answer ({what}): {}", status.message())),
    }
}

/// An owner's NOT_FOUND for something a request named at `field`: the caller's mistake, so
/// FAILED_PRECONDITION naming the field, followed by `hint` (what to do first). Every other
/// answer is left as it is.
pub fn unknown_reference(field: &str, hint: &str, error: crate::ServiceError) -> crate::ServiceError {
    match error {
        crate::ServiceError::NotFound(message) => {
            crate::ServiceError::FailedPrecondition(format!("{field}: {message}{hint}"))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ServiceError;
    use tonic::{Code, Status};

    #[test]
    fn an_owner_s_answers_become_the_caller_s_status() {
        let mapped = |code: Code| peer_error("membership", "rubber r", &Status::new(code, "no")).code();
        assert_eq!(mapped(Code::NotFound), Code::NotFound);
        assert_eq!(mapped(Code::FailedPrecondition), Code::FailedPrecondition);
        assert_eq!(mapped(Code::InvalidArgument), Code::InvalidArgument);
        // The owner refusing this service's identity is our own misconfiguration, not the caller's.
        assert_eq!(mapped(Code::PermissionDenied), Code::Internal);
        // Away, overloaded or mid-rollout: retryable.
        for code in [Code::Unavailable, Code::DeadlineExceeded, Code::Unimplemented, Code::Unknown] {
            assert_eq!(mapped(code), Code::Unavailable, "{code:?}");
        }
        let unknown = unknown_reference("rubber_id", "; start it first", ServiceError::not_found("rubber r"));
        assert_eq!(unknown.code(), Code::FailedPrecondition);
        assert_eq!(unknown.to_string(), "rubber_id: rubber r not found; start it first");
        let away = unknown_reference("rubber_id", "", ServiceError::Unavailable("away".into()));
        assert_eq!(away.code(), Code::Unavailable);
    }

    #[tokio::test]
    async fn an_answer_passes_through_ask() {
        let answer = ask("scoring", "pad p", async { Ok(tonic::Response::new(7)) }).await;
        assert_eq!(answer.ok(), Some(7));
        let refused = ask::<u8>("scoring", "pad p", async { Err(Status::not_found("pad p")) }).await;
        assert!(matches!(refused, Err(ServiceError::NotFound(m)) if m.contains("pad p")));
    }
}
