//! The committee's hearing and decision: who sits as the policy says, what it may change (Law
//! 93B3), and a decision that changes the score applied once, whether it is retried, refused by
//! the scoring service, made while scoring is down, or made by several members at once.

use api::appeals::v1 as pb;
use laws::Seat;
use platform::auth::Role;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::common::*;
use super::{code, message};

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
    assert!(message(stranger).starts_with("cy is not on the club's appeals committee roster"));
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

/// A committee judges between the parties: no one who played the deal (the appellant, his partner
/// or an opponent) and not the arbiter whose ruling is appealed may sit on it, whatever role he
/// holds, and the refusal names the conflict.
#[tokio::test]
async fn a_player_of_the_deal_or_the_arbiter_who_ruled_may_not_sit_on_the_committee() {
    let h = Harness::new().await;
    let appeal = h.rubber_appeal(3).await;
    h.committee(&["ann", "bob", "cy", "e", "arbiter"]).await;
    let ann = principal("ann", &[Role::Committee]);

    let opponent = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "e"])).await;
    assert_eq!(code(&opponent), tonic::Code::FailedPrecondition);
    assert_eq!(
        message(opponent),
        "e may not sit on this appeal's committee: he played the deal the ruling concerns (the Club Appeals \
         Committee (Alternative Club Laws))"
    );
    let ruler = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "arbiter", "bob"])).await;
    assert_eq!(
        message(ruler),
        "arbiter may not sit on this appeal's committee: he gave the ruling appealed (the Club Appeals Committee \
         (Alternative Club Laws))"
    );

    let heard = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "cy"])).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
}

/// The committee decides by a majority of its members; a member who votes against says why, and
/// the dissent is part of the decision every party reads.
#[tokio::test]
async fn a_two_to_one_decision_with_a_dissent_and_reasons_is_read_back_by_every_party() {
    let h = Harness::new().await;
    let appeal = h.rubber_appeal(3).await;
    h.committee(&["ann", "bob", "cy"]).await;
    let ann = principal("ann", &[Role::Committee]);
    let heard = h.appeals.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "cy"])).await.unwrap().appeal.unwrap();
    let members = ["ann", "bob", "cy"];
    let two_one = |key: &str, dissenting: &[&str], dissent: &str| pb::DecideAppealRequest {
        dissenting_member_ids: dissenting.iter().map(|m| (*m).to_owned()).collect(),
        dissent: dissent.to_owned(),
        ..decision(key, &heard, pb::AppealOutcome::Upheld, None, &members)
    };

    let silent = h.appeals.decide_appeal(&ann, two_one("x", &["cy"], "")).await;
    assert_eq!(code(&silent), tonic::Code::InvalidArgument, "a dissent gives its reasons");
    let no_majority = h.appeals.decide_appeal(&ann, two_one("x", &["bob", "cy"], "we disagree")).await;
    assert_eq!(code(&no_majority), tonic::Code::FailedPrecondition);
    assert!(
        message(no_majority).starts_with("a decision needs a majority of the committee: 1 in favour and 2 against")
    );

    let dissent = "the claim statement mentioned the trump; the ruling should have gone to declarer";
    let decided = h.appeals.decide_appeal(&ann, two_one("d", &["cy"], dissent)).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    for party in ["n", "e", "s", "w"] {
        let read = h.appeals.get_appeal(&principal(party, &[Role::Player]), &appeal.appeal_id).await.unwrap();
        let decision = read.appeal.unwrap().decision.unwrap();
        assert_eq!(decision.outcome, pb::AppealOutcome::Upheld as i32, "{party}");
        assert_eq!(decision.reasons, "the committee finds the claim did not include the trump");
        assert_eq!(decision.committee_member_ids, members);
        assert_eq!((decision.dissenting_member_ids, decision.dissent.as_str()), (vec!["cy".to_owned()], dissent));
    }

    // The notice the committee hands out: a well-formed page every party reads, with the reasons
    // and the dissent.
    let notice = h.appeals.decision_notice(&principal("e", &[Role::Player]), &appeal.appeal_id).await.unwrap().html;
    let read = parsed_notice(&notice);
    assert_eq!(read["title"], format!("Appeal {}: decision of the appeals committee", appeal.appeal_id));
    assert_eq!(read["Outcome"], "upheld: the ruling stands");
    assert_eq!(read["Reasons"], "the committee finds the claim did not include the trump");
    assert_eq!(read["Dissenting"], format!("cy: {dissent}"));
    assert_eq!(read["By"], "ann, bob, cy");
    assert_eq!(read["Irregularity"], "disputed claim");
    let kibitzer = h.appeals.decision_notice(&principal("k", &[Role::Player]), &appeal.appeal_id).await;
    assert_eq!(code(&kibitzer), tonic::Code::PermissionDenied, "only the parties and officials read it");
}

/// `html` read by Python's standard HTML parser: every element closed in order (else it panics),
/// the title, and each term of the page's definition lists with its description.
fn parsed_notice(html: &str) -> std::collections::HashMap<String, String> {
    const READER: &str = r#"
import json, sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "link", "input"}

class Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.fields, self.text, self.term = [], {}, "", None
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append(tag)
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
    def handle_data(self, data):
        self.text += data

reader = Reader()
reader.feed(sys.stdin.read())
reader.close()
if reader.open:
    sys.exit("left open: %s" % reader.open)
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
