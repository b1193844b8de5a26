//! `bridgectl game` against the whole platform (the end-to-end crate's `TestApp`, on real
//! Postgres and Redis): the desk records an opening lead out of turn with `game irregularity`,
//! reads what it opened with `game table`, and records declarer's choice with `game decide`
//! (rubber Law 54).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

/// North: S AKQJ H T98 D 765 C 432; East: S T98 H 765 D 432 C AKQJ; South: S 765 H 432 D AKQJ
/// C T98; West: S 432 H AKQJ D T98 C 765.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

/// Runs `bridgectl` as the desk; its standard output, or a panic with its error.
async fn bridgectl(app: &TestApp, args: &[&str]) -> String {
    common::bridgectl_as(app, "front-desk", &[Role::Desk], args).await
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_records_an_opening_lead_out_of_turn_and_declarers_choice_with_bridgectl() {
    let app = TestApp::spawn().await;
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let table = lineup.table_id.clone();
    let mut desk = app.game("front-desk", &[Role::Desk]);
    let version = |view: Option<game::TableView>| view.unwrap().version;

    let setup = lineup.first_deal(game::PlayMode::Recorded, false);
    let start = game::StartDealRequest {
        table_id: table.clone(),
        expected_version: 0,
        idempotency_key: key(),
        setup: Some(setup),
        hands: Some(game::start_deal_request::Hands::DealPbn(PBN.to_owned())),
    };
    let mut at = version(desk.start_deal(start).await.unwrap().into_inner().view);
    use Seat::*;
    let auction = [(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass")].into_iter().chain([
        (North, "4S"),
        (East, "Pass"),
        (South, "Pass"),
        (West, "Pass"),
    ]);
    for (seat, call) in auction {
        let request = game::MakeCallRequest {
            table_id: table.clone(),
            expected_version: at,
            idempotency_key: key(),
            seat: seat.to_proto(),
            call: Some(call.parse::<laws::Call>().unwrap().into()),
            artificial: None,
        };
        at =
            version(desk.make_call(request).await.unwrap_or_else(|s| panic!("{seat} {call}: {s:?}")).into_inner().view);
    }

    // East is on lead against North's 4S; West faces the HA.
    let recorded = bridgectl(
        &app,
        &[
            "game",
            "irregularity",
            "--table",
            &table,
            "--kind",
            "opening-lead-out-of-turn",
            "--offender",
            "W",
            "--card",
            "HA",
            "--pointed-out-by",
            "N",
        ],
    )
    .await;
    assert!(recorded.contains("opening-lead-out-of-turn by West, card HA"), "{recorded}");
    assert!(recorded.contains("pointed out by North"), "{recorded}");
    assert!(recorded.contains("Law 54"), "{recorded}");
    assert!(recorded.contains("accept_lead  chooser CHOOSER_DECLARER North"), "{recorded}");

    let open = bridgectl(&app, &["game", "table", "--table", &table]).await;
    assert!(open.contains("decisions pending:"), "{open}");
    assert!(open.contains("accept_lead"), "{open}");

    let chosen =
        bridgectl(&app, &["game", "decide", "--table", &table, "--option", "accept_lead", "--seat", "N"]).await;
    assert!(chosen.contains("accept_lead"), "{chosen}");

    let mut arbiter = app.game("the-arbiter", &[Role::Arbiter]);
    let view = arbiter
        .get_table_state(game::GetTableStateRequest { table_id: table.clone() })
        .await
        .unwrap()
        .into_inner()
        .view
        .unwrap();
    assert!(view.pending_decisions.is_empty(), "{:?}", view.pending_decisions);
    assert_eq!(view.tricks[0].leader, West.to_proto(), "Law 54: the lead stands once accepted");
    assert_eq!(view.next_to_act, North.to_proto(), "declarer plays from dummy's hand after the lead");
    let record = arbiter
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    let irregularity = &record.irregularities[0];
    assert_eq!(irregularity.fact.as_ref().unwrap().kind, game::IrregularityKind::OpeningLeadOutOfTurn as i32);
    assert_eq!(irregularity.pointed_out_by, North.to_proto());

    let settled = bridgectl(&app, &["game", "table", "--table", &table]).await;
    assert!(settled.contains("no decision is pending"), "{settled}");
    assert!(settled.contains("next to act North"), "{settled}");
}

/// Part VIII: the Alternative Club Laws apply where the players agreed them in advance or the club's
/// published policy says so; here, the table's option. `bridgectl game start` takes it from the
/// rubber (membership's `GetRubber`), so the deal it starts is played under them without the desk
/// having to say so, and the game service, which checks it against the rubber, accepts the start.
#[tokio::test(flavor = "multi_thread")]
async fn bridgectl_starts_a_deal_under_the_club_laws_its_table_is_under() {
    let app = TestApp::spawn().await;
    let lineup = app.lineup_under_club_laws(pb::TableKind::Rubber).await;
    let table = lineup.table_id.clone();
    bridgectl(
        &app,
        &["game", "start", "--table", &table, "--rubber", &lineup.rubber_id, "--scorepad", &lineup.scorepad_id],
    )
    .await;
    let view = app
        .game("front-desk", &[Role::Desk])
        .get_table_state(game::GetTableStateRequest { table_id: table })
        .await
        .unwrap()
        .into_inner()
        .view
        .unwrap();
    let Some(game::deal_setup::Source::Rubber(deal)) = view.setup.unwrap().source else { panic!("a rubber's deal") };
    assert!(deal.club_laws, "the deal is played under the Club Laws its table is under");
    assert_eq!(deal.deal_number, 1);
}
