//! `bridgectl appeal ...`, `bridgectl ruling show`, `bridgectl audit score`: the committee's and the
//! arbiter's commands for the appeals service.
//!
//! ```text
//! bridgectl appeal list --status filed
//! bridgectl appeal show <appeal>
//! bridgectl appeal hear <appeal> --member ann --member bob --member cy \
//!     --statement "appellant:p1:The claim included the trump finesse" --notes "..."
//! bridgectl appeal decide <appeal> --outcome overruled --member ann --member bob --member cy \
//!     --reasons "..." --contract 4S --declarer N --tricks 10
//! bridgectl appeal policy show | set --allowed --committee-size 3 --rubber-minutes 30 --duplicate-minutes 30 \
//!     [--director-review] [--further-appeal-to "the national authority"] [--deposit 500 --currency GBP]
//! bridgectl appeal file | director-hear | director-decide | review | further ...   (see `procedure`)
//! bridgectl appeal roster | conflict | game-committee ...   (see `committee`)
//! bridgectl ruling show <ruling>
//! bridgectl audit score --scorepad <pad> --deal <deal>
//! bridgectl audit score --session <session> --board 7 --ns <contestant> --ew <contestant>
//! ```

use std::fmt::Write as _;

use anyhow::{Context, bail};
use api::appeals::v1 as pb;
use api::appeals::v1::appeals_service_client::AppealsServiceClient;
use api::common::v1 as common;
use clap::{Args, Subcommand, ValueEnum};

mod committee;
mod procedure;

/// The appeals service's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Appeals: list, show, hear, decide; the club's appeal policy.
    Appeal {
        #[command(subcommand)]
        command: AppealCommand,
    },
    /// Rulings.
    Ruling {
        #[command(subcommand)]
        command: RulingCommand,
    },
    /// The audit trail of a score.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
}

/// `bridgectl appeal ...`
#[derive(Debug, Subcommand)]
pub enum AppealCommand {
    /// Lists appeals, newest first.
    List {
        /// Only appeals in this state.
        #[arg(long, value_enum)]
        status: Option<Status>,
        /// Only appeals against this ruling.
        #[arg(long)]
        ruling: Option<String>,
        /// Only appeals about deals this player played.
        #[arg(long)]
        player: Option<String>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Shows an appeal and the ruling appealed.
    Show {
        /// The appeal.
        appeal: String,
    },
    /// Prints a decided appeal's notice, the HTML page the committee hands to the parties
    /// (`bridgectl appeal notice A1 > notice.html`).
    Notice {
        /// The appeal.
        appeal: String,
    },
    /// Records the hearing: the members who sat (you among them), the statements, the notes.
    Hear {
        /// The appeal.
        appeal: String,
        /// A committee member who sat; repeat for each (the club's policy says how many).
        #[arg(long = "member", required = true)]
        members: Vec<String>,
        /// A statement as `role:speaker:text`, role one of appellant, other, arbiter, witness; repeat.
        #[arg(long = "statement", value_parser = parse_statement)]
        statements: Vec<pb::Statement>,
        /// The committee's notes.
        #[arg(long, default_value = "")]
        notes: String,
        /// How long the hearing lasted, in minutes.
        #[arg(long)]
        minutes: Option<u32>,
    },
    /// Decides a heard appeal: upheld, or overruled or varied with the decision now in force.
    Decide(Decide),
    /// Files an appeal against a ruling, with the deposit the club's policy asks.
    File(procedure::File),
    /// The Director in charge hears an appeal the club has no committee for (Law 93A).
    DirectorHear(procedure::DirectorHear),
    /// The Director in charge decides an appeal he heard (Law 93A).
    DirectorDecide(procedure::DirectorDecide),
    /// The Director in charge reviews a point of law before the committee hears it (Law 93B1).
    Review(procedure::Review),
    /// A decided appeal taken further, beyond the club (Law 93C).
    Further {
        #[command(subcommand)]
        command: procedure::FurtherCommand,
    },
    /// The club's appeal policy.
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// The club's committee roster: members and their terms (admin).
    Roster {
        #[command(subcommand)]
        command: committee::RosterCommand,
    },
    /// Conflicts the club declares for its committee members (admin).
    Conflict {
        #[command(subcommand)]
        command: committee::ConflictCommand,
    },
    /// A rubber's own committee, agreed by its four players before the first deal.
    GameCommittee {
        #[command(subcommand)]
        command: committee::GameCommitteeCommand,
    },
}

/// `bridgectl appeal decide ...`
#[derive(Debug, Args)]
pub struct Decide {
    /// The appeal.
    appeal: String,
    /// Upheld, overruled or varied.
    #[arg(long, value_enum)]
    outcome: Outcome,
    /// The committee's reasons.
    #[arg(long)]
    reasons: String,
    /// A committee member deciding (you among them); repeat for each.
    #[arg(long = "member", required = true)]
    members: Vec<String>,
    /// A member voting against the outcome (one of the members); repeat for each.
    #[arg(long = "dissenting-member", requires = "dissent")]
    dissenting: Vec<String>,
    /// The dissenters' reasons.
    #[arg(long)]
    dissent: Option<String>,
    /// The new decision, if it changes the ruling's.
    #[command(flatten)]
    decision: NewDecision,
    /// The idempotency key; reuse it to retry the same decision. A new one by default.
    #[arg(long)]
    key: Option<String>,
    /// The committee finds the appeal lacked merit (Law 92A): a deposit is retained.
    #[arg(long)]
    lacked_merit: bool,
}

/// `bridgectl appeal policy ...`
#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Shows the policy in force.
    Show,
    /// Publishes a new policy (admin); it applies to rulings made from now on.
    Set {
        /// Appeals are heard.
        #[arg(long)]
        allowed: bool,
        /// Committee members who hear and decide.
        #[arg(long, default_value_t = 3)]
        committee_size: u32,
        /// Rubber and Chicago: minutes after the ruling.
        #[arg(long, default_value_t = 30)]
        rubber_minutes: u32,
        /// Duplicate: minutes after the official score is published (Law 92B).
        #[arg(long, default_value_t = 30)]
        duplicate_minutes: u32,
        /// Duplicate: the director reviews a point of law before the committee (Law 93B1).
        #[arg(long)]
        director_review: bool,
        /// Duplicate: the body a decided appeal may go further to (Law 93C1).
        #[arg(long)]
        further_appeal_to: Option<String>,
        /// A deposit lodged with each appeal, in the currency's minor units.
        #[arg(long, requires = "currency")]
        deposit: Option<u64>,
        /// The deposit's currency (ISO 4217, such as GBP).
        #[arg(long, requires = "deposit")]
        currency: Option<String>,
    },
}

/// `bridgectl ruling ...`
#[derive(Debug, Subcommand)]
pub enum RulingCommand {
    /// Shows a ruling.
    Show {
        /// The ruling.
        ruling: String,
    },
}

/// `bridgectl audit ...`
#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// The chain of results, rulings, appeals and decisions behind a score, oldest first.
    Score {
        /// A scorepad ...
        #[arg(long, requires = "deal", conflicts_with = "session")]
        scorepad: Option<String>,
        /// ... and its deal.
        #[arg(long)]
        deal: Option<String>,
        /// Or a duplicate session ...
        #[arg(long, requires_all = ["board", "ns", "ew"])]
        session: Option<String>,
        /// ... its board ...
        #[arg(long)]
        board: Option<u32>,
        /// ... the contestant that sat North-South ...
        #[arg(long)]
        ns: Option<String>,
        /// ... and the one that sat East-West.
        #[arg(long)]
        ew: Option<String>,
    },
}

/// An appeal's state, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Status {
    /// Filed.
    Filed,
    /// Heard.
    Heard,
    /// Decided.
    Decided,
    /// Withdrawn.
    Withdrawn,
}

/// A decision's outcome, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Outcome {
    /// The ruling stands.
    Upheld,
    /// The ruling is replaced.
    Overruled,
    /// The ruling is changed in part.
    Varied,
}

/// An artificial adjusted score's grade (Law 12C2).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Grade {
    /// Average plus.
    AveragePlus,
    /// Average.
    Average,
    /// Average minus.
    AverageMinus,
}

fn parse_statement(value: &str) -> Result<pb::Statement, String> {
    let mut parts = value.splitn(3, ':');
    let (Some(role), Some(speaker), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("a statement is role:speaker:text".to_owned());
    };
    let role = match role.trim().to_ascii_lowercase().as_str() {
        "appellant" => pb::SpeakerRole::AppellantSide,
        "other" => pb::SpeakerRole::OtherSide,
        "arbiter" | "director" => pb::SpeakerRole::Arbiter,
        "witness" => pb::SpeakerRole::Witness,
        other => return Err(format!("unknown role {other:?}: appellant, other, arbiter or witness")),
    };
    Ok(pb::Statement { speaker: speaker.trim().to_owned(), role: role as i32, text: text.trim().to_owned() })
}

type Client = AppealsServiceClient<platform::app::PeerChannel>;

fn client(server: &str, token: Option<&str>) -> anyhow::Result<Client> {
    let channel = crate::server_channel(server)?;
    let interceptor = match token {
        Some(token) => platform::client::ClientInterceptor::with_token(token).map_err(|s| anyhow::anyhow!("{s}"))?,
        None => bail!("the appeals commands need a token: --token or BRIDGE_TOKEN (see `bridgectl token`)"),
    };
    Ok(AppealsServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor)))
}

fn status_error(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!("{:?}: {}", status.code(), status.message())
}

/// Runs an appeals command against `server` with `token`.
pub async fn run(command: Command, server: &str, token: Option<&str>) -> anyhow::Result<()> {
    let mut client = client(server, token)?;
    let text = match command {
        Command::Appeal { command } => appeal(&mut client, command).await?,
        Command::Ruling { command: RulingCommand::Show { ruling } } => {
            let response =
                client.get_ruling(pb::GetRulingRequest { ruling_id: ruling }).await.map_err(status_error)?.into_inner();
            response.ruling.as_ref().map(show_ruling).unwrap_or_default()
        }
        Command::Audit { command: AuditCommand::Score { scorepad, deal, session, board, ns, ew } } => {
            let target = match (scorepad, deal, session, board, ns, ew) {
                (Some(scorepad_id), Some(deal_id), None, ..) => {
                    common::score_target::Target::ScorepadDeal(common::ScorepadDeal { scorepad_id, deal_id })
                }
                (None, None, Some(session_id), Some(board_number), Some(ns), Some(ew)) => {
                    common::score_target::Target::BoardResult(common::BoardResultKey {
                        session_id,
                        board_number,
                        north_south_contestant_id: ns,
                        east_west_contestant_id: ew,
                    })
                }
                _ => bail!("give --scorepad and --deal, or --session, --board, --ns and --ew"),
            };
            let response = client
                .get_score_audit(pb::GetScoreAuditRequest {
                    target: Some(common::ScoreTarget { target: Some(target) }),
                })
                .await
                .map_err(status_error)?
                .into_inner();
            show_audit(&response.entries)
        }
    };
    print!("{text}");
    Ok(())
}

async fn appeal(client: &mut Client, command: AppealCommand) -> anyhow::Result<String> {
    Ok(match command {
        AppealCommand::List { status, ruling, player, limit } => {
            let status = match status {
                None => pb::AppealStatus::Unspecified,
                Some(Status::Filed) => pb::AppealStatus::Filed,
                Some(Status::Heard) => pb::AppealStatus::Heard,
                Some(Status::Decided) => pb::AppealStatus::Decided,
                Some(Status::Withdrawn) => pb::AppealStatus::Withdrawn,
            };
            let request = pb::ListAppealsRequest {
                status: status as i32,
                ruling_id: ruling.unwrap_or_default(),
                player_id: player.unwrap_or_default(),
                page: Some(common::PageRequest { page_size: limit, page_token: String::new() }),
            };
            let response = client.list_appeals(request).await.map_err(status_error)?.into_inner();
            let mut out = String::new();
            for appeal in &response.appeals {
                let _ = writeln!(
                    out,
                    "{}  {:<9}  ruling {}  by {}  v{}",
                    appeal.appeal_id,
                    status_word(appeal.status),
                    appeal.ruling_id,
                    appeal.appellant_player_id,
                    appeal.version
                );
            }
            if response.appeals.is_empty() {
                out.push_str("no appeals\n");
            }
            out
        }
        AppealCommand::Show { appeal } => {
            let response =
                client.get_appeal(pb::GetAppealRequest { appeal_id: appeal }).await.map_err(status_error)?.into_inner();
            let mut out = response.appeal.as_ref().map(show_appeal).unwrap_or_default();
            out.push_str("\nruling appealed:\n");
            out.push_str(&response.ruling.as_ref().map(show_ruling).unwrap_or_default());
            out
        }
        AppealCommand::Notice { appeal } => {
            let request = pb::GetDecisionNoticeRequest { appeal_id: appeal };
            client.get_decision_notice(request).await.map_err(status_error)?.into_inner().html
        }
        AppealCommand::Hear { appeal, members, statements, notes, minutes } => {
            let current = client
                .get_appeal(pb::GetAppealRequest { appeal_id: appeal.clone() })
                .await
                .map_err(status_error)?
                .into_inner()
                .appeal
                .context("the server sent no appeal")?;
            let request = pb::HearAppealRequest {
                appeal_id: appeal,
                expected_version: current.version,
                hearing: Some(pb::Hearing {
                    committee_member_ids: members,
                    statements,
                    notes,
                    heard_at: None,
                    duration: minutes.map(|m| prost_types::Duration { seconds: i64::from(m) * 60, nanos: 0 }),
                }),
            };
            let response = client.hear_appeal(request).await.map_err(status_error)?.into_inner();
            response.appeal.as_ref().map(show_appeal).unwrap_or_default()
        }
        AppealCommand::Decide(decide) => {
            let key = decide.key.clone().unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
            let request = pb::DecideAppealRequest {
                idempotency_key: key.clone(),
                appeal_id: decide.appeal.clone(),
                outcome: outcome_value(decide.outcome),
                new_decision: new_decision(&decide.decision)?,
                reasons: decide.reasons.clone(),
                committee_member_ids: decide.members.clone(),
                dissenting_member_ids: decide.dissenting.clone(),
                dissent: decide.dissent.clone().unwrap_or_default(),
                lacked_merit: decide.lacked_merit,
            };
            match client.decide_appeal(request).await {
                Ok(response) => response.into_inner().appeal.as_ref().map(show_appeal).unwrap_or_default(),
                Err(status) => {
                    bail!("{:?}: {}\n(to retry the same decision: --key {key})", status.code(), status.message())
                }
            }
        }
        AppealCommand::File(file) => procedure::file(client, file).await?,
        AppealCommand::DirectorHear(hear) => procedure::director_hear(client, hear).await?,
        AppealCommand::DirectorDecide(decide) => procedure::director_decide(client, decide).await?,
        AppealCommand::Review(review) => procedure::review(client, review).await?,
        AppealCommand::Further { command } => procedure::further(client, command).await?,
        AppealCommand::Roster { command } => committee::roster(client, command).await?,
        AppealCommand::Conflict { command } => committee::conflict(client, command).await?,
        AppealCommand::GameCommittee { command } => committee::game_committee(client, command).await?,
        AppealCommand::Policy { command: PolicyCommand::Show } => {
            let response = client.get_appeal_policy(pb::GetAppealPolicyRequest {}).await.map_err(status_error)?;
            response.into_inner().policy.as_ref().map(show_policy).unwrap_or_default()
        }
        AppealCommand::Policy {
            command:
                PolicyCommand::Set {
                    allowed,
                    committee_size,
                    rubber_minutes,
                    duplicate_minutes,
                    director_review,
                    further_appeal_to,
                    deposit,
                    currency,
                },
        } => {
            let current = client
                .get_appeal_policy(pb::GetAppealPolicyRequest {})
                .await
                .map_err(status_error)?
                .into_inner()
                .policy
                .context("the server sent no policy")?;
            let minutes = |m: u32| Some(prost_types::Duration { seconds: i64::from(m) * 60, nanos: 0 });
            let request = pb::UpdateAppealPolicyRequest {
                expected_version: current.version,
                policy: Some(pb::AppealPolicy {
                    appeals_allowed: allowed,
                    rubber_time_limit: minutes(rubber_minutes),
                    duplicate_time_limit: minutes(duplicate_minutes),
                    committee_size,
                    published_at: None,
                    version: 0,
                    procedure: Some(pb::AppealProcedure {
                        director_review,
                        further_appeal_to: further_appeal_to.unwrap_or_default(),
                        deposit: deposit
                            .zip(currency)
                            .map(|(amount_minor_units, currency)| pb::Money { amount_minor_units, currency }),
                    }),
                }),
            };
            let response = client.update_appeal_policy(request).await.map_err(status_error)?;
            response.into_inner().policy.as_ref().map(show_policy).unwrap_or_default()
        }
    })
}

/// The contract's value of an outcome.
fn outcome_value(outcome: Outcome) -> i32 {
    let outcome = match outcome {
        Outcome::Upheld => pb::AppealOutcome::Upheld,
        Outcome::Overruled => pb::AppealOutcome::Overruled,
        Outcome::Varied => pb::AppealOutcome::Varied,
    };
    outcome as i32
}

/// A decision on the command line: the result stands, an assigned score, or an artificial one
/// (a committee's, the Director's under Law 93A, or the one a further appeal put in force).
#[derive(Debug, Args)]
pub struct NewDecision {
    /// the table result stands.
    #[arg(long, conflicts_with_all = ["contract", "artificial_ns"])]
    result_stands: bool,
    /// an assigned score, this contract (4S, 3NTX, 6HXX) ...
    #[arg(long, requires_all = ["declarer", "tricks"])]
    contract: Option<String>,
    /// ... by this declarer (N, E, S, W) ...
    #[arg(long)]
    declarer: Option<String>,
    /// ... taking this many tricks.
    #[arg(long)]
    tricks: Option<u32>,
    /// an artificial adjusted score, North-South's grade ...
    #[arg(long, value_enum, requires = "artificial_ew", conflicts_with = "contract")]
    artificial_ns: Option<Grade>,
    /// ... and East-West's.
    #[arg(long, value_enum)]
    artificial_ew: Option<Grade>,
}

/// The decision the command line describes, if any.
fn new_decision(decide: &NewDecision) -> anyhow::Result<Option<pb::RulingDecision>> {
    use common::adjustment::Kind;
    use pb::ruling_decision::Decision;
    let grade = |g: Grade| common::ArtificialAward {
        award: Some(common::artificial_award::Award::Grade(match g {
            Grade::AveragePlus => common::ArtificialGrade::AveragePlus,
            Grade::Average => common::ArtificialGrade::Average,
            Grade::AverageMinus => common::ArtificialGrade::AverageMinus,
        } as i32)),
    };
    let decision = if decide.result_stands {
        Decision::ResultStands(pb::ResultStands {})
    } else if let (Some(contract), Some(declarer), Some(tricks)) = (&decide.contract, &decide.declarer, decide.tricks) {
        let contract: laws::Contract = contract.parse().map_err(|e| anyhow::anyhow!("--contract: {e}"))?;
        let declarer: laws::Seat = declarer.parse().map_err(|e| anyhow::anyhow!("--declarer: {e}"))?;
        let result = common::DealResult {
            outcome: Some(common::deal_result::Outcome::Played(common::PlayedContract {
                contract: Some(laws::DeclaredContract { contract, declarer }.into()),
                tricks,
            })),
            honors: Vec::new(),
        };
        Decision::AdjustedScore(common::Adjustment {
            kind: Some(Kind::Assigned(common::AssignedScore { result: Some(result) })),
        })
    } else if let (Some(ns), Some(ew)) = (decide.artificial_ns, decide.artificial_ew) {
        Decision::AdjustedScore(common::Adjustment {
            kind: Some(Kind::Artificial(common::ArtificialScore {
                north_south: Some(grade(ns)),
                east_west: Some(grade(ew)),
            })),
        })
    } else {
        return Ok(None);
    };
    Ok(Some(pb::RulingDecision { decision: Some(decision) }))
}

fn status_word(status: i32) -> &'static str {
    match pb::AppealStatus::try_from(status) {
        Ok(pb::AppealStatus::Filed) => "filed",
        Ok(pb::AppealStatus::Heard) => "heard",
        Ok(pb::AppealStatus::Decided) => "decided",
        Ok(pb::AppealStatus::Withdrawn) => "withdrawn",
        _ => "?",
    }
}

fn time(at: Option<&prost_types::Timestamp>) -> String {
    at.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
        .map_or_else(|| "-".to_owned(), |t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
}

fn show_appeal(appeal: &pb::Appeal) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "appeal {} ({}, version {})", appeal.appeal_id, status_word(appeal.status), appeal.version);
    let _ = writeln!(out, "  ruling:      {}", appeal.ruling_id);
    let _ = writeln!(out, "  appellant:   {}", appeal.appellant_player_id);
    if !appeal.concurring_player_ids.is_empty() {
        let _ = writeln!(out, "  concurring:  {}", appeal.concurring_player_ids.join(", "));
    }
    let _ = writeln!(out, "  grounds:     {}", appeal.grounds);
    let _ = writeln!(out, "  filed:       {}", time(appeal.filed_at.as_ref()));
    let _ = writeln!(out, "  deadline:    {}", time(appeal.deadline.as_ref()));
    if let Some(hearing) = &appeal.hearing {
        let _ = writeln!(
            out,
            "  heard:       {} by {}",
            time(hearing.heard_at.as_ref()),
            hearing.committee_member_ids.join(", ")
        );
        for statement in &hearing.statements {
            let _ = writeln!(out, "    {} ({}): {}", statement.speaker, speaker_role(statement.role), statement.text);
        }
        if !hearing.notes.is_empty() {
            let _ = writeln!(out, "    notes: {}", hearing.notes);
        }
    }
    if let Some(decision) = &appeal.decision {
        let outcome = pb::AppealOutcome::try_from(decision.outcome).map_or("?", |o| o.as_str_name());
        let _ = writeln!(
            out,
            "  decided:     {} by {}: {}",
            time(decision.decided_at.as_ref()),
            decision.committee_member_ids.join(", "),
            outcome
        );
        let _ = writeln!(out, "    reasons: {}", decision.reasons);
        if !decision.dissenting_member_ids.is_empty() {
            let _ =
                writeln!(out, "    dissenting: {}: {}", decision.dissenting_member_ids.join(", "), decision.dissent);
        }
        if let Some(new) = &decision.new_decision {
            let _ = writeln!(out, "    now in force: {}", show_decision(new));
        }
        for version in &decision.score_versions {
            let _ = writeln!(out, "    score version {}: {}", version.version, version.reason);
        }
    }
    procedure::show_stages(&mut out, appeal);
    if let Some(at) = &appeal.withdrawn_at {
        let _ = writeln!(out, "  withdrawn:   {} ({})", time(Some(at)), appeal.withdrawal_reason);
    }
    out
}

fn speaker_role(role: i32) -> &'static str {
    match pb::SpeakerRole::try_from(role) {
        Ok(pb::SpeakerRole::AppellantSide) => "appellant's side",
        Ok(pb::SpeakerRole::OtherSide) => "other side",
        Ok(pb::SpeakerRole::Arbiter) => "arbiter",
        Ok(pb::SpeakerRole::Witness) => "witness",
        _ => "?",
    }
}

fn show_decision(decision: &pb::RulingDecision) -> String {
    use pb::ruling_decision::Decision;
    match &decision.decision {
        Some(Decision::Rectification(r)) => format!("rectification: {}", r.description),
        Some(Decision::ResultStands(_)) => "the table result stands".to_owned(),
        Some(Decision::AdjustedScore(adjustment)) => format!("adjusted score: {adjustment:?}"),
        None => "-".to_owned(),
    }
}

fn show_ruling(ruling: &pb::Ruling) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "ruling {} by {} at {}", ruling.ruling_id, ruling.ruled_by, time(ruling.ruled_at.as_ref()));
    if let Some(deal) = &ruling.deal {
        let players: Vec<String> = deal
            .players
            .iter()
            .map(|p| format!("{}={}", common::Seat::try_from(p.seat).map_or("?", |s| s.as_str_name()), p.player_id))
            .collect();
        let _ = writeln!(out, "  deal:         {} at table {} ({})", deal.deal_id, deal.table_id, players.join(" "));
    }
    let _ = writeln!(out, "  irregularity: {}", ruling.irregularity);
    let laws: Vec<&str> = ruling.laws.iter().map(|l| l.text.as_str()).collect();
    let _ = writeln!(out, "  laws:         {}", laws.join("; "));
    if !ruling.facts.is_empty() {
        let _ = writeln!(out, "  facts:        {}", ruling.facts);
    }
    let kind = pb::RulingKind::try_from(ruling.kind).map_or("?", |k| k.as_str_name());
    let _ = writeln!(out, "  kind:         {kind}");
    let _ = writeln!(out, "  decision:     {}", ruling.decision.as_ref().map(show_decision).unwrap_or_default());
    if !ruling.appeal_ids.is_empty() {
        let _ = writeln!(out, "  appeals:      {}", ruling.appeal_ids.join(", "));
    }
    out
}

fn show_policy(policy: &pb::AppealPolicy) -> String {
    let minutes = |d: Option<&prost_types::Duration>| d.map_or(0, |d| d.seconds / 60);
    let stages = procedure::show_procedure(policy.procedure.as_ref());
    let mut shown = format!(
        "appeal policy version {} (published {}): appeals {}; committee of {}; rubber and Chicago {} min after the \
         ruling; duplicate {} min after the official score (Law 92B)\n",
        policy.version,
        time(policy.published_at.as_ref()),
        if policy.appeals_allowed { "heard" } else { "not heard" },
        policy.committee_size,
        minutes(policy.rubber_time_limit.as_ref()),
        minutes(policy.duplicate_time_limit.as_ref()),
    );
    shown.push_str(&stages);
    shown
}

fn show_audit(entries: &[pb::AuditEntry]) -> String {
    use pb::audit_entry::Entry;
    let mut out = String::new();
    for entry in entries {
        let what = match &entry.entry {
            Some(Entry::ScoreVersion(v)) => format!("score version {}: {}", v.version, v.reason),
            Some(Entry::Ruling(r)) => format!("ruling {}: {}", r.ruling_id, r.irregularity),
            Some(Entry::AppealFiled(a)) => format!("appeal {} filed by {}", a.appeal_id, a.appellant_player_id),
            Some(Entry::AppealHeard(a)) => format!("appeal {} heard", a.appeal_id),
            Some(Entry::AppealDecided(a)) => format!(
                "appeal {} decided: {}",
                a.appeal_id,
                a.decision
                    .as_ref()
                    .and_then(|d| pb::AppealOutcome::try_from(d.outcome).ok())
                    .map_or("?", |o| o.as_str_name())
            ),
            Some(Entry::AppealWithdrawn(a)) => format!("appeal {} withdrawn", a.appeal_id),
            Some(Entry::AppealReviewed(a)) => format!("appeal {} reviewed by the director (Law 93B1)", a.appeal_id),
            Some(Entry::AppealTakenFurther(a)) => format!(
                "appeal {} taken further to {}",
                a.appeal_id,
                a.further_appeal.as_ref().map_or("?", |f| f.body.as_str())
            ),
            None => "?".to_owned(),
        };
        let _ = writeln!(out, "{}  {:<16} {what}", time(entry.occurred_at.as_ref()), entry.actor);
    }
    if entries.is_empty() {
        out.push_str("no history\n");
    }
    out
}
