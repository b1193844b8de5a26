//! Journals replay as history. A command is journaled with the version of the Laws' rules that
//! accepted it; a command another version accepted replays as it was accepted, even where today's
//! rules would refuse it, and the table goes on under today's rules from there. What no rules
//! could accept fails as an internal error naming the command, never as a panic.
//!
//! Such journals are written here directly into Postgres, as an earlier release would have
//! written them, and Redis is flushed so that the table is rebuilt from them.

use ::game::stored::{StoredAction, StoredEvent, stored_action::Command};
use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::TestApp;
use platform::auth::Role;
use prost::Message;
use sea_orm::{ConnectionTrait, Statement};
use tonic::Code;

/// The last journal row of `table_id`: its sequence, version, deal and encoded event.
async fn last_row(app: &TestApp, table_id: &str) -> (i64, i64, String, Vec<u8>) {
    let db = app.database.connect().await;
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "SELECT sequence, version, deal_id, event FROM game_journal WHERE table_id = $1 ORDER BY sequence DESC",
            [table_id.into()],
        ))
        .await
        .unwrap()
        .unwrap();
    let _ = db.close().await;
    (
        row.try_get_by_index(0).unwrap(),
        row.try_get_by_index(1).unwrap(),
        row.try_get_by_index(2).unwrap(),
        row.try_get_by_index(3).unwrap(),
    )
}

/// Journals `action` at `table_id` after its last row, as accepted under `rules_version`, with
/// `event` made from the last row's, as the command's commit would have (the deal's row moves to
/// the new version with it).
async fn journal(
    app: &TestApp,
    table_id: &str,
    action: StoredAction,
    rules_version: i32,
    event: impl Fn(&mut StoredEvent),
) {
    let (sequence, version, deal_id, last) = last_row(app, table_id).await;
    let mut stored = StoredEvent::decode(last.as_slice()).unwrap();
    let table_event = stored.event.as_mut().unwrap();
    (table_event.sequence, table_event.version) = ((sequence + 1) as u64, (version + 1) as u64);
    event(&mut stored);
    let action = StoredAction { deal_id: deal_id.clone(), ..action };
    let db = app.database.connect().await;
    db.execute_raw(Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        "INSERT INTO game_journal (table_id, sequence, version, deal_id, kind, event, action, created_at, \
         rules_version) VALUES ($1, $2, $3, $4, 'CALL_MADE', $5, $6, now(), $7)",
        [
            table_id.into(),
            (sequence + 1).into(),
            (version + 1).into(),
            deal_id.clone().into(),
            stored.encode_to_vec().into(),
            action.encode_to_vec().into(),
            rules_version.into(),
        ],
    ))
    .await
    .unwrap();
    db.execute_raw(Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        "UPDATE game_deals SET table_version = $1 WHERE deal_id = $2",
        [(version + 1).into(), deal_id.into()],
    ))
    .await
    .unwrap();
    let _ = db.close().await;
}

fn call(seat: pb::Seat, call: &str) -> StoredAction {
    let request = game::MakeCallRequest {
        seat: seat as i32,
        call: Some(call.parse::<laws::Call>().unwrap().into()),
        ..Default::default()
    };
    StoredAction { actor: "an earlier release".into(), command: Some(Command::Call(request)), ..Default::default() }
}

/// The event of `seat`'s `call` in the journal, the auction's entry after North's, with `next`
/// to act.
fn made(seat: pb::Seat, call: &str, next: pb::Seat) -> impl Fn(&mut StoredEvent) {
    let call: pb::Call = call.parse::<laws::Call>().unwrap().into();
    move |stored| {
        let Some(game::table_event::Event::CallMade(made)) = &mut stored.event.as_mut().unwrap().event else {
            panic!("the last row is North's call")
        };
        let entry = made.entry.as_mut().unwrap();
        (entry.index, entry.seat, entry.call) = (entry.index + 1, seat as i32, Some(call));
        made.next_to_act = next as i32;
    }
}

async fn table_state(app: &TestApp, table_id: &str) -> Result<game::TableView, tonic::Status> {
    let request = game::GetTableStateRequest { table_id: table_id.to_owned() };
    let response = app.game("the-arbiter", &[Role::Arbiter]).get_table_state(request).await?;
    Ok(response.into_inner().view.unwrap())
}

async fn make_call(
    app: &TestApp,
    player: &str,
    table_id: &str,
    version: u64,
    seat: pb::Seat,
    call: &str,
) -> game::TableView {
    let request = game::MakeCallRequest {
        table_id: table_id.to_owned(),
        expected_version: version,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        seat: seat as i32,
        call: Some(call.parse::<laws::Call>().unwrap().into()),
        artificial: None,
    };
    let response = app.game(player, &[Role::Player]).make_call(request).await;
    response.unwrap_or_else(|s| panic!("{seat:?} {call}: {s:?}")).into_inner().view.unwrap()
}

/// A digital rubber deal at a new table, North dealing, after North's 1S.
async fn after_north_opens(app: &TestApp) -> (e2e::lineup::Lineup, game::TableView) {
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let setup = lineup.first_deal(game::PlayMode::Digital, false);
    let request = game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: 0,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(setup),
        hands: None,
    };
    let started = app.game("front-desk", &[Role::Desk]).start_deal(request).await.unwrap().into_inner();
    let version = started.view.unwrap().version;
    let view = make_call(app, &lineup.players[0], &lineup.table_id, version, pb::Seat::North, "1S").await;
    (lineup, view)
}

fn auction(view: &game::TableView) -> Vec<(i32, String)> {
    view.auction.iter().map(|e| (e.seat, laws::Call::try_from(e.call.unwrap()).unwrap().to_string())).collect()
}

#[tokio::test]
async fn a_call_an_earlier_rules_version_accepted_replays_as_accepted_and_play_goes_on() {
    let app = TestApp::spawn().await;
    let (lineup, view) = after_north_opens(&app).await;
    // Today a digital table refuses East's insufficient 1H (Law 27) ...
    let request = game::MakeCallRequest {
        table_id: lineup.table_id.clone(),
        expected_version: view.version,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        seat: pb::Seat::East as i32,
        call: Some("1H".parse::<laws::Call>().unwrap().into()),
        artificial: None,
    };
    let refused = app.game(&lineup.players[1], &[Role::Player]).make_call(request).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    // ... which rules accepted before they were numbered (version 0): so the journal kept it.
    let east = made(pb::Seat::East, "1H", pb::Seat::South);
    journal(&app, &lineup.table_id, call(pb::Seat::East, "1H"), 0, east).await;
    app.flush_redis().await;

    let replayed = view_ok(&app, &lineup.table_id).await;
    assert_eq!(replayed.version, view.version + 1);
    let (north, east) = (pb::Seat::North as i32, pb::Seat::East as i32);
    assert_eq!(auction(&replayed), vec![(north, "1S".to_owned()), (east, "1H".to_owned())]);
    assert_eq!(replayed.next_to_act, pb::Seat::South as i32);
    // The table goes on from there, judged by today's rules.
    let next = make_call(&app, &lineup.players[2], &lineup.table_id, replayed.version, pb::Seat::South, "2S").await;
    assert_eq!(auction(&next).len(), 3);
    assert_eq!(next.next_to_act, pb::Seat::West as i32);
}

async fn view_ok(app: &TestApp, table_id: &str) -> game::TableView {
    table_state(app, table_id).await.unwrap_or_else(|s| panic!("{s:?}"))
}

#[tokio::test]
async fn a_journal_that_no_rules_could_have_accepted_is_an_internal_error_not_a_panic() {
    let app = TestApp::spawn().await;
    let (lineup, view) = after_north_opens(&app).await;
    let (other, _) = after_north_opens(&app).await;
    // The same insufficient bid, journaled as accepted by the rules in force: they refuse it, so
    // the record is not what it says.
    let current = i32::try_from(laws::RULES_VERSION).unwrap();
    let east = made(pb::Seat::East, "1H", pb::Seat::South);
    journal(&app, &lineup.table_id, call(pb::Seat::East, "1H"), current, east).await;
    app.flush_redis().await;
    let broken = table_state(&app, &lineup.table_id).await.unwrap_err();
    assert_eq!(broken.code(), Code::Internal, "{broken:?}");
    // A call by West when it is East's turn: no rules make that a call of this digital auction.
    let west = made(pb::Seat::West, "2S", pb::Seat::North);
    journal(&app, &other.table_id, call(pb::Seat::West, "2S"), 0, west).await;
    app.flush_redis().await;
    let broken = table_state(&app, &other.table_id).await.unwrap_err();
    assert_eq!(broken.code(), Code::Internal, "{broken:?}");
    // The server goes on serving: another table's state is read as before.
    let (third, _) = after_north_opens(&app).await;
    assert_eq!(view_ok(&app, &third.table_id).await.version, view.version);
}
