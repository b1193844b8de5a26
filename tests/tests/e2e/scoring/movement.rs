//! The movement on a session's stream (duplicate Law 8A: the Director instructs which boards each
//! table plays and which contestants sit there). Tables sent to boards and a board the director
//! releases are events of WatchSession, as results are, so that every screen watching the session
//! shows the movement as it stands; a repeat sends nothing and moves no version.

use api::scoring::v1 as spb;
use e2e::TestApp;
use platform::auth::Role;
use tonic::Code;

async fn two_board_session(app: &TestApp) -> spb::Session {
    let request = spb::CreateSessionRequest {
        name: "Movement".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=2).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: (1..=4)
            .map(|n| spb::Contestant {
                name: format!("Pair {n}"),
                player_ids: vec![format!("m{n}a"), format!("m{n}b")],
                ..Default::default()
            })
            .collect(),
    };
    app.register_contestants(&request).await;
    app.scoring("desk", &[Role::Desk]).create_session(request).await.unwrap().into_inner().session.unwrap()
}

fn table(table: &str, board: u32, ns: &str, ew: &str) -> spb::TableAssignment {
    spb::TableAssignment {
        table_id: table.into(),
        board_number: board,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    }
}

#[tokio::test]
async fn tables_sent_to_boards_and_a_board_released_reach_the_sessions_watchers() {
    let app = TestApp::spawn().await;
    let session = two_board_session(&app).await;
    let id = session.session_id.clone();
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let mut director = app.scoring("director", &[Role::Arbiter]);
    let mut watch = desk
        .watch_session(spb::WatchSessionRequest { session_id: id.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let snapshot = watch.message().await.unwrap().unwrap().event.unwrap();
    assert!(matches!(snapshot.event, Some(spb::session_event::Event::Snapshot(_))));

    let sent = vec![table("A", 1, "1", "2"), table("B", 1, "3", "4")];
    let request = spb::AssignTablesRequest { session_id: id.clone(), assignments: sent.clone() };
    let assigned = desk.assign_tables(request.clone()).await.unwrap().into_inner().session.unwrap();
    assert_eq!(assigned.movement, sent);
    assert_eq!(assigned.version, session.version + 1, "the movement moves the session's version");
    let event = watch.message().await.unwrap().unwrap().event.unwrap();
    assert_eq!(event.sequence, snapshot.sequence + 1);
    let Some(spb::session_event::Event::MovementChanged(changed)) = event.event else { panic!("{event:?}") };
    assert_eq!((changed.assigned, changed.released_board), (sent.clone(), 0));

    // The same again changes nothing: no event, no version.
    let again = desk.assign_tables(request).await.unwrap().into_inner().session.unwrap();
    assert_eq!(again.version, assigned.version);
    // Another table on the same board, and the same table sent twice with other contestants, refused whole.
    let twice = spb::AssignTablesRequest {
        session_id: id.clone(),
        assignments: vec![table("C", 2, "1", "3"), table("C", 2, "2", "4")],
    };
    assert_eq!(desk.assign_tables(twice).await.unwrap_err().code(), Code::InvalidArgument);

    // The desk may not release a board; the director may, once.
    let release = spb::ReleaseBoardRequest { session_id: id.clone(), board_number: 2 };
    assert_eq!(desk.release_board(release.clone()).await.unwrap_err().code(), Code::PermissionDenied);
    let released = director.release_board(release.clone()).await.unwrap().into_inner().session.unwrap();
    assert!(released.boards.iter().find(|b| b.number == 2).unwrap().released);
    assert!(released.movement.iter().all(|t| t.table_id != "C"), "nothing of the refused request stands");
    let event = watch.message().await.unwrap().unwrap().event.unwrap();
    assert_eq!(event.sequence, snapshot.sequence + 2, "the refused and repeated requests sent nothing");
    let Some(spb::session_event::Event::MovementChanged(changed)) = event.event else { panic!("{event:?}") };
    assert_eq!((changed.assigned.len(), changed.released_board), (0, 2));
    let again = director.release_board(release).await.unwrap().into_inner().session.unwrap();
    assert_eq!(again.version, released.version, "releasing again changes nothing");

    // A watcher that resumes after the snapshot gets both events from the journal.
    let mut resumed = desk
        .watch_session(spb::WatchSessionRequest { session_id: id.clone(), after_sequence: Some(snapshot.sequence) })
        .await
        .unwrap()
        .into_inner();
    for expected in [snapshot.sequence + 1, snapshot.sequence + 2] {
        let event = resumed.message().await.unwrap().unwrap().event.unwrap();
        assert_eq!(event.sequence, expected);
        assert!(matches!(event.event, Some(spb::session_event::Event::MovementChanged(_))));
    }

    // A request with a table already sent and a new one: the event names the new one alone.
    let new = table("A", 2, "3", "1");
    let mixed = spb::AssignTablesRequest { session_id: id, assignments: vec![sent[0].clone(), new.clone()] };
    desk.assign_tables(mixed).await.unwrap();
    let event = watch.message().await.unwrap().unwrap().event.unwrap();
    assert_eq!(event.sequence, snapshot.sequence + 3);
    let Some(spb::session_event::Event::MovementChanged(changed)) = event.event else { panic!("{event:?}") };
    assert_eq!(changed.assigned, vec![new]);
}
