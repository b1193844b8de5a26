//! The appeals service's record as the command runtime runs it ([`platform::runtime::Aggregate`]):
//! one aggregate, the book of rulings and appeals, whose version is the number of its last notice.
//!
//! The rows (rulings, appeals, policies) are the state; a command reads the few it needs while it
//! is decided and says what it writes ([`BookWrite`]). Every command that adds a notice takes the
//! next number: its write moves the notice counter from the number it was decided on, so of two
//! commands decided on the same book exactly one commits, notices commit in their order (a
//! watcher that has seen notice n finds every notice before it), and rows read from a later
//! state make the write conflict and the command is decided again. A command that adds no notice
//! (a ruling or a decision waiting on the scoring service, a delivery the scoring service
//! refused, a new policy) keeps the version, and its write guards its own rows.

use std::collections::BTreeSet;

use api::appeals::v1 as pb;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use platform::ServiceError;
use platform::db::Db;
use platform::runtime::{Aggregate, Change, Decision, LiveWrite, WriteError};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseTransaction, EntityTrait, QueryFilter};

use crate::entity::{appeal, event, event_audience, outbox, policy, ruling, ruling_party, stream};
use crate::records::{encode, status_name, timestamp};
use crate::store::{self, LiveNotice};

/// The one book's id.
pub const BOOK: &str = "appeals";

/// The book (see the module docs).
#[derive(Debug, Default)]
pub struct Book;

/// A notice a command adds.
#[derive(Debug)]
pub struct Notice {
    /// Who acted.
    pub actor: String,
    /// The ruling concerned.
    pub ruling_id: String,
    /// The appeal concerned, if any.
    pub appeal_id: Option<String>,
    /// The score target's key.
    pub target_key: String,
    /// The players it is for.
    pub audience: BTreeSet<String>,
    /// The notice, numbered.
    pub event: pb::AppealEvent,
}

/// One row a command writes.
#[derive(Debug)]
pub enum Row {
    /// A new ruling (recorded, or pending its adjusted score).
    InsertRuling(Box<ruling::ActiveModel>),
    /// The players a ruling concerns.
    InsertParties(String, BTreeSet<String>),
    /// A pending ruling put on record with the score version it made, at its notice.
    RecordRuling {
        /// The ruling.
        ruling_id: String,
        /// Its notice.
        sequence: u64,
        /// The score version its adjusted score made (encoded).
        score_version: Option<Vec<u8>>,
    },
    /// A pending ruling dropped (the scoring service refused its adjusted score).
    DropPendingRuling(String),
    /// A new appeal.
    InsertAppeal(Box<appeal::ActiveModel>),
    /// An appeal written over its row, if the row is still at `from_version` with nothing parked.
    UpdateAppeal {
        /// The row's version it was decided on.
        from_version: i64,
        /// The appeal as it now stands.
        appeal: Box<pb::Appeal>,
    },
    /// A decision parked on its appeal until the scoring service applies it, with the command's
    /// idempotency (its answer is stored when the decision is recorded).
    ParkDecision {
        /// The appeal.
        appeal_id: String,
        /// The row's version it was decided on.
        from_version: i64,
        /// The appeal as it will stand decided (encoded).
        decided: Vec<u8>,
        /// The command's idempotency scope, key and request hash.
        key: (String, String, String),
    },
    /// A parked decision recorded: the appeal decided, if it still waits under `key`.
    RecordDecision {
        /// The appeal, decided.
        appeal: Box<pb::Appeal>,
        /// The idempotency key it waited under.
        key: String,
    },
    /// A parked decision cleared (the scoring service refused it).
    ClearDecision(String),
    /// A call owed to the scoring service.
    Owe(Box<outbox::ActiveModel>),
    /// An owed call settled, unless someone else settled it first; a refusal is noted.
    Settle {
        /// The outbox row.
        id: i64,
        /// The scoring service's refusal, if it refused.
        refusal: Option<String>,
    },
    /// A new policy, at the version after the one in force.
    InsertPolicy(Box<policy::ActiveModel>),
}

/// What one command writes: its notice, if it adds one, and its rows.
#[derive(Debug, Default)]
pub struct BookWrite {
    /// The notice.
    pub notice: Option<Notice>,
    /// The rows.
    pub rows: Vec<Row>,
}

impl Book {
    /// An accepted command: its rows and, with `notice`, the notice numbered after `book` (the
    /// book then moves on to it), and its answer.
    pub fn change<R>(book: u64, notice: Option<NoticeDraft>, rows: Vec<Row>, response: R) -> Decision<Book, R> {
        let notice = notice.map(|draft| draft.numbered(book + 1));
        let published = notice.as_ref().map(|notice| {
            let live =
                LiveNotice { event: Some(notice.event.clone()), audience: notice.audience.iter().cloned().collect() };
            Bytes::from(encode(&live))
        });
        let next = if notice.is_some() { book + 1 } else { book };
        Decision::Changed(Change {
            next,
            write: BookWrite { notice, rows },
            response,
            live: LiveWrite::Replace,
            published,
        })
    }
}

/// A notice before it is numbered.
#[derive(Debug)]
pub struct NoticeDraft {
    /// When it happened.
    pub at: DateTime<Utc>,
    /// Who acted.
    pub actor: String,
    /// The ruling concerned.
    pub ruling_id: String,
    /// The appeal concerned, if any.
    pub appeal_id: Option<String>,
    /// The score target's key.
    pub target_key: String,
    /// What happened.
    pub event: pb::appeal_event::Event,
    /// The players it is for.
    pub audience: BTreeSet<String>,
}

impl NoticeDraft {
    fn numbered(self, sequence: u64) -> Notice {
        Notice {
            actor: self.actor,
            ruling_id: self.ruling_id,
            appeal_id: self.appeal_id,
            target_key: self.target_key,
            audience: self.audience,
            event: pb::AppealEvent { sequence, occurred_at: Some(timestamp(self.at)), event: Some(self.event) },
        }
    }
}

impl Aggregate for Book {
    type State = u64;
    type Write = BookWrite;
    const NAME: &'static str = "appeals record";
    const LIVE_HOLDS_STATE: bool = false;

    fn version(state: &u64) -> u64 {
        *state
    }

    fn live_key(&self, _id: &str) -> String {
        "appeals:{notices}:head".to_owned()
    }

    fn channel(&self, _id: &str) -> String {
        store::CHANNEL.to_owned()
    }

    fn to_live(&self, state: &u64) -> Bytes {
        Bytes::from(state.to_string())
    }

    fn state_of_live(&self, _id: &str, _version: u64, _live: &[u8]) -> Result<Option<u64>, ServiceError> {
        Ok(None)
    }

    async fn read_journal(&self, db: &Db, _id: &str, _known: Option<u64>) -> Result<u64, ServiceError> {
        store::last_sequence(db).await
    }

    async fn journal_version(&self, db: &Db, _id: &str) -> Result<u64, ServiceError> {
        store::last_sequence(db).await
    }

    async fn write(&self, txn: &DatabaseTransaction, writes: Vec<&BookWrite>) -> Result<(), WriteError> {
        for write in writes {
            if let Some(notice) = &write.notice {
                add_notice(txn, notice).await?;
            }
            for row in &write.rows {
                write_row(txn, row).await?;
            }
        }
        Ok(())
    }
}

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Moves the counter to the notice's number (only from the one before: else another command
/// came first) and adds the notice and its audience.
async fn add_notice(txn: &DatabaseTransaction, notice: &Notice) -> Result<(), WriteError> {
    let sequence = notice.event.sequence;
    let moved = stream::Entity::update_many()
        .col_expr(stream::Column::LastSequence, Expr::value(signed(sequence)))
        .filter(stream::Column::Stream.eq(store::STREAM))
        .filter(stream::Column::LastSequence.eq(signed(sequence.saturating_sub(1))))
        .exec(txn)
        .await?;
    if moved.rows_affected != 1 {
        return Err(WriteError::Conflict);
    }
    let kind = notice.event.event.as_ref().map_or("unknown", store::kind_name);
    let at = notice.event.occurred_at.as_ref().and_then(crate::records::from_timestamp).unwrap_or_else(Utc::now);
    event::Entity::insert(event::ActiveModel {
        sequence: Set(signed(sequence)),
        occurred_at: Set(at),
        actor: Set(notice.actor.clone()),
        kind: Set(kind.to_owned()),
        ruling_id: Set(notice.ruling_id.clone()),
        appeal_id: Set(notice.appeal_id.clone()),
        target_key: Set(notice.target_key.clone()),
        event: Set(encode(&notice.event)),
    })
    .exec_without_returning(txn)
    .await?;
    if !notice.audience.is_empty() {
        let audience = notice.audience.iter().map(|player| event_audience::ActiveModel {
            sequence: Set(signed(sequence)),
            player_id: Set(player.clone()),
        });
        event_audience::Entity::insert_many(audience).exec_without_returning(txn).await?;
    }
    Ok(())
}

/// An appeal's row as `appeal` now stands, with nothing parked on it.
fn standing(appeal: &pb::Appeal, now: DateTime<Utc>) -> appeal::ActiveModel {
    let status = pb::AppealStatus::try_from(appeal.status).unwrap_or(pb::AppealStatus::Unspecified);
    appeal::ActiveModel {
        status: Set(status_name(status).to_owned()),
        appeal: Set(encode(appeal)),
        version: Set(signed(appeal.version)),
        ..unparked(now)
    }
}

/// An appeal's row with no decision parked on it.
fn unparked(now: DateTime<Utc>) -> appeal::ActiveModel {
    appeal::ActiveModel {
        pending_appeal: Set(None),
        pending_scope: Set(None),
        pending_key: Set(None),
        pending_hash: Set(None),
        updated_at: Set(now),
        ..Default::default()
    }
}

/// Fails the write as a conflict unless exactly one row moved.
fn one(moved: u64) -> Result<(), WriteError> {
    if moved == 1 { Ok(()) } else { Err(WriteError::Conflict) }
}

async fn write_row(txn: &DatabaseTransaction, row: &Row) -> Result<(), WriteError> {
    let now = Utc::now();
    match row {
        Row::InsertRuling(model) => {
            ruling::Entity::insert((**model).clone()).exec_without_returning(txn).await?;
        }
        Row::InsertParties(ruling_id, players) => {
            if !players.is_empty() {
                let rows = players.iter().map(|player| ruling_party::ActiveModel {
                    ruling_id: Set(ruling_id.clone()),
                    player_id: Set(player.clone()),
                });
                ruling_party::Entity::insert_many(rows).exec_without_returning(txn).await?;
            }
        }
        Row::RecordRuling { ruling_id, sequence, score_version } => {
            let moved = ruling::Entity::update_many()
                .set(ruling::ActiveModel {
                    status: Set(ruling::RECORDED.to_owned()),
                    sequence: Set(Some(signed(*sequence))),
                    score_version: Set(score_version.clone()),
                    ..Default::default()
                })
                .filter(ruling::Column::RulingId.eq(ruling_id))
                .filter(ruling::Column::Status.eq(ruling::PENDING))
                .exec(txn)
                .await?;
            one(moved.rows_affected)?;
        }
        Row::DropPendingRuling(ruling_id) => {
            ruling::Entity::delete_many()
                .filter(ruling::Column::RulingId.eq(ruling_id))
                .filter(ruling::Column::Status.eq(ruling::PENDING))
                .exec(txn)
                .await?;
        }
        Row::InsertAppeal(model) => {
            appeal::Entity::insert((**model).clone()).exec_without_returning(txn).await?;
        }
        Row::UpdateAppeal { from_version, appeal } => {
            let moved = appeal::Entity::update_many()
                .set(standing(appeal, now))
                .filter(appeal::Column::AppealId.eq(&appeal.appeal_id))
                .filter(appeal::Column::Version.eq(*from_version))
                // A decision parked meanwhile (by another process) is not overwritten.
                .filter(appeal::Column::PendingAppeal.is_null())
                .exec(txn)
                .await?;
            one(moved.rows_affected)?;
        }
        Row::ParkDecision { appeal_id, from_version, decided, key: (scope, key, hash) } => {
            let moved = appeal::Entity::update_many()
                .set(appeal::ActiveModel {
                    pending_appeal: Set(Some(decided.clone())),
                    pending_scope: Set(Some(scope.clone())),
                    pending_key: Set(Some(key.clone())),
                    pending_hash: Set(Some(hash.clone())),
                    updated_at: Set(now),
                    ..Default::default()
                })
                .filter(appeal::Column::AppealId.eq(appeal_id))
                .filter(appeal::Column::Version.eq(*from_version))
                .filter(appeal::Column::PendingAppeal.is_null())
                .exec(txn)
                .await?;
            one(moved.rows_affected)?;
        }
        Row::RecordDecision { appeal, key } => {
            let moved = appeal::Entity::update_many()
                .set(standing(appeal, now))
                .filter(appeal::Column::AppealId.eq(&appeal.appeal_id))
                .filter(appeal::Column::PendingKey.eq(key.as_str()))
                .exec(txn)
                .await?;
            one(moved.rows_affected)?;
        }
        Row::ClearDecision(appeal_id) => {
            appeal::Entity::update_many()
                .set(unparked(now))
                .filter(appeal::Column::AppealId.eq(appeal_id))
                .exec(txn)
                .await?;
        }
        Row::Owe(model) => {
            outbox::Entity::insert((**model).clone()).exec_without_returning(txn).await?;
        }
        Row::Settle { id, refusal } => {
            let mut update = outbox::Entity::update_many()
                .col_expr(outbox::Column::DeliveredAt, Expr::value(now))
                .filter(outbox::Column::Id.eq(*id))
                .filter(outbox::Column::DeliveredAt.is_null());
            if let Some(refusal) = refusal {
                update = update.col_expr(outbox::Column::LastError, Expr::value(refusal.clone()));
            }
            one(update.exec(txn).await?.rows_affected)?;
        }
        Row::InsertPolicy(model) => {
            policy::Entity::insert((**model).clone()).exec_without_returning(txn).await?;
        }
    }
    Ok(())
}
