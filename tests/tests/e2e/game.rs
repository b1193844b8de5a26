//! The game service on a real server: complete deals in both modes, irregularities rectified
//! (Laws 27, 31, 45C4(b), 45D, 46, 47, 50, 54, 62, 64), a disputed claim adjudicated, per-seat
//! privacy of every streamed event and of the options of a decision, durability through a Redis
//! flush and a server restart, racing clients, and the result of every finished deal reaching
//! scoring through the outbox. A disputed rubber claim is played on under Laws 69 and 70B.

mod auction;
mod claim_play;
mod dealing;
mod delivery;
mod durability;
mod face_down;
mod play;
mod privacy;
mod results;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::lineup::Lineup;
use e2e::{GameClient, TestApp};
use futures::StreamExt;
use laws::{Card, CardSet, Seat};
use platform::auth::Role;
use tonic::Status;

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn pcall(call: &str) -> pb::Call {
    call.parse::<laws::Call>().unwrap().into()
}

fn pcard(card: &str) -> pb::Card {
    card.parse::<Card>().unwrap().into()
}

fn seat_of(raw: i32) -> Seat {
    Seat::from_proto("seat", raw).unwrap()
}

fn cards(hand: &pb::SeatHand) -> CardSet {
    CardSet::try_from(hand.hand.clone().unwrap_or_default()).unwrap()
}

fn hand(view: &game::TableView, seat: Seat) -> Option<CardSet> {
    view.hands.iter().find(|h| seat_of(h.seat) == seat).map(cards)
}

/// The first deal of `lineup`'s rubber (or, with `club_laws`, under the Alternative Club Laws):
/// North deals, nobody vulnerable, as its pad's next deal says.
fn rubber(lineup: &Lineup, mode: game::PlayMode, club_laws: bool) -> game::DealSetup {
    lineup.first_deal(mode, club_laws)
}

/// A duplicate board's setup for pair 1 (North-South) against pair 2; dealer and vulnerability
/// come from the board number.
fn board(players: &[String; 4], mode: game::PlayMode, session: &str, number: u32) -> game::DealSetup {
    game::DealSetup {
        source: Some(game::deal_setup::Source::Board(game::DuplicateBoard {
            session_id: session.to_owned(),
            board_number: number,
            north_south_contestant_id: "1".to_owned(),
            east_west_contestant_id: "2".to_owned(),
        })),
        kind: pb::TableKind::Duplicate as i32,
        mode: mode as i32,
        players: seated(players),
        dealer: 0,
        vulnerability: 0,
        result_only: false,
    }
}

/// A pairs session in the scoring service with these boards (and the hands of those given),
/// and pairs 1 and 2.
async fn session(app: &TestApp, boards: &[(u32, Option<&str>)]) -> String {
    use api::scoring::v1 as scoring;
    let request = scoring::CreateSessionRequest {
        name: format!("pairs {}", key()),
        contestant_kind: scoring::ContestantKind::Pairs as i32,
        scoring_method: scoring::ScoringMethod::Matchpoints as i32,
        boards: boards
            .iter()
            .map(|(number, hands)| scoring::Board {
                number: *number,
                dealer: 0,
                vulnerability: 0,
                deal: hands.map(|pbn| pbn.parse::<laws::Deal>().unwrap().into()),
                released: false,
            })
            .collect(),
        contestants: ["1", "2"]
            .map(|id| scoring::Contestant { contestant_id: id.to_owned(), ..Default::default() })
            .to_vec(),
    };
    let created = app.scoring("front-desk", &[Role::Desk]).create_session(request).await.unwrap().into_inner();
    created.session.unwrap().session_id
}

fn seated(players: &[String; 4]) -> Vec<pb::SeatedPlayer> {
    Seat::ALL.iter().map(|s| pb::SeatedPlayer { seat: s.to_proto(), player_id: players[s.index()].clone() }).collect()
}

/// North: S AKQJ H T98 D 765 C 432; East: S T98 H 765 D 432 C AKQJ; South: S 765 H 432 D AKQJ
/// C T98; West: S 432 H AKQJ D T98 C 765.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

/// One table of a test, with its four players.
pub(crate) struct Table<'a> {
    app: &'a TestApp,
    pub(crate) id: String,
    pub(crate) players: [String; 4],
    /// The rubber in progress, for a table the desk seated for rubber bridge.
    lineup: std::sync::Mutex<Option<Lineup>>,
}

impl<'a> Table<'a> {
    /// A table for duplicate boards, whose players the desk names when it starts a board.
    fn new(app: &'a TestApp) -> Table<'a> {
        let tag = uuid::Uuid::new_v4().simple().to_string();
        let players = ["n", "e", "s", "w"].map(|s| format!("player-{s}-{tag}"));
        Table { app, id: format!("table-{tag}"), players, lineup: std::sync::Mutex::new(None) }
    }

    /// A rubber bridge table: four players the desk registered, seated North, East, South and
    /// West by the draw, with the rubber's scorepad.
    async fn seated(app: &'a TestApp) -> Table<'a> {
        let lineup = app.lineup(pb::TableKind::Rubber).await;
        let (id, players) = (lineup.table_id.clone(), lineup.players.clone());
        Table { app, id, players, lineup: std::sync::Mutex::new(Some(lineup)) }
    }

    /// As [`Table::seated`], at a table under the Alternative Club Laws (Part VIII).
    async fn seated_under_club_laws(app: &'a TestApp) -> Table<'a> {
        let lineup = app.lineup_under_club_laws(pb::TableKind::Rubber).await;
        let (id, players) = (lineup.table_id.clone(), lineup.players.clone());
        Table { app, id, players, lineup: std::sync::Mutex::new(Some(lineup)) }
    }

    fn lineup(&self) -> Lineup {
        let lineup = self.lineup.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lineup.clone().unwrap_or_else(|| panic!("table {} was not seated for a rubber", self.id))
    }

    /// The first deal of the table's rubber in progress (see [`rubber`]).
    fn rubber(&self, mode: game::PlayMode, club_laws: bool) -> game::DealSetup {
        rubber(&self.lineup(), mode, club_laws)
    }

    /// Ends the rubber in progress and starts the next, with the same seats and a new pad.
    async fn next_rubber(&self) {
        let mut lineup = self.lineup();
        let (mut desk, mut pads) = self.app.desk_clients();
        lineup.next_rubber(&mut desk, &mut pads).await;
        *self.lineup.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(lineup);
    }

    fn player(&self, seat: Seat) -> GameClient {
        self.app.game(&self.players[seat.index()], &[Role::Player])
    }

    fn desk(&self) -> GameClient {
        self.app.game("front-desk", &[Role::Desk])
    }

    fn arbiter(&self) -> GameClient {
        self.app.game("the-arbiter", &[Role::Arbiter])
    }

    /// Deal `deal_id`'s record as the arbiter reads it (every hand and irregularity).
    async fn deal_record(&self, deal_id: &str) -> game::DealRecord {
        let request = game::GetDealRecordRequest { deal_id: deal_id.to_owned() };
        self.arbiter().get_deal_record(request).await.unwrap().into_inner().record.unwrap()
    }

    async fn view(&self) -> game::TableView {
        self.view_as(&mut self.arbiter()).await
    }

    pub(crate) async fn view_as(&self, client: &mut GameClient) -> game::TableView {
        let request = game::GetTableStateRequest { table_id: self.id.clone() };
        client.get_table_state(request).await.unwrap().into_inner().view.unwrap()
    }

    pub(crate) async fn version(&self) -> u64 {
        self.view().await.version
    }

    async fn start(&self, setup: game::DealSetup, hands: Option<&str>) -> game::TableView {
        if let Some(game::deal_setup::Source::Board(board)) = &setup.source {
            self.assign(board).await;
        }
        let request = game::StartDealRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            setup: Some(setup),
            hands: hands.map(|p| game::start_deal_request::Hands::DealPbn(p.to_owned())),
        };
        self.desk().start_deal(request).await.unwrap().into_inner().view.unwrap()
    }

    /// The desk sends this table to `board` in the session's movement (duplicate Law 8A).
    async fn assign(&self, board: &game::DuplicateBoard) {
        use api::scoring::v1 as scoring;
        let request = scoring::AssignTablesRequest {
            session_id: board.session_id.clone(),
            assignments: vec![scoring::TableAssignment {
                table_id: self.id.clone(),
                board_number: board.board_number,
                north_south_contestant_id: board.north_south_contestant_id.clone(),
                east_west_contestant_id: board.east_west_contestant_id.clone(),
            }],
        };
        self.app.scoring("front-desk", &[Role::Desk]).assign_tables(request).await.unwrap();
    }

    async fn call_as(&self, client: &mut GameClient, seat: Seat, call: &str) -> Result<game::TableView, Status> {
        let request = game::MakeCallRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            seat: seat.to_proto(),
            call: Some(pcall(call)),
            artificial: None,
        };
        Ok(client.make_call(request).await?.into_inner().view.unwrap())
    }

    async fn call(&self, seat: Seat, call: &str) -> game::TableView {
        self.call_as(&mut self.desk(), seat, call).await.unwrap_or_else(|s| panic!("{seat} {call}: {s:?}"))
    }

    async fn calls(&self, calls: &[(Seat, &str)]) -> game::TableView {
        let mut view = None;
        for (seat, call) in calls {
            view = Some(self.call(*seat, call).await);
        }
        view.unwrap()
    }

    pub(crate) async fn play_as(
        &self,
        client: &mut GameClient,
        seat: Seat,
        card: &str,
    ) -> Result<game::TableView, Status> {
        let request = game::PlayCardRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(pcard(card)),
            face_down: false,
        };
        Ok(client.play_card(request).await?.into_inner().view.unwrap())
    }

    async fn play(&self, seat: Seat, card: &str) -> game::TableView {
        self.play_as(&mut self.desk(), seat, card).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"))
    }

    async fn record(
        &self,
        client: &mut GameClient,
        fact: game::IrregularityFact,
        pointed_out_by: Option<Seat>,
    ) -> Result<game::RecordIrregularityResponse, Status> {
        let request = game::RecordIrregularityRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            fact: Some(fact),
            pointed_out_by: pointed_out_by.map_or(0, Seat::to_proto),
        };
        Ok(client.record_irregularity(request).await?.into_inner())
    }

    /// Records, from the table device, an irregularity whose detail is one card.
    async fn record_card_fact(
        &self,
        kind: game::IrregularityKind,
        offender: Seat,
        card: &str,
        pointed_out_by: Option<Seat>,
    ) -> Result<game::RecordIrregularityResponse, Status> {
        let fact = game::IrregularityFact { card: Some(pcard(card)), ..fact(kind, offender) };
        self.record(&mut self.desk(), fact, pointed_out_by).await
    }

    /// Chooses the option of kind `kind` of the open decision.
    async fn choose(
        &self,
        client: &mut GameClient,
        kind: &str,
        chooser: Option<Seat>,
        call: Option<&str>,
    ) -> Result<game::ChooseRectificationResponse, Status> {
        let view = self.view().await;
        let decision = view.pending_decisions.first().unwrap_or_else(|| panic!("no decision open for {kind}"));
        let option = decision.options.iter().find(|o| o.kind == kind).unwrap_or_else(|| {
            panic!("{kind} not offered: {:?}", decision.options.iter().map(|o| &o.kind).collect::<Vec<_>>())
        });
        let request = game::ChooseRectificationRequest {
            table_id: self.id.clone(),
            expected_version: view.version,
            idempotency_key: key(),
            decision_id: decision.decision_id.clone(),
            option_id: option.option_id.clone(),
            chooser_seat: chooser.map_or(0, Seat::to_proto),
            call: call.map(pcall),
            artificial: None,
        };
        Ok(client.choose_rectification(request).await?.into_inner())
    }

    /// The arbiter resolves every open call.
    async fn resolve_calls(&self) {
        let view = self.view().await;
        for call in view.open_arbiter_calls {
            let request = game::ResolveArbiterCallRequest {
                table_id: self.id.clone(),
                expected_version: self.version().await,
                idempotency_key: key(),
                arbiter_call_id: call.arbiter_call_id.clone(),
                resolution: "explained the options".into(),
            };
            self.arbiter().resolve_arbiter_call(request).await.unwrap();
        }
    }

    /// Plays the deal out, each hand a legal card (the lowest of the suit led, or the lowest
    /// card), by the players themselves at a digital table and by the table device otherwise.
    async fn play_out(&self, digital: bool) -> game::TableView {
        self.play_cards(digital, usize::MAX).await
    }

    /// Plays up to `count` cards as [`Table::play_out`] does.
    async fn play_cards(&self, digital: bool, count: usize) -> game::TableView {
        for _ in 0..count {
            let view = self.view().await;
            // Nobody to play: the deal is over, or waits for a decision (Law 64's on equity).
            if view.phase != game::DealPhase::Play as i32 || view.next_to_act == 0 {
                return view;
            }
            let (seat, card) = lowest_legal_card(&view);
            let contract = view.contract.unwrap();
            let declarer = seat_of(contract.declarer);
            let actor = if seat == declarer.partner() { declarer } else { seat };
            let mut client = if digital { self.player(actor) } else { self.desk() };
            self.play_as(&mut client, seat, &card.to_string()).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
        }
        self.view().await
    }
}

/// The seat to play in `view` and its lowest card that follows suit (or its lowest card).
fn lowest_legal_card(view: &game::TableView) -> (Seat, Card) {
    let seat = seat_of(view.next_to_act);
    let held = hand(view, seat).unwrap();
    let led = view
        .tricks
        .last()
        .filter(|t| t.cards.len() < 4)
        .and_then(|t| t.cards.first())
        .map(|c| Card::try_from(c.card.unwrap()).unwrap().suit);
    let card = led.and_then(|suit| held.suit(suit).iter().next()).or_else(|| held.iter().next()).unwrap();
    (seat, card)
}

fn outcome(view: &game::TableView) -> (game::DealEnding, Option<pb::DealResult>) {
    let outcome = view.outcome.clone().unwrap_or_else(|| panic!("no outcome in {view:?}"));
    (game::DealEnding::try_from(outcome.ending).unwrap(), outcome.result)
}

fn played(result: &Option<pb::DealResult>) -> (String, Seat, u32) {
    match result.as_ref().and_then(|r| r.outcome) {
        Some(pb::deal_result::Outcome::Played(played)) => {
            let contract = laws::DeclaredContract::try_from(played.contract.unwrap()).unwrap();
            (contract.contract.to_string(), contract.declarer, played.tricks)
        }
        other => panic!("not a played contract: {other:?}"),
    }
}

/// 1S by North, 2S by South, 4S by North, all pass: North declares, East leads, South is dummy.
async fn bid_four_spades(table: &Table<'_>) -> game::TableView {
    use Seat::*;
    table.calls(&[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S")]).await;
    table.calls(&[(East, "Pass"), (South, "Pass"), (West, "Pass")]).await
}

fn fact(kind: game::IrregularityKind, offender: Seat) -> game::IrregularityFact {
    game::IrregularityFact { kind: kind as i32, offender: offender.to_proto(), ..Default::default() }
}

async fn enter_result(
    table: &Table<'_>,
    contract: &str,
    declarer: Seat,
    tricks: u32,
    honors: &[pb::Honors],
) -> Result<game::TableView, Status> {
    let contract = laws::DeclaredContract { contract: contract.parse().unwrap(), declarer };
    let request = game::EnterResultRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        result: Some(pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(contract.into()),
                tricks,
            })),
            honors: honors.to_vec(),
        }),
    };
    Ok(table.player(declarer).enter_result(request).await?.into_inner().view.unwrap())
}

/// Watches a table until its deal ends, as one principal. The watch is open when this returns:
/// the server answers a watch once it has subscribed to the table and read what it sends first,
/// so whatever happens at the table after this reaches the watcher as events (a watcher opened
/// later gets the deal so far in its snapshot instead).
async fn collect(
    mut client: GameClient,
    table_id: String,
    after: Option<u64>,
) -> tokio::task::JoinHandle<Vec<game::TableEvent>> {
    let request = game::WatchTableRequest { table_id, after_sequence: after };
    let mut stream = client.watch_table(request).await.unwrap().into_inner();
    tokio::spawn(async move {
        let mut events = Vec::new();
        while let Some(item) = stream.next().await {
            // Heartbeats carry no event.
            let Some(event) = item.unwrap().event else { continue };
            let end = match &event.event {
                Some(game::table_event::Event::DealFinished(_) | game::table_event::Event::DealAbandoned(_)) => true,
                Some(game::table_event::Event::BoardWithheld(withheld)) => withheld.deal_ended,
                _ => false,
            };
            events.push(event);
            if end {
                break;
            }
        }
        events
    })
}

/// A recorded table playing board 1 of a new duplicate session with the PBN deal.
async fn recorded_board(app: &TestApp) -> Table<'_> {
    let table = Table::new(app);
    let session = session(app, &[(1, None)]).await;
    table.start(board(&table.players, game::PlayMode::Recorded, &session, 1), Some(PBN)).await;
    table
}

/// A recorded rubber table of the PBN deal, bid to four spades by North.
pub(crate) async fn rubber_four_spades(app: &TestApp) -> Table<'_> {
    let table = Table::seated(app).await;
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(PBN)).await;
    bid_four_spades(&table).await;
    table
}
