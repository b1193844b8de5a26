#![forbid(unsafe_code)]
#![deny(missing_docs)]
//! # The Laws of Contract Bridge as code
//!
//! This crate is every bridge rule the platform applies: pure, synchronous Rust with no I/O.
//! Services translate requests into these types and store what comes back; they decide no
//! bridge question themselves.
//!
//! Two codes are implemented side by side: the Laws of Rubber Bridge 2014 (with Chicago, the
//! Alternative Club Laws and the Rules for Club Procedure) and the Laws of Duplicate Bridge
//! 2017. Every rule cites its Law ([`Law`]), and every refusal is a typed error that names the
//! Law it applies ([`CitesLaw`]).
//!
//! Input from outside becomes a checked value only through a constructor that applies the
//! Laws: a PBN string becomes a [`cards::Deal`] through [`cards::Deal::from_pbn`] (Law 1, Law 8).
//!
//! ```
//! use laws::{Seat, cards::Deal};
//!
//! let err = "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
//!     .parse::<Deal>()
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "North holds 12 cards; each hand must hold 13 (Law 8)");
//! ```

pub mod auction;
pub mod cards;
pub mod contract;
pub mod deal;
pub mod draw;
pub mod irregularities;
pub mod law;
pub mod penalty;
pub mod play;
pub mod procedure;
pub mod rulings;
pub mod score;
pub mod seat;
pub mod table;

pub use cards::{Card, CardSet, Deal, DealSeed, Rank, Suit};
pub use contract::{Bid, Call, Contract, DeclaredContract, Denomination, Doubling, Vulnerability};
pub use law::{CitesLaw, Code, Law};
pub use seat::{Seat, Side};
