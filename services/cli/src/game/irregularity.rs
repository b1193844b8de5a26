//! `bridgectl game irregularity`: an irregularity recorded as the table tells it (the game
//! service's `RecordIrregularity`).
//!
//! The kinds are the contract's `IrregularityKind` (proto/bridgeclub/game/v1/irregularity.proto),
//! named on the command line from its enum names: `IRREGULARITY_KIND_LEAD_OUT_OF_TURN` is
//! `lead-out-of-turn`. Which details a kind needs is the server's to say: it refuses a fact that
//! lacks one, naming the field.

use std::sync::OnceLock;

use anyhow::bail;
use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use clap::builder::{PossibleValuesParser, TypedValueParser};

const PREFIX: &str = "IRREGULARITY_KIND_";

/// Every kind the contract names, with its command-line name, in the contract's order.
pub fn kinds() -> &'static [(&'static str, game::IrregularityKind)] {
    static KINDS: OnceLock<Vec<(&'static str, game::IrregularityKind)>> = OnceLock::new();
    KINDS.get_or_init(|| {
        // The contract's values, whatever their numbering: the zero value is "not given".
        (1..1024)
            .filter_map(|n| game::IrregularityKind::try_from(n).ok())
            .map(|kind| (&*friendly(kind.as_str_name()).leak(), kind))
            .collect()
    })
}

/// `IRREGULARITY_KIND_LEAD_OUT_OF_TURN` as `lead-out-of-turn`.
fn friendly(proto_name: &str) -> String {
    proto_name.trim_start_matches(PREFIX).to_lowercase().replace('_', "-")
}

/// The command-line name of a kind (its number for a kind this build does not know).
pub fn kind_name(raw: i32) -> String {
    kinds().iter().find(|(_, kind)| *kind as i32 == raw).map_or_else(|| raw.to_string(), |(name, _)| (*name).to_owned())
}

/// The kind with this command-line name.
pub fn kind_named(name: &str) -> Option<game::IrregularityKind> {
    kinds().iter().find(|(n, _)| n.eq_ignore_ascii_case(name.trim())).map(|(_, kind)| *kind)
}

fn kind_parser() -> impl TypedValueParser<Value = game::IrregularityKind> {
    PossibleValuesParser::new(kinds().iter().map(|(name, _)| *name))
        .map(|name| kind_named(&name).unwrap_or(game::IrregularityKind::Unspecified))
}

/// What the table says happened, and who drew attention to it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// What happened: the contract's irregularity kinds (irregularity.proto says what each is and
    /// which details it takes).
    #[arg(long, value_parser = kind_parser())]
    pub kind: game::IrregularityKind,
    /// The player who committed it (N, E, S, W): dummy's seat for a card of dummy's hand,
    /// declarer for a designation of dummy's card.
    #[arg(long)]
    pub offender: laws::Seat,
    /// The player who drew attention to it; not given if not a player.
    #[arg(long)]
    pub pointed_out_by: Option<laws::Seat>,
    /// The call made, for the auction kinds (e.g. 1H, Pass, X, XX).
    #[arg(long)]
    pub call: Option<laws::Call>,
    /// The call is artificial and relates to these suits (letters C D H S, e.g. HS; "-" for
    /// none), as the partnership's methods disclose.
    #[arg(long, requires = "call", value_parser = parse_artificial)]
    pub artificial: Option<game::ArtificialMeaning>,
    /// The card led, played, exposed, designated or retracted, for the play kinds (e.g. HA, S10).
    #[arg(long)]
    pub card: Option<laws::Card>,
    /// The trick concerned, 1 to 13: a revoke's, a defective trick's, the trick a card went to.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=13))]
    pub trick: Option<u32>,
    /// A card exposed deliberately (shown, named or played): a major penalty card whatever its
    /// rank (Law 50).
    #[arg(long)]
    pub deliberate: bool,
    /// What declarer called for from dummy (Law 46): high, win, low, anything, a suit (H), a
    /// rank (Q) or a card not in dummy (SQ).
    #[arg(long, value_parser = parse_designation)]
    pub designation: Option<game::CardDesignation>,
    /// The other cards whose faces were visible, for cards played together (Law 58), comma
    /// separated (e.g. HK,H2); for a surplus card on a trick a later lead has closed (Law 12B2),
    /// the one card the offender puts in its place.
    #[arg(long, value_delimiter = ',')]
    pub also_visible: Vec<laws::Card>,
    /// The misinformed player: whose call is changed after misinformation (Law 21B1), or who was
    /// misinformed too late to change it (Law 21B3).
    #[arg(long)]
    pub misinformed: Option<laws::Seat>,
    /// What happened in words, as the table tells it.
    #[arg(long)]
    pub description: Option<String>,
}

impl Args {
    /// The fact as the contract takes it.
    pub fn fact(&self) -> game::IrregularityFact {
        game::IrregularityFact {
            kind: self.kind as i32,
            offender: self.offender.to_proto(),
            call: self.call.map(Into::into),
            card: self.card.map(Into::into),
            trick_number: self.trick.unwrap_or(0),
            description: self.description.clone().unwrap_or_default(),
            deliberate: self.deliberate,
            designation: self.designation,
            also_visible: self.also_visible.iter().map(|c| (*c).into()).collect(),
            artificial: self.artificial.clone(),
            misinformed: self.misinformed.map_or(0, ProtoEnum::to_proto),
        }
    }

    /// The request, at the table's `version`, under the idempotency `key`.
    pub fn request(&self, version: u64, key: String) -> game::RecordIrregularityRequest {
        game::RecordIrregularityRequest {
            table_id: self.table.clone(),
            expected_version: version,
            idempotency_key: key,
            fact: Some(self.fact()),
            pointed_out_by: self.pointed_out_by.map_or(0, ProtoEnum::to_proto),
        }
    }
}

/// An artificial call's suits from letters (`HS`), or `-` for none.
pub fn parse_artificial(text: &str) -> anyhow::Result<game::ArtificialMeaning> {
    let suits = text
        .chars()
        .filter(|c| *c != '-')
        .map(|c| match laws::Suit::from_char(c) {
            Some(suit) => Ok(suit.to_proto()),
            _ => bail!("{c:?} is not a suit letter (C, D, H, S; - for none)"),
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(game::ArtificialMeaning { suits })
}

/// What declarer called for from dummy: `high`, `win`, `low`, `anything`, a suit letter, a rank,
/// or a card.
pub fn parse_designation(text: &str) -> anyhow::Result<game::CardDesignation> {
    use game::DesignationKind as K;
    let text = text.trim();
    let bare = |kind: K| game::CardDesignation { kind: kind as i32, ..Default::default() };
    let mut chars = text.chars();
    let single = match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    };
    Ok(match text.to_ascii_lowercase().as_str() {
        "high" => bare(K::High),
        "win" => bare(K::Win),
        "low" => bare(K::Low),
        "anything" => bare(K::Anything),
        "10" => game::CardDesignation { rank: laws::Rank::Ten.to_proto(), ..bare(K::Rank) },
        _ => {
            let suit = single.and_then(laws::Suit::from_char);
            let rank = single.and_then(laws::Rank::from_char);
            match (suit, rank, text.parse::<laws::Card>()) {
                (Some(suit), _, _) => game::CardDesignation { suit: suit.to_proto(), ..bare(K::Suit) },
                (None, Some(rank), _) => game::CardDesignation { rank: rank.to_proto(), ..bare(K::Rank) },
                (None, None, Ok(card)) => game::CardDesignation { card: Some(card.into()), ..bare(K::Card) },
                (None, None, Err(_)) => bail!(
                    "{text:?} is not a designation: high, win, low, anything, a suit (H), a rank (Q) \
                     or a card (SQ)"
                ),
            }
        }
    })
}

/// A seat as the contract names it, for display.
pub fn seat_of(raw: i32) -> Option<laws::Seat> {
    laws::Seat::from_proto("seat", raw).ok()
}

/// A card as the contract carries it, for display.
pub fn card_text(card: Option<&pb::Card>) -> Option<String> {
    card.and_then(|c| laws::Card::try_from(*c).ok()).map(|c| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Cli::try_parse_from(std::iter::once("irregularity").chain(args.iter().copied())).map(|cli| cli.args)
    }

    #[test]
    fn every_kind_of_the_contract_has_one_friendly_name() {
        use game::IrregularityKind as K;
        assert_eq!(kind_named("lead-out-of-turn"), Some(K::LeadOutOfTurn));
        assert_eq!(kind_named("opening-lead-out-of-turn"), Some(K::OpeningLeadOutOfTurn));
        assert_eq!(kind_named("insufficient-bid"), Some(K::InsufficientBid));
        assert_eq!(kind_named("Revoke"), Some(K::Revoke));
        assert_eq!(kind_named("unspecified"), None, "the zero value is not a kind");
        assert_eq!(kind_named("lead_out_of_turn"), None);
        for n in 1..1024 {
            if let Ok(kind) = K::try_from(n) {
                let name = kind_name(n);
                assert_eq!(kind_named(&name), Some(kind), "{name}");
                assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{name}");
            }
        }
        let mut names: Vec<&str> = kinds().iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), kinds().len());
        assert_eq!(kind_name(9999), "9999");
    }

    #[test]
    fn a_lead_out_of_turn_parses_into_the_fact_and_request() {
        let args = parse(&[
            "--table",
            "t1",
            "--kind",
            "opening-lead-out-of-turn",
            "--offender",
            "W",
            "--card",
            "HA",
            "--pointed-out-by",
            "north",
            "--description",
            "West led before East",
        ])
        .unwrap();
        let request = args.request(7, "k1".into());
        assert_eq!((request.table_id.as_str(), request.expected_version), ("t1", 7));
        assert_eq!(request.idempotency_key, "k1");
        assert_eq!(request.pointed_out_by, pb::Seat::North as i32);
        let fact = request.fact.unwrap();
        assert_eq!(fact.kind, game::IrregularityKind::OpeningLeadOutOfTurn as i32);
        assert_eq!(fact.offender, pb::Seat::West as i32);
        assert_eq!(fact.card, Some("HA".parse::<laws::Card>().unwrap().into()));
        assert_eq!((fact.call, fact.trick_number, fact.misinformed), (None, 0, 0));
        assert_eq!(fact.description, "West led before East");
    }

    #[test]
    fn auction_play_and_designation_details_parse() {
        let args = parse(&[
            "--table",
            "t",
            "--kind",
            "insufficient-bid",
            "--offender",
            "E",
            "--call",
            "1d",
            "--artificial",
            "hs",
        ])
        .unwrap();
        let fact = args.fact();
        assert_eq!(fact.call, Some("1D".parse::<laws::Call>().unwrap().into()));
        assert_eq!(fact.artificial.unwrap().suits, vec![pb::Suit::Hearts as i32, pb::Suit::Spades as i32]);

        let args = parse(&["--table", "t", "--kind", "revoke", "--offender", "S", "--card", "C2", "--trick", "4"]);
        assert_eq!(args.unwrap().fact().trick_number, 4);
        let args =
            parse(&["--table", "t", "--kind", "simultaneous-cards", "--offender", "N", "--also-visible", "HK,h2"]);
        assert_eq!(args.unwrap().fact().also_visible.len(), 2);
        let args =
            parse(&["--table", "t", "--kind", "exposed-card", "--offender", "E", "--card", "SQ", "--deliberate"]);
        assert!(args.unwrap().fact().deliberate);
        let args = parse(&["--table", "t", "--kind", "misinformation", "--offender", "E", "--misinformed", "S"]);
        assert_eq!(args.unwrap().fact().misinformed, pb::Seat::South as i32);

        use game::DesignationKind as K;
        let kind = |text: &str| parse_designation(text).unwrap().kind;
        assert_eq!(kind("high"), K::High as i32);
        assert_eq!(kind("Anything"), K::Anything as i32);
        assert_eq!(parse_designation("h").unwrap().suit, pb::Suit::Hearts as i32);
        assert_eq!(parse_designation("Q").unwrap().rank, pb::Rank::Queen as i32);
        assert_eq!(parse_designation("10").unwrap().rank, pb::Rank::Ten as i32);
        assert_eq!(parse_designation("SQ").unwrap().card, Some("SQ".parse::<laws::Card>().unwrap().into()));
        assert!(parse_designation("top").is_err());
        assert!(
            parse(&["--table", "t", "--kind", "incomplete-designation", "--offender", "N", "--designation", "low"])
                .is_ok()
        );
    }

    #[test]
    fn wrong_arguments_are_refused_before_anything_is_sent() {
        let refused = |args: &[&str]| parse(args).unwrap_err().to_string();
        let unknown = refused(&["--table", "t", "--kind", "lead-out-of-rotation", "--offender", "W"]);
        assert!(unknown.contains("lead-out-of-turn"), "the error lists the kinds: {unknown}");
        assert!(refused(&["--table", "t", "--kind", "revoke", "--offender", "X"]).contains("unknown seat"));
        assert!(refused(&["--table", "t", "--kind", "revoke", "--offender", "S", "--trick", "14"]).contains("14"));
        assert!(refused(&["--table", "t", "--kind", "revoke", "--offender", "S", "--card", "Z9"]).contains("Z9"));
        assert!(refused(&["--table", "t", "--kind", "revoke"]).contains("--offender"));
        let lonely = refused(&["--table", "t", "--kind", "insufficient-bid", "--offender", "E", "--artificial", "H"]);
        assert!(lonely.contains("--call"), "{lonely}");
        assert!(parse_artificial("HX").is_err());
        assert!(parse_artificial("-").unwrap().suits.is_empty());
    }
}
