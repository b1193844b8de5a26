//! Duplicate sessions on a real server: matchpoints and cross-IMPs across several boards,
//! artificial (60/40) and weighted adjusted scores ranked with Law 12C2(c), corrections, what a
//! player may see before publication, the session stream, and the PBN and USEBIO exports read
//! back by third-party readers.

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use e2e::{ScoringClient, TestApp};
use platform::auth::Role;
use tonic::Code;

use super::{passed_out, played};

/// Six pairs: 1, 3 and 5 sit North-South, 2, 4 and 6 East-West, at tables 1, 2 and 3.
const TABLES: [(&str, &str); 3] = [("1", "2"), ("3", "4"), ("5", "6")];

async fn create_session(app: &TestApp, method: spb::ScoringMethod, boards: u32, hands: &[(u32, &str)]) -> spb::Session {
    let request = spb::CreateSessionRequest {
        name: "Tuesday pairs".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: method as i32,
        boards: (1..=boards)
            .map(|number| spb::Board {
                number,
                dealer: 0,
                vulnerability: 0,
                deal: hands
                    .iter()
                    .find(|(b, _)| *b == number)
                    .map(|(_, pbn)| pb::Deal::from(pbn.parse::<laws::Deal>().unwrap())),
                released: false,
            })
            .collect(),
        contestants: (1..=6)
            .map(|n| spb::Contestant {
                contestant_id: String::new(),
                name: format!("Pair {n}"),
                player_ids: vec![format!("p{n}a"), format!("p{n}b")],
                captain_player_id: String::new(),
            })
            .collect(),
    };
    app.register_contestants(&request).await;
    let created = app.scoring("desk", &[Role::Desk]).create_session(request).await.unwrap();
    created.into_inner().session.unwrap()
}

fn key(session: &spb::Session, board: u32, table: usize) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: board,
        north_south_contestant_id: TABLES[table].0.into(),
        east_west_contestant_id: TABLES[table].1.into(),
    }
}

async fn record(
    client: &mut ScoringClient,
    session: &spb::Session,
    board: u32,
    table: usize,
    result: pb::DealResult,
) -> Result<spb::RecordBoardResultResponse, tonic::Status> {
    client
        .record_board_result(spb::RecordBoardResultRequest {
            key: Some(key(session, board, table)),
            deal_id: format!("{}-b{board}-t{table}", session.session_id),
            result: Some(result),
            source: spb::ResultSource::Game as i32,
            hands: None,
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Boards 1 to 3 (duplicate Law 2: board 1 nobody vulnerable, dealer North; board 2 North-South
/// vulnerable, dealer East; board 3 East-West vulnerable, dealer South).
async fn play_three_boards(client: &mut ScoringClient, session: &spb::Session, board3_table2: pb::DealResult) {
    let results = [
        // Board 1, North-South: +420, +450, +170.
        (1, 0, played("4S", pb::Seat::North, 10)),
        (1, 1, played("4S", pb::Seat::North, 11)),
        (1, 2, played("3S", pb::Seat::South, 10)),
        // Board 2, North-South: -400 (3NT= by East, not vulnerable), +50, -400.
        (2, 0, played("3NT", pb::Seat::East, 9)),
        (2, 1, played("3NT", pb::Seat::East, 8)),
        (2, 2, played("3NT", pb::Seat::West, 9)),
        // Board 3, North-South: +110, the given result at table 2, +100 (1NT-1, East-West vulnerable).
        (3, 0, played("2H", pb::Seat::South, 8)),
        (3, 1, board3_table2),
        (3, 2, played("1NT", pb::Seat::West, 6)),
    ];
    for (board, table, result) in results {
        record(client, session, board, table, result).await.unwrap();
    }
}

async fn standings(client: &mut ScoringClient, session: &spb::Session) -> spb::GetStandingsResponse {
    client
        .get_standings(spb::GetStandingsRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
}

/// (contestant, rank, tied, percentage in basis points)
fn by_percentage(standings: &spb::GetStandingsResponse) -> Vec<(String, u32, bool, i32)> {
    standings
        .standings
        .iter()
        .map(|s| {
            let percentage = s.score.as_ref().and_then(|v| v.percentage).map_or(0, |p| p.basis_points);
            (s.contestant_id.clone(), s.rank, s.tied, percentage)
        })
        .collect()
}

fn owned(expected: &[(&str, u32, bool, i32)]) -> Vec<(String, u32, bool, i32)> {
    expected.iter().map(|(c, r, t, p)| ((*c).to_owned(), *r, *t, *p)).collect()
}

async fn board(client: &mut ScoringClient, session: &spb::Session, number: u32) -> Vec<spb::BoardResult> {
    client
        .list_board_results(spb::ListBoardResultsRequest {
            session_id: session.session_id.clone(),
            board_number: number,
            page: None,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .results
}

/// (North-South contestant, NS units in hundredths, NS top in hundredths, NS basis points, EW basis points)
fn matchpoints(results: &[spb::BoardResult]) -> Vec<(String, i64, i64, i32, i32)> {
    results
        .iter()
        .map(|r| {
            let ns = r.north_south.unwrap();
            let ew = r.east_west.unwrap();
            (
                r.key.as_ref().unwrap().north_south_contestant_id.clone(),
                ns.matchpoints.unwrap().hundredths,
                ns.top.unwrap().hundredths,
                ns.percentage.unwrap().basis_points,
                ew.percentage.unwrap().basis_points,
            )
        })
        .collect()
}

#[tokio::test]
async fn a_session_of_three_boards_matchpointed_ranked_and_corrected() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create_session(&app, spb::ScoringMethod::Matchpoints, 3, &[]).await;
    // Law 2: dealer and vulnerability from the board number.
    let conditions: Vec<(u32, i32, i32)> =
        session.boards.iter().map(|b| (b.number, b.dealer, b.vulnerability)).collect();
    assert_eq!(
        conditions,
        vec![
            (1, pb::Seat::North as i32, pb::Vulnerability::None as i32),
            (2, pb::Seat::East as i32, pb::Vulnerability::NorthSouth as i32),
            (3, pb::Seat::South as i32, pb::Vulnerability::EastWest as i32)
        ]
    );
    let ids: Vec<&str> = session.contestants.iter().map(|c| c.contestant_id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5", "6"]);
    play_three_boards(&mut desk, &session, passed_out()).await;

    // Law 78A, board 1: +450 beats both (4 units of a top of 4), +420 one (2), +170 none.
    assert_eq!(
        matchpoints(&board(&mut desk, &session, 1).await),
        vec![("1".into(), 200, 400, 5000, 5000), ("3".into(), 400, 400, 10000, 0), ("5".into(), 0, 400, 0, 10000)]
    );
    // Board 2: +50 beats both; the two -400s tie (1 unit each).
    assert_eq!(
        matchpoints(&board(&mut desk, &session, 2).await),
        vec![("1".into(), 100, 400, 2500, 7500), ("3".into(), 400, 400, 10000, 0), ("5".into(), 100, 400, 2500, 7500)]
    );
    // Points (Law 77): board 1 at table 1 is +420 for North-South and -420 for East-West.
    let first = &board(&mut desk, &session, 1).await[0];
    assert_eq!(first.north_south.unwrap().points.unwrap().hundredths, 42_000);
    assert_eq!(first.east_west.unwrap().points.unwrap().hundredths, -42_000);

    // Ranked by the mean of the board percentages: pair 6 (100, 75, 50) first, pair 5 last.
    let ranked = standings(&mut desk, &session).await;
    assert_eq!(ranked.scoring_method, spb::ScoringMethod::Matchpoints as i32);
    assert_eq!(
        by_percentage(&ranked),
        owned(&[
            ("6", 1, false, 7500),
            ("3", 2, false, 6667),
            ("1", 3, false, 5833),
            ("2", 4, false, 4167),
            ("4", 5, false, 3333),
            ("5", 6, false, 2500)
        ])
    );
    let six = &ranked.standings[0];
    assert_eq!(
        (six.score.unwrap().matchpoints.unwrap().hundredths, six.score.unwrap().top.unwrap().hundredths),
        (900, 1200)
    );
    assert_eq!(six.boards_played, 3);

    // A pair scores a board once (Law 78A): a second, different result is refused.
    let status = record(&mut desk, &session, 1, 0, played("4S", pb::Seat::North, 9)).await.unwrap_err();
    assert_eq!(status.code(), Code::AlreadyExists);
    let status = desk
        .record_board_result(spb::RecordBoardResultRequest {
            key: Some(pb::BoardResultKey { east_west_contestant_id: "4".into(), ..key(&session, 1, 0) }),
            deal_id: "another".into(),
            result: Some(played("4S", pb::Seat::North, 10)),
            source: spb::ResultSource::Desk as i32,
            hands: None,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 78A"), "{}", status.message());
    // Recording the same result again changes nothing.
    let version = standings(&mut desk, &session).await.version;
    let again = record(&mut desk, &session, 1, 0, played("4S", pb::Seat::North, 10)).await.unwrap();
    assert_eq!(again.version.unwrap().version, 1);
    assert_eq!(standings(&mut desk, &session).await.version, version);

    // Law 79C: board 1 at table 3 was 3S+1 by South... recorded wrongly; it was 4S=.
    let status = desk
        .correct_board_result(spb::CorrectBoardResultRequest {
            key: Some(key(&session, 1, 2)),
            expected_version: version - 1,
            corrected_result: Some(played("4S", pb::Seat::South, 10)),
            reason: "traveller misread".into(),
            approved_after_correction_period: false,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Aborted);
    let corrected = desk
        .correct_board_result(spb::CorrectBoardResultRequest {
            key: Some(key(&session, 1, 2)),
            expected_version: version,
            corrected_result: Some(played("4S", pb::Seat::South, 10)),
            reason: "traveller misread".into(),
            approved_after_correction_period: false,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(corrected.version.as_ref().unwrap().cause, spb::ScoreVersionCause::Correction as i32);
    assert_eq!(corrected.result.unwrap().source, spb::ResultSource::Correction as i32);
    // Board 1 is rescored across the field: +450 4 units, the two +420s 1 each.
    assert_eq!(
        matchpoints(&board(&mut desk, &session, 1).await),
        vec![("1".into(), 100, 400, 2500, 7500), ("3".into(), 400, 400, 10000, 0), ("5".into(), 100, 400, 2500, 7500)]
    );
}

#[tokio::test]
async fn an_artificial_60_40_and_a_weighted_score_are_ranked_with_law_12c2c() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let mut appeals = app.scoring("service:appeals", &[Role::Service]);
    let session = create_session(&app, spb::ScoringMethod::Matchpoints, 4, &[]).await;
    play_three_boards(&mut desk, &session, passed_out()).await;
    // Board 4 (both vulnerable): table 2 +620, table 3 -100; table 1 could not play it.
    record(&mut desk, &session, 4, 1, played("4H", pb::Seat::North, 10)).await.unwrap();
    record(&mut desk, &session, 4, 2, played("4H", pb::Seat::North, 9)).await.unwrap();

    let adjust = |ruling: &str, key: pb::BoardResultKey, kind: pb::adjustment::Kind| spb::ApplyAdjustmentRequest {
        ruling_id: ruling.into(),
        appeal_id: String::new(),
        target: Some(pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key)) }),
        change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment { kind: Some(kind) })),
        reason: "director's ruling".into(),
        law: None,
    };
    // Law 12C1(c): board 3 at table 2 is weighted half 2H= by South (+110), half 2H-1 (-50).
    let weight = |bp| Some(pb::Percentage { basis_points: bp });
    let weighted = pb::adjustment::Kind::Weighted(pb::WeightedScore {
        results: vec![
            pb::WeightedResult { result: Some(played("2H", pb::Seat::South, 8)), weight: weight(5000) },
            pb::WeightedResult { result: Some(played("2H", pb::Seat::South, 7)), weight: weight(5000) },
        ],
    });
    let applied = appeals.apply_adjustment(adjust("w1", key(&session, 3, 1), weighted)).await.unwrap().into_inner();
    assert_eq!(applied.version.unwrap().cause, spb::ScoreVersionCause::Adjustment as i32);
    // North-South's components: +110 ties +110 and beats +100 (3 units), -50 beats nothing; half
    // each is 1.5 of 4, 37.5%. The others are compared with each component, weighted the same:
    // +110 scores 2 + 1.5 = 3.5 units (87.5%), +100 scores 0 + 1 (25%).
    assert_eq!(
        matchpoints(&applied.board_results),
        vec![
            ("1".into(), 350, 400, 8750, 1250),
            ("3".into(), 150, 400, 3750, 6250),
            ("5".into(), 100, 400, 2500, 7500)
        ]
    );
    let weighted_result = &applied.board_results[1];
    assert_eq!(weighted_result.kind, spb::ResultKind::Weighted as i32);
    assert_eq!(weighted_result.north_south.unwrap().points.unwrap().hundredths, 3_000, "half of +110 and -50");
    assert!(weighted_result.table_result.is_some(), "the table result is kept");

    // Law 12C2(a): table 1 could not play board 4; North-South in no way at fault (average plus),
    // East-West directly at fault (average minus). Law 12C2(c): pair 1's own percentage (54.17)
    // is under 60, so 60; pair 2's (45.83) is over 40, so 40.
    let grade = |g: pb::ArtificialGrade| {
        Some(pb::ArtificialAward { award: Some(pb::artificial_award::Award::Grade(g as i32)) })
    };
    let artificial = pb::adjustment::Kind::Artificial(pb::ArtificialScore {
        north_south: grade(pb::ArtificialGrade::AveragePlus),
        east_west: grade(pb::ArtificialGrade::AverageMinus),
    });
    let applied =
        appeals.apply_adjustment(adjust("a1", key(&session, 4, 0), artificial.clone())).await.unwrap().into_inner();
    let table_1 =
        applied.board_results.iter().find(|r| r.key.as_ref().unwrap().north_south_contestant_id == "1").unwrap();
    assert_eq!(table_1.kind, spb::ResultKind::Artificial as i32);
    assert!(table_1.table_result.is_none(), "stored as what it is, not as a made-up contract");
    assert_eq!(table_1.north_south.unwrap().percentage.unwrap().basis_points, 6000);
    assert_eq!(table_1.east_west.unwrap().percentage.unwrap().basis_points, 4000);
    assert!(table_1.north_south.unwrap().points.is_none(), "an artificial score has no points");

    // Means over four boards: pair 6 (100, 75, 75, 100) 87.5; pair 3 (100, 100, 37.5, 100)
    // 84.375; pair 1 (50, 25, 87.5, 60) 55.625; pair 2 (50, 75, 12.5, 40) 44.375; pair 4
    // (0, 0, 62.5, 0) 15.625; pair 5 (0, 25, 25, 0) 12.5.
    assert_eq!(
        by_percentage(&standings(&mut desk, &session).await),
        owned(&[
            ("6", 1, false, 8750),
            ("3", 2, false, 8438),
            ("1", 3, false, 5563),
            ("2", 4, false, 4438),
            ("4", 5, false, 1563),
            ("5", 6, false, 1250)
        ])
    );

    // A correction on board 2 (table 1 was 3NT-2 by East, +100) lifts pair 1's own percentage
    // to (50 + 100 + 87.5) / 3 = 79.17 and drops pair 2's to 20.83: the artificial scores on
    // board 4 follow (Law 12C2(c)) as a recomputed version of their own.
    let version = standings(&mut desk, &session).await.version;
    let corrected = desk
        .correct_board_result(spb::CorrectBoardResultRequest {
            key: Some(key(&session, 2, 0)),
            expected_version: version,
            corrected_result: Some(played("3NT", pb::Seat::East, 7)),
            reason: "wrong trick count on the traveller".into(),
            approved_after_correction_period: false,
        })
        .await
        .unwrap()
        .into_inner();
    let correction_version = corrected.version.unwrap().version;
    let board_4 = board(&mut desk, &session, 4).await;
    let table_1 = board_4.iter().find(|r| r.key.as_ref().unwrap().north_south_contestant_id == "1").unwrap();
    assert_eq!(table_1.north_south.unwrap().percentage.unwrap().basis_points, 7917);
    assert_eq!(table_1.east_west.unwrap().percentage.unwrap().basis_points, 2083);
    assert_eq!(table_1.version, correction_version + 1);
    let versions = desk
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::SessionId(session.session_id.clone())),
            target: Some(pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key(&session, 4, 0))) }),
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    let causes: Vec<i32> = versions.iter().map(|v| v.cause).collect();
    assert_eq!(causes, vec![spb::ScoreVersionCause::Adjustment as i32, spb::ScoreVersionCause::Recomputed as i32]);
    assert!(versions[1].reason.contains("12C2(c)"), "{}", versions[1].reason);
    // Pair 1: (50 + 100 + 87.5 + 79.17) / 4 = 79.17; pair 3 (100, 50, 37.5, 100) 71.875; pair 4
    // (0, 50, 62.5, 0) 28.125; pair 2 (50, 0, 12.5, 20.83) 20.83; pair 5 (0, 0, 25, 0) 6.25.
    assert_eq!(
        by_percentage(&standings(&mut desk, &session).await),
        owned(&[
            ("6", 1, false, 9375),
            ("1", 2, false, 7917),
            ("3", 3, false, 7188),
            ("4", 4, false, 2813),
            ("2", 5, false, 2083),
            ("5", 6, false, 625)
        ])
    );
    // The same ruling applied again changes nothing.
    let again = appeals.apply_adjustment(adjust("a1", key(&session, 4, 0), artificial)).await.unwrap().into_inner();
    assert_eq!(again.version.unwrap().cause, spb::ScoreVersionCause::Adjustment as i32);
    assert_eq!(standings(&mut desk, &session).await.version, correction_version + 1);
}

#[tokio::test]
async fn a_session_scored_by_cross_imps() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create_session(&app, spb::ScoringMethod::CrossImps, 3, &[]).await;
    play_three_boards(&mut desk, &session, passed_out()).await;
    // Law 78B, board 1 (+420, +450, +170), averaged per comparison: +420 wins 6 against +170 and
    // loses 1 against +450, 2.5; +450 (1 + 7) / 2 = 4; +170 (-6 - 7) / 2 = -6.5.
    let imps: Vec<(i64, i64)> = board(&mut desk, &session, 1)
        .await
        .iter()
        .map(|r| (r.north_south.unwrap().imps.unwrap().hundredths, r.east_west.unwrap().imps.unwrap().hundredths))
        .collect();
    assert_eq!(imps, vec![(250, -250), (400, -400), (-650, 650)]);
    // Totals: pair 3 (4 + 10 - 3) 11, pair 6 (6.5 + 5 - 1.5) 10, pair 2 1, pair 1 -1, pair 5 -10,
    // pair 4 -11.
    let ranked: Vec<(String, u32, i64)> = standings(&mut desk, &session)
        .await
        .standings
        .iter()
        .map(|s| (s.contestant_id.clone(), s.rank, s.score.unwrap().imps.unwrap().hundredths))
        .collect();
    assert_eq!(
        ranked,
        vec![
            ("3".into(), 1, 1100),
            ("6".into(), 2, 1000),
            ("2".into(), 3, 100),
            ("1".into(), 4, -100),
            ("5".into(), 5, -1000),
            ("4".into(), 6, -1100)
        ]
    );
    // A total-points session takes no artificial score (Law 12C2 defines it only in matchpoints
    // and IMPs).
    let totals = create_session(&app, spb::ScoringMethod::TotalPoints, 1, &[]).await;
    let grade = |g: pb::ArtificialGrade| {
        Some(pb::ArtificialAward { award: Some(pb::artificial_award::Award::Grade(g as i32)) })
    };
    let status = app
        .scoring("service:appeals", &[Role::Service])
        .apply_adjustment(spb::ApplyAdjustmentRequest {
            ruling_id: "r".into(),
            appeal_id: String::new(),
            target: Some(pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key(&totals, 1, 0))) }),
            change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
                kind: Some(pb::adjustment::Kind::Artificial(pb::ArtificialScore {
                    north_south: grade(pb::ArtificialGrade::Average),
                    east_west: grade(pb::ArtificialGrade::Average),
                })),
            })),
            reason: String::new(),
            law: None,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 12C2"), "{}", status.message());
}

const BOARD_1: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";
const BOARD_2: &str = "N:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432";

#[tokio::test]
async fn before_publication_a_player_sees_only_the_boards_he_has_played() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create_session(&app, spb::ScoringMethod::Matchpoints, 2, &[(1, BOARD_1), (2, BOARD_2)]).await;
    record(&mut desk, &session, 1, 0, played("4S", pb::Seat::North, 10)).await.unwrap();
    record(&mut desk, &session, 2, 1, played("3NT", pb::Seat::East, 9)).await.unwrap();

    // p1a (pair 1) has played board 1, not board 2.
    let mut player = app.scoring("p1a", &[Role::Player]);
    let seen = player
        .get_session(spb::GetSessionRequest { session_id: session.session_id.clone(), ..Default::default() })
        .await
        .unwrap();
    let hands: Vec<(u32, bool)> =
        seen.into_inner().session.unwrap().boards.iter().map(|b| (b.number, b.deal.is_some())).collect();
    assert_eq!(hands, vec![(1, true), (2, false)]);
    let results = player
        .list_board_results(spb::ListBoardResultsRequest {
            session_id: session.session_id.clone(),
            board_number: 0,
            page: None,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .results;
    assert_eq!(results.iter().map(|r| r.key.as_ref().unwrap().board_number).collect::<Vec<_>>(), vec![1]);
    let status = player
        .export_session_pbn(spb::ExportSessionPbnRequest { session_id: session.session_id.clone() })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);

    // Watching: the snapshot hides board 2; a result on board 2 at another table is not sent,
    // but pair 1's own result on board 2 is, and the standings are.
    let mut watch = player
        .watch_session(spb::WatchSessionRequest { session_id: session.session_id.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap().event.unwrap();
    let Some(spb::session_event::Event::Snapshot(snapshot)) = first.event else { panic!("a snapshot first") };
    assert!(snapshot.session.unwrap().boards[1].deal.is_none());
    assert_eq!(snapshot.standings.len(), 4);
    record(&mut desk, &session, 2, 2, played("3NT", pb::Seat::West, 8)).await.unwrap();
    record(&mut desk, &session, 2, 0, played("3NT", pb::Seat::East, 10)).await.unwrap();
    let mut boards_seen = Vec::new();
    let mut sequences = vec![first.sequence];
    while boards_seen.is_empty() {
        let event = watch.message().await.unwrap().unwrap().event.unwrap();
        sequences.push(event.sequence);
        if let Some(spb::session_event::Event::BoardRescored(rescored)) = event.event {
            boards_seen.push(rescored.board_number);
            let pairs: Vec<&str> =
                rescored.results.iter().map(|r| r.key.as_ref().unwrap().north_south_contestant_id.as_str()).collect();
            assert!(pairs.contains(&"1"), "pair 1's own result on board 2: {pairs:?}");
        }
    }
    assert_eq!(boards_seen, vec![2]);
    assert!(sequences.windows(2).all(|w| w[0] < w[1]), "in order: {sequences:?}");
    drop(watch);

    // Once the official score is published, everyone sees everything.
    let published = desk
        .publish_official_scores(spb::PublishOfficialScoresRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    assert_eq!(published.status, spb::SessionStatus::Published as i32);
    let (at, ends) = (published.scores_published_at.unwrap(), published.correction_period_ends_at.unwrap());
    assert_eq!(ends.seconds - at.seconds, 30 * 60, "Law 79C1: 30 minutes");
    let seen = player
        .get_session(spb::GetSessionRequest { session_id: session.session_id.clone(), ..Default::default() })
        .await
        .unwrap();
    assert!(seen.into_inner().session.unwrap().boards.iter().all(|b| b.deal.is_some()));
}

fn run_python(python: &std::path::Path, script: &str, input: &str, suffix: &str) -> serde_json::Value {
    let file = std::env::temp_dir().join(format!("export-{}.{suffix}", uuid::Uuid::new_v4().simple()));
    std::fs::write(&file, input).unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("python").join(script);
    let output = std::process::Command::new(python).arg(&script).arg(&file).output().unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(output.status.success(), "{}: {}\n{input}", script.display(), String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn a_session_exported_as_pbn_is_read_back_by_endplay_and_as_usebio_by_an_xml_parser() {
    let python = e2e::python_with(&[("endplay", "endplay")]);
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = create_session(&app, spb::ScoringMethod::Matchpoints, 3, &[(1, BOARD_1)]).await;
    // Board 2's hands arrive with the first result the game service records for it.
    desk.record_board_result(spb::RecordBoardResultRequest {
        key: Some(key(&session, 2, 0)),
        deal_id: "hands".into(),
        result: Some(played("3NTX", pb::Seat::East, 8)),
        source: spb::ResultSource::Game as i32,
        hands: Some(pb::Deal::from(BOARD_2.parse::<laws::Deal>().unwrap())),
    })
    .await
    .unwrap();
    let others = [
        (1, 0, played("4S", pb::Seat::North, 10)),
        (1, 1, played("6HXX", pb::Seat::West, 12)),
        (1, 2, passed_out()),
        (2, 1, played("2C", pb::Seat::South, 8)),
        (3, 0, played("7NT", pb::Seat::North, 13)),
    ];
    for (board, table, result) in others {
        record(&mut desk, &session, board, table, result).await.unwrap();
    }
    let pbn = desk
        .export_session_pbn(spb::ExportSessionPbnRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .pbn;
    let games = run_python(&python, "read_pbn.py", &pbn, "pbn");
    let games = games.as_array().unwrap();
    // One game per result, by board, with the same contracts and results as recorded.
    /// A game as read: board, contract, declarer, tricks, score tag.
    type Game<'a> = (u64, Option<&'a str>, Option<&'a str>, Option<u64>, Option<&'a str>);
    let read: Vec<Game> = games
        .iter()
        .map(|g| {
            (
                g["board"].as_u64().unwrap(),
                g["contract"].as_str(),
                g.get("declarer").and_then(|d| d.as_str()),
                g.get("tricks").and_then(|t| t.as_u64()),
                g["score"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        read,
        vec![
            (1, Some("4S"), Some("N"), Some(10), Some("NS 420")),
            // 6HXX=, nobody vulnerable: 720 + 300 game + 500 slam + 100 for making it redoubled.
            (1, Some("6HXX"), Some("W"), Some(12), Some("NS -1620")),
            (1, Some("Pass"), None, None, Some("NS 0")),
            // Board 2, North-South vulnerable: 3NTX-1 by East (not vulnerable) 100; 2C= 90.
            (2, Some("3NTX"), Some("E"), Some(8), Some("NS 100")),
            (2, Some("2C"), Some("S"), Some(8), Some("NS 90")),
            // Board 3, East-West vulnerable: 7NT= by North, 220 + 300 + 1000.
            (3, Some("7NT"), Some("N"), Some(13), Some("NS 1520")),
        ]
    );
    // The hands the reader found are the board's, from whichever seat it writes first.
    let deal_of = |i: usize| games[i]["deal"].as_str().map(|d| d.parse::<laws::Deal>().unwrap());
    assert_eq!(deal_of(0), Some(BOARD_1.parse().unwrap()));
    assert_eq!(deal_of(3), Some(BOARD_2.parse().unwrap()));
    assert!(!pbn.contains("[Deal \"?\"]") && pbn.matches("[Deal ").count() == 5, "board 3 has no known hands");

    let xml = desk
        .export_session_usebio(spb::ExportSessionUsebioRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .xml;
    let document = run_python(&python, "check_usebio.py", &xml, "xml");
    assert_eq!(document["version"], "1.2");
    assert_eq!(document["event_type"], "MP_PAIRS");
    assert_eq!(document["pairs"].as_array().unwrap().len(), 6);
    let lines = document["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[1]["contract"], "6H**");
    assert_eq!(lines[1]["score"], "-1620");
}

#[tokio::test]
async fn a_team_match_scored_by_team_imps() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let request = spb::CreateSessionRequest {
        name: "Club teams".into(),
        contestant_kind: spb::ContestantKind::Teams as i32,
        scoring_method: spb::ScoringMethod::TeamImps as i32,
        boards: (1..=2).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: ["A", "B"]
            .iter()
            .map(|t| spb::Contestant {
                contestant_id: (*t).into(),
                name: format!("Team {t}"),
                player_ids: (1..=4).map(|i| format!("{t}{i}")).collect(),
                captain_player_id: format!("{t}1"),
            })
            .collect(),
    };
    app.register_contestants(&request).await;
    let session = desk.create_session(request).await.unwrap().into_inner().session.unwrap();
    let at = |board: u32, ns: &str, ew: &str| pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: board,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    };
    let record = |key: pb::BoardResultKey, result: pb::DealResult| {
        let mut desk = desk.clone();
        async move {
            desk.record_board_result(spb::RecordBoardResultRequest {
                deal_id: format!(
                    "{}-{}-{}",
                    key.board_number, key.north_south_contestant_id, key.east_west_contestant_id
                ),
                key: Some(key),
                result: Some(result),
                source: spb::ResultSource::Game as i32,
                hands: None,
            })
            .await
            .unwrap()
            .into_inner()
        }
    };
    // Board 1 at the first table: A bids 4S= (+420). Until the other table has played it, the
    // board is pending (Law 78B compares the two tables).
    let first = record(at(1, "A", "B"), played("4S", pb::Seat::North, 10)).await;
    assert!(first.result.unwrap().north_south.unwrap().imps.is_none());
    // The other table: B's North-South stop in 2S+2 (+170). A nets 250: 6 IMPs.
    let second = record(at(1, "B", "A"), played("2S", pb::Seat::South, 10)).await;
    let second = second.result.unwrap();
    assert_eq!(second.north_south.unwrap().imps.unwrap().hundredths, -600, "B's IMPs on the board");
    assert_eq!(second.east_west.unwrap().imps.unwrap().hundredths, 600, "A's IMPs on the board");
    // Board 2, North-South vulnerable: A makes 3NT (+600); B goes one down in it (-100). A nets
    // 700: 12 IMPs.
    record(at(2, "A", "B"), played("3NT", pb::Seat::North, 9)).await;
    record(at(2, "B", "A"), played("3NT", pb::Seat::North, 8)).await;
    let ranked: Vec<(String, u32, i64, u32)> = standings(&mut desk, &session)
        .await
        .standings
        .iter()
        .map(|s| (s.contestant_id.clone(), s.rank, s.score.unwrap().imps.unwrap().hundredths, s.boards_played))
        .collect();
    assert_eq!(ranked, vec![("A".into(), 1, 1800, 2), ("B".into(), 2, -1800, 2)]);
    // Teams are scored by team IMPs only.
    let status = desk
        .create_session(spb::CreateSessionRequest {
            name: "wrong".into(),
            contestant_kind: spb::ContestantKind::Teams as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: vec![spb::Board { number: 1, ..Default::default() }],
            contestants: vec![spb::Contestant::default(), spb::Contestant::default()],
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn butler_imps_and_total_points_with_a_split_score() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let butler = create_session(&app, spb::ScoringMethod::ButlerImps, 3, &[]).await;
    play_three_boards(&mut desk, &butler, passed_out()).await;
    // Law 78B against a datum (the mean of the board's scores rounded to ten; no trimming under
    // five scores): board 1 (+420, +450, +170) has datum 350, so +70 is 2 IMPs, +100 3, -180 -5.
    let imps: Vec<i64> =
        board(&mut desk, &butler, 1).await.iter().map(|r| r.north_south.unwrap().imps.unwrap().hundredths).collect();
    assert_eq!(imps, vec![200, 300, -500]);
    // Board 2 (datum -250): -4, +7, -4; board 3 (datum 70): +1, -2, +1. Totals: pairs 3 and 6
    // +8 (tied first), pair 2 +1, pair 1 -1, pairs 4 and 5 -8 (tied fifth).
    let ranked: Vec<(String, u32, bool, i64)> = standings(&mut desk, &butler)
        .await
        .standings
        .iter()
        .map(|s| (s.contestant_id.clone(), s.rank, s.tied, s.score.unwrap().imps.unwrap().hundredths))
        .collect();
    assert_eq!(
        ranked,
        vec![
            ("3".into(), 1, true, 800),
            ("6".into(), 1, true, 800),
            ("2".into(), 3, false, 100),
            ("1".into(), 4, false, -100),
            ("4".into(), 5, true, -800),
            ("5".into(), 5, true, -800)
        ]
    );

    // Total points (Law 78C) with a split score on board 1 at table 1 (Law 12C1e): North-South
    // keep 4S= (+420), East-West are assigned 4S+1 against them (-450).
    let totals = create_session(&app, spb::ScoringMethod::TotalPoints, 3, &[]).await;
    play_three_boards(&mut desk, &totals, passed_out()).await;
    let assigned = |result: pb::DealResult| pb::SideAdjustment {
        kind: Some(pb::side_adjustment::Kind::Assigned(pb::AssignedScore { result: Some(result) })),
    };
    let split = app
        .scoring("service:appeals", &[Role::Service])
        .apply_adjustment(spb::ApplyAdjustmentRequest {
            ruling_id: "split".into(),
            appeal_id: String::new(),
            target: Some(pb::ScoreTarget { target: Some(pb::score_target::Target::BoardResult(key(&totals, 1, 0))) }),
            change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
                kind: Some(pb::adjustment::Kind::Split(pb::SplitScore {
                    north_south: Some(assigned(played("4S", pb::Seat::North, 10))),
                    east_west: Some(assigned(played("4S", pb::Seat::North, 11))),
                })),
            })),
            reason: "self-inflicted damage".into(),
            law: None,
        })
        .await
        .unwrap()
        .into_inner();
    let table_1 = &split.board_results[0];
    assert_eq!(table_1.kind, spb::ResultKind::Split as i32);
    assert_eq!(
        (
            table_1.north_south.unwrap().points.unwrap().hundredths,
            table_1.east_west.unwrap().points.unwrap().hundredths
        ),
        (42_000, -45_000),
        "a split score need not balance"
    );
    // Pair 3: 450 + 50 + 0 = 500; pairs 1 (420 - 400 + 110) and 6 (-170 + 400 - 100) 130; pair
    // 5 -130; pair 2 (-450 + 400 - 110) -160; pair 4 -500.
    let ranked: Vec<(String, u32, i64)> = standings(&mut desk, &totals)
        .await
        .standings
        .iter()
        .map(|s| (s.contestant_id.clone(), s.rank, s.score.unwrap().points.unwrap().hundredths))
        .collect();
    assert_eq!(
        ranked,
        vec![
            ("3".into(), 1, 50_000),
            ("1".into(), 2, 13_000),
            ("6".into(), 2, 13_000),
            ("5".into(), 4, -13_000),
            ("2".into(), 5, -16_000),
            ("4".into(), 6, -50_000)
        ]
    );
}
