//! The one schema history applies on both backends (tables created, columns added), and
//! re-applying it is a no-op.

use e2e::TestDatabase;
use sea_orm::{ConnectionTrait, Statement};

async fn table_names(db: &platform::db::Db, sql: &str) -> Vec<String> {
    let rows = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql.to_owned())).await.unwrap();
    let mut names: Vec<String> = rows.iter().map(|r| r.try_get_by_index::<String>(0).unwrap()).collect();
    names.sort();
    names
}

#[tokio::test]
async fn migrations_apply_on_postgres_twice() {
    let database = TestDatabase::create().await;
    let db = platform::db::connect_and_migrate(database.url()).await.unwrap();
    platform::db::migrate(&db).await.unwrap();
    let names =
        table_names(&db, "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'").await;
    for expected in ["idempotency_keys", "outbox", "seaql_migrations"] {
        assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }
    let columns = table_names(
        &db,
        "SELECT column_name::text FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'outbox'",
    )
    .await;
    assert!(columns.iter().any(|c| c == "trace_context"), "outbox.trace_context missing from {columns:?}");
    let columns = table_names(
        &db,
        "SELECT column_name::text FROM information_schema.columns WHERE table_schema = 'public' AND table_name = \
         'scoring_board_results'",
    )
    .await;
    assert!(columns.iter().any(|c| c == "form"), "scoring_board_results.form (Law 87B) missing from {columns:?}");
    let columns = table_names(
        &db,
        "SELECT column_name::text FROM information_schema.columns WHERE table_schema = 'public' AND table_name = \
         'game_journal'",
    )
    .await;
    assert!(columns.iter().any(|c| c == "rules_version"), "game_journal.rules_version missing from {columns:?}");
    db.close().await.unwrap();
}

#[tokio::test]
async fn migrations_apply_on_sqlite_twice() {
    let dir = std::env::temp_dir().join(format!("bc-sqlite-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
    let db = platform::db::connect_and_migrate(&url).await.unwrap();
    platform::db::migrate(&db).await.unwrap();
    let names = table_names(&db, "SELECT name FROM sqlite_master WHERE type = 'table'").await;
    for expected in ["idempotency_keys", "outbox", "seaql_migrations"] {
        assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }
    let columns = table_names(&db, "SELECT name FROM pragma_table_info('outbox')").await;
    assert!(columns.iter().any(|c| c == "trace_context"), "outbox.trace_context missing from {columns:?}");
    let columns = table_names(&db, "SELECT name FROM pragma_table_info('scoring_board_results')").await;
    assert!(columns.iter().any(|c| c == "form"), "scoring_board_results.form (Law 87B) missing from {columns:?}");
    let columns = table_names(&db, "SELECT name FROM pragma_table_info('game_journal')").await;
    assert!(columns.iter().any(|c| c == "rules_version"), "game_journal.rules_version missing from {columns:?}");
    db.close().await.unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

/// A rollout starts many migrators at once (the chart's Job, and services told to migrate): each
/// waits for the Postgres advisory lock, so every migration is applied once and none fails on
/// another's tables.
#[tokio::test]
async fn migrators_started_together_apply_each_migration_once() {
    let database = TestDatabase::create().await;
    let mut migrators = Vec::new();
    for _ in 0..6 {
        let db = platform::db::connect(database.url()).await.unwrap();
        migrators.push(tokio::spawn(async move {
            let applied = platform::db::migrate(&db).await;
            db.close().await.unwrap();
            applied
        }));
    }
    for migrator in migrators {
        migrator.await.unwrap().unwrap_or_else(|e| panic!("a migrator started beside others failed: {e}"));
    }
    let db = platform::db::connect(database.url()).await.unwrap();
    assert_eq!(platform::db::pending_migrations(&db).await.unwrap(), Vec::<String>::new());
    let applied: Vec<String> = table_names(&db, "SELECT version FROM seaql_migrations").await;
    let mut once = applied.clone();
    once.dedup();
    assert_eq!(applied, once, "a migration recorded twice");
    db.close().await.unwrap();
}

/// A deployment migrates once, before the rollout, and tells its services not to
/// (`database.migrate_on_start` off): such a service refuses to serve on a schema older than its
/// code, saying how to migrate, and starts once the schema is current.
#[tokio::test]
async fn a_service_told_not_to_migrate_refuses_a_schema_behind_its_code() {
    let database = TestDatabase::create().await;
    let keys = tempfile_dir();
    let mut config =
        platform::config::PlatformConfig { database_url: Some(database.url().to_owned()), ..Default::default() };
    config.auth.local_key_file = keys.join("club.key");
    config.database.migrate_on_start = false;

    let refused = platform::app::Resources::start(&config, "scoring").await.expect_err("started on an empty schema");
    let message = refused.to_string();
    assert!(
        matches!(&refused, platform::app::StartError::SchemaBehind { pending, .. } if !pending.is_empty()),
        "{message}"
    );
    assert!(message.contains("bridgectl migrate"), "says how to migrate: {message}");
    let db = platform::db::connect(database.url()).await.unwrap();
    assert!(
        table_names(&db, "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'")
            .await
            .is_empty(),
        "a service told not to migrate created tables"
    );

    platform::db::migrate(&db).await.unwrap();
    let resources = platform::app::Resources::start(&config, "scoring").await.unwrap();
    drop(resources);
    db.close().await.unwrap();
    let _ = std::fs::remove_dir_all(keys);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bc-keys-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
