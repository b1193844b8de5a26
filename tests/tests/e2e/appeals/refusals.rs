//! Appeals and decisions refused: an appeal by a non-player or after the time limit, and a
//! decision by a principal without the committee role.

use std::time::Duration;

use api::appeals::v1 as pb;
use api::scoring::v1 as spb;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{
    appeal_and_hear, board_results, board_ruling, overrule, played, publish_policy, record_board, session, sign_in,
};

#[tokio::test]
async fn an_appeal_by_a_non_player_or_after_the_time_limit_and_a_decision_without_the_committee_role_are_refused() {
    let app = TestApp::spawn().await;
    // Law 92B: the period runs from the official score; this club gives one second.
    publish_policy(&app, 1, prost_types::Duration { seconds: 1, nanos: 0 }).await;
    let session = session(&app).await;
    let id = session.session_id.clone();
    record_board(&app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(&app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    let ruling = board_ruling(&app, &id).await;

    let file = |player: &str, concurring: &[&str], key: &str| {
        let mut client = app.appeals(player, &[Role::Player]);
        let request = pb::FileAppealRequest {
            idempotency_key: key.into(),
            ruling_id: ruling.ruling_id.clone(),
            appellant_player_id: String::new(),
            concurring_player_ids: concurring.iter().map(|p| (*p).to_owned()).collect(),
            grounds: "we were damaged".into(),
            ..Default::default()
        };
        async move { client.file_appeal(request).await }
    };
    let outsider = file("a1", &["a2"], "outsider").await.unwrap_err();
    assert_eq!(outsider.code(), Code::FailedPrecondition);
    assert!(outsider.message().contains("(Law 92A of the Laws of Duplicate Bridge)"), "{}", outsider.message());
    assert_eq!(
        outsider.metadata().get("x-bridge-law").and_then(|v| v.to_str().ok()),
        Some("Law 92A of the Laws of Duplicate Bridge")
    );

    // Filed in time, heard; then decided by principals without the committee role.
    let appeal = appeal_and_hear(&app, &ruling, "d1", &["d2"], &["chair"]).await;
    let decision = overrule("by-arbiter", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    for roles in [&[Role::Arbiter][..], &[Role::Admin], &[Role::Player, Role::Desk]] {
        let status = app.appeals("chair", roles).decide_appeal(decision.clone()).await.unwrap_err();
        assert_eq!(status.code(), Code::PermissionDenied, "{roles:?}: {}", status.message());
    }
    // A committee member who did not sit.
    sign_in(&app, &["other"]).await;
    let status = app
        .appeals("other", &[Role::Committee])
        .decide_appeal(overrule("by-other", &appeal, played(Seat::North, "4S", 10), &["other"]))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);

    // Withdrawn, then filed again after the official score has been out longer than the period.
    app.appeals("d1", &[Role::Player])
        .withdraw_appeal(pb::WithdrawAppealRequest {
            appeal_id: appeal.appeal_id.clone(),
            reason: "on reflection".into(),
        })
        .await
        .unwrap();
    app.scoring("desk", &[Role::Desk])
        .publish_official_scores(spb::PublishOfficialScoresRequest { session_id: id.clone() })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let late = file("d1", &["d2"], "late").await.unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert!(late.message().starts_with("the appeal is late"), "{}", late.message());
    assert!(
        late.message().contains("the limit is 1 s (Law 92B of the Laws of Duplicate Bridge): the policy in force"),
        "{}",
        late.message()
    );

    // No score changed.
    let results = board_results(&app, &id).await;
    assert!(results.iter().all(|r| r.appeal_id.is_empty() && r.ruling_id.is_empty()));
}
