//! A duplicate board's ruling overturned on appeal: the board is rescored across the field, the
//! session's standings follow, and the players are told.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::scoring::v1 as spb;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

use super::{
    appeal_and_hear, board_key, board_ruling, minutes, next_notice, overrule, played, publish_policy, record_board,
    session,
};

/// Each contestant's matchpoints on the session, in hundredths, and its rank.
async fn standings(app: &TestApp, session: &str) -> Vec<(String, i64, u32)> {
    let mut rows: Vec<(String, i64, u32)> = app
        .scoring("desk", &[Role::Desk])
        .get_standings(spb::GetStandingsRequest { session_id: session.into() })
        .await
        .unwrap()
        .into_inner()
        .standings
        .into_iter()
        .map(|s| {
            let mp = s.score.and_then(|v| v.matchpoints).map_or(0, |m| m.hundredths);
            (s.contestant_id, mp, s.rank)
        })
        .collect();
    rows.sort();
    rows
}

#[tokio::test]
async fn a_duplicate_ruling_overturned_rescores_the_board_across_the_field_and_tells_the_players() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let session = session(&app).await;
    let id = session.session_id.clone();
    // North-South: A +420, C -50 (4S down one), E +170.
    record_board(&app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(&app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    record_board(&app, &id, "E", "F", played(Seat::North, "3S", 10)).await;
    let before = standings(&app, &id).await;
    // Law 78A: 2 for each score beaten, 1 for each tied; top 4.
    assert_eq!(
        before.iter().map(|(c, mp, _)| (c.as_str(), *mp)).collect::<Vec<_>>(),
        [("A", 400), ("B", 0), ("C", 0), ("D", 400), ("E", 200), ("F", 200)]
    );

    let ruling = board_ruling(&app, &id).await;
    assert_eq!(ruling.deal.as_ref().unwrap().deal_id, "board-1-CD");
    // e1 played the board at another table: watching from the start, he sees only what concerns him.
    let mut e1 = app
        .appeals("e1", &[Role::Player])
        .watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let mut c2 = app
        .appeals("c2", &[Role::Player])
        .watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let Some(pb::appeal_event::Event::RulingRecorded(seen)) = next_notice(&mut c2).await.event else {
        panic!("c2 played the deal: the ruling first")
    };
    assert_eq!(seen.ruling_id, ruling.ruling_id);

    // Law 92D1: C's appeal needs both members.
    let appeal = appeal_and_hear(&app, &ruling, "c1", &["c2"], &["chair"]).await;
    let decided = app
        .appeals("chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, played(Seat::North, "4S", 10), &["chair"]))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(decided.decision.as_ref().unwrap().score_versions.len(), 1);

    // North-South now: A +420, C +420 (tied), E +170.
    let after = standings(&app, &id).await;
    assert_eq!(
        after.iter().map(|(c, mp, _)| (c.as_str(), *mp)).collect::<Vec<_>>(),
        [("A", 300), ("B", 100), ("C", 300), ("D", 100), ("E", 0), ("F", 400)]
    );
    for (b, a) in before.iter().zip(&after) {
        assert_ne!(b.1, a.1, "every pair's matchpoints on the board changed: {b:?} -> {a:?}");
    }
    let rank = |rows: &[(String, i64, u32)], c: &str| rows.iter().find(|r| r.0 == c).unwrap().2;
    assert_eq!((rank(&before, "D"), rank(&after, "D")), (1, 4), "the session is re-ranked");
    assert_eq!((rank(&before, "F"), rank(&after, "F")), (3, 1));

    // The players affected are told: e1's pair's matchpoints moved, so his first notice is the decision.
    let Some(pb::appeal_event::Event::AppealDecided(told)) = next_notice(&mut e1).await.event else {
        panic!("the decision")
    };
    assert_eq!(told.appeal_id, decided.appeal_id);
    assert_eq!(told.decision.unwrap().score_versions, decided.decision.as_ref().unwrap().score_versions);
    // c2 sees the whole story of his deal, in order.
    let mut kinds = Vec::new();
    for _ in 0..3 {
        kinds.push(match next_notice(&mut c2).await.event.unwrap() {
            pb::appeal_event::Event::AppealFiled(_) => "filed",
            pb::appeal_event::Event::AppealHeard(_) => "heard",
            pb::appeal_event::Event::AppealDecided(_) => "decided",
            other => panic!("unexpected {other:?}"),
        });
    }
    assert_eq!(kinds, ["filed", "heard", "decided"]);

    // The audit of C-D's result: the result, the ruling, the appeal, the rescoring.
    let audit = app
        .appeals("c1", &[Role::Player])
        .get_score_audit(pb::GetScoreAuditRequest {
            target: Some(common::ScoreTarget {
                target: Some(common::score_target::Target::BoardResult(board_key(&id, "C", "D"))),
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let steps: Vec<&str> = audit
        .entries
        .iter()
        .map(|e| match e.entry.as_ref().unwrap() {
            pb::audit_entry::Entry::ScoreVersion(v) if v.appeal_id.is_empty() => "score",
            pb::audit_entry::Entry::ScoreVersion(_) => "appeal score",
            pb::audit_entry::Entry::Ruling(_) => "ruling",
            pb::audit_entry::Entry::AppealFiled(_) => "filed",
            pb::audit_entry::Entry::AppealHeard(_) => "heard",
            pb::audit_entry::Entry::AppealDecided(_) => "decided",
            pb::audit_entry::Entry::AppealWithdrawn(_) => "withdrawn",
            pb::audit_entry::Entry::AppealReviewed(_) => "reviewed",
            pb::audit_entry::Entry::AppealTakenFurther(_) => "taken further",
        })
        .collect();
    assert_eq!(steps.first(), Some(&"score"), "{steps:?}");
    let tail: Vec<&str> = steps.iter().copied().filter(|s| *s != "score").collect();
    assert_eq!(tail, ["ruling", "filed", "heard", "appeal score", "decided"], "{steps:?}");
}
