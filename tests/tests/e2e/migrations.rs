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
