//! The club's committee roster and the conflicts it declares (the Club Appeals Committee: "a club
//! should establish an Appeals Committee to review decisions of the Arbiter"): the administrator
//! keeps the roster, each member a player on membership's register, for a term, one chair at a
//! time; a hearing names only members whose term covers it, and none the club declared conflicted
//! for a party, the table or the appeal.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use chrono::{Duration, Utc};
use platform::auth::Role;
use tonic::Code;

use super::common::*;
use super::{code, message};

fn at(offset: Duration) -> Option<prost_types::Timestamp> {
    Some(appeals::records::timestamp(Utc::now() + offset))
}

fn entry(member: &str, chair: bool, from: Duration, until: Option<Duration>) -> pb::AddRosterEntryRequest {
    pb::AddRosterEntryRequest {
        member_id: member.into(),
        chair,
        term_from: at(from),
        term_until: until.and_then(at),
        idempotency_key: String::new(),
    }
}

fn page(size: u32, token: &str) -> Option<common::PageRequest> {
    Some(common::PageRequest { page_size: size, page_token: token.into() })
}

#[tokio::test]
async fn the_administrator_keeps_the_roster_of_registered_members_with_one_chair_at_a_time() {
    let h = Harness::new().await;
    h.owners.register(&["ann", "bob", "cy"]);
    let a = &h.appeals;
    let stranger = a.add_roster_entry(&admin(), entry("nobody", false, Duration::zero(), None)).await;
    assert_eq!(code(&stranger), Code::FailedPrecondition);
    assert!(message(stranger).contains("membership has no player nobody"));
    let empty = a.add_roster_entry(&admin(), entry("ann", false, Duration::zero(), Some(Duration::zero()))).await;
    assert_eq!(code(&empty), Code::InvalidArgument);

    let chair = a.add_roster_entry(&admin(), entry("ann", true, Duration::days(-1), Some(Duration::days(30)))).await;
    let chair = chair.unwrap().entry.unwrap();
    assert_eq!((chair.member_id.as_str(), chair.chair, chair.version), ("ann", true, 1));
    // "the committee has one chair at a time"
    let second = a.add_roster_entry(&admin(), entry("bob", true, Duration::days(10), None)).await;
    let second_message = message(second);
    assert!(second_message.starts_with("ann chairs the committee for part of that term"), "{second_message}");
    assert!(second_message.ends_with("(the Club Appeals Committee (Alternative Club Laws))"));
    let after = a.add_roster_entry(&admin(), entry("bob", true, Duration::days(30), None)).await.unwrap();
    let bob = a.add_roster_entry(&admin(), entry("bob", false, Duration::days(-1), None)).await.unwrap().entry.unwrap();
    a.add_roster_entry(&admin(), entry("cy", false, Duration::days(-1), None)).await.unwrap();

    // Paged by member and term, as the platform pages.
    let first = a.list_roster_entries(pb::ListRosterEntriesRequest { page: page(2, ""), ..Default::default() }).await;
    let first = first.unwrap();
    let members: Vec<&str> = first.entries.iter().map(|e| e.member_id.as_str()).collect();
    assert_eq!(members, ["ann", "bob"]);
    let token = first.page.unwrap().next_page_token;
    let rest = a.list_roster_entries(pb::ListRosterEntriesRequest { page: page(2, &token), ..Default::default() });
    let rest = rest.await.unwrap();
    assert_eq!(rest.entries.len(), 2);
    assert!(rest.page.unwrap().next_page_token.is_empty());
    let now = pb::ListRosterEntriesRequest { covering: at(Duration::zero()), ..Default::default() };
    assert_eq!(a.list_roster_entries(now).await.unwrap().entries.len(), 3, "bob's chair term has not begun");
    let bad = pb::ListRosterEntriesRequest { page: page(1, "zz"), ..Default::default() };
    assert_eq!(code(&a.list_roster_entries(bad).await), Code::InvalidArgument);

    // Updated at the version read; removed once.
    let update = |version: u64| pb::UpdateRosterEntryRequest {
        entry_id: bob.entry_id.clone(),
        expected_version: version,
        chair: false,
        term_from: bob.term_from,
        term_until: at(Duration::days(5)),
    };
    assert_eq!(code(&a.update_roster_entry(&admin(), update(7)).await), Code::Aborted);
    let updated = a.update_roster_entry(&admin(), update(1)).await.unwrap().entry.unwrap();
    assert_eq!((updated.version, updated.term_until.is_some()), (2, true));
    let chair_again = pb::UpdateRosterEntryRequest { chair: true, ..update(2) };
    assert_eq!(code(&a.update_roster_entry(&admin(), chair_again).await), Code::FailedPrecondition);
    let removal = || pb::RemoveRosterEntryRequest { entry_id: after.entry.clone().unwrap().entry_id };
    a.remove_roster_entry(&admin(), removal()).await.unwrap();
    assert_eq!(code(&a.remove_roster_entry(&admin(), removal()).await), Code::NotFound);
}

#[tokio::test]
async fn a_hearing_names_only_members_whose_term_covers_it() {
    // "a club should establish an Appeals Committee": its members, for the terms it gave them.
    let h = Harness::new().await;
    let appeal = h.rubber_appeal(3).await;
    h.owners.register(&["ann", "bob", "cy"]);
    let a = &h.appeals;
    for member in ["ann", "bob"] {
        a.add_roster_entry(&admin(), entry(member, false, Duration::days(-10), None)).await.unwrap();
    }
    let term = entry("cy", false, Duration::days(-10), Some(Duration::days(-1)));
    let cy = a.add_roster_entry(&admin(), term).await.unwrap().entry.unwrap();
    let ann = principal("ann", &[Role::Committee]);

    let ended = a.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "cy"])).await;
    assert_eq!(code(&ended), Code::FailedPrecondition);
    let ended = message(ended);
    assert!(ended.starts_with("cy's term on the club's appeals committee does not cover the hearing"), "{ended}");
    assert!(ended.contains("(the Club Appeals Committee (Alternative Club Laws))"));
    // A hearing held two days ago, within cy's term, is recorded.
    let mut earlier = hearing(&appeal, &["ann", "bob", "cy"]);
    earlier.hearing.as_mut().unwrap().heard_at = at(Duration::days(-2));
    let heard = a.hear_appeal(&ann, earlier).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    assert_eq!(cy.version, 1);
}

#[tokio::test]
async fn a_member_the_club_declares_conflicted_for_the_appeal_is_not_named() {
    let h = Harness::new().await;
    let appeal = h.rubber_appeal(3).await;
    let members = ["ann", "bob", "cy"];
    h.committee(&members).await;
    h.committee(&["dan"]).await;
    let a = &h.appeals;
    let ann = principal("ann", &[Role::Committee]);
    let declare = |member: &str, subject: pb::declared_conflict::Subject, reason: &str| pb::DeclareConflictRequest {
        conflict: Some(pb::DeclaredConflict {
            member_id: member.into(),
            subject: Some(subject),
            reason: reason.into(),
            ..Default::default()
        }),
        idempotency_key: String::new(),
    };
    use pb::declared_conflict::Subject;
    let brother = a.declare_conflict(&admin(), declare("cy", Subject::PlayerId("n".into()), "n's brother")).await;
    let brother = brother.unwrap().conflict.unwrap();
    assert_eq!(brother.declared_by, "admin");
    let refused = a.hear_appeal(&ann, hearing(&appeal, &members)).await;
    assert_eq!(code(&refused), Code::FailedPrecondition);
    assert_eq!(
        message(refused),
        "cy may not sit on this appeal's committee: he is declared conflicted by the club for a player party to the \
         appeal (the Club Appeals Committee (Alternative Club Laws)); declared for player n: n's brother"
    );
    // A partnership, the table and the appeal itself.
    let pair = Subject::Partnership(pb::Partnership { first_player_id: "s".into(), second_player_id: "n".into() });
    a.declare_conflict(&admin(), declare("bob", pair, "plays with them weekly")).await.unwrap();
    let with_bob = message(a.hear_appeal(&ann, hearing(&appeal, &["ann", "bob", "dan"])).await);
    assert!(with_bob.contains("for a partnership party to the appeal") && with_bob.contains("the partnership s and n"));
    a.declare_conflict(&admin(), declare("dan", Subject::TableId("table-1".into()), "owns the table")).await.unwrap();
    a.declare_conflict(&admin(), declare("ann", Subject::AppealId(appeal.appeal_id.clone()), "a witness"))
        .await
        .unwrap();
    let at_table = message(a.hear_appeal(&ann, hearing(&appeal, &["ann", "cy", "dan"])).await);
    assert!(at_table.starts_with("ann may not sit") && at_table.contains("for this appeal"), "{at_table}");

    // Declared on what the owners know.
    let unknown = a.declare_conflict(&admin(), declare("cy", Subject::PlayerId("ghost".into()), "x")).await;
    assert_eq!(code(&unknown), Code::FailedPrecondition);
    let no_appeal = a.declare_conflict(&admin(), declare("cy", Subject::AppealId("nope".into()), "x")).await;
    assert_eq!(code(&no_appeal), Code::NotFound);
    let no_subject = pb::DeclareConflictRequest {
        conflict: Some(pb::DeclaredConflict { member_id: "cy".into(), reason: "x".into(), ..Default::default() }),
        idempotency_key: String::new(),
    };
    assert_eq!(code(&a.declare_conflict(&admin(), no_subject).await), Code::InvalidArgument);

    // Listed newest first, paged; withdrawn, the member sits.
    let listed = a.list_conflicts(pb::ListConflictsRequest { member_id: "cy".into(), page: None }).await.unwrap();
    assert_eq!(listed.conflicts.len(), 1);
    let all = pb::ListConflictsRequest { member_id: String::new(), page: page(3, "") };
    let all = a.list_conflicts(all).await.unwrap();
    assert_eq!(all.conflicts.len(), 3);
    assert!(!all.page.unwrap().next_page_token.is_empty());
    for conflict in a.list_conflicts(pb::ListConflictsRequest::default()).await.unwrap().conflicts {
        if conflict.member_id != "dan" {
            let withdraw = pb::WithdrawConflictRequest { conflict_id: conflict.conflict_id };
            a.withdraw_conflict(&admin(), withdraw).await.unwrap();
        }
    }
    let again = pb::WithdrawConflictRequest { conflict_id: brother.conflict_id };
    assert_eq!(code(&a.withdraw_conflict(&admin(), again).await), Code::NotFound);
    let heard = a.hear_appeal(&ann, hearing(&appeal, &members)).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
}

/// Nothing acknowledged is applied twice: an administrator's retry under the same idempotency key
/// adds no second roster entry and declares no second conflict, and gets the first answer; a key
/// reused for another request is the client's mistake.
#[tokio::test]
async fn a_roster_entry_or_a_conflict_retried_under_its_key_is_made_once() {
    let h = Harness::new().await;
    h.owners.register(&["ann", "bob", "n"]);
    let a = &h.appeals;
    let keyed = |member: &str, key: &str| pb::AddRosterEntryRequest {
        idempotency_key: key.into(),
        ..entry(member, false, Duration::days(-1), None)
    };
    // A retry sends the same request again (its term was fixed when it was first made).
    let add_ann = keyed("ann", "add-ann");
    let first = a.add_roster_entry(&admin(), add_ann.clone()).await.unwrap().entry.unwrap();
    let again = a.add_roster_entry(&admin(), add_ann).await.unwrap().entry.unwrap();
    assert_eq!(again, first, "the retry gets the first answer");
    let listed = a.list_roster_entries(pb::ListRosterEntriesRequest::default()).await.unwrap().entries;
    assert_eq!(listed.len(), 1, "one entry, not two");
    let reused = a.add_roster_entry(&admin(), keyed("bob", "add-ann")).await;
    assert_eq!(code(&reused), Code::InvalidArgument);
    assert!(message(reused).contains("already used for a different request"));

    let declare = pb::DeclareConflictRequest {
        conflict: Some(pb::DeclaredConflict {
            member_id: "ann".into(),
            subject: Some(pb::declared_conflict::Subject::PlayerId("n".into())),
            reason: "n's sister".into(),
            ..Default::default()
        }),
        idempotency_key: "declare-ann".into(),
    };
    let first = a.declare_conflict(&admin(), declare.clone()).await.unwrap().conflict.unwrap();
    let again = a.declare_conflict(&admin(), declare).await.unwrap().conflict.unwrap();
    assert_eq!(again.conflict_id, first.conflict_id);
    let listed = a.list_conflicts(pb::ListConflictsRequest { member_id: "ann".into(), page: None }).await.unwrap();
    assert_eq!(listed.conflicts.len(), 1, "one conflict, not two");
}

/// "One chair at a time" holds when administrators name chairs at the same moment: the check and
/// the write it guards are made under the roster's lock, so of eight chairs for overlapping terms
/// named at once exactly one is added and the others are refused naming the rule.
#[tokio::test]
async fn chairs_named_at_the_same_moment_leave_one_chair() {
    let h = Harness::new().await;
    let members = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"];
    h.owners.register(&members);
    let a = &h.appeals;
    let requests: Vec<_> = members.iter().map(|m| entry(m, true, Duration::days(-1), None)).collect();
    let admin = admin();
    let answers = futures::future::join_all(requests.into_iter().map(|r| a.add_roster_entry(&admin, r))).await;
    let added = answers.iter().filter(|answer| answer.is_ok()).count();
    assert_eq!(added, 1, "{answers:?}");
    for refused in answers.into_iter().filter(Result::is_err) {
        assert_eq!(code(&refused), Code::FailedPrecondition);
        assert!(message(refused).contains("chairs the committee"));
    }
    let listed = a.list_roster_entries(pb::ListRosterEntriesRequest::default()).await.unwrap().entries;
    assert_eq!(listed.iter().filter(|e| e.chair).count(), 1);
}
