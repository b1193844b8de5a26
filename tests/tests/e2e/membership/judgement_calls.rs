//! The places where the Rules for Club Procedure leave the club a judgement call, as the desk
//! meets them through the service: a member who cuts in before a new table's first draw (rules B
//! and C), and more members who did not play the last rubber than places (rule E). Every draw is
//! physical, with explicit cards, so that every outcome is determined.

use api::membership::v1 as pb;

use super::{Room, assert_rule, ids, members, physical, playing, sorted};

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

