//! A game's own committee (the Club Appeals Committee: "any game may designate a committee to
//! which appeals may be taken. If such a procedure has been agreed to or published in advance,
//! any player may appeal"). The game is a rubber, membership's: a player of it designates the
//! committee before its first deal (the game service says whether one has started), each of the
//! four confirms it, and once all four have, it hears that rubber's appeals instead of the club's
//! committee ([`super::panel`]). The rules are [`laws::committee`]'s; the rubber's table and
//! players are membership's, asked each time (docs/trust.md), and every member is a player on its
//! register.

use api::appeals::v1 as pb;
use chrono::Utc;
use platform::ServiceError;
use platform::auth::Principal;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

use super::{Appeals, required_text};
use crate::entity::game_committee as committee;
use crate::records::timestamp;

fn to_json(ids: &[String]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned())
}

fn from_json(what: &str, json: &str) -> Result<Vec<String>, ServiceError> {
    serde_json::from_str(json).map_err(|e| ServiceError::internal(format!("stored game committee {what}: {e}")))
}

/// The contract's committee of a stored row.
fn committee_message(row: &committee::Model) -> Result<pb::GameCommittee, ServiceError> {
    Ok(pb::GameCommittee {
        rubber_id: row.rubber_id.clone(),
        table_id: row.table_id.clone(),
        member_ids: from_json("members", &row.members)?,
        player_ids: from_json("players", &row.players)?,
        confirmed_player_ids: from_json("confirmations", &row.confirmed)?,
        agreed: row.agreed,
        designated_by: row.designated_by.clone(),
        designated_at: Some(timestamp(row.designated_at)),
        agreed_at: row.agreed_at.map(timestamp),
    })
}

/// A refusal of the laws crate, a stranger to the game being refused his access rather than a rule.
fn refused(refusal: laws::committee::CommitteeRefusal) -> ServiceError {
    match refusal {
        laws::committee::CommitteeRefusal::NotAPlayerOfTheGame { .. } => {
            ServiceError::PermissionDenied(refusal.to_string())
        }
        other => ServiceError::rule(other),
    }
}

/// The rubber's table and four players, from membership.
struct Game {
    table_id: String,
    players: Vec<String>,
}

impl Game {
    fn players(&self) -> Vec<&str> {
        self.players.iter().map(String::as_str).collect()
    }
}

impl Appeals {
    async fn game(&self, rubber_id: &str) -> Result<Game, ServiceError> {
        let rubber = self.owners.rubber(rubber_id).await?.ok_or_else(|| {
            ServiceError::FailedPrecondition(format!(
                "rubber_id: membership has no rubber {rubber_id}; a game's committee is for a rubber the desk started"
            ))
        })?;
        Ok(Game { table_id: rubber.table_id, players: rubber.seats.into_iter().map(|s| s.player_id).collect() })
    }

    /// The agreed committee of `rubber_id`, if its players agreed one.
    pub(crate) async fn agreed_game_committee(&self, rubber_id: &str) -> Result<Option<Vec<String>>, ServiceError> {
        let row = committee::Entity::find_by_id(rubber_id.to_owned()).one(&self.db).await?;
        row.filter(|row| row.agreed).map(|row| from_json("members", &row.members)).transpose()
    }

    /// Designates a rubber's committee; the designation counts as the designator's confirmation.
    #[tracing::instrument(skip_all, fields(player = %principal.subject, rubber_id = %request.rubber_id))]
    pub async fn designate_game_committee(
        &self,
        principal: &Principal,
        request: pb::DesignateGameCommitteeRequest,
    ) -> Result<pb::DesignateGameCommitteeResponse, ServiceError> {
        let rubber_id = required_text("rubber_id", &request.rubber_id, "the rubber")?;
        let mut members = Vec::with_capacity(request.member_ids.len());
        for (i, member) in request.member_ids.iter().enumerate() {
            members.push(required_text(&format!("member_ids[{i}]"), member, "a player id")?.to_owned());
        }
        let game = self.game(rubber_id).await?;
        let named: Vec<&str> = members.iter().map(String::as_str).collect();
        let players = game.players();
        if !players.contains(&principal.subject.as_str()) {
            return Err(refused(laws::committee::CommitteeRefusal::NotAPlayerOfTheGame {
                player: principal.subject.clone(),
            }));
        }
        let started = self.owners.deals_started(rubber_id).await?;
        laws::committee::check_designation(&players, &principal.subject, &named, started).map_err(refused)?;
        for (i, member) in members.iter().enumerate() {
            self.check_registered(&format!("member_ids[{i}]"), member).await?;
        }
        let existing = committee::Entity::find_by_id(rubber_id.to_owned()).one(&self.db).await?;
        if existing.as_ref().is_some_and(|row| row.agreed) {
            return Err(ServiceError::FailedPrecondition(format!(
                "the players of rubber {rubber_id} have agreed their committee; it stands (the Club Appeals \
                 Committee (Alternative Club Laws): a procedure agreed in advance)"
            )));
        }
        let now = Utc::now();
        let row = committee::Model {
            rubber_id: rubber_id.to_owned(),
            table_id: game.table_id.clone(),
            members: to_json(&members),
            players: to_json(&game.players),
            confirmed: to_json(std::slice::from_ref(&principal.subject)),
            agreed: false,
            designated_by: principal.subject.clone(),
            designated_at: now,
            agreed_at: None,
        };
        match existing {
            None => {
                committee::Entity::insert(committee::ActiveModel::from(row.clone()))
                    .exec_without_returning(&self.db)
                    .await?;
            }
            Some(old) => {
                let result = committee::Entity::update_many()
                    .set(committee::ActiveModel::from(row.clone()))
                    .filter(committee::Column::RubberId.eq(rubber_id))
                    .filter(committee::Column::Members.eq(old.members))
                    .filter(committee::Column::Confirmed.eq(old.confirmed))
                    .filter(committee::Column::Agreed.eq(false))
                    .exec(&self.db)
                    .await?;
                if result.rows_affected == 0 {
                    return Err(ServiceError::Conflict(format!(
                        "rubber {rubber_id}'s committee changed meanwhile; read it again"
                    )));
                }
            }
        }
        Ok(pb::DesignateGameCommitteeResponse { committee: Some(committee_message(&row)?) })
    }

    /// Confirms a rubber's designated committee; the fourth confirmation makes it agreed.
    #[tracing::instrument(skip_all, fields(player = %principal.subject, rubber_id = %request.rubber_id))]
    pub async fn confirm_game_committee(
        &self,
        principal: &Principal,
        request: pb::ConfirmGameCommitteeRequest,
    ) -> Result<pb::ConfirmGameCommitteeResponse, ServiceError> {
        let rubber_id = required_text("rubber_id", &request.rubber_id, "the rubber")?;
        let row = self.game_committee_row(rubber_id).await?;
        let game = self.game(rubber_id).await?;
        let players = game.players();
        if !players.contains(&principal.subject.as_str()) {
            return Err(refused(laws::committee::CommitteeRefusal::NotAPlayerOfTheGame {
                player: principal.subject.clone(),
            }));
        }
        let members = from_json("members", &row.members)?;
        if request.member_ids != members {
            return Err(ServiceError::FailedPrecondition(format!(
                "rubber {rubber_id}'s designated committee is {}, not {}; read it again before confirming",
                members.join(", "),
                request.member_ids.join(", ")
            )));
        }
        let mut confirmed = from_json("confirmations", &row.confirmed)?;
        if confirmed.contains(&principal.subject) || row.agreed {
            return Ok(pb::ConfirmGameCommitteeResponse { committee: Some(committee_message(&row)?) });
        }
        let started = self.owners.deals_started(rubber_id).await?;
        laws::committee::check_confirmation(&players, &principal.subject, started).map_err(refused)?;
        confirmed.push(principal.subject.clone());
        let confirmed_ids: Vec<&str> = confirmed.iter().map(String::as_str).collect();
        let agreed = laws::committee::is_agreed(&players, &confirmed_ids);
        let updated = committee::Model {
            confirmed: to_json(&confirmed),
            players: to_json(&game.players),
            agreed,
            agreed_at: agreed.then(Utc::now),
            ..row.clone()
        };
        let result = committee::Entity::update_many()
            .set(committee::ActiveModel {
                confirmed: Set(updated.confirmed.clone()),
                players: Set(updated.players.clone()),
                agreed: Set(updated.agreed),
                agreed_at: Set(updated.agreed_at),
                ..Default::default()
            })
            .filter(committee::Column::RubberId.eq(rubber_id))
            .filter(committee::Column::Members.eq(row.members.as_str()))
            .filter(committee::Column::Confirmed.eq(row.confirmed.as_str()))
            .exec(&self.db)
            .await?;
        if result.rows_affected == 0 {
            return Err(ServiceError::Conflict(format!(
                "rubber {rubber_id}'s committee changed meanwhile; confirm again"
            )));
        }
        Ok(pb::ConfirmGameCommitteeResponse { committee: Some(committee_message(&updated)?) })
    }

    async fn game_committee_row(&self, rubber_id: &str) -> Result<committee::Model, ServiceError> {
        committee::Entity::find_by_id(rubber_id.to_owned())
            .one(&self.db)
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("no committee was designated for rubber {rubber_id}")))
    }

    /// A rubber's committee.
    pub async fn get_game_committee(
        &self,
        request: pb::GetGameCommitteeRequest,
    ) -> Result<pb::GetGameCommitteeResponse, ServiceError> {
        let rubber_id = required_text("rubber_id", &request.rubber_id, "the rubber")?;
        let row = self.game_committee_row(rubber_id).await?;
        Ok(pb::GetGameCommitteeResponse { committee: Some(committee_message(&row)?) })
    }
}
