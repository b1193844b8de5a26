//! The appeals service's storage: notices and their audiences, stored answers to idempotent
//! commands, published policies, and the committee's principals. Commands write through the book
//! ([`crate::book`]), so that a command's changes, its notice and its stored answer commit
//! together or not at all.

use std::collections::BTreeSet;
use std::time::Duration;

use api::appeals::v1 as pb;
use chrono::{DateTime, Utc};
use laws::appeals::AppealPolicy;
use platform::ServiceError;
use platform::db::Db;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::entity::{committee_member, event, event_audience, policy, stream};
use crate::records::{duration, timestamp};

/// The one notice stream of the service.
pub const STREAM: &str = "appeals";

/// The live channel notices are published on after they commit.
pub const CHANNEL: &str = "appeals:{notices}";

/// What a watcher receives on the live channel: the notice and who it is for.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LiveNotice {
    /// The notice.
    #[prost(message, optional, tag = "1")]
    pub event: Option<pb::AppealEvent>,
    /// The players it is for (staff and the committee see every notice).
    #[prost(string, repeated, tag = "2")]
    pub audience: Vec<String>,
}

/// Creates the stream's counter and the first policy if they do not exist (a new database, or
/// one created before this service was deployed). Safe to run from several processes at once.
pub async fn seed(db: &Db, first_policy: &AppealPolicy) -> Result<(), ServiceError> {
    stream::Entity::insert(stream::ActiveModel { stream: Set(STREAM.to_owned()), last_sequence: Set(0) })
        .on_conflict(OnConflict::column(stream::Column::Stream).do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
    policy::Entity::insert(policy_row(1, first_policy, Utc::now(), "configuration"))
        .on_conflict(OnConflict::column(policy::Column::Version).do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The row of a policy published as `version`.
pub fn policy_row(version: i64, policy: &AppealPolicy, at: DateTime<Utc>, by: &str) -> policy::ActiveModel {
    let seconds = |d: Duration| i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
    policy::ActiveModel {
        version: Set(version),
        appeals_allowed: Set(policy.appeals_allowed()),
        rubber_time_limit_secs: Set(seconds(policy.rubber_time_limit())),
        duplicate_time_limit_secs: Set(seconds(policy.duplicate_time_limit())),
        committee_size: Set(i32::try_from(policy.committee_size()).unwrap_or(i32::MAX)),
        published_at: Set(at),
        published_by: Set(by.to_owned()),
        // Set by the publishing command (`crate::procedure`); a seeded policy has none.
        procedure: Set(None),
    }
}

/// The laws crate's policy of a stored row.
pub fn policy_rules(row: &policy::Model) -> Result<AppealPolicy, ServiceError> {
    let seconds = |s: i64| Duration::from_secs(s.unsigned_abs());
    AppealPolicy::new(
        row.appeals_allowed,
        seconds(row.rubber_time_limit_secs),
        seconds(row.duplicate_time_limit_secs),
        u32::try_from(row.committee_size).unwrap_or(0),
    )
    .map_err(|e| ServiceError::internal(format!("stored policy {}: {e}", row.version)))
}

/// A refusal under a stored policy, naming the policy: which version applied, and when and by
/// whom it was published. A ruling is appealed under the policy in force when it was recorded
/// ("agreed to or published in advance"), so a refusal must not read as if the current policy
/// said so when a later one has been published since.
pub fn refused_under(row: &policy::Model, refusal: impl std::fmt::Display + laws::CitesLaw) -> ServiceError {
    let law = refusal.law();
    ServiceError::Rule {
        message: format!(
            "{refusal}: the policy in force when the ruling was recorded is version {}, published {} by {}",
            row.version,
            row.published_at.format("%Y-%m-%d %H:%M:%S UTC"),
            row.published_by
        ),
        law,
    }
}

/// The contract's message of a stored policy.
pub fn policy_message(row: &policy::Model) -> pb::AppealPolicy {
    pb::AppealPolicy {
        appeals_allowed: row.appeals_allowed,
        rubber_time_limit: Some(duration(row.rubber_time_limit_secs)),
        duplicate_time_limit: Some(duration(row.duplicate_time_limit_secs)),
        committee_size: u32::try_from(row.committee_size).unwrap_or(0),
        published_at: Some(timestamp(row.published_at)),
        version: row.version.unsigned_abs(),
        procedure: crate::procedure::stored_message(row),
    }
}

/// The policy in force: the last one published.
pub async fn current_policy(db: &impl ConnectionTrait) -> Result<policy::Model, ServiceError> {
    policy::Entity::find()
        .order_by_desc(policy::Column::Version)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::internal("no appeal policy: the service did not seed one"))
}

/// The policy published as `version`.
pub async fn policy_version(db: &impl ConnectionTrait, version: i64) -> Result<policy::Model, ServiceError> {
    policy::Entity::find_by_id(version)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::internal(format!("appeal policy {version} is missing")))
}

/// The last notice sequence number given out.
pub async fn last_sequence(db: &impl ConnectionTrait) -> Result<u64, ServiceError> {
    let row = stream::Entity::find_by_id(STREAM.to_owned()).one(db).await?;
    Ok(row.map_or(0, |row| row.last_sequence.unsigned_abs()))
}

/// The stored kind of a notice.
pub fn kind_name(event: &pb::appeal_event::Event) -> &'static str {
    use pb::appeal_event::Event;
    match event {
        Event::RulingRecorded(_) => "ruling_recorded",
        Event::AppealFiled(_) => "appeal_filed",
        Event::AppealWithdrawn(_) => "appeal_withdrawn",
        Event::AppealHeard(_) => "appeal_heard",
        Event::AppealDecided(_) => "appeal_decided",
        Event::AppealReviewed(_) => "appeal_reviewed",
        Event::AppealTakenFurther(_) => "appeal_taken_further",
    }
}

/// The notices after `after`, in order, at most `limit`, each with whether `player` is in its
/// audience (`None`: the caller sees everything).
pub async fn events_after(
    db: &impl ConnectionTrait,
    after: u64,
    limit: u64,
    player: Option<&str>,
) -> Result<Vec<(pb::AppealEvent, bool)>, ServiceError> {
    let after = i64::try_from(after).unwrap_or(i64::MAX);
    let rows = event::Entity::find()
        .filter(event::Column::Sequence.gt(after))
        .order_by_asc(event::Column::Sequence)
        .limit(limit)
        .all(db)
        .await?;
    let Some(last) = rows.last().map(|row| row.sequence) else {
        return Ok(Vec::new());
    };
    let visible: BTreeSet<i64> = match player {
        None => BTreeSet::new(),
        Some(player) => event_audience::Entity::find()
            .filter(event_audience::Column::PlayerId.eq(player))
            .filter(event_audience::Column::Sequence.gt(after))
            .filter(event_audience::Column::Sequence.lte(last))
            .all(db)
            .await?
            .into_iter()
            .map(|row| row.sequence)
            .collect(),
    };
    rows.into_iter()
        .map(|row| {
            let message = crate::records::decode::<pb::AppealEvent>("notice", &row.event)?;
            Ok((message, player.is_none() || visible.contains(&row.sequence)))
        })
        .collect()
}

/// The notices about one score target, in order.
pub async fn events_of_target(db: &impl ConnectionTrait, key: &str) -> Result<Vec<event::Model>, ServiceError> {
    Ok(event::Entity::find()
        .filter(event::Column::TargetKey.eq(key))
        .order_by_asc(event::Column::Sequence)
        .all(db)
        .await?)
}

pub use platform::store::stored_response;

/// Records that `subject` acted with the committee role.
pub async fn note_committee_member(db: &impl ConnectionTrait, subject: &str) -> Result<(), ServiceError> {
    committee_member::Entity::insert(committee_member::ActiveModel {
        subject: Set(subject.to_owned()),
        first_seen_at: Set(Utc::now()),
    })
    .on_conflict(OnConflict::column(committee_member::Column::Subject).do_nothing().to_owned())
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// Those of `members` who have never acted with the committee role.
pub async fn unknown_committee_members(
    db: &impl ConnectionTrait,
    members: &[String],
) -> Result<Vec<String>, ServiceError> {
    let known: BTreeSet<String> = committee_member::Entity::find()
        .filter(committee_member::Column::Subject.is_in(members.iter().cloned()))
        .all(db)
        .await?
        .into_iter()
        .map(|row| row.subject)
        .collect();
    Ok(members.iter().filter(|m| !known.contains(*m)).cloned().collect())
}
