//! The scoring store on SQLite (the embedded default) with the in-process live store: the same
//! migrations and code as on Postgres. A pad is recorded, corrected, replayed from its versions
//! and watched; a session is scored, adjusted and ranked.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::Arc;

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use futures::StreamExt;
use platform::auth::{Principal, Role};
use platform::live::MemoryStore;
use scoring::live::Feed;
use scoring::store::pads::Pads;
use scoring::store::sessions::{SessionSettings, Sessions};

struct Db {
    dir: std::path::PathBuf,
    db: platform::db::Db,
}

impl Db {
    async fn new() -> Db {
        let dir = std::env::temp_dir().join(format!("scoring-sqlite-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
        let db = platform::db::connect_and_migrate(&url).await.unwrap();
        Db { dir, db }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn played(contract: &str, declarer: pb::Seat, tricks: u32) -> pb::DealResult {
    let contract: laws::Contract = contract.parse().unwrap();
    pb::DealResult {
        outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some(pb::DeclaredContract { contract: Some(contract.into()), declarer: declarer as i32 }),
            tricks,
        })),
        honors: Vec::new(),
    }
}

fn principal(subject: &str, roles: &[Role]) -> Principal {
    Principal { subject: subject.to_owned(), roles: roles.iter().copied().collect() }
}

#[tokio::test]
async fn a_pad_on_sqlite_is_recorded_corrected_replayed_and_watched() {
    let db = Db::new().await;
    let pads = Pads::new(db.db.clone(), Feed::new(Arc::new(MemoryStore::new())));
    let seats = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];
    let pad = pads
        .create(spb::CreateScorepadRequest {
            kind: pb::TableKind::Rubber as i32,
            table_id: "t".into(),
            rubber_id: "r".into(),
            players: seats
                .iter()
                .enumerate()
                .map(|(i, s)| pb::SeatedPlayer { seat: *s as i32, player_id: format!("p{i}") })
                .collect(),
            first_dealer: pb::Seat::North as i32,
            options: Some(spb::ScorepadOptions { round_to_hundreds: true, chicago_swap_vulnerability: false }),
        })
        .await
        .unwrap();
    let mut watch = pads.watch(&pad.scorepad_id, None).await.unwrap();
    let first = watch.next().await.unwrap().unwrap().event.unwrap();
    assert!(matches!(first.event, Some(spb::scorepad_event::Event::Snapshot(_))));

    let record = |deal: &str, number: u32, result: pb::DealResult| spb::RecordDealResultRequest {
        scorepad_id: pad.scorepad_id.clone(),
        deal_id: deal.into(),
        deal_number: number,
        result: Some(result),
        source: spb::ResultSource::Desk as i32,
        hands: None,
    };
    pads.record(&record("a", 1, played("4S", pb::Seat::North, 10)), None, "desk").await.unwrap();
    pads.record(&record("b", 2, played("3NT", pb::Seat::East, 10)), None, "desk").await.unwrap();
    let (finished, _) = pads.record(&record("c", 3, played("3NT", pb::Seat::South, 9)), None, "desk").await.unwrap();
    let finished = finished.to_proto();
    // 120 + 100 + 500 (two games to one) = 720 against 130; App. 4 H2 rounds 590 to 600.
    assert_eq!((finished.north_south.unwrap().total, finished.east_west.unwrap().total), (720, 130));
    assert_eq!(finished.net.unwrap().rounded_margin, 600);

    let (corrected, version) = pads
        .correct(
            &spb::CorrectDealResultRequest {
                scorepad_id: pad.scorepad_id.clone(),
                expected_version: 3,
                deal_id: "c".into(),
                corrected_result: Some(played("3NT", pb::Seat::South, 10)),
                kind: spb::CorrectionKind::ScoringError as i32,
                acknowledged_by_player_ids: vec!["p0".into(), "p1".into(), "p2".into()],
                reason: "overtrick left out".into(),
                corrected_first_dealer: 0,
            },
            "desk",
        )
        .await
        .unwrap();
    assert_eq!(version.version, 4);
    let corrected = corrected.to_proto();
    assert_eq!(corrected.north_south.unwrap().total, 750);
    // What is stored is what a replay of the versions makes.
    assert_eq!(pads.get(&pad.scorepad_id).await.unwrap(), corrected);
    let versions = pads.versions(&pad.scorepad_id, None, scoring::store::Page { offset: 0, size: 10 }).await.unwrap();
    assert_eq!(versions.versions.len(), 4);
    let mut sequences = Vec::new();
    for _ in 0..4 {
        sequences.push(watch.next().await.unwrap().unwrap().event.unwrap().sequence);
    }
    assert_eq!(sequences, vec![1, 2, 3, 4]);
}

#[tokio::test]
async fn a_session_on_sqlite_is_scored_adjusted_and_ranked() {
    let db = Db::new().await;
    let sessions = Sessions::new(
        db.db.clone(),
        Feed::new(Arc::new(MemoryStore::new())),
        SessionSettings {
            datum: scoring::session::ButlerDatum::default(),
            correction_period: std::time::Duration::from_secs(1800),
        },
    );
    let session = sessions
        .create(spb::CreateSessionRequest {
            name: "Friday".into(),
            contestant_kind: spb::ContestantKind::Pairs as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: vec![spb::Board { number: 7, ..Default::default() }],
            contestants: (1..=4).map(|n| spb::Contestant { name: format!("pair {n}"), ..Default::default() }).collect(),
        })
        .await
        .unwrap();
    // Law 2: board 7 is dealt by South, both sides vulnerable.
    assert_eq!(session.boards[0].dealer, pb::Seat::South as i32);
    assert_eq!(session.boards[0].vulnerability, pb::Vulnerability::Both as i32);
    let key = |ns: &str, ew: &str| pb::BoardResultKey {
        session_id: session.session_id.clone(),
        board_number: 7,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    };
    let (first, _) = sessions
        .record(
            &spb::RecordBoardResultRequest {
                key: Some(key("1", "2")),
                deal_id: "x".into(),
                result: Some(played("4H", pb::Seat::South, 10)),
                source: spb::ResultSource::Desk as i32,
                hands: None,
            },
            "desk",
        )
        .await
        .unwrap();
    // A lone result has nothing to be compared with: 50% (Law 78A, our reading).
    assert_eq!(first.north_south.unwrap().percentage.unwrap().basis_points, 5000);
    assert_eq!(first.north_south.unwrap().points.unwrap().hundredths, 62_000);
    let (results, _) = sessions
        .adjust(
            &key("3", "4"),
            &spb::ApplyAdjustmentRequest {
                ruling_id: "r".into(),
                appeal_id: String::new(),
                target: None,
                change: Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
                    kind: Some(pb::adjustment::Kind::Assigned(pb::AssignedScore {
                        result: Some(played("4H", pb::Seat::South, 11)),
                    })),
                })),
                reason: "misinformation".into(),
                law: None,
            },
            "director",
        )
        .await
        .unwrap();
    let assigned = results.iter().find(|r| r.key.as_ref().unwrap().north_south_contestant_id == "3").unwrap();
    assert_eq!(assigned.kind, spb::ResultKind::Assigned as i32);
    assert_eq!(assigned.north_south.unwrap().percentage.unwrap().basis_points, 10_000);
    // The board is played after all: its table result is recorded, the adjusted score stays.
    let (late, _) = sessions
        .record(
            &spb::RecordBoardResultRequest {
                key: Some(key("3", "4")),
                deal_id: "late".into(),
                result: Some(played("4H", pb::Seat::South, 9)),
                source: spb::ResultSource::Desk as i32,
                hands: None,
            },
            "desk",
        )
        .await
        .unwrap();
    assert_eq!(late.kind, spb::ResultKind::Assigned as i32);
    assert!(late.table_result.is_some());
    assert_eq!(late.result_id, assigned.result_id);
    assert_eq!(late.north_south.unwrap().percentage.unwrap().basis_points, 10_000);
    let standings = sessions.standings(&session.session_id).await.unwrap();
    let order: Vec<(&str, u32)> = standings.standings.iter().map(|s| (s.contestant_id.as_str(), s.rank)).collect();
    assert_eq!(order, vec![("2", 1), ("3", 1), ("1", 3), ("4", 3)]);
    assert!(standings.standings.iter().all(|s| s.tied));
    // The director sees every result; a player who has not played the board sees none.
    let results = sessions
        .list_results(
            &spb::ListBoardResultsRequest {
                session_id: session.session_id.clone(),
                board_number: 7,
                page: None,
                ..Default::default()
            },
            &principal("stranger", &[Role::Player]),
        )
        .await
        .unwrap();
    assert!(results.results.is_empty());
    let results = sessions
        .list_results(
            &spb::ListBoardResultsRequest {
                session_id: session.session_id.clone(),
                board_number: 0,
                page: None,
                ..Default::default()
            },
            &principal("director", &[Role::Arbiter]),
        )
        .await
        .unwrap();
    assert_eq!(results.results.len(), 2);
}
