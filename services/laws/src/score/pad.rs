//! The entries of a rubber or Chicago scorepad (rubber Law 75: trick points below the line,
//! premium points above it, per side) and what a correction or an appeal changed.
//!
//! Entries are never deleted. A correction (Law 78) or an overruling by the Club Appeals
//! Committee strikes the entries it replaces and appends new ones, so the pad keeps its audit
//! trail.

use std::fmt;

use crate::law::Law;
use crate::seat::Side;

/// Where an entry is written (rubber Law 75).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Line {
    /// Above the line: premium points (Law 72B).
    Above,
    /// Below the line: trick points, which count toward game (Law 72A, Law 73).
    Below,
}

/// What an entry scores, with the Law that gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// Trick points for the odd tricks bid and made (Law 72A, Law 81).
    TrickPoints,
    /// Overtricks (Law 81).
    Overtricks,
    /// Making a doubled or redoubled contract (Law 81).
    Insult,
    /// A slam bid and made (Law 81).
    Slam,
    /// Undertrick penalties, to the defenders (Law 81).
    Undertricks,
    /// Honors, to the side holding them (Law 81).
    Honors,
    /// Winning the rubber: 700, or 500 if the other side has a game (Law 74, Law 81).
    RubberBonus,
    /// The only game of an unfinished rubber: 300 (Law 80).
    UnfinishedGame,
    /// The only partscore in an unfinished game: 100 (Law 80).
    UnfinishedPartscore,
    /// Chicago: making or completing a game, 300 not vulnerable or 500 vulnerable on that
    /// deal (Appendix 4 D).
    GamePremium,
    /// Chicago: a partscore on the fourth deal that does not complete a game, 100
    /// (Appendix 4 F).
    FourthDealPartscore,
    /// The Club Appeals Committee's premium for a contract now fulfilled (premium A).
    AppealPremiumFulfilled,
    /// The Club Appeals Committee's premium for a contract now defeated that had produced a
    /// game (premium B).
    AppealPremiumDefeated,
}

impl EntryKind {
    /// The Law that gives this entry.
    pub const fn law(self) -> Law {
        match self {
            EntryKind::TrickPoints => Law::rubber(72, "A"),
            EntryKind::Overtricks
            | EntryKind::Insult
            | EntryKind::Slam
            | EntryKind::Undertricks
            | EntryKind::Honors => Law::rubber(81, ""),
            EntryKind::RubberBonus => Law::rubber(74, ""),
            EntryKind::UnfinishedGame | EntryKind::UnfinishedPartscore => Law::rubber(80, ""),
            EntryKind::GamePremium => Law::chicago('D', ""),
            EntryKind::FourthDealPartscore => Law::chicago('F', ""),
            EntryKind::AppealPremiumFulfilled | EntryKind::AppealPremiumDefeated => Law::club_appeals(),
        }
    }

    /// Whether the entry belongs to the deal it was scored on, and so is replaced when that
    /// deal's result is overruled; the rubber bonus and the Law 80 premiums belong to the
    /// rubber and stand as recorded.
    pub const fn belongs_to_deal(self) -> bool {
        !matches!(self, EntryKind::RubberBonus | EntryKind::UnfinishedGame | EntryKind::UnfinishedPartscore)
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EntryKind::TrickPoints => "trick points",
            EntryKind::Overtricks => "overtricks",
            EntryKind::Insult => "making a doubled or redoubled contract",
            EntryKind::Slam => "slam",
            EntryKind::Undertricks => "undertricks",
            EntryKind::Honors => "honors",
            EntryKind::RubberBonus => "rubber",
            EntryKind::UnfinishedGame => "only game of an unfinished rubber",
            EntryKind::UnfinishedPartscore => "only partscore in an unfinished game",
            EntryKind::GamePremium => "game",
            EntryKind::FourthDealPartscore => "partscore on the fourth deal",
            EntryKind::AppealPremiumFulfilled => "appeal premium: contract now fulfilled",
            EntryKind::AppealPremiumDefeated => "appeal premium: contract now defeated",
        })
    }
}

/// Why an entry was struck (Law 78; Club Appeals Committee).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StrikeReason {
    /// A scoring error corrected under Law 78 (or a Chicago diagram corrected under
    /// Appendix 4 E): the pad was replayed from the deal with this index.
    Corrected {
        /// The deal whose result was corrected.
        deal: usize,
    },
    /// The Club Appeals Committee overruled the arbiter on the deal with this index.
    Overruled {
        /// The deal whose result the committee changed.
        deal: usize,
    },
}

impl StrikeReason {
    /// The Law under which the entry was struck.
    pub const fn law(self) -> Law {
        match self {
            StrikeReason::Corrected { .. } => Law::rubber(78, ""),
            StrikeReason::Overruled { .. } => Law::club_appeals(),
        }
    }
}

/// One entry on the pad (rubber Law 75).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The index of the deal it was scored on (passed-out deals included), or `None` for a
    /// premium of the rubber as a whole (Law 80).
    pub deal: Option<usize>,
    /// The side credited.
    pub side: Side,
    /// Above or below the line.
    pub line: Line,
    /// The points.
    pub points: u32,
    /// What the points are for.
    pub kind: EntryKind,
    /// The game of the rubber (0 for the first) during which it was scored; below the line,
    /// the game its trick points count toward (Law 75: a line is drawn when a game is won).
    pub game: u8,
    /// Set when a correction or an appeal replaced the entry; struck entries count for
    /// nothing but stay on the pad.
    pub struck: Option<StrikeReason>,
}

impl Entry {
    /// Whether the entry counts (it has not been struck under Law 78 or on appeal).
    pub const fn is_live(&self) -> bool {
        self.struck.is_none()
    }

    /// Whether two entries score the same thing (everything but the strike).
    pub(crate) fn same_score(&self, other: &Entry) -> bool {
        (self.deal, self.side, self.line, self.points, self.kind, self.game)
            == (other.deal, other.side, other.line, other.points, other.kind, other.game)
    }
}

/// The net result of a pad: each side's total, the winner and the margin (rubber Law 74,
/// Law 80), with the margin in even hundreds when the club rounds (Appendix 4 H2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settlement {
    /// Live points per side, indexed by [`Side::index`].
    pub totals: [u32; 2],
    /// The side with the larger total, or `None` on equal totals.
    pub winner: Option<Side>,
    /// The difference between the totals (Law 74: the margin of victory).
    pub margin: u32,
    /// The margin in even hundreds, 50 rounding up (Appendix 4 H2), when the club option is
    /// on: 750 counts as 800, 740 as 700.
    pub rounded_margin: Option<u32>,
}

impl Settlement {
    pub(crate) fn of(entries: &[Entry], round_to_hundreds: bool) -> Settlement {
        let totals = totals(entries);
        let [ns, ew] = totals;
        let winner = match ns.cmp(&ew) {
            std::cmp::Ordering::Greater => Some(Side::NorthSouth),
            std::cmp::Ordering::Less => Some(Side::EastWest),
            std::cmp::Ordering::Equal => None,
        };
        let margin = ns.abs_diff(ew);
        Settlement { totals, winner, margin, rounded_margin: round_to_hundreds.then(|| round_to_hundreds_of(margin)) }
    }

    /// A side's total (Law 72: trick and premium points added).
    pub const fn total(&self, side: Side) -> u32 {
        self.totals[side.index()]
    }
}

/// Rounds a margin to even hundreds, crediting 50 or more as a hundred (Appendix 4 H2).
pub const fn round_to_hundreds_of(margin: u32) -> u32 {
    (margin + 50) / 100 * 100
}

/// Live points per side.
pub(crate) fn totals(entries: &[Entry]) -> [u32; 2] {
    let mut totals = [0u32; 2];
    for entry in entries.iter().filter(|e| e.is_live()) {
        totals[entry.side.index()] += entry.points;
    }
    totals
}

/// What a correction (Law 78) or an appeal (Club Appeals Committee) did to the pad: indices
/// into its entries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// Entries struck.
    pub struck: Vec<usize>,
    /// Entries added.
    pub added: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_4_h2_rounds_the_net_to_even_hundreds_50_up() {
        // Worked case T5 (docs/worked-cases.md): 750 counts as 800, 740 as 700.
        assert_eq!(round_to_hundreds_of(750), 800);
        assert_eq!(round_to_hundreds_of(740), 700);
        assert_eq!(round_to_hundreds_of(50), 100);
        assert_eq!(round_to_hundreds_of(49), 0);
        assert_eq!(round_to_hundreds_of(0), 0);
    }
}
