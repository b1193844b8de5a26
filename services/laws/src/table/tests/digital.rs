//! Digital tables: the server dealt, so the engines refuse what the Laws forbid, only matters
//! of judgement are recorded, and each player sees his own cards, dummy's and what is face up.
//! Apart from the recorded tables because the server, not the table, refuses here.

use super::*;

#[test]
fn law_17_and_27_digital_play_refuses_a_call_out_of_turn_and_an_insufficient_bid() {
    let table = start(Code::Rubber, Mode::Digital);
    let err =
        table.apply(&Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(err.to_string(), "it is North's turn to call, not East's (Law 17 of the Laws of Rubber Bridge)");
    assert_eq!(err.kind(), ErrorKind::Rule);
    let table = call(&table, Seat::North, "1S");
    let err =
        table.apply(&Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(err.to_string(), "insufficient bid 1H over 1S (Law 27 of the Laws of Rubber Bridge)");
    assert!(table.irregularities().is_empty());
}

#[test]
fn law_41_dummy_is_seen_only_once_the_opening_lead_is_faced() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    assert_eq!(table.phase(), Phase::Play);
    assert_eq!(table.contract().unwrap().to_string(), "4S by North");
    // Before the opening lead East sees only his own hand; the spectator nothing.
    let east = table.visible_hands(Viewer::Player(Seat::East));
    assert_eq!(east, vec![(Seat::East, deal().hand(Seat::East))]);
    assert!(table.visible_hands(Viewer::Spectator).is_empty());
    assert_eq!(table.visible_hands(Viewer::Official).len(), 4);

    let (table, events) = card(&table, Seat::East, "CA");
    assert_eq!(
        events,
        vec![Event::CardPlayed { trick: 0, seat: Seat::East, card: "CA".parse().unwrap() }, Event::DummyFaced]
    );
    let dummy = deal().hand(Seat::South);
    for viewer in [Viewer::Player(Seat::East), Viewer::Player(Seat::North), Viewer::Spectator] {
        let seen = table.visible_hands(viewer);
        assert!(seen.contains(&(Seat::South, dummy)), "{viewer:?} sees dummy");
        assert!(!seen.iter().any(|(seat, _)| *seat == Seat::West), "{viewer:?} never sees West");
    }
}

#[test]
fn a_digital_deal_played_out_ends_with_its_tricks_and_the_honors_held() {
    let mut table = start(Code::Rubber, Mode::Digital);
    // Whatever the seed dealt, the dealer opens 1NT and the others pass.
    table = calls(table, &[(Seat::North, "1N"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")]);
    let table = play_out(table);
    let outcome = table.outcome().unwrap();
    assert_eq!(outcome.ending, Ending::PlayedOut);
    let play = table.play().unwrap();
    let Some(DealResult::Played { contract, tricks }) = outcome.result else { panic!("played") };
    assert_eq!(contract.to_string(), "1NT by North");
    assert_eq!(tricks, play.tricks_won(Side::NorthSouth));
    let expected: Vec<HonorsClaim> =
        honors_claim(table.deal().unwrap(), contract.contract.denomination()).into_iter().collect();
    assert_eq!(outcome.honors, expected);
    assert_eq!(table.phase(), Phase::Finished);
    // Law 81: everyone may see the hands of a finished rubber deal.
    assert_eq!(table.visible_hands(Viewer::Spectator).len(), 4);
}

#[test]
fn digital_tables_record_only_matters_of_judgement() {
    let table = start(Code::Club, Mode::Digital);
    let fact = |kind| Fact { description: "hesitation".into(), ..call_fact(kind, Seat::East, "1H") };
    let err =
        table.apply(&Action::Irregularity { fact: fact(FactKind::InsufficientBid), pointed_out_by: None }).unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::InsufficientBid });
    let (table, _) = apply(
        &table,
        Action::Irregularity { fact: fact(FactKind::UnauthorizedInformation), pointed_out_by: Some(Seat::North) },
    );
    assert_eq!(table.irregularities()[0].law, Law::club(16, ""));
    assert_eq!(table.open_official_calls().count(), 1);
}

#[test]
fn replaying_the_same_actions_gives_the_same_state() {
    let actions = [
        Action::Call { seat: Seat::North, call: "1S".parse().unwrap(), relates_to: None },
        Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None },
        Action::Choose { decision: 1, option: 1, call: None, by: Actor::Seat(Seat::South), relates_to: None },
        Action::CallOfficial { seat: Some(Seat::West), reason: "a question".into() },
    ];
    let run = || actions.iter().fold(start(Code::Rubber, Mode::Recorded), |t, a| t.apply(a).unwrap().0);
    assert_eq!(run(), run());
    assert_eq!(run().step(), 4);
}

#[test]
fn every_card_seen_by_a_player_in_a_played_out_deal_is_his_own_dummys_or_face_up() {
    // Play several seeded deals; at every step a player sees his own hand, dummy after the
    // opening lead, and nothing else of a live deal.
    for seed in 0..8u8 {
        let mut table = DealInProgress::start(Setup {
            hands: Hands::Seeded(DealSeed([seed; 32])),
            ..setup(Code::Duplicate, Mode::Digital)
        })
        .unwrap()
        .0;
        table = calls(table, &[(Seat::North, "1C"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")]);
        while !table.is_over() {
            let play: &Play = table.play().unwrap();
            for viewer in Seat::ALL {
                for (seat, _) in table.visible_hands(Viewer::Player(viewer)) {
                    let allowed = seat == viewer || (seat == play.dummy() && play.dummy_visible());
                    assert!(allowed, "{viewer} sees {seat}'s hand");
                }
            }
            let seat = play.next_to_play().unwrap();
            let card = play.legal_cards().iter().next().unwrap();
            table = apply(&table, Action::Play { seat, card }).0;
        }
        // A duplicate board stays hidden from the players after the deal: others may play it.
        assert_eq!(table.visible_hands(Viewer::Player(Seat::North)).len(), 1);
    }
}
