//! Forming tables under the Rules for Club Procedure: a new table of seven applicants (Rule C),
//! cut-ins at complete and incomplete tables (Rule D), making a fourth (Rule F), an application
//! made after the draw started (Rule B), and the desk seating the four as Law 3 allows.

use api::common::v1 as common;
use api::membership::v1 as pb;
use tonic::Code;

use super::{
    Room, assert_replays_by_name, assert_rule, holds, ids, member, members, next_table_event, playing, queue, sorted,
};

#[tokio::test]
async fn rule_c_a_new_table_of_seven_applicants() {
    let mut room = Room::new().await;
    room.enter(&["ann", "bob", "cat", "dan", "eve", "fay"]).await;
    let t1 = room.open(&["ann", "bob", "cat", "dan", "eve", "fay"]).await;
    let t1 = t1.table.unwrap();
    assert_eq!(t1.status, pb::TableStatus::Complete as i32);
    let rubber = room.start(&t1.table_id).await;
    assert_eq!(playing(&rubber), ids(&["ann", "bob", "cat", "dan"]), "rule C: the four highest-ranking play first");
    room.end(&t1.table_id, &rubber, true).await;

    // Ann and Bob, who have played, leave the room and come back; three newcomers arrive.
    room.leave_room("ann").await;
    room.leave_room("bob").await;
    room.arrive("ann").await;
    room.arrive("bob").await;
    room.enter(&["nia", "ned", "noa"]).await;

    // Seven applicants: Nia, Ned, Noa have not played (by entry: Nia, Ned, Noa); Ann and Bob
    // have played and rank equally; Eve and Fay leave an existing table and rank lowest.
    // The room published the seed commitment of the next opening draw before anyone was named.
    let listed = room.desk.list_tables(pb::ListTablesRequest::default()).await.unwrap().into_inner();
    let committed = listed.next_opening_draw_seed_commitment.clone();
    assert_eq!(committed.len(), 32);
    let open = room.open(&["eve", "ann", "nia", "fay", "bob", "noa", "ned"]).await;
    let table = open.table.clone().unwrap();
    let draw = open.precedence_draw.clone().expect("equal ranks whose order matters are settled by a draw");
    assert_eq!(draw.purpose, pb::DrawPurpose::Precedence as i32);
    assert_eq!(draw.method, pb::DrawMethod::Server as i32);
    assert!(draw.seed_committed_before_draw);
    assert_eq!(draw.seed_commitment, committed, "the seed the room committed before OpenTable");
    assert_replays_by_name(&draw, &["ann", "bob", "cat", "dan", "eve", "fay", "nia", "ned", "noa"]);
    assert!(!holds(&prost::Message::encode_to_vec(&listed), &draw.seed), "not shown before the draw");
    let listed = room.desk.list_tables(pb::ListTablesRequest::default()).await.unwrap().into_inner();
    assert_eq!(listed.next_opening_draw_seed_commitment.len(), 32);
    assert_ne!(listed.next_opening_draw_seed_commitment, committed, "the next opening's seed is a new one");
    assert_eq!(sorted(draw.player_ids.clone()), ids(&["ann", "bob", "eve", "fay"]));
    let by_draw = |group: &[&str]| -> Vec<String> {
        draw.order.iter().filter(|p| group.contains(&p.as_str())).cloned().collect()
    };
    let mut expected = ids(&["nia", "ned", "noa"]);
    expected.extend(by_draw(&["ann", "bob"]));
    expected.extend(by_draw(&["eve", "fay"]));
    let ranking: Vec<String> = open.ranking.iter().map(|r| r.player_id.clone()).collect();
    assert_eq!(ranking, expected, "rule C: precedence, ties settled by the highest card");
    let groups: Vec<i32> = open.ranking.iter().map(|r| r.group).collect();
    use pb::PrecedenceGroup::{FromOtherTable, HasPlayed, NotYetPlayed};
    assert_eq!(
        groups,
        [NotYetPlayed, NotYetPlayed, NotYetPlayed, HasPlayed, HasPlayed, FromOtherTable, FromOtherTable]
            .map(|g| g as i32)
    );
    assert_eq!(
        open.ranking.iter().map(|r| r.admitted).collect::<Vec<_>>(),
        [true, true, true, true, true, true, false]
    );
    assert_eq!(members(&table), expected[..6], "the six of highest precedence become members");
    assert_eq!(queue(&table), expected[6..], "the seventh is told his place");
    assert_eq!(table.queue[0].queue_position, 1);

    // Rule F: the sixth left the old table to join; the seventh only waits and keeps it.
    let (joined, waits) = (&expected[5], &expected[6]);
    assert_eq!(member(&table, joined).source, pb::MembershipSource::FromOtherTable as i32);
    let old = room.table(&t1.table_id).await;
    assert!(!members(&old).contains(joined), "{joined} gave up the old table");
    assert!(members(&old).contains(waits), "{waits} keeps the old table while he waits");

    // The first rubber: the four highest; the fifth and sixth sit out.
    let rubber = room.start(&table.table_id).await;
    assert_eq!(playing(&rubber), sorted(expected[..4].to_vec()));
    assert_eq!(sorted(rubber.sitting_out_player_ids.clone()), sorted(expected[4..6].to_vec()));
}

#[tokio::test]
async fn rule_d_cut_ins_at_complete_and_incomplete_tables() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;

    // A complete table: the applicant waits.
    let p7 = room.apply(&t1, "p7").await.application.unwrap();
    assert_eq!((p7.status, p7.queue_position), (pb::ApplicationStatus::Waiting as i32, 1));
    // Applications made at the same time are ordered by a draw, highest card first.
    let together = room.apply_together(&t1, &["p8", "p9"]).await;
    let draw = together.precedence_draw.clone().expect("more applications than places: a draw");
    assert_eq!(sorted(draw.player_ids.clone()), ids(&["p8", "p9"]));
    let table = together.table.unwrap();
    let mut expected = vec!["p7".to_owned()];
    expected.extend(draw.order.clone());
    assert_eq!(queue(&table), expected);
    assert_eq!(table.queue.iter().map(|a| a.queue_position).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(table.queue[1..].iter().all(|a| a.precedence_draw_id == draw.draw_id));

    // Applying again while waiting returns the same application.
    let again = room.apply(&t1, "p7").await.application.unwrap();
    assert_eq!(again.application_id, p7.application_id);

    // Only the applicant (or the desk) withdraws an application.
    let p9 = table.queue.iter().find(|a| a.player_id == "p9").unwrap().application_id.clone();
    let denied = room
        .player("p8")
        .withdraw_application(pb::WithdrawApplicationRequest { application_id: p9.clone() })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let withdrawn = room
        .player("p9")
        .withdraw_application(pb::WithdrawApplicationRequest { application_id: p9 })
        .await
        .unwrap()
        .into_inner()
        .application
        .unwrap();
    assert_eq!(withdrawn.status, pb::ApplicationStatus::Withdrawn as i32);
    let table = room.table(&t1).await;
    assert_eq!(queue(&table), ids(&["p7", "p8"]));
    assert_eq!(table.queue.iter().map(|a| a.queue_position).collect::<Vec<_>>(), [1, 2]);

    // "As soon as a vacancy occurs": p3 leaves and p7 is a member.
    let after = room.leave_table(&t1, "p3").await.table.unwrap();
    assert!(members(&after).contains(&"p7".to_owned()));
    assert_eq!(member(&after, "p7").source, pb::MembershipSource::CutIn as i32);
    assert_eq!(queue(&after), ids(&["p8"]));
    let admitted = room
        .player("p7")
        .withdraw_application(pb::WithdrawApplicationRequest { application_id: p7.application_id })
        .await
        .unwrap_err();
    assert_rule(&admitted, "rule D");
    assert!(admitted.message().contains("admitted"), "{admitted:?}");

    // An incomplete table: a member at once; two at once for the one place left: a draw.
    room.enter(&["q1", "q2", "q3", "q4", "q5", "q6", "q7"]).await;
    let t2 = room.open(&["q1", "q2", "q3", "q4"]).await.table.unwrap().table_id;
    let q5 = room.apply(&t2, "q5").await;
    assert_eq!(q5.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    assert_eq!(q5.table.unwrap().status, pb::TableStatus::Incomplete as i32);
    let both = room.apply_together(&t2, &["q6", "q7"]).await;
    let draw = both.precedence_draw.unwrap();
    let table = both.table.unwrap();
    assert_eq!(table.status, pb::TableStatus::Complete as i32);
    assert!(members(&table).contains(&draw.order[0]), "the higher card is a member");
    assert_eq!(queue(&table), vec![draw.order[1].clone()], "the lower card waits");
}

#[tokio::test]
async fn rule_f_making_a_fourth_with_and_without_an_announced_return() {
    let mut room = Room::new().await;
    room.enter(&["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4"]).await;
    let home = room.open(&["a1", "a2", "a3", "a4", "a5"]).await.table.unwrap().table_id;
    let host = room.open(&["b1", "b2", "b3", "b4"]).await.table.unwrap().table_id;
    room.leave_table(&host, "b4").await;

    // A fourth at a table of four is not needed (rule F).
    let other = room.open(&["c1", "c2", "c3", "c4"]).await.table.unwrap().table_id;
    let request = |table: &str, announced_return| pb::MakeFourthRequest {
        player_id: "a5".to_owned(),
        host_table_id: table.to_owned(),
        announced_return,
    };
    let refused = room.player("a5").make_fourth(request(&other, true)).await.unwrap_err();
    assert_rule(&refused, "rule F");

    // With an announced return he keeps his home membership, away.
    let made = room.player("a5").make_fourth(request(&host, true)).await.unwrap().into_inner();
    let fill = member(made.host_table.as_ref().unwrap(), "a5").temporary_fill.clone().unwrap();
    assert_eq!((fill.home_table_id.as_str(), fill.announced_return), (home.as_str(), true));
    assert_eq!(member(made.host_table.as_ref().unwrap(), "a5").source, pb::MembershipSource::MakingFourth as i32);
    assert_eq!(member(made.home_table.as_ref().unwrap(), "a5").away_at_table_id, host);
    // Away, he is not drawn for at home: the four others play.
    let rubber = room.start(&home).await;
    assert_eq!(playing(&rubber), ids(&["a1", "a2", "a3", "a4"]));
    room.end(&home, &rubber, true).await;

    // Someone cuts in at the host table: his place can be filled, and he returns at once.
    room.enter(&["b6"]).await;
    let host_now = room.apply(&host, "b6").await.table.unwrap();
    assert!(!members(&host_now).contains(&"a5".to_owned()), "{host_now:#?}");
    let home_now = room.table(&home).await;
    assert_eq!(member(&home_now, "a5").away_at_table_id, "");
    assert_eq!(room.presence("a5").await.unwrap().table_id, home);

    // Without an announced return he loses his home membership.
    room.leave_table(&host, "b6").await;
    let mut a4 = room.player("a4");
    let made = a4.make_fourth(pb::MakeFourthRequest {
        player_id: "a4".to_owned(),
        host_table_id: host.clone(),
        announced_return: false,
    });
    let made = made.await.unwrap().into_inner();
    let fill = member(made.host_table.as_ref().unwrap(), "a4").temporary_fill.clone().unwrap();
    assert_eq!((fill.home_table_id.as_str(), fill.announced_return), (home.as_str(), false));
    assert!(!members(made.home_table.as_ref().unwrap()).contains(&"a4".to_owned()));
    assert_eq!(room.presence("a4").await.unwrap().table_id, host);
    // And nobody answers for him.
    let denied = room.player("a1").make_fourth(request(&host, true)).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}

#[tokio::test]
async fn rule_b_an_application_made_after_the_draw_started_waits_for_the_next_rubber() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    let mut watch = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let snapshot = next_table_event(&mut watch).await;
    assert!(matches!(snapshot.event, Some(pb::table_event::Event::Snapshot(_))));

    // The desk records a physical draw for partnerships: two cards must be drawn again (Law 3).
    let card = |text: &str| -> common::Card { text.parse::<laws::Card>().unwrap().into() };
    let drawing = |player: &str, c: &str, position: u32| pb::PhysicalDrawing {
        player_id: player.to_owned(),
        card: Some(card(c)),
        spread_position: position,
        deck: 1,
        more_than_one_card: false,
    };
    // Wrong players first: the draw for partnerships is the four who play (Law 3).
    let wrong = room
        .desk
        .record_physical_draw(pb::RecordPhysicalDrawRequest {
            table_id: t1.clone(),
            purpose: pb::DrawPurpose::Partnerships as i32,
            player_ids: ids(&["p1", "p2", "p3", "p5"]),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_rule(&wrong, "Law 3");
    let draw = room
        .desk
        .record_physical_draw(pb::RecordPhysicalDrawRequest {
            table_id: t1.clone(),
            draw_id: String::new(),
            purpose: pb::DrawPurpose::Partnerships as i32,
            player_ids: ids(&["p1", "p2", "p3", "p4"]),
            drawings: vec![
                drawing("p1", "SA", 10),
                drawing("p2", "HK", 2),
                drawing("p3", "DQ", 20),
                drawing("p4", "C5", 11),
            ],
        })
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(draw.status, pb::DrawStatus::AwaitingDraws as i32);
    assert_eq!(sorted(draw.awaiting_player_ids.clone()), ids(&["p2", "p4"]));
    let reasons: Vec<(bool, i32)> = draw.drawings.iter().map(|d| (d.valid, d.redraw_reason)).collect();
    assert_eq!(
        reasons,
        [
            (true, pb::RedrawReason::Unspecified as i32),
            (false, pb::RedrawReason::EndOfSpread as i32),
            (true, pb::RedrawReason::Unspecified as i32),
            (false, pb::RedrawReason::AdjoiningCard as i32),
        ]
    );
    assert!(draw.drawings[1].law.as_ref().unwrap().text.contains("Law 3"));
    let started = loop {
        let event = next_table_event(&mut watch).await;
        if let Some(pb::table_event::Event::DrawStarted(started)) = event.event {
            break started;
        }
    };
    assert_eq!(started.draw_id, draw.draw_id, "the first card of the rubber's draw was drawn");

    // p5 applies now: a member at once (rule D), but too late for this rubber (rule B).
    let applied = room.apply(&t1, "p5").await;
    assert_eq!(applied.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    let redraws = room
        .desk
        .record_physical_draw(pb::RecordPhysicalDrawRequest {
            table_id: t1.clone(),
            draw_id: draw.draw_id.clone(),
            drawings: vec![drawing("p2", "HK", 30), drawing("p4", "C5", 40)],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(redraws.status, pb::DrawStatus::Complete as i32);
    assert_eq!(redraws.order, ids(&["p1", "p2", "p3", "p4"]), "SA, HK, DQ, C5");
    let rubber = room
        .desk
        .start_rubber(pb::StartRubberRequest {
            table_id: t1.clone(),
            partnership_draw_id: draw.draw_id.clone(),
            seat_choices: vec![],
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .rubber
        .unwrap();
    assert_eq!(rubber.sitting_out_player_ids, ids(&["p5"]));
    assert!(rubber.draw_ids.contains(&draw.draw_id));
    // Law 3: the two highest cards partner; the highest deals first and (by default) sits North;
    // his partner opposite; the opponent with the higher card on his left.
    let seat = |s: common::Seat| rubber.seats.iter().find(|x| x.seat == s as i32).unwrap().player_id.clone();
    assert_eq!(
        [seat(common::Seat::North), seat(common::Seat::East), seat(common::Seat::South), seat(common::Seat::West)],
        ["p1", "p3", "p2", "p4"].map(String::from)
    );
    assert_eq!(rubber.first_dealer, common::Seat::North as i32);
    room.end(&t1, &rubber, true).await;
    // The next rubber: he did not play the last one, so he comes in.
    let next = room.start(&t1).await;
    assert!(playing(&next).contains(&"p5".to_owned()));
}

#[tokio::test]
async fn the_desk_may_seat_the_four_as_law_3_allows_and_no_other_way() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let partnerships = room
        .desk
        .draw_cards(pb::DrawCardsRequest {
            table_id: t1.clone(),
            purpose: pb::DrawPurpose::Partnerships as i32,
            player_ids: ids(&["p1", "p2", "p3", "p4"]),
        })
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    let [dealer, partner, high, low] = [0, 1, 2, 3].map(|i| partnerships.order[i].clone());
    let seats = |north: &str, east: &str, south: &str, west: &str| {
        [
            (common::Seat::North, north),
            (common::Seat::East, east),
            (common::Seat::South, south),
            (common::Seat::West, west),
        ]
        .map(|(seat, player)| common::SeatedPlayer { seat: seat as i32, player_id: player.to_owned() })
        .to_vec()
    };
    // Partners sit opposite each other.
    let wrong = room
        .desk
        .start_rubber(pb::StartRubberRequest {
            table_id: t1.clone(),
            partnership_draw_id: String::new(),
            seat_choices: seats(&dealer, &partner, &high, &low),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_rule(&wrong, "Law 3");
    // The first dealer chose West; the lower opponent took the seat on his left.
    let rubber = room
        .desk
        .start_rubber(pb::StartRubberRequest {
            table_id: t1.clone(),
            partnership_draw_id: String::new(),
            seat_choices: seats(&low, &partner, &high, &dealer),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .rubber
        .unwrap();
    assert_eq!(rubber.first_dealer, common::Seat::West as i32);
    assert!(rubber.draw_ids.contains(&partnerships.draw_id), "the draw made before is the one used");
}
