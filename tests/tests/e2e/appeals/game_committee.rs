//! A game's own committee, end to end (the Club Appeals Committee: "any game may designate a
//! committee to which appeals may be taken"): the four players of a rubber agree it before the
//! first deal, each confirming, and it, not the club's committee, hears and decides the rubber's
//! appeal; its members call as players.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{PLAYERS, get_pad, minutes, overrule, played, publish_policy, record, rule, sign_in};

#[tokio::test]
async fn a_rubbers_own_committee_agreed_before_play_hears_and_decides_its_appeal() {
    let app = TestApp::spawn().await;
    publish_policy(&app, 3, minutes(30).unwrap()).await;
    sign_in(&app, &["chair", "vice", "third"]).await;
    let lineup = app.lineup_of(common::TableKind::Rubber, PLAYERS.map(|(_, id)| id)).await;
    let judges = ["judge-a", "judge-b"];
    e2e::lineup::register(&mut app.membership("desk", &[Role::Desk]), &judges).await;
    let members: Vec<String> = judges.iter().map(|j| (*j).to_owned()).collect();

    // Before the first deal: North designates, the other three confirm.
    let designated = app
        .appeals("nora", &[Role::Player])
        .designate_game_committee(pb::DesignateGameCommitteeRequest {
            rubber_id: lineup.rubber_id.clone(),
            member_ids: members.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .committee
        .unwrap();
    assert_eq!((designated.table_id.as_str(), designated.agreed), (lineup.table_id.as_str(), false));
    let kibitzer = app
        .appeals("kibitzer", &[Role::Player])
        .confirm_game_committee(pb::ConfirmGameCommitteeRequest {
            rubber_id: lineup.rubber_id.clone(),
            member_ids: members.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(kibitzer.code(), Code::PermissionDenied);
    let mut agreed = designated;
    for (_, player) in &PLAYERS[1..] {
        let confirm =
            pb::ConfirmGameCommitteeRequest { rubber_id: lineup.rubber_id.clone(), member_ids: members.clone() };
        let answer = app.appeals(player, &[Role::Player]).confirm_game_committee(confirm).await.unwrap();
        agreed = answer.into_inner().committee.unwrap();
    }
    assert!(agreed.agreed, "all four confirmed: {agreed:?}");

    // Play, a ruling, an appeal.
    record(&app, &lineup.scorepad_id, 1, played(Seat::North, "4S", 9)).await;
    let ruling = rule(&app, common::TableKind::Rubber, &lineup.scorepad_id, "deal-1").await;
    let filed = app
        .appeals("nora", &[Role::Player])
        .file_appeal(pb::FileAppealRequest {
            idempotency_key: "game-committee".into(),
            ruling_id: ruling.ruling_id.clone(),
            grounds: "the claim was clear".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    let hearing = |members: &[&str]| pb::HearAppealRequest {
        appeal_id: filed.appeal_id.clone(),
        expected_version: filed.version,
        hearing: Some(pb::Hearing {
            committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
            statements: vec![pb::Statement {
                speaker: "arbiter".into(),
                role: pb::SpeakerRole::Arbiter as i32,
                text: "the statement did not mention the outstanding trump".into(),
            }],
            ..Default::default()
        }),
    };

    // The club's committee does not hear it: the game's does.
    let club =
        app.appeals("chair", &[Role::Committee]).hear_appeal(hearing(&["chair", "vice", "third"])).await.unwrap_err();
    assert_eq!(club.code(), Code::FailedPrecondition);
    assert!(
        club.message().contains("any game may designate a committee to which appeals may be taken"),
        "{}",
        club.message()
    );
    let heard = app
        .appeals("judge-a", &[Role::Player])
        .hear_appeal(hearing(&judges))
        .await
        .unwrap()
        .into_inner()
        .appeal
        .unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
    let decision = overrule("game-committee", &heard, played(Seat::North, "4S", 10), &judges);
    let decided = app.appeals("judge-b", &[Role::Player]).decide_appeal(decision).await.unwrap().into_inner();
    let decided = decided.appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(decided.decision.as_ref().unwrap().committee_member_ids, judges);
    assert!(!decided.decision.unwrap().score_versions.is_empty());
    // The deal is rescored: 4S made.
    let pad = get_pad(&app, &lineup.scorepad_id).await;
    assert!(pad.entries.iter().any(|e| e.struck), "the deal's first entries are struck");

    // Agreed before play, it stands.
    let again = app
        .appeals("sam", &[Role::Player])
        .designate_game_committee(pb::DesignateGameCommitteeRequest {
            rubber_id: lineup.rubber_id.clone(),
            member_ids: vec!["chair".into()],
        })
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
}
