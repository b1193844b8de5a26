//! `bridgectl game claim`: a claim made at the table, recorded by the desk with the claimer's
//! words and, if the table took it down so, his statement as data (the game service's `Claim`).
//!
//! A statement given as data (`--order`, `--suits`, `--trumps`, `--finesse`, or `--line` alone
//! for "no relevant statement") is what the engine holds declarer to when a rubber claim is
//! disputed and play continues (Law 69, 69A-D; Law 70B for a defender's claim). Without any of
//! them the claim is words alone and play after a dispute is left to the players.

use anyhow::{anyhow, bail};
use api::common::v1 as pb;
use api::game::v1 as game;

/// A claim as the table tells it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The claimer (N, E, S, W).
    #[arg(long)]
    pub seat: String,
    /// Of the tricks still to be played, how many his side will win.
    #[arg(long)]
    pub tricks: u32,
    /// His statement, in his words.
    #[arg(long, default_value = "")]
    pub statement: String,
    /// Record the statement as data even with no part given: "no relevant statement" (Law 69A).
    #[arg(long)]
    pub line: bool,
    /// The cards of his side in the order he said he would play them (e.g. SA,SK,HA).
    #[arg(long, value_delimiter = ',')]
    pub order: Vec<String>,
    /// The suits in the order he said his side would lead them (letters, e.g. D,C).
    #[arg(long, value_delimiter = ',')]
    pub suits: Vec<String>,
    /// What he said about the outstanding trumps: draw or not-draw (Law 69B).
    #[arg(long)]
    pub trumps: Option<String>,
    /// The suits in which he said he would take a finesse (letters, e.g. H).
    #[arg(long, value_delimiter = ',')]
    pub finesse: Vec<String>,
}

impl Args {
    /// The contract's request, at `version`, under idempotency key `key`.
    pub fn request(&self, version: u64, key: String) -> anyhow::Result<game::ClaimRequest> {
        Ok(game::ClaimRequest {
            table_id: self.table.clone(),
            expected_version: version,
            idempotency_key: key,
            claimer: super::parse_seat(&self.seat)?,
            tricks: self.tricks,
            statement: self.statement.clone(),
            line: self.stated_line()?,
        })
    }

    /// The statement as data, if any part of it was given (or `--line`).
    fn stated_line(&self) -> anyhow::Result<Option<game::StatedLine>> {
        let given = self.line
            || !self.order.is_empty()
            || !self.suits.is_empty()
            || self.trumps.is_some()
            || !self.finesse.is_empty();
        if !given {
            return Ok(None);
        }
        let trumps = match self.trumps.as_deref().map(str::trim) {
            None => game::TrumpIntent::Unspecified,
            Some(t) if t.eq_ignore_ascii_case("draw") => game::TrumpIntent::Draw,
            Some(t) if t.eq_ignore_ascii_case("not-draw") => game::TrumpIntent::NotDraw,
            Some(other) => bail!("--trumps {other:?}: draw or not-draw"),
        };
        Ok(Some(game::StatedLine {
            cards: self.order.iter().map(|c| parse_card(c)).collect::<anyhow::Result<_>>()?,
            suits: self.suits.iter().map(|s| parse_suit(s)).collect::<anyhow::Result<_>>()?,
            trumps: trumps as i32,
            finesses: self.finesse.iter().map(|s| parse_suit(s)).collect::<anyhow::Result<_>>()?,
        }))
    }
}

fn parse_card(text: &str) -> anyhow::Result<pb::Card> {
    let card: laws::Card = text.trim().parse().map_err(|e| anyhow!("card {text:?}: {e}"))?;
    Ok(card.into())
}

fn parse_suit(text: &str) -> anyhow::Result<i32> {
    let mut chars = text.trim().chars();
    match (chars.next().and_then(laws::Suit::from_char), chars.next()) {
        (Some(suit), None) => Ok(pb::Suit::from(suit) as i32),
        _ => bail!("suit {text:?}: one of C, D, H, S"),
    }
}

/// The claim as the table now has it, for the desk: its line as data and where it stands.
pub fn claim_text(claim: &game::Claim) -> String {
    let status = super::views::enum_name(claim.status, "CLAIM_STATUS_", game::ClaimStatus::as_str_name);
    let mut out = format!(
        "claim {} by {} of {} of {} tricks: {status}\n",
        claim.claim_id,
        super::seat_name(claim.claimer),
        claim.tricks,
        claim.tricks_remaining
    );
    if let Some(line) = &claim.line {
        out.push_str(&format!("  stated line: {}\n", line_text(line)));
    }
    for seat in &claim.faced_for_inspection {
        // Rubber Law 69: declarer may impose no penalty on him.
        out.push_str(&format!("  {} faced his hand for inspection\n", super::seat_name(*seat)));
    }
    out
}

/// A stated line in words: "order SA SK; suits D C; trumps draw; finesse H".
pub fn line_text(line: &game::StatedLine) -> String {
    let suit = |raw: &i32| pb::Suit::try_from(*raw).map_or("?", |s| &s.as_str_name()["SUIT_".len()..]).to_owned();
    let mut parts = Vec::new();
    if !line.cards.is_empty() {
        let cards: Vec<String> = line
            .cards
            .iter()
            .map(|c| laws::Card::try_from(*c).map_or_else(|_| "?".into(), |c| c.to_string()))
            .collect();
        parts.push(format!("order {}", cards.join(" ")));
    }
    if !line.suits.is_empty() {
        parts.push(format!("suits {}", line.suits.iter().map(suit).collect::<Vec<_>>().join(" ")));
    }
    match game::TrumpIntent::try_from(line.trumps) {
        Ok(game::TrumpIntent::Draw) => parts.push("trumps draw".into()),
        Ok(game::TrumpIntent::NotDraw) => parts.push("trumps not drawn".into()),
        _ => {}
    }
    if !line.finesses.is_empty() {
        parts.push(format!("finesse {}", line.finesses.iter().map(suit).collect::<Vec<_>>().join(" ")));
    }
    if parts.is_empty() { "no relevant statement".into() } else { parts.join("; ") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(line: &[&str]) -> Args {
        Cli::try_parse_from(std::iter::once("claim").chain(line.iter().copied())).unwrap_or_else(|e| panic!("{e}")).args
    }

    #[test]
    fn law_69_a_claim_in_words_alone_carries_no_line() {
        let request = args(&["--table", "T", "--seat", "S", "--tricks", "9", "--statement", "the rest"])
            .request(4, "k".into())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(request.line, None);
        assert_eq!(request.statement, "the rest");
        assert_eq!(request.expected_version, 4);
    }

    #[test]
    fn law_69_the_statement_as_data_parses_every_part() {
        let request = args(&[
            "--table",
            "T",
            "--seat",
            "S",
            "--tricks",
            "9",
            "--order",
            "SA,SK",
            "--suits",
            "D,C",
            "--trumps",
            "draw",
            "--finesse",
            "H",
        ])
        .request(1, "k".into())
        .unwrap_or_else(|e| panic!("{e}"));
        let line = request.line.unwrap_or_else(|| panic!("a line"));
        assert_eq!(line.cards.len(), 2);
        assert_eq!(line.suits, vec![pb::Suit::Diamonds as i32, pb::Suit::Clubs as i32]);
        assert_eq!(line.trumps, game::TrumpIntent::Draw as i32);
        assert_eq!(line_text(&line), "order SA SK; suits DIAMONDS CLUBS; trumps draw; finesse HEARTS");
        let empty = args(&["--table", "T", "--seat", "S", "--tricks", "9", "--line"]).request(1, "k".into());
        assert_eq!(empty.ok().and_then(|r| r.line).map(|l| line_text(&l)).as_deref(), Some("no relevant statement"));
        assert!(
            args(&["--table", "T", "--seat", "S", "--tricks", "9", "--trumps", "some"]).request(1, "k".into()).is_err()
        );
        assert!(
            args(&["--table", "T", "--seat", "S", "--tricks", "9", "--suits", "X"]).request(1, "k".into()).is_err()
        );
    }
}
