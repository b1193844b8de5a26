//! `bridgectl game start`, `call`, `play` and `answer`: a rubber's deal from its start to its
//! result, as the table's device (desk role) records it at a recorded table, or as a player
//! acts at a digital one.
//!
//! ```text
//! bridgectl game start --table T --rubber R --scorepad P [--deal-number N] [--digital|--recorded]
//!     [--deal "N:AKQJ.T98.765.432 ..."]                  # the server fills players, dealer, vulnerability
//! bridgectl game call --table T [--seat N] 1NT           # or several: 1NT Pass 3NT Pass Pass Pass
//! bridgectl game play --table T [--seat E] SA            # or a trick: SA S2 S5 SK
//! bridgectl game answer --table T --seat W --accept      # an opponent's answer to the claim
//! ```
//!
//! Each command reads the table's version first (unless `--version` gives it), sends a fresh
//! idempotency key (unless `--idempotency-key` gives one), and prints the table as it stands
//! after: the auction, the tricks, and the result once the deal has ended. Without `--seat`, a
//! call or card is made by the seat whose turn it is; several calls or cards in one command
//! are made one after the other, each by whoever is next to act.

use anyhow::{Context, anyhow, bail};
use api::common::v1 as pb;
use api::game::v1 as game;
use api::game::v1::game_service_client::GameServiceClient;
use api::membership::v1 as mpb;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use api::scoring::v1 as spb;
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use platform::app::PeerChannel;

use super::irregularity::parse_artificial;
use super::{key, parse_call, parse_seat, refused, state, views};

/// `game start`: a rubber's deal.
#[derive(Debug, clap::Args)]
pub struct Start {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The rubber, as `rubber start` printed it.
    #[arg(long)]
    pub rubber: String,
    /// The rubber's scorepad, as `scorepad create` printed it.
    #[arg(long)]
    pub scorepad: String,
    /// The deal's number in the rubber; the pad's next deal if not given.
    #[arg(long)]
    pub deal_number: Option<u32>,
    /// The server deals from a committed seed, and the players call and play from their apps.
    #[arg(long, conflicts_with = "recorded")]
    pub digital: bool,
    /// Physical cards: calls and plays are recorded as they happen (the default).
    #[arg(long)]
    pub recorded: bool,
    /// Recorded mode: the hands as dealt, as a PBN Deal tag ("N:AKQJ.T98.765.432 ..."), so that
    /// the service checks the cards held as well as the sequence of play.
    #[arg(long, conflicts_with = "digital")]
    pub deal: Option<String>,
    /// The table's version as last seen; read from the table if not given.
    #[arg(long)]
    pub version: Option<u64>,
    /// The idempotency key; a fresh one if not given.
    #[arg(long)]
    pub idempotency_key: Option<String>,
}

/// `game call`: one call or several, in order.
#[derive(Debug, clap::Args)]
pub struct Call {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// Who calls (N, E, S, W); whoever is next to act if not given. Only with one call.
    #[arg(long)]
    pub seat: Option<String>,
    /// The call is artificial and relates to these suits (letters C D H S; "-" for none), as
    /// the partnership's methods disclose (rubber Law 26A). Only with one call.
    #[arg(long)]
    pub artificial: Option<String>,
    /// The table's version as last seen; read from the table if not given. Only with one call.
    #[arg(long)]
    pub version: Option<u64>,
    /// The idempotency key; a fresh one if not given. Only with one call.
    #[arg(long)]
    pub idempotency_key: Option<String>,
    /// The calls: 1C ... 7NT, Pass (P), X (double), XX (redouble).
    #[arg(required = true, num_args = 1..)]
    pub calls: Vec<String>,
}

/// `game play`: one card or several, in order.
#[derive(Debug, clap::Args)]
pub struct Play {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The hand the card comes from (N, E, S, W; dummy's seat when declarer plays from dummy);
    /// whoever is next to act if not given. Only with one card.
    #[arg(long)]
    pub seat: Option<String>,
    /// The opening lead made face down (duplicate Law 41A; rubber Appendix 3). Only with one card.
    #[arg(long)]
    pub face_down: bool,
    /// The table's version as last seen; read from the table if not given. Only with one card.
    #[arg(long)]
    pub version: Option<u64>,
    /// The idempotency key; a fresh one if not given. Only with one card.
    #[arg(long)]
    pub idempotency_key: Option<String>,
    /// The cards, suit then rank: SA, HT, D9, C2.
    #[arg(required = true, num_args = 1..)]
    pub cards: Vec<String>,
}

/// `game answer`: an answer to the claim or concession pending.
#[derive(Debug, clap::Args)]
pub struct Answer {
    /// The table.
    #[arg(long)]
    pub table: String,
    /// The player answering (N, E, S, W).
    #[arg(long)]
    pub seat: String,
    /// He agrees.
    #[arg(long, conflicts_with = "dispute", required_unless_present = "dispute")]
    pub accept: bool,
    /// He disputes it.
    #[arg(long)]
    pub dispute: bool,
    /// The claim; the table's pending claim if not given.
    #[arg(long)]
    pub claim: Option<String>,
}

/// Several calls or cards, or one with what only one may carry.
fn only_one(count: usize, what: &str, single: &[(&str, bool)]) -> anyhow::Result<()> {
    if count > 1
        && let Some((flag, _)) = single.iter().find(|(_, given)| *given)
    {
        bail!("{flag} goes with one {what} only: give the {what}s one command each");
    }
    Ok(())
}

impl Call {
    /// The calls, checked before anything is sent.
    pub fn parsed(&self) -> anyhow::Result<Vec<pb::Call>> {
        only_one(
            self.calls.len(),
            "call",
            &[
                ("--seat", self.seat.is_some()),
                ("--artificial", self.artificial.is_some()),
                ("--version", self.version.is_some()),
                ("--idempotency-key", self.idempotency_key.is_some()),
            ],
        )?;
        self.calls.iter().map(|c| parse_call(c)).collect()
    }
}

impl Play {
    /// The cards, checked before anything is sent.
    pub fn parsed(&self) -> anyhow::Result<Vec<pb::Card>> {
        only_one(
            self.cards.len(),
            "card",
            &[
                ("--seat", self.seat.is_some()),
                ("--face-down", self.face_down),
                ("--version", self.version.is_some()),
                ("--idempotency-key", self.idempotency_key.is_some()),
            ],
        )?;
        self.cards.iter().map(|c| parse_card(c)).collect()
    }
}

/// A card as the contract names it, from `SA`, `HT`, `d9`.
pub fn parse_card(text: &str) -> anyhow::Result<pb::Card> {
    let card: laws::Card = text
        .trim()
        .to_ascii_uppercase()
        .parse()
        .map_err(|e| anyhow!("{text:?} is not a card (suit then rank: SA, HT, D9, C2): {e}"))?;
    Ok(card.into())
}

/// A channel to `server` carrying `token`.
fn authorised(server: &str, token: &str) -> anyhow::Result<PeerChannel> {
    let channel = platform::client::channel(server).with_context(|| format!("cannot reach {server}"))?;
    let interceptor =
        platform::client::ClientInterceptor::with_token(token).map_err(|s| anyhow!(s.message().to_owned()))?;
    Ok(tonic::service::interceptor::InterceptedService::new(channel, interceptor))
}

fn scoring(server: &str, token: &str) -> anyhow::Result<ScoringServiceClient<PeerChannel>> {
    Ok(ScoringServiceClient::new(authorised(server, token)?))
}

fn membership(server: &str, token: &str) -> anyhow::Result<MembershipServiceClient<PeerChannel>> {
    Ok(MembershipServiceClient::new(authorised(server, token)?))
}

/// The seat to act: the one given, or whoever is next to act.
fn acting(seat: Option<&str>, view: &game::TableView) -> anyhow::Result<i32> {
    match seat {
        Some(seat) => parse_seat(seat),
        None if view.next_to_act != 0 => Ok(view.next_to_act),
        None => {
            bail!("nobody is next to act at table {}: say who with --seat\n{}", view.table_id, views::table_text(view))
        }
    }
}

/// Starts a rubber's deal: the pad gives the kind and, unless given, the deal number; the
/// game service fills the players, seats, dealer and vulnerability from the rubber and the pad.
pub async fn start(
    client: &mut GameServiceClient<PeerChannel>,
    server: &str,
    token: &str,
    args: Start,
) -> anyhow::Result<()> {
    let request = spb::GetScorepadRequest { scorepad_id: args.scorepad.clone() };
    let pad = scoring(server, token)?
        .get_scorepad(request)
        .await
        .map_err(refused)?
        .into_inner()
        .scorepad
        .context("the server sent no scorepad")?;
    // Whether the Alternative Club Laws are in force is the rubber's (its table's option, Part
    // VIII), not the caller's: the game service refuses a deal that says otherwise.
    let request = mpb::GetRubberRequest { rubber_id: args.rubber.clone() };
    let club_laws = membership(server, token)?
        .get_rubber(request)
        .await
        .map_err(refused)?
        .into_inner()
        .rubber
        .context("the server sent no rubber")?
        .club_laws;
    let deal_number = match (args.deal_number, &pad.next_deal) {
        (Some(number), _) => number,
        (None, Some(next)) => next.deal_number,
        (None, None) => bail!("scorepad {} is closed: its rubber is over (Law 74)", pad.scorepad_id),
    };
    let version = match args.version {
        Some(version) => version,
        None => state(client, &args.table).await?.version,
    };
    let mode = if args.digital { game::PlayMode::Digital } else { game::PlayMode::Recorded };
    let request = game::StartDealRequest {
        table_id: args.table,
        expected_version: version,
        idempotency_key: args.idempotency_key.unwrap_or_else(key),
        setup: Some(game::DealSetup {
            source: Some(game::deal_setup::Source::Rubber(game::RubberDeal {
                rubber_id: args.rubber,
                scorepad_id: args.scorepad,
                deal_number,
                club_laws,
            })),
            kind: pad.kind,
            mode: mode as i32,
            // Left to the owners: the rubber's line-up, the pad's dealer and vulnerability.
            players: vec![],
            dealer: 0,
            vulnerability: 0,
            result_only: false,
        }),
        hands: args.deal.map(game::start_deal_request::Hands::DealPbn),
    };
    let view = client.start_deal(request).await.map_err(refused)?.into_inner().view.context("no table view")?;
    print!("{}", views::table_text(&view));
    Ok(())
}

/// Makes the calls in order.
pub async fn call(client: &mut GameServiceClient<PeerChannel>, args: Call) -> anyhow::Result<()> {
    let calls = args.parsed()?;
    let artificial = args.artificial.as_deref().map(parse_artificial).transpose()?;
    let mut view = state(client, &args.table).await?;
    let mut given_key = args.idempotency_key;
    for (text, call) in args.calls.iter().zip(calls) {
        let request = game::MakeCallRequest {
            table_id: args.table.clone(),
            expected_version: args.version.unwrap_or(view.version),
            idempotency_key: given_key.take().unwrap_or_else(key),
            seat: acting(args.seat.as_deref(), &view)?,
            call: Some(call),
            artificial: artificial.clone(),
        };
        let answer = client.make_call(request).await.map_err(|e| anyhow!("{text}: {}", refused(e)))?;
        view = answer.into_inner().view.context("no table view")?;
    }
    print!("{}", views::table_text(&view));
    Ok(())
}

/// Plays the cards in order.
pub async fn play(client: &mut GameServiceClient<PeerChannel>, args: Play) -> anyhow::Result<()> {
    let cards = args.parsed()?;
    let mut view = state(client, &args.table).await?;
    let mut given_key = args.idempotency_key;
    for (text, card) in args.cards.iter().zip(cards) {
        let request = game::PlayCardRequest {
            table_id: args.table.clone(),
            expected_version: args.version.unwrap_or(view.version),
            idempotency_key: given_key.take().unwrap_or_else(key),
            seat: acting(args.seat.as_deref(), &view)?,
            card: Some(card),
            face_down: args.face_down,
        };
        let answer = client.play_card(request).await.map_err(|e| anyhow!("{text}: {}", refused(e)))?;
        view = answer.into_inner().view.context("no table view")?;
    }
    print!("{}", views::table_text(&view));
    Ok(())
}

/// Answers the claim.
pub async fn answer(client: &mut GameServiceClient<PeerChannel>, args: Answer) -> anyhow::Result<()> {
    let view = state(client, &args.table).await?;
    let claim_id = match args.claim {
        Some(claim) => claim,
        None => view.claim.as_ref().map(|c| c.claim_id.clone()).context("no claim at this table")?,
    };
    let reply = if args.accept { game::ClaimReply::Accept } else { game::ClaimReply::Dispute };
    let request = game::RespondToClaimRequest {
        table_id: args.table,
        expected_version: view.version,
        idempotency_key: key(),
        claim_id,
        seat: parse_seat(&args.seat)?,
        reply: reply as i32,
    };
    let answer = client.respond_to_claim(request).await.map_err(refused)?.into_inner();
    if let Some(claim) = &answer.claim {
        print!("{}", super::claim::claim_text(claim));
    }
    if let Some(call) = &answer.arbiter_call {
        print!("{}", super::calls_text(std::slice::from_ref(call)));
    }
    if let Some(view) = &answer.view {
        print!("{}", views::table_text(view));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(subcommand)]
        command: super::super::Command,
    }

    fn parse(args: &[&str]) -> Result<super::super::Command, clap::Error> {
        Cli::try_parse_from(std::iter::once("game").chain(args.iter().copied())).map(|cli| cli.command)
    }

    #[test]
    fn start_names_the_rubber_and_its_pad_and_leaves_the_rest_to_the_server() {
        let super::super::Command::Start(start) =
            parse(&["start", "--table", "t1", "--rubber", "r1", "--scorepad", "p1"]).unwrap()
        else {
            panic!()
        };
        assert_eq!((start.table.as_str(), start.rubber.as_str(), start.scorepad.as_str()), ("t1", "r1", "p1"));
        assert_eq!((start.deal_number, start.digital, start.deal, start.version), (None, false, None, None));
        let super::super::Command::Start(start) =
            parse(&["start", "--table", "t1", "--rubber", "r1", "--scorepad", "p1", "--deal-number", "2", "--digital"])
                .unwrap()
        else {
            panic!()
        };
        assert_eq!((start.deal_number, start.digital), (Some(2), true));
        assert!(parse(&["start", "--table", "t1", "--rubber", "r1"]).is_err(), "the scorepad is required");
        assert!(
            parse(&["start", "--table", "t", "--rubber", "r", "--scorepad", "p", "--digital", "--recorded"]).is_err(),
            "digital or recorded, not both"
        );
        assert!(
            parse(&["start", "--table", "t", "--rubber", "r", "--scorepad", "p", "--digital", "--deal", "N:..."])
                .is_err(),
            "a digital deal is dealt by the server"
        );
    }

    #[test]
    fn call_takes_one_call_for_a_seat_or_several_in_turn() {
        let super::super::Command::Call(call) = parse(&["call", "--table", "t1", "--seat", "N", "1NT"]).unwrap() else {
            panic!()
        };
        assert_eq!(call.parsed().unwrap(), vec!["1NT".parse::<laws::Call>().unwrap().into()]);
        assert_eq!(parse_seat(call.seat.as_deref().unwrap()).unwrap(), pb::Seat::North as i32);
        let super::super::Command::Call(call) = parse(&["call", "--table", "t1", "Pass", "X", "XX", "7NT"]).unwrap()
        else {
            panic!()
        };
        assert_eq!(call.parsed().unwrap().len(), 4);
        let super::super::Command::Call(call) = parse(&["call", "--table", "t1", "--seat", "N", "1C", "1D"]).unwrap()
        else {
            panic!()
        };
        assert!(call.parsed().unwrap_err().to_string().contains("--seat goes with one call only"));
        let super::super::Command::Call(call) = parse(&["call", "--table", "t1", "8NT"]).unwrap() else { panic!() };
        assert!(call.parsed().is_err(), "no such bid");
        assert!(parse(&["call", "--table", "t1"]).is_err(), "a call is required");
        let super::super::Command::Call(call) =
            parse(&["call", "--table", "t1", "--version", "7", "--idempotency-key", "k", "2C", "--artificial", "-"])
                .unwrap()
        else {
            panic!()
        };
        assert_eq!((call.version, call.idempotency_key.as_deref()), (Some(7), Some("k")));
        assert!(parse_artificial(call.artificial.as_deref().unwrap()).unwrap().suits.is_empty());
    }

    #[test]
    fn play_takes_a_card_for_a_seat_or_a_trick_in_turn() {
        let super::super::Command::Play(play) = parse(&["play", "--table", "t1", "--seat", "E", "SA"]).unwrap() else {
            panic!()
        };
        assert_eq!(play.parsed().unwrap(), vec!["SA".parse::<laws::Card>().unwrap().into()]);
        assert_eq!(parse_seat(play.seat.as_deref().unwrap()).unwrap(), pb::Seat::East as i32);
        let super::super::Command::Play(play) = parse(&["play", "--table", "t1", "sa", "S2", "ht", "C9"]).unwrap()
        else {
            panic!()
        };
        let cards = play.parsed().unwrap();
        assert_eq!(cards[2], "HT".parse::<laws::Card>().unwrap().into(), "any case");
        let super::super::Command::Play(play) = parse(&["play", "--table", "t1", "--face-down", "SA", "SK"]).unwrap()
        else {
            panic!()
        };
        assert!(play.parsed().unwrap_err().to_string().contains("--face-down goes with one card only"));
        assert!(parse_card("S1").is_err() && parse_card("XA").is_err() && parse_card("").is_err());
        assert!(parse(&["play", "--table", "t1"]).is_err(), "a card is required");
    }

    #[test]
    fn answer_accepts_or_disputes() {
        let super::super::Command::Answer(answer) =
            parse(&["answer", "--table", "t1", "--seat", "W", "--accept"]).unwrap()
        else {
            panic!()
        };
        assert!(answer.accept && !answer.dispute && answer.claim.is_none());
        assert!(parse(&["answer", "--table", "t1", "--seat", "W"]).is_err(), "accept or dispute");
        assert!(parse(&["answer", "--table", "t1", "--seat", "W", "--accept", "--dispute"]).is_err());
    }

    #[test]
    fn a_turn_is_the_seat_given_or_the_one_next_to_act() {
        let view = game::TableView { next_to_act: pb::Seat::South as i32, ..Default::default() };
        assert_eq!(acting(None, &view).unwrap(), pb::Seat::South as i32);
        assert_eq!(acting(Some("W"), &view).unwrap(), pb::Seat::West as i32);
        let finished = game::TableView { table_id: "t1".into(), ..Default::default() };
        assert!(acting(None, &finished).unwrap_err().to_string().contains("nobody is next to act at table t1"));
    }
}
