//! The decision notice: a decided appeal as a printable HTML page the committee hands to every
//! party. It says what was appealed (the ruling, its facts and Laws), who heard it, what the
//! committee decided and why, who dissented and why, the decision now in force, and the score
//! change it made. Every party reads the same page (`GetDecisionNotice`), so the decision is
//! published to the players with its reasons, not only its outcome.
//!
//! Everything the page shows comes from the appeal and ruling as stored; every text a person
//! wrote is escaped, so a statement or a reason cannot change the page.

use std::fmt::Write as _;

use api::appeals::v1 as pb;
use api::common::v1 as common;

/// The notice of `appeal` (decided) against `ruling`.
pub fn render(appeal: &pb::Appeal, ruling: &pb::Ruling) -> String {
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Appeal {id}: decision of the appeals committee</title>\n\
         <style>body{{font-family:serif;max-width:42em;margin:2em auto}}dt{{font-weight:bold}}</style>\n\
         </head>\n<body>\n<h1>Decision of the appeals committee</h1>\n",
        id = escape(&appeal.appeal_id)
    );
    let _ = write!(
        page,
        "<section id=\"appeal\">\n<h2>The appeal</h2>\n<dl>\n{}{}{}{}</dl>\n</section>\n",
        entry("Appeal", &appeal.appeal_id),
        entry("Appellant", &appeal.appellant_player_id),
        entry("Filed", &time(appeal.filed_at.as_ref())),
        entry("Grounds", &appeal.grounds),
    );
    let laws: Vec<String> = ruling.laws.iter().map(citation).collect();
    let _ = write!(
        page,
        "<section id=\"ruling\">\n<h2>The ruling appealed</h2>\n<dl>\n{}{}{}{}{}{}</dl>\n</section>\n",
        entry("Ruling", &ruling.ruling_id),
        entry("Given by", &format!("{} at {}", ruling.ruled_by, time(ruling.ruled_at.as_ref()))),
        entry("Irregularity", &ruling.irregularity),
        entry("Facts", &ruling.facts),
        entry("Laws", &laws.join("; ")),
        entry("Decision", &ruling.decision.as_ref().map(decision).unwrap_or_default()),
    );
    if let Some(hearing) = &appeal.hearing {
        let _ = write!(
            page,
            "<section id=\"hearing\">\n<h2>The hearing</h2>\n<dl>\n{}{}</dl>\n",
            entry("Committee", &hearing.committee_member_ids.join(", ")),
            entry("Heard", &time(hearing.heard_at.as_ref())),
        );
        if !hearing.statements.is_empty() {
            page.push_str("<ul class=\"statements\">\n");
            for statement in &hearing.statements {
                let _ = writeln!(page, "<li><b>{}</b>: {}</li>", escape(&statement.speaker), escape(&statement.text));
            }
            page.push_str("</ul>\n");
        }
        page.push_str("</section>\n");
    }
    if let Some(decided) = &appeal.decision {
        let dissent = if decided.dissenting_member_ids.is_empty() {
            String::new()
        } else {
            entry("Dissenting", &format!("{}: {}", decided.dissenting_member_ids.join(", "), decided.dissent))
        };
        let _ = write!(
            page,
            "<section id=\"decision\">\n<h2>The committee's decision</h2>\n<dl>\n{}{}{}{}{}{}</dl>\n",
            entry("Outcome", outcome(decided.outcome)),
            entry("Decided", &time(decided.decided_at.as_ref())),
            entry("By", &decided.committee_member_ids.join(", ")),
            entry("Reasons", &decided.reasons),
            dissent,
            entry(
                "Now in force",
                &decided.new_decision.as_ref().map_or_else(|| "the ruling, as given".to_owned(), decision),
            ),
        );
        page.push_str("<h3>The score change</h3>\n");
        if decided.score_versions.is_empty() {
            page.push_str("<p>The score is unchanged.</p>\n");
        } else {
            page.push_str("<ul class=\"score-versions\">\n");
            for version in &decided.score_versions {
                let result = version
                    .adjustment
                    .as_ref()
                    .map(adjustment)
                    .or_else(|| version.result.as_ref().map(result))
                    .unwrap_or_default();
                let _ = writeln!(
                    page,
                    "<li>version {}: {}{}</li>",
                    version.version,
                    escape(&version.reason),
                    if result.is_empty() { String::new() } else { format!(" (now {})", escape(&result)) }
                );
            }
            page.push_str("</ul>\n");
        }
        page.push_str("</section>\n");
    }
    page.push_str(&crate::procedure::notice_section(appeal));
    page.push_str("</body>\n</html>\n");
    page
}

/// `text` safe inside an HTML element or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn entry(term: &str, value: &str) -> String {
    if value.is_empty() { String::new() } else { format!("<dt>{}</dt><dd>{}</dd>\n", escape(term), escape(value)) }
}

fn time(at: Option<&prost_types::Timestamp>) -> String {
    at.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

fn outcome(outcome: i32) -> &'static str {
    match pb::AppealOutcome::try_from(outcome) {
        Ok(pb::AppealOutcome::Upheld) => "upheld: the ruling stands",
        Ok(pb::AppealOutcome::Overruled) => "overruled",
        Ok(pb::AppealOutcome::Varied) => "varied",
        _ => "not given",
    }
}

fn citation(law: &common::LawCitation) -> String {
    let code = match common::LawCode::try_from(law.code) {
        Ok(common::LawCode::Rubber) => "Laws of Rubber Bridge",
        Ok(common::LawCode::Club) => "Alternative Club Laws",
        Ok(common::LawCode::ClubProcedure) => "Rules for Club Procedure",
        Ok(common::LawCode::Duplicate) => "Laws of Duplicate Bridge",
        _ => "",
    };
    let named = if law.number == 0 { code.to_owned() } else { format!("Law {}{} ({code})", law.number, law.section) };
    if law.text.is_empty() { named } else { format!("{named}: {}", law.text) }
}

fn decision(decision: &pb::RulingDecision) -> String {
    use pb::ruling_decision::Decision;
    match &decision.decision {
        Some(Decision::Rectification(rectification)) => format!("rectification: {}", rectification.description),
        Some(Decision::ResultStands(_)) => "the table result stands".to_owned(),
        Some(Decision::AdjustedScore(adjusted)) => adjustment(adjusted),
        None => String::new(),
    }
}

fn adjustment(adjustment: &common::Adjustment) -> String {
    use common::adjustment::Kind;
    match &adjustment.kind {
        Some(Kind::Assigned(assigned)) => format!("an assigned score of {}", assigned_result(assigned)),
        Some(Kind::Weighted(weighted)) => format!("a weighted score of {}", weights(weighted)),
        Some(Kind::Artificial(artificial)) => format!(
            "an artificial score: North-South {}, East-West {}",
            award(artificial.north_south.as_ref()),
            award(artificial.east_west.as_ref())
        ),
        Some(Kind::Split(split)) => format!(
            "a split score: North-South {}; East-West {}",
            side(split.north_south.as_ref()),
            side(split.east_west.as_ref())
        ),
        None => String::new(),
    }
}

fn side(adjustment: Option<&common::SideAdjustment>) -> String {
    use common::side_adjustment::Kind;
    match adjustment.and_then(|a| a.kind.as_ref()) {
        Some(Kind::Assigned(assigned)) => assigned_result(assigned),
        Some(Kind::Weighted(weighted)) => weights(weighted),
        Some(Kind::Artificial(artificial)) => award(Some(artificial)),
        None => "not given".to_owned(),
    }
}

fn assigned_result(assigned: &common::AssignedScore) -> String {
    assigned.result.as_ref().map(result).unwrap_or_default()
}

fn weights(weighted: &common::WeightedScore) -> String {
    let parts: Vec<String> = weighted
        .results
        .iter()
        .map(|w| {
            let weight = w.weight.map_or(0, |p| p.basis_points);
            format!("{}% of {}", percent(weight), w.result.as_ref().map(result).unwrap_or_default())
        })
        .collect();
    parts.join(", ")
}

fn award(award: Option<&common::ArtificialAward>) -> String {
    use common::artificial_award::Award;
    match award.and_then(|a| a.award.as_ref()) {
        Some(Award::Grade(grade)) => match common::ArtificialGrade::try_from(*grade) {
            Ok(common::ArtificialGrade::AveragePlus) => "average plus".to_owned(),
            Ok(common::ArtificialGrade::Average) => "average".to_owned(),
            Ok(common::ArtificialGrade::AverageMinus) => "average minus".to_owned(),
            _ => "not given".to_owned(),
        },
        Some(Award::Percentage(p)) => format!("{}%", percent(p.basis_points)),
        Some(Award::Imps(imps)) => format!("{} IMPs", f64::from(imps.hundredths as i32) / 100.0),
        None => "not given".to_owned(),
    }
}

fn percent(basis_points: i32) -> String {
    format!("{}", f64::from(basis_points) / 100.0)
}

fn result(result: &common::DealResult) -> String {
    use common::deal_result::Outcome;
    match &result.outcome {
        Some(Outcome::Played(played)) => {
            let contract = played
                .contract
                .and_then(|c| laws::DeclaredContract::try_from(c).ok())
                .map_or_else(|| "a contract".to_owned(), |c| c.to_string());
            format!("{contract}, {} tricks", played.tricks)
        }
        Some(Outcome::PassedOut(_)) => "passed out".to_owned(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_person_wrote_cannot_change_the_page() {
        assert_eq!(escape("<b>\"x\" & 'y'</b>"), "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;");
        let appeal = pb::Appeal {
            appeal_id: "a1".into(),
            grounds: "</dd><script>alert(1)</script>".into(),
            ..Default::default()
        };
        let page = render(&appeal, &pb::Ruling::default());
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}
