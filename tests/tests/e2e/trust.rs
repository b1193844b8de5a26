//! Trust at every boundary: a request that names something another service owns (a rubber, its
//! table, line-up and scorepad; a duplicate board) is checked against its owner, and the
//! caller's right to act on it too. Each test tries what a player (or an outsider, a desk or an
//! arbiter) could try to see or fix what is not his, and checks the refusal and its rule; the
//! legitimate flows go on working beside them.

use api::common::v1 as pb;
use api::game::v1 as game;
use api::scoring::v1 as spb;
use e2e::TestApp;
use e2e::lineup::Lineup;
use futures::StreamExt;
use platform::auth::Role;
use tonic::{Code, Status};

/// Each case runs on the all-in-one server and on the services as separate servers behind the
/// stand-alone gateway, where every check of another service's records crosses the network.
macro_rules! on_both_topologies {
    ($($case:ident with $configure:path),* $(,)?) => {
        mod all_in_one {
            $(#[tokio::test]
            async fn $case() {
                super::$case(e2e::TestApp::spawn_with($configure).await).await;
            })*
        }
        mod split {
            $(#[tokio::test]
            async fn $case() {
                super::$case(e2e::TestApp::spawn_split_with($configure).await).await;
            })*
        }
    };
}

on_both_topologies! {
    a_rubber_s_deal_is_set_up_by_its_owners_and_refused_wherever_the_caller_disagrees with e2e::as_configured,
    a_result_reaches_the_pad_only_from_the_rubber_s_own_table with e2e::as_configured,
    a_scorepad_is_kept_only_for_a_rubber_membership_holds_and_as_it_holds_it with e2e::as_configured,
    a_duplicate_board_is_started_only_where_the_movement_sends_it_and_never_by_a_player with e2e::as_configured,
    a_board_s_cards_reach_only_its_table_and_the_director_until_every_table_has_played_it with e2e::as_configured,
    the_rate_limit_counts_per_principal_and_never_limits_the_services with super::limited,
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn seated(players: &[String; 4]) -> Vec<pb::SeatedPlayer> {
    [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West]
        .iter()
        .zip(players)
        .map(|(seat, player)| pb::SeatedPlayer { seat: *seat as i32, player_id: player.clone() })
        .collect()
}

/// A rubber deal naming `lineup`'s rubber and pad, and nothing the owners decide: the players,
/// dealer and vulnerability come from membership and the pad.
fn rubber_deal(lineup: &Lineup, mode: game::PlayMode) -> game::DealSetup {
    game::DealSetup {
        source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
            rubber_id: lineup.rubber_id.clone(),
            scorepad_id: lineup.scorepad_id.clone(),
            deal_number: 1,
            club_laws: false,
        })),
        kind: pb::TableKind::Rubber as i32,
        mode: mode as i32,
        ..Default::default()
    }
}

fn start(table_id: &str, setup: game::DealSetup, pbn: Option<&str>) -> game::StartDealRequest {
    game::StartDealRequest {
        table_id: table_id.to_owned(),
        expected_version: 0,
        idempotency_key: key(),
        setup: Some(setup),
        hands: pbn.map(|p| game::start_deal_request::Hands::DealPbn(p.to_owned())),
    }
}

/// The refusal has `code` and names `rule`.
fn refused(status: Status, code: Code, rule: &str) {
    assert_eq!(status.code(), code, "{status:?}");
    assert!(status.message().contains(rule), "the refusal names {rule}: {}", status.message());
}

const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

async fn game_table_version(app: &TestApp, table_id: &str) -> u64 {
    let request = game::GetTableStateRequest { table_id: table_id.to_owned() };
    let view = app.game("the-arbiter", &[Role::Arbiter]).get_table_state(request).await.unwrap().into_inner();
    view.view.unwrap().version
}

async fn a_rubber_s_deal_is_set_up_by_its_owners_and_refused_wherever_the_caller_disagrees(app: TestApp) {
    let ours = app.lineup(pb::TableKind::Rubber).await;
    let theirs = app.lineup(pb::TableKind::Rubber).await;
    let north = || app.game(&ours.players[0], &[Role::Player]);

    // The attack of the issue: a real rubber and pad at a made-up table, with ghost players.
    let mut ghost = rubber_deal(&ours, game::PlayMode::Recorded);
    ghost.players = seated(&["ghost-n", "ghost-e", "ghost-s", "ghost-w"].map(str::to_owned));
    ghost.result_only = true;
    let status = north().start_deal(start("made-up-table", ghost.clone(), None)).await.unwrap_err();
    refused(status, Code::PermissionDenied, "Law 3");
    // At the rubber's own table the ghosts are still not its line-up.
    let status = north().start_deal(start(&ours.table_id, ghost, None)).await.unwrap_err();
    refused(status, Code::FailedPrecondition, "Law 3");
    // Its own players, reseated.
    let mut swapped = rubber_deal(&ours, game::PlayMode::Digital);
    let [n, e, s, w] = ours.players.clone();
    swapped.players = seated(&[s, e, n, w]);
    refused(
        north().start_deal(start(&ours.table_id, swapped, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "Law 3",
    );
    // Another rubber's scorepad, to write on it.
    let mut other_pad = rubber_deal(&ours, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut other_pad.source {
        deal.scorepad_id.clone_from(&theirs.scorepad_id);
    }
    let status = north().start_deal(start(&ours.table_id, other_pad, None)).await.unwrap_err();
    refused(status, Code::PermissionDenied, &format!("keeps the score of rubber {}", theirs.rubber_id));
    // A rubber he does not play in, at its own table.
    let status = north().start_deal(start(&theirs.table_id, rubber_deal(&theirs, game::PlayMode::Digital), None)).await;
    refused(status.unwrap_err(), Code::PermissionDenied, "line-up");
    // A rubber that does not exist, and one of another kind.
    let mut unknown = rubber_deal(&ours, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut unknown.source {
        deal.rubber_id = "no-such-rubber".into();
    }
    refused(
        north().start_deal(start(&ours.table_id, unknown, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "no-such-rubber",
    );
    let mut chicago = rubber_deal(&ours, game::PlayMode::Digital);
    chicago.kind = pb::TableKind::Chicago as i32;
    refused(
        north().start_deal(start(&ours.table_id, chicago, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "setup.kind",
    );
    // The pad's next deal, dealer and vulnerability are the pad's (Laws 73, 9, 77).
    let mut later = rubber_deal(&ours, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut later.source {
        deal.deal_number = 3;
    }
    refused(
        north().start_deal(start(&ours.table_id, later, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "Law 73",
    );
    let mut vulnerable = rubber_deal(&ours, game::PlayMode::Digital);
    vulnerable.vulnerability = pb::Vulnerability::Both as i32;
    refused(
        north().start_deal(start(&ours.table_id, vulnerable, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "Law 77",
    );
    // The Alternative Club Laws are the table's to say (Part VIII), not the caller's: claimed at a
    // table without them, or left out at one under them.
    let mut club_laws = rubber_deal(&ours, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut club_laws.source {
        deal.club_laws = true;
    }
    refused(
        north().start_deal(start(&ours.table_id, club_laws, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "Part VIII",
    );
    let club = app.lineup_under_club_laws(pb::TableKind::Rubber).await;
    let club_north = || app.game(&club.players[0], &[Role::Player]);
    let left_out =
        club_north().start_deal(start(&club.table_id, rubber_deal(&club, game::PlayMode::Digital), None)).await;
    refused(left_out.unwrap_err(), Code::FailedPrecondition, "Part VIII");
    let mut under_them = rubber_deal(&club, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut under_them.source {
        deal.club_laws = true;
    }
    club_north().start_deal(start(&club.table_id, under_them, None)).await.unwrap();
    let mut out_of_turn = rubber_deal(&ours, game::PlayMode::Digital);
    out_of_turn.dealer = pb::Seat::West as i32;
    refused(
        north().start_deal(start(&ours.table_id, out_of_turn, None)).await.unwrap_err(),
        Code::FailedPrecondition,
        "Law 9",
    );
    // Nothing was started by any of it: the table has never had a deal.
    assert_eq!(game_table_version(&app, &ours.table_id).await, 0);
    assert_eq!(game_table_version(&app, "made-up-table").await, 0);

    // The legitimate flow: a player of the rubber starts its next deal naming only the rubber;
    // the line-up, dealer and vulnerability are filled in from the owners.
    let view = north().start_deal(start(&ours.table_id, rubber_deal(&ours, game::PlayMode::Digital), None)).await;
    let view = view.unwrap().into_inner().view.unwrap();
    let setup = view.setup.unwrap();
    assert_eq!(setup.players, seated(&ours.players), "the rubber's line-up, as the draw seated it");
    assert_eq!((setup.dealer, setup.vulnerability), (pb::Seat::North as i32, pb::Vulnerability::None as i32));
    assert_eq!(view.hands.len(), 1, "North sees his own hand only");
}

async fn a_result_reaches_the_pad_only_from_the_rubber_s_own_table(app: TestApp) {
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let mut desk_pads = app.scoring("front-desk", &[Role::Desk]);
    let mut watch = desk_pads
        .watch_scorepad(spb::WatchScorepadRequest { scorepad_id: lineup.scorepad_id.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let snapshot = watch.next().await.unwrap().unwrap().event.unwrap();
    assert!(matches!(snapshot.event, Some(spb::scorepad_event::Event::Snapshot(_))));

    // No player writes on a pad, and no person adjusts one: that is the appeals service's.
    let record = spb::RecordDealResultRequest {
        scorepad_id: lineup.scorepad_id.clone(),
        deal_id: "forged".into(),
        deal_number: 1,
        result: Some(grand_slam()),
        source: spb::ResultSource::Game as i32,
        hands: None,
    };
    let status = app.scoring(&lineup.players[0], &[Role::Player]).record_deal_result(record.clone()).await;
    assert_eq!(status.unwrap_err().code(), Code::PermissionDenied);
    // Nor does another service: a played deal's result comes from the game service alone.
    let status = app.scoring("service:appeals", &[Role::Service]).record_deal_result(record).await.unwrap_err();
    refused(status, Code::PermissionDenied, "comes from its table");
    for (subject, roles) in [
        ("someone", &[Role::Admin][..]),
        ("someone", &[Role::Arbiter]),
        ("someone", &[Role::Desk, Role::Committee]),
        ("service:game", &[Role::Service]),
    ] {
        let adjust = spb::ApplyAdjustmentRequest::default();
        let status = app.scoring(subject, roles).apply_adjustment(adjust).await.unwrap_err();
        assert_eq!(status.code(), Code::PermissionDenied, "{subject} {roles:?}");
    }

    // The rubber's own table plays its deal; the game service's result lands on the pad, from
    // the game (service identity), once.
    let table = lineup.table_id.clone();
    let mut south = app.game(&lineup.players[2], &[Role::Player]);
    let mut setup = rubber_deal(&lineup, game::PlayMode::Recorded);
    setup.result_only = true;
    let first_start = start(&table, setup, None);
    let view = south.clone().start_deal(first_start.clone()).await.unwrap().into_inner().view.unwrap();
    // Retried at once, while its owners still agree to it, it is the same start, not a second.
    let again = south.clone().start_deal(first_start.clone()).await.unwrap().into_inner().view.unwrap();
    assert_eq!((again.deal_id.as_str(), again.version), (view.deal_id.as_str(), view.version));
    let request = game::EnterResultRequest {
        table_id: table.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        result: Some(grand_slam()),
    };
    let ended = south.clone().enter_result(request).await.unwrap().into_inner().view.unwrap();
    let changed = loop {
        let event = watch.next().await.unwrap().unwrap().event.unwrap();
        if let Some(spb::scorepad_event::Event::Changed(changed)) = event.event {
            break changed;
        }
    };
    let pad = changed.scorepad.unwrap();
    assert_eq!(pad.deals.len(), 1);
    assert_eq!(pad.deals[0].deal_id, ended.deal_id);
    assert_eq!(pad.deals[0].source, spb::ResultSource::Game as i32);
    assert_eq!(pad.next_deal.unwrap().deal_number, 2);

    // The start retried with its idempotency key gets its first answer, though the pad has moved on.
    let retried = south.clone().start_deal(first_start).await.unwrap().into_inner().view.unwrap();
    assert_eq!(retried.deal_id, view.deal_id);
    // Deal 1 is scored: starting it again is refused, the next is deal 2 (Law 73).
    let again = game::StartDealRequest {
        expected_version: ended.version,
        ..start(&table, rubber_deal(&lineup, game::PlayMode::Digital), None)
    };
    refused(south.start_deal(again).await.unwrap_err(), Code::FailedPrecondition, "next deal is deal 2");

    // Once the desk ends the rubber, no deal of it is dealt (Laws 74 and 80).
    let mut desk = app.membership("front-desk", &[Role::Desk]);
    let end = api::membership::v1::EndRubberRequest {
        table_id: table.clone(),
        rubber_id: lineup.rubber_id.clone(),
        status: api::membership::v1::RubberStatus::Unfinished as i32,
    };
    desk.end_rubber(end).await.unwrap();
    let mut second = rubber_deal(&lineup, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Rubber(deal)) = &mut second.source {
        deal.deal_number = 2;
    }
    let after = game::StartDealRequest { expected_version: ended.version, ..start(&table, second, None) };
    refused(south.start_deal(after).await.unwrap_err(), Code::FailedPrecondition, "has ended");
}

fn grand_slam() -> pb::DealResult {
    let contract = laws::DeclaredContract { contract: "7NTXX".parse().unwrap(), declarer: laws::Seat::South };
    pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(contract.into()),
            tricks: 13,
        })),
        honors: vec![],
    }
}

async fn a_scorepad_is_kept_only_for_a_rubber_membership_holds_and_as_it_holds_it(app: TestApp) {
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let mut desk = app.scoring("front-desk", &[Role::Desk]);
    let create = |rubber_id: &str| spb::CreateScorepadRequest { rubber_id: rubber_id.to_owned(), ..Default::default() };

    refused(
        desk.create_scorepad(create("made-up-rubber")).await.unwrap_err(),
        Code::FailedPrecondition,
        "made-up-rubber",
    );
    // The case: a Chicago pad asked for under a rubber's id is not the rubber pad.
    let chicago = spb::CreateScorepadRequest { kind: pb::TableKind::Chicago as i32, ..create(&lineup.rubber_id) };
    refused(desk.create_scorepad(chicago).await.unwrap_err(), Code::FailedPrecondition, "kind");
    let elsewhere = spb::CreateScorepadRequest { table_id: "another-table".into(), ..create(&lineup.rubber_id) };
    refused(desk.create_scorepad(elsewhere).await.unwrap_err(), Code::PermissionDenied, "another-table");
    let mut ghosts = create(&lineup.rubber_id);
    ghosts.players = seated(&["ghost-n", "ghost-e", "ghost-s", "ghost-w"].map(str::to_owned));
    refused(desk.create_scorepad(ghosts).await.unwrap_err(), Code::FailedPrecondition, "Law 3");
    let first_dealer = spb::CreateScorepadRequest { first_dealer: pb::Seat::East as i32, ..create(&lineup.rubber_id) };
    refused(desk.create_scorepad(first_dealer).await.unwrap_err(), Code::FailedPrecondition, "Law 3");
    // Asking again as membership holds it returns the rubber's one pad, filled in from its owner.
    let pad = desk.create_scorepad(create(&lineup.rubber_id)).await.unwrap().into_inner().scorepad.unwrap();
    assert_eq!(pad.scorepad_id, lineup.scorepad_id);
    assert_eq!((pad.table_id.as_str(), pad.kind), (lineup.table_id.as_str(), pb::TableKind::Rubber as i32));
    assert_eq!(pad.players, seated(&lineup.players));
    assert_eq!(pad.first_dealer, pb::Seat::North as i32);
    // A player creates no pad (the contract's roles).
    let status = app.scoring(&lineup.players[0], &[Role::Player]).create_scorepad(create(&lineup.rubber_id)).await;
    assert_eq!(status.unwrap_err().code(), Code::PermissionDenied);
}

/// A pairs session of boards 1 and 2 with pairs "1" to "4", each pair two players
/// `pair-<n>-a` and `pair-<n>-b`.
async fn pairs_session(app: &TestApp) -> String {
    let contestant = |n: u32| spb::Contestant {
        contestant_id: n.to_string(),
        name: format!("Pair {n}"),
        player_ids: vec![format!("pair-{n}-a"), format!("pair-{n}-b")],
        captain_player_id: String::new(),
    };
    let request = spb::CreateSessionRequest {
        name: "pairs".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: (1..=2).map(|number| spb::Board { number, ..Default::default() }).collect(),
        contestants: (1..=4).map(contestant).collect(),
    };
    app.register_contestants(&request).await;
    let session = app.scoring("front-desk", &[Role::Desk]).create_session(request).await.unwrap().into_inner();
    session.session.unwrap().session_id
}

/// The players of pairs `ns` and `ew` at a table: North-South the first pair, East-West the other.
fn pair_players(ns: u32, ew: u32) -> [String; 4] {
    [format!("pair-{ns}-a"), format!("pair-{ew}-a"), format!("pair-{ns}-b"), format!("pair-{ew}-b")]
}

/// Board `number` of `session` for these players; the contestants come from the movement.
fn board_deal(session: &str, number: u32, players: &[String; 4], mode: game::PlayMode) -> game::DealSetup {
    game::DealSetup {
        source: Some(game::deal_setup::Source::Board(game::DuplicateBoard {
            session_id: session.to_owned(),
            board_number: number,
            north_south_contestant_id: String::new(),
            east_west_contestant_id: String::new(),
        })),
        kind: pb::TableKind::Duplicate as i32,
        mode: mode as i32,
        players: seated(players),
        ..Default::default()
    }
}

fn assignment(table: &str, board: u32, ns: u32, ew: u32) -> spb::TableAssignment {
    spb::TableAssignment {
        table_id: table.to_owned(),
        board_number: board,
        north_south_contestant_id: ns.to_string(),
        east_west_contestant_id: ew.to_string(),
    }
}

/// Enters the result 4S by North making 10 at `table` (version `version`), as its device does.
async fn four_spades_made(app: &TestApp, table: &str, version: u64) -> game::TableView {
    let contract = laws::DeclaredContract { contract: "4S".parse().unwrap(), declarer: laws::Seat::North };
    let request = game::EnterResultRequest {
        table_id: table.to_owned(),
        expected_version: version,
        idempotency_key: key(),
        result: Some(pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(contract.into()),
                tricks: 10,
            })),
            honors: vec![],
        }),
    };
    app.game("front-desk", &[Role::Desk]).enter_result(request).await.unwrap().into_inner().view.unwrap()
}

async fn a_duplicate_board_is_started_only_where_the_movement_sends_it_and_never_by_a_player(app: TestApp) {
    // A session's players are members on the register, as membership holds it.
    let ghost = spb::CreateSessionRequest {
        name: "ghosts".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: vec![spb::Board { number: 1, ..Default::default() }],
        contestants: ["1", "2"]
            .map(|n| spb::Contestant {
                contestant_id: n.into(),
                player_ids: vec![format!("ghost-{n}")],
                ..Default::default()
            })
            .to_vec(),
    };
    let status = app.scoring("front-desk", &[Role::Desk]).create_session(ghost).await.unwrap_err();
    refused(status, Code::FailedPrecondition, "membership has no player ghost-1");
    let session = pairs_session(&app).await;
    let (ns1, ns3) = (pair_players(1, 2), pair_players(3, 4));
    let mut desk = app.game("front-desk", &[Role::Desk]);
    // The attacks: a player sits himself at each seat of made-up tables to read the
    // board, or fixes its cards by starting it first with his own.
    for (i, player) in ns1.iter().enumerate() {
        let setup = board_deal(&session, 1, &ns1, game::PlayMode::Digital);
        let status = app.game(player, &[Role::Player]).start_deal(start(&format!("made-up-{i}"), setup, None)).await;
        refused(status.unwrap_err(), Code::PermissionDenied, "duplicate Law 6");
    }
    let setup = board_deal(&session, 1, &ns1, game::PlayMode::Recorded);
    let status = app.game(&ns1[0], &[Role::Player]).start_deal(start("made-up-table", setup, Some(PBN))).await;
    refused(status.unwrap_err(), Code::PermissionDenied, "duplicate Law 6");
    // An outsider with no role the contract lists is refused at the edge.
    let setup = board_deal(&session, 1, &ns1, game::PlayMode::Digital);
    let status = app.game("outsider", &[Role::Committee]).start_deal(start("t", setup, None)).await;
    assert_eq!(status.unwrap_err().code(), Code::PermissionDenied);

    // Not even the desk starts a board at a table the movement does not send to it.
    let status = desk.start_deal(start("table-1", board_deal(&session, 1, &ns1, game::PlayMode::Digital), None)).await;
    refused(status.unwrap_err(), Code::FailedPrecondition, "duplicate Law 8A");
    let movement = spb::AssignTablesRequest {
        session_id: session.clone(),
        assignments: vec![assignment("table-1", 1, 1, 2), assignment("table-2", 1, 3, 4)],
    };
    let assigned = app.scoring("front-desk", &[Role::Desk]).assign_tables(movement.clone()).await.unwrap();
    assert_eq!(assigned.into_inner().session.unwrap().movement, movement.assignments);
    // Assigning again changes nothing; another pair at an assigned table is refused.
    app.scoring("front-desk", &[Role::Desk]).assign_tables(movement).await.unwrap();
    let moved =
        spb::AssignTablesRequest { session_id: session.clone(), assignments: vec![assignment("table-1", 1, 3, 2)] };
    let status = app.scoring("the-director", &[Role::Arbiter]).assign_tables(moved).await.unwrap_err();
    refused(status, Code::FailedPrecondition, "duplicate Law 8A");
    let status = app.scoring(&ns1[0], &[Role::Player]).assign_tables(spb::AssignTablesRequest::default()).await;
    assert_eq!(status.unwrap_err().code(), Code::PermissionDenied, "a player does not move tables");
    // The contestants the caller names must be the movement's.
    let mut wrong = board_deal(&session, 1, &ns1, game::PlayMode::Digital);
    if let Some(game::deal_setup::Source::Board(board)) = &mut wrong.source {
        board.north_south_contestant_id = "3".into();
    }
    refused(desk.start_deal(start("table-1", wrong, None)).await.unwrap_err(), Code::FailedPrecondition, "Law 8A");

    // The director starts it at its table; the contestants are the movement's. A table whose
    // cards differ is refused (duplicate Laws 6 and 87A).
    let mut director = app.game("the-director", &[Role::Arbiter]);
    let first =
        director.start_deal(start("table-1", board_deal(&session, 1, &ns1, game::PlayMode::Recorded), Some(PBN)));
    let first = first.await.unwrap().into_inner().view.unwrap();
    assert_eq!(first.hands.len(), 4, "the director sees all four hands");
    match first.setup.unwrap().source {
        Some(game::deal_setup::Source::Board(board)) => {
            assert_eq!((board.north_south_contestant_id.as_str(), board.east_west_contestant_id.as_str()), ("1", "2"));
        }
        other => panic!("{other:?}"),
    }
    let other = "N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98";
    let status =
        desk.start_deal(start("table-2", board_deal(&session, 1, &ns3, game::PlayMode::Recorded), Some(other))).await;
    refused(status.unwrap_err(), Code::FailedPrecondition, "duplicate Laws 6 and 87A");
}

/// Whether a table event shows anything of a deal: only a withheld board, or the snapshot of a
/// table with no deal, shows nothing.
fn shows_the_deal(event: &game::TableEvent) -> bool {
    use game::table_event::Event as E;
    match &event.event {
        Some(E::BoardWithheld(_)) => false,
        Some(E::Snapshot(view)) => !view.deal_id.is_empty(),
        _ => true,
    }
}

async fn a_board_s_cards_reach_only_its_table_and_the_director_until_every_table_has_played_it(app: TestApp) {
    let session = pairs_session(&app).await;
    let (ns1, ns3) = (pair_players(1, 2), pair_players(3, 4));
    let movement = spb::AssignTablesRequest {
        session_id: session.clone(),
        assignments: vec![assignment("table-1", 1, 1, 2), assignment("table-2", 1, 3, 4)],
    };
    app.scoring("front-desk", &[Role::Desk]).assign_tables(movement).await.unwrap();
    let mut scores = app
        .scoring("front-desk", &[Role::Desk])
        .watch_session(spb::WatchSessionRequest { session_id: session.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    // Pair 3 watches table 1 before its board starts: what reaches him of it is withheld.
    let outsider = || app.game(&ns3[0], &[Role::Player]);
    let mut kibitz = outsider()
        .watch_table(game::WatchTableRequest { table_id: "table-1".into(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();

    // Table 1 plays board 1 and enters its result.
    let mut desk = app.game("front-desk", &[Role::Desk]);
    let started = desk.start_deal(start("table-1", board_deal(&session, 1, &ns1, game::PlayMode::Recorded), Some(PBN)));
    let started = started.await.unwrap().into_inner().view.unwrap();
    let played = four_spades_made(&app, "table-1", started.version).await;
    let deal = played.deal_id.clone();

    // Pair 3, still to play it at table 2, reads nothing of it on any path.
    let record = game::GetDealRecordRequest { deal_id: deal.clone() };
    refused(
        outsider().get_deal_record(record.clone()).await.unwrap_err(),
        Code::PermissionDenied,
        "still to be played",
    );
    let export = game::ExportDealPbnRequest { deal_ids: vec![deal.clone()] };
    refused(
        outsider().export_deal_pbn(export.clone()).await.unwrap_err(),
        Code::PermissionDenied,
        "still to be played",
    );
    let state = game::GetTableStateRequest { table_id: "table-1".into() };
    refused(outsider().get_table_state(state.clone()).await.unwrap_err(), Code::PermissionDenied, "still to be played");
    let watch = game::WatchTableRequest { table_id: "table-1".into(), after_sequence: None };
    refused(outsider().watch_table(watch.clone()).await.unwrap_err(), Code::PermissionDenied, "still to be played");
    let list = game::ListDealsRequest { session_id: session.clone(), ..Default::default() };
    let listed = outsider().list_deals(list.clone()).await.unwrap().into_inner().deals;
    assert!(listed.iter().all(|d| d.outcome.is_none()), "the contract and tricks tell of the cards: {listed:?}");
    let mut seen = 0;
    while seen < played.version {
        let event = kibitz.next().await.unwrap().unwrap().event.unwrap();
        assert!(!shows_the_deal(&event), "pair 3 was shown {event:?}");
        seen = event.version.max(seen);
    }
    // Its own table and the director read it.
    app.game(&ns1[0], &[Role::Player]).get_deal_record(record.clone()).await.unwrap();
    app.game("the-director", &[Role::Arbiter]).get_deal_record(record.clone()).await.unwrap();

    // The director releases it (say table 2 cannot play it in time): everyone may read table 1's
    // finished deal, while table 2's own play of it stays its own.
    let release = spb::ReleaseBoardRequest { session_id: session.clone(), board_number: 1 };
    let status = app.scoring("front-desk", &[Role::Desk]).release_board(release.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "the director's decision alone");
    let released = app.scoring("the-director", &[Role::Arbiter]).release_board(release).await.unwrap().into_inner();
    assert!(released.session.unwrap().boards.iter().any(|b| b.number == 1 && b.released));
    outsider().get_deal_record(record).await.unwrap();
    outsider().export_deal_pbn(export).await.unwrap();
    assert!(outsider().list_deals(list).await.unwrap().into_inner().deals.iter().all(|d| d.outcome.is_some()));
    let live = desk.start_deal(start("table-2", board_deal(&session, 1, &ns3, game::PlayMode::Recorded), None));
    let live = live.await.unwrap().into_inner().view.unwrap();
    let pair1 = app.game(&ns1[0], &[Role::Player]);
    let status = pair1.clone().get_table_state(game::GetTableStateRequest { table_id: "table-2".into() }).await;
    refused(status.unwrap_err(), Code::PermissionDenied, "still to be played");
    four_spades_made(&app, "table-2", live.version).await;

    // Both tables' results reach the session: the board is released by the movement too.
    let mut results = 0;
    while results < 2 {
        let event = scores.next().await.unwrap().unwrap().event.unwrap();
        if let Some(spb::session_event::Event::BoardRescored(board)) = event.event {
            results = board.results.len();
        }
    }
    let mut pair3 = app.scoring(&ns3[0], &[Role::Player]);
    let held = pair3.get_session(spb::GetSessionRequest { session_id: session, ..Default::default() });
    assert!(held.await.unwrap().into_inner().session.unwrap().boards.iter().any(|b| b.number == 1 && b.released));
}

/// Requests a principal may make a minute in the rate-limit test.
const BUDGET: u64 = 20;

fn limited(_: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    settings.requests_per_minute = BUDGET;
}

/// Calls a cheap RPC its roles allow (reading a scorepad, which need not exist) as `subject`
/// until the rate limit refuses it or `calls` were made; the refusal, if any.
async fn exhaust(app: &TestApp, subject: &str, roles: &[Role], calls: u64) -> Option<Status> {
    let mut client = app.scoring(subject, roles);
    for _ in 0..calls {
        let request = spb::GetScorepadRequest { scorepad_id: "none".into() };
        match client.get_scorepad(request).await {
            Err(status) if status.code() == Code::ResourceExhausted => return Some(status),
            Err(status) => assert_eq!(status.code(), Code::NotFound, "{status:?}"),
            Ok(_) => panic!("scorepad \"none\" exists"),
        }
    }
    None
}

/// The rate limit counts per authenticated principal, after auth: one member's flood does not
/// spend another's budget though both come from one address (a club's NAT, the all-in-one
/// server's loopback), services calling one another are never limited, and the refusal says
/// when to retry. Counters are per minute: a run of 2 x BUDGET + 1 calls crosses at most one
/// minute boundary, so one of its two windows holds more than BUDGET calls.
async fn the_rate_limit_counts_per_principal_and_never_limits_the_services(app: TestApp) {
    let status = exhaust(&app, "greedy", &[Role::Player], 2 * BUDGET + 1).await.expect("the flood is refused");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("principal:greedy"), "{}", status.message());
    let wait: u64 = status
        .metadata()
        .get(gateway::RETRY_PUSHBACK_KEY)
        .expect("the refusal says when to retry")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60_000).contains(&wait), "{wait} ms");
    // Another member at the same address still has his budget.
    assert!(exhaust(&app, "patient", &[Role::Player], 1).await.is_none());
    // A service is never limited.
    assert!(exhaust(&app, "service:game", &[Role::Service], 2 * BUDGET + 1).await.is_none());
}

fn owners_unreachable(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    // Nothing listens on the discard port: membership and scoring are down.
    config.endpoints.membership = Some("http://127.0.0.1:9".to_owned());
    config.endpoints.scoring = Some("http://127.0.0.1:9".to_owned());
}

/// A check against an owner never becomes a way round it: with membership and scoring away, a
/// deal is not started unchecked but refused at once with UNAVAILABLE (which clients retry), and
/// nothing is left half-started; once they are back the same request goes through.
#[tokio::test]
async fn with_its_owners_away_a_deal_is_refused_as_unavailable_never_started_unchecked() {
    let mut app = TestApp::spawn().await;
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    app.restart_with(owners_unreachable).await;
    let request = start(&lineup.table_id, rubber_deal(&lineup, game::PlayMode::Digital), None);
    let status = app.game("front-desk", &[Role::Desk]).start_deal(request.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert!(status.message().contains("membership"), "{}", status.message());
    assert_eq!(game_table_version(&app, &lineup.table_id).await, 0, "nothing was started");
    app.restart_as_configured().await;
    let view = app.game("front-desk", &[Role::Desk]).start_deal(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.setup.unwrap().players, seated(&lineup.players));
}
