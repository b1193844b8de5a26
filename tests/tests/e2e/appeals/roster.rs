//! The committee roster: its members as membership knows them (players on the register, staff
//! accounts with the committee role), and under concurrent administrators, on Postgres behind the
//! real server.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::membership::v1 as mpb;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use e2e::TestApp;
use platform::auth::Role;
use tonic::Code;
use tonic_types::StatusExt;

use super::{appeal_and_hear, minutes, overrule, played, publish_policy, rule, scorepad};

/// A committee member records a hearing with his own sign-in, and a member's sign-in never carries
/// the committee role: he signs in with a staff account that holds it, whose subject is
/// `staff:<name>`. The roster takes such a member, asked of membership: not an account membership
/// does not know, nor one without the committee role. The register, for its part, refuses a player
/// whose id would pass for a staff account's subject (or a service's): his tokens would carry it.
/// Then the account hears and decides an appeal (Club Appeals Committee: "a club should establish
/// an Appeals Committee to review decisions of the Arbiter").
#[tokio::test]
async fn a_committee_account_sits_from_the_roster_and_no_player_passes_for_one() {
    let app = TestApp::spawn().await;
    let admin_token = app.token("club-admin", &[Role::Admin]);
    let mut accounts = SignInServiceClient::new(app.channel(Some(&admin_token)));
    let desk_account = mpb::CreateAccountRequest {
        name: "frontdesk".into(),
        roles: vec![common::Role::Desk as i32],
        password: String::new(),
    };
    accounts.create_account(desk_account).await.unwrap();
    let mut admin = app.appeals("club-admin", &[Role::Admin]);
    let entry = |member: &str| pb::AddRosterEntryRequest { member_id: member.into(), ..Default::default() };
    for (member, says) in [("staff:frontdesk", "holds no committee role"), ("staff:nobody", "has no staff account")] {
        let refused = admin.add_roster_entry(entry(member)).await.unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition, "{member}: {refused:?}");
        assert!(refused.message().contains(says), "{member}: {}", refused.message());
    }
    let mut desk = app.membership("desk", &[Role::Desk]);
    for id in ["staff:chair", "service:appeals"] {
        let register = mpb::RegisterPlayerRequest { player_id: id.into(), name: "Chair".into(), ..Default::default() };
        let refused = desk.register_player(register).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{id}: {refused:?}");
        assert_eq!(refused.get_details_bad_request().unwrap().field_violations[0].field, "player_id");
    }

    // The committee's account is made, put on the roster, hears the appeal and decides it.
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    super::record(&app, &pad.scorepad_id, 1, played(laws::Seat::North, "4S", 10)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = appeal_and_hear(&app, &ruling, "sam", &[], &["staff:chair"]).await;
    assert_eq!(appeal.hearing.as_ref().unwrap().committee_member_ids, ["staff:chair"]);
    let decided = app
        .appeals("staff:chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, played(laws::Seat::North, "4S", 9), &["staff:chair"]))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
}

/// The roster's advisory lock: what the appeals service takes around the one-chair check.
const ROSTER_LOCK: i64 = 7161734765627285;

/// "One chair at a time" holds when administrators name chairs at the same moment: the one-chair
/// check and the write it guards are made in one transaction under the roster's advisory lock.
/// The test holds that lock while eight chairs for overlapping terms are named, sees all eight
/// wait for it, and lets them go together: exactly one is added and the others are refused
/// naming the rule.
#[tokio::test]
async fn chairs_named_at_the_same_moment_leave_the_club_one_chair() {
    use sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};
    let app = TestApp::spawn().await;
    let holder = app.database.connect().await;
    // Held by a transaction of the test's own, which pins one connection and frees it at commit.
    let holding = holder.begin().await.unwrap();
    holding.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({ROSTER_LOCK})")).await.unwrap();
    let members = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"];
    e2e::lineup::register(&mut app.membership("desk", &[Role::Desk]), &members).await;
    let yesterday = appeals::records::timestamp(chrono::Utc::now() - chrono::Duration::days(1));
    let attempts = members.iter().map(|member| {
        let mut admin = app.appeals("club-admin", &[Role::Admin]);
        let entry = pb::AddRosterEntryRequest {
            member_id: (*member).into(),
            chair: true,
            term_from: Some(yesterday),
            term_until: None,
            idempotency_key: format!("chair-{member}"),
        };
        async move { admin.add_roster_entry(entry).await }
    });
    let attempts = tokio::spawn(futures::future::join_all(attempts));
    // Every one of them waits on the lock (a wait the server holds, not a sleep standing in for one).
    let waiting = Statement::from_string(
        DbBackend::Postgres,
        format!(
            "SELECT count(*)::bigint AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted \
             AND ((classid::bigint << 32) | objid::bigint) = {ROSTER_LOCK}"
        ),
    );
    loop {
        let row = holder.query_one_raw(waiting.clone()).await.unwrap().unwrap();
        if row.try_get::<i64>("", "waiting").unwrap() == members.len() as i64 {
            break;
        }
        assert!(!attempts.is_finished(), "the chairs were named without waiting for the roster's lock");
        tokio::task::yield_now().await;
    }
    holding.commit().await.unwrap();
    let answers = attempts.await.unwrap();
    assert_eq!(answers.iter().filter(|answer| answer.is_ok()).count(), 1, "{answers:?}");
    for refused in answers.into_iter().filter_map(Result::err) {
        assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
        assert!(refused.message().contains("chairs the committee"), "{}", refused.message());
    }
    let listed = app
        .appeals("club-admin", &[Role::Admin])
        .list_roster_entries(pb::ListRosterEntriesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .entries;
    assert_eq!(listed.iter().filter(|entry| entry.chair).count(), 1);
}
