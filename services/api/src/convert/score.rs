//! Deal results as the score needs them: a [`pb::DealResult`] becomes a rubber or Chicago result
//! ([`laws::score::rubber::DealResult`]: declarer's side, contract, tricks, honors) or a duplicate
//! board result ([`laws::score::duplicate::BoardResult`]: declarer's seat, contract, tricks).
//!
//! ```
//! use api::common::v1 as pb;
//! use api::convert::score::{board_result, rubber_result};
//! use laws::{Contract, DeclaredContract, Seat};
//! use laws::score::Tricks;
//! use laws::score::duplicate::BoardResult;
//!
//! let four_spades = DeclaredContract { contract: "4S".parse().unwrap(), declarer: Seat::South };
//! let made = BoardResult::Played { contract: four_spades, tricks: Tricks::new(10).unwrap() };
//! let wire = pb::DealResult::from(made);
//! assert_eq!(board_result(&wire), Ok(made));
//!
//! // Thirteen tricks is the most a deal has (Law 8); the error names the field.
//! let mut fourteen = wire.clone();
//! if let Some(pb::deal_result::Outcome::Played(played)) = fourteen.outcome.as_mut() {
//!     played.tricks = 14;
//! }
//! let error = rubber_result(&fourteen).unwrap_err().within("result");
//! assert_eq!(error.to_string(), "result.played.tricks: 14 tricks: a deal has only 13 tricks (Law 8)");
//! ```

use laws::score::Tricks;
use laws::score::duplicate::BoardResult;
use laws::score::honors::{Honors, HonorsClaim};
use laws::score::rubber::{DealResult, PlayedDeal};
use laws::{DeclaredContract, Side};

use super::{ConversionError, Problem, ProtoEnum, required};
use crate::common::v1 as pb;

/// Tricks won by declarer's side, 0 to 13 (Law 8), from the field `field`.
pub fn tricks(field: &str, won: u32) -> Result<Tricks, ConversionError> {
    let won = u8::try_from(won).unwrap_or(u8::MAX);
    Tricks::new(won).map_err(|error| ConversionError::new(field, Problem::Score(error)))
}

/// The contract and tricks of a played result.
fn played(played: &pb::PlayedContract) -> Result<(DeclaredContract, Tricks), ConversionError> {
    let contract =
        DeclaredContract::try_from(required("contract", played.contract)?).map_err(|e| e.within("contract"))?;
    Ok((contract, tricks("tricks", played.tricks)?))
}

/// The honors held (Law 81): one hand at most holds them, so at most one entry.
fn honors(result: &pb::DealResult) -> Result<Option<HonorsClaim>, ConversionError> {
    match result.honors.as_slice() {
        [] => Ok(None),
        [one] => {
            let side = Side::from_proto("honors[0].side", one.side)?;
            let honors = match pb::HonorsKind::try_from(one.kind) {
                Ok(pb::HonorsKind::FourTrumpHonors) => Honors::FourTrumpHonors,
                Ok(pb::HonorsKind::FiveTrumpHonors) => Honors::FiveTrumpHonors,
                Ok(pb::HonorsKind::FourAcesAtNoTrump) => Honors::FourAces,
                Ok(pb::HonorsKind::Unspecified) => {
                    return Err(ConversionError::new(
                        "honors[0].kind",
                        Problem::Unspecified { expected: "which honors" },
                    ));
                }
                Err(_) => return Err(ConversionError::new("honors[0].kind", Problem::UnknownValue(one.kind))),
            };
            Ok(Some(HonorsClaim { side, honors }))
        }
        [_, _, ..] => Err(ConversionError::new(
            "honors",
            Problem::Invalid(
                "more than one honors claim: only one hand can hold four of the five trump honors or the four aces (Law 81)",
            ),
        )),
    }
}

/// A rubber or Chicago result (Laws 72-81): declarer's side, the contract, the tricks and any
/// honors, which must exist at the contract's denomination; a passed-out deal has no honors
/// (Law 22A: there is no contract).
pub fn rubber_result(result: &pb::DealResult) -> Result<DealResult, ConversionError> {
    match required("outcome", result.outcome.as_ref())? {
        pb::deal_result::Outcome::PassedOut(_) => {
            if !result.honors.is_empty() {
                return Err(ConversionError::new(
                    "honors",
                    Problem::Invalid("honors on a passed-out deal: only a played deal scores honors (Law 81)"),
                ));
            }
            Ok(DealResult::PassedOut)
        }
        pb::deal_result::Outcome::Played(p) => {
            let (contract, tricks) = played(p).map_err(|e| e.within("played"))?;
            let honors = honors(result)?;
            PlayedDeal::new(contract.declaring_side(), contract.contract, tricks, honors)
                .map(DealResult::Played)
                .map_err(|error| ConversionError::new("honors[0]", Problem::Score(error)))
        }
    }
}

/// A duplicate board result (Law 77): the declared contract and tricks, or a pass-out. Honors
/// are not scored in duplicate (Law 77) and are ignored.
pub fn board_result(result: &pb::DealResult) -> Result<BoardResult, ConversionError> {
    match required("outcome", result.outcome.as_ref())? {
        pb::deal_result::Outcome::PassedOut(_) => Ok(BoardResult::PassedOut),
        pb::deal_result::Outcome::Played(p) => {
            let (contract, tricks) = played(p).map_err(|e| e.within("played"))?;
            Ok(BoardResult::Played { contract, tricks })
        }
    }
}

impl From<BoardResult> for pb::DealResult {
    fn from(result: BoardResult) -> pb::DealResult {
        let outcome = match result {
            BoardResult::PassedOut => pb::deal_result::Outcome::PassedOut(pb::PassedOut {}),
            BoardResult::Played { contract, tricks } => pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(contract.into()),
                tricks: u32::from(tricks.get()),
            }),
        };
        pb::DealResult { outcome: Some(outcome), honors: Vec::new() }
    }
}

impl From<HonorsClaim> for pb::Honors {
    fn from(claim: HonorsClaim) -> pb::Honors {
        let kind = match claim.honors {
            Honors::FourTrumpHonors => pb::HonorsKind::FourTrumpHonors,
            Honors::FiveTrumpHonors => pb::HonorsKind::FiveTrumpHonors,
            Honors::FourAces => pb::HonorsKind::FourAcesAtNoTrump,
        };
        pb::Honors { side: claim.side.to_proto(), kind: kind as i32 }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A test that unwraps fails loudly, which is what a test should do.
mod tests {
    use super::*;
    use laws::{CitesLaw, Contract, Law, Seat};

    fn wire(contract: &str, declarer: Seat, tricks: u32, honors: Vec<pb::Honors>) -> pb::DealResult {
        let contract: Contract = contract.parse().unwrap();
        pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(DeclaredContract { contract, declarer }.into()),
                tricks,
            })),
            honors,
        }
    }

    fn honors(side: pb::Side, kind: pb::HonorsKind) -> pb::Honors {
        pb::Honors { side: side as i32, kind: kind as i32 }
    }

    #[test]
    fn law_81_honors_travel_with_the_side_holding_them() {
        let result = wire("4H", Seat::East, 10, vec![honors(pb::Side::NorthSouth, pb::HonorsKind::FourTrumpHonors)]);
        let DealResult::Played(played) = rubber_result(&result).unwrap() else { panic!("played") };
        assert_eq!(played.declarer(), Side::EastWest);
        let claim = played.honors().unwrap();
        assert_eq!((claim.side, claim.honors, claim.points()), (Side::NorthSouth, Honors::FourTrumpHonors, 100));
        assert_eq!(pb::Honors::from(claim), result.honors[0]);
    }

    #[test]
    fn law_81_four_aces_count_only_at_notrump_and_the_error_cites_it() {
        let result = wire("4H", Seat::East, 10, vec![honors(pb::Side::EastWest, pb::HonorsKind::FourAcesAtNoTrump)]);
        let error = rubber_result(&result).unwrap_err();
        assert_eq!(error.field(), "honors[0]");
        assert_eq!(error.law(), Some(Law::rubber(81, "")));
        let two = wire(
            "3NT",
            Seat::North,
            9,
            vec![
                honors(pb::Side::EastWest, pb::HonorsKind::FourAcesAtNoTrump),
                honors(pb::Side::NorthSouth, pb::HonorsKind::FourAcesAtNoTrump),
            ],
        );
        assert_eq!(rubber_result(&two).unwrap_err().field(), "honors");
    }

    #[test]
    fn law_8_thirteen_tricks_at_most() {
        let error = board_result(&wire("7NT", Seat::North, 14, vec![])).unwrap_err();
        assert_eq!(error.field(), "played.tricks");
        assert_eq!(error.law(), laws::score::Tricks::new(14).err().map(|e| e.law()));
        assert!(rubber_result(&wire("7NT", Seat::North, 13, vec![])).is_ok());
    }

    #[test]
    fn law_22a_a_passed_out_deal_has_no_honors_and_scores_zero() {
        let mut passed =
            pb::DealResult { outcome: Some(pb::deal_result::Outcome::PassedOut(pb::PassedOut {})), honors: Vec::new() };
        assert_eq!(rubber_result(&passed), Ok(DealResult::PassedOut));
        assert_eq!(board_result(&passed), Ok(BoardResult::PassedOut));
        assert_eq!(pb::DealResult::from(BoardResult::PassedOut), passed);
        passed.honors.push(honors(pb::Side::EastWest, pb::HonorsKind::FourTrumpHonors));
        assert_eq!(rubber_result(&passed).unwrap_err().field(), "honors");
        assert_eq!(rubber_result(&pb::DealResult::default()).unwrap_err().field(), "outcome");
    }

    #[test]
    fn board_results_round_trip_and_duplicate_ignores_honors() {
        let result = wire("6NTXX", Seat::West, 12, vec![honors(pb::Side::EastWest, pb::HonorsKind::FourAcesAtNoTrump)]);
        let board = board_result(&result).unwrap();
        let back = pb::DealResult::from(board);
        assert!(back.honors.is_empty());
        assert_eq!(board_result(&back), Ok(board));
        assert_eq!(back.outcome, result.outcome);
    }
}
