//! Going out after a rubber (Rule E): a tie settled by a draw, a member from another table, the
//! breaker restriction, and a physical draw in which the lowest card goes out.

use api::membership::v1 as pb;

use super::{Room, assert_rule, ids, member, members, physical, playing, queue, sorted};

/// The going out an ended rubber brought.
fn going_out(end: &pb::EndRubberResponse) -> (Vec<String>, Vec<String>, Vec<String>) {
    let g = end.going_out.clone().unwrap_or_default();
    (sorted(g.coming_in_player_ids), sorted(g.going_out_player_ids), sorted(g.tied_player_ids))
}

#[tokio::test]
async fn rule_e_going_out_after_rubbers_with_a_tie_settled_by_a_draw() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    assert_eq!(playing(&first), ids(&["p1", "p2", "p3", "p4"]));
    assert_eq!(first.sitting_out_player_ids, ids(&["p5"]));
    let end = room.end(&t1, &first, true).await;
    assert_eq!(end.rubber.as_ref().unwrap().status, pb::RubberStatus::Finished as i32);
    // p5 sat out and comes in; p1-p4 have each played one rubber in a row: a tie the next draw
    // settles.
    assert_eq!(going_out(&end), (ids(&["p5"]), vec![], ids(&["p1", "p2", "p3", "p4"])));
    let table = end.table.unwrap();
    assert!(member(&table, "p5").sat_out_last_rubber);
    assert_eq!(member(&table, "p1").consecutive_rubbers, 1);

    let second = room.start(&t1).await;
    let going = room.draws_of(&second, pb::DrawPurpose::GoingOut).await;
    assert_eq!(going.len(), 1, "one draw settled the tie: {second:#?}");
    assert_eq!(sorted(going[0].player_ids.clone()), ids(&["p1", "p2", "p3", "p4"]));
    let lowest = going[0].order.last().unwrap().clone();
    assert_eq!(second.sitting_out_player_ids, vec![lowest.clone()], "the lowest card goes out");
    assert!(playing(&second).contains(&"p5".to_owned()));
    assert_eq!(room.draws_of(&second, pb::DrawPurpose::Partnerships).await.len(), 1);

    let end = room.end(&t1, &second, true).await;
    let table = end.table.clone().unwrap();
    for m in &table.members {
        let expected = if m.player_id == lowest {
            0
        } else if m.player_id == "p5" {
            1
        } else {
            2
        };
        assert_eq!(m.consecutive_rubbers, expected, "{}: sitting out resets the count", m.player_id);
    }
    let stayed: Vec<String> = ids(&["p1", "p2", "p3", "p4"]).into_iter().filter(|p| *p != lowest).collect();
    // The one who sat out comes in; of the three with two rubbers in a row, the draw decides.
    assert_eq!(going_out(&end), (vec![lowest], vec![], sorted(stayed)));
}

#[tokio::test]
async fn rule_e_a_member_from_another_table_draws_against_the_member_who_would_otherwise_play() {
    let mut room = Room::new().await;
    room.enter(&["a", "b", "c", "d", "e", "f", "g", "h", "i"]).await;
    let t1 = room.open(&["a", "b", "c", "d"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    let t2 = room.open(&["e", "f", "g", "h", "i"]).await.table.unwrap().table_id;

    // i leaves T2 (still four there) to join T1.
    let joined = room.apply(&t1, "i").await.table.unwrap();
    assert_eq!(member(&joined, "i").source, pb::MembershipSource::FromOtherTable as i32);
    assert!(!members(&room.table(&t2).await).contains(&"i".to_owned()), "rule F: one table at a time");

    let rubber = room.start(&t1).await;
    // i did not play the last rubber, so one of a-d makes way (a going-out draw); that member is
    // the one who would otherwise have played, and i draws against him for his first rubber.
    let going = room.draws_of(&rubber, pb::DrawPurpose::GoingOut).await;
    assert_eq!(going.len(), 1);
    let displaced = going[0].order.last().unwrap().clone();
    let entry = room.draws_of(&rubber, pb::DrawPurpose::EntryFromOtherTable).await;
    assert_eq!(entry.len(), 1, "{rubber:#?}");
    assert_eq!(sorted(entry[0].player_ids.clone()), sorted(vec!["i".to_owned(), displaced.clone()]));
    let (winner, loser) = (&entry[0].order[0], &entry[0].order[1]);
    assert!(playing(&rubber).contains(winner), "the higher card plays");
    assert_eq!(&rubber.sitting_out_player_ids, &vec![loser.clone()]);
    // Only his first rubber: he is an ordinary member from now on.
    let table = room.table(&t1).await;
    assert!(member(&table, "i").playing == (winner == "i"));
}

#[tokio::test]
async fn rule_e_the_breaker_restriction_lifts_only_after_each_of_the_three_has_played_a_rubber() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6"]).await;
    room.enter(&["q1", "q2", "q3", "q4", "q5", "q6"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let t9 = room.open(&["q1", "q2", "q3", "q4", "q5", "q6"]).await.table.unwrap().table_id;
    let abandoned = room.start(&t1).await;

    // p4 leaves in the middle of the rubber: it is not finished (Law 80) and he broke up the game.
    let left = room.leave_table(&t1, "p4").await;
    let restriction = left.breaker_restriction.expect("leaving three players brings the breaker restriction");
    assert_eq!(restriction.table_id, t1);
    let protected = |r: &pb::BreakerRestriction| -> Vec<(String, bool)> {
        let mut p: Vec<(String, bool)> = r.protected_players.iter().map(|p| (p.player_id.clone(), p.cleared)).collect();
        p.sort();
        p
    };
    assert_eq!(protected(&restriction), [("p1", false), ("p2", false), ("p3", false)].map(|(p, c)| (p.to_owned(), c)));
    let table = left.table.unwrap();
    assert_eq!(table.status, pb::TableStatus::Broken as i32);
    assert!(table.current_rubber.is_none());
    let rubber = room.desk.get_rubber(pb::GetRubberRequest { rubber_id: abandoned.rubber_id.clone() }).await;
    assert_eq!(rubber.unwrap().into_inner().rubber.unwrap().status, pb::RubberStatus::Unfinished as i32);

    // He may not compete against p1 for entry: p1 goes ahead of him though he applied later.
    room.apply(&t9, "p4").await;
    room.apply(&t9, "p1").await;
    assert_eq!(queue(&room.table(&t9).await), ids(&["p1", "p4"]));
    let p1 = room.table(&t9).await.queue[0].application_id.clone();
    room.player("p1").withdraw_application(pb::WithdrawApplicationRequest { application_id: p1 }).await.unwrap();

    // T1 goes on with two newcomers; one of p1-p3 draws lowest and sits out.
    room.apply_together(&t1, &["p5", "p6"]).await;
    let second = room.start(&t1).await;
    let out = second.sitting_out_player_ids[0].clone();
    assert!(["p1", "p2", "p3"].contains(&out.as_str()));
    room.end(&t1, &second, true).await;
    let presence = room.presence("p4").await.unwrap();
    assert_eq!(presence.breaker_restrictions.len(), 1, "two of three have played: still restricted");
    let cleared: Vec<(String, bool)> = ["p1", "p2", "p3"].iter().map(|p| ((*p).to_owned(), *p != out)).collect();
    assert_eq!(protected(&presence.breaker_restrictions[0]), cleared);
    // The one still protected goes ahead of p4 at T9, though he applied after him.
    room.apply(&t9, &out).await;
    assert_eq!(queue(&room.table(&t9).await), vec![out.clone(), "p4".to_owned()]);

    // The third plays a rubber: the restriction is over, and the queue is in order of application.
    let third = room.start(&t1).await;
    assert!(playing(&third).contains(&out), "he sat out, so he comes in");
    room.end(&t1, &third, true).await;
    assert!(room.presence("p4").await.unwrap().breaker_restrictions.is_empty());
    assert_eq!(queue(&room.table(&t9).await), vec!["p4".to_owned(), out]);
}

#[tokio::test]
async fn rule_e_a_physical_draw_settles_going_out_and_the_lowest_card_goes_out() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    let record = |players: &[&str], drawings: Vec<pb::PhysicalDrawing>| pb::RecordPhysicalDrawRequest {
        table_id: t1.clone(),
        draw_id: String::new(),
        purpose: pb::DrawPurpose::GoingOut as i32,
        player_ids: ids(players),
        drawings,
    };
    // The tie for going out is among p1-p4; p5 sat out and comes in without drawing.
    let wrong = room.desk.record_physical_draw(record(&["p1", "p2", "p3", "p5"], vec![])).await.unwrap_err();
    assert_rule(&wrong, "rule E");
    assert!(wrong.message().contains("among p1, p2, p3, p4, not"), "{wrong:?}");
    // A card drawn twice is no legal draw (Law 1): the request is refused whole.
    let twice = record(&["p1", "p2", "p3", "p4"], vec![physical("p1", "S7", 10), physical("p2", "S7", 20)]);
    assert_rule(&room.desk.record_physical_draw(twice).await.unwrap_err(), "Law 1");
    let drawn =
        vec![physical("p1", "HA", 8), physical("p2", "C2", 14), physical("p3", "SK", 30), physical("p4", "D9", 40)];
    let draw = room.desk.record_physical_draw(record(&["p1", "p2", "p3", "p4"], drawn)).await.unwrap().into_inner();
    let draw = draw.draw.unwrap();
    assert_eq!(draw.status, pb::DrawStatus::Complete as i32);
    assert_eq!(draw.method, pb::DrawMethod::Physical as i32);
    assert_eq!(draw.order, ids(&["p1", "p3", "p4", "p2"]), "HA, SK, D9, C2");
    let rubber = room.start(&t1).await;
    assert_eq!(rubber.sitting_out_player_ids, ids(&["p2"]), "the lowest card goes out");
    assert!(rubber.draw_ids.contains(&draw.draw_id));
    assert!(room.draws_of(&rubber, pb::DrawPurpose::GoingOut).await.iter().all(|d| d.draw_id == draw.draw_id));
}
