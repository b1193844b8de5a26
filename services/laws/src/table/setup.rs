//! What a deal is when it starts (its code, mode, dealer, vulnerability and cards) and the
//! stage it has reached: the values a service gives and reads back, apart from the state
//! machine that moves between the stages.

use std::fmt;

use crate::cards::{Deal, DealSeed};
use crate::contract::Vulnerability;
use crate::law::Code;
use crate::seat::Seat;

/// How a table plays (see the [module documentation](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The server dealt; illegal calls and plays are refused with their Law, except a card of
    /// declarer's side against his disputed claim, which waits for the defenders (rubber Law 69).
    Digital,
    /// Physical cards: calls and plays are recorded as facts, irregularities included.
    Recorded,
}

/// Where the cards of a deal come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hands {
    /// Dealt by the server from a secret seed ([`Deal::from_seed`]); the seed's commitment is
    /// published at the start and the seed revealed at the end.
    Seeded(DealSeed),
    /// Entered by the table (physical cards whose hands were recorded).
    Entered(Deal),
    /// Physical cards whose hands were not entered.
    Unknown,
}

/// What a deal is: fixed when it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The code of Laws: [`Code::Rubber`] (Chicago too), [`Code::Club`] (rubber bridge with the
    /// Alternative Club Laws and an Arbiter) or [`Code::Duplicate`].
    pub code: Code,
    /// Digital or recorded.
    pub mode: Mode,
    /// The dealer, who calls first (Law 17).
    pub dealer: Seat,
    /// Vulnerability (Law 73; Appendix 4 C; duplicate Law 2).
    pub vulnerability: Vulnerability,
    /// The cards.
    pub hands: Hands,
    /// Recorded mode only: the table enters only the result.
    pub result_only: bool,
}

/// The stage a deal has reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The auction (Laws 17-40).
    Auction,
    /// The play (Laws 41-67).
    Play,
    /// Play suspended by a claim or concession being considered (Law 68).
    Claim,
    /// Only the result is to be entered.
    ResultEntry,
    /// Over, with a result (or passed out).
    Finished,
    /// Abandoned without a result.
    Abandoned,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Auction => "during the auction",
            Phase::Play => "during the play",
            Phase::Claim => "while a claim is considered",
            Phase::ResultEntry => "while the table is to enter the result",
            Phase::Finished => "once the deal has ended",
            Phase::Abandoned => "once the deal was abandoned",
        })
    }
}
