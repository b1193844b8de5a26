//! `bridgectl game ...`: the desk's and the arbiter's commands for the live game.
//!
//! ```text
//! bridgectl game irregularity --table T --kind opening-lead-out-of-turn --offender W --card HA
//! bridgectl game irregularity --table T --kind insufficient-bid --offender E --call 1D
//! bridgectl game kinds                                         # every kind, as --kind names it
//! bridgectl game table --table T                               # what is open: decisions, calls
//! bridgectl game calls [--table T] [--all]                     # open calls for the arbiter
//! bridgectl game options --table T [--decision D]              # the options the Laws give
//! bridgectl game rule --table T --option cancel_call           # choose one, as the arbiter
//! bridgectl game rule --table T --option 1 --seat S --call 2H  # record a player's choice
//! bridgectl game decide --table T --option accept_lead --seat N # the same (`decide` = `rule`)
//! bridgectl game rule ... --call 3C --artificial HS             # an artificial call (Law 26A)
//! bridgectl game resolve --table T --call <id> --note "..."    # settle a call
//! bridgectl game adjudicate --table T --claim <id> --tricks 9 --reasons "..."
//! bridgectl game claim --table T --seat S --tricks 9 --statement "..." [--order SA,SK]
//!     [--suits D,C] [--trumps draw|not-draw] [--finesse H] [--line]  # rubber Law 69 as data
//! bridgectl game face-hand --table T --seat W [--claim <id>]   # a defender's hand faced (Law 69)
//! bridgectl game start --table T --rubber R --scorepad P [--deal-number N] [--digital|--recorded]
//! bridgectl game call --table T [--seat N] 1NT [Pass 3NT ...]  # see `deal`
//! bridgectl game play --table T [--seat E] SA [S2 S5 SK ...]
//! bridgectl game answer --table T --seat W --accept|--dispute  # an answer to the claim
//! ```

use std::fmt::Write;

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;

use api::common::v1 as pb;
use api::game::v1 as game;
use api::game::v1::game_service_client::GameServiceClient;
use platform::app::PeerChannel;

mod claim;
mod deal;
mod irregularity;
mod views;

use irregularity::parse_artificial;

/// The game service's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Starts a rubber's deal: the players, seats, dealer and vulnerability come from the rubber
    /// and its scorepad (Laws 3, 9, 77); recorded (physical cards) unless --digital.
    Start(deal::Start),
    /// Makes a call, or several in order, for the seat next to act unless --seat names it; prints
    /// the table after.
    Call(deal::Call),
    /// Plays a card, or several in order (a trick: SA S2 S5 SK), from the hand next to act unless
    /// --seat names it; prints the table after.
    Play(deal::Play),
    /// Answers the claim or concession pending: an opponent accepts or disputes it (Laws 68-71).
    Answer(deal::Answer),
    /// Records an irregularity as the table tells it (a call or lead out of turn, an
    /// insufficient bid, a revoke, an exposed card...): shows its Law, the arbiter call it
    /// opened, and the choice the Laws give, to whom.
    Irregularity(irregularity::Args),
    /// Lists the kinds of irregularity `irregularity --kind` takes.
    Kinds,
    /// Shows what is open at a table: whose turn, the calls for the arbiter, the decisions
    /// pending with who chooses and the options, the obligations and penalty cards in force.
    Table {
        /// The table.
        #[arg(long)]
        table: String,
    },
    /// Lists the calls for the arbiter across the room, oldest first.
    Calls {
        /// Only this table's.
        #[arg(long)]
        table: Option<String>,
        /// Resolved calls too.
        #[arg(long)]
        all: bool,
    },
    /// Shows a table's open rectification decisions, each option with its Law and chooser.
    Options {
        /// The table.
        #[arg(long)]
        table: String,
        /// Only this decision (settled ones included).
        #[arg(long)]
        decision: Option<String>,
    },
    /// Chooses an option of a decision (`decide` is the same): as the arbiter, or recording the
    /// choice of the player at `--seat`.
    #[command(visible_alias = "decide")]
    Rule {
        /// The table.
        #[arg(long)]
        table: String,
        /// The decision; the one open if not given.
        #[arg(long)]
        decision: Option<String>,
        /// The option: its id or its kind (e.g. cancel_call).
        #[arg(long)]
        option: String,
        /// The entitled player whose choice is recorded (N, E, S, W).
        #[arg(long)]
        seat: Option<String>,
        /// The call the option carries, if it needs one (e.g. 2H, Pass, X).
        #[arg(long)]
        call: Option<String>,
        /// The call is artificial and relates to these suits (letters C D H S, e.g. HS; "-"
        /// for none), as the partnership's methods disclose (rubber Law 26A; duplicate Laws 26B
        /// and 27B1(a)).
        #[arg(long, requires = "call")]
        artificial: Option<String>,
    },
    /// Settles a call for the arbiter, so that the game goes on.
    Resolve {
        /// The table.
        #[arg(long)]
        table: String,
        /// The arbiter call.
        #[arg(long = "call")]
        call_id: String,
        /// What was explained or ruled.
        #[arg(long)]
        note: String,
    },
    /// Records a claim made at the table, with the claimer's words and, if the table took it down
    /// so, his statement as data, which the engine holds him to if a rubber claim is disputed and
    /// play continues (Law 69, 69A-D; Law 70B).
    Claim(claim::Args),
    /// Records a defender facing his hand for inspection by his partner while play continues
    /// after declarer's disputed claim (rubber Law 69): it lies face up for everyone, and declarer
    /// may impose no penalty for that defender's irregularities.
    FaceHand {
        /// The table.
        #[arg(long)]
        table: String,
        /// The defender (N, E, S, W).
        #[arg(long)]
        seat: String,
        /// The disputed claim being played on; the table's last claim if not given.
        #[arg(long)]
        claim: Option<String>,
    },
    /// Decides a disputed claim: the tricks awarded to the claimer's side of those remaining.
    Adjudicate {
        /// The table.
        #[arg(long)]
        table: String,
        /// The claim.
        #[arg(long)]
        claim: String,
        /// Tricks awarded to the claimer's side.
        #[arg(long)]
        tricks: u32,
        /// The reasons.
        #[arg(long)]
        reasons: String,
    },
}

fn client(server: &str, token: Option<&str>) -> anyhow::Result<GameServiceClient<PeerChannel>> {
    let token =
        token.context("this command needs a token: --token or BRIDGE_TOKEN (see `bridgectl token --role arbiter`)")?;
    let channel = crate::server_channel(server)?;
    let interceptor =
        platform::client::ClientInterceptor::with_token(token).map_err(|s| anyhow!(s.message().to_owned()))?;
    Ok(GameServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor)))
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn refused(status: tonic::Status) -> anyhow::Error {
    anyhow!("{:?}: {}", status.code(), status.message())
}

/// Runs a game command against `server`.
pub async fn run(server: &str, token: Option<&str>, command: Command) -> anyhow::Result<()> {
    if let Command::Kinds = command {
        for (name, _) in irregularity::kinds() {
            println!("{name}");
        }
        return Ok(());
    }
    let mut client = client(server, token)?;
    match command {
        Command::Kinds => {}
        Command::Start(args) => deal::start(&mut client, server, token.unwrap_or_default(), args).await?,
        Command::Call(args) => deal::call(&mut client, args).await?,
        Command::Play(args) => deal::play(&mut client, args).await?,
        Command::Answer(args) => deal::answer(&mut client, args).await?,
        Command::Irregularity(args) => {
            let view = state(&mut client, &args.table).await?;
            let request = args.request(view.version, key());
            let answer = client.record_irregularity(request).await.map_err(refused)?.into_inner();
            print!("{}", views::recorded_text(&answer));
        }
        Command::Claim(args) => {
            let view = state(&mut client, &args.table).await?;
            let request = args.request(view.version, key())?;
            let answer = client.claim(request).await.map_err(refused)?.into_inner();
            if let Some(claim) = &answer.claim {
                print!("{}", claim::claim_text(claim));
            }
            if let Some(view) = &answer.view {
                print!("{}", views::table_text(view));
            }
        }
        Command::Table { table } => {
            let view = state(&mut client, &table).await?;
            print!("{}", views::table_text(&view));
        }
        Command::Calls { table, all } => {
            let request = game::ListArbiterCallsRequest {
                table_id: table.unwrap_or_default(),
                include_resolved: all,
                page: Some(pb::PageRequest { page_size: 500, page_token: String::new() }),
            };
            let calls = client.list_arbiter_calls(request).await.map_err(refused)?.into_inner().arbiter_calls;
            print!("{}", calls_text(&calls));
        }
        Command::Options { table, decision } => {
            let request =
                game::GetRectificationOptionsRequest { table_id: table, decision_id: decision.unwrap_or_default() };
            let decisions = client.get_rectification_options(request).await.map_err(refused)?.into_inner().decisions;
            print!("{}", decisions_text(&decisions));
        }
        Command::Rule { table, decision, option, seat, call, artificial } => {
            let view = state(&mut client, &table).await?;
            let decision = match decision {
                Some(id) => {
                    let request = game::GetRectificationOptionsRequest { table_id: table.clone(), decision_id: id };
                    let decisions =
                        client.get_rectification_options(request).await.map_err(refused)?.into_inner().decisions;
                    decisions.into_iter().next().context("no such decision")?
                }
                None => view.pending_decisions.first().cloned().context("no decision is open at this table")?,
            };
            let chosen = find_option(&decision, &option)?;
            let seat = seat.map(|s| parse_seat(&s)).transpose()?;
            let call = call.map(|c| parse_call(&c)).transpose()?;
            let artificial = artificial.map(|s| parse_artificial(&s)).transpose()?;
            let request = game::ChooseRectificationRequest {
                artificial,
                table_id: table,
                expected_version: view.version,
                idempotency_key: key(),
                decision_id: decision.decision_id.clone(),
                option_id: chosen.option_id.clone(),
                chooser_seat: seat.unwrap_or(0),
                call,
            };
            let answer = client.choose_rectification(request).await.map_err(refused)?.into_inner();
            println!("chose [{}] {}: {}", chosen.option_id, chosen.kind, chosen.description);
            if let Some(next) = answer.next_decision {
                println!("the Laws give a further choice:");
                print!("{}", decisions_text(&[next]));
            }
        }
        Command::Resolve { table, call_id, note } => {
            let view = state(&mut client, &table).await?;
            let request = game::ResolveArbiterCallRequest {
                table_id: table,
                expected_version: view.version,
                idempotency_key: key(),
                arbiter_call_id: call_id,
                resolution: note,
            };
            let answer = client.resolve_arbiter_call(request).await.map_err(refused)?.into_inner();
            print!("{}", calls_text(&answer.arbiter_call.into_iter().collect::<Vec<_>>()));
        }
        Command::FaceHand { table, seat, claim } => {
            let view = state(&mut client, &table).await?;
            let claim_id = match claim {
                Some(claim) => claim,
                None => view.claim.as_ref().map(|c| c.claim_id.clone()).context("no claim at this table")?,
            };
            let request = game::FaceHandRequest {
                table_id: table,
                expected_version: view.version,
                idempotency_key: key(),
                claim_id,
                seat: parse_seat(&seat)?,
            };
            let answer = client.face_hand(request).await.map_err(refused)?.into_inner();
            if let Some(claim) = &answer.claim {
                print!("{}", claim::claim_text(claim));
            }
        }
        Command::Adjudicate { table, claim, tricks, reasons } => {
            let view = state(&mut client, &table).await?;
            let request = game::AdjudicateClaimRequest {
                table_id: table,
                expected_version: view.version,
                idempotency_key: key(),
                claim_id: claim,
                tricks,
                reasons,
                law: None,
            };
            let answer = client.adjudicate_claim(request).await.map_err(refused)?.into_inner();
            if let Some(outcome) = answer.view.and_then(|v| v.outcome) {
                println!("the deal ended: {:?}", outcome.result);
            }
        }
    }
    Ok(())
}

async fn state(client: &mut GameServiceClient<PeerChannel>, table: &str) -> anyhow::Result<game::TableView> {
    let request = game::GetTableStateRequest { table_id: table.to_owned() };
    client.get_table_state(request).await.map_err(refused)?.into_inner().view.context("no table view")
}

fn parse_seat(text: &str) -> anyhow::Result<i32> {
    let seat: laws::Seat =
        text.parse().map_err(|e: laws::seat::ParseSeatError| anyhow!("{:?} is not a seat: N, E, S or W", e.0))?;
    Ok(api::convert::ProtoEnum::to_proto(seat))
}

fn parse_call(text: &str) -> anyhow::Result<pb::Call> {
    let call: laws::Call = text.parse().map_err(|e| anyhow!("{e}"))?;
    Ok(call.into())
}

/// The option named by its id or its kind.
fn find_option<'a>(
    decision: &'a game::RectificationDecision,
    option: &str,
) -> anyhow::Result<&'a game::RectificationOption> {
    let matching: Vec<&game::RectificationOption> =
        decision.options.iter().filter(|o| o.option_id == option || o.kind == option).collect();
    match matching.as_slice() {
        [one] => Ok(one),
        [] => bail!(
            "decision {} has no option {option}:\n{}",
            decision.decision_id,
            decisions_text(std::slice::from_ref(decision))
        ),
        _ => bail!("{option} names several options; give its id:\n{}", decisions_text(std::slice::from_ref(decision))),
    }
}

fn seat_name(raw: i32) -> &'static str {
    match pb::Seat::try_from(raw) {
        Ok(pb::Seat::North) => "North",
        Ok(pb::Seat::East) => "East",
        Ok(pb::Seat::South) => "South",
        Ok(pb::Seat::West) => "West",
        _ => "-",
    }
}

/// Arbiter calls, one per line with the irregularities and claim they concern.
pub fn calls_text(calls: &[game::ArbiterCall]) -> String {
    let mut out = String::new();
    if calls.is_empty() {
        out.push_str("no calls for the arbiter\n");
    }
    for call in calls {
        let status = if call.status == game::ArbiterCallStatus::Resolved as i32 { "resolved" } else { "OPEN" };
        let _ = writeln!(
            out,
            "{}  table {}  {status}  called by {} ({}): {}",
            call.arbiter_call_id,
            call.table_id,
            if call.called_by.is_empty() { "-" } else { &call.called_by },
            seat_name(call.called_by_seat),
            call.reason
        );
        for irregularity in &call.irregularity_ids {
            let _ = writeln!(out, "    irregularity {irregularity}");
        }
        if !call.claim_id.is_empty() {
            let _ = writeln!(out, "    disputed claim {}", call.claim_id);
        }
        if !call.resolution.is_empty() {
            let _ = writeln!(out, "    resolution: {}", call.resolution);
        }
    }
    out
}

/// Decisions with their options: id, kind, who chooses, the Law and what it does.
pub fn decisions_text(decisions: &[game::RectificationDecision]) -> String {
    let mut out = String::new();
    if decisions.is_empty() {
        out.push_str("no rectification decision is open\n");
    }
    for decision in decisions {
        let status = if decision.status == game::DecisionStatus::Chosen as i32 { "chosen" } else { "open" };
        let _ =
            writeln!(out, "decision {} ({status}) for irregularity {}", decision.decision_id, decision.irregularity_id);
        for option in &decision.options {
            let chosen = if option.option_id == decision.chosen_option_id { "*" } else { " " };
            let seats: Vec<&str> = option.chooser_seats.iter().map(|s| seat_name(*s)).collect();
            let chooser = pb::Chooser::try_from(option.chooser).map_or("?", |c| c.as_str_name());
            let law = option.law.as_ref().map_or("", |l| l.text.as_str());
            let _ = writeln!(
                out,
                " {chosen}[{}] {}  chooser {chooser} {}  ({law})",
                option.option_id,
                option.kind,
                seats.join("/")
            );
            let _ = writeln!(out, "      {}", option.description);
            if !option.call_requirement.is_empty() {
                let _ = writeln!(out, "      needs --call: {}", option.call_requirement);
            }
            if !option.official_cards.is_empty() {
                // Only the arbiter is sent these (rubber Law 62: cards of a hidden hand).
                let cards: Vec<String> = option
                    .official_cards
                    .iter()
                    .filter_map(|c| laws::Card::try_from(*c).ok())
                    .map(|c| c.to_string())
                    .collect();
                let _ = writeln!(out, "      cards (arbiter only): {}", cards.join(" "));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    fn decision() -> game::RectificationDecision {
        let option = |id: &str, kind: &str| game::RectificationOption {
            option_id: id.into(),
            kind: kind.into(),
            description: format!("{kind} does things"),
            law: Some(laws::Law::rubber(29, "B").into()),
            chooser: pb::Chooser::Official as i32,
            chooser_seats: vec![],
            call_requirement: String::new(),
            official_cards: vec![],
        };
        game::RectificationDecision {
            decision_id: "deal/d1".into(),
            irregularity_id: "deal/i1".into(),
            options: vec![option("1", "accept_by_calling"), option("2", "cancel_call"), option("3", "cancel_call")],
            status: game::DecisionStatus::Open as i32,
            ..Default::default()
        }
    }

    #[test]
    fn rule_takes_an_option_by_id_or_by_a_kind_that_names_one() {
        let decision = decision();
        assert_eq!(find_option(&decision, "1").unwrap().kind, "accept_by_calling");
        assert_eq!(find_option(&decision, "accept_by_calling").unwrap().option_id, "1");
        assert!(find_option(&decision, "cancel_call").unwrap_err().to_string().contains("several options"));
        assert!(find_option(&decision, "waive").unwrap_err().to_string().contains("has no option waive"));
    }

    #[test]
    fn the_arbiter_reads_options_with_their_law() {
        let text = decisions_text(&[decision()]);
        assert!(text.contains("decision deal/d1 (open) for irregularity deal/i1"), "{text}");
        assert!(
            text.contains("[2] cancel_call  chooser CHOOSER_OFFICIAL   (Law 29B of the Laws of Rubber Bridge)"),
            "{text}"
        );
    }

    #[test]
    fn the_arbiter_is_shown_the_cards_of_a_hidden_hand_an_option_concerns() {
        // Rubber Law 62: the description names the partner's card without showing it.
        let mut decision = decision();
        decision.options[0].official_cards = vec!["HK".parse::<laws::Card>().unwrap().into()];
        let text = decisions_text(&[decision]);
        assert!(text.contains("cards (arbiter only): HK"), "{text}");
    }

    #[test]
    fn arguments_parse() {
        let cli = Cli::try_parse_from([
            "game",
            "rule",
            "--table",
            "t1",
            "--option",
            "cancel_call",
            "--seat",
            "S",
            "--call",
            "2H",
            "--artificial",
            "sh",
        ])
        .unwrap();
        let Command::Rule { table, option, seat, call, decision, artificial } = cli.command else { panic!() };
        let suits = parse_artificial(&artificial.unwrap()).unwrap().suits;
        assert_eq!(suits, vec![pb::Suit::Spades as i32, pb::Suit::Hearts as i32]);
        assert!(parse_artificial("-").unwrap().suits.is_empty(), "an artificial call relating to no suit");
        assert!(parse_artificial("HX").is_err());
        assert_eq!((table.as_str(), option.as_str(), decision), ("t1", "cancel_call", None));
        assert_eq!(parse_seat(&seat.unwrap()).unwrap(), pb::Seat::South as i32);
        assert_eq!(parse_call(&call.unwrap()).unwrap(), "2H".parse::<laws::Call>().unwrap().into());
        assert!(Cli::try_parse_from(["game", "calls", "--all"]).is_ok());
    }

    /// Rubber Law 69: "either defender may face his hand for inspection by his partner"; the
    /// claim is the table's last unless named.
    #[test]
    fn law_69_face_hand_parses_the_defender_and_the_claim() {
        let cli = Cli::try_parse_from(["game", "face-hand", "--table", "t1", "--seat", "W"]).unwrap();
        let Command::FaceHand { table, seat, claim } = cli.command else { panic!() };
        assert_eq!((table.as_str(), claim), ("t1", None));
        assert_eq!(parse_seat(&seat).unwrap(), pb::Seat::West as i32);
        let cli =
            Cli::try_parse_from(["game", "face-hand", "--table", "t1", "--seat", "E", "--claim", "d/c1"]).unwrap();
        let Command::FaceHand { claim, .. } = cli.command else { panic!() };
        assert_eq!(claim.as_deref(), Some("d/c1"));
        assert!(Cli::try_parse_from(["game", "face-hand", "--table", "t1"]).is_err(), "the defender is required");
    }

    /// The claim as the desk reads it names the defenders whose hands are faced (rubber Law 69).
    #[test]
    fn law_69_a_claim_names_the_defenders_faced_for_inspection() {
        let claim = game::Claim {
            claim_id: "d/c1".into(),
            claimer: pb::Seat::South as i32,
            tricks: 11,
            tricks_remaining: 11,
            status: game::ClaimStatus::Disputed as i32,
            faced_for_inspection: vec![pb::Seat::West as i32],
            ..Default::default()
        };
        let text = claim::claim_text(&claim);
        assert!(text.contains("West faced his hand for inspection"), "{text}");
    }
}
