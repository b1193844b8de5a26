//! `game_journal.rules_version`: the version of the Laws' rules (`laws::RULES_VERSION`) that
//! accepted each command, so that a journal replays as history: a command another version
//! accepted is replayed as accepted, not judged again by today's rules. Rows written before the
//! column existed get 0, accepted before the rules were numbered, and so do rows a process of an
//! earlier release writes during a rolling upgrade.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum GameJournal {
    Table,
    RulesVersion,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Several service processes may migrate one database as they start; SQLite has no
        // `ADD COLUMN IF NOT EXISTS`, so look first (Postgres is also told `IF NOT EXISTS`).
        if manager.has_column("game_journal", "rules_version").await? {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(GameJournal::Table)
                    .add_column_if_not_exists(integer(GameJournal::RulesVersion).default(0))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(GameJournal::Table).drop_column(GameJournal::RulesVersion).to_owned())
            .await
    }
}
