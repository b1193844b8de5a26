//! Delivering what the appeals service owes the scoring service: an adjusted score from a ruling,
//! or an appeal decision that changes the score (`ScoringService.ApplyAdjustment`).
//!
//! An outbox row is written with the pending ruling or the parked decision (see
//! [`crate::service`]). [`Appeals::deliver`] calls the scoring service and then, in one
//! transaction, marks the row delivered (only if no one else did: the request and the background
//! worker may both try, and `ApplyAdjustment` is idempotent by ruling and appeal id, so only the
//! records are guarded) and records the ruling or decision with the score version, its notice,
//! and the stored answer. A refusal drops the pending ruling or clears the parked decision; a
//! failure to reach the scoring service leaves the row for the platform's outbox worker
//! ([`platform::outbox`]), which tries again with a growing delay and sets aside a row that keeps
//! failing as a dead letter.

use std::collections::BTreeSet;
use std::sync::Arc;

use api::appeals::v1 as pb;
use api::scoring::v1 as scoring_pb;
use async_trait::async_trait;
use chrono::Utc;
use platform::ServiceError;
use platform::outbox::{Courier, Delivery, Outbox};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, TransactionTrait};
use tracing::Instrument;

use crate::entity::{appeal, outbox, ruling};
use crate::records::{Parties, decode, encode};
use crate::scoring::{is_refusal, peer_error};
use crate::service::{Appeals, insert_parties};
use crate::store::{self, NewEvent};

/// The outbox rows this service writes.
pub const SOURCE: &str = "appeals";
/// An adjusted score from a ruling; the aggregate is the ruling.
pub const TOPIC_RULING: &str = "scoring.ApplyAdjustment/ruling";
/// An appeal decision that changes the score; the aggregate is the appeal.
pub const TOPIC_DECISION: &str = "scoring.ApplyAdjustment/decision";

/// What a delivery completed.
#[derive(Debug)]
pub enum Delivered {
    /// The ruling, now on record.
    Ruling(Box<pb::RecordRulingResponse>),
    /// The appeal, now decided.
    Decision(Box<pb::DecideAppealResponse>),
}

impl Appeals {
    /// Delivers outbox row `id` (see the module docs). The error is the scoring service's refusal,
    /// or UNAVAILABLE when it could not be reached and the row waits for the worker.
    pub(crate) async fn deliver(&self, id: i64) -> Result<Delivered, ServiceError> {
        let row = outbox::Entity::find_by_id(id)
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::internal(format!("outbox row {id} is missing")))?;
        // Under the trace of the request that owed the call, whoever delivers it: the scoring
        // service's span joins that trace.
        let span = platform::telemetry::delivery_span(
            &row.topic,
            &row.aggregate_id,
            i64::from(row.attempts) + 1,
            row.trace_context.as_deref(),
        );
        // This attempt counts, should it fail (a worker's claim counts its own).
        let row = outbox::Model { attempts: row.attempts + 1, ..row };
        self.deliver_row(row).instrument(span).await
    }

    pub(crate) async fn deliver_row(&self, row: outbox::Model) -> Result<Delivered, ServiceError> {
        let call: scoring_pb::ApplyAdjustmentRequest = decode("outbox payload", &row.payload)?;
        let applied = match self.scoring.apply_adjustment(call.clone()).await {
            Ok(applied) => applied,
            Err(status) if is_refusal(&status) => return self.refused(&row, &status).await,
            Err(status) => {
                self.note_failure(&row, &status.to_string()).await?;
                return Err(ServiceError::Unavailable(format!(
                    "the scoring service could not be reached ({}); the {} is kept and will be applied when it can \
                     be: retry with the same idempotency key",
                    status.message(),
                    if row.topic == TOPIC_RULING { "ruling" } else { "decision" }
                )));
            }
        };
        let result = match row.topic.as_str() {
            TOPIC_RULING => self.complete_ruling(&row, applied).await.map(|a| Delivered::Ruling(Box::new(a))),
            TOPIC_DECISION => self.complete_decision(&row, applied).await.map(|a| Delivered::Decision(Box::new(a))),
            other => Err(ServiceError::internal(format!("unknown outbox topic {other}"))),
        };
        if let Err(error) = &result {
            // The score changed but the record did not: the next attempt (idempotent at the scoring
            // service) records it.
            self.note_failure(&row, &error.to_string()).await?;
        }
        result
    }

    /// Counts a failed attempt and sets when to try again (or sets the row aside as a dead
    /// letter), as the platform's worker does.
    async fn note_failure(&self, row: &outbox::Model, error: &str) -> Result<(), ServiceError> {
        platform::outbox::note_failure(&self.db, row, error, &self.outbox).await?;
        Ok(())
    }

    /// Marks `row` delivered inside `txn`; false if someone else already did.
    async fn mark_delivered(
        txn: &sea_orm::DatabaseTransaction,
        row: &outbox::Model,
        refusal: Option<String>,
    ) -> Result<bool, ServiceError> {
        let mut update = outbox::Entity::update_many()
            .col_expr(outbox::Column::DeliveredAt, Expr::value(Utc::now()))
            .filter(outbox::Column::Id.eq(row.id))
            .filter(outbox::Column::DeliveredAt.is_null());
        if let Some(refusal) = refusal {
            update = update.col_expr(outbox::Column::LastError, Expr::value(refusal));
        }
        Ok(update.exec(txn).await?.rows_affected == 1)
    }

    /// The scoring service refused: the pending ruling is dropped (it never was a ruling on
    /// record) or the parked decision cleared, and the refusal is the answer.
    async fn refused(&self, row: &outbox::Model, status: &tonic::Status) -> Result<Delivered, ServiceError> {
        let what = if row.topic == TOPIC_RULING { "the ruling's adjusted score" } else { "the committee's decision" };
        let txn = self.db.begin().await?;
        if !Self::mark_delivered(&txn, row, Some(format!("refused: {status}"))).await? {
            drop(txn);
            return self.already_delivered(row).await;
        }
        if row.topic == TOPIC_RULING {
            ruling::Entity::delete_many()
                .filter(ruling::Column::RulingId.eq(&row.aggregate_id))
                .filter(ruling::Column::Status.eq(ruling::PENDING))
                .exec(&txn)
                .await?;
        } else {
            appeal::Entity::update_many()
                .set(appeal::ActiveModel {
                    pending_appeal: Set(None),
                    pending_scope: Set(None),
                    pending_key: Set(None),
                    pending_hash: Set(None),
                    updated_at: Set(Utc::now()),
                    ..Default::default()
                })
                .filter(appeal::Column::AppealId.eq(&row.aggregate_id))
                .exec(&txn)
                .await?;
        }
        txn.commit().await?;
        Err(peer_error(what, status))
    }

    /// The answer of a delivery someone else completed.
    async fn already_delivered(&self, row: &outbox::Model) -> Result<Delivered, ServiceError> {
        let current = outbox::Entity::find_by_id(row.id).one(&self.db).await?;
        let refusal = current.and_then(|r| r.last_error).filter(|e| e.starts_with("refused: "));
        if let Some(refusal) = refusal {
            return Err(ServiceError::FailedPrecondition(format!("the scoring service {refusal}")));
        }
        if row.topic == TOPIC_RULING {
            let ruling_row = self.recorded_ruling(&row.aggregate_id).await?;
            let ruling = self.ruling_message(&ruling_row).await?;
            let score_version = ruling_row.score_version.as_deref().map(|b| decode("score version", b)).transpose()?;
            Ok(Delivered::Ruling(Box::new(pb::RecordRulingResponse { ruling: Some(ruling), score_version })))
        } else {
            let appeal_row = self.appeal_row(&row.aggregate_id).await?;
            let appeal = decode("appeal", &appeal_row.appeal)?;
            Ok(Delivered::Decision(Box::new(pb::DecideAppealResponse { appeal: Some(appeal) })))
        }
    }

    /// Records a ruling whose adjusted score the scoring service applied.
    async fn complete_ruling(
        &self,
        row: &outbox::Model,
        applied: scoring_pb::ApplyAdjustmentResponse,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        let txn = self.db.begin().await?;
        let sequence = store::next_sequence(&txn).await?;
        if !Self::mark_delivered(&txn, row, None).await? {
            drop(txn);
            return match self.already_delivered(row).await? {
                Delivered::Ruling(answer) => Ok(*answer),
                Delivered::Decision(_) => Err(ServiceError::internal("ruling delivery completed as a decision")),
            };
        }
        let pending = ruling::Entity::find_by_id(row.aggregate_id.clone())
            .filter(ruling::Column::Status.eq(ruling::PENDING))
            .one(&txn)
            .await?
            .ok_or_else(|| ServiceError::internal(format!("pending ruling {} is missing", row.aggregate_id)))?;
        let ruling: pb::Ruling = decode("ruling", &pending.ruling)?;
        let parties = Parties::from_json(&pending.parties)?;
        let score_version = applied.version;
        ruling::Entity::update_many()
            .set(ruling::ActiveModel {
                status: Set(ruling::RECORDED.to_owned()),
                sequence: Set(Some(i64::try_from(sequence).map_err(ServiceError::internal)?)),
                score_version: Set(score_version.as_ref().map(encode)),
                ..Default::default()
            })
            .filter(ruling::Column::RulingId.eq(&pending.ruling_id))
            .exec(&txn)
            .await?;
        insert_parties(&txn, &pending.ruling_id, &parties).await?;
        let notice = store::append_event(
            &txn,
            NewEvent {
                sequence,
                at: Utc::now(),
                actor: &pending.ruled_by,
                ruling_id: &pending.ruling_id,
                appeal_id: None,
                target_key: &pending.target_key,
                event: pb::appeal_event::Event::RulingRecorded(ruling.clone()),
                audience: &parties.everyone(),
            },
        )
        .await?;
        let answer = pb::RecordRulingResponse { ruling: Some(ruling), score_version };
        store::store_response(
            &txn,
            &pending.idempotency_scope,
            &pending.idempotency_key,
            &pending.request_hash,
            &answer,
        )
        .await?;
        txn.commit().await?;
        self.publish(notice).await;
        Ok(answer)
    }

    /// Records a decision the scoring service applied, and tells everyone it affected.
    async fn complete_decision(
        &self,
        row: &outbox::Model,
        applied: scoring_pb::ApplyAdjustmentResponse,
    ) -> Result<pb::DecideAppealResponse, ServiceError> {
        let appeal_row = self.appeal_row(&row.aggregate_id).await?;
        let ruling_row = self.recorded_ruling(&appeal_row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let mut audience = parties.everyone();
        audience.extend(self.affected_players(&ruling_row.score_owner, &applied).await?);

        let txn = self.db.begin().await?;
        let sequence = store::next_sequence(&txn).await?;
        if !Self::mark_delivered(&txn, row, None).await? {
            drop(txn);
            return match self.already_delivered(row).await? {
                Delivered::Decision(answer) => Ok(*answer),
                Delivered::Ruling(_) => Err(ServiceError::internal("decision delivery completed as a ruling")),
            };
        }
        let parked = appeal::Entity::find_by_id(row.aggregate_id.clone())
            .one(&txn)
            .await?
            .ok_or_else(|| ServiceError::internal(format!("appeal {} is missing", row.aggregate_id)))?;
        let (Some(pending), Some(scope), Some(key), Some(hash)) =
            (&parked.pending_appeal, &parked.pending_scope, &parked.pending_key, &parked.pending_hash)
        else {
            return Err(ServiceError::internal(format!("appeal {} has no decision waiting", parked.appeal_id)));
        };
        let mut decided: pb::Appeal = decode("decided appeal", pending)?;
        if let (Some(decision), Some(version)) = (decided.decision.as_mut(), applied.version) {
            decision.score_versions.push(version);
        }
        let now = Utc::now();
        let updated = appeal::Entity::update_many()
            .set(appeal::ActiveModel {
                status: Set("decided".to_owned()),
                appeal: Set(encode(&decided)),
                version: Set(i64::try_from(decided.version).map_err(ServiceError::internal)?),
                pending_appeal: Set(None),
                pending_scope: Set(None),
                pending_key: Set(None),
                pending_hash: Set(None),
                updated_at: Set(now),
                ..Default::default()
            })
            .filter(appeal::Column::AppealId.eq(&parked.appeal_id))
            .filter(appeal::Column::PendingKey.eq(key.as_str()))
            .exec(&txn)
            .await?;
        if updated.rows_affected != 1 {
            return Err(ServiceError::internal(format!("appeal {} lost its waiting decision", parked.appeal_id)));
        }
        // The member who recorded the decision: the subject of the command's idempotency scope.
        let actor = scope.split_once('/').map_or(scope.as_str(), |(_, subject)| subject);
        let notice = store::append_event(
            &txn,
            NewEvent {
                sequence,
                at: now,
                actor,
                ruling_id: &parked.ruling_id,
                appeal_id: Some(&parked.appeal_id),
                target_key: &ruling_row.target_key,
                event: pb::appeal_event::Event::AppealDecided(decided.clone()),
                audience: &audience,
            },
        )
        .await?;
        let answer = pb::DecideAppealResponse { appeal: Some(decided) };
        store::store_response(&txn, scope, key, hash, &answer).await?;
        txn.commit().await?;
        self.publish(notice).await;
        Ok(answer)
    }

    /// The players whose scores a decision changed beyond the deal's own: in duplicate, every
    /// contestant with a result on the rescored board (their matchpoints moved).
    async fn affected_players(
        &self,
        session_id: &str,
        applied: &scoring_pb::ApplyAdjustmentResponse,
    ) -> Result<BTreeSet<String>, ServiceError> {
        if applied.board_results.is_empty() {
            return Ok(BTreeSet::new());
        }
        let contestants: BTreeSet<&str> = applied
            .board_results
            .iter()
            .filter_map(|r| r.key.as_ref())
            .flat_map(|k| [k.north_south_contestant_id.as_str(), k.east_west_contestant_id.as_str()])
            .collect();
        let session = self.scoring.session(session_id).await?;
        Ok(session
            .contestants
            .iter()
            .filter(|c| contestants.contains(c.contestant_id.as_str()))
            .flat_map(|c| {
                c.player_ids.iter().cloned().chain(Some(c.captain_player_id.clone()).filter(|id| !id.is_empty()))
            })
            .collect())
    }

    /// Delivers every owed call whose time has come, as the worker does in each round.
    pub async fn deliver_due(self: &Arc<Self>) -> Result<usize, ServiceError> {
        Ok(worker(self).deliver_due().await?)
    }
}

/// Sends the appeals service's rows to the scoring service: [`Appeals::deliver`], which settles
/// the row itself (records what the call completed, drops what scoring refused, or notes the
/// failure), in transactions of its own.
pub struct ScoringCourier {
    appeals: Arc<Appeals>,
}

#[async_trait]
impl Courier for ScoringCourier {
    fn source(&self) -> &'static str {
        SOURCE
    }

    async fn deliver(&self, row: &outbox::Model) -> Delivery {
        if let Err(error) = self.appeals.deliver_row(row.clone()).await {
            tracing::info!(outbox = row.id, %error, "owed call not delivered");
        }
        Delivery::Settled
    }
}

/// The platform's outbox worker over the appeals service's rows.
pub fn worker(appeals: &Arc<Appeals>) -> Outbox<ScoringCourier> {
    Outbox::new(appeals.db.clone(), ScoringCourier { appeals: appeals.clone() }, appeals.outbox.clone())
}
