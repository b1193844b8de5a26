//! Filing an appeal against a ruling (a player for himself, or the director for a player) and
//! withdrawing it before it is decided. Kept apart from the committee's part, which begins once an
//! appeal is filed.

use api::appeals::v1 as pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::{Principal, Role};
use platform::runtime::Decision;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use super::rows::appeal_moved;
use super::{Appeals, idempotency, require_key, required_text};
use crate::book::{Book, NoticeDraft, Row};
use crate::entity::appeal;
use crate::records::{
    Parties, decode, elapsed, encode, from_timestamp, request_hash, ruling_kind, status_name, timestamp,
};
use crate::store;

impl Appeals {
    /// Files an appeal: a player for himself, or the director for a player (Law 92C).
    #[tracing::instrument(skip_all, fields(ruling_id = %request.ruling_id, caller = %principal.subject))]
    pub async fn file_appeal(
        &self,
        principal: &Principal,
        request: pb::FileAppealRequest,
    ) -> Result<pb::FileAppealResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let appellant = if principal.has(Role::Arbiter) {
            required_text("appellant_player_id", &request.appellant_player_id, "the player the director files for")?
                .to_owned()
        } else if request.appellant_player_id.is_empty() || request.appellant_player_id == principal.subject {
            principal.subject.clone()
        } else {
            return Err(ServiceError::PermissionDenied(format!(
                "{} may appeal only for himself; the director files an appeal for another player (Law 92C)",
                principal.subject
            )));
        };
        let scope = format!("appeals.FileAppeal/{}", principal.subject);
        let idempotency = idempotency(scope, &key, request_hash(&request));
        let (request, appellant) = (&request, &appellant);
        self.on_book(Some(&idempotency), |book| self.decide_filing(book, principal, request, appellant)).await
    }

    /// Files the appeal on the book as it stands: the ruling may be appealed, in time, by this
    /// appellant, and no other appeal against it is open or decided.
    async fn decide_filing(
        &self,
        book: u64,
        principal: &Principal,
        request: &pb::FileAppealRequest,
        appellant: &str,
    ) -> Result<Decision<Book, pb::FileAppealResponse>, ServiceError> {
        let grounds = required_text("grounds", &request.grounds, "the grounds of the appeal")?.to_owned();
        let ruling_row = self.recorded_ruling(&request.ruling_id).await?;
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        let form = parties.form.form();
        let policy_row = store::policy_version(&self.db, ruling_row.policy_version).await?;
        let policy = store::policy_rules(&policy_row)?;

        // Who hears it: the committee, or in duplicate without one the Director in charge (Law 93A).
        // A rubber whose players agreed their own committee has a procedure "agreed to ... in
        // advance" even where the club published none (`laws::committee::game_bench`).
        let agreed = !form.is_duplicate() && self.game_agreed_committee(&ruling).await?;
        let heard_by = match laws::committee::game_bench(agreed) {
            Some(bench) => bench,
            None => crate::procedure::heard_by(&policy_row, form)?,
        };
        laws::appeals::check_appealable(form, ruling_kind("kind", ruling.kind)?).map_err(ServiceError::rule)?;
        let mut concurring: Vec<String> = Vec::new();
        for player in &request.concurring_player_ids {
            if !player.is_empty() && player != appellant && !concurring.contains(player) {
                concurring.push(player.clone());
            }
        }
        let concurring_refs: Vec<&str> = concurring.iter().map(String::as_str).collect();
        parties.check_appellant(appellant, &concurring_refs)?;

        let now = Utc::now();
        let start = if form.is_duplicate() {
            let session = self.scoring.session(&ruling_row.score_owner).await?;
            session.scores_published_at.as_ref().and_then(from_timestamp)
        } else {
            Some(ruling_row.ruled_at)
        };
        policy
            .check_time_limit(form, start.map(|start| elapsed(start, now)))
            .map_err(|refusal| store::refused_under(&policy_row, refusal))?;
        let options = crate::procedure::options_of(&policy_row)?;
        let deposit = crate::deposits::lodge(&policy_row, &options, form, request.deposit.as_ref(), now)?;
        let (limit, _) = policy.time_limit(form);
        let deadline = start.and_then(|start| chrono::Duration::from_std(limit).ok().map(|limit| start + limit));

        let open = appeal::Entity::find()
            .filter(appeal::Column::RulingId.eq(&ruling_row.ruling_id))
            .filter(appeal::Column::Status.is_in(["filed", "heard", "decided"]))
            .one(&self.db)
            .await?;
        if let Some(open) = open {
            return Err(ServiceError::FailedPrecondition(if open.status == "decided" {
                format!(
                    "ruling {} was decided on appeal {}; the committee's decision is final at the club",
                    ruling_row.ruling_id, open.appeal_id
                )
            } else {
                format!(
                    "appeal {} against ruling {} is already {}; withdraw it or wait for its decision",
                    open.appeal_id, ruling_row.ruling_id, open.status
                )
            }));
        }
        let appeal = pb::Appeal {
            appeal_id: uuid::Uuid::now_v7().to_string(),
            ruling_id: ruling_row.ruling_id.clone(),
            appellant_player_id: appellant.to_owned(),
            concurring_player_ids: concurring,
            grounds,
            status: pb::AppealStatus::Filed as i32,
            filed_at: Some(timestamp(now)),
            deadline: deadline.map(timestamp),
            hearing: None,
            decision: None,
            withdrawn_at: None,
            version: 1,
            withdrawal_reason: String::new(),
            heard_by: crate::procedure::body_message(heard_by),
            deposit,
            review: None,
            further_appeal: None,
            ruling_in_force_id: ruling_row.ruling_id.clone(),
        };
        let row = appeal::ActiveModel {
            appeal_id: Set(appeal.appeal_id.clone()),
            ruling_id: Set(appeal.ruling_id.clone()),
            status: Set(status_name(pb::AppealStatus::Filed).to_owned()),
            // The notice that files it.
            sequence: Set(i64::try_from(book + 1).map_err(ServiceError::internal)?),
            appeal: Set(encode(&appeal)),
            version: Set(1),
            pending_appeal: Set(None),
            pending_scope: Set(None),
            pending_key: Set(None),
            pending_hash: Set(None),
            updated_at: Set(now),
        };
        let notice = NoticeDraft {
            at: now,
            actor: principal.subject.clone(),
            ruling_id: ruling_row.ruling_id.clone(),
            appeal_id: Some(appeal.appeal_id.clone()),
            target_key: ruling_row.target_key.clone(),
            event: pb::appeal_event::Event::AppealFiled(appeal.clone()),
            audience: parties.everyone(),
        };
        let answer = pb::FileAppealResponse { appeal: Some(appeal) };
        Ok(Book::change(book, Some(notice), vec![Row::InsertAppeal(Box::new(row))], answer))
    }

    /// Withdraws an appeal not yet decided: the appellant, or the director for him.
    #[tracing::instrument(skip_all, fields(appeal_id = %request.appeal_id, caller = %principal.subject))]
    pub async fn withdraw_appeal(
        &self,
        principal: &Principal,
        request: pb::WithdrawAppealRequest,
    ) -> Result<pb::WithdrawAppealResponse, ServiceError> {
        let request = &request;
        self.on_book(None, |book| self.decide_withdrawal(book, principal, request)).await
    }

    async fn decide_withdrawal(
        &self,
        book: u64,
        principal: &Principal,
        request: &pb::WithdrawAppealRequest,
    ) -> Result<Decision<Book, pb::WithdrawAppealResponse>, ServiceError> {
        let row = self.appeal_row(&request.appeal_id).await?;
        let mut appeal: pb::Appeal = decode("appeal", &row.appeal)?;
        if !principal.has(Role::Arbiter) && appeal.appellant_player_id != principal.subject {
            return Err(ServiceError::PermissionDenied(format!(
                "only the appellant {} or the director may withdraw appeal {}",
                appeal.appellant_player_id, row.appeal_id
            )));
        }
        let ruling_row = self.recorded_ruling(&row.ruling_id).await?;
        let parties = Parties::from_json(&ruling_row.parties)?;
        match row.status.as_str() {
            // Withdrawing again changes nothing: the first withdrawal stands.
            "withdrawn" => return Ok(Decision::Unchanged(pb::WithdrawAppealResponse { appeal: Some(appeal) })),
            "decided" => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is decided; a decided appeal cannot be withdrawn",
                    row.appeal_id
                )));
            }
            _ if row.pending_appeal.is_some() => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "appeal {} is being decided; its decision is being applied to the score",
                    row.appeal_id
                )));
            }
            _ => {}
        }
        let now = Utc::now();
        appeal.status = pb::AppealStatus::Withdrawn as i32;
        appeal.withdrawn_at = Some(timestamp(now));
        appeal.withdrawal_reason = request.reason.trim().to_owned();
        let returned = laws::appeal_procedure::DepositFate::Returned;
        crate::deposits::settle(&mut appeal, returned, "returned: the appeal was withdrawn", now);
        appeal.version = row.version.unsigned_abs() + 1;
        let event = pb::appeal_event::Event::AppealWithdrawn(appeal.clone());
        let by = (principal.subject.as_str(), now);
        let (notice, update) = appeal_moved(by, &row, &ruling_row.target_key, parties.everyone(), &appeal, event);
        Ok(Book::change(book, Some(notice), vec![update], pb::WithdrawAppealResponse { appeal: Some(appeal) }))
    }
}
