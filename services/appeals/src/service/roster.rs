//! The club's appeals committee roster, which the administration keeps (the Club Appeals
//! Committee: "a club should establish an Appeals Committee to review decisions of the Arbiter"):
//! each member for a term, one chair at a time ([`laws::committee`]). A member is a player on
//! membership's register, or a staff account holding the committee role (`staff:<name>`, whom
//! membership never registers as a player): either is asked of membership when he is added
//! (docs/trust.md). A hearing names only members whose term covers it ([`super::panel`]); the
//! member who records it signs in with a committee account.

use api::appeals::v1 as pb;
use chrono::{DateTime, Utc};
use laws::committee::{RosterEntry, Term};
use platform::ServiceError;
use platform::auth::Principal;
use platform::page::Page;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseTransaction, DbBackend, DbErr, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, TransactionTrait,
};

use super::{Appeals, required_text};
use crate::entity::committee_roster as roster;
use crate::records::{from_timestamp, timestamp};

/// The subject of a staff account's tokens: `staff:<name>`.
const STAFF_SUBJECT_PREFIX: &str = "staff:";

/// The contract's entry of a stored row.
pub(crate) fn entry_message(row: &roster::Model) -> pb::RosterEntry {
    pb::RosterEntry {
        entry_id: row.entry_id.clone(),
        member_id: row.member_id.clone(),
        chair: row.chair,
        term_from: Some(timestamp(row.term_from)),
        term_until: row.term_until.map(timestamp),
        version: row.version.unsigned_abs(),
        updated_by: row.updated_by.clone(),
        updated_at: Some(timestamp(row.updated_at)),
    }
}

/// The laws crate's term of a stored row.
pub(crate) fn term_of(row: &roster::Model) -> Result<Term, ServiceError> {
    Term::new(row.term_from.timestamp(), row.term_until.map(|t| t.timestamp()))
        .map_err(|e| ServiceError::internal(format!("stored roster entry {}: {e}", row.entry_id)))
}

/// Every roster entry of `members`.
pub(crate) async fn entries_of(appeals: &Appeals, members: &[&str]) -> Result<Vec<roster::Model>, ServiceError> {
    Ok(roster::Entity::find()
        .filter(roster::Column::MemberId.is_in(members.iter().map(|m| (*m).to_owned())))
        .all(&appeals.db)
        .await?)
}

/// Whether `members` are all on the roster for a hearing at `at` (`laws::committee::check_on_roster`).
pub(crate) async fn check_on_roster(
    appeals: &Appeals,
    members: &[&str],
    at: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let rows = entries_of(appeals, members).await?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in &rows {
        entries.push(RosterEntry { member: &row.member_id, chair: row.chair, term: term_of(row)? });
    }
    laws::committee::check_on_roster(members, &entries, at.timestamp()).map_err(ServiceError::rule)
}

/// A term as stored (its start and end) and as the laws crate reads it.
type Requested = (DateTime<Utc>, Option<DateTime<Utc>>, Term);

/// A term as a request gives it: `from` absent is now, `until` absent is open-ended.
fn requested_term(
    from: Option<&prost_types::Timestamp>,
    until: Option<&prost_types::Timestamp>,
    now: DateTime<Utc>,
) -> Result<Requested, ServiceError> {
    let instant = |field: &str, t: &prost_types::Timestamp| {
        from_timestamp(t).ok_or_else(|| ServiceError::invalid(field, "not a valid instant"))
    };
    let from = from.map(|t| instant("term_from", t)).transpose()?.unwrap_or(now);
    let until = until.map(|t| instant("term_until", t)).transpose()?;
    let term = Term::new(from.timestamp(), until.map(|t| t.timestamp()))
        .map_err(|_| ServiceError::invalid("term_until", "a term ends after it begins"))?;
    Ok((from, until, term))
}

/// Takes the roster's write lock in `txn`, so that the one-chair check and the write it guards are
/// not interleaved with another's: two administrators naming two chairs at once would otherwise
/// both pass the check. On Postgres a transaction-level advisory lock (every replica); on SQLite
/// the file's write lock, which a write that changes nothing takes (so the check reads after any
/// other writer committed).
async fn lock_roster(txn: &DatabaseTransaction) -> Result<(), DbErr> {
    let sql = match txn.get_database_backend() {
        // "committee roster" in ASCII, as the lock's key.
        DbBackend::Postgres => "SELECT pg_advisory_xact_lock(7161734765627285)",
        _ => "UPDATE appeals_committee_roster SET chair = chair WHERE 1 = 0",
    };
    txn.execute_unprepared(sql).await?;
    Ok(())
}

/// The check that the club has one chair at a time, under the roster's lock, for [`super::insert_once`].
fn one_chair_guard(term: Term) -> super::Guard {
    Box::new(move |txn| Box::pin(one_chair(txn, term)))
}

async fn one_chair(txn: &DatabaseTransaction, term: Term) -> Result<(), ServiceError> {
    lock_roster(txn).await?;
    Appeals::check_chair(txn, term, None).await
}

impl Appeals {
    /// Refuses a member membership does not know, or one inactive on its register.
    pub(crate) async fn check_registered(&self, field: &str, player_id: &str) -> Result<(), ServiceError> {
        match self.owners.player(player_id).await? {
            Some(player) if player.active => Ok(()),
            Some(_) => Err(ServiceError::FailedPrecondition(format!(
                "{field}: player {player_id} is inactive on the club's register"
            ))),
            None => Err(ServiceError::FailedPrecondition(format!(
                "{field}: membership has no player {player_id}; the desk registers him first"
            ))),
        }
    }

    /// Refuses a committee member membership does not know: a staff account (`staff:<name>`)
    /// without the committee role, or a player not on the register ([`Self::check_registered`]).
    pub(crate) async fn check_committee_member(&self, field: &str, member: &str) -> Result<(), ServiceError> {
        let Some(name) = member.strip_prefix(STAFF_SUBJECT_PREFIX) else {
            return self.check_registered(field, member).await;
        };
        let committee = api::common::v1::Role::Committee as i32;
        match self.owners.account(name).await? {
            Some(account) if account.roles.contains(&committee) => Ok(()),
            Some(_) => Err(ServiceError::FailedPrecondition(format!(
                "{field}: staff account {name} holds no committee role; the administrator gives it one first"
            ))),
            None => Err(ServiceError::FailedPrecondition(format!(
                "{field}: membership has no staff account {name}; the administrator creates it first"
            ))),
        }
    }

    /// Refuses a chair whose term overlaps another chair's (`laws::committee::check_one_chair`).
    async fn check_chair(conn: &impl ConnectionTrait, term: Term, except: Option<&str>) -> Result<(), ServiceError> {
        let chairs = roster::Entity::find().filter(roster::Column::Chair.eq(true)).all(conn).await?;
        let mut terms = Vec::new();
        for row in chairs.iter().filter(|row| Some(row.entry_id.as_str()) != except) {
            terms.push((row.member_id.as_str(), term_of(row)?));
        }
        laws::committee::check_one_chair(&terms, term).map_err(ServiceError::rule)
    }

    /// Adds a member to the roster for a term.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject, member = %request.member_id))]
    pub async fn add_roster_entry(
        &self,
        principal: &Principal,
        request: pb::AddRosterEntryRequest,
    ) -> Result<pb::AddRosterEntryResponse, ServiceError> {
        let member = required_text("member_id", &request.member_id, "the member's player id")?;
        let now = Utc::now();
        let (from, until, term) = requested_term(request.term_from.as_ref(), request.term_until.as_ref(), now)?;
        self.check_committee_member("member_id", member).await?;
        let guard = request.chair.then(|| one_chair_guard(term));
        let row = roster::Model {
            entry_id: uuid::Uuid::new_v4().to_string(),
            member_id: member.to_owned(),
            chair: request.chair,
            term_from: from,
            term_until: until,
            version: 1,
            updated_by: principal.subject.clone(),
            updated_at: now,
        };
        let answer = pb::AddRosterEntryResponse { entry: Some(entry_message(&row)) };
        let key = request.idempotency_key.clone();
        super::insert_once(
            &self.db,
            "AddRosterEntry",
            principal,
            &key,
            &request,
            roster::ActiveModel::from(row),
            answer,
            guard,
        )
        .await
    }

    /// The stored entry `entry_id`, NOT_FOUND if there is none.
    async fn roster_row(&self, entry_id: &str) -> Result<roster::Model, ServiceError> {
        let entry_id = required_text("entry_id", entry_id, "the roster entry")?;
        roster::Entity::find_by_id(entry_id.to_owned())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("roster entry {entry_id}")))
    }

    /// Changes an entry's chair and term, if it is still at the version the caller read.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject, entry_id = %request.entry_id))]
    pub async fn update_roster_entry(
        &self,
        principal: &Principal,
        request: pb::UpdateRosterEntryRequest,
    ) -> Result<pb::UpdateRosterEntryResponse, ServiceError> {
        let row = self.roster_row(&request.entry_id).await?;
        let now = Utc::now();
        let from = request.term_from.as_ref().or(Some(&timestamp(row.term_from))).cloned();
        let (from, until, term) = requested_term(from.as_ref(), request.term_until.as_ref(), now)?;
        let stale = || {
            ServiceError::Conflict(format!(
                "roster entry {} is at version {}, not {}; read it again",
                row.entry_id, row.version, request.expected_version
            ))
        };
        if row.version.unsigned_abs() != request.expected_version {
            return Err(stale());
        }
        let updated = roster::Model {
            chair: request.chair,
            term_from: from,
            term_until: until,
            version: row.version + 1,
            updated_by: principal.subject.clone(),
            updated_at: now,
            ..row.clone()
        };
        // The check and the update in one transaction, under the roster's lock.
        let txn = self.db.begin().await?;
        if request.chair {
            lock_roster(&txn).await?;
            Appeals::check_chair(&txn, term, Some(&row.entry_id)).await?;
        }
        let result = roster::Entity::update_many()
            .set(roster::ActiveModel {
                chair: Set(updated.chair),
                term_from: Set(updated.term_from),
                term_until: Set(updated.term_until),
                version: Set(updated.version),
                updated_by: Set(updated.updated_by.clone()),
                updated_at: Set(updated.updated_at),
                ..Default::default()
            })
            .filter(roster::Column::EntryId.eq(row.entry_id.as_str()))
            .filter(roster::Column::Version.eq(row.version))
            .exec(&txn)
            .await?;
        if result.rows_affected == 0 {
            return Err(stale());
        }
        txn.commit().await?;
        Ok(pb::UpdateRosterEntryResponse { entry: Some(entry_message(&updated)) })
    }

    /// Removes an entry; hearings already held stand.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject, entry_id = %request.entry_id))]
    pub async fn remove_roster_entry(
        &self,
        principal: &Principal,
        request: pb::RemoveRosterEntryRequest,
    ) -> Result<pb::RemoveRosterEntryResponse, ServiceError> {
        let row = self.roster_row(&request.entry_id).await?;
        roster::Entity::delete_by_id(row.entry_id.clone()).exec(&self.db).await?;
        tracing::info!(member = %row.member_id, by = %principal.subject, "roster entry removed");
        Ok(pb::RemoveRosterEntryResponse { entry: Some(entry_message(&row)) })
    }

    /// Lists the roster by member and term, a page at a time.
    pub async fn list_roster_entries(
        &self,
        request: pb::ListRosterEntriesRequest,
    ) -> Result<pb::ListRosterEntriesResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let mut query = roster::Entity::find();
        if !request.member_id.trim().is_empty() {
            query = query.filter(roster::Column::MemberId.eq(request.member_id.trim()));
        }
        if let Some(covering) = request.covering.as_ref() {
            let at =
                from_timestamp(covering).ok_or_else(|| ServiceError::invalid("covering", "not a valid instant"))?;
            query = query.filter(roster::Column::TermFrom.lte(at)).filter(
                sea_orm::Condition::any()
                    .add(roster::Column::TermUntil.is_null())
                    .add(roster::Column::TermUntil.gt(at)),
            );
        }
        let mut rows = query
            .order_by_asc(roster::Column::MemberId)
            .order_by_asc(roster::Column::TermFrom)
            .order_by_asc(roster::Column::EntryId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let next = page.response(&mut rows);
        Ok(pb::ListRosterEntriesResponse { entries: rows.iter().map(entry_message).collect(), page: next })
    }
}
