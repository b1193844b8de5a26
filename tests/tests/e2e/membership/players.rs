//! Who may do what: a player acts and sees only for himself, refusals name the rule and apply
//! nothing by halves, and the register keeps one entry per player, updated by version.

use api::common::v1 as common;
use api::membership::v1 as pb;
use tonic::Code;

use super::{Room, assert_rule, ids, members};

#[tokio::test]
async fn a_player_acts_and_sees_only_for_himself() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4", "p5"]).await;
    room.register("p6").await;
    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let mut p5 = room.player("p5");

    let denied = p5.arrive_in_room(pb::ArriveInRoomRequest { player_id: "p6".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5
        .apply_to_table(pb::ApplyToTableRequest { table_id: t1.clone(), player_id: "p6".into(), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5
        .apply_to_table(pb::ApplyToTableRequest {
            table_id: t1.clone(),
            player_id: "p5".into(),
            together_with_player_ids: ids(&["p6"]),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied =
        p5.leave_table(pb::LeaveTableRequest { table_id: t1.clone(), player_id: "p1".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied = p5.leave_room(pb::LeaveRoomRequest { player_id: "p1".into() }).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    // Running the room is the desk's: the contract refuses a player before the handler.
    let denied = p5.open_table(pb::OpenTableRequest::default()).await.unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let denied =
        p5.start_rubber(pb::StartRubberRequest { table_id: t1.clone(), server_draw: true, ..Default::default() }).await;
    assert_eq!(denied.unwrap_err().code(), Code::PermissionDenied);
    // Nothing changed.
    assert_eq!(members(&room.table(&t1).await), ids(&["p1", "p2", "p3", "p4"]));
    assert!(room.presence("p6").await.is_none());

    // For himself he may; and he sees rosters, but not how the club reaches other players.
    let mine = p5
        .apply_to_table(pb::ApplyToTableRequest { table_id: t1.clone(), player_id: "p5".into(), ..Default::default() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(mine.application.unwrap().status, pb::ApplicationStatus::Admitted as i32);
    let other = p5.get_player(pb::GetPlayerRequest { player_id: "p1".into() }).await.unwrap().into_inner();
    assert!(other.player.unwrap().contact.is_none());
    let own = p5.get_player(pb::GetPlayerRequest { player_id: "p5".into() }).await.unwrap().into_inner();
    assert_eq!(own.player.unwrap().contact.unwrap().email, "p5@club.example");
    let roster = p5.get_table(pb::GetTableRequest { table_id: t1.clone() }).await.unwrap().into_inner();
    assert_eq!(roster.table.unwrap().members.len(), 5);
}

#[tokio::test]
async fn refusals_name_the_rule_and_nothing_is_half_applied() {
    let mut room = Room::new().await;
    room.enter(&["p1", "p2", "p3", "p4"]).await;
    room.register("p5").await;
    // Three applicants do not form a table (rule C); a player not in the room cannot apply.
    let status = room.open_with(&["p1", "p2", "p3"], common::TableKind::Rubber, Default::default()).await.unwrap_err();
    assert_rule(&status, "rule C");
    let status =
        room.open_with(&["p1", "p2", "p3", "p5"], common::TableKind::Rubber, Default::default()).await.unwrap_err();
    assert_rule(&status, "rule C");
    assert!(status.message().contains("player p5 is not in the room"), "{status:?}");
    let status = room.open_with(&["p1", "p2", "p3", "nobody"], common::TableKind::Rubber, Default::default()).await;
    assert_eq!(status.unwrap_err().code(), Code::NotFound);
    let status = room.open_with(&["p1", "p2", "p3", "p4"], common::TableKind::Duplicate, Default::default()).await;
    assert_eq!(status.unwrap_err().code(), Code::InvalidArgument);
    let tables = room.desk.list_tables(pb::ListTablesRequest { include_closed: true, page: None }).await.unwrap();
    assert!(tables.into_inner().tables.is_empty(), "no table was half-opened");

    let t1 = room.open(&["p1", "p2", "p3", "p4"]).await.table.unwrap().table_id;
    let rubber = room.start(&t1).await;
    // A rubber in progress must be ended before the table closes.
    let status = room.desk.close_table(pb::CloseTableRequest { table_id: t1.clone(), reason: String::new() }).await;
    assert_rule(&status.unwrap_err(), "rule E");
    let status = room
        .desk
        .start_rubber(pb::StartRubberRequest { table_id: t1.clone(), server_draw: true, ..Default::default() })
        .await;
    assert_rule(&status.unwrap_err(), "rule E");
    // The game or scoring service may report the end twice: the second changes nothing.
    let ended = room.end(&t1, &rubber, false).await;
    let again = room.end(&t1, &rubber, true).await;
    assert_eq!(again.rubber, ended.rubber, "the rubber's end is recorded once");
    assert_eq!(ended.rubber.unwrap().status, pb::RubberStatus::Unfinished as i32);

    // Closing: memberships end, no breaker restriction, the table keeps its record.
    let closed =
        room.desk.close_table(pb::CloseTableRequest { table_id: t1.clone(), reason: "the evening ends".into() });
    let closed = closed.await.unwrap().into_inner().table.unwrap();
    assert_eq!(closed.status, pb::TableStatus::Closed as i32);
    assert!(closed.members.is_empty());
    assert!(room.presence("p1").await.unwrap().breaker_restrictions.is_empty());
    assert_eq!(room.table(&t1).await.status, pb::TableStatus::Closed as i32);
    let status = room.desk.apply_to_table(pb::ApplyToTableRequest {
        table_id: t1.clone(),
        player_id: "p1".into(),
        ..Default::default()
    });
    assert_eq!(status.await.unwrap_err().code(), Code::FailedPrecondition);
}

#[tokio::test]
async fn the_register_keeps_one_entry_per_player_and_updates_by_version() {
    let mut room = Room::new().await;
    let register = |id: &str, number: &str, key: &str| pb::RegisterPlayerRequest {
        player_id: id.to_owned(),
        name: format!("Player {id}"),
        member_number: number.to_owned(),
        contact: None,
        idempotency_key: key.to_owned(),
    };
    // No id: the service assigns one; a retry with the same key registers nobody twice.
    let first = room.desk.register_player(register("", "", "walk-in-1")).await.unwrap().into_inner();
    let again = room.desk.register_player(register("", "", "walk-in-1")).await.unwrap().into_inner();
    assert_eq!(first, again);
    let assigned = first.player.unwrap();
    assert!(!assigned.player_id.is_empty() && assigned.active && assigned.version == 1);

    room.desk.register_player(register("ann", "M-1", "")).await.unwrap();
    let taken = room.desk.register_player(register("ann", "M-2", "")).await.unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    assert!(taken.message().contains("player_id"), "{taken:?}");
    let taken = room.desk.register_player(register("bob", "M-1", "")).await.unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);
    assert!(taken.message().contains("member_number"), "{taken:?}");
    let nameless = pb::RegisterPlayerRequest { name: " ".into(), ..register("cat", "", "") };
    assert_eq!(room.desk.register_player(nameless).await.unwrap_err().code(), Code::InvalidArgument);

    // Updates name the version they read; a stale one is ABORTED.
    let update = |version: u64, active: bool| pb::UpdatePlayerRequest {
        player_id: "ann".into(),
        expected_version: version,
        name: "Ann Smith".into(),
        member_number: "M-1".into(),
        contact: Some(pb::Contact { email: "ann@club.example".into(), phone: String::new() }),
        active,
    };
    let updated = room.desk.update_player(update(1, true)).await.unwrap().into_inner().player.unwrap();
    assert_eq!((updated.name.as_str(), updated.version), ("Ann Smith", 2));
    assert_eq!(room.desk.update_player(update(1, true)).await.unwrap_err().code(), Code::Aborted);

    // An inactive player cannot arrive; a player in the room is not made inactive.
    room.arrive("ann").await;
    let status = room.desk.update_player(update(2, false)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    room.leave_room("ann").await;
    room.desk.update_player(update(2, false)).await.unwrap();
    let status = room.player("ann").arrive_in_room(pb::ArriveInRoomRequest { player_id: "ann".into() }).await;
    assert_eq!(status.unwrap_err().code(), Code::FailedPrecondition);

    // The register by name; inactive players only when asked for.
    let list = |name: &str, include_inactive: bool| pb::ListPlayersRequest {
        name_contains: name.into(),
        include_inactive,
        page: Some(common::PageRequest { page_size: 1, page_token: String::new() }),
    };
    let active = room.desk.list_players(list("", false)).await.unwrap().into_inner();
    assert_eq!(active.players.len(), 1);
    assert_eq!(active.players[0].player_id, assigned.player_id);
    assert!(active.page.unwrap().next_page_token.is_empty());
    let smith = room.desk.list_players(list("SMITH", true)).await.unwrap().into_inner();
    assert_eq!(smith.players.iter().map(|p| p.player_id.as_str()).collect::<Vec<_>>(), ["ann"]);
    let all = room.desk.list_players(list("", true)).await.unwrap().into_inner();
    assert_eq!(all.players.len(), 1);
    let next = all.page.unwrap().next_page_token;
    assert!(!next.is_empty(), "a second page");
    let request =
        pb::ListPlayersRequest { page: Some(common::PageRequest { page_size: 1, page_token: next }), ..list("", true) };
    let second = room.desk.list_players(request).await.unwrap().into_inner();
    assert_eq!(second.players.len(), 1);
}
