//! Appeals at rubber and Chicago tables: a ruling overruled by the Club Appeals Committee earns
//! the premium for what the contract now makes or defeats (premiums A and B), and an overruled
//! Chicago deal is rescored with its own vulnerability while later deals stand.

use api::common::v1 as common;
use api::scoring::v1 as spb;
use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

use spb::ScoreItem as Item;
use spb::ScoreLine as Line;

use super::{
    EW, NS, Row, appeal_and_hear, entries, get_pad, minutes, overrule, played, publish_policy, record, rule, scorepad,
    totals,
};

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
