//! The game service on a real server: complete deals in both modes, irregularities rectified
//! (Laws 27, 31, 45C4(b), 45D, 46, 47, 50, 54, 62, 64), a disputed claim adjudicated, per-seat
//! privacy of every streamed event and of the options of a decision, durability through a Redis
//! flush and a server restart, racing clients, and the result of every finished deal reaching
//! scoring through the outbox.

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::lineup::Lineup;
use e2e::{GameClient, Rng, TestApp};
use futures::StreamExt;
use laws::{Card, CardSet, Seat};
use platform::auth::Role;
use tonic::{Code, Status};
use tracing::Instrument;

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
    game::DealSetup {
        source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
            rubber_id: lineup.rubber_id.clone(),
            scorepad_id: lineup.scorepad_id.clone(),
            deal_number: 1,
            club_laws,
        })),
        kind: pb::TableKind::Rubber as i32,
        mode: mode as i32,
        players: seated(&lineup.players),
        dealer: pb::Seat::North as i32,
        vulnerability: pb::Vulnerability::None as i32,
        result_only: false,
    }
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
struct Table<'a> {
    app: &'a TestApp,
    id: String,
    players: [String; 4],
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

    async fn view(&self) -> game::TableView {
        self.view_as(&mut self.arbiter()).await
    }

    async fn view_as(&self, client: &mut GameClient) -> game::TableView {
        let request = game::GetTableStateRequest { table_id: self.id.clone() };
        client.get_table_state(request).await.unwrap().into_inner().view.unwrap()
    }

    async fn version(&self) -> u64 {
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

    async fn play_as(&self, client: &mut GameClient, seat: Seat, card: &str) -> Result<game::TableView, Status> {
        let request = game::PlayCardRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(pcard(card)),
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
            if view.phase != game::DealPhase::Play as i32 {
                return view;
            }
            let seat = seat_of(view.next_to_act);
            let held = hand(&view, seat).unwrap();
            let led = view
                .tricks
                .last()
                .filter(|t| t.cards.len() < 4)
                .and_then(|t| t.cards.first())
                .map(|c| Card::try_from(c.card.unwrap()).unwrap().suit);
            let card = led.and_then(|suit| held.suit(suit).iter().next()).or_else(|| held.iter().next()).unwrap();
            let contract = view.contract.unwrap();
            let declarer = seat_of(contract.declarer);
            let actor = if seat == declarer.partner() { declarer } else { seat };
            let mut client = if digital { self.player(actor) } else { self.desk() };
            self.play_as(&mut client, seat, &card.to_string()).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
        }
        self.view().await
    }
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

#[tokio::test]
async fn a_digital_deal_is_dealt_from_a_committed_seed_and_refuses_what_the_laws_forbid() {
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let started = table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    assert_eq!(started.phase, game::DealPhase::Auction as i32);
    assert_eq!(started.seed_commitment.len(), 32, "the seed's SHA-256 is published at the start");
    assert!(started.seed.is_empty());
    assert!(started.hands.is_empty(), "the desk sees no hand of a live deal");

    // Each player sees his own thirteen cards and nobody else's.
    let mut north = table.player(Seat::North);
    let view = table.view_as(&mut north).await;
    assert_eq!(view.hands.len(), 1);
    assert_eq!(hand(&view, Seat::North).unwrap().len(), 13);

    // Law 17: East may not call at North's turn; a player calls only for his own seat.
    let mut east = table.player(Seat::East);
    let status = table.call_as(&mut east, Seat::East, "1H").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("it is North's turn to call, not East's (Law 17"), "{}", status.message());
    let status = table.call_as(&mut east, Seat::North, "1H").await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    // A table device records calls only at a recorded table.
    let status = table.call_as(&mut table.desk(), Seat::North, "1H").await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);

    table.call_as(&mut north, Seat::North, "1N").await.unwrap();
    // Law 27: an insufficient bid is refused at a digital table, naming the Law.
    let status = table.call_as(&mut east, Seat::East, "1S").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(status.message(), "insufficient bid 1S over 1NT (Law 27 of the Laws of Rubber Bridge)");
    assert_eq!(
        status.metadata().get(platform::error::LAW_METADATA_KEY).unwrap().to_str().unwrap(),
        "Law 27 of the Laws of Rubber Bridge"
    );
    table.call_as(&mut east, Seat::East, "Pass").await.unwrap();
    table.call_as(&mut table.player(Seat::South), Seat::South, "Pass").await.unwrap();
    let view = table.call_as(&mut table.player(Seat::West), Seat::West, "Pass").await.unwrap();
    assert_eq!(view.phase, game::DealPhase::Play as i32);
    assert_eq!(seat_of(view.next_to_act), Seat::East, "Law 41: declarer's left-hand opponent leads");

    // Dummy (South) does not play his own cards: declarer does (Law 45B).
    let arbiter_view = table.view().await;
    let east_hand = hand(&arbiter_view, Seat::East).unwrap();
    let lead = east_hand.iter().next().unwrap();
    table.play_as(&mut east, Seat::East, &lead.to_string()).await.unwrap();
    let dummy_card = hand(&table.view().await, Seat::South).unwrap().iter().next().unwrap();
    let _ = dummy_card;
    let view = table.view_as(&mut table.player(Seat::West)).await;
    assert!(hand(&view, Seat::South).is_some(), "dummy is seen once the opening lead is faced");
    assert!(hand(&view, Seat::North).is_none() && hand(&view, Seat::East).is_none());

    let view = table.play_out(true).await;
    assert_eq!(view.phase, game::DealPhase::Finished as i32);
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    let (contract, declarer, tricks) = played(&result);
    assert_eq!((contract.as_str(), declarer), ("1NT", Seat::North));
    let won = view.tricks_won.unwrap();
    assert_eq!(tricks, won.north_south);

    // The seed is revealed: anyone can deal it again and check it against the commitment.
    assert_eq!(view.seed.len(), 32);
    let seed = laws::DealSeed(view.seed.clone().try_into().unwrap());
    assert!(seed.verifies(&started.seed_commitment.clone().try_into().unwrap()));
    let record =
        table.arbiter().get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() }).await.unwrap();
    let record = record.into_inner().record.unwrap();
    assert_eq!(laws::Deal::from_seed(&seed).to_pbn(Seat::North), record.deal_pbn);
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

#[tokio::test]
async fn law_27_and_31_at_a_club_table_the_arbiter_is_summoned_and_the_options_are_enforced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    table.start(table.rubber(game::PlayMode::Recorded, true), Some(PBN)).await;
    table.call(North, "1S").await;

    // Law 27: East bids 1H over 1S at the table; the tablet records it as it happened.
    let view = table.call(East, "1H").await;
    let decision = view.pending_decisions.first().expect("Law 27 gives options").clone();
    assert_eq!(decision.irregularity_id, view.auction[1].irregularity_id);
    assert_eq!(view.auction[1].status, game::CallStatus::Pending as i32);
    let accept = decision.options.iter().find(|o| o.kind == "accept_by_calling").unwrap();
    assert_eq!(accept.chooser, pb::Chooser::OffendersLho as i32);
    assert_eq!(accept.chooser_seats, vec![South.to_proto()]);
    assert_eq!(accept.law.as_ref().unwrap().number, 27);
    // Club Law 13: the Arbiter is summoned at once, and nobody calls until he has dealt with it.
    assert_eq!(view.open_arbiter_calls.len(), 1);
    let calls = table
        .arbiter()
        .list_arbiter_calls(game::ListArbiterCallsRequest { table_id: table.id.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .arbiter_calls;
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].irregularity_ids, vec![decision.irregularity_id.clone()]);
    let status = table.call_as(&mut table.desk(), South, "2H").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Club Law 13"), "{}", status.message());
    // Only the player the Law names may choose: West may not reject East's bid.
    let status = table.choose(&mut table.player(West), "reject_insufficient_bid", None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    assert!(status.message().contains("Law 27"), "{}", status.message());
    table.resolve_calls().await;

    // Law 27A: South accepts the insufficient bid by calling over it.
    let view = table.call_as(&mut table.player(South), South, "2H").await.unwrap();
    assert!(view.pending_decisions.is_empty());
    assert_eq!(view.auction[1].status, game::CallStatus::Legal as i32);
    let options = table
        .desk()
        .get_rectification_options(game::GetRectificationOptionsRequest {
            table_id: table.id.clone(),
            decision_id: decision.decision_id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    let settled = &options.decisions[0];
    assert_eq!(settled.status, game::DecisionStatus::Chosen as i32);
    assert_eq!(settled.chosen_option_id, accept.option_id);

    // Law 31: North bids 3S at West's turn, his right-hand opponent's. West drew attention to it.
    let recorded = table
        .record(
            &mut table.player(West),
            game::IrregularityFact {
                call: Some(pcall("3S")),
                ..fact(game::IrregularityKind::CallOutOfRotation, North)
            },
            None,
        )
        .await
        .unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.pointed_out_by, West.to_proto(), "a player points out for his own seat");
    assert_eq!(irregularity.law.unwrap().number, 29);
    let decision = recorded.decision.expect("Law 29 gives options");
    assert!(decision.options.iter().any(|o| o.law.as_ref().unwrap().number == 31), "{decision:?}");
    assert!(recorded.arbiter_call.is_some(), "Club Law 13");
    table.resolve_calls().await;
    // The Arbiter applies the rectification: the call is cancelled and the auction reverts to
    // West (Law 29B, Law 31).
    let chosen = table.choose(&mut table.arbiter(), "cancel_call", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(seat_of(view.next_to_act), West);
    assert!(view.auction.iter().any(|e| e.status == game::CallStatus::Cancelled as i32));
    // Law 31B1: West passes, so North must repeat his call out of rotation.
    let view = table.call(West, "Pass").await;
    let repeat = view.restrictions.iter().find(|r| r.kind == game::RestrictionKind::MustRepeatCall as i32).unwrap();
    assert_eq!(repeat.seat, North.to_proto());
    let status = table.call_as(&mut table.desk(), North, "2S").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(status.message(), "North must repeat 3S (Law 31B1 of the Laws of Rubber Bridge)");
    let view = table.calls(&[(North, "3S"), (East, "Pass"), (South, "Pass"), (West, "Pass")]).await;
    assert_eq!(view.phase, game::DealPhase::Play as i32);
    assert_eq!(played_contract(&view), ("3S".to_owned(), North));
    // The table stops recording the play and enters the result, which agrees with the auction.
    // The hands were entered, so honors are checked against them (Law 81): North holds four.
    let status = enter_result(&table, "3S", North, 9, &[]).await.unwrap_err();
    assert!(status.message().contains("the hands show four trump honors held by North-South"), "{}", status.message());
    let honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    let view = enter_result(&table, "3S", North, 9, &[honors]).await.unwrap();
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ResultEntered);
    assert_eq!(played(&result), ("3S".to_owned(), North, 9));
    let record = table
        .arbiter()
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    assert_eq!(record.irregularities.len(), 2);
    assert_eq!(record.arbiter_calls.len(), 2);
    assert!(record.decisions.iter().all(|d| d.status == game::DecisionStatus::Chosen as i32));
}

fn played_contract(view: &game::TableView) -> (String, Seat) {
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    (contract.contract.to_string(), contract.declarer)
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

#[tokio::test]
async fn law_54_declarer_accepts_an_opening_lead_out_of_turn_and_the_deal_is_played_out() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    // West faces the HA; East was on lead.
    let view = table.play(West, "HA").await;
    let decision = view.pending_decisions.first().expect("Law 54 gives declarer options").clone();
    assert_eq!(
        decision.options.iter().find(|o| o.kind == "accept_lead").unwrap().chooser_seats,
        vec![North.to_proto()]
    );
    let record = table
        .arbiter()
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    let irregularity = &record.irregularities[0];
    assert_eq!(irregularity.fact.as_ref().unwrap().kind, game::IrregularityKind::OpeningLeadOutOfTurn as i32);
    assert_eq!(irregularity.law.as_ref().unwrap().number, 54);
    // The card led lies face up for everyone; dummy is not spread before the lead is accepted.
    let kibitzer = table.view_as(&mut app.game("kibitzer", &[Role::Player])).await;
    assert_eq!(hand(&kibitzer, West), Some(CardSet::EMPTY.with("HA".parse().unwrap())));
    assert!(hand(&kibitzer, South).is_none());
    // Only declarer chooses (Law 54): East may not.
    let status = table.choose(&mut table.player(East), "accept_lead", None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let chosen = table.choose(&mut table.player(North), "accept_lead", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(view.tricks[0].leader, West.to_proto(), "Law 54B: the lead stands");
    assert!(hand(&view, South).is_some(), "dummy is spread once the lead is accepted");
    assert_eq!(seat_of(view.next_to_act), North);
    let view = table.play_out(false).await;
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    let (_, declarer, tricks) = played(&result);
    assert_eq!(declarer, North);
    assert_eq!(tricks, view.tricks_won.unwrap().north_south);
    // North held four trump honors (Law 81).
    assert_eq!(
        result.unwrap().honors,
        vec![pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 }]
    );
}

#[tokio::test]
async fn law_64_an_established_revoke_transfers_a_trick_when_play_ends() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    table.play(South, "C8").await;
    // West holds clubs and plays a heart: a revoke, accepted as a fact and not yet noticed.
    let view = table.play(West, "HJ").await;
    assert!(view.auction.iter().all(|e| e.irregularity_id.is_empty()));
    table.play(North, "C2").await;
    // East, the offender's partner, leads to the next trick: the revoke is established (Law 63).
    table.play(East, "CK").await;
    let recorded = table
        .record(
            &mut table.player(North),
            game::IrregularityFact { trick_number: 1, ..fact(game::IrregularityKind::Revoke, West) },
            Some(North),
        )
        .await
        .unwrap();
    assert_eq!(recorded.irregularity.unwrap().law.unwrap().number, 64);
    let view = table.play_out(false).await;
    let outcome = view.outcome.clone().unwrap();
    assert_eq!(outcome.tricks_transferred, 1, "Law 64B: the revoke trick, won by the offending side");
    let (_, _, tricks) = played(&outcome.result);
    assert_eq!(tricks, view.tricks_won.unwrap().north_south + 1);
}

#[tokio::test]
async fn law_50_an_exposed_honor_is_a_major_penalty_card_and_declarer_names_the_partners_lead() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    table.play(South, "C8").await;
    // West drops the HK on the table.
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                card: Some(pcard("HK")),
                description: "dropped".into(),
                ..fact(game::IrregularityKind::ExposedCard, West)
            },
            Some(North),
        )
        .await
        .unwrap();
    let view = recorded.view.unwrap();
    assert_eq!(view.penalty_cards.len(), 1);
    let penalty = &view.penalty_cards[0];
    assert_eq!(penalty.kind, game::PenaltyCardKind::Major as i32, "Law 50: an honor is a major penalty card");
    assert_eq!(penalty.owner, West.to_proto());
    // Everyone sees it: it lies face up (Law 50A).
    let east = table.view_as(&mut table.player(East)).await;
    assert_eq!(hand(&east, West), Some(CardSet::EMPTY.with("HK".parse().unwrap())));
    table.play(West, "C5").await;
    let view = table.play(North, "C2").await;
    // East won the trick and has the lead while his partner has a major penalty card: declarer
    // chooses (Law 50D2).
    let decision = view.pending_decisions.first().unwrap();
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![North.to_proto()]));
    // East leads the club king before declarer has chosen: "The defender may not lead until
    // declarer has indicated his choice", so the king is a penalty card of East's (Law 49)
    // and the choice is still declarer's.
    let view = table.play(East, "CK").await;
    let record = table
        .arbiter()
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    let premature = record.irregularities.last().unwrap().clone();
    assert_eq!(premature.fact.unwrap().kind, game::IrregularityKind::PrematurePlay as i32);
    assert_eq!(premature.law.unwrap().number, 50);
    assert_eq!(view.pending_decisions.first().map(|d| &d.decision_id), Some(&decision.decision_id));
    assert!(view.penalty_cards.iter().any(|p| p.owner == East.to_proto() && p.card == Some(pcard("CK"))));
    let chosen = table.choose(&mut table.player(North), "require_lead", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    let required = view.restrictions.iter().find(|r| r.kind == game::RestrictionKind::LeadRequired as i32).unwrap();
    assert_eq!(required.seat, East.to_proto());
    assert_eq!(required.suits, vec![pb::Suit::Hearts as i32]);
    let penalty: Vec<_> = view.penalty_cards.iter().map(|p| (p.owner, p.card)).collect();
    assert_eq!(penalty, vec![(East.to_proto(), Some(pcard("CK")))], "Law 50D2(a): West's card is picked up");
    table.play(East, "H7").await;
    table.play(South, "H2").await;
    table.play(West, "HJ").await;
    let view = table.play(North, "H8").await;
    assert!(
        view.restrictions.iter().all(|r| r.kind != game::RestrictionKind::LeadRequired as i32),
        "the requirement is spent once East has led"
    );
    // West won and leads while East's king lies on the table: declarer's choice again; he
    // leaves West free, and East plays the king at his first legal opportunity (Law 50).
    table.choose(&mut table.player(North), "no_lead_restriction", None, None).await.unwrap();
    table.play(West, "C6").await;
    table.play(North, "C3").await;
    let view = table.play(East, "CK").await;
    assert!(view.penalty_cards.is_empty());
    table.play(South, "C9").await;
    let view = table.play_out(false).await;
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
}

async fn claim(table: &Table<'_>, claimer: Seat, tricks: u32) -> game::ClaimResponse {
    let request = game::ClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claimer: claimer.to_proto(),
        tricks,
        statement: "drawing trumps, all mine".into(),
    };
    table.player(claimer).claim(request).await.unwrap().into_inner()
}

async fn answer(
    table: &Table<'_>,
    claim_id: &str,
    seat: Seat,
    reply: game::ClaimReply,
) -> game::RespondToClaimResponse {
    let request = game::RespondToClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim_id.to_owned(),
        seat: seat.to_proto(),
        reply: reply as i32,
    };
    table.player(seat).respond_to_claim(request).await.unwrap().into_inner()
}

#[tokio::test]
async fn duplicate_law_70_a_disputed_claim_is_adjudicated_by_the_director() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::new(&app);
    let session = session(&app, &[(1, None)]).await;
    let view = table.start(board(&table.players, game::PlayMode::Recorded, &session, 1), Some(PBN)).await;
    assert_eq!(view.setup.unwrap().dealer, North.to_proto(), "duplicate Law 2: board 1 is dealt by North");
    bid_four_spades(&table).await;
    table.play(East, "CA").await;
    let claimed = claim(&table, North, 13).await;
    let claim = claimed.claim.unwrap();
    assert_eq!(claim.status, game::ClaimStatus::Pending as i32);
    assert_eq!(claim.tricks_remaining, 13);
    let view = claimed.view.unwrap();
    assert_eq!(view.phase, game::DealPhase::Claim as i32);
    // Law 68C: the claimer's hand is faced; East sees it now.
    assert!(hand(&table.view_as(&mut table.player(East)).await, North).is_some());
    let answered = answer(&table, &claim.claim_id, West, game::ClaimReply::Dispute).await;
    assert_eq!(answered.claim.unwrap().status, game::ClaimStatus::Disputed as i32);
    let call = answered.arbiter_call.expect("duplicate Law 68D: the Director is summoned");
    assert_eq!(call.claim_id, claim.claim_id);
    // Nobody plays while the Director is at the table.
    let status = table.play_as(&mut table.desk(), South, "C9").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let request = game::AdjudicateClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim.claim_id.clone(),
        tricks: 9,
        reasons: "a club to lose with no trump drawn first".into(),
        law: Some(laws::Law::duplicate(70, "D1").into()),
    };
    // Only the Director decides.
    let status = table.player(North).adjudicate_claim(request.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let decided = table.arbiter().adjudicate_claim(request).await.unwrap().into_inner();
    let claim = decided.claim.unwrap();
    assert_eq!(claim.status, game::ClaimStatus::Adjudicated as i32);
    let adjudication = claim.adjudication.unwrap();
    assert_eq!((adjudication.tricks, adjudication.decided_by.as_str()), (9, "the-arbiter"));
    assert_eq!(adjudication.law.unwrap().section, "D1");
    let view = decided.view.unwrap();
    assert!(view.open_arbiter_calls.is_empty(), "the decision settles the call");
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ClaimAdjudicated);
    assert_eq!(played(&result), ("4S".to_owned(), North, 9));
    assert!(result.unwrap().honors.is_empty(), "no honors in duplicate");
    // A duplicate board's hands stay hidden from the players after the deal: other tables may
    // still have to play it.
    let east = table.view_as(&mut table.player(East)).await;
    assert!(hand(&east, West).is_none());
}

#[tokio::test]
async fn a_recorded_table_may_enter_only_the_result_and_refusals_name_the_law() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let mut setup = table.rubber(game::PlayMode::Recorded, false);
    setup.result_only = true;
    let view = table.start(setup, None).await;
    assert_eq!(view.phase, game::DealPhase::ResultEntry as i32);
    let status = table.call_as(&mut table.desk(), North, "1S").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    // Four aces score only at notrump (Law 81).
    let aces = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourAcesAtNoTrump as i32 };
    let status = enter_result(&table, "4S", North, 10, &[aces]).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 81"), "{}", status.message());
    let status = enter_result(&table, "4S", North, 14, &[]).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("result.played.tricks"), "{}", status.message());
    let honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    let view = enter_result(&table, "4S", North, 10, &[honors]).await.unwrap();
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ResultEntered);
    assert_eq!(result.unwrap().honors, vec![honors]);

    // A second deal may start once the first is over; its hands are not entered, so once the
    // auction closes the table enters the result, which must agree with the auction (Law 22).
    // (A new rubber at the same table, so that North deals again with nobody vulnerable.)
    table.next_rubber().await;
    let view = table.start(table.rubber(game::PlayMode::Recorded, false), None).await;
    assert_eq!(view.phase, game::DealPhase::Auction as i32);
    let view = bid_four_spades(&table).await;
    assert_eq!(view.phase, game::DealPhase::ResultEntry as i32);
    let status = table.play_as(&mut table.desk(), East, "CA").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let status = enter_result(&table, "3N", South, 9, &[]).await.unwrap_err();
    assert!(status.message().contains("does not agree with the auction: 4S by North (Law 22B"), "{}", status.message());
    let view = enter_result(&table, "4S", North, 11, &[]).await.unwrap();
    assert_eq!(played(&outcome(&view).1), ("4S".to_owned(), North, 11));
    let deals = table
        .desk()
        .list_deals(game::ListDealsRequest { table_id: table.id.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .deals;
    assert_eq!(deals.len(), 2);
    assert_eq!(deals[0].deal_id, view.deal_id, "newest first");
}

#[tokio::test]
async fn a_finished_deal_exports_as_pbn_and_an_abandoned_one_has_no_result() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    let view = table.play_out(false).await;
    let pbn = table
        .player(North)
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![view.deal_id.clone()] })
        .await
        .unwrap()
        .into_inner()
        .pbn;
    assert!(pbn.starts_with("% PBN 2.1"), "{pbn}");
    for tag in [
        "[Dealer \"N\"]",
        "[Vulnerable \"None\"]",
        &format!("[Deal \"{PBN}\"]"),
        "[Declarer \"N\"]",
        "[Contract \"4S\"]",
    ] {
        assert!(pbn.contains(tag), "{tag} missing from\n{pbn}");
    }
    assert!(pbn.contains("[Auction \"N\"]\n1S Pass 2S Pass\n4S Pass Pass Pass\n"), "{pbn}");
    assert!(pbn.contains("[Play \"E\"]\n"), "{pbn}");
    assert_eq!(pbn.lines().filter(|l| l.split(' ').count() == 4 && l.len() == 11).count(), 13, "{pbn}");

    table.next_rubber().await;
    table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    table.call_as(&mut table.player(North), North, "1C").await.unwrap();
    let status = table
        .player(North)
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![table.view().await.deal_id] })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let request = game::AbandonDealRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        reason: "fire alarm".into(),
    };
    let view = table.desk().abandon_deal(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.phase, game::DealPhase::Abandoned as i32);
    assert_eq!(outcome(&view), (game::DealEnding::Abandoned, None));
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

/// Every card an event shows, and the seats whose hands it shows.
fn shown(event: &game::TableEvent) -> (Vec<Card>, Vec<Seat>) {
    use game::table_event::Event as E;
    let card = |c: &pb::Card| Card::try_from(*c).unwrap();
    let mut cards = Vec::new();
    let mut seats = Vec::new();
    let mut hands = |hands: &[pb::SeatHand], cards: &mut Vec<Card>| {
        for hand in hands {
            seats.push(seat_of(hand.seat));
            cards.extend(self::cards(hand).iter());
        }
    };
    match event.event.as_ref().unwrap() {
        E::Snapshot(view) => {
            hands(&view.hands, &mut cards);
            cards.extend(view.tricks.iter().flat_map(|t| t.cards.iter().map(|p| card(p.card.as_ref().unwrap()))));
            cards.extend(view.penalty_cards.iter().map(|p| card(p.card.as_ref().unwrap())));
            let options = view.pending_decisions.iter().flat_map(|d| &d.options);
            cards.extend(options.flat_map(|o| o.official_cards.iter().map(card)));
        }
        E::RectificationOffered(decision) | E::RectificationChosen(decision) => {
            cards.extend(decision.options.iter().flat_map(|o| o.official_cards.iter().map(card)));
        }
        E::DealStarted(started) => hands(&started.hands, &mut cards),
        E::CardPlayed(played) => cards.push(card(played.played.as_ref().unwrap().card.as_ref().unwrap())),
        E::CardWithdrawn(withdrawn) => cards.push(card(withdrawn.withdrawn.as_ref().unwrap().card.as_ref().unwrap())),
        E::DummyFaced(faced) => hands(std::slice::from_ref(faced.dummy.as_ref().unwrap()), &mut cards),
        E::TrickCompleted(done) => {
            cards.extend(done.trick.as_ref().unwrap().cards.iter().map(|p| card(p.card.as_ref().unwrap())));
        }
        E::ObligationsChanged(changed) => {
            cards.extend(changed.penalty_cards.iter().map(|p| card(p.card.as_ref().unwrap())))
        }
        E::IrregularityRecorded(record) => cards.extend(record.fact.as_ref().and_then(|f| f.card.as_ref()).map(card)),
        E::DealFinished(finished) => hands(&finished.hands, &mut cards),
        _ => {}
    }
    (cards, seats)
}

/// Checks what one player (or a spectator, `seat` None) was shown against the Laws of hidden
/// information: his own hand; dummy's once the opening lead is faced; played cards; all hands
/// once a rubber deal is over. Also: events in sequence, without gaps or repeats.
/// `seen` are the events the watcher saw before these (a resumed watch); a watcher who came late
/// learns from his snapshot what had been played.
fn check_privacy(
    seen: &[game::TableEvent],
    events: &[game::TableEvent],
    seat: Option<Seat>,
    deal: &laws::Deal,
    dummy: Seat,
    duplicate: bool,
) {
    let mut played = CardSet::EMPTY;
    let mut faced = false;
    let mut over = false;
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1, "events in sequence without gaps or repeats");
    }
    for event in seen {
        if let Some(game::table_event::Event::CardPlayed(p)) = &event.event {
            played.insert(Card::try_from(p.played.as_ref().unwrap().card.unwrap()).unwrap());
            faced = true;
        }
    }
    for event in events {
        use game::table_event::Event as E;
        match event.event.as_ref().unwrap() {
            E::CardPlayed(p) => {
                played.insert(Card::try_from(p.played.as_ref().unwrap().card.unwrap()).unwrap());
                faced = true;
            }
            E::DealFinished(_) => over = true,
            E::Snapshot(view) => {
                // The cards played to tricks are public; dummy is faced once the opening lead is.
                for played_card in view.tricks.iter().flat_map(|t| &t.cards) {
                    played.insert(Card::try_from(played_card.card.unwrap()).unwrap());
                }
                faced |= view.tricks.iter().any(|t| !t.cards.is_empty());
                over |= view.phase == game::DealPhase::Finished as i32;
                let in_progress = [game::DealPhase::Auction, game::DealPhase::Play].map(|p| p as i32);
                if let Some(seat) = seat
                    && in_progress.contains(&view.phase)
                {
                    assert!(
                        view.hands.iter().any(|h| seat_of(h.seat) == seat),
                        "a player's snapshot shows his own hand: {view:?}"
                    );
                }
            }
            E::DealStarted(started) => {
                let expected: Vec<Seat> = seat.into_iter().collect();
                let got: Vec<Seat> = started.hands.iter().map(|h| seat_of(h.seat)).collect();
                assert_eq!(got, expected, "at the start a player sees exactly his own hand, a spectator none");
                for hand in &started.hands {
                    assert_eq!(cards(hand), deal.hand(seat_of(hand.seat)));
                }
            }
            _ => {}
        }
        let (shown_cards, shown_seats) = shown(event);
        let visible = |card: Card| {
            seat.is_some_and(|s| deal.hand(s).contains(card))
                || played.contains(card)
                || (faced && deal.hand(dummy).contains(card))
                || (over && !duplicate)
        };
        for card in shown_cards {
            assert!(visible(card), "{seat:?} was shown the {card} of a hidden hand in {event:?}");
        }
        for shown_seat in shown_seats {
            let allowed = Some(shown_seat) == seat || (faced && shown_seat == dummy) || (over && !duplicate);
            assert!(allowed, "{seat:?} was shown {shown_seat}'s hand in {event:?}");
        }
    }
}

/// The next call or card of a random legal deal, by the player whose turn it is, as he sees
/// the table; `None` once the deal is over.
async fn random_action(table: &Table<'_>, rng: &mut Rng) -> Option<()> {
    let view = table.view().await;
    let setup = view.setup.clone().unwrap();
    match game::DealPhase::try_from(view.phase).unwrap() {
        game::DealPhase::Auction => {
            let seat = seat_of(view.next_to_act);
            let mut client = table.player(seat);
            let mine = table.view_as(&mut client).await;
            let dealer = seat_of(setup.dealer);
            let mut auction = laws::auction::Auction::new(dealer, laws::Code::Rubber);
            for entry in &mine.auction {
                auction = auction.call(laws::Call::try_from(entry.call.unwrap()).unwrap()).unwrap();
            }
            let legal = auction.legal_calls();
            let call = if mine.auction.len() > 10 || rng.below(100) < 55 {
                laws::Call::Pass
            } else {
                legal[rng.below(legal.len())]
            };
            let request = game::MakeCallRequest {
                table_id: table.id.clone(),
                expected_version: mine.version,
                idempotency_key: key(),
                seat: seat.to_proto(),
                call: Some(call.into()),
                artificial: None,
            };
            client.make_call(request).await.unwrap_or_else(|s| panic!("{seat} {call}: {s:?}"));
            Some(())
        }
        game::DealPhase::Play => {
            let seat = seat_of(view.next_to_act);
            let declarer = seat_of(view.contract.unwrap().declarer);
            let actor = if seat == declarer.partner() { declarer } else { seat };
            let mut client = table.player(actor);
            let mine = table.view_as(&mut client).await;
            let held = hand(&mine, seat).expect("the actor sees the hand he plays from");
            let led = mine.tricks.last().filter(|t| t.cards.len() < 4).and_then(|t| t.cards.first());
            let led = led.map(|c| Card::try_from(c.card.unwrap()).unwrap().suit);
            let choices: Vec<Card> = match led {
                Some(suit) if held.has_suit(suit) => held.suit(suit).iter().collect(),
                _ => held.iter().collect(),
            };
            let card = choices[rng.below(choices.len())];
            let request = game::PlayCardRequest {
                table_id: table.id.clone(),
                expected_version: mine.version,
                idempotency_key: key(),
                seat: seat.to_proto(),
                card: Some(card.into()),
            };
            client.play_card(request).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
            Some(())
        }
        _ => None,
    }
}

/// Plays one random legal digital deal at a fresh table, watched by the four players, a
/// spectator and the arbiter from before it starts, and by a player and the arbiter who come
/// right after the start and midway, and checks every event each was sent.
async fn random_deal_keeps_every_hand_private(app: &TestApp, seed: u64) {
    let mut rng = Rng(seed | 1);
    // Who comes late, and when, is drawn apart, so that the deal stays the one of the seed.
    let mut late_rng = Rng(seed.rotate_left(29) | 1);
    let table = Table::seated(app).await;
    let duplicate = rng.below(2) == 0;
    // Each watch is open (the server has subscribed) before the deal starts: they get its start.
    let mut watchers = Vec::new();
    for seat in Seat::ALL {
        watchers.push((Some(seat), collect(table.player(seat), table.id.clone(), None).await));
    }
    watchers.push((None, collect(app.game("kibitzer", &[Role::Player]), table.id.clone(), None).await));
    let official = collect(table.arbiter(), table.id.clone(), None).await;
    let setup = if duplicate {
        let number = 1 + rng.below(16) as u32;
        board(&table.players, game::PlayMode::Digital, &session(app, &[(number, None)]).await, number)
    } else {
        table.rubber(game::PlayMode::Digital, false)
    };
    let view = table.start(setup, None).await;
    // Those who come later get the deal so far from their snapshot, then the rest.
    let mut late = Vec::new();
    let latecomer = Seat::ALL[late_rng.below(4)];
    late.push((
        latecomer,
        collect(table.player(latecomer), table.id.clone(), None).await,
        collect(table.arbiter(), table.id.clone(), None).await,
    ));
    let midway = 1 + late_rng.below(40);
    let mut actions = 0;
    while random_action(&table, &mut rng).await.is_some() {
        actions += 1;
        let phase = table.view().await.phase;
        if actions == midway && [game::DealPhase::Auction as i32, game::DealPhase::Play as i32].contains(&phase) {
            let latecomer = Seat::ALL[late_rng.below(4)];
            late.push((
                latecomer,
                collect(table.player(latecomer), table.id.clone(), None).await,
                collect(table.arbiter(), table.id.clone(), None).await,
            ));
        }
    }
    let record = table
        .arbiter()
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    let deal = laws::Deal::try_from(record.deal.unwrap()).unwrap();
    let dummy = record.contract.map_or(Seat::North, |c| seat_of(c.declarer).partner());
    let mut west = Vec::new();
    for (seat, watcher) in watchers {
        let events = watcher.await.unwrap();
        check_privacy(&[], &events, seat, &deal, dummy, duplicate);
        if seat == Some(Seat::West) {
            west = events;
        }
    }
    let events = official.await.unwrap();
    let started = events.iter().find_map(|e| match &e.event {
        Some(game::table_event::Event::DealStarted(s)) => Some(s.hands.len()),
        _ => None,
    });
    assert_eq!(started, Some(4), "the arbiter sees all four hands (seed {seed})");
    for (seat, player, arbiter) in late {
        let events = player.await.unwrap();
        assert!(matches!(events[0].event, Some(game::table_event::Event::Snapshot(_))), "{seed}: {events:?}");
        check_privacy(&[], &events, Some(seat), &deal, dummy, duplicate);
        let events = arbiter.await.unwrap();
        let Some(game::table_event::Event::Snapshot(snapshot)) = &events[0].event else {
            panic!("a late watcher starts from the snapshot (seed {seed}): {events:?}")
        };
        assert_eq!(snapshot.hands.len(), 4, "the late arbiter sees all four hands (seed {seed})");
        for hand in &snapshot.hands {
            assert!(cards(hand).iter().all(|card| deal.hand(seat_of(hand.seat)).contains(card)));
        }
        for pair in events.windows(2) {
            assert_eq!(pair[1].sequence, pair[0].sequence + 1, "the rest follows the snapshot (seed {seed})");
        }
    }
    // A watcher that resumes after any sequence gets exactly the rest, in order.
    let middle = events[events.len() / 2].sequence;
    let resumed = collect(table.player(Seat::West), table.id.clone(), Some(middle)).await.await.unwrap();
    assert_eq!(resumed.first().map(|e| e.sequence), Some(middle + 1));
    assert_eq!(resumed.last().map(|e| e.sequence), events.last().map(|e| e.sequence));
    let before: Vec<game::TableEvent> = west.iter().filter(|e| e.sequence <= middle).cloned().collect();
    check_privacy(&before, &resumed, Some(Seat::West), &deal, dummy, duplicate);
    let after: Vec<&game::TableEvent> = west.iter().filter(|e| e.sequence > middle).collect();
    assert_eq!(resumed.iter().collect::<Vec<_>>(), after, "the resumed watch sees what the live one saw");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn property_no_event_sent_to_a_player_shows_a_card_he_may_not_see() {
    let app = TestApp::spawn().await;
    // Many random legal deals, three tables at a time.
    for round in 0..4u64 {
        let deals = (0..3u64).map(|i| random_deal_keeps_every_hand_private(&app, 0x9E37_79B9 * (round * 3 + i + 1)));
        futures::future::join_all(deals).await;
    }
}

/// A recorded 4S by North at a fresh table, played card by card up to `cards` cards.
/// A recorded table playing board 1 of a new duplicate session with the PBN deal.
async fn recorded_board(app: &TestApp) -> Table<'_> {
    let table = Table::new(app);
    let session = session(app, &[(1, None)]).await;
    table.start(board(&table.players, game::PlayMode::Recorded, &session, 1), Some(PBN)).await;
    table
}

/// A recorded rubber table of the PBN deal, bid to four spades by North.
async fn rubber_four_spades(app: &TestApp) -> Table<'_> {
    let table = Table::seated(app).await;
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(PBN)).await;
    bid_four_spades(&table).await;
    table
}

async fn four_spades_played(app: &TestApp, cards: usize) -> Table<'_> {
    let table = rubber_four_spades(app).await;
    table.play_cards(false, cards).await;
    table
}

fn same_deal(a: &game::TableView, b: &game::TableView) {
    assert_eq!(
        a.outcome.as_ref().map(|o| (o.ending, o.result.clone())),
        b.outcome.as_ref().map(|o| (o.ending, o.result.clone()))
    );
    assert_eq!(a.tricks, b.tricks);
    assert_eq!(a.auction, b.auction);
}

#[tokio::test]
async fn a_redis_flush_in_the_middle_of_a_deal_loses_nothing() {
    let app = TestApp::spawn().await;
    let quiet = four_spades_played(&app, usize::MAX).await;
    let expected = quiet.view().await;
    assert_eq!(expected.phase, game::DealPhase::Finished as i32);

    let table = four_spades_played(&app, 25).await;
    let before = table.view().await;
    let watcher = collect(table.player(Seat::West), table.id.clone(), None).await;
    app.flush_redis().await;
    // Rebuilt from the journal: the same table, version and all.
    let after = table.view().await;
    assert_eq!(after, before);
    let finished = table.play_out(false).await;
    same_deal(&finished, &expected);
    assert_eq!(finished.version, expected.version);
    let events = watcher.await.unwrap();
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1, "the watcher missed nothing across the flush");
    }
    assert!(matches!(events.last().unwrap().event, Some(game::table_event::Event::DealFinished(_))));
}

#[tokio::test]
async fn a_server_restart_in_the_middle_of_a_deal_loses_nothing() {
    let mut app = TestApp::spawn().await;
    let (expected, id, players, before) = {
        let quiet = four_spades_played(&app, usize::MAX).await;
        let expected = quiet.view().await;
        let table = four_spades_played(&app, 30).await;
        let before = table.view().await;
        (expected, table.id.clone(), table.players.clone(), before)
    };
    app.restart().await;
    let table = Table { app: &app, id, players, lineup: None.into() };
    assert_eq!(table.view().await, before, "the restarted server has the table as it was");
    // A watcher that resumes from where it was gets the rest.
    let watcher = collect(table.player(Seat::East), table.id.clone(), Some(before_sequence(&table).await)).await;
    let finished = table.play_out(false).await;
    same_deal(&finished, &expected);
    let events = watcher.await.unwrap();
    assert!(matches!(events.last().unwrap().event, Some(game::table_event::Event::DealFinished(_))));
}

/// The table's last event sequence number, from a snapshot.
async fn before_sequence(table: &Table<'_>) -> u64 {
    let request = game::WatchTableRequest { table_id: table.id.clone(), after_sequence: None };
    let mut stream = table.arbiter().watch_table(request).await.unwrap().into_inner();
    stream.next().await.unwrap().unwrap().event.unwrap().sequence
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_racing_one_wins_the_other_is_aborted_and_a_retry_applies_once() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    for (seat, call) in [(North, "1N"), (East, "Pass"), (South, "Pass"), (West, "Pass")] {
        table.call_as(&mut table.player(seat), seat, call).await.unwrap();
    }
    let mut races = 0;
    while races < 6 {
        let view = table.view().await;
        let seat = seat_of(view.next_to_act);
        let actor = if seat == North.partner() { North } else { seat };
        let held = hand(&view, seat).unwrap();
        let led = view.tricks.last().filter(|t| t.cards.len() < 4).and_then(|t| t.cards.first());
        let legal: Vec<Card> = match led.map(|c| Card::try_from(c.card.unwrap()).unwrap().suit) {
            Some(suit) if held.has_suit(suit) => held.suit(suit).iter().collect(),
            _ => held.iter().collect(),
        };
        let request = |card: Card| game::PlayCardRequest {
            table_id: table.id.clone(),
            expected_version: view.version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(card.into()),
        };
        if legal.len() < 2 {
            table.player(actor).play_card(request(legal[0])).await.unwrap();
            continue;
        }
        // The same player on his phone and his tablet, at the same moment.
        let (first, second) = (request(legal[0]), request(legal[1]));
        let (mut phone, mut tablet) = (table.player(actor), table.player(actor));
        let (a, b) = tokio::join!(phone.play_card(first.clone()), tablet.play_card(second.clone()));
        let (won, lost, winner) = match (a, b) {
            (Ok(won), Err(lost)) => (won.into_inner(), lost, first),
            (Err(lost), Ok(won)) => (won.into_inner(), lost, second),
            other => panic!("exactly one of two racing plays wins: {other:?}"),
        };
        assert_eq!(lost.code(), Code::Aborted, "{}", lost.message());
        assert!(lost.message().contains(&format!("is at version {}", view.version + 1)), "{}", lost.message());
        // The winner's retry (a lost answer) returns the first answer and changes nothing.
        let again = table.player(actor).play_card(winner.clone()).await.unwrap().into_inner();
        assert_eq!(again, won);
        assert_eq!(table.version().await, view.version + 1);
        // The same key for another request is refused.
        let reused = game::PlayCardRequest { expected_version: winner.expected_version + 1, ..winner };
        assert_eq!(table.player(actor).play_card(reused).await.unwrap_err().code(), Code::InvalidArgument);
        races += 1;
    }
}

fn scoring_unreachable(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    // Nothing listens on the discard port: scoring is down.
    config.endpoints.scoring = Some("http://127.0.0.1:9".to_owned());
}

/// The outbox row of `deal_id`: topic, payload, attempts, last error, delivered.
async fn outbox_row(app: &TestApp, deal_id: &str) -> Option<(String, Vec<u8>, i32, Option<String>, bool)> {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.database.connect().await;
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "SELECT topic, payload, attempts, last_error, delivered_at IS NOT NULL FROM outbox WHERE aggregate_id = $1",
            [deal_id.into()],
        ))
        .await
        .unwrap();
    let _ = db.close().await;
    row.map(|r| {
        (
            r.try_get_by_index(0).unwrap(),
            r.try_get_by_index(1).unwrap(),
            r.try_get_by_index(2).unwrap(),
            r.try_get_by_index(3).unwrap(),
            r.try_get_by_index(4).unwrap(),
        )
    })
}

/// Waits for the outbox row of `deal_id` to satisfy `done` (the worker runs in the background).
async fn outbox_when(
    app: &TestApp,
    deal_id: &str,
    done: impl Fn(&(String, Vec<u8>, i32, Option<String>, bool)) -> bool,
) -> (String, Vec<u8>, i32, Option<String>, bool) {
    for _ in 0..600 {
        if let Some(row) = outbox_row(app, deal_id).await.filter(|r| done(r)) {
            return row;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the outbox row of deal {deal_id} never got there: {:?}", outbox_row(app, deal_id).await);
}

async fn scorepad(app: &TestApp, scorepad_id: &str) -> api::scoring::v1::Scorepad {
    let request = api::scoring::v1::GetScorepadRequest { scorepad_id: scorepad_id.to_owned() };
    let pad = app.scoring("front-desk", &[Role::Desk]).get_scorepad(request).await.unwrap().into_inner();
    pad.scorepad.unwrap()
}

#[tokio::test]
async fn a_finished_deal_reaches_scoring_exactly_once_even_when_scoring_was_down() {
    use Seat::*;
    let mut app = TestApp::spawn().await;
    // The desk opens the rubber and its scorepad; the deal is its next one, started while scoring
    // answers (the deal is set up from the pad), and scoring goes down before it ends.
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let pad = scorepad(&app, &lineup.scorepad_id).await;
    let next = pad.next_deal.unwrap();
    let mut setup = rubber(&lineup, game::PlayMode::Recorded, false);
    (setup.dealer, setup.vulnerability, setup.result_only) = (next.dealer, next.vulnerability, true);
    {
        let table =
            Table { app: &app, id: lineup.table_id.clone(), players: lineup.players.clone(), lineup: None.into() };
        table.start(setup, None).await;
    }
    app.restart_with(scoring_unreachable).await;
    let (deal_id, scorepad_id, result) = {
        let table =
            Table { app: &app, id: lineup.table_id.clone(), players: lineup.players.clone(), lineup: None.into() };
        let view = enter_result(&table, "4S", North, 10, &[]).await.unwrap();
        (view.deal_id.clone(), pad.scorepad_id, view.outcome.unwrap().result)
    };

    // Written with the deal's last event; tried again and again while scoring is down.
    let (topic, payload, attempts, error, delivered) = outbox_when(&app, &deal_id, |r| r.2 >= 2).await;
    assert_eq!(topic, "scoring.RecordDealResult");
    assert!(!delivered && attempts >= 2);
    assert!(error.is_some_and(|e| !e.is_empty()));
    let request = <api::scoring::v1::RecordDealResultRequest as prost::Message>::decode(payload.as_slice()).unwrap();
    assert_eq!((request.deal_id.as_str(), request.scorepad_id.as_str()), (deal_id.as_str(), scorepad_id.as_str()));
    assert_eq!(request.deal_number, 1);
    assert_eq!(request.source, api::scoring::v1::ResultSource::Game as i32);
    assert_eq!(request.result, result);
    assert!(scorepad(&app, &scorepad_id).await.deals.is_empty());

    // Scoring is back: the result arrives, once.
    app.restart_as_configured().await;
    let (_, _, attempts, _, _) = outbox_when(&app, &deal_id, |r| r.4).await;
    let pad = scorepad(&app, &scorepad_id).await;
    let recorded: Vec<_> = pad.deals.iter().filter(|d| d.deal_id == deal_id).collect();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].result, result);
    assert_eq!(recorded[0].source, api::scoring::v1::ResultSource::Game as i32);

    // Its acknowledgement lost: delivered again, and scoring takes the repeat as a no-op.
    {
        use sea_orm::{ConnectionTrait, Statement};
        let db = app.database.connect().await;
        db.execute_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "UPDATE outbox SET delivered_at = NULL, next_attempt_at = now() WHERE aggregate_id = $1",
            [deal_id.clone().into()],
        ))
        .await
        .unwrap();
        let _ = db.close().await;
    }
    outbox_when(&app, &deal_id, |r| r.4 && r.2 > attempts).await;
    let again = scorepad(&app, &scorepad_id).await;
    assert_eq!(again.deals, pad.deals);
    assert_eq!(again.version, pad.version);

    // An abandoned deal owes nothing.
    let second = Table::seated(&app).await;
    second.start(second.rubber(game::PlayMode::Digital, false), None).await;
    let request = game::AbandonDealRequest {
        table_id: second.id.clone(),
        expected_version: second.version().await,
        idempotency_key: key(),
        reason: "players left".into(),
    };
    let abandoned = second.desk().abandon_deal(request).await.unwrap().into_inner().view.unwrap();
    assert!(outbox_row(&app, &abandoned.deal_id).await.is_none());
}

#[tokio::test]
async fn a_duplicate_tables_result_reaches_its_session() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let session = session(&app, &[(2, None)]).await;
    let table = Table::new(&app);
    table.start(board(&table.players, game::PlayMode::Digital, &session, 2), None).await;
    // Duplicate Law 2: East deals board 2.
    for (seat, call) in [(East, "1N"), (South, "Pass"), (West, "Pass"), (North, "Pass")] {
        table.call_as(&mut table.player(seat), seat, call).await.unwrap();
    }
    let view = table.play_out(true).await;
    let result = view.outcome.clone().unwrap().result;
    outbox_when(&app, &view.deal_id, |r| r.4).await;
    let request = api::scoring::v1::ListBoardResultsRequest {
        session_id: session,
        board_number: 2,
        page: None,
        ..Default::default()
    };
    let results = app.scoring("front-desk", &[Role::Desk]).list_board_results(request).await.unwrap().into_inner();
    let ours: Vec<_> = results.results.iter().filter(|r| r.deal_id == view.deal_id).collect();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].table_result, result);
    let key = ours[0].key.clone().unwrap();
    assert_eq!((key.north_south_contestant_id.as_str(), key.east_west_contestant_id.as_str()), ("1", "2"));
}

/// The game on the embedded default (SQLite, live state in the process): a recorded club deal
/// with an irregularity, played out and watched, and its record exported.
#[tokio::test]
async fn the_game_runs_on_the_embedded_default() {
    use Seat::*;
    let dir = std::env::temp_dir().join(format!("bc-game-embedded-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = platform::config::PlatformConfig {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        sqlite_path: dir.join("bridge-club.db"),
        ..Default::default()
    };
    config.auth.local_key_file = dir.join("bridge-club.key");
    let club = club::Club::start(&config, &club::Settings::default()).await.unwrap();
    let issuer = club.resources.issuer.clone().unwrap();
    let channel = |subject: &str, role: Role| {
        let token = issuer.issue(subject, &[role], std::time::Duration::from_secs(600)).unwrap();
        let channel = platform::client::channel(&club.server.uri()).unwrap();
        let interceptor = platform::client::ClientInterceptor::with_token(&token).unwrap();
        tonic::service::interceptor::InterceptedService::new(channel, interceptor)
    };
    let client = |subject: &str, role: Role| GameClient::new(channel(subject, role));
    let (mut desk, mut arbiter) = (client("desk", Role::Desk), client("arbiter", Role::Arbiter));
    let lineup = Lineup::start(
        &mut e2e::MembershipClient::new(channel("desk", Role::Desk)),
        &mut e2e::ScoringClient::new(channel("desk", Role::Desk)),
        pb::TableKind::Rubber,
        "embedded",
    )
    .await;
    let table_id = lineup.table_id.clone();
    let watcher = collect(client(&lineup.players[3], Role::Player), table_id.clone(), None).await;
    let mut version = 0;
    let start = game::StartDealRequest {
        table_id: table_id.clone(),
        expected_version: version,
        idempotency_key: key(),
        setup: Some(rubber(&lineup, game::PlayMode::Recorded, true)),
        hands: Some(game::start_deal_request::Hands::DealPbn(PBN.to_owned())),
    };
    version = desk.start_deal(start).await.unwrap().into_inner().view.unwrap().version;
    let calls = [(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S"), (East, "Pass")];
    for (seat, call) in calls.into_iter().chain([(South, "Pass"), (West, "Pass")]) {
        let request = game::MakeCallRequest {
            table_id: table_id.clone(),
            expected_version: version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            call: Some(pcall(call)),
            artificial: None,
        };
        version = desk.make_call(request).await.unwrap().into_inner().view.unwrap().version;
    }
    // West leads out of turn; the Arbiter is summoned (Club Law 13) and rules.
    let request = game::PlayCardRequest {
        table_id: table_id.clone(),
        expected_version: version,
        idempotency_key: key(),
        seat: West.to_proto(),
        card: Some(pcard("HA")),
    };
    let view = desk.play_card(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.open_arbiter_calls.len(), 1);
    let calls = arbiter.list_arbiter_calls(game::ListArbiterCallsRequest::default()).await.unwrap().into_inner();
    let call = calls.arbiter_calls.iter().find(|c| c.table_id == table_id).unwrap().clone();
    let decision = view.pending_decisions[0].clone();
    let option = decision.options.iter().find(|o| o.kind == "accept_lead").unwrap();
    let choose = game::ChooseRectificationRequest {
        table_id: table_id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: 0,
        call: None,
        artificial: None,
    };
    let view = arbiter.choose_rectification(choose).await.unwrap().into_inner().view.unwrap();
    let resolve = game::ResolveArbiterCallRequest {
        table_id: table_id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        arbiter_call_id: call.arbiter_call_id.clone(),
        resolution: "lead accepted".into(),
    };
    let mut view = arbiter.resolve_arbiter_call(resolve).await.unwrap().into_inner().view.unwrap();
    while view.phase == game::DealPhase::Play as i32 {
        let state = arbiter.get_table_state(game::GetTableStateRequest { table_id: table_id.clone() }).await;
        let state = state.unwrap().into_inner().view.unwrap();
        let seat = seat_of(state.next_to_act);
        let held = hand(&state, seat).unwrap();
        let led = state.tricks.last().filter(|t| t.cards.len() < 4).and_then(|t| t.cards.first());
        let led = led.map(|c| Card::try_from(c.card.unwrap()).unwrap().suit);
        let card = led.and_then(|s| held.suit(s).iter().next()).or_else(|| held.iter().next()).unwrap();
        let request = game::PlayCardRequest {
            table_id: table_id.clone(),
            expected_version: state.version,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(card.into()),
        };
        view = desk.play_card(request).await.unwrap().into_inner().view.unwrap();
    }
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
    let events = watcher.await.unwrap();
    for pair in events.windows(2) {
        assert_eq!(pair[1].sequence, pair[0].sequence + 1);
    }
    let pbn = desk
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![view.deal_id.clone()] })
        .await
        .unwrap()
        .into_inner()
        .pbn;
    assert!(pbn.contains("[Contract \"4S\"]") && pbn.contains("[Play \"W\"]"), "{pbn}");
    club.server.shutdown().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn redis_behind_the_journal_is_caught_up_from_it() {
    use platform::live::LiveStore;
    let app = TestApp::spawn().await;
    let table = four_spades_played(&app, 3).await;
    let store = app.redis.store();
    let live_key = format!("game:table:{{{}}}", table.id);
    let behind = store.get(&live_key).await.unwrap().unwrap();
    let latest = table.play_cards(false, 1).await;
    assert_eq!(latest.version, behind.version + 1);
    // As if the process that committed the last card had stopped before updating Redis.
    store.put(&live_key, behind.clone()).await.unwrap();
    assert_eq!(table.view().await, latest, "readers get the journal's state");
    // A client that missed the last card is told the table moved on; one that saw it goes on.
    let stale = game::PlayCardRequest {
        table_id: table.id.clone(),
        expected_version: behind.version,
        idempotency_key: key(),
        seat: latest.next_to_act,
        card: Some(pcard("S2")),
    };
    store.put(&live_key, behind).await.unwrap();
    let status = table.desk().play_card(stale).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{}", status.message());
    let finished = table.play_out(false).await;
    assert_eq!(finished.phase, game::DealPhase::Finished as i32);
}

#[tokio::test]
async fn a_refusal_judged_on_a_live_state_behind_the_journal_is_a_stale_version_instead() {
    use platform::live::LiveStore;
    let app = TestApp::spawn().await;
    let table = four_spades_played(&app, 3).await;
    let store = app.redis.store();
    let live_key = format!("game:table:{{{}}}", table.id);
    let behind = store.get(&live_key).await.unwrap().unwrap();
    let before = table.view().await;
    let latest = table.play_cards(false, 1).await;
    // As if the process that committed the last card had stopped before updating Redis.
    store.put(&live_key, behind.clone()).await.unwrap();
    // A card the Laws would refuse on the state Redis holds (not that seat's turn, not in its
    // hand), from a client that missed the last card: that state is not the table's any more.
    let turns = [seat_of(before.next_to_act), seat_of(latest.next_to_act)];
    let wrong_seat = Seat::ALL.into_iter().find(|s| !turns.contains(s)).unwrap();
    let stale = game::PlayCardRequest {
        table_id: table.id.clone(),
        expected_version: behind.version,
        idempotency_key: key(),
        seat: wrong_seat.to_proto(),
        card: Some(pcard("S2")),
    };
    let status = table.desk().play_card(stale).await.unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{}", status.message());
    assert!(status.message().contains(&format!("is at version {}", latest.version)), "{}", status.message());
    assert_eq!(table.view().await, latest, "nothing was written");
}

#[tokio::test]
async fn every_table_playing_a_duplicate_board_gets_the_same_cards() {
    let app = TestApp::spawn().await;
    let pairs = session(&app, &[(7, None)]).await;
    let (first, second, third) = (Table::new(&app), Table::new(&app), Table::new(&app));
    let dealt = first.start(board(&first.players, game::PlayMode::Digital, &pairs, 7), None).await;
    let again = second.start(board(&second.players, game::PlayMode::Digital, &pairs, 7), None).await;
    assert_eq!(dealt.seed_commitment, again.seed_commitment, "the second table receives the board");
    let app = &app;
    let full = |view: game::TableView| async move {
        let mut arbiter = app.game("td", &[Role::Arbiter]);
        let record = arbiter.get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id }).await.unwrap();
        record.into_inner().record.unwrap().deal_pbn
    };
    assert_eq!(full(dealt.clone()).await, full(again).await);
    // Duplicate Law 2: board 7 is dealt by South, both vulnerable.
    let setup = dealt.setup.unwrap();
    assert_eq!((setup.dealer, setup.vulnerability), (pb::Seat::South as i32, pb::Vulnerability::Both as i32));
    // A table with physical cards entering other hands for the board is refused.
    let setup = board(&third.players, game::PlayMode::Recorded, &pairs, 7);
    if let Some(game::deal_setup::Source::Board(board)) = &setup.source {
        third.assign(board).await;
    }
    let request = game::StartDealRequest {
        table_id: third.id.clone(),
        expected_version: 0,
        idempotency_key: key(),
        setup: Some(setup),
        hands: Some(game::start_deal_request::Hands::DealPbn(PBN.to_owned())),
    };
    let status = third.desk().start_deal(request).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("every table plays the same cards"), "{}", status.message());

    // A session made from a hand record: the first table to start a board plays its cards, even
    // at a digital table (dealt before the session, so no seed to publish).
    let recorded = session(app, &[(3, Some(PBN))]).await;
    let fourth = Table::new(app);
    let view = fourth.start(board(&fourth.players, game::PlayMode::Digital, &recorded, 3), None).await;
    assert!(view.seed_commitment.is_empty());
    assert_eq!(full(view).await, PBN);
    // A board of a session scoring does not know could never be scored: refused.
    let fifth = Table::new(app);
    let request = game::StartDealRequest {
        table_id: fifth.id.clone(),
        expected_version: 0,
        idempotency_key: key(),
        setup: Some(board(&fifth.players, game::PlayMode::Digital, "no-such-session", 1)),
        hands: None,
    };
    let status = fifth.desk().start_deal(request).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("no session no-such-session"), "{}", status.message());
}

#[tokio::test]
async fn each_principal_acts_only_where_the_laws_and_the_table_let_him() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let setup = table.rubber(game::PlayMode::Recorded, false);
    let start = |client: &mut GameClient| {
        let request = game::StartDealRequest {
            table_id: table.id.clone(),
            expected_version: 0,
            idempotency_key: key(),
            setup: Some(setup.clone()),
            hands: Some(game::start_deal_request::Hands::DealPbn(PBN.to_owned())),
        };
        let mut client = client.clone();
        async move { client.start_deal(request).await }
    };
    // A player starts only a deal he plays.
    let stranger = start(&mut app.game("stranger", &[Role::Player])).await.unwrap_err();
    assert_eq!(stranger.code(), Code::PermissionDenied);
    let view = start(&mut table.player(South)).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.viewer.unwrap().seat, South.to_proto());
    assert_eq!(view.hands.len(), 1, "South sees his own hand");

    // A live deal's record is the arbiter's alone.
    let record = game::GetDealRecordRequest { deal_id: view.deal_id.clone() };
    assert_eq!(table.player(North).get_deal_record(record.clone()).await.unwrap_err().code(), Code::PermissionDenied);
    let full = table.arbiter().get_deal_record(record).await.unwrap().into_inner().record.unwrap();
    assert!(full.deal.is_some());

    // Someone not at the table records no irregularity and calls no arbiter; a player calls the
    // arbiter only for his own seat.
    let fact =
        game::IrregularityFact { description: "a hesitation".into(), ..fact(game::IrregularityKind::Other, East) };
    let status = table.record(&mut app.game("stranger", &[Role::Player]), fact.clone(), None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let call = |seat: Seat| game::CallArbiterRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        seat: seat.to_proto(),
        reason: "a question".into(),
    };
    assert_eq!(table.player(West).call_arbiter(call(East)).await.unwrap_err().code(), Code::PermissionDenied);
    let answered = table.player(West).call_arbiter(call(West)).await.unwrap().into_inner();
    assert_eq!(answered.arbiter_call.unwrap().called_by_seat, West.to_proto());
    // Only the arbiter resolves it (the contract's roles).
    let resolve = game::ResolveArbiterCallRequest {
        table_id: table.id.clone(),
        expected_version: answered.view.as_ref().unwrap().version,
        idempotency_key: key(),
        arbiter_call_id: answered.view.unwrap().open_arbiter_calls[0].arbiter_call_id.clone(),
        resolution: "answered".into(),
    };
    assert_eq!(
        table.player(West).resolve_arbiter_call(resolve.clone()).await.unwrap_err().code(),
        Code::PermissionDenied
    );
    table.arbiter().resolve_arbiter_call(resolve).await.unwrap();

    // A table device records a choice only for the player it names.
    table.call(North, "1S").await;
    table.call(East, "1H").await;
    let status = table.choose(&mut table.desk(), "reject_insufficient_bid", None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().starts_with("chooser_seat"), "{}", status.message());
    let chosen = table.choose(&mut table.desk(), "reject_insufficient_bid", Some(South), None).await.unwrap();
    assert!(chosen.next_decision.is_some(), "Law 27B: the offender now replaces his bid");
    // A stranger enters no result.
    let status = game::EnterResultRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        result: Some(pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::PassedOut(pb::PassedOut {})),
            honors: vec![],
        }),
    };
    let refused = app.game("stranger", &[Role::Player]).enter_result(status).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
}

/// A rubber's scorepad at `table` in the scoring service, North dealing first.
async fn rubber_pad(table: &Table<'_>) -> api::scoring::v1::Scorepad {
    scorepad(table.app, &table.lineup().scorepad_id).await
}

/// Starts the pad's next deal at `table`, its number, dealer and vulnerability from the pad as
/// the contract says (`Scorepad.next_deal`); `None` once the rubber is over.
async fn start_next_deal(
    table: &Table<'_>,
    pad: &api::scoring::v1::Scorepad,
    mode: game::PlayMode,
) -> Option<game::TableView> {
    let next = pad.next_deal?;
    let mut setup = table.rubber(mode, false);
    setup.source = Some(game::deal_setup::Source::Rubber(game::RubberDeal {
        rubber_id: pad.rubber_id.clone(),
        scorepad_id: pad.scorepad_id.clone(),
        deal_number: next.deal_number,
        club_laws: false,
    }));
    (setup.dealer, setup.vulnerability) = (next.dealer, next.vulnerability);
    setup.result_only = mode == game::PlayMode::Recorded;
    Some(table.start(setup, None).await)
}

/// The pad once scoring has recorded deal `deal_id` (it travels through the game's outbox).
async fn pad_with(app: &TestApp, scorepad_id: &str, deal_id: &str) -> api::scoring::v1::Scorepad {
    outbox_when(app, deal_id, |r| r.4).await;
    let pad = scorepad(app, scorepad_id).await;
    assert!(pad.deals.iter().any(|d| d.deal_id == deal_id), "deal {deal_id} acknowledged but not on the pad");
    pad
}

/// docs/architecture.md, "Observability": one trace shows a card played (here a result entered),
/// the deal finishing, and the score being written, though the result reaches scoring through the
/// outbox and a background worker.
#[tokio::test]
async fn one_trace_shows_the_deal_finishing_and_scoring_writing_its_result() {
    use Seat::*;
    e2e::telemetry();
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let pad = rubber_pad(&table).await;
    start_next_deal(&table, &pad, game::PlayMode::Recorded).await.unwrap();

    let root = tracing::info_span!("test.client");
    let trace_id = e2e::trace_id(&root);
    let view = enter_result(&table, "4S", North, 10, &[]).instrument(root).await.unwrap();
    pad_with(&app, &pad.scorepad_id, &view.deal_id).await;

    let entered = "/bridgeclub.game.v1.GameService/EnterResult";
    let recorded = "/bridgeclub.scoring.v1.ScoringService/RecordDealResult";
    let delivery = "outbox.deliver scoring.RecordDealResult";
    let trace = e2e::trace_when(trace_id, |spans| {
        [entered, recorded, delivery].iter().all(|name| spans.iter().any(|s| s.name == *name))
            && spans.iter().any(|s| s.name == "test.client")
    })
    .await;
    let named = |name: &str| trace.iter().find(|s| s.name == name).unwrap();
    let client = named("test.client");
    let handler = named(entered);
    assert_eq!(handler.parent_span_id, client.span_context.span_id(), "the game handler is the client's call");
    let deliveries: Vec<_> = trace.iter().filter(|s| s.name == delivery).collect();
    assert_eq!(deliveries.len(), 1, "delivered once, at the first attempt");
    assert!(
        e2e::descends_from(&trace, deliveries[0], handler.span_context.span_id()),
        "the delivery continues the handler that wrote the outbox row: {trace:#?}"
    );
    assert!(
        deliveries[0].links.links.iter().any(|link| link.span_context.trace_id() != trace_id),
        "the delivery links the worker's round that made it: {:#?}",
        deliveries[0]
    );
    let scoring: Vec<_> = trace.iter().filter(|s| s.name == recorded).collect();
    assert_eq!(scoring.len(), 1);
    assert_eq!(
        scoring[0].parent_span_id,
        deliveries[0].span_context.span_id(),
        "scoring's span is the delivery's call"
    );
}

/// A result entered at a recorded table: contract, declarer, tricks and honors.
type Entered<'a> = (&'a str, Seat, u32, &'a [pb::Honors]);

/// Issue 6, "Done when": a rubber played through the game service ends with the right totals and
/// bonus. Each deal is started from the pad's next deal (number, dealer, vulnerability), played
/// digitally or entered as a result, and reaches the pad through the outbox; the totals are worked
/// by hand from Law 81's table.
#[tokio::test]
async fn a_rubber_played_through_the_game_service_ends_with_the_law_81_totals_and_bonus() {
    use Seat::*;
    use api::scoring::v1 as scoring;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let mut pad = rubber_pad(&table).await;
    let ns_four_honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    // (contract, declarer, tricks, honors) entered at a recorded table; `None`: a digital deal,
    // passed out by the players themselves.
    let deals: [Option<Entered>; 6] = [
        None,
        Some(("4S", South, 11, std::slice::from_ref(&ns_four_honors))),
        Some(("2H", East, 8, &[])),
        Some(("3NTX", North, 7, &[])),
        Some(("2S", West, 9, &[])),
        Some(("6D", South, 12, &[])),
    ];
    let mut dealt = Vec::new();
    for deal in deals {
        let mode = if deal.is_some() { game::PlayMode::Recorded } else { game::PlayMode::Digital };
        let started = start_next_deal(&table, &pad, mode).await.expect("the rubber is still on");
        let setup = started.setup.clone().unwrap();
        let dealer = seat_of(setup.dealer);
        dealt.push((dealer, pb::Vulnerability::try_from(setup.vulnerability).unwrap()));
        let view = match deal {
            Some((contract, declarer, tricks, honors)) => {
                enter_result(&table, contract, declarer, tricks, honors).await.unwrap()
            }
            None => {
                let mut view = started;
                for seat in [dealer, dealer.next(), dealer.next().next(), dealer.next().next().next()] {
                    view = table.call_as(&mut table.player(seat), seat, "Pass").await.unwrap();
                }
                view
            }
        };
        assert_eq!(view.phase, game::DealPhase::Finished as i32, "{view:?}");
        pad = pad_with(&app, &pad.scorepad_id, &view.deal_id).await;
    }

    // Law 9: the deal passes clockwise, a passed-out deal included (Law 22A: the next dealer
    // deals). Law 73: a side is vulnerable once it has won a game: North-South from deal 3, both
    // from deal 6.
    use pb::Vulnerability as V;
    assert_eq!(
        dealt,
        [
            (North, V::None),
            (East, V::None),
            (South, V::NorthSouth),
            (West, V::NorthSouth),
            (North, V::NorthSouth),
            (East, V::Both)
        ]
    );
    assert_eq!(pad.status, scoring::ScorepadStatus::Finished as i32, "North-South won two games (Law 74)");
    assert!(pad.next_deal.is_none(), "no deal after the rubber");
    assert!(start_next_deal(&table, &pad, game::PlayMode::Recorded).await.is_none());
    assert!(pad.deals.iter().all(|d| d.source == scoring::ResultSource::Game as i32 && !d.struck));
    let games: Vec<i32> = pad.games.iter().map(|g| g.winner).collect();
    let (ns, ew) = (pb::Side::NorthSouth as i32, pb::Side::EastWest as i32);
    assert_eq!(games, [ns, ew, ns], "games to North-South (4S), East-West (2H then 2S), North-South (6D)");

    // Law 81, by hand:
    // 1. passed out: nothing.
    // 2. 4S by South, 11 tricks, not vulnerable: 4 x 30 = 120 below (game), one overtrick 30
    //    above, South's four trump honors 100 above. North-South 250.
    // 3. 2H by East, 8 tricks: 2 x 30 = 60 below (a partscore toward game 2). East-West 60.
    // 4. 3NT doubled by North, 7 tricks (two down), vulnerable: 200 + 300 = 500 above to
    //    East-West. East-West 560.
    // 5. 2S by West, 9 tricks, not vulnerable: 60 below (60 + 60 = 120: game), one overtrick 30
    //    above. East-West 650.
    // 6. 6D by South, 12 tricks, vulnerable: 6 x 20 = 120 below (game and rubber), small slam
    //    vulnerable 750 above, rubber bonus two games to one 500 (Law 74). North-South
    //    250 + 120 + 750 + 500 = 1620.
    let entries = |side: i32| -> Vec<(u32, i32, u32, i32)> {
        pad.entries
            .iter()
            .filter(|e| e.side == side && !e.struck)
            .map(|e| (e.deal_number, e.line, e.points, e.item))
            .collect()
    };
    use scoring::ScoreItem as I;
    let (below, above) = (scoring::ScoreLine::Below as i32, scoring::ScoreLine::Above as i32);
    let number = |i: usize| pad.deals.iter().filter(|d| !d.struck).nth(i).unwrap().deal_number;
    let mut north_south = entries(ns);
    north_south.sort();
    let mut expected = vec![
        (number(1), below, 120, I::TrickPoints as i32),
        (number(1), above, 30, I::Overtricks as i32),
        (number(1), above, 100, I::Honors as i32),
        (number(5), below, 120, I::TrickPoints as i32),
        (number(5), above, 750, I::Slam as i32),
        (0, above, 500, I::RubberBonus as i32),
    ];
    expected.sort();
    assert_eq!(north_south, expected);
    let mut east_west = entries(ew);
    east_west.sort();
    let mut expected = vec![
        (number(2), below, 60, I::TrickPoints as i32),
        (number(3), above, 500, I::Undertricks as i32),
        (number(4), below, 60, I::TrickPoints as i32),
        (number(4), above, 30, I::Overtricks as i32),
    ];
    expected.sort();
    assert_eq!(east_west, expected);
    let (north_south, east_west) = (pad.north_south.unwrap(), pad.east_west.unwrap());
    assert_eq!((north_south.total, east_west.total), (1620, 650));
    assert_eq!((north_south.games_won, east_west.games_won), (2, 1));
    let net = pad.net.unwrap();
    assert_eq!((net.winner, net.margin), (ns, 970), "1620 - 650");
}

/// The open decision's option whose description starts with `prefix`, chosen by `client`.
async fn choose_described(
    table: &Table<'_>,
    client: &mut GameClient,
    prefix: &str,
    chooser: Option<Seat>,
) -> Result<game::ChooseRectificationResponse, Status> {
    let view = table.view().await;
    let decision = view.pending_decisions.first().unwrap_or_else(|| panic!("no decision open for {prefix}"));
    let option = decision.options.iter().find(|o| o.description.starts_with(prefix)).unwrap_or_else(|| {
        panic!("{prefix} not offered: {:?}", decision.options.iter().map(|o| &o.description).collect::<Vec<_>>())
    });
    let request = game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: chooser.map_or(0, Seat::to_proto),
        call: None,
        artificial: None,
    };
    Ok(client.choose_rectification(request).await?.into_inner())
}

#[tokio::test]
async fn duplicate_law_45c4b_a_changed_designation_lets_the_opponent_withdraw_and_law_46_deems_dummys_card() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    table.play(East, "CA").await;
    table.play(South, "CT").await;
    table.play(West, "C5").await;
    // Declarer said "ten" meaning the nine, a slip of the tongue (Law 45C4(b)): the tablet
    // records the card designated instead.
    let recorded = table
        .record(
            &mut table.player(North),
            game::IrregularityFact {
                card: Some(pcard("C9")),
                ..fact(game::IrregularityKind::ChangeOfDesignation, North)
            },
            Some(North),
        )
        .await
        .unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.fact.unwrap().kind, game::IrregularityKind::ChangeOfDesignation as i32);
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "C"));
    assert!(recorded.arbiter_call.is_some(), "duplicate Law 9B1(a): the Director is summoned");
    let decision = recorded.decision.expect("West may withdraw his card (Law 45C4(b), 47D)");
    assert!(decision.options.iter().all(|o| o.kind == "withdraw_after_change"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    let view = recorded.view.unwrap();
    let trick: Vec<(i32, Card)> =
        view.tricks[0].cards.iter().map(|p| (p.seat, Card::try_from(p.card.unwrap()).unwrap())).collect();
    assert_eq!(
        trick,
        vec![
            (East.to_proto(), "CA".parse().unwrap()),
            (South.to_proto(), "C9".parse().unwrap()),
            (West.to_proto(), "C5".parse().unwrap())
        ]
    );
    table.resolve_calls().await;
    // Declarer may not choose for West; West withdraws his five.
    let status = choose_described(&table, &mut table.player(North), "West withdraw", None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let chosen = choose_described(&table, &mut table.player(West), "West withdraw", None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(seat_of(view.next_to_act), West);
    assert!(view.penalty_cards.is_empty(), "Law 47D: without further rectification");
    assert!(hand(&view, West).unwrap().contains("C5".parse().unwrap()));
    table.play(West, "C6").await;
    table.play(North, "C2").await;
    // East leads a diamond; declarer calls "low" (Law 46B1(c)): dummy's lowest diamond is played.
    table.play(East, "D2").await;
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                designation: Some(game::CardDesignation {
                    kind: game::DesignationKind::Low as i32,
                    ..Default::default()
                }),
                ..fact(game::IrregularityKind::IncompleteDesignation, North)
            },
            None,
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (46, "B1(c)"));
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[1].cards[1].card, Some(pcard("DJ")));
    table.resolve_calls().await;
    // West follows; then dummy's card turns out not to be the one declarer named (Law 45D1).
    table.play(West, "D8").await;
    let recorded =
        table.record_card_fact(game::IrregularityKind::UndesignatedDummyCard, South, "DQ", Some(West)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (45, "D1"));
    assert!(recorded.decision.unwrap().options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    // Rebuilt from the journal, the table is the same: the new facts replay exactly.
    let before = table.view().await;
    app.flush_redis().await;
    assert_eq!(table.view().await, before);
}

#[tokio::test]
async fn rubber_law_58_declarer_designates_one_of_dummys_two_cards_and_the_defender_changes_his() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    // Dummy's ten and nine come out together; the tablet took the ten; West plays to it.
    table.play(South, "CT").await;
    table.play(West, "C5").await;
    // "If declarer withdraws a visible card and a defender has already played to that card,
    // such defender may, without penalty, withdraw his card and substitute another."
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                card: Some(pcard("C9")),
                also_visible: vec![pcard("C9")],
                ..fact(game::IrregularityKind::SimultaneousCards, North)
            },
            Some(West),
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (58, ""));
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[0].cards[1].card, Some(pcard("C9")));
    assert!(hand(&view, South).unwrap().contains("CT".parse().unwrap()), "restored to dummy");
    assert!(view.penalty_cards.is_empty(), "declarer's cards are never penalty cards");
    let decision = recorded.decision.expect("West may change his card");
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    let chosen = choose_described(&table, &mut table.player(West), "West withdraw", None).await.unwrap();
    let view = chosen.view.unwrap();
    assert!(hand(&view, West).unwrap().contains("C5".parse().unwrap()));
    table.play(West, "C6").await;
    let view = table.play(North, "C2").await;
    assert_eq!(view.tricks[0].cards.len(), 4);
    // West then adds his seven to the finished trick: "he withdraws all but one card", and the
    // card withdrawn is a penalty card, minor as exposed inadvertently (rubber Laws 67A, 50).
    let extra = game::IrregularityFact {
        card: Some(pcard("C7")),
        trick_number: 1,
        ..fact(game::IrregularityKind::ExtraCardToTrick, West)
    };
    let recorded = table.record(&mut table.desk(), extra, Some(North)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (67, "A2"));
    let view = recorded.view.unwrap();
    assert_eq!(view.penalty_cards.len(), 1);
    assert_eq!(view.penalty_cards[0].kind, game::PenaltyCardKind::Minor as i32);
    // A request naming no other visible card is refused, naming what is missing.
    let status =
        table.record(&mut table.desk(), fact(game::IrregularityKind::SimultaneousCards, East), None).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
}

#[tokio::test]
async fn duplicate_law_47e2a_the_opening_lead_is_retracted_before_dummy_is_faced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    let view = table.play(East, "CA").await;
    assert!(hand(&view, South).is_some(), "dummy is shown with the opening lead");
    // North's explanation of the auction was mistaken; corrected before dummy spread his hand,
    // East takes his lead back ("An opening lead may not be retracted after dummy has faced any
    // card").
    let recorded = table
        .record_card_fact(game::IrregularityKind::OpeningLeadRetractedBeforeDummyFaced, North, "CA", Some(East))
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "E2(a)"));
    let west = table.view_as(&mut table.player(West)).await;
    assert!(hand(&west, South).is_none(), "dummy is face down again");
    assert!(west.tricks.iter().all(|t| t.cards.is_empty()));
    table.resolve_calls().await;
    let view = table.play(East, "H7").await;
    assert_eq!(view.tricks[0].cards[0].card, Some(pcard("H7")));
    // Once dummy has played a card it is too late, and the refusal names the Law.
    table.play(South, "H2").await;
    let status = table
        .record_card_fact(game::IrregularityKind::OpeningLeadRetractedBeforeDummyFaced, North, "H7", None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains("47E2(a)"), "{}", status.message());
}

#[tokio::test]
async fn duplicate_law_36c_an_unnoticed_inadmissible_double_found_in_the_play_is_scored_as_not_made() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    table.calls(&[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass")]).await;
    // North doubles his partner's bid (Law 19A1) and nobody notices: the table plays on.
    let double = |kind| game::IrregularityFact { call: Some(pcall("X")), ..fact(kind, North) };
    let recorded =
        table.record(&mut table.desk(), double(game::IrregularityKind::UnnoticedInadmissibleCall), None).await.unwrap();
    assert!(recorded.arbiter_call.is_none(), "nobody noticed, so nobody called the Director");
    let view = table.calls(&[(East, "Pass"), (South, "Pass"), (West, "Pass")]).await;
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    assert_eq!(contract.to_string(), "2SX by North", "played as bid");
    table.play(East, "CA").await;
    // East notices after the opening lead: "the final contract is scored as if the inadmissible
    // call had not been made" (Law 36C).
    let recorded = table
        .record(&mut table.desk(), double(game::IrregularityKind::AttentionToUnnoticedCall), Some(East))
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (36, "C"));
    let scored = laws::DeclaredContract::try_from(recorded.view.unwrap().contract_scored.unwrap()).unwrap();
    assert_eq!(scored.to_string(), "2S by North", "every viewer is told what will be scored");
    table.resolve_calls().await;
    let view = table.play_out(false).await;
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    assert_eq!(played(&result).0, "2S");
}

#[tokio::test]
async fn rubber_law_27a_an_artificial_insufficient_bid_is_shown_as_such_and_has_no_same_denomination_correction() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(PBN)).await;
    table.call(North, "1NT").await;
    // East's 1C shows both majors (the partnership's methods say so) and is insufficient.
    let majors = game::ArtificialMeaning { suits: vec![pb::Suit::Hearts as i32, pb::Suit::Spades as i32] };
    let request = game::MakeCallRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        seat: East.to_proto(),
        call: Some(pcall("1C")),
        artificial: Some(majors.clone()),
    };
    let view = table.desk().make_call(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.auction[1].artificial, Some(majors), "every viewer sees what the call showed");
    assert!(view.auction[0].artificial.is_none());
    // Law 27A: "if the insufficient bid and sufficient bid are both not artificial, the auction
    // proceeds as though the irregularity had not occurred": no such correction is offered.
    table.choose(&mut table.player(South), "reject_insufficient_bid", None, None).await.unwrap();
    let offered: Vec<String> = table.view().await.pending_decisions[0].options.iter().map(|o| o.kind.clone()).collect();
    assert!(!offered.iter().any(|k| k == "lowest_sufficient_bid"), "{offered:?}");
    // A suit the Laws do not know is refused, naming the field.
    let request = game::MakeCallRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        seat: South.to_proto(),
        call: Some(pcall("2C")),
        artificial: Some(game::ArtificialMeaning { suits: vec![0] }),
    };
    let status = table.desk().make_call(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("artificial.suits[0]"), "{}", status.message());
}

#[tokio::test]
async fn duplicate_law_21b_a_pass_changed_after_misinformation_in_the_clarification_period_reopens_the_auction() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    // Before the opening lead is faced West, misinformed by South's explanation, changes his pass
    // to a double: "Until the end of the auction period ... and provided that his partner has not
    // subsequently called, a player may change a call" (Law 21B1(a)).
    let change = game::IrregularityFact {
        call: Some(pcall("X")),
        misinformed: West.to_proto(),
        ..fact(game::IrregularityKind::CallChangedAfterMisinformation, South)
    };
    let recorded = table.record(&mut table.desk(), change.clone(), Some(West)).await.unwrap();
    let irregularity = recorded.irregularity.unwrap();
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (21, "B1"));
    let recorded_fact = irregularity.fact.unwrap();
    assert_eq!(recorded_fact.kind, game::IrregularityKind::CallChangedAfterMisinformation as i32);
    assert_eq!(recorded_fact.misinformed, West.to_proto());
    assert!(recorded.arbiter_call.is_some(), "the Director is summoned (Law 9B1(a))");
    // The Director judges (Law 21B1(b): he presumes a mistaken explanation); the auction reopens.
    table.resolve_calls().await;
    table.choose(&mut table.arbiter(), "change_after_misinformation", None, None).await.unwrap();
    let view = table.view().await;
    assert_eq!(view.phase, game::DealPhase::Auction as i32);
    assert_eq!(seat_of(view.next_to_act), North);
    let view = table.calls(&[(North, "Pass"), (East, "Pass"), (South, "Pass")]).await;
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    assert_eq!(contract.to_string(), "4SX by North");
    // Once the opening lead is faced it is too late: Law 21B3 (an adjusted score instead).
    table.play(East, "CA").await;
    let status = table.record(&mut table.desk(), change, Some(West)).await.unwrap_err();
    assert!(status.message().contains("21B3"), "{}", status.message());
    // Recorded as misinformation found too late, it reserves an adjustment against North-South
    // for the end of play, which the Director sees in the deal's record.
    let too_late =
        game::IrregularityFact { misinformed: East.to_proto(), ..fact(game::IrregularityKind::Misinformation, South) };
    table.record(&mut table.desk(), too_late, Some(East)).await.unwrap();
    let view = table.view().await;
    let request = game::GetDealRecordRequest { deal_id: view.deal_id.clone() };
    let record = table.arbiter().get_deal_record(request).await.unwrap().into_inner().record.unwrap();
    let reserved: Vec<(i32, String)> = record
        .reserved_adjustments
        .iter()
        .map(|r| (r.offending_side, r.law.as_ref().map(|l| format!("{}{}", l.number, l.section)).unwrap_or_default()))
        .collect();
    assert!(reserved.contains(&(pb::Side::NorthSouth as i32, "21B3".to_owned())), "{reserved:?}");
}

#[tokio::test]
async fn rubber_law_47d_a_lead_made_because_an_opponent_said_it_was_his_turn_and_a_play_after_misexplanation() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    for (seat, card) in [(East, "CA"), (South, "CT"), (West, "C5"), (North, "C2")] {
        table.play(seat, card).await;
    }
    // West leads at East's turn (Law 56: declarer's decision)...
    let view = table.play(West, "HA").await;
    assert_eq!(view.pending_decisions.len(), 1);
    // ... because North told him it was his lead: retracted without penalty (Law 47D).
    let recorded = table
        .record(
            &mut table.player(East),
            game::IrregularityFact {
                card: Some(pcard("HA")),
                ..fact(game::IrregularityKind::MisinformedOfTurn, North)
            },
            Some(East),
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "D"));
    let view = recorded.view.unwrap();
    assert!(view.pending_decisions.is_empty(), "the lead may not be accepted");
    assert!(view.penalty_cards.is_empty());
    assert_eq!(seat_of(view.next_to_act), East);
    // East leads; dummy plays the ace after West's mistaken explanation and takes it back.
    table.play(East, "D2").await;
    table.play(South, "DA").await;
    let recorded = table
        .record_card_fact(game::IrregularityKind::RetractionAfterMisexplanation, West, "DA", Some(North))
        .await
        .unwrap();
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[1].cards.len(), 1);
    assert_eq!(seat_of(view.next_to_act), South);
    // The misinformation must be an opponent's: North is dummy's partner.
    table.play(South, "DJ").await;
    let status = table
        .record_card_fact(game::IrregularityKind::RetractionAfterMisexplanation, North, "DJ", None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 47D"), "{}", status.message());
}

/// A deal and the cards of 3NT by South, recorded up to a defender's revoke on the twelfth trick
/// before his partner plays, the partner holding two suits and none of the suit led; found among
/// seeded deals. Also the revoker.
fn twelfth_trick_revoke() -> (laws::Deal, Vec<(Seat, Card)>, Seat) {
    use laws::play::Play;
    let contract: laws::Contract = "3NT".parse().unwrap();
    let revoke_here = |play: &Play| -> Option<(Seat, Card)> {
        let seat = play.next_to_play()?;
        let led = play.current_trick()?.suit_led()?;
        let hand = play.hand(seat);
        let partner = play.hand(seat.partner());
        let waiting = play.current_trick()?.card(seat.partner()).is_none();
        let suits = laws::Suit::ALL.iter().filter(|s| partner.has_suit(**s)).count();
        if !play.is_defender(seat) || !hand.has_suit(led) || hand.suit(led) == hand || !waiting {
            return None;
        }
        if suits < 2 || partner.has_suit(led) {
            return None;
        }
        hand.iter().find(|c| c.suit != led).map(|c| (seat, c))
    };
    for n in 0..=255u8 {
        for stride in [1usize, 2, 3] {
            let deal = laws::Deal::from_seed(&laws::DealSeed([n; 32]));
            let declared = laws::DeclaredContract { contract, declarer: Seat::South };
            let mut play = Play::new(deal, declared, laws::Code::Rubber, vec![], vec![]).unwrap();
            let mut cards = Vec::new();
            let mut k = n as usize;
            while play.completed_tricks() < 11 {
                let legal: Vec<Card> = play.legal_cards().iter().collect();
                k = k.wrapping_mul(31).wrapping_add(stride);
                let card = legal[k % legal.len()];
                cards.push((play.next_to_play().unwrap(), card));
                play = play.card(card).unwrap();
            }
            for lead in play.legal_cards().iter() {
                let mut sequence = cards.clone();
                sequence.push((play.next_to_play().unwrap(), lead));
                let led = play.card(lead).unwrap();
                if let Some(revoke) = revoke_here(&led) {
                    sequence.push(revoke);
                    return (deal, sequence, revoke.0);
                }
                for second in led.legal_cards().iter() {
                    let after = led.card(second).unwrap();
                    if let Some(revoke) = revoke_here(&after) {
                        sequence.push((led.next_to_play().unwrap(), second));
                        sequence.push(revoke);
                        return (deal, sequence, revoke.0);
                    }
                }
            }
        }
    }
    panic!("no suitable deal among the seeds");
}

/// The cards a text names as the service writes them (suit letter and rank).
fn cards_named(text: &str) -> Vec<Card> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|token| token.parse::<Card>().ok().filter(|card| card.to_string() == token))
        .collect()
}

/// The events of a table from the start of its journal up to the first event `done` accepts,
/// as `client` is sent them.
async fn events_until(
    client: &mut GameClient,
    table_id: &str,
    done: impl Fn(&game::TableEvent) -> bool,
) -> Vec<game::TableEvent> {
    let request = game::WatchTableRequest { table_id: table_id.to_owned(), after_sequence: Some(0) };
    let mut stream = client.watch_table(request).await.unwrap().into_inner();
    let mut events = Vec::new();
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(20), stream.next()).await;
        let event = next.expect("the event arrives").unwrap().unwrap().event.unwrap();
        let last = done(&event);
        events.push(event);
        if last {
            return events;
        }
    }
}

#[tokio::test]
async fn rubber_law_62_the_twelfth_trick_options_show_the_partners_cards_to_the_arbiter_only() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let (deal, cards, revoker) = twelfth_trick_revoke();
    let partner = revoker.partner();
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(&deal.to_pbn(North))).await;
    table
        .calls(&[(North, "Pass"), (East, "Pass"), (South, "3NT"), (West, "Pass"), (North, "Pass"), (East, "Pass")])
        .await;
    for (seat, card) in &cards {
        table.play(*seat, &card.to_string()).await;
    }
    // Declarer draws attention to the revoke at once: it is corrected (Law 62), and declarer
    // may require the partner to play either of the two cards he could legally play.
    let recorded = table
        .record(
            &mut table.player(South),
            game::IrregularityFact { trick_number: 12, ..fact(game::IrregularityKind::Revoke, revoker) },
            Some(South),
        )
        .await
        .unwrap();
    let decision = recorded.decision.expect("rubber Law 62: declarer's choice");
    let kinds: Vec<&str> = decision.options.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(kinds, ["partner_plays", "partner_plays", "waive"]);
    let held = table.view().await;
    let hidden = hand(&held, partner).unwrap();
    assert_eq!(hidden.len(), 2);
    // Every player and a spectator read the options: no card of the partner's hand in them, and
    // no cards carried for the official.
    let mut readers: Vec<GameClient> = Seat::ALL.iter().map(|s| table.player(*s)).collect();
    readers.push(app.game("kibitzer", &[Role::Player]));
    readers.push(table.desk());
    for reader in &mut readers {
        let view = table.view_as(reader).await;
        let decision = view.pending_decisions.first().unwrap();
        for option in &decision.options {
            assert!(option.official_cards.is_empty(), "{option:?}");
            for card in cards_named(&option.description) {
                assert!(!hidden.contains(card), "{} shows the {card}", option.description);
            }
        }
        let listed = reader
            .get_rectification_options(game::GetRectificationOptionsRequest {
                table_id: table.id.clone(),
                decision_id: String::new(),
            })
            .await;
        if let Ok(listed) = listed {
            assert!(listed.into_inner().decisions.iter().flat_map(|d| &d.options).all(|o| o.official_cards.is_empty()));
        }
    }
    let distinct: Vec<&str> = decision.options.iter().map(|o| o.description.as_str()).collect();
    assert_ne!(distinct[0], distinct[1], "declarer can tell the two options apart");
    // The arbiter is given the cards.
    let view = table.view().await;
    let official: CardSet = view.pending_decisions[0]
        .options
        .iter()
        .flat_map(|o| o.official_cards.iter().map(|c| Card::try_from(*c).unwrap()))
        .collect();
    assert_eq!(official, hidden);
    // So is the stream: each watcher gets the offer filtered for him.
    let offered = |event: &game::TableEvent| match &event.event {
        Some(game::table_event::Event::RectificationOffered(d)) => d.options.iter().any(|o| o.kind == "partner_plays"),
        _ => false,
    };
    let cards_in = |events: &[game::TableEvent]| -> usize {
        events
            .iter()
            .filter_map(|e| match &e.event {
                Some(game::table_event::Event::RectificationOffered(d)) => Some(d),
                _ => None,
            })
            .flat_map(|d| &d.options)
            .map(|o| o.official_cards.len())
            .sum()
    };
    let west = events_until(&mut table.player(West), &table.id, offered).await;
    assert_eq!(cards_in(&west), 0, "West is sent no card of the hidden hand");
    let arbiter = events_until(&mut table.arbiter(), &table.id, offered).await;
    assert_eq!(cards_in(&arbiter), 2);
    // Declarer chooses; the requirement binding the partner names no card either.
    let chosen = table.choose(&mut table.player(South), "partner_plays", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    let required = view.restrictions.iter().find(|r| r.kind == game::RestrictionKind::PlayCardRequired as i32).unwrap();
    assert_eq!(required.seat, partner.to_proto());
    assert!(cards_named(&required.description).iter().all(|c| !hidden.contains(*c)), "{}", required.description);
}
