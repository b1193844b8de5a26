//! Who may correct a recorded score, and until when: rubber Law 78 (and the Chicago diagram of
//! Appendix 4 E) for a scorepad, duplicate Law 79C for a board result. How the score is then
//! recomputed is [`crate::score::rubber::Rubber::correct`],
//! [`crate::score::chicago::Chicago::correct`] and [`crate::score::session::Session::set_score`].
//!
//! Rubber Law 78: "When it is acknowledged by a majority of the players that a scoring error was
//! made in recording an agreed-upon result (e.g., failure to enter honors or incorrect
//! computation of score), the error must be corrected if discovered before the net score of the
//! rubber has been agreed to. However, except with the consent of all four players, an
//! erroneous agreement as to the number of tricks won by each side may not be corrected after
//! all players have called on the next deal."
//!
//! Our readings (docs/laws-readings.md, "Corrections that do ripple"):
//! - a majority of the four players is three;
//! - a deal recorded after the corrected one means every player has called on the next deal
//!   (the next deal was played); with no later deal recorded, the next auction is taken as not
//!   yet begun, because the scorepad cannot know more;
//! - a Chicago diagram is corrected "upon discovery" (Appendix 4 E): no acknowledgement is
//!   needed, but like every correction it is closed by the agreement of the net score.

use crate::law::{CitesLaw, Law};

/// What a scorepad correction corrects (Law 78; Appendix 4 E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PadCorrection {
    /// An error in recording or computing an agreed result, such as honors left out (Law 78).
    ScoringError,
    /// An erroneous agreement on the number of tricks won (Law 78).
    TrickCount,
    /// A wrongly numbered or wrongly placed Chicago vulnerability diagram (Appendix 4 E).
    ChicagoDiagram,
}

/// The facts a Law 78 correction is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PadCorrectionFacts {
    /// What is corrected.
    pub kind: PadCorrection,
    /// How many different players of the table acknowledge the error (0 to 4).
    pub acknowledged_by: usize,
    /// Whether every player has called on the deal after the corrected one (in the scorepad's
    /// reading: a later deal was recorded).
    pub next_deal_called: bool,
    /// Whether the players have agreed the net score of the rubber.
    pub net_score_agreed: bool,
}

/// The players at a table (Law 78 counts its majority among the four).
pub const PLAYERS_AT_A_TABLE: usize = 4;

/// Why a scorepad correction is refused (Law 78; Appendix 4 E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PadCorrectionError {
    /// The net score was agreed: no correction after it (Law 78).
    #[error("the net score of the rubber has been agreed: no score can be corrected after that (Law 78)")]
    NetScoreAgreed,
    /// Fewer than three players acknowledge the error (Law 78: a majority of the players).
    #[error("{acknowledged} of the four players acknowledge the error; a correction needs a majority, three (Law 78)")]
    NoMajority {
        /// How many acknowledged it.
        acknowledged: usize,
    },
    /// A trick count corrected after the next deal was called needs all four (Law 78).
    #[error(
        "the trick count is corrected after every player has called on the next deal: all four players must \
         consent, and {acknowledged} do (Law 78)"
    )]
    TrickCountNeedsAllFour {
        /// How many consented.
        acknowledged: usize,
    },
}

impl CitesLaw for PadCorrectionError {
    fn law(&self) -> Law {
        Law::rubber(78, "")
    }
}

/// Whether a scorepad correction may be made (Law 78; Appendix 4 E): never once the net
/// score is agreed; a scoring error or trick count needs a majority of the players, and a
/// trick count after the next deal was called all four; a Chicago diagram is corrected upon
/// discovery.
pub const fn check_pad_correction(facts: PadCorrectionFacts) -> Result<(), PadCorrectionError> {
    if facts.net_score_agreed {
        return Err(PadCorrectionError::NetScoreAgreed);
    }
    let acknowledged = facts.acknowledged_by;
    match facts.kind {
        PadCorrection::ChicagoDiagram => Ok(()),
        PadCorrection::TrickCount if facts.next_deal_called && acknowledged < PLAYERS_AT_A_TABLE => {
            Err(PadCorrectionError::TrickCountNeedsAllFour { acknowledged })
        }
        PadCorrection::ScoringError | PadCorrection::TrickCount if acknowledged * 2 <= PLAYERS_AT_A_TABLE => {
            Err(PadCorrectionError::NoMajority { acknowledged })
        }
        PadCorrection::ScoringError | PadCorrection::TrickCount => Ok(()),
    }
}

/// Where a duplicate session stands against the Correction Period of Law 79C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CorrectionPeriod {
    /// The official score is not yet published: the period has not started.
    BeforePublication,
    /// Published, and the period (30 minutes unless the organiser sets otherwise) runs.
    Running,
    /// The period has expired.
    Expired,
}

/// Why a board result may not be corrected (duplicate Law 79C).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoardCorrectionError {
    /// After the Correction Period a correction needs the organiser's approval, given when the
    /// director is satisfied beyond reasonable doubt that the record is wrong (Law 79C2).
    #[error(
        "the correction period has expired: a score may be corrected only with the tournament organiser's \
         approval, the director being satisfied beyond reasonable doubt that the record is wrong (Law 79C2)"
    )]
    PeriodExpired,
}

impl CitesLaw for BoardCorrectionError {
    fn law(&self) -> Law {
        Law::duplicate(79, "C2")
    }
}

/// Whether a board result may be corrected (duplicate Law 79C): before publication and within
/// the Correction Period freely (79C1); after it only with the organiser's approval (79C2).
pub const fn check_board_correction(
    period: CorrectionPeriod,
    approved_after_period: bool,
) -> Result<(), BoardCorrectionError> {
    match (period, approved_after_period) {
        (CorrectionPeriod::Expired, false) => Err(BoardCorrectionError::PeriodExpired),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(kind: PadCorrection, acknowledged_by: usize, next_deal_called: bool) -> PadCorrectionFacts {
        PadCorrectionFacts { kind, acknowledged_by, next_deal_called, net_score_agreed: false }
    }

    #[test]
    fn law_78_a_scoring_error_acknowledged_by_a_majority_must_be_corrected() {
        // "An error in recording or computing an agreed-upon score must be corrected if it is
        // acknowledged by a majority of the players."
        assert_eq!(check_pad_correction(facts(PadCorrection::ScoringError, 3, true)), Ok(()));
        assert_eq!(
            check_pad_correction(facts(PadCorrection::ScoringError, 2, false)),
            Err(PadCorrectionError::NoMajority { acknowledged: 2 })
        );
    }

    #[test]
    fn law_78_a_trick_count_after_the_next_deal_was_called_needs_all_four() {
        // "... may be corrected only before all players have called on the next deal, except
        // with the consent of all four players."
        assert_eq!(check_pad_correction(facts(PadCorrection::TrickCount, 3, false)), Ok(()));
        assert_eq!(
            check_pad_correction(facts(PadCorrection::TrickCount, 3, true)),
            Err(PadCorrectionError::TrickCountNeedsAllFour { acknowledged: 3 })
        );
        assert_eq!(check_pad_correction(facts(PadCorrection::TrickCount, 4, true)), Ok(()));
        assert_eq!(check_pad_correction(facts(PadCorrection::TrickCount, 4, true)).err().map(|e| e.law()), None);
    }

    #[test]
    fn law_78_nothing_is_corrected_once_the_net_score_is_agreed() {
        // "... at any time before the net score of the rubber has been agreed to."
        for kind in [PadCorrection::ScoringError, PadCorrection::TrickCount, PadCorrection::ChicagoDiagram] {
            let agreed = PadCorrectionFacts { net_score_agreed: true, ..facts(kind, 4, false) };
            let error = check_pad_correction(agreed).unwrap_err();
            assert_eq!(error, PadCorrectionError::NetScoreAgreed);
            assert_eq!(error.law(), Law::rubber(78, ""));
        }
    }

    #[test]
    fn appendix_4_e_a_diagram_is_corrected_upon_discovery() {
        // "... the deal or deals should be scored or rescored as though the diagram had been
        // properly inserted": no acknowledgement is asked for.
        assert_eq!(check_pad_correction(facts(PadCorrection::ChicagoDiagram, 0, true)), Ok(()));
    }

    #[test]
    fn law_79c_corrections_within_the_period_and_after_it_with_approval() {
        // 79C1: within the Correction Period; 79C2: after it only with the organiser's approval.
        assert_eq!(check_board_correction(CorrectionPeriod::BeforePublication, false), Ok(()));
        assert_eq!(check_board_correction(CorrectionPeriod::Running, false), Ok(()));
        let late = check_board_correction(CorrectionPeriod::Expired, false).unwrap_err();
        assert_eq!(late, BoardCorrectionError::PeriodExpired);
        assert_eq!(late.law(), Law::duplicate(79, "C2"));
        assert_eq!(check_board_correction(CorrectionPeriod::Expired, true), Ok(()));
    }
}
