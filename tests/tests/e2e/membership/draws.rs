//! Server draws that can be audited: each replays from its revealed seed, and its seed was
//! committed before the players were known, even across a restart.

use api::membership::v1 as pb;
use platform::auth::Role;

use super::{Room, assert_replays, holds, ids, next_room_event, table_events_until};

#[tokio::test]
async fn server_draws_can_be_audited_from_their_seed() {
    use sha2::Digest;
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;
    let rubber = room.start(&t1).await;
    let draws = room.desk.list_draws(pb::ListDrawsRequest { table_id: t1.clone(), page: None }).await.unwrap();
    let draws = draws.into_inner().draws;
    assert_eq!(draws.len(), 1);
    assert_eq!(rubber.draw_ids, vec![draws[0].draw_id.clone()]);
    let draw = &draws[0];
    assert_eq!(draw.seed.len(), 32);
    assert_eq!(sha2::Sha256::digest(&draw.seed).as_slice(), draw.seed_commitment.as_slice());
    // Anyone can replay it: the laws' server draw from the seed, the players in the order given.
    assert_replays(draw);
    assert!(draw.drawings.iter().all(|d| d.valid && (4..48).contains(&d.spread_position)));
}

fn seeds_committed(events: &[pb::TableEvent]) -> Vec<Vec<Vec<u8>>> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            Some(pb::table_event::Event::DrawSeedsCommitted(c)) => Some(c.next_draw_seed_commitments.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn server_draws_use_seeds_committed_before_the_players_were_known_even_across_a_restart() {
    use prost::Message;
    use sha2::Digest;
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    // Everything the service shows before the draw, as it went over the wire.
    let mut shown: Vec<Vec<u8>> = Vec::new();
    let opened = room.open(&["p1", "p2", "p3", "p4", "p5"]).await;
    shown.push(opened.encode_to_vec());
    let t1 = opened.table.unwrap().table_id;
    let table = room.table(&t1).await;
    shown.push(table.encode_to_vec());
    let published = table.next_draw_seed_commitments.clone();
    assert_eq!(published.len(), 4, "committed as the table opened, before anyone asked for a draw");
    assert!(published.iter().all(|c| c.len() == 32));
    let listed = room.desk.list_tables(pb::ListTablesRequest::default()).await.unwrap().into_inner();
    shown.push(listed.encode_to_vec());

    // Watchers see the commitments too: a table watcher from the start, and the room's snapshot.
    let mut watch = room
        .player("p5")
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let events = table_events_until(&mut watch, 1, table.version).await;
    assert_eq!(seeds_committed(&events), vec![published.clone()]);
    shown.extend(events.iter().map(|e| e.encode_to_vec()));
    let mut room_watch =
        room.desk.watch_room(pb::WatchRoomRequest { after_sequence: None }).await.unwrap().into_inner();
    let snapshot = next_room_event(&mut room_watch).await;
    let Some(pb::room_event::Event::Snapshot(state)) = &snapshot.event else { panic!("{snapshot:?}") };
    assert_eq!(state.tables[0].next_draw_seed_commitments, published);
    shown.push(snapshot.encode_to_vec());

    // The server draw: the seed committed first, revealed now, replayable.
    let request = pb::DrawCardsRequest {
        table_id: t1.clone(),
        purpose: pb::DrawPurpose::Partnerships as i32,
        player_ids: ids(&["p1", "p2", "p3", "p4"]),
    };
    let draw = room.desk.draw_cards(request).await.unwrap().into_inner().draw.unwrap();
    assert!(draw.seed_committed_before_draw);
    assert_eq!(draw.seed_commitment, published[0], "the commitment published before the draw");
    assert_eq!(sha2::Sha256::digest(&draw.seed).as_slice(), published[0].as_slice(), "the seed hashes to it");
    assert_replays(&draw);
    for bytes in &shown {
        assert!(!holds(bytes, &draw.seed), "the seed was never shown before the draw");
    }

    // The next commitments: the rest in order and a new one, on the table and on the stream.
    let table = room.table(&t1).await;
    let after = table.next_draw_seed_commitments.clone();
    assert_eq!(after.len(), 4);
    assert_eq!(after[..3], published[1..]);
    assert!(!published.contains(&after[3]), "a new commitment");
    let events = table_events_until(&mut watch, events.len() as u64 + 1, table.version).await;
    assert!(events.iter().any(|e| matches!(&e.event, Some(pb::table_event::Event::DrawUpdated(d)) if *d == draw)));
    assert_eq!(seeds_committed(&events), vec![after.clone()]);

    // A fresh process and a flushed Redis: the seeds behind the commitments come from the journal.
    room.app.restart().await;
    room.app.flush_redis().await;
    room.desk = room.app.membership("front-desk", &[Role::Desk]);
    let table = room.table(&t1).await;
    assert_eq!(table.next_draw_seed_commitments, after, "the same commitments after the restart");
    let mut shown = vec![table.encode_to_vec()];
    let rubber = room.start(&t1).await;
    assert_eq!(rubber.draw_ids, vec![draw.draw_id.clone()], "the rubber used the draw made before");
    shown.push(rubber.encode_to_vec());
    let ended = room.end(&t1, &rubber, true).await;
    shown.push(ended.encode_to_vec());
    let table = room.table(&t1).await;
    assert_eq!(table.next_draw_seed_commitments, after, "no server draw, no seed used");
    shown.push(table.encode_to_vec());

    // The next rubber's server draws (going out among the four, then partnerships) use the seeds
    // committed before the restart, from the front, in order.
    let second = room.start(&t1).await;
    let mut used = Vec::new();
    for id in &second.draw_ids {
        let draw = room.draw(id).await;
        assert_eq!(draw.method, pb::DrawMethod::Server as i32);
        assert!(draw.seed_committed_before_draw);
        assert_replays(&draw);
        for bytes in &shown {
            assert!(!holds(bytes, &draw.seed), "the seed was never shown before the draw");
        }
        let digest = sha2::Sha256::digest(&draw.seed).to_vec();
        assert_eq!(digest, draw.seed_commitment);
        used.push(after.iter().position(|c| *c == digest).expect("a commitment published before the restart"));
    }
    assert!(!used.is_empty(), "the second rubber was drawn for by the server");
    used.sort_unstable();
    assert_eq!(used, (0..used.len()).collect::<Vec<_>>(), "taken from the front, each once");
    let now = room.table(&t1).await.next_draw_seed_commitments;
    assert_eq!(now.len(), 4);
    assert_eq!(now[..4 - used.len()], after[used.len()..], "and new ones committed behind the rest");
}
