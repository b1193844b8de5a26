//! `bridgectl appeal roster | conflict | game-committee` against the whole platform (the
//! end-to-end crate's `TestApp`, on real Postgres and Redis): the administrator keeps the club's
//! committee roster and declares a conflict (the Club Appeals Committee: "a club should establish
//! an Appeals Committee"), and the four players of a rubber agree their own committee before its
//! first deal ("any game may designate a committee to which appeals may be taken").
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use api::common::v1 as pb;
use e2e::TestApp;
use platform::auth::Role;

use common::bridgectl_ending as bridgectl;

#[tokio::test(flavor = "multi_thread")]
async fn the_administrator_keeps_the_roster_and_the_players_agree_their_committee_with_bridgectl() {
    let app = TestApp::spawn().await;
    let lineup = app.lineup(pb::TableKind::Rubber).await;
    e2e::lineup::register(&mut app.membership("desk", &[Role::Desk]), &["ann", "judge"]).await;
    let admin = |args: &'static [&'static str]| bridgectl(&app, "club-admin", &[Role::Admin], args, true);

    let added = admin(&["appeal", "roster", "add", "--member", "ann", "--chair", "--from", "2026-01-01T00:00:00Z"]);
    let added = added.await;
    assert!(added.contains("ann") && added.contains("chair") && added.contains("2026-01-01 00:00:00 UTC"), "{added}");
    let listed = admin(&["appeal", "roster", "list", "--covering", "2026-06-01T00:00:00Z"]).await;
    assert!(listed.contains("ann") && listed.contains("no end"), "{listed}");
    let ghost = ["appeal", "roster", "add", "--member", "ghost"];
    let refused = bridgectl(&app, "club-admin", &[Role::Admin], &ghost, false).await;
    assert!(refused.contains("FailedPrecondition") && refused.contains("membership has no player ghost"), "{refused}");
    let player = &lineup.players[0];
    let declare = ["appeal", "conflict", "declare", "--member", "ann", "--player", player, "--reason", "her sister"];
    let declared = bridgectl(&app, "club-admin", &[Role::Admin], &declare, true).await;
    assert!(declared.contains(&format!("ann for player {player}: her sister")), "{declared}");
    let conflicts = admin(&["appeal", "conflict", "list", "--member", "ann"]).await;
    assert!(conflicts.contains("her sister"), "{conflicts}");

    // A rubber's own committee, before its first deal.
    let rubber = lineup.rubber_id.as_str();
    let designate = ["appeal", "game-committee", "designate", "--rubber", rubber, "--member", "judge"];
    let designated = bridgectl(&app, &lineup.players[0], &[Role::Player], &designate, true).await;
    assert!(designated.contains("members:   judge") && designated.contains("agreed:    no"), "{designated}");
    let confirm = ["appeal", "game-committee", "confirm", "--rubber", rubber, "--member", "judge"];
    for player in &lineup.players[1..] {
        bridgectl(&app, player, &[Role::Player], &confirm, true).await;
    }
    let show = ["appeal", "game-committee", "show", "--rubber", rubber];
    let shown = bridgectl(&app, "desk", &[Role::Desk], &show, true).await;
    assert!(shown.contains("agreed:    yes"), "{shown}");
}
