//! Who may sit on a hearing or decision of an appeal (docs/laws-readings.md, "Appeals committee
//! readings"):
//!
//! - a rubber whose players agreed their own committee has its appeals heard by that committee,
//!   all its members sitting, and nobody else (`laws::committee::check_game_panel`); its members
//!   may call as players;
//! - otherwise the club's committee: as many members as the policy says, the caller among them
//!   (`laws::appeals::AppealPolicy::check_committee`), each on the club's roster for a term that
//!   covers the hearing (`laws::committee::check_on_roster`); the caller holds the committee role;
//! - either way, nobody who played the deal, is a member or captain of a contestant concerned, gave
//!   the ruling, or whom the club declared conflicted for a party, the table or the appeal
//!   (`laws::appeals::check_impartial`, `laws::committee::declared_conflicts`).

use api::appeals::v1 as pb;
use api::common::v1 as common;
use chrono::{DateTime, Utc};
use laws::appeals::{AppealPolicy, AppealRefusal, Conflict};
use laws::committee::AppealConcerns;
use platform::ServiceError;
use platform::auth::{Principal, Role};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::Appeals;
use super::conflicts::{conflicts_of, declared, describe};
use crate::entity::{game_committee, ruling};
use crate::records::{Parties, decode};

/// When the members sit: at a hearing held at an instant (the roster's terms must cover it), or
/// to decide an appeal they heard.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Sitting {
    /// A hearing at this instant.
    Hearing(DateTime<Utc>),
    /// The decision of an appeal heard.
    Decision,
}

/// The appeal the members are named for.
pub(crate) struct Named<'a> {
    /// The appeal.
    pub appeal_id: &'a str,
    /// Its ruling on record.
    pub ruling_row: &'a ruling::Model,
    /// Who the ruling concerns.
    pub parties: &'a Parties,
    /// The policy in force when the ruling was recorded.
    pub policy: &'a AppealPolicy,
    /// The members named.
    pub members: &'a [&'a str],
    /// Who gave the ruling a review put in force in place of the one appealed, if it did (Law
    /// 93B1): he may not sit either.
    pub corrected_by: Option<&'a str>,
}

impl Appeals {
    /// Refuses members who may not sit (see the module docs).
    pub(crate) async fn check_panel(
        &self,
        sitting: Sitting,
        principal: &Principal,
        named: &Named<'_>,
    ) -> Result<(), ServiceError> {
        let Named { appeal_id, ruling_row, parties, policy, members, corrected_by } = *named;
        let form = parties.form.form();
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        let caller = principal.subject.as_str();
        match self.game_committee_of(&ruling).await? {
            Some(designated) => {
                let designated: Vec<&str> = designated.iter().map(String::as_str).collect();
                if !designated.contains(&caller) && !principal.has(Role::Committee) {
                    return Err(ServiceError::PermissionDenied(format!(
                        "{caller} is not on the committee the players of this game agreed, and holds no committee role"
                    )));
                }
                laws::committee::check_game_panel(&designated, members, caller).map_err(ServiceError::rule)?;
            }
            None => {
                if !principal.has(Role::Committee) {
                    return Err(ServiceError::PermissionDenied(format!(
                        "{caller} holds no committee role, and no game committee hears this appeal"
                    )));
                }
                policy.check_committee(form, members, caller).map_err(ServiceError::rule)?;
                if let Sitting::Hearing(at) = sitting {
                    super::roster::check_on_roster(self, members, at).await?;
                }
            }
        }
        self.check_impartial(members, appeal_id, &ruling, parties, &ruling_row.ruled_by, corrected_by).await
    }

    /// Whether `member` is on the committee the players of the ruling's rubber agreed.
    pub(crate) async fn sits_for_the_game(
        &self,
        member: &str,
        ruling_row: &ruling::Model,
    ) -> Result<bool, ServiceError> {
        let ruling: pb::Ruling = decode("ruling", &ruling_row.ruling)?;
        Ok(self.game_committee_of(&ruling).await?.is_some_and(|members| members.iter().any(|m| m == member)))
    }

    /// Whether the players of the ruling's rubber agreed their own committee.
    pub(crate) async fn game_agreed_committee(&self, ruling: &pb::Ruling) -> Result<bool, ServiceError> {
        Ok(self.game_committee_of(ruling).await?.is_some())
    }

    /// The committee the players of the ruling's rubber agreed, if they did. Only a table with an
    /// agreed committee asks the scoring service which rubber the scorepad keeps.
    async fn game_committee_of(&self, ruling: &pb::Ruling) -> Result<Option<Vec<String>>, ServiceError> {
        let Some(deal) = ruling.deal.as_ref() else { return Ok(None) };
        let Some(common::score_target::Target::ScorepadDeal(target)) =
            deal.score_target.as_ref().and_then(|t| t.target.as_ref())
        else {
            return Ok(None);
        };
        let agreed_here = game_committee::Entity::find()
            .filter(game_committee::Column::TableId.eq(deal.table_id.as_str()))
            .filter(game_committee::Column::Agreed.eq(true))
            .one(&self.db)
            .await?;
        if agreed_here.is_none() {
            return Ok(None);
        }
        let pad = self.scoring.scorepad(&target.scorepad_id).await?;
        if pad.rubber_id.is_empty() {
            return Ok(None);
        }
        self.agreed_game_committee(&pad.rubber_id).await
    }

    /// Refuses a member who played the deal, is of a contestant concerned, gave the ruling, or
    /// whom the club declared conflicted for the appeal; the refusal names the conflict and, for
    /// one the club declared, what it was declared for and why.
    async fn check_impartial(
        &self,
        members: &[&str],
        appeal_id: &str,
        ruling: &pb::Ruling,
        parties: &Parties,
        ruled_by: &str,
        corrected_by: Option<&str>,
    ) -> Result<(), ServiceError> {
        let form = parties.form.form();
        let own = parties.conflicts(ruled_by);
        let mut conflicted: Vec<(&str, Conflict)> = own.iter().map(|(who, c)| (who.as_str(), *c)).collect();
        conflicted.extend(corrected_by.map(|who| (who, Conflict::CorrectedTheRuling)));
        let rows = conflicts_of(self, members).await?;
        let declarations: Vec<(&str, laws::committee::Declared<'_>)> =
            rows.iter().filter_map(|row| Some((row.member_id.as_str(), declared(row)?))).collect();
        let everyone: Vec<String> = parties.everyone().into_iter().collect();
        let everyone: Vec<&str> = everyone.iter().map(String::as_str).collect();
        let table = ruling.deal.as_ref().map(|d| d.table_id.as_str()).filter(|t| !t.is_empty());
        let concerns = AppealConcerns { parties: &everyone, table, appeal: appeal_id };
        conflicted.extend(laws::committee::declared_conflicts(&declarations, &concerns));
        match laws::appeals::check_impartial(form, members, &conflicted) {
            Ok(()) => Ok(()),
            Err(AppealRefusal::Conflicted { member, conflict: conflict @ Conflict::Declared(_), law }) => {
                let bearing = rows.iter().find(|row| {
                    row.member_id == member
                        && declared(row).is_some_and(|d| {
                            !laws::committee::declared_conflicts(&[(row.member_id.as_str(), d)], &concerns).is_empty()
                        })
                });
                let detail =
                    bearing.map(|row| format!("; declared for {}: {}", describe(row), row.reason)).unwrap_or_default();
                let refusal = AppealRefusal::Conflicted { member, conflict, law };
                Err(ServiceError::Rule { message: format!("{refusal}{detail}"), law })
            }
            Err(other) => Err(ServiceError::rule(other)),
        }
    }
}
