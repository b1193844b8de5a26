//! A change rescores its own board and moves the standings, through the service: what it
//! stores equals the session scored whole from the same results, Law 12C2(c) artificial scores
//! elsewhere included; the watch stream carries what moved; narrowed reads keep the board
//! secret.

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use e2e::{ScoringClient, TestApp};
use platform::auth::Role;
use scoring::session::{ButlerDatum, Row, score};

use super::played;

const PAIRS: u32 = 8;

async fn create(app: &TestApp, boards: u32) -> spb::Session {
    let request = spb::CreateSessionRequest {
        name: "Board by board".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=boards).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: (1..=PAIRS)
            .map(|n| spb::Contestant {
                name: format!("Pair {n}"),
                player_ids: vec![format!("q{n}a"), format!("q{n}b")],
                ..Default::default()
            })
            .collect(),
    };
    app.register_contestants(&request).await;
    app.scoring("desk", &[Role::Desk]).create_session(request).await.unwrap().into_inner().session.unwrap()
}

fn key(session: &spb::Session, board: u32, ns: u32) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: board,
        north_south_contestant_id: ns.to_string(),
        east_west_contestant_id: (ns + 1).to_string(),
    }
}

async fn record(desk: &mut ScoringClient, session: &spb::Session, board: u32, ns: u32, tricks: u32) {
    desk.record_board_result(spb::RecordBoardResultRequest {
        key: Some(key(session, board, ns)),
        deal_id: format!("{}-{board}-{ns}", session.session_id),
        result: Some(played("4S", pb::Seat::North, tricks)),
        source: spb::ResultSource::Game as i32,
        hands: None,
    })
    .await
    .unwrap();
}

fn award(grade: pb::ArtificialGrade) -> Option<pb::ArtificialAward> {
    Some(pb::ArtificialAward { award: Some(pb::artificial_award::Award::Grade(grade as i32)) })
}

async fn adjust(app: &TestApp, session: &spb::Session, board: u32, ns: u32, adjustment: pb::adjustment::Kind) -> u64 {
    app.scoring("service:appeals", &[Role::Service])
        .apply_adjustment(spb::ApplyAdjustmentRequest {
            ruling_id: format!("ruling-{board}-{ns}-{}", uuid::Uuid::new_v4()),
            appeal_id: String::new(),
            target: Some(pb::ScoreTarget {
                target: Some(pb::score_target::Target::BoardResult(key(session, board, ns))),
            }),
            change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment { kind: Some(adjustment) })),
            reason: "ruling".into(),
            law: None,
        })
        .await
        .unwrap()
        .into_inner()
        .version
        .unwrap()
        .version
}

/// Every result of the session as stored, in the order the session scores them.
async fn results(desk: &mut ScoringClient, session: &spb::Session) -> Vec<spb::BoardResult> {
    let request = spb::ListBoardResultsRequest { session_id: session.session_id.clone(), ..Default::default() };
    desk.list_board_results(request).await.unwrap().into_inner().results
}

/// What the service stores equals the session scored whole from the same results.
async fn assert_as_whole(desk: &mut ScoringClient, session: &spb::Session) {
    let stored = results(desk, session).await;
    let rows: Vec<Row> = stored
        .iter()
        .map(|r| {
            let key = r.key.clone().unwrap();
            Row {
                board: key.board_number,
                ns: key.north_south_contestant_id,
                ew: key.east_west_contestant_id,
                table_result: r.table_result.clone(),
                adjustment: r.adjustment.clone(),
                form: u8::try_from(r.form).unwrap(),
            }
        })
        .collect();
    let whole = score(session, &rows, ButlerDatum::default()).unwrap();
    for (result, (ns, ew)) in stored.iter().zip(&whole.values) {
        assert_eq!((result.north_south.as_ref(), result.east_west.as_ref()), (Some(ns), Some(ew)), "{result:?}");
    }
    let standings = desk
        .get_standings(spb::GetStandingsRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .standings;
    assert_eq!(standings, whole.standings);
}

/// Law 12C2(c): pair 1's average plus on board 3 follows its percentage on boards 1 and 2. A
/// correction on board 1 moves that percentage: board 3 is valued again (a RECOMPUTED version),
/// and nothing else is; after every change the stored scores equal the whole session's.
#[tokio::test]
async fn a_change_rescores_its_board_and_the_artificial_scores_that_follow_it() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create(&app, 4).await;
    for board in 1..=2 {
        for (ns, tricks) in [(1, 11), (3, 10), (5, 10), (7, 9)] {
            record(&mut desk, &session, board, ns, tricks).await;
        }
    }
    for (ns, tricks) in [(3, 10), (5, 9), (7, 11)] {
        record(&mut desk, &session, 3, ns, tricks).await;
        record(&mut desk, &session, 4, ns, tricks).await;
    }
    let artificial = pb::ArtificialScore {
        north_south: award(pb::ArtificialGrade::AveragePlus),
        east_west: award(pb::ArtificialGrade::AverageMinus),
    };
    adjust(&app, &session, 3, 1, pb::adjustment::Kind::Artificial(artificial)).await;
    assert_as_whole(&mut desk, &session).await;
    let before = results(&mut desk, &session).await;

    let request = spb::GetSessionRequest { session_id: session.session_id.clone(), ..Default::default() };
    let current = desk.get_session(request).await.unwrap().into_inner().session.unwrap().version;
    let corrected = desk
        .correct_board_result(spb::CorrectBoardResultRequest {
            key: Some(key(&session, 1, 1)),
            expected_version: current,
            corrected_result: Some(played("4S", pb::Seat::North, 8)),
            reason: "the traveller was misread".into(),
            approved_after_correction_period: false,
        })
        .await
        .unwrap()
        .into_inner()
        .version
        .unwrap();
    assert_as_whole(&mut desk, &session).await;
    let after = results(&mut desk, &session).await;
    let moved: Vec<(u32, String)> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.north_south != a.north_south || b.east_west != a.east_west)
        .map(|(_, a)| (a.key.as_ref().unwrap().board_number, a.key.as_ref().unwrap().north_south_contestant_id.clone()))
        .collect();
    assert!(moved.iter().all(|(board, ns)| *board == 1 || (*board == 3 && ns == "1")), "{moved:?}");
    assert!(moved.contains(&(3, "1".to_owned())), "pair 1's average plus follows its percentage: {moved:?}");
    let versions = desk
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::SessionId(session.session_id.clone())),
            target: None,
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    let recomputed: Vec<&spb::ScoreVersion> =
        versions.iter().filter(|v| v.cause == spb::ScoreVersionCause::Recomputed as i32).collect();
    assert_eq!(recomputed.len(), 1, "{recomputed:?}");
    assert_eq!(recomputed[0].version, corrected.version + 1);

    // An assigned score on board 4, as the whole session scores it too.
    let assigned = pb::AssignedScore { result: Some(played("4S", pb::Seat::North, 12)) };
    adjust(&app, &session, 4, 7, pb::adjustment::Kind::Assigned(assigned)).await;
    assert_as_whole(&mut desk, &session).await;
}

/// The stream carries what moved: a result on a board of several sends that result and those
/// whose scores moved with it, and the standings rows that changed.
#[tokio::test]
async fn the_watch_stream_carries_what_moved() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create(&app, 2).await;
    record(&mut desk, &session, 1, 1, 10).await;
    record(&mut desk, &session, 1, 3, 10).await;
    record(&mut desk, &session, 2, 5, 10).await;
    let request = spb::WatchSessionRequest { session_id: session.session_id.clone(), after_sequence: None };
    let mut watch = desk.watch_session(request).await.unwrap().into_inner();
    let first = watch.message().await.unwrap().unwrap().event.unwrap();
    assert!(matches!(first.event, Some(spb::session_event::Event::Snapshot(_))));

    // Board 2 gets a second table: both its results move (the top is now 2), board 1 does not.
    record(&mut desk, &session, 2, 7, 11).await;
    let mut board = None;
    let mut standings = None;
    while standings.is_none() {
        match watch.message().await.unwrap().unwrap().event.unwrap().event {
            Some(spb::session_event::Event::BoardRescored(b)) => board = Some(b),
            Some(spb::session_event::Event::StandingsChanged(s)) => standings = Some(s),
            other => panic!("{other:?}"),
        }
    }
    let board = board.expect("the board before the standings");
    assert_eq!(board.board_number, 2);
    assert!(board.only_moved);
    let mut moved: Vec<&str> =
        board.results.iter().map(|r| r.key.as_ref().unwrap().north_south_contestant_id.as_str()).collect();
    moved.sort_unstable();
    assert_eq!(moved, vec!["5", "7"]);
    let standings = standings.unwrap();
    assert!(standings.only_moved);
    let mut rows: Vec<&str> = standings.standings.iter().map(|s| s.contestant_id.as_str()).collect();
    rows.sort_unstable();
    assert!(["5", "7", "8"].iter().all(|p| rows.contains(p)), "the pairs whose scores moved: {rows:?}");
}

/// Narrowed reads leave out; they never show more. A player who has not played board 2 is not
/// shown its hands through GetSession narrowed to it, nor its result through ListBoardResults
/// narrowed to one table.
#[tokio::test]
async fn narrowed_reads_keep_a_board_secret() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let hands = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";
    let session = create(&app, 2).await;
    record(&mut desk, &session, 1, 1, 10).await;
    desk.record_board_result(spb::RecordBoardResultRequest {
        key: Some(key(&session, 2, 3)),
        deal_id: "board-2".into(),
        result: Some(played("4S", pb::Seat::North, 10)),
        source: spb::ResultSource::Game as i32,
        hands: Some(pb::Deal::from(hands.parse::<laws::Deal>().unwrap())),
    })
    .await
    .unwrap();

    let narrowed = |board| spb::GetSessionRequest {
        session_id: session.session_id.clone(),
        board_number: board,
        contestant_ids: vec!["1".into(), "2".into()],
    };
    let mut player = app.scoring("q1a", &[Role::Player]);
    let seen = player.get_session(narrowed(2)).await.unwrap().into_inner().session.unwrap();
    assert_eq!(seen.boards.iter().map(|b| (b.number, b.deal.is_some())).collect::<Vec<_>>(), vec![(2, false)]);
    assert_eq!(seen.contestants.iter().map(|c| c.contestant_id.as_str()).collect::<Vec<_>>(), vec!["1", "2"]);
    let staff = desk.get_session(narrowed(2)).await.unwrap().into_inner().session.unwrap();
    assert!(staff.boards.iter().all(|b| b.number == 2 && b.deal.is_some()));

    let table = |ns: &str| spb::ListBoardResultsRequest {
        session_id: session.session_id.clone(),
        board_number: 2,
        page: None,
        north_south_contestant_id: ns.into(),
    };
    assert!(player.list_board_results(table("3")).await.unwrap().into_inner().results.is_empty());
    let one = desk.list_board_results(table("3")).await.unwrap().into_inner().results;
    assert_eq!(one.len(), 1);
    assert!(desk.list_board_results(table("5")).await.unwrap().into_inner().results.is_empty());
}
