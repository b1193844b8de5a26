//! What each principal reads and is told: a player sees only the rulings and appeals of deals he
//! played, staff see all and list appeals by status, notices reach watchers in order and resume
//! after a sequence number, and the score's audit shows a decision beside the versions it made.

use std::time::Duration;

use api::appeals::v1 as pb;
use futures::StreamExt;
use laws::Seat;
use platform::auth::Role;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::code;
use super::common::*;

#[tokio::test]
async fn a_player_sees_only_the_rulings_and_appeals_of_deals_they_played() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let rubber =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r1", "d1", result_stands())).await.unwrap().ruling.unwrap();
    let board = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r2", pb::RulingKind::Fact, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let n = principal("n", &[Role::Player]);
    assert!(h.appeals.get_ruling(&n, &rubber.ruling_id).await.is_ok());
    assert_eq!(code(&h.appeals.get_ruling(&n, &board.ruling_id).await), tonic::Code::PermissionDenied);
    let mine = h.appeals.list_rulings(&n, pb::ListRulingsRequest::default()).await.unwrap();
    assert_eq!(mine.rulings.iter().map(|r| r.ruling_id.as_str()).collect::<Vec<_>>(), [rubber.ruling_id.as_str()]);
    let others =
        h.appeals.list_rulings(&n, pb::ListRulingsRequest { player_id: "n2".into(), ..Default::default() }).await;
    assert_eq!(code(&others), tonic::Code::PermissionDenied);
    let desk =
        h.appeals.list_rulings(&principal("desk", &[Role::Desk]), pb::ListRulingsRequest::default()).await.unwrap();
    assert_eq!(desk.rulings.len(), 2);
    assert_eq!(desk.rulings[0].ruling_id, board.ruling_id, "newest first");
    let paged = h
        .appeals
        .list_rulings(
            &principal("desk", &[Role::Desk]),
            pb::ListRulingsRequest {
                page: Some(api::common::v1::PageRequest { page_size: 1, page_token: String::new() }),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let token = paged.page.unwrap().next_page_token;
    let rest = h
        .appeals
        .list_rulings(
            &principal("desk", &[Role::Desk]),
            pb::ListRulingsRequest {
                page: Some(api::common::v1::PageRequest { page_size: 1, page_token: token }),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(rest.rulings[0].ruling_id, rubber.ruling_id);
    assert!(rest.page.unwrap().next_page_token.is_empty());
}

async fn next_event(stream: &mut appeals::watch::NoticeStream) -> pb::AppealEvent {
    tokio::time::timeout(Duration::from_secs(30), stream.next())
        .await
        .expect("a notice within 30 s")
        .expect("the stream goes on")
        .expect("a notice, not an error")
        .event
        .unwrap()
}

#[tokio::test]
async fn notices_reach_staff_in_order_and_a_player_only_about_their_deals() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let staff = appeals::watch::watch(h.appeals.clone(), principal("chair", &[Role::Committee]), None).await.unwrap();
    let player = appeals::watch::watch(h.appeals.clone(), principal("e2", &[Role::Player]), Some(0)).await.unwrap();
    let (mut staff, mut player) = (staff, player);

    // Rulings recorded concurrently, on deals e2 played and did not play.
    let mut tasks = Vec::new();
    for i in 0..12 {
        let appeals = h.appeals.clone();
        tasks.push(tokio::spawn(async move {
            let request = if i % 3 == 0 {
                board_ruling(&format!("b{i}"), pb::RulingKind::Fact, result_stands())
            } else {
                rubber_ruling(&format!("r{i}"), "d1", result_stands())
            };
            appeals.record_ruling(&arbiter(), request).await.unwrap()
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let mut seen = Vec::new();
    for _ in 0..12 {
        seen.push(next_event(&mut staff).await.sequence);
    }
    assert_eq!(seen, (1..=12).collect::<Vec<_>>(), "every notice, in order, none twice");
    let mut mine = Vec::new();
    for _ in 0..4 {
        let event = next_event(&mut player).await;
        let Some(pb::appeal_event::Event::RulingRecorded(ruling)) = event.event else { panic!("a ruling") };
        assert_eq!(ruling.deal.unwrap().kind, api::common::v1::TableKind::Duplicate as i32);
        mine.push(event.sequence);
    }
    assert!(mine.windows(2).all(|w| w[0] < w[1]));

    // Resuming after a sequence number replays exactly what followed it.
    let mut resumed =
        appeals::watch::watch(h.appeals.clone(), principal("desk", &[Role::Desk]), Some(10)).await.unwrap();
    assert_eq!(next_event(&mut resumed).await.sequence, 11);
    assert_eq!(next_event(&mut resumed).await.sequence, 12);
    let last = h.appeals.record_ruling(&arbiter(), rubber_ruling("last", "d2", result_stands())).await.unwrap();
    let event = next_event(&mut resumed).await;
    assert_eq!(event.sequence, 13);
    let Some(pb::appeal_event::Event::RulingRecorded(ruling)) = event.event else { panic!("a ruling") };
    assert_eq!(ruling.ruling_id, last.ruling.unwrap().ruling_id);
}

#[tokio::test]
async fn a_duplicate_decision_notifies_every_pair_on_the_board() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let chair = h.committee(&["chair"]).await.remove(0);
    let ruling = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r", pb::RulingKind::Judgement, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("n2", &[Role::Player]), file("a", &ruling.ruling_id, "", &["s2"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let mut other_pair =
        appeals::watch::watch(h.appeals.clone(), principal("n3", &[Role::Player]), Some(0)).await.unwrap();
    let decided = h
        .appeals
        .decide_appeal(
            &chair,
            decision("d", &heard, pb::AppealOutcome::Overruled, Some(assigned("4H", Seat::East, 9)), &["chair"]),
        )
        .await
        .unwrap();
    assert_eq!(h.scoring.applied()[0].law.as_ref().unwrap().text, "Law 93B3 of the Laws of Duplicate Bridge");
    // n3 played the board at another table: his matchpoints moved, so he hears of the decision, and
    // of nothing before it.
    let event = next_event(&mut other_pair).await;
    let Some(pb::appeal_event::Event::AppealDecided(appeal)) = event.event else { panic!("the decision") };
    assert_eq!(Some(appeal), decided.appeal);

    let audit = h
        .appeals
        .score_audit(
            &principal("desk", &[Role::Desk]),
            pb::GetScoreAuditRequest { target: Some(board_target("A", "B")) },
        )
        .await
        .unwrap();
    let kinds: Vec<&str> = audit
        .entries
        .iter()
        .map(|e| match e.entry.as_ref().unwrap() {
            pb::audit_entry::Entry::ScoreVersion(_) => "score version",
            pb::audit_entry::Entry::Ruling(_) => "ruling",
            pb::audit_entry::Entry::AppealFiled(_) => "filed",
            pb::audit_entry::Entry::AppealHeard(_) => "heard",
            pb::audit_entry::Entry::AppealDecided(_) => "decided",
            pb::audit_entry::Entry::AppealWithdrawn(_) => "withdrawn",
            pb::audit_entry::Entry::AppealReviewed(_) => "reviewed",
            pb::audit_entry::Entry::AppealTakenFurther(_) => "taken further",
        })
        .collect();
    assert_eq!(kinds, ["ruling", "filed", "heard", "score version", "decided"]);
    let n3 = h
        .appeals
        .score_audit(
            &principal("n3", &[Role::Player]),
            pb::GetScoreAuditRequest { target: Some(board_target("A", "B")) },
        )
        .await
        .unwrap();
    assert_eq!(n3.entries.len(), 1, "a player of another table sees the score's versions, not the ruling's records");
}

#[tokio::test]
async fn staff_queries_and_appeals_by_status() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap().ruling.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("w", &[Role::Player]), file("a", &ruling.ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let committee = principal("chair", &[Role::Committee]);
    let filed = h
        .appeals
        .list_appeals(
            &committee,
            pb::ListAppealsRequest { status: pb::AppealStatus::Filed as i32, ..Default::default() },
        )
        .await
        .unwrap();
    assert_eq!(filed.appeals, std::slice::from_ref(&appeal));
    let decided = h
        .appeals
        .list_appeals(
            &committee,
            pb::ListAppealsRequest { status: pb::AppealStatus::Decided as i32, ..Default::default() },
        )
        .await
        .unwrap();
    assert!(decided.appeals.is_empty());
    let shown = h.appeals.get_appeal(&principal("w", &[Role::Player]), &appeal.appeal_id).await.unwrap();
    assert_eq!(shown.ruling.unwrap().appeal_ids, std::slice::from_ref(&appeal.appeal_id));
    let rows = appeals::entity::appeal::Entity::find()
        .filter(appeals::entity::appeal::Column::AppealId.eq(&appeal.appeal_id))
        .all(&h.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
}
