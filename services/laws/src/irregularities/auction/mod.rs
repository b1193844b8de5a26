//! Auction irregularities (Laws 24-39 of both codes, with Law 23 "comparable call" and Law 26
//! "lead restrictions" of the 2017 duplicate Laws): what a player really did, what the Laws
//! call it, the options they give and to whom, and what each option does.
//!
//! These are the values the game service shows the players and the arbiter or director, and
//! stores. A [`PendingIrregularity`](crate::auction::PendingIrregularity) lists [`AuctionOption`]s; whoever the Law names
//! ([`Chooser`](super::Chooser)) picks one and the service sends back an [`AuctionChoice`] naming its
//! [`OptionKind`] and, where the option needs one, the call it carries.
//! [`crate::auction::Auction::rectify`] checks the choice against the options offered and the
//! [`CallRequirement`] of the option, then applies the option's [`Effect`]s, exactly the ones
//! listed.

// The values of the contract by concern: what a call is, what the irregularity is, what a
// rectification restricts, what an option does, and the options themselves.
mod call;
mod effect;
mod irregularity;
mod option;
mod restriction;

pub use call::{AfterCloseRole, DoubleFault, RecordedCall, TurnOf};
pub use effect::{Contingency, Effect, FinalCall, LeadPenaltyRule};
pub use irregularity::{Irregularity, IrregularityKind};
pub use option::{AuctionChoice, AuctionOption, CallRequirement, OptionKind};
pub use restriction::{PassDuration, ReservedAdjustment, Restriction};

pub(crate) use call::Specifies;
