//! The stateless calculators: one duplicate contract (Law 77), a whole rubber or Chicago
//! (Laws 72-81, Law 80; Appendix 4), IMPs for a difference (Law 78B), matchpoints for the
//! scores of a board (Law 78A). Every number comes from the laws crate; nothing is stored.

use api::common::v1 as pb;
use api::convert::score::tricks;
use api::convert::{ProtoEnum, required};
use api::scoring::v1 as spb;
use laws::score::duplicate::{DuplicateScore, MadeBonus};
use laws::score::imps::imps;
use laws::score::matchpoints::{matchpoints, percentage, top};
use laws::{Contract, Seat, Vulnerability};
use platform::ServiceError;
use platform::error::Invalid;

use crate::pad::{Header, Operation, Pad};

/// The duplicate score of one contract, item by item (Law 77).
pub fn score_duplicate_contract(
    request: &spb::ScoreDuplicateContractRequest,
) -> Result<spb::ScoreDuplicateContractResponse, ServiceError> {
    let contract = Contract::try_from(required("contract", request.contract)?).map_err(|e| e.within("contract"))?;
    let declarer = Seat::from_proto("declarer", request.declarer)?;
    let vulnerability = Vulnerability::from_proto("vulnerability", request.vulnerability)?;
    let tricks = tricks("tricks", request.tricks)?;
    let score = DuplicateScore::of(contract, vulnerability.is_vulnerable(declarer.side()), tricks);
    let items = &score.items;
    let mut components = Vec::new();
    let mut push = |item: spb::ScoreItem, points: i64| {
        if points != 0 {
            components.push(spb::ScoreComponent { item: item as i32, points: points as i32 });
        }
    };
    push(spb::ScoreItem::TrickPoints, i64::from(items.trick_points));
    push(spb::ScoreItem::Overtricks, i64::from(items.overtricks));
    push(spb::ScoreItem::MadeDoubled, i64::from(items.insult));
    push(spb::ScoreItem::Slam, i64::from(items.slam));
    match score.bonus {
        Some(MadeBonus::Game) => push(spb::ScoreItem::GameBonus, i64::from(score.bonus_points)),
        Some(MadeBonus::Partscore) => push(spb::ScoreItem::PartscoreBonus, i64::from(score.bonus_points)),
        None => {}
    }
    push(spb::ScoreItem::Undertricks, -i64::from(items.undertricks));
    let total = score.total();
    let north_south = if declarer.side() == laws::Side::NorthSouth { total } else { -total };
    Ok(spb::ScoreDuplicateContractResponse { declarer_score: total, north_south_score: north_south, components })
}

/// A rubber or Chicago scored from its deal results, as a pad that is not stored (Laws 72-81;
/// Law 80 or Appendix 4 B when `end_unfinished` and the deals do not finish it).
pub fn score_rubber(request: &spb::ScoreRubberRequest) -> Result<spb::ScoreRubberResponse, ServiceError> {
    let kind = pb::TableKind::try_from(request.kind)
        .ok()
        .filter(|k| matches!(k, pb::TableKind::Rubber | pb::TableKind::Chicago))
        .ok_or_else(|| ServiceError::invalid("kind", "rubber or Chicago is required"))?;
    let first_dealer = match request.first_dealer {
        0 => None,
        raw => Some(Seat::from_proto("first_dealer", raw)?),
    };
    let header = Header {
        scorepad_id: String::new(),
        kind,
        table_id: String::new(),
        rubber_id: String::new(),
        players: Vec::new(),
        first_dealer,
        options: request.options.unwrap_or_default(),
        created_at: None,
    };
    let mut pad = Pad::new(header)?;
    for (i, result) in request.deals.iter().enumerate() {
        let deal_id = (i + 1).to_string();
        let operation = Operation::Record {
            deal_id: deal_id.clone(),
            result: result.clone(),
            hands: None,
            source: spb::ResultSource::Desk,
        };
        pad.apply(&operation, calculator_version(&pad, spb::ScoreVersionCause::ResultRecorded, &deal_id))
            .map_err(|e| within(e, &format!("deals[{i}]")))?;
    }
    if request.end_unfinished && !pad.is_over() {
        pad.apply(&Operation::End, calculator_version(&pad, spb::ScoreVersionCause::RubberEnded, ""))?;
    }
    Ok(spb::ScoreRubberResponse { scorepad: Some(pad.to_proto()) })
}

/// The version a calculator's pad records for each step (nothing is stored).
fn calculator_version(pad: &Pad, cause: spb::ScoreVersionCause, deal_id: &str) -> spb::ScoreVersion {
    spb::ScoreVersion {
        version: pad.version() + 1,
        target: (!deal_id.is_empty()).then(|| pb::ScoreTarget {
            target: Some(pb::score_target::Target::ScorepadDeal(pb::ScorepadDeal {
                scorepad_id: String::new(),
                deal_id: deal_id.to_owned(),
            })),
        }),
        cause: cause as i32,
        ..Default::default()
    }
}

/// An error about one deal of the request, naming it: the pad names the deal's result
/// `result`, which here is the request's `deals[i]`.
fn within(error: ServiceError, field: &str) -> ServiceError {
    match error {
        ServiceError::InvalidArgument(invalid) => match invalid.field.as_deref().and_then(|f| f.strip_prefix("result"))
        {
            Some(rest) => ServiceError::InvalidArgument(Invalid { field: Some(format!("{field}{rest}")), ..invalid }),
            None => ServiceError::invalid(field, invalid),
        },
        ServiceError::Rule { message, law } => ServiceError::Rule { message: format!("{field}: {message}"), law },
        other => other,
    }
}

/// The IMPs for a difference (Law 78B).
pub fn convert_to_imps(request: &spb::ConvertToImpsRequest) -> spb::ConvertToImpsResponse {
    spb::ConvertToImpsResponse { imps: imps(request.difference) }
}

/// Matchpoints and percentages for the scores of one board in one direction (Law 78A).
pub fn matchpoint_scores(
    request: &spb::MatchpointScoresRequest,
) -> Result<spb::MatchpointScoresResponse, ServiceError> {
    if request.scores.is_empty() {
        return Err(ServiceError::invalid("scores", "empty; at least one score is required"));
    }
    let n = request.scores.len();
    let units = matchpoints(&request.scores);
    Ok(spb::MatchpointScoresResponse {
        matchpoints: units.iter().map(|u| pb::Matchpoints { hundredths: i64::from(*u) * 100 }).collect(),
        percentages: units
            .iter()
            .map(|u| pb::Percentage { basis_points: (percentage(f64::from(*u), n) * 100.0).round() as i32 })
            .collect(),
        top: Some(pb::Matchpoints { hundredths: i64::from(top(n)) * 100 }),
    })
}
