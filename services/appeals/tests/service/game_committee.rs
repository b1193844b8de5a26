//! A game's own committee (the Club Appeals Committee: "any game may designate a committee to
//! which appeals may be taken. If such a procedure has been agreed to or published in advance, any
//! player may appeal any decision by the Arbiter"): the four players of a rubber agree on it
//! before its first deal, each confirming, and then it, not the club's committee, hears the
//! rubber's appeals, all its members sitting.

use api::appeals::v1 as pb;
use api::common::v1 as common;
use platform::auth::Role;
use tonic::Code;

use super::common::*;
use super::{code, message};

const RUBBER: &str = "rubber-1";

/// `pad-1`'s rubber, `rubber-1` at `table-1` (n, e, s, w), and a second rubber already dealing.
fn rubbers(h: &Harness) {
    let seat = |seat: common::Seat, id: &str| common::SeatedPlayer { seat: seat as i32, player_id: id.into() };
    let rubber = |id: &str| api::membership::v1::Rubber {
        rubber_id: id.into(),
        table_id: "table-1".into(),
        seats: vec![
            seat(common::Seat::North, "n"),
            seat(common::Seat::East, "e"),
            seat(common::Seat::South, "s"),
            seat(common::Seat::West, "w"),
        ],
        ..Default::default()
    };
    let mut known = h.owners.rubbers.lock().unwrap();
    known.insert(RUBBER.into(), rubber(RUBBER));
    known.insert("rubber-2".into(), rubber("rubber-2"));
    h.owners.started.lock().unwrap().insert("rubber-2".into());
    h.scoring.pads.lock().unwrap().get_mut(PAD).unwrap().rubber_id = RUBBER.into();
    h.owners.register(&["gc1", "gc2"]);
}

fn designate(rubber: &str, members: &[&str]) -> pb::DesignateGameCommitteeRequest {
    pb::DesignateGameCommitteeRequest {
        rubber_id: rubber.into(),
        member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
    }
}

fn confirm(members: &[&str]) -> pb::ConfirmGameCommitteeRequest {
    pb::ConfirmGameCommitteeRequest {
        rubber_id: RUBBER.into(),
        member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
    }
}

fn player(id: &str) -> platform::auth::Principal {
    principal(id, &[Role::Player])
}

#[tokio::test]
async fn the_four_players_agree_their_committee_before_the_first_deal() {
    let h = Harness::new().await;
    rubbers(&h);
    let a = &h.appeals;
    let kibitzer = a.designate_game_committee(&player("k"), designate(RUBBER, &["gc1"])).await;
    assert_eq!(code(&kibitzer), Code::PermissionDenied);
    let own_player = a.designate_game_committee(&player("n"), designate(RUBBER, &["gc1", "e"])).await;
    assert_eq!(code(&own_player), Code::FailedPrecondition);
    assert!(message(own_player).starts_with("e plays in this game and so could judge none of its appeals"));
    let unknown = a.designate_game_committee(&player("n"), designate(RUBBER, &["ghost"])).await;
    assert!(message(unknown).contains("membership has no player ghost"));
    let no_rubber = a.designate_game_committee(&player("n"), designate("rubber-9", &["gc1"])).await;
    assert_eq!(code(&no_rubber), Code::FailedPrecondition);
    // "agreed to ... in advance": before the first deal.
    let late = a.designate_game_committee(&player("n"), designate("rubber-2", &["gc1"])).await;
    assert_eq!(code(&late), Code::FailedPrecondition);
    assert!(message(late).starts_with("the game's first deal has started"));

    let designated = a.designate_game_committee(&player("n"), designate(RUBBER, &["gc1", "gc2"])).await;
    let designated = designated.unwrap().committee.unwrap();
    assert_eq!((designated.confirmed_player_ids, designated.agreed), (vec!["n".to_owned()], false));
    assert_eq!(designated.table_id, "table-1");
    let changed = a.confirm_game_committee(&player("e"), confirm(&["gc1"])).await;
    assert_eq!(code(&changed), Code::FailedPrecondition);
    let stranger = a.confirm_game_committee(&player("k"), confirm(&["gc1", "gc2"])).await;
    assert_eq!(code(&stranger), Code::PermissionDenied);
    for p in ["e", "s"] {
        let confirmed = a.confirm_game_committee(&player(p), confirm(&["gc1", "gc2"])).await.unwrap();
        assert!(!confirmed.committee.unwrap().agreed, "not before all four");
    }
    let agreed = a.confirm_game_committee(&player("w"), confirm(&["gc1", "gc2"])).await.unwrap().committee.unwrap();
    assert!(agreed.agreed && agreed.agreed_at.is_some());
    let read = a.get_game_committee(pb::GetGameCommitteeRequest { rubber_id: RUBBER.into() }).await.unwrap();
    assert_eq!(read.committee.unwrap().confirmed_player_ids, ["n", "e", "s", "w"]);
    let again = a.designate_game_committee(&player("s"), designate(RUBBER, &["gc1"])).await;
    assert!(message(again).contains("have agreed their committee; it stands"));
    let none = a.get_game_committee(pb::GetGameCommitteeRequest { rubber_id: "rubber-2".into() }).await;
    assert_eq!(code(&none), Code::NotFound);
}

#[tokio::test]
async fn the_games_committee_hears_and_decides_its_appeals_instead_of_the_clubs() {
    // "any game may designate a committee to which appeals may be taken"
    let h = Harness::new().await;
    rubbers(&h);
    h.committee(&["ann", "bob", "cy"]).await;
    let a = &h.appeals;
    a.designate_game_committee(&player("n"), designate(RUBBER, &["gc1", "gc2"])).await.unwrap();
    for p in ["e", "s", "w"] {
        a.confirm_game_committee(&player(p), confirm(&["gc1", "gc2"])).await.unwrap();
    }
    let appeal = h.rubber_appeal(3).await;

    let club = a.hear_appeal(&principal("ann", &[Role::Committee]), hearing(&appeal, &["ann", "bob", "cy"])).await;
    assert_eq!(code(&club), Code::FailedPrecondition);
    let club = message(club);
    assert!(club.starts_with("ann is not on the committee this game's players agreed"), "{club}");
    assert!(club.contains("any game may designate a committee to which appeals may be taken"));
    let outsider = a.hear_appeal(&player("k"), hearing(&appeal, &["gc1", "gc2"])).await;
    assert_eq!(code(&outsider), Code::PermissionDenied);
    let half = a.hear_appeal(&player("gc1"), hearing(&appeal, &["gc1"])).await;
    assert!(message(half).starts_with("gc2 is on the committee this game's players agreed"));

    // Its members call as players and read the appeal; the club's policy of three does not bind it.
    let read = a.get_appeal(&player("gc1"), &appeal.appeal_id).await.unwrap();
    assert_eq!(read.appeal.unwrap().version, appeal.version);
    assert_eq!(code(&a.get_appeal(&player("k"), &appeal.appeal_id).await), Code::PermissionDenied);
    let heard = a.hear_appeal(&player("gc1"), hearing(&appeal, &["gc1", "gc2"])).await.unwrap().appeal.unwrap();
    let upheld = decision("d", &heard, pb::AppealOutcome::Upheld, None, &["gc2", "gc1"]);
    let decided = a.decide_appeal(&player("gc2"), upheld).await.unwrap().appeal.unwrap();
    assert_eq!(decided.status, pb::AppealStatus::Decided as i32);
    assert_eq!(decided.decision.unwrap().committee_member_ids, ["gc2", "gc1"]);
}

#[tokio::test]
async fn a_games_agreed_committee_is_a_procedure_agreed_in_advance_where_the_club_published_none() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal any
    // decision by the Arbiter."
    let h = Harness::new().await;
    rubbers(&h);
    let a = &h.appeals;
    let ruling = a.record_ruling(&arbiter(), rubber_ruling("r", "d1", result_stands())).await.unwrap();
    let ruling_id = ruling.ruling.unwrap().ruling_id;
    let none = a.file_appeal(&player("n"), file("a1", &ruling_id, "", &[])).await;
    assert!(message(none).starts_with("the club's published policy hears no appeals"));

    a.designate_game_committee(&player("n"), designate(RUBBER, &["gc1"])).await.unwrap();
    for p in ["e", "s", "w"] {
        a.confirm_game_committee(&player(p), confirm(&["gc1"])).await.unwrap();
    }
    let filed = a.file_appeal(&player("n"), file("a2", &ruling_id, "", &[])).await.unwrap().appeal.unwrap();
    let heard = a.hear_appeal(&player("gc1"), hearing(&filed, &["gc1"])).await.unwrap().appeal.unwrap();
    assert_eq!(heard.status, pb::AppealStatus::Heard as i32);
}
