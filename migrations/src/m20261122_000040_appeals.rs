//! The appeals service's tables: rulings, appeals, the club's published appeal policies, the
//! notice stream and the committee's members.
//!
//! - `appeals_policies`: every policy ever published, by version; a ruling is judged by the
//!   policy in force when it was made ("published in advance", Club Appeals Committee).
//! - `appeals_rulings`: a ruling is `pending` while the adjusted score it carries is being applied
//!   by the scoring service, and `recorded` once it is; only recorded rulings are visible. The
//!   idempotency columns find a pending ruling again when the arbiter's client retries.
//! - `appeals_ruling_parties`: who may appeal a ruling and receive its notices, per player.
//! - `appeals_appeals`: the appeal as a message, its status and version for optimistic updates,
//!   and the decision waiting while scoring applies it.
//! - `appeals_events`: the notice stream, one sequence for all notices (allocated under the row
//!   lock of `appeals_streams`, so commit order is sequence order), with
//!   `appeals_event_audience` naming the players each notice is for.
//! - `appeals_committee_members`: the principals who have acted with the committee role.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AppealsPolicies {
    Table,
    Version,
    AppealsAllowed,
    RubberTimeLimitSecs,
    DuplicateTimeLimitSecs,
    CommitteeSize,
    PublishedAt,
    PublishedBy,
}

#[derive(DeriveIden)]
enum AppealsRulings {
    Table,
    RulingId,
    Status,
    Sequence,
    DealId,
    TableKind,
    TargetKey,
    ScoreOwner,
    PolicyVersion,
    RuledBy,
    RuledAt,
    Ruling,
    Parties,
    ScoreVersion,
    IdempotencyScope,
    IdempotencyKey,
    RequestHash,
}

#[derive(DeriveIden)]
enum AppealsRulingParties {
    Table,
    RulingId,
    PlayerId,
}

#[derive(DeriveIden)]
enum AppealsAppeals {
    Table,
    AppealId,
    RulingId,
    Status,
    Sequence,
    Appeal,
    Version,
    PendingAppeal,
    PendingScope,
    PendingKey,
    PendingHash,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum AppealsEvents {
    Table,
    Sequence,
    OccurredAt,
    Actor,
    Kind,
    RulingId,
    AppealId,
    TargetKey,
    Event,
}

#[derive(DeriveIden)]
enum AppealsEventAudience {
    Table,
    Sequence,
    PlayerId,
}

#[derive(DeriveIden)]
enum AppealsStreams {
    Table,
    Stream,
    LastSequence,
}

#[derive(DeriveIden)]
enum AppealsCommitteeMembers {
    Table,
    Subject,
    FirstSeenAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AppealsPolicies::Table)
                    .if_not_exists()
                    .col(big_integer(AppealsPolicies::Version).primary_key())
                    .col(boolean(AppealsPolicies::AppealsAllowed))
                    .col(big_integer(AppealsPolicies::RubberTimeLimitSecs))
                    .col(big_integer(AppealsPolicies::DuplicateTimeLimitSecs))
                    .col(integer(AppealsPolicies::CommitteeSize))
                    .col(timestamp_with_time_zone(AppealsPolicies::PublishedAt))
                    .col(string(AppealsPolicies::PublishedBy))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsRulings::Table)
                    .if_not_exists()
                    .col(string(AppealsRulings::RulingId).primary_key())
                    .col(string(AppealsRulings::Status))
                    .col(big_integer_null(AppealsRulings::Sequence))
                    .col(string(AppealsRulings::DealId))
                    .col(integer(AppealsRulings::TableKind))
                    .col(string(AppealsRulings::TargetKey))
                    .col(string(AppealsRulings::ScoreOwner))
                    .col(big_integer(AppealsRulings::PolicyVersion))
                    .col(string(AppealsRulings::RuledBy))
                    .col(timestamp_with_time_zone(AppealsRulings::RuledAt))
                    .col(binary(AppealsRulings::Ruling))
                    .col(text(AppealsRulings::Parties))
                    .col(binary_null(AppealsRulings::ScoreVersion))
                    .col(string(AppealsRulings::IdempotencyScope))
                    .col(string(AppealsRulings::IdempotencyKey))
                    .col(string(AppealsRulings::RequestHash))
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            ("appeals_rulings_idempotency", vec![AppealsRulings::IdempotencyScope, AppealsRulings::IdempotencyKey]),
            ("appeals_rulings_sequence", vec![AppealsRulings::Sequence]),
        ] {
            let mut index = Index::create();
            index.name(name).table(AppealsRulings::Table).unique();
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("appeals_rulings_target")
                    .table(AppealsRulings::Table)
                    .col(AppealsRulings::TargetKey)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_rulings_deal")
                    .table(AppealsRulings::Table)
                    .col(AppealsRulings::DealId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsRulingParties::Table)
                    .if_not_exists()
                    .col(string(AppealsRulingParties::RulingId))
                    .col(string(AppealsRulingParties::PlayerId))
                    .primary_key(
                        Index::create().col(AppealsRulingParties::RulingId).col(AppealsRulingParties::PlayerId),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_ruling_parties_player")
                    .table(AppealsRulingParties::Table)
                    .col(AppealsRulingParties::PlayerId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsAppeals::Table)
                    .if_not_exists()
                    .col(string(AppealsAppeals::AppealId).primary_key())
                    .col(string(AppealsAppeals::RulingId))
                    .col(string(AppealsAppeals::Status))
                    .col(big_integer(AppealsAppeals::Sequence).unique_key())
                    .col(binary(AppealsAppeals::Appeal))
                    .col(big_integer(AppealsAppeals::Version))
                    .col(binary_null(AppealsAppeals::PendingAppeal))
                    .col(string_null(AppealsAppeals::PendingScope))
                    .col(string_null(AppealsAppeals::PendingKey))
                    .col(string_null(AppealsAppeals::PendingHash))
                    .col(timestamp_with_time_zone(AppealsAppeals::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_appeals_ruling")
                    .table(AppealsAppeals::Table)
                    .col(AppealsAppeals::RulingId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsEvents::Table)
                    .if_not_exists()
                    .col(big_integer(AppealsEvents::Sequence).primary_key())
                    .col(timestamp_with_time_zone(AppealsEvents::OccurredAt))
                    .col(string(AppealsEvents::Actor))
                    .col(string(AppealsEvents::Kind))
                    .col(string(AppealsEvents::RulingId))
                    .col(string_null(AppealsEvents::AppealId))
                    .col(string(AppealsEvents::TargetKey))
                    .col(binary(AppealsEvents::Event))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("appeals_events_target")
                    .table(AppealsEvents::Table)
                    .col(AppealsEvents::TargetKey)
                    .col(AppealsEvents::Sequence)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsEventAudience::Table)
                    .if_not_exists()
                    .col(big_integer(AppealsEventAudience::Sequence))
                    .col(string(AppealsEventAudience::PlayerId))
                    .primary_key(
                        Index::create().col(AppealsEventAudience::PlayerId).col(AppealsEventAudience::Sequence),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsStreams::Table)
                    .if_not_exists()
                    .col(string(AppealsStreams::Stream).primary_key())
                    .col(big_integer(AppealsStreams::LastSequence))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppealsCommitteeMembers::Table)
                    .if_not_exists()
                    .col(string(AppealsCommitteeMembers::Subject).primary_key())
                    .col(timestamp_with_time_zone(AppealsCommitteeMembers::FirstSeenAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            AppealsCommitteeMembers::Table.into_iden(),
            AppealsStreams::Table.into_iden(),
            AppealsEventAudience::Table.into_iden(),
            AppealsEvents::Table.into_iden(),
            AppealsAppeals::Table.into_iden(),
            AppealsRulingParties::Table.into_iden(),
            AppealsRulings::Table.into_iden(),
            AppealsPolicies::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
