//! The rows the commands share: a ruling on record, an appeal's row, and the outbox rows that owe
//! the scoring service a call. Kept apart so that each command's module reads as the command.

use std::collections::BTreeSet;

use api::appeals::v1 as pb;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use super::Appeals;
use crate::book::{NoticeDraft, Row};
use crate::entity::{appeal, outbox, ruling};
use crate::records::encode;

impl Appeals {
    /// The outbox row owing `call` to the scoring service, to write with the command that owes
    /// it.
    pub(crate) fn owe(
        &self,
        topic: &str,
        aggregate_id: &str,
        call: &scoring_pb::ApplyAdjustmentRequest,
        now: chrono::DateTime<Utc>,
    ) -> Row {
        let grace = chrono::Duration::from_std(self.worker_grace).unwrap_or_else(|_| chrono::Duration::seconds(5));
        Row::Owe(Box::new(outbox::ActiveModel {
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
        }))
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
}

/// What an appeal moving on to its next step writes: the appeal over its row, if the row is still
/// at the version it was read at, and the notice of `event` for `audience`, by `actor`, at `now`.
pub(crate) fn appeal_moved(
    (actor, now): (&str, chrono::DateTime<Utc>),
    row: &appeal::Model,
    target_key: &str,
    audience: BTreeSet<String>,
    appeal: &pb::Appeal,
    event: pb::appeal_event::Event,
) -> (NoticeDraft, Row) {
    let notice = NoticeDraft {
        at: now,
        actor: actor.to_owned(),
        ruling_id: row.ruling_id.clone(),
        appeal_id: Some(row.appeal_id.clone()),
        target_key: target_key.to_owned(),
        event,
        audience,
    };
    (notice, Row::UpdateAppeal { from_version: row.version, appeal: Box::new(appeal.clone()) })
}
