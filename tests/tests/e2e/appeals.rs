//! The appeals service on a real server with the real scoring service: a rubber is played, a
//! ruling recorded, appealed, heard and overruled, and the score follows the Club Appeals
//! Committee (premiums A and B, later deals standing); a duplicate board's ruling overturned
//! rescores the field and notifies the players; late appeals, non-players and principals without
//! the committee role are refused; deciding twice changes the score once.

use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::scoring::v1 as spb;
use e2e::TestApp;
use futures::StreamExt;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

const NS: common::Side = common::Side::NorthSouth;
const EW: common::Side = common::Side::EastWest;

/// The four players of every rubber here.
const PLAYERS: [(Seat, &str); 4] =
    [(Seat::North, "nora"), (Seat::East, "eddie"), (Seat::South, "sam"), (Seat::West, "wendy")];

fn played(declarer: Seat, contract: &str, tricks: u32) -> common::DealResult {
    let contract: laws::Contract = contract.parse().unwrap();
    common::DealResult {
        outcome: Some(common::deal_result::Outcome::Played(common::PlayedContract {
            contract: Some(laws::DeclaredContract { contract, declarer }.into()),
            tricks,
        })),
        honors: Vec::new(),
    }
}

fn assigned(result: common::DealResult) -> pb::RulingDecision {
    pb::RulingDecision {
        decision: Some(pb::ruling_decision::Decision::AdjustedScore(common::Adjustment {
            kind: Some(common::adjustment::Kind::Assigned(common::AssignedScore { result: Some(result) })),
        })),
    }
}

fn result_stands() -> pb::RulingDecision {
    pb::RulingDecision { decision: Some(pb::ruling_decision::Decision::ResultStands(pb::ResultStands {})) }
}

fn minutes(m: i64) -> Option<prost_types::Duration> {
    Some(prost_types::Duration { seconds: m * 60, nanos: 0 })
}

/// Publishes a policy that hears appeals, with a committee of `size` and the duplicate period
/// `duplicate` (Law 92B).
async fn publish_policy(app: &TestApp, size: u32, duplicate: prost_types::Duration) {
    let mut admin = app.appeals("club-admin", &[Role::Admin]);
    let current = admin.get_appeal_policy(pb::GetAppealPolicyRequest {}).await.unwrap().into_inner().policy.unwrap();
    let published = admin
        .update_appeal_policy(pb::UpdateAppealPolicyRequest {
            expected_version: current.version,
            policy: Some(pb::AppealPolicy {
                appeals_allowed: true,
                rubber_time_limit: minutes(60),
                duplicate_time_limit: Some(duplicate),
                committee_size: size,
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner()
        .policy
        .unwrap();
    assert_eq!(published.version, current.version + 1);
}

/// The scorepad of a rubber the desk started for [`PLAYERS`], North dealing first.
async fn scorepad(app: &TestApp, kind: common::TableKind) -> spb::Scorepad {
    let lineup = app.lineup_of(kind, PLAYERS.map(|(_, id)| id)).await;
    let request = spb::GetScorepadRequest { scorepad_id: lineup.scorepad_id };
    app.scoring("desk", &[Role::Desk]).get_scorepad(request).await.unwrap().into_inner().scorepad.unwrap()
}

/// Records deal `number` (deal id `deal-<number>`) and returns the pad.
async fn record(app: &TestApp, pad: &str, number: u32, result: common::DealResult) -> spb::Scorepad {
    app.scoring("desk", &[Role::Desk])
        .record_deal_result(spb::RecordDealResultRequest {
            scorepad_id: pad.into(),
            deal_id: format!("deal-{number}"),
            deal_number: number,
            result: Some(result),
            source: spb::ResultSource::Desk as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .scorepad
        .unwrap()
}

async fn get_pad(app: &TestApp, pad: &str) -> spb::Scorepad {
    app.scoring("nora", &[Role::Player])
        .get_scorepad(spb::GetScorepadRequest { scorepad_id: pad.into() })
        .await
        .unwrap()
        .into_inner()
        .scorepad
        .unwrap()
}

fn pad_target(pad: &str, deal: &str) -> common::ScoreTarget {
    common::ScoreTarget {
        target: Some(common::score_target::Target::ScorepadDeal(common::ScorepadDeal {
            scorepad_id: pad.into(),
            deal_id: deal.into(),
        })),
    }
}

/// The arbiter's ruling on a rubber deal: the claim is disputed, and the table result stands.
async fn rule(app: &TestApp, kind: common::TableKind, pad: &str, deal: &str) -> pb::Ruling {
    app.appeals("arbiter", &[Role::Arbiter])
        .record_ruling(pb::RecordRulingRequest {
            idempotency_key: format!("ruling-{deal}"),
            deal: Some(pb::DealReference {
                kind: kind as i32,
                score_target: Some(pad_target(pad, deal)),
                ..Default::default()
            }),
            irregularity: "declarer's claim disputed by the defenders".into(),
            laws: vec![common::LawCitation {
                code: common::LawCode::Club as i32,
                number: 69,
                section: String::new(),
                text: String::new(),
            }],
            facts: "declarer stated a line; the defenders objected".into(),
            kind: pb::RulingKind::Judgement as i32,
            decision: Some(result_stands()),
            right_to_appeal_advised: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .ruling
        .unwrap()
}

/// Committee members who have signed in (listed appeals) with the committee role.
async fn sign_in(app: &TestApp, members: &[&str]) {
    for member in members {
        app.appeals(member, &[Role::Committee]).list_appeals(pb::ListAppealsRequest::default()).await.unwrap();
    }
}

/// `appellant` appeals `ruling`; the committee (`members`, the first recording) hears it.
async fn appeal_and_hear(
    app: &TestApp,
    ruling: &pb::Ruling,
    appellant: &str,
    concurring: &[&str],
    members: &[&str],
) -> pb::Appeal {
    let filed = app
        .appeals(appellant, &[Role::Player])
        .file_appeal(pb::FileAppealRequest {
            idempotency_key: format!("appeal-{}", ruling.ruling_id),
            ruling_id: ruling.ruling_id.clone(),
            appellant_player_id: String::new(),
            concurring_player_ids: concurring.iter().map(|p| (*p).to_owned()).collect(),
            grounds: "the claim was clear and should have been allowed".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(filed.appellant_player_id, appellant);
    sign_in(app, members).await;
    app.appeals(members[0], &[Role::Committee])
        .hear_appeal(pb::HearAppealRequest {
            appeal_id: filed.appeal_id.clone(),
            expected_version: filed.version,
            hearing: Some(pb::Hearing {
                committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
                statements: vec![
                    pb::Statement {
                        speaker: appellant.into(),
                        role: pb::SpeakerRole::AppellantSide as i32,
                        text: "I stated the line before facing my cards".into(),
                    },
                    pb::Statement {
                        speaker: "arbiter".into(),
                        role: pb::SpeakerRole::Arbiter as i32,
                        text: "the statement did not mention the outstanding trump".into(),
                    },
                ],
                notes: String::new(),
                heard_at: None,
                duration: None,
            }),
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap()
}

fn overrule(key: &str, appeal: &pb::Appeal, result: common::DealResult, members: &[&str]) -> pb::DecideAppealRequest {
    pb::DecideAppealRequest {
        idempotency_key: key.into(),
        appeal_id: appeal.appeal_id.clone(),
        outcome: pb::AppealOutcome::Overruled as i32,
        new_decision: Some(assigned(result)),
        reasons: "the committee finds the result the arbiter should have given".into(),
        committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
    }
}

/// Live entries of a pad as (deal number, side, line, points, item), in order.
type Row = (u32, i32, i32, u32, i32);

fn entries(pad: &spb::Scorepad, keep: impl Fn(&spb::ScoreEntry) -> bool) -> Vec<Row> {
    pad.entries
        .iter()
        .filter(|e| !e.struck && keep(e))
        .map(|e| (e.deal_number, e.side, e.line, e.points, e.item))
        .collect()
}

fn totals(pad: &spb::Scorepad) -> (u32, u32) {
    (pad.north_south.as_ref().unwrap().total, pad.east_west.as_ref().unwrap().total)
}

/// The Club Appeals Committee rescoring, end to end: `deals` are played on a rubber pad, the
/// arbiter rules on deal `k` that the table result stands, a player appeals, the committee
/// overrules with `new_result`, and the pad must show `before` and then `after` totals, deal k's
/// live entries `expected_k`, and every other deal's entries (and the rubber bonus) unchanged.
async fn club_appeals_case(
    deals: &[common::DealResult],
    k: u32,
    new_result: common::DealResult,
    before: (u32, u32),
    after: (u32, u32),
    expected_k: &[(common::Side, spb::ScoreLine, u32, spb::ScoreItem)],
) {
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    let mut ruling = None;
    for (i, result) in deals.iter().enumerate() {
        let number = u32::try_from(i).unwrap() + 1;
        record(&app, &pad.scorepad_id, number, result.clone()).await;
        if number == k {
            // The arbiter rules when the deal ends; the rubber goes on.
            ruling = Some(rule(&app, common::TableKind::Rubber, &pad.scorepad_id, &format!("deal-{k}")).await);
        }
    }
    let ruling = ruling.unwrap();
    let played = get_pad(&app, &pad.scorepad_id).await;
    assert_eq!(totals(&played), before, "the rubber as played");

    let appeal = appeal_and_hear(&app, &ruling, "sam", &[], &["chair"]).await;
    let decided = app
        .appeals("chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, new_result, &["chair"]))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let versions = &decided.decision.as_ref().unwrap().score_versions;
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].appeal_id, decided.appeal_id, "the new score version references the appeal");
    assert_eq!(versions[0].cause, spb::ScoreVersionCause::AppealDecision as i32);

    let rescored = get_pad(&app, &pad.scorepad_id).await;
    assert_eq!(totals(&rescored), after, "the totals the Club Appeals Committee's rule gives");
    let expected: Vec<Row> = expected_k
        .iter()
        .map(|(side, line, points, item)| (k, *side as i32, *line as i32, *points, *item as i32))
        .collect();
    assert_eq!(entries(&rescored, |e| e.deal_number == k), expected, "deal {k} rescored alone");
    assert_eq!(
        entries(&rescored, |e| e.deal_number != k),
        entries(&played, |e| e.deal_number != k),
        "every other deal's entries, the games and the rubber bonus stand as recorded"
    );
    assert_eq!(rescored.games, played.games, "games stand");
    assert!(
        rescored.entries.iter().filter(|e| e.deal_number == k && e.struck).count() > 0,
        "the original entries of deal {k} are struck, not deleted"
    );
}

use spb::ScoreItem as Item;
use spb::ScoreLine as Line;

#[tokio::test]
async fn club_appeals_a_partscore_now_made_that_would_not_have_made_game_earns_100() {
    // "for a contract now fulfilled: ... declarer's side receives a premium of 100 points for a
    // partscore that would not then have increased the below-the-line score to 100"
    // Deal 1 NS 2H down one, not vulnerable: EW 50. Ruled made (8 tricks): NS 60 and 100.
    let deals = [
        played(Seat::North, "2H", 7),
        played(Seat::East, "4S", 10),  // EW 120, game
        played(Seat::South, "3NT", 9), // NS 100, game
        played(Seat::North, "4H", 10), // NS 120, game: NS win 2-1, 500
    ];
    club_appeals_case(
        &deals,
        1,
        played(Seat::North, "2H", 8),
        (100 + 120 + 500, 50 + 120),
        (100 + 120 + 500 + 60 + 100, 120),
        &[(NS, Line::Above, 60, Item::TrickPoints), (NS, Line::Above, 100, Item::AppealPremiumMade)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_made_not_vulnerable_earns_300() {
    // "for any other contract, declarer's side receives a premium according to vulnerability —
    // 300 points if declarer's side was non-vulnerable"
    let deals = [
        played(Seat::North, "4S", 9), // down one, NS not vulnerable: EW 50
        played(Seat::East, "3NT", 9), // EW 100, game
        played(Seat::West, "4H", 10), // EW 120, game: EW win 2-0, 700
    ];
    club_appeals_case(
        &deals,
        1,
        played(Seat::North, "4S", 10),
        (0, 50 + 100 + 120 + 700),
        (120 + 300, 100 + 120 + 700),
        &[(NS, Line::Above, 120, Item::TrickPoints), (NS, Line::Above, 300, Item::AppealPremiumMade)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_made_vulnerable_against_not_earns_400() {
    // "400 points if declarer's was vulnerable and the defenders not" (Club Appeals Committee, A)
    let deals = [
        played(Seat::North, "3NT", 9), // NS 100, game: NS vulnerable
        played(Seat::North, "4S", 9),  // down one vulnerable: EW 100
        played(Seat::East, "2H", 8),   // EW 60
        played(Seat::South, "5C", 11), // NS 100, game: NS win 2-0, 700
    ];
    club_appeals_case(
        &deals,
        2,
        played(Seat::North, "4S", 10),
        (100 + 100 + 700, 100 + 60),
        (100 + 100 + 700 + 120 + 400, 60),
        &[(NS, Line::Above, 120, Item::TrickPoints), (NS, Line::Above, 400, Item::AppealPremiumMade)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_made_both_vulnerable_earns_500() {
    // "500 points if both sides were vulnerable" (Club Appeals Committee, A)
    let deals = [
        played(Seat::North, "3NT", 9), // NS 100, game
        played(Seat::East, "4S", 10),  // EW 120, game: both vulnerable
        played(Seat::East, "3NT", 8),  // down one vulnerable: NS 100
        played(Seat::South, "4H", 10), // NS 120, game: NS win 2-1, 500
    ];
    club_appeals_case(
        &deals,
        3,
        played(Seat::East, "3NT", 9),
        (100 + 100 + 120 + 500, 120),
        (100 + 120 + 500, 120 + 100 + 500),
        &[(EW, Line::Above, 100, Item::TrickPoints), (EW, Line::Above, 500, Item::AppealPremiumMade)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_defeated_gives_the_defenders_100_for_their_lone_partscore() {
    // "for a contract now defeated, when the original scoring resulted in a game: ... the defenders
    // receive a premium of 100 points if they alone had scored a partscore in that game". NS went on
    // to win two games to one, so neither 500 nor 200 applies.
    let deals = [
        played(Seat::East, "1NT", 7),  // EW 40
        played(Seat::North, "4H", 10), // NS 120, game (EW's 40 no longer counts)
        played(Seat::West, "4S", 10),  // EW 120, game
        played(Seat::South, "3NT", 9), // NS 100, game: NS win 2-1, 500
    ];
    club_appeals_case(
        &deals,
        2,
        played(Seat::North, "4H", 9),
        (120 + 100 + 500, 40 + 120),
        (100 + 500, 40 + 120 + 50 + 100),
        &[(EW, Line::Above, 50, Item::Undertricks), (EW, Line::Above, 100, Item::AppealPremiumDefeated)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_defeated_gives_500_when_declarer_had_won_two_of_two() {
    // "plus a premium of 500 points if declarer's side originally won two of two games". NS keep
    // the 700 recorded: subsequent scores stand.
    let deals = [
        played(Seat::North, "4S", 10), // NS 120, game
        played(Seat::South, "3NT", 9), // NS 100, game: NS win 2-0, 700
    ];
    club_appeals_case(
        &deals,
        1,
        played(Seat::North, "4S", 9),
        (120 + 100 + 700, 0),
        (100 + 700, 50 + 500),
        &[(EW, Line::Above, 50, Item::Undertricks), (EW, Line::Above, 500, Item::AppealPremiumDefeated)],
    )
    .await;
}

#[tokio::test]
async fn club_appeals_a_game_now_defeated_gives_200_when_the_defenders_had_won_two_of_three() {
    // "or 200 points if the defenders' side originally won two of three games" (Club Appeals
    // Committee, B)
    let deals = [
        played(Seat::North, "4S", 10), // NS 120, game
        played(Seat::East, "3NT", 9),  // EW 100, game
        played(Seat::West, "4H", 10),  // EW 120, game: EW win 2-1, 500
    ];
    club_appeals_case(
        &deals,
        1,
        played(Seat::North, "4S", 9),
        (120, 100 + 120 + 500),
        (0, 100 + 120 + 500 + 50 + 200),
        &[(EW, Line::Above, 50, Item::Undertricks), (EW, Line::Above, 200, Item::AppealPremiumDefeated)],
    )
    .await;
}

#[tokio::test]
async fn chicago_an_overruled_deal_is_rescored_with_its_own_vulnerability_and_later_deals_stand() {
    // docs/laws-readings.md, "Appeals", rule 6: in Chicago only the deal's own score changes,
    // with that deal's vulnerability; later deals stand. Deal 2 (dealer East; East-West
    // vulnerable, Appendix 4 C): EW 4S down one, 100 to NS; ruled made: EW 120 and the
    // vulnerable game premium, 500.
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Chicago).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "2H", 8)).await; // NS 60
    record(&app, &pad.scorepad_id, 2, played(Seat::East, "4S", 9)).await; // NS 100
    let ruling = rule(&app, common::TableKind::Chicago, &pad.scorepad_id, "deal-2").await;
    record(&app, &pad.scorepad_id, 3, played(Seat::South, "3NT", 9)).await; // NS 100 + 500 (NS vulnerable)
    record(&app, &pad.scorepad_id, 4, played(Seat::West, "2C", 8)).await; // EW 40 + 100 (deal 4 partscore)
    let played_pad = get_pad(&app, &pad.scorepad_id).await;
    let appeal = appeal_and_hear(&app, &ruling, "eddie", &[], &["chair"]).await;
    app.appeals("chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, played(Seat::East, "4S", 10), &["chair"]))
        .await
        .unwrap();
    let rescored = get_pad(&app, &pad.scorepad_id).await;
    let deal_2: Vec<(i32, u32)> = entries(&rescored, |e| e.deal_number == 2).iter().map(|r| (r.1, r.3)).collect();
    assert!(deal_2.contains(&(EW as i32, 120)), "{deal_2:?}");
    assert!(deal_2.contains(&(EW as i32, 500)), "the vulnerable game premium of that deal: {deal_2:?}");
    assert!(!deal_2.iter().any(|(side, _)| *side == NS as i32), "NS's undertricks are struck: {deal_2:?}");
    assert_eq!(entries(&rescored, |e| e.deal_number != 2), entries(&played_pad, |e| e.deal_number != 2));
    let (ns_before, ew_before) = totals(&played_pad);
    assert_eq!(totals(&rescored), (ns_before - 100, ew_before + 120 + 500));
}

/// A pairs session of one board (none vulnerable) and three tables: A-B, C-D, E-F.
async fn session(app: &TestApp) -> spb::Session {
    let pair = |id: &str, players: [&str; 2]| spb::Contestant {
        contestant_id: id.into(),
        name: format!("pair {id}"),
        player_ids: players.iter().map(|p| (*p).to_owned()).collect(),
        captain_player_id: String::new(),
    };
    let request = spb::CreateSessionRequest {
        name: "Tuesday pairs".into(),
        contestant_kind: spb::ContestantKind::Pairs as i32,
        scoring_method: spb::ScoringMethod::Matchpoints as i32,
        boards: vec![spb::Board { number: 1, ..Default::default() }],
        contestants: vec![
            pair("A", ["a1", "a2"]),
            pair("B", ["b1", "b2"]),
            pair("C", ["c1", "c2"]),
            pair("D", ["d1", "d2"]),
            pair("E", ["e1", "e2"]),
            pair("F", ["f1", "f2"]),
        ],
    };
    app.register_contestants(&request).await;
    app.scoring("desk", &[Role::Desk]).create_session(request).await.unwrap().into_inner().session.unwrap()
}

fn board_key(session: &str, ns: &str, ew: &str) -> common::BoardResultKey {
    common::BoardResultKey {
        session_id: session.into(),
        board_number: 1,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    }
}

async fn record_board(app: &TestApp, session: &str, ns: &str, ew: &str, result: common::DealResult) {
    app.scoring("desk", &[Role::Desk])
        .record_board_result(spb::RecordBoardResultRequest {
            key: Some(board_key(session, ns, ew)),
            deal_id: format!("board-1-{ns}{ew}"),
            result: Some(result),
            source: spb::ResultSource::Desk as i32,
            ..Default::default()
        })
        .await
        .unwrap();
}

/// Each contestant's matchpoints on the session, in hundredths, and its rank.
async fn standings(app: &TestApp, session: &str) -> Vec<(String, i64, u32)> {
    let mut rows: Vec<(String, i64, u32)> = app
        .scoring("desk", &[Role::Desk])
        .get_standings(spb::GetStandingsRequest { session_id: session.into() })
        .await
        .unwrap()
        .into_inner()
        .standings
        .into_iter()
        .map(|s| {
            let mp = s.score.and_then(|v| v.matchpoints).map_or(0, |m| m.hundredths);
            (s.contestant_id, mp, s.rank)
        })
        .collect();
    rows.sort();
    rows
}

/// A ruling at table C-D of board 1: the result stands.
async fn board_ruling(app: &TestApp, session: &str) -> pb::Ruling {
    app.appeals("director", &[Role::Arbiter])
        .record_ruling(pb::RecordRulingRequest {
            idempotency_key: "board-ruling".into(),
            deal: Some(pb::DealReference {
                kind: common::TableKind::Duplicate as i32,
                table_id: "table-2".into(),
                score_target: Some(common::ScoreTarget {
                    target: Some(common::score_target::Target::BoardResult(board_key(session, "C", "D"))),
                }),
                ..Default::default()
            }),
            irregularity: "misinformation: the 2D response was not alerted".into(),
            laws: vec![common::LawCitation {
                code: common::LawCode::Duplicate as i32,
                number: 21,
                section: "B3".into(),
                text: String::new(),
            }],
            facts: "North-South were not damaged by the misinformation".into(),
            kind: pb::RulingKind::Judgement as i32,
            decision: Some(result_stands()),
            right_to_appeal_advised: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .ruling
        .unwrap()
}

async fn next_notice(stream: &mut tonic::Streaming<pb::WatchAppealsResponse>) -> pb::AppealEvent {
    tokio::time::timeout(Duration::from_secs(60), stream.next())
        .await
        .expect("a notice")
        .expect("the stream goes on")
        .expect("a notice, not an error")
        .event
        .unwrap()
}

#[tokio::test]
async fn a_duplicate_ruling_overturned_rescores_the_board_across_the_field_and_tells_the_players() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let session = session(&app).await;
    let id = session.session_id.clone();
    // North-South: A +420, C -50 (4S down one), E +170.
    record_board(&app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(&app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    record_board(&app, &id, "E", "F", played(Seat::North, "3S", 10)).await;
    let before = standings(&app, &id).await;
    // Law 78A: 2 for each score beaten, 1 for each tied; top 4.
    assert_eq!(
        before.iter().map(|(c, mp, _)| (c.as_str(), *mp)).collect::<Vec<_>>(),
        [("A", 400), ("B", 0), ("C", 0), ("D", 400), ("E", 200), ("F", 200)]
    );

    let ruling = board_ruling(&app, &id).await;
    assert_eq!(ruling.deal.as_ref().unwrap().deal_id, "board-1-CD");
    // e1 played the board at another table: watching from the start, he sees only what concerns him.
    let mut e1 = app
        .appeals("e1", &[Role::Player])
        .watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let mut c2 = app
        .appeals("c2", &[Role::Player])
        .watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) })
        .await
        .unwrap()
        .into_inner();
    let Some(pb::appeal_event::Event::RulingRecorded(seen)) = next_notice(&mut c2).await.event else {
        panic!("c2 played the deal: the ruling first")
    };
    assert_eq!(seen.ruling_id, ruling.ruling_id);

    // Law 92D1: C's appeal needs both members.
    let appeal = appeal_and_hear(&app, &ruling, "c1", &["c2"], &["chair"]).await;
    let decided = app
        .appeals("chair", &[Role::Committee])
        .decide_appeal(overrule("decision", &appeal, played(Seat::North, "4S", 10), &["chair"]))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(decided.decision.as_ref().unwrap().score_versions.len(), 1);

    // North-South now: A +420, C +420 (tied), E +170.
    let after = standings(&app, &id).await;
    assert_eq!(
        after.iter().map(|(c, mp, _)| (c.as_str(), *mp)).collect::<Vec<_>>(),
        [("A", 300), ("B", 100), ("C", 300), ("D", 100), ("E", 0), ("F", 400)]
    );
    for (b, a) in before.iter().zip(&after) {
        assert_ne!(b.1, a.1, "every pair's matchpoints on the board changed: {b:?} -> {a:?}");
    }
    let rank = |rows: &[(String, i64, u32)], c: &str| rows.iter().find(|r| r.0 == c).unwrap().2;
    assert_eq!((rank(&before, "D"), rank(&after, "D")), (1, 4), "the session is re-ranked");
    assert_eq!((rank(&before, "F"), rank(&after, "F")), (3, 1));

    // The players affected are told: e1's pair's matchpoints moved, so his first notice is the decision.
    let Some(pb::appeal_event::Event::AppealDecided(told)) = next_notice(&mut e1).await.event else {
        panic!("the decision")
    };
    assert_eq!(told.appeal_id, decided.appeal_id);
    assert_eq!(told.decision.unwrap().score_versions, decided.decision.as_ref().unwrap().score_versions);
    // c2 sees the whole story of his deal, in order.
    let mut kinds = Vec::new();
    for _ in 0..3 {
        kinds.push(match next_notice(&mut c2).await.event.unwrap() {
            pb::appeal_event::Event::AppealFiled(_) => "filed",
            pb::appeal_event::Event::AppealHeard(_) => "heard",
            pb::appeal_event::Event::AppealDecided(_) => "decided",
            other => panic!("unexpected {other:?}"),
        });
    }
    assert_eq!(kinds, ["filed", "heard", "decided"]);

    // The audit of C-D's result: the result, the ruling, the appeal, the rescoring.
    let audit = app
        .appeals("c1", &[Role::Player])
        .get_score_audit(pb::GetScoreAuditRequest {
            target: Some(common::ScoreTarget {
                target: Some(common::score_target::Target::BoardResult(board_key(&id, "C", "D"))),
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let steps: Vec<&str> = audit
        .entries
        .iter()
        .map(|e| match e.entry.as_ref().unwrap() {
            pb::audit_entry::Entry::ScoreVersion(v) if v.appeal_id.is_empty() => "score",
            pb::audit_entry::Entry::ScoreVersion(_) => "appeal score",
            pb::audit_entry::Entry::Ruling(_) => "ruling",
            pb::audit_entry::Entry::AppealFiled(_) => "filed",
            pb::audit_entry::Entry::AppealHeard(_) => "heard",
            pb::audit_entry::Entry::AppealDecided(_) => "decided",
            pb::audit_entry::Entry::AppealWithdrawn(_) => "withdrawn",
        })
        .collect();
    assert_eq!(steps.first(), Some(&"score"), "{steps:?}");
    let tail: Vec<&str> = steps.iter().copied().filter(|s| *s != "score").collect();
    assert_eq!(tail, ["ruling", "filed", "heard", "appeal score", "decided"], "{steps:?}");
}

#[tokio::test]
async fn deciding_the_same_appeal_twice_changes_the_score_once() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = appeal_and_hear(&app, &ruling, "nora", &[], &["chair"]).await;
    let mut chair = app.appeals("chair", &[Role::Committee]);
    let request = overrule("once", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    let first = chair.decide_appeal(request.clone()).await.unwrap().into_inner();
    let pad_after_first = get_pad(&app, &pad.scorepad_id).await;

    let retry = chair.decide_appeal(request.clone()).await.unwrap().into_inner();
    assert_eq!(retry, first, "a retry with the same key returns the first answer");
    let mut again = request;
    again.idempotency_key = "twice".into();
    assert_eq!(
        chair.decide_appeal(again).await.unwrap().into_inner(),
        first,
        "the same decision again changes nothing"
    );
    let mut other = overrule("other", &appeal, played(Seat::North, "4S", 11), &["chair"]);
    other.outcome = pb::AppealOutcome::Varied as i32;
    let status = chair.decide_appeal(other).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{}", status.message());

    let pad_now = get_pad(&app, &pad.scorepad_id).await;
    assert_eq!(pad_now.version, pad_after_first.version, "the score changed once");
    assert_eq!(totals(&pad_now), (120 + 300, 0));
    let versions = app
        .scoring("desk", &[Role::Desk])
        .list_score_versions(spb::ListScoreVersionsRequest {
            owner: Some(spb::list_score_versions_request::Owner::ScorepadId(pad.scorepad_id.clone())),
            target: None,
            page: None,
        })
        .await
        .unwrap()
        .into_inner()
        .versions;
    assert_eq!(versions.iter().filter(|v| v.appeal_id == appeal.appeal_id).count(), 1);
    // The old version remains readable.
    assert!(versions.iter().any(|v| v.cause == spb::ScoreVersionCause::ResultRecorded as i32));
}

#[tokio::test]
async fn an_appeal_by_a_non_player_or_after_the_time_limit_and_a_decision_without_the_committee_role_are_refused() {
    let app = TestApp::spawn().await;
    // Law 92B: the period runs from the official score; this club gives one second.
    publish_policy(&app, 1, prost_types::Duration { seconds: 1, nanos: 0 }).await;
    let session = session(&app).await;
    let id = session.session_id.clone();
    record_board(&app, &id, "A", "B", played(Seat::North, "4S", 10)).await;
    record_board(&app, &id, "C", "D", played(Seat::North, "4S", 9)).await;
    let ruling = board_ruling(&app, &id).await;

    let file = |player: &str, concurring: &[&str], key: &str| {
        let mut client = app.appeals(player, &[Role::Player]);
        let request = pb::FileAppealRequest {
            idempotency_key: key.into(),
            ruling_id: ruling.ruling_id.clone(),
            appellant_player_id: String::new(),
            concurring_player_ids: concurring.iter().map(|p| (*p).to_owned()).collect(),
            grounds: "we were damaged".into(),
        };
        async move { client.file_appeal(request).await }
    };
    let outsider = file("a1", &["a2"], "outsider").await.unwrap_err();
    assert_eq!(outsider.code(), Code::FailedPrecondition);
    assert!(outsider.message().contains("(Law 92A of the Laws of Duplicate Bridge)"), "{}", outsider.message());
    assert_eq!(
        outsider.metadata().get("x-bridge-law").and_then(|v| v.to_str().ok()),
        Some("Law 92A of the Laws of Duplicate Bridge")
    );

    // Filed in time, heard; then decided by principals without the committee role.
    let appeal = appeal_and_hear(&app, &ruling, "d1", &["d2"], &["chair"]).await;
    let decision = overrule("by-arbiter", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    for roles in [&[Role::Arbiter][..], &[Role::Admin], &[Role::Player, Role::Desk]] {
        let status = app.appeals("chair", roles).decide_appeal(decision.clone()).await.unwrap_err();
        assert_eq!(status.code(), Code::PermissionDenied, "{roles:?}: {}", status.message());
    }
    // A committee member who did not sit.
    sign_in(&app, &["other"]).await;
    let status = app
        .appeals("other", &[Role::Committee])
        .decide_appeal(overrule("by-other", &appeal, played(Seat::North, "4S", 10), &["other"]))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);

    // Withdrawn, then filed again after the official score has been out longer than the period.
    app.appeals("d1", &[Role::Player])
        .withdraw_appeal(pb::WithdrawAppealRequest {
            appeal_id: appeal.appeal_id.clone(),
            reason: "on reflection".into(),
        })
        .await
        .unwrap();
    app.scoring("desk", &[Role::Desk])
        .publish_official_scores(spb::PublishOfficialScoresRequest { session_id: id.clone() })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let late = file("d1", &["d2"], "late").await.unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert!(late.message().starts_with("the appeal is late"), "{}", late.message());
    assert!(
        late.message().ends_with("the limit is 1 s (Law 92B of the Laws of Duplicate Bridge)"),
        "{}",
        late.message()
    );

    // No score changed.
    let results = app
        .scoring("desk", &[Role::Desk])
        .list_board_results(spb::ListBoardResultsRequest {
            session_id: id,
            board_number: 1,
            page: None,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .results;
    assert!(results.iter().all(|r| r.appeal_id.is_empty() && r.ruling_id.is_empty()));
}

#[tokio::test]
async fn an_arbiters_adjusted_score_reaches_the_score_and_survives_a_restart_and_a_redis_flush() {
    let mut app = TestApp::spawn().await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "3NT", 8)).await;
    let mut arbiter = app.appeals("arbiter", &[Role::Arbiter]);
    let request = pb::RecordRulingRequest {
        idempotency_key: "adjusted".into(),
        deal: Some(pb::DealReference {
            kind: common::TableKind::Rubber as i32,
            score_target: Some(pad_target(&pad.scorepad_id, "deal-1")),
            ..Default::default()
        }),
        irregularity: "revoke; equity not restored".into(),
        laws: vec![common::LawCitation { code: common::LawCode::Club as i32, number: 64, ..Default::default() }],
        kind: pb::RulingKind::Judgement as i32,
        decision: Some(assigned(played(Seat::North, "3NT", 9))),
        ..Default::default()
    };
    let recorded = arbiter.record_ruling(request.clone()).await.unwrap().into_inner();
    let version = recorded.score_version.clone().unwrap();
    assert_eq!(version.ruling_id, recorded.ruling.as_ref().unwrap().ruling_id);
    assert_eq!(version.cause, spb::ScoreVersionCause::Adjustment as i32);
    assert_eq!(totals(&get_pad(&app, &pad.scorepad_id).await), (100, 0), "the assigned 3NT made replaces down one");

    app.flush_redis().await;
    app.restart().await;
    let mut arbiter = app.appeals("arbiter", &[Role::Arbiter]);
    assert_eq!(arbiter.record_ruling(request).await.unwrap().into_inner(), recorded, "the retry's answer survives");
    let mut desk = app.appeals("desk", &[Role::Desk]);
    let mut notices =
        desk.watch_appeals(pb::WatchAppealsRequest { after_sequence: Some(0) }).await.unwrap().into_inner();
    let first = next_notice(&mut notices).await;
    assert_eq!(first.sequence, 1);
    let Some(pb::appeal_event::Event::RulingRecorded(ruling)) = first.event else { panic!("the ruling") };
    assert_eq!(Some(ruling), recorded.ruling);
}

/// The appeals worker tries owed calls every second (its first try after two).
fn quick_delivery(_: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    settings.appeals.delivery_interval_seconds = 1;
}

/// Scoring down (nothing listens on the discard port), the worker as in [`quick_delivery`].
fn scoring_down(config: &mut platform::config::PlatformConfig, settings: &mut club::Settings) {
    config.endpoints.scoring = Some("http://127.0.0.1:9".to_owned());
    quick_delivery(config, settings);
}

/// docs/architecture.md, "Observability": a committee decision that could not reach the scoring
/// service is applied later by the background worker of another process, and the scoring
/// service's `ApplyAdjustment` still shows in the trace of the member's `DecideAppeal`.
#[tokio::test]
async fn a_decision_the_worker_applies_later_shows_in_the_trace_of_the_request_that_made_it() {
    e2e::telemetry();
    let mut app = TestApp::spawn_with(quick_delivery).await;
    publish_policy(&app, 1, minutes(30).unwrap()).await;
    let pad = scorepad(&app, common::TableKind::Rubber).await;
    record(&app, &pad.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &pad.scorepad_id, "deal-1").await;
    let appeal = appeal_and_hear(&app, &ruling, "nora", &[], &["chair"]).await;

    app.restart_with(scoring_down).await;
    let root = tracing::info_span!("test.client");
    let trace_id = e2e::trace_id(&root);
    let request = overrule("later", &appeal, played(Seat::North, "4S", 10), &["chair"]);
    let status = {
        use tracing::Instrument;
        app.appeals("chair", &[Role::Committee]).decide_appeal(request).instrument(root).await.unwrap_err()
    };
    assert_eq!(status.code(), Code::Unavailable, "{}", status.message());

    app.restart_with(quick_delivery).await;
    let decided = "/bridgeclub.appeals.v1.AppealsService/DecideAppeal";
    let applied = "/bridgeclub.scoring.v1.ScoringService/ApplyAdjustment";
    let delivery = "outbox.deliver scoring.ApplyAdjustment/decision";
    // A span is exported when it ends: the worker's delivery span ends after scoring's, so wait
    // for both attempts, not only for scoring's span.
    let trace = e2e::trace_when(trace_id, |spans| {
        spans.iter().any(|s| s.name == applied)
            && spans.iter().any(|s| s.name == "test.client")
            && spans.iter().filter(|s| s.name == delivery).count() >= 2
    })
    .await;
    let named = |name: &str| trace.iter().find(|s| s.name == name).unwrap();
    let handler = named(decided);
    assert_eq!(handler.parent_span_id, named("test.client").span_context.span_id());
    let scoring = named(applied);
    let attempts: Vec<_> = trace.iter().filter(|s| s.name == delivery).collect();
    assert!(attempts.len() >= 2, "the request's own attempt and the worker's: {attempts:#?}");
    let by = attempts
        .iter()
        .find(|attempt| e2e::descends_from(&trace, scoring, attempt.span_context.span_id()))
        .expect("scoring's span is a delivery's call");
    assert!(e2e::descends_from(&trace, by, handler.span_context.span_id()), "{trace:#?}");

    let now = app
        .appeals("chair", &[Role::Committee])
        .get_appeal(pb::GetAppealRequest { appeal_id: appeal.appeal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(now.status, pb::AppealStatus::Decided as i32);
    assert_eq!(totals(&get_pad(&app, &pad.scorepad_id).await), (120 + 300, 0), "the decision reached the score");
}
