//! A rubber as the desk starts one, for tests that play its deals: four registered players at a
//! table of their own, seated by a physical partnership draw, and the rubber's scorepad. The
//! game and scoring services take a rubber's players, seats, dealer and vulnerability from
//! membership and the pad, so a test's deal must be of a real rubber.

use api::common::v1 as pb;
use api::game::v1 as game;
use api::membership::v1 as membership;
use api::scoring::v1 as scoring;

use crate::{MembershipClient, ScoringClient};

/// A rubber in progress and its pad.
#[derive(Debug, Clone)]
pub struct Lineup {
    /// The membership table, which the game service's table id must be too.
    pub table_id: String,
    /// The rubber.
    pub rubber_id: String,
    /// Its scorepad.
    pub scorepad_id: String,
    /// The players by seat, North, East, South, West.
    pub players: [String; 4],
}

/// The cards the desk records for the partnership draw: North and South draw the two highest
/// (Law 3: partners), North the highest (the first dealer, who sits North); East draws higher
/// than West. Positions avoid the four cards at either end of the spread.
const DRAWN: [(&str, u32); 4] = [("SA", 10), ("S3", 20), ("SK", 30), ("S2", 40)];

impl Lineup {
    /// The setup of the rubber's first deal, played in `mode` (under the Alternative Club Laws
    /// with `club_laws`): North deals, nobody vulnerable, as the new pad's next deal says, with the
    /// players in their seats.
    pub fn first_deal(&self, mode: game::PlayMode, club_laws: bool) -> game::DealSetup {
        game::DealSetup {
            source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
                rubber_id: self.rubber_id.clone(),
                scorepad_id: self.scorepad_id.clone(),
                deal_number: 1,
                club_laws,
            })),
            kind: pb::TableKind::Rubber as i32,
            mode: mode as i32,
            players: laws::Seat::ALL
                .iter()
                .map(|seat| pb::SeatedPlayer {
                    seat: api::convert::ProtoEnum::to_proto(*seat),
                    player_id: self.players[seat.index()].clone(),
                })
                .collect(),
            dealer: pb::Seat::North as i32,
            vulnerability: pb::Vulnerability::None as i32,
            result_only: false,
        }
    }

    /// Registers four new players (`tag` keeps them apart from other tests'), brings them into
    /// the room, opens a table of `kind` for them and starts its first rubber, with its pad.
    pub async fn start(
        desk: &mut MembershipClient,
        pads: &mut ScoringClient,
        kind: pb::TableKind,
        tag: &str,
    ) -> Lineup {
        let players = ["n", "e", "s", "w"].map(|seat| format!("player-{seat}-{tag}"));
        Self::start_for(desk, pads, kind, players).await
    }

    /// As [`Lineup::start`], at a table under the Alternative Club Laws (its `club_laws` option):
    /// every deal of the rubber is played under them (Part VIII).
    pub async fn start_under_club_laws(
        desk: &mut MembershipClient,
        pads: &mut ScoringClient,
        kind: pb::TableKind,
        tag: &str,
    ) -> Lineup {
        let players = ["n", "e", "s", "w"].map(|seat| format!("player-{seat}-{tag}"));
        let options = membership::TableOptions { club_laws: true, ..Default::default() };
        Self::start_with(desk, pads, kind, players, Some(options)).await
    }

    /// As [`Lineup::start`], for players with these ids (North, East, South, West), who must
    /// not be registered yet.
    pub async fn start_for(
        desk: &mut MembershipClient,
        pads: &mut ScoringClient,
        kind: pb::TableKind,
        players: [String; 4],
    ) -> Lineup {
        Self::start_with(desk, pads, kind, players, None).await
    }

    /// As [`Lineup::start_for`], at a table with these club options.
    async fn start_with(
        desk: &mut MembershipClient,
        pads: &mut ScoringClient,
        kind: pb::TableKind,
        players: [String; 4],
        options: Option<membership::TableOptions>,
    ) -> Lineup {
        let tag = players.join("-");
        register(desk, &players).await;
        for id in &players {
            let request = membership::ArriveInRoomRequest { player_id: id.clone() };
            desk.arrive_in_room(request).await.unwrap_or_else(|s| panic!("arrive {id}: {s:?}"));
        }
        let request = membership::OpenTableRequest {
            name: format!("table {tag}"),
            kind: kind as i32,
            options,
            applicant_player_ids: players.to_vec(),
            idempotency_key: String::new(),
            returning_fourth_player_ids: Vec::new(),
            precedence_drawings: Vec::new(),
            server_draw: true,
        };
        let table = desk.open_table(request).await.unwrap_or_else(|s| panic!("open table: {s:?}")).into_inner();
        let table_id = table.table.unwrap_or_else(|| panic!("OpenTable answered without a table")).table_id;
        let mut lineup = Lineup { table_id, rubber_id: String::new(), scorepad_id: String::new(), players };
        lineup.begin_rubber(desk, pads).await;
        lineup
    }

    /// Ends the rubber in progress as unfinished and starts the next at the same table, with
    /// the same seats and a pad of its own: its first deal is dealt by North, nobody vulnerable.
    pub async fn next_rubber(&mut self, desk: &mut MembershipClient, pads: &mut ScoringClient) {
        let request = membership::EndRubberRequest {
            table_id: self.table_id.clone(),
            rubber_id: self.rubber_id.clone(),
            status: membership::RubberStatus::Unfinished as i32,
        };
        desk.end_rubber(request).await.unwrap_or_else(|s| panic!("end rubber: {s:?}"));
        self.begin_rubber(desk, pads).await;
    }

    async fn begin_rubber(&mut self, desk: &mut MembershipClient, pads: &mut ScoringClient) {
        let drawings = DRAWN
            .iter()
            .zip(&self.players)
            .map(|((card, position), player)| membership::PhysicalDrawing {
                player_id: player.clone(),
                card: Some(card.parse::<laws::Card>().unwrap_or_else(|e| panic!("{card}: {e}")).into()),
                spread_position: *position,
                deck: 1,
                more_than_one_card: false,
            })
            .collect();
        let request = membership::RecordPhysicalDrawRequest {
            table_id: self.table_id.clone(),
            draw_id: String::new(),
            purpose: membership::DrawPurpose::Partnerships as i32,
            player_ids: self.players.to_vec(),
            drawings,
        };
        let draw = desk.record_physical_draw(request).await.unwrap_or_else(|s| panic!("draw: {s:?}")).into_inner();
        let draw_id = draw.draw.unwrap_or_else(|| panic!("RecordPhysicalDraw answered without a draw")).draw_id;
        let seats = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];
        let request = membership::StartRubberRequest {
            table_id: self.table_id.clone(),
            partnership_draw_id: draw_id,
            seat_choices: seats
                .iter()
                .zip(&self.players)
                .map(|(seat, player)| pb::SeatedPlayer { seat: *seat as i32, player_id: player.clone() })
                .collect(),
            ..Default::default()
        };
        let rubber = desk.start_rubber(request).await.unwrap_or_else(|s| panic!("start rubber: {s:?}")).into_inner();
        self.rubber_id = rubber.rubber.unwrap_or_else(|| panic!("StartRubber answered without a rubber")).rubber_id;
        let request = scoring::CreateScorepadRequest { rubber_id: self.rubber_id.clone(), ..Default::default() };
        let pad = pads.create_scorepad(request).await.unwrap_or_else(|s| panic!("create pad: {s:?}")).into_inner();
        self.scorepad_id = pad.scorepad.unwrap_or_else(|| panic!("CreateScorepad answered without a pad")).scorepad_id;
    }
}

/// Registers players with these ids (the desk's work before they play anywhere).
pub async fn register(desk: &mut MembershipClient, ids: &[impl AsRef<str>]) {
    for id in ids {
        let id = id.as_ref();
        let request = membership::RegisterPlayerRequest {
            player_id: id.to_owned(),
            name: format!("Player {id}"),
            member_number: format!("M-{id}"),
            contact: None,
            idempotency_key: String::new(),
        };
        match desk.register_player(request).await {
            Ok(_) => {}
            // Registered by an earlier step of the same test: the register keeps one entry.
            Err(status) if status.code() == tonic::Code::AlreadyExists => {}
            Err(status) => panic!("register {id}: {status:?}"),
        }
    }
}

impl crate::TestApp {
    /// Registers the players every contestant of `request` names, so that the session may be
    /// created (scoring checks them with membership).
    pub async fn register_contestants(&self, request: &scoring::CreateSessionRequest) {
        let ids: Vec<&str> = request.contestants.iter().flat_map(|c| c.player_ids.iter().map(String::as_str)).collect();
        register(&mut self.desk_clients().0, &ids).await;
    }

    /// A rubber of `kind` started by the desk for four new players (see [`Lineup::start`]).
    pub async fn lineup(&self, kind: pb::TableKind) -> Lineup {
        let tag = uuid::Uuid::new_v4().simple().to_string();
        let (mut desk, mut pads) = self.desk_clients();
        Lineup::start(&mut desk, &mut pads, kind, &tag).await
    }

    /// A rubber of `kind` started by the desk for four new players at a table under the
    /// Alternative Club Laws (see [`Lineup::start_under_club_laws`]).
    pub async fn lineup_under_club_laws(&self, kind: pb::TableKind) -> Lineup {
        let tag = uuid::Uuid::new_v4().simple().to_string();
        let (mut desk, mut pads) = self.desk_clients();
        Lineup::start_under_club_laws(&mut desk, &mut pads, kind, &tag).await
    }

    /// A rubber of `kind` started by the desk for these four new players, North, East, South,
    /// West (see [`Lineup::start_for`]).
    pub async fn lineup_of(&self, kind: pb::TableKind, players: [&str; 4]) -> Lineup {
        let (mut desk, mut pads) = self.desk_clients();
        Lineup::start_for(&mut desk, &mut pads, kind, players.map(str::to_owned)).await
    }

    /// The desk's membership and scoring clients.
    pub fn desk_clients(&self) -> (MembershipClient, ScoringClient) {
        use platform::auth::Role;
        (self.membership("front-desk", &[Role::Desk]), self.scoring("front-desk", &[Role::Desk]))
    }
}
