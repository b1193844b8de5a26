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
//! Laws, and every state transition returns the next state or a typed error, never a
//! half-changed value. A whole deal, from a committed seed to the score:
//!
//! ```
//! use laws::auction::{Auction, AuctionOutcome};
//! use laws::play::Play;
//! use laws::score::{Tricks, duplicate};
//! use laws::{CitesLaw, Code, Deal, DealSeed, Law, Seat};
//!
//! // The server deals from a secret seed and publishes its commitment before the auction.
//! let seed = DealSeed([7; 32]);
//! let commitment = seed.commitment();
//! let deal = Deal::from_seed(&seed);
//!
//! // The auction: each call returns the next auction, or an error naming the Law.
//! let mut auction = Auction::new(Seat::North, Code::Duplicate);
//! for call in ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"] {
//!     auction = auction.call(call.parse()?)?;
//! }
//! let Some(AuctionOutcome::Contract(outcome)) = auction.outcome() else { unreachable!() };
//! assert_eq!(outcome.contract.to_string(), "3NT by North");
//!
//! // A double of partner's bid is refused, with its Law.
//! let err = Auction::new(Seat::North, Code::Duplicate).call("1H".parse()?)?.call("Pass".parse()?)?
//!     .call("X".parse()?).unwrap_err();
//! assert_eq!(err.law().number, 19);
//!
//! // The play: East leads (Law 41); every card is checked (following suit: Law 44).
//! let mut play = Play::new(deal, outcome.contract, Code::Duplicate, outcome.lead_penalties, outcome.penalty_cards)?;
//! while let Some(card) = play.legal_cards().iter().next() {
//!     play = play.card(card)?;
//! }
//! let tricks = Tricks::new(play.declarer_tricks().unwrap_or(0))?;
//!
//! // The Law 77 score, and the seed revealed so anyone can check the deal was not chosen.
//! let score = duplicate::score(outcome.contract.contract, false, tricks);
//! assert_eq!(score > 0, tricks.get() >= 9);
//! assert!(seed.verifies(&commitment) && Deal::from_seed(&seed) == deal);
//! # let _ = Law::duplicate(77, "");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A PBN string becomes a [`cards::Deal`] only through [`cards::Deal::from_pbn`] (Law 1, Law 8):
//!
//! ```
//! use laws::cards::Deal;
//!
//! let err = "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
//!     .parse::<Deal>()
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "North holds 12 cards; each hand must hold 13 (Law 8)");
//! ```
//!
//! The modules mirror the Laws: [`cards`] and [`seat`] (Laws 1-2), [`draw`] (Law 3),
//! [`procedure`] (Rules for Club Procedure), [`deal`] (Laws 4-12, 22, Appendix 4, duplicate
//! Law 2), [`auction`] (Laws 17-40), [`play`] (Laws 41-71), [`irregularities`], [`score`]
//! (Laws 72-81, Appendix 4, duplicate Laws 77-78) and [`rulings`] (Law 12, the Club Appeals
//! Committee).

/// The version of the rules this crate applies. Bump it with every change that would judge an
/// action of a deal differently: a call or card refused that was allowed, a rectification with
/// other options. Journals store it beside every action, so that replaying an old deal repeats
/// what was accepted then instead of judging it again by today's rules
/// ([`table::DealInProgress::replay`]).
pub const RULES_VERSION: u32 = 2;

pub mod appeal_procedure;
pub mod appeals;
pub mod auction;
pub mod cards;
pub mod committee;
pub mod contract;
pub mod deal;
pub mod draw;
pub mod irregularities;
pub mod law;
pub mod pbn;
pub mod penalty;
pub mod play;
pub mod procedure;
pub mod rulings;
pub mod score;
pub mod seat;
pub mod table;

pub use cards::{Card, CardSet, Deal, DealSeed, Rank, Suit, SuitSet};
pub use contract::{Bid, Call, Contract, DeclaredContract, Denomination, Doubling, Vulnerability};
pub use draw::PlayerId;
pub use law::{CitesLaw, Code, Law};
pub use seat::{Seat, Side};
