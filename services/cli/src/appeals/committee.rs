//! `bridgectl appeal roster | conflict | game-committee ...`: the appeals committee as the club runs
//! it (the Club Appeals Committee: "a club should establish an Appeals Committee ..., and any game
//! may designate a committee to which appeals may be taken"). The administrator keeps the roster
//! and declares conflicts; the four players of a rubber designate and confirm its own committee
//! before its first deal.
//!
//! ```text
//! bridgectl appeal roster add --member ann --chair --from 2026-01-01T00:00:00Z --until 2027-01-01T00:00:00Z
//! bridgectl appeal roster update <entry> --version 1 --until 2026-12-01T00:00:00Z
//! bridgectl appeal roster remove <entry>
//! bridgectl appeal roster list [--member ann] [--covering 2026-06-01T00:00:00Z]
//! bridgectl appeal conflict declare --member ann --player nora --reason "her sister"
//! bridgectl appeal conflict declare --member bob --partnership nora,sam --reason "plays with them"
//! bridgectl appeal conflict withdraw <conflict>
//! bridgectl appeal conflict list [--member ann]
//! bridgectl appeal game-committee designate --rubber <rubber> --member judge-a --member judge-b
//! bridgectl appeal game-committee confirm --rubber <rubber> --member judge-a --member judge-b
//! bridgectl appeal game-committee show --rubber <rubber>
//! ```

use std::fmt::Write as _;

use anyhow::{Context, bail};
use api::appeals::v1 as pb;
use api::common::v1 as common;
use clap::Subcommand;

use super::{Client, status_error, time};

/// `bridgectl appeal roster ...` (admin).
#[derive(Debug, Subcommand)]
pub enum RosterCommand {
    /// Adds a member (a player on the register) for a term.
    Add {
        /// The member's player id.
        #[arg(long)]
        member: String,
        /// He chairs the committee during the term (one chair at a time).
        #[arg(long)]
        chair: bool,
        /// When the term begins (RFC 3339); now if absent.
        #[arg(long, value_parser = parse_time)]
        from: Option<prost_types::Timestamp>,
        /// When it ends (RFC 3339); no end if absent.
        #[arg(long, value_parser = parse_time)]
        until: Option<prost_types::Timestamp>,
        /// The idempotency key; reuse it to retry without adding twice. A new one by default.
        #[arg(long)]
        key: Option<String>,
    },
    /// Changes an entry's chair and term.
    Update {
        /// The entry.
        entry: String,
        /// The entry's version as last read.
        #[arg(long)]
        version: u64,
        /// He chairs the committee during the term.
        #[arg(long)]
        chair: bool,
        /// When the term begins (RFC 3339); unchanged if absent.
        #[arg(long, value_parser = parse_time)]
        from: Option<prost_types::Timestamp>,
        /// When it ends (RFC 3339); no end if absent.
        #[arg(long, value_parser = parse_time)]
        until: Option<prost_types::Timestamp>,
    },
    /// Removes an entry.
    Remove {
        /// The entry.
        entry: String,
    },
    /// Lists the roster by member and term.
    List {
        /// Only this member's entries.
        #[arg(long)]
        member: Option<String>,
        /// Only entries whose term covers this instant (RFC 3339).
        #[arg(long, value_parser = parse_time)]
        covering: Option<prost_types::Timestamp>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
}

/// `bridgectl appeal conflict ...` (admin).
#[derive(Debug, Subcommand)]
pub enum ConflictCommand {
    /// Declares a member conflicted for a player, a partnership, a table or an appeal.
    Declare {
        /// The committee member.
        #[arg(long)]
        member: String,
        /// For this player.
        #[arg(long, group = "subject")]
        player: Option<String>,
        /// For this partnership, two player ids separated by a comma.
        #[arg(long, group = "subject")]
        partnership: Option<String>,
        /// For this table.
        #[arg(long, group = "subject")]
        table: Option<String>,
        /// For this appeal.
        #[arg(long, group = "subject")]
        appeal: Option<String>,
        /// Why.
        #[arg(long)]
        reason: String,
        /// The idempotency key; reuse it to retry without adding twice. A new one by default.
        #[arg(long)]
        key: Option<String>,
    },
    /// Withdraws a declared conflict.
    Withdraw {
        /// The conflict.
        conflict: String,
    },
    /// Lists declared conflicts, newest first.
    List {
        /// Only this member's.
        #[arg(long)]
        member: Option<String>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
}

/// `bridgectl appeal game-committee ...` (a player of the rubber; show for anyone).
#[derive(Debug, Subcommand)]
pub enum GameCommitteeCommand {
    /// Designates the rubber's committee before its first deal; counts as your confirmation.
    Designate {
        /// The rubber.
        #[arg(long)]
        rubber: String,
        /// A member (a player on the register, not one of the four); repeat for each.
        #[arg(long = "member", required = true)]
        members: Vec<String>,
    },
    /// Confirms the designated committee, naming its members as you read them.
    Confirm {
        /// The rubber.
        #[arg(long)]
        rubber: String,
        /// A member as designated; repeat for each, in the designated order.
        #[arg(long = "member", required = true)]
        members: Vec<String>,
    },
    /// Shows the rubber's committee and who has confirmed it.
    Show {
        /// The rubber.
        #[arg(long)]
        rubber: String,
    },
}

fn parse_time(value: &str) -> Result<prost_types::Timestamp, String> {
    let at = chrono::DateTime::parse_from_rfc3339(value).map_err(|e| format!("{value:?} is not RFC 3339: {e}"))?;
    Ok(prost_types::Timestamp { seconds: at.timestamp(), nanos: 0 })
}

fn page(limit: u32) -> Option<common::PageRequest> {
    Some(common::PageRequest { page_size: limit, page_token: String::new() })
}

fn show_entry(entry: &pb::RosterEntry) -> String {
    format!(
        "{}  {:<12} {}  {} - {}  v{}\n",
        entry.entry_id,
        entry.member_id,
        if entry.chair { "chair " } else { "member" },
        time(entry.term_from.as_ref()),
        entry.term_until.as_ref().map_or_else(|| "no end".to_owned(), |t| time(Some(t))),
        entry.version
    )
}

fn show_conflict(conflict: &pb::DeclaredConflict) -> String {
    use pb::declared_conflict::Subject;
    let subject = match &conflict.subject {
        Some(Subject::PlayerId(p)) => format!("player {p}"),
        Some(Subject::Partnership(p)) => format!("partnership {} and {}", p.first_player_id, p.second_player_id),
        Some(Subject::TableId(t)) => format!("table {t}"),
        Some(Subject::AppealId(a)) => format!("appeal {a}"),
        None => "-".to_owned(),
    };
    format!(
        "{}  {} for {subject}: {} (declared by {} {})\n",
        conflict.conflict_id,
        conflict.member_id,
        conflict.reason,
        conflict.declared_by,
        time(conflict.declared_at.as_ref())
    )
}

fn show_game_committee(committee: &pb::GameCommittee) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "rubber {} at table {}", committee.rubber_id, committee.table_id);
    let _ = writeln!(out, "  members:   {}", committee.member_ids.join(", "));
    let _ = writeln!(out, "  players:   {}", committee.player_ids.join(", "));
    let _ = writeln!(out, "  confirmed: {}", committee.confirmed_player_ids.join(", "));
    let agreed = if committee.agreed { format!("yes, {}", time(committee.agreed_at.as_ref())) } else { "no".into() };
    let _ = writeln!(out, "  agreed:    {agreed}");
    out
}

/// Runs a roster command.
pub async fn roster(client: &mut Client, command: RosterCommand) -> anyhow::Result<String> {
    let entry = match command {
        RosterCommand::Add { member, chair, from, until, key } => {
            let request = pb::AddRosterEntryRequest {
                member_id: member,
                chair,
                term_from: from,
                term_until: until,
                idempotency_key: key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
            };
            client.add_roster_entry(request).await.map_err(status_error)?.into_inner().entry
        }
        RosterCommand::Update { entry, version, chair, from, until } => {
            let request = pb::UpdateRosterEntryRequest {
                entry_id: entry,
                expected_version: version,
                chair,
                term_from: from,
                term_until: until,
            };
            client.update_roster_entry(request).await.map_err(status_error)?.into_inner().entry
        }
        RosterCommand::Remove { entry } => {
            let request = pb::RemoveRosterEntryRequest { entry_id: entry };
            let removed = client.remove_roster_entry(request).await.map_err(status_error)?.into_inner().entry;
            return Ok(format!("removed {}", removed.as_ref().map(show_entry).unwrap_or_default()));
        }
        RosterCommand::List { member, covering, limit } => {
            let request =
                pb::ListRosterEntriesRequest { member_id: member.unwrap_or_default(), covering, page: page(limit) };
            let response = client.list_roster_entries(request).await.map_err(status_error)?.into_inner();
            if response.entries.is_empty() {
                return Ok("no roster entries\n".to_owned());
            }
            return Ok(response.entries.iter().map(show_entry).collect());
        }
    };
    Ok(entry.as_ref().map(show_entry).unwrap_or_default())
}

/// Runs a conflict command.
pub async fn conflict(client: &mut Client, command: ConflictCommand) -> anyhow::Result<String> {
    use pb::declared_conflict::Subject;
    Ok(match command {
        ConflictCommand::Declare { member, player, partnership, table, appeal, reason, key } => {
            let subject = match (player, partnership, table, appeal) {
                (Some(player), ..) => Subject::PlayerId(player),
                (_, Some(pair), ..) => {
                    let (first, second) = pair.split_once(',').context("--partnership is two player ids: a,b")?;
                    Subject::Partnership(pb::Partnership {
                        first_player_id: first.trim().to_owned(),
                        second_player_id: second.trim().to_owned(),
                    })
                }
                (_, _, Some(table), _) => Subject::TableId(table),
                (_, _, _, Some(appeal)) => Subject::AppealId(appeal),
                _ => bail!("give --player, --partnership, --table or --appeal"),
            };
            let conflict =
                pb::DeclaredConflict { member_id: member, subject: Some(subject), reason, ..Default::default() };
            let idempotency_key = key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
            let request = pb::DeclareConflictRequest { conflict: Some(conflict), idempotency_key };
            let declared = client.declare_conflict(request).await.map_err(status_error)?.into_inner().conflict;
            declared.as_ref().map(show_conflict).unwrap_or_default()
        }
        ConflictCommand::Withdraw { conflict } => {
            let request = pb::WithdrawConflictRequest { conflict_id: conflict };
            let withdrawn = client.withdraw_conflict(request).await.map_err(status_error)?.into_inner().conflict;
            format!("withdrawn {}", withdrawn.as_ref().map(show_conflict).unwrap_or_default())
        }
        ConflictCommand::List { member, limit } => {
            let request = pb::ListConflictsRequest { member_id: member.unwrap_or_default(), page: page(limit) };
            let response = client.list_conflicts(request).await.map_err(status_error)?.into_inner();
            if response.conflicts.is_empty() {
                "no declared conflicts\n".to_owned()
            } else {
                response.conflicts.iter().map(show_conflict).collect()
            }
        }
    })
}

/// Runs a game committee command.
pub async fn game_committee(client: &mut Client, command: GameCommitteeCommand) -> anyhow::Result<String> {
    let committee = match command {
        GameCommitteeCommand::Designate { rubber, members } => {
            let request = pb::DesignateGameCommitteeRequest { rubber_id: rubber, member_ids: members };
            client.designate_game_committee(request).await.map_err(status_error)?.into_inner().committee
        }
        GameCommitteeCommand::Confirm { rubber, members } => {
            let request = pb::ConfirmGameCommitteeRequest { rubber_id: rubber, member_ids: members };
            client.confirm_game_committee(request).await.map_err(status_error)?.into_inner().committee
        }
        GameCommitteeCommand::Show { rubber } => {
            let request = pb::GetGameCommitteeRequest { rubber_id: rubber };
            client.get_game_committee(request).await.map_err(status_error)?.into_inner().committee
        }
    };
    Ok(committee.as_ref().map(show_game_committee).unwrap_or_default())
}
