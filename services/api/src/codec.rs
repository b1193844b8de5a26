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
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::ProstEncoder;

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
            .map_err(|violation| Status::invalid_argument(violation.to_string()))?;
        U::decode(bytes)
            .map(Some)
            .map_err(|e| Status::invalid_argument(format!("the request is not a valid {name} message: {e}")))
    }
}
