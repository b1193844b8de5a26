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
    out.push_str(&deal_text(view));
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

/// The deal as a table sees it: what it is, the auction by seat from the dealer on, the
/// contract, each trick with its leader and winner, the tricks won, and the result once it ended.
pub fn deal_text(view: &game::TableView) -> String {
    let mut out = String::new();
    let Some(setup) = &view.setup else { return out };
    let what = match &setup.source {
        Some(game::deal_setup::Source::Rubber(deal)) => {
            format!("deal {} of rubber {} (scorepad {})", deal.deal_number, deal.rubber_id, deal.scorepad_id)
        }
        Some(game::deal_setup::Source::Board(board)) => {
            format!("board {} of session {}", board.board_number, board.session_id)
        }
        None => "a deal".to_owned(),
    };
    let mode = enum_name(setup.mode, "PLAY_MODE_", game::PlayMode::as_str_name);
    let vulnerable = enum_name(setup.vulnerability, "VULNERABILITY_", api::common::v1::Vulnerability::as_str_name);
    let _ = writeln!(out, "{what}, {mode}; {} deals, vulnerable: {vulnerable}", seat(setup.dealer));
    let players: Vec<String> = setup.players.iter().map(|p| format!("{} {}", seat(p.seat), p.player_id)).collect();
    if !players.is_empty() {
        let _ = writeln!(out, "  {}", players.join(", "));
    }
    if !view.auction.is_empty() {
        out.push_str(&auction_text(setup.dealer, &view.auction));
    }
    if let Some(contract) = view.contract.and_then(|c| laws::DeclaredContract::try_from(c).ok()) {
        let _ = writeln!(out, "contract {contract}");
    }
    for trick in &view.tricks {
        let cards: Vec<String> = trick
            .cards
            .iter()
            .map(|c| format!("{} {}", seat(c.seat), card_text(c.card.as_ref()).unwrap_or_else(|| "?".to_owned())))
            .collect();
        let won =
            if seat_of(trick.winner).is_some() { format!("  won by {}", seat(trick.winner)) } else { String::new() };
        let _ = writeln!(out, "trick {:>2}: {}{won}", trick.number, cards.join(", "));
    }
    if let Some(won) = view.tricks_won.filter(|_| !view.tricks.is_empty()) {
        let _ = writeln!(out, "tricks won: North-South {}, East-West {}", won.north_south, won.east_west);
    }
    if let Some(outcome) = &view.outcome {
        let ending = enum_name(outcome.ending, "DEAL_ENDING_", game::DealEnding::as_str_name);
        let result = match outcome.result.as_ref().and_then(|r| r.outcome.as_ref()) {
            Some(api::common::v1::deal_result::Outcome::Played(played)) => {
                match played.contract.and_then(|c| laws::DeclaredContract::try_from(c).ok()) {
                    Some(contract) => format!("{contract}, {} tricks to declarer's side", played.tricks),
                    None => format!("{} tricks to declarer's side", played.tricks),
                }
            }
            Some(api::common::v1::deal_result::Outcome::PassedOut(_)) => "passed out".to_owned(),
            None => "no result".to_owned(),
        };
        let _ = writeln!(out, "result: {result} ({ending})");
    }
    out
}

/// The auction as a score sheet writes it: a column for each seat, North first, the dealer's
/// first call in his column; a call still to be ruled on with a `?`, cancelled calls after.
fn auction_text(dealer: i32, auction: &[game::AuctionEntry]) -> String {
    const WIDTH: usize = 7;
    let mut out = String::new();
    let _ = writeln!(out, "  {:<WIDTH$}{:<WIDTH$}{:<WIDTH$}West", "North", "East", "South");
    let column = |raw: i32| usize::try_from(raw - 1).ok().filter(|c| *c < 4);
    let mut line = String::from("  ");
    let mut at = column(dealer).unwrap_or(0);
    line.push_str(&" ".repeat(WIDTH * at));
    let text = |entry: &game::AuctionEntry| {
        entry.call.and_then(|c| laws::Call::try_from(c).ok()).map_or_else(|| "?".to_owned(), |c| c.to_string())
    };
    let cancelled = |entry: &&game::AuctionEntry| entry.status == game::CallStatus::Cancelled as i32;
    for entry in auction.iter().filter(|e| !cancelled(e)) {
        let call = text(entry);
        let call = if entry.status == game::CallStatus::Pending as i32 { format!("{call}?") } else { call };
        let wanted = column(entry.seat).unwrap_or(at);
        if wanted < at {
            let _ = writeln!(out, "{}", line.trim_end());
            line = String::from("  ");
            at = 0;
        }
        line.push_str(&" ".repeat(WIDTH * (wanted - at)));
        let _ = write!(line, "{call:<WIDTH$}");
        at = wanted + 1;
        if at == 4 {
            let _ = writeln!(out, "{}", line.trim_end());
            line = String::from("  ");
            at = 0;
        }
    }
    if !line.trim().is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for entry in auction.iter().filter(cancelled) {
        let _ = writeln!(out, "  cancelled: {} {} ({})", seat(entry.seat), text(entry), entry.irregularity_id);
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

    #[test]
    fn the_table_shows_the_deal_auction_by_seat_tricks_and_result() {
        let call = |seat: pb::Seat, call: &str, status: game::CallStatus| game::AuctionEntry {
            seat: seat as i32,
            call: Some(call.parse::<laws::Call>().unwrap().into()),
            status: status as i32,
            ..Default::default()
        };
        let played = |seat: pb::Seat, card: &str| game::PlayedCard {
            seat: seat as i32,
            card: Some(card.parse::<laws::Card>().unwrap().into()),
        };
        let contract: laws::DeclaredContract =
            laws::DeclaredContract { contract: "1NT".parse().unwrap(), declarer: laws::Seat::East };
        let view = game::TableView {
            table_id: "t1".into(),
            deal_id: "d1".into(),
            version: 9,
            phase: game::DealPhase::Finished as i32,
            setup: Some(game::DealSetup {
                source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
                    rubber_id: "r1".into(),
                    scorepad_id: "p1".into(),
                    deal_number: 1,
                    club_laws: false,
                })),
                mode: game::PlayMode::Recorded as i32,
                dealer: pb::Seat::East as i32,
                vulnerability: pb::Vulnerability::None as i32,
                players: vec![pb::SeatedPlayer { seat: pb::Seat::North as i32, player_id: "alice".into() }],
                ..Default::default()
            }),
            auction: vec![
                call(pb::Seat::East, "1NT", game::CallStatus::Legal),
                call(pb::Seat::South, "1C", game::CallStatus::Cancelled),
                call(pb::Seat::South, "Pass", game::CallStatus::Legal),
                call(pb::Seat::West, "Pass", game::CallStatus::Legal),
                call(pb::Seat::North, "Pass", game::CallStatus::Legal),
            ]
            .into_iter()
            .map(|mut e| {
                if e.status == game::CallStatus::Cancelled as i32 {
                    e.irregularity_id = "i1".into();
                }
                e
            })
            .collect(),
            contract: Some(contract.into()),
            tricks: vec![game::Trick {
                number: 1,
                leader: pb::Seat::South as i32,
                cards: vec![played(pb::Seat::South, "S7"), played(pb::Seat::West, "S4")],
                winner: 0,
            }],
            tricks_won: Some(game::TrickCount { north_south: 0, east_west: 0 }),
            outcome: Some(game::DealOutcome {
                result: Some(pb::DealResult {
                    outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                        contract: Some(contract.into()),
                        tricks: 7,
                    })),
                    honors: vec![],
                }),
                ending: game::DealEnding::Claimed as i32,
                ..Default::default()
            }),
            ..Default::default()
        };
        let text = table_text(&view);
        let expected = "table t1  deal d1  version 9  finished  next to act -\n\
            deal 1 of rubber r1 (scorepad p1), recorded; East deals, vulnerable: none\n\
            \x20 North alice\n\
            \x20 North  East   South  West\n\
            \x20        1NT    Pass   Pass\n\
            \x20 Pass\n\
            \x20 cancelled: South 1C (i1)\n\
            contract 1NT by East\n\
            trick  1: South S7, West S4\n\
            tricks won: North-South 0, East-West 0\n\
            result: 1NT by East, 7 tricks to declarer's side (claimed)\n";
        assert!(text.starts_with(expected), "{text}");
    }
}
