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
    Ok(Endpoint::from_shared(uri.to_owned())?
        .connect_timeout(Duration::from_secs(3))
        .timeout(Duration::from_secs(30))
        .tcp_nodelay(true)
        .connect_lazy())
}
