#![forbid(unsafe_code)]
//! # The bridge club's gRPC contract, as Rust
//!
//! Everything here is generated at build time from `proto/` (by `build.rs`, with the pure-Rust
//! compiler protox, so no system `protoc` is needed), plus the conversions between the contract's
//! messages and the [`laws`] crate's checked types:
//!
//! - [`common::v1`]: cards, seats, calls, contracts, results, scores, Law citations, roles;
//! - [`membership::v1`], [`game::v1`], [`scoring::v1`], [`appeals::v1`]: each service's messages,
//!   its client (`*_client`) and its server trait (`*_server`);
//! - [`allowed_roles`]: the roles each RPC allows, read from the contract's
//!   `bridgeclub.common.v1.allowed_roles` method option, for the platform's auth interceptor, and
//!   [`is_anonymous`]: the sign-in RPCs its `anonymous` option lets through without a token;
//! - [`FILE_DESCRIPTOR_SET`]: the encoded descriptors, for server reflection;
//! - [`convert`]: proto messages to laws types and back, with errors that name the bad field;
//! - [`limits`] and [`codec`]: the contract's size limits, checked on every request before it is
//!   decoded, and the codec that does it, so a malformed request is INVALID_ARGUMENT everywhere.
//!
//! ```
//! use api::common::v1::Role;
//!
//! let roles = api::allowed_roles("/bridgeclub.appeals.v1.AppealsService/DirectorDecideAppeal").unwrap();
//! assert_eq!(roles, &[Role::Arbiter]);
//! assert!(api::allowed_roles("/bridgeclub.appeals.v1.AppealsService/NoSuchMethod").is_none());
//! ```

pub mod codec;
pub mod convert;
pub mod limits;

/// `bridgeclub.common.v1`: the types every service shares.
pub mod common {
    /// Version 1 of `bridgeclub.common`.
    pub mod v1 {
        tonic::include_proto!("bridgeclub.common.v1");
    }
}

/// `bridgeclub.membership.v1`: players, the room, tables, cut-ins, draws and line-ups.
pub mod membership {
    /// Version 1 of `bridgeclub.membership`.
    // A stream event's oneof holds a snapshot beside small changes; events are built and sent one at
    // a time, so their size does not matter, and boxing would make every handler unwrap a Box.
    #[allow(clippy::large_enum_variant)]
    pub mod v1 {
        tonic::include_proto!("bridgeclub.membership.v1");
    }
}

/// `bridgeclub.game.v1`: the live deal at every table.
pub mod game {
    /// Version 1 of `bridgeclub.game`.
    // A stream event's oneof holds a snapshot beside small changes; events are built and sent one at
    // a time, so their size does not matter, and boxing would make every handler unwrap a Box.
    #[allow(clippy::large_enum_variant)]
    pub mod v1 {
        tonic::include_proto!("bridgeclub.game.v1");
    }
}

/// `bridgeclub.scoring.v1`: scorepads, duplicate sessions, adjustments and calculators.
pub mod scoring {
    /// Version 1 of `bridgeclub.scoring`.
    // A stream event's oneof holds a snapshot beside small changes; events are built and sent one at
    // a time, so their size does not matter, and boxing would make every handler unwrap a Box.
    #[allow(clippy::large_enum_variant)]
    pub mod v1 {
        tonic::include_proto!("bridgeclub.scoring.v1");
    }
}

/// `bridgeclub.appeals.v1`: rulings, appeals, decisions and the audit trail.
pub mod appeals {
    /// Version 1 of `bridgeclub.appeals`.
    pub mod v1 {
        tonic::include_proto!("bridgeclub.appeals.v1");
    }
}

/// The encoded `FileDescriptorSet` of the whole contract, imports (`google/protobuf/*`), comments and
/// custom options included: what a gRPC server reflection service serves, e.g.
/// `tonic_reflection::server::Builder::configure().register_encoded_file_descriptor_set(FILE_DESCRIPTOR_SET)`.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bridgeclub_descriptor.bin"));

mod roles {
    use crate::common::v1::Role;

    include!(concat!(env!("OUT_DIR"), "/allowed_roles.rs"));
}

pub use roles::{ALLOWED_ROLES, ANONYMOUS};

/// Whether the contract marks the RPC at `grpc_method_path` as called without a token (its
/// `bridgeclub.common.v1.anonymous` option: the sign-in RPCs that hand tokens out).
pub fn is_anonymous(grpc_method_path: &str) -> bool {
    ANONYMOUS.binary_search(&grpc_method_path).is_ok()
}

/// The roles the contract allows to call the RPC at `grpc_method_path` (`/package.Service/Method`,
/// as in the HTTP/2 `:path` of a gRPC request), or `None` if the contract has no such RPC. Every RPC
/// of the contract states its roles or is marked anonymous ([`is_anonymous`]; the build fails
/// otherwise), so `None` means an unknown or anonymous method, which the auth interceptor refuses
/// unless [`is_anonymous`] says it needs no token.
pub fn allowed_roles(grpc_method_path: &str) -> Option<&'static [common::v1::Role]> {
    ALLOWED_ROLES
        .binary_search_by(|(path, _)| (*path).cmp(grpc_method_path))
        .ok()
        .and_then(|index| ALLOWED_ROLES.get(index))
        .map(|(_, roles)| *roles)
}
