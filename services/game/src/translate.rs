//! Requests into the laws' terms: a stored command becomes a [`laws::table::Action`], a stored
//! start a [`laws::table::Setup`]. The same translation runs when a command arrives and when the
//! journal is replayed, so a replay applies exactly what was accepted. Ids of a deal's records
//! are the deal's id with a letter and the record's number (`<deal>/d2` is decision 2).

use api::common::v1 as pb;
use api::convert::{ProtoEnum, required};
use api::game::v1 as game;
use laws::irregularities::play::{Designation, Suits};
use laws::play::{StatedLine, TrumpIntent};
use laws::score::honors::{Honors, HonorsClaim};
use laws::table::{Action, Actor, DealResult, Fact, FactKind, Hands, Mode, Setup};
use laws::{Call, Card, Code, Deal, DealSeed, DeclaredContract, Rank, Seat, Side, Suit, SuitSet, Vulnerability};
use platform::ServiceError;

use crate::stored::stored_action::Command;
use crate::stored::{StoredAction, StoredStart};

/// The kinds of record a deal numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// An irregularity.
    Irregularity,
    /// A rectification decision.
    Decision,
    /// A call for the arbiter.
    ArbiterCall,
    /// A claim or concession.
    Claim,
}

impl Record {
    fn letter(self) -> char {
        match self {
            Record::Irregularity => 'i',
            Record::Decision => 'd',
            Record::ArbiterCall => 'a',
            Record::Claim => 'c',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Record::Irregularity => "irregularity",
            Record::Decision => "rectification decision",
            Record::ArbiterCall => "arbiter call",
            Record::Claim => "claim",
        }
    }
}

/// The id of record `number` of `deal`.
pub fn record_id(deal: &str, record: Record, number: u32) -> String {
    format!("{deal}/{}{number}", record.letter())
}

/// The number of the record `id` names in `deal`.
pub fn record_number(deal: &str, record: Record, field: &str, id: &str) -> Result<u32, ServiceError> {
    if id.is_empty() {
        return Err(ServiceError::invalid(field, format!("missing; the {} id is required", record.name())));
    }
    let number = id
        .strip_prefix(deal)
        .and_then(|rest| rest.strip_prefix('/'))
        .and_then(|rest| rest.strip_prefix(record.letter()))
        .and_then(|n| n.parse::<u32>().ok());
    number.ok_or_else(|| {
        ServiceError::NotFound(format!("{field}: no {} {id} in the deal at this table (deal {deal})", record.name()))
    })
}

/// The code of Laws a setup plays under: rubber bridge (and Chicago) or, with the Alternative
/// Club Laws in force, the Club code; duplicate boards the duplicate Laws.
pub fn code_of(setup: &game::DealSetup) -> Code {
    match &setup.source {
        Some(game::deal_setup::Source::Rubber(rubber)) if rubber.club_laws => Code::Club,
        Some(game::deal_setup::Source::Board(_)) => Code::Duplicate,
        _ => Code::Rubber,
    }
}

/// The players of a setup by seat (North, East, South, West).
pub fn players(setup: &game::DealSetup) -> [String; 4] {
    let mut out: [String; 4] = Default::default();
    for player in &setup.players {
        if let Ok(seat) = Seat::from_proto("seat", player.seat) {
            out[seat.index()] = player.player_id.clone();
        }
    }
    out
}

/// The laws' setup of a stored start.
pub fn setup(start: &StoredStart) -> Result<Setup, ServiceError> {
    let proto = required("setup", start.setup.clone())?;
    let mode = match game::PlayMode::try_from(proto.mode) {
        Ok(game::PlayMode::Digital) => Mode::Digital,
        Ok(game::PlayMode::Recorded) => Mode::Recorded,
        _ => return Err(ServiceError::invalid("setup.mode", "digital or recorded is required")),
    };
    let hands = if start.seed.len() == 32 {
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&start.seed);
        Hands::Seeded(DealSeed(seed))
    } else if let Some(deal) = start.deal.clone() {
        Hands::Entered(Deal::try_from(deal).map_err(|e| e.within("deal"))?)
    } else {
        Hands::Unknown
    };
    Ok(Setup {
        code: code_of(&proto),
        mode,
        dealer: Seat::from_proto("setup.dealer", proto.dealer)?,
        vulnerability: Vulnerability::from_proto("setup.vulnerability", proto.vulnerability)?,
        hands,
        result_only: proto.result_only,
    })
}

fn seat(field: &str, raw: i32) -> Result<Seat, ServiceError> {
    Ok(Seat::from_proto(field, raw)?)
}

fn optional_seat(field: &str, raw: i32) -> Result<Option<Seat>, ServiceError> {
    if raw == pb::Seat::Unspecified as i32 { Ok(None) } else { seat(field, raw).map(Some) }
}

fn call(field: &str, call: Option<pb::Call>) -> Result<Call, ServiceError> {
    Ok(Call::try_from(required(field, call)?).map_err(|e| e.within(field))?)
}

/// What an artificial call relates to (rubber Law 26A; duplicate Laws 26B, 27B1(a)); `None`
/// for a natural call.
fn artificial(field: &str, meaning: Option<game::ArtificialMeaning>) -> Result<Option<SuitSet>, ServiceError> {
    let Some(meaning) = meaning else { return Ok(None) };
    let mut suits = SuitSet::EMPTY;
    for (i, raw) in meaning.suits.into_iter().enumerate() {
        suits.insert(Suit::from_proto(&format!("{field}.suits[{i}]"), raw)?);
    }
    Ok(Some(suits))
}

/// An artificial call's meaning as the contract has it.
pub fn artificial_proto(relates_to: Option<SuitSet>) -> Option<game::ArtificialMeaning> {
    relates_to.map(|suits| game::ArtificialMeaning { suits: suits.iter().map(|s| pb::Suit::from(s) as i32).collect() })
}

fn card(field: &str, card: Option<pb::Card>) -> Result<Card, ServiceError> {
    Ok(Card::try_from(required(field, card)?).map_err(|e| e.within(field))?)
}

fn tricks(field: &str, tricks: u32) -> Result<u8, ServiceError> {
    u8::try_from(tricks)
        .ok()
        .filter(|t| *t <= 13)
        .ok_or_else(|| ServiceError::invalid(field, format!("{tricks} tricks: a deal has thirteen")))
}

/// The laws' kind of an irregularity the contract names.
pub fn fact_kind(field: &str, raw: i32) -> Result<FactKind, ServiceError> {
    use game::IrregularityKind as K;
    Ok(match K::try_from(raw) {
        Ok(K::ExposedCardDuringAuction) => FactKind::ExposedCardDuringAuction,
        Ok(K::ChangeOfCall) => FactKind::ChangeOfCall,
        Ok(K::InsufficientBid) => FactKind::InsufficientBid,
        Ok(K::CallOutOfRotation) => FactKind::CallOutOfRotation,
        Ok(K::SimultaneousCalls) => FactKind::SimultaneousCalls,
        Ok(K::InadmissibleCall) => FactKind::InadmissibleCall,
        Ok(K::OpeningLeadOutOfTurn) => FactKind::OpeningLeadOutOfTurn,
        Ok(K::LeadOutOfTurn) => FactKind::LeadOutOfTurn,
        Ok(K::PrematurePlay) => FactKind::PrematurePlay,
        Ok(K::ExposedCard) => FactKind::ExposedCard,
        Ok(K::DeclarerExposedCard) => FactKind::DeclarerExposedCard,
        Ok(K::Revoke) => FactKind::Revoke,
        Ok(K::DefectiveTrick) => FactKind::DefectiveTrick,
        Ok(K::UnauthorizedInformation) => FactKind::UnauthorizedInformation,
        Ok(K::Misinformation) => FactKind::Misinformation,
        Ok(K::DummyIrregularity) => FactKind::DummyIrregularity,
        Ok(K::Other) => FactKind::Other,
        Ok(K::ChangeOfDesignation) => FactKind::ChangeOfDesignation,
        Ok(K::UndesignatedDummyCard) => FactKind::UndesignatedDummyCard,
        Ok(K::IncompleteDesignation) => FactKind::IncompleteDesignation,
        Ok(K::MisinformedOfTurn) => FactKind::MisinformedOfTurn,
        Ok(K::RetractionAfterMisexplanation) => FactKind::RetractionAfterMisexplanation,
        Ok(K::SimultaneousCards) => FactKind::SimultaneousCards,
        Ok(K::OpeningLeadRetractedBeforeDummyFaced) => FactKind::OpeningLeadRetractedBeforeDummyFaced,
        Ok(K::UnnoticedInadmissibleCall) => FactKind::UnnoticedInadmissibleCall,
        Ok(K::AttentionToUnnoticedCall) => FactKind::AttentionToUnnoticedCall,
        Ok(K::ExtraCardToTrick) => FactKind::ExtraCardToTrick,
        Ok(K::CallChangedAfterMisinformation) => FactKind::CallChangedAfterMisinformation,
        Ok(K::DeclarerSawDummy) => FactKind::DeclarerSawDummy,
        Ok(K::DeclarerBeganToSpread) => FactKind::DeclarerBeganToSpread,
        Ok(K::CurrentTrickStatement) => FactKind::CurrentTrickStatement,
        Ok(K::SurplusCard) => FactKind::SurplusCard,
        Ok(K::FaceDownLeadReturned) => FactKind::FaceDownLeadReturned,
        Ok(K::Unspecified) => {
            return Err(ServiceError::invalid(field, "not given; the kind of irregularity is required"));
        }
        Err(_) => return Err(ServiceError::invalid(field, format!("unknown value {raw}"))),
    })
}

/// The contract's kind of an irregularity the laws name.
pub fn fact_kind_proto(kind: FactKind) -> game::IrregularityKind {
    use game::IrregularityKind as K;
    match kind {
        FactKind::ExposedCardDuringAuction => K::ExposedCardDuringAuction,
        FactKind::ChangeOfCall => K::ChangeOfCall,
        FactKind::InsufficientBid => K::InsufficientBid,
        FactKind::CallOutOfRotation => K::CallOutOfRotation,
        FactKind::SimultaneousCalls => K::SimultaneousCalls,
        FactKind::InadmissibleCall => K::InadmissibleCall,
        FactKind::OpeningLeadOutOfTurn => K::OpeningLeadOutOfTurn,
        FactKind::LeadOutOfTurn => K::LeadOutOfTurn,
        FactKind::PrematurePlay => K::PrematurePlay,
        FactKind::ExposedCard => K::ExposedCard,
        FactKind::DeclarerExposedCard => K::DeclarerExposedCard,
        FactKind::Revoke => K::Revoke,
        FactKind::DefectiveTrick => K::DefectiveTrick,
        FactKind::UnauthorizedInformation => K::UnauthorizedInformation,
        FactKind::Misinformation => K::Misinformation,
        FactKind::DummyIrregularity => K::DummyIrregularity,
        FactKind::Other => K::Other,
        FactKind::ChangeOfDesignation => K::ChangeOfDesignation,
        FactKind::UndesignatedDummyCard => K::UndesignatedDummyCard,
        FactKind::IncompleteDesignation => K::IncompleteDesignation,
        FactKind::MisinformedOfTurn => K::MisinformedOfTurn,
        FactKind::RetractionAfterMisexplanation => K::RetractionAfterMisexplanation,
        FactKind::SimultaneousCards => K::SimultaneousCards,
        FactKind::OpeningLeadRetractedBeforeDummyFaced => K::OpeningLeadRetractedBeforeDummyFaced,
        FactKind::UnnoticedInadmissibleCall => K::UnnoticedInadmissibleCall,
        FactKind::AttentionToUnnoticedCall => K::AttentionToUnnoticedCall,
        FactKind::ExtraCardToTrick => K::ExtraCardToTrick,
        FactKind::CallChangedAfterMisinformation => K::CallChangedAfterMisinformation,
        FactKind::DeclarerSawDummy => K::DeclarerSawDummy,
        FactKind::DeclarerBeganToSpread => K::DeclarerBeganToSpread,
        FactKind::CurrentTrickStatement => K::CurrentTrickStatement,
        FactKind::SurplusCard => K::SurplusCard,
        FactKind::FaceDownLeadReturned => K::FaceDownLeadReturned,
    }
}

/// The laws' designation of a card from dummy the contract gives (Law 46).
pub fn designation(field: &str, designation: game::CardDesignation) -> Result<Designation, ServiceError> {
    use game::DesignationKind as K;
    Ok(match K::try_from(designation.kind) {
        Ok(K::High) => Designation::High,
        Ok(K::Win) => Designation::Win,
        Ok(K::Low) => Designation::Low,
        Ok(K::Suit) => Designation::Suit(Suit::from_proto(&format!("{field}.suit"), designation.suit)?),
        Ok(K::Rank) => Designation::Rank(Rank::from_proto(&format!("{field}.rank"), designation.rank)?),
        Ok(K::Card) => Designation::Card(card(&format!("{field}.card"), designation.card)?),
        Ok(K::Anything) => Designation::Anything,
        Ok(K::Unspecified) => {
            return Err(ServiceError::invalid(&format!("{field}.kind"), "not given; the form of the call is required"));
        }
        Err(_) => {
            return Err(ServiceError::invalid(&format!("{field}.kind"), format!("unknown value {}", designation.kind)));
        }
    })
}

/// The contract's designation of a card from dummy the laws give.
pub fn designation_proto(designation: Designation) -> game::CardDesignation {
    use game::DesignationKind as K;
    let mut proto = game::CardDesignation::default();
    let kind = match designation {
        Designation::High => K::High,
        Designation::Win => K::Win,
        Designation::Low => K::Low,
        Designation::Suit(suit) => {
            proto.suit = suit.to_proto();
            K::Suit
        }
        Designation::Rank(rank) => {
            proto.rank = rank.to_proto();
            K::Rank
        }
        Designation::Card(card) => {
            proto.card = Some(card.into());
            K::Card
        }
        Designation::Anything => K::Anything,
    };
    proto.kind = kind as i32;
    proto
}

/// The laws' result of a contract `DealResult` (what the desk enters).
pub fn deal_result(field: &str, result: pb::DealResult) -> Result<(DealResult, Vec<HonorsClaim>), ServiceError> {
    let outcome = match required(&format!("{field}.outcome"), result.outcome)? {
        pb::deal_result::Outcome::PassedOut(_) => DealResult::PassedOut,
        pb::deal_result::Outcome::Played(played) => {
            let inner = format!("{field}.played");
            let contract = DeclaredContract::try_from(required(&format!("{inner}.contract"), played.contract)?)
                .map_err(|e| e.within(&format!("{inner}.contract")))?;
            DealResult::Played { contract, tricks: tricks(&format!("{inner}.tricks"), played.tricks)? }
        }
    };
    let mut honors = Vec::with_capacity(result.honors.len());
    for (i, claim) in result.honors.into_iter().enumerate() {
        let at = format!("{field}.honors[{i}]");
        let side = Side::from_proto(&format!("{at}.side"), claim.side)?;
        let held = match pb::HonorsKind::try_from(claim.kind) {
            Ok(pb::HonorsKind::FourTrumpHonors) => Honors::FourTrumpHonors,
            Ok(pb::HonorsKind::FiveTrumpHonors) => Honors::FiveTrumpHonors,
            Ok(pb::HonorsKind::FourAcesAtNoTrump) => Honors::FourAces,
            _ => return Err(ServiceError::invalid(&format!("{at}.kind"), "four or five trump honors, or four aces")),
        };
        honors.push(HonorsClaim { side, honors: held });
    }
    Ok((outcome, honors))
}

/// The contract's honors of the laws'.
pub fn honors_proto(claim: &HonorsClaim) -> pb::Honors {
    let kind = match claim.honors {
        Honors::FourTrumpHonors => pb::HonorsKind::FourTrumpHonors,
        Honors::FiveTrumpHonors => pb::HonorsKind::FiveTrumpHonors,
        Honors::FourAces => pb::HonorsKind::FourAcesAtNoTrump,
    };
    pb::Honors { side: claim.side.to_proto(), kind: kind as i32 }
}

/// A claimer's statement as data (rubber Law 69, 70B): every card and suit must be one.
fn stated_line(field: &str, line: &game::StatedLine) -> Result<StatedLine, ServiceError> {
    let suit =
        |name: &str, i: usize, raw: i32| Ok::<_, ServiceError>(Suit::from_proto(&format!("{field}.{name}[{i}]"), raw)?);
    Ok(StatedLine {
        cards: line
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| card(&format!("{field}.cards[{i}]"), Some(*c)))
            .collect::<Result<_, _>>()?,
        suits: line.suits.iter().enumerate().map(|(i, raw)| suit("suits", i, *raw)).collect::<Result<_, _>>()?,
        trumps: match game::TrumpIntent::try_from(line.trumps) {
            Ok(game::TrumpIntent::Unspecified) => TrumpIntent::Unstated,
            Ok(game::TrumpIntent::Draw) => TrumpIntent::Draw,
            Ok(game::TrumpIntent::NotDraw) => TrumpIntent::Leave,
            Err(_) => {
                return Err(ServiceError::invalid(
                    &format!("{field}.trumps"),
                    format!("{} is not a trump intent", line.trumps),
                ));
            }
        },
        finesses: line
            .finesses
            .iter()
            .enumerate()
            .map(|(i, raw)| suit("finesses", i, *raw))
            .collect::<Result<Suits, _>>()?,
    })
}

/// A claimer's statement as data, as the contract has it.
pub fn stated_line_proto(line: &StatedLine) -> game::StatedLine {
    game::StatedLine {
        cards: line.cards.iter().map(|c| pb::Card::from(*c)).collect(),
        suits: line.suits.iter().map(|s| pb::Suit::from(*s) as i32).collect(),
        trumps: match line.trumps {
            TrumpIntent::Unstated => game::TrumpIntent::Unspecified,
            TrumpIntent::Draw => game::TrumpIntent::Draw,
            TrumpIntent::Leave => game::TrumpIntent::NotDraw,
        } as i32,
        finesses: line.finesses.iter().map(|s| pb::Suit::from(s) as i32).collect(),
    }
}

/// The laws' action of a stored command (not a start).
pub fn action(stored: &StoredAction) -> Result<Action, ServiceError> {
    let deal = stored.deal_id.as_str();
    let command = stored.command.as_ref().ok_or_else(|| ServiceError::internal("a stored action without a command"))?;
    Ok(match command {
        Command::Start(_) => return Err(ServiceError::internal("a deal's start is not an action on it")),
        Command::Call(request) => Action::Call {
            seat: seat("seat", request.seat)?,
            call: call("call", request.call)?,
            relates_to: artificial("artificial", request.artificial.clone())?,
        },
        Command::Play(request) if request.face_down => {
            Action::FaceDownLead { seat: seat("seat", request.seat)?, card: card("card", request.card)? }
        }
        Command::Play(request) => Action::Play { seat: seat("seat", request.seat)?, card: card("card", request.card)? },
        Command::Irregularity(request) => {
            let fact = required("fact", request.fact.clone())?;
            let trick = match fact.trick_number {
                0 => None,
                n => Some(u8::try_from(n).ok().filter(|t| (1..=13).contains(t)).ok_or_else(|| {
                    ServiceError::invalid("fact.trick_number", format!("{n} is not a trick, 1 to 13"))
                })?),
            };
            Action::Irregularity {
                fact: Fact {
                    kind: fact_kind("fact.kind", fact.kind)?,
                    offender: seat("fact.offender", fact.offender)?,
                    call: fact.call.map(|c| call("fact.call", Some(c))).transpose()?,
                    card: fact.card.map(|c| card("fact.card", Some(c))).transpose()?,
                    trick,
                    deliberate: fact.deliberate,
                    designation: fact.designation.map(|d| designation("fact.designation", d)).transpose()?,
                    also_visible: fact
                        .also_visible
                        .into_iter()
                        .enumerate()
                        .map(|(i, c)| card(&format!("fact.also_visible[{i}]"), Some(c)))
                        .collect::<Result<_, _>>()?,
                    relates_to: artificial("fact.artificial", fact.artificial)?,
                    misinformed: optional_seat("fact.misinformed", fact.misinformed)?,
                    description: fact.description,
                },
                pointed_out_by: optional_seat("pointed_out_by", request.pointed_out_by)?,
            }
        }
        Command::Choose(choice) => {
            let request = required("request", choice.request.clone())?;
            let decision = record_number(deal, Record::Decision, "decision_id", &request.decision_id)?;
            let option = request.option_id.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).ok_or_else(|| {
                ServiceError::invalid("option_id", format!("{:?} is not an option id", request.option_id))
            })?;
            let by = if choice.official {
                Actor::Official
            } else {
                Actor::Seat(seat("chooser_seat", request.chooser_seat)?)
            };
            Action::Choose {
                decision,
                option,
                call: request.call.map(|c| call("call", Some(c))).transpose()?,
                by,
                relates_to: artificial("artificial", request.artificial)?,
            }
        }
        Command::Claim(request) => Action::Claim {
            claimer: seat("claimer", request.claimer)?,
            tricks: tricks("tricks", request.tricks)?,
            statement: request.statement.clone(),
            line: request.line.as_ref().map(|line| stated_line("line", line)).transpose()?,
        },
        Command::Concede(request) => {
            Action::Concede { conceder: seat("conceder", request.conceder)?, tricks: tricks("tricks", request.tricks)? }
        }
        Command::Respond(request) => Action::RespondToClaim {
            claim: record_number(deal, Record::Claim, "claim_id", &request.claim_id)?,
            seat: seat("seat", request.seat)?,
            agree: match game::ClaimReply::try_from(request.reply) {
                Ok(game::ClaimReply::Accept) => true,
                Ok(game::ClaimReply::Dispute) => false,
                _ => return Err(ServiceError::invalid("reply", "accept or dispute is required")),
            },
        },
        Command::FaceHand(request) => Action::FaceHand {
            claim: record_number(deal, Record::Claim, "claim_id", &request.claim_id)?,
            seat: seat("seat", request.seat)?,
        },
        Command::CallArbiter(request) => {
            Action::CallOfficial { seat: optional_seat("seat", request.seat)?, reason: request.reason.clone() }
        }
        Command::Resolve(request) => Action::ResolveOfficialCall {
            call: record_number(deal, Record::ArbiterCall, "arbiter_call_id", &request.arbiter_call_id)?,
            note: request.resolution.clone(),
        },
        Command::Adjudicate(request) => Action::Adjudicate {
            claim: record_number(deal, Record::Claim, "claim_id", &request.claim_id)?,
            tricks: tricks("tricks", request.tricks)?,
            reasons: request.reasons.clone(),
        },
        Command::EnterResult(request) => {
            let (result, honors) = deal_result("result", required("result", request.result.clone())?)?;
            Action::EnterResult { result, honors }
        }
        Command::Abandon(request) => Action::Abandon { reason: request.reason.clone() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_ids_name_their_deal_and_number() {
        let id = record_id("deal-1", Record::Decision, 3);
        assert_eq!(id, "deal-1/d3");
        assert_eq!(record_number("deal-1", Record::Decision, "decision_id", &id).unwrap(), 3);
        // Another deal's decision, or another kind of record, is not found at this table.
        let other = record_number("deal-2", Record::Decision, "decision_id", &id).unwrap_err();
        assert!(matches!(other, ServiceError::NotFound(_)), "{other}");
        assert!(record_number("deal-1", Record::Claim, "claim_id", &id).is_err());
        assert!(matches!(
            record_number("deal-1", Record::Claim, "claim_id", ""),
            Err(ServiceError::InvalidArgument(_))
        ));
    }

    #[test]
    fn every_irregularity_kind_of_the_contract_has_a_laws_kind_and_back() {
        for raw in 1..=28 {
            let kind = fact_kind("kind", raw).unwrap();
            assert_eq!(fact_kind_proto(kind) as i32, raw);
        }
        assert!(fact_kind("kind", 0).is_err());
        assert!(fact_kind("kind", 99).is_err());
    }

    #[test]
    fn every_designation_from_dummy_goes_to_the_contract_and_back() {
        let all = [
            Designation::High,
            Designation::Win,
            Designation::Low,
            Designation::Suit(Suit::Hearts),
            Designation::Rank(Rank::Queen),
            Designation::Card(Card::new(Suit::Spades, Rank::Ace)),
            Designation::Anything,
        ];
        for d in all {
            assert_eq!(designation("d", designation_proto(d)).unwrap(), d);
        }
        let missing =
            designation("d", game::CardDesignation { kind: game::DesignationKind::Suit as i32, ..Default::default() });
        assert!(matches!(missing, Err(ServiceError::InvalidArgument(_))), "a suit designation needs its suit");
        assert!(designation("d", game::CardDesignation::default()).is_err());
    }
}
