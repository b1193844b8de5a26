//! The room's journal: one [`Entry`] per accepted command, in the order the room accepted them.
//!
//! An entry is the service's own stable serialisation (JSON, so that the journal can be read and
//! audited with nothing but `psql`): the Rules for Club Procedure events it applied to the room
//! (`laws::procedure::ProcedureEvent`, which has no serialisation of its own), and what the service
//! needs beside them to show the room (table names, ids, draws with every card, seats). Replaying
//! the entries in order through [`crate::state::ClubState::apply`] rebuilds the whole room exactly,
//! because every draw's cards and every id are in the entry: a replay never draws again.
//!
//! Field names are part of the stored format: add fields with `#[serde(default)]`, never rename.

use laws::cards::Card;
use laws::deal::GameForm;
use laws::draw::{DrawnCard, PlayerId};
use laws::procedure::{DrawPurpose, TableOptions};
use serde::{Deserialize, Serialize};

mod events;
pub use events::{Event, Partnerships};

/// One accepted command and everything it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// When, in milliseconds since the Unix epoch: the time of every event in the entry. Never
    /// earlier than the entry before (the room's events are in time order, rule B).
    pub at: i64,
    /// Who asked: the subject of the caller's token.
    pub actor: String,
    /// The command, with the service's data about it.
    pub command: Command,
    /// The club-procedure events the command applied, in order.
    pub events: Vec<Event>,
    /// The room's committed seed (hex) for the next precedence draw made as a table is opened, as
    /// it stands after this entry; absent when the entry left it as it was (and in entries written
    /// before it was kept). Secret until used: only its commitment is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_seeds: Option<Vec<String>>,
}

/// What was asked, with the data the room needs beside the procedure events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// A player entered the room.
    Arrive {
        /// The player's id on the register (the subject of their tokens).
        player_id: String,
        /// The register's number for the player: the room's key for him.
        number: u64,
    },
    /// The desk corrected when a player entered the room (rule C).
    CorrectArrival {
        /// The player.
        player: u64,
        /// When he entered, as corrected (ms).
        arrived_at: i64,
        /// Why.
        reason: String,
    },
    /// The desk marked applications waiting at a table as made together (rule D).
    JoinApplications {
        /// The table.
        table: u64,
        /// The applications.
        application_ids: Vec<String>,
        /// The draw that orders them.
        draw: DrawRecord,
        /// The table's committed seeds after the draw, when it was the server's (hex).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_seeds: Option<Vec<String>>,
    },
    /// A player left the room.
    LeaveRoom {
        /// The player.
        player: u64,
    },
    /// A table was opened.
    OpenTable {
        /// The new table.
        table: NewTable,
        /// Applications of those who were told their place in the queue.
        applications: Vec<NewApplication>,
        /// The precedence draw among applicants of equal rank, if one was needed.
        draw: Option<DrawRecord>,
        /// The table's committed seeds for its next server draws (hex), in order, as they stand
        /// after this command; absent when it left them as they were (and in entries written
        /// before tables kept commitments). Secret until used: only their commitments are shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_seeds: Option<Vec<String>>,
    },
    /// Players applied to a table at the same time.
    Apply {
        /// The table's number.
        table: u64,
        /// One application per applicant.
        applications: Vec<NewApplication>,
        /// The precedence draw among them, if one was needed.
        draw: Option<DrawRecord>,
        /// The table's committed seeds for its next server draws (hex), in order, as they stand
        /// after this command; absent when it left them as they were (and in entries written
        /// before tables kept commitments). Secret until used: only their commitments are shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_seeds: Option<Vec<String>>,
    },
    /// A waiting application was withdrawn.
    Withdraw {
        /// The application.
        application_id: String,
    },
    /// A member left a table.
    LeaveTable {
        /// The table.
        table: u64,
        /// The member.
        player: u64,
    },
    /// A member made a fourth at another table.
    MakeFourth {
        /// The player.
        player: u64,
        /// The table he makes a fourth at.
        host: u64,
        /// Whether he announced a return to his own table.
        announced_return: bool,
    },
    /// A table's club options changed.
    UpdateOptions {
        /// The table.
        table: u64,
        /// The new options.
        options: Options,
    },
    /// The desk closed a table.
    CloseTable {
        /// The table.
        table: u64,
        /// Why, as the desk gave it.
        reason: String,
    },
    /// A draw for the next rubber was made or advanced: by the server, or physical cards recorded
    /// by the desk (with any redraws).
    Draw {
        /// The table.
        table: u64,
        /// The draw as it stands after this command.
        draw: DrawRecord,
        /// The table's committed seeds for its next server draws (hex), in order, as they stand
        /// after this command; absent when it left them as they were (and in entries written
        /// before tables kept commitments). Secret until used: only their commitments are shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_seeds: Option<Vec<String>>,
    },
    /// A rubber started.
    StartRubber {
        /// The table.
        table: u64,
        /// The rubber's id.
        rubber_id: String,
        /// Draws the server made for this command (going out, entry, partnerships).
        draws: Vec<DrawRecord>,
        /// The partnership draw used, if one was made before (by the server or physically).
        partnership_draw_id: Option<String>,
        /// The four players by seat: North, East, South, West.
        seats: [u64; 4],
        /// The first dealer's seat: 0 North, 1 East, 2 South, 3 West.
        first_dealer: u8,
        /// The table's committed seeds for its next server draws (hex), in order, as they stand
        /// after this command; absent when it left them as they were (and in entries written
        /// before tables kept commitments). Secret until used: only their commitments are shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_seeds: Option<Vec<String>>,
        /// The deck the first dealer chose, 1 or 2 (Law 3); entries written before the choice
        /// was kept dealt with the first.
        #[serde(default = "first_deck")]
        first_deck: u8,
        /// Whether the four agreed their partnerships instead of drawing (Law 3).
        #[serde(default)]
        agreed: bool,
    },
    /// The rubber in progress ended.
    EndRubber {
        /// The table.
        table: u64,
        /// The rubber.
        rubber_id: String,
        /// Finished (true) or not (Law 80).
        completed: bool,
    },
}

impl Command {
    /// The table whose committed seeds this command replaced, with the seeds (hex) as they stand
    /// after it; `None` when it left every table's seeds as they were.
    pub fn next_seeds(&self) -> Option<(u64, &[String])> {
        match self {
            Command::OpenTable { table, next_seeds, .. } => next_seeds.as_deref().map(|s| (table.number, s)),
            Command::Apply { table, next_seeds, .. }
            | Command::Draw { table, next_seeds, .. }
            | Command::StartRubber { table, next_seeds, .. }
            | Command::JoinApplications { table, next_seeds, .. } => next_seeds.as_deref().map(|s| (*table, s)),
            _ => None,
        }
    }

    /// A short name for the journal's `kind` column and for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Arrive { .. } => "arrive",
            Command::CorrectArrival { .. } => "correct_arrival",
            Command::JoinApplications { .. } => "join_applications",
            Command::LeaveRoom { .. } => "leave_room",
            Command::OpenTable { .. } => "open_table",
            Command::Apply { .. } => "apply",
            Command::Withdraw { .. } => "withdraw",
            Command::LeaveTable { .. } => "leave_table",
            Command::MakeFourth { .. } => "make_fourth",
            Command::UpdateOptions { .. } => "update_options",
            Command::CloseTable { .. } => "close_table",
            Command::Draw { .. } => "draw",
            Command::StartRubber { .. } => "start_rubber",
            Command::EndRubber { .. } => "end_rubber",
        }
    }
}

/// A table being opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewTable {
    /// The table's id (`t` and its number).
    pub table_id: String,
    /// Its number: the room's key for it.
    pub number: u64,
    /// The name the room calls it by.
    pub name: String,
    /// Rubber bridge or Chicago.
    pub form: Form,
    /// Its club options.
    pub options: Options,
}

/// An application being made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewApplication {
    /// The application's id.
    pub application_id: String,
    /// The applicant.
    pub player: u64,
    /// Whether he left another existing table to apply (rules C and E).
    pub from_other_table: bool,
}

/// Rubber bridge or Chicago.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// Rubber bridge.
    Rubber,
    /// Chicago (Appendix 4).
    Chicago,
}

impl From<Form> for GameForm {
    fn from(form: Form) -> GameForm {
        match form {
            Form::Rubber => GameForm::Rubber,
            Form::Chicago => GameForm::Chicago,
        }
    }
}

impl From<GameForm> for Form {
    fn from(form: GameForm) -> Form {
        match form {
            GameForm::Rubber => Form::Rubber,
            GameForm::Chicago => Form::Chicago,
        }
    }
}

/// A table's club options: the ones the Laws know, and the club's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Appendix 4 H3.
    pub no_consecutive_partners: bool,
    /// Appendix 4 B, footnote 32.
    pub pivot: bool,
    /// Appendix 4 C.
    pub chicago_swap_vulnerability: bool,
    /// Part VIII: the Alternative Club Laws are in force.
    pub club_laws: bool,
    /// The player named in advance as Arbiter, or empty.
    pub arbiter_player_id: String,
    /// The server makes a draw the rules call for whenever a command needs one the desk did not
    /// record; otherwise only when the desk asks (the club's choice, not the Laws').
    #[serde(default)]
    pub server_draws_automatic: bool,
}

impl Options {
    /// The options the Rules for Club Procedure and the draw read.
    pub fn laws(&self) -> TableOptions {
        TableOptions {
            no_consecutive_partners: self.no_consecutive_partners,
            pivot: self.pivot,
            chicago_vulnerability_switched: self.chicago_swap_vulnerability,
        }
    }
}

/// A draw as recorded: every card, position and redraw, so that it can be audited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    /// The draw's id.
    pub draw_id: String,
    /// What it decides.
    pub purpose: Purpose,
    /// Server or physical.
    pub physical: bool,
    /// Who draws, in the order given (a server draw lets them draw in this order).
    pub players: Vec<u64>,
    /// Every card drawn, in order, redraws included.
    pub drawings: Vec<Drawing>,
    /// The server's seed, hex, for a server draw.
    pub seed: Option<String>,
    /// When the first card was drawn (ms).
    pub started_at: Option<i64>,
    /// When every player held a valid card (ms).
    pub completed_at: Option<i64>,
    /// What the draw settles in the room: the Rules for Club Procedure purpose it was made for.
    pub settles: LawPurpose,
    /// For a server draw: whether its seed's commitment was published (on the table) before the
    /// draw's players were known. False for draws stored before tables kept commitments, whose
    /// seeds were all generated at the draw.
    #[serde(default)]
    pub committed_before: bool,
}

impl DrawRecord {
    /// A physical draw about to receive its first cards, among `players` in the order given.
    pub fn new_physical(purpose: Purpose, players: Vec<u64>, settles: LawPurpose) -> DrawRecord {
        DrawRecord {
            draw_id: crate::draws::new_id(),
            purpose,
            physical: true,
            players,
            drawings: Vec::new(),
            seed: None,
            started_at: None,
            completed_at: None,
            settles,
            committed_before: false,
        }
    }

    /// The valid cards, one per player who holds one.
    pub fn cards(&self) -> Vec<DrawnCard> {
        self.drawings
            .iter()
            .filter(|d| d.redraw.is_none())
            .filter_map(|d| d.card.parse::<Card>().ok().map(|card| DrawnCard { player: PlayerId(d.player), card }))
            .collect()
    }

    /// Players who do not yet hold a valid card.
    pub fn awaiting(&self) -> Vec<u64> {
        let holding: Vec<u64> = self.drawings.iter().filter(|d| d.redraw.is_none()).map(|d| d.player).collect();
        self.players.iter().copied().filter(|p| !holding.contains(p)).collect()
    }

    /// Whether every player holds a valid card.
    pub fn is_complete(&self) -> bool {
        self.awaiting().is_empty()
    }
}

/// What a draw decides (the contract's purposes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Partnerships and the first dealer (Law 3).
    Partnerships,
    /// Precedence between applicants (rules C and D).
    Precedence,
    /// A tie for going out (rule E).
    GoingOut,
    /// A member from another table against the member who would otherwise play (rule E).
    EntryFromOtherTable,
}

/// One card drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawing {
    /// Who drew it.
    pub player: u64,
    /// The card (`SA`).
    pub card: String,
    /// Its position in the spread, 0-51.
    pub position: u8,
    /// The deck it came from, 1 or 2.
    pub deck: u8,
    /// Whether more than one card was drawn at once.
    pub more_than_one_card: bool,
    /// Why it must be drawn again, if it does not stand (Law 3).
    pub redraw: Option<Redraw>,
}

/// Why a card does not stand (Law 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Redraw {
    /// More than one card.
    MoreThanOneCard,
    /// One of the four cards at either end.
    EndOfSpread,
    /// Adjoining a card drawn by another player.
    AdjoiningCard,
    /// From the other deck.
    OtherDeck,
}

/// The Rules for Club Procedure's draw purposes, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LawPurpose {
    /// Rule C.
    Formation,
    /// Rule D.
    CutIn,
    /// Rule E, going out.
    GoingOut,
    /// Rule E, who would otherwise have played.
    WouldOtherwisePlay,
    /// Rule E, a member from another table.
    LeaverEntry,
    /// Law 3.
    Partnerships,
}

impl From<LawPurpose> for DrawPurpose {
    fn from(purpose: LawPurpose) -> DrawPurpose {
        match purpose {
            LawPurpose::Formation => DrawPurpose::Formation,
            LawPurpose::CutIn => DrawPurpose::CutIn,
            LawPurpose::GoingOut => DrawPurpose::GoingOut,
            LawPurpose::WouldOtherwisePlay => DrawPurpose::WouldOtherwisePlay,
            LawPurpose::LeaverEntry => DrawPurpose::LeaverEntry,
            LawPurpose::Partnerships => DrawPurpose::Partnerships,
        }
    }
}

impl From<DrawPurpose> for LawPurpose {
    fn from(purpose: DrawPurpose) -> LawPurpose {
        match purpose {
            DrawPurpose::Formation => LawPurpose::Formation,
            DrawPurpose::CutIn => LawPurpose::CutIn,
            DrawPurpose::GoingOut => LawPurpose::GoingOut,
            DrawPurpose::WouldOtherwisePlay => LawPurpose::WouldOtherwisePlay,
            DrawPurpose::LeaverEntry => LawPurpose::LeaverEntry,
            DrawPurpose::Partnerships => LawPurpose::Partnerships,
        }
    }
}

impl LawPurpose {
    /// The contract's purpose for a draw the room asks for: going out and "who would otherwise
    /// have played" are both ties for most consecutive rubbers (rule E).
    pub fn contract(self) -> Purpose {
        match self {
            LawPurpose::Formation | LawPurpose::CutIn => Purpose::Precedence,
            LawPurpose::GoingOut | LawPurpose::WouldOtherwisePlay => Purpose::GoingOut,
            LawPurpose::LeaverEntry => Purpose::EntryFromOtherTable,
            LawPurpose::Partnerships => Purpose::Partnerships,
        }
    }
}

/// A card a player drew, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnCardRecord {
    /// The player.
    pub player: u64,
    /// The card (`SA`).
    pub card: String,
}

/// The deck a rubber's first dealer deals with when no choice was recorded.
fn first_deck() -> u8 {
    1
}
