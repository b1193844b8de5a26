//! The card room's procedure at its edges, as a front desk meets them, with physical draws of
//! explicit cards so that every outcome is determined.

use api::common::v1 as common;
use api::membership::v1 as pb;

use super::{Room, assert_rule, ids, member, members, physical, playing, sorted};

fn new_draw(
    table: &str,
    purpose: pb::DrawPurpose,
    players: &[&str],
    drawings: Vec<pb::PhysicalDrawing>,
) -> pb::RecordPhysicalDrawRequest {
    pb::RecordPhysicalDrawRequest {
        table_id: table.to_owned(),
        draw_id: String::new(),
        purpose: purpose as i32,
        player_ids: ids(players),
        drawings,
    }
}

fn more_cards(table: &str, draw_id: &str, drawings: Vec<pb::PhysicalDrawing>) -> pb::RecordPhysicalDrawRequest {
    pb::RecordPhysicalDrawRequest {
        table_id: table.to_owned(),
        draw_id: draw_id.to_owned(),
        purpose: pb::DrawPurpose::Unspecified as i32,
        player_ids: Vec::new(),
        drawings,
    }
}

/// A table of four finishes a rubber and the desk opens a physical draw for partnerships among
/// the four, with `first_cards` recorded (none, or only cards that must be drawn again); then a
/// fifth player is admitted. Rule B: "a membership ... counts for a rubber only if it existed
/// before the first card of that rubber's draw was duly drawn": no card has been, so the fifth
/// is a member for the next rubber, and the draw that counted on the four is called off. The
/// desk then draws what the table needs now (going out among the four who played, partnerships
/// among the four who play) and the rubber starts.
async fn a_draw_counting_on_the_old_four_is_called_off(first_cards: Vec<pb::PhysicalDrawing>) {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;

    let partnerships = pb::DrawPurpose::Partnerships;
    let opened = room
        .desk
        .record_physical_draw(new_draw(&t1, partnerships, &["p1", "p2", "p3", "p4"], first_cards))
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(opened.status, pb::DrawStatus::AwaitingDraws as i32);
    assert!(opened.started_at.is_none(), "no card duly drawn yet: {opened:?}");

    let admitted = room.apply(&t1, "p5").await;
    assert_eq!(admitted.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    let called_off = room.draw(&opened.draw_id).await;
    assert_eq!(called_off.status, pb::DrawStatus::Cancelled as i32, "{called_off:?}");

    // The four drawing on the old draw are told why, naming rule B.
    let late =
        vec![physical("p1", "HA", 10), physical("p2", "C2", 20), physical("p3", "SK", 30), physical("p4", "D9", 40)];
    let refused = room.desk.record_physical_draw(more_cards(&t1, &opened.draw_id, late)).await.unwrap_err();
    assert_rule(&refused, "rule B");

    // p5 did not play the last rubber and comes in; p1-p4 tie for going out (rule E).
    let going =
        vec![physical("p1", "HA", 10), physical("p2", "C2", 20), physical("p3", "SK", 30), physical("p4", "D9", 40)];
    let going = room
        .desk
        .record_physical_draw(new_draw(&t1, pb::DrawPurpose::GoingOut, &["p1", "p2", "p3", "p4"], going))
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(going.order.last().map(String::as_str), Some("p2"), "C2 is the lowest card and goes out");
    let cards =
        vec![physical("p5", "SA", 12), physical("p1", "S3", 22), physical("p3", "HK", 32), physical("p4", "D4", 42)];
    let partners = room
        .desk
        .record_physical_draw(new_draw(&t1, partnerships, &["p1", "p3", "p4", "p5"], cards))
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(partners.status, pb::DrawStatus::Complete as i32);

    let rubber = room.start(&t1).await;
    assert_eq!(sorted(playing(&rubber)), ids(&["p1", "p3", "p4", "p5"]));
    assert_eq!(rubber.sitting_out_player_ids, ids(&["p2"]));
    assert!(rubber.draw_ids.contains(&partners.draw_id), "the rubber's partnerships are the new draw's");
    assert!(!rubber.draw_ids.contains(&opened.draw_id));
}

/// Rule B, the first case: the draw was opened and nothing was drawn before the fifth
/// player was admitted.
#[tokio::test]
async fn rule_b_a_partnership_draw_opened_before_a_fifth_is_admitted_is_called_off() {
    a_draw_counting_on_the_old_four_is_called_off(Vec::new()).await;
}

/// Rule B with Law 3: the only card recorded was one of the four at an end of the spread, which
/// "must be drawn again": no card has been duly drawn, so the draw has not started either.
#[tokio::test]
async fn rule_b_a_draw_whose_only_card_was_an_end_card_is_called_off_when_a_fifth_is_admitted() {
    a_draw_counting_on_the_old_four_is_called_off(vec![physical("p1", "C7", 50)]).await;
}

/// Rule B: once a card has been duly drawn, the rubber's draw has started; a player admitted then
/// waits for the next rubber and the draw stands.
#[tokio::test]
async fn rule_b_a_draw_with_a_card_duly_drawn_stands_when_a_fifth_is_admitted() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    let opened = room
        .desk
        .record_physical_draw(new_draw(
            &t1,
            pb::DrawPurpose::Partnerships,
            &["p1", "p2", "p3", "p4"],
            vec![physical("p1", "HA", 10)],
        ))
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert!(opened.started_at.is_some());
    room.apply(&t1, "p5").await;
    assert_eq!(room.draw(&opened.draw_id).await.status, pb::DrawStatus::AwaitingDraws as i32);
    let rest = vec![physical("p2", "C2", 20), physical("p3", "SK", 30), physical("p4", "D9", 40)];
    let done = room.desk.record_physical_draw(more_cards(&t1, &opened.draw_id, rest)).await.unwrap().into_inner();
    assert_eq!(done.draw.unwrap().status, pb::DrawStatus::Complete as i32);
    let rubber = room.start(&t1).await;
    assert_eq!(sorted(playing(&rubber)), ids(&["p1", "p2", "p3", "p4"]));
    assert!(rubber.draw_ids.contains(&opened.draw_id));
}

/// Rule E: a player who breaks up a game "may not compete against them for entry at another
/// table until each of them has played at least one rubber". The breaker and a player he left
/// both join another table and draw for entry with the two members who would otherwise play; the
/// breaker draws the ace, yet ranks below the player he left, who takes the second place.
#[tokio::test]
async fn rule_e_a_breaker_in_a_shared_entry_draw_ranks_below_a_player_he_left() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "b15", "q21", "q22", "q23"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    let t2 = room.open(&["q21", "q22", "q23", "b15"]).await.table.unwrap().table_id;
    room.leave_table(&t2, "b15").await;
    room.apply(&t1, "q21").await;
    room.apply(&t1, "b15").await;

    let going =
        vec![physical("p1", "HA", 10), physical("p2", "HK", 20), physical("p3", "HQ", 30), physical("p4", "H2", 40)];
    room.desk
        .record_physical_draw(new_draw(&t1, pb::DrawPurpose::GoingOut, &["p1", "p2", "p3", "p4"], going))
        .await
        .unwrap();
    let entry =
        vec![physical("b15", "SA", 10), physical("p3", "SK", 20), physical("q21", "C3", 30), physical("p4", "C2", 40)];
    let entry = room
        .desk
        .record_physical_draw(new_draw(&t1, pb::DrawPurpose::EntryFromOtherTable, &["b15", "p3", "q21", "p4"], entry))
        .await
        .unwrap()
        .into_inner()
        .draw
        .unwrap();
    assert_eq!(entry.order, ids(&["b15", "p3", "q21", "p4"]), "the cards' order; rule E ranks b15 below q21");
    let rubber = room.start(&t1).await;
    assert_eq!(sorted(playing(&rubber)), ids(&["p1", "p2", "p3", "q21"]));
    assert_eq!(sorted(rubber.sitting_out_player_ids.clone()), ids(&["b15", "p4"]));
}

fn seated(seats: &[(common::Seat, &str)]) -> Vec<common::SeatedPlayer> {
    seats
        .iter()
        .map(|(seat, player)| common::SeatedPlayer { seat: *seat as i32, player_id: (*player).to_owned() })
        .collect()
}

/// Law 3: "Unless it is otherwise agreed, the two players who draw the highest cards play as
/// partners", and the first dealer "has the right to choose his seat and the deck with which he
/// will deal". The four agree p1 and p3 play together and p3 deals first; he sits North and
/// takes the second deck, the opponents choose East and West. No draw for partnerships is made.
#[tokio::test]
async fn law_3_four_who_agree_their_partnerships_play_them_with_the_seats_and_deck_chosen() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let request = pb::StartRubberRequest {
        table_id: t1.clone(),
        partnership_draw_id: String::new(),
        seat_choices: seated(&[
            (common::Seat::North, "p3"),
            (common::Seat::South, "p1"),
            (common::Seat::East, "p4"),
            (common::Seat::West, "p2"),
        ]),
        first_deck: 2,
        agreed_partnerships: Some(pb::AgreedPartnerships {
            partner_player_ids: ids(&["p1", "p3"]),
            first_dealer_player_id: "p3".into(),
        }),
        server_draw: false,
    };
    let rubber = room.desk.start_rubber(request).await.unwrap().into_inner().rubber.unwrap();
    assert!(rubber.partnerships_agreed);
    assert_eq!(rubber.first_deck, 2);
    assert_eq!(rubber.first_dealer, common::Seat::North as i32);
    let at = |seat: common::Seat| rubber.seats.iter().find(|s| s.seat == seat as i32).unwrap().player_id.clone();
    assert_eq!(
        [common::Seat::North, common::Seat::East, common::Seat::South, common::Seat::West].map(at),
        ["p3", "p4", "p1", "p2"]
    );
    assert!(room.draws_of(&rubber, pb::DrawPurpose::Partnerships).await.is_empty(), "no draw for partnerships");
}

/// Law 3's choices as the desk records them, refused when they cannot be: a partner who is not
/// one of the four, agreed partnerships beside a draw for them, a third deck.
#[tokio::test]
async fn law_3_agreed_partnerships_and_the_deck_are_checked() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;
    let agreed = |partners: &[&str], dealer: &str| pb::AgreedPartnerships {
        partner_player_ids: ids(partners),
        first_dealer_player_id: dealer.into(),
    };
    let start = |agreed: Option<pb::AgreedPartnerships>, draw: &str, deck: u32| pb::StartRubberRequest {
        table_id: t1.clone(),
        partnership_draw_id: draw.into(),
        seat_choices: Vec::new(),
        first_deck: deck,
        agreed_partnerships: agreed,
        // Without agreed partnerships the desk asks the server to draw them.
        server_draw: true,
    };
    // p5 is fifth in precedence and sits out the first rubber (rule C).
    let outsider = room.desk.start_rubber(start(Some(agreed(&["p1", "p5"], "p1")), "", 0)).await.unwrap_err();
    assert_rule(&outsider, "Law 3");
    assert!(outsider.message().contains("p5"), "{outsider:?}");
    let both = room.desk.start_rubber(start(Some(agreed(&["p1", "p2"], "p1")), "some-draw", 0)).await.unwrap_err();
    assert_eq!(both.code(), tonic::Code::InvalidArgument, "{both:?}");
    let third = room.desk.start_rubber(start(None, "", 3)).await.unwrap_err();
    assert_eq!(third.code(), tonic::Code::InvalidArgument, "{third:?}");

    // The deck chosen with a server draw: recorded on the rubber.
    let rubber = room.desk.start_rubber(start(None, "", 2)).await.unwrap().into_inner().rubber.unwrap();
    assert_eq!((rubber.first_deck, rubber.partnerships_agreed), (2, false));
}

/// Rule F: "making a fourth" also serves three players forming a new table. Three players ask
/// a member of another table to make the fourth; he announces he will return, keeps his own
/// table's membership, is not drawn for there while away, and goes back as soon as a newcomer
/// can fill his place.
#[tokio::test]
async fn rule_f_a_member_makes_the_fourth_of_a_forming_table_and_returns_when_replaced() {
    let mut room = Room::new().await;
    room.enter(&["a1", "a2", "a3", "a4", "a5", "q1", "q2", "q3", "q4", "q5"]).await;
    let home = room.open(&["a1", "a2", "a3", "a4", "a5"]).await.table.unwrap().table_id;
    let open = |applicants: &[&str], returning: &[&str]| pb::OpenTableRequest {
        applicant_player_ids: ids(applicants),
        returning_fourth_player_ids: ids(returning),
        kind: common::TableKind::Rubber as i32,
        ..Default::default()
    };
    // A fourth is only one the table needs: five applicants form it without him.
    let refused = room.desk.open_table(open(&["q1", "q2", "q3", "q4", "a5"], &["a5"])).await.unwrap_err();
    assert_rule(&refused, "rule F");

    let formed = room.desk.open_table(open(&["q1", "q2", "q3", "a5"], &["a5"])).await.unwrap().into_inner();
    let host = formed.table.unwrap();
    let fourth = member(&host, "a5");
    assert_eq!(fourth.source, pb::MembershipSource::MakingFourth as i32);
    let fill = fourth.temporary_fill.clone().unwrap();
    assert_eq!((fill.home_table_id.as_str(), fill.announced_return), (home.as_str(), true));
    assert_eq!(member(&room.table(&home).await, "a5").away_at_table_id, host.table_id);
    // Away, he is not drawn for at home.
    let rubber = room.start(&home).await;
    assert_eq!(sorted(playing(&rubber)), ids(&["a1", "a2", "a3", "a4"]));

    // A newcomer cuts in at the new table: the fourth's place can be filled, and he goes back.
    let host_now = room.apply(&host.table_id, "q5").await.table.unwrap();
    assert!(!members(&host_now).contains(&"a5".to_owned()), "{host_now:#?}");
    assert_eq!(member(&room.table(&home).await, "a5").away_at_table_id, "");
    assert_eq!(room.presence("a5").await.unwrap().table_id, home);
}

/// Rules C and D with physical cards. Rule C: applicants who have played rank equal, and "cards
/// are drawn for precedence" where their order matters; rule D: applications made at the same
/// time, more than the places left, are ordered by a draw. The desk draws with cards and records
/// them with the command; cards it should not have drawn, or too few, are refused.
#[tokio::test]
async fn rules_c_and_d_a_physical_draw_for_precedence_is_recorded_with_the_command() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;
    let first = room.start(&t1).await;
    room.end(&t1, &first, true).await;
    room.leave_room("p1").await;
    room.leave_room("p2").await;
    room.arrive("p1").await;
    room.arrive("p2").await;
    room.enter(&["n1", "n2", "n3", "x1", "x2"]).await;

    // n1-n3 have not played and rank by entry; p1 and p2 have played and rank equal: the fourth
    // place plays the first rubber and the fifth does not, so a draw orders them.
    let open = |cards: Vec<pb::PhysicalDrawing>| pb::OpenTableRequest {
        kind: common::TableKind::Rubber as i32,
        applicant_player_ids: ids(&["p1", "n1", "p2", "n2", "n3"]),
        precedence_drawings: cards,
        ..Default::default()
    };
    let outsider =
        room.desk.open_table(open(vec![physical("n1", "SA", 10), physical("p1", "C2", 20)])).await.unwrap_err();
    assert_rule(&outsider, "rule C");
    assert!(outsider.message().contains("n1 does not draw"), "{outsider:?}");
    let short = room.desk.open_table(open(vec![physical("p1", "C2", 10)])).await.unwrap_err();
    assert_rule(&short, "Law 3");
    assert!(short.message().contains("p2 must still draw"), "{short:?}");

    // p2's first card is at the end of the spread and is drawn again (Law 3).
    let cards = vec![physical("p1", "C2", 10), physical("p2", "DK", 51), physical("p2", "SA", 30)];
    let formed = room.desk.open_table(open(cards)).await.unwrap().into_inner();
    let draw = formed.precedence_draw.unwrap();
    assert_eq!((draw.method, draw.status), (pb::DrawMethod::Physical as i32, pb::DrawStatus::Complete as i32));
    assert_eq!(draw.order, ids(&["p2", "p1"]));
    let ranking: Vec<String> = formed.ranking.iter().map(|r| r.player_id.clone()).collect();
    assert_eq!(ranking, ids(&["n1", "n2", "n3", "p2", "p1"]));
    let t2 = formed.table.unwrap().table_id;

    // Two apply together for the one place left (rule D): the higher card is admitted.
    let apply = |cards: Vec<pb::PhysicalDrawing>| pb::ApplyToTableRequest {
        table_id: t2.clone(),
        player_id: "x1".into(),
        together_with_player_ids: ids(&["x2"]),
        precedence_drawings: cards,
        server_draw: false,
    };
    let by_player = room.player("x1").apply_to_table(apply(vec![physical("x1", "D3", 10)])).await.unwrap_err();
    assert_eq!(by_player.code(), tonic::Code::PermissionDenied, "{by_player:?}");
    let applied = room
        .desk
        .apply_to_table(apply(vec![physical("x1", "D3", 10), physical("x2", "H3", 20)]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(applied.precedence_draw.unwrap().order, ids(&["x2", "x1"]), "hearts rank above diamonds (Law 2)");
    let table = applied.table.unwrap();
    assert!(members(&table).contains(&"x2".to_owned()));
    assert!(!members(&table).contains(&"x1".to_owned()), "x1 waits");

    // No draw is needed among players whose standing already orders them.
    let fresh = room.desk.open_table(pb::OpenTableRequest {
        kind: common::TableKind::Rubber as i32,
        applicant_player_ids: ids(&["p3", "p4", "p5", "p6"]),
        precedence_drawings: vec![physical("p3", "SA", 10)],
        ..Default::default()
    });
    assert_rule(&fresh.await.unwrap_err(), "rule C");
}

/// Rule C: those who have not played rank "by order of entry into the room". p5 was in the room
/// before the others but was recorded last; the desk corrects his time of entry, the correction
/// is kept with who made it and why, and he then ranks first when the table is formed. A time
/// after the correction, a player not in the room, or a player correcting himself is refused.
#[tokio::test]
async fn rule_c_the_desk_corrects_a_time_of_entry_and_precedence_follows_it() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    room.register("absent").await;
    let first = room.presence("p1").await.unwrap().arrived_at.unwrap();
    let recorded = room.presence("p5").await.unwrap().arrived_at.unwrap();
    let earlier = prost_types::Timestamp { seconds: first.seconds - 60, nanos: 0 };
    let correct = |player: &str, at: prost_types::Timestamp| pb::CorrectArrivalRequest {
        player_id: player.into(),
        arrived_at: Some(at),
        reason: "came in before the others; signed in late".into(),
    };

    let corrected = room.desk.correct_arrival(correct("p5", earlier)).await.unwrap().into_inner();
    let presence = corrected.presence.unwrap();
    assert_eq!(presence.arrived_at, Some(earlier));
    let correction = presence.arrival_correction.unwrap();
    assert_eq!(correction.recorded_arrived_at, Some(recorded));
    assert_eq!(correction.corrected_by, "front-desk");
    assert_eq!(correction.reason, "came in before the others; signed in late");

    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;
    let rubber = room.start(&t1).await;
    assert_eq!(sorted(playing(&rubber)), ids(&["p1", "p2", "p3", "p5"]), "p5 ranks first, p4 is fifth");
    assert_eq!(rubber.sitting_out_player_ids, ids(&["p4"]));

    let future = prost_types::Timestamp { seconds: first.seconds + 10 * 365 * 24 * 3600, nanos: 0 };
    assert_rule(&room.desk.correct_arrival(correct("p1", future)).await.unwrap_err(), "rule C");
    assert_rule(&room.desk.correct_arrival(correct("absent", earlier)).await.unwrap_err(), "rule C");
    let own = room.player("p4").correct_arrival(correct("p4", earlier)).await.unwrap_err();
    assert_eq!(own.code(), tonic::Code::PermissionDenied, "{own:?}");
}

/// Rule D: "if more applications are made at the same time than are needed to complete the
/// table, a draw orders them". x1 and x2 applied together but the desk recorded them apart, with
/// y's application between: the desk marks them as made together, the cards order them, they take
/// x1's place, and y now follows both. Only waiting applications, two or more, and only the desk.
#[tokio::test]
async fn rule_d_the_desk_marks_applications_as_made_together_after_the_fact() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "p6", "x1", "y", "x2"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5", "p6"]).await.table.unwrap().table_id;
    let mut applied = Vec::new();
    for player in ["x1", "y", "x2"] {
        applied.push(room.apply(&t1, player).await.application.unwrap().application_id);
    }
    let waiting = |table: &pb::Table| table.queue.iter().map(|a| a.player_id.clone()).collect::<Vec<_>>();
    assert_eq!(waiting(&room.table(&t1).await), ids(&["x1", "y", "x2"]));
    let mark = |applications: &[&String], cards: Vec<pb::PhysicalDrawing>| pb::MarkApplicationsTogetherRequest {
        table_id: t1.clone(),
        application_ids: applications.iter().map(|a| (*a).clone()).collect(),
        server_draw: cards.is_empty(),
        precedence_drawings: cards,
    };

    let one = room.desk.mark_applications_together(mark(&[&applied[0]], vec![])).await.unwrap_err();
    assert_eq!(one.code(), tonic::Code::InvalidArgument, "{one:?}");
    let unknown = "no-such-application".to_owned();
    let missing = room.desk.mark_applications_together(mark(&[&applied[0], &unknown], vec![])).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound, "{missing:?}");
    let by_player = room.player("x1").mark_applications_together(mark(&[&applied[0], &applied[2]], vec![])).await;
    assert_eq!(by_player.unwrap_err().code(), tonic::Code::PermissionDenied);

    let cards = vec![physical("x1", "C2", 10), physical("x2", "SA", 20)];
    let marked =
        room.desk.mark_applications_together(mark(&[&applied[0], &applied[2]], cards)).await.unwrap().into_inner();
    let draw = marked.precedence_draw.unwrap();
    assert_eq!((draw.method, draw.order.clone()), (pb::DrawMethod::Physical as i32, ids(&["x2", "x1"])));
    let table = marked.table.unwrap();
    assert_eq!(waiting(&table), ids(&["x2", "x1", "y"]));
    assert!(table.queue[..2].iter().all(|a| a.precedence_draw_id == draw.draw_id), "{:?}", table.queue);
}
