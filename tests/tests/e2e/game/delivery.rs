//! Finished deals reaching scoring through the outbox: exactly once though scoring was down, a
//! duplicate table's result in its session, one trace from the result entered to the score
//! written, and a whole rubber played through the game service to Law 81's totals.

use api::common::v1 as pb;
use api::game::v1 as game;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;
use tracing::Instrument;

use super::{Table, board, enter_result, key, rubber, seat_of, session};

fn scoring_unreachable(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    // Nothing listens on the discard port: scoring is down.
    config.endpoints.scoring = Some("http://127.0.0.1:9".to_owned());
}

/// The outbox row of `deal_id`: topic, payload, attempts, last error, delivered.
async fn outbox_row(app: &TestApp, deal_id: &str) -> Option<(String, Vec<u8>, i32, Option<String>, bool)> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.database.connect().await;
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "SELECT topic, payload, attempts, last_error, delivered_at IS NOT NULL FROM outbox WHERE aggregate_id = $1",
            [deal_id.into()],
        ))
        .await
        .unwrap();
    let _ = db.close().await;
    row.map(|r| {
        (
            r.try_get_by_index(0).unwrap(),
            r.try_get_by_index(1).unwrap(),
            r.try_get_by_index(2).unwrap(),
            r.try_get_by_index(3).unwrap(),
            r.try_get_by_index(4).unwrap(),
        )
    })
}

/// Waits for the outbox row of `deal_id` to satisfy `done` (the worker runs in the background).
async fn outbox_when(
    app: &TestApp,
    deal_id: &str,
    done: impl Fn(&(String, Vec<u8>, i32, Option<String>, bool)) -> bool,
) -> (String, Vec<u8>, i32, Option<String>, bool) {
    for _ in 0..600 {
        if let Some(row) = outbox_row(app, deal_id).await.filter(|r| done(r)) {
            return row;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the outbox row of deal {deal_id} never got there: {:?}", outbox_row(app, deal_id).await);
}

/// Makes the outbox row of `deal_id` due now, as an operator would after a long backoff.
async fn due_now(app: &TestApp, deal_id: &str) {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.database.connect().await;
    db.execute_raw(Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        "UPDATE outbox SET next_attempt_at = now() WHERE aggregate_id = $1",
        [deal_id.into()],
    ))
    .await
    .unwrap();
    let _ = db.close().await;
}

async fn scorepad(app: &TestApp, scorepad_id: &str) -> api::scoring::v1::Scorepad {
    let request = api::scoring::v1::GetScorepadRequest { scorepad_id: scorepad_id.to_owned() };
    let pad = app.scoring("front-desk", &[Role::Desk]).get_scorepad(request).await.unwrap().into_inner();
    pad.scorepad.unwrap()
}

#[tokio::test]
async fn a_finished_deal_reaches_scoring_exactly_once_even_when_scoring_was_down() {
    use Seat::*;
    let mut app = TestApp::spawn().await;
    // The desk opens the rubber and its scorepad; the deal is its next one, started while scoring
    // answers (the deal is set up from the pad), and scoring goes down before it ends.
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let pad = scorepad(&app, &lineup.scorepad_id).await;
    let next = pad.next_deal.unwrap();
    let mut setup = rubber(&lineup, game::PlayMode::Recorded, false);
    (setup.dealer, setup.vulnerability, setup.result_only) = (next.dealer, next.vulnerability, true);
    {
        let table =
            Table { app: &app, id: lineup.table_id.clone(), players: lineup.players.clone(), lineup: None.into() };
        table.start(setup, None).await;
    }
    app.restart_with(scoring_unreachable).await;
    let (deal_id, scorepad_id, result) = {
        let table =
            Table { app: &app, id: lineup.table_id.clone(), players: lineup.players.clone(), lineup: None.into() };
        let view = enter_result(&table, "4S", North, 10, &[]).await.unwrap();
        (view.deal_id.clone(), pad.scorepad_id, view.outcome.unwrap().result)
    };

    // Written with the deal's last event; tried again and again while scoring is down.
    let (topic, payload, attempts, error, delivered) = outbox_when(&app, &deal_id, |r| r.2 >= 2).await;
    assert_eq!(topic, "scoring.RecordDealResult");
    assert!(!delivered && attempts >= 2);
    assert!(error.is_some_and(|e| !e.is_empty()));
    let request = <api::scoring::v1::RecordDealResultRequest as prost::Message>::decode(payload.as_slice()).unwrap();
    assert_eq!((request.deal_id.as_str(), request.scorepad_id.as_str()), (deal_id.as_str(), scorepad_id.as_str()));
    assert_eq!(request.deal_number, 1);
    assert_eq!(request.source, api::scoring::v1::ResultSource::Game as i32);
    assert_eq!(request.result, result);
    assert!(scorepad(&app, &scorepad_id).await.deals.is_empty());

    // Scoring is back: the result arrives, once.
    app.restart_as_configured().await;
    let (_, _, attempts, _, _) = outbox_when(&app, &deal_id, |r| r.4).await;
    let pad = scorepad(&app, &scorepad_id).await;
    let recorded: Vec<_> = pad.deals.iter().filter(|d| d.deal_id == deal_id).collect();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].result, result);
    assert_eq!(recorded[0].source, api::scoring::v1::ResultSource::Game as i32);

    // Its acknowledgement lost: delivered again, and scoring takes the repeat as a no-op.
    {
        use sea_orm::{ConnectionTrait, Statement};
        let db = app.database.connect().await;
        db.execute_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "UPDATE outbox SET delivered_at = NULL, next_attempt_at = now() WHERE aggregate_id = $1",
            [deal_id.clone().into()],
        ))
        .await
        .unwrap();
        let _ = db.close().await;
    }
    outbox_when(&app, &deal_id, |r| r.4 && r.2 > attempts).await;
    let again = scorepad(&app, &scorepad_id).await;
    assert_eq!(again.deals, pad.deals);
    assert_eq!(again.version, pad.version);

    // An abandoned deal owes nothing.
    let second = Table::seated(&app).await;
    second.start(second.rubber(game::PlayMode::Digital, false), None).await;
    let request = game::AbandonDealRequest {
        table_id: second.id.clone(),
        expected_version: second.version().await,
        idempotency_key: key(),
        reason: "players left".into(),
    };
    let abandoned = second.desk().abandon_deal(request).await.unwrap().into_inner().view.unwrap();
    assert!(outbox_row(&app, &abandoned.deal_id).await.is_none());
}

/// The outbox tries a failed delivery again only after seconds.
fn slow_retry(_: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    (settings.game.outbox.initial_backoff_ms, settings.game.outbox.max_backoff_ms) = (6000, 6000);
}

fn scoring_unreachable_slow_retry(config: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    scoring_unreachable(config, settings);
    slow_retry(config, settings);
}

/// The outbox tries a failed delivery again only after an hour.
fn retry_in_an_hour(_: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    (settings.game.outbox.initial_backoff_ms, settings.game.outbox.max_backoff_ms) = (3_600_000, 3_600_000);
}

/// Law 73: "deals are scored in order", so the pad takes deal 2 only once it shows deal 1. A club
/// plays the next deal at once, while the result of the one before may still be on its way from
/// the game to the pad: the start settles deal 2 from the pad as it will stand once deal 1's
/// result arrives (scoring tells it), neither waiting for the delivery nor refused for it. Here
/// the delivery failed (scoring was down) and is not due again for an hour; deal 2 starts all the
/// same, on the dealer and vulnerability the pad will show, and the pad takes deal 1 once the
/// delivery is made.
#[tokio::test]
async fn law_73_a_rubbers_next_deal_starts_while_the_result_before_is_on_its_way() {
    use Seat::*;
    let mut app = TestApp::spawn_with(slow_retry).await;
    let table = Table::seated(&app).await;
    let first = table.rubber(game::PlayMode::Recorded, false);
    let first = game::DealSetup { result_only: true, ..first };
    table.start(first, None).await;
    let (table_id, lineup) = (table.id.clone(), table.lineup());
    drop(table);

    // Scoring is down as the deal ends: the first delivery fails, and the next is an hour away.
    app.restart_with(scoring_unreachable_slow_retry).await;
    let table = Table { app: &app, id: table_id.clone(), players: lineup.players.clone(), lineup: None.into() };
    // 4S made by North, not vulnerable: a game for North-South, so deal 2 is played with
    // North-South vulnerable (Law 77).
    let deal_id = enter_result(&table, "4S", North, 10, &[]).await.unwrap().deal_id;
    outbox_when(&app, &deal_id, |r| r.2 >= 1 && r.3.is_some()).await;
    drop(table);

    app.restart_with(retry_in_an_hour).await;
    let table = Table { app: &app, id: table_id, players: lineup.players.clone(), lineup: Some(lineup.clone()).into() };
    let mut setup = table.rubber(game::PlayMode::Recorded, false);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut setup.source {
        deal.deal_number = 2;
    }
    (setup.dealer, setup.vulnerability, setup.result_only) = (0, 0, true);
    let second = table.start(setup, None).await;
    let pad = scorepad(&app, &lineup.scorepad_id).await;
    assert!(pad.deals.is_empty(), "deal 1's result is still on its way: {:?}", pad.deals);
    let started = second.setup.unwrap();
    assert_eq!(
        started.dealer,
        pb::Seat::East as i32,
        "deal 2 is dealt by the player on the first dealer's left (Law 9)"
    );
    assert_eq!(
        started.vulnerability,
        pb::Vulnerability::NorthSouth as i32,
        "North-South won a game in deal 1, so deal 2 is played with them vulnerable (Law 77)"
    );
    match started.source {
        Some(game::deal_setup::Source::Rubber(deal)) => assert_eq!(deal.deal_number, 2),
        other => panic!("deal 2 of the rubber, not {other:?}"),
    }

    // The delivery, made now, puts deal 1 on the pad, and the pad's next deal is the one played.
    due_now(&app, &deal_id).await;
    let (_, _, attempts, _, delivered) = outbox_when(&app, &deal_id, |r| r.4).await;
    assert!(delivered && attempts >= 2, "deal 1's result arrived on a later attempt: {attempts} attempts");
    let pad = scorepad(&app, &lineup.scorepad_id).await;
    assert_eq!(
        pad.deals.iter().map(|d| (d.deal_number, d.deal_id.as_str())).collect::<Vec<_>>(),
        [(1, deal_id.as_str())]
    );
    let next = pad.next_deal.unwrap();
    assert_eq!((next.deal_number, next.dealer, next.vulnerability), (2, started.dealer, started.vulnerability));

    // A deal further on, with nothing on its way, is refused at once as before.
    let mut setup = table.rubber(game::PlayMode::Recorded, false);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut setup.source {
        deal.deal_number = 4;
    }
    let request = game::StartDealRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        setup: Some(setup),
        hands: None,
    };
    let refused = table.desk().start_deal(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
    assert!(refused.message().contains("Law 73"), "{}", refused.message());
}

#[tokio::test]
async fn a_duplicate_tables_result_reaches_its_session() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let session = session(&app, &[(2, None)]).await;
    let table = Table::new(&app);
    table.start(board(&table.players, game::PlayMode::Digital, &session, 2), None).await;
    // Duplicate Law 2: East deals board 2.
    for (seat, call) in [(East, "1N"), (South, "Pass"), (West, "Pass"), (North, "Pass")] {
        table.call_as(&mut table.player(seat), seat, call).await.unwrap();
    }
    let view = table.play_out(true).await;
    let result = view.outcome.clone().unwrap().result;
    outbox_when(&app, &view.deal_id, |r| r.4).await;
    let request = api::scoring::v1::ListBoardResultsRequest {
        session_id: session,
        board_number: 2,
        page: None,
        ..Default::default()
    };
    let results = app.scoring("front-desk", &[Role::Desk]).list_board_results(request).await.unwrap().into_inner();
    let ours: Vec<_> = results.results.iter().filter(|r| r.deal_id == view.deal_id).collect();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].table_result, result);
    let key = ours[0].key.clone().unwrap();
    assert_eq!((key.north_south_contestant_id.as_str(), key.east_west_contestant_id.as_str()), ("1", "2"));
}

/// A rubber's scorepad at `table` in the scoring service, North dealing first.
async fn rubber_pad(table: &Table<'_>) -> api::scoring::v1::Scorepad {
    scorepad(table.app, &table.lineup().scorepad_id).await
}

/// Starts the pad's next deal at `table`, its number, dealer and vulnerability from the pad as
/// the contract says (`Scorepad.next_deal`); `None` once the rubber is over.
async fn start_next_deal(
    table: &Table<'_>,
    pad: &api::scoring::v1::Scorepad,
    mode: game::PlayMode,
) -> Option<game::TableView> {
    let next = pad.next_deal?;
    let mut setup = table.rubber(mode, false);
    setup.source = Some(game::deal_setup::Source::Rubber(game::RubberDeal {
        rubber_id: pad.rubber_id.clone(),
        scorepad_id: pad.scorepad_id.clone(),
        deal_number: next.deal_number,
        club_laws: false,
    }));
    (setup.dealer, setup.vulnerability) = (next.dealer, next.vulnerability);
    setup.result_only = mode == game::PlayMode::Recorded;
    Some(table.start(setup, None).await)
}

/// The pad once scoring has recorded deal `deal_id` (it travels through the game's outbox).
async fn pad_with(app: &TestApp, scorepad_id: &str, deal_id: &str) -> api::scoring::v1::Scorepad {
    outbox_when(app, deal_id, |r| r.4).await;
    let pad = scorepad(app, scorepad_id).await;
    assert!(pad.deals.iter().any(|d| d.deal_id == deal_id), "deal {deal_id} acknowledged but not on the pad");
    pad
}

/// docs/architecture.md, "Observability": one trace shows a card played (here a result entered),
/// the deal finishing, and the score being written, though the result reaches scoring through the
/// outbox and a background worker.
#[tokio::test]
async fn one_trace_shows_the_deal_finishing_and_scoring_writing_its_result() {
    use Seat::*;
    e2e::telemetry();
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let pad = rubber_pad(&table).await;
    start_next_deal(&table, &pad, game::PlayMode::Recorded).await.unwrap();

    let root = tracing::info_span!("test.client");
    let trace_id = e2e::trace_id(&root);
    let view = enter_result(&table, "4S", North, 10, &[]).instrument(root).await.unwrap();
    pad_with(&app, &pad.scorepad_id, &view.deal_id).await;

    let entered = "/bridgeclub.game.v1.GameService/EnterResult";
    let recorded = "/bridgeclub.scoring.v1.ScoringService/RecordDealResult";
    let delivery = "outbox.deliver scoring.RecordDealResult";
    let trace = e2e::trace_when(trace_id, |spans| {
        [entered, recorded, delivery].iter().all(|name| spans.iter().any(|s| s.name == *name))
            && spans.iter().any(|s| s.name == "test.client")
    })
    .await;
    let named = |name: &str| trace.iter().find(|s| s.name == name).unwrap();
    let client = named("test.client");
    let handler = named(entered);
    assert_eq!(handler.parent_span_id, client.span_context.span_id(), "the game handler is the client's call");
    let deliveries: Vec<_> = trace.iter().filter(|s| s.name == delivery).collect();
    assert_eq!(deliveries.len(), 1, "delivered once, at the first attempt");
    assert!(
        e2e::descends_from(&trace, deliveries[0], handler.span_context.span_id()),
        "the delivery continues the handler that wrote the outbox row: {trace:#?}"
    );
    assert!(
        deliveries[0].links.links.iter().any(|link| link.span_context.trace_id() != trace_id),
        "the delivery links the worker's claim that took it: {:#?}",
        deliveries[0]
    );
    let scoring: Vec<_> = trace.iter().filter(|s| s.name == recorded).collect();
    assert_eq!(scoring.len(), 1);
    assert_eq!(
        scoring[0].parent_span_id,
        deliveries[0].span_context.span_id(),
        "scoring's span is the delivery's call"
    );
}

/// A result entered at a recorded table: contract, declarer, tricks and honors.
type Entered<'a> = (&'a str, Seat, u32, &'a [pb::Honors]);

/// A rubber played through the game service ends with the right totals and bonus. Each deal is started from the pad's next deal (number, dealer, vulnerability), played
/// digitally or entered as a result, and reaches the pad through the outbox; the totals are worked
/// by hand from Law 81's table.
#[tokio::test]
async fn a_rubber_played_through_the_game_service_ends_with_the_law_81_totals_and_bonus() {
    use Seat::*;
    use api::scoring::v1 as scoring;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let mut pad = rubber_pad(&table).await;
    let ns_four_honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    // (contract, declarer, tricks, honors) entered at a recorded table; `None`: a digital deal,
    // passed out by the players themselves.
    let deals: [Option<Entered>; 6] = [
        None,
        Some(("4S", South, 11, std::slice::from_ref(&ns_four_honors))),
        Some(("2H", East, 8, &[])),
        Some(("3NTX", North, 7, &[])),
        Some(("2S", West, 9, &[])),
        Some(("6D", South, 12, &[])),
    ];
    let mut dealt = Vec::new();
    for deal in deals {
        let mode = if deal.is_some() { game::PlayMode::Recorded } else { game::PlayMode::Digital };
        let started = start_next_deal(&table, &pad, mode).await.expect("the rubber is still on");
        let setup = started.setup.clone().unwrap();
        let dealer = seat_of(setup.dealer);
        dealt.push((dealer, pb::Vulnerability::try_from(setup.vulnerability).unwrap()));
        let view = match deal {
            Some((contract, declarer, tricks, honors)) => {
                enter_result(&table, contract, declarer, tricks, honors).await.unwrap()
            }
            None => {
                let mut view = started;
                for seat in [dealer, dealer.next(), dealer.next().next(), dealer.next().next().next()] {
                    view = table.call_as(&mut table.player(seat), seat, "Pass").await.unwrap();
                }
                view
            }
        };
        assert_eq!(view.phase, game::DealPhase::Finished as i32, "{view:?}");
        pad = pad_with(&app, &pad.scorepad_id, &view.deal_id).await;
    }

    // Law 9: the deal passes clockwise, a passed-out deal included (Law 22A: the next dealer
    // deals). Law 73: a side is vulnerable once it has won a game: North-South from deal 3, both
    // from deal 6.
    use pb::Vulnerability as V;
    assert_eq!(
        dealt,
        [
            (North, V::None),
            (East, V::None),
            (South, V::NorthSouth),
            (West, V::NorthSouth),
            (North, V::NorthSouth),
            (East, V::Both)
        ]
    );
    assert_eq!(pad.status, scoring::ScorepadStatus::Finished as i32, "North-South won two games (Law 74)");
    assert!(pad.next_deal.is_none(), "no deal after the rubber");
    assert!(start_next_deal(&table, &pad, game::PlayMode::Recorded).await.is_none());
    assert!(pad.deals.iter().all(|d| d.source == scoring::ResultSource::Game as i32 && !d.struck));
    let games: Vec<i32> = pad.games.iter().map(|g| g.winner).collect();
    let (ns, ew) = (pb::Side::NorthSouth as i32, pb::Side::EastWest as i32);
    assert_eq!(games, [ns, ew, ns], "games to North-South (4S), East-West (2H then 2S), North-South (6D)");

    // Law 81, by hand:
    // 1. passed out: nothing.
    // 2. 4S by South, 11 tricks, not vulnerable: 4 x 30 = 120 below (game), one overtrick 30
    //    above, South's four trump honors 100 above. North-South 250.
    // 3. 2H by East, 8 tricks: 2 x 30 = 60 below (a partscore toward game 2). East-West 60.
    // 4. 3NT doubled by North, 7 tricks (two down), vulnerable: 200 + 300 = 500 above to
    //    East-West. East-West 560.
    // 5. 2S by West, 9 tricks, not vulnerable: 60 below (60 + 60 = 120: game), one overtrick 30
    //    above. East-West 650.
    // 6. 6D by South, 12 tricks, vulnerable: 6 x 20 = 120 below (game and rubber), small slam
    //    vulnerable 750 above, rubber bonus two games to one 500 (Law 74). North-South
    //    250 + 120 + 750 + 500 = 1620.
    let entries = |side: i32| -> Vec<(u32, i32, u32, i32)> {
        pad.entries
            .iter()
            .filter(|e| e.side == side && !e.struck)
            .map(|e| (e.deal_number, e.line, e.points, e.item))
            .collect()
    };
    use scoring::ScoreItem as I;
    let (below, above) = (scoring::ScoreLine::Below as i32, scoring::ScoreLine::Above as i32);
    let number = |i: usize| pad.deals.iter().filter(|d| !d.struck).nth(i).unwrap().deal_number;
    let mut north_south = entries(ns);
    north_south.sort();
    let mut expected = vec![
        (number(1), below, 120, I::TrickPoints as i32),
        (number(1), above, 30, I::Overtricks as i32),
        (number(1), above, 100, I::Honors as i32),
        (number(5), below, 120, I::TrickPoints as i32),
        (number(5), above, 750, I::Slam as i32),
        (0, above, 500, I::RubberBonus as i32),
    ];
    expected.sort();
    assert_eq!(north_south, expected);
    let mut east_west = entries(ew);
    east_west.sort();
    let mut expected = vec![
        (number(2), below, 60, I::TrickPoints as i32),
        (number(3), above, 500, I::Undertricks as i32),
        (number(4), below, 60, I::TrickPoints as i32),
        (number(4), above, 30, I::Overtricks as i32),
    ];
    expected.sort();
    assert_eq!(east_west, expected);
    let (north_south, east_west) = (pad.north_south.unwrap(), pad.east_west.unwrap());
    assert_eq!((north_south.total, east_west.total), (1620, 650));
    assert_eq!((north_south.games_won, east_west.games_won), (2, 1));
    let net = pad.net.unwrap();
    assert_eq!((net.winner, net.margin), (ns, 970), "1620 - 650");
}
