//! The rows the commands share: a ruling on record, an appeal's row and its update at the version
//! read, the players a ruling concerns, and the outbox rows that owe the scoring service a call.
//! Kept apart so that each command's module reads as the command.

use api::appeals::v1 as pb;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use super::Appeals;
use crate::entity::{appeal, outbox, ruling, ruling_party};
use crate::records::{Parties, encode, status_name};

impl Appeals {
    /// Writes an outbox row owing `call` to the scoring service.
    pub(super) async fn owe(
        &self,
        txn: &sea_orm::DatabaseTransaction,
        topic: &str,
        aggregate_id: &str,
        call: &scoring_pb::ApplyAdjustmentRequest,
        now: chrono::DateTime<Utc>,
    ) -> Result<i64, ServiceError> {
        let grace = chrono::Duration::from_std(self.worker_grace).unwrap_or_else(|_| chrono::Duration::seconds(5));
        let inserted = outbox::Entity::insert(outbox::ActiveModel {
            source: Set("appeals".to_owned()),
            topic: Set(topic.to_owned()),
            aggregate_id: Set(aggregate_id.to_owned()),
            payload: Set(encode(call)),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set((now + grace).into()),
            created_at: Set(now.into()),
            delivered_at: Set(None),
            // Whoever delivers it (this request, a retry, the worker) continues this trace.
            trace_context: Set(platform::telemetry::capture_trace_context()),
            dead_lettered_at: Set(None),
            ..Default::default()
        })
        .exec(txn)
        .await?;
        Ok(inserted.last_insert_id)
    }

    /// The undelivered outbox row of `aggregate_id`, if any.
    pub(crate) async fn undelivered(&self, topic: &str, aggregate_id: &str) -> Result<Option<i64>, ServiceError> {
        Ok(outbox::Entity::find()
            .filter(outbox::Column::Source.eq("appeals"))
            .filter(outbox::Column::Topic.eq(topic))
            .filter(outbox::Column::AggregateId.eq(aggregate_id))
            .filter(outbox::Column::DeliveredAt.is_null())
            .one(&self.db)
            .await?
            .map(|row| row.id))
    }

    /// A ruling on record.
    pub(crate) async fn recorded_ruling(&self, ruling_id: &str) -> Result<ruling::Model, ServiceError> {
        ruling::Entity::find_by_id(ruling_id.to_owned())
            .filter(ruling::Column::Status.eq(ruling::RECORDED))
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("ruling {ruling_id:?}")))
    }

    /// An appeal's row.
    pub(crate) async fn appeal_row(&self, appeal_id: &str) -> Result<appeal::Model, ServiceError> {
        appeal::Entity::find_by_id(appeal_id.to_owned())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("appeal {appeal_id:?}")))
    }

    /// Writes `appeal` over `row`, if the row is still at the version read (ABORTED otherwise).
    pub(super) async fn update_appeal(
        &self,
        txn: &sea_orm::DatabaseTransaction,
        row: &appeal::Model,
        appeal: &pb::Appeal,
        now: chrono::DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let status = pb::AppealStatus::try_from(appeal.status).unwrap_or(pb::AppealStatus::Unspecified);
        let updated = appeal::Entity::update_many()
            .set(appeal::ActiveModel {
                status: Set(status_name(status).to_owned()),
                appeal: Set(encode(appeal)),
                version: Set(i64::try_from(appeal.version).map_err(ServiceError::internal)?),
                pending_appeal: Set(None),
                pending_scope: Set(None),
                pending_key: Set(None),
                pending_hash: Set(None),
                updated_at: Set(now),
                ..Default::default()
            })
            .filter(appeal::Column::AppealId.eq(&row.appeal_id))
            .filter(appeal::Column::Version.eq(row.version))
            // A decision parked meanwhile (by another process) is not overwritten.
            .filter(appeal::Column::PendingAppeal.is_null())
            .exec(txn)
            .await?;
        if updated.rows_affected == 1 {
            Ok(())
        } else {
            Err(ServiceError::Conflict(format!(
                "appeal {} changed while this request ran; read it again",
                row.appeal_id
            )))
        }
    }
}

/// Inserts the players a ruling concerns.
pub(crate) async fn insert_parties(
    txn: &impl sea_orm::ConnectionTrait,
    ruling_id: &str,
    parties: &Parties,
) -> Result<(), ServiceError> {
    let everyone = parties.everyone();
    if everyone.is_empty() {
        return Ok(());
    }
    ruling_party::Entity::insert_many(
        everyone
            .into_iter()
            .map(|player| ruling_party::ActiveModel { ruling_id: Set(ruling_id.to_owned()), player_id: Set(player) }),
    )
    .exec_without_returning(txn)
    .await?;
    Ok(())
}
