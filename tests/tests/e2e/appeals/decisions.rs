//! How a decision reaches the score and the players: deciding the same appeal twice changes it
//! once, an arbiter's adjusted score survives a restart and a Redis flush, a decision the worker
//! applies later shows in the trace of the request that made it, and a 2-1 decision reaches every
//! player with its reasons, its dissent and its notice.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::scoring::v1 as spb;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{
    PLAYERS, appeal_and_hear, assigned, get_pad, minutes, next_notice, overrule, pad_target, played, publish_policy,
    record, rule, scorepad, totals,
};

/// A committee of three overrules 2-1 through gRPC: a member who played the deal may not sit, the
/// dissenter's reasons are kept, every player reads the decision with them, and the notice page
/// names the score change.
#[tokio::test]
async fn a_two_to_one_decision_reaches_every_player_with_its_dissent_and_its_notice() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 3, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let (appellant, opponent) = (PLAYERS[0].1, PLAYERS[1].1);
    let members = ["chair", "vice", "third"];
    let appeal = appeal_and_hear(&app, &ruling, appellant, &[], &members).await;
    let mut chair = app.appeals("chair", &[Role::Committee]);

    let with_a_player = overrule("conflict", &appeal, played(Seat::North, "4S", 10), &["chair", "vice", opponent]);
    let status = chair.decide_appeal(with_a_player).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("played the deal the ruling concerns"), "{}", status.message());

    let dissent = "the line stated did not cater for the outstanding trump";
    let decision = pb::DecideAppealRequest {
        dissenting_member_ids: vec!["third".into()],
        dissent: dissent.into(),
        ..overrule("two-one", &appeal, played(Seat::North, "4S", 10), &members)
    };
    chair.decide_appeal(decision).await.unwrap();
    for (_, player) in PLAYERS {
        let mut reader = app.appeals(player, &[Role::Player]);
        let read = reader.get_appeal(pb::GetAppealRequest { appeal_id: appeal.appeal_id.clone() }).await.unwrap();
        let decided = read.into_inner().appeal.unwrap().decision.unwrap();
        assert_eq!(decided.outcome, pb::AppealOutcome::Overruled as i32, "{player}");
        assert_eq!((decided.dissenting_member_ids, decided.dissent.as_str()), (vec!["third".to_owned()], dissent));
        assert!(!decided.reasons.is_empty() && !decided.score_versions.is_empty());
    }
    let notice = app
        .appeals(opponent, &[Role::Player])
        .get_decision_notice(pb::GetDecisionNoticeRequest { appeal_id: appeal.appeal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .html;
    assert!(notice.starts_with("<!DOCTYPE html>") && notice.trim_end().ends_with("</html>"));
    for shown in ["overruled", dissent, "4S by North, 10 tricks", "the line stated"] {
        assert!(notice.contains(shown), "the notice shows {shown:?}:\n{notice}");
    }
}

#[tokio::test]
async fn deciding_the_same_appeal_twice_changes_the_score_once() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = appeal_and_hear(&app, &ruling, "nora", &[], &["chair"]).await;
    let mut chair = app.appeals("chair", &[Role::Committee]);
    let request = overrule("once", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    let first = chair.decide_appeal(request.clone()).await.unwrap().into_inner();
    let pad_after_first = get_pad(&app, &pad.scorepad_id).await;

    let retry = chair.decide_appeal(request.clone()).await.unwrap().into_inner();
    assert_eq!(retry, first, "a retry with the same key returns the first answer");
    let mut again = request;
    again.idempotency_key = "twice".into();
    assert_eq!(
        chair.decide_appeal(again).await.unwrap().into_inner(),
        first,
        "the same decision again changes nothing"
    );
    let mut other = overrule("other", &appeal, played(Seat::North, "4S", 11), &["chair"]);
    other.outcome = pb::AppealOutcome::Varied as i32;
    let status = chair.decide_appeal(other).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{}", status.message());

    let pad_now = get_pad(&app, &pad.scorepad_id).await;
    assert_eq!(pad_now.version, pad_after_first.version, "the score changed once");
    assert_eq!(totals(&pad_now), (120 + 300, 0));
    let versions = app
        .scoring("desk", &[Role::Desk])
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::ScorepadId(pad.scorepad_id.clone())),
            target: None,
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    assert_eq!(versions.iter().filter(|v| v.appeal_id == appeal.appeal_id).count(), 1);
    // The old version remains readable.
    assert!(versions.iter().any(|v| v.cause == spb::ScoreVersionCause::ResultRecorded as i32));
}

#[tokio::test]
async fn an_arbiters_adjusted_score_reaches_the_score_and_survives_a_restart_and_a_redis_flush() {
    let mut app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "3NT", 8)).await;
    let mut arbiter = app.appeals("arbiter", &[Role::Arbiter]);
    let request = pb::RecordRulingRequest {
        idempotency_key: "adjusted".into(),
        deal: Some(pb::DealReference {
            kind: common::TableKind::Rubber as i32,
            score_target: Some(pad_target(&pad.scorepad_id, "deal-1")),
            ..Default::default()
        }),
        irregularity: "revoke; equity not restored".into(),
        laws: vec![common::LawCitation { code: common::LawCode::Club as i32, number: 64, ..Default::default() }],
        kind: pb::RulingKind::Judgement as i32,
        decision: Some(assigned(played(Seat::North, "3NT", 9))),
        ..Default::default()
    };
    let recorded = arbiter.record_ruling(request.clone()).await.unwrap().into_inner();
    let version = recorded.score_version.clone().unwrap();
    assert_eq!(version.ruling_id, recorded.ruling.as_ref().unwrap().ruling_id);
    assert_eq!(version.cause, spb::ScoreVersionCause::Adjustment as i32);
    assert_eq!(totals(&get_pad(&app, &pad.scorepad_id).await), (100, 0), "the assigned 3NT made replaces down one");

    app.flush_redis().await;
    app.restart().await;
    let mut arbiter = app.appeals("arbiter", &[Role::Arbiter]);
    assert_eq!(arbiter.record_ruling(request).await.unwrap().into_inner(), recorded, "the retry's answer survives");
    let mut desk = app.appeals("desk", &[Role::Desk]);
    let mut notices =
        desk.watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) }).await.unwrap().into_inner();
    let first = next_notice(&mut notices).await;
    assert_eq!(first.sequence, 1);
    let Some(pb::appeal_event::Event::RulingRecorded(ruling)) = first.event else { panic!("the ruling") };
    assert_eq!(Some(ruling), recorded.ruling);
}

/// The appeals worker tries owed calls every second (its first try after two).
fn quick_delivery(_: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    settings.appeals.delivery_interval_seconds = 1;
}

/// Scoring down (nothing listens on the discard port), the worker as in [`quick_delivery`].
fn scoring_down(config: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    config.endpoints.scoring = Some("http://127.0.0.1:9".to_owned());
    quick_delivery(config, settings);
}

/// docs/architecture.md, "Observability": a committee decision that could not reach the scoring
/// service is applied later by the background worker of another process, and the scoring
/// service's `ApplyAdjustment` still shows in the trace of the member's `DecideAppeal`.
#[tokio::test]
async fn a_decision_the_worker_applies_later_shows_in_the_trace_of_the_request_that_made_it() {
    e2e::telemetry();
    let mut app = TestApp::spawn_with(quick_delivery).await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = appeal_and_hear(&app, &ruling, "nora", &[], &["chair"]).await;

    app.restart_with(scoring_down).await;
    let root = tracing::info_span!("test.client");
    let trace_id = e2e::trace_id(&root);
    let request = overrule("later", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    let status = {
        use tracing::Instrument;
        app.appeals("chair", &[Role::Committee]).decide_appeal(request).instrument(root).await.unwrap_err()
    };
    assert_eq!(status.code(), Code::Unavailable, "{}", status.message());

    app.restart_with(quick_delivery).await;
    let decided = "/bridgeclub.appeals.v1.AppealsService/DecideAppeal";
    let applied = "/bridgeclub.scoring.v1.ScoringService/ApplyAdjustment";
    let delivery = "outbox.deliver scoring.ApplyAdjustment/decision";
    // A span is exported when it ends: the worker's delivery span ends after scoring's, so wait
    // for both attempts, not only for scoring's span.
    let trace = e2e::trace_when(trace_id, |spans| {
        spans.iter().any(|s| s.name == applied)
            && spans.iter().any(|s| s.name == "test.client")
            && spans.iter().filter(|s| s.name == delivery).count() >= 2
    })
    .await;
    let named = |name: &str| trace.iter().find(|s| s.name == name).unwrap();
    let handler = named(decided);
    assert_eq!(handler.parent_span_id, named("test.client").span_context.span_id());
    let scoring = named(applied);
    let attempts: Vec<_> = trace.iter().filter(|s| s.name == delivery).collect();
    assert!(attempts.len() >= 2, "the request's own attempt and the worker's: {attempts:#?}");
    let by = attempts
        .iter()
        .find(|attempt| e2e::descends_from(&trace, scoring, attempt.span_context.span_id()))
        .expect("scoring's span is a delivery's call");
    assert!(e2e::descends_from(&trace, by, handler.span_context.span_id()), "{trace:#?}");

    let now = app
        .appeals("chair", &[Role::Committee])
        .get_appeal(pb::GetAppealRequest { appeal_id: appeal.appeal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(now.status, pb::AppealStatus::Decided as i32);
    assert_eq!(totals(&get_pad(&app, &pad.scorepad_id).await), (120 + 300, 0), "the decision reached the score");
}
