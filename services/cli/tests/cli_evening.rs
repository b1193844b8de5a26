//! The newcomer's path: an evening from arrivals to a scored deal with `bridgectl` alone, against
//! the whole platform (the end-to-end crate's `TestApp`, on real Postgres and Redis), as the
//! README's walkthrough runs it. The desk registers four players, records their arrivals, opens
//! a table and starts a rubber with server draws, creates the rubber's scorepad, starts a
//! recorded deal whose players, dealer and vulnerability the server fills in, records four calls
//! and the opening lead, records declarer's claim and both defenders' agreement, and reads the
//! deal on the pad.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use e2e::TestApp;
use laws::Seat;
use platform::auth::Role;

/// North: S AKQJ H T98 D 765 C 432; East: S T98 H 765 D 432 C AKQJ; South: S 765 H 432 D AKQJ
/// C T98; West: S 432 H AKQJ D T98 C 765.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

/// Each seat's top spade in [`PBN`], the card it leads here.
fn top_spade(seat: Seat) -> &'static str {
    match seat {
        Seat::North => "SA",
        Seat::East => "ST",
        Seat::South => "S7",
        Seat::West => "S4",
    }
}

/// Runs `bridgectl` as the desk; its standard output, or a panic with its error.
async fn bridgectl(app: &TestApp, args: &[&str]) -> String {
    common::bridgectl_as(app, "front-desk", &[Role::Desk, Role::Admin], args).await
}

/// The text between `before` and the next `after` in `text`.
fn between<'a>(text: &'a str, before: &str, after: &str) -> &'a str {
    let start = text.find(before).unwrap_or_else(|| panic!("no {before:?} in:\n{text}")) + before.len();
    let len = text[start..].find(after).unwrap_or_else(|| panic!("no {after:?} after {before:?} in:\n{text}"));
    &text[start..start + len]
}

fn seat_named(name: &str) -> Seat {
    name.parse().unwrap_or_else(|_| panic!("{name:?} is not a seat"))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_runs_an_evening_from_arrivals_to_a_scored_deal_with_bridgectl_alone() {
    let app = TestApp::spawn().await;
    let tag = uuid::Uuid::new_v4().simple().to_string()[..8].to_owned();
    let players: Vec<String> = ["alice", "bob", "carol", "dave"].iter().map(|p| format!("{p}-{tag}")).collect();

    // Arrivals.
    for player in &players {
        let registered = bridgectl(&app, &["player", "register", "--id", player, "--name", player]).await;
        assert!(registered.contains(&format!("registered {player}")), "{registered}");
        bridgectl(&app, &["room", "arrive", "--player", player]).await;
    }

    // A table from the four, and its first rubber: the server draws for partnerships and seats.
    let mut open = vec!["table", "open", "--name", "Evening", "--kind", "rubber", "--server-draws-automatic"];
    for player in &players {
        open.extend(["--player", player.as_str()]);
    }
    let opened = bridgectl(&app, &open).await;
    let table = between(&opened, "Evening (", ")").to_owned();
    let rubber = bridgectl(&app, &["rubber", "start", "--table", &table, "--server-draw"]).await;
    let rubber_id = between(&rubber, " (", ")").to_owned();
    assert!(rubber.contains(&format!("at {table}: in_progress")), "{rubber}");

    // The rubber's scorepad.
    let pad = bridgectl(&app, &["scorepad", "create", "--rubber", &rubber_id]).await;
    let pad_id = between(&pad, "scorepad ", " for rubber").to_owned();
    assert!(pad.contains("next: deal 1,"), "{pad}");

    // Deal 1, recorded with the hands as dealt: the server fills in players, dealer and
    // vulnerability from the rubber and its pad (Laws 3, 9, 77).
    let started = bridgectl(
        &app,
        &["game", "start", "--table", &table, "--rubber", &rubber_id, "--scorepad", &pad_id, "--deal", PBN],
    )
    .await;
    assert!(started.contains("  auction  next to act "), "{started}");
    assert!(started.contains(&format!("deal 1 of rubber {rubber_id} (scorepad {pad_id}), recorded;")), "{started}");
    assert!(started.contains("vulnerable: none"), "Law 77: nobody is vulnerable on the first deal\n{started}");
    let dealer = seat_named(between(&started, "recorded; ", " deals"));
    assert_eq!(between(&started, "next to act ", "\n"), dealer.to_string(), "Law 17: the dealer calls first");

    // Four calls, each by the seat next to act; the auction closes with the dealer's 1NT.
    let auction = bridgectl(&app, &["game", "call", "--table", &table, "1NT"]).await;
    assert!(auction.contains("1NT"), "{auction}");
    let auction = bridgectl(&app, &["game", "call", "--table", &table, "Pass", "Pass", "Pass"]).await;
    assert!(auction.contains(&format!("contract 1NT by {dealer}")), "{auction}");
    assert!(auction.contains("  play  next to act "), "{auction}");
    let leader = dealer.next();
    assert_eq!(between(&auction, "next to act ", "\n"), leader.to_string(), "Law 41: declarer's LHO leads");

    // The opening lead, named with its seat.
    let lead = top_spade(leader);
    let played = bridgectl(&app, &["game", "play", "--table", &table, "--seat", &leader.to_string(), lead]).await;
    assert!(played.contains(&format!("trick  1: {leader} {lead}\n")), "{played}");
    assert_eq!(between(&played, "next to act ", "\n"), leader.next().to_string(), "{played}");

    // Declarer claims seven of the thirteen tricks left; both defenders agree (Laws 68, 69).
    let claimed = bridgectl(
        &app,
        &[
            "game",
            "claim",
            "--table",
            &table,
            "--seat",
            &dealer.to_string(),
            "--tricks",
            "7",
            "--statement",
            "7 top tricks",
        ],
    )
    .await;
    assert!(claimed.contains("of 7 of 13 tricks: pending"), "{claimed}");
    assert!(claimed.contains("  claim  next to act -"), "{claimed}");
    bridgectl(&app, &["game", "answer", "--table", &table, "--seat", &leader.to_string(), "--accept"]).await;
    let agreed =
        bridgectl(&app, &["game", "answer", "--table", &table, "--seat", &leader.partner().to_string(), "--accept"])
            .await;
    assert!(agreed.contains("  finished  "), "{agreed}");
    assert!(agreed.contains(&format!("result: 1NT by {dealer}, 7 tricks to declarer's side (claimed)")), "{agreed}");

    // The result reaches the pad from the game (its outbox): 40 below the line to the declarers.
    let declarers = if matches!(dealer, Seat::North | Seat::South) { "North-South" } else { "East-West" };
    let expected =
        format!("deal 1: 1NT by {dealer}, 7 tricks, from the game\n  {declarers:<11}     40 below  trick points");
    let mut shown = String::new();
    for _ in 0..100 {
        shown = bridgectl(&app, &["scorepad", "show", &pad_id]).await;
        if shown.contains(&expected) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(shown.contains(&expected), "{shown}");
    assert!(shown.contains("next: deal 2,"), "{shown}");
}
