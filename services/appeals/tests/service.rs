//! The appeals service's commands and queries against a SQLite database and an in-memory scoring
//! service (see `common`): rulings, the appeal lifecycle, the club's policy, per-principal rules,
//! delivery to scoring, notices and the audit.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use api::appeals::v1 as pb;
use common::*;
use futures::StreamExt;
use laws::Seat;
use platform::ServiceError;
use platform::auth::Role;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

fn code(result: &Result<impl std::fmt::Debug, ServiceError>) -> tonic::Code {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => error.code(),
    }
}

fn message<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> String {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn a_ruling_is_recorded_once_per_key_with_the_players_from_the_scorepad() {
    let h = Harness::new().await;
    let first = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d1", result_stands())).await.unwrap();
    let ruling = first.ruling.clone().unwrap();
    let deal = ruling.deal.clone().unwrap();
    assert_eq!(deal.deal_id, "d1");
    assert_eq!(deal.table_id, "table-1");
    assert_eq!(deal.players.iter().map(|p| p.player_id.as_str()).collect::<Vec<_>>(), ["n", "e", "s", "w"]);
    assert_eq!(ruling.laws[0].text, "Club Law 69 (Alternative Club Laws)");
    assert_eq!(ruling.ruled_by, "arbiter");
    assert!(first.score_version.is_none(), "a ruling that adjusts nothing makes no score version");

    let again = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d1", result_stands())).await.unwrap();
    assert_eq!(again, first, "a retry returns the first answer");
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert_eq!(listed.rulings.len(), 1, "and records nothing more");

    let reused = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d2", result_stands())).await;
    assert_eq!(code(&reused), tonic::Code::InvalidArgument);
    assert!(message(reused).starts_with("idempotency_key: \"k1\" was already used for a different request"));
}

#[tokio::test]
async fn a_ruling_names_what_is_wrong_with_it() {
    let h = Harness::new().await;
    let mut no_law = rubber_ruling("k", "d1", result_stands());
    no_law.laws.clear();
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), no_law).await),
        "laws: cite at least one Law the ruling applies"
    );
    let mut bad_law = rubber_ruling("k", "d1", result_stands());
    bad_law.laws = vec![citation(api::common::v1::LawCode::Duplicate, 94, "")];
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), bad_law).await),
        "laws[0].number: the Laws of Duplicate Bridge have no rule 94 (they number 1 to 93)"
    );
    let mut wrong_seat = rubber_ruling("k", "d1", result_stands());
    wrong_seat.deal.as_mut().unwrap().players =
        vec![api::common::v1::SeatedPlayer { seat: api::common::v1::Seat::North as i32, player_id: "e".into() }];
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), wrong_seat).await),
        "deal.players[0]: e did not sit at that seat on scorepad pad-1"
    );
    let unplayed = h.appeals.record_ruling(&arbiter(), rubber_ruling("k", "d9", assigned("4S", Seat::North, 10))).await;
    assert_eq!(code(&unplayed), tonic::Code::FailedPrecondition);
    let mut duplicate_on_pad = rubber_ruling("k", "d1", result_stands());
    duplicate_on_pad.deal.as_mut().unwrap().kind = api::common::v1::TableKind::Duplicate as i32;
    assert_eq!(code(&h.appeals.record_ruling(&arbiter(), duplicate_on_pad).await), tonic::Code::InvalidArgument);
    assert!(h.scoring.applied().is_empty());
}

#[tokio::test]
async fn an_adjusted_score_reaches_the_score_once_even_when_scoring_is_down_at_first() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Down);
    let request = rubber_ruling("adj", "d2", assigned("4S", Seat::North, 10));
    let down = h.appeals.record_ruling(&arbiter(), request.clone()).await;
    assert_eq!(code(&down), tonic::Code::Unavailable);
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert!(listed.rulings.is_empty(), "a ruling whose adjusted score is not applied is not on record");

    h.scoring.set_mode(Mode::Apply);
    let recorded = h.appeals.record_ruling(&arbiter(), request.clone()).await.unwrap();
    let version = recorded.score_version.clone().unwrap();
    assert_eq!(version.ruling_id, recorded.ruling.as_ref().unwrap().ruling_id);
    assert_eq!(h.scoring.applied().len(), 1);
    let calls = h.scoring.calls();
    assert_eq!(h.appeals.record_ruling(&arbiter(), request).await.unwrap(), recorded);
    assert_eq!(h.scoring.calls(), calls, "a retry after success does not call scoring again");
}

#[tokio::test]
async fn the_worker_delivers_what_a_request_could_not() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Down);
    let request = rubber_ruling("adj", "d2", assigned("4S", Seat::North, 9));
    assert_eq!(code(&h.appeals.record_ruling(&arbiter(), request.clone()).await), tonic::Code::Unavailable);
    h.scoring.set_mode(Mode::Apply);
    // The failed attempt set a later time for the next; make it due now.
    appeals::entity::outbox::Entity::update_many()
        .col_expr(appeals::entity::outbox::Column::NextAttemptAt, Expr::value(chrono::Utc::now()))
        .exec(&h.db)
        .await
        .unwrap();
    assert_eq!(h.appeals.deliver_due().await.unwrap(), 1);
    assert_eq!(h.appeals.deliver_due().await.unwrap(), 0, "delivered once");
    let calls = h.scoring.calls();
    let answer = h.appeals.record_ruling(&arbiter(), request).await.unwrap();
    assert!(answer.score_version.is_some());
    assert_eq!(h.scoring.calls(), calls, "the retry finds the answer the worker stored");
    assert_eq!(h.scoring.applied().len(), 1);
}

#[tokio::test]
async fn a_refused_adjustment_leaves_no_ruling() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Refuse);
    let refused = h.appeals.record_ruling(&arbiter(), rubber_ruling("adj", "d2", assigned("4S", Seat::North, 9))).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    assert!(
        message(refused).starts_with("the scoring service refused the ruling's adjusted score: a scorepad accepts")
    );
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert!(listed.rulings.is_empty());
    let pending = appeals::entity::ruling::Entity::find().all(&h.db).await.unwrap();
    assert!(pending.is_empty(), "the pending ruling is dropped");
}

#[tokio::test]
async fn club_appeals_committee_only_under_a_policy_published_before_the_ruling() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal any
    // decision by the Arbiter."
    let h = Harness::new().await;
    let before = h.appeals.record_ruling(&arbiter(), rubber_ruling("r1", "d1", result_stands())).await.unwrap();
    let before_id = before.ruling.unwrap().ruling_id;
    let refused = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("a1", &before_id, "", &[])).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    assert_eq!(
        message(refused),
        "the club's published policy hears no appeals (the Club Appeals Committee (Alternative Club Laws))"
    );

    h.allow_appeals(3).await;
    let still = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("a2", &before_id, "", &[])).await;
    assert_eq!(code(&still), tonic::Code::FailedPrecondition, "the policy applies to rulings made after it");
    let after = h.appeals.record_ruling(&arbiter(), rubber_ruling("r2", "d2", result_stands())).await.unwrap();
    let filed = h
        .appeals
        .file_appeal(&principal("n", &[Role::Player]), file("a3", &after.ruling.unwrap().ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    assert_eq!(filed.appellant_player_id, "n");
    assert_eq!(filed.status, pb::AppealStatus::Filed as i32);
    assert!(filed.deadline.is_some(), "the club's time limit runs from the ruling");

    let stale = h
        .appeals
        .update_policy(
            &principal("admin", &[Role::Admin]),
            pb::UpdateAppealPolicyRequest { expected_version: 1, policy: h.appeals.get_policy().await.unwrap().policy },
        )
        .await;
    assert_eq!(code(&stale), tonic::Code::Aborted);
}

#[tokio::test]
async fn only_a_player_of_the_deal_appeals_and_a_player_only_for_himself() {
    let h = Harness::new().await;
    h.allow_appeals(3).await;
    let ruling = h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let ruling_id = ruling.ruling.unwrap().ruling_id;

    let kibitzer = h.appeals.file_appeal(&principal("k", &[Role::Player]), file("a", &ruling_id, "", &[])).await;
    assert_eq!(
        message(kibitzer),
        "k did not play this deal: only the players of the deal may appeal (the Club Appeals Committee (Alternative \
         Club Laws))"
    );
    let for_another = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("a", &ruling_id, "e", &[])).await;
    assert_eq!(code(&for_another), tonic::Code::PermissionDenied);
    let not_party = h.appeals.file_appeal(&arbiter(), file("a", &ruling_id, "k", &[])).await;
    assert_eq!(code(&not_party), tonic::Code::FailedPrecondition, "the director files only for a player of the deal");

    let by_director = h.appeals.file_appeal(&arbiter(), file("a", &ruling_id, "e", &[])).await.unwrap();
    assert_eq!(by_director.appeal.unwrap().appellant_player_id, "e", "Law 92C: through the director");
    let second = h.appeals.file_appeal(&principal("s", &[Role::Player]), file("b", &ruling_id, "", &[])).await;
    assert!(message(second).contains("is already filed"), "one appeal at a time against a ruling");
}

#[tokio::test]
async fn a_late_rubber_appeal_is_refused_by_the_clubs_time_limit() {
    let h = Harness::new().await;
    h.allow_appeals(3).await;
    let ruling = h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let ruling_id = ruling.ruling.unwrap().ruling_id;
    // The ruling was made two hours ago; the policy gives sixty minutes.
    appeals::entity::ruling::Entity::update_many()
        .col_expr(
            appeals::entity::ruling::Column::RuledAt,
            Expr::value(chrono::Utc::now() - chrono::Duration::hours(2)),
        )
        .exec(&h.db)
        .await
        .unwrap();
    let late = h.appeals.file_appeal(&principal("w", &[Role::Player]), file("a", &ruling_id, "", &[])).await;
    assert_eq!(code(&late), tonic::Code::FailedPrecondition);
    let text = message(late);
    assert!(text.starts_with("the appeal is late: filed 120 min"), "{text}");
    assert!(text.ends_with("the limit is 60 min (the Club Appeals Committee (Alternative Club Laws))"), "{text}");
}

#[tokio::test]
async fn law_92d_a_pair_appeals_with_the_partners_concurrence() {
    // "An appeal shall not be heard unless: 1. in a pairs event both members of the partnership
    // concur in making the appeal"
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r", pb::RulingKind::Judgement, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    assert_eq!(ruling.deal.unwrap().deal_id, "b1-ab", "the deal id comes from the board's result");
    let alone = h.appeals.file_appeal(&principal("e2", &[Role::Player]), file("a", &ruling.ruling_id, "", &[])).await;
    assert_eq!(
        message(alone),
        "the appeal is not heard without the concurrence of the partner w2 (Law 92D1 of the Laws of Duplicate Bridge)"
    );
    let other_table =
        h.appeals.file_appeal(&principal("e3", &[Role::Player]), file("a", &ruling.ruling_id, "", &["w3"])).await;
    assert!(message(other_table).contains("(Law 92A of the Laws of Duplicate Bridge)"));
    let filed = h
        .appeals
        .file_appeal(&principal("e2", &[Role::Player]), file("a", &ruling.ruling_id, "", &["w2"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    assert_eq!(filed.concurring_player_ids, ["w2"]);
    assert!(filed.deadline.is_none(), "the Law 92B period starts when the official score is published");
}

#[tokio::test]
async fn law_92b_a_duplicate_appeal_after_the_period_is_refused() {
    // "The right to request or appeal a Director's ruling expires 30 minutes after the official score
    // has been made available for inspection"
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r", pb::RulingKind::Judgement, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let published = chrono::Utc::now() - chrono::Duration::minutes(31);
    h.scoring.sessions.lock().unwrap().get_mut(SESSION).unwrap().scores_published_at =
        Some(prost_types::Timestamp { seconds: published.timestamp(), nanos: 0 });
    let late =
        h.appeals.file_appeal(&principal("n2", &[Role::Player]), file("a", &ruling.ruling_id, "", &["s2"])).await;
    let text = message(late);
    assert!(text.starts_with("the appeal is late: filed 31 min"), "{text}");
    assert!(text.ends_with("the limit is 30 min (Law 92B of the Laws of Duplicate Bridge)"), "{text}");
}

#[tokio::test]
async fn law_93b3_discipline_is_final_and_the_committee_does_not_overrule_on_law() {
    // "it may not overrule the Director in charge on a point of law or regulations, or on exercise
    // of his Law 91 disciplinary powers. (It may recommend to the Director in charge that he change
    // such a ruling.)"
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    h.committee(&["chair"]).await;
    let disciplinary = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r1", pb::RulingKind::Disciplinary, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let refused = h
        .appeals
        .file_appeal(&principal("n2", &[Role::Player]), file("a1", &disciplinary.ruling_id, "", &["s2"]))
        .await;
    assert_eq!(
        message(refused),
        "a disciplinary ruling under Law 91 is final and cannot be appealed (Law 93B3 of the Laws of Duplicate Bridge)"
    );

    let on_law = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r2", pb::RulingKind::Law, result_stands()))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("n2", &[Role::Player]), file("a2", &on_law.ruling_id, "", &["s2"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let chair = principal("chair", &[Role::Committee]);
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let overrule = h
        .appeals
        .decide_appeal(
            &chair,
            decision("d1", &heard, pb::AppealOutcome::Overruled, Some(assigned("3NT", Seat::North, 9)), &["chair"]),
        )
        .await;
    assert!(message(overrule).ends_with("(Law 93B3 of the Laws of Duplicate Bridge)"));
    let upheld = h
        .appeals
        .decide_appeal(&chair, decision("d2", &heard, pb::AppealOutcome::Upheld, None, &["chair"]))
        .await
        .unwrap();
    assert_eq!(upheld.appeal.unwrap().status, pb::AppealStatus::Decided as i32);
    assert!(h.scoring.applied().is_empty(), "an upheld ruling changes no score");
}

#[tokio::test]
async fn the_committee_hears_and_decides_as_the_policy_says() {
    let h = Harness::new().await;
    h.allow_appeals(3).await;
    let ruling = h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("n", &[Role::Player]), file("a", &ruling.ruling.unwrap().ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let ann = principal("ann", &[Role::Committee]);
    h.committee(&["ann", "bob"]).await;

    let early = h
        .appeals
        .decide_appeal(&ann, decision("x", &appeal, pb::AppealOutcome::Upheld, None, &["ann", "bob", "cy"]))
        .await;
    assert!(message(early).contains("an appeal is decided after it is heard"));
    let two = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob"])).await;
    assert!(message(two).starts_with("the club's policy has 3 committee member(s) hear and decide an appeal; 2 named"));
    let stranger = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "cy"])).await;
    assert!(message(stranger).starts_with("cy never signed in with the committee role"));
    h.committee(&["cy", "dan"]).await;
    let without_caller = h.appeals.hear_appeal(&ann, hearing(&appeal, &["bob", "cy", "dan"])).await;
    assert!(message(without_caller).starts_with("ann is not among the committee members named"));
    let mut stale = hearing(&appeal, &["ann", "bob", "cy"]);
    stale.expected_version = 7;
    assert_eq!(code(&h.appeals.hear_appeal(&ann, stale).await), tonic::Code::Aborted);

    let heard = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "cy"])).await.unwrap().appeal.unwrap();
    assert_eq!((heard.status, heard.version), (pb::AppealStatus::Heard as i32, 2));
    assert!(heard.hearing.as_ref().unwrap().heard_at.is_some());
    let dan = principal("dan", &[Role::Committee]);
    let absent = h
        .appeals
        .decide_appeal(&dan, decision("x", &heard, pb::AppealOutcome::Upheld, None, &["ann", "bob", "dan"]))
        .await;
    assert!(message(absent).starts_with("dan did not sit at the hearing"));
    let upheld_with_decision = h
        .appeals
        .decide_appeal(
            &ann,
            decision("x", &heard, pb::AppealOutcome::Upheld, Some(result_stands()), &["ann", "bob", "cy"]),
        )
        .await;
    assert_eq!(code(&upheld_with_decision), tonic::Code::InvalidArgument);
    let overruled_without = h
        .appeals
        .decide_appeal(&ann, decision("x", &heard, pb::AppealOutcome::Overruled, None, &["ann", "bob", "cy"]))
        .await;
    assert_eq!(
        message(overruled_without),
        "new_decision: a rectification, result stands or an adjusted score is required"
    );
}

#[tokio::test]
async fn deciding_the_same_appeal_twice_changes_the_score_once() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d2", result_stands())).await.unwrap().ruling.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("s", &[Role::Player]), file("a", &ruling.ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let chair = h.committee(&["chair"]).await.remove(0);
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();

    let overrule =
        decision("decide-1", &heard, pb::AppealOutcome::Overruled, Some(assigned("4S", Seat::North, 10)), &["chair"]);
    let first = h.appeals.decide_appeal(&chair, overrule.clone()).await.unwrap();
    let decided = first.appeal.clone().unwrap();
    assert_eq!((decided.status, decided.version), (pb::AppealStatus::Decided as i32, 3));
    let versions = &decided.decision.as_ref().unwrap().score_versions;
    assert_eq!(versions.len(), 1);
    assert_eq!(
        (versions[0].ruling_id.as_str(), versions[0].appeal_id.as_str()),
        (ruling.ruling_id.as_str(), decided.appeal_id.as_str())
    );
    let applied = h.scoring.applied();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0].appeal_id, decided.appeal_id);
    assert_eq!(applied[0].law.as_ref().unwrap().text, "the Club Appeals Committee (Alternative Club Laws)");

    assert_eq!(h.appeals.decide_appeal(&chair, overrule.clone()).await.unwrap(), first, "a retry with the key");
    let mut same_decision_new_key = overrule.clone();
    same_decision_new_key.idempotency_key = "decide-2".into();
    assert_eq!(h.appeals.decide_appeal(&chair, same_decision_new_key).await.unwrap(), first, "the same decision again");
    let different = decision("decide-3", &heard, pb::AppealOutcome::Upheld, None, &["chair"]);
    assert!(message(h.appeals.decide_appeal(&chair, different).await).contains("cannot be decided differently"));
    assert_eq!(h.scoring.applied().len(), 1, "the score changed once");

    let again = h.appeals.file_appeal(&principal("e", &[Role::Player]), file("b", &ruling.ruling_id, "", &[])).await;
    assert!(message(again).contains("the committee's decision is final at the club"));
}

#[tokio::test]
async fn a_decision_scoring_refuses_leaves_the_appeal_heard() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d2", result_stands())).await.unwrap().ruling.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("s", &[Role::Player]), file("a", &ruling.ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let chair = h.committee(&["chair"]).await.remove(0);
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    h.scoring.set_mode(Mode::Refuse);
    let refused = h
        .appeals
        .decide_appeal(
            &chair,
            decision("d", &heard, pb::AppealOutcome::Overruled, Some(assigned("4S", Seat::North, 10)), &["chair"]),
        )
        .await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    let now = h.appeals.get_appeal(&chair, &heard.appeal_id).await.unwrap().appeal.unwrap();
    assert_eq!(now, heard, "the appeal stands as heard");
    h.scoring.set_mode(Mode::Apply);
    let decided = h
        .appeals
        .decide_appeal(
            &chair,
            decision("d", &heard, pb::AppealOutcome::Overruled, Some(assigned("4S", Seat::North, 10)), &["chair"]),
        )
        .await
        .unwrap();
    assert_eq!(decided.appeal.unwrap().status, pb::AppealStatus::Decided as i32);
}

#[tokio::test]
async fn the_appellant_or_the_director_withdraws_an_appeal() {
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let ruling =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap().ruling.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("n", &[Role::Player]), file("a", &ruling.ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let request = pb::WithdrawAppealRequest { appeal_id: appeal.appeal_id.clone(), reason: "on reflection".into() };
    let other = h.appeals.withdraw_appeal(&principal("e", &[Role::Player]), request.clone()).await;
    assert_eq!(code(&other), tonic::Code::PermissionDenied);
    let withdrawn = h.appeals.withdraw_appeal(&principal("n", &[Role::Player]), request.clone()).await.unwrap();
    let withdrawn = withdrawn.appeal.unwrap();
    assert_eq!(
        (withdrawn.status, withdrawn.withdrawal_reason.as_str()),
        (pb::AppealStatus::Withdrawn as i32, "on reflection")
    );
    assert_eq!(h.appeals.withdraw_appeal(&arbiter(), request).await.unwrap().appeal.unwrap(), withdrawn);
    // A withdrawn appeal does not stop another within the time limit.
    let again = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("b", &ruling.ruling_id, "", &[])).await;
    assert!(again.is_ok());
}

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

/// An appeal on deal d2 of the rubber, heard by `chair`.
async fn heard_appeal(h: &Harness) -> (pb::Appeal, platform::auth::Principal) {
    h.allow_appeals(1).await;
    let ruling =
        h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d2", result_stands())).await.unwrap().ruling.unwrap();
    let appeal = h
        .appeals
        .file_appeal(&principal("s", &[Role::Player]), file("a", &ruling.ruling_id, "", &[]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let chair = h.committee(&["chair"]).await.remove(0);
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    (heard, chair)
}

#[tokio::test]
async fn a_decision_made_while_scoring_is_down_is_applied_later_and_only_once() {
    let h = Harness::new().await;
    let (heard, chair) = heard_appeal(&h).await;
    h.scoring.set_mode(Mode::Down);
    let request =
        decision("d", &heard, pb::AppealOutcome::Overruled, Some(assigned("4S", Seat::North, 10)), &["chair"]);
    assert_eq!(code(&h.appeals.decide_appeal(&chair, request.clone()).await), tonic::Code::Unavailable);
    let waiting = h.appeals.get_appeal(&chair, &heard.appeal_id).await.unwrap().appeal.unwrap();
    assert_eq!(waiting, heard, "the appeal shows as heard while its decision waits");
    let other = decision("other", &heard, pb::AppealOutcome::Upheld, None, &["chair"]);
    assert_eq!(
        code(&h.appeals.decide_appeal(&chair, other.clone()).await),
        tonic::Code::Aborted,
        "one decision at a time"
    );

    h.scoring.set_mode(Mode::Apply);
    appeals::entity::outbox::Entity::update_many()
        .col_expr(appeals::entity::outbox::Column::NextAttemptAt, Expr::value(chrono::Utc::now()))
        .exec(&h.db)
        .await
        .unwrap();
    assert_eq!(h.appeals.deliver_due().await.unwrap(), 1);
    let decided = h.appeals.get_appeal(&chair, &heard.appeal_id).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(decided.decision.as_ref().unwrap().score_versions.len(), 1);
    let answer = h.appeals.decide_appeal(&chair, request).await.unwrap();
    assert_eq!(answer.appeal, Some(decided), "the retry gets the decision the worker recorded");
    assert!(message(h.appeals.decide_appeal(&chair, other).await).contains("cannot be decided differently"));
    assert_eq!(h.scoring.applied().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn members_deciding_at_once_change_the_score_once() {
    let h = Harness::new().await;
    let (heard, chair) = heard_appeal(&h).await;
    let mut tasks = Vec::new();
    for i in 0..8 {
        let appeals = h.appeals.clone();
        let chair = chair.clone();
        let request = decision(
            &format!("key-{i}"),
            &heard,
            pb::AppealOutcome::Overruled,
            Some(assigned("4S", Seat::North, 10)),
            &["chair"],
        );
        tasks.push(tokio::spawn(async move { appeals.decide_appeal(&chair, request).await }));
    }
    let mut decided = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(answer) => {
                assert_eq!(answer.appeal.unwrap().status, pb::AppealStatus::Decided as i32);
                decided += 1;
            }
            // Those that arrived while the first was being applied are told to read again.
            Err(error) => assert_eq!(error.code(), tonic::Code::Aborted, "{error}"),
        }
    }
    assert!(decided >= 1);
    assert_eq!(h.scoring.applied().len(), 1, "the score changed once");
    let events = appeals::entity::event::Entity::find()
        .filter(appeals::entity::event::Column::Kind.eq("appeal_decided"))
        .all(&h.db)
        .await
        .unwrap();
    assert_eq!(events.len(), 1, "one decision notice");
}
