//! The stages of an appeal the club's policy arranges, besides the committee's hearing: the
//! Director in charge hearing a duplicate appeal when there is no committee (Law 93A), his review
//! of a point of law before the committee (Law 93B1), a further appeal beyond the club (Law 93C)
//! and a deposit kept only from an appeal that lacked merit (Law 92A). Refusals under the policy
//! name the policy version that applied.

use api::appeals::v1 as pb;
use laws::Seat;
use platform::auth::Role;

use super::common::*;
use super::{code, message};

/// Publishes a policy with a committee of `committee` (none: appeals_allowed false) and `procedure`.
async fn publish(h: &Harness, committee: Option<u32>, procedure: pb::AppealProcedure) -> u64 {
    let current = h.appeals.get_policy().await.unwrap().policy.unwrap();
    let minutes = |m: i64| Some(prost_types::Duration { seconds: m * 60, nanos: 0 });
    let published = h
        .appeals
        .update_policy(
            &principal("admin", &[Role::Admin]),
            pb::UpdateAppealPolicyRequest {
                expected_version: current.version,
                policy: Some(pb::AppealPolicy {
                    appeals_allowed: committee.is_some(),
                    rubber_time_limit: minutes(60),
                    duplicate_time_limit: minutes(30),
                    committee_size: committee.unwrap_or(1),
                    procedure: Some(procedure),
                    ..Default::default()
                }),
            },
        )
        .await
        .unwrap()
        .policy
        .unwrap();
    assert!(published.procedure.is_some(), "the options are published with the policy");
    published.version
}

fn pounds(pence: u64) -> pb::Money {
    pb::Money { amount_minor_units: pence, currency: "GBP".into() }
}

/// n2's appeal, with s2 concurring, against a ruling of `kind` on board 1 (A against B).
async fn board_appeal(h: &Harness, key: &str, kind: pb::RulingKind, deposit: Option<pb::Money>) -> pb::Appeal {
    let ruling = h.appeals.record_ruling(&arbiter(), board_ruling(key, kind, result_stands())).await.unwrap();
    let filing = pb::FileAppealRequest { deposit, ..file(key, &ruling.ruling.unwrap().ruling_id, "", &["s2"]) };
    h.appeals.file_appeal(&principal("n2", &[Role::Player]), filing).await.unwrap().appeal.unwrap()
}

fn director_hearing(appeal: &pb::Appeal) -> pb::DirectorHearAppealRequest {
    pb::DirectorHearAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        statements: vec![pb::Statement {
            speaker: "n2".into(),
            role: pb::SpeakerRole::AppellantSide as i32,
            text: "pass was not a logical alternative".into(),
        }],
        notes: "heard at the table after the session".into(),
    }
}

fn director_decision(key: &str, appeal: &pb::Appeal, outcome: pb::AppealOutcome) -> pb::DirectorDecideAppealRequest {
    pb::DirectorDecideAppealRequest {
        idempotency_key: key.into(),
        appeal_id: appeal.appeal_id.clone(),
        outcome: outcome as i32,
        new_decision: None,
        reasons: "pass was a logical alternative; the adjustment stands".into(),
        lacked_merit: false,
    }
}

#[tokio::test]
async fn law_93a_without_a_committee_the_director_who_ruled_hears_the_duplicate_appeal() {
    // "The Director in charge shall hear and rule upon all appeals if there is no Appeals
    // Committee [or if no alternative arrangement has been made under Law 80B2(k)]".
    let h = Harness::new().await;
    h.committee(&["chair"]).await;
    // The seeded policy has no committee: a duplicate appeal is still filed (Law 92A), for the
    // director.
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Judgement, None).await;
    assert_eq!(appeal.heard_by, pb::HearingBody::DirectorInCharge as i32);

    let chair = principal("chair", &[Role::Committee]);
    let committee = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await;
    assert_eq!(code(&committee), tonic::Code::FailedPrecondition);
    // The refusal names the Law and the policy the ruling was recorded under.
    let committee = message(committee);
    let named =
        "(Law 93A of the Laws of Duplicate Bridge): the policy in force when the ruling was recorded is version 1";
    assert!(committee.contains(named), "{committee}");

    // A director who is a member of a contestant concerned does not hear it; a player may not.
    let playing = h.appeals.director_hear_appeal(&principal("e2", &[Role::Arbiter]), director_hearing(&appeal)).await;
    assert!(
        message(playing)
            .starts_with("e2 may not sit on this appeal's committee: he is a member or captain of a contestant")
    );
    let player = h.appeals.director_hear_appeal(&principal("k", &[Role::Player]), director_hearing(&appeal)).await;
    assert_eq!(code(&player), tonic::Code::PermissionDenied);

    // The director who gave the ruling hears it: Law 93A names him.
    let heard = h.appeals.director_hear_appeal(&arbiter(), director_hearing(&appeal)).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    assert_eq!(heard.hearing.as_ref().unwrap().committee_member_ids, ["arbiter"]);
    let by_committee =
        h.appeals.decide_appeal(&chair, decision("d0", &heard, pb::AppealOutcome::Upheld, None, &["chair"])).await;
    assert!(
        message(by_committee)
            .contains("(Law 93A of the Laws of Duplicate Bridge): the policy in force when the ruling")
    );

    let varied = pb::DirectorDecideAppealRequest {
        new_decision: Some(assigned("3S", Seat::North, 9)),
        ..director_decision("d1", &heard, pb::AppealOutcome::Varied)
    };
    let decided = h.appeals.director_decide_appeal(&arbiter(), varied.clone()).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    let record = decided.decision.as_ref().unwrap();
    assert_eq!(record.committee_member_ids, ["arbiter"], "the director's own decision record");
    assert_eq!(decided.heard_by, pb::HearingBody::DirectorInCharge as i32);
    assert_eq!(h.scoring.applied().len(), 1, "the director's decision reaches the score");
    assert_eq!(h.scoring.applied()[0].appeal_id, decided.appeal_id);
    let notice = h.appeals.decision_notice(&principal("n2", &[Role::Player]), &decided.appeal_id).await.unwrap().html;
    assert!(notice.contains("the Director in charge, the club having no Appeals Committee for it (Law 93A)"));
    let again = h.appeals.director_decide_appeal(&arbiter(), varied).await.unwrap().appeal.unwrap();
    assert_eq!(again.version, decided.version, "the same key changes nothing");
    assert_eq!(h.scoring.applied().len(), 1);
}

#[tokio::test]
async fn club_appeals_committee_no_director_hears_a_rubber_appeal_in_its_place() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal":
    // the Club Laws have no Law 93A.
    let h = Harness::new().await;
    let ruling = h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let refused = h
        .appeals
        .file_appeal(&principal("n", &[Role::Player]), file("a", &ruling.ruling.unwrap().ruling_id, "", &[]))
        .await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    let refused = message(refused);
    assert!(refused.starts_with("the club's published policy hears no appeals (the Club Appeals Committee"));
    assert!(refused.contains("is version 1, published"), "{refused}");
}

#[tokio::test]
async fn law_93b2_with_a_committee_the_director_refers_the_appeal_and_does_not_decide_it() {
    // "2. The Director in charge shall refer all other appeals for adjudication."
    let h = Harness::new().await;
    h.allow_appeals(1).await;
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Judgement, None).await;
    assert_eq!(appeal.heard_by, pb::HearingBody::Committee as i32);
    let refused = h.appeals.director_hear_appeal(&arbiter(), director_hearing(&appeal)).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    let refused = message(refused);
    // `allow_appeals` published version 2 before the ruling.
    let named =
        "(Law 93B2 of the Laws of Duplicate Bridge): the policy in force when the ruling was recorded is version 2";
    assert!(refused.contains(named), "{refused}");
    let review = pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: pb::ReviewOutcome::Confirmed as i32,
        reasons: "the ruling stands".into(),
        corrected_ruling_id: String::new(),
    };
    let not_held = h.appeals.review_appeal(&arbiter(), review).await;
    let not_held = message(not_held);
    assert!(not_held.starts_with("the club's policy holds no director's review"), "{not_held}");
    assert!(not_held.contains("version 2"), "the refusal names the policy applied: {not_held}");
}

#[tokio::test]
async fn law_93b1_the_director_rules_on_a_point_of_law_before_the_committee_hears_it() {
    // "1. The Director in charge shall hear and rule upon such part of the appeal as deals solely
    // with the Law or regulations. His ruling may be appealed to the committee."
    let h = Harness::new().await;
    let version = publish(&h, Some(1), pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Law, None).await;
    let early = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await;
    assert_eq!(code(&early), tonic::Code::FailedPrecondition);
    let early = message(early);
    assert!(early.starts_with("the Director in charge first hears and rules upon an appeal on a point of law"));
    assert!(early.contains(&format!("is version {version}")), "{early}");

    let review = |outcome: pb::ReviewOutcome, corrected: &str| pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: outcome as i32,
        reasons: "Law 16B applies as ruled".into(),
        corrected_ruling_id: corrected.into(),
    };
    let no_id = h.appeals.review_appeal(&arbiter(), review(pb::ReviewOutcome::Corrected, "")).await;
    assert_eq!(code(&no_id), tonic::Code::InvalidArgument);
    let unknown = h.appeals.review_appeal(&arbiter(), review(pb::ReviewOutcome::Corrected, "nope")).await;
    assert_eq!(code(&unknown), tonic::Code::NotFound);
    let by_player =
        h.appeals.review_appeal(&principal("n2", &[Role::Player]), review(pb::ReviewOutcome::Confirmed, "")).await;
    assert_eq!(code(&by_player), tonic::Code::PermissionDenied);

    let reviewed =
        h.appeals.review_appeal(&arbiter(), review(pb::ReviewOutcome::Confirmed, "")).await.unwrap().appeal.unwrap();
    let record = reviewed.review.as_ref().unwrap();
    assert_eq!((record.director_id.as_str(), record.outcome), ("arbiter", pb::ReviewOutcome::Confirmed as i32));
    let twice = h.appeals.review_appeal(&arbiter(), review(pb::ReviewOutcome::Confirmed, "")).await;
    assert_eq!(code(&twice), tonic::Code::Aborted, "the appeal moved on since it was read");
    // His ruling may now be appealed to the committee.
    let heard = h.appeals.hear_appeal(&chair, hearing(&reviewed, &["chair"])).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);

    // A judgement is referred for adjudication at once.
    let judgement = board_appeal(&h, "r2", pb::RulingKind::Judgement, None).await;
    let request = pb::ReviewAppealRequest {
        appeal_id: judgement.appeal_id.clone(),
        expected_version: judgement.version,
        ..review(pb::ReviewOutcome::Confirmed, "")
    };
    let referred = h.appeals.review_appeal(&arbiter(), request).await;
    assert!(message(referred).starts_with("the appeal is referred to the Appeals Committee for adjudication"));
}

#[tokio::test]
async fn law_93b1_a_corrected_ruling_is_a_later_ruling_on_the_same_deal() {
    let h = Harness::new().await;
    publish(&h, Some(1), pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Law, None).await;
    let elsewhere = h.appeals.record_ruling(&arbiter(), rubber_ruling("r2", "d1", result_stands())).await.unwrap();
    let correct = |ruling_id: &str| pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: pb::ReviewOutcome::Corrected as i32,
        reasons: "Law 16B3: the call is cancelled, not the auction".into(),
        corrected_ruling_id: ruling_id.into(),
    };
    let wrong = h.appeals.review_appeal(&arbiter(), correct(&elsewhere.ruling.unwrap().ruling_id)).await;
    assert_eq!(code(&wrong), tonic::Code::FailedPrecondition);
    let corrected = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r3", pb::RulingKind::Law, assigned("3S", Seat::North, 9)))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let reviewed = h.appeals.review_appeal(&arbiter(), correct(&corrected.ruling_id)).await.unwrap().appeal.unwrap();
    assert_eq!(reviewed.review.unwrap().corrected_ruling_id, corrected.ruling_id);
}

/// Law 93B1: "The Director in charge shall hear and rule upon such part of the appeal as deals
/// solely with the Law or regulations. His ruling may be appealed to the committee." Once his
/// review corrects the ruling, the corrected ruling is the one in force: the committee hears the
/// appeal of it, and its decision is applied relative to it (here it overrules an adjusted score
/// the correction brought, so the table result comes back), not to the ruling first appealed.
#[tokio::test]
async fn law_93b1_the_committee_decides_the_appeal_of_the_ruling_the_review_put_in_force() {
    let h = Harness::new().await;
    publish(&h, Some(1), pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Law, None).await;
    assert_eq!(appeal.ruling_in_force_id, appeal.ruling_id, "until reviewed, the ruling appealed is in force");
    assert!(h.scoring.applied().is_empty(), "the ruling appealed let the result stand");
    // The correction is a ruling on the deal: recording it changes the score, as any ruling does.
    let corrected = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r2", pb::RulingKind::Judgement, assigned("3S", Seat::North, 9)))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let applied = h.scoring.applied();
    assert_eq!(applied.len(), 1, "the corrected ruling's adjusted score reached scoring");
    assert_eq!((applied[0].ruling_id.as_str(), applied[0].appeal_id.as_str()), (corrected.ruling_id.as_str(), ""));
    let review = pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: pb::ReviewOutcome::Corrected as i32,
        reasons: "Law 16B3: the damage is assessed under Law 12C".into(),
        corrected_ruling_id: corrected.ruling_id.clone(),
    };
    let reviewed = h.appeals.review_appeal(&arbiter(), review).await.unwrap().appeal.unwrap();
    assert_eq!(reviewed.ruling_id, appeal.ruling_id, "the ruling appealed stays on the record");
    assert_eq!(reviewed.ruling_in_force_id, corrected.ruling_id, "and the ruling the review put in force");

    let heard = h.appeals.hear_appeal(&chair, hearing(&reviewed, &["chair"])).await.unwrap().appeal.unwrap();
    let overrule = decision("d", &heard, pb::AppealOutcome::Overruled, Some(result_stands()), &["chair"]);
    let decided = h.appeals.decide_appeal(&chair, overrule.clone()).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(decided.ruling_in_force_id, corrected.ruling_id);
    let applied = h.scoring.applied();
    assert_eq!(applied.len(), 2, "the decision changed the score once more");
    let call = &applied[1];
    assert_eq!(
        (call.ruling_id.as_str(), call.appeal_id.as_str()),
        (corrected.ruling_id.as_str(), decided.appeal_id.as_str())
    );
    assert!(
        matches!(call.change, Some(api::scoring::v1::apply_adjustment_request::Change::RestoreTableResult(_))),
        "overruling the corrected ruling's adjusted score restores the table result: {call:?}"
    );
    let versions = &decided.decision.as_ref().unwrap().score_versions;
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].ruling_id, corrected.ruling_id);
    let again = h.appeals.decide_appeal(&chair, overrule).await.unwrap().appeal.unwrap();
    assert_eq!(again, decided, "a retry changes nothing");
    assert_eq!(h.scoring.applied().len(), 2, "the score changed once for the decision");
}

/// Law 93B1: the Chief Director's "ruling may be appealed to the committee". Once a review puts
/// his corrected ruling in force, the committee reviews his ruling, so he may not sit on it.
#[tokio::test]
async fn law_93b1_the_director_whose_correction_is_in_force_may_not_sit_on_the_committee() {
    let h = Harness::new().await;
    publish(&h, Some(1), pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    h.committee(&["chief", "chair"]).await;
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Law, None).await;
    let chief = principal("chief", &[Role::Arbiter, Role::Committee]);
    let corrected = h
        .appeals
        .record_ruling(&chief, board_ruling("r2", pb::RulingKind::Judgement, assigned("3S", Seat::North, 9)))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let review = pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: pb::ReviewOutcome::Corrected as i32,
        reasons: "Law 16B3: the damage is assessed under Law 12C".into(),
        corrected_ruling_id: corrected.ruling_id.clone(),
    };
    let reviewed = h.appeals.review_appeal(&chief, review).await.unwrap().appeal.unwrap();
    let refused = h.appeals.hear_appeal(&chief, hearing(&reviewed, &["chief"])).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    let refused = message(refused);
    assert!(
        refused.starts_with(
            "chief may not sit on this appeal's committee: he gave the ruling the director's review put in force"
        ),
        "{refused}"
    );
    let chair = principal("chair", &[Role::Committee]);
    h.appeals.hear_appeal(&chair, hearing(&reviewed, &["chair"])).await.unwrap();
}

/// Law 93B3: "The committee may not overrule the Director in charge on a point of law or
/// regulations". A review that corrects a ruling of law with another ruling of law leaves the
/// committee that one to uphold, not the ruling first appealed.
#[tokio::test]
async fn law_93b3_the_committee_may_not_overrule_a_corrected_ruling_of_law() {
    let h = Harness::new().await;
    publish(&h, Some(1), pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Law, None).await;
    let corrected = h
        .appeals
        .record_ruling(&arbiter(), board_ruling("r2", pb::RulingKind::Law, assigned("3S", Seat::North, 9)))
        .await
        .unwrap()
        .ruling
        .unwrap();
    let review = pb::ReviewAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        outcome: pb::ReviewOutcome::Corrected as i32,
        reasons: "Law 16B3 as corrected".into(),
        corrected_ruling_id: corrected.ruling_id.clone(),
    };
    let reviewed = h.appeals.review_appeal(&arbiter(), review).await.unwrap().appeal.unwrap();
    let heard = h.appeals.hear_appeal(&chair, hearing(&reviewed, &["chair"])).await.unwrap().appeal.unwrap();
    let overrule = decision("d1", &heard, pb::AppealOutcome::Overruled, Some(result_stands()), &["chair"]);
    let refused = h.appeals.decide_appeal(&chair, overrule).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    assert!(message(refused).contains("93B3"));
    let upheld = decision("d2", &heard, pb::AppealOutcome::Upheld, None, &["chair"]);
    let decided = h.appeals.decide_appeal(&chair, upheld).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(h.scoring.applied().len(), 1, "only the correction changed the score; upholding it changes nothing");
}

/// A policy whose appeals may go further, to "the national authority" (Law 93C).
fn further_appeal_policy() -> pb::AppealProcedure {
    pb::AppealProcedure { further_appeal_to: "the national authority".into(), ..Default::default() }
}

/// The steps of a further appeal on board A-B's score record.
async fn further_steps_on_the_record(h: &Harness) -> usize {
    let audit = h
        .appeals
        .score_audit(&arbiter(), pb::GetScoreAuditRequest { target: Some(board_target("A", "B")) })
        .await
        .unwrap();
    audit.entries.iter().filter(|e| matches!(e.entry, Some(pb::audit_entry::Entry::AppealTakenFurther(_)))).count()
}

#[tokio::test]
async fn law_93c1_a_decided_appeal_goes_further_to_the_body_the_policy_names() {
    // "Regulating Authorities may establish procedures for further appeals after the foregoing
    // procedures have been exhausted."
    let h = Harness::new().await;
    let procedure = further_appeal_policy();
    publish(&h, Some(1), procedure).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Judgement, None).await;
    let further = |appeal: &pb::Appeal, who: &str| pb::FileFurtherAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        appellant_player_id: who.into(),
        grounds: "the committee did not hear our witness".into(),
    };
    let early = h.appeals.file_further_appeal(&principal("n2", &[Role::Player]), further(&appeal, "")).await;
    assert!(message(early).starts_with("a further appeal lies only after the club's procedures have been exhausted"));

    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let decided = h
        .appeals
        .decide_appeal(&chair, decision("d", &heard, pb::AppealOutcome::Upheld, None, &["chair"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let stranger = h.appeals.file_further_appeal(&principal("k", &[Role::Player]), further(&decided, "")).await;
    assert_eq!(code(&stranger), tonic::Code::FailedPrecondition);
    let for_another = h.appeals.file_further_appeal(&principal("n2", &[Role::Player]), further(&decided, "s2")).await;
    assert_eq!(code(&for_another), tonic::Code::PermissionDenied);

    let filed = h
        .appeals
        .file_further_appeal(&principal("n2", &[Role::Player]), further(&decided, ""))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let record = filed.further_appeal.clone().unwrap();
    assert_eq!(record.body, "the national authority", "who it went to");
    assert_eq!(record.appellant_player_id, "n2");
    assert_eq!(record.status, pb::FurtherAppealStatus::Filed as i32);
    assert_eq!(filed.status, pb::AppealStatus::Decided as i32, "the club's decision stands meanwhile");
    let twice = h.appeals.file_further_appeal(&arbiter(), further(&filed, "n2")).await;
    assert!(message(twice).contains("was already taken further to the national authority"));

    let status = |appeal: &pb::Appeal, status: pb::FurtherAppealStatus| pb::RecordFurtherAppealStatusRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        status: status as i32,
        note: "letter of 3 December".into(),
        new_decision: None,
    };
    let changed_without =
        h.appeals.record_further_appeal_status(&arbiter(), status(&filed, pb::FurtherAppealStatus::Changed)).await;
    assert_eq!(code(&changed_without), tonic::Code::InvalidArgument);
    let accepted = h
        .appeals
        .record_further_appeal_status(&arbiter(), status(&filed, pb::FurtherAppealStatus::Accepted))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let upheld = h
        .appeals
        .record_further_appeal_status(&arbiter(), status(&accepted, pb::FurtherAppealStatus::Upheld))
        .await
        .unwrap()
        .appeal
        .unwrap();
    assert_eq!(upheld.further_appeal.as_ref().unwrap().status, pb::FurtherAppealStatus::Upheld as i32);
    let after =
        h.appeals.record_further_appeal_status(&arbiter(), status(&upheld, pb::FurtherAppealStatus::Changed)).await;
    assert_eq!(code(&after), tonic::Code::InvalidArgument);
    let settled =
        h.appeals.record_further_appeal_status(&arbiter(), status(&upheld, pb::FurtherAppealStatus::Declined)).await;
    assert_eq!(code(&settled), tonic::Code::FailedPrecondition);
    let further_steps = further_steps_on_the_record(&h).await;
    assert_eq!(further_steps, 3, "filed, accepted and upheld are on the record");
}

/// Law 93C2: "The Director in charge or the reviewing body may refer a matter for later
/// consideration by the Regulating Authority. The Regulating Authority has authority to resolve
/// any matter finally." When the body changes the decision, the decision it put in force reaches
/// the score as the committee's would: once, however often the status is recorded, and the
/// parties are told.
#[tokio::test]
async fn law_93c2_the_decision_the_body_put_in_force_reaches_the_score() {
    let h = Harness::new().await;
    let procedure = further_appeal_policy();
    publish(&h, Some(1), procedure).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Judgement, None).await;
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let decided = h
        .appeals
        .decide_appeal(&chair, decision("d", &heard, pb::AppealOutcome::Upheld, None, &["chair"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    assert!(h.scoring.applied().is_empty(), "the committee upheld a ruling that let the result stand");
    let further = pb::FileFurtherAppealRequest {
        appeal_id: decided.appeal_id.clone(),
        expected_version: decided.version,
        appellant_player_id: String::new(),
        grounds: "pass was not a logical alternative".into(),
    };
    let filed =
        h.appeals.file_further_appeal(&principal("n2", &[Role::Player]), further).await.unwrap().appeal.unwrap();
    let changed = pb::RecordFurtherAppealStatusRequest {
        appeal_id: filed.appeal_id.clone(),
        expected_version: filed.version,
        status: pb::FurtherAppealStatus::Changed as i32,
        note: "decision of 3 December".into(),
        new_decision: Some(assigned("4S", Seat::North, 10)),
    };
    let malformed =
        pb::RecordFurtherAppealStatusRequest { new_decision: Some(pb::RulingDecision::default()), ..changed.clone() };
    let refused = h.appeals.record_further_appeal_status(&arbiter(), malformed).await;
    assert_eq!(code(&refused), tonic::Code::InvalidArgument);
    let unknown = pb::RecordFurtherAppealStatusRequest { appeal_id: "nope".into(), ..changed.clone() };
    assert_eq!(code(&h.appeals.record_further_appeal_status(&arbiter(), unknown).await), tonic::Code::NotFound);

    let recorded = h.appeals.record_further_appeal_status(&arbiter(), changed.clone()).await.unwrap().appeal.unwrap();
    let record = recorded.further_appeal.clone().unwrap();
    assert_eq!(record.status, pb::FurtherAppealStatus::Changed as i32);
    assert_eq!(record.score_versions.len(), 1, "the score version the body's decision made");
    assert_eq!(recorded.version, filed.version + 1);
    let applied = h.scoring.applied();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0].ruling_id, decided.ruling_id);
    assert_eq!(applied[0].appeal_id, format!("{}/further", decided.appeal_id));
    assert!(matches!(applied[0].change, Some(api::scoring::v1::apply_adjustment_request::Change::Adjustment(_))));
    assert_eq!(applied[0].law.as_ref().unwrap().section, "C2");

    let again = h.appeals.record_further_appeal_status(&arbiter(), changed).await.unwrap().appeal.unwrap();
    assert_eq!(again, recorded, "recording it again changes nothing");
    assert_eq!(h.scoring.applied().len(), 1, "the score changed once");
    let further_steps = further_steps_on_the_record(&h).await;
    assert_eq!(further_steps, 2, "filed and changed are told to the parties");
}

/// Law 93C2: the Regulating Authority "has authority to resolve any matter finally". A body that
/// replaces the committee's adjusted score with a decision that adjusts nothing brings the table
/// result back, in a change of its own beside the committee's.
#[tokio::test]
async fn law_93c2_a_body_that_lets_the_result_stand_restores_the_table_result() {
    let h = Harness::new().await;
    let procedure = further_appeal_policy();
    publish(&h, Some(1), procedure).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let appeal = board_appeal(&h, "r1", pb::RulingKind::Judgement, None).await;
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let overrule =
        decision("d", &heard, pb::AppealOutcome::Overruled, Some(assigned("4S", Seat::North, 10)), &["chair"]);
    let decided = h.appeals.decide_appeal(&chair, overrule).await.unwrap().appeal.unwrap();
    assert_eq!(h.scoring.applied().len(), 1, "the committee's adjusted score");
    let further = pb::FileFurtherAppealRequest {
        appeal_id: decided.appeal_id.clone(),
        expected_version: decided.version,
        appellant_player_id: "e2".into(),
        grounds: "the hesitation suggested nothing".into(),
    };
    let filed = h.appeals.file_further_appeal(&arbiter(), further).await.unwrap().appeal.unwrap();
    let changed = pb::RecordFurtherAppealStatusRequest {
        appeal_id: filed.appeal_id.clone(),
        expected_version: filed.version,
        status: pb::FurtherAppealStatus::Changed as i32,
        note: "the result stands".into(),
        new_decision: Some(result_stands()),
    };
    let recorded = h.appeals.record_further_appeal_status(&arbiter(), changed).await.unwrap().appeal.unwrap();
    assert_eq!(recorded.further_appeal.unwrap().score_versions.len(), 1);
    assert_eq!(recorded.decision.unwrap().score_versions.len(), 1, "the committee's decision stays on the record");
    let applied = h.scoring.applied();
    assert_eq!(applied.len(), 2);
    assert!(matches!(
        applied[1].change,
        Some(api::scoring::v1::apply_adjustment_request::Change::RestoreTableResult(_))
    ));
}

#[tokio::test]
async fn club_appeals_committee_a_rubber_decision_is_not_appealed_further() {
    let h = Harness::new().await;
    let procedure = further_appeal_policy();
    publish(&h, Some(1), procedure).await;
    let appeal = h.rubber_appeal(1).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let decided = h
        .appeals
        .decide_appeal(&chair, decision("d", &heard, pb::AppealOutcome::Upheld, None, &["chair"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    let request = pb::FileFurtherAppealRequest {
        appeal_id: decided.appeal_id.clone(),
        expected_version: decided.version,
        appellant_player_id: String::new(),
        grounds: "we disagree".into(),
    };
    let refused = h.appeals.file_further_appeal(&principal("n", &[Role::Player]), request).await;
    assert!(message(refused).contains("the Club Laws provide no further appeal"));
}

#[tokio::test]
async fn law_92a_a_deposit_is_kept_only_when_the_appeal_is_found_to_lack_merit() {
    // "A contestant or his captain may appeal for a review of any ruling made at his table by the
    // Director. Any such request, if deemed to lack merit, may be the subject of a sanction
    // imposed by regulation."
    let h = Harness::new().await;
    let version = publish(&h, Some(1), pb::AppealProcedure { deposit: Some(pounds(500)), ..Default::default() }).await;
    h.committee(&["chair"]).await;
    let chair = principal("chair", &[Role::Committee]);
    let ruling =
        h.appeals.record_ruling(&arbiter(), board_ruling("r1", pb::RulingKind::Judgement, result_stands())).await;
    let ruling_id = ruling.unwrap().ruling.unwrap().ruling_id;
    let without = h.appeals.file_appeal(&principal("n2", &[Role::Player]), file("a0", &ruling_id, "", &["s2"])).await;
    assert_eq!(code(&without), tonic::Code::FailedPrecondition);
    let without = message(without);
    assert!(
        without.starts_with(
            "the club's policy asks a deposit of 500 GBP (minor units) with an appeal (Law 92A of the Laws of Duplicate \
             Bridge): the policy in force when the ruling was recorded is version"
        ),
        "{without}"
    );
    assert!(without.contains(&format!("version {version}")));
    let bad = pb::FileAppealRequest { deposit: Some(pounds(0)), ..file("a0", &ruling_id, "", &["s2"]) };
    assert_eq!(
        code(&h.appeals.file_appeal(&principal("n2", &[Role::Player]), bad).await),
        tonic::Code::InvalidArgument
    );

    let filing = pb::FileAppealRequest { deposit: Some(pounds(500)), ..file("a1", &ruling_id, "", &["s2"]) };
    let appeal = h.appeals.file_appeal(&principal("n2", &[Role::Player]), filing).await.unwrap().appeal.unwrap();
    assert_eq!(appeal.deposit.as_ref().unwrap().status, pb::DepositStatus::Held as i32);
    assert_eq!(appeal.deposit.as_ref().unwrap().amount, Some(pounds(500)));
    let heard = h.appeals.hear_appeal(&chair, hearing(&appeal, &["chair"])).await.unwrap().appeal.unwrap();
    let no_merit = pb::DecideAppealRequest {
        lacked_merit: true,
        ..decision("d1", &heard, pb::AppealOutcome::Upheld, None, &["chair"])
    };
    let decided = h.appeals.decide_appeal(&chair, no_merit).await.unwrap().appeal.unwrap();
    assert!(decided.decision.as_ref().unwrap().lacked_merit);
    assert_eq!(decided.deposit.as_ref().unwrap().status, pb::DepositStatus::Retained as i32);
    let notice = h.appeals.decision_notice(&principal("s2", &[Role::Player]), &decided.appeal_id).await.unwrap().html;
    assert!(notice.contains("the appeal was found to lack merit (Law 92A)"));
    assert!(notice.contains("500 GBP (minor units), retained"));

    // Failing is not lacking merit: an upheld ruling returns the deposit unless found so.
    let second = board_appeal(&h, "r2", pb::RulingKind::Judgement, Some(pounds(500))).await;
    let heard = h.appeals.hear_appeal(&chair, hearing(&second, &["chair"])).await.unwrap().appeal.unwrap();
    let decided = h
        .appeals
        .decide_appeal(&chair, decision("d2", &heard, pb::AppealOutcome::Upheld, None, &["chair"]))
        .await
        .unwrap()
        .appeal
        .unwrap();
    assert_eq!(decided.deposit.as_ref().unwrap().status, pb::DepositStatus::Returned as i32);

    // A withdrawn appeal is not decided: its deposit is returned.
    let third = board_appeal(&h, "r3", pb::RulingKind::Judgement, Some(pounds(500))).await;
    let withdrawn = h
        .appeals
        .withdraw_appeal(
            &principal("n2", &[Role::Player]),
            pb::WithdrawAppealRequest { appeal_id: third.appeal_id.clone(), reason: "satisfied".into() },
        )
        .await
        .unwrap()
        .appeal
        .unwrap();
    let deposit = withdrawn.deposit.unwrap();
    assert_eq!(deposit.status, pb::DepositStatus::Returned as i32);
    assert!(deposit.settled_at.is_some());
}

#[tokio::test]
async fn a_policy_names_a_deposit_in_a_currency_and_more_than_nothing() {
    let h = Harness::new().await;
    let current = h.appeals.get_policy().await.unwrap().policy.unwrap();
    let bad = pb::AppealPolicy {
        appeals_allowed: true,
        rubber_time_limit: Some(prost_types::Duration { seconds: 60, nanos: 0 }),
        duplicate_time_limit: Some(prost_types::Duration { seconds: 60, nanos: 0 }),
        committee_size: 1,
        procedure: Some(pb::AppealProcedure {
            deposit: Some(pb::Money { amount_minor_units: 500, currency: "pounds".into() }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let refused = h
        .appeals
        .update_policy(
            &principal("admin", &[Role::Admin]),
            pb::UpdateAppealPolicyRequest { expected_version: current.version, policy: Some(bad) },
        )
        .await;
    assert_eq!(code(&refused), tonic::Code::InvalidArgument);
    assert!(h.appeals.get_policy().await.unwrap().policy.unwrap().procedure.is_none(), "nothing was published");
}

#[tokio::test]
async fn club_appeals_committee_a_late_appeal_names_the_policy_whose_time_limit_it_missed() {
    use sea_orm::EntityTrait;
    use sea_orm::sea_query::Expr;
    let h = Harness::new().await;
    let version = publish(&h, Some(1), pb::AppealProcedure::default()).await;
    let ruling = h.appeals.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let ruling_id = ruling.ruling.unwrap().ruling_id;
    appeals::entity::ruling::Entity::update_many()
        .col_expr(
            appeals::entity::ruling::Column::RuledAt,
            Expr::value(chrono::Utc::now() - chrono::Duration::hours(2)),
        )
        .exec(&h.db)
        .await
        .unwrap();
    let late = h.appeals.file_appeal(&principal("w", &[Role::Player]), file("a", &ruling_id, "", &[])).await;
    let late = message(late);
    assert!(late.starts_with("the appeal is late: filed 120 min"), "{late}");
    assert!(late.contains(&format!("the policy in force when the ruling was recorded is version {version}")), "{late}");
}
