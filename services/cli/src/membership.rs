//! The desk's commands for the card room (the membership service):
//!
//! ```text
//! bridgectl player register --id alice --name "Alice Smith"   # the club's register (player list)
//! bridgectl room arrive --player alice          # record an arrival (room leave: a departure)
//! bridgectl room show                           # who is in the room, by arrival
//! bridgectl table open --name "Table 1" --kind rubber --player alice --player bob ...
//! bridgectl table show [--table t1]             # one table, or every open table
//! bridgectl table next --table t1               # what happens next there, and why
//! bridgectl table next --player a --player b ... # what forming a table from them needs
//! bridgectl table apply --table t1 --player carol [--with dave]
//! bridgectl table close --table t1 --reason "end of the evening"
//! bridgectl rubber start --table t1 [--seat north=alice ...] [--partnership-draw <id>]
//! bridgectl rubber end --table t1 --rubber <id> [--unfinished]
//! bridgectl draw record --table t1 --purpose going-out --player c --player d --card c=HA@12 ...
//! bridgectl draw server --table t1 --purpose going-out --player c --player d
//! bridgectl draw show --draw <id>               # or --table t1 for the table's draws
//! ```
//!
//! The server makes a draw only when asked (`--server-draw`, `draw server`) or when the table's
//! option says so (`table open --server-draws-automatic`); `table next` says which draw is needed.

mod views;

use anyhow::{Context, bail};
use clap::{Subcommand, ValueEnum};

use api::common::v1 as common;
use api::membership::v1 as pb;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use platform::app::PeerChannel;

use views::{
    application_line, hex, presence_line, print_draw, print_next_steps, print_rubber, print_table, restriction_line,
};

/// The card room's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The club's register.
    #[command(subcommand)]
    Player(Player),
    /// Arrivals and departures.
    #[command(subcommand)]
    Room(Room),
    /// Tables: open, show, apply, close.
    #[command(subcommand)]
    Table(Table),
    /// Rubbers: start one (its line-up, partnerships and seats), end one (going out).
    #[command(subcommand)]
    Rubber(Rubber),
    /// Draws, with every card, position and redraw.
    #[command(subcommand)]
    Draw(Draw),
}

/// The club's register.
#[derive(Debug, Subcommand)]
pub enum Player {
    /// Registers a player.
    Register {
        /// The player's id, the subject of his tokens; assigned if not given.
        #[arg(long, default_value = "")]
        id: String,
        /// The name as the club writes it.
        #[arg(long)]
        name: String,
        /// The club's membership number.
        #[arg(long, default_value = "")]
        member_number: String,
        /// Email address.
        #[arg(long, default_value = "")]
        email: String,
        /// Telephone number.
        #[arg(long, default_value = "")]
        phone: String,
    },
    /// Sets (or, with an empty address, removes) a player's e-mail address, keeping the rest of
    /// his entry: the desk can then have his sign-in code mailed (`member code --email`).
    SetEmail {
        /// The player's id.
        #[arg(long)]
        player: String,
        /// The address; empty to remove it.
        #[arg(long)]
        email: String,
    },
    /// Lists the register by name.
    List {
        /// Only names containing this text.
        #[arg(long, default_value = "")]
        name: String,
        /// Include inactive players.
        #[arg(long)]
        inactive: bool,
    },
}

/// Arrivals and departures.
#[derive(Debug, Subcommand)]
pub enum Room {
    /// Records a player's entry into the room (the time of entry orders precedence, rule C).
    Arrive {
        /// The player's id.
        #[arg(long)]
        player: String,
    },
    /// Corrects when a player entered the room (rule C orders those who have not played by it).
    CorrectArrival {
        /// The player's id.
        #[arg(long)]
        player: String,
        /// When he entered, RFC 3339 (2026-11-27T19:05:00Z).
        #[arg(long)]
        arrived_at: String,
        /// Why, kept with the correction.
        #[arg(long)]
        reason: String,
    },
    /// Records a player's departure: his membership and applications end.
    Leave {
        /// The player's id.
        #[arg(long)]
        player: String,
    },
    /// Lists the players present, by time of arrival.
    Show,
}

/// Rubber bridge or Chicago.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Kind {
    /// Rubber bridge.
    Rubber,
    /// Chicago (four deals).
    Chicago,
}

/// Tables.
#[derive(Debug, Subcommand)]
pub enum Table {
    /// Opens a table from four or more applicants present in the room (rule C).
    Open {
        /// The name the room calls it by (default "Table N").
        #[arg(long, default_value = "")]
        name: String,
        /// Rubber bridge or Chicago.
        #[arg(long, value_enum, default_value = "rubber")]
        kind: Kind,
        /// An applicant; repeat for each, four or more.
        #[arg(long = "player", required = true)]
        players: Vec<String>,
        /// No two players partner each other in consecutive rubbers (Appendix 4 H3).
        #[arg(long)]
        no_consecutive_partners: bool,
        /// A pivot game (Appendix 4 B).
        #[arg(long)]
        pivot: bool,
        /// Chicago: the second and third deals' vulnerability switched (Appendix 4 C).
        #[arg(long)]
        chicago_swap_vulnerability: bool,
        /// A key that makes a retried command harmless.
        #[arg(long, default_value = "")]
        idempotency_key: String,
        /// An applicant from another table who makes the fourth and will return to it (rule F).
        #[arg(long = "returning-fourth")]
        returning_fourths: Vec<String>,
        /// A card of a physical draw for precedence among applicants of equal standing (rule C),
        /// as in `draw record --card`.
        #[arg(long = "precedence-card")]
        precedence_cards: Vec<String>,
        /// Ask the server to make the draw for precedence, if one is needed.
        #[arg(long, conflicts_with = "precedence_cards")]
        server_draw: bool,
        /// The table's option: the server makes any draw a command needs without being asked.
        #[arg(long)]
        server_draws_automatic: bool,
    },
    /// Says what happens next at a table (the draw needed and who draws, who plays, who sits
    /// out, and why), or what forming a table from --player ... or applying to --table would need.
    Next {
        /// The table; without it, the players would form a new table.
        #[arg(long)]
        table: Option<String>,
        /// A player forming a table, or applying to --table together; repeat for each.
        #[arg(long = "player")]
        players: Vec<String>,
    },
    /// Shows one table, or every open table.
    Show {
        /// The table; all open tables if not given.
        #[arg(long)]
        table: Option<String>,
    },
    /// Applies to a table (rule D): a member at once, or a place in the queue.
    Apply {
        /// The table.
        #[arg(long)]
        table: String,
        /// The applicant.
        #[arg(long)]
        player: String,
        /// Another player applying at the same time; repeat for each (a draw orders them).
        #[arg(long = "with")]
        together_with: Vec<String>,
        /// A card of a physical draw ordering the applications made together (rule D), as in
        /// `draw record --card`.
        #[arg(long = "precedence-card")]
        precedence_cards: Vec<String>,
        /// Ask the server to make the draw ordering them, if one is needed.
        #[arg(long, conflicts_with = "precedence_cards")]
        server_draw: bool,
    },
    /// Marks waiting applications as made together, after the fact (rule D): a draw orders them.
    MarkTogether {
        /// The table.
        #[arg(long)]
        table: String,
        /// A waiting application; repeat for each, two or more.
        #[arg(long = "application", required = true)]
        applications: Vec<String>,
        /// A card of a physical draw among their applicants, as in `draw record --card`.
        #[arg(long = "precedence-card")]
        precedence_cards: Vec<String>,
        /// Ask the server to make the draw.
        #[arg(long, conflicts_with = "precedence_cards")]
        server_draw: bool,
    },
    /// Closes a table: memberships end and waiting applications lapse.
    Close {
        /// The table.
        #[arg(long)]
        table: String,
        /// Why, for the record.
        #[arg(long, default_value = "")]
        reason: String,
    },
}

/// Rubbers.
#[derive(Debug, Subcommand)]
pub enum Rubber {
    /// Starts a rubber: who plays (rules B, E), partnerships and first dealer (Law 3), seats.
    Start {
        /// The table.
        #[arg(long)]
        table: String,
        /// A completed physical draw for partnerships; without one, the one made since the last
        /// rubber.
        #[arg(long)]
        partnership_draw: Option<String>,
        /// Ask the server to make every draw still needed (going out, entry, partnerships).
        #[arg(long)]
        server_draw: bool,
        /// A seat chosen, as seat=player (north=alice); all four or none.
        #[arg(long = "seat")]
        seats: Vec<String>,
        /// The deck the first dealer chose to deal with, 1 or 2 (Law 3).
        #[arg(long)]
        deck: Option<u32>,
        /// Partnerships the four agreed instead of drawing (Law 3): the two partners, as a,b.
        #[arg(long, value_delimiter = ',', requires = "first_dealer")]
        agreed_partners: Vec<String>,
        /// With --agreed-partners: the player the four agreed deals first.
        #[arg(long, requires = "agreed_partners")]
        first_dealer: Option<String>,
    },
    /// Ends the rubber in progress and applies going out (rule E).
    End {
        /// The table.
        #[arg(long)]
        table: String,
        /// The rubber.
        #[arg(long)]
        rubber: String,
        /// The rubber was not finished (Law 80).
        #[arg(long)]
        unfinished: bool,
    },
}

/// Draws.
#[derive(Debug, Subcommand)]
pub enum Draw {
    /// Records the cards of a physical draw for the next rubber (Law 3): a new draw with its
    /// purpose and players, or more cards (redraws) for one that awaits them.
    Record {
        /// The table.
        #[arg(long)]
        table: String,
        /// The draw to continue; without it, a new draw.
        #[arg(long)]
        draw: Option<String>,
        /// For a new draw: what it decides.
        #[arg(long, value_enum, required_unless_present = "draw")]
        purpose: Option<DrawFor>,
        /// For a new draw: a player who draws; repeat for each.
        #[arg(long = "player")]
        players: Vec<String>,
        /// A card drawn, in order: player=CARD@POSITION, with /2 for the second deck and a final
        /// + when he took more than one card (alice=HA@12, bob=C7@40/2).
        #[arg(long = "card")]
        cards: Vec<String>,
    },
    /// Asks the server to make the draw the table needs next (Law 3: a shuffled pack spread from
    /// a committed seed), for the next rubber.
    Server {
        /// The table.
        #[arg(long)]
        table: String,
        /// What it decides.
        #[arg(long, value_enum)]
        purpose: DrawFor,
        /// A player who draws; repeat for each.
        #[arg(long = "player", required = true)]
        players: Vec<String>,
    },
    /// Shows a draw with every card, position, redraw and reason, or a table's draws.
    Show {
        /// The draw.
        #[arg(long, conflicts_with = "table")]
        draw: Option<String>,
        /// The table whose draws to list, newest first.
        #[arg(long)]
        table: Option<String>,
    },
}

/// What a physical draw for the next rubber decides.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum DrawFor {
    /// Partnerships and the first dealer (Law 3).
    Partnerships,
    /// Who goes out after a rubber, among those tied (rule E).
    GoingOut,
    /// Entry of members from other tables against those who would otherwise play (rule E).
    Entry,
    /// Precedence among the members of a new table for its first rubber (rule C).
    Precedence,
}

fn draw_purpose(purpose: Option<DrawFor>) -> pb::DrawPurpose {
    match purpose {
        None => pb::DrawPurpose::Unspecified,
        Some(DrawFor::Partnerships) => pb::DrawPurpose::Partnerships,
        Some(DrawFor::GoingOut) => pb::DrawPurpose::GoingOut,
        Some(DrawFor::Entry) => pb::DrawPurpose::EntryFromOtherTable,
        Some(DrawFor::Precedence) => pb::DrawPurpose::Precedence,
    }
}

/// A card drawn, as `player=CARD@POSITION[/DECK][+]` (see `draw record --card`).
fn drawing(text: &str) -> anyhow::Result<pb::PhysicalDrawing> {
    let usage = "expected player=CARD@POSITION, with /2 for the second deck and + for more than one card";
    let (player, rest) = text.split_once('=').with_context(|| format!("{text}: {usage}"))?;
    let (more_than_one_card, rest) = match rest.strip_suffix('+') {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let (card, place) = rest.split_once('@').with_context(|| format!("{text}: {usage}"))?;
    let (position, deck) = match place.split_once('/') {
        Some((position, deck)) => (position, deck.parse::<u32>().with_context(|| format!("{text}: deck 1 or 2"))?),
        None => (place, 1),
    };
    let card: laws::Card = card.trim().parse().map_err(|e| anyhow::anyhow!("{text}: {e}"))?;
    Ok(pb::PhysicalDrawing {
        player_id: player.trim().to_owned(),
        card: Some(card.into()),
        spread_position: position.trim().parse().with_context(|| format!("{text}: a position in the spread"))?,
        deck,
        more_than_one_card,
    })
}

fn drawings(cards: &[String]) -> anyhow::Result<Vec<pb::PhysicalDrawing>> {
    cards.iter().map(|c| drawing(c)).collect()
}

/// Runs a card-room command against `client`.
pub async fn run(command: Command, mut client: MembershipServiceClient<PeerChannel>) -> anyhow::Result<()> {
    match command {
        Command::Player(Player::Register { id, name, member_number, email, phone }) => {
            let request = pb::RegisterPlayerRequest {
                player_id: id,
                name,
                member_number,
                contact: Some(pb::Contact { email, phone }),
                idempotency_key: String::new(),
            };
            let player = client.register_player(request).await?.into_inner().player.unwrap_or_default();
            println!("registered {} ({})", player.player_id, player.name);
        }
        Command::Player(Player::SetEmail { player, email }) => {
            let read = client.get_player(pb::GetPlayerRequest { player_id: player.clone() }).await?.into_inner();
            let entry = read.player.unwrap_or_default();
            let contact = entry.contact.unwrap_or_default();
            let request = pb::UpdatePlayerRequest {
                player_id: entry.player_id,
                expected_version: entry.version,
                name: entry.name,
                member_number: entry.member_number,
                contact: Some(pb::Contact { email, phone: contact.phone }),
                active: entry.active,
            };
            let updated = client.update_player(request).await?.into_inner().player.unwrap_or_default();
            match updated.contact.map(|c| c.email).filter(|e| !e.is_empty()) {
                Some(email) => println!("{player}: e-mail address {email}"),
                None => println!("{player}: no e-mail address"),
            }
        }
        Command::Player(Player::List { name, inactive }) => {
            let mut page_token = String::new();
            loop {
                let request = pb::ListPlayersRequest {
                    name_contains: name.clone(),
                    include_inactive: inactive,
                    page: Some(common::PageRequest { page_size: 200, page_token }),
                };
                let response = client.list_players(request).await?.into_inner();
                for player in &response.players {
                    let state = if player.active { "" } else { "  (inactive)" };
                    println!("{:<24} {:<28} {}{state}", player.player_id, player.name, player.member_number);
                }
                page_token = response.page.unwrap_or_default().next_page_token;
                if page_token.is_empty() {
                    break;
                }
            }
        }
        Command::Room(Room::Arrive { player }) => {
            let response = client.arrive_in_room(pb::ArriveInRoomRequest { player_id: player }).await?.into_inner();
            if let Some(presence) = response.presence {
                println!("{}", presence_line(&presence));
            }
        }
        Command::Room(Room::CorrectArrival { player, arrived_at, reason }) => {
            let at = chrono::DateTime::parse_from_rfc3339(&arrived_at).map_err(|e| {
                anyhow::anyhow!("--arrived-at {arrived_at}: {e} (RFC 3339, such as 2026-11-27T19:05:00Z)")
            })?;
            let arrived_at = prost_types::Timestamp {
                seconds: at.timestamp(),
                nanos: i32::try_from(at.timestamp_subsec_nanos()).unwrap_or(0),
            };
            let request = pb::CorrectArrivalRequest { player_id: player, arrived_at: Some(arrived_at), reason };
            let response = client.correct_arrival(request).await?.into_inner();
            if let Some(presence) = response.presence {
                println!("{}", presence_line(&presence));
            }
        }
        Command::Room(Room::Leave { player }) => {
            let response = client.leave_room(pb::LeaveRoomRequest { player_id: player.clone() }).await?.into_inner();
            println!("{player} left the room");
            if let Some(table) = response.table_left {
                print_table(&table);
            }
            if let Some(restriction) = response.breaker_restriction {
                println!("{}", restriction_line(&player, &restriction));
            }
        }
        Command::Room(Room::Show) => {
            let response = client.list_present_players(pb::ListPresentPlayersRequest::default()).await?.into_inner();
            for presence in &response.present {
                println!("{}", presence_line(presence));
            }
        }
        Command::Table(Table::Open {
            name,
            kind,
            players,
            no_consecutive_partners,
            pivot,
            chicago_swap_vulnerability,
            idempotency_key,
            returning_fourths,
            precedence_cards,
            server_draw,
            server_draws_automatic,
        }) => {
            let request = pb::OpenTableRequest {
                name,
                kind: match kind {
                    Kind::Rubber => common::TableKind::Rubber,
                    Kind::Chicago => common::TableKind::Chicago,
                } as i32,
                options: Some(pb::TableOptions {
                    no_consecutive_partners,
                    pivot,
                    chicago_swap_vulnerability,
                    server_draws_automatic,
                    ..Default::default()
                }),
                applicant_player_ids: players,
                idempotency_key,
                returning_fourth_player_ids: returning_fourths,
                precedence_drawings: drawings(&precedence_cards)?,
                server_draw,
            };
            let response = client.open_table(request).await?.into_inner();
            if let Some(table) = &response.table {
                print_table(table);
            }
            println!("precedence (rule C):");
            for ranked in &response.ranking {
                let group = pb::PrecedenceGroup::try_from(ranked.group).unwrap_or_default();
                println!(
                    "  {:>2}. {:<24} {:<28} {}",
                    ranked.place,
                    ranked.player_id,
                    group.as_str_name().trim_start_matches("PRECEDENCE_GROUP_").to_lowercase(),
                    if ranked.admitted { "member" } else { "waits" }
                );
            }
            if let Some(draw) = &response.precedence_draw {
                print_draw(draw);
            }
        }
        Command::Table(Table::Next { table, players }) => {
            let request = pb::GetNextStepsRequest {
                table_id: table.clone().unwrap_or_default(),
                applicant_player_ids: players,
                options: None,
            };
            let next = client.get_next_steps(request).await?.into_inner().next_steps.unwrap_or_default();
            match &table {
                Some(table) => println!("{table}:"),
                None => println!("a new table:"),
            }
            print_next_steps(table.as_deref().unwrap_or_default(), &next);
        }
        Command::Table(Table::Show { table: Some(table) }) => {
            let response = client.get_table(pb::GetTableRequest { table_id: table }).await?.into_inner();
            if let Some(table) = &response.table {
                print_table(table);
            }
        }
        Command::Table(Table::Show { table: None }) => {
            let response = client.list_tables(pb::ListTablesRequest::default()).await?.into_inner();
            for table in &response.tables {
                print_table(table);
                println!();
            }
            if !response.next_opening_draw_seed_commitment.is_empty() {
                println!(
                    "next table opening draw's seed commitment (SHA-256) {}",
                    hex(&response.next_opening_draw_seed_commitment)
                );
            }
        }
        Command::Table(Table::MarkTogether { table, applications, precedence_cards, server_draw }) => {
            let request = pb::MarkApplicationsTogetherRequest {
                table_id: table,
                application_ids: applications,
                precedence_drawings: drawings(&precedence_cards)?,
                server_draw,
            };
            let response = client.mark_applications_together(request).await?.into_inner();
            if let Some(draw) = &response.precedence_draw {
                print_draw(draw);
            }
            if let Some(table) = &response.table {
                print_table(table);
            }
        }
        Command::Table(Table::Apply { table, player, together_with, precedence_cards, server_draw }) => {
            let request = pb::ApplyToTableRequest {
                table_id: table,
                player_id: player,
                together_with_player_ids: together_with,
                precedence_drawings: drawings(&precedence_cards)?,
                server_draw,
            };
            let response = client.apply_to_table(request).await?.into_inner();
            for application in response.application.iter().chain(&response.together_with) {
                println!("{}", application_line(application));
            }
            if let Some(draw) = &response.precedence_draw {
                print_draw(draw);
            }
            if let Some(table) = &response.table {
                print_table(table);
            }
        }
        Command::Table(Table::Close { table, reason }) => {
            let response = client.close_table(pb::CloseTableRequest { table_id: table, reason }).await?.into_inner();
            if let Some(table) = &response.table {
                print_table(table);
            }
        }
        Command::Rubber(Rubber::Start {
            table,
            partnership_draw,
            server_draw,
            seats,
            deck,
            agreed_partners,
            first_dealer,
        }) => {
            let mut seat_choices = Vec::new();
            for seat in &seats {
                let Some((name, player)) = seat.split_once('=') else {
                    bail!("--seat {seat}: expected seat=player, such as north=alice");
                };
                let seat = match name.trim().to_ascii_lowercase().as_str() {
                    "north" | "n" => common::Seat::North,
                    "east" | "e" => common::Seat::East,
                    "south" | "s" => common::Seat::South,
                    "west" | "w" => common::Seat::West,
                    other => bail!("--seat {seat}: {other} is not a seat (north, east, south, west)"),
                };
                seat_choices.push(common::SeatedPlayer { seat: seat as i32, player_id: player.trim().to_owned() });
            }
            let agreed_partnerships = first_dealer.map(|first_dealer_player_id| pb::AgreedPartnerships {
                partner_player_ids: agreed_partners,
                first_dealer_player_id,
            });
            let request = pb::StartRubberRequest {
                table_id: table,
                partnership_draw_id: partnership_draw.unwrap_or_default(),
                seat_choices,
                first_deck: deck.unwrap_or_default(),
                agreed_partnerships,
                server_draw,
            };
            let response = client.start_rubber(request).await?.into_inner();
            if let Some(rubber) = &response.rubber {
                print_rubber(rubber);
            }
        }
        Command::Rubber(Rubber::End { table, rubber, unfinished }) => {
            let status = if unfinished { pb::RubberStatus::Unfinished } else { pb::RubberStatus::Finished };
            let request = pb::EndRubberRequest { table_id: table, rubber_id: rubber, status: status as i32 };
            let response = client.end_rubber(request).await?.into_inner();
            if let Some(rubber) = &response.rubber {
                print_rubber(rubber);
            }
            if let Some(going_out) = &response.going_out {
                println!("coming in:  {}", going_out.coming_in_player_ids.join(", "));
                println!("going out:  {}", going_out.going_out_player_ids.join(", "));
                if !going_out.tied_player_ids.is_empty() {
                    println!("tied (the next draw settles who goes out): {}", going_out.tied_player_ids.join(", "));
                }
            }
            if let Some(table) = &response.table
                && let Some(next) = &table.next_steps
            {
                print_next_steps(&table.table_id, next);
            }
        }
        Command::Draw(Draw::Server { table, purpose, players }) => {
            let request = pb::DrawCardsRequest {
                table_id: table.clone(),
                purpose: draw_purpose(Some(purpose)) as i32,
                player_ids: players,
            };
            let response = client.draw_cards(request).await?.into_inner();
            if let Some(draw) = &response.draw {
                print_draw(draw);
            }
            let next = client.get_next_steps(pb::GetNextStepsRequest { table_id: table.clone(), ..Default::default() });
            print_next_steps(&table, &next.await?.into_inner().next_steps.unwrap_or_default());
        }
        Command::Draw(Draw::Record { table, draw, purpose, players, cards }) => {
            let purpose = draw_purpose(purpose);
            let request = pb::RecordPhysicalDrawRequest {
                table_id: table.clone(),
                draw_id: draw.unwrap_or_default(),
                purpose: purpose as i32,
                player_ids: players,
                drawings: drawings(&cards)?,
            };
            let response = client.record_physical_draw(request).await?.into_inner();
            if let Some(draw) = &response.draw {
                print_draw(draw);
            }
            let next = client.get_next_steps(pb::GetNextStepsRequest { table_id: table.clone(), ..Default::default() });
            print_next_steps(&table, &next.await?.into_inner().next_steps.unwrap_or_default());
        }
        Command::Draw(Draw::Show { draw: Some(draw), .. }) => {
            let response = client.get_draw(pb::GetDrawRequest { draw_id: draw }).await?.into_inner();
            if let Some(draw) = &response.draw {
                print_draw(draw);
            }
        }
        Command::Draw(Draw::Show { draw: None, table: Some(table) }) => {
            let response = client.list_draws(pb::ListDrawsRequest { table_id: table, page: None }).await?.into_inner();
            for draw in &response.draws {
                print_draw(draw);
                println!();
            }
        }
        Command::Draw(Draw::Show { draw: None, table: None }) => bail!("give --draw <id> or --table <id>"),
    }
    Ok(())
}

/// A client of the membership service at `server`, presenting `token`.
pub async fn client(server: &str, token: Option<&str>) -> anyhow::Result<MembershipServiceClient<PeerChannel>> {
    let channel = crate::server_channel(server)?;
    let interceptor = match token {
        Some(token) => platform::client::ClientInterceptor::with_token(token)
            .map_err(|e| anyhow::anyhow!("--token: {}", e.message()))?,
        None => bail!("this command needs a token: --token or BRIDGE_TOKEN (see `bridgectl token`)"),
    };
    Ok(MembershipServiceClient::new(tonic::service::interceptor::InterceptedService::new(channel, interceptor)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card as the desk types it: the player, the card, its place in the spread, the deck and
    /// whether he took more than one (Law 3's reasons to draw again).
    #[test]
    fn a_drawn_card_is_read_as_the_desk_types_it() {
        let plain = drawing("alice=HA@12").unwrap();
        assert_eq!((plain.player_id.as_str(), plain.spread_position, plain.deck), ("alice", 12, 1));
        assert_eq!(plain.card, Some("HA".parse::<laws::Card>().unwrap().into()));
        assert!(!plain.more_than_one_card);
        let other = drawing("bob=C7@40/2+").unwrap();
        assert_eq!((other.spread_position, other.deck, other.more_than_one_card), (40, 2, true));
        for wrong in ["alice", "alice=HA", "alice=ZZ@3", "alice=HA@x", "alice=HA@3/x"] {
            assert!(drawing(wrong).is_err(), "{wrong} should be refused");
        }
    }
}
