//! What happens next at a table, as the desk is shown it (`GetNextSteps`, `Table.next_steps`, and
//! WatchTable's `next_steps_changed`), and the server drawing only when the desk asks for it or
//! the table's option says so.

use api::membership::v1 as pb;

use super::{Room, assert_rule, ids, next_table_event, physical, playing, sorted};

fn who(list: &[pb::PlacedPlayer]) -> Vec<String> {
    sorted(list.iter().map(|p| p.player_id.clone()).collect())
}

fn reason<'a>(list: &'a [pb::PlacedPlayer], player: &str) -> &'a str {
    list.iter().find(|p| p.player_id == player).map_or("", |p| p.reason.as_str())
}

async fn next(room: &mut Room, table: &str) -> pb::NextSteps {
    let request = pb::GetNextStepsRequest { table_id: table.to_owned(), ..Default::default() };
    room.desk.get_next_steps(request).await.unwrap().into_inner().next_steps.unwrap()
}

fn step(next: &pb::NextSteps) -> pb::NextStep {
    pb::NextStep::try_from(next.step).unwrap()
}

fn record(table: &str, purpose: pb::DrawPurpose, cards: Vec<pb::PhysicalDrawing>) -> pb::RecordPhysicalDrawRequest {
    pb::RecordPhysicalDrawRequest {
        table_id: table.to_owned(),
        draw_id: String::new(),
        purpose: purpose as i32,
        player_ids: cards.iter().map(|c| c.player_id.clone()).collect(),
        drawings: cards,
    }
}

/// Rules C and E with Law 3, step by step as the desk sees them. Rule C: "The four
/// highest-ranking members play the first rubber"; rule E: "After each rubber place must be made
/// for any member who did not play that last rubber, by the member who has played the greatest
/// number of consecutive rubbers at that table. Cards are drawn for precedence if necessary";
/// Law 3: "The two players who draw the highest cards play as partners". Each step the view
/// names is the command the service then accepts; a draw it does not name is refused as not
/// needed, and no draw is made by the server unless the desk asks.
#[tokio::test]
async fn the_desk_is_told_each_step_and_the_server_draws_only_when_asked() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;

    // Before the table exists: forming it needs no draw (none has played; rule C orders them by
    // entry), and the view says who plays the first rubber.
    let forming =
        pb::GetNextStepsRequest { applicant_player_ids: ids(&["p1", "p2", "p3", "p4", "p5"]), ..Default::default() };
    let forming = room.desk.get_next_steps(forming).await.unwrap().into_inner().next_steps.unwrap();
    assert_eq!(step(&forming), pb::NextStep::OpenTable, "{forming:#?}");
    assert_eq!(who(&forming.playing), ids(&["p1", "p2", "p3", "p4"]));
    assert_eq!(who(&forming.sitting_out), ids(&["p5"]));
    assert!(!forming.server_draws_automatic);
    // The table's own options, before it exists: only who makes the draws matters yet.
    let automatic =
        pb::TableOptions { server_draws_automatic: true, chicago_swap_vulnerability: true, ..Default::default() };
    let ask = pb::GetNextStepsRequest {
        applicant_player_ids: ids(&["p1", "p2", "p3", "p4", "p5"]),
        options: Some(automatic),
        ..Default::default()
    };
    let with_option = room.desk.get_next_steps(ask).await.unwrap().into_inner().next_steps.unwrap();
    assert!(with_option.server_draws_automatic);
    assert_eq!(who(&with_option.playing), ids(&["p1", "p2", "p3", "p4"]));
    let open = pb::OpenTableRequest {
        kind: api::common::v1::TableKind::Rubber as i32,
        applicant_player_ids: ids(&["p1", "p2", "p3", "p4", "p5"]),
        ..Default::default()
    };
    let table = room.desk.open_table(open).await.unwrap().into_inner().table.unwrap();
    let t1 = table.table_id.clone();

    // The table's view: the draw for partnerships among the four, p5 sitting out by rule C.
    let view = table.next_steps.unwrap();
    assert_eq!(view, next(&mut room, &t1).await, "the table carries the same view GetNextSteps gives");
    assert_eq!(step(&view), pb::NextStep::Draw, "{view:#?}");
    let draw = view.draw.clone().unwrap();
    assert_eq!(
        (draw.purpose, sorted(draw.player_ids.clone())),
        (pb::DrawPurpose::Partnerships as i32, ids(&["p1", "p2", "p3", "p4"]))
    );
    assert!(reason(&view.sitting_out, "p5").contains("rule C"), "{view:#?}");
    assert!(!view.server_draws_automatic);

    // Nothing draws behind the desk's back: starting now is refused, naming the draw.
    let start = pb::StartRubberRequest { table_id: t1.clone(), ..Default::default() };
    let refused = room.desk.start_rubber(start.clone()).await.unwrap_err();
    assert_rule(&refused, "Law 3");
    assert!(refused.message().contains("the draw for partnerships is needed first"), "{refused:?}");
    // A draw the table does not need is refused saying so, and which it does need.
    let going_out = pb::DrawCardsRequest {
        table_id: t1.clone(),
        purpose: pb::DrawPurpose::GoingOut as i32,
        player_ids: ids(&["p1", "p2"]),
    };
    let refused = room.desk.draw_cards(going_out).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition, "{refused:?}");
    assert!(refused.message().contains("is not needed"), "{refused:?}");
    assert!(refused.message().contains("the draw for partnerships"), "{refused:?}");

    // The desk records the four's cards; the view moves to starting the rubber.
    let cards =
        vec![physical("p1", "SA", 10), physical("p2", "C3", 20), physical("p3", "HK", 30), physical("p4", "D9", 40)];
    room.desk.record_physical_draw(record(&t1, pb::DrawPurpose::Partnerships, cards)).await.unwrap();
    let view = next(&mut room, &t1).await;
    assert_eq!(step(&view), pb::NextStep::StartRubber, "{view:#?}");
    assert_eq!(who(&view.playing), ids(&["p1", "p2", "p3", "p4"]));
    let rubber = room.desk.start_rubber(start.clone()).await.unwrap().into_inner().rubber.unwrap();
    assert_eq!(playing(&rubber), ids(&["p1", "p2", "p3", "p4"]));
    assert_eq!(step(&next(&mut room, &t1).await), pb::NextStep::PlayRubber);

    // The rubber ends: a watcher is told the new step as it changes.
    let version = room.table(&t1).await.version;
    let mut stream = room
        .desk
        .watch_table(pb::WatchTableRequest { table_id: t1.clone(), after_sequence: Some(version) })
        .await
        .unwrap()
        .into_inner();
    room.end(&t1, &rubber, true).await;
    let streamed = loop {
        if let Some(pb::table_event::Event::NextStepsChanged(next)) = next_table_event(&mut stream).await.event {
            break next;
        }
    };
    let view = next(&mut room, &t1).await;
    assert_eq!(streamed, view);
    // p5 comes in (rule E); the four tied at one rubber each draw for the three places left.
    assert_eq!(step(&view), pb::NextStep::Draw, "{view:#?}");
    let draw = view.draw.clone().unwrap();
    assert_eq!(
        (draw.purpose, sorted(draw.player_ids.clone())),
        (pb::DrawPurpose::GoingOut as i32, ids(&["p1", "p2", "p3", "p4"]))
    );
    assert!(reason(&view.playing, "p5").contains("did not play the last rubber"), "{view:#?}");
    assert_eq!(who(&view.undecided), ids(&["p1", "p2", "p3", "p4"]));

    // The club's option: the server makes the draws a command needs. StartRubber then draws for
    // going out and for partnerships, each recorded with its committed seed.
    let table = room.table(&t1).await;
    let options = pb::TableOptions { server_draws_automatic: true, ..table.options.clone().unwrap() };
    let update =
        pb::UpdateTableOptionsRequest { table_id: t1.clone(), expected_version: table.version, options: Some(options) };
    room.desk.update_table_options(update).await.unwrap();
    assert!(next(&mut room, &t1).await.server_draws_automatic);
    let second = room.desk.start_rubber(start).await.unwrap().into_inner().rubber.unwrap();
    assert!(playing(&second).contains(&"p5".to_owned()));
    for id in &second.draw_ids {
        assert_eq!(room.draw(id).await.method, pb::DrawMethod::Server as i32);
    }
    assert_eq!(second.draw_ids.len(), 2, "the draws for going out and for partnerships");
}

/// Rule D: "unless applications in excess of the number required to complete a table are made at
/// the same time, in which case precedence between applicants is established by drawing cards".
/// The desk asks before applying: two players applying together for one place need a draw, which
/// is made with cards or when the desk asks the server; without either it is refused.
#[tokio::test]
async fn rule_d_the_desk_is_told_that_applications_made_together_need_a_draw() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5", "x1", "x2"]).await;
    let t1 = room.open(&["p1", "p2", "p3", "p4", "p5"]).await.table.unwrap().table_id;

    let ask = pb::GetNextStepsRequest { table_id: t1.clone(), applicant_player_ids: ids(&["x1", "x2"]), options: None };
    let view = room.desk.get_next_steps(ask).await.unwrap().into_inner().next_steps.unwrap();
    assert_eq!(step(&view), pb::NextStep::Draw, "{view:#?}");
    let draw = view.draw.unwrap();
    assert_eq!((draw.purpose, sorted(draw.player_ids)), (pb::DrawPurpose::Precedence as i32, ids(&["x1", "x2"])));
    assert!(draw.law.unwrap().text.contains("rule D"));

    let apply = |server_draw: bool| pb::ApplyToTableRequest {
        table_id: t1.clone(),
        player_id: "x1".into(),
        together_with_player_ids: ids(&["x2"]),
        server_draw,
        ..Default::default()
    };
    let refused = room.desk.apply_to_table(apply(false)).await.unwrap_err();
    assert_rule(&refused, "rule D");
    assert!(refused.message().contains("x1") && refused.message().contains("x2"), "{refused:?}");
    let applied = room.desk.apply_to_table(apply(true)).await.unwrap().into_inner();
    let draw = applied.precedence_draw.unwrap();
    assert_eq!(draw.method, pb::DrawMethod::Server as i32);
    let table = applied.table.unwrap();
    assert_eq!(table.members.len(), 6);
    assert_eq!(table.queue.len(), 1, "the lower card waits");
    assert_eq!(table.queue[0].player_id, draw.order[1]);

    // One player alone applying needs no draw: the view says so, with where he would stand.
    let ask = pb::GetNextStepsRequest { table_id: t1.clone(), applicant_player_ids: ids(&["p1"]), options: None };
    let refused = room.desk.get_next_steps(ask).await.unwrap_err();
    assert_rule(&refused, "rule D");
}
