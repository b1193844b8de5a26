//! The rubber scorepad (Laws of Rubber Bridge, Laws 72-81).
//!
//! A [`Rubber`] is built by recording each deal's result in order ([`Rubber::record`]); each
//! call returns the next pad and leaves the old one as it was. Trick points go below the
//! line; a side that reaches 100 below the line in the current game wins a game, and both
//! sides' partscores in that game stop counting (Law 73). A side is vulnerable once it has
//! won a game of the rubber (Definitions). The rubber ends at a side's second game with 700,
//! or 500 if the other side has a game (Law 74). An unfinished rubber is closed with
//! [`Rubber::abandon`] (Law 80).
//!
//! A scoring error found before the net score is agreed is corrected with
//! [`Rubber::correct`] (Law 78): the rubber is replayed from that deal, and if the replay
//! moves the end of the rubber the arbiter is asked instead. An appeal that overrules the
//! arbiter does not ripple: see [`crate::rulings`].

use std::fmt;

use crate::contract::{Contract, Vulnerability};
use crate::law::{CitesLaw, Law};
use crate::score::honors::HonorsClaim;
use crate::score::pad::{Changes, Entry, EntryKind, Line, Settlement, StrikeReason};
use crate::score::{ContractScore, ScoreError, Tricks};
use crate::seat::{Seat, Side};

/// A deal that was bid and played, as the score needs it: declarer's side, the contract, the
/// tricks declarer's side won (after any revoke transfer, Law 77) and honors, if claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayedDeal {
    declarer: Side,
    contract: Contract,
    tricks: Tricks,
    honors: Option<HonorsClaim>,
}

impl PlayedDeal {
    /// A played deal; the honors claimed, if any, must exist at the contract's denomination
    /// (Law 81: four or five trump honors in a suit contract, four aces at notrump).
    pub fn new(
        declarer: Side,
        contract: Contract,
        tricks: Tricks,
        honors: Option<HonorsClaim>,
    ) -> Result<PlayedDeal, ScoreError> {
        if let Some(claim) = honors
            && !claim.honors.fits(contract.denomination())
        {
            return Err(ScoreError::HonorsDoNotFit {
                points: claim.points(),
                denomination: contract.denomination(),
                reason: "trump honors need a trump suit and four aces count only at notrump",
            });
        }
        Ok(PlayedDeal { declarer, contract, tricks, honors })
    }

    /// Declarer's side (Law 72A: only it earns trick points).
    pub const fn declarer(&self) -> Side {
        self.declarer
    }

    /// The contract (Definitions).
    pub const fn contract(&self) -> Contract {
        self.contract
    }

    /// Tricks won by declarer's side (Law 77: transferred tricks included).
    pub const fn tricks(&self) -> Tricks {
        self.tricks
    }

    /// Honors claimed, if any (Law 81, Law 76).
    pub const fn honors(&self) -> Option<HonorsClaim> {
        self.honors
    }

    /// The same deal with other honors, checked as in [`PlayedDeal::new`] (Law 81; Law 78
    /// corrects honors left out).
    pub fn with_honors(&self, honors: Option<HonorsClaim>) -> Result<PlayedDeal, ScoreError> {
        PlayedDeal::new(self.declarer, self.contract, self.tricks, honors)
    }

    /// The Law 81 items of this result, with declarer's vulnerability.
    pub const fn score(&self, declarer_vulnerable: bool) -> ContractScore {
        ContractScore::of(self.contract, declarer_vulnerable, self.tricks)
    }
}

/// The result of a deal (Law 72): played, or passed out (Law 22A: no score, and no honors, as
/// there is no contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealResult {
    /// All four players passed.
    PassedOut,
    /// A contract was played.
    Played(PlayedDeal),
}

impl DealResult {
    /// The played deal, if it was played (Law 22A: a passed-out deal scores nothing).
    pub const fn played(&self) -> Option<&PlayedDeal> {
        match self {
            DealResult::PassedOut => None,
            DealResult::Played(p) => Some(p),
        }
    }
}

/// The dealer of the deal at `index` (0 for the first) of a rubber first dealt by
/// `first_dealer`: the turn to deal passes clockwise after every deal (Law 9), a passed-out
/// deal included (Law 22A: the next deal is dealt by the next dealer in rotation).
pub const fn dealer_of(first_dealer: Seat, index: usize) -> Seat {
    first_dealer.after(index)
}

/// Club options for a rubber (Appendix 4 H2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RubberOptions {
    /// Round the net score to even hundreds, 50 rounding up (Appendix 4 H2). Off by default.
    pub round_to_hundreds: bool,
}

/// A deal as recorded on the pad (Law 75), with the state of the rubber before it: what an
/// appeal needs to rescore it without replaying the rubber (Club Appeals Committee).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecordedDeal {
    /// The result as it stands (a committee's result replaces the table's).
    pub result: DealResult,
    /// Vulnerability when the deal was played (Definitions: a side that has won a game).
    pub vulnerability: Vulnerability,
    /// Each side's trick points below the line in the game in progress, before the deal.
    pub below_before: [u32; 2],
    /// Games won by each side before the deal.
    pub games_before: [u8; 2],
    /// The game of the rubber in progress (0 for the first).
    pub game: u8,
    /// Whether the deal completed a game, as recorded. An appeal does not change this (the
    /// Club Appeals Committee: subsequent scores stand as recorded).
    pub completed_game: bool,
}

/// Where a rubber stands (Law 74, Law 80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RubberStatus {
    /// Neither side has two games.
    #[default]
    InProgress,
    /// A side won its second game on the deal with this index (Law 74).
    Won {
        /// The side that won two games.
        winner: Side,
        /// The index of the deal that won the second game.
        deal: usize,
    },
    /// Closed before a side won two games and scored under Law 80.
    Unfinished,
}

/// A rubber bridge scorepad (Laws 72-81). See the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rubber {
    pub(crate) options: RubberOptions,
    pub(crate) deals: Vec<RecordedDeal>,
    pub(crate) entries: Vec<Entry>,
    games: [u8; 2],
    below: [u32; 2],
    game: u8,
    status: RubberStatus,
}

/// Why a rubber cannot take a result (Law 74, Law 78, Law 80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RubberError {
    /// The rubber was won: no deal is scored after a side's second game (Law 74).
    #[error("the rubber is over: {winner} won its second game on deal {} (Law 74)", deal + 1)]
    Finished {
        /// The side that won the rubber.
        winner: Side,
        /// The index of the deal that ended it.
        deal: usize,
    },
    /// The rubber was closed unfinished and scored (Law 80).
    #[error("the rubber was closed unfinished and scored under Law 80")]
    Closed,
    /// A correction or appeal names a deal the pad does not have.
    #[error("no deal {} on this pad: {recorded} deals recorded (Law 78)", index + 1)]
    NoSuchDeal {
        /// The index asked for.
        index: usize,
        /// How many deals the pad has.
        recorded: usize,
    },
}

impl CitesLaw for RubberError {
    fn law(&self) -> Law {
        match self {
            RubberError::Finished { .. } => Law::rubber(74, ""),
            RubberError::Closed => Law::rubber(80, ""),
            RubberError::NoSuchDeal { .. } => Law::rubber(78, ""),
        }
    }
}

/// A correction that the Laws do not settle: the replay moved the end of the rubber (see
/// docs/laws-readings.md, "Corrections that do ripple"). The arbiter decides; the pad is left as
/// it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum EndConflict {
    /// With the corrected result a side wins its second game on an earlier deal than the
    /// last one recorded, so deals were played after the rubber's end.
    #[error(
        "with the correction the rubber ends on deal {}, but {recorded} deals were played; \
         the Laws do not say what becomes of the later deals (Law 78): the arbiter decides",
        ended_at + 1
    )]
    EndsEarlier {
        /// The index of the deal on which the replayed rubber ends.
        ended_at: usize,
        /// How many deals were recorded.
        recorded: usize,
    },
    /// The rubber was recorded as won on its last deal, but with the correction no side has
    /// two games yet.
    #[error(
        "the rubber was recorded as won on deal {}, but with the correction no side has two games; \
         the Laws do not say whether play resumes (Law 78): the arbiter decides",
        recorded_end + 1
    )]
    NotYetEnded {
        /// The index of the deal on which the rubber was recorded as won.
        recorded_end: usize,
    },
}

impl CitesLaw for EndConflict {
    fn law(&self) -> Law {
        Law::rubber(78, "")
    }
}

/// The outcome of a Law 78 correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Corrected {
    /// The rubber replayed from the corrected deal, and what changed on the pad.
    Replayed {
        /// The corrected pad.
        rubber: Rubber,
        /// Entries struck and added.
        changes: Changes,
    },
    /// The replay moves the end of the rubber: the arbiter must decide.
    ArbiterNeeded(EndConflict),
}

impl Rubber {
    /// An empty pad: no games, neither side vulnerable (Law 73, Definitions).
    pub fn new(options: RubberOptions) -> Rubber {
        Rubber { options, ..Rubber::default() }
    }

    /// The club options (Appendix 4 H2).
    pub const fn options(&self) -> RubberOptions {
        self.options
    }

    /// Records the next deal's result and returns the pad after it (Laws 72-75, 81); the
    /// rubber bonus is scored when a side wins its second game (Law 74).
    pub fn record(&self, result: DealResult) -> Result<Rubber, RubberError> {
        self.check_open()?;
        let mut next = self.clone();
        next.apply(result);
        Ok(next)
    }

    /// Closes an unfinished rubber (Law 80): 300 to the winners of the only game completed,
    /// 100 to the only side with a partscore in the game in progress; both can apply.
    pub fn abandon(&self) -> Result<Rubber, RubberError> {
        self.check_open()?;
        let mut next = self.clone();
        next.apply_law_80();
        Ok(next)
    }

    /// Where the rubber stands (Law 74, Law 80).
    pub const fn status(&self) -> RubberStatus {
        self.status
    }

    /// Whether no more deals can be recorded (Law 74: the rubber ended; Law 80: closed).
    pub const fn is_over(&self) -> bool {
        !matches!(self.status, RubberStatus::InProgress)
    }

    /// Games won by `side` in this rubber (Law 73).
    pub const fn games_won(&self, side: Side) -> u8 {
        self.games[side.index()]
    }

    /// `side`'s trick points below the line in the game in progress (Law 73).
    pub const fn below_the_line(&self, side: Side) -> u32 {
        self.below[side.index()]
    }

    /// Vulnerability for the next deal: a side is vulnerable once it has won a game of the
    /// rubber (Definitions, Law 73).
    pub const fn vulnerability(&self) -> Vulnerability {
        Vulnerability::from_sides(self.games[0] > 0, self.games[1] > 0)
    }

    /// The deals recorded, in order (Law 75).
    pub fn deals(&self) -> &[RecordedDeal] {
        &self.deals
    }

    /// Every entry, struck ones included, in the order written (Law 75, Law 78).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries that count (Law 72).
    pub fn live_entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_live())
    }

    /// A side's total so far: trick points plus premium points (Law 72, Law 74).
    pub fn total(&self, side: Side) -> u32 {
        self.live_entries().filter(|e| e.side == side).map(|e| e.points).sum()
    }

    /// Totals, winner and margin (Law 74; Law 80 once closed unfinished), rounded to hundreds
    /// when the club option is on (Appendix 4 H2).
    pub fn settlement(&self) -> Settlement {
        Settlement::of(&self.entries, self.options.round_to_hundreds)
    }

    /// Corrects the result of the deal at `index` (Law 78: a scoring error acknowledged by a
    /// majority before the net score is agreed, or a trick count corrected with the consent
    /// the Law requires) and replays the rubber from that deal: games, later vulnerability,
    /// later premiums and the rubber bonus move with it. Entries that change are struck
    /// (kept, with the reason) and new ones appended; entries that come out the same stay.
    ///
    /// If the replay ends the rubber before the last recorded deal, or no longer ends a
    /// rubber that was recorded as won, the Laws give no answer and
    /// [`Corrected::ArbiterNeeded`] is returned. An appeal's premiums on replayed deals are
    /// dropped: the replay recreates the games they stood in for.
    pub fn correct(&self, index: usize, result: DealResult) -> Result<Corrected, RubberError> {
        let Some(at) = self.deals.get(index) else {
            return Err(RubberError::NoSuchDeal { index, recorded: self.deals.len() });
        };
        let mut replay = Rubber {
            options: self.options,
            deals: self.deals[..index].to_vec(),
            entries: Vec::new(),
            games: at.games_before,
            below: at.below_before,
            game: at.game,
            status: RubberStatus::InProgress,
        };
        let later = self.deals[index + 1..].iter().map(|d| d.result);
        for result in std::iter::once(result).chain(later) {
            if let RubberStatus::Won { deal, .. } = replay.status {
                return Ok(Corrected::ArbiterNeeded(EndConflict::EndsEarlier {
                    ended_at: deal,
                    recorded: self.deals.len(),
                }));
            }
            replay.apply(result);
        }
        match (self.status, replay.status) {
            (RubberStatus::Won { deal, .. }, RubberStatus::InProgress) => {
                return Ok(Corrected::ArbiterNeeded(EndConflict::NotYetEnded { recorded_end: deal }));
            }
            (RubberStatus::Unfinished, RubberStatus::InProgress) => replay.apply_law_80(),
            _ => {}
        }

        let mut rubber = self.clone();
        rubber.deals = replay.deals;
        rubber.games = replay.games;
        rubber.below = replay.below;
        rubber.game = replay.game;
        rubber.status = replay.status;
        let replaced = |e: &Entry| e.deal.is_none_or(|d| d >= index);
        let changes = rubber.replace_entries(replaced, replay.entries, StrikeReason::Corrected { deal: index });
        Ok(Corrected::Replayed { rubber, changes })
    }

    fn check_open(&self) -> Result<(), RubberError> {
        match self.status {
            RubberStatus::InProgress => Ok(()),
            RubberStatus::Won { winner, deal } => Err(RubberError::Finished { winner, deal }),
            RubberStatus::Unfinished => Err(RubberError::Closed),
        }
    }

    /// Scores one deal onto the pad and moves the rubber on.
    fn apply(&mut self, result: DealResult) {
        let index = self.deals.len();
        let vulnerability = self.vulnerability();
        let mut recorded = RecordedDeal {
            result,
            vulnerability,
            below_before: self.below,
            games_before: self.games,
            game: self.game,
            completed_game: false,
        };
        if let DealResult::Played(played) = result {
            let declarer = played.declarer;
            let score = played.score(vulnerability.is_vulnerable(declarer));
            push_deal_entries(&mut self.entries, index, self.game, &played, &score, Line::Below);
            if score.is_made() {
                let below = &mut self.below[declarer.index()];
                *below += score.trick_points;
                if *below >= 100 {
                    recorded.completed_game = true;
                    self.win_game(declarer, index);
                }
            }
        }
        self.deals.push(recorded);
    }

    /// Law 73: a game to `side`; a new game starts with no trick score for either side.
    /// Law 74: the second game ends the rubber with 700, or 500 if the others have a game.
    fn win_game(&mut self, side: Side, deal: usize) {
        self.games[side.index()] += 1;
        self.below = [0, 0];
        if self.games[side.index()] == 2 {
            let bonus = if self.games[side.opponents().index()] == 0 { 700 } else { 500 };
            self.entries.push(Entry {
                deal: Some(deal),
                side,
                line: Line::Above,
                points: bonus,
                kind: EntryKind::RubberBonus,
                game: self.game,
                struck: None,
            });
            self.status = RubberStatus::Won { winner: side, deal };
        }
        self.game += 1;
    }

    fn apply_law_80(&mut self) {
        let premium = |side: Side, points, kind| Entry {
            deal: None,
            side,
            line: Line::Above,
            points,
            kind,
            game: self.game,
            struck: None,
        };
        let mut premiums = Vec::new();
        if self.games[0] + self.games[1] == 1 {
            let side = if self.games[0] == 1 { Side::NorthSouth } else { Side::EastWest };
            premiums.push(premium(side, 300, EntryKind::UnfinishedGame));
        }
        match (self.below[0] > 0, self.below[1] > 0) {
            (true, false) => premiums.push(premium(Side::NorthSouth, 100, EntryKind::UnfinishedPartscore)),
            (false, true) => premiums.push(premium(Side::EastWest, 100, EntryKind::UnfinishedPartscore)),
            _ => {}
        }
        self.entries.extend(premiums);
        self.status = RubberStatus::Unfinished;
    }

    /// Strikes the live entries selected by `replaced` that `fresh` does not reproduce, and
    /// appends the fresh entries that are new.
    pub(crate) fn replace_entries(
        &mut self,
        replaced: impl Fn(&Entry) -> bool,
        fresh: Vec<Entry>,
        reason: StrikeReason,
    ) -> Changes {
        replace_entries(&mut self.entries, replaced, fresh, reason)
    }
}

/// Strikes the live entries selected by `replaced` that `fresh` does not reproduce, and
/// appends the fresh entries that are new; shared by the rubber and Chicago pads.
pub(crate) fn replace_entries(
    entries: &mut Vec<Entry>,
    replaced: impl Fn(&Entry) -> bool,
    fresh: Vec<Entry>,
    reason: StrikeReason,
) -> Changes {
    let mut changes = Changes::default();
    let mut unmatched: Vec<Option<Entry>> = fresh.into_iter().map(Some).collect();
    for (i, entry) in entries.iter_mut().enumerate() {
        if !entry.is_live() || !replaced(entry) {
            continue;
        }
        let reproduced = unmatched.iter_mut().find(|f| f.as_ref().is_some_and(|f| f.same_score(entry)));
        match reproduced {
            Some(slot) => *slot = None,
            None => {
                entry.struck = Some(reason);
                changes.struck.push(i);
            }
        }
    }
    for entry in unmatched.into_iter().flatten() {
        changes.added.push(entries.len());
        entries.push(entry);
    }
    changes
}

/// Writes one played deal's Law 81 items: trick points on `trick_line` (below, except when an
/// appeal rescores a deal after later games stood), then overtricks, insult and slam to
/// declarer's side or undertricks to the defenders, then honors to the side holding them.
pub(crate) fn push_deal_entries(
    entries: &mut Vec<Entry>,
    deal: usize,
    game: u8,
    played: &PlayedDeal,
    score: &ContractScore,
    trick_line: Line,
) {
    let declarer = played.declarer;
    let mut push = |side, line, points, kind| {
        if points > 0 {
            entries.push(Entry { deal: Some(deal), side, line, points, kind, game, struck: None });
        }
    };
    push(declarer, trick_line, score.trick_points, EntryKind::TrickPoints);
    push(declarer, Line::Above, score.overtricks, EntryKind::Overtricks);
    push(declarer, Line::Above, score.insult, EntryKind::Insult);
    push(declarer, Line::Above, score.slam, EntryKind::Slam);
    push(declarer.opponents(), Line::Above, score.undertricks, EntryKind::Undertricks);
    if let Some(claim) = played.honors {
        push(claim.side, Line::Above, claim.points(), EntryKind::Honors);
    }
}

impl fmt::Display for RubberStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RubberStatus::InProgress => f.write_str("in progress"),
            RubberStatus::Won { winner, deal } => write!(f, "won by {winner} on deal {}", deal + 1),
            RubberStatus::Unfinished => f.write_str("unfinished (Law 80)"),
        }
    }
}
