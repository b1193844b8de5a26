//! A service run as several replicas behind the stand-alone gateway (`endpoints.game` naming
//! them all, as a deployment with two game replicas does): calls are balanced over the replicas
//! that answer their health checks, and one that stops is taken out of the set, so a table plays
//! on at the other and nothing acknowledged is lost. A name standing for the replicas
//! (`dns+http://...`, a Kubernetes headless Service) is looked up for them.

use std::time::Duration;

use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::TestApp;
use e2e::lineup::Lineup;
use platform::auth::Role;
use tonic::Code;

/// The hands, as a PBN Deal tag: North spades, East hearts, South diamonds, West clubs.
const HANDS: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
const RANKS: [char; 13] = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
const SEATS: [pb::Seat; 4] = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];

/// The deal's `step`th action after its start (North deals): North opens 1NT and the others
/// pass (steps 0-3), then East leads his hearts to the end and everyone follows with his own
/// suit (steps 4-55).
async fn act(
    game: &mut e2e::GameClient,
    table_id: &str,
    version: u64,
    key: &str,
    step: usize,
) -> Result<u64, tonic::Status> {
    let view = if step < 4 {
        let call = if step == 0 { "1NT" } else { "P" };
        let request = game::MakeCallRequest {
            table_id: table_id.to_owned(),
            expected_version: version,
            idempotency_key: key.to_owned(),
            seat: SEATS[step] as i32,
            call: Some(call.parse::<laws::Call>().unwrap().into()),
            artificial: None,
        };
        game.make_call(request).await?.into_inner().view
    } else {
        let (trick, turn) = ((step - 4) / 4, (step - 4) % 4);
        let seat = (1 + turn) % 4;
        let request = game::PlayCardRequest {
            table_id: table_id.to_owned(),
            expected_version: version,
            idempotency_key: key.to_owned(),
            seat: SEATS[seat] as i32,
            card: Some(format!("{}{}", SUITS[seat], RANKS[trick]).parse::<laws::Card>().unwrap().into()),
            face_down: false,
        };
        game.play_card(request).await?.into_inner().view
    };
    Ok(view.unwrap().version)
}

/// A call through the gateway, bounded: a replica that is away must be UNAVAILABLE at once,
/// never a hang and never another refusal.
async fn within<T>(call: impl std::future::Future<Output = Result<T, tonic::Status>>) -> Result<T, tonic::Status> {
    let answer = tokio::time::timeout(Duration::from_secs(10), call).await.expect("a call through the gateway hung");
    if let Err(status) = &answer {
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    }
    answer
}

#[tokio::test]
async fn a_table_plays_on_when_one_of_two_game_replicas_stops_and_loses_nothing() {
    let mut app = TestApp::spawn_split_with_game_replicas(2).await;
    let (mut desk, mut pads) = app.desk_clients();
    let lineup = Lineup::start(&mut desk, &mut pads, pb::TableKind::Rubber, "replicas").await;
    let mut game = app.game("front-desk", &[Role::Desk]);
    let start = game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: 0,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(lineup.first_deal(game::PlayMode::Recorded, false)),
        hands: Some(game::start_deal_request::Hands::DealPbn(HANDS.to_owned())),
    };
    let mut version = game.start_deal(start).await.unwrap().into_inner().view.unwrap().version;
    // Both replicas serve the table: the gateway spreads the calls over them.
    for step in 0..4 {
        version = act(&mut game, &lineup.table_id, version, &uuid::Uuid::new_v4().to_string(), step).await.unwrap();
    }

    app.stop_game_replica(0).await;

    // Until its probe takes the stopped replica out, a call the gateway sends there is
    // UNAVAILABLE at once. Reads go on until twenty in a row went through: were the stopped
    // replica still in the set, about half of them would fail.
    let read = game::GetTableStateRequest { table_id: lineup.table_id.clone() };
    let (mut in_a_row, mut failed) = (0, 0u64);
    while in_a_row < 20 {
        match within(game.get_table_state(read.clone())).await {
            Ok(_) => in_a_row += 1,
            Err(_) => {
                in_a_row = 0;
                failed += 1;
                assert!(failed < 1_000_000, "the stopped replica was never taken out");
                tokio::task::yield_now().await;
            }
        }
    }
    // Then the table plays on at the other replica, every card at its first try.
    for step in 4..56 {
        let key = uuid::Uuid::new_v4().to_string();
        version = within(act(&mut game, &lineup.table_id, version, &key, step)).await.unwrap();
    }

    // Nothing acknowledged is lost: the table, read again, holds the whole deal.
    let state = within(game.get_table_state(read)).await.unwrap().into_inner().view.unwrap();
    assert_eq!(state.version, version);
    assert_eq!(state.auction.len(), 4);
    assert_eq!(state.tricks.iter().map(|t| t.cards.len()).sum::<usize>(), 52);
    assert_eq!(state.phase, game::DealPhase::Finished as i32, "{state:?}");
}

#[tokio::test]
async fn a_name_standing_for_the_replicas_reaches_them_and_fails_fast_once_none_serves() {
    let mut app = TestApp::spawn_split_with_game_replicas(1).await;
    let port = app.game_replicas()[0].port();
    // "localhost" may resolve to ::1 as well, where nothing listens: its probe takes it out.
    let channel = platform::client::service_channel(
        &format!("dns+http://localhost:{port}"),
        api::game::v1::game_service_server::SERVICE_NAME,
        &platform::tls::PeerTls::default(),
    )
    .unwrap();
    let token = app.token("front-desk", &[Role::Desk]);
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    let mut game = e2e::GameClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
    let read = game::GetTableStateRequest { table_id: "a-table-never-used".to_owned() };
    let (mut in_a_row, mut failed) = (0, 0u64);
    while in_a_row < 20 {
        match within(game.get_table_state(read.clone())).await {
            Ok(answer) => {
                assert_eq!(answer.into_inner().view.unwrap().version, 0);
                in_a_row += 1;
            }
            Err(_) => {
                in_a_row = 0;
                failed += 1;
                assert!(failed < 1_000_000, "the replica behind the name was never reached");
                tokio::task::yield_now().await;
            }
        }
    }

    // With no replica serving, calls are not left waiting for one: UNAVAILABLE at once.
    app.stop_game_replica(0).await;
    for _ in 0..5 {
        let refused = within(game.get_table_state(read.clone())).await.unwrap_err();
        assert_eq!(refused.code(), Code::Unavailable);
    }
}
