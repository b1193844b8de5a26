//! A front desk's evening, driven from the "what next" view alone: eleven players arrive over the
//! evening at two tables; rubbers end, players cut in, go out and leave, one breaks up a table,
//! one makes a fourth at the other table and returns. The desk never reads an error message:
//! every draw it makes is the one the view names (with physical cards whose outcome the script
//! states), every rubber it starts is the one the view says is ready, and every seating is checked
//! against the Rules for Club Procedure.

use std::collections::VecDeque;

use api::common::v1 as common;
use api::membership::v1 as pb;

use super::{Room, ids, member, physical, playing, sorted};

/// A draw the script expects the view to ask for, and the cards the players then draw.
struct ScriptedDraw {
    purpose: pb::DrawPurpose,
    cards: &'static [(&'static str, &'static str)],
}

/// The desk: the room, and the physical draws the evening will bring, in order.
struct Desk {
    room: Room,
    draws: VecDeque<ScriptedDraw>,
}

fn names(list: &[pb::PlacedPlayer]) -> Vec<String> {
    sorted(list.iter().map(|p| p.player_id.clone()).collect())
}

impl Desk {
    async fn next(&mut self, table: &str) -> pb::NextSteps {
        let request = pb::GetNextStepsRequest { table_id: table.to_owned(), ..Default::default() };
        self.room.desk.get_next_steps(request).await.unwrap().into_inner().next_steps.unwrap()
    }

    /// Forms a table as the view says: no draw needed here (the script's tables form by entry).
    async fn form(&mut self, players: &[&str], first_rubber: &[&str]) -> String {
        let request = pb::GetNextStepsRequest { applicant_player_ids: ids(players), ..Default::default() };
        let view = self.room.desk.get_next_steps(request).await.unwrap().into_inner().next_steps.unwrap();
        assert_eq!(view.step, pb::NextStep::OpenTable as i32, "{view:#?}");
        assert_eq!(names(&view.playing), sorted(ids(first_rubber)), "{view:#?}");
        let open = pb::OpenTableRequest {
            kind: common::TableKind::Rubber as i32,
            applicant_player_ids: ids(players),
            ..Default::default()
        };
        self.room.desk.open_table(open).await.unwrap().into_inner().table.unwrap().table_id
    }

    /// Follows the view at `table` until a rubber is being played there: makes each draw it
    /// names with the script's cards, then starts the rubber it says is ready. Returns the rubber
    /// and the view it started from.
    async fn seat_next_rubber(&mut self, table: &str) -> (pb::Rubber, pb::NextSteps) {
        for _ in 0..8 {
            let view = self.next(table).await;
            match pb::NextStep::try_from(view.step).unwrap() {
                pb::NextStep::Draw => {
                    let needed = view.draw.clone().unwrap();
                    let scripted = self.draws.pop_front().unwrap_or_else(|| panic!("an unscripted draw: {view:#?}"));
                    let drawers: Vec<String> = scripted.cards.iter().map(|(p, _)| (*p).to_owned()).collect();
                    assert_eq!(
                        (needed.purpose, sorted(needed.player_ids.clone())),
                        (scripted.purpose as i32, sorted(drawers.clone())),
                        "the view names the draw the rules call for: {view:#?}"
                    );
                    let drawings = scripted
                        .cards
                        .iter()
                        .enumerate()
                        .map(|(i, (player, card))| physical(player, card, 10 + 10 * i as u32))
                        .collect();
                    let request = pb::RecordPhysicalDrawRequest {
                        table_id: table.to_owned(),
                        draw_id: String::new(),
                        purpose: needed.purpose,
                        player_ids: drawers,
                        drawings,
                    };
                    let draw = self.room.desk.record_physical_draw(request).await.unwrap().into_inner().draw.unwrap();
                    assert_eq!(draw.status, pb::DrawStatus::Complete as i32);
                }
                pb::NextStep::StartRubber => {
                    let request = pb::StartRubberRequest { table_id: table.to_owned(), ..Default::default() };
                    let rubber = self.room.desk.start_rubber(request).await.unwrap().into_inner().rubber.unwrap();
                    assert_eq!(playing(&rubber), names(&view.playing), "the four the view named play: {view:#?}");
                    assert_eq!(self.next(table).await.step, pb::NextStep::PlayRubber as i32);
                    return (rubber, view);
                }
                other => panic!("{table} cannot seat a rubber: {other:?} {view:#?}"),
            }
        }
        panic!("{table}: no rubber after eight steps");
    }

    async fn end(&mut self, table: &str, rubber: &pb::Rubber) {
        self.room.end(table, rubber, true).await;
    }
}

fn script() -> VecDeque<ScriptedDraw> {
    use pb::DrawPurpose::{EntryFromOtherTable, GoingOut, Partnerships};
    let draw = |purpose, cards| ScriptedDraw { purpose, cards };
    VecDeque::from([
        // Table 1's first rubber: a1 and a2 draw the two highest and partner.
        draw(Partnerships, &[("a1", "SA"), ("a2", "SK"), ("a3", "SQ"), ("a4", "SJ")]),
        // Table 2's first rubber.
        draw(Partnerships, &[("a7", "HA"), ("a8", "HK"), ("a9", "HQ"), ("a10", "HJ")]),
        // Table 1, rubber 2: a5 and a6 come in; a1-a4 tie on one rubber each for two places.
        draw(GoingOut, &[("a1", "H2"), ("a2", "HA"), ("a3", "HK"), ("a4", "D3")]),
        draw(Partnerships, &[("a2", "CA"), ("a3", "CK"), ("a5", "CQ"), ("a6", "CJ")]),
        // Table 2, rubber 2: a1 makes the fourth; the four draw for partners.
        draw(Partnerships, &[("a7", "DA"), ("a8", "DK"), ("a9", "DQ"), ("a1", "DJ")]),
        // Table 1, rubber 3: a4 comes in; a2 and a3 (two in a row) tie for one place.
        draw(GoingOut, &[("a2", "C4"), ("a3", "C9")]),
        draw(Partnerships, &[("a3", "SA"), ("a4", "SK"), ("a5", "SQ"), ("a6", "SJ")]),
        // Table 2, rubber 3: a11 comes in, a7-a9 play on.
        draw(Partnerships, &[("a7", "SA"), ("a8", "SK"), ("a9", "SQ"), ("a11", "SJ")]),
        // Table 1, rubber 4: a1 and a2 come in and a3 (three in a row) goes out, so a4 and a6
        // would otherwise have played; a10, from table 2, draws against a6 (two in a row, more
        // than a4's one) for his first rubber here.
        draw(EntryFromOtherTable, &[("a10", "DA"), ("a6", "D2")]),
        draw(Partnerships, &[("a1", "HA"), ("a2", "HK"), ("a4", "HQ"), ("a10", "HJ")]),
    ])
}

/// The Rules for Club Procedure over an evening. Rule C: "The four highest-ranking members play
/// the first rubber." Rule D: "An application establishes membership in a table either forthwith
/// or (if the table is complete) as soon as a vacancy occurs." Rule E: "After each rubber place
/// must be made for any member who did not play that last rubber ... A member who has left
/// another existing table must draw cards, for his first rubber, with the member who would
/// otherwise have played. A player who breaks up a game by leaving three players at a table may
/// not compete against them for entry at another table until each of them has played at least one
/// rubber." Rule F: a member "consents, on request, to make a fourth at another table and
/// announces his intention of returning to his former table as soon as his place at the new table
/// can be filled."
#[tokio::test]
async fn a_front_desk_runs_an_evening_of_eleven_players_from_the_what_next_view() {
    let mut desk = Desk { room: Room::new().await, draws: script() };

    // 19:00 The first five arrive and form table 1; the first four by entry play (rule C).
    desk.room.enter(&["a1", "a2", "a3", "a4", "a5"]).await;
    let t1 = desk.form(&["a1", "a2", "a3", "a4", "a5"], &["a1", "a2", "a3", "a4"]).await;
    let (t1_first, view) = desk.seat_next_rubber(&t1).await;
    assert!(view.sitting_out.iter().any(|p| p.player_id == "a5" && p.reason.contains("rule C")), "{view:#?}");

    // a6 cuts in and completes table 1; a7 waits for a vacancy (rule D).
    desk.room.enter(&["a6", "a7"]).await;
    desk.room.apply(&t1, "a6").await;
    let waiting = desk.room.apply(&t1, "a7").await.application.unwrap();
    assert_eq!((waiting.status, waiting.queue_position), (pb::ApplicationStatus::Waiting as i32, 1));
    assert_eq!(names(&desk.next(&t1).await.waiting), ids(&["a7"]));

    // 19:30 Three more arrive; with a7 they form table 2, and a7's application lapses (rule D).
    desk.room.enter(&["a8", "a9", "a10"]).await;
    let t2 = desk.form(&["a7", "a8", "a9", "a10"], &["a7", "a8", "a9", "a10"]).await;
    assert!(desk.next(&t1).await.waiting.is_empty());
    let (t2_first, _) = desk.seat_next_rubber(&t2).await;

    // Table 1's first rubber ends: a5 and a6 come in, two of a1-a4 go out by the draw (rule E).
    desk.end(&t1, &t1_first).await;
    let (t1_second, view) = desk.seat_next_rubber(&t1).await;
    assert_eq!(playing(&t1_second), ids(&["a2", "a3", "a5", "a6"]));
    assert_eq!(names(&view.sitting_out), ids(&["a1", "a4"]));
    assert!(view.sitting_out.iter().all(|p| p.reason.contains("draw for going out")), "{view:#?}");

    // Table 2's first rubber ends and a10 leaves it, leaving three: he broke up the game (rule E).
    desk.end(&t2, &t2_first).await;
    let left = desk.room.leave_table(&t2, "a10").await;
    assert!(left.breaker_restriction.is_some());
    let view = desk.next(&t2).await;
    assert_eq!((view.step, view.players_needed), (pb::NextStep::WaitForPlayers as i32, 1), "{view:#?}");
    // He applies to table 1, which is complete: he waits.
    let waiting = desk.room.apply(&t1, "a10").await.application.unwrap();
    assert_eq!(waiting.status, pb::ApplicationStatus::Waiting as i32);

    // Table 2's three ask a1, sitting out at table 1, to make a fourth; he announces his return
    // and keeps his place at table 1 (rule F).
    let fourth = pb::MakeFourthRequest { player_id: "a1".into(), host_table_id: t2.clone(), announced_return: true };
    desk.room.player("a1").make_fourth(fourth).await.unwrap();
    assert_eq!(member(&desk.room.table(&t1).await, "a1").away_at_table_id, t2);
    let (t2_second, _) = desk.seat_next_rubber(&t2).await;
    assert_eq!(playing(&t2_second), ids(&["a1", "a7", "a8", "a9"]));

    // 20:15 a11 arrives and cuts in at table 2: a1's place can now be filled, but not while he
    // plays the rubber (rule F).
    desk.room.enter(&["a11"]).await;
    desk.room.apply(&t2, "a11").await;
    assert!(member(&desk.room.table(&t2).await, "a1").playing);

    // Table 1's second rubber ends: a4 comes in; a2 and a3 tie for the place left (rule E). a1
    // is away and does not count for it.
    desk.end(&t1, &t1_second).await;
    let (t1_third, view) = desk.seat_next_rubber(&t1).await;
    assert_eq!(playing(&t1_third), ids(&["a3", "a4", "a5", "a6"]));
    assert!(view.sitting_out.iter().any(|p| p.player_id == "a1" && p.reason.contains("rule F")), "{view:#?}");

    // Table 2's second rubber ends: a1 goes home to table 1, and the three a10 left have each
    // played a rubber, so his restriction is over (rule E).
    desk.end(&t2, &t2_second).await;
    assert!(!desk.room.table(&t2).await.members.iter().any(|m| m.player_id == "a1"));
    assert!(member(&desk.room.table(&t1).await, "a1").away_at_table_id.is_empty());
    assert!(
        desk.room
            .presence("a10")
            .await
            .unwrap()
            .breaker_restrictions
            .iter()
            .all(|r| { r.protected_players.iter().all(|p| p.cleared) })
    );
    let (t2_third, _) = desk.seat_next_rubber(&t2).await;
    assert_eq!(playing(&t2_third), ids(&["a11", "a7", "a8", "a9"]));

    // 21:30 Table 1's third rubber ends and a5 goes home: the vacancy admits a10 from the
    // waiting list (rule D), and he draws for his first rubber against the member who would
    // otherwise have played (rule E).
    desk.end(&t1, &t1_third).await;
    desk.room.leave_room("a5").await;
    let table = desk.room.table(&t1).await;
    assert_eq!(sorted(super::members(&table)), sorted(ids(&["a1", "a2", "a3", "a4", "a6", "a10"])));
    let (t1_fourth, view) = desk.seat_next_rubber(&t1).await;
    assert_eq!(playing(&t1_fourth), ids(&["a1", "a10", "a2", "a4"]));
    assert_eq!(names(&view.sitting_out), ids(&["a3", "a6"]));
    assert!(view.sitting_out.iter().any(|p| p.player_id == "a3" && p.reason.contains("most consecutive")), "{view:#?}");
    assert!(view.sitting_out.iter().any(|p| p.player_id == "a6" && p.reason.contains("draw for entry")), "{view:#?}");
    assert!(desk.draws.is_empty(), "every scripted draw was asked for: {} left", desk.draws.len());
}
