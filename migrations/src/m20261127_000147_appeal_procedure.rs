//! `appeals_policies.procedure`: the club's options for the stages of an appeal, published with
//! each policy version (`bridgeclub.appeals.v1.AppealProcedure`, encoded): the director's review
//! before the committee, a further appeal beyond the club, and a deposit. A policy published
//! before the column existed has none of them (NULL).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AppealsPolicies {
    Table,
    Procedure,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Several service processes may migrate one database as they start; SQLite has no
        // `ADD COLUMN IF NOT EXISTS`, so look first.
        if manager.has_column("appeals_policies", "procedure").await? {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(AppealsPolicies::Table)
                    .add_column_if_not_exists(binary_null(AppealsPolicies::Procedure))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(AppealsPolicies::Table).drop_column(AppealsPolicies::Procedure).to_owned(),
            )
            .await
    }
}
