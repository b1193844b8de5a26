//! The membership service on a real club (Postgres, Redis): the club scenarios of the Rules for
//! Club Procedure end to end, draws that can be audited, watchers that resume without gaps,
//! parallel applicants, a Redis flush, and who may do what.

mod draws;
mod going_out;
mod judgement_calls;
mod next_steps;
mod players;
mod procedure_edges;
mod resilience;
mod tables;
mod walkthrough;
mod watchers;

use std::time::Duration;

use api::common::v1 as common;
use api::membership::v1 as pb;
use e2e::{MembershipClient, TestApp};
use futures::StreamExt;
use platform::auth::Role;
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

/// A card a player drew from the first deck at `position` of the spread, as the desk records it.
fn physical(player: &str, card: &str, position: u32) -> pb::PhysicalDrawing {
    pb::PhysicalDrawing {
        player_id: player.to_owned(),
        card: Some(card.parse::<laws::Card>().unwrap().into()),
        spread_position: position,
        deck: 1,
        more_than_one_card: false,
    }
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
            // These scenarios leave any draw for precedence to the server; the desk's own cards
            // are recorded where a test is about them.
            server_draw: true,
            ..Default::default()
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
            ..Default::default()
        };
        self.player(player).apply_to_table(request).await.unwrap().into_inner()
    }

    async fn apply_together(&mut self, table: &str, players: &[&str]) -> pb::ApplyToTableResponse {
        let request = pb::ApplyToTableRequest {
            table_id: table.to_owned(),
            player_id: players[0].to_owned(),
            together_with_player_ids: ids(&players[1..]),
            server_draw: true,
            ..Default::default()
        };
        self.desk.apply_to_table(request).await.unwrap().into_inner()
    }

    async fn leave_table(&mut self, table: &str, player: &str) -> pb::LeaveTableResponse {
        let request = pb::LeaveTableRequest { table_id: table.to_owned(), player_id: player.to_owned() };
        self.player(player).leave_table(request).await.unwrap().into_inner()
    }

    /// Starts the next rubber, the server making any draw still needed (the desk asks for it).
    async fn start(&mut self, table: &str) -> pb::Rubber {
        let request = pb::StartRubberRequest { table_id: table.to_owned(), server_draw: true, ..Default::default() };
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
