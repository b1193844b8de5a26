//! Rubber and Chicago scorepads on a real server: results as the game service and the desk send
//! them, Law 78 corrections, Law 80 endings, net score agreement, rulings and appeal decisions,
//! idempotency, and the live stream.

use api::common::v1 as pb;
use api::scoring::v1 as spb;
use e2e::{ScoringClient, TestApp};
use platform::auth::Role;
use tonic::Code;

use super::{passed_out, played};

const PLAYERS: [(pb::Seat, &str); 4] =
    [(pb::Seat::North, "nora"), (pb::Seat::East, "ed"), (pb::Seat::South, "sam"), (pb::Seat::West, "wes")];

/// The pad of a rubber of `kind` the desk started for [`PLAYERS`], North dealing first.
pub async fn create_pad(app: &TestApp, kind: pb::TableKind) -> spb::Scorepad {
    let lineup = app.lineup_of(kind, PLAYERS.map(|(_, id)| id)).await;
    let request = spb::GetScorepadRequest { scorepad_id: lineup.scorepad_id };
    app.scoring("desk", &[Role::Desk]).get_scorepad(request).await.unwrap().into_inner().scorepad.unwrap()
}

/// Records `result` as the pad's next deal, as the game service does (its number from the pad).
pub async fn record(
    client: &mut ScoringClient,
    pad: &spb::Scorepad,
    deal_id: &str,
    result: pb::DealResult,
) -> Result<spb::RecordDealResultResponse, tonic::Status> {
    let current = client
        .get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.scorepad_id.clone() })
        .await?
        .into_inner()
        .scorepad
        .unwrap();
    let number = current.next_deal.map_or(current.deals.len() as u32 + 1, |n| n.deal_number);
    client
        .record_deal_result(spb::RecordDealResultRequest {
            scorepad_id: pad.scorepad_id.clone(),
            deal_id: deal_id.into(),
            deal_number: number,
            result: Some(result),
            source: spb::ResultSource::Game as i32,
            hands: None,
        })
        .await
        .map(tonic::Response::into_inner)
}

fn totals(pad: &spb::Scorepad) -> (u32, u32) {
    (pad.north_south.unwrap().total, pad.east_west.unwrap().total)
}

fn live_entries(pad: &spb::Scorepad, deal_id: &str) -> Vec<(i32, i32, u32, i32)> {
    pad.entries
        .iter()
        .filter(|e| !e.struck && e.deal_id == deal_id)
        .map(|e| (e.side, e.line, e.points, e.item))
        .collect()
}

const NS: i32 = pb::Side::NorthSouth as i32;
const EW: i32 = pb::Side::EastWest as i32;
const ABOVE: i32 = spb::ScoreLine::Above as i32;
const BELOW: i32 = spb::ScoreLine::Below as i32;

#[tokio::test]
async fn a_rubber_recorded_by_the_game_service_ends_with_the_right_totals_and_bonus() {
    let mut app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    // The game service records results with its service identity (service role).
    let mut game = app.scoring("service:game", &[Role::Service]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    assert_eq!(pad.version, 0);
    let next = pad.next_deal.unwrap();
    assert_eq!(
        (next.deal_number, next.dealer, next.vulnerability),
        (1, pb::Seat::North as i32, pb::Vulnerability::None as i32)
    );

    // rubbers.json case 0: 3H+1 by us, 2S= and 2C= by them (their game), 4S= by us, 3NT= by us.
    let deals = [
        ("d1", played("3H", pb::Seat::North, 10)),
        ("d2", played("2S", pb::Seat::East, 8)),
        ("d3", played("2C", pb::Seat::West, 8)),
        ("d4", played("4S", pb::Seat::South, 10)),
        ("d5", played("3NT", pb::Seat::North, 9)),
    ];
    let mut last = None;
    for (i, (deal_id, result)) in deals.into_iter().enumerate() {
        let response = record(&mut game, &pad, deal_id, result).await.unwrap();
        assert_eq!(response.version.as_ref().unwrap().version, i as u64 + 1);
        assert_eq!(response.version.as_ref().unwrap().recorded_by, "service:game");
        last = Some(response.scorepad.unwrap());
        if i == 2 {
            // Law 73: their second partscore makes a game, so they are vulnerable on deal 4; the
            // turn to deal has passed round to West (Law 9).
            let next = last.as_ref().unwrap().next_deal.unwrap();
            assert_eq!(next.deal_number, 4);
            assert_eq!(next.dealer, pb::Seat::West as i32);
            assert_eq!(next.vulnerability, pb::Vulnerability::EastWest as i32);
        }
    }
    let pad_after = last.unwrap();
    assert_eq!(pad_after.status, spb::ScorepadStatus::Finished as i32);
    assert_eq!(totals(&pad_after), (840, 100));
    let (ns, ew) = (pad_after.north_south.unwrap(), pad_after.east_west.unwrap());
    assert_eq!((ns.games_won, ew.games_won), (2, 1));
    // Law 74: 500 for a rubber won two games to one, to the side that won it.
    let bonus: Vec<_> = pad_after.entries.iter().filter(|e| e.item == spb::ScoreItem::RubberBonus as i32).collect();
    assert_eq!(bonus.len(), 1);
    assert_eq!((bonus[0].side, bonus[0].points, bonus[0].deal_id.as_str()), (NS, 500, ""));
    assert_eq!(bonus[0].law.as_ref().unwrap().text, "Law 74 of the Laws of Rubber Bridge");
    let games: Vec<(i32, &str)> = pad_after.games.iter().map(|g| (g.winner, g.completed_by_deal_id.as_str())).collect();
    assert_eq!(games, vec![(EW, "d3"), (NS, "d4"), (NS, "d5")]);
    let net = pad_after.net.unwrap();
    assert_eq!((net.winner, net.margin, net.rounded_margin), (NS, 740, 740));
    assert!(pad_after.next_deal.is_none());
    // Deal 1: trick points below, the overtrick above (Law 75).
    assert_eq!(
        live_entries(&pad_after, "d1"),
        vec![(NS, BELOW, 90, spb::ScoreItem::TrickPoints as i32), (NS, ABOVE, 30, spb::ScoreItem::Overtricks as i32)]
    );

    // Law 74: no deal is scored once the rubber is over.
    let status = record(&mut game, &pad, "d6", played("1NT", pb::Seat::North, 7)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 74"), "{}", status.message());

    // What was recorded is what a reader gets back, also after a restart and a Redis flush.
    app.flush_redis().await;
    let read = desk.get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.scorepad_id.clone() }).await.unwrap();
    assert_eq!(read.into_inner().scorepad.unwrap(), pad_after);
    app.restart().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let read = desk.get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.scorepad_id.clone() }).await.unwrap();
    assert_eq!(read.into_inner().scorepad.unwrap(), pad_after);
    let listed = desk
        .list_scorepads(spb::ListScorepadsRequest {
            table_id: pad.table_id.clone(),
            in_progress_only: false,
            page: None,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.scorepads, vec![pad_after]);
    let in_progress = desk
        .list_scorepads(spb::ListScorepadsRequest { table_id: String::new(), in_progress_only: true, page: None })
        .await
        .unwrap()
        .into_inner();
    assert!(in_progress.scorepads.is_empty());
}

#[tokio::test]
async fn recording_the_same_deal_twice_changes_nothing_the_second_time() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    let first = record(&mut desk, &pad, "deal-1", played("4H", pb::Seat::East, 10)).await.unwrap();
    // The game service's outbox delivers it again, with the number it had then.
    let again = desk
        .record_deal_result(spb::RecordDealResultRequest {
            scorepad_id: pad.scorepad_id.clone(),
            deal_id: "deal-1".into(),
            deal_number: 1,
            result: Some(played("4H", pb::Seat::East, 10)),
            source: spb::ResultSource::Game as i32,
            hands: None,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.version, first.version, "the version the first recording made");
    assert_eq!(again.scorepad, first.scorepad, "the pad is unchanged");
    // Two more deliveries at once: still one version.
    let request = || spb::RecordDealResultRequest {
        scorepad_id: pad.scorepad_id.clone(),
        deal_id: "deal-1".into(),
        deal_number: 1,
        result: Some(played("4H", pb::Seat::East, 10)),
        source: spb::ResultSource::Game as i32,
        hands: None,
    };
    let (mut a, mut b) = (desk.clone(), desk.clone());
    let (x, y) = tokio::join!(a.record_deal_result(request()), b.record_deal_result(request()));
    assert_eq!(x.unwrap().into_inner().version, first.version);
    assert_eq!(y.unwrap().into_inner().version, first.version);
    let versions = desk
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::ScorepadId(pad.scorepad_id.clone())),
            target: None,
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].cause, spb::ScoreVersionCause::ResultRecorded as i32);

    // The same deal id with another result is not a repeat: it is refused.
    let status = desk
        .record_deal_result(spb::RecordDealResultRequest { result: Some(played("4H", pb::Seat::East, 9)), ..request() })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::AlreadyExists);
    assert!(status.message().contains("CorrectDealResult"), "{}", status.message());
    // A result for another deal number than the next is refused (Law 73: deals are scored in order).
    let status = desk
        .record_deal_result(spb::RecordDealResultRequest { deal_id: "deal-3".into(), deal_number: 3, ..request() })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 73"), "{}", status.message());
}

#[tokio::test]
async fn a_chicago_of_four_deals_with_a_passed_out_deal_redealt() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let pad = create_pad(&app, pb::TableKind::Chicago).await;
    let next = |pad: &spb::Scorepad| pad.next_deal.map(|n| (n.deal_number, n.dealer, n.vulnerability));
    let none = pb::Vulnerability::None as i32;
    assert_eq!(next(&pad), Some((1, pb::Seat::North as i32, none)));

    // Deal 1, nobody vulnerable: 4S= by North, 120 and the 300 game premium (Appendix 4 D).
    let p = record(&mut desk, &pad, "c1", played("4S", pb::Seat::North, 10)).await.unwrap().scorepad.unwrap();
    assert_eq!(next(&p), Some((2, pb::Seat::East as i32, pb::Vulnerability::EastWest as i32)));
    // Passed out: redealt by the same dealer and does not count (Appendix 4 B).
    let p = record(&mut desk, &pad, "c2-passed", passed_out()).await.unwrap().scorepad.unwrap();
    assert_eq!(next(&p), Some((2, pb::Seat::East as i32, pb::Vulnerability::EastWest as i32)));
    assert_eq!(p.deals.last().unwrap().deal_number, 2, "a passed-out deal keeps the number of the deal redealt");
    // Deal 2, East-West vulnerable: 2H= by East, a partscore carried forward.
    let p = record(&mut desk, &pad, "c2", played("2H", pb::Seat::East, 8)).await.unwrap().scorepad.unwrap();
    assert_eq!(p.east_west.unwrap().partscore, 60);
    // Deal 3, North-South vulnerable: 3NT= by South, game premium 500; East-West's 60 stops counting.
    let p = record(&mut desk, &pad, "c3", played("3NT", pb::Seat::South, 9)).await.unwrap().scorepad.unwrap();
    assert_eq!(p.east_west.unwrap().partscore, 0);
    assert_eq!(next(&p), Some((4, pb::Seat::West as i32, pb::Vulnerability::Both as i32)));
    // Deal 4, both vulnerable: 2C+1 by West, a partscore that does not make game earns 100 (F).
    let p = record(&mut desk, &pad, "c4", played("2C", pb::Seat::West, 9)).await.unwrap().scorepad.unwrap();
    assert_eq!(p.status, spb::ScorepadStatus::Finished as i32);
    assert!(p.next_deal.is_none());
    assert_eq!(totals(&p), (420 + 100 + 500, 60 + 40 + 20 + 100));
    assert_eq!(
        live_entries(&p, "c3"),
        vec![
            (NS, BELOW, 100, spb::ScoreItem::TrickPoints as i32),
            (NS, ABOVE, 500, spb::ScoreItem::ChicagoGame as i32)
        ]
    );
    assert!(live_entries(&p, "c4").contains(&(EW, ABOVE, 100, spb::ScoreItem::ChicagoFourthDealPartscore as i32)));
    assert!(p.entries.iter().all(|e| e.item != spb::ScoreItem::RubberBonus as i32), "no rubber premium in Chicago");
    let games: Vec<(i32, &str)> = p.games.iter().map(|g| (g.winner, g.completed_by_deal_id.as_str())).collect();
    assert_eq!(games, vec![(NS, "c1"), (NS, "c3")]);
    // A fifth deal is void (Appendix 4 B).
    let status = record(&mut desk, &pad, "c5", played("1NT", pb::Seat::North, 7)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
}

#[tokio::test]
async fn law_78_corrections_replay_the_rubber_with_the_consent_the_law_asks() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    record(&mut desk, &pad, "a", played("2H", pb::Seat::North, 8)).await.unwrap();
    record(&mut desk, &pad, "b", played("2S", pb::Seat::South, 8)).await.unwrap();
    let before = record(&mut desk, &pad, "c", played("3D", pb::Seat::East, 9)).await.unwrap().scorepad.unwrap();
    // 2H= and 2S= make North-South's first game on deal b.
    assert_eq!(before.north_south.unwrap().games_won, 1);
    assert!(!before.east_west.unwrap().vulnerable);

    let correction = |deal: &str, result: pb::DealResult, kind: spb::CorrectionKind, by: &[&str], version: u64| {
        spb::CorrectDealResultRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: version,
            deal_id: deal.into(),
            corrected_result: Some(result),
            kind: kind as i32,
            acknowledged_by_player_ids: by.iter().map(|s| (*s).to_owned()).collect(),
            reason: "the score sheet had 2H made with one trick fewer".into(),
            corrected_first_dealer: 0,
        }
    };
    // Two of four players is no majority (Law 78).
    let status = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 7),
            spb::CorrectionKind::ScoringError,
            &["nora", "ed"],
            3,
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("majority") && status.message().contains("Law 78"), "{}", status.message());
    // Someone who is not at the table does not count.
    let status = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 7),
            spb::CorrectionKind::ScoringError,
            &["nora", "ed", "zed"],
            3,
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    // A trick count corrected after the next deal was played needs all four (Law 78).
    let status = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 7),
            spb::CorrectionKind::TrickCount,
            &["nora", "ed", "sam"],
            3,
        ))
        .await
        .unwrap_err();
    assert!(status.message().contains("all four"), "{}", status.message());
    // A stale version is refused.
    let status = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 7),
            spb::CorrectionKind::ScoringError,
            &["nora", "ed", "sam"],
            2,
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Aborted);

    // With a majority: 2H was one down, so deal b no longer completes the game and every later
    // entry is replayed (games, vulnerability, premiums move).
    let corrected = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 7),
            spb::CorrectionKind::ScoringError,
            &["nora", "ed", "sam"],
            3,
        ))
        .await
        .unwrap()
        .into_inner();
    let after = corrected.scorepad.unwrap();
    let version = corrected.version.unwrap();
    assert_eq!(version.cause, spb::ScoreVersionCause::Correction as i32);
    assert_eq!(version.law.unwrap().text, "Law 78 of the Laws of Rubber Bridge");
    assert_eq!(after.version, 4);
    assert_eq!(after.north_south.unwrap().games_won, 0);
    assert_eq!(after.north_south.unwrap().partscore, 60);
    assert_eq!(after.east_west.unwrap().partscore, 60);
    // The old entries are struck in version 4, not deleted; the new ones are there.
    let struck: Vec<_> = after.entries.iter().filter(|e| e.struck).collect();
    assert!(struck.iter().any(|e| e.deal_id == "a" && e.item == spb::ScoreItem::TrickPoints as i32));
    assert!(struck.iter().all(|e| e.struck_in_version == 4));
    assert_eq!(live_entries(&after, "a"), vec![(EW, ABOVE, 50, spb::ScoreItem::Undertricks as i32)]);
    assert!(after.games.is_empty());
    // The deal's results are both kept: the one struck and the correction.
    let a: Vec<(bool, i32)> = after.deals.iter().filter(|d| d.deal_id == "a").map(|d| (d.struck, d.source)).collect();
    assert_eq!(a, vec![(true, spb::ResultSource::Game as i32), (false, spb::ResultSource::Correction as i32)]);

    // The replay that would end the rubber earlier than it ended is flagged for the arbiter.
    record(&mut desk, &pad, "d", played("3NT", pb::Seat::North, 9)).await.unwrap();
    let finished = record(&mut desk, &pad, "e", played("4S", pb::Seat::North, 10)).await.unwrap().scorepad.unwrap();
    assert_eq!(finished.status, spb::ScorepadStatus::Finished as i32);
    let flagged = desk
        .correct_deal_result(correction(
            "a",
            played("2H", pb::Seat::North, 8),
            spb::CorrectionKind::TrickCount,
            &["nora", "ed", "sam", "wes"],
            finished.version,
        ))
        .await
        .unwrap()
        .into_inner();
    let flagged_pad = flagged.scorepad.unwrap();
    assert_eq!(flagged_pad.review_flags.len(), 1, "{:?}", flagged_pad.review_flags);
    assert!(flagged_pad.review_flags[0].contains("arbiter"), "{:?}", flagged_pad.review_flags);
    assert!(flagged.version.unwrap().reason.contains("not applied"));
    assert_eq!(totals(&flagged_pad), totals(&finished), "nothing was guessed");
}

#[tokio::test]
async fn law_80_an_unfinished_rubber_and_the_agreement_of_its_net_score() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    record(&mut desk, &pad, "g", played("4S", pb::Seat::East, 10)).await.unwrap();
    let p = record(&mut desk, &pad, "p", played("2D", pb::Seat::North, 8)).await.unwrap().scorepad.unwrap();
    // A player cannot agree a rubber that goes on.
    let mut nora = app.scoring("nora", &[Role::Player]);
    let status = nora
        .agree_net_score(spb::AgreeNetScoreRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: p.version,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);

    let ended = desk
        .end_unfinished_rubber(spb::EndUnfinishedRubberRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: p.version,
            reason: "the club closes".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let pad_ended = ended.scorepad.unwrap();
    assert_eq!(pad_ended.status, spb::ScorepadStatus::EndedUnfinished as i32);
    assert_eq!(ended.version.unwrap().cause, spb::ScoreVersionCause::RubberEnded as i32);
    // Law 80: 300 to the winners of the only game, 100 to the only side with a partscore.
    let premiums: Vec<(i32, u32, i32)> =
        pad_ended.entries.iter().filter(|e| e.deal_id.is_empty()).map(|e| (e.side, e.points, e.item)).collect();
    assert_eq!(
        premiums,
        vec![(EW, 300, spb::ScoreItem::UnfinishedGame as i32), (NS, 100, spb::ScoreItem::UnfinishedPartscore as i32)]
    );
    assert_eq!(totals(&pad_ended), (40 + 100, 120 + 300));
    let status = record(&mut desk, &pad, "x", played("1NT", pb::Seat::North, 7)).await.unwrap_err();
    assert!(status.message().contains("Law 80"), "{}", status.message());

    // Only a player of the rubber agrees its net score.
    let mut stranger = app.scoring("zed", &[Role::Player]);
    let status = stranger
        .agree_net_score(spb::AgreeNetScoreRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: pad_ended.version,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let agreed = nora
        .agree_net_score(spb::AgreeNetScoreRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: pad_ended.version,
        })
        .await
        .unwrap()
        .into_inner()
        .scorepad
        .unwrap();
    assert!(agreed.net_agreed_at.is_some());
    // Agreeing again changes nothing.
    let again = nora
        .agree_net_score(spb::AgreeNetScoreRequest { scorepad_id: pad.scorepad_id.clone(), expected_version: 0 })
        .await
        .unwrap()
        .into_inner()
        .scorepad
        .unwrap();
    assert_eq!(again, agreed);
    // Law 78: no correction once the net score is agreed.
    let status = desk
        .correct_deal_result(spb::CorrectDealResultRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: agreed.version,
            deal_id: "p".into(),
            corrected_result: Some(played("2D", pb::Seat::North, 9)),
            kind: spb::CorrectionKind::ScoringError as i32,
            acknowledged_by_player_ids: vec!["nora".into(), "ed".into(), "sam".into(), "wes".into()],
            reason: String::new(),
            corrected_first_dealer: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("agreed") && status.message().contains("Law 78"), "{}", status.message());
}

fn adjustment(
    ruling: &str,
    appeal: &str,
    pad: &spb::Scorepad,
    deal: &str,
    result: Option<pb::DealResult>,
) -> spb::ApplyAdjustmentRequest {
    spb::ApplyAdjustmentRequest {
        ruling_id: ruling.into(),
        appeal_id: appeal.into(),
        target: Some(pb::ScoreTarget {
            target: Some(pb::score_target::Target::ScorepadDeal(pb::ScorepadDeal {
                scorepad_id: pad.scorepad_id.clone(),
                deal_id: deal.into(),
            })),
        }),
        change: Some(match result {
            Some(result) => spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
                kind: Some(pb::adjustment::Kind::Assigned(pb::AssignedScore { result: Some(result) })),
            }),
            None => spb::apply_adjustment_request::Change::RestoreTableResult(spb::RestoreTableResult {}),
        }),
        reason: "the committee found the revoke established".into(),
        law: None,
    }
}

#[tokio::test]
async fn a_ruling_replays_the_rubber_and_an_appeal_changes_only_its_deal_with_premium_a() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let mut appeals = app.scoring("service:appeals", &[Role::Service]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    // Deal 1: 4S by North one down; deal 2: 1NT= by East.
    record(&mut desk, &pad, "one", played("4S", pb::Seat::North, 9)).await.unwrap();
    record(&mut desk, &pad, "two", played("1NT", pb::Seat::East, 7)).await.unwrap();

    // Only the appeals service (admin) applies adjustments: the arbiter records rulings there.
    let status = app
        .scoring("arbiter", &[Role::Arbiter])
        .apply_adjustment(adjustment("r1", "", &pad, "one", Some(played("4S", pb::Seat::North, 10))))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    // A rubber deal takes only an assigned score.
    let mut artificial = adjustment("r0", "", &pad, "one", None);
    artificial.change = Some(spb::apply_adjustment_request::Change::Adjustment(pb::Adjustment {
        kind: Some(pb::adjustment::Kind::Artificial(pb::ArtificialScore::default())),
    }));
    assert_eq!(appeals.apply_adjustment(artificial).await.unwrap_err().code(), Code::InvalidArgument);

    // The Club Appeals Committee rules 4S made: only deal "one" is rescored, its trick points go
    // above the line (later games stand), and premium A applies: the contract would have made
    // game, declarer not vulnerable, 300.
    let decided = appeals
        .apply_adjustment(adjustment("r1", "a1", &pad, "one", Some(played("4S", pb::Seat::North, 10))))
        .await
        .unwrap()
        .into_inner();
    let version = decided.version.unwrap();
    assert_eq!(version.cause, spb::ScoreVersionCause::AppealDecision as i32);
    assert_eq!((version.ruling_id.as_str(), version.appeal_id.as_str()), ("r1", "a1"));
    let after = decided.scorepad.unwrap();
    assert_eq!(
        live_entries(&after, "one"),
        vec![
            (NS, ABOVE, 120, spb::ScoreItem::TrickPoints as i32),
            (NS, ABOVE, 300, spb::ScoreItem::AppealPremiumMade as i32)
        ]
    );
    assert_eq!(after.north_south.unwrap().games_won, 0, "the game is not recreated");
    assert_eq!(after.east_west.unwrap().partscore, 40, "later scores stand as recorded");
    // Applying the same decision again changes nothing (idempotent by ruling and appeal id).
    let again = appeals
        .apply_adjustment(adjustment("r1", "a1", &pad, "one", Some(played("4S", pb::Seat::North, 10))))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.version.unwrap().version, version.version);
    assert_eq!(again.scorepad.unwrap(), after);

    // An arbiter's ruling (no appeal) on deal "two" becomes its result and the rubber replays.
    let ruled = appeals
        .apply_adjustment(adjustment("r2", "", &pad, "two", Some(played("1NT", pb::Seat::East, 6))))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ruled.version.as_ref().unwrap().cause, spb::ScoreVersionCause::Adjustment as i32);
    let ruled_pad = ruled.scorepad.unwrap();
    assert_eq!(live_entries(&ruled_pad, "two"), vec![(NS, ABOVE, 50, spb::ScoreItem::Undertricks as i32)]);
    // An appeal against that ruling restores the table result.
    let restored = appeals
        .apply_adjustment(adjustment("r2", "a2", &pad, "two", None))
        .await
        .unwrap()
        .into_inner()
        .scorepad
        .unwrap();
    // The committee's result is a contract made where the ruling had it defeated: its trick
    // points go above the line and premium A applies, 100 as it would not have made game.
    assert_eq!(
        live_entries(&restored, "two"),
        vec![
            (EW, ABOVE, 40, spb::ScoreItem::TrickPoints as i32),
            (EW, ABOVE, 100, spb::ScoreItem::AppealPremiumMade as i32)
        ]
    );
    // Every change is a version with its reason, traceable to its ruling.
    let versions = desk
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::ScorepadId(pad.scorepad_id.clone())),
            target: Some(pb::ScoreTarget {
                target: Some(pb::score_target::Target::ScorepadDeal(pb::ScorepadDeal {
                    scorepad_id: pad.scorepad_id.clone(),
                    deal_id: "two".into(),
                })),
            }),
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    let causes: Vec<(i32, &str)> = versions.iter().map(|v| (v.cause, v.ruling_id.as_str())).collect();
    assert_eq!(
        causes,
        vec![
            (spb::ScoreVersionCause::ResultRecorded as i32, ""),
            (spb::ScoreVersionCause::Adjustment as i32, "r2"),
            (spb::ScoreVersionCause::AppealDecision as i32, "r2")
        ]
    );
}

#[tokio::test]
async fn watching_a_scorepad_sees_every_change_once_in_order_and_resumes() {
    let app = TestApp::spawn().await;
    let mut desk = app.scoring("desk", &[Role::Desk]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    record(&mut desk, &pad, "w1", played("2H", pb::Seat::North, 8)).await.unwrap();
    let mut player = app.scoring("nora", &[Role::Player]);
    let mut watch = player
        .watch_scorepad(spb::WatchScorepadRequest { scorepad_id: pad.scorepad_id.clone(), after_sequence: None })
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap().event.unwrap();
    assert_eq!(first.sequence, 1);
    let Some(spb::scorepad_event::Event::Snapshot(snapshot)) = first.event else { panic!("a snapshot first") };
    assert_eq!(snapshot.version, 1);

    // Three writers at once, then a flush of Redis, then more: every change arrives, in order.
    let (mut a, mut b) = (desk.clone(), desk.clone());
    record(&mut a, &pad, "w2", played("2S", pb::Seat::East, 8)).await.unwrap();
    let _ = tokio::join!(
        record(&mut a, &pad, "w3", played("1NT", pb::Seat::South, 7)),
        desk.end_unfinished_rubber(spb::EndUnfinishedRubberRequest {
            scorepad_id: pad.scorepad_id.clone(),
            expected_version: 2,
            reason: "closing".into(),
        }),
    );
    app.flush_redis().await;
    let last = b.get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.scorepad_id.clone() }).await.unwrap();
    let last = last.into_inner().scorepad.unwrap();
    let mut sequences = Vec::new();
    while sequences.last() != Some(&last.version) {
        let event = watch.message().await.unwrap().unwrap().event.unwrap();
        let Some(spb::scorepad_event::Event::Changed(changed)) = event.event else { panic!("a change") };
        assert_eq!(changed.version.unwrap().version, event.sequence);
        sequences.push(event.sequence);
    }
    assert_eq!(sequences, (2..=last.version).collect::<Vec<_>>());
    drop(watch);

    // Resuming after sequence 1 replays what followed, from Postgres.
    let mut resumed = player
        .watch_scorepad(spb::WatchScorepadRequest { scorepad_id: pad.scorepad_id.clone(), after_sequence: Some(1) })
        .await
        .unwrap()
        .into_inner();
    let next = resumed.message().await.unwrap().unwrap().event.unwrap();
    assert_eq!(next.sequence, 2);
    let Some(spb::scorepad_event::Event::Changed(changed)) = next.event else { panic!("a change") };
    assert!(changed.added.iter().any(|e| e.deal_id == "w2"));
}

/// Law 73: "Game is won by that side which is the first to have scored 100 or more trick points
/// either in a single deal or by addition of two or more partscores made separately"; Law 74: "A
/// rubber ends when a side has won two games." The deal after one still on its way to the pad
/// follows from these: the game service names the result it owes, and scoring answers with the
/// deal after it, as the pad will stand, writing nothing. Only the game service may name one, and
/// only the pad's next deal counts.
#[tokio::test]
async fn law_73_and_74_the_next_deal_counts_the_result_the_game_service_still_owes() {
    let app = TestApp::spawn().await;
    let mut game = app.scoring("service:game", &[Role::Service]);
    let pad = create_pad(&app, pb::TableKind::Rubber).await;
    // rubbers.json case 0 up to one game all: 3H+1 by us, 2S= and 2C= by them, 4S= by us.
    let deals = [
        ("d1", played("3H", pb::Seat::North, 10)),
        ("d2", played("2S", pb::Seat::East, 8)),
        ("d3", played("2C", pb::Seat::West, 8)),
        ("d4", played("4S", pb::Seat::South, 10)),
    ];
    for (deal_id, result) in deals {
        record(&mut game, &pad, deal_id, result).await.unwrap();
    }
    let owed = |deal_id: &str, deal_number: u32, result| spb::RecordDealResultRequest {
        scorepad_id: pad.scorepad_id.clone(),
        deal_id: deal_id.into(),
        deal_number,
        result: Some(result),
        source: spb::ResultSource::Game as i32,
        hands: None,
    };
    let ask = |played| spb::GetNextDealRequest { scorepad_id: pad.scorepad_id.clone(), played };

    // As the pad stands: deal 5, dealt by North again (Law 9), both sides vulnerable.
    let standing = game.get_next_deal(ask(None)).await.unwrap().into_inner();
    let next = standing.next_deal.unwrap();
    assert_eq!(
        (next.deal_number, next.dealer, next.vulnerability, standing.counts_played, standing.version),
        (5, pb::Seat::North as i32, pb::Vulnerability::Both as i32, false, 4)
    );
    assert_eq!(standing.rubber_id, pad.rubber_id);

    // Deal 5, 3NT made by North, still on its way: North-South's second game ends the rubber.
    let owed_5 = owed("d5", 5, played("3NT", pb::Seat::North, 9));
    let after = game.get_next_deal(ask(Some(owed_5.clone()))).await.unwrap().into_inner();
    assert!(after.counts_played);
    assert!(after.next_deal.is_none(), "the rubber is over after deal 5 (Law 74): {:?}", after.next_deal);
    assert_eq!(after.status, spb::ScorepadStatus::Finished as i32);
    // A partscore instead leaves the rubber going on: deal 6, East dealing.
    let partscore = game.get_next_deal(ask(Some(owed("d5", 5, played("2C", pb::Seat::North, 8))))).await.unwrap();
    let next = partscore.into_inner().next_deal.unwrap();
    assert_eq!((next.deal_number, next.dealer), (6, pb::Seat::East as i32));

    // Nothing was written.
    let stored = game.get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.scorepad_id.clone() }).await.unwrap();
    let stored = stored.into_inner().scorepad.unwrap();
    assert_eq!((stored.version, stored.deals.len(), stored.next_deal.unwrap().deal_number), (4, 4, 5));

    // A deal the pad holds, or one that is not its next, counts for nothing.
    for played in [owed("d4", 4, played("4S", pb::Seat::South, 10)), owed("d7", 7, played("3NT", pb::Seat::North, 9))] {
        let answer = game.get_next_deal(ask(Some(played))).await.unwrap().into_inner();
        assert_eq!((answer.counts_played, answer.next_deal.unwrap().deal_number), (false, 5));
    }

    // Only the game service, which played the deal, may name it.
    for (subject, role) in [("desk", Role::Desk), ("nora", Role::Player), ("service:appeals", Role::Service)] {
        let refused = app.scoring(subject, &[role]).get_next_deal(ask(Some(owed_5.clone()))).await.unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{subject}: {}", refused.message());
    }
    // A result that is no result is the caller's mistake, named.
    let mut bad = owed_5.clone();
    bad.result = None;
    let refused = game.get_next_deal(ask(Some(bad))).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{}", refused.message());
}
