//! The committee roster under concurrent administrators, on Postgres behind the real server.

use api::appeals::v1 as pb;
use e2e::TestApp;
use platform::auth::Role;
use tonic::Code;

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
