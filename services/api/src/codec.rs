//! The codec every generated client and server uses: prost's, with requests checked first.
//!
//! tonic's prost codec answers a body it cannot decode with INTERNAL, which tells a client the
//! service is broken when it is the request that is. Here a request is checked against the
//! contract's limits ([`crate::limits`]) on its wire bytes, then decoded, and either failure is
//! INVALID_ARGUMENT naming what is wrong. Responses (what a client decodes) are decoded as prost
//! does: a response that does not decode is a server's fault, and stays INTERNAL.

use std::marker::PhantomData;

use bytes::Buf;
use prost::{Message, Name};
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic::{Code, Status};
use tonic_prost::ProstEncoder;
use tonic_types::{ErrorDetails, StatusExt};

/// prost's codec with checked requests (see the module docs). `T` is what this side encodes, `U`
/// what it decodes.
#[derive(Debug, Clone)]
pub struct CheckedCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for CheckedCodec<T, U> {
    fn default() -> Self {
        CheckedCodec(PhantomData)
    }
}

impl<T, U> Codec for CheckedCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Name + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = CheckedDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::new(BufferSettings::default())
    }

    fn decoder(&mut self) -> Self::Decoder {
        CheckedDecoder(PhantomData)
    }
}

/// Decodes a `U`, checking it first if it is a request.
#[derive(Debug, Clone)]
pub struct CheckedDecoder<U>(PhantomData<U>);

impl<U: Message + Name + Default> Decoder for CheckedDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let name = U::full_name();
        if !crate::limits::is_request(&name) {
            return U::decode(buf).map(Some).map_err(|e| Status::internal(format!("undecodable {name}: {e}")));
        }
        let bytes = buf.copy_to_bytes(buf.remaining());
        crate::limits::check_request(&name, &bytes)
            .map_err(|violation| invalid_argument(&violation.field, &violation.problem))?;
        U::decode(bytes)
            .map(Some)
            .map_err(|e| Status::invalid_argument(format!("the request is not a valid {name} message: {e}")))
    }
}

/// INVALID_ARGUMENT saying what is wrong with `field` (a path such as `setup.deal_pbn`; empty for
/// the request as a whole), which a `BadRequest` names too. What is refused before a handler runs has no
/// `platform::ServiceError`; the field travels in the status, so that the platform's status
/// contract layer gives the answer the same details as a handler's (`platform::contract`).
pub fn invalid_argument(field: &str, problem: impl std::fmt::Display) -> Status {
    if field.is_empty() {
        return Status::invalid_argument(problem.to_string());
    }
    let problem = problem.to_string();
    let message = format!("{field}: {problem}");
    Status::with_error_details(Code::InvalidArgument, message, ErrorDetails::with_bad_request_violation(field, problem))
}
