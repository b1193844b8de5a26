//! How `bridgectl` shows the card room to the desk: tables, members, applications, rubbers,
//! draws, and each table's "what next" in the desk's words.

use api::common::v1 as common;
use api::membership::v1 as pb;

fn name<T: TryFrom<i32>>(raw: i32, prefix: &str, as_str: impl Fn(&T) -> &'static str) -> String {
    T::try_from(raw).map_or_else(|_| raw.to_string(), |v| as_str(&v).trim_start_matches(prefix).to_lowercase())
}

fn time(at: &Option<prost_types::Timestamp>) -> String {
    at.as_ref()
        .and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .map(|t| t.format("%H:%M:%S").to_string())
        .unwrap_or_default()
}

pub fn presence_line(presence: &pb::Presence) -> String {
    let mut line = format!(
        "{:<24} arrived {}  {}",
        presence.player_id,
        time(&presence.arrived_at),
        if presence.has_played { "has played" } else { "not yet played" }
    );
    if !presence.table_id.is_empty() {
        line.push_str(&format!("  at {}", presence.table_id));
    }
    for restriction in &presence.breaker_restrictions {
        line.push_str(&format!("\n  {}", restriction_line(&presence.player_id, restriction)));
    }
    if let Some(correction) = &presence.arrival_correction {
        line.push_str(&format!(
            "\n  arrival corrected from {} by {}: {}",
            time(&correction.recorded_arrived_at),
            correction.corrected_by,
            correction.reason
        ));
    }
    line
}

pub fn restriction_line(breaker: &str, restriction: &pb::BreakerRestriction) -> String {
    let protected: Vec<String> = restriction
        .protected_players
        .iter()
        .map(|p| format!("{}{}", p.player_id, if p.cleared { " (cleared)" } else { "" }))
        .collect();
    format!(
        "{breaker} broke up {} and may not compete for entry against {} until each has played a rubber (rule E)",
        restriction.table_id,
        protected.join(", ")
    )
}

pub fn application_line(application: &pb::Application) -> String {
    let status = name(application.status, "APPLICATION_STATUS_", pb::ApplicationStatus::as_str_name);
    let mut line = format!("{} {} ({})", application.player_id, status, application.application_id);
    if application.queue_position > 0 {
        line.push_str(&format!(", place {} in the queue", application.queue_position));
    }
    line
}

pub fn print_table(table: &pb::Table) {
    let kind = name(table.kind, "TABLE_KIND_", common::TableKind::as_str_name);
    let status = name(table.status, "TABLE_STATUS_", pb::TableStatus::as_str_name);
    println!("{} ({}), {kind}, {status}, version {}", table.name, table.table_id, table.version);
    for member in &table.members {
        let mut notes = Vec::new();
        if member.playing {
            notes.push("playing".to_owned());
        }
        if member.sat_out_last_rubber {
            notes.push("sat out the last rubber".to_owned());
        }
        if !member.away_at_table_id.is_empty() {
            notes.push(format!("away making a fourth at {}", member.away_at_table_id));
        }
        if let Some(fill) = &member.temporary_fill {
            notes.push(format!("a fourth from {}", fill.home_table_id));
        }
        println!("  {:<24} {} in a row  {}", member.player_id, member.consecutive_rubbers, notes.join(", "));
    }
    for application in &table.queue {
        println!("  queue {}: {}", application.queue_position, application.player_id);
    }
    if let Some(rubber) = &table.current_rubber {
        print_rubber(rubber);
    }
    if let Some(next) = &table.next_steps {
        print_next_steps(&table.table_id, next);
    }
    // Shown so that the players can note the next server draw's commitment before anyone draws.
    if let Some(next) = table.next_draw_seed_commitments.first() {
        println!("  next server draw's seed commitment (SHA-256) {}", hex(next));
    }
}

pub fn print_rubber(rubber: &pb::Rubber) {
    let status = name(rubber.status, "RUBBER_STATUS_", pb::RubberStatus::as_str_name);
    println!("rubber {} ({}) at {}: {status}", rubber.number, rubber.rubber_id, rubber.table_id);
    for seated in &rubber.seats {
        let seat = name(seated.seat, "SEAT_", common::Seat::as_str_name);
        let dealer = if seated.seat == rubber.first_dealer { "  deals first" } else { "" };
        println!("  {seat:<6} {}{dealer}", seated.player_id);
    }
    let partnerships = if rubber.partnerships_agreed { "agreed by the four" } else { "drawn" };
    println!("  partnerships {partnerships}; the first dealer deals with deck {}", rubber.first_deck.max(1));
    if !rubber.sitting_out_player_ids.is_empty() {
        println!("  sitting out: {}", rubber.sitting_out_player_ids.join(", "));
    }
}

pub fn print_draw(draw: &pb::Draw) {
    let purpose = name(draw.purpose, "DRAW_PURPOSE_", pb::DrawPurpose::as_str_name);
    let method = name(draw.method, "DRAW_METHOD_", pb::DrawMethod::as_str_name);
    let status = name(draw.status, "DRAW_STATUS_", pb::DrawStatus::as_str_name);
    println!("draw {} at {}: {purpose}, {method}, {status}", draw.draw_id, draw.table_id);
    for drawn in &draw.drawings {
        let card = drawn.card.and_then(|c| laws::Card::try_from(c).ok()).map(|c| c.to_string()).unwrap_or_default();
        let verdict = if drawn.valid {
            String::new()
        } else {
            let reason = name(drawn.redraw_reason, "REDRAW_REASON_", pb::RedrawReason::as_str_name);
            format!("  draws again: {reason} ({})", drawn.law.as_ref().map(|l| l.text.as_str()).unwrap_or("Law 3"))
        };
        println!(
            "  {:<24} {card:<3} position {:>2}, deck {}{verdict}",
            drawn.player_id, drawn.spread_position, drawn.deck
        );
    }
    if !draw.order.is_empty() {
        println!("  order, highest first: {}", draw.order.join(", "));
    }
    if !draw.awaiting_player_ids.is_empty() {
        println!("  awaiting: {}", draw.awaiting_player_ids.join(", "));
    }
    if !draw.seed.is_empty() {
        let when = if draw.seed_committed_before_draw { "committed before the draw" } else { "committed at the draw" };
        println!("  seed {} (SHA-256 {}, {when})", hex(&draw.seed), hex(&draw.seed_commitment));
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The desk's command-line spelling of a draw's purpose (`draw record --purpose`).
fn purpose_flag(purpose: i32) -> &'static str {
    match pb::DrawPurpose::try_from(purpose).unwrap_or_default() {
        pb::DrawPurpose::Partnerships => "partnerships",
        pb::DrawPurpose::GoingOut => "going-out",
        pb::DrawPurpose::EntryFromOtherTable => "entry",
        pb::DrawPurpose::Precedence => "precedence",
        pb::DrawPurpose::Unspecified => "?",
    }
}

/// A table's "what next" as the desk reads it: the step and its rule, the commands that take it,
/// then who plays, who sits out, who the draw decides and who waits, each with why.
pub fn print_next_steps(table_id: &str, next: &pb::NextSteps) {
    print!("{}", next_steps_text(table_id, next));
}

/// The text [`print_next_steps`] prints.
pub fn next_steps_text(table_id: &str, next: &pb::NextSteps) -> String {
    let mut lines: Vec<String> = vec![format!("  what next: {}", next.summary)];
    let law = next.law.as_ref().map(|l| l.text.as_str()).unwrap_or_default();
    if !law.is_empty() {
        lines.push(format!("    rule: {law}"));
    }
    let step = pb::NextStep::try_from(next.step).unwrap_or_default();
    let table = if table_id.is_empty() { "<table>".to_owned() } else { table_id.to_owned() };
    let card = "--card <player>=<CARD>@<POSITION> ...";
    if let Some(draw) = &next.draw {
        let players: Vec<String> = draw.player_ids.iter().map(|p| format!("--player {p}")).collect();
        let players = players.join(" ");
        let purpose = purpose_flag(draw.purpose);
        let precedence = draw.purpose == pb::DrawPurpose::Precedence as i32;
        match step {
            pb::NextStep::FinishDraw => {
                lines
                    .push(format!("    record:  bridgectl draw record --table {table} --draw {} {card}", draw.draw_id));
            }
            // A draw for precedence among applicants goes with the command that forms the table
            // (rule C) or applies to it (rule D).
            _ if precedence && table_id.is_empty() => {
                lines.push(
                    "    cards:   bridgectl table open ... --precedence-card <player>=<CARD>@<POSITION> ...".to_owned(),
                );
                lines.push("    or:      bridgectl table open ... --server-draw".to_owned());
            }
            // Rule D (the fourth rule): applications made together, drawn with ApplyToTable.
            _ if precedence && draw.law.as_ref().is_some_and(|l| l.number == 4) => {
                lines.push(format!("    cards:   bridgectl table apply --table {table} ... --precedence-card <player>=<CARD>@<POSITION> ..."));
                lines.push(format!("    or:      bridgectl table apply --table {table} ... --server-draw"));
            }
            _ => {
                lines.push(format!(
                    "    cards:   bridgectl draw record --table {table} --purpose {purpose} {players} {card}"
                ));
                lines.push(format!("    or:      bridgectl draw server --table {table} --purpose {purpose} {players}"));
            }
        }
    }
    match step {
        pb::NextStep::StartRubber => {
            lines.push(format!("    start:   bridgectl rubber start --table {table} [--seat north=<player> ...]"));
        }
        pb::NextStep::PlayRubber => {
            lines.push(format!("    end:     bridgectl rubber end --table {table} --rubber <id> [--unfinished]"));
        }
        _ => {}
    }
    if next.players_needed > 0 {
        lines.push(format!("    needs {} more member(s)", next.players_needed));
    }
    for (label, list) in [
        ("plays", &next.playing),
        ("sits out", &next.sitting_out),
        ("undecided", &next.undecided),
        ("waits", &next.waiting),
    ] {
        for placed in list {
            lines.push(format!("    {label:<10} {:<24} {}", placed.player_id, placed.reason));
        }
    }
    if next.server_draws_automatic {
        lines.push("    (this table's option: the server makes a needed draw when a command needs it)".to_owned());
    }
    lines.iter().map(|line| format!("{line}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(player: &str, reason: &str) -> pb::PlacedPlayer {
        pb::PlacedPlayer { player_id: player.to_owned(), reason: reason.to_owned(), law: None }
    }

    /// What the desk reads for a table that needs a draw for going out (rule E): the step, the
    /// rule, the two commands that make the draw (with physical cards, or on the server), and
    /// where every member stands and why.
    #[test]
    fn the_desk_reads_the_draw_needed_with_the_commands_that_make_it() {
        let next = pb::NextSteps {
            step: pb::NextStep::Draw as i32,
            summary: "Make the draw for who goes out: p1 and p2 draw; the lowest go out (rule E).".to_owned(),
            law: Some(common::LawCitation {
                text: "rule E of the Rules for Club Procedure".to_owned(),
                ..Default::default()
            }),
            draw: Some(pb::NeededDraw {
                purpose: pb::DrawPurpose::GoingOut as i32,
                player_ids: vec!["p1".to_owned(), "p2".to_owned()],
                ..Default::default()
            }),
            playing: vec![placed("p5", "did not play the last rubber (rule E)")],
            undecided: vec![placed("p1", "draws"), placed("p2", "draws")],
            waiting: vec![placed("p7", "waits for a vacancy, place 1 (rule D)")],
            ..Default::default()
        };
        let text = next_steps_text("t1", &next);
        assert!(text.contains("what next: Make the draw for who goes out"), "{text}");
        assert!(text.contains("rule: rule E of the Rules for Club Procedure"), "{text}");
        assert!(
            text.contains("bridgectl draw record --table t1 --purpose going-out --player p1 --player p2 --card"),
            "{text}"
        );
        assert!(
            text.contains("bridgectl draw server --table t1 --purpose going-out --player p1 --player p2"),
            "{text}"
        );
        assert!(text.contains("plays      p5") && text.contains("did not play the last rubber (rule E)"), "{text}");
        assert!(text.contains("waits      p7"), "{text}");
        assert!(!text.contains("server makes a needed draw"), "{text}");
    }

    /// A rubber that is ready: the command that starts it.
    #[test]
    fn the_desk_reads_how_to_start_a_rubber_that_is_ready() {
        let next = pb::NextSteps {
            step: pb::NextStep::StartRubber as i32,
            summary: "Start.".to_owned(),
            ..Default::default()
        };
        assert!(next_steps_text("t2", &next).contains("bridgectl rubber start --table t2"));
    }
}
