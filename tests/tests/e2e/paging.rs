//! Every list of the platform pages the same way (`platform::page`): the tokens it hands out
//! page through the list, and a token it did not hand out (made up, negative, or an offset the
//! database cannot take, 2^63 and more) is INVALID_ARGUMENT naming `page.page_token`. It used to
//! make the handler panic, which the client saw as CANCELLED.

use api::common::v1 as pb;
use api::game::v1 as game;
use api::membership::v1 as mpb;
use api::scoring::v1 as spb;
use e2e::TestApp;
use platform::auth::Role;
use tonic::{Code, Status};

/// Tokens no server handed out.
const FORGED: [&str; 6] = ["9223372036854775808", "18446744073709551615", "o9223372036854775808", "-1", "x", "o"];

fn page(token: &str) -> Option<pb::PageRequest> {
    Some(pb::PageRequest { page_size: 2, page_token: token.to_owned() })
}

fn refused(rpc: &str, token: &str, answer: Result<(), Status>) {
    let status = answer.expect_err(&format!("{rpc} took the token {token:?}"));
    assert_eq!(status.code(), Code::InvalidArgument, "{rpc} {token:?}: {status:?}");
    assert!(status.message().starts_with("page.page_token"), "{rpc} {token:?}: {}", status.message());
}

#[tokio::test]
async fn every_list_refuses_a_token_it_did_not_give_and_pages_with_its_own() {
    let app = TestApp::spawn().await;
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    let (mut members, mut scores) = app.desk_clients();
    let mut games = app.game("the-arbiter", &[Role::Arbiter]);
    let mut appeals = app.appeals("the-arbiter", &[Role::Arbiter]);
    let session = spb::CreateSessionRequest {
        name: "pairs".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: vec![spb::Board { number: 1, ..Default::default() }],
        contestants: ["1", "2"].map(|id| spb::Contestant { contestant_id: id.into(), ..Default::default() }).to_vec(),
    };
    let session = scores.create_session(session).await.unwrap().into_inner().session.unwrap().session_id;
    let table = lineup.table_id.clone();
    for token in FORGED {
        refused(
            "ListPlayers",
            token,
            members.list_players(mpb::ListPlayersRequest { page: page(token), ..Default::default() }).await.map(drop),
        );
        refused(
            "ListPresentPlayers",
            token,
            members.list_present_players(mpb::ListPresentPlayersRequest { page: page(token) }).await.map(drop),
        );
        refused(
            "ListTables",
            token,
            members.list_tables(mpb::ListTablesRequest { page: page(token), ..Default::default() }).await.map(drop),
        );
        let draws = mpb::ListDrawsRequest { table_id: table.clone(), page: page(token) };
        refused("ListDraws", token, members.list_draws(draws).await.map(drop));
        let rubbers = mpb::ListRubbersRequest { table_id: table.clone(), page: page(token) };
        refused("ListRubbers", token, members.list_rubbers(rubbers).await.map(drop));
        refused(
            "ListDeals",
            token,
            games.list_deals(game::ListDealsRequest { page: page(token), ..Default::default() }).await.map(drop),
        );
        let calls = game::ListArbiterCallsRequest { page: page(token), ..Default::default() };
        refused("ListArbiterCalls", token, games.list_arbiter_calls(calls).await.map(drop));
        let pads = spb::ListScorepadsRequest { page: page(token), ..Default::default() };
        refused("ListScorepads", token, scores.list_scorepads(pads).await.map(drop));
        refused(
            "ListSessions",
            token,
            scores.list_sessions(spb::ListSessionsRequest { page: page(token) }).await.map(drop),
        );
        let results = spb::ListBoardResultsRequest {
            session_id: session.clone(),
            board_number: 0,
            page: page(token),
            ..Default::default()
        };
        refused("ListBoardResults", token, scores.list_board_results(results).await.map(drop));
        let versions = spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::SessionId(session.clone())),
            target: None,
            page: page(token),
        };
        refused("ListScoreVersions", token, scores.list_score_versions(versions).await.map(drop));
        let rulings = api::appeals::v1::ListRulingsRequest { page: page(token), ..Default::default() };
        refused("ListRulings", token, appeals.list_rulings(rulings).await.map(drop));
        let listed = api::appeals::v1::ListAppealsRequest { page: page(token), ..Default::default() };
        refused("ListAppeals", token, appeals.list_appeals(listed).await.map(drop));
    }

    // The tokens a list hands out page through it, two at a time: the four registered players.
    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let request = mpb::ListPlayersRequest { page: page(&token), ..Default::default() };
        let answer = members.list_players(request).await.unwrap().into_inner();
        assert!(answer.players.len() <= 2);
        seen.extend(answer.players.into_iter().map(|p| p.player_id));
        match answer.page.map(|p| p.next_page_token).filter(|t| !t.is_empty()) {
            Some(next) => token = next,
            None => break,
        }
    }
    seen.sort();
    let mut players = lineup.players.to_vec();
    players.sort();
    assert_eq!(seen, players);
}
