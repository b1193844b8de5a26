//! Filing an appeal: only under a policy published before the ruling, only by a player of the
//! deal for himself (or the director for him), within the club's time limit or Law 92B's period,
//! with the partner's concurrence in a pairs event (Law 92D); and withdrawing it.

use api::appeals::v1 as pb;
use platform::auth::Role;
use sea_orm::EntityTrait;
use sea_orm::sea_query::Expr;

use super::common::*;
use super::{code, message};

#[tokio::test]
async fn club_appeals_committee_only_under_a_policy_published_before_the_ruling() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal any
    // decision by the Arbiter."
    let h = Harness::new().await;
    let before = h.appeals.record_ruling(&arbiter(), rubber_ruling("r1", "d1", result_stands())).await.unwrap();
    let before_id = before.ruling.unwrap().ruling_id;
    let refused = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("a1", &before_id, "", &[])).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    let first = h.appeals.get_policy().await.unwrap().policy.unwrap();
    let published = first.published_at.unwrap();
    let published = chrono::DateTime::from_timestamp(published.seconds, 0).unwrap().format("%Y-%m-%d %H:%M:%S UTC");
    let named = format!(
        "the club's published policy hears no appeals (the Club Appeals Committee (Alternative Club Laws)): the \
         policy in force when the ruling was recorded is version 1, published {published} by configuration"
    );
    assert_eq!(message(refused), named);

    // A new policy hears appeals, but not against a ruling recorded before it: the refusal still
    // names the policy that applied, not the one now in force.
    h.allow_appeals(3).await;
    let still = h.appeals.file_appeal(&principal("n", &[Role::Player]), file("a2", &before_id, "", &[])).await;
    assert_eq!(code(&still), tonic::Code::FailedPrecondition, "the policy applies to rulings made after it");
    assert_eq!(message(still), named);
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
    assert!(
        text.contains("the limit is 60 min (the Club Appeals Committee (Alternative Club Laws)): the policy"),
        "{text}"
    );
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
    assert!(text.contains("the limit is 30 min (Law 92B of the Laws of Duplicate Bridge): the policy"), "{text}");
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
