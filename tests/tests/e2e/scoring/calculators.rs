//! The calculator RPCs against every case of the vector files (services/laws/tests/vectors,
//! described in docs/worked-cases.md), through the real server.

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use e2e::TestApp;
use platform::auth::Role;
use serde::Deserialize;

use super::{contract, played};

fn load<T: for<'de> Deserialize<'de>>(file: &str) -> Vec<T> {
    #[derive(Deserialize)]
    struct File<T> {
        cases: Vec<T>,
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../services/laws/tests/vectors").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed: File<T> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!parsed.cases.is_empty(), "{file} has no cases");
    parsed.cases
}

#[derive(Deserialize)]
struct DuplicateCase {
    contract: String,
    vulnerable: bool,
    tricks: u32,
    score: i32,
}

#[tokio::test]
async fn law_77_every_duplicate_score_vector_through_the_server() {
    let app = TestApp::spawn().await;
    let mut client = app.scoring("p1", &[Role::Player]);
    let cases: Vec<DuplicateCase> = load("duplicate_scores.json");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        // Every declarer in turn, and a vulnerability that makes declarer's side vulnerable or
        // not as the case says, so the server's reading of seats and vulnerability is tested too.
        let declarer = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West][i % 4];
        let ns_declares = matches!(declarer, pb::Seat::North | pb::Seat::South);
        let vulnerability = match (case.vulnerable, ns_declares, i % 2 == 0) {
            (true, _, true) => pb::Vulnerability::Both,
            (true, true, false) => pb::Vulnerability::NorthSouth,
            (true, false, false) => pb::Vulnerability::EastWest,
            (false, _, true) => pb::Vulnerability::None,
            (false, true, false) => pb::Vulnerability::EastWest,
            (false, false, false) => pb::Vulnerability::NorthSouth,
        };
        let response = client
            .score_duplicate_contract(spb::ScoreDuplicateContractRequest {
                contract: Some(contract(&case.contract)),
                declarer: declarer as i32,
                vulnerability: vulnerability as i32,
                tricks: case.tricks,
            })
            .await
            .unwrap()
            .into_inner();
        let north_south = if ns_declares { case.score } else { -case.score };
        let parts: i32 = response.components.iter().map(|c| c.points).sum();
        if (response.declarer_score, response.north_south_score, parts) != (case.score, north_south, case.score) {
            failures.push(format!(
                "case {i}: {} {} {} tricks by {declarer:?}: expected {}, got {} (NS {}, parts {parts})",
                case.contract,
                if case.vulnerable { "vul" } else { "non-vul" },
                case.tricks,
                case.score,
                response.declarer_score,
                response.north_south_score
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[derive(Deserialize)]
struct ImpCase {
    difference: i32,
    imps: i32,
}

#[tokio::test]
async fn law_78b_every_imp_vector_through_the_server() {
    let app = TestApp::spawn().await;
    let mut client = app.scoring("desk", &[Role::Desk]);
    let cases: Vec<ImpCase> = load("imps.json");
    for (i, case) in cases.iter().enumerate() {
        for sign in [1, -1] {
            let imps = client
                .convert_to_imps(spb::ConvertToImpsRequest { difference: sign * case.difference })
                .await
                .unwrap()
                .into_inner()
                .imps;
            assert_eq!(imps, sign * case.imps, "case {i}: difference {}", sign * case.difference);
        }
    }
}

#[derive(Deserialize)]
struct MatchpointCase {
    scores: Vec<i32>,
    matchpoints: Vec<i64>,
}

#[tokio::test]
async fn law_78a_every_matchpoint_vector_through_the_server() {
    let app = TestApp::spawn().await;
    let mut client = app.scoring("p1", &[Role::Player]);
    let cases: Vec<MatchpointCase> = load("matchpoints.json");
    for (i, case) in cases.iter().enumerate() {
        let response = client
            .matchpoint_scores(spb::MatchpointScoresRequest { scores: case.scores.clone() })
            .await
            .unwrap()
            .into_inner();
        let got: Vec<i64> = response.matchpoints.iter().map(|m| m.hundredths).collect();
        let expected: Vec<i64> = case.matchpoints.iter().map(|m| m * 100).collect();
        assert_eq!(got, expected, "case {i}: scores {:?}", case.scores);
        let top = 2 * (case.scores.len() as i64 - 1);
        assert_eq!(response.top.unwrap().hundredths, top * 100, "case {i}");
        // Percentage of the top, in basis points (Law 78A).
        let percentages: Vec<i32> = response.percentages.iter().map(|p| p.basis_points).collect();
        let expected: Vec<i32> =
            case.matchpoints.iter().map(|m| ((*m as f64) * 10_000.0 / top as f64).round() as i32).collect();
        assert_eq!(percentages, expected, "case {i}");
    }
    let status = client.matchpoint_scores(spb::MatchpointScoresRequest { scores: vec![] }).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().contains("scores"), "{}", status.message());
}

#[derive(Deserialize)]
struct HonorsEntry {
    side: String,
    points: u32,
}

#[derive(Deserialize)]
struct RubberDeal {
    #[serde(default)]
    passed_out: bool,
    declarer: Option<String>,
    contract: Option<String>,
    tricks: Option<u32>,
    #[serde(default)]
    honors: Vec<HonorsEntry>,
}

#[derive(Deserialize)]
struct PerSide<T> {
    we: T,
    they: T,
}

#[derive(Deserialize)]
struct RubberCase {
    deals: Vec<RubberDeal>,
    finished: bool,
    games: PerSide<u32>,
    totals: PerSide<u32>,
}

/// "We" sit North-South and declare from North; "they" East-West from East.
fn side(name: &str) -> (pb::Side, pb::Seat) {
    match name {
        "we" => (pb::Side::NorthSouth, pb::Seat::North),
        "they" => (pb::Side::EastWest, pb::Seat::East),
        other => panic!("unknown side {other:?}"),
    }
}

fn vector_deal(deal: &RubberDeal) -> pb::DealResult {
    if deal.passed_out {
        return super::passed_out();
    }
    let (_, declarer) = side(deal.declarer.as_deref().unwrap());
    let text = deal.contract.as_deref().unwrap();
    let mut result = played(text, declarer, deal.tricks.unwrap());
    for honors in &deal.honors {
        let notrump = text.contains("NT");
        let kind = match (honors.points, notrump) {
            (100, false) => pb::HonorsKind::FourTrumpHonors,
            (150, false) => pb::HonorsKind::FiveTrumpHonors,
            (150, true) => pb::HonorsKind::FourAcesAtNoTrump,
            other => panic!("no honors worth {other:?}"),
        };
        result.honors.push(pb::Honors { side: side(&honors.side).0 as i32, kind: kind as i32 });
    }
    result
}

#[tokio::test]
async fn laws_72_to_81_every_rubber_vector_through_the_server() {
    let app = TestApp::spawn().await;
    let mut client = app.scoring("p1", &[Role::Player]);
    let cases: Vec<RubberCase> = load("rubbers.json");
    for (i, case) in cases.iter().enumerate() {
        let pad = client
            .score_rubber(spb::ScoreRubberRequest {
                kind: pb::TableKind::Rubber as i32,
                first_dealer: pb::Seat::North as i32,
                deals: case.deals.iter().map(vector_deal).collect(),
                options: None,
                end_unfinished: !case.finished,
            })
            .await
            .unwrap_or_else(|status| panic!("case {i}: {status:?}"))
            .into_inner()
            .scorepad
            .unwrap();
        let (ns, ew) = (pad.north_south.unwrap(), pad.east_west.unwrap());
        assert_eq!((ns.total, ew.total), (case.totals.we, case.totals.they), "case {i}: totals");
        assert_eq!((ns.games_won, ew.games_won), (case.games.we, case.games.they), "case {i}: games");
        let status = if case.finished { spb::ScorepadStatus::Finished } else { spb::ScorepadStatus::EndedUnfinished };
        assert_eq!(pad.status, status as i32, "case {i}: status");
        // Every entry that counts adds up to the totals, and the net score is their difference.
        let live: u32 = pad.entries.iter().filter(|e| !e.struck).map(|e| e.points).sum();
        assert_eq!(live, case.totals.we + case.totals.they, "case {i}: entries");
        assert_eq!(pad.net.unwrap().margin, case.totals.we.abs_diff(case.totals.they), "case {i}: net");
    }
}

#[tokio::test]
async fn calculators_refuse_bad_input_naming_the_field_and_the_law() {
    let app = TestApp::spawn().await;
    let mut client = app.scoring("p1", &[Role::Player]);
    let status = client
        .score_duplicate_contract(spb::ScoreDuplicateContractRequest {
            contract: Some(contract("4S")),
            declarer: pb::Seat::North as i32,
            vulnerability: pb::Vulnerability::None as i32,
            tricks: 14,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert_eq!(status.message(), "tricks: 14 tricks: a deal has only 13 tricks (Law 8)");
    let status = client
        .score_duplicate_contract(spb::ScoreDuplicateContractRequest {
            contract: Some(contract("4S")),
            declarer: 0,
            vulnerability: pb::Vulnerability::None as i32,
            tricks: 10,
        })
        .await
        .unwrap_err();
    assert_eq!(status.message(), "declarer: not given; a seat is required");

    // A deal after the rubber is won is refused, naming the deal and Law 74.
    let game = || played("4S", pb::Seat::North, 10);
    let status = client
        .score_rubber(spb::ScoreRubberRequest {
            kind: pb::TableKind::Rubber as i32,
            first_dealer: pb::Seat::North as i32,
            deals: vec![game(), game(), game()],
            options: None,
            end_unfinished: false,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::FailedPrecondition);
    assert!(status.message().starts_with("deals[2]: "), "{}", status.message());
    assert!(status.message().contains("Law 74"), "{}", status.message());
    // Four aces are honors only at notrump (Law 81).
    let mut aces = game();
    aces.honors.push(pb::Honors { side: pb::Side::EastWest as i32, kind: pb::HonorsKind::FourAcesAtNoTrump as i32 });
    let status = client
        .score_rubber(spb::ScoreRubberRequest {
            kind: pb::TableKind::Rubber as i32,
            first_dealer: pb::Seat::North as i32,
            deals: vec![aces],
            options: None,
            end_unfinished: false,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().starts_with("deals[0].honors[0]: "), "{}", status.message());
    assert!(status.message().contains("Law 81"), "{}", status.message());
}
