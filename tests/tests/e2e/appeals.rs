//! The appeals service on a real server with the real scoring service: a rubber is played, a
//! ruling recorded, appealed, heard and overruled, and the score follows the Club Appeals
//! Committee (premiums A and B, later deals standing); a duplicate board's ruling overturned
//! rescores the field and notifies the players; late appeals, non-players and principals without
//! the committee role are refused; deciding twice changes the score once.

mod committee_procedure;
mod decisions;
mod director;
mod duplicate;
mod game_committee;
mod refusals;
mod roster;
mod rubber;

use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::membership::v1::CreateAccountRequest;
use api::membership::v1::sign_in_service_client::SignInServiceClient;
use api::scoring::v1 as spb;
use e2e::TestApp;
use futures::StreamExt;
use laws::Seat;
use platform::auth::Role;

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

/// Committee members on the club's roster, appointed by the administrator from yesterday with no
/// end to the term (the Club Appeals Committee: the club establishes its Appeals Committee): a
/// `staff:<name>` member is a staff account with the committee role, made first; any other is a
/// registered player.
async fn sign_in(app: &TestApp, members: &[&str]) {
    let (staff, players): (Vec<&str>, Vec<&str>) = members.iter().partition(|m| m.starts_with("staff:"));
    e2e::lineup::register(&mut app.membership("desk", &[Role::Desk]), &players).await;
    let admin_token = app.token("club-admin", &[Role::Admin]);
    let mut accounts = SignInServiceClient::new(app.channel(Some(&admin_token)));
    for member in staff {
        let account = CreateAccountRequest {
            name: member.trim_start_matches("staff:").into(),
            roles: vec![common::Role::Committee as i32],
            password: String::new(),
        };
        accounts.create_account(account).await.unwrap();
    }
    let mut admin = app.appeals("club-admin", &[Role::Admin]);
    let yesterday = appeals::records::timestamp(chrono::Utc::now() - chrono::Duration::days(1));
    for member in members {
        let entry = pb::AddRosterEntryRequest {
            member_id: (*member).into(),
            chair: false,
            term_from: Some(yesterday),
            term_until: None,
            idempotency_key: String::new(),
        };
        admin.add_roster_entry(entry).await.unwrap();
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
            ..Default::default()
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
        ..Default::default()
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

/// Board 1's results in `session`, as the desk reads them from scoring.
async fn board_results(app: &TestApp, session: &str) -> Vec<spb::BoardResult> {
    app.scoring("desk", &[Role::Desk])
        .list_board_results(spb::ListBoardResultsRequest {
            session_id: session.into(),
            board_number: 1,
            page: None,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .results
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
