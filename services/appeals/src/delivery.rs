//! Delivering what the appeals service owes the scoring service: an adjusted score from a ruling,
//! or an appeal decision that changes the score (`ScoringService.ApplyAdjustment`).
//!
//! An outbox row is written with the pending ruling or the parked decision (see
//! [`crate::service`]). [`Appeals::deliver`] calls the scoring service and then, as one command on
//! the book ([`crate::book`]), marks the row delivered (only if no one else did: the request and
//! the background worker may both try, and `ApplyAdjustment` is idempotent by ruling and appeal
//! id, so only the records are guarded) and records the ruling or decision with the score
//! version, its notice, and the stored answer. A refusal drops the pending ruling or clears the parked decision; a
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
use platform::runtime::Decision;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use tracing::Instrument;

use crate::book::{Book, NoticeDraft, Row};
use crate::entity::{outbox, ruling};
use crate::records::{Parties, decode, encode};
use crate::scoring::{is_refusal, peer_error};
use crate::service::{Appeals, idempotency};

/// The outbox rows this service writes.
pub const SOURCE: &str = "appeals";
/// An adjusted score from a ruling; the aggregate is the ruling.
pub const TOPIC_RULING: &str = "scoring.ApplyAdjustment/ruling";
/// An appeal decision that changes the score; the aggregate is the appeal.
pub const TOPIC_DECISION: &str = "scoring.ApplyAdjustment/decision";
/// The decision a further appeal's body put in force, when it changes the score (Law 93C); the
/// aggregate is the appeal.
pub const TOPIC_FURTHER: &str = "scoring.ApplyAdjustment/further";

/// What a delivery completed.
#[derive(Debug)]
pub enum Delivered {
    /// The ruling, now on record.
    Ruling(Box<pb::RecordRulingResponse>),
    /// The appeal, now decided.
    Decision(Box<pb::DecideAppealResponse>),
    /// The appeal, its further appeal's changed decision now applied (Law 93C).
    Further(Box<pb::RecordFurtherAppealStatusResponse>),
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
            TOPIC_DECISION | TOPIC_FURTHER => self.complete_decision(&row, applied).await,
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

    /// Whether someone else settled `row` already (the request and the worker may both try).
    async fn settled(&self, row: &outbox::Model) -> Result<bool, ServiceError> {
        let current = outbox::Entity::find_by_id(row.id).one(&self.db).await?;
        Ok(current.is_none_or(|current| current.delivered_at.is_some()))
    }

    /// The scoring service refused: the pending ruling is dropped (it never was a ruling on
    /// record) or the parked decision cleared, and the refusal is the answer.
    async fn refused(&self, row: &outbox::Model, status: &tonic::Status) -> Result<Delivered, ServiceError> {
        let what = match row.topic.as_str() {
            TOPIC_RULING => "the ruling's adjusted score",
            TOPIC_FURTHER => "the further appeal's changed decision",
            _ => "the committee's decision",
        };
        let settled: bool = self
            .on_book(None, |book| async move {
                if self.settled(row).await? {
                    return Ok(Decision::Unchanged(false));
                }
                let dropped = if row.topic == TOPIC_RULING {
                    Row::DropPendingRuling(row.aggregate_id.clone())
                } else {
                    Row::ClearDecision(row.aggregate_id.clone())
                };
                let settle = Row::Settle { id: row.id, refusal: Some(format!("refused: {status}")) };
                Ok(Book::change(book, None, vec![settle, dropped], true))
            })
            .await?;
        if !settled {
            return self.already_delivered(row).await;
        }
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
            let appeal = Some(decode("appeal", &appeal_row.appeal)?);
            if row.topic == TOPIC_FURTHER {
                return Ok(Delivered::Further(Box::new(pb::RecordFurtherAppealStatusResponse { appeal })));
            }
            Ok(Delivered::Decision(Box::new(pb::DecideAppealResponse { appeal })))
        }
    }

    /// Records a ruling whose adjusted score the scoring service applied, with its notice and
    /// the answer the command that made it stores.
    async fn complete_ruling(
        &self,
        row: &outbox::Model,
        applied: scoring_pb::ApplyAdjustmentResponse,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        let pending = ruling::Entity::find_by_id(row.aggregate_id.clone())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::internal(format!("pending ruling {} is missing", row.aggregate_id)))?;
        let idempotency =
            idempotency(pending.idempotency_scope.clone(), &pending.idempotency_key, pending.request_hash.clone());
        let applied = &applied;
        let answer = self
            .on_book(Some(&idempotency), |book| async move {
                if self.settled(row).await? {
                    return match self.already_delivered(row).await? {
                        Delivered::Ruling(answer) => Ok(Decision::Unchanged(*answer)),
                        _ => Err(ServiceError::internal("ruling delivery completed as a decision")),
                    };
                }
                let pending = ruling::Entity::find_by_id(row.aggregate_id.clone())
                    .filter(ruling::Column::Status.eq(ruling::PENDING))
                    .one(&self.db)
                    .await?
                    .ok_or_else(|| ServiceError::internal(format!("pending ruling {} is missing", row.aggregate_id)))?;
                let ruling: pb::Ruling = decode("ruling", &pending.ruling)?;
                let parties = Parties::from_json(&pending.parties)?;
                let score_version = applied.version.clone();
                let notice = NoticeDraft {
                    at: Utc::now(),
                    actor: pending.ruled_by.clone(),
                    ruling_id: pending.ruling_id.clone(),
                    appeal_id: None,
                    target_key: pending.target_key.clone(),
                    event: pb::appeal_event::Event::RulingRecorded(ruling.clone()),
                    audience: parties.everyone(),
                };
                let rows = vec![
                    Row::Settle { id: row.id, refusal: None },
                    Row::RecordRuling {
                        ruling_id: pending.ruling_id.clone(),
                        sequence: book + 1,
                        score_version: score_version.as_ref().map(encode),
                    },
                    Row::InsertParties(pending.ruling_id.clone(), parties.everyone()),
                ];
                let answer = pb::RecordRulingResponse { ruling: Some(ruling), score_version };
                Ok(Book::change(book, Some(notice), rows, answer))
            })
            .await?;
        Ok(answer)
    }

    /// Records a decision the scoring service applied (the committee's, or the one a further
    /// appeal's body put in force), and tells everyone it affected.
    async fn complete_decision(
        &self,
        row: &outbox::Model,
        applied: scoring_pb::ApplyAdjustmentResponse,
    ) -> Result<Delivered, ServiceError> {
        let appeal_row = self.appeal_row(&row.aggregate_id).await?;
        let ruling_row = self.recorded_ruling(&appeal_row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let mut audience = parties.everyone();
        audience.extend(self.affected_players(&ruling_row.score_owner, &applied).await?);
        let (Some(scope), Some(key), Some(hash)) =
            (&appeal_row.pending_scope, &appeal_row.pending_key, &appeal_row.pending_hash)
        else {
            // Recorded (or refused) by someone else since.
            return self.already_delivered(row).await;
        };
        let idempotency = idempotency(scope.clone(), key, hash.clone());
        let parked = Parked { row, applied: &applied, audience: &audience, target_key: &ruling_row.target_key };
        let parked = &parked;
        if row.topic == TOPIC_FURTHER {
            let answer = self
                .on_book(Some(&idempotency), |book| async move {
                    Ok(match self.record_parked(parked).await? {
                        Ok((notice, rows, appeal)) => {
                            Book::change(book, Some(notice), rows, pb::RecordFurtherAppealStatusResponse { appeal })
                        }
                        Err(Delivered::Further(answer)) => Decision::Unchanged(*answer),
                        Err(_) => return Err(ServiceError::internal("further appeal delivery completed otherwise")),
                    })
                })
                .await?;
            return Ok(Delivered::Further(Box::new(answer)));
        }
        let answer = self
            .on_book(Some(&idempotency), |book| async move {
                Ok(match self.record_parked(parked).await? {
                    Ok((notice, rows, appeal)) => {
                        Book::change(book, Some(notice), rows, pb::DecideAppealResponse { appeal })
                    }
                    Err(Delivered::Decision(answer)) => Decision::Unchanged(*answer),
                    Err(_) => return Err(ServiceError::internal("decision delivery completed otherwise")),
                })
            })
            .await?;
        Ok(Delivered::Decision(Box::new(answer)))
    }

    /// The notice and rows that record a parked decision the scoring service applied, with the
    /// appeal as it then stands; or, when someone else settled the call, what they completed.
    async fn record_parked(
        &self,
        parked: &Parked<'_>,
    ) -> Result<Result<(NoticeDraft, Vec<Row>, Option<pb::Appeal>), Delivered>, ServiceError> {
        let Parked { row, applied, audience, target_key } = *parked;
        if self.settled(row).await? {
            return Ok(Err(self.already_delivered(row).await?));
        }
        let waiting = self.appeal_row(&row.aggregate_id).await?;
        let (Some(pending), Some(scope), Some(key)) =
            (&waiting.pending_appeal, &waiting.pending_scope, &waiting.pending_key)
        else {
            return Err(ServiceError::internal(format!("appeal {} has no decision waiting", waiting.appeal_id)));
        };
        let mut decided: pb::Appeal = decode("decided appeal", pending)?;
        let further = row.topic == TOPIC_FURTHER;
        if let Some(version) = applied.version.clone() {
            if further {
                if let Some(taken) = decided.further_appeal.as_mut() {
                    taken.score_versions.push(version);
                }
            } else if let Some(decision) = decided.decision.as_mut() {
                decision.score_versions.push(version);
            }
        }
        // Who recorded it: the subject of the command's idempotency scope.
        let actor = scope.split_once('/').map_or(scope.as_str(), |(_, subject)| subject);
        let event = if further {
            pb::appeal_event::Event::AppealTakenFurther(decided.clone())
        } else {
            pb::appeal_event::Event::AppealDecided(decided.clone())
        };
        let notice = NoticeDraft {
            at: Utc::now(),
            actor: actor.to_owned(),
            ruling_id: waiting.ruling_id.clone(),
            appeal_id: Some(waiting.appeal_id.clone()),
            target_key: target_key.to_owned(),
            event,
            audience: audience.clone(),
        };
        let rows = vec![
            Row::Settle { id: row.id, refusal: None },
            Row::RecordDecision { appeal: Box::new(decided.clone()), key: key.clone() },
        ];
        Ok(Ok((notice, rows, Some(decided))))
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

/// A parked decision the scoring service applied, as its delivery records it.
struct Parked<'a> {
    row: &'a outbox::Model,
    applied: &'a scoring_pb::ApplyAdjustmentResponse,
    audience: &'a BTreeSet<String>,
    target_key: &'a str,
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
