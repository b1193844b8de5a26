//! Property: however a duplicate session goes (tables starting and finishing boards in any
//! order, the director releasing boards), whoever reads whatever at whatever moment, no card,
//! call, play or result of a board reaches a principal not entitled to it at that moment.
//!
//! Entitled, as the model below keeps it: club staff always; a player to his own table's deal;
//! a player to a board's session results once his own pair has played it; and everyone to a
//! finished deal of a board once every table of the movement has finished it or the director
//! released it. The server releases a board only once the results have reached scoring, which is
//! after the model's "finished", so the model never calls a disclosure late that the server
//! allowed in time.

use std::collections::{HashMap, HashSet};

use api::common::v1 as pb;
use api::game::v1 as game;
use api::scoring::v1 as spb;
use e2e::{Rng, TestApp};
use futures::StreamExt;
use platform::auth::Role;
use tonic::Code;

const BOARDS: u32 = 3;
const TABLES: u32 = 3;

/// North-South at table `t` is pair `2t + 1`, East-West pair `2t + 2`.
fn pairs_at(table: u32) -> (u32, u32) {
    (2 * table + 1, 2 * table + 2)
}

fn table_id(table: u32) -> String {
    format!("table-{table}")
}

fn player(pair: u32, which: char) -> String {
    format!("pair-{pair}-{which}")
}

/// Who reads.
#[derive(Debug, Clone)]
enum Reader {
    /// A player of `pair`.
    Player(u32, String),
    /// A member who plays in no pair of the session.
    Kibitzer,
    /// The desk or the director.
    Staff(Role),
}

/// Where each table stands with each board, and what the director released.
#[derive(Debug, Default)]
struct Model {
    /// (table, board) -> the deal and whether it finished.
    deals: HashMap<(u32, u32), (String, bool)>,
    /// The deal live at each table.
    live: HashMap<u32, u32>,
    released: HashSet<u32>,
}

impl Model {
    fn finished(&self, table: u32, board: u32) -> bool {
        self.deals.get(&(table, board)).is_some_and(|(_, finished)| *finished)
    }

    /// Every table of the movement (each table plays each board) finished it, or released.
    fn board_open(&self, board: u32) -> bool {
        self.released.contains(&board) || (0..TABLES).all(|t| self.finished(t, board))
    }

    /// Whether `reader` may see the deal of `board` at `table`.
    fn may_see_deal(&self, reader: &Reader, table: u32, board: u32) -> bool {
        match reader {
            Reader::Staff(_) => true,
            Reader::Player(pair, _)
                if {
                    let (ns, ew) = pairs_at(table);
                    *pair == ns || *pair == ew
                } =>
            {
                true
            }
            _ => self.finished(table, board) && self.board_open(board),
        }
    }

    /// Whether `reader` may see `board`'s hands and results in the session.
    fn may_see_board(&self, reader: &Reader, board: u32) -> bool {
        match reader {
            Reader::Staff(_) => true,
            Reader::Player(pair, _) => {
                let table = (pair - 1) / 2;
                self.finished(table, board)
                    || (0..TABLES).all(|t| self.finished(t, board))
                    || self.released.contains(&board)
            }
            Reader::Kibitzer => (0..TABLES).all(|t| self.finished(t, board)) || self.released.contains(&board),
        }
    }

    /// The table and board of a deal.
    fn locate(&self, deal_id: &str) -> Option<(u32, u32)> {
        self.deals.iter().find(|(_, (id, _))| id == deal_id).map(|(key, _)| *key)
    }
}

/// North: S AKQJ H T98 D 765 C 432 and so on: every board of the hand record.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

async fn session(app: &TestApp) -> String {
    let contestant = |n: u32| spb::Contestant {
        contestant_id: n.to_string(),
        name: format!("Pair {n}"),
        player_ids: vec![player(n, 'a'), player(n, 'b')],
        captain_player_id: String::new(),
    };
    let deal: pb::Deal = PBN.parse::<laws::Deal>().unwrap().into();
    let request = spb::CreateSessionRequest {
        name: "secrecy".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=BOARDS)
            .map(|number| spb::Board { number, deal: Some(deal.clone()), ..Default::default() })
            .collect(),
        contestants: (1..=2 * TABLES).map(contestant).collect(),
    };
    app.register_contestants(&request).await;
    let mut desk = app.scoring("front-desk", &[Role::Desk]);
    let session = desk.create_session(request).await.unwrap().into_inner().session.unwrap().session_id;
    let assignments = (0..TABLES)
        .flat_map(|t| {
            (1..=BOARDS).map(move |board| {
                let (ns, ew) = pairs_at(t);
                spb::TableAssignment {
                    table_id: table_id(t),
                    board_number: board,
                    north_south_contestant_id: ns.to_string(),
                    east_west_contestant_id: ew.to_string(),
                }
            })
        })
        .collect();
    desk.assign_tables(spb::AssignTablesRequest { session_id: session.clone(), assignments }).await.unwrap();
    session
}

async fn version(app: &TestApp, table: u32) -> u64 {
    let request = game::GetTableStateRequest { table_id: table_id(table) };
    let state = app.game("front-desk", &[Role::Desk]).get_table_state(request).await.unwrap().into_inner();
    state.view.unwrap().version
}

/// Starts `board` at `table` from the desk, recorded, result only.
async fn start(app: &TestApp, session: &str, table: u32, board: u32) -> String {
    let (ns, ew) = pairs_at(table);
    let players = [player(ns, 'a'), player(ew, 'a'), player(ns, 'b'), player(ew, 'b')];
    let setup = game::DealSetup {
        source: Some(game::deal_setup::Source::Board(game::DuplicateBoard {
            session_id: session.to_owned(),
            board_number: board,
            ..Default::default()
        })),
        kind: pb::TableKind::Duplicate as i32,
        mode: game::PlayMode::Recorded as i32,
        players: [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West]
            .iter()
            .zip(players)
            .map(|(seat, player_id)| pb::SeatedPlayer { seat: *seat as i32, player_id })
            .collect(),
        result_only: true,
        ..Default::default()
    };
    let request = game::StartDealRequest {
        table_id: table_id(table),
        expected_version: version(app, table).await,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(setup),
        hands: None,
    };
    let view = app.game("front-desk", &[Role::Desk]).start_deal(request).await.unwrap().into_inner();
    view.view.unwrap().deal_id
}

async fn finish(app: &TestApp, table: u32, tricks: u32) {
    let contract = laws::DeclaredContract { contract: "3NT".parse().unwrap(), declarer: laws::Seat::South };
    let request = game::EnterResultRequest {
        table_id: table_id(table),
        expected_version: version(app, table).await,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        result: Some(pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(contract.into()),
                tricks,
            })),
            honors: vec![],
        }),
    };
    app.game("front-desk", &[Role::Desk]).enter_result(request).await.unwrap();
}

/// One read by `reader` along a path chosen by `rng`, checked against the model.
async fn read(app: &TestApp, model: &Model, session: &str, reader: &Reader, rng: &mut Rng, seed: u64) {
    let (subject, role) = match reader {
        Reader::Player(_, id) => (id.clone(), Role::Player),
        Reader::Kibitzer => ("kibitzer".to_owned(), Role::Player),
        Reader::Staff(role) => (format!("staff-{role}"), *role),
    };
    let mut games = app.game(&subject, &[role]);
    let mut scores = app.scoring(&subject, &[role]);
    let deals: Vec<&String> = model.deals.values().map(|(id, _)| id).collect();
    let leak = |what: &str| format!("seed {seed}: {reader:?} was shown {what}; model {model:?}");
    match rng.below(7) {
        0 | 1 if !deals.is_empty() => {
            let deal_id = deals[rng.below(deals.len())].clone();
            let (table, board) = model.locate(&deal_id).unwrap();
            let shown = if rng.below(2) == 0 {
                games.get_deal_record(game::GetDealRecordRequest { deal_id }).await.map(drop)
            } else {
                games.export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![deal_id] }).await.map(drop)
            };
            match shown {
                Ok(()) => assert!(
                    model.may_see_deal(reader, table, board),
                    "{}",
                    leak(&format!("board {board} at table {table}"))
                ),
                Err(status) => assert!(
                    matches!(status.code(), Code::PermissionDenied | Code::FailedPrecondition),
                    "seed {seed}: {status:?}"
                ),
            }
        }
        2 => {
            let table = rng.below(TABLES as usize) as u32;
            let request = game::GetTableStateRequest { table_id: table_id(table) };
            if let Ok(view) = games.get_table_state(request).await {
                let view = view.into_inner().view.unwrap();
                if let Some((t, board)) = model.locate(&view.deal_id) {
                    assert!(
                        model.may_see_deal(reader, t, board),
                        "{}",
                        leak(&format!("the table view of board {board}"))
                    );
                }
            }
        }
        3 => {
            let table = rng.below(TABLES as usize) as u32;
            let request = game::WatchTableRequest { table_id: table_id(table), after_sequence: None };
            if let Ok(stream) = games.watch_table(request).await {
                let mut stream = stream.into_inner();
                let first = stream.next().await.unwrap().unwrap().event.unwrap();
                if let Some(game::table_event::Event::Snapshot(view)) = first.event
                    && let Some((t, board)) = model.locate(&view.deal_id)
                {
                    assert!(
                        model.may_see_deal(reader, t, board),
                        "{}",
                        leak(&format!("a watch snapshot of board {board}"))
                    );
                }
            }
        }
        4 => {
            let request = game::ListDealsRequest { session_id: session.to_owned(), ..Default::default() };
            for deal in games.list_deals(request).await.unwrap().into_inner().deals {
                if deal.outcome.is_some() {
                    let (table, board) = model.locate(&deal.deal_id).unwrap();
                    assert!(
                        model.may_see_deal(reader, table, board),
                        "{}",
                        leak(&format!("the outcome of board {board}"))
                    );
                }
            }
        }
        5 => {
            let request = spb::GetSessionRequest { session_id: session.to_owned(), ..Default::default() };
            let held = scores.get_session(request).await.unwrap().into_inner().session.unwrap();
            for board in held.boards.iter().filter(|b| b.deal.is_some()) {
                assert!(
                    model.may_see_board(reader, board.number),
                    "{}",
                    leak(&format!("the hands of board {}", board.number))
                );
            }
        }
        _ => {
            let request = spb::ListBoardResultsRequest {
                session_id: session.to_owned(),
                board_number: 0,
                page: None,
                ..Default::default()
            };
            for result in scores.list_board_results(request).await.unwrap().into_inner().results {
                let board = result.key.unwrap().board_number;
                assert!(model.may_see_board(reader, board), "{}", leak(&format!("a result on board {board}")));
            }
        }
    }
}

async fn random_session(app: &TestApp, seed: u64) {
    let mut rng = Rng(seed | 1);
    let session = session(app).await;
    let mut model = Model::default();
    let mut readers = vec![Reader::Kibitzer, Reader::Staff(Role::Desk), Reader::Staff(Role::Arbiter)];
    readers
        .extend((1..=2 * TABLES).map(|pair| Reader::Player(pair, player(pair, if pair % 2 == 0 { 'a' } else { 'b' }))));
    let mut steps = 0;
    while model.deals.values().filter(|(_, finished)| *finished).count() < (TABLES * BOARDS) as usize {
        steps += 1;
        assert!(steps < 2_000, "seed {seed}: the session never ends");
        match rng.below(10) {
            // A free table starts a board it has not played.
            0 | 1 => {
                let table = rng.below(TABLES as usize) as u32;
                let left: Vec<u32> = (1..=BOARDS).filter(|b| !model.deals.contains_key(&(table, *b))).collect();
                if model.live.contains_key(&table) || left.is_empty() {
                    continue;
                }
                let board = left[rng.below(left.len())];
                let deal_id = start(app, &session, table, board).await;
                model.deals.insert((table, board), (deal_id, false));
                model.live.insert(table, board);
            }
            // A table enters its result.
            2 | 3 => {
                let live: Vec<(u32, u32)> = model.live.iter().map(|(t, b)| (*t, *b)).collect();
                if live.is_empty() {
                    continue;
                }
                let (table, board) = live[rng.below(live.len())];
                finish(app, table, 7 + rng.below(4) as u32).await;
                model.live.remove(&table);
                if let Some(deal) = model.deals.get_mut(&(table, board)) {
                    deal.1 = true;
                }
            }
            // Now and then the director releases a board.
            4 if rng.below(6) == 0 => {
                let board = 1 + rng.below(BOARDS as usize) as u32;
                let request = spb::ReleaseBoardRequest { session_id: session.clone(), board_number: board };
                app.scoring("the-director", &[Role::Arbiter]).release_board(request).await.unwrap();
                model.released.insert(board);
            }
            _ => {
                let reader = readers[rng.below(readers.len())].clone();
                read(app, &model, &session, &reader, &mut rng, seed).await;
            }
        }
    }
}

#[tokio::test]
async fn property_no_card_of_a_board_reaches_a_principal_before_he_is_entitled_to_it() {
    let app = TestApp::spawn().await;
    for seed in [6_210_279, 723_501, 1_903_738] {
        random_session(&app, seed).await;
    }
}
