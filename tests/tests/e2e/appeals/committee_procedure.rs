//! The club's committee and its procedure on a real server, as the appeals service's own tests
//! show them: the policy in force when the ruling was recorded governs an appeal, the roster the
//! administrator keeps is the committee (whether or not a member ever called), members conflicted
//! or party to the deal do not sit, the Director's review comes first where the policy asks it
//! (Law 93B1), a further appeal goes where the policy allows it (Law 93C), and the decision notice
//! is a page a real HTML parser reads with its reasons, its dissent and its score change.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;
use tonic::{Code, Status};

use super::{
    PLAYERS, appeal_and_hear, board_key, board_results, minutes, overrule, played, publish_policy, record,
    record_board, result_stands, rule, scorepad, session, sign_in,
};

const CLUB: &str = "(the Club Appeals Committee (Alternative Club Laws))";

/// Publishes a policy hearing appeals with a committee of one and `procedure`; returns it.
async fn publish_procedure(app: &TestApp, procedure: pb::AppealProcedure) -> pb::AppealPolicy {
    let mut admin = app.appeals("club-admin", &[Role::Admin]);
    let current = admin.get_appeal_policy(pb::GetAppealPolicyRequest {}).await.unwrap().into_inner().policy.unwrap();
    let published = admin
        .update_appeal_policy(pb::UpdateAppealPolicyRequest {
            expected_version: current.version,
            policy: Some(pb::AppealPolicy {
                appeals_allowed: true,
                rubber_time_limit: minutes(60),
                duplicate_time_limit: minutes(30),
                committee_size: 1,
                procedure: Some(procedure),
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner()
        .policy
        .unwrap();
    assert_eq!(published.version, current.version + 1);
    assert!(published.procedure.is_some(), "the procedure is published with the policy");
    published
}

/// The club's policy as it stands now.
async fn policy_now(app: &TestApp) -> pb::AppealPolicy {
    let mut reader = app.appeals("nora", &[Role::Player]);
    reader.get_appeal_policy(pb::GetAppealPolicyRequest {}).await.unwrap().into_inner().policy.unwrap()
}

/// "version N, published <time> by <who>", as a refusal names the policy.
fn named(policy: &pb::AppealPolicy, by: &str) -> String {
    let at = policy.published_at.unwrap();
    let at = chrono::DateTime::from_timestamp(at.seconds, 0).unwrap().format("%Y-%m-%d %H:%M:%S UTC");
    format!("the policy in force when the ruling was recorded is version {}, published {at} by {by}", policy.version)
}

/// `player` files an appeal against `ruling` under `key`.
async fn file(
    app: &TestApp,
    player: &str,
    concurring: &[&str],
    ruling: &pb::Ruling,
    key: &str,
) -> Result<pb::Appeal, Status> {
    let request = pb::FileAppealRequest {
        idempotency_key: key.into(),
        ruling_id: ruling.ruling_id.clone(),
        concurring_player_ids: concurring.iter().map(|p| (*p).to_owned()).collect(),
        grounds: "the ruling was wrong".into(),
        ..Default::default()
    };
    let filed = app.appeals(player, &[Role::Player]).file_appeal(request).await?;
    Ok(filed.into_inner().appeal.unwrap())
}

/// `caller` records the hearing of `appeal` by `members`.
async fn hear(app: &TestApp, caller: &str, appeal: &pb::Appeal, members: &[&str]) -> Result<pb::Appeal, Status> {
    let request = pb::HearAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        hearing: Some(pb::Hearing {
            committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
            statements: vec![pb::Statement {
                speaker: appeal.appellant_player_id.clone(),
                role: pb::SpeakerRole::AppellantSide as i32,
                text: "we would have done better".into(),
            }],
            ..Default::default()
        }),
    };
    Ok(app.appeals(caller, &[Role::Committee]).hear_appeal(request).await?.into_inner().appeal.unwrap())
}

/// A ruling of `kind` on board 1 at the table `ns`-`ew`, the result standing, under `key`.
async fn board_ruling_of(
    app: &TestApp,
    session: &str,
    key: &str,
    (ns, ew): (&str, &str),
    kind: pb::RulingKind,
) -> pb::Ruling {
    app.appeals("director", &[Role::Arbiter])
        .record_ruling(pb::RecordRulingRequest {
            idempotency_key: key.into(),
            deal: Some(pb::DealReference {
                kind: common::TableKind::Duplicate as i32,
                table_id: format!("table-{ns}{ew}"),
                score_target: Some(common::ScoreTarget {
                    target: Some(common::score_target::Target::BoardResult(board_key(session, ns, ew))),
                }),
                ..Default::default()
            }),
            irregularity: "an insufficient bid, not accepted".into(),
            laws: vec![common::LawCitation {
                code: common::LawCode::Duplicate as i32,
                number: 27,
                section: "B1".into(),
                text: String::new(),
            }],
            facts: "the bid was replaced by the lowest sufficient bid in the same denomination".into(),
            kind: kind as i32,
            decision: Some(result_stands()),
            right_to_appeal_advised: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .ruling
        .unwrap()
}

/// The session of [`session`] with board 1 played at all three tables.
async fn played_board(app: &TestApp) -> String {
    let id = session(app).await.session_id;
    record_board(app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    record_board(app, &id, "E", "F", played(Seat::North, "3S", 10)).await;
    id
}

/// The chair decides the heard `appeal`: the ruling is upheld.
async fn uphold(app: &TestApp, key: &str, appeal: &pb::Appeal, chair: &str) -> pb::Appeal {
    let request = pb::DecideAppealRequest {
        outcome: pb::AppealOutcome::Upheld as i32,
        new_decision: None,
        reasons: "the ruling was right".into(),
        ..overrule(key, appeal, played(Seat::North, "4S", 9), &[chair])
    };
    app.appeals(chair, &[Role::Committee]).decide_appeal(request).await.unwrap().into_inner().appeal.unwrap()
}

fn further(appeal: &pb::Appeal) -> pb::FileFurtherAppealRequest {
    pb::FileFurtherAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        appellant_player_id: String::new(),
        grounds: "the committee did not hear our witness".into(),
    }
}

/// The Club Appeals Committee: "If such a procedure has been agreed to or published in advance,
/// any player may appeal any decision by the Arbiter." The policy as it stood when the ruling was
/// recorded governs: an appeal against a ruling made under a policy hearing no appeals is refused,
/// naming that policy's version and publication, even after a new policy is published; a ruling
/// made after the new policy may be appealed.
#[tokio::test]
async fn an_appeal_is_governed_by_the_policy_in_force_when_the_ruling_was_recorded() {
    let app = TestApp::spawn().await;
    let seeded = policy_now(&app).await;
    assert!(!seeded.appeals_allowed, "the seeded policy hears no appeals");
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let before = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;

    let expected = format!("the club's published policy hears no appeals {CLUB}: {}", named(&seeded, "configuration"));
    let refused = file(&app, "nora", &[], &before, "before").await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), expected);

    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let now = policy_now(&app).await;
    assert!(now.appeals_allowed && now.version == seeded.version + 1);
    let still = file(&app, "nora", &[], &before, "still").await.unwrap_err();
    assert_eq!(still.code(), Code::FailedPrecondition, "the policy applies to rulings made after it");
    assert_eq!(still.message(), expected, "the refusal names the policy that applied, not the one now in force");

    record(&app, &pad.scorepad_id, 2, played(Seat::East, "3NT", 9)).await;
    let after = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-2").await;
    let filed = file(&app, "nora", &[], &after, "after").await.unwrap();
    assert_eq!((filed.appellant_player_id.as_str(), filed.status), ("nora", pb::AppealStatus::Filed as i32));
    assert!(filed.deadline.is_some(), "the club's time limit runs from the ruling");
}

/// The Club Appeals Committee: "a club should establish an Appeals Committee to review decisions
/// of the Arbiter". The club's roster is its committee: a member the administrator added, who has
/// never made a call of any kind, is named to the hearing and to the decision; a registered player
/// not on the roster is not.
#[tokio::test]
async fn a_roster_member_who_never_made_a_call_hears_and_decides_an_appeal() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 3, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = file(&app, "sam", &[], &ruling, "appeal").await.unwrap();
    // Only the administrator (and the desk registering them) acts for "quiet" and "third".
    sign_in(&app, &["chair", "quiet", "third"]).await;
    e2e::lineup::register(&mut app.membership("desk", &[Role::Desk]), &["outsider"]).await;
    let roster = app
        .appeals("club-admin", &[Role::Admin])
        .list_roster_entries(pb::ListRosterEntriesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .entries;
    let mut members: Vec<&str> = roster.iter().map(|e| e.member_id.as_str()).collect();
    members.sort_unstable();
    assert_eq!(members, ["chair", "quiet", "third"]);
    // The committee reads the roster too, to name who sits with it; a player does not.
    let read_by_committee = app
        .appeals("staff:chair", &[Role::Committee])
        .list_roster_entries(pb::ListRosterEntriesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .entries;
    assert_eq!(read_by_committee, roster);
    let by_player =
        app.appeals("sam", &[Role::Player]).list_roster_entries(pb::ListRosterEntriesRequest::default()).await;
    assert_eq!(by_player.unwrap_err().code(), Code::PermissionDenied);

    let not_on_roster = hear(&app, "chair", &appeal, &["chair", "quiet", "outsider"]).await.unwrap_err();
    assert_eq!(not_on_roster.code(), Code::FailedPrecondition);
    assert_eq!(
        not_on_roster.message(),
        "outsider is not on the club's appeals committee roster (the Club Appeals Committee (Alternative Club Laws): \
         the club establishes its Appeals Committee)"
    );

    let committee = ["chair", "quiet", "third"];
    let heard = hear(&app, "chair", &appeal, &committee).await.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    assert_eq!(heard.hearing.unwrap().committee_member_ids, committee);
    let decided = app
        .appeals("chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, played(Seat::North, "4S", 10), &committee))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    let decision = decided.decision.unwrap();
    assert_eq!(decision.committee_member_ids, committee, "quiet decided without ever calling");
    assert_eq!(decision.score_versions.len(), 1);
}

/// The Club Appeals Committee: the committee reviews the Arbiter's decisions between the parties,
/// so a member the club declared conflicted for a party, or a player of the deal, does not sit:
/// each is refused by name when named to the hearing, and the refusal names the conflict.
#[tokio::test]
async fn a_member_declared_conflicted_or_party_to_the_deal_is_refused_a_seat_at_the_hearing() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 3, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = file(&app, "nora", &[], &ruling, "appeal").await.unwrap();
    let opponent = PLAYERS[1].1;
    sign_in(&app, &["chair", "vice", "cy", "dan", opponent]).await;

    let declared = app
        .appeals("club-admin", &[Role::Admin])
        .declare_conflict(pb::DeclareConflictRequest {
            conflict: Some(pb::DeclaredConflict {
                member_id: "cy".into(),
                subject: Some(pb::declared_conflict::Subject::PlayerId("nora".into())),
                reason: "nora's brother".into(),
                ..Default::default()
            }),
            idempotency_key: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .conflict
        .unwrap();
    assert_eq!(declared.declared_by, "club-admin");
    let conflicted = hear(&app, "chair", &appeal, &["chair", "vice", "cy"]).await.unwrap_err();
    assert_eq!(conflicted.code(), Code::FailedPrecondition);
    assert_eq!(
        conflicted.message(),
        format!(
            "cy may not sit on this appeal's committee: he is declared conflicted by the club for a player party to \
             the appeal {CLUB}; declared for player nora: nora's brother"
        )
    );

    let party = hear(&app, "chair", &appeal, &["chair", "vice", opponent]).await.unwrap_err();
    assert_eq!(party.code(), Code::FailedPrecondition);
    assert_eq!(
        party.message(),
        format!("{opponent} may not sit on this appeal's committee: he played the deal the ruling concerns {CLUB}")
    );

    let heard = hear(&app, "chair", &appeal, &["chair", "vice", "dan"]).await.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    assert_eq!(heard.version, appeal.version + 1, "the refused hearings changed nothing");
}

/// Law 93B1: "The Director in charge shall hear and rule upon such part of the appeal as deals
/// solely with the Law or regulations. His ruling may be appealed to the committee." Where the
/// club's policy asks for the review, the committee's hearing is refused before it and allowed
/// after it.
#[tokio::test]
async fn law_93b1_the_directors_review_precedes_the_committees_hearing_where_the_policy_asks_it() {
    let app = TestApp::spawn().await;
    let policy = publish_procedure(&app, pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    let id = played_board(&app).await;
    let ruling = board_ruling_of(&app, &id, "point-of-law", ("C", "D"), pb::RulingKind::Law).await;
    let appeal = file(&app, "c1", &["c2"], &ruling, "appeal").await.unwrap();
    assert_eq!(appeal.heard_by, pb::HearingBody::Committee as i32);
    sign_in(&app, &["chair"]).await;

    let early = hear(&app, "chair", &appeal, &["chair"]).await.unwrap_err();
    assert_eq!(early.code(), Code::FailedPrecondition);
    assert!(
        early.message().starts_with("the Director in charge first hears and rules upon an appeal on a point of law"),
        "{}",
        early.message()
    );
    assert!(early.message().ends_with(&named(&policy, "club-admin")), "{}", early.message());

    let reviewed = app
        .appeals("director", &[Role::Arbiter])
        .review_appeal(pb::ReviewAppealRequest {
            appeal_id: appeal.appeal_id.clone(),
            expected_version: appeal.version,
            outcome: pb::ReviewOutcome::Confirmed as i32,
            reasons: "Law 27B1 applies as ruled".into(),
            corrected_ruling_id: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let review = reviewed.review.as_ref().unwrap();
    assert_eq!((review.director_id.as_str(), review.outcome), ("director", pb::ReviewOutcome::Confirmed as i32));

    let heard = hear(&app, "chair", &reviewed, &["chair"]).await.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    assert_eq!(heard.hearing.unwrap().committee_member_ids, ["chair"]);
}

/// Law 93B1: "His ruling may be appealed to the committee." A review that corrects the ruling puts
/// the corrected ruling in force: it reaches the score when recorded, the committee hears the
/// appeal of it, and overruling its adjusted score brings the table result back through the real
/// scoring service, under the corrected ruling.
#[tokio::test]
async fn law_93b1_the_committee_decides_on_the_ruling_the_review_put_in_force() {
    let app = TestApp::spawn().await;
    publish_procedure(&app, pb::AppealProcedure { director_review: true, ..Default::default() }).await;
    let id = played_board(&app).await;
    let ruling = board_ruling_of(&app, &id, "point-of-law", ("A", "B"), pb::RulingKind::Law).await;
    let appeal = file(&app, "b1", &["b2"], &ruling, "appeal").await.unwrap();
    let mut director = app.appeals("director", &[Role::Arbiter]);
    let corrected = director
        .record_ruling(pb::RecordRulingRequest {
            idempotency_key: "corrected".into(),
            deal: ruling.deal.clone(),
            irregularity: ruling.irregularity.clone(),
            laws: ruling.laws.clone(),
            facts: "the insufficient bid gave information that damaged the non-offending side".into(),
            kind: pb::RulingKind::Judgement as i32,
            decision: Some(super::assigned(played(Seat::North, "4S", 9))),
            right_to_appeal_advised: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .ruling
        .unwrap();
    let reviewed = director
        .review_appeal(pb::ReviewAppealRequest {
            appeal_id: appeal.appeal_id.clone(),
            expected_version: appeal.version,
            outcome: pb::ReviewOutcome::Corrected as i32,
            reasons: "Law 27D: the score is adjusted".into(),
            corrected_ruling_id: corrected.ruling_id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(
        (reviewed.ruling_id.as_str(), reviewed.ruling_in_force_id.as_str()),
        (ruling.ruling_id.as_str(), corrected.ruling_id.as_str())
    );
    sign_in(&app, &["chair"]).await;
    let heard = hear(&app, "chair", &reviewed, &["chair"]).await.unwrap();
    let request = pb::DecideAppealRequest {
        new_decision: Some(result_stands()),
        ..overrule("lets-it-stand", &heard, played(Seat::North, "4S", 10), &["chair"])
    };
    let decided =
        app.appeals("chair", &[Role::Committee]).decide_appeal(request).await.unwrap().into_inner().appeal.unwrap();
    let versions = &decided.decision.as_ref().unwrap().score_versions;
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].ruling_id, corrected.ruling_id);
    let results = board_results(&app, &id).await;
    let at_table = results.iter().find(|r| r.appeal_id == decided.appeal_id).expect("the decision's result");
    assert_eq!(at_table.ruling_id, corrected.ruling_id);
    assert!(at_table.adjustment.is_none(), "the table result is back: {at_table:?}");
}

/// Law 93C1: "Regulating Authorities may establish procedures for further appeals after the
/// foregoing procedures have been exhausted." Where the club's policy names no further body, a
/// decided appeal goes no further, and the refusal names the policy; where it names one, a party
/// takes the decided appeal there and the director records how it stands.
#[tokio::test]
async fn law_93c_a_further_appeal_lies_where_the_policy_allows_it_and_is_refused_where_it_does_not() {
    let app = TestApp::spawn().await;
    let without = publish_procedure(&app, pb::AppealProcedure::default()).await;
    let id = played_board(&app).await;
    let first = board_ruling_of(&app, &id, "first", ("C", "D"), pb::RulingKind::Judgement).await;
    let appeal = appeal_and_hear(&app, &first, "c1", &["c2"], &["chair"]).await;
    let decided = uphold(&app, "first", &appeal, "chair").await;
    let refused = app.appeals("c1", &[Role::Player]).file_further_appeal(further(&decided)).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        format!(
            "the club's policy provides no further appeal (Law 93C1 of the Laws of Duplicate Bridge): {}",
            named(&without, "club-admin")
        )
    );

    let body = "the national authority";
    publish_procedure(&app, pb::AppealProcedure { further_appeal_to: body.into(), ..Default::default() }).await;
    let second = board_ruling_of(&app, &id, "second", ("A", "B"), pb::RulingKind::Judgement).await;
    let appeal = appeal_and_hear(&app, &second, "b1", &["b2"], &["vice"]).await;
    let early = app.appeals("b1", &[Role::Player]).file_further_appeal(further(&appeal)).await.unwrap_err();
    assert_eq!(early.code(), Code::FailedPrecondition);
    assert!(early.message().starts_with("a further appeal lies only after the club's procedures have been exhausted"));
    let decided = uphold(&app, "second", &appeal, "vice").await;
    let filed = app
        .appeals("b1", &[Role::Player])
        .file_further_appeal(further(&decided))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let record = filed.further_appeal.clone().unwrap();
    assert_eq!((record.body.as_str(), record.appellant_player_id.as_str()), (body, "b1"));
    assert_eq!(record.status, pb::FurtherAppealStatus::Filed as i32);
    assert_eq!(filed.status, pb::AppealStatus::Decided as i32, "the club's decision stands meanwhile");

    let mut director = app.appeals("director", &[Role::Arbiter]);
    let status = |appeal: &pb::Appeal, status: pb::FurtherAppealStatus| pb::RecordFurtherAppealStatusRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        status: status as i32,
        note: "letter of 3 December".into(),
        new_decision: None,
    };
    let accepted = director
        .record_further_appeal_status(status(&filed, pb::FurtherAppealStatus::Accepted))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let upheld = director
        .record_further_appeal_status(status(&accepted, pb::FurtherAppealStatus::Upheld))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let settled =
        director.record_further_appeal_status(status(&upheld, pb::FurtherAppealStatus::Declined)).await.unwrap_err();
    assert_eq!(settled.code(), Code::FailedPrecondition, "{}", settled.message());
    let read = app
        .appeals("b2", &[Role::Player])
        .get_appeal(pb::GetAppealRequest { appeal_id: decided.appeal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let further = read.further_appeal.unwrap();
    assert_eq!(
        (further.status, further.note.as_str()),
        (pb::FurtherAppealStatus::Upheld as i32, "letter of 3 December")
    );
}

/// Law 93C2: "The Regulating Authority has authority to resolve any matter finally." The decision
/// the body put in force reaches the score through the real scoring service, as the committee's
/// would, and recording it again changes nothing.
#[tokio::test]
async fn law_93c2_the_decision_the_body_put_in_force_reaches_the_score() {
    let app = TestApp::spawn().await;
    let body = "the national authority";
    publish_procedure(&app, pb::AppealProcedure { further_appeal_to: body.into(), ..Default::default() }).await;
    let id = played_board(&app).await;
    let ruling = board_ruling_of(&app, &id, "ruled", ("A", "B"), pb::RulingKind::Judgement).await;
    let appeal = appeal_and_hear(&app, &ruling, "b1", &["b2"], &["chair"]).await;
    let decided = uphold(&app, "ruled", &appeal, "chair").await;
    let filed = app
        .appeals("b1", &[Role::Player])
        .file_further_appeal(further(&decided))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let changed = pb::RecordFurtherAppealStatusRequest {
        appeal_id: filed.appeal_id.clone(),
        expected_version: filed.version,
        status: pb::FurtherAppealStatus::Changed as i32,
        note: "decision of 3 December".into(),
        new_decision: Some(super::assigned(played(Seat::North, "4S", 9))),
    };
    let mut director = app.appeals("director", &[Role::Arbiter]);
    let recorded = director.record_further_appeal_status(changed.clone()).await.unwrap().into_inner().appeal.unwrap();
    let record = recorded.further_appeal.clone().unwrap();
    assert_eq!(record.status, pb::FurtherAppealStatus::Changed as i32);
    assert_eq!(record.score_versions.len(), 1, "{record:?}");
    let again = director.record_further_appeal_status(changed).await.unwrap().into_inner().appeal.unwrap();
    assert_eq!(again, recorded);
    let results = board_results(&app, &id).await;
    let further_appeal = format!("{}/further", decided.appeal_id);
    let adjusted: Vec<_> = results.iter().filter(|r| r.appeal_id == further_appeal).collect();
    assert_eq!(adjusted.len(), 1, "{results:?}");
    assert_eq!(adjusted[0].ruling_id, ruling.ruling_id);
}

/// The Club Appeals Committee decides by a majority and publishes its decision: the notice every
/// party reads is a well-formed page that a real HTML parser reads back with the outcome, the
/// reasons, the dissent and the score change the decision made.
#[tokio::test]
async fn the_decision_notice_parses_with_its_reasons_its_dissent_and_its_score_change() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 3, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let members = ["chair", "vice", "third"];
    let appeal = appeal_and_hear(&app, &ruling, "nora", &[], &members).await;
    let dissent = "the line stated did not cater for the outstanding trump <& said so>";
    let decided = app
        .appeals("chair", &[Role::Committee])
        .decide_appeal(pb::DecideAppealRequest {
            dissenting_member_ids: vec!["third".into()],
            dissent: dissent.into(),
            ..overrule("two-one", &appeal, played(Seat::North, "4S", 10), &members)
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let versions = &decided.decision.as_ref().unwrap().score_versions;
    assert_eq!(versions.len(), 1);

    let html = app
        .appeals("eddie", &[Role::Player])
        .get_decision_notice(pb::GetDecisionNoticeRequest { appeal_id: appeal.appeal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .html;
    let read = parsed_notice(&html);
    assert_eq!(read["title"], format!("Appeal {}: decision of the appeals committee", appeal.appeal_id));
    assert_eq!(read["Outcome"], "overruled");
    assert_eq!(read["Reasons"], "the committee finds the result the arbiter should have given");
    assert_eq!(read["Dissenting"], format!("third: {dissent}"));
    assert_eq!(read["By"], "chair, vice, third");
    assert_eq!(read["Appellant"], "nora");
    let change = &read["score change"];
    assert!(change.starts_with(&format!("version {}: ", versions[0].version)), "{change}");
    assert!(change.contains("4S by North, 10 tricks"), "{change}");
}

/// `html` read by Python's standard HTML parser: every element closed in order (else it fails),
/// the title, each term of the page's definition lists with its description, and the items of the
/// score-change list joined as "score change".
fn parsed_notice(html: &str) -> std::collections::HashMap<String, String> {
    const READER: &str = r#"
import json, sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "link", "input"}

class Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.fields, self.text, self.term = [], {}, "", None
        self.in_scores, self.scores = False, []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)
        if tag == "ul" and ("class", "score-versions") in attrs:
            self.in_scores = True
        self.text = ""
    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            sys.exit("unbalanced </%s>" % tag)
        if tag == "title":
            self.fields["title"] = self.text
        elif tag == "dt":
            self.term = self.text
        elif tag == "dd":
            self.fields[self.term] = self.text
        elif tag == "li" and self.in_scores:
            self.scores.append(self.text)
        elif tag == "ul":
            self.in_scores = False
    def handle_data(self, data):
        self.text += data

reader = Reader()
reader.feed(sys.stdin.read())
reader.close()
if reader.open:
    sys.exit("left open: %s" % reader.open)
reader.fields["score change"] = "; ".join(reader.scores)
print(json.dumps(reader.fields))
"#;
    use std::io::Write as _;
    let mut python = std::process::Command::new("python3")
        .args(["-c", READER])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3: {e}"));
    python.stdin.take().unwrap_or_else(|| panic!("stdin")).write_all(html.as_bytes()).unwrap();
    let output = python.wait_with_output().unwrap_or_else(|e| panic!("python3: {e}"));
    assert!(output.status.success(), "{}\n{html}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {html}"))
}
