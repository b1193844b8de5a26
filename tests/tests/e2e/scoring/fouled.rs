//! A fouled board (Law 87B) on a real server: the Director's groups, the board rescored group by
//! group as a new score version, the standings before and after, the stream, and undoing it.
//!
//! Law 87B: "In scoring a fouled board the Director determines as closely as possible which scores
//! were obtained on the board in its correct form and which in the changed form(s). He divides the
//! scores on that basis into groups and rates each group separately as provided in the regulations
//! for the tournament. (In the absence of a relevant regulation the Director selects and announces
//! his method.)"

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use e2e::{ScoringClient, TestApp};
use platform::auth::Role;
use tonic::Code;

use super::{passed_out, played};

/// Twelve pairs at six tables: pair 2t+1 North-South, 2t+2 East-West at table t+1. Board 1
/// (nobody vulnerable) scores +450, +420, +420, +170, -50, -100 for North-South; board 2 is
/// passed out at every table (50% each).
async fn session_of_six_tables(desk: &mut ScoringClient) -> spb::Session {
    let session = desk
        .create_session(spb::CreateSessionRequest {
            name: "Thursday pairs".into(),
            contestant_kind: spb::ContestantKind::Pairs as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: (1..=2).map(|number| spb::Board { number, ..Default::default() }).collect(),
            contestants: (1..=12)
                .map(|n| spb::Contestant { name: format!("Pair {n}"), ..Default::default() })
                .collect(),
        })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    let board_1 = [
        played("4S", pb::Seat::North, 11),
        played("4S", pb::Seat::North, 10),
        played("4S", pb::Seat::North, 10),
        played("3S", pb::Seat::North, 10),
        played("4S", pb::Seat::North, 9),
        played("4S", pb::Seat::North, 8),
    ];
    for (t, result) in board_1.into_iter().enumerate() {
        for (board, result) in [(1, result), (2, passed_out())] {
            desk.record_board_result(spb::RecordBoardResultRequest {
                key: Some(key(&session, board, t)),
                deal_id: format!("{}-b{board}-t{t}", session.session_id),
                result: Some(result),
                source: spb::ResultSource::Game as i32,
                hands: None,
            })
            .await
            .unwrap();
        }
    }
    session
}

fn key(session: &spb::Session, board: u32, table: usize) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: board,
        north_south_contestant_id: (2 * table + 1).to_string(),
        east_west_contestant_id: (2 * table + 2).to_string(),
    }
}

/// (contestant, rank, tied, percentage in basis points)
async fn standings(client: &mut ScoringClient, session: &spb::Session) -> (u64, Vec<(String, u32, bool, i32)>) {
    let response = client
        .get_standings(spb::GetStandingsRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner();
    let rows = response
        .standings
        .iter()
        .map(|s| {
            let percentage = s.score.as_ref().and_then(|v| v.percentage).map_or(0, |p| p.basis_points);
            (s.contestant_id.clone(), s.rank, s.tied, percentage)
        })
        .collect();
    (response.version, rows)
}

fn owned(expected: &[(&str, u32, bool, i32)]) -> Vec<(String, u32, bool, i32)> {
    expected.iter().map(|(c, r, t, p)| ((*c).to_owned(), *r, *t, *p)).collect()
}

/// (North-South contestant, form, NS units in hundredths, NS top in hundredths, NS and EW basis points)
fn board_1(results: &[spb::BoardResult]) -> Vec<(String, u32, i64, i64, i32, i32)> {
    results
        .iter()
        .map(|r| {
            let (ns, ew) = (r.north_south.unwrap(), r.east_west.unwrap());
            (
                r.key.as_ref().unwrap().north_south_contestant_id.clone(),
                r.form,
                ns.matchpoints.unwrap().hundredths,
                ns.top.unwrap().hundredths,
                ns.percentage.unwrap().basis_points,
                ew.percentage.unwrap().basis_points,
            )
        })
        .collect()
}

async fn listed(client: &mut ScoringClient, session: &spb::Session) -> Vec<spb::BoardResult> {
    client
        .list_board_results(spb::ListBoardResultsRequest {
            session_id: session.session_id.clone(),
            board_number: 1,
            page: None,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .results
}

fn mark(session: &spb::Session, forms: &[(&str, u32)]) -> spb::MarkFouledBoardRequest {
    spb::MarkFouledBoardRequest {
        session_id: session.session_id.clone(),
        board_number: 1,
        forms: forms
            .iter()
            .map(|(ns, form)| spb::BoardForm { north_south_contestant_id: (*ns).to_owned(), form: *form })
            .collect(),
        reason: "the East and West hands were interchanged after round 4".into(),
    }
}

#[tokio::test]
async fn a_fouled_board_is_scored_in_groups_and_the_standings_follow() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let mut director = app.scoring("director", &[Role::Arbiter]);
    let session = session_of_six_tables(&mut desk).await;

    // Before: one field of six tables, top 10 (Law 78A). North-South 100, 70, 70, 40, 20, 0;
    // East-West the complements; board 2 is 50% for all. Percentage = (board 1 + 50) / 2.
    let (version, before) = standings(&mut desk, &session).await;
    assert_eq!(
        before,
        owned(&[
            ("1", 1, true, 7500),
            ("12", 1, true, 7500),
            ("10", 3, false, 6500),
            ("3", 4, true, 6000),
            ("5", 4, true, 6000),
            ("8", 6, false, 5500),
            ("7", 7, false, 4500),
            ("4", 8, true, 4000),
            ("6", 8, true, 4000),
            ("9", 10, false, 3500),
            ("2", 11, true, 2500),
            ("11", 11, true, 2500),
        ])
    );

    // Only the Director (or the administrator) divides a board into groups.
    let status = desk.mark_fouled_board(mark(&session, &[("9", 1), ("11", 1)])).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    // Bad input names the field; nothing is applied.
    let status = director.mark_fouled_board(mark(&session, &[("9", 1), ("2", 1)])).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("forms[1].north_south_contestant_id"), "{}", status.message());
    assert!(status.message().contains("Law 87B"), "{}", status.message());
    let status = director.mark_fouled_board(mark(&session, &[("9", 256)])).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("forms[0].form"), "{}", status.message());
    let status = director.mark_fouled_board(mark(&session, &[("9", 1), ("9", 2)])).await.unwrap_err();
    assert!(status.message().contains("forms[1].north_south_contestant_id"), "{}", status.message());
    assert_eq!(standings(&mut desk, &session).await.0, version, "nothing half-applied");

    let mut watch = desk
        .watch_session(spb::WatchSessionRequest { session_id: session.session_id.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let snapshot = watch.message().await.unwrap().unwrap().event.unwrap();

    // Tables 5 and 6 (North-South pairs 9 and 11) played the changed form.
    let fouled = director.mark_fouled_board(mark(&session, &[("9", 1), ("11", 1)])).await.unwrap().into_inner();
    let made = fouled.version.unwrap();
    assert_eq!(made.version, version + 1);
    assert_eq!(made.cause, spb::ScoreVersionCause::FouledBoard as i32);
    assert_eq!(made.law.as_ref().map(|l| (l.number, l.section.as_str())), Some((87, "B")));
    // Correct form, 4 tables, top 6: +450 6, +420 3 and 3, +170 0. Changed form, 2 tables, top 2:
    // -50 2, -100 0.
    let expected = vec![
        ("1".to_owned(), 0, 600, 600, 10000, 0),
        ("3".to_owned(), 0, 300, 600, 5000, 5000),
        ("5".to_owned(), 0, 300, 600, 5000, 5000),
        ("7".to_owned(), 0, 0, 600, 0, 10000),
        ("9".to_owned(), 1, 200, 200, 10000, 0),
        ("11".to_owned(), 1, 0, 200, 0, 10000),
    ];
    assert_eq!(board_1(&fouled.board_results), expected);
    assert_eq!(board_1(&listed(&mut desk, &session).await), expected);

    // After: the group's percentage on the board's full top. 100% for 1, 8, 9 and 12; 50% for 3 to
    // 6; 0% for 2, 7, 10 and 11.
    let (after_version, after) = standings(&mut desk, &session).await;
    assert_eq!(after_version, made.version);
    assert_eq!(
        after,
        owned(&[
            ("1", 1, true, 7500),
            ("8", 1, true, 7500),
            ("9", 1, true, 7500),
            ("12", 1, true, 7500),
            ("3", 5, true, 5000),
            ("4", 5, true, 5000),
            ("5", 5, true, 5000),
            ("6", 5, true, 5000),
            ("2", 9, true, 2500),
            ("7", 9, true, 2500),
            ("10", 9, true, 2500),
            ("11", 9, true, 2500),
        ])
    );
    // Pair 9: 100% of board 1's full top of 10 and 5 of 10 on board 2; points unaffected (-50).
    let nine = desk
        .get_standings(spb::GetStandingsRequest { session_id: session.session_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .standings
        .into_iter()
        .find(|s| s.contestant_id == "9")
        .unwrap()
        .score
        .unwrap();
    assert_eq!(
        (nine.matchpoints.unwrap().hundredths, nine.top.unwrap().hundredths, nine.points.unwrap().hundredths),
        (1500, 2000, -5000)
    );

    // The stream: the board rescored with its forms, then the standings.
    let mut rescored = None;
    let mut changed = None;
    while changed.is_none() {
        let event = watch.message().await.unwrap().unwrap().event.unwrap();
        assert!(event.sequence > snapshot.sequence);
        match event.event {
            Some(spb::session_event::Event::BoardRescored(b)) => rescored = Some(b),
            Some(spb::session_event::Event::StandingsChanged(s)) => changed = Some(s),
            _ => {}
        }
    }
    let rescored = rescored.expect("the board is rescored before the standings change");
    assert_eq!(rescored.board_number, 1);
    assert_eq!(rescored.version.unwrap().cause, spb::ScoreVersionCause::FouledBoard as i32);
    assert_eq!(board_1(&rescored.results), expected);
    assert_eq!(changed.unwrap().version, made.version);
    drop(watch);

    // The same groups again change nothing and return the version that made them.
    let again = director.mark_fouled_board(mark(&session, &[("11", 1), ("9", 1)])).await.unwrap().into_inner();
    assert_eq!(again.version.unwrap().version, made.version);
    assert_eq!(standings(&mut desk, &session).await.0, made.version);

    // The history keeps the finding; nothing is deleted.
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
    assert_eq!(versions.len() as u64, made.version);
    assert_eq!(versions.last().unwrap().reason, "the East and West hands were interchanged after round 4");

    // Undone (every table in the correct form): a new version, and the standings as before.
    let undone = director.mark_fouled_board(mark(&session, &[])).await.unwrap().into_inner();
    assert_eq!(undone.version.unwrap().version, made.version + 1);
    assert!(undone.board_results.iter().all(|r| r.form == 0));
    assert_eq!(standings(&mut desk, &session).await.1, before);
}

#[tokio::test]
async fn a_fouled_board_at_teams_goes_to_law_86b2() {
    let app = TestApp::spawn().await;
    let mut admin = app.scoring("admin", &[Role::Admin]);
    let session = admin
        .create_session(spb::CreateSessionRequest {
            name: "Teams".into(),
            contestant_kind: spb::ContestantKind::Teams as i32,
            scoring_method: spb::ScoringMethod::TeamImps as i32,
            boards: vec![spb::Board { number: 1, ..Default::default() }],
            contestants: (1..=2).map(|n| spb::Contestant { name: format!("Team {n}"), ..Default::default() }).collect(),
        })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    let status = admin.mark_fouled_board(mark(&session, &[("1", 1)])).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 87C") || status.message().contains("86B2"), "{}", status.message());
}
