//! The three places where the Rules for Club Procedure leave the club a judgement call, as the
//! desk meets them through the service: a member who cuts in before a new table's first draw (rules
//! B and C), more members who did not play the last rubber than places (rule E), and an application
//! by a player in a rubber at another table (rule F). Every draw is physical, with explicit cards,
//! so that every outcome is determined.

use api::membership::v1 as pb;

use super::{Room, assert_rule, ids, member, members, physical, playing, queue, sorted};

/// Records a complete physical draw at `table` among `players`, the cards in the order given, each
/// drawn well apart from the others so that none must be drawn again (Law 3).
async fn record(
    room: &mut Room,
    table: &str,
    purpose: pb::DrawPurpose,
    players: &[&str],
    cards: &[(&str, &str)],
) -> Result<pb::Draw, tonic::Status> {
    let request = pb::RecordPhysicalDrawRequest {
        table_id: table.to_owned(),
        draw_id: String::new(),
        purpose: purpose as i32,
        player_ids: ids(players),
        drawings: cards
            .iter()
            .zip((10..).step_by(6))
            .map(|((player, card), position)| physical(player, card, position))
            .collect(),
    };
    let response = room.desk.record_physical_draw(request).await?.into_inner();
    Ok(response.draw.unwrap_or_else(|| panic!("RecordPhysicalDraw answered without the draw")))
}

/// Rules B and C: "An applicant may not play in a rubber unless he has become a member of a table
/// before a card is duly drawn for the selection of players or partners", and "The four
/// highest-ranking members play the first rubber. Those who have not played ... take precedence
/// over those who have played; the latter rank equally ... Precedence between those of equal rank
/// is determined by drawing cards". The four who played at a table the club closed, and a newcomer,
/// are ranked together for a new table's first rubber: three of them formed it with the newcomer,
/// the fourth cut in before its first draw. The four who have played rank equal across the fourth
/// place, so they draw for precedence at the table, and the lowest card sits out.
#[tokio::test]
async fn rules_b_and_c_a_member_who_cuts_in_before_the_first_draw_is_ranked_with_the_founders() {
    let mut room = Room::new().await;
    room.enter(&["a1", "a2", "a3", "a4"]).await;
    let t0 = room.open(&["a1", "a2", "a3", "a4"]).await.table.unwrap().table_id;
    let first = room.start(&t0).await;
    room.end(&t0, &first, true).await;
    let close = pb::CloseTableRequest { table_id: t0.clone(), reason: "the table is needed for a match".into() };
    room.desk.close_table(close).await.unwrap();
    room.enter(&["n1"]).await;

    let t1 = room.open(&["n1", "a1", "a2", "a3"]).await.table.unwrap().table_id;
    let cut_in = room.apply(&t1, "a4").await;
    assert_eq!(cut_in.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    assert_eq!(members(&cut_in.table.unwrap()), ids(&["n1", "a1", "a2", "a3", "a4"]));

    // The table asks for precedence among the four who have played, not for who goes out.
    let going_out = record(&mut room, &t1, pb::DrawPurpose::GoingOut, &["a1", "a2", "a3", "a4"], &[]).await;
    assert_rule(&going_out.unwrap_err(), "rule C");
    let four = ["a1", "a2", "a3", "a4"];
    let cards = [("a1", "H2"), ("a2", "HA"), ("a3", "HK"), ("a4", "HQ")];
    let precedence = record(&mut room, &t1, pb::DrawPurpose::Precedence, &four, &cards).await.unwrap();
    assert_eq!(precedence.status, pb::DrawStatus::Complete as i32);
    assert_eq!(precedence.order, ids(&["a2", "a3", "a4", "a1"]));

    let players = ["n1", "a2", "a3", "a4"];
    let cards = [("n1", "SA"), ("a2", "SK"), ("a3", "SQ"), ("a4", "SJ")];
    let partnerships = record(&mut room, &t1, pb::DrawPurpose::Partnerships, &players, &cards).await.unwrap();
    let rubber = room.start(&t1).await;
    assert_eq!(playing(&rubber), ids(&["a2", "a3", "a4", "n1"]));
    assert_eq!(rubber.sitting_out_player_ids, ids(&["a1"]), "the lowest card sits out");
    assert!(rubber.draw_ids.contains(&precedence.draw_id), "{rubber:#?}");
    assert!(rubber.draw_ids.contains(&partnerships.draw_id), "{rubber:#?}");
}

/// Rule E: "After each rubber place must be made for any member who did not play that last rubber
/// ... Cards are drawn for precedence if necessary." Three of the four who played the first rubber
/// leave, and three waiting applicants take their places: five members did not play the last
/// rubber, for four places. All five draw; the four highest cards play.
#[tokio::test]
async fn rule_e_more_members_who_did_not_play_than_places_draw_and_the_four_highest_play() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;
    for player in ["p7", "p8", "p9"] {
        room.apply(&t1, player).await;
    }
    let first = room.start(&t1).await;
    assert_eq!(playing(&first), ids(&["p1", "p2", "p3", "p4"]));
    room.end(&t1, &first, true).await;
    for player in ["p1", "p2", "p3"] {
        room.leave_table(&t1, player).await;
    }
    assert_eq!(members(&room.table(&t1).await), ids(&["p4", "p5", "p6", "p7", "p8", "p9"]));

    // Only four of the five is not the draw the table needs.
    let five = ["p5", "p6", "p7", "p8", "p9"];
    let short = record(&mut room, &t1, pb::DrawPurpose::GoingOut, &five[..4], &[]).await;
    assert_rule(&short.unwrap_err(), "rule E");
    let cards = [("p5", "SA"), ("p6", "S2"), ("p7", "SK"), ("p8", "SQ"), ("p9", "SJ")];
    let going = record(&mut room, &t1, pb::DrawPurpose::GoingOut, &five, &cards).await.unwrap();
    assert_eq!(going.order, ids(&["p5", "p7", "p8", "p9", "p6"]));

    let players = ["p5", "p7", "p8", "p9"];
    let cards = [("p5", "HA"), ("p7", "HK"), ("p8", "HQ"), ("p9", "HJ")];
    record(&mut room, &t1, pb::DrawPurpose::Partnerships, &players, &cards).await.unwrap();
    let rubber = room.start(&t1).await;
    assert_eq!(playing(&rubber), ids(&["p5", "p7", "p8", "p9"]));
    assert_eq!(sorted(rubber.sitting_out_player_ids.clone()), ids(&["p4", "p6"]));
    assert!(rubber.draw_ids.contains(&going.draw_id));
}

/// Rule F: "No one can be a member of more than one table at the same time", with rule D: "An
/// application establishes membership in a table either forthwith or (if the table is complete) as
/// soon as a vacancy occurs". Nobody is taken out of a rubber in progress by an application: p4,
/// playing at T1, applies to T2, which has room; his application waits, the place goes to r1 who
/// applies next, and a vacancy passes him over for r2 while he plays. When his rubber ends, T2 has
/// room and he becomes a member there; he leaves T1, and having left three players there he has
/// broken up that game (rule E).
#[tokio::test]
async fn rule_f_an_application_by_a_player_in_a_rubber_waits_until_the_rubber_ends() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "q1", "q2", "q3", "q4", "q5", "r1", "r2"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let cards = [("p1", "SA"), ("p2", "SK"), ("p3", "SQ"), ("p4", "SJ")];
    record(&mut room, &t1, pb::DrawPurpose::Partnerships, &["p1", "p2", "p3", "p4"], &cards).await.unwrap();
    let rubber = room.start(&t1).await;
    let t2 = room.open(&["q1", "q2", "q3", "q4", "q5"]).await.table.unwrap().table_id;

    let applied = room.apply(&t2, "p4").await;
    let application = applied.application.unwrap();
    assert_eq!(application.status, pb::ApplicationStatus::Waiting as i32, "{application:?}");
    assert_eq!(application.queue_position, 1);
    let t2_now = applied.table.unwrap();
    assert_eq!(t2_now.status, pb::TableStatus::Incomplete as i32, "T2 has room");
    assert_eq!(queue(&t2_now), ids(&["p4"]));
    assert!(!members(&t2_now).contains(&"p4".to_owned()));
    let t1_now = room.table(&t1).await;
    assert!(member(&t1_now, "p4").playing, "his rubber goes on: {t1_now:#?}");
    assert_eq!(t1_now.current_rubber.map(|r| r.rubber_id), Some(rubber.rubber_id.clone()));
    assert_eq!(room.presence("p4").await.unwrap().table_id, t1);

    // r1 applies after him and takes the place that is free; r2 waits behind him.
    let r1 = room.apply(&t2, "r1").await.application.unwrap();
    assert_eq!(r1.status, pb::ApplicationStatus::Admitted as i32);
    let r2 = room.apply(&t2, "r2").await.application.unwrap();
    assert_eq!((r2.status, r2.queue_position), (pb::ApplicationStatus::Waiting as i32, 2));
    // A vacancy: p4 still plays, so r2 fills it, and p4 keeps his place.
    let after = room.leave_table(&t2, "q1").await.table.unwrap();
    assert!(members(&after).contains(&"r2".to_owned()), "{after:#?}");
    assert_eq!(queue(&after), ids(&["p4"]));
    room.leave_table(&t2, "q2").await;

    // His rubber ends, finished: T2 has room, and his application takes effect.
    let ended = room.end(&t1, &rubber, true).await;
    assert_eq!(ended.rubber.unwrap().status, pb::RubberStatus::Finished as i32);
    let t1_after = ended.table.unwrap();
    assert_eq!(sorted(members(&t1_after)), ids(&["p1", "p2", "p3"]));
    assert_eq!(t1_after.status, pb::TableStatus::Broken as i32);
    let t2_after = room.table(&t2).await;
    assert_eq!(member(&t2_after, "p4").source, pb::MembershipSource::FromOtherTable as i32);
    assert!(t2_after.queue.is_empty());
    let presence = room.presence("p4").await.unwrap();
    assert_eq!(presence.table_id, t2);
    let restriction = presence.breaker_restrictions.first().expect("he left three players at T1 (rule E)");
    assert_eq!(restriction.table_id, t1);
}
