//! Compass seats and the two sides (Definitions; Law 3 of both codes: North-South against
//! East-West).

use std::fmt;
use std::str::FromStr;

/// One of the four compass positions at a table.
///
/// Rotation is clockwise (Law 8: the deal proceeds clockwise; Law 17: calls proceed clockwise),
/// so the player after North is East.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// North.
    North,
    /// East.
    East,
    /// South.
    South,
    /// West.
    West,
}

impl Seat {
    /// The four seats in clockwise order starting with North.
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    /// Index 0-3 in clockwise order from North.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with the given clockwise index from North (taken modulo 4).
    pub const fn from_index(index: usize) -> Seat {
        Seat::ALL[index % 4]
    }

    /// The next seat clockwise: this seat's left-hand opponent (LHO).
    pub const fn next(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// The left-hand opponent (the next player in rotation, Law 17).
    pub const fn lho(self) -> Seat {
        self.next()
    }

    /// The partner, sitting opposite.
    pub const fn partner(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    /// The right-hand opponent (the previous player in rotation).
    pub const fn rho(self) -> Seat {
        Seat::from_index(self.index() + 3)
    }

    /// The seat `steps` places clockwise from this one.
    pub const fn after(self, steps: usize) -> Seat {
        Seat::from_index(self.index() + steps % 4)
    }

    /// The side this seat belongs to.
    pub const fn side(self) -> Side {
        match self {
            Seat::North | Seat::South => Side::NorthSouth,
            Seat::East | Seat::West => Side::EastWest,
        }
    }

    /// Whether `other` is an opponent of this seat.
    pub const fn is_opponent(self, other: Seat) -> bool {
        !matches!((self.side(), other.side()), (Side::NorthSouth, Side::NorthSouth) | (Side::EastWest, Side::EastWest))
    }

    /// The one-letter name used by PBN and score sheets: N, E, S, W.
    pub const fn letter(self) -> char {
        match self {
            Seat::North => 'N',
            Seat::East => 'E',
            Seat::South => 'S',
            Seat::West => 'W',
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::North => "North",
            Seat::East => "East",
            Seat::South => "South",
            Seat::West => "West",
        })
    }
}

/// A seat name that is not one of N, E, S, W.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown seat {0:?}: expected N, E, S or W")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().as_str() {
            "N" | "NORTH" => Ok(Seat::North),
            "E" | "EAST" => Ok(Seat::East),
            "S" | "SOUTH" => Ok(Seat::South),
            "W" | "WEST" => Ok(Seat::West),
            _ => Err(ParseSeatError(s.to_owned())),
        }
    }
}

/// One of the two partnerships at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// North and South.
    NorthSouth,
    /// East and West.
    EastWest,
}

impl Side {
    /// Both sides, North-South first.
    pub const ALL: [Side; 2] = [Side::NorthSouth, Side::EastWest];

    /// The other side.
    pub const fn opponents(self) -> Side {
        match self {
            Side::NorthSouth => Side::EastWest,
            Side::EastWest => Side::NorthSouth,
        }
    }

    /// The two seats of this side.
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Side::NorthSouth => [Seat::North, Seat::South],
            Side::EastWest => [Seat::East, Seat::West],
        }
    }

    /// Index 0 (North-South) or 1 (East-West), for per-side arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::NorthSouth => "North-South",
            Side::EastWest => "East-West",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_is_clockwise() {
        assert_eq!(Seat::North.lho(), Seat::East);
        assert_eq!(Seat::North.partner(), Seat::South);
        assert_eq!(Seat::North.rho(), Seat::West);
        assert_eq!(Seat::West.next(), Seat::North);
        assert_eq!(Seat::South.after(3), Seat::East);
        for seat in Seat::ALL {
            assert_eq!(seat.partner().partner(), seat);
            assert_eq!(seat.lho().rho(), seat);
            assert!(seat.is_opponent(seat.lho()));
            assert!(!seat.is_opponent(seat.partner()));
            assert_eq!(seat.side(), seat.partner().side());
            assert_eq!(seat.letter().to_string().parse::<Seat>(), Ok(seat));
        }
    }
}
