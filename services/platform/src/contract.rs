//! The status contract at the edge of every server: what tonic itself answers before a handler
//! runs, and what a handler that panics would answer, brought into the platform's contract.
//!
//! | what happened | tonic alone | here |
//! |---|---|---|
//! | a body that is not gRPC framing (truncated frame, bad compressed flag, no message) | `INTERNAL` | `INVALID_ARGUMENT` |
//! | a message over the transport's size limit | `OUT_OF_RANGE` / `RESOURCE_EXHAUSTED` | `INVALID_ARGUMENT` |
//! | a handler panics | the stream is reset (`UNKNOWN` / `CANCELLED`) | `INTERNAL`, logged |
//!
//! A well-framed message that does not decode, or breaks the contract's limits, is refused by the
//! request codec ([`api::codec`]) with `INVALID_ARGUMENT` already; everything a handler returns is
//! mapped by [`crate::error`]. An `INVALID_ARGUMENT` answered without the platform's error details
//! (by the codec, or here) is given them by that same mapping, with the field the codec named, so
//! that a client reads one shape of error whoever refused the request (docs/errors.md). The gRPC specification asks for `INTERNAL` on a compressed flag
//! without an encoding; the club treats every unreadable request alike, as the client's mistake, so
//! that no client input is ever answered as if the service were broken.

use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::task::{Context, Poll};

use futures::FutureExt;
use futures::future::BoxFuture;
use tonic::body::Body;
use tonic::{Code, Status};
use tonic_types::StatusExt;

use crate::error::{Invalid, ServiceError};

/// What tonic's decoder says when the request's framing is broken (its messages, which are stable
/// across tonic releases; see the unit tests, which send such bodies).
const FRAMING_ERRORS: &[&str] = &[
    "protocol error:",
    "Unexpected EOF decoding stream",
    "Missing request message",
    "Error decompressing",
    "Error, decoded message length too large",
];

/// Wraps a whole gRPC server (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct StatusContractLayer;

impl<S> tower::Layer<S> for StatusContractLayer {
    type Service = StatusContract<S>;

    fn layer(&self, inner: S) -> Self::Service {
        StatusContract { inner }
    }
}

/// The service of [`StatusContractLayer`].
#[derive(Debug, Clone)]
pub struct StatusContract<S> {
    inner: S,
}

impl<S> tower::Service<http::Request<Body>> for StatusContract<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<http::Response<Body>, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let method = request.uri().path().to_owned();
        // The handler runs inside this future (for a stream, until it returns the stream), so a
        // panic in it is caught here rather than resetting the caller's stream with no status.
        let future = AssertUnwindSafe(self.inner.call(request)).catch_unwind();
        Box::pin(async move {
            let response = match future.await {
                Ok(Ok(response)) => response,
                Err(panic) => {
                    let detail = panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    tracing::error!(%method, %detail, "handler panicked");
                    return Ok(Status::internal("internal error; the incident was logged").into_http());
                }
            };
            Ok(rewrite_unreadable(response))
        })
    }
}

/// An error tonic answered because the request could not be read, as `INVALID_ARGUMENT`; and an
/// `INVALID_ARGUMENT` from before any handler ran, with the platform's details.
fn rewrite_unreadable(response: http::Response<Body>) -> http::Response<Body> {
    let Some(status) = Status::from_header_map(response.headers()) else { return response };
    let client_side = matches!(status.code(), Code::Internal | Code::OutOfRange | Code::ResourceExhausted)
        && FRAMING_ERRORS.iter().any(|prefix| status.message().starts_with(prefix));
    if client_side {
        let problem = format!("the request could not be read: {}", status.message());
        return Status::from(ServiceError::InvalidArgument(problem.into())).into_http();
    }
    if status.code() != Code::InvalidArgument || status.get_details_error_info().is_some() {
        return response;
    }
    let violation = status.get_details_bad_request().and_then(|b| b.field_violations.into_iter().next());
    let invalid = match violation {
        Some(violation) => Invalid { field: Some(violation.field), problem: violation.description },
        None => status.message().to_owned().into(),
    };
    Status::from(ServiceError::InvalidArgument(invalid)).into_http()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(status: Status) -> Status {
        let response = rewrite_unreadable(status.into_http());
        Status::from_header_map(response.headers()).unwrap()
    }

    #[test]
    fn broken_framing_is_the_clients_mistake() {
        for message in [
            "Unexpected EOF decoding stream.",
            "Missing request message.",
            "protocol error: received message with compressed-flag but no grpc-encoding was specified",
        ] {
            let status = answered(Status::internal(message));
            assert_eq!(status.code(), Code::InvalidArgument, "{message}");
            assert!(status.message().contains(message));
        }
        let status = answered(Status::out_of_range("Error, decoded message length too large: found 5000000 bytes"));
        assert_eq!(status.code(), Code::InvalidArgument);
    }

    #[test]
    fn a_refusal_before_any_handler_has_the_platforms_details() {
        let status = answered(api::codec::invalid_argument("setup.deal_pbn", "holds a NUL character"));
        assert_eq!(status.message(), "setup.deal_pbn: holds a NUL character");
        assert_eq!(status.get_details_error_info().unwrap().reason, crate::error::REASON_FIELD_INVALID);
        let violations = status.get_details_bad_request().unwrap().field_violations;
        assert_eq!(
            (violations[0].field.as_str(), violations[0].description.as_str()),
            ("setup.deal_pbn", "holds a NUL character")
        );

        let status = answered(Status::invalid_argument("the request is not a valid X message: bad wire type"));
        assert_eq!(status.get_details_error_info().unwrap().reason, crate::error::REASON_REQUEST_INVALID);
        assert_eq!(status.message(), "the request is not a valid X message: bad wire type");
        let status = answered(Status::internal("Missing request message."));
        assert_eq!(status.get_details_error_info().unwrap().reason, crate::error::REASON_REQUEST_INVALID);
    }

    #[test]
    fn our_own_internal_errors_stay_internal() {
        assert_eq!(answered(Status::internal("internal error; the incident was logged")).code(), Code::Internal);
        assert_eq!(answered(Status::not_found("table t-1 not found")).code(), Code::NotFound);
    }
}
