//! How rulings and appeals are kept: who a ruling concerns ([`Parties`]), score targets as keys,
//! and the conversions between the contract's values and the laws crate's and the database's.

use std::collections::BTreeSet;
use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use chrono::{DateTime, Utc};
use laws::appeals::{AppealForm, Contest, Contestant, DealParties, RulingKind};
use platform::ServiceError;
use serde::{Deserialize, Serialize};

/// The form of a ruled deal as it is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormRecord {
    /// Rubber bridge.
    Rubber,
    /// Chicago.
    Chicago,
    /// A duplicate pairs event.
    Pairs,
    /// A duplicate teams event.
    Teams,
    /// A duplicate individual contest.
    Individuals,
}

impl FormRecord {
    /// The Laws that govern an appeal on the deal.
    pub fn form(self) -> AppealForm {
        match self {
            FormRecord::Rubber => AppealForm::Rubber,
            FormRecord::Chicago => AppealForm::Chicago,
            FormRecord::Pairs => AppealForm::Duplicate(Contest::Pairs),
            FormRecord::Teams => AppealForm::Duplicate(Contest::Teams),
            FormRecord::Individuals => AppealForm::Duplicate(Contest::Individuals),
        }
    }
}

/// A duplicate contestant as the ruling recorded it, from the scoring service's session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContestantRecord {
    /// The contestant's id in the session.
    pub contestant_id: String,
    /// Its players.
    pub members: Vec<String>,
    /// A team's captain.
    pub captain: Option<String>,
}

/// Who a ruling concerns: the players of the deal as the scoring service knows them when the
/// ruling is recorded (a scorepad's four players; a board's two contestants with their members
/// and captains). They may appeal, and they receive the ruling's notices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parties {
    /// Which Laws govern an appeal.
    pub form: FormRecord,
    /// The players seated at the deal (rubber and Chicago: all four; duplicate: as the director
    /// gave them, possibly none).
    pub players: Vec<String>,
    /// Duplicate: the contestants that sat North-South and East-West.
    pub contestants: Option<[ContestantRecord; 2]>,
}

impl Parties {
    /// Who may not sit on the committee hearing an appeal against a ruling `ruled_by` gave on
    /// these parties, and why (`laws::appeals::check_impartial`).
    pub fn conflicts(&self, ruled_by: &str) -> Vec<(String, laws::appeals::Conflict)> {
        use laws::appeals::Conflict;
        let mut conflicts: Vec<(String, Conflict)> =
            self.players.iter().map(|player| (player.clone(), Conflict::PlayedTheDeal)).collect();
        for member in self.everyone() {
            if !self.players.contains(&member) {
                conflicts.push((member, Conflict::ContestantConcerned));
            }
        }
        conflicts.push((ruled_by.to_owned(), Conflict::GaveTheRuling));
        conflicts
    }

    /// Everyone the ruling concerns: the seated players, and every member and captain of the
    /// contestants.
    pub fn everyone(&self) -> BTreeSet<String> {
        let mut all: BTreeSet<String> = self.players.iter().cloned().collect();
        for contestant in self.contestants.iter().flatten() {
            all.extend(contestant.members.iter().cloned());
            all.extend(contestant.captain.iter().cloned());
        }
        all
    }

    /// Whether `player` is one of [`Parties::everyone`].
    pub fn includes(&self, player: &str) -> bool {
        self.players.iter().any(|p| p == player)
            || self
                .contestants
                .iter()
                .flatten()
                .any(|c| c.members.iter().any(|m| m == player) || c.captain.as_deref() == Some(player))
    }

    /// Checks `appellant` (with `concurring`) against the Laws (see
    /// [`laws::appeals::check_appellant`]).
    pub fn check_appellant(&self, appellant: &str, concurring: &[&str]) -> Result<(), ServiceError> {
        let players: Vec<&str> = self.players.iter().map(String::as_str).collect();
        let result = match (&self.contestants, self.form.form()) {
            (Some([ns, ew]), AppealForm::Duplicate(contest)) => {
                let ns_members: Vec<&str> = ns.members.iter().map(String::as_str).collect();
                let ew_members: Vec<&str> = ew.members.iter().map(String::as_str).collect();
                let parties = DealParties::Contestants {
                    contest,
                    north_south: Contestant { members: &ns_members, captain: ns.captain.as_deref() },
                    east_west: Contestant { members: &ew_members, captain: ew.captain.as_deref() },
                };
                laws::appeals::check_appellant(&parties, appellant, concurring)
            }
            _ => laws::appeals::check_appellant(&DealParties::Table { players: &players }, appellant, concurring),
        };
        result.map_err(ServiceError::rule)
    }

    /// Reads the stored JSON.
    pub fn from_json(json: &str) -> Result<Parties, ServiceError> {
        serde_json::from_str(json).map_err(|e| ServiceError::internal(format!("stored parties: {e}")))
    }

    /// The JSON to store.
    pub fn to_json(&self) -> Result<String, ServiceError> {
        serde_json::to_string(self).map_err(ServiceError::internal)
    }
}

/// A score target as a key that orders and filters: `pad/<scorepad>/<deal>` or
/// `board/<session>/<board>/<ns>/<ew>`. Ids travel inside, so a `/` in one would make two
/// targets share a key; ids are UUIDs or desk-given names, and a `/` is refused.
pub fn target_key(field: &str, target: &common::ScoreTarget) -> Result<String, ServiceError> {
    let parts: Vec<String> = match &target.target {
        Some(common::score_target::Target::ScorepadDeal(deal)) => {
            vec![
                "pad".into(),
                nonempty(field, "scorepad_id", &deal.scorepad_id)?,
                nonempty(field, "deal_id", &deal.deal_id)?,
            ]
        }
        Some(common::score_target::Target::BoardResult(key)) => {
            if key.board_number == 0 {
                return Err(ServiceError::invalid(
                    &format!("{field}.board_result.board_number"),
                    "boards number from 1",
                ));
            }
            vec![
                "board".into(),
                nonempty(field, "session_id", &key.session_id)?,
                key.board_number.to_string(),
                nonempty(field, "north_south_contestant_id", &key.north_south_contestant_id)?,
                nonempty(field, "east_west_contestant_id", &key.east_west_contestant_id)?,
            ]
        }
        None => return Err(ServiceError::invalid(field, "a scorepad deal or a board result is required")),
    };
    Ok(parts.join("/"))
}

fn nonempty(field: &str, name: &str, value: &str) -> Result<String, ServiceError> {
    if value.is_empty() {
        Err(ServiceError::invalid(&format!("{field}.{name}"), "required"))
    } else if value.contains('/') {
        Err(ServiceError::invalid(&format!("{field}.{name}"), "an id may not contain '/'"))
    } else {
        Ok(value.to_owned())
    }
}

/// The scorepad or session whose score versions concern `target`.
pub fn score_owner(target: &common::ScoreTarget) -> Option<api::scoring::v1::list_score_versions_request::Owner> {
    use api::scoring::v1::list_score_versions_request::Owner;
    match &target.target {
        Some(common::score_target::Target::ScorepadDeal(deal)) => Some(Owner::ScorepadId(deal.scorepad_id.clone())),
        Some(common::score_target::Target::BoardResult(key)) => Some(Owner::SessionId(key.session_id.clone())),
        None => None,
    }
}

/// The laws crate's kind of a ruling.
pub fn ruling_kind(field: &str, kind: i32) -> Result<RulingKind, ServiceError> {
    match pb::RulingKind::try_from(kind) {
        Ok(pb::RulingKind::Law) => Ok(RulingKind::Law),
        Ok(pb::RulingKind::Fact) => Ok(RulingKind::Fact),
        Ok(pb::RulingKind::Judgement) => Ok(RulingKind::Judgement),
        Ok(pb::RulingKind::Disciplinary) => Ok(RulingKind::Disciplinary),
        Ok(pb::RulingKind::Unspecified) => {
            Err(ServiceError::invalid(field, "not given; law, fact, judgement or disciplinary is required"))
        }
        Err(_) => Err(ServiceError::invalid(field, format!("unknown value {kind}"))),
    }
}

/// The stored status of an appeal.
pub fn status_name(status: pb::AppealStatus) -> &'static str {
    match status {
        pb::AppealStatus::Filed => "filed",
        pb::AppealStatus::Heard => "heard",
        pb::AppealStatus::Decided => "decided",
        pb::AppealStatus::Withdrawn => "withdrawn",
        pb::AppealStatus::Unspecified => "unspecified",
    }
}

/// A protobuf timestamp.
pub fn timestamp(at: DateTime<Utc>) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: at.timestamp(), nanos: i32::try_from(at.timestamp_subsec_nanos()).unwrap_or(0) }
}

/// A time from a protobuf timestamp, if it is one chrono can hold.
pub fn from_timestamp(at: &prost_types::Timestamp) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(at.seconds, u32::try_from(at.nanos).ok()?)
}

/// A protobuf duration of whole seconds.
pub fn duration(seconds: i64) -> prost_types::Duration {
    prost_types::Duration { seconds, nanos: 0 }
}

/// A duration from a protobuf one: not negative, whole seconds.
pub fn from_duration(field: &str, value: Option<&prost_types::Duration>) -> Result<Duration, ServiceError> {
    let value = value.ok_or_else(|| ServiceError::invalid(field, "required"))?;
    if value.seconds < 0 || value.nanos < 0 {
        return Err(ServiceError::invalid(field, "a time limit cannot be negative"));
    }
    if value.nanos != 0 {
        return Err(ServiceError::invalid(field, "give a time limit in whole seconds"));
    }
    Ok(Duration::from_secs(value.seconds.unsigned_abs()))
}

/// The time between `from` and `to`, zero if `to` is earlier.
pub fn elapsed(from: DateTime<Utc>, to: DateTime<Utc>) -> Duration {
    (to - from).to_std().unwrap_or(Duration::ZERO)
}

/// Fills a Law citation's text from its code, number and section (clients send the first three;
/// servers fill the text), refusing a code not given or a number the code does not have.
pub fn cite(field: &str, citation: &common::LawCitation) -> Result<common::LawCitation, ServiceError> {
    use api::convert::ProtoEnum;
    let code = laws::law::Code::from_proto(&format!("{field}.code"), citation.code)?;
    let number = u8::try_from(citation.number).ok().filter(|n| code.numbers().contains(n)).ok_or_else(|| {
        ServiceError::invalid(
            &format!("{field}.number"),
            format!(
                "the {} have no rule {} (they number {} to {})",
                code.title(),
                citation.number,
                code.numbers().start(),
                code.numbers().end()
            ),
        )
    })?;
    let section = citation.section.trim();
    if section.len() > 16 || !section.chars().all(|c| c.is_ascii_alphanumeric() || "()".contains(c)) {
        return Err(ServiceError::invalid(&format!("{field}.section"), "a section as printed, such as B, C1 or C1(c)"));
    }
    Ok(common::LawCitation {
        code: citation.code,
        number: citation.number,
        section: section.to_owned(),
        text: laws::law::citation_text(code, number, section),
    })
}

/// Encodes a message.
pub fn encode<M: prost::Message>(message: &M) -> Vec<u8> {
    message.encode_to_vec()
}

/// Decodes a message this service stored.
pub fn decode<M: prost::Message + Default>(what: &str, bytes: &[u8]) -> Result<M, ServiceError> {
    M::decode(bytes).map_err(|e| ServiceError::internal(format!("stored {what}: {e}")))
}

/// The hash that ties an idempotency key to one request.
pub fn request_hash<M: prost::Message>(request: &M) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(request.encode_to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_become_keys_and_bad_ids_are_named() {
        let pad = common::ScoreTarget {
            target: Some(common::score_target::Target::ScorepadDeal(common::ScorepadDeal {
                scorepad_id: "p1".into(),
                deal_id: "d3".into(),
            })),
        };
        assert_eq!(target_key("t", &pad).ok().as_deref(), Some("pad/p1/d3"));
        let board = common::ScoreTarget {
            target: Some(common::score_target::Target::BoardResult(common::BoardResultKey {
                session_id: "s".into(),
                board_number: 4,
                north_south_contestant_id: "a/b".into(),
                east_west_contestant_id: "c".into(),
            })),
        };
        let err = target_key("deal.score_target", &board).err().map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("deal.score_target.north_south_contestant_id: an id may not contain '/'"));
        assert!(target_key("t", &common::ScoreTarget { target: None }).is_err());
    }

    #[test]
    fn citations_are_filled_and_checked() {
        let citation = common::LawCitation {
            code: common::LawCode::Duplicate as i32,
            number: 12,
            section: " C1(c) ".into(),
            text: "anything".into(),
        };
        let filled = cite("laws[0]", &citation).ok();
        assert_eq!(filled.map(|c| c.text).as_deref(), Some("Law 12C1(c) of the Laws of Duplicate Bridge"));
        let missing = cite("laws[1]", &common::LawCitation { code: 1, number: 82, ..Default::default() });
        assert_eq!(
            missing.err().map(|e| e.to_string()).as_deref(),
            Some("laws[1].number: the Laws of Rubber Bridge have no rule 82 (they number 1 to 81)")
        );
        assert!(cite("laws[2]", &common::LawCitation { code: 0, number: 1, ..Default::default() }).is_err());
    }

    #[test]
    fn everyone_includes_members_and_captains() {
        let parties = Parties {
            form: FormRecord::Teams,
            players: vec!["a1".into()],
            contestants: Some([
                ContestantRecord {
                    contestant_id: "A".into(),
                    members: vec!["a1".into(), "a2".into()],
                    captain: Some("ac".into()),
                },
                ContestantRecord { contestant_id: "B".into(), members: vec!["b1".into()], captain: None },
            ]),
        };
        assert_eq!(parties.everyone().into_iter().collect::<Vec<_>>(), ["a1", "a2", "ac", "b1"]);
        assert!(parties.includes("ac") && !parties.includes("zz"));
        let back = Parties::from_json(&parties.to_json().unwrap_or_default()).ok();
        assert_eq!(back, Some(parties));
    }
}
