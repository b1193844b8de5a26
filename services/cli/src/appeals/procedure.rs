//! `bridgectl appeal file | director-hear | director-decide | review | further ...`: the stages of
//! an appeal the club's policy arranges besides the committee's hearing. The Director in charge
//! hears and decides a duplicate appeal when the club has no committee (Law 93A) and reviews a
//! point of law before the committee hears it (Law 93B1); a decided appeal goes further, beyond
//! the club, where the policy allows (Law 93C); a deposit is lodged with an appeal where the policy
//! asks one.
//!
//! ```text
//! bridgectl appeal file <ruling> --grounds "..." --concur s2 --deposit 500 --currency GBP
//! bridgectl appeal director-hear <appeal> --statement "appellant:n2:..." --notes "..."
//! bridgectl appeal director-decide <appeal> --outcome upheld --reasons "..." --lacked-merit
//! bridgectl appeal review <appeal> --confirmed --reasons "..."
//! bridgectl appeal review <appeal> --corrected <ruling> --reasons "..."
//! bridgectl appeal further file <appeal> --grounds "..."
//! bridgectl appeal further status <appeal> --status accepted --note "..."
//! bridgectl appeal further export <appeal> > dossier.txt
//! ```

use std::fmt::Write as _;

use anyhow::{Context, bail};
use api::appeals::v1 as pb;
use clap::{Args, Subcommand, ValueEnum};

use super::{Client, NewDecision, Outcome, new_decision, show_appeal, show_ruling, status_error, time};

/// `bridgectl appeal file ...`: files an appeal (a player for himself; the director for a player).
#[derive(Debug, Args)]
pub struct File {
    /// The ruling appealed.
    ruling: String,
    /// The grounds.
    #[arg(long)]
    grounds: String,
    /// The appellant, when the director files for a player (Law 92C).
    #[arg(long = "for")]
    appellant: Option<String>,
    /// A player who concurs (a pair's partner, a team's captain, Law 92D); repeat for each.
    #[arg(long = "concur")]
    concurring: Vec<String>,
    /// The deposit lodged, in the currency's minor units, as the club's policy asks it.
    #[arg(long, requires = "currency")]
    deposit: Option<u64>,
    /// The deposit's currency (ISO 4217, such as GBP).
    #[arg(long)]
    currency: Option<String>,
    /// The idempotency key; reuse it to retry the same filing. A new one by default.
    #[arg(long)]
    key: Option<String>,
}

/// `bridgectl appeal director-hear ...`: the Director in charge hears an appeal the club has no
/// committee for (Law 93A).
#[derive(Debug, Args)]
pub struct DirectorHear {
    /// The appeal.
    appeal: String,
    /// A statement as `role:speaker:text`, role one of appellant, other, arbiter, witness; repeat.
    #[arg(long = "statement", value_parser = super::parse_statement)]
    statements: Vec<pb::Statement>,
    /// The director's notes.
    #[arg(long, default_value = "")]
    notes: String,
}

/// `bridgectl appeal director-decide ...`: the Director in charge decides an appeal he heard
/// under Law 93A.
#[derive(Debug, Args)]
pub struct DirectorDecide {
    /// The appeal.
    appeal: String,
    /// Upheld, overruled or varied.
    #[arg(long, value_enum)]
    outcome: Outcome,
    /// The director's reasons.
    #[arg(long)]
    reasons: String,
    /// The appeal lacked merit (Law 92A): a deposit is retained.
    #[arg(long)]
    lacked_merit: bool,
    /// The new decision, if it changes the ruling's.
    #[command(flatten)]
    decision: NewDecision,
    /// The idempotency key; reuse it to retry the same decision. A new one by default.
    #[arg(long)]
    key: Option<String>,
}

/// `bridgectl appeal review ...`: the Director in charge's review of a point of law before the
/// committee hears it (Law 93B1).
#[derive(Debug, Args)]
pub struct Review {
    /// The appeal.
    appeal: String,
    /// The ruling stands as given.
    #[arg(long, conflicts_with = "corrected", required_unless_present = "corrected")]
    confirmed: bool,
    /// The corrected ruling the director recorded on the deal (`bridgectl ruling ...`).
    #[arg(long)]
    corrected: Option<String>,
    /// The director's reasons.
    #[arg(long)]
    reasons: String,
}

/// `bridgectl appeal further ...`: a decided appeal taken beyond the club (Law 93C).
#[derive(Debug, Subcommand)]
pub enum FurtherCommand {
    /// Takes a decided appeal further, to the body the club's policy names.
    File {
        /// The appeal.
        appeal: String,
        /// The grounds.
        #[arg(long)]
        grounds: String,
        /// The player taking it further, when the director files for him; none when the director
        /// or the committee refers the matter (Law 93C2).
        #[arg(long = "for")]
        appellant: Option<String>,
    },
    /// Records where the further appeal stands, as the body reports it.
    Status {
        /// The appeal.
        appeal: String,
        /// The new status.
        #[arg(long, value_enum)]
        status: FurtherStatus,
        /// The body's answer or the news of it.
        #[arg(long, default_value = "")]
        note: String,
        /// With `--status changed`, the decision the body put in force.
        #[command(flatten)]
        decision: NewDecision,
    },
    /// Prints the appeal's dossier for the body it went to: the ruling, the appeal, its hearing
    /// and decision, and the further appeal.
    Export {
        /// The appeal.
        appeal: String,
    },
}

/// Where a further appeal stands, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FurtherStatus {
    /// The body accepted it for consideration.
    Accepted,
    /// The body declined to consider it.
    Declined,
    /// The body upheld the club's decision.
    Upheld,
    /// The body changed the club's decision: give the decision it put in force.
    Changed,
    /// The appellant withdrew it.
    Withdrawn,
}

async fn current(client: &mut Client, appeal: &str) -> anyhow::Result<pb::Appeal> {
    client
        .get_appeal(pb::GetAppealRequest { appeal_id: appeal.to_owned() })
        .await
        .map_err(status_error)?
        .into_inner()
        .appeal
        .context("the server sent no appeal")
}

fn shown(appeal: Option<pb::Appeal>) -> String {
    appeal.as_ref().map(show_appeal).unwrap_or_default()
}

/// Files an appeal.
pub async fn file(client: &mut Client, file: File) -> anyhow::Result<String> {
    let deposit = match (file.deposit, file.currency) {
        (Some(amount_minor_units), Some(currency)) => Some(pb::Money { amount_minor_units, currency }),
        (None, None) => None,
        _ => bail!("give --deposit and --currency together"),
    };
    let request = pb::FileAppealRequest {
        idempotency_key: file.key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
        ruling_id: file.ruling,
        appellant_player_id: file.appellant.unwrap_or_default(),
        concurring_player_ids: file.concurring,
        grounds: file.grounds,
        deposit,
    };
    Ok(shown(client.file_appeal(request).await.map_err(status_error)?.into_inner().appeal))
}

/// Records the Director in charge's hearing.
pub async fn director_hear(client: &mut Client, hear: DirectorHear) -> anyhow::Result<String> {
    let version = current(client, &hear.appeal).await?.version;
    let request = pb::DirectorHearAppealRequest {
        appeal_id: hear.appeal,
        expected_version: version,
        statements: hear.statements,
        notes: hear.notes,
    };
    Ok(shown(client.director_hear_appeal(request).await.map_err(status_error)?.into_inner().appeal))
}

/// Records the Director in charge's decision.
pub async fn director_decide(client: &mut Client, decide: DirectorDecide) -> anyhow::Result<String> {
    let key = decide.key.clone().unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let request = pb::DirectorDecideAppealRequest {
        idempotency_key: key.clone(),
        appeal_id: decide.appeal,
        outcome: super::outcome_value(decide.outcome),
        new_decision: new_decision(&decide.decision)?,
        reasons: decide.reasons,
        lacked_merit: decide.lacked_merit,
    };
    match client.director_decide_appeal(request).await {
        Ok(response) => Ok(shown(response.into_inner().appeal)),
        Err(status) => bail!("{:?}: {}\n(to retry the same decision: --key {key})", status.code(), status.message()),
    }
}

/// Records the Director in charge's review.
pub async fn review(client: &mut Client, review: Review) -> anyhow::Result<String> {
    let version = current(client, &review.appeal).await?.version;
    let outcome = if review.confirmed { pb::ReviewOutcome::Confirmed } else { pb::ReviewOutcome::Corrected };
    let request = pb::ReviewAppealRequest {
        appeal_id: review.appeal,
        expected_version: version,
        outcome: outcome as i32,
        reasons: review.reasons,
        corrected_ruling_id: review.corrected.unwrap_or_default(),
    };
    Ok(shown(client.review_appeal(request).await.map_err(status_error)?.into_inner().appeal))
}

/// Runs `bridgectl appeal further ...`.
pub async fn further(client: &mut Client, command: FurtherCommand) -> anyhow::Result<String> {
    Ok(match command {
        FurtherCommand::File { appeal, grounds, appellant } => {
            let version = current(client, &appeal).await?.version;
            let request = pb::FileFurtherAppealRequest {
                appeal_id: appeal,
                expected_version: version,
                appellant_player_id: appellant.unwrap_or_default(),
                grounds,
            };
            shown(client.file_further_appeal(request).await.map_err(status_error)?.into_inner().appeal)
        }
        FurtherCommand::Status { appeal, status, note, decision } => {
            let new_decision = new_decision(&decision)?;
            if matches!(status, FurtherStatus::Changed) != new_decision.is_some() {
                bail!(
                    "give the decision in force (--result-stands, --contract ... or --artificial-ns ...) with --status changed, and only then"
                );
            }
            let version = current(client, &appeal).await?.version;
            let status = match status {
                FurtherStatus::Accepted => pb::FurtherAppealStatus::Accepted,
                FurtherStatus::Declined => pb::FurtherAppealStatus::Declined,
                FurtherStatus::Upheld => pb::FurtherAppealStatus::Upheld,
                FurtherStatus::Changed => pb::FurtherAppealStatus::Changed,
                FurtherStatus::Withdrawn => pb::FurtherAppealStatus::Withdrawn,
            };
            let request = pb::RecordFurtherAppealStatusRequest {
                appeal_id: appeal,
                expected_version: version,
                status: status as i32,
                note,
                new_decision,
            };
            shown(client.record_further_appeal_status(request).await.map_err(status_error)?.into_inner().appeal)
        }
        FurtherCommand::Export { appeal } => {
            let response =
                client.get_appeal(pb::GetAppealRequest { appeal_id: appeal }).await.map_err(status_error)?.into_inner();
            let appeal = response.appeal.context("the server sent no appeal")?;
            let Some(further) = &appeal.further_appeal else {
                bail!("appeal {} was not taken further", appeal.appeal_id);
            };
            let mut out = String::new();
            let _ = writeln!(out, "Further appeal to {} (Law 93C of the Laws of Duplicate Bridge)", further.body);
            let _ = writeln!(out, "filed {} by {}\n", time(further.filed_at.as_ref()), further.filed_by);
            out.push_str(&response.ruling.as_ref().map(show_ruling).unwrap_or_default());
            out.push('\n');
            out.push_str(&show_appeal(&appeal));
            out
        }
    })
}

/// The stages an appeal went through besides the committee's, for `bridgectl appeal show`.
pub fn show_stages(out: &mut String, appeal: &pb::Appeal) {
    if appeal.heard_by == pb::HearingBody::DirectorInCharge as i32 {
        out.push_str("  heard by:    the Director in charge (no committee, Law 93A)\n");
    }
    if let Some(deposit) = &appeal.deposit {
        let amount =
            deposit.amount.as_ref().map_or_else(String::new, |m| format!("{} {}", m.amount_minor_units, m.currency));
        let status = pb::DepositStatus::try_from(deposit.status).map_or("?", |s| s.as_str_name());
        let _ = writeln!(out, "  deposit:     {amount} (minor units), {status} {}", deposit.reason);
    }
    if let Some(review) = &appeal.review {
        let outcome = pb::ReviewOutcome::try_from(review.outcome).map_or("?", |o| o.as_str_name());
        let _ = writeln!(
            out,
            "  reviewed:    {} by {}: {outcome} {} (Law 93B1)",
            time(review.reviewed_at.as_ref()),
            review.director_id,
            review.corrected_ruling_id
        );
        let _ = writeln!(out, "    reasons: {}", review.reasons);
    }
    if let Some(decision) = &appeal.decision
        && decision.lacked_merit
    {
        out.push_str("    found to lack merit (Law 92A)\n");
    }
    if let Some(further) = &appeal.further_appeal {
        let status = pb::FurtherAppealStatus::try_from(further.status).map_or("?", |s| s.as_str_name());
        let _ = writeln!(
            out,
            "  further:     to {} on {} by {}: {status} {}",
            further.body,
            time(further.filed_at.as_ref()),
            further.filed_by,
            further.note
        );
    }
}

/// The options of a policy, for `bridgectl appeal policy show`.
pub fn show_procedure(procedure: Option<&pb::AppealProcedure>) -> String {
    let Some(procedure) = procedure else { return String::new() };
    let mut out = String::new();
    if procedure.director_review {
        out.push_str("  the director reviews a point of law before the committee (Law 93B1)\n");
    }
    if !procedure.further_appeal_to.is_empty() {
        let _ = writeln!(out, "  a decided appeal may go further to {} (Law 93C1)", procedure.further_appeal_to);
    }
    if let Some(deposit) = &procedure.deposit {
        let _ = writeln!(
            out,
            "  deposit: {} {} (minor units) with each appeal",
            deposit.amount_minor_units, deposit.currency
        );
    }
    out
}
