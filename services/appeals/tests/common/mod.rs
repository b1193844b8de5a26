//! The appeals service on a SQLite file of its own and an in-process live store, with an
//! in-memory scoring service behind `ScoreKeeper` that applies adjustments idempotently by ruling
//! and appeal id, as the real one does. The end-to-end tests (tests/tests/e2e/appeals.rs) run the
//! same service against the real scoring service on Postgres and Redis.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::appeals::v1 as pb;
use api::common::v1 as common;
use api::scoring::v1 as spb;
use appeals::Appeals;
use appeals::scoring::ScoreKeeper;
use platform::ServiceError;
use platform::auth::{Principal, Role};

/// How the fake scoring service answers `ApplyAdjustment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Applies it.
    Apply,
    /// Cannot be reached.
    Down,
    /// Refuses it (FAILED_PRECONDITION).
    Refuse,
}

/// The fake scoring service.
pub struct FakeScoring {
    pub pads: Mutex<HashMap<String, spb::Scorepad>>,
    pub sessions: Mutex<HashMap<String, spb::Session>>,
    pub results: Mutex<Vec<spb::BoardResult>>,
    /// Every adjustment that changed the score, in order.
    pub applied: Mutex<Vec<spb::ApplyAdjustmentRequest>>,
    /// The score version each one made.
    pub versions: Mutex<Vec<spb::ScoreVersion>>,
    /// Every call of ApplyAdjustment, answered or not.
    pub calls: AtomicUsize,
    pub mode: Mutex<Mode>,
}

impl FakeScoring {
    fn new() -> Self {
        FakeScoring {
            pads: Mutex::default(),
            sessions: Mutex::default(),
            results: Mutex::default(),
            applied: Mutex::default(),
            versions: Mutex::default(),
            calls: AtomicUsize::new(0),
            mode: Mutex::new(Mode::Apply),
        }
    }

    pub fn set_mode(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub fn applied(&self) -> Vec<spb::ApplyAdjustmentRequest> {
        self.applied.lock().unwrap().clone()
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

fn version(number: usize, request: &spb::ApplyAdjustmentRequest) -> spb::ScoreVersion {
    spb::ScoreVersion {
        version: number as u64,
        target: request.target.clone(),
        cause: if request.appeal_id.is_empty() {
            spb::ScoreVersionCause::Adjustment as i32
        } else {
            spb::ScoreVersionCause::AppealDecision as i32
        },
        reason: request.reason.clone(),
        ruling_id: request.ruling_id.clone(),
        appeal_id: request.appeal_id.clone(),
        recorded_by: "service:appeals".into(),
        recorded_at: Some(appeals::records::timestamp(chrono::Utc::now())),
        ..Default::default()
    }
}

#[async_trait::async_trait]
impl ScoreKeeper for FakeScoring {
    async fn scorepad(&self, scorepad_id: &str) -> Result<spb::Scorepad, ServiceError> {
        self.pads.lock().unwrap().get(scorepad_id).cloned().ok_or_else(|| ServiceError::not_found(scorepad_id))
    }

    async fn session(&self, session_id: &str) -> Result<spb::Session, ServiceError> {
        self.sessions.lock().unwrap().get(session_id).cloned().ok_or_else(|| ServiceError::not_found(session_id))
    }

    async fn board_results(&self, session_id: &str, board_number: u32) -> Result<Vec<spb::BoardResult>, ServiceError> {
        Ok(self
            .results
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.key.as_ref().is_some_and(|k| k.session_id == session_id && k.board_number == board_number))
            .cloned()
            .collect())
    }

    async fn apply_adjustment(
        &self,
        request: spb::ApplyAdjustmentRequest,
    ) -> Result<spb::ApplyAdjustmentResponse, tonic::Status> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        match *self.mode.lock().unwrap() {
            Mode::Down => return Err(tonic::Status::unavailable("connection refused")),
            Mode::Refuse => {
                return Err(tonic::Status::failed_precondition(
                    "a scorepad accepts only an assigned score (the Club Laws)",
                ));
            }
            Mode::Apply => {}
        }
        let mut applied = self.applied.lock().unwrap();
        let number =
            match applied.iter().position(|a| a.ruling_id == request.ruling_id && a.appeal_id == request.appeal_id) {
                Some(index) => index + 1,
                None => {
                    applied.push(request.clone());
                    self.versions.lock().unwrap().push(version(applied.len(), &request));
                    applied.len()
                }
            };
        let made = self.versions.lock().unwrap()[number - 1].clone();
        let board_results = match request.target.as_ref().and_then(|t| t.target.as_ref()) {
            Some(common::score_target::Target::BoardResult(key)) => self
                .results
                .lock()
                .unwrap()
                .iter()
                .filter(|r| {
                    r.key.as_ref().is_some_and(|k| k.session_id == key.session_id && k.board_number == key.board_number)
                })
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        Ok(spb::ApplyAdjustmentResponse { version: Some(made), scorepad: None, board_results })
    }

    async fn score_versions(
        &self,
        _owner: spb::list_score_versions_request::Owner,
        target: common::ScoreTarget,
    ) -> Result<Vec<spb::ScoreVersion>, ServiceError> {
        Ok(self.versions.lock().unwrap().iter().filter(|v| v.target.as_ref() == Some(&target)).cloned().collect())
    }
}

/// The fake membership and game services: the players on the register, the staff accounts, the
/// rubbers, and the rubbers whose first deal has started.
#[derive(Default)]
pub struct FakeOwners {
    pub players: Mutex<HashMap<String, api::membership::v1::Player>>,
    pub accounts: Mutex<HashMap<String, api::membership::v1::Account>>,
    pub rubbers: Mutex<HashMap<String, api::membership::v1::Rubber>>,
    pub started: Mutex<std::collections::HashSet<String>>,
}

impl FakeOwners {
    /// Registers `ids` as active players.
    pub fn register(&self, ids: &[&str]) {
        let mut players = self.players.lock().unwrap();
        for id in ids {
            let player = api::membership::v1::Player { player_id: (*id).into(), active: true, ..Default::default() };
            players.insert((*id).into(), player);
        }
    }
}

#[async_trait::async_trait]
impl appeals::owners::Owners for FakeOwners {
    async fn player(&self, player_id: &str) -> Result<Option<api::membership::v1::Player>, ServiceError> {
        Ok(self.players.lock().unwrap().get(player_id).cloned())
    }

    async fn account(&self, name: &str) -> Result<Option<api::membership::v1::Account>, ServiceError> {
        Ok(self.accounts.lock().unwrap().get(name).cloned())
    }

    async fn rubber(&self, rubber_id: &str) -> Result<Option<api::membership::v1::Rubber>, ServiceError> {
        Ok(self.rubbers.lock().unwrap().get(rubber_id).cloned())
    }

    async fn deals_started(&self, rubber_id: &str) -> Result<bool, ServiceError> {
        Ok(self.started.lock().unwrap().contains(rubber_id))
    }
}

/// The service under test.
pub struct Harness {
    pub appeals: Arc<Appeals>,
    pub scoring: Arc<FakeScoring>,
    pub owners: Arc<FakeOwners>,
    pub db: platform::db::Db,
    dir: std::path::PathBuf,
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub const PAD: &str = "pad-1";
pub const SESSION: &str = "session-1";

impl Harness {
    /// A fresh service with a rubber scorepad `pad-1` (north n, east e, south s, west w; deals d1
    /// and d2 recorded) and a pairs session `session-1` (board 1: A (n2, s2) against B (e2, w2),
    /// C (n3, s3) against D (e3, w3)).
    pub async fn new() -> Harness {
        let dir = std::env::temp_dir().join(format!("appeals-test-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("appeals.db").display());
        let db = platform::db::connect_and_migrate(&url).await.unwrap();
        appeals::store::seed(&db, &laws::appeals::AppealPolicy::default()).await.unwrap();
        let scoring = Arc::new(FakeScoring::new());
        let live: platform::live::SharedLiveStore = Arc::new(platform::live::MemoryStore::new());
        let owners = Arc::new(FakeOwners::default());
        owners.register(&["n", "e", "s", "w", "n2", "s2", "e2", "w2", "n3", "s3", "e3", "w3"]);
        let appeals =
            Arc::new(Appeals::new(db.clone(), live, scoring.clone(), Duration::ZERO).with_owners(owners.clone()));

        let seat = |seat: common::Seat, id: &str| common::SeatedPlayer { seat: seat as i32, player_id: id.into() };
        let recorded = |deal: &str| spb::RecordedDeal { deal_id: deal.into(), ..Default::default() };
        scoring.pads.lock().unwrap().insert(
            PAD.into(),
            spb::Scorepad {
                scorepad_id: PAD.into(),
                kind: common::TableKind::Rubber as i32,
                table_id: "table-1".into(),
                players: vec![
                    seat(common::Seat::North, "n"),
                    seat(common::Seat::East, "e"),
                    seat(common::Seat::South, "s"),
                    seat(common::Seat::West, "w"),
                ],
                deals: vec![recorded("d1"), recorded("d2")],
                ..Default::default()
            },
        );
        let contestant = |id: &str, players: [&str; 2]| spb::Contestant {
            contestant_id: id.into(),
            name: id.into(),
            player_ids: players.iter().map(|p| (*p).to_owned()).collect(),
            captain_player_id: String::new(),
        };
        scoring.sessions.lock().unwrap().insert(
            SESSION.into(),
            spb::Session {
                session_id: SESSION.into(),
                contestant_kind: spb::ContestantKind::Pairs as i32,
                boards: vec![spb::Board { number: 1, ..Default::default() }],
                contestants: vec![
                    contestant("A", ["n2", "s2"]),
                    contestant("B", ["e2", "w2"]),
                    contestant("C", ["n3", "s3"]),
                    contestant("D", ["e3", "w3"]),
                ],
                ..Default::default()
            },
        );
        let result = |ns: &str, ew: &str, deal: &str| spb::BoardResult {
            key: Some(board_key(ns, ew)),
            deal_id: deal.into(),
            ..Default::default()
        };
        scoring.results.lock().unwrap().extend([result("A", "B", "b1-ab"), result("C", "D", "b1-cd")]);
        Harness { appeals, scoring, owners, db, dir }
    }

    /// North's appeal against a rubber ruling that the table result stands, filed under a
    /// policy with a committee of `size`.
    pub async fn rubber_appeal(&self, size: u32) -> pb::Appeal {
        self.allow_appeals(size).await;
        let ruling = rubber_ruling("r", "d1", result_stands());
        let ruling = self.appeals.record_ruling(&arbiter(), ruling).await.unwrap().ruling.unwrap();
        let filing = file("a", &ruling.ruling_id, "", &[]);
        self.appeals.file_appeal(&principal("n", &[Role::Player]), filing).await.unwrap().appeal.unwrap()
    }

    /// Publishes a policy that hears appeals, with a committee of `size`.
    pub async fn allow_appeals(&self, size: u32) {
        let current = self.appeals.get_policy().await.unwrap().policy.unwrap();
        let minutes = |m: i64| Some(prost_types::Duration { seconds: m * 60, nanos: 0 });
        self.appeals
            .update_policy(
                &principal("admin", &[Role::Admin]),
                pb::UpdateAppealPolicyRequest {
                    expected_version: current.version,
                    policy: Some(pb::AppealPolicy {
                        appeals_allowed: true,
                        rubber_time_limit: minutes(60),
                        duplicate_time_limit: minutes(30),
                        committee_size: size,
                        ..Default::default()
                    }),
                },
            )
            .await
            .unwrap();
    }

    /// Principals with the committee role, each a player on the register whom the administrator
    /// put on the club's committee roster from yesterday, with no end to the term.
    pub async fn committee(&self, members: &[&str]) -> Vec<Principal> {
        let mut principals = Vec::new();
        let yesterday = appeals::records::timestamp(chrono::Utc::now() - chrono::Duration::days(1));
        for member in members {
            let principal = principal(member, &[Role::Committee]);
            self.appeals.note_committee_member(&principal).await.unwrap();
            self.owners.register(&[member]);
            let entry = pb::AddRosterEntryRequest {
                member_id: (*member).into(),
                chair: false,
                term_from: Some(yesterday),
                term_until: None,
                idempotency_key: String::new(),
            };
            self.appeals.add_roster_entry(&admin(), entry).await.unwrap();
            principals.push(principal);
        }
        principals
    }
}

pub fn principal(subject: &str, roles: &[Role]) -> Principal {
    Principal { subject: subject.into(), roles: roles.iter().copied().collect() }
}

pub fn admin() -> Principal {
    principal("admin", &[Role::Admin])
}

pub fn arbiter() -> Principal {
    principal("arbiter", &[Role::Arbiter])
}

pub fn board_key(ns: &str, ew: &str) -> common::BoardResultKey {
    common::BoardResultKey {
        session_id: SESSION.into(),
        board_number: 1,
        north_south_contestant_id: ns.into(),
        east_west_contestant_id: ew.into(),
    }
}

pub fn pad_target(deal: &str) -> common::ScoreTarget {
    common::ScoreTarget {
        target: Some(common::score_target::Target::ScorepadDeal(common::ScorepadDeal {
            scorepad_id: PAD.into(),
            deal_id: deal.into(),
        })),
    }
}

pub fn board_target(ns: &str, ew: &str) -> common::ScoreTarget {
    common::ScoreTarget { target: Some(common::score_target::Target::BoardResult(board_key(ns, ew))) }
}

pub fn citation(code: common::LawCode, number: u32, section: &str) -> common::LawCitation {
    common::LawCitation { code: code as i32, number, section: section.into(), text: String::new() }
}

pub fn result_stands() -> pb::RulingDecision {
    pb::RulingDecision { decision: Some(pb::ruling_decision::Decision::ResultStands(pb::ResultStands {})) }
}

/// An assigned score: `contract` by `declarer` taking `tricks`.
pub fn assigned(contract: &str, declarer: laws::Seat, tricks: u32) -> pb::RulingDecision {
    let contract: laws::Contract = contract.parse().unwrap();
    let result = common::DealResult {
        outcome: Some(common::deal_result::Outcome::Played(common::PlayedContract {
            contract: Some(laws::DeclaredContract { contract, declarer }.into()),
            tricks,
        })),
        honors: Vec::new(),
    };
    pb::RulingDecision {
        decision: Some(pb::ruling_decision::Decision::AdjustedScore(common::Adjustment {
            kind: Some(common::adjustment::Kind::Assigned(common::AssignedScore { result: Some(result) })),
        })),
    }
}

/// A ruling on a rubber deal of `pad-1`.
pub fn rubber_ruling(key: &str, deal: &str, decision: pb::RulingDecision) -> pb::RecordRulingRequest {
    pb::RecordRulingRequest {
        idempotency_key: key.into(),
        deal: Some(pb::DealReference {
            deal_id: String::new(),
            table_id: String::new(),
            kind: common::TableKind::Rubber as i32,
            score_target: Some(pad_target(deal)),
            players: Vec::new(),
        }),
        irregularity: "disputed claim".into(),
        irregularity_id: String::new(),
        laws: vec![citation(common::LawCode::Club, 69, "")],
        facts: "declarer claimed without mentioning the outstanding trump".into(),
        kind: pb::RulingKind::Judgement as i32,
        offending_side: common::Side::NorthSouth as i32,
        decision: Some(decision),
        right_to_appeal_advised: true,
    }
}

/// A ruling on board 1 of `session-1`, A against B.
pub fn board_ruling(key: &str, kind: pb::RulingKind, decision: pb::RulingDecision) -> pb::RecordRulingRequest {
    pb::RecordRulingRequest {
        idempotency_key: key.into(),
        deal: Some(pb::DealReference {
            deal_id: String::new(),
            table_id: "t4".into(),
            kind: common::TableKind::Duplicate as i32,
            score_target: Some(board_target("A", "B")),
            players: Vec::new(),
        }),
        irregularity: "hesitation before the final pass".into(),
        irregularity_id: String::new(),
        laws: vec![citation(common::LawCode::Duplicate, 16, "B1")],
        facts: "a break in tempo; pass was a logical alternative".into(),
        kind: kind as i32,
        offending_side: common::Side::EastWest as i32,
        decision: Some(decision),
        right_to_appeal_advised: true,
    }
}

pub fn file(key: &str, ruling_id: &str, appellant: &str, concurring: &[&str]) -> pb::FileAppealRequest {
    pb::FileAppealRequest {
        idempotency_key: key.into(),
        ruling_id: ruling_id.into(),
        appellant_player_id: appellant.into(),
        concurring_player_ids: concurring.iter().map(|p| (*p).to_owned()).collect(),
        grounds: "the arbiter misjudged the claim".into(),
        ..Default::default()
    }
}

pub fn hearing(appeal: &pb::Appeal, members: &[&str]) -> pb::HearAppealRequest {
    pb::HearAppealRequest {
        appeal_id: appeal.appeal_id.clone(),
        expected_version: appeal.version,
        hearing: Some(pb::Hearing {
            committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
            statements: vec![pb::Statement {
                speaker: "arbiter".into(),
                role: pb::SpeakerRole::Arbiter as i32,
                text: "I ruled the claim stood".into(),
            }],
            notes: String::new(),
            heard_at: None,
            duration: None,
        }),
    }
}

pub fn decision(
    key: &str,
    appeal: &pb::Appeal,
    outcome: pb::AppealOutcome,
    new_decision: Option<pb::RulingDecision>,
    members: &[&str],
) -> pb::DecideAppealRequest {
    pb::DecideAppealRequest {
        idempotency_key: key.into(),
        appeal_id: appeal.appeal_id.clone(),
        outcome: outcome as i32,
        new_decision,
        reasons: "the committee finds the claim did not include the trump".into(),
        committee_member_ids: members.iter().map(|m| (*m).to_owned()).collect(),
        ..Default::default()
    }
}
