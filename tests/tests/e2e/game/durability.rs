//! Durability and concurrency: a deal survives a Redis flush, a server restart and Redis falling
//! behind the journal (a refusal judged on it is a stale version instead); tables playing at once
//! (their commands sharing transactions) lose nothing; two racing clients, one wins; and the game
//! on the embedded default (SQLite, live state in the process).

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::lineup::Lineup;
use e2e::{GameClient, TestApp};
use futures::StreamExt;
use laws::{Card, Seat};
use platform::auth::Role;
use tonic::Code;

use super::{
    PBN, Table, collect, hand, key, lowest_legal_card, outcome, pcall, pcard, rubber, rubber_four_spades, seat_of,
};

/// A recorded 4S by North at a fresh table, played card by card up to `cards` cards.
async fn four_spades_played(app: &TestApp, cards: usize) -> Table<'_> {
    let table = rubber_four_spades(app).await;
    table.play_cards(false, cards).await;
    table
}

fn same_deal(a: &game::TableView, b: &game::TableView) {
    assert_eq!(
        a.outcome.as_ref().map(|o| (o.ending, o.result.clone())),
        b.outcome.as_ref().map(|o| (o.ending, o.result.clone()))
    );
    assert_eq!(a.tricks, b.tricks);
    assert_eq!(a.auction, b.auction);
}

#[tokio::test]
async fn a_redis_flush_in_the_middle_of_a_deal_loses_nothing() {
    let app = TestApp::spawn().await;
    let quiet = four_spades_played(&app, usize::MAX).await;
    let expected = quiet.view().await;
    assert_eq!(expected.phase, game::DealPhase::Finished as i32);

    let table = four_spades_played(&app, 25).await;
    let before = table.view().await;
    let watcher = collect(table.player(Seat::West), table.id.clone(), None).await;
    app.flush_redis().await;
    // Rebuilt from the journal: the same table, version and all.
    let after = table.view().await;
    assert_eq!(after, before);
    let finished = table.play_out(false).await;
    same_deal(&finished, &expected);
    assert_eq!(finished.version, expected.version);
    let events = watcher.await.unwrap();
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1, "the watcher missed nothing across the flush");
    }
    assert!(matches!(events.last().unwrap().event, Some(game::table_event::Event::DealFinished(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_playing_at_once_share_commits_and_lose_no_acknowledged_card() {
    let app = TestApp::spawn().await;
    let mut tables = Vec::new();
    for _ in 0..6 {
        tables.push(rubber_four_spades(&app).await);
    }
    // Six tables play at the same moment: their cards are written many to a transaction.
    let played = futures::future::join_all(tables.iter().map(|table| table.play_cards(false, 30))).await;
    app.flush_redis().await;
    for (table, before) in tables.iter().zip(played) {
        assert_eq!(before.tricks.iter().map(|t| t.cards.len()).sum::<usize>(), 30);
        // Rebuilt from the journal alone: every card acknowledged is there, in order.
        assert_eq!(table.view().await, before, "table {}", table.id);
    }
}

#[tokio::test]
async fn a_server_restart_in_the_middle_of_a_deal_loses_nothing() {
    let mut app = TestApp::spawn().await;
    let (expected, id, players, before) = {
        let quiet = four_spades_played(&app, usize::MAX).await;
        let expected = quiet.view().await;
        let table = four_spades_played(&app, 30).await;
        let before = table.view().await;
        (expected, table.id.clone(), table.players.clone(), before)
    };
    app.restart().await;
    let table = Table { app: &app, id, players, lineup: None.into() };
    assert_eq!(table.view().await, before, "the restarted server has the table as it was");
    // A watcher that resumes from where it was gets the rest.
    let watcher = collect(table.player(Seat::East), table.id.clone(), Some(before_sequence(&table).await)).await;
    let finished = table.play_out(false).await;
    same_deal(&finished, &expected);
    let events = watcher.await.unwrap();
    assert!(matches!(events.last().unwrap().event, Some(game::table_event::Event::DealFinished(_))));
}

/// The table's last event sequence number, from a snapshot.
async fn before_sequence(table: &Table<'_>) -> u64 {
    let request = game::WatchTableRequest { table_id: table.id.clone(), after_sequence: None };
    let mut stream = table.arbiter().watch_table(request).await.unwrap().into_inner();
    stream.next().await.unwrap().unwrap().event.unwrap().sequence
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_racing_one_wins_the_other_is_aborted_and_a_retry_applies_once() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    for (seat, call) in [(North, "1N"), (East, "Pass"), (South, "Pass"), (West, "Pass")] {
        table.call_as(&mut table.player(seat), seat, call).await.unwrap();
    }
    let mut races = 0;
    while races < 6 {
        let view = table.view().await;
        let seat = seat_of(view.next_to_act);
        let actor = if seat == North.partner() { North } else { seat };
        let held = hand(&view, seat).unwrap();
        let led = view.tricks.last().filter(|t| t.cards.len() < 4).and_then(|t| t.cards.first());
        let legal: Vec<Card> = match led.map(|c| Card::try_from(c.card.unwrap()).unwrap().suit) {
            Some(suit) if held.has_suit(suit) => held.suit(suit).iter().collect(),
            _ => held.iter().collect(),
        };
        let request = |card: Card| game::PlayCardRequest {
            table_id: table.id.clone(),
            expected_version: view.version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(card.into()),
            face_down: false,
        };
        if legal.len() < 2 {
            table.player(actor).play_card(request(legal[0])).await.unwrap();
            continue;
        }
        // The same player on his phone and his tablet, at the same moment.
        let (first, second) = (request(legal[0]), request(legal[1]));
        let (mut phone, mut tablet) = (table.player(actor), table.player(actor));
        let (a, b) = tokio::join!(phone.play_card(first.clone()), tablet.play_card(second.clone()));
        let (won, lost, winner) = match (a, b) {
            (Ok(won), Err(lost)) => (won.into_inner(), lost, first),
            (Err(lost), Ok(won)) => (won.into_inner(), lost, second),
            other => panic!("exactly one of two racing plays wins: {other:?}"),
        };
        assert_eq!(lost.code(), Code::Aborted, "{}", lost.message());
        assert!(lost.message().contains(&format!("is at version {}", view.version + 1)), "{}", lost.message());
        // The winner's retry (a lost answer) returns the first answer and changes nothing.
        let again = table.player(actor).play_card(winner.clone()).await.unwrap().into_inner();
        assert_eq!(again, won);
        assert_eq!(table.version().await, view.version + 1);
        // The same key for another request is refused.
        let reused = game::PlayCardRequest { expected_version: winner.expected_version + 1, ..winner };
        assert_eq!(table.player(actor).play_card(reused).await.unwrap_err().code(), Code::InvalidArgument);
        races += 1;
    }
}

/// The game on the embedded default (SQLite, live state in the process): a recorded club deal
/// with an irregularity, played out and watched, and its record exported.
#[tokio::test]
async fn the_game_runs_on_the_embedded_default() {
    use Seat::*;
    let dir = std::env::temp_dir().join(format!("bc-game-embedded-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = platform::config::PlatformConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        sqlite_path: dir.join("bridge-club.db"),
        ..Default::default()
    };
    config.auth.local_key_file = dir.join("bridge-club.key");
    let club = club::Club::start(&config, &club::Settings::default()).await.unwrap();
    let issuer = club.resources.issuer.clone().unwrap();
    let channel = |subject: &str, role: Role| {
        let token = issuer.issue(subject, &[role], std::time::Duration::from_secs(600)).unwrap();
        let channel = platform::client::channel(&club.server.uri()).unwrap();
        let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
        tonic::service::interceptor::InterceptedService::new(channel, interceptor)
    };
    let client = |subject: &str, role: Role| GameClient::new(channel(subject, role));
    let (mut desk, mut arbiter) = (client("desk", Role::Desk), client("arbiter", Role::Arbiter));
    let lineup = Lineup::start_under_club_laws(
        &mut e2e::MembershipClient::new(channel("desk", Role::Desk)),
        &mut e2e::ScoringClient::new(channel("desk", Role::Desk)),
        pb::TableKind::Rubber,
        "embedded",
    )
    .await;
    let table_id = lineup.table_id.clone();
    let watcher = collect(client(&lineup.players[3], Role::Player), table_id.clone(), None).await;
    let mut version = 0;
    let start = game::StartDealRequest {
        table_id: table_id.clone(),
        expected_version: version,
        idempotency_key: key(),
        setup: Some(rubber(&lineup, game::PlayMode::Recorded, true)),
        hands: Some(game::start_deal_request::Hands::DealPbn(PBN.to_owned())),
    };
    version = desk.start_deal(start).await.unwrap().into_inner().view.unwrap().version;
    let calls = [(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S"), (East, "Pass")];
    for (seat, call) in calls.into_iter().chain([(South, "Pass"), (West, "Pass")]) {
        let request = game::MakeCallRequest {
            table_id: table_id.clone(),
            expected_version: version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            call: Some(pcall(call)),
            artificial: None,
        };
        version = desk.make_call(request).await.unwrap().into_inner().view.unwrap().version;
    }
    // West leads out of turn; the Arbiter is summoned (Club Law 13) and rules.
    let request = game::PlayCardRequest {
        table_id: table_id.clone(),
        expected_version: version,
        idempotency_key: key(),
        seat: West.to_proto(),
        card: Some(pcard("HA")),
        face_down: false,
    };
    let view = desk.play_card(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.open_arbiter_calls.len(), 1);
    let calls = arbiter.list_arbiter_calls(game::ListArbiterCallsRequest::default()).await.unwrap().into_inner();
    let call = calls.arbiter_calls.iter().find(|c| c.table_id == table_id).unwrap().clone();
    let decision = view.pending_decisions[0].clone();
    let option = decision.options.iter().find(|o| o.kind == "accept_lead").unwrap();
    let choose = game::ChooseRectificationRequest {
        table_id: table_id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: 0,
        call: None,
        artificial: None,
    };
    let view = arbiter.choose_rectification(choose).await.unwrap().into_inner().view.unwrap();
    let resolve = game::ResolveArbiterCallRequest {
        table_id: table_id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        arbiter_call_id: call.arbiter_call_id.clone(),
        resolution: "lead accepted".into(),
    };
    let mut view = arbiter.resolve_arbiter_call(resolve).await.unwrap().into_inner().view.unwrap();
    while view.phase == game::DealPhase::Play as i32 {
        let state = arbiter.get_table_state(game::GetTableStateRequest { table_id: table_id.clone() }).await;
        let state = state.unwrap().into_inner().view.unwrap();
        let seat = seat_of(state.next_to_act);
        let held = hand(&state, seat).unwrap();
        let led = state.tricks.last().filter(|t| t.cards.len() < 4).and_then(|t| t.cards.first());
        let led = led.map(|c| Card::try_from(c.card.unwrap()).unwrap().suit);
        let card = led.and_then(|s| held.suit(s).iter().next()).or_else(|| held.iter().next()).unwrap();
        let request = game::PlayCardRequest {
            table_id: table_id.clone(),
            expected_version: state.version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(card.into()),
            face_down: false,
        };
        view = desk.play_card(request).await.unwrap().into_inner().view.unwrap();
    }
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
    let events = watcher.await.unwrap();
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1);
    }
    let pbn = desk
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![view.deal_id.clone()] })
        .await
        .unwrap()
        .into_inner()
        .pbn;
    assert!(pbn.contains("[Contract \"4S\"]") && pbn.contains("[Play \"W\"]"), "{pbn}");
    club.server.shutdown().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn redis_behind_the_journal_is_caught_up_from_it() {
    use platform::live::LiveStore;
    let app = TestApp::spawn().await;
    let table = four_spades_played(&app, 3).await;
    let store = app.redis.store();
    let live_key = format!("game:table:{{{}}}", table.id);
    let behind = store.get(&live_key).await.unwrap().unwrap();
    let latest = table.play_cards(false, 1).await;
    assert_eq!(latest.version, behind.version + 1);
    // As if the process that committed the last card had stopped before updating Redis.
    store.put(&live_key, behind.clone()).await.unwrap();
    assert_eq!(table.view().await, latest, "readers get the journal's state");
    // A client that missed the last card is told the table moved on; one that saw it goes on.
    let stale = game::PlayCardRequest {
        table_id: table.id.clone(),
        expected_version: behind.version,
        idempotency_key: key(),
        seat: latest.next_to_act,
        card: Some(pcard("S2")),
        face_down: false,
    };
    store.put(&live_key, behind).await.unwrap();
    let status = table.desk().play_card(stale).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{}", status.message());
    let finished = table.play_out(false).await;
    assert_eq!(finished.phase, game::DealPhase::Finished as i32);
}

#[tokio::test]
async fn a_refusal_judged_on_a_live_state_behind_the_journal_is_a_stale_version_instead() {
    use platform::live::LiveStore;
    let app = TestApp::spawn().await;
    let table = four_spades_played(&app, 3).await;
    let store = app.redis.store();
    let live_key = format!("game:table:{{{}}}", table.id);
    let behind = store.get(&live_key).await.unwrap().unwrap();
    let before = table.view().await;
    let latest = table.play_cards(false, 1).await;
    // As if the process that committed the last card had stopped before updating Redis.
    store.put(&live_key, behind.clone()).await.unwrap();
    // A card the Laws would refuse on the state Redis holds (not that seat's turn, not in its
    // hand), from a client that missed the last card: that state is not the table's any more.
    let turns = [seat_of(before.next_to_act), seat_of(latest.next_to_act)];
    let wrong_seat = Seat::ALL.into_iter().find(|s| !turns.contains(s)).unwrap();
    let stale = game::PlayCardRequest {
        table_id: table.id.clone(),
        expected_version: behind.version,
        idempotency_key: key(),
        seat: wrong_seat.to_proto(),
        card: Some(pcard("S2")),
        face_down: false,
    };
    let status = table.desk().play_card(stale).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{}", status.message());
    assert!(status.message().contains(&format!("is at version {}", latest.version)), "{}", status.message());
    assert_eq!(table.view().await, latest, "nothing was written");
}

/// Two processes of the platform serve one table, as two replicas behind a load balancer do. Each
/// judges a command on the table as it last saw it only while the client expects that version, so
/// cards played alternately through both go on without a refusal; a client holding the version
/// one process saw last, which the other has moved on from, is told the table moved.
#[tokio::test]
async fn two_processes_serving_one_table_each_go_on_from_what_the_other_committed() {
    let app = TestApp::spawn().await;
    let table = four_spades_played(&app, 1).await;
    let replica = app.replica().await;
    let mut clients = [table.desk(), app.game_at(&replica, "front-desk", &[Role::Desk])];
    let mut arbiters = [table.arbiter(), app.game_at(&replica, "the-arbiter", &[Role::Arbiter])];
    let request = |view: &game::TableView| {
        let (seat, card) = lowest_legal_card(view);
        game::PlayCardRequest {
            table_id: table.id.clone(),
            expected_version: view.version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(pcard(&card.to_string())),
            face_down: false,
        }
    };
    let mut before_last = None;
    for i in 0..8 {
        let view = table.view_as(&mut arbiters[i % 2]).await;
        clients[i % 2].play_card(request(&view)).await.unwrap_or_else(|s| panic!("card {i}: {s:?}"));
        before_last = Some(view);
    }
    // The first process committed the seventh card and knows that version; the replica committed
    // the eighth. A client that missed the eighth card asks the first process.
    let stale = before_last.unwrap();
    let status = clients[0].play_card(request(&stale)).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{}", status.message());
    assert!(status.message().contains(&format!("is at version {}", stale.version + 1)), "{}", status.message());
    let finished = table.play_out(false).await;
    assert_eq!(finished.phase, game::DealPhase::Finished as i32);
    assert_eq!(finished.version, stale.version + 1 + 52 - 9, "every card once: none of the refused");
    replica.server.shutdown().await.unwrap();
}
