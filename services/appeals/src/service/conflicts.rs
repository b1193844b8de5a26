//! The conflicts the club declares for its committee members: a player, a partnership, a table or
//! an appeal a member may not judge ([`laws::committee::declared_conflicts`]). The administration
//! declares and withdraws them; a hearing or decision naming a member conflicted for the appeal is
//! refused naming the conflict ([`super::panel`]). Players a conflict names are asked of
//! membership (docs/trust.md).

use api::appeals::v1 as pb;
use chrono::Utc;
use laws::committee::Declared;
use platform::ServiceError;
use platform::auth::Principal;
use platform::page::Page;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::{Appeals, required_text};
use crate::entity::declared_conflict as conflict;
use crate::records::timestamp;

/// The contract's conflict of a stored row.
fn conflict_message(row: &conflict::Model) -> pb::DeclaredConflict {
    use pb::declared_conflict::Subject;
    let subject = match row.kind.as_str() {
        "player" => Some(Subject::PlayerId(row.subject.clone())),
        "partnership" => Some(Subject::Partnership(pb::Partnership {
            first_player_id: row.subject.clone(),
            second_player_id: row.subject_other.clone().unwrap_or_default(),
        })),
        "table" => Some(Subject::TableId(row.subject.clone())),
        "appeal" => Some(Subject::AppealId(row.subject.clone())),
        _ => None,
    };
    pb::DeclaredConflict {
        conflict_id: row.conflict_id.clone(),
        member_id: row.member_id.clone(),
        subject,
        reason: row.reason.clone(),
        declared_by: row.declared_by.clone(),
        declared_at: Some(timestamp(row.declared_at)),
    }
}

/// The laws crate's declaration of a stored row, `None` for a kind this version does not know.
pub(crate) fn declared(row: &conflict::Model) -> Option<Declared<'_>> {
    match row.kind.as_str() {
        "player" => Some(Declared::Player(&row.subject)),
        "partnership" => Some(Declared::Partnership(&row.subject, row.subject_other.as_deref().unwrap_or_default())),
        "table" => Some(Declared::Table(&row.subject)),
        "appeal" => Some(Declared::Appeal(&row.subject)),
        _ => None,
    }
}

/// What a declaration is for, in words, for a refusal: "player nora", "table table-1".
pub(crate) fn describe(row: &conflict::Model) -> String {
    match (row.kind.as_str(), row.subject_other.as_deref()) {
        ("partnership", Some(other)) => format!("the partnership {} and {other}", row.subject),
        (kind, _) => format!("{kind} {}", row.subject),
    }
}

/// Every conflict declared for `members`.
pub(crate) async fn conflicts_of(appeals: &Appeals, members: &[&str]) -> Result<Vec<conflict::Model>, ServiceError> {
    Ok(conflict::Entity::find()
        .filter(conflict::Column::MemberId.is_in(members.iter().map(|m| (*m).to_owned())))
        .all(&appeals.db)
        .await?)
}

impl Appeals {
    /// Declares a member conflicted.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject))]
    pub async fn declare_conflict(
        &self,
        principal: &Principal,
        request: pb::DeclareConflictRequest,
    ) -> Result<pb::DeclareConflictResponse, ServiceError> {
        use pb::declared_conflict::Subject;
        let key = request.idempotency_key.clone();
        let given = request.conflict.clone().ok_or_else(|| ServiceError::invalid("conflict", "required"))?;
        let member = required_text("conflict.member_id", &given.member_id, "the committee member")?.to_owned();
        let reason = required_text("conflict.reason", &given.reason, "why the member may not judge it")?.to_owned();
        let (kind, subject, other) = match given.subject.as_ref() {
            None => {
                return Err(ServiceError::invalid("conflict.subject", "a player, partnership, table or appeal"));
            }
            Some(Subject::PlayerId(player)) => {
                let player = required_text("conflict.player_id", player, "the player")?.to_owned();
                self.check_registered("conflict.player_id", &player).await?;
                ("player", player, None)
            }
            Some(Subject::Partnership(pair)) => {
                let first = required_text("conflict.partnership.first_player_id", &pair.first_player_id, "a player")?;
                let second =
                    required_text("conflict.partnership.second_player_id", &pair.second_player_id, "a player")?;
                if first == second {
                    return Err(ServiceError::invalid("conflict.partnership", "two different players"));
                }
                self.check_registered("conflict.partnership.first_player_id", first).await?;
                self.check_registered("conflict.partnership.second_player_id", second).await?;
                ("partnership", first.to_owned(), Some(second.to_owned()))
            }
            Some(Subject::TableId(table)) => {
                ("table", required_text("conflict.table_id", table, "the table")?.to_owned(), None)
            }
            Some(Subject::AppealId(appeal)) => {
                let appeal = self.appeal_row(appeal).await?;
                ("appeal", appeal.appeal_id, None)
            }
        };
        self.check_committee_member("conflict.member_id", &member).await?;
        let row = conflict::Model {
            conflict_id: uuid::Uuid::new_v4().to_string(),
            member_id: member,
            kind: kind.to_owned(),
            subject,
            subject_other: other,
            reason,
            declared_by: principal.subject.clone(),
            declared_at: Utc::now(),
        };
        let answer = pb::DeclareConflictResponse { conflict: Some(conflict_message(&row)) };
        super::insert_once(
            &self.db,
            "DeclareConflict",
            principal,
            &key,
            &request,
            conflict::ActiveModel::from(row),
            answer,
            None,
        )
        .await
    }

    /// Withdraws a declared conflict.
    #[tracing::instrument(skip_all, fields(admin = %principal.subject, conflict_id = %request.conflict_id))]
    pub async fn withdraw_conflict(
        &self,
        principal: &Principal,
        request: pb::WithdrawConflictRequest,
    ) -> Result<pb::WithdrawConflictResponse, ServiceError> {
        let id = required_text("conflict_id", &request.conflict_id, "the conflict")?;
        let row = conflict::Entity::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("declared conflict {id}")))?;
        conflict::Entity::delete_by_id(row.conflict_id.clone()).exec(&self.db).await?;
        tracing::info!(member = %row.member_id, by = %principal.subject, "declared conflict withdrawn");
        Ok(pb::WithdrawConflictResponse { conflict: Some(conflict_message(&row)) })
    }

    /// Lists declared conflicts, newest first, a page at a time.
    pub async fn list_conflicts(
        &self,
        request: pb::ListConflictsRequest,
    ) -> Result<pb::ListConflictsResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let mut query = conflict::Entity::find();
        if !request.member_id.trim().is_empty() {
            query = query.filter(conflict::Column::MemberId.eq(request.member_id.trim()));
        }
        let mut rows = query
            .order_by_desc(conflict::Column::DeclaredAt)
            .order_by_desc(conflict::Column::ConflictId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let next = page.response(&mut rows);
        Ok(pb::ListConflictsResponse { conflicts: rows.iter().map(conflict_message).collect(), page: next })
    }
}
