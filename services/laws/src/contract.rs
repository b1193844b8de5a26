//! Calls, bids and contracts (Definitions; Law 18 bids, Law 19 doubles and redoubles), and
//! vulnerability (Definitions; Law 2 of duplicate for boards).

use std::fmt;
use std::str::FromStr;

use crate::cards::Suit;
use crate::seat::{Seat, Side};

/// A denomination: the suit named as trumps, or notrump (Law 18). Denominations rank
/// notrump, spades, hearts, diamonds, clubs, which is the derived order here (clubs lowest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Denomination {
    /// Clubs as trumps.
    Clubs,
    /// Diamonds as trumps.
    Diamonds,
    /// Hearts as trumps.
    Hearts,
    /// Spades as trumps.
    Spades,
    /// No trumps.
    NoTrump,
}

impl Denomination {
    /// All five denominations, clubs lowest (Law 18E).
    pub const ALL: [Denomination; 5] = [
        Denomination::Clubs,
        Denomination::Diamonds,
        Denomination::Hearts,
        Denomination::Spades,
        Denomination::NoTrump,
    ];

    /// The trump suit, or `None` at notrump.
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Denomination::Clubs => Some(Suit::Clubs),
            Denomination::Diamonds => Some(Suit::Diamonds),
            Denomination::Hearts => Some(Suit::Hearts),
            Denomination::Spades => Some(Suit::Spades),
            Denomination::NoTrump => None,
        }
    }

    /// The denomination naming `suit` as trumps.
    pub const fn from_suit(suit: Suit) -> Denomination {
        match suit {
            Suit::Clubs => Denomination::Clubs,
            Suit::Diamonds => Denomination::Diamonds,
            Suit::Hearts => Denomination::Hearts,
            Suit::Spades => Denomination::Spades,
        }
    }

    /// Index 0 (clubs) to 4 (notrump).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the denomination is a minor suit (20 trick points a trick, Law 81/77).
    pub const fn is_minor(self) -> bool {
        matches!(self, Denomination::Clubs | Denomination::Diamonds)
    }

    /// The short name used on score sheets and in PBN: C, D, H, S, NT.
    pub const fn short(self) -> &'static str {
        match self {
            Denomination::Clubs => "C",
            Denomination::Diamonds => "D",
            Denomination::Hearts => "H",
            Denomination::Spades => "S",
            Denomination::NoTrump => "NT",
        }
    }
}

impl fmt::Display for Denomination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

/// A bid: a level from one to seven and a denomination (Law 18A).
///
/// Only [`Bid::new`] builds one, so a `Bid` never names a level outside 1-7. (A bid above
/// seven made at a real table is an irregularity, Law 38, recorded as such by the auction.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bid {
    level: u8,
    denomination: Denomination,
}

impl Bid {
    /// The bid of `level` (1-7) in `denomination`; `None` for any other level (Law 18A; a
    /// contract above seven is never allowed, Law 38).
    pub const fn new(level: u8, denomination: Denomination) -> Option<Bid> {
        if level >= 1 && level <= 7 { Some(Bid { level, denomination }) } else { None }
    }

    /// The level, 1-7: the number of odd tricks (tricks over six) the bid undertakes to win.
    pub const fn level(self) -> u8 {
        self.level
    }

    /// The denomination.
    pub const fn denomination(self) -> Denomination {
        self.denomination
    }

    /// The bid's rank among all 35 bids: 0 for 1C, 34 for 7NT (Law 18B-C: a bid supersedes
    /// another if it names more odd tricks, or as many in a higher denomination).
    pub const fn rank(self) -> u8 {
        (self.level - 1) * 5 + self.denomination as u8
    }

    /// Whether this bid is sufficient over `previous` (Law 18D).
    pub const fn is_sufficient_over(self, previous: Bid) -> bool {
        self.rank() > previous.rank()
    }

    /// The tricks declarer's side must win to make this contract: level plus the book of six.
    pub const fn tricks_required(self) -> u8 {
        self.level + 6
    }

    /// The lowest bid in `denomination` sufficient over `previous` (Law 27A: the correction of
    /// an insufficient bid without penalty), or `None` if it would be above seven.
    pub fn lowest_sufficient(previous: Bid, denomination: Denomination) -> Option<Bid> {
        let level = if denomination > previous.denomination { previous.level } else { previous.level + 1 };
        Bid::new(level, denomination)
    }

    /// All 35 bids from 1C to 7NT.
    pub fn all() -> impl Iterator<Item = Bid> {
        (1..=7u8).flat_map(|level| Denomination::ALL.into_iter().map(move |d| Bid { level, denomination: d }))
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.level, self.denomination)
    }
}

/// A bid or contract that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a bid or contract: {0:?} (expected a level 1-7 and C, D, H, S or NT, such as 4H or 3NTX)")]
pub struct ParseContractError(pub String);

impl FromStr for Bid {
    type Err = ParseContractError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseContractError(s.to_owned());
        let t = s.trim().to_ascii_uppercase();
        let mut chars = t.chars();
        let level = chars.next().and_then(|c| c.to_digit(10)).ok_or_else(err)? as u8;
        let denomination = match chars.as_str() {
            "C" => Denomination::Clubs,
            "D" => Denomination::Diamonds,
            "H" => Denomination::Hearts,
            "S" => Denomination::Spades,
            "N" | "NT" => Denomination::NoTrump,
            _ => return Err(err()),
        };
        Bid::new(level, denomination).ok_or_else(err)
    }
}

/// A call: a bid, a pass, a double or a redouble (Definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// Pass.
    Pass,
    /// A bid.
    Bid(Bid),
    /// Double (Law 19A).
    Double,
    /// Redouble (Law 19B).
    Redouble,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Pass => f.write_str("Pass"),
            Call::Bid(bid) => bid.fmt(f),
            Call::Double => f.write_str("X"),
            Call::Redouble => f.write_str("XX"),
        }
    }
}

impl FromStr for Call {
    type Err = ParseContractError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().as_str() {
            "P" | "PASS" => Ok(Call::Pass),
            "X" | "D" | "DBL" | "DOUBLE" => Ok(Call::Double),
            "XX" | "R" | "RDBL" | "REDOUBLE" => Ok(Call::Redouble),
            _ => s.parse().map(Call::Bid),
        }
    }
}

/// Whether the contract was doubled or redoubled (Definitions: the contract is the final bid
/// with its double or redouble, if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Doubling {
    /// Undoubled.
    #[default]
    Undoubled,
    /// Doubled.
    Doubled,
    /// Redoubled.
    Redoubled,
}

impl Doubling {
    /// The factor trick points are multiplied by (Law 81/77: doubled x2, redoubled x4).
    pub const fn multiplier(self) -> u32 {
        match self {
            Doubling::Undoubled => 1,
            Doubling::Doubled => 2,
            Doubling::Redoubled => 4,
        }
    }

    /// The suffix used on score sheets: "", "X", "XX".
    pub const fn suffix(self) -> &'static str {
        match self {
            Doubling::Undoubled => "",
            Doubling::Doubled => "X",
            Doubling::Redoubled => "XX",
        }
    }
}

/// A contract: the final bid and whether it was doubled or redoubled (Definitions).
///
/// The declarer is not part of the contract; the auction names it separately
/// ([`crate::auction`]) and scoring needs only declarer's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Contract {
    /// The final bid.
    pub bid: Bid,
    /// Doubled or redoubled, if so.
    pub doubling: Doubling,
}

impl Contract {
    /// A contract of `bid` with `doubling`.
    pub const fn new(bid: Bid, doubling: Doubling) -> Contract {
        Contract { bid, doubling }
    }

    /// The level, 1-7.
    pub const fn level(self) -> u8 {
        self.bid.level()
    }

    /// The denomination.
    pub const fn denomination(self) -> Denomination {
        self.bid.denomination()
    }

    /// Tricks declarer must win to make the contract.
    pub const fn tricks_required(self) -> u8 {
        self.bid.tricks_required()
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.bid, self.doubling.suffix())
    }
}

impl FromStr for Contract {
    type Err = ParseContractError;

    /// Reads `4H`, `3NTX`, `6SXX` (the form of score sheets and of our test vectors).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_uppercase();
        let (bid, doubling) = if let Some(b) = t.strip_suffix("XX") {
            (b, Doubling::Redoubled)
        } else if let Some(b) = t.strip_suffix('X') {
            (b, Doubling::Doubled)
        } else {
            (t.as_str(), Doubling::Undoubled)
        };
        let bid = bid.parse().map_err(|_| ParseContractError(s.to_owned()))?;
        Ok(Contract { bid, doubling })
    }
}

/// A contract with its declarer: what an auction that was not passed out produces (Law 22B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeclaredContract {
    /// The contract.
    pub contract: Contract,
    /// The declarer: the player of the contracting side who first named the denomination
    /// (Definitions).
    pub declarer: Seat,
}

impl DeclaredContract {
    /// Declarer's partner, the dummy.
    pub const fn dummy(self) -> Seat {
        self.declarer.partner()
    }

    /// The player who makes the opening lead: declarer's left-hand opponent (Law 41A/54).
    pub const fn opening_leader(self) -> Seat {
        self.declarer.lho()
    }

    /// Declarer's side.
    pub const fn declaring_side(self) -> Side {
        self.declarer.side()
    }
}

impl fmt::Display for DeclaredContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} by {}", self.contract, self.declarer)
    }
}

/// Which sides are vulnerable (Definitions). In rubber bridge a side is vulnerable once it
/// has won a game of the rubber (Law 73); duplicate boards and Chicago deals have it set by
/// the board number (duplicate Law 2) or the deal number (Chicago, Appendix 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Vulnerability {
    /// Neither side.
    #[default]
    None,
    /// North-South only.
    NorthSouth,
    /// East-West only.
    EastWest,
    /// Both sides.
    Both,
}

impl Vulnerability {
    /// Whether `side` is vulnerable.
    pub const fn is_vulnerable(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Vulnerability::Both, _)
                | (Vulnerability::NorthSouth, Side::NorthSouth)
                | (Vulnerability::EastWest, Side::EastWest)
        )
    }

    /// The vulnerability in which exactly the sides flagged are vulnerable.
    pub const fn from_sides(north_south: bool, east_west: bool) -> Vulnerability {
        match (north_south, east_west) {
            (false, false) => Vulnerability::None,
            (true, false) => Vulnerability::NorthSouth,
            (false, true) => Vulnerability::EastWest,
            (true, true) => Vulnerability::Both,
        }
    }

    /// The PBN name: None, NS, EW, All.
    pub const fn pbn(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::NorthSouth => "NS",
            Vulnerability::EastWest => "EW",
            Vulnerability::Both => "All",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_18_bids_rank_by_level_then_denomination() {
        let one_nt: Bid = "1NT".parse().unwrap_or_else(|e| panic!("{e}"));
        let two_c: Bid = "2C".parse().unwrap_or_else(|e| panic!("{e}"));
        let one_s: Bid = "1S".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(two_c.is_sufficient_over(one_nt));
        assert!(one_nt.is_sufficient_over(one_s));
        assert!(!one_s.is_sufficient_over(one_s));
        assert_eq!(Bid::all().count(), 35);
        assert!(Bid::new(8, Denomination::Clubs).is_none(), "Law 38: no contract above seven");
        assert_eq!(Bid::lowest_sufficient(one_s, Denomination::Hearts), Bid::new(2, Denomination::Hearts));
        assert_eq!(Bid::lowest_sufficient(one_s, Denomination::NoTrump), Bid::new(1, Denomination::NoTrump));
    }

    #[test]
    fn contracts_read_as_score_sheets_write_them() {
        for text in ["1C", "4HX", "3NTXX", "7NT"] {
            let contract: Contract = text.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(contract.to_string(), text);
        }
        assert!("8C".parse::<Contract>().is_err());
        assert!("0H".parse::<Contract>().is_err());
        assert_eq!("x".parse::<Call>(), Ok(Call::Double));
        assert_eq!("pass".parse::<Call>(), Ok(Call::Pass));
    }

    #[test]
    fn vulnerability_per_side() {
        assert!(Vulnerability::Both.is_vulnerable(Side::EastWest));
        assert!(!Vulnerability::NorthSouth.is_vulnerable(Side::EastWest));
        assert_eq!(Vulnerability::from_sides(true, false), Vulnerability::NorthSouth);
    }
}
