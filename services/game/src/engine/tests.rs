//! The journal's replay and the live-tables gauge, checked on hand-made journals.

use super::*;
use api::common::v1 as pb;
use api::convert::ProtoEnum;
use laws::Seat;

const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

fn start() -> StoredAction {
    let setup = game::DealSetup {
        source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
            rubber_id: "r".into(),
            scorepad_id: "p".into(),
            deal_number: 1,
            club_laws: false,
        })),
        kind: pb::TableKind::Rubber as i32,
        mode: game::PlayMode::Recorded as i32,
        players: Seat::ALL
            .iter()
            .map(|s| pb::SeatedPlayer { seat: s.to_proto(), player_id: format!("p{}", s.index()) })
            .collect(),
        dealer: pb::Seat::North as i32,
        vulnerability: pb::Vulnerability::None as i32,
        result_only: false,
    };
    let deal: laws::Deal = PBN.parse().unwrap();
    start_action("deal", "desk", StoredStart { setup: Some(setup), seed: Vec::new(), deal: Some(deal.into()) })
}

fn call(seat: Seat, call: &str) -> StoredAction {
    let request = game::MakeCallRequest {
        table_id: "t".into(),
        expected_version: 0,
        idempotency_key: "k".into(),
        seat: seat.to_proto(),
        call: Some(call.parse::<laws::Call>().unwrap().into()),
        artificial: None,
    };
    let command = Some(Command::Call(request));
    StoredAction { deal_id: "deal".into(), actor: "desk".into(), at: None, command, rules_version: laws::RULES_VERSION }
}

/// [`start`] at a digital table, where the Laws refuse an irregular call.
fn digital_start() -> StoredAction {
    let mut action = start();
    if let Some(Command::Start(StoredStart { setup: Some(setup), .. })) = &mut action.command {
        setup.mode = game::PlayMode::Digital as i32;
    }
    action
}

#[test]
fn the_journal_replays_to_the_state_the_commands_made() {
    let actions = vec![start(), call(Seat::North, "1S"), call(Seat::East, "1H")];
    let deal = replay("deal", actions).unwrap();
    assert_eq!(deal.state.step(), 2);
    assert_eq!(deal.players[2], "p2");
    assert!(deal.state.open_decision().is_some(), "Law 27: the insufficient bid awaits its rectification");
}

fn table(id: &str, actions: Option<Vec<StoredAction>>) -> Loaded {
    let deal = actions.map(|actions| Arc::new(replay("deal", actions).unwrap()));
    Loaded { table_id: id.into(), version: 1, last_sequence: 1, deal }
}

#[test]
fn live_tables_count_the_tables_whose_deal_is_in_progress() {
    let tables = LiveTables::default();
    tables.seen(&table("t1", Some(vec![start()])));
    tables.seen(&table("t2", Some(vec![start(), call(Seat::North, "1S")])));
    tables.seen(&table("t2", Some(vec![start(), call(Seat::North, "1S")])));
    tables.seen(&table("t3", None));
    assert_eq!(tables.count(), 2, "t1 and t2 have a deal in progress, t3 none; t2 seen twice counts once");
    // Law 22A: four passes end the auction and the deal is thrown in: no longer in progress.
    let passed_out = [Seat::North, Seat::East, Seat::South, Seat::West].map(|s| call(s, "Pass"));
    let mut actions = vec![start()];
    actions.extend(passed_out);
    let over = table("t1", Some(actions));
    assert!(over.deal.as_ref().unwrap().state.is_over());
    tables.seen(&over);
    assert_eq!(tables.count(), 1);
}

#[test]
fn a_journal_that_does_not_replay_is_an_internal_error_not_a_guess() {
    let error = replay("deal", vec![call(Seat::North, "1S")]).unwrap_err();
    assert!(matches!(error, ServiceError::Internal(_)), "{error}");
    // A call the rules that stored it refuse means the record is corrupt.
    let error = replay("deal", vec![start(), call(Seat::East, "1S"), call(Seat::East, "Pass")]).unwrap_err();
    assert!(error.to_string().contains("refuses it now"), "{error}");
}

#[test]
fn a_call_another_rules_version_accepted_replays_as_it_was_accepted() {
    // Law 27: today's rules refuse East's insufficient 1H at a digital table.
    let mut actions = vec![digital_start(), call(Seat::North, "1S"), call(Seat::East, "1H")];
    assert!(replay("deal", actions.clone()).is_err());
    // Stored as accepted before the rules were numbered, it stands as made.
    actions[2].rules_version = 0;
    let deal = replay("deal", actions.clone()).unwrap();
    assert_eq!(deal.state.auction().to_string(), "N: 1S 1H");
    assert_eq!(deal.state.next_to_act(), Some(Seat::South));
    // What no rules could accept still fails: a second call by East out of turn.
    actions.push(StoredAction { rules_version: 0, ..call(Seat::East, "2S") });
    let error = replay("deal", actions).unwrap_err();
    assert!(matches!(&error, ServiceError::Internal(m) if m.contains("cannot be applied")), "{error}");
}
