//! `scoring_board_results.form`: Law 87B, a fouled board. The form of the board the table played,
//! as the Director found it: 0 the correct form (every result recorded before, and every board not
//! fouled), 1 and up a changed form. A session compares a table only with the tables of the same
//! board and the same form.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ScoringBoardResults {
    Table,
    Form,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Several service processes may migrate one database as they start; SQLite has no
        // `ADD COLUMN IF NOT EXISTS`, so look first (Postgres is also told `IF NOT EXISTS`).
        if manager.has_column("scoring_board_results", "form").await? {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(ScoringBoardResults::Table)
                    .add_column_if_not_exists(integer(ScoringBoardResults::Form).default(0))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(ScoringBoardResults::Table).drop_column(ScoringBoardResults::Form).to_owned(),
            )
            .await
    }
}
