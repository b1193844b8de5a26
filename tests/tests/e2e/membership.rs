//! The membership service on a real club (Postgres, Redis): the club scenarios of the Rules for
//! Club Procedure end to end, draws that can be audited, watchers that resume without gaps,
//! parallel applicants, a Redis flush, and who may do what.

use std::collections::BTreeSet;
use std::time::Duration;

use api::common::v1 as common;
use api::membership::v1 as pb;
use e2e::{MembershipClient, TestApp};
use futures::StreamExt;
use platform::auth::Role;
use platform::live::LiveStore;
use tonic::Code;

/// A club room driven through the service as the desk and the players drive it.
struct Room {
    app: TestApp,
    desk: MembershipClient,
}

fn ids(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

fn members(table: &pb::Table) -> Vec<String> {
    table.members.iter().map(|m| m.player_id.clone()).collect()
}

fn queue(table: &pb::Table) -> Vec<String> {
    table.queue.iter().map(|a| a.player_id.clone()).collect()
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn member<'a>(table: &'a pb::Table, player: &str) -> &'a pb::Member {
    table
        .members
        .iter()
        .find(|m| m.player_id == player)
        .unwrap_or_else(|| panic!("{player} is not a member: {table:#?}"))
}

fn playing(rubber: &pb::Rubber) -> Vec<String> {
    sorted(rubber.seats.iter().map(|s| s.player_id.clone()).collect())
}

fn assert_rule(status: &tonic::Status, rule: &str) {
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains(rule), "{rule} not named in {:?}", status.message());
    assert!(status.metadata().get("x-bridge-law").is_some(), "the Law travels in metadata too: {status:?}");
}

impl Room {
    async fn new() -> Room {
        let app = TestApp::spawn().await;
        let desk = app.membership("front-desk", &[Role::Desk]);
        Room { app, desk }
    }

    /// A player's own client: his token's subject is his id.
    fn player(&self, id: &str) -> MembershipClient {
        self.app.membership(id, &[Role::Player])
    }

    async fn register(&mut self, id: &str) {
        let request = pb::RegisterPlayerRequest {
            player_id: id.to_owned(),
            name: format!("Player {id}"),
            member_number: format!("M-{id}"),
            contact: Some(pb::Contact { email: format!("{id}@club.example"), phone: String::new() }),
            idempotency_key: String::new(),
        };
        self.desk.register_player(request).await.unwrap();
    }

    async fn arrive(&mut self, id: &str) -> pb::Presence {
        let response = self.player(id).arrive_in_room(pb::ArriveInRoomRequest { player_id: id.to_owned() }).await;
        response.unwrap().into_inner().presence.unwrap()
    }

    /// Registers and brings in the players, in this order of entry into the room.
    async fn enter(&mut self, names: &[&str]) {
        for name in names {
            self.register(name).await;
            self.arrive(name).await;
        }
    }

    async fn leave_room(&mut self, id: &str) -> pb::LeaveRoomResponse {
        self.player(id).leave_room(pb::LeaveRoomRequest { player_id: id.to_owned() }).await.unwrap().into_inner()
    }

    async fn open(&mut self, names: &[&str]) -> pb::OpenTableResponse {
        self.open_with(names, common::TableKind::Rubber, pb::TableOptions::default()).await.unwrap()
    }

    async fn open_with(
        &mut self,
        names: &[&str],
        kind: common::TableKind,
        options: pb::TableOptions,
    ) -> Result<pb::OpenTableResponse, tonic::Status> {
        let request = pb::OpenTableRequest {
            name: String::new(),
            kind: kind as i32,
            options: Some(options),
            applicant_player_ids: ids(names),
            idempotency_key: String::new(),
        };
        self.desk.open_table(request).await.map(|r| r.into_inner())
    }

    async fn table(&mut self, id: &str) -> pb::Table {
        self.desk.get_table(pb::GetTableRequest { table_id: id.to_owned() }).await.unwrap().into_inner().table.unwrap()
    }

    async fn apply(&mut self, table: &str, player: &str) -> pb::ApplyToTableResponse {
        let request = pb::ApplyToTableRequest {
            table_id: table.to_owned(),
            player_id: player.to_owned(),
            together_with_player_ids: vec![],
        };
        self.player(player).apply_to_table(request).await.unwrap().into_inner()
    }

    async fn apply_together(&mut self, table: &str, players: &[&str]) -> pb::ApplyToTableResponse {
        let request = pb::ApplyToTableRequest {
            table_id: table.to_owned(),
            player_id: players[0].to_owned(),
            together_with_player_ids: ids(&players[1..]),
        };
        self.desk.apply_to_table(request).await.unwrap().into_inner()
    }

    async fn leave_table(&mut self, table: &str, player: &str) -> pb::LeaveTableResponse {
        let request = pb::LeaveTableRequest { table_id: table.to_owned(), player_id: player.to_owned() };
        self.player(player).leave_table(request).await.unwrap().into_inner()
    }

    async fn start(&mut self, table: &str) -> pb::Rubber {
        let request = pb::StartRubberRequest { table_id: table.to_owned(), ..Default::default() };
        self.desk.start_rubber(request).await.unwrap().into_inner().rubber.unwrap()
    }

    async fn end(&mut self, table: &str, rubber: &pb::Rubber, finished: bool) -> pb::EndRubberResponse {
        let status = if finished { pb::RubberStatus::Finished } else { pb::RubberStatus::Unfinished };
        let request = pb::EndRubberRequest {
            table_id: table.to_owned(),
            rubber_id: rubber.rubber_id.clone(),
            status: status as i32,
        };
        self.desk.end_rubber(request).await.unwrap().into_inner()
    }

    async fn draw(&mut self, id: &str) -> pb::Draw {
        self.desk.get_draw(pb::GetDrawRequest { draw_id: id.to_owned() }).await.unwrap().into_inner().draw.unwrap()
    }

    /// The draws that made a rubber's line-up, by purpose.
    async fn draws_of(&mut self, rubber: &pb::Rubber, purpose: pb::DrawPurpose) -> Vec<pb::Draw> {
        let mut found = Vec::new();
        for id in &rubber.draw_ids {
            let draw = self.draw(id).await;
            if draw.purpose == purpose as i32 {
                found.push(draw);
            }
        }
        found
    }

    async fn presence(&mut self, id: &str) -> Option<pb::Presence> {
        let request = pb::GetPlayerRequest { player_id: id.to_owned() };
        self.desk.get_player(request).await.unwrap().into_inner().presence
    }
}

/// The going out an ended rubber brought.
fn going_out(end: &pb::EndRubberResponse) -> (Vec<String>, Vec<String>, Vec<String>) {
    let g = end.going_out.clone().unwrap_or_default();
    (sorted(g.coming_in_player_ids), sorted(g.going_out_player_ids), sorted(g.tied_player_ids))
}

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
        })
        .await
        .unwrap()
        .into_inner()
        .rubber
        .unwrap();
    assert_eq!(rubber.first_dealer, common::Seat::West as i32);
    assert!(rubber.draw_ids.contains(&partnerships.draw_id), "the draw made before is the one used");
}

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

/// Replays a server draw from its revealed seed with the laws' server draw (the players in the
/// order given; p1..p5 were registered in order, so their register numbers are 1..5) and checks
/// it gives every card the service recorded.
fn assert_replays(draw: &pb::Draw) {
    let number = |id: &str| -> u64 { id.trim_start_matches('p').parse().unwrap() };
    let players: Vec<laws::draw::PlayerId> = draw.player_ids.iter().map(|p| laws::draw::PlayerId(number(p))).collect();
    let seed: [u8; 32] = draw.seed.clone().try_into().expect("a 32-byte seed");
    let spread = laws::draw::Spread::server_draw(laws::draw::Deck::First, &laws::draw::DrawSeed(seed), &players);
    let replayed: Vec<(u64, String, u32)> = spread
        .unwrap()
        .drawn()
        .iter()
        .map(|d| (d.player.0, d.card.to_string(), u32::from(d.position.index())))
        .collect();
    let recorded: Vec<(u64, String, u32)> = draw
        .drawings
        .iter()
        .map(|d| (number(&d.player_id), laws::Card::try_from(d.card.unwrap()).unwrap().to_string(), d.spread_position))
        .collect();
    assert_eq!(replayed, recorded, "draw {} replays from its seed", draw.draw_id);
}

/// [`assert_replays`] for players registered in the order of `registered` (numbers 1, 2, ...).
fn assert_replays_by_name(draw: &pb::Draw, registered: &[&str]) {
    let number = |id: &str| -> u64 { registered.iter().position(|r| *r == id).expect("registered") as u64 + 1 };
    let players: Vec<laws::draw::PlayerId> = draw.player_ids.iter().map(|p| laws::draw::PlayerId(number(p))).collect();
    let seed: [u8; 32] = draw.seed.clone().try_into().expect("a 32-byte seed");
    let spread = laws::draw::Spread::server_draw(laws::draw::Deck::First, &laws::draw::DrawSeed(seed), &players);
    let replayed: Vec<(u64, String)> =
        spread.unwrap().drawn().iter().map(|d| (d.player.0, d.card.to_string())).collect();
    let recorded: Vec<(u64, String)> = draw
        .drawings
        .iter()
        .map(|d| (number(&d.player_id), laws::Card::try_from(d.card.unwrap()).unwrap().to_string()))
        .collect();
    assert_eq!(replayed, recorded, "draw {} replays from its seed", draw.draw_id);
}

/// Whether `bytes` (a response or event as it went over the wire) holds `seed` anywhere.
fn holds(bytes: &[u8], seed: &[u8]) -> bool {
    bytes.windows(seed.len()).any(|w| w == seed)
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

async fn next_table_event(stream: &mut tonic::Streaming<pb::WatchTableResponse>) -> pb::TableEvent {
    // A guard against a hang, not an assertion about speed.
    let next = tokio::time::timeout(Duration::from_secs(60), stream.next()).await;
    next.expect("no table event within a minute").expect("the stream ended").unwrap().event.unwrap()
}

async fn next_room_event(stream: &mut tonic::Streaming<pb::WatchRoomResponse>) -> pb::RoomEvent {
    let next = tokio::time::timeout(Duration::from_secs(60), stream.next()).await;
    next.expect("no room event within a minute").expect("the stream ended").unwrap().event.unwrap()
}

/// Reads events until one with `sequence`, checking that they come one by one.
async fn table_events_until(
    stream: &mut tonic::Streaming<pb::WatchTableResponse>,
    from: u64,
    to: u64,
) -> Vec<pb::TableEvent> {
    let mut events = Vec::new();
    let mut expected = from;
    while expected <= to {
        let event = next_table_event(stream).await;
        assert_eq!(event.sequence, expected, "in order, without gaps or repeats");
        events.push(event);
        expected += 1;
    }
    events
}

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
            let request =
                pb::ApplyToTableRequest { table_id: t1, player_id: a.clone(), together_with_player_ids: vec![] };
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
async fn a_player_acts_and_sees_only_for_himself() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    room.register("p6").await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let mut p5 = room.player("p5");

    let denied = p5.arrive_in_room(pb::ArriveInRoomRequest { player_id: "p6".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5
        .apply_to_table(pb::ApplyToTableRequest { table_id: t1.clone(), player_id: "p6".into(), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5
        .apply_to_table(pb::ApplyToTableRequest {
            table_id: t1.clone(),
            player_id: "p5".into(),
            together_with_player_ids: ids(&["p6"]),
        })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied =
        p5.leave_table(pb::LeaveTableRequest { table_id: t1.clone(), player_id: "p1".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5.leave_room(pb::LeaveRoomRequest { player_id: "p1".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    // Running the room is the desk's: the contract refuses a player before the handler.
    let denied = p5.open_table(pb::OpenTableRequest::default()).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5.start_rubber(pb::StartRubberRequest { table_id: t1.clone(), ..Default::default() }).await;
    assert_eq!(denied.unwrap_err().code(), Code::PermissionDenied);
    // Nothing changed.
    assert_eq!(members(&room.table(&t1).await), ids(&["p1", "p2", "p3", "p4"]));
    assert!(room.presence("p6").await.is_none());

    // For himself he may; and he sees rosters, but not how the club reaches other players.
    let mine = p5
        .apply_to_table(pb::ApplyToTableRequest { table_id: t1.clone(), player_id: "p5".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(mine.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    let other = p5.get_player(pb::GetPlayerRequest { player_id: "p1".into() }).await.unwrap().into_inner();
    assert!(other.player.unwrap().contact.is_none());
    let own = p5.get_player(pb::GetPlayerRequest { player_id: "p5".into() }).await.unwrap().into_inner();
    assert_eq!(own.player.unwrap().contact.unwrap().email, "p5@club.example");
    let roster = p5.get_table(pb::GetTableRequest { table_id: t1.clone() }).await.unwrap().into_inner();
    assert_eq!(roster.table.unwrap().members.len(), 5);
}

#[tokio::test]
async fn refusals_name_the_rule_and_nothing_is_half_applied() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4"]).await;
    room.register("p5").await;
    // Three applicants do not form a table (rule C); a player not in the room cannot apply.
    let status = room.open_with(&["p1", "p2", "p3"], common::TableKind::Rubber, Default::default()).await.unwrap_err();
    assert_rule(&status, "rule C");
    let status =
        room.open_with(&["p1", "p2", "p3", "p5"], common::TableKind::Rubber, Default::default()).await.unwrap_err();
    assert_rule(&status, "rule C");
    assert!(status.message().contains("player p5 is not in the room"), "{status:?}");
    let status = room.open_with(&["p1", "p2", "p3", "nobody"], common::TableKind::Rubber, Default::default()).await;
    assert_eq!(status.unwrap_err().code(), Code::NotFound);
    let status = room.open_with(&["p1", "p2", "p3", "p4"], common::TableKind::Duplicate, Default::default()).await;
    assert_eq!(status.unwrap_err().code(), Code::InvalidArgument);
    let tables = room.desk.list_tables(pb::ListTablesRequest { include_closed: true, page: None }).await.unwrap();
    assert!(tables.into_inner().tables.is_empty(), "no table was half-opened");

    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let rubber = room.start(&t1).await;
    // A rubber in progress must be ended before the table closes.
    let status = room.desk.close_table(pb::CloseTableRequest { table_id: t1.clone(), reason: String::new() }).await;
    assert_rule(&status.unwrap_err(), "rule E");
    let status = room.desk.start_rubber(pb::StartRubberRequest { table_id: t1.clone(), ..Default::default() }).await;
    assert_rule(&status.unwrap_err(), "rule E");
    // The game or scoring service may report the end twice: the second changes nothing.
    let ended = room.end(&t1, &rubber, false).await;
    let again = room.end(&t1, &rubber, true).await;
    assert_eq!(again.rubber, ended.rubber, "the rubber's end is recorded once");
    assert_eq!(ended.rubber.unwrap().status, pb::RubberStatus::Unfinished as i32);

    // Closing: memberships end, no breaker restriction, the table keeps its record.
    let closed =
        room.desk.close_table(pb::CloseTableRequest { table_id: t1.clone(), reason: "the evening ends".into() });
    let closed = closed.await.unwrap().into_inner().table.unwrap();
    assert_eq!(closed.status, pb::TableStatus::Closed as i32);
    assert!(closed.members.is_empty());
    assert!(room.presence("p1").await.unwrap().breaker_restrictions.is_empty());
    assert_eq!(room.table(&t1).await.status, pb::TableStatus::Closed as i32);
    let status = room.desk.apply_to_table(pb::ApplyToTableRequest {
        table_id: t1.clone(),
        player_id: "p1".into(),
        ..Default::default()
    });
    assert_eq!(status.await.unwrap_err().code(), Code::FailedPrecondition);
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
async fn the_register_keeps_one_entry_per_player_and_updates_by_version() {
    let mut room = Room::new().await;
    let register = |id: &str, number: &str, key: &str| pb::RegisterPlayerRequest {
        player_id: id.to_owned(),
        name: format!("Player {id}"),
        member_number: number.to_owned(),
        contact: None,
        idempotency_key: key.to_owned(),
    };
    // No id: the service assigns one; a retry with the same key registers nobody twice.
    let first = room.desk.register_player(register("", "", "walk-in-1")).await.unwrap().into_inner();
    let again = room.desk.register_player(register("", "", "walk-in-1")).await.unwrap().into_inner();
    assert_eq!(first, again);
    let assigned = first.player.unwrap();
    assert!(!assigned.player_id.is_empty() && assigned.active && assigned.version == 1);

    room.desk.register_player(register("ann", "M-1", "")).await.unwrap();
    let taken = room.desk.register_player(register("ann", "M-2", "")).await.unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    assert!(taken.message().contains("player_id"), "{taken:?}");
    let taken = room.desk.register_player(register("bob", "M-1", "")).await.unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    assert!(taken.message().contains("member_number"), "{taken:?}");
    let nameless = pb::RegisterPlayerRequest { name: " ".into(), ..register("cat", "", "") };
    assert_eq!(room.desk.register_player(nameless).await.unwrap_err().code(), Code::InvalidArgument);

    // Updates name the version they read; a stale one is ABORTED.
    let update = |version: u64, active: bool| pb::UpdatePlayerRequest {
        player_id: "ann".into(),
        expected_version: version,
        name: "Ann Smith".into(),
        member_number: "M-1".into(),
        contact: Some(pb::Contact { email: "ann@club.example".into(), phone: String::new() }),
        active,
    };
    let updated = room.desk.update_player(update(1, true)).await.unwrap().into_inner().player.unwrap();
    assert_eq!((updated.name.as_str(), updated.version), ("Ann Smith", 2));
    assert_eq!(room.desk.update_player(update(1, true)).await.unwrap_err().code(), Code::Aborted);

    // An inactive player cannot arrive; a player in the room is not made inactive.
    room.arrive("ann").await;
    let status = room.desk.update_player(update(2, false)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    room.leave_room("ann").await;
    room.desk.update_player(update(2, false)).await.unwrap();
    let status = room.player("ann").arrive_in_room(pb::ArriveInRoomRequest { player_id: "ann".into() }).await;
    assert_eq!(status.unwrap_err().code(), Code::FailedPrecondition);

    // The register by name; inactive players only when asked for.
    let list = |name: &str, include_inactive: bool| pb::ListPlayersRequest {
        name_contains: name.into(),
        include_inactive,
        page: Some(common::PageRequest { page_size: 1, page_token: String::new() }),
    };
    let active = room.desk.list_players(list("", false)).await.unwrap().into_inner();
    assert_eq!(active.players.len(), 1);
    assert_eq!(active.players[0].player_id, assigned.player_id);
    assert!(active.page.unwrap().next_page_token.is_empty());
    let smith = room.desk.list_players(list("SMITH", true)).await.unwrap().into_inner();
    assert_eq!(smith.players.iter().map(|p| p.player_id.as_str()).collect::<Vec<_>>(), ["ann"]);
    let all = room.desk.list_players(list("", true)).await.unwrap().into_inner();
    assert_eq!(all.players.len(), 1);
    let next = all.page.unwrap().next_page_token;
    assert!(!next.is_empty(), "a second page");
    let request =
        pb::ListPlayersRequest { page: Some(common::PageRequest { page_size: 1, page_token: next }), ..list("", true) };
    let second = room.desk.list_players(request).await.unwrap().into_inner();
    assert_eq!(second.players.len(), 1);
}

fn physical(player: &str, card: &str, position: u32) -> pb::PhysicalDrawing {
    pb::PhysicalDrawing {
        player_id: player.to_owned(),
        card: Some(card.parse::<laws::Card>().unwrap().into()),
        spread_position: position,
        deck: 1,
        more_than_one_card: false,
    }
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
    assert!(wrong.message().contains("player p4"), "{wrong:?}");
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
