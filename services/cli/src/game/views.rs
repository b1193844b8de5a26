//! How `bridgectl game` shows what an irregularity brought and what is open at a table: the
//! calls for the arbiter, the decisions waiting for their chooser with their options, and the
//! obligations and penalty cards in force.

use std::fmt::Write;

use api::game::v1 as game;

use super::irregularity::{card_text, kind_name, seat_of};
use super::{calls_text, decisions_text};

/// A contract enum value in lower case without its prefix (`DEAL_PHASE_AUCTION` as `auction`),
/// or its number if this build does not know it.
pub(super) fn enum_name<T: TryFrom<i32>>(raw: i32, prefix: &str, as_str: impl Fn(&T) -> &'static str) -> String {
    T::try_from(raw)
        .map_or_else(|_| raw.to_string(), |v| as_str(&v).trim_start_matches(prefix).to_lowercase().replace('_', " "))
}

fn seat(raw: i32) -> String {
    seat_of(raw).map_or_else(|| "-".to_owned(), |s| s.to_string())
}

fn law(citation: &Option<api::common::v1::LawCitation>) -> &str {
    citation.as_ref().map_or("", |l| l.text.as_str())
}

/// What recording an irregularity brought: the record and its Law, the arbiter call it opened,
/// and the first choice the Laws give.
pub fn recorded_text(answer: &game::RecordIrregularityResponse) -> String {
    let mut out = String::new();
    if let Some(record) = &answer.irregularity {
        let fact = record.fact.clone().unwrap_or_default();
        let _ = write!(out, "recorded {} {} by {}", record.irregularity_id, kind_name(fact.kind), seat(fact.offender));
        if let Some(card) = card_text(fact.card.as_ref()) {
            let _ = write!(out, ", card {card}");
        }
        if let Some(call) = fact.call.and_then(|c| laws::Call::try_from(c).ok()) {
            let _ = write!(out, ", call {call}");
        }
        if fact.trick_number != 0 {
            let _ = write!(out, ", trick {}", fact.trick_number);
        }
        let _ = writeln!(out);
        if seat_of(record.pointed_out_by).is_some() {
            let _ = writeln!(out, "  pointed out by {}", seat(record.pointed_out_by));
        }
        if !law(&record.law).is_empty() {
            let _ = writeln!(out, "  {}", law(&record.law));
        }
    }
    if let Some(call) = &answer.arbiter_call {
        let _ = writeln!(out, "the arbiter is called ({}):", call.arbiter_call_id);
        out.push_str(&calls_text(std::slice::from_ref(call)));
    }
    match &answer.decision {
        Some(decision) => {
            let _ = writeln!(out, "the Laws give a choice (bridgectl game decide --table T --option ...):");
            out.push_str(&decisions_text(std::slice::from_ref(decision)));
        }
        None => out.push_str("no choice to make\n"),
    }
    if let Some(view) = &answer.view {
        let _ = writeln!(out, "table version {}; next to act {}", view.version, seat(view.next_to_act));
    }
    out
}

/// What is open at a table: its deal and turn, the calls for the arbiter, the decisions pending
/// with who chooses and the options, the claim waiting for answers, the obligations and penalty
/// cards in force.
pub fn table_text(view: &game::TableView) -> String {
    let mut out = String::new();
    let phase = enum_name(view.phase, "DEAL_PHASE_", game::DealPhase::as_str_name);
    let _ = writeln!(
        out,
        "table {}  deal {}  version {}  {phase}  next to act {}",
        view.table_id,
        if view.deal_id.is_empty() { "-" } else { &view.deal_id },
        view.version,
        seat(view.next_to_act)
    );
    if view.face_down_lead != 0 {
        // Its card stays hidden: the view carries only the leader (duplicate Law 41A; Appendix 3).
        let _ = writeln!(out, "opening lead face down by {}, not yet faced", seat(view.face_down_lead));
    }
    if let Some(claim) = view.claim.as_ref().filter(|c| c.status == game::ClaimStatus::Pending as i32) {
        let kind = enum_name(claim.kind, "CLAIM_KIND_", game::ClaimKind::as_str_name);
        let _ = writeln!(
            out,
            "{kind} {} by {} of {} of {} tricks, waiting for answers",
            claim.claim_id,
            seat(claim.claimer),
            claim.tricks,
            claim.tricks_remaining
        );
    }
    // A disputed claim played on under its stated line (rubber Laws 69 and 70B).
    if let Some(claim) = view.claim.as_ref().filter(|c| c.status == game::ClaimStatus::Disputed as i32) {
        out.push_str(&super::claim::claim_text(claim));
    }
    if !view.open_arbiter_calls.is_empty() {
        out.push_str("calls for the arbiter:\n");
        out.push_str(&calls_text(&view.open_arbiter_calls));
    }
    if view.pending_decisions.is_empty() {
        out.push_str("no decision is pending\n");
    } else {
        out.push_str("decisions pending:\n");
        out.push_str(&decisions_text(&view.pending_decisions));
    }
    if !view.restrictions.is_empty() {
        out.push_str("obligations in force:\n");
        for restriction in &view.restrictions {
            let _ =
                writeln!(out, "  {}: {}  ({})", seat(restriction.seat), restriction.description, law(&restriction.law));
        }
    }
    if !view.penalty_cards.is_empty() {
        out.push_str("penalty cards:\n");
        for penalty in &view.penalty_cards {
            let kind = enum_name(penalty.kind, "PENALTY_CARD_KIND_", game::PenaltyCardKind::as_str_name);
            let card = card_text(penalty.card.as_ref()).unwrap_or_else(|| "?".to_owned());
            let _ = writeln!(out, "  {}: {card} {kind}  ({})", seat(penalty.owner), law(&penalty.law));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use api::common::v1 as pb;

    fn decision() -> game::RectificationDecision {
        let option = |id: &str, kind: &str| game::RectificationOption {
            option_id: id.into(),
            kind: kind.into(),
            description: format!("declarer may {kind}"),
            law: Some(laws::Law::rubber(54, "").into()),
            chooser: pb::Chooser::Declarer as i32,
            chooser_seats: vec![pb::Seat::North as i32],
            ..Default::default()
        };
        game::RectificationDecision {
            decision_id: "deal/d1".into(),
            irregularity_id: "deal/i1".into(),
            options: vec![option("1", "accept_lead"), option("2", "require_retraction")],
            status: game::DecisionStatus::Open as i32,
            ..Default::default()
        }
    }

    fn recorded() -> game::RecordIrregularityResponse {
        game::RecordIrregularityResponse {
            irregularity: Some(game::IrregularityRecord {
                irregularity_id: "deal/i1".into(),
                fact: Some(game::IrregularityFact {
                    kind: game::IrregularityKind::OpeningLeadOutOfTurn as i32,
                    offender: pb::Seat::West as i32,
                    card: Some("HA".parse::<laws::Card>().unwrap().into()),
                    ..Default::default()
                }),
                pointed_out_by: pb::Seat::North as i32,
                law: Some(laws::Law::rubber(54, "").into()),
                ..Default::default()
            }),
            arbiter_call: None,
            decision: Some(decision()),
            view: Some(game::TableView { version: 12, ..Default::default() }),
        }
    }

    #[test]
    fn a_recorded_lead_out_of_turn_shows_its_law_and_declarers_choice() {
        let text = recorded_text(&recorded());
        let law = laws::Law::rubber(54, "").to_string();
        assert!(text.starts_with("recorded deal/i1 opening-lead-out-of-turn by West, card HA\n"), "{text}");
        assert!(text.contains("  pointed out by North\n"), "{text}");
        assert!(text.contains(&format!("  {law}\n")), "{text}");
        assert!(text.contains("decision deal/d1 (open) for irregularity deal/i1"), "{text}");
        assert!(text.contains("[1] accept_lead  chooser CHOOSER_DECLARER North"), "{text}");
        assert!(text.contains("table version 12; next to act -"), "{text}");
        assert!(!text.contains("arbiter is called"), "{text}");
    }

    #[test]
    fn a_recorded_irregularity_without_a_choice_says_so_and_names_the_arbiter_call() {
        let mut answer = recorded();
        answer.decision = None;
        answer.irregularity.as_mut().unwrap().pointed_out_by = 0;
        answer.arbiter_call = Some(game::ArbiterCall {
            arbiter_call_id: "call-1".into(),
            table_id: "t1".into(),
            reason: "Club Law 13".into(),
            status: game::ArbiterCallStatus::Open as i32,
            ..Default::default()
        });
        let text = recorded_text(&answer);
        assert!(text.contains("no choice to make\n"), "{text}");
        assert!(text.contains("the arbiter is called (call-1):\ncall-1  table t1  OPEN"), "{text}");
        assert!(!text.contains("pointed out"), "{text}");
    }

    #[test]
    fn the_table_shows_what_is_open_and_what_is_in_force() {
        let view = game::TableView {
            table_id: "t1".into(),
            deal_id: "deal".into(),
            version: 9,
            phase: game::DealPhase::Auction as i32,
            next_to_act: pb::Seat::East as i32,
            pending_decisions: vec![decision()],
            restrictions: vec![game::Restriction {
                seat: pb::Seat::South as i32,
                kind: game::RestrictionKind::PassRestOfAuction as i32,
                description: "must pass at every turn".into(),
                law: Some(laws::Law::rubber(31, "").into()),
                ..Default::default()
            }],
            penalty_cards: vec![game::PenaltyCard {
                card: Some("SQ".parse::<laws::Card>().unwrap().into()),
                owner: pb::Seat::West as i32,
                kind: game::PenaltyCardKind::Major as i32,
                law: Some(laws::Law::rubber(50, "").into()),
            }],
            ..Default::default()
        };
        let text = table_text(&view);
        assert!(text.starts_with("table t1  deal deal  version 9  auction  next to act East\n"), "{text}");
        assert!(text.contains("decisions pending:\ndecision deal/d1 (open)"), "{text}");
        assert!(text.contains("[2] require_retraction  chooser CHOOSER_DECLARER North"), "{text}");
        assert!(text.contains("  South: must pass at every turn  ("), "{text}");
        assert!(text.contains("  West: SQ major  ("), "{text}");
        assert!(!text.contains("calls for the arbiter"), "{text}");

        let quiet = table_text(&game::TableView { table_id: "t2".into(), ..Default::default() });
        assert!(quiet.contains("table t2  deal -"), "{quiet}");
        assert!(quiet.contains("no decision is pending"), "{quiet}");
        assert!(!quiet.contains("obligations"), "{quiet}");
    }
}
