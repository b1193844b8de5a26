use super::*;
use std::collections::HashSet;

fn principal(subject: &str, roles: &[Role]) -> Principal {
    Principal { subject: subject.into(), roles: roles.iter().copied().collect::<HashSet<_>>() }
}

fn stored(event: game::table_event::Event, code: Code) -> StoredEvent {
    let players = ["n", "e", "s", "w"];
    StoredEvent {
        event: Some(game::TableEvent { sequence: 1, event: Some(event), ..Default::default() }),
        players: Seat::ALL
            .iter()
            .map(|s| pb::SeatedPlayer { seat: s.to_proto(), player_id: players[s.index()].into() })
            .collect(),
        code: code.to_proto(),
        board: None,
    }
}

fn all_hands() -> Vec<pb::SeatHand> {
    let deal: laws::Deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765".parse().unwrap();
    Seat::ALL.iter().map(|s| (*s, deal.hand(*s)).into()).collect()
}

fn seats(event: &game::TableEvent) -> Vec<i32> {
    match &event.event {
        Some(game::table_event::Event::DealStarted(s)) => s.hands.iter().map(|h| h.seat).collect(),
        Some(game::table_event::Event::DealFinished(f)) => f.hands.iter().map(|h| h.seat).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_player_is_sent_his_own_hand_the_arbiter_all_and_a_spectator_none() {
    let started = stored(
        game::table_event::Event::DealStarted(game::DealStarted { hands: all_hands(), ..Default::default() }),
        Code::Rubber,
    );
    let east = filter_event(&started, &principal("e", &[Role::Player]));
    assert_eq!(seats(&east), vec![pb::Seat::East as i32]);
    assert_eq!(seats(&filter_event(&started, &principal("arbiter", &[Role::Arbiter]))).len(), 4);
    assert!(seats(&filter_event(&started, &principal("desk", &[Role::Desk]))).is_empty());
    // A player's token for someone else's seat shows nothing: the subject decides the seat.
    assert!(seats(&filter_event(&started, &principal("z", &[Role::Player]))).is_empty());
}

#[test]
fn an_options_cards_of_a_hidden_hand_reach_the_arbiter_only() {
    // Rubber Law 62: declarer may require the revoker's partner to play either of his two
    // cards; the option describes the card without naming it and carries it for the arbiter.
    let hidden: pb::Card = "HK".parse::<laws::Card>().unwrap().into();
    let option = game::RectificationOption {
        kind: "partner_plays".into(),
        description: "require the offender's partner to play his card of the higher-ranking of his two suits".into(),
        official_cards: vec![hidden],
        ..Default::default()
    };
    let decision = game::RectificationDecision { options: vec![option], ..Default::default() };
    let offered = stored(game::table_event::Event::RectificationOffered(decision.clone()), Code::Rubber);
    let chosen = stored(game::table_event::Event::RectificationChosen(decision), Code::Rubber);
    let cards = |event: game::TableEvent| match event.event {
        Some(game::table_event::Event::RectificationOffered(d) | game::table_event::Event::RectificationChosen(d)) => {
            d.options.into_iter().flat_map(|o| o.official_cards).collect::<Vec<_>>()
        }
        _ => panic!("a decision"),
    };
    for event in [&offered, &chosen] {
        for who in [principal("s", &[Role::Player]), principal("w", &[Role::Player]), principal("desk", &[Role::Desk])]
        {
            assert!(cards(filter_event(event, &who)).is_empty(), "{} sees no hidden card", who.subject);
        }
        assert_eq!(cards(filter_event(event, &principal("arbiter", &[Role::Arbiter]))), vec![hidden]);
    }
}

#[test]
fn a_finished_duplicate_boards_hands_and_seed_stay_with_the_director() {
    let finished = |code| {
        stored(
            game::table_event::Event::DealFinished(game::DealFinished {
                hands: all_hands(),
                seed: vec![7; 32],
                outcome: None,
            }),
            code,
        )
    };
    let north = principal("n", &[Role::Player]);
    assert_eq!(seats(&filter_event(&finished(Code::Rubber), &north)).len(), 4);
    let board = filter_event(&finished(Code::Duplicate), &north);
    assert!(seats(&board).is_empty());
    let Some(game::table_event::Event::DealFinished(f)) = board.event else { panic!() };
    assert!(f.seed.is_empty());
    assert_eq!(seats(&filter_event(&finished(Code::Duplicate), &principal("td", &[Role::Arbiter]))).len(), 4);
}
