//! Chicago, or four-deal bridge (Laws of Rubber Bridge, Appendix 4).
//!
//! A rubber is four deals that were bid and played; a passed-out deal is redealt by the same
//! dealer and does not count (App. 4 B). Vulnerability follows a fixed schedule, not the
//! score (C): deal 1 neither side, deals 2 and 3 the dealer's side (by agreement, the other
//! side), deal 4 both. Making or completing a game earns 300 not vulnerable or 500
//! vulnerable on that deal (D); partscores carry forward across deals until either side
//! makes a game, when all earlier partscores stop counting (F); a partscore on deal 4 that
//! does not complete a game earns 100 (F). Honors count; there is no rubber premium and no
//! Law 80 premium. The dealer rotates clockwise with each counted deal.
//!
//! Unlike duplicate scoring there is no 50 partscore bonus, and partscores carry over.

use crate::contract::Vulnerability;
use crate::law::{CitesLaw, Law};
use crate::score::pad::{Changes, Entry, EntryKind, Line, Settlement, StrikeReason};
use crate::score::rubber::{DealResult, PlayedDeal, push_deal_entries, replace_entries};
use crate::seat::{Seat, Side};

/// Club options for Chicago (Appendix 4 C, H).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ChicagoOptions {
    /// By mutual agreement, on deals 2 and 3 the side not dealing is vulnerable instead of
    /// the dealer's side (Appendix 4 C).
    pub swap_second_and_third: bool,
    /// Round the net score to even hundreds, 50 rounding up (Appendix 4 H2).
    pub round_to_hundreds: bool,
}

/// The vulnerability of counted deal `number` (1-4) dealt by `dealer` (Appendix 4 C): deal 1
/// neither side, deals 2 and 3 the dealer's side (the other side with `swap_second_and_third`),
/// deal 4 both. `None` for any other number (a fifth or later deal is void, B).
pub const fn vulnerability(number: u8, dealer: Seat, swap_second_and_third: bool) -> Option<Vulnerability> {
    let vulnerable_side = if swap_second_and_third { dealer.side().opponents() } else { dealer.side() };
    match number {
        1 => Some(Vulnerability::None),
        2 | 3 => Some(match vulnerable_side {
            Side::NorthSouth => Vulnerability::NorthSouth,
            Side::EastWest => Vulnerability::EastWest,
        }),
        4 => Some(Vulnerability::Both),
        _ => None,
    }
}

/// A deal as recorded on a Chicago pad (Appendix 4 B-F).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChicagoDeal {
    /// The result as it stands.
    pub result: DealResult,
    /// The deal's number among the four (1-4), or `None` for a passed-out deal, which does
    /// not count (Appendix 4 B).
    pub number: Option<u8>,
    /// The player who should have dealt it (Appendix 4 G: vulnerability and scoring follow
    /// that seat, whoever actually dealt).
    pub dealer: Seat,
    /// The vulnerability the deal was scored with.
    pub vulnerability: Vulnerability,
    /// Each side's partscores still counting toward game, before the deal.
    pub below_before: [u32; 2],
    /// The game in progress (0 before the first game is made).
    pub game: u8,
    /// Whether the deal made or completed a game, as recorded.
    pub completed_game: bool,
}

/// A Chicago scorepad (Appendix 4). See the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chicago {
    pub(crate) options: ChicagoOptions,
    first_dealer: Seat,
    pub(crate) deals: Vec<ChicagoDeal>,
    pub(crate) entries: Vec<Entry>,
    below: [u32; 2],
    game: u8,
    counted: u8,
    /// Ended before the fourth deal (Appendix 4 B: the score stands for the short series).
    closed: bool,
}

/// Why a Chicago pad cannot take a result (Appendix 4 B; Law 78).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ChicagoError {
    /// Four deals have been bid and played: a fifth deal is void, a sixth or later always
    /// (Appendix 4 B).
    #[error("four deals have been played: a fifth or later deal is void (rule B of Chicago, Appendix 4)")]
    DealVoid,
    /// A correction or appeal names a deal the pad does not have.
    #[error("no deal {} on this pad: {recorded} deals recorded (Law 78)", index + 1)]
    NoSuchDeal {
        /// The index asked for.
        index: usize,
        /// How many deals the pad has (passed-out deals included).
        recorded: usize,
    },
    /// The series was ended before its fourth deal and its score stands as it is (Appendix 4
    /// B): no further deal is scored.
    #[error("the series was ended after {counted} deals and its score stands (rule B of Chicago, Appendix 4)")]
    Closed {
        /// How many deals counted.
        counted: u8,
    },
    /// A correction would turn a played deal into a passed-out one or the reverse, which
    /// moves the numbering, the dealer and the vulnerability of every later deal; the Laws do
    /// not say how to rescore that.
    #[error(
        "correcting deal {} between passed out and played changes which deals count (rule B of Chicago, \
         Appendix 4): the arbiter decides",
        index + 1
    )]
    CountChanges {
        /// The deal corrected.
        index: usize,
    },
}

impl CitesLaw for ChicagoError {
    fn law(&self) -> Law {
        match self {
            ChicagoError::DealVoid | ChicagoError::Closed { .. } | ChicagoError::CountChanges { .. } => {
                Law::chicago('B', "")
            }
            ChicagoError::NoSuchDeal { .. } => Law::rubber(78, ""),
        }
    }
}

impl Chicago {
    /// An empty pad; `first_dealer` deals deal 1 (the diagram's "1" faces him, Appendix 4 E).
    pub fn new(first_dealer: Seat, options: ChicagoOptions) -> Chicago {
        Chicago {
            options,
            first_dealer,
            deals: Vec::new(),
            entries: Vec::new(),
            below: [0, 0],
            game: 0,
            counted: 0,
            closed: false,
        }
    }

    /// The club options (Appendix 4 C, H).
    pub const fn options(&self) -> ChicagoOptions {
        self.options
    }

    /// The first dealer (Appendix 4 E: the diagram's "1" faces him).
    pub const fn first_dealer(&self) -> Seat {
        self.first_dealer
    }

    /// The number (1-4) of the next deal to count, or `None` once four have been played
    /// (Appendix 4 B).
    pub const fn next_number(&self) -> Option<u8> {
        if self.counted < 4 { Some(self.counted + 1) } else { None }
    }

    /// Who deals next: the dealer rotates clockwise with each counted deal, and a passed-out
    /// deal is redealt by the same dealer (Appendix 4 B).
    pub const fn next_dealer(&self) -> Seat {
        self.first_dealer.after(self.counted as usize)
    }

    /// Vulnerability on the next deal (Appendix 4 C), or `None` once four deals are played.
    pub const fn next_vulnerability(&self) -> Option<Vulnerability> {
        match self.next_number() {
            Some(n) => vulnerability(n, self.next_dealer(), self.options.swap_second_and_third),
            None => None,
        }
    }

    /// Whether the four deals have been played (Appendix 4 B).
    pub const fn is_complete(&self) -> bool {
        self.counted == 4
    }

    /// `side`'s partscores still counting toward game (Appendix 4 F).
    pub const fn below_the_line(&self, side: Side) -> u32 {
        self.below[side.index()]
    }

    /// The deals recorded, passed-out ones included (Appendix 4 B, H4: every deal is scored).
    pub fn deals(&self) -> &[ChicagoDeal] {
        &self.deals
    }

    /// Every entry, struck ones included.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries that count.
    pub fn live_entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_live())
    }

    /// Totals, winner and margin (no rubber premium, Appendix 4 D), rounded when the club
    /// option is on (H2). With fewer than four deals the score stands for the short series (B).
    pub fn settlement(&self) -> Settlement {
        Settlement::of(&self.entries, self.options.round_to_hundreds)
    }

    /// Whether the series was ended before its fourth deal (Appendix 4 B).
    pub const fn is_closed(&self) -> bool {
        self.closed
    }

    /// Ends the series before its fourth deal (the desk or the table stops): "If fewer than
    /// four deals have been played, the score stands for the short series" (Appendix 4 B).
    /// Nothing is added: Chicago has no rubber premium and no Law 80 premium (Appendix 4 D).
    /// A complete series needs no ending ([`ChicagoError::DealVoid`] for anything after it).
    pub fn end_short(&self) -> Result<Chicago, ChicagoError> {
        self.check_open()?;
        Ok(Chicago { closed: true, ..self.clone() })
    }

    fn check_open(&self) -> Result<(), ChicagoError> {
        if self.is_complete() {
            return Err(ChicagoError::DealVoid);
        }
        if self.closed {
            return Err(ChicagoError::Closed { counted: self.counted });
        }
        Ok(())
    }

    /// Records the next deal and returns the pad after it (Appendix 4 B-F).
    pub fn record(&self, result: DealResult) -> Result<Chicago, ChicagoError> {
        self.check_open()?;
        let mut next = self.clone();
        next.apply(result);
        Ok(next)
    }

    /// Corrects the result of the deal at `index` and rescores the pad from that deal on
    /// (Law 78; Appendix 4 E for the rescoring): later game premiums, carried partscores and
    /// the deal-4 premium move with it. A correction between passed out and played changes
    /// which deals count and is refused for the arbiter ([`ChicagoError::CountChanges`]).
    pub fn correct(&self, index: usize, result: DealResult) -> Result<(Chicago, Changes), ChicagoError> {
        let Some(at) = self.deals.get(index) else {
            return Err(ChicagoError::NoSuchDeal { index, recorded: self.deals.len() });
        };
        if matches!(at.result, DealResult::PassedOut) != matches!(result, DealResult::PassedOut) {
            return Err(ChicagoError::CountChanges { index });
        }
        let mut results: Vec<DealResult> = self.deals[index..].iter().map(|d| d.result).collect();
        results[0] = result;
        let counted_before = self.deals[..index].iter().filter(|d| d.number.is_some()).count() as u8;
        let mut replay = Chicago {
            deals: self.deals[..index].to_vec(),
            entries: Vec::new(),
            below: at.below_before,
            game: at.game,
            counted: counted_before,
            ..self.clone()
        };
        for result in results {
            replay.apply(result);
        }
        Ok(replay.adopt(self, |e| e.deal.is_some_and(|d| d >= index), StrikeReason::Corrected { deal: index }))
    }

    /// Rescores the whole pad with `first_dealer` as the first dealer, after the vulnerability
    /// diagram was found wrongly numbered (Appendix 4 E: "the deal or deals should be scored
    /// or rescored as though the diagram ... had been properly inserted").
    pub fn with_first_dealer(&self, first_dealer: Seat) -> (Chicago, Changes) {
        let mut replay = Chicago { closed: self.closed, ..Chicago::new(first_dealer, self.options) };
        for deal in &self.deals {
            replay.apply(deal.result);
        }
        replay.adopt(self, |_| true, StrikeReason::Corrected { deal: 0 })
    }

    /// This replay's state with the old pad's entries: those it reproduces stay, the rest are
    /// struck, and its new entries are appended.
    fn adopt(self, old: &Chicago, replaced: impl Fn(&Entry) -> bool, reason: StrikeReason) -> (Chicago, Changes) {
        let mut entries = old.entries.clone();
        let changes = replace_entries(&mut entries, replaced, self.entries, reason);
        (Chicago { entries, ..self }, changes)
    }

    fn apply(&mut self, result: DealResult) {
        let index = self.deals.len();
        let dealer = self.next_dealer();
        let Some(number) = self.next_number() else { return };
        let vul = vulnerability(number, dealer, self.options.swap_second_and_third).unwrap_or_default();
        let mut recorded = ChicagoDeal {
            result,
            number: None,
            dealer,
            vulnerability: vul,
            below_before: self.below,
            game: self.game,
            completed_game: false,
        };
        if let DealResult::Played(played) = result {
            recorded.number = Some(number);
            self.counted += 1;
            let made = score_deal(&mut self.entries, index, self.game, number, vul, self.below, &played, Line::Below);
            if let Some(trick_points) = made {
                let declarer = played.declarer().index();
                if self.below[declarer] + trick_points >= 100 {
                    recorded.completed_game = true;
                    self.below = [0, 0];
                    self.game += 1;
                } else {
                    self.below[declarer] += trick_points;
                }
            }
        }
        self.deals.push(recorded);
    }
}

/// Writes one Chicago deal's entries and returns its trick points if the contract was made:
/// the Law 81 items with the deal's vulnerability, the game premium when the trick points
/// with `below_before` reach 100 (Appendix 4 D, F), or 100 for a partscore on deal 4 that
/// does not complete a game (F).
#[allow(clippy::too_many_arguments)] // each is one fact of the deal; a struct would only rename them
pub(crate) fn score_deal(
    entries: &mut Vec<Entry>,
    index: usize,
    game: u8,
    number: u8,
    vulnerability: Vulnerability,
    below_before: [u32; 2],
    played: &PlayedDeal,
    trick_line: Line,
) -> Option<u32> {
    let declarer = played.declarer();
    let vulnerable = vulnerability.is_vulnerable(declarer);
    let score = played.score(vulnerable);
    push_deal_entries(entries, index, game, played, &score, trick_line);
    if !score.is_made() {
        return None;
    }
    let premium = if below_before[declarer.index()] + score.trick_points >= 100 {
        Some((if vulnerable { 500 } else { 300 }, EntryKind::GamePremium))
    } else if number == 4 {
        Some((100, EntryKind::FourthDealPartscore))
    } else {
        None
    };
    if let Some((points, kind)) = premium {
        entries.push(Entry { deal: Some(index), side: declarer, line: Line::Above, points, kind, game, struck: None });
    }
    Some(score.trick_points)
}
