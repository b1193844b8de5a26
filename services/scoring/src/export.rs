//! Exports of a duplicate session: PBN 2.1 (one game per table result, with the board's hands
//! where known) for PBN readers, and USEBIO 1.2 XML for results services.

use std::fmt::Write as _;

use api::convert::ProtoEnum;
use api::convert::score::board_result;
use api::scoring::v1 as spb;
use laws::pbn::{GameResult, result_tags, tag};
use laws::score::duplicate::BoardResult;
use laws::{Deal, Seat, Vulnerability};

fn contestant_name(session: &spb::Session, id: &str) -> String {
    session.contestants.iter().find(|c| c.contestant_id == id).map_or_else(|| id.to_owned(), |c| c.name.clone())
}

fn scoring_tag(session: &spb::Session) -> &'static str {
    match spb::ScoringMethod::try_from(session.scoring_method) {
        Ok(spb::ScoringMethod::Matchpoints) => "MP",
        Ok(spb::ScoringMethod::CrossImps) => "IMP;Cross",
        Ok(spb::ScoringMethod::ButlerImps) => "IMP;Butler",
        Ok(spb::ScoringMethod::TeamImps) => "IMP",
        _ => "Total",
    }
}

fn date(session: &spb::Session) -> String {
    session
        .created_at
        .as_ref()
        .and_then(crate::time::from_timestamp)
        .map_or_else(|| "?".to_owned(), |t| t.format("%Y.%m.%d").to_string())
}

fn hundredths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let value = value.unsigned_abs();
    match value % 100 {
        0 => format!("{sign}{}", value / 100),
        cents => format!("{sign}{}.{cents:02}", value / 100),
    }
}

/// The session as PBN 2.1: every table result is a game with the board's dealer, vulnerability
/// and hands (when known), the contract, declarer and tricks, and North-South's score.
/// Adjusted scores are described in a comment and their points (when they have any) given as the
/// score; a board not played has unknown contract and result ("?").
pub fn pbn(session: &spb::Session, results: &[spb::BoardResult]) -> String {
    let mut out = String::new();
    out.push_str("% PBN 2.1\n% EXPORT\n% Creator: bridge-club scoring service\n\n");
    for result in results {
        let Some(key) = result.key.as_ref() else { continue };
        let Some(board) = session.boards.iter().find(|b| b.number == key.board_number) else { continue };
        let dealer = Seat::from_proto("dealer", board.dealer).unwrap_or(Seat::North);
        let vulnerability = Vulnerability::from_proto("vulnerability", board.vulnerability).unwrap_or_default();
        tag(&mut out, "Event", &session.name);
        tag(&mut out, "Site", "?");
        tag(&mut out, "Date", &date(session));
        tag(&mut out, "Board", &board.number.to_string());
        let ns = contestant_name(session, &key.north_south_contestant_id);
        let ew = contestant_name(session, &key.east_west_contestant_id);
        tag(&mut out, "West", &ew);
        tag(&mut out, "North", &ns);
        tag(&mut out, "East", &ew);
        tag(&mut out, "South", &ns);
        tag(&mut out, "Dealer", &dealer.letter().to_string());
        tag(&mut out, "Vulnerable", vulnerability.pbn());
        // The hands when known; PBN readers cannot take an unknown deal, so the tag is left out.
        if let Some(deal) = board.deal.clone().and_then(|d| Deal::try_from(d).ok()) {
            tag(&mut out, "Deal", &deal.to_pbn(dealer));
        }
        tag(&mut out, "Scoring", scoring_tag(session));
        let game_result = match result.table_result.as_ref().and_then(|r| board_result(r).ok()) {
            Some(BoardResult::Played { contract, tricks }) => {
                GameResult::Played { contract: contract.contract, declarer: contract.declarer, tricks: tricks.get() }
            }
            Some(BoardResult::PassedOut) => GameResult::PassedOut,
            None => GameResult::Unknown,
        };
        result_tags(&mut out, game_result);
        let ns_points = result.north_south.as_ref().and_then(|v| v.points).map(|p| p.hundredths);
        if let Some(points) = ns_points {
            tag(&mut out, "Score", &format!("NS {}", hundredths(points)));
        }
        if let Some(percentage) = result.north_south.as_ref().and_then(|v| v.percentage) {
            tag(&mut out, "ScorePercentage", &format!("NS {}", hundredths(i64::from(percentage.basis_points))));
        }
        if let Some(imps) = result.north_south.as_ref().and_then(|v| v.imps) {
            tag(&mut out, "ScoreIMP", &format!("NS {}", hundredths(imps.hundredths)));
        }
        if let Some(note) = adjustment_note(result) {
            let _ = writeln!(out, "{{{}}}", note.replace(['{', '}'], ""));
        }
        out.push('\n');
    }
    out
}

/// A reader's description of an adjusted score (Law 12), or `None` for a table result.
fn adjustment_note(result: &spb::BoardResult) -> Option<String> {
    let kind = spb::ResultKind::try_from(result.kind).ok()?;
    let what = match kind {
        spb::ResultKind::Table | spb::ResultKind::Unspecified => return None,
        spb::ResultKind::Assigned => "assigned adjusted score (Law 12C1)",
        spb::ResultKind::Weighted => "weighted adjusted score (Law 12C1c)",
        spb::ResultKind::Artificial => "artificial adjusted score (Law 12C2)",
        spb::ResultKind::Split => "split adjusted score (Law 12C1e)",
        spb::ResultKind::NotPlayed => "not played",
    };
    let ruling = if result.ruling_id.is_empty() { String::new() } else { format!(", ruling {}", result.ruling_id) };
    Some(format!("{what}{ruling}; the contract and result are the table's"))
}

/// Escapes text for XML.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

fn element(out: &mut String, indent: usize, name: &str, value: &str) {
    let _ = writeln!(out, "{:indent$}<{name}>{}</{name}>", "", xml(value));
}

/// The session's results as a USEBIO 1.2 document: the event, each pair with its place and
/// score, and each board's traveller.
pub fn usebio(session: &spb::Session, results: &[spb::BoardResult], standings: &[spb::Standing]) -> String {
    let method = spb::ScoringMethod::try_from(session.scoring_method).unwrap_or_default();
    let (event_type, board_scoring) = match method {
        spb::ScoringMethod::Matchpoints => ("MP_PAIRS", "MATCH_POINTS"),
        spb::ScoringMethod::CrossImps => ("CROSS_IMP_PAIRS", "CROSS_IMPS"),
        spb::ScoringMethod::ButlerImps => ("BUTLER_PAIRS", "BUTLER_IMPS"),
        spb::ScoringMethod::TeamImps => ("TEAMS_OF_FOUR", "IMPS"),
        _ => ("AGGREGATE_PAIRS", "AGGREGATE"),
    };
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<USEBIO Version=\"1.2\">\n");
    let _ = writeln!(out, "  <EVENT EVENT_TYPE=\"{event_type}\">");
    element(&mut out, 4, "EVENT_DESCRIPTION", &session.name);
    element(
        &mut out,
        4,
        "DATE",
        &session
            .created_at
            .as_ref()
            .and_then(crate::time::from_timestamp)
            .map_or_else(String::new, |t| t.format("%d/%m/%Y").to_string()),
    );
    element(&mut out, 4, "BOARD_SCORING_METHOD", board_scoring);
    element(&mut out, 4, "BOARDS_PLAYED", &session.boards.len().to_string());
    out.push_str("    <PARTICIPANTS>\n");
    for contestant in &session.contestants {
        let standing = standings.iter().find(|s| s.contestant_id == contestant.contestant_id);
        out.push_str("      <PAIR>\n");
        element(&mut out, 8, "PAIR_NUMBER", &contestant.contestant_id);
        element(&mut out, 8, "PAIR_NAME", &contestant.name);
        if let Some(standing) = standing {
            let place = if standing.tied { format!("{}=", standing.rank) } else { standing.rank.to_string() };
            element(&mut out, 8, "PLACE", &place);
            let score = standing.score.as_ref();
            let total = match method {
                spb::ScoringMethod::Matchpoints => score.and_then(|s| s.matchpoints).map(|m| m.hundredths),
                spb::ScoringMethod::CrossImps | spb::ScoringMethod::ButlerImps | spb::ScoringMethod::TeamImps => {
                    score.and_then(|s| s.imps).map(|i| i.hundredths)
                }
                _ => score.and_then(|s| s.points).map(|p| p.hundredths),
            };
            if let Some(total) = total {
                element(&mut out, 8, "TOTAL_SCORE", &hundredths(total));
            }
            if let Some(percentage) = score.and_then(|s| s.percentage) {
                element(&mut out, 8, "PERCENTAGE", &hundredths(i64::from(percentage.basis_points)));
            }
            element(&mut out, 8, "BOARDS_PLAYED", &standing.boards_played.to_string());
        }
        for player in &contestant.player_ids {
            out.push_str("        <PLAYER>\n");
            element(&mut out, 10, "PLAYER_ID", player);
            out.push_str("        </PLAYER>\n");
        }
        out.push_str("      </PAIR>\n");
    }
    out.push_str("    </PARTICIPANTS>\n");
    for board in &session.boards {
        let on_board: Vec<&spb::BoardResult> =
            results.iter().filter(|r| r.key.as_ref().is_some_and(|k| k.board_number == board.number)).collect();
        if on_board.is_empty() {
            continue;
        }
        out.push_str("    <BOARD>\n");
        element(&mut out, 6, "BOARD_NUMBER", &board.number.to_string());
        for result in on_board {
            let Some(key) = result.key.as_ref() else { continue };
            out.push_str("      <TRAVELLER_LINE>\n");
            element(&mut out, 8, "NS_PAIR_NUMBER", &key.north_south_contestant_id);
            element(&mut out, 8, "EW_PAIR_NUMBER", &key.east_west_contestant_id);
            match result.table_result.as_ref().and_then(|r| board_result(r).ok()) {
                Some(BoardResult::Played { contract, tricks }) => {
                    element(&mut out, 8, "CONTRACT", &contract.contract.to_string().replace('X', "*"));
                    element(&mut out, 8, "PLAYED_BY", &contract.declarer.letter().to_string());
                    element(&mut out, 8, "TRICKS", &tricks.get().to_string());
                }
                Some(BoardResult::PassedOut) => element(&mut out, 8, "CONTRACT", "PASS"),
                None => {}
            }
            if let Some(points) = result.north_south.as_ref().and_then(|v| v.points) {
                element(&mut out, 8, "SCORE", &hundredths(points.hundredths));
            }
            let adjusted = spb::ResultKind::try_from(result.kind).is_ok_and(|k| k != spb::ResultKind::Table);
            if adjusted {
                element(
                    &mut out,
                    8,
                    "ADJUSTED_SCORE_TYPE",
                    spb::ResultKind::try_from(result.kind).map_or("", |k| k.as_str_name()),
                );
            }
            for (side, values) in [("NS", result.north_south.as_ref()), ("EW", result.east_west.as_ref())] {
                let Some(values) = values else { continue };
                if let Some(mp) = values.matchpoints {
                    element(&mut out, 8, &format!("{side}_MATCH_POINTS"), &hundredths(mp.hundredths));
                }
                if let Some(imps) = values.imps {
                    element(&mut out, 8, &format!("{side}_CROSS_IMPS"), &hundredths(imps.hundredths));
                }
                if let Some(percentage) = values.percentage {
                    element(
                        &mut out,
                        8,
                        &format!("{side}_PERCENTAGE"),
                        &hundredths(i64::from(percentage.basis_points)),
                    );
                }
            }
            out.push_str("      </TRAVELLER_LINE>\n");
        }
        out.push_str("    </BOARD>\n");
    }
    out.push_str("  </EVENT>\n</USEBIO>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbn_strings_and_xml_text_are_escaped() {
        let mut out = String::new();
        tag(&mut out, "Event", "Tuesday \"pairs\" \\ club");
        assert_eq!(out, "[Event \"Tuesday \\\"pairs\\\" \\\\ club\"]\n");
        assert_eq!(xml("A & B <c> \"d\" 'e'"), "A &amp; B &lt;c&gt; &quot;d&quot; &apos;e&apos;");
    }

    #[test]
    fn hundredths_show_as_decimals() {
        assert_eq!(hundredths(6250), "62.50");
        assert_eq!(hundredths(-300), "-3");
        assert_eq!(hundredths(-5), "-0.05");
        assert_eq!(hundredths(42000), "420");
    }
}
