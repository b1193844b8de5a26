//! Signing in (issue 17):
//!
//! - `auth_revoked_sessions`: sessions ended before their access tokens expire. The platform's:
//!   every service's auth layer reads it (`platform::revocation`);
//! - `membership_staff_accounts`: the staff's accounts, each with its Argon2id password hash and
//!   roles;
//! - `membership_sign_in_codes`: the one-time codes the desk issues members, while they can be
//!   used (a code's row goes when it is redeemed, replaced or burnt by wrong tries);
//! - `membership_sessions`: every session signing in opened, for a member or a staff account;
//! - `membership_refresh_tokens`: each refresh token a session was given (a SHA-256 of it), and
//!   whether it was spent, so that a spent one presented again is recognised.
//!
//! Times compared on the hot path or by the sign-in checks are milliseconds since the epoch, the
//! same on Postgres and SQLite.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AuthRevokedSessions {
    Table,
    SessionId,
    RefuseUntilMs,
    RevokedAtMs,
}

#[derive(DeriveIden)]
enum MembershipStaffAccounts {
    Table,
    Name,
    PasswordHash,
    Roles,
    CreatedAt,
    PasswordSetAt,
}

#[derive(DeriveIden)]
enum MembershipSignInCodes {
    Table,
    Handle,
    PlayerId,
    SecretHash,
    IssuedBy,
    ExpiresAtMs,
    Failures,
}

#[derive(DeriveIden)]
enum MembershipSessions {
    Table,
    SessionId,
    Subject,
    Kind,
    Roles,
    CreatedAtMs,
    ExpiresAtMs,
    EndedAtMs,
}

#[derive(DeriveIden)]
enum MembershipRefreshTokens {
    Table,
    TokenHash,
    SessionId,
    CreatedAtMs,
    SpentAtMs,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AuthRevokedSessions::Table)
                    .if_not_exists()
                    .col(string(AuthRevokedSessions::SessionId).primary_key())
                    .col(big_integer(AuthRevokedSessions::RefuseUntilMs))
                    .col(big_integer(AuthRevokedSessions::RevokedAtMs))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("auth_revoked_sessions_refuse_until")
                    .table(AuthRevokedSessions::Table)
                    .col(AuthRevokedSessions::RefuseUntilMs)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipStaffAccounts::Table)
                    .if_not_exists()
                    .col(string(MembershipStaffAccounts::Name).primary_key())
                    .col(string(MembershipStaffAccounts::PasswordHash))
                    .col(string(MembershipStaffAccounts::Roles))
                    .col(timestamp_with_time_zone(MembershipStaffAccounts::CreatedAt))
                    .col(timestamp_with_time_zone(MembershipStaffAccounts::PasswordSetAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipSignInCodes::Table)
                    .if_not_exists()
                    .col(string(MembershipSignInCodes::Handle).primary_key())
                    .col(string(MembershipSignInCodes::PlayerId))
                    .col(string(MembershipSignInCodes::SecretHash))
                    .col(string(MembershipSignInCodes::IssuedBy))
                    .col(big_integer(MembershipSignInCodes::ExpiresAtMs))
                    .col(integer(MembershipSignInCodes::Failures))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_sign_in_codes_player")
                    .table(MembershipSignInCodes::Table)
                    .col(MembershipSignInCodes::PlayerId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipSessions::Table)
                    .if_not_exists()
                    .col(string(MembershipSessions::SessionId).primary_key())
                    .col(string(MembershipSessions::Subject))
                    .col(string(MembershipSessions::Kind))
                    .col(string(MembershipSessions::Roles))
                    .col(big_integer(MembershipSessions::CreatedAtMs))
                    .col(big_integer(MembershipSessions::ExpiresAtMs))
                    .col(big_integer_null(MembershipSessions::EndedAtMs))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_sessions_subject")
                    .table(MembershipSessions::Table)
                    .col(MembershipSessions::Subject)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MembershipRefreshTokens::Table)
                    .if_not_exists()
                    .col(string(MembershipRefreshTokens::TokenHash).primary_key())
                    .col(string(MembershipRefreshTokens::SessionId))
                    .col(big_integer(MembershipRefreshTokens::CreatedAtMs))
                    .col(big_integer_null(MembershipRefreshTokens::SpentAtMs))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("membership_refresh_tokens_session")
                    .table(MembershipRefreshTokens::Table)
                    .col(MembershipRefreshTokens::SessionId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            MembershipRefreshTokens::Table.into_iden(),
            MembershipSessions::Table.into_iden(),
            MembershipSignInCodes::Table.into_iden(),
            MembershipStaffAccounts::Table.into_iden(),
            AuthRevokedSessions::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
