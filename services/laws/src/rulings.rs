//! Rulings that change a score: the Director's adjusted scores of duplicate (Law 12) as data,
//! and the Club Appeals Committee's rescoring of a rubber or Chicago deal when it overrules
//! the arbiter (Laws of Rubber Bridge, Part VIII).
//!
//! # Adjusted scores (duplicate Law 12)
//!
//! An [`AdjustedScore`] gives each side of a table its own [`SideAdjustment`]:
//! - artificial (Law 12C2): average plus, average or average minus by the side's
//!   responsibility, 60/50/40% of the available matchpoints or +3/0/-3 IMPs; the session
//!   rule of Law 12C2(c) is applied when the session is scored
//!   ([`crate::score::session`]), since it depends on every other board;
//! - assigned (Law 12C1(a)-(b)): a result that replaces the table result;
//! - weighted (Law 12C1(c)): several results with weights summing to 1.
//!
//! The two sides may receive different adjustments (split, or non-balancing, scores; Law
//! 12C1(e), Law 12C2(a)). They are kept as they were awarded, never as an invented contract.
//!
//! # The Club Appeals Committee (rubber and Chicago)
//!
//! "When an Arbiter's decision is overruled on appeal, only the scoring of the particular deal
//! is affected; subsequent scores stand as recorded." [`Rubber::overrule`] and
//! [`Chicago::overrule`] rescore that deal alone, as docs/laws-readings.md ("Appeals") reads it:
//! the deal's entries are struck and the new result scored with the vulnerability recorded for
//! that deal, its trick points above the line (later games stand), plus premium A (a contract
//! now fulfilled) or premium B (a contract now defeated that had produced a game).

use std::fmt;

use crate::cards::Deal;
use crate::law::{CitesLaw, Law};
use crate::score::chicago::{Chicago, score_deal};
use crate::score::duplicate::BoardResult;
use crate::score::honors::{HonorsClaim, honors_claim};
use crate::score::pad::{Changes, Entry, EntryKind, Line, StrikeReason};
use crate::score::rubber::{DealResult, PlayedDeal, Rubber, RubberStatus, push_deal_entries};
use crate::seat::Side;

/// A contestant's responsibility for an irregularity that made a result impossible
/// (Law 12C2(a)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// In no way at fault: average plus.
    None,
    /// Only partly at fault: average.
    Partly,
    /// Directly at fault: average minus.
    Directly,
}

/// An artificial adjusted score (Law 12C2): awarded when no result can be obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtificialScore {
    /// At least 60% of the available matchpoints; +3 IMPs. For a contestant in no way at
    /// fault whose session score exceeds 60%, that session percentage (Law 12C2(c)).
    AveragePlus,
    /// 50%; 0 IMPs.
    Average,
    /// At most 40%; -3 IMPs. For a contestant directly at fault whose session score is under
    /// 40%, that session percentage (Law 12C2(c)).
    AverageMinus,
}

impl ArtificialScore {
    /// The artificial score for a contestant's responsibility (Law 12C2(a)).
    pub const fn for_fault(fault: Fault) -> ArtificialScore {
        match fault {
            Fault::None => ArtificialScore::AveragePlus,
            Fault::Partly => ArtificialScore::Average,
            Fault::Directly => ArtificialScore::AverageMinus,
        }
    }

    /// The percentage of the available matchpoints before the session rule (Law 12C2(a)).
    pub const fn percentage(self) -> f64 {
        match self {
            ArtificialScore::AveragePlus => 60.0,
            ArtificialScore::Average => 50.0,
            ArtificialScore::AverageMinus => 40.0,
        }
    }

    /// The IMPs at IMP play before the session rule (Law 12C2(b)): +3, 0, -3.
    pub const fn imps(self) -> f64 {
        match self {
            ArtificialScore::AveragePlus => 3.0,
            ArtificialScore::Average => 0.0,
            ArtificialScore::AverageMinus => -3.0,
        }
    }
}

impl fmt::Display for ArtificialScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArtificialScore::AveragePlus => "average plus",
            ArtificialScore::Average => "average",
            ArtificialScore::AverageMinus => "average minus",
        })
    }
}

/// A weighted assigned score (Law 12C1(c)): results that could have been reached legally,
/// each with a weight; the weights sum to 1. Matchpointed or IMPed as the weighted sum of
/// what each result would earn.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedScore {
    components: Vec<(BoardResult, f64)>,
}

/// How far the weights of a weighted score (Law 12C1(c)) may stray from 1, to allow thirds
/// written as decimals.
pub const WEIGHT_TOLERANCE: f64 = 1e-6;

impl WeightedScore {
    /// A weighted score of `components`: at least one result, every weight positive and
    /// finite, the weights summing to 1 (Law 12C1(c)).
    pub fn new(components: Vec<(BoardResult, f64)>) -> Result<WeightedScore, RulingError> {
        if components.is_empty() {
            return Err(RulingError::NoResults);
        }
        if let Some((_, weight)) = components.iter().find(|(_, w)| !(w.is_finite() && *w > 0.0)) {
            return Err(RulingError::BadWeight(*weight));
        }
        let sum: f64 = components.iter().map(|(_, w)| w).sum();
        if (sum - 1.0).abs() > WEIGHT_TOLERANCE {
            return Err(RulingError::WeightsDoNotSumToOne(sum));
        }
        Ok(WeightedScore { components })
    }

    /// The results and their weights (Law 12C1(c)).
    pub fn components(&self) -> &[(BoardResult, f64)] {
        &self.components
    }
}

/// What one side of a table receives on a board under Law 12.
#[derive(Debug, Clone, PartialEq)]
pub enum SideAdjustment {
    /// An artificial adjusted score (Law 12C2).
    Artificial(ArtificialScore),
    /// An assigned adjusted score: a result that replaces the table result (Law 12C1(a)).
    Assigned(BoardResult),
    /// A weighted assigned score (Law 12C1(c)).
    Weighted(WeightedScore),
}

/// An adjusted score for one table on one board (Law 12C): what each side receives.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjustedScore {
    ns: SideAdjustment,
    ew: SideAdjustment,
}

impl AdjustedScore {
    /// The same assigned result for both sides (Law 12C1(a)).
    pub fn assigned(result: BoardResult) -> AdjustedScore {
        AdjustedScore { ns: SideAdjustment::Assigned(result), ew: SideAdjustment::Assigned(result) }
    }

    /// The same weighted score for both sides (Law 12C1(c)).
    pub fn weighted(score: WeightedScore) -> AdjustedScore {
        AdjustedScore { ns: SideAdjustment::Weighted(score.clone()), ew: SideAdjustment::Weighted(score) }
    }

    /// Artificial scores by each side's responsibility (Law 12C2(a)): each side is assessed on
    /// its own, so both may get average plus (Law 82C) or average minus.
    pub const fn artificial(ns: ArtificialScore, ew: ArtificialScore) -> AdjustedScore {
        AdjustedScore { ns: SideAdjustment::Artificial(ns), ew: SideAdjustment::Artificial(ew) }
    }

    /// Different adjustments for the two sides: a split, non-balancing score (Law 12C1(e):
    /// the offending side gets the consequence of rectifying its infraction, the non-offending
    /// side no relief for self-inflicted damage).
    pub const fn split(ns: SideAdjustment, ew: SideAdjustment) -> AdjustedScore {
        AdjustedScore { ns, ew }
    }

    /// What `side` receives (Law 12C).
    pub const fn for_side(&self, side: Side) -> &SideAdjustment {
        match side {
            Side::NorthSouth => &self.ns,
            Side::EastWest => &self.ew,
        }
    }

    /// Whether the two sides receive different assigned results (a non-balancing score).
    /// Artificial scores are per side by nature and count as split only when mixed with an
    /// assigned result.
    pub fn is_split(&self) -> bool {
        match (&self.ns, &self.ew) {
            (SideAdjustment::Artificial(_), SideAdjustment::Artificial(_)) => false,
            (ns, ew) => ns != ew,
        }
    }
}

/// Why an adjusted score is not well formed (Law 12C1(c)).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum RulingError {
    /// A weighted score with no results.
    #[error("a weighted score needs at least one result (Law 12C1(c))")]
    NoResults,
    /// A weight that is not a positive number.
    #[error("weight {0} is not a positive proportion (Law 12C1(c))")]
    BadWeight(f64),
    /// Weights that do not add up to the whole.
    #[error("the weights sum to {0}, not 1 (Law 12C1(c))")]
    WeightsDoNotSumToOne(f64),
}

impl CitesLaw for RulingError {
    fn law(&self) -> Law {
        Law::duplicate(12, "C1(c)")
    }
}

/// Why the Club Appeals Committee's decision cannot be scored as the Laws describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AppealError {
    /// The pad has no such deal.
    #[error("no deal {} on this pad: {recorded} deals recorded (Club Appeals Committee)", index + 1)]
    NoSuchDeal {
        /// The index asked for.
        index: usize,
        /// How many deals the pad has.
        recorded: usize,
    },
    /// The recorded or the new result is a pass-out: the committee's rescoring is written for
    /// a contract fulfilled or defeated, and changing whether a deal was played at all is not
    /// covered.
    #[error(
        "deal {} was or becomes passed out: the Club Appeals Committee's rescoring covers contracts \
         fulfilled or defeated; the arbiter decides",
        index + 1
    )]
    PassedOut {
        /// The deal.
        index: usize,
    },
    /// The new result names the same denomination but other honors: honors stand unless the
    /// denomination changes (docs/laws-readings.md, "Appeals", rule 7).
    #[error("honors stand as recorded ({}) when the denomination is unchanged (Club Appeals Committee)", Claim(*.recorded))]
    HonorsStand {
        /// The honors recorded for the deal.
        recorded: Option<HonorsClaim>,
    },
    /// The new result's honors contradict the hands, which are known.
    #[error("the hands give {} at the new denomination (Law 81; Club Appeals Committee)", Claim(*.from_hands))]
    HonorsContradictHands {
        /// The honors the hands hold at the new denomination.
        from_hands: Option<HonorsClaim>,
    },
}

impl CitesLaw for AppealError {
    fn law(&self) -> Law {
        match self {
            AppealError::HonorsContradictHands { .. } => Law::rubber(81, ""),
            _ => Law::club_appeals(),
        }
    }
}

struct Claim(Option<HonorsClaim>);

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("no honors"),
            Some(c) => write!(f, "{} for {}", c.honors, c.side),
        }
    }
}

/// The honors of the new result (docs/laws-readings.md, "Appeals", rule 7): those recorded
/// when the denomination is unchanged; when it changes, those the hands hold at the new
/// denomination if the hands are known, else those the committee states.
fn settle_honors(old: &PlayedDeal, new: PlayedDeal, hands: Option<&Deal>) -> Result<PlayedDeal, AppealError> {
    let denomination = new.contract().denomination();
    if denomination == old.contract().denomination() {
        if new.honors() != old.honors() {
            return Err(AppealError::HonorsStand { recorded: old.honors() });
        }
        return Ok(new);
    }
    match hands {
        Some(deal) => {
            let from_hands = honors_claim(deal, denomination);
            if new.honors() != from_hands {
                return Err(AppealError::HonorsContradictHands { from_hands });
            }
            Ok(new)
        }
        None => Ok(new),
    }
}

fn both_played(index: usize, old: DealResult, new: DealResult) -> Result<(PlayedDeal, PlayedDeal), AppealError> {
    match (old, new) {
        (DealResult::Played(old), DealResult::Played(new)) => Ok((old, new)),
        _ => Err(AppealError::PassedOut { index }),
    }
}

/// Where the new trick points go: below the line only when they are exactly the trick points
/// recorded (same side, same contract, both made), so an unchanged game line keeps its
/// entries; otherwise above the line, because later games stand (docs/laws-readings.md,
/// "Appeals", rule 2).
fn trick_line(old: &PlayedDeal, old_made: bool, new: &PlayedDeal, new_made: bool) -> Line {
    if old_made && new_made && old.declarer() == new.declarer() && old.contract() == new.contract() {
        Line::Below
    } else {
        Line::Above
    }
}

impl Rubber {
    /// Rescores the deal at `index` after the Club Appeals Committee overruled the arbiter
    /// (Laws of Rubber Bridge, Part VIII, Club Appeals Committee; docs/laws-readings.md,
    /// "Appeals"):
    ///
    /// 1. Only this deal's scoring changes: games, later vulnerability, later deals and any
    ///    rubber bonus or Law 80 premium stand as recorded.
    /// 2. The deal's entries are struck and the new result scored with the vulnerability
    ///    recorded for the deal; its trick points go above the line (entries the new result
    ///    reproduces exactly stay as they were).
    /// 3. Premium A, a contract recorded as defeated now fulfilled: 100 to declarer's side if
    ///    its trick points with its score below the line before the deal stay under 100;
    ///    otherwise 300 not vulnerable, 400 vulnerable against not, 500 both vulnerable.
    /// 4. Premium B, a contract recorded as fulfilled that produced a game, now defeated: to
    ///    the defenders 100 if they alone had a partscore in that game, plus 500 if declarer's
    ///    side won the rubber two games to none, or 200 if the defenders won it two to one.
    ///    We apply it when the same side declares the defeated contract; a change of declaring
    ///    side is rescored without premium B (the Law does not say whose game it was).
    /// 5. Any other change: the rescoring alone.
    /// 6. Honors stand unless the denomination changes; then they follow `hands` if known.
    pub fn overrule(
        &self,
        index: usize,
        new_result: DealResult,
        hands: Option<&Deal>,
    ) -> Result<(Rubber, Changes), AppealError> {
        let Some(recorded) = self.deals.get(index).copied() else {
            return Err(AppealError::NoSuchDeal { index, recorded: self.deals.len() });
        };
        let (old, new) = both_played(index, recorded.result, new_result)?;
        let new = settle_honors(&old, new, hands)?;

        let vul = recorded.vulnerability;
        let declarer = new.declarer();
        let defenders = declarer.opponents();
        let old_made = old.score(vul.is_vulnerable(old.declarer())).is_made();
        let score = new.score(vul.is_vulnerable(declarer));
        let line = trick_line(&old, old_made, &new, score.is_made());

        let mut fresh = Vec::new();
        push_deal_entries(&mut fresh, index, recorded.game, &new, &score, line);
        let mut premium = |side, points, kind| {
            fresh.push(Entry {
                deal: Some(index),
                side,
                line: Line::Above,
                points,
                kind,
                game: recorded.game,
                struck: None,
            })
        };
        if !old_made && score.is_made() {
            let points = if recorded.below_before[declarer.index()] + score.trick_points < 100 {
                100
            } else {
                match (vul.is_vulnerable(declarer), vul.is_vulnerable(defenders)) {
                    (false, _) => 300,
                    (true, false) => 400,
                    (true, true) => 500,
                }
            };
            premium(declarer, points, EntryKind::AppealPremiumFulfilled);
        }
        if old_made && !score.is_made() && recorded.completed_game && old.declarer() == declarer {
            let [below_declarer, below_defenders] =
                [recorded.below_before[declarer.index()], recorded.below_before[defenders.index()]];
            if below_defenders > 0 && below_declarer == 0 {
                premium(defenders, 100, EntryKind::AppealPremiumDefeated);
            }
            if let RubberStatus::Won { winner, .. } = self.status() {
                if winner == declarer && self.games_won(defenders) == 0 {
                    premium(defenders, 500, EntryKind::AppealPremiumDefeated);
                } else if winner == defenders && self.games_won(declarer) == 1 {
                    premium(defenders, 200, EntryKind::AppealPremiumDefeated);
                }
            }
        }

        let mut rubber = self.clone();
        rubber.deals[index].result = DealResult::Played(new);
        let changes = rubber.replace_entries(
            |e| e.deal == Some(index) && e.kind.belongs_to_deal(),
            fresh,
            StrikeReason::Overruled { deal: index },
        );
        Ok((rubber, changes))
    }
}

impl Chicago {
    /// Rescores the deal at `index` of a Chicago pad after the Club Appeals Committee
    /// overruled the arbiter (docs/laws-readings.md, "Appeals", rule 6): only the deal's own
    /// score changes, with that deal's vulnerability and the partscores recorded before it;
    /// later deals stand. The new result's trick points go above the line, as in rubber
    /// bridge; it earns the game premium if with those partscores it would have made or
    /// completed a game, or the fourth-deal partscore premium (Appendix 4 D, F). The rubber
    /// premiums A and B have no Chicago counterpart and are not given. Honors as in
    /// [`Rubber::overrule`].
    pub fn overrule(
        &self,
        index: usize,
        new_result: DealResult,
        hands: Option<&Deal>,
    ) -> Result<(Chicago, Changes), AppealError> {
        let Some(recorded) = self.deals.get(index).copied() else {
            return Err(AppealError::NoSuchDeal { index, recorded: self.deals.len() });
        };
        let (old, new) = both_played(index, recorded.result, new_result)?;
        let new = settle_honors(&old, new, hands)?;
        let Some(number) = recorded.number else {
            return Err(AppealError::PassedOut { index });
        };
        let vul = recorded.vulnerability;
        let old_made = old.score(vul.is_vulnerable(old.declarer())).is_made();
        let new_made = new.score(vul.is_vulnerable(new.declarer())).is_made();
        let line = trick_line(&old, old_made, &new, new_made);

        let mut fresh = Vec::new();
        score_deal(&mut fresh, index, recorded.game, number, vul, recorded.below_before, &new, line);
        let mut chicago = self.clone();
        chicago.deals[index].result = DealResult::Played(new);
        let changes = crate::score::rubber::replace_entries(
            &mut chicago.entries,
            |e| e.deal == Some(index),
            fresh,
            StrikeReason::Overruled { deal: index },
        );
        Ok((chicago, changes))
    }
}
