//! The service under load and after failures: many parallel applicants, a Redis flush, a retried
//! request, and a live room behind the journal.

use std::collections::BTreeSet;

use api::common::v1 as common;
use api::membership::v1 as pb;
use e2e::MembershipClient;
use platform::auth::Role;
use platform::live::LiveStore;
use tonic::Code;

use super::{Room, ids, members, queue, table_events_until};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_applications_from_many_clients_never_exceed_six_members_or_lose_one() {
    let mut room = Room::new().await;
    room.enter(&["m1", "m2", "m3", "m4"]).await;
    let t1 = room.open(&["m1", "m2", "m3", "m4"]).await.table.unwrap().table_id;
    let applicants: Vec<String> = (1..=24).map(|i| format!("a{i:02}")).collect();
    for a in &applicants {
        room.register(a).await;
        room.arrive(a).await;
    }
    // A second server on the same database and Redis, as a second replica would be.
    let mut config = room.app.club().resources.config.clone();
    config.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let settings = club::Settings { requests_per_minute: 0, ..Default::default() };
    let replica = club::Club::start(&config, &settings).await.unwrap();
    let replica_uri = replica.server.uri();

    let mut tasks = Vec::new();
    for (i, a) in applicants.iter().enumerate() {
        let token = room.app.token(a, &[Role::Player]);
        let uri = if i % 2 == 0 { room.app.uri() } else { replica_uri.clone() };
        let a = a.clone();
        let t1 = t1.clone();
        tasks.push(tokio::spawn(async move {
            let channel = platform::client::channel(&uri).unwrap();
            let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
            let mut client =
                MembershipClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
            let request = pb::ApplyToTableRequest { table_id: t1, player_id: a.clone(), ..Default::default() };
            client.apply_to_table(request).await.map(|r| r.into_inner().application.unwrap())
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap().expect("every application is accepted"));
    }
    let table = room.table(&t1).await;
    assert_eq!(table.members.len(), 6, "rule A: a complete table has six members");
    assert_eq!(table.status, pb::TableStatus::Complete as i32);
    assert_eq!(table.queue.len(), 22, "no application lost");
    let everyone: BTreeSet<String> = members(&table).into_iter().chain(queue(&table)).collect();
    let expected: BTreeSet<String> =
        ["m1", "m2", "m3", "m4"].iter().map(|s| (*s).to_owned()).chain(applicants.clone()).collect();
    assert_eq!(everyone, expected, "each applicant exactly once");
    assert_eq!(members(&table).len() + queue(&table).len(), 28);
    assert_eq!(table.queue.iter().map(|a| a.queue_position).collect::<Vec<_>>(), (1..=22).collect::<Vec<_>>());
    // Each answer agrees with the table: two admitted, the rest waiting.
    let admitted: Vec<&pb::Application> =
        outcomes.iter().filter(|a| a.status == pb::ApplicationStatus::Admitted as i32).collect();
    assert_eq!(admitted.len(), 2);
    assert!(admitted.iter().all(|a| members(&table).contains(&a.player_id)));
    // The table's stream has every change, numbered without gaps, on both replicas' records.
    let mut watch = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let events = table_events_until(&mut watch, 1, table.version).await;
    let made = events.iter().filter(|e| matches!(e.event, Some(pb::table_event::Event::ApplicationMade(_)))).count();
    assert_eq!(made, 24);
    replica.server.shutdown().await.unwrap();
}

#[tokio::test]
async fn after_a_redis_flush_the_service_rebuilds_rosters_and_queues_from_postgres() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "q1", "q2", "q3", "q4"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;
    room.apply(&t1, "p7").await;
    room.apply(&t1, "p8").await;
    let t2 = room.open(&["q1", "q2", "q3", "q4"]).await.table.unwrap().table_id;
    room.start(&t1).await;
    room.leave_table(&t2, "q4").await;

    async fn look(room: &mut Room, tables: &[&str]) -> (Vec<pb::Table>, Vec<pb::Presence>, Vec<pb::Table>) {
        let mut each = Vec::new();
        for t in tables {
            each.push(room.table(t).await);
        }
        let present = room.desk.list_present_players(pb::ListPresentPlayersRequest::default()).await.unwrap();
        let listed = room.desk.list_tables(pb::ListTablesRequest::default()).await.unwrap();
        (each, present.into_inner().present, listed.into_inner().tables)
    }
    let before = look(&mut room, &[&t1, &t2]).await;
    assert_eq!(queue(&before.0[0]), ids(&["p7", "p8"]));
    assert!(before.0[0].current_rubber.is_some());
    assert_eq!(before.0[1].status, pb::TableStatus::Broken as i32);
    assert!(before.1.iter().any(|p| !p.breaker_restrictions.is_empty()));

    room.app.flush_redis().await;
    assert_eq!(look(&mut room, &[&t1, &t2]).await, before, "the same answers after a flush");

    // A fresh process (its copy of the room lost) and a flushed Redis: rebuilt from the journal.
    room.app.restart().await;
    room.app.flush_redis().await;
    room.desk = room.app.membership("front-desk", &[Role::Desk]);
    assert_eq!(look(&mut room, &[&t1, &t2]).await, before, "the same answers from the journal alone");

    // And the room goes on: the queue still admits in order.
    room.leave_table(&t1, "p6").await;
    let table = room.table(&t1).await;
    assert!(members(&table).contains(&"p7".to_owned()));
    assert_eq!(queue(&table), ids(&["p8"]));
}

#[tokio::test]
async fn a_retried_open_table_with_its_idempotency_key_opens_one_table() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4"]).await;
    let request = pb::OpenTableRequest {
        name: "The Blue Table".into(),
        kind: common::TableKind::Chicago as i32,
        options: Some(pb::TableOptions { chicago_swap_vulnerability: true, ..Default::default() }),
        applicant_player_ids: ids(&["p1", "p2", "p3", "p4"]),
        idempotency_key: "open-blue-1".into(),
        ..Default::default()
    };
    let first = room.desk.open_table(request.clone()).await.unwrap().into_inner();
    let again = room.desk.open_table(request.clone()).await.unwrap().into_inner();
    assert_eq!(first, again);
    let tables = room.desk.list_tables(pb::ListTablesRequest { include_closed: true, page: None }).await.unwrap();
    assert_eq!(tables.into_inner().tables.len(), 1);
    let other = pb::OpenTableRequest { name: "Another".into(), ..request };
    let status = room.desk.open_table(other).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("idempotency_key"), "{status:?}");

    // Options change against the version last read; they govern the next rubber.
    let table = first.table.unwrap();
    let options = |version| pb::UpdateTableOptionsRequest {
        table_id: table.table_id.clone(),
        expected_version: version,
        options: Some(pb::TableOptions { no_consecutive_partners: true, ..Default::default() }),
    };
    let stale = room.desk.update_table_options(options(table.version - 1)).await.unwrap_err();
    assert_eq!(stale.code(), Code::Aborted);
    let updated = room.desk.update_table_options(options(table.version)).await.unwrap().into_inner().table.unwrap();
    assert!(updated.options.unwrap().no_consecutive_partners);
    assert!(updated.version > table.version);
    let rubber_only = pb::UpdateTableOptionsRequest {
        options: Some(pb::TableOptions { chicago_swap_vulnerability: true, ..Default::default() }),
        ..options(updated.version)
    };
    room.desk.update_table_options(rubber_only).await.unwrap();
}

#[tokio::test]
async fn a_live_room_behind_the_journal_is_rebuilt_before_it_answers() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "p7"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;
    let key = "membership:{club}:room";
    let redis = room.app.redis.store();
    let stale = redis.get(key).await.unwrap().expect("the live room is kept");
    room.apply(&t1, "p7").await;
    // A writer that committed but never updated Redis (it crashed, say) leaves it behind.
    let moved_on = redis.get(key).await.unwrap().unwrap();
    assert_ne!(moved_on.value, stale.value);
    redis.put(key, stale.clone()).await.unwrap();
    let table = room.table(&t1).await;
    assert_eq!(queue(&table), ids(&["p7"]), "answered from the journal, not from the stale live room");
    let rebuilt = redis.get(key).await.unwrap().unwrap();
    assert_eq!(rebuilt.value, moved_on.value, "and the live room is written back");
}
