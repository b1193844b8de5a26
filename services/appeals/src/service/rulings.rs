//! Recording a ruling: the request checked, who played the deal looked up from the scoring
//! service, and the ruling written at once or, with an adjusted score, as pending until the
//! scoring service applies it. Kept apart from the appeals: a ruling stands on its own.

use std::collections::BTreeSet;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::convert::ProtoEnum;
use api::scoring::v1 as scoring_pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;
use platform::runtime::Decision;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use super::{Appeals, adjustment_of, idempotency, require_key, required_text};
use crate::book::{Book, NoticeDraft, Row};
use crate::delivery::{Delivered, TOPIC_RULING};
use crate::entity::ruling;
use crate::records::{
    ContestantRecord, FormRecord, Parties, cite, encode, request_hash, ruling_kind, target_key, timestamp,
};
use crate::store;

impl Appeals {
    /// Records a ruling (see the module docs for how an adjusted score reaches the score).
    #[tracing::instrument(skip_all, fields(arbiter = %principal.subject))]
    pub async fn record_ruling(
        &self,
        principal: &Principal,
        request: pb::RecordRulingRequest,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        let key = require_key(&request.idempotency_key)?.to_owned();
        let scope = format!("appeals.RecordRuling/{}", principal.subject);
        let hash = request_hash(&request);
        let idempotency = idempotency(scope.clone(), &key, hash.clone());
        if let Some(answer) = idempotency.first_answer(&self.db).await? {
            return Ok(answer);
        }
        if let Some(pending) = self.pending_ruling(&scope, &key, &hash).await? {
            return self.resume_ruling(&pending, &scope, &key, &hash).await;
        }

        let deal = request.deal.clone().ok_or_else(|| ServiceError::invalid("deal", "required"))?;
        let table_kind =
            common::TableKind::try_from(deal.kind)
                .ok()
                .filter(|k| *k != common::TableKind::Unspecified)
                .ok_or_else(|| ServiceError::invalid("deal.kind", "rubber, Chicago or duplicate is required"))?;
        let target = deal.score_target.clone().ok_or_else(|| ServiceError::invalid("deal.score_target", "required"))?;
        let target_key = target_key("deal.score_target", &target)?;
        let irregularity = required_text("irregularity", &request.irregularity, "the irregularity, in words")?;
        if request.laws.is_empty() {
            return Err(ServiceError::invalid("laws", "cite at least one Law the ruling applies"));
        }
        let laws = request
            .laws
            .iter()
            .enumerate()
            .map(|(i, citation)| cite(&format!("laws[{i}]"), citation))
            .collect::<Result<Vec<_>, _>>()?;
        ruling_kind("kind", request.kind)?;
        if request.offending_side != 0 {
            laws::Side::from_proto("offending_side", request.offending_side)?;
        }
        let adjustment = adjustment_of("decision", request.decision.as_ref())?;
        let (deal, parties, score_owner) = self.resolve_deal(deal, table_kind, &target, adjustment.is_some()).await?;

        let request = &request;
        let ruled = Ruled {
            principal,
            request,
            irregularity,
            laws: &laws,
            deal: &deal,
            parties: &parties,
            score_owner: &score_owner,
            key: (&scope, &key, &hash),
            table_kind,
            target_key: &target_key,
        };
        let Some(adjustment) = adjustment else {
            // No score changes: the ruling, its notice and the answer commit together.
            return self.on_book(Some(&idempotency), |book| self.decide_ruling(book, &ruled)).await;
        };
        // The adjusted score is owed to the scoring service: the ruling waits as pending (the book's
        // version stays: its notice comes once the score has changed).
        let (target, adjustment) = (&target, &adjustment);
        self.on_book(None, |book| self.pend_ruling(book, &ruled, target, adjustment)).await?;
        let pending = self
            .pending_ruling(&scope, &key, &hash)
            .await?
            .ok_or_else(|| ServiceError::internal("a pending ruling is missing after it was written"))?;
        self.resume_ruling(&pending, &scope, &key, &hash).await
    }

    /// The ruling and its row, as of now, under the policy in force.
    async fn ruling_row(&self, ruled: &Ruled<'_>) -> Result<(pb::Ruling, ruling::ActiveModel), ServiceError> {
        let Ruled {
            principal,
            request,
            irregularity,
            laws,
            deal,
            parties,
            score_owner,
            key: (scope, key, hash),
            table_kind,
            target_key,
        } = ruled;
        let policy = store::current_policy(&self.db).await?;
        let now = Utc::now();
        let ruling = pb::Ruling {
            ruling_id: uuid::Uuid::now_v7().to_string(),
            deal: Some((*deal).clone()),
            irregularity: (*irregularity).to_owned(),
            irregularity_id: request.irregularity_id.clone(),
            laws: laws.to_vec(),
            facts: request.facts.trim().to_owned(),
            kind: request.kind,
            offending_side: request.offending_side,
            decision: request.decision.clone(),
            right_to_appeal_advised: request.right_to_appeal_advised,
            ruled_by: principal.subject.clone(),
            ruled_at: Some(timestamp(now)),
            appeal_ids: Vec::new(),
        };
        let row = ruling::ActiveModel {
            ruling_id: Set(ruling.ruling_id.clone()),
            status: Set(ruling::RECORDED.to_owned()),
            sequence: Set(None),
            deal_id: Set(deal.deal_id.clone()),
            table_kind: Set(*table_kind as i32),
            target_key: Set((*target_key).to_owned()),
            score_owner: Set((*score_owner).to_owned()),
            policy_version: Set(policy.version),
            ruled_by: Set(principal.subject.clone()),
            ruled_at: Set(now),
            ruling: Set(encode(&ruling)),
            parties: Set(parties.to_json()?),
            score_version: Set(None),
            idempotency_scope: Set((*scope).to_owned()),
            idempotency_key: Set((*key).to_owned()),
            request_hash: Set((*hash).to_owned()),
        };
        Ok((ruling, row))
    }

    /// A ruling that changes no score, on record at once with its notice.
    async fn decide_ruling(
        &self,
        book: u64,
        ruled: &Ruled<'_>,
    ) -> Result<Decision<Book, pb::RecordRulingResponse>, ServiceError> {
        let (ruling, mut row) = self.ruling_row(ruled).await?;
        row.sequence = Set(Some(i64::try_from(book + 1).map_err(ServiceError::internal)?));
        let notice = NoticeDraft {
            at: Utc::now(),
            actor: ruled.principal.subject.clone(),
            ruling_id: ruling.ruling_id.clone(),
            appeal_id: None,
            target_key: ruled.target_key.to_owned(),
            event: pb::appeal_event::Event::RulingRecorded(ruling.clone()),
            audience: ruled.parties.everyone(),
        };
        let rows = vec![
            Row::InsertRuling(Box::new(row)),
            Row::InsertParties(ruling.ruling_id.clone(), ruled.parties.everyone()),
        ];
        Ok(Book::change(
            book,
            Some(notice),
            rows,
            pb::RecordRulingResponse { ruling: Some(ruling), score_version: None },
        ))
    }

    /// A ruling with an adjusted score, pending with the call it owes the scoring service; nothing
    /// to write if the same command left it pending already.
    async fn pend_ruling(
        &self,
        book: u64,
        ruled: &Ruled<'_>,
        target: &common::ScoreTarget,
        adjustment: &common::Adjustment,
    ) -> Result<Decision<Book, bool>, ServiceError> {
        let (scope, key, hash) = ruled.key;
        if self.pending_ruling(scope, key, hash).await?.is_some() {
            return Ok(Decision::Unchanged(false));
        }
        let (ruling, mut row) = self.ruling_row(ruled).await?;
        row.status = Set(ruling::PENDING.to_owned());
        let call = scoring_pb::ApplyAdjustmentRequest {
            ruling_id: ruling.ruling_id.clone(),
            appeal_id: String::new(),
            target: Some(target.clone()),
            change: Some(scoring_pb::apply_adjustment_request::Change::Adjustment(adjustment.clone())),
            reason: format!("ruling {}: {}", ruling.ruling_id, ruling.irregularity),
            law: ruling.laws.first().cloned(),
        };
        let owed = self.owe(TOPIC_RULING, &ruling.ruling_id, &call, Utc::now());
        Ok(Book::change(book, None, vec![Row::InsertRuling(Box::new(row)), owed], true))
    }

    /// A ruling still pending for `(scope, key)`.
    async fn pending_ruling(&self, scope: &str, key: &str, hash: &str) -> Result<Option<ruling::Model>, ServiceError> {
        let row = ruling::Entity::find()
            .filter(ruling::Column::IdempotencyScope.eq(scope))
            .filter(ruling::Column::IdempotencyKey.eq(key))
            .one(&self.db)
            .await?;
        match row {
            Some(row) if row.request_hash != hash => Err(ServiceError::invalid(
                "idempotency_key",
                format!("{key:?} was already used for a different request; choose a new key"),
            )),
            other => Ok(other),
        }
    }

    /// Answers a retry of a ruling whose first attempt left it pending (or that completed since).
    async fn resume_ruling(
        &self,
        pending: &ruling::Model,
        scope: &str,
        key: &str,
        hash: &str,
    ) -> Result<pb::RecordRulingResponse, ServiceError> {
        if let Some(outbox_id) = self.undelivered(TOPIC_RULING, &pending.ruling_id).await?
            && let Delivered::Ruling(answer) = self.deliver(outbox_id).await?
        {
            return Ok(*answer);
        }
        store::stored_response(&self.db, scope, key, hash)
            .await?
            .ok_or_else(|| ServiceError::Unavailable(format!("ruling {} is being recorded; retry", pending.ruling_id)))
    }

    /// Who played the deal, from the scoring service, checked against what the director gave:
    /// a scorepad's four players, or a board's two contestants. An adjusted score needs a result
    /// on record to adjust.
    async fn resolve_deal(
        &self,
        mut deal: pb::DealReference,
        table_kind: common::TableKind,
        target: &common::ScoreTarget,
        adjusted: bool,
    ) -> Result<(pb::DealReference, Parties, String), ServiceError> {
        use common::score_target::Target;
        match (&target.target, table_kind) {
            (Some(Target::ScorepadDeal(at)), common::TableKind::Rubber | common::TableKind::Chicago) => {
                let pad = self.scoring.scorepad(&at.scorepad_id).await?;
                if pad.kind != deal.kind {
                    return Err(ServiceError::invalid(
                        "deal.kind",
                        format!("scorepad {} is a {} scorepad", pad.scorepad_id, table_kind_name(pad.kind)),
                    ));
                }
                if !deal.deal_id.is_empty() && deal.deal_id != at.deal_id {
                    return Err(ServiceError::invalid("deal.deal_id", "must be the score target's deal"));
                }
                if !deal.table_id.is_empty() && deal.table_id != pad.table_id {
                    return Err(ServiceError::invalid(
                        "deal.table_id",
                        format!("scorepad {} is kept for table {}", pad.scorepad_id, pad.table_id),
                    ));
                }
                for (i, given) in deal.players.iter().enumerate() {
                    if !pad.players.contains(given) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}]"),
                            format!("{} did not sit at that seat on scorepad {}", given.player_id, pad.scorepad_id),
                        ));
                    }
                }
                if adjusted && !pad.deals.iter().any(|d| d.deal_id == at.deal_id && !d.struck) {
                    return Err(ServiceError::FailedPrecondition(format!(
                        "deal {} has no result on scorepad {} to adjust; an adjusted score replaces a recorded result",
                        at.deal_id, pad.scorepad_id
                    )));
                }
                deal.deal_id = at.deal_id.clone();
                deal.table_id = pad.table_id.clone();
                deal.players = pad.players.clone();
                let form =
                    if table_kind == common::TableKind::Rubber { FormRecord::Rubber } else { FormRecord::Chicago };
                let players = pad.players.iter().map(|p| p.player_id.clone()).collect();
                Ok((deal, Parties { form, players, contestants: None }, pad.scorepad_id))
            }
            (Some(Target::BoardResult(at)), common::TableKind::Duplicate) => {
                let named = [at.north_south_contestant_id.clone(), at.east_west_contestant_id.clone()];
                let session = self.scoring.session_for_board(&at.session_id, at.board_number, &named).await?;
                if !session.boards.iter().any(|b| b.number == at.board_number) {
                    return Err(ServiceError::invalid(
                        "deal.score_target.board_result.board_number",
                        format!("session {} has no board {}", session.session_id, at.board_number),
                    ));
                }
                let contestant = |field: &str, id: &str| {
                    session.contestants.iter().find(|c| c.contestant_id == id).cloned().ok_or_else(|| {
                        ServiceError::invalid(
                            &format!("deal.score_target.board_result.{field}"),
                            format!("session {} has no contestant {id}", session.session_id),
                        )
                    })
                };
                let ns = contestant("north_south_contestant_id", &at.north_south_contestant_id)?;
                let ew = contestant("east_west_contestant_id", &at.east_west_contestant_id)?;
                if ns.contestant_id == ew.contestant_id {
                    return Err(ServiceError::invalid(
                        "deal.score_target.board_result",
                        "a contestant cannot sit both North-South and East-West",
                    ));
                }
                let form = match scoring_pb::ContestantKind::try_from(session.contestant_kind) {
                    Ok(scoring_pb::ContestantKind::Pairs) => FormRecord::Pairs,
                    Ok(scoring_pb::ContestantKind::Teams) => FormRecord::Teams,
                    Ok(scoring_pb::ContestantKind::Individuals) => FormRecord::Individuals,
                    _ => {
                        return Err(ServiceError::internal(format!(
                            "session {} has no contestant kind",
                            session.session_id
                        )));
                    }
                };
                let mut seats = BTreeSet::new();
                for (i, given) in deal.players.iter().enumerate() {
                    let seat = laws::Seat::from_proto(&format!("deal.players[{i}].seat"), given.seat)?;
                    if !seats.insert(seat as u8) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}].seat"),
                            format!("{seat} is given twice"),
                        ));
                    }
                    let own = if seat.side() == laws::Side::NorthSouth { &ns } else { &ew };
                    if !own.player_ids.contains(&given.player_id) {
                        return Err(ServiceError::invalid(
                            &format!("deal.players[{i}].player_id"),
                            format!(
                                "{} is not a player of contestant {}, which sat {}",
                                given.player_id,
                                own.contestant_id,
                                seat.side()
                            ),
                        ));
                    }
                }
                let result = self.scoring.board_result(at).await?;
                match result.as_ref() {
                    None if adjusted => {
                        return Err(ServiceError::FailedPrecondition(format!(
                            "board {} of session {} has no result for {} against {} to adjust; an adjusted score \
                             replaces a recorded result",
                            at.board_number, at.session_id, at.north_south_contestant_id, at.east_west_contestant_id
                        )));
                    }
                    Some(result) if deal.deal_id.is_empty() => deal.deal_id = result.deal_id.clone(),
                    Some(result) if deal.deal_id != result.deal_id => {
                        return Err(ServiceError::invalid(
                            "deal.deal_id",
                            format!("the board's result was recorded for deal {}", result.deal_id),
                        ));
                    }
                    _ if deal.deal_id.is_empty() => {
                        return Err(ServiceError::invalid(
                            "deal.deal_id",
                            "required: the board has no result to take it from",
                        ));
                    }
                    _ => {}
                }
                let record = |c: &scoring_pb::Contestant| ContestantRecord {
                    contestant_id: c.contestant_id.clone(),
                    members: c.player_ids.clone(),
                    captain: Some(c.captain_player_id.clone()).filter(|id| !id.is_empty()),
                };
                let players = deal.players.iter().map(|p| p.player_id.clone()).collect();
                let parties = Parties { form, players, contestants: Some([record(&ns), record(&ew)]) };
                Ok((deal, parties, session.session_id))
            }
            _ => Err(ServiceError::invalid(
                "deal.score_target",
                "a rubber or Chicago deal is scored on a scorepad, a duplicate board in a session",
            )),
        }
    }
}

fn table_kind_name(kind: i32) -> &'static str {
    match common::TableKind::try_from(kind) {
        Ok(common::TableKind::Rubber) => "rubber",
        Ok(common::TableKind::Chicago) => "Chicago",
        Ok(common::TableKind::Duplicate) => "duplicate",
        _ => "unknown",
    }
}

/// A ruling as the director gives it, checked and resolved against the scoring service.
struct Ruled<'a> {
    principal: &'a Principal,
    request: &'a pb::RecordRulingRequest,
    irregularity: &'a str,
    laws: &'a [common::LawCitation],
    deal: &'a pb::DealReference,
    parties: &'a Parties,
    score_owner: &'a str,
    /// The command's idempotency scope, key and request hash.
    key: (&'a str, &'a str, &'a str),
    table_kind: common::TableKind,
    target_key: &'a str,
}
