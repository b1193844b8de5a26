//! A room's snapshots: a process starting on a long journal replays only the entries after the
//! latest snapshot, and gets the room replayed from the start; a snapshot it cannot read is passed
//! over. On SQLite, through the engine as the service runs it.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use membership::commands::{self, TableSpec};
use membership::engine::Engine;
use membership::journal::{Form, Options};
use membership::state::ClubState;
use membership::store::Store;
use membership::{Settings, entity::snapshots};
use platform::db::Db;
use platform::live::{MemoryStore, SharedLiveStore};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

struct Club {
    db: Db,
    live: SharedLiveStore,
    dir: std::path::PathBuf,
    settings: Settings,
}

impl Club {
    async fn new(snapshot_every: u64) -> Club {
        let dir = std::env::temp_dir().join(format!("membership-snapshots-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
        let db = platform::db::connect_and_migrate(&url).await.unwrap();
        let settings = Settings { snapshot_every, ..Settings::default() };
        Club { db, live: Arc::new(MemoryStore::new()), dir, settings }
    }

    /// The service as a process starts it: knowing nothing of the room yet.
    fn start(&self) -> Engine {
        Engine::new(Store::new(self.db.clone(), &self.settings.room), self.live.clone(), &self.settings)
    }

    async fn snapshots(&self) -> Vec<i64> {
        let rows = snapshots::Entity::find().order_by_asc(snapshots::Column::Sequence).all(&self.db).await.unwrap();
        rows.into_iter().map(|row| row.sequence).collect()
    }
}

impl Drop for Club {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The room as data: two states are the same room when these are equal.
fn as_data(state: &ClubState) -> serde_json::Value {
    serde_json::from_slice(&state.snapshot().unwrap()).unwrap()
}

/// Eleven entries: seven arrivals, a table opened by five of them (its seeds and draws
/// included), a late applicant, and two departures.
async fn play(engine: &Engine) {
    for n in 1..=7u64 {
        let player = format!("p{n}");
        let decide = |state: &ClubState, at| commands::arrive(state, &player, n, at);
        engine.execute("desk", None, decide, |_, _| Ok(())).await.unwrap();
    }
    let spec = TableSpec { name: "one".into(), form: Form::Rubber, options: Options::default() };
    let open = |state: &ClubState, at| {
        commands::open_table(state, spec.clone(), &[1, 2, 3, 4, 5], &[], &[], false, at).map(Some)
    };
    engine.execute("desk", None, open, |_, _| Ok(())).await.unwrap();
    let apply = |state: &ClubState, at| commands::apply(state, 1, &[6], &[], false, at).map(Some);
    engine.execute("desk", None, apply, |_, _| Ok(())).await.unwrap();
    for n in [7u64, 6] {
        let leave = |state: &ClubState, at| commands::leave_room(state, n, at).map(Some);
        engine.execute("desk", None, leave, |_, _| Ok(())).await.unwrap();
    }
}

#[tokio::test]
async fn a_room_started_from_its_latest_snapshot_is_the_room_replayed_from_the_start() {
    let club = Club::new(4).await;
    let first = club.start();
    play(&first).await;
    let room = first.current().await.unwrap();
    assert_eq!(room.seq, 11);
    // Snapshots after entries 4 and 8; each new one drops those before the one it follows.
    assert_eq!(club.snapshots().await, vec![4, 8]);

    // The entries the latest snapshot covers are not read again: without them, a new process
    // still has the whole room.
    membership::entity::journal::Entity::delete_many()
        .filter(membership::entity::journal::Column::Sequence.lte(8))
        .exec(&club.db)
        .await
        .unwrap();
    let restarted = club.start().current().await.unwrap();
    assert_eq!(restarted.seq, 11);
    assert_eq!(as_data(&restarted), as_data(&room), "the room from its snapshot and entries 9 to 11");

    // And it goes on from there: a command decided on it journals entry 12.
    let again = club.start();
    let decide = |state: &ClubState, at| commands::arrive(state, "p7", 7, at);
    again.execute("desk", None, decide, |_, _| Ok(())).await.unwrap();
    assert_eq!(again.current().await.unwrap().seq, 12);
}

#[tokio::test]
async fn a_snapshot_this_build_cannot_read_is_passed_over_for_the_journal() {
    let club = Club::new(4).await;
    let first = club.start();
    play(&first).await;
    let room = first.current().await.unwrap();
    // Snapshots written by another version of the code (another layout), or damaged.
    snapshots::Entity::update_many()
        .col_expr(snapshots::Column::Format, sea_orm::sea_query::Expr::value(999))
        .filter(snapshots::Column::Sequence.eq(8))
        .exec(&club.db)
        .await
        .unwrap();
    snapshots::Entity::update_many()
        .col_expr(snapshots::Column::State, sea_orm::sea_query::Expr::value(b"not a room".to_vec()))
        .filter(snapshots::Column::Sequence.eq(4))
        .exec(&club.db)
        .await
        .unwrap();
    let restarted = club.start().current().await.unwrap();
    assert_eq!(as_data(&restarted), as_data(&room), "replayed from the first entry");
}
