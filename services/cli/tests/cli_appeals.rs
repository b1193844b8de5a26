//! `bridgectl appeal ...` against the whole platform (the end-to-end crate's `TestApp`, on real
//! Postgres and Redis): at a club whose policy has no Appeals Committee, a pair files a duplicate
//! appeal with `appeal file`, and the Director in charge hears it with `appeal director-hear` and
//! decides it with `appeal director-decide` (Law 93A); the administrator then publishes a policy
//! with the procedure options with `appeal policy set`, and `appeal policy show` reads them back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use api::appeals::v1 as appeals;
use api::common::v1 as pb;
use api::scoring::v1 as scoring;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

use common::bridgectl_as as bridgectl;

fn played(declarer: Seat, contract: &str, tricks: u32) -> pb::DealResult {
    let contract: laws::Contract = contract.parse().unwrap();
    pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(laws::DeclaredContract { contract, declarer }.into()),
            tricks,
        })),
        honors: Vec::new(),
    }
}

fn board_key(session: &str, ns: &str, ew: &str) -> pb::BoardResultKey {
    pb::BoardResultKey {
        session_id: session.into(),
        board_number: 1,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    }
}

/// A pairs session of one board played at two tables (A-B, C-D), and the director's ruling at
/// C-D that the result stands; the ruling's id.
async fn ruled_board(app: &TestApp) -> String {
    let pair = |id: &str, players: [&str; 2]| scoring::Contestant {
        contestant_id: id.into(),
        name: format!("pair {id}"),
        player_ids: players.iter().map(|p| (*p).to_owned()).collect(),
        captain_player_id: String::new(),
    };
    let request = scoring::CreateSessionRequest {
        name: "Thursday pairs".into(),
        contestant_kind: scoring::ContestantKind::Pairs as i32,
        scoring_method: scoring::ScoringMethod::Matchpoints as i32,
        boards: vec![scoring::Board { number: 1, ..Default::default() }],
        contestants: vec![
            pair("A", ["a1", "a2"]),
            pair("B", ["b1", "b2"]),
            pair("C", ["c1", "c2"]),
            pair("D", ["d1", "d2"]),
        ],
    };
    app.register_contestants(&request).await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let session = desk.create_session(request).await.unwrap().into_inner().session.unwrap().session_id;
    for (ns, ew, tricks) in [("A", "B", 10), ("C", "D", 9)] {
        desk.record_board_result(scoring::RecordBoardResultRequest {
            key: Some(board_key(&session, ns, ew)),
            deal_id: format!("board-1-{ns}{ew}"),
            result: Some(played(Seat::North, "4S", tricks)),
            source: scoring::ResultSource::Desk as i32,
            ..Default::default()
        })
        .await
        .unwrap();
    }
    app.appeals("director", &[Role::Arbiter])
        .record_ruling(appeals::RecordRulingRequest {
            idempotency_key: "cli-ruling".into(),
            deal: Some(appeals::DealReference {
                kind: pb::TableKind::Duplicate as i32,
                table_id: "table-2".into(),
                score_target: Some(pb::ScoreTarget {
                    target: Some(pb::score_target::Target::BoardResult(board_key(&session, "C", "D"))),
                }),
                ..Default::default()
            }),
            irregularity: "misinformation: the 2D response was not alerted".into(),
            laws: vec![pb::LawCitation {
                code: pb::LawCode::Duplicate as i32,
                number: 21,
                section: "B3".into(),
                text: String::new(),
            }],
            facts: "North-South were not damaged".into(),
            kind: appeals::RulingKind::Judgement as i32,
            decision: Some(appeals::RulingDecision {
                decision: Some(appeals::ruling_decision::Decision::ResultStands(appeals::ResultStands {})),
            }),
            right_to_appeal_advised: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .ruling
        .unwrap()
        .ruling_id
}

#[tokio::test(flavor = "multi_thread")]
async fn the_director_hears_and_decides_a_duplicate_appeal_without_a_committee_with_bridgectl() {
    let app = TestApp::spawn().await;
    let ruling = ruled_board(&app).await;
    let player = [Role::Player];
    let director = [Role::Arbiter];

    let filed =
        bridgectl(&app, "c1", &player, &["appeal", "file", &ruling, "--grounds", "we were damaged", "--concur", "c2"])
            .await;
    assert!(filed.contains("heard by:    the Director in charge (no committee, Law 93A)"), "{filed}");
    let appeal = filed.split_whitespace().nth(1).unwrap().to_owned();

    let heard = bridgectl(
        &app,
        "director",
        &director,
        &["appeal", "director-hear", &appeal, "--statement", "appellant:c1:with the alert we bid the game"],
    )
    .await;
    assert!(heard.contains("(heard, version 2)") && heard.contains("by director"), "{heard}");
    let decided = bridgectl(
        &app,
        "director",
        &director,
        &[
            "appeal",
            "director-decide",
            &appeal,
            "--outcome",
            "overruled",
            "--reasons",
            "damaged: with the alert North-South reach 4S",
            "--contract",
            "4S",
            "--declarer",
            "N",
            "--tricks",
            "10",
        ],
    )
    .await;
    assert!(decided.contains("(decided, version 3)"), "{decided}");
    assert!(decided.contains("by director: APPEAL_OUTCOME_OVERRULED"), "{decided}");
    assert!(decided.contains("score version"), "the board was rescored: {decided}");

    let admin = [Role::Admin];
    let args = [
        "appeal",
        "policy",
        "set",
        "--allowed",
        "--committee-size",
        "1",
        "--director-review",
        "--further-appeal-to",
        "the national authority",
        "--deposit",
        "500",
        "--currency",
        "GBP",
    ];
    bridgectl(&app, "club-admin", &admin, &args).await;
    let shown = bridgectl(&app, "c1", &player, &["appeal", "policy", "show"]).await;
    assert!(shown.contains("the director reviews a point of law before the committee (Law 93B1)"), "{shown}");
    assert!(shown.contains("a decided appeal may go further to the national authority (Law 93C1)"), "{shown}");
    assert!(shown.contains("deposit: 500 GBP (minor units) with each appeal"), "{shown}");
}
