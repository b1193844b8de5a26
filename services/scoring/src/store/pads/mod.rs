//! Scorepads in Postgres: created from the rubber's line-up, changed only by appending a score
//! version (see [`crate::pad`]) through the command runtime ([`journal`]), read as they stand
//! after the latest one.

mod journal;

use std::collections::HashSet;
use std::sync::Arc;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::scoring::v1 as spb;
use bytes::Bytes;
use laws::score::correction::{PadCorrection, PadCorrectionFacts, check_pad_correction};
use laws::{Deal, Law, Seat};
use platform::runtime::{self, Change, Expected, LiveWrite, Runtime};
use prost::Message;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};

use super::{MAX_ATTEMPTS, Page, Replay, decode};
use crate::entity::scorepad;
use crate::live::{Feed, FeedBatch, FeedEvent, Watch};
use crate::pad::{Header, Operation, Pad};
use crate::time;
use journal::{Changed, PadJournal, PadWrite, Standing};
use platform::ServiceError;
use platform::auth::{Principal, Role};
use platform::db::Db;

/// A pad's event stream.
pub fn stream(scorepad_id: &str) -> String {
    format!("scorepad:{scorepad_id}")
}

/// What a change of a pad does, once the pad as it stands is known.
#[allow(clippy::large_enum_variant)] // made once per request, never stored
enum Decision {
    /// The same change was made before (by natural id): nothing changes; this version made it.
    Repeat(u64),
    /// A new version.
    Apply {
        /// What it does.
        operation: Operation,
        /// Its cause, reason, law and ruling, without its number.
        version: spb::ScoreVersion,
        /// Its natural idempotency key.
        idem_key: Option<String>,
    },
}

/// The scorepads of the service.
#[derive(Debug, Clone)]
pub struct Pads {
    db: Db,
    feed: Feed,
    runtime: Arc<Runtime<PadJournal>>,
}

fn target(scorepad_id: &str, deal_id: &str) -> pb::ScoreTarget {
    pb::ScoreTarget {
        target: Some(pb::score_target::Target::ScorepadDeal(pb::ScorepadDeal {
            scorepad_id: scorepad_id.to_owned(),
            deal_id: deal_id.to_owned(),
        })),
    }
}

fn base_version(
    cause: spb::ScoreVersionCause,
    target: Option<pb::ScoreTarget>,
    reason: &str,
    law: Option<pb::LawCitation>,
    recorded_by: &str,
) -> spb::ScoreVersion {
    spb::ScoreVersion {
        version: 0,
        target,
        cause: cause as i32,
        reason: reason.to_owned(),
        law,
        recorded_by: recorded_by.to_owned(),
        recorded_at: Some(time::timestamp(time::now())),
        ..Default::default()
    }
}

fn law(law: Law) -> Option<pb::LawCitation> {
    Some(law.into())
}

/// A law citation as a client gave it, with the text a reader sees filled in when missing.
pub fn citation(given: Option<&pb::LawCitation>) -> Option<pb::LawCitation> {
    let given = given.filter(|l| l.code != 0 || !l.text.is_empty())?;
    let mut law = given.clone();
    if law.text.is_empty() {
        let (n, section) = (given.number, given.section.as_str());
        let letter = char::from(b'A'.saturating_add(u8::try_from(n).unwrap_or(1).saturating_sub(1)));
        law.text = match laws::Code::from_proto("law.code", given.code) {
            Ok(laws::Code::ClubProcedure) => format!("rule {letter} of the Rules for Club Procedure"),
            Ok(code @ laws::Code::Chicago) => format!("rule {letter}{section} of {}", code.title()),
            Ok(code @ laws::Code::Club) if n == 0 => format!("the Club Appeals Committee ({})", code.title()),
            Ok(code @ laws::Code::Club) => format!("Club Law {n}{section} ({})", code.title()),
            Ok(code) => format!("Law {n}{section} of the {}", code.title()),
            Err(_) => format!("Law {n}{section}"),
        };
    }
    Some(law)
}

impl Pads {
    /// The scorepads over `db`, announcing changes on `feed`.
    pub fn new(db: Db, feed: Feed) -> Pads {
        let runtime = Arc::new(Runtime::new(db.clone(), feed.live().clone(), PadJournal));
        Pads { db, feed, runtime }
    }

    /// Creates the pad of a rubber, or returns the one it has (one pad per rubber); a pad of
    /// another kind asked for under the same rubber is refused, never silently swapped for it.
    #[tracing::instrument(skip_all, fields(rubber_id = %request.rubber_id))]
    pub async fn create(&self, request: spb::CreateScorepadRequest) -> Result<spb::Scorepad, ServiceError> {
        if request.rubber_id.is_empty() {
            return Err(ServiceError::invalid("rubber_id", "empty; one pad is kept per rubber"));
        }
        if request.table_id.is_empty() {
            return Err(ServiceError::invalid("table_id", "empty; the table is required"));
        }
        if let Some(existing) = scorepad::Entity::find()
            .filter(scorepad::Column::RubberId.eq(request.rubber_id.as_str()))
            .one(&self.db)
            .await?
        {
            return same_kind(decode(&existing.state, "scorepad")?, request.kind);
        }
        let mut seats = HashSet::new();
        if request.players.len() != 4 {
            return Err(ServiceError::invalid("players", "four players, one at each seat, are required"));
        }
        for (i, player) in request.players.iter().enumerate() {
            let seat = Seat::from_proto(&format!("players[{i}].seat"), player.seat)?;
            if !seats.insert(seat) {
                return Err(ServiceError::invalid(&format!("players[{i}].seat"), format!("{seat} is taken twice")));
            }
            if player.player_id.is_empty() {
                return Err(ServiceError::invalid(&format!("players[{i}].player_id"), "empty"));
            }
        }
        let kind = pb::TableKind::try_from(request.kind).unwrap_or(pb::TableKind::Unspecified);
        let created_at = time::now();
        let scorepad_id = uuid::Uuid::now_v7().to_string();
        let pad = Pad::new(Header {
            scorepad_id: scorepad_id.clone(),
            kind,
            table_id: request.table_id.clone(),
            rubber_id: request.rubber_id.clone(),
            players: request.players.clone(),
            first_dealer: match request.first_dealer {
                0 => None,
                raw => Some(Seat::from_proto("first_dealer", raw)?),
            },
            options: request.options.unwrap_or_default(),
            created_at: Some(time::timestamp(created_at)),
        })?;
        let state = pad.to_proto();
        let model = scorepad::ActiveModel {
            scorepad_id: Set(scorepad_id),
            kind: Set(kind as i32),
            table_id: Set(request.table_id.clone()),
            rubber_id: Set(request.rubber_id.clone()),
            definition: Set(request.encode_to_vec()),
            status: Set(pad.status_number()),
            version: Set(0),
            last_sequence: Set(0),
            state: Set(state.encode_to_vec()),
            created_at: Set(created_at),
            net_agreed_at: Set(None),
        };
        match scorepad::Entity::insert(model).exec_without_returning(&self.db).await {
            Ok(_) => Ok(state),
            // Created by a racing request for the same rubber: that one stands.
            Err(error) if matches!(error.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))) => {
                let existing = scorepad::Entity::find()
                    .filter(scorepad::Column::RubberId.eq(request.rubber_id.as_str()))
                    .one(&self.db)
                    .await?
                    .ok_or_else(|| ServiceError::internal("scorepad vanished after a unique violation"))?;
                same_kind(decode(&existing.state, "scorepad")?, request.kind)
            }
            Err(error) => Err(error.into()),
        }
    }

    /// The pad as it stands.
    pub async fn get(&self, scorepad_id: &str) -> Result<spb::Scorepad, ServiceError> {
        let row = self.row(scorepad_id).await?;
        decode(&row.state, "scorepad")
    }

    async fn row(&self, scorepad_id: &str) -> Result<scorepad::Model, ServiceError> {
        scorepad::Entity::find_by_id(scorepad_id)
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::not_found(format!("scorepad {scorepad_id}")))
    }

    /// Pads, newest first.
    pub async fn list(&self, request: &spb::ListScorepadsRequest) -> Result<spb::ListScorepadsResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let mut query = scorepad::Entity::find();
        if !request.table_id.is_empty() {
            query = query.filter(scorepad::Column::TableId.eq(request.table_id.as_str()));
        }
        if request.in_progress_only {
            query = query.filter(scorepad::Column::Status.eq(spb::ScorepadStatus::InProgress as i32));
        }
        let rows = query
            .order_by_desc(scorepad::Column::CreatedAt)
            .order_by_desc(scorepad::Column::ScorepadId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let scorepads =
            rows.iter().take(page.size as usize).map(|r| decode(&r.state, "scorepad")).collect::<Result<_, _>>()?;
        Ok(spb::ListScorepadsResponse { scorepads, page: Some(page.response_to(fetched)) })
    }

    /// The pad's next deal (Laws 9, 73 and 77; Appendix 4 B and C), or, when `played` names the
    /// pad's next deal as its table played it and the pad does not hold it yet, the deal after
    /// it: the pad as it stands with that result applied, on a copy. A table plays on the moment
    /// its last card is played, while the result is on its way (the game service delivers it, in
    /// order, through its outbox); what the pad will say of the next deal follows from the Laws,
    /// so the start need not wait for the write. Nothing is stored. Whoever may name `played`
    /// is the handler's to check.
    pub async fn next_deal(
        &self,
        scorepad_id: &str,
        played: Option<&spb::RecordDealResultRequest>,
    ) -> Result<spb::GetNextDealResponse, ServiceError> {
        let standing = self.runtime.load(scorepad_id).await?;
        let mut pad = standing.pad.clone();
        let pending = played.filter(|played| {
            pad.deal_index(&played.deal_id).is_none()
                && pad.next_deal().is_some_and(|next| next.deal_number == played.deal_number)
        });
        if let Some(played) = pending {
            let result = played.result.clone().ok_or_else(|| ServiceError::invalid("played.result", "missing"))?;
            api::convert::score::rubber_result(&result).map_err(|e| e.within("played.result"))?;
            let hands = played.hands.clone().map(Deal::try_from).transpose().map_err(|e| e.within("played.hands"))?;
            let operation =
                Operation::Record { deal_id: played.deal_id.clone(), result, hands, source: spb::ResultSource::Game };
            let version = spb::ScoreVersion { version: pad.version() + 1, ..Default::default() };
            pad.apply(&operation, version)?;
        }
        Ok(spb::GetNextDealResponse {
            scorepad_id: scorepad_id.to_owned(),
            rubber_id: pad.header().rubber_id.clone(),
            status: pad.status_number(),
            next_deal: pad.next_deal(),
            counts_played: pending.is_some(),
            version: standing.pad.version(),
        })
    }

    /// Applies a change to a pad as a new version, on the command runtime: decided on the pad
    /// as this process knows it (brought up to date from the versions after it), with the
    /// client's expected version or, without one, decided again when another writer came first.
    async fn change(
        &self,
        scorepad_id: &str,
        expected: Option<u64>,
        what: &str,
        decide: &(dyn Fn(&Pad) -> Result<Decision, ServiceError> + Sync),
    ) -> Result<(Pad, spb::ScoreVersion), ServiceError> {
        let expected = match expected {
            Some(version) => Expected::Version(version),
            None => Expected::Latest { attempts: MAX_ATTEMPTS as u32 },
        };
        let mut after = None;
        let changed = self
            .runtime
            .execute(scorepad_id, expected, None, |standing: Arc<Standing>| {
                let decision = decide(&standing.pad).and_then(|decision| decided(scorepad_id, &standing, decision));
                std::future::ready(decision.map(|(next, decision)| {
                    after = Some(next);
                    decision
                }))
            })
            .await;
        let changed: Changed = changed.map_err(|error| {
            tracing::debug!(what, %error, "scorepad change refused");
            error
        })?;
        // The pad the answer was decided on: after its new version, or as it stands for a repeat.
        let pad = after.ok_or_else(|| ServiceError::internal("a scorepad change answered without deciding"))?;
        Ok((pad, changed.version.unwrap_or_default()))
    }

    /// Records a deal's result (Laws 72-81; Appendix 4), idempotent by deal id.
    #[tracing::instrument(skip_all, fields(scorepad_id = %request.scorepad_id, deal_id = %request.deal_id))]
    pub async fn record(
        &self,
        request: &spb::RecordDealResultRequest,
        hands: Option<Deal>,
        recorded_by: &str,
    ) -> Result<(Pad, spb::ScoreVersion), ServiceError> {
        if request.deal_id.is_empty() {
            return Err(ServiceError::invalid("deal_id", "empty; the deal id is the idempotency key"));
        }
        let result = request.result.clone().ok_or_else(|| ServiceError::invalid("result", "missing"))?;
        api::convert::score::rubber_result(&result).map_err(|e| e.within("result"))?;
        let source = match spb::ResultSource::try_from(request.source) {
            Ok(s @ (spb::ResultSource::Game | spb::ResultSource::Desk)) => s,
            _ => return Err(ServiceError::invalid("source", "the game service or the desk is required")),
        };
        let decide = |pad: &Pad| -> Result<Decision, ServiceError> {
            if let Some((first, version)) = pad.first_record(&request.deal_id) {
                if same_result(first, &result) {
                    return Ok(Decision::Repeat(version));
                }
                return Err(ServiceError::AlreadyExists(format!(
                    "deal {} is already recorded on this scorepad with another result (version {version}); \
                     correct it with CorrectDealResult (Law 78)",
                    request.deal_id
                )));
            }
            let next = pad.next_deal().ok_or_else(|| match pad.to_proto().status() {
                spb::ScorepadStatus::Finished => ServiceError::Rule {
                    message: "the rubber is finished: no deal is scored after it (Law 74; rule B of Chicago)".into(),
                    law: Law::rubber(74, ""),
                },
                _ => ServiceError::Rule {
                    message: "the rubber was ended and scored as it stood (Law 80; rule B of Chicago)".into(),
                    law: Law::rubber(80, ""),
                },
            })?;
            if request.deal_number != next.deal_number {
                return Err(ServiceError::FailedPrecondition(format!(
                    "deal_number {} is not the pad's next deal, {}: results are scored in order, because later \
                     deals depend on earlier ones (Law 73)",
                    request.deal_number, next.deal_number
                )));
            }
            Ok(Decision::Apply {
                operation: Operation::Record {
                    deal_id: request.deal_id.clone(),
                    result: result.clone(),
                    hands,
                    source,
                },
                version: base_version(
                    spb::ScoreVersionCause::ResultRecorded,
                    Some(target(&request.scorepad_id, &request.deal_id)),
                    "",
                    law(Law::rubber(75, "")),
                    recorded_by,
                ),
                idem_key: Some(format!("deal:{}", request.deal_id)),
            })
        };
        self.change(&request.scorepad_id, None, "record deal result", &decide).await
    }

    /// Corrects a deal's result (Law 78) or a Chicago diagram (Appendix 4 E).
    #[tracing::instrument(skip_all, fields(scorepad_id = %request.scorepad_id, deal_id = %request.deal_id))]
    pub async fn correct(
        &self,
        request: &spb::CorrectDealResultRequest,
        recorded_by: &str,
    ) -> Result<(Pad, spb::ScoreVersion), ServiceError> {
        let kind = match spb::CorrectionKind::try_from(request.kind) {
            Ok(spb::CorrectionKind::ScoringError) => PadCorrection::ScoringError,
            Ok(spb::CorrectionKind::TrickCount) => PadCorrection::TrickCount,
            Ok(spb::CorrectionKind::ChicagoDiagram) => PadCorrection::ChicagoDiagram,
            _ => return Err(ServiceError::invalid("kind", "a scoring error, a trick count or a Chicago diagram")),
        };
        let first_dealer = match (kind, request.corrected_first_dealer) {
            (PadCorrection::ChicagoDiagram, 0) => {
                return Err(ServiceError::invalid(
                    "corrected_first_dealer",
                    "required: the dealer the diagram's 1 should have faced (rule E of Chicago, Appendix 4)",
                ));
            }
            (PadCorrection::ChicagoDiagram, raw) => Some(Seat::from_proto("corrected_first_dealer", raw)?),
            (_, 0) => None,
            (_, _) => {
                return Err(ServiceError::invalid(
                    "corrected_first_dealer",
                    "only a Chicago diagram correction has one",
                ));
            }
        };
        let result = request.corrected_result.clone();
        match (&result, kind) {
            (None, PadCorrection::ScoringError | PadCorrection::TrickCount) => {
                return Err(ServiceError::invalid("corrected_result", "missing; a value is required"));
            }
            (Some(r), _) => {
                api::convert::score::rubber_result(r).map_err(|e| e.within("corrected_result"))?;
            }
            (None, _) => {}
        }
        let decide = |pad: &Pad| -> Result<Decision, ServiceError> {
            let index = pad
                .deal_index(&request.deal_id)
                .ok_or_else(|| ServiceError::not_found(format!("deal {} on this scorepad", request.deal_id)))?;
            let players: HashSet<&str> = pad.header().player_ids().collect();
            let mut acknowledged = HashSet::new();
            for (i, player) in request.acknowledged_by_player_ids.iter().enumerate() {
                if !players.contains(player.as_str()) {
                    return Err(ServiceError::invalid(
                        &format!("acknowledged_by_player_ids[{i}]"),
                        format!("{player:?} is not one of the four players of this rubber"),
                    ));
                }
                acknowledged.insert(player.as_str());
            }
            check_pad_correction(PadCorrectionFacts {
                kind,
                acknowledged_by: acknowledged.len(),
                next_deal_called: index + 1 < pad.deals_recorded(),
                net_score_agreed: pad.net_agreed(),
            })
            .map_err(ServiceError::rule)?;
            let law = match kind {
                PadCorrection::ChicagoDiagram => Law::chicago('E', ""),
                _ => Law::rubber(78, ""),
            };
            Ok(Decision::Apply {
                operation: Operation::Correct {
                    deal_id: request.deal_id.clone(),
                    result: result.clone(),
                    first_dealer,
                },
                version: base_version(
                    spb::ScoreVersionCause::Correction,
                    Some(target(&request.scorepad_id, &request.deal_id)),
                    &request.reason,
                    Some(law.into()),
                    recorded_by,
                ),
                idem_key: None,
            })
        };
        self.change(&request.scorepad_id, Some(request.expected_version), "correct deal result", &decide).await
    }

    /// Records that the players agreed the net score of a finished or ended rubber. A player
    /// may do so only for a rubber he plays in. Agreeing again changes nothing.
    #[tracing::instrument(skip_all, fields(scorepad_id = %request.scorepad_id))]
    pub async fn agree(
        &self,
        request: &spb::AgreeNetScoreRequest,
        principal: &Principal,
    ) -> Result<spb::Scorepad, ServiceError> {
        let staff = principal.has_any(&[Role::Desk, Role::Admin]);
        let decide = |pad: &Pad| -> Result<Decision, ServiceError> {
            if !staff && !pad.header().player_ids().any(|p| p == principal.subject) {
                return Err(ServiceError::PermissionDenied(
                    "only a player of this rubber (or the desk) agrees its net score".to_owned(),
                ));
            }
            if pad.net_agreed() {
                return Ok(Decision::Repeat(pad.version()));
            }
            Ok(Decision::Apply {
                operation: Operation::AgreeNet,
                version: base_version(
                    spb::ScoreVersionCause::NetAgreed,
                    None,
                    "the players agreed the net score",
                    law(Law::rubber(78, "")),
                    &principal.subject,
                ),
                idem_key: None,
            })
        };
        // A repeat after agreement is at a later version than the caller read: it is answered,
        // not refused, so the version check is made only for a new agreement.
        let row = self.row(&request.scorepad_id).await?;
        let expected = if row.net_agreed_at.is_some() { None } else { Some(request.expected_version) };
        let (pad, _) = self.change(&request.scorepad_id, expected, "agree net score", &decide).await?;
        Ok(pad.to_proto())
    }

    /// Ends a rubber that is not finished (Law 80) or a Chicago series short (Appendix 4 B).
    #[tracing::instrument(skip_all, fields(scorepad_id = %request.scorepad_id))]
    pub async fn end(
        &self,
        request: &spb::EndUnfinishedRubberRequest,
        recorded_by: &str,
    ) -> Result<(Pad, spb::ScoreVersion), ServiceError> {
        let decide = |pad: &Pad| -> Result<Decision, ServiceError> {
            let law = match pad.header().kind {
                pb::TableKind::Chicago => Law::chicago('B', ""),
                _ => Law::rubber(80, ""),
            };
            Ok(Decision::Apply {
                operation: Operation::End,
                version: base_version(
                    spb::ScoreVersionCause::RubberEnded,
                    None,
                    &request.reason,
                    Some(law.into()),
                    recorded_by,
                ),
                idem_key: None,
            })
        };
        self.change(&request.scorepad_id, Some(request.expected_version), "end rubber", &decide).await
    }

    /// Applies an arbiter's ruling or an appeal decision to a deal, idempotent by ruling id and
    /// appeal id together.
    #[tracing::instrument(skip_all, fields(scorepad_id = %deal.scorepad_id, deal_id = %deal.deal_id, ruling_id = %request.ruling_id))]
    pub async fn adjust(
        &self,
        deal: &pb::ScorepadDeal,
        request: &spb::ApplyAdjustmentRequest,
        recorded_by: &str,
    ) -> Result<(Pad, spb::ScoreVersion), ServiceError> {
        use spb::apply_adjustment_request::Change;
        let result = match request.change.as_ref() {
            None => return Err(ServiceError::invalid("change", "missing; an adjustment or a restore is required")),
            Some(Change::RestoreTableResult(_)) => None,
            Some(Change::Adjustment(adjustment)) => match adjustment.kind.as_ref() {
                Some(pb::adjustment::Kind::Assigned(assigned)) => {
                    let result = assigned
                        .result
                        .clone()
                        .ok_or_else(|| ServiceError::invalid("adjustment.assigned.result", "missing"))?;
                    api::convert::score::rubber_result(&result).map_err(|e| e.within("adjustment.assigned.result"))?;
                    Some(result)
                }
                _ => {
                    return Err(ServiceError::invalid(
                        "adjustment",
                        "a rubber or Chicago deal takes only an assigned score: the Arbiter assigns a new result \
                         (Alternative Club Laws)",
                    ));
                }
            },
        };
        let appeal = !request.appeal_id.is_empty();
        let adjustment = match request.change.as_ref() {
            Some(Change::Adjustment(a)) => Some(a.clone()),
            _ => None,
        };
        let idem_key = format!("ruling:{}/{}", request.ruling_id, request.appeal_id);
        let decide = |pad: &Pad| -> Result<Decision, ServiceError> {
            if let Some(version) =
                pad.versions().iter().find(|v| v.ruling_id == request.ruling_id && v.appeal_id == request.appeal_id)
            {
                return Ok(Decision::Repeat(version.version));
            }
            let (operation, cause, law) = if appeal {
                (
                    Operation::Appeal { deal_id: deal.deal_id.clone(), result: result.clone() },
                    spb::ScoreVersionCause::AppealDecision,
                    citation(request.law.as_ref()).or_else(|| Some(Law::club_appeals().into())),
                )
            } else {
                (
                    Operation::Rule { deal_id: deal.deal_id.clone(), result: result.clone() },
                    spb::ScoreVersionCause::Adjustment,
                    citation(request.law.as_ref()),
                )
            };
            let mut version =
                base_version(cause, Some(target(&deal.scorepad_id, &deal.deal_id)), &request.reason, law, recorded_by);
            version.ruling_id = request.ruling_id.clone();
            version.appeal_id = request.appeal_id.clone();
            version.adjustment = adjustment.clone();
            Ok(Decision::Apply { operation, version, idem_key: Some(idem_key.clone()) })
        };
        self.change(&deal.scorepad_id, None, "apply adjustment", &decide).await
    }

    /// A pad's score versions, oldest first, optionally only those of one deal.
    pub async fn versions(
        &self,
        scorepad_id: &str,
        deal_id: Option<&str>,
        page: Page,
    ) -> Result<spb::ListScoreVersionsResponse, ServiceError> {
        let standing = self.runtime.current(scorepad_id).await?;
        let pad = &standing.pad;
        let selected: Vec<&spb::ScoreVersion> = pad
            .versions()
            .iter()
            .filter(|v| match (deal_id, v.target.as_ref().and_then(|t| t.target.as_ref())) {
                (None, _) => true,
                (Some(deal), Some(pb::score_target::Target::ScorepadDeal(d))) => d.deal_id == deal,
                (Some(_), _) => false,
            })
            .collect();
        let versions: Vec<spb::ScoreVersion> =
            selected.iter().skip(page.offset as usize).take(page.size as usize + 1).map(|v| (*v).clone()).collect();
        let fetched = versions.len();
        Ok(spb::ListScoreVersionsResponse {
            versions: versions.into_iter().take(page.size as usize).collect(),
            page: Some(page.response_to(fetched)),
        })
    }

    /// How many pads there are (tests, benchmarks).
    pub async fn count(&self) -> Result<u64, ServiceError> {
        Ok(scorepad::Entity::find().count(&self.db).await?)
    }

    /// Watches a pad's changes (see [`crate::live`]).
    pub async fn watch(
        &self,
        scorepad_id: &str,
        after: Option<u64>,
    ) -> Result<tokio_stream::wrappers::ReceiverStream<Result<spb::WatchScorepadResponse, tonic::Status>>, ServiceError>
    {
        // The pad must exist before anyone waits on it.
        self.row(scorepad_id).await?;
        let db = self.db.clone();
        let id = scorepad_id.to_owned();
        let snapshot = Box::pin(async move {
            let row = scorepad::Entity::find_by_id(id.as_str())
                .one(&db)
                .await?
                .ok_or_else(|| ServiceError::not_found(format!("scorepad {id}")))?;
            let sequence = u64::try_from(row.last_sequence).unwrap_or(0);
            let pad: spb::Scorepad = decode(&row.state, "scorepad")?;
            let event = spb::ScorepadEvent {
                sequence,
                occurred_at: Some(time::timestamp(time::now())),
                scorepad_id: id,
                event: Some(spb::scorepad_event::Event::Snapshot(pad)),
            };
            Ok((sequence, spb::WatchScorepadResponse { event: Some(event), heartbeat: None }))
        });
        crate::live::watch(
            self.feed.clone(),
            self.db.clone(),
            Watch {
                stream: stream(scorepad_id),
                after,
                snapshot,
                decode: Box::new(|_, payload| {
                    let event: spb::ScorepadEvent = decode(payload, "scorepad event")?;
                    Ok(Some(spb::WatchScorepadResponse { event: Some(event), heartbeat: None }))
                }),
                beat: |last| spb::WatchScorepadResponse {
                    event: None,
                    heartbeat: Some(platform::watch::heartbeat(last)),
                },
            },
        )
        .await
    }
}

/// A pad's change as the runtime commits it: the pad after the change, and the decision (a
/// repeat answered with the version that made it; a new version with everything it writes).
fn decided(
    scorepad_id: &str,
    standing: &Standing,
    decision: Decision,
) -> Result<(Pad, runtime::Decision<PadJournal, Changed>), ServiceError> {
    let (operation, base, idem_key) = match decision {
        Decision::Repeat(number) => {
            let version = standing
                .pad
                .versions()
                .get(number.saturating_sub(1) as usize)
                .cloned()
                .ok_or_else(|| ServiceError::internal(format!("version {number} missing")))?;
            let answer = Changed { scorepad: None, version: Some(version) };
            return Ok((standing.pad.clone(), runtime::Decision::Unchanged(answer)));
        }
        Decision::Apply { operation, version, idem_key } => (operation, version, idem_key),
    };
    let mut pad = standing.pad.clone();
    let number = pad.version() + 1;
    let base = spb::ScoreVersion { version: number, result: operation.result().cloned(), ..base };
    pad.apply(&operation, base.clone())?;
    let version = pad.versions().last().cloned().unwrap_or_default();
    let hands = match &operation {
        Operation::Record { hands, .. } => hands.map(pb::Deal::from),
        _ => None,
    };
    let replay = Replay {
        operation: operation.name().to_owned(),
        deal_id: operation.deal_id().map(str::to_owned),
        hands,
        first_dealer: match &operation {
            Operation::Correct { first_dealer, .. } => first_dealer.map(ProtoEnum::to_proto),
            _ => None,
        },
        source: match &operation {
            Operation::Record { source, .. } => *source,
            Operation::Correct { .. } => spb::ResultSource::Correction,
            Operation::Rule { .. } => spb::ResultSource::Ruling,
            Operation::Appeal { .. } => spb::ResultSource::Appeal,
            Operation::End | Operation::AgreeNet => spb::ResultSource::Unspecified,
        },
        idem_key,
    };
    let state = pad.to_proto();
    let (added, struck) = pad.changes_in(number);
    let sequence = standing.last_sequence + 1;
    let event = spb::ScorepadEvent {
        sequence,
        occurred_at: version.recorded_at,
        scorepad_id: scorepad_id.to_owned(),
        event: Some(spb::scorepad_event::Event::Changed(spb::ScorepadChanged {
            version: Some(version.clone()),
            added,
            struck_entry_ids: struck,
            scorepad: Some(state.clone()),
        })),
    };
    let payload = event.encode_to_vec();
    let published = FeedBatch { events: vec![FeedEvent { sequence, payload: payload.clone() }] }.encode_to_vec();
    let write = PadWrite {
        scorepad_id: scorepad_id.to_owned(),
        version: base,
        replay,
        status: pad.status_number(),
        state: state.clone(),
        event: (sequence, payload),
    };
    let next = Arc::new(Standing { pad: pad.clone(), last_sequence: sequence });
    let change = Change {
        next,
        write,
        response: Changed { scorepad: Some(state), version: Some(version) },
        live: LiveWrite::Replace,
        published: Some(Bytes::from(published)),
    };
    Ok((pad, runtime::Decision::Changed(change)))
}

/// Whether two results are the same for scoring: the same contract, declarer, tricks and honors
/// (the game service may resend a result it already delivered).
fn same_result(a: &pb::DealResult, b: &pb::DealResult) -> bool {
    a.encode_to_vec() == b.encode_to_vec()
}

/// The existing pad of a rubber, if it is of the kind asked for: one rubber, one pad, one kind.
fn same_kind(pad: spb::Scorepad, kind: i32) -> Result<spb::Scorepad, ServiceError> {
    if pad.kind == kind {
        return Ok(pad);
    }
    Err(ServiceError::FailedPrecondition(format!(
        "rubber {} already has scorepad {}, of another kind (rubber and Chicago are scored differently, Appendix 4): \
         a rubber has one pad",
        pad.rubber_id, pad.scorepad_id
    )))
}
