//! Watchers of tables and of the room: every change in order, resumed without gaps, and an event
//! missed on the bus read back from the record.

use api::membership::v1 as pb;
use e2e::MembershipClient;
use platform::auth::Role;
use platform::live::LiveStore;
use tonic::Code;

use super::{Room, ids, next_room_event, next_table_event, table_events_until};

#[tokio::test]
async fn watchers_receive_every_change_in_order_and_resume_without_gaps() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]).await;
    let mut room_watch =
        room.desk.watch_room(pb::WatchRoomRequest { after_sequence: None }).await.unwrap().into_inner();
    let snapshot = next_room_event(&mut room_watch).await;
    let Some(pb::room_event::Event::Snapshot(state)) = &snapshot.event else { panic!("{snapshot:?}") };
    assert_eq!(state.present.len(), 8);
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;

    // A watcher from the start of the table, and one that starts with a snapshot.
    let mut from_start = room
        .player("p8")
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let opened = table_events_until(&mut from_start, 1, 4).await;
    assert!(opened.iter().all(|e| matches!(e.event, Some(pb::table_event::Event::MemberJoined(_)))));

    // Changes while it watches.
    let rubber = room.start(&t1).await;
    room.apply(&t1, "p5").await;
    let version = room.table(&t1).await.version;
    let live = table_events_until(&mut from_start, 5, version).await;
    assert!(live.iter().any(|e| matches!(e.event, Some(pb::table_event::Event::RubberStarted(_)))));
    assert!(
        live.iter().any(|e| matches!(&e.event, Some(pb::table_event::Event::MemberJoined(m)) if m.player_id == "p5"))
    );
    // It disconnects; more changes happen; it resumes after the last event it saw.
    drop(from_start);
    room.end(&t1, &rubber, true).await;
    room.apply(&t1, "p6").await;
    room.apply(&t1, "p7").await;
    room.leave_table(&t1, "p2").await;
    let now = room.table(&t1).await.version;
    let mut resumed = room
        .player("p8")
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(version) })
        .await
        .unwrap()
        .into_inner();
    let after = table_events_until(&mut resumed, version + 1, now).await;
    assert!(after.iter().any(|e| matches!(e.event, Some(pb::table_event::Event::RubberEnded(_)))));
    // What it saw, in two parts, is exactly the table's history.
    let mut whole = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let history = table_events_until(&mut whole, 1, now).await;
    let seen: Vec<pb::TableEvent> = opened.into_iter().chain(live).chain(after).collect();
    assert_eq!(seen, history);
    // A snapshot watcher starts from the table as it stands, at its last number.
    let mut snap = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let first = next_table_event(&mut snap).await;
    assert_eq!(first.sequence, now);
    let Some(pb::table_event::Event::Snapshot(table)) = first.event else { panic!("a snapshot first") };
    assert_eq!(table, room.table(&t1).await);

    // The room watcher saw every change since its snapshot, numbered one by one.
    let mut last = snapshot.sequence;
    let mut arrivals = 0;
    let mut changed_tables = 0;
    let end = room_sequence(&mut room).await;
    while last < end {
        let event = next_room_event(&mut room_watch).await;
        assert_eq!(event.sequence, last + 1);
        last = event.sequence;
        match event.event {
            Some(pb::room_event::Event::PlayerArrived(_)) => arrivals += 1,
            Some(pb::room_event::Event::TableChanged(_)) => changed_tables += 1,
            _ => {}
        }
    }
    assert_eq!(arrivals, 0);
    assert!(changed_tables >= 7, "every change of the table: {changed_tables}");
    // Resuming the room stream from a number replays the rest; past the end is refused.
    let mut resumed =
        room.desk.watch_room(pb::WatchRoomRequest { after_sequence: Some(end - 1) }).await.unwrap().into_inner();
    assert_eq!(next_room_event(&mut resumed).await.sequence, end);
    let past = room.desk.watch_room(pb::WatchRoomRequest { after_sequence: Some(end + 5) }).await.unwrap_err();
    assert_eq!(past.code(), Code::InvalidArgument);
}

/// The room stream's last number, read as a new watcher's snapshot carries it.
async fn room_sequence(room: &mut Room) -> u64 {
    let mut watch = room.desk.watch_room(pb::WatchRoomRequest { after_sequence: None }).await.unwrap().into_inner();
    next_room_event(&mut watch).await.sequence
}

#[tokio::test]
async fn a_watcher_that_misses_a_published_event_reads_it_from_the_record() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let version = room.table(&t1).await.version;
    let mut watch = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(version) })
        .await
        .unwrap()
        .into_inner();

    // A replica on the same database whose live store is elsewhere: what it publishes never
    // reaches this watcher, as if the publication had been lost.
    let elsewhere = e2e::TestRedis::create().await;
    let mut config = room.app.club().resources.config.clone();
    config.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    config.redis_prefix = elsewhere.prefix().to_owned();
    let settings = club::Settings { requests_per_minute: 0, ..Default::default() };
    let replica = club::Club::start(&config, &settings).await.unwrap();
    let token = room.app.token("p5", &[Role::Player]);
    let channel = platform::client::channel(&replica.server.uri()).unwrap();
    let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
    let mut p5 = MembershipClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor));
    let request = pb::ApplyToTableRequest { table_id: t1.clone(), player_id: "p5".into(), ..Default::default() };
    p5.apply_to_table(request).await.unwrap();
    // An unreadable message on the channel is no event either.
    let junk = bytes::Bytes::from_static(b"not an event");
    room.app.redis.store().publish("membership:{club}:events", junk).await.unwrap();

    // The next change published here shows the gap; the watcher fills it from the record.
    room.apply(&t1, "p6").await;
    let now = room.table(&t1).await.version;
    let events = table_events_until(&mut watch, version + 1, now).await;
    let joined: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.event {
            Some(pb::table_event::Event::MemberJoined(m)) => Some(m.player_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(joined, ids(&["p5", "p6"]));
    replica.server.shutdown().await.unwrap();
}
