//! A duplicate appeal at a club with no Appeals Committee, on a real server: Law 93A has the
//! Director in charge hear and rule upon it, the director who gave the ruling included. His
//! decision rescores the board across the field, as a committee's would, and the players are told.

use api::appeals::v1 as pb;
use api::scoring::v1 as spb;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

use super::{assigned, board_ruling, next_notice, played, record_board, session, sign_in};

/// Each contestant's matchpoints on the session, in hundredths.
async fn matchpoints(app: &TestApp, session: &str) -> Vec<(String, i64)> {
    let mut rows: Vec<(String, i64)> = app
        .scoring("desk", &[Role::Desk])
        .get_standings(spb::GetStandingsRequest { session_id: session.into() })
        .await
        .unwrap()
        .into_inner()
        .standings
        .into_iter()
        .map(|s| (s.contestant_id, s.score.and_then(|v| v.matchpoints).map_or(0, |m| m.hundredths)))
        .collect();
    rows.sort();
    rows
}

#[tokio::test]
async fn law_93a_without_a_committee_the_director_hears_and_rules_upon_a_duplicate_appeal() {
    // "The Director in charge shall hear and rule upon all appeals if there is no Appeals
    // Committee [or if no alternative arrangement has been made under Law 80B2(k)]".
    let app = TestApp::spawn().await;
    // The club has published no policy with a committee: the seeded one hears no committee appeals.
    let policy = app
        .appeals("c1", &[Role::Player])
        .get_appeal_policy(pb::GetAppealPolicyRequest {})
        .await
        .unwrap()
        .into_inner()
        .policy
        .unwrap();
    assert!(!policy.appeals_allowed);
    let session = session(&app).await;
    let id = session.session_id.clone();
    record_board(&app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(&app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    record_board(&app, &id, "E", "F", played(Seat::North, "3S", 10)).await;
    let before = matchpoints(&app, &id).await;
    let ruling = board_ruling(&app, &id).await;
    assert_eq!(ruling.ruled_by, "director");
    let mut c2 = app
        .appeals("c2", &[Role::Player])
        .watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();

    // Law 92A: the contestant's right to appeal does not depend on a committee.
    let filed = app
        .appeals("c1", &[Role::Player])
        .file_appeal(pb::FileAppealRequest {
            idempotency_key: "director-appeal".into(),
            ruling_id: ruling.ruling_id.clone(),
            concurring_player_ids: vec!["c2".into()],
            grounds: "we were damaged by the unalerted 2D".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(filed.heard_by, pb::HearingBody::DirectorInCharge as i32);

    // No committee sits on it.
    sign_in(&app, &["chair"]).await;
    let committee = app
        .appeals("chair", &[Role::Committee])
        .hear_appeal(pb::HearAppealRequest {
            appeal_id: filed.appeal_id.clone(),
            expected_version: filed.version,
            hearing: Some(pb::Hearing { committee_member_ids: vec!["chair".into()], ..Default::default() }),
        })
        .await
        .unwrap_err();
    assert_eq!(committee.code(), tonic::Code::FailedPrecondition);
    assert!(committee.message().contains("(Law 93A of the Laws of Duplicate Bridge)"), "{}", committee.message());
    // The contract gives the director's hearing to the arbiter role only.
    let as_player = app
        .appeals("c1", &[Role::Player])
        .director_hear_appeal(pb::DirectorHearAppealRequest {
            appeal_id: filed.appeal_id.clone(),
            expected_version: filed.version,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(as_player.code(), tonic::Code::PermissionDenied);

    // The director who gave the ruling hears it and rules.
    let mut director = app.appeals("director", &[Role::Arbiter]);
    let heard = director
        .director_hear_appeal(pb::DirectorHearAppealRequest {
            appeal_id: filed.appeal_id.clone(),
            expected_version: filed.version,
            statements: vec![pb::Statement {
                speaker: "c1".into(),
                role: pb::SpeakerRole::AppellantSide as i32,
                text: "with the alert we bid the game".into(),
            }],
            notes: "heard after the session".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(heard.hearing.as_ref().unwrap().committee_member_ids, ["director"]);
    let decide = pb::DirectorDecideAppealRequest {
        idempotency_key: "director-decision".into(),
        appeal_id: heard.appeal_id.clone(),
        outcome: pb::AppealOutcome::Overruled as i32,
        new_decision: Some(assigned(played(Seat::North, "4S", 10))),
        reasons: "North-South were damaged: with the alert they reach 4S making".into(),
        lacked_merit: false,
    };
    let decided = director.director_decide_appeal(decide.clone()).await.unwrap().into_inner().appeal.unwrap();
    let decision = decided.decision.as_ref().unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(decision.committee_member_ids, ["director"], "the director's own decision record");
    assert_eq!(decision.score_versions.len(), 1);
    let again = director.director_decide_appeal(decide).await.unwrap().into_inner().appeal.unwrap();
    assert_eq!(again.version, decided.version, "deciding again with the key changes nothing");

    // The board is rescored across the field: C now ties A.
    let after = matchpoints(&app, &id).await;
    assert_eq!(
        after.iter().map(|(c, mp)| (c.as_str(), *mp)).collect::<Vec<_>>(),
        [("A", 300), ("B", 100), ("C", 300), ("D", 100), ("E", 0), ("F", 400)]
    );
    assert_ne!(before, after);

    // c2 is told each step: the ruling, the filing, the director's hearing and his decision.
    let mut kinds = Vec::new();
    for _ in 0..4 {
        kinds.push(match next_notice(&mut c2).await.event.unwrap() {
            pb::appeal_event::Event::RulingRecorded(_) => "ruling",
            pb::appeal_event::Event::AppealFiled(_) => "filed",
            pb::appeal_event::Event::AppealHeard(_) => "heard",
            pb::appeal_event::Event::AppealDecided(_) => "decided",
            other => panic!("unexpected {other:?}"),
        });
    }
    assert_eq!(kinds, ["ruling", "filed", "heard", "decided"]);
}
