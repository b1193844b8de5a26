//! Starting deals and acting at a table: a digital deal dealt from a committed seed and refusing
//! what the Laws forbid, every table of a duplicate board getting the same cards, and what each
//! principal (player, table device, arbiter, stranger) may do.

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::{GameClient, TestApp};
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{PBN, Table, board, fact, hand, key, outcome, played, seat_of, session};

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
    let record = table.deal_record(&view.deal_id).await;
    assert_eq!(laws::Deal::from_seed(&seed).to_pbn(Seat::North), record.deal_pbn);
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
