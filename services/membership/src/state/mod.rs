//! The room as the service knows it: the Rules for Club Procedure's [`Room`] (which decides every
//! membership question) and the service's data around it (ids, names, times, applications, draws,
//! rubbers), with the views the contract shows.
//!
//! [`ClubState::apply`] is the one fold of the journal: the same function accepts a new command
//! and replays a stored one, so a rebuilt room is the room that answered. It applies the entry's
//! procedure events through `Room::apply` (the laws refuse what the rules refuse), records what the
//! outcomes mean for the service's data, and returns the stream events and projections that
//! changed. Everything here is synchronous and pure; storage is the caller's.
//!
//! Split by concern: the fold itself (`fold`: an entry applied to the room and to the service's
//! data), the contract's views of tables, members, presence, draws and rubbers (`views`), and the
//! stream events found by comparing the views before and after an entry (`events`). This module
//! keeps the state and the lookups every caller uses.

mod events;
mod fold;
mod next_steps;
pub mod snapshot;
mod views;

use std::collections::{BTreeMap, HashMap};

use api::membership::v1 as pb;
use laws::CitesLaw;
use laws::draw::{DrawSeed, PlayerId};
use laws::procedure::{Outcome, Room};

use platform::ServiceError;

use crate::journal::{DrawRecord, Form, Options, Purpose};

pub use views::{draw_view, options_view, precedence_group, table_kind};

/// A time in milliseconds since the Unix epoch, as the contract shows it.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// The room, with everything the service shows about it, after `seq` journal entries.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ClubState {
    /// Journal entries applied: the room's version.
    pub seq: u64,
    /// The Rules for Club Procedure's room.
    pub room: Room,
    /// The time of the last entry (ms): the next one is never earlier.
    pub clock: i64,
    /// The last room event's sequence number.
    pub room_events: u64,
    next_table: u64,
    player_ids: HashMap<u64, String>,
    numbers: HashMap<String, u64>,
    arrivals: HashMap<u64, (i64, u64)>,
    /// The desk's corrections of arrival times since each player arrived (rule C).
    #[serde(default)]
    arrival_corrections: HashMap<u64, ArrivalCorrection>,
    tables: BTreeMap<u64, TableMeta>,
    table_numbers: HashMap<String, u64>,
    table_names: HashMap<u64, (String, String)>,
    applications: HashMap<String, Application>,
    restrictions: Vec<Restriction>,
    #[serde(with = "snapshot::proto_map")]
    presence: BTreeMap<u64, pb::Presence>,
    /// The secret seed of the next precedence draw made as a table is opened (see
    /// `draws::OPENING_SEEDS_AHEAD`); the views show only its commitment.
    opening_seeds: Vec<[u8; 32]>,
}

/// A correction of a player's time of entry: the time first recorded, who corrected it, why and
/// when.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ArrivalCorrection {
    recorded: i64,
    by: String,
    reason: String,
    at: i64,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct TableMeta {
    id: String,
    number: u64,
    name: String,
    form: Form,
    options: Options,
    opened_at: i64,
    events: u64,
    members: HashMap<u64, MemberMeta>,
    line_up: LineUpMeta,
    #[serde(with = "snapshot::proto_opt")]
    rubber: Option<pb::Rubber>,
    closed: Option<(i64, String)>,
    /// The secret seeds of the next server draws, in the order they will be used (see
    /// `draws::Seeds`): kept here and in the journal only; the views show their commitments.
    seeds: Vec<[u8; 32]>,
    #[serde(with = "snapshot::proto")]
    view: pb::Table,
}

/// The draws made for the rubber being drawn for at a table (rule B: from the first card on).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct LineUpMeta {
    draws: Vec<DrawRecord>,
    /// Draws called off before their first valid card, because the table's members changed
    /// (rule B).
    #[serde(default)]
    cancelled: Vec<String>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct MemberMeta {
    since: i64,
    #[serde(with = "snapshot::source")]
    source: pb::MembershipSource,
    fill_home: Option<(u64, bool)>,
}

/// A waiting application (rule D).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Application {
    /// Its id.
    pub id: String,
    /// The table's number.
    pub table: u64,
    /// The applicant's number.
    pub player: u64,
    /// When it was made (ms).
    pub applied_at: i64,
    /// The draw that ordered it among simultaneous applications.
    pub precedence_draw_id: Option<String>,
    /// Whether the applicant left another existing table to apply.
    pub from_other_table: bool,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Restriction {
    breaker: u64,
    table: u64,
    left_behind: Vec<u64>,
    created_at: i64,
}

/// What one entry changed: stream events (with their sequence numbers), projections to store, and
/// the laws' outcomes for the answer.
#[derive(Debug, Clone, Default)]
pub struct Changes {
    /// What the Rules for Club Procedure say happened.
    pub outcomes: Vec<Outcome>,
    /// New room events, in order.
    pub room_events: Vec<pb::RoomEvent>,
    /// New table events, in order.
    pub table_events: Vec<pb::TableEvent>,
    /// Tables as they now stand (closed ones included).
    pub tables: Vec<pb::Table>,
    /// Draws made or advanced.
    pub draws: Vec<pb::Draw>,
    /// Rubbers started or ended, with the going out an ended one brought.
    pub rubbers: Vec<(pb::Rubber, Option<pb::GoingOut>)>,
    /// Applications made or changed.
    pub applications: Vec<pb::Application>,
    /// The breaker restriction this entry brought, if it broke up a game (rule E).
    pub restriction: Option<pb::BreakerRestriction>,
}

/// The laws' player key for a register number.
pub fn player(number: u64) -> PlayerId {
    PlayerId(number)
}

impl ClubState {
    /// An empty room, before the first entry.
    pub fn new() -> ClubState {
        ClubState { next_table: 1, ..ClubState::default() }
    }

    /// The register number of a player who has entered the room at some time.
    pub fn number_of(&self, player_id: &str) -> Option<u64> {
        self.numbers.get(player_id).copied()
    }

    /// A player's id.
    pub fn player_id(&self, number: u64) -> String {
        self.player_ids.get(&number).cloned().unwrap_or_else(|| format!("#{number}"))
    }

    /// The number of an open table.
    pub fn open_table(&self, table_id: &str) -> Option<u64> {
        self.table_numbers.get(table_id).copied().filter(|n| self.tables.contains_key(n))
    }

    /// Whether a table with this id was ever opened.
    pub fn ever_opened(&self, table_id: &str) -> bool {
        self.table_numbers.contains_key(table_id)
    }

    /// A table's id.
    pub fn table_id(&self, number: u64) -> String {
        self.table_names.get(&number).map_or_else(|| format!("t{number}"), |(id, _)| id.clone())
    }

    /// The number the next table opened gets.
    pub fn next_table_number(&self) -> u64 {
        self.next_table.max(1)
    }

    /// Whether `player` is present in the room.
    pub fn is_present(&self, number: u64) -> bool {
        self.room.is_present(player(number))
    }

    /// The view of an open table.
    pub fn table(&self, number: u64) -> Option<&pb::Table> {
        self.tables.get(&number).map(|t| &t.view)
    }

    /// Every open table, in the order they were opened.
    pub fn tables(&self) -> impl Iterator<Item = &pb::Table> {
        self.tables.values().map(|t| &t.view)
    }

    /// Everyone present, by time of arrival (rule C: the order of entry into the room).
    pub fn present(&self) -> Vec<pb::Presence> {
        // Two arrivals in the same millisecond keep the order the room accepted them in.
        let mut present: Vec<((i64, u64), &pb::Presence)> =
            self.presence.iter().map(|(n, p)| (self.arrivals.get(n).copied().unwrap_or_default(), p)).collect();
        present.sort_by_key(|(arrival, _)| *arrival);
        present.into_iter().map(|(_, p)| p.clone()).collect()
    }

    /// A present player's presence.
    pub fn presence(&self, number: u64) -> Option<&pb::Presence> {
        self.presence.get(&number)
    }

    /// The waiting application with this id.
    pub fn application(&self, id: &str) -> Option<&Application> {
        self.applications.get(id)
    }

    /// The waiting application of `player` at `table`.
    pub fn waiting_application(&self, table: u64, player: u64) -> Option<&Application> {
        self.applications.values().find(|a| a.table == table && a.player == player)
    }

    /// The room's committed seed(s) for the next precedence draw made as a table is opened.
    pub fn opening_seeds(&self) -> &[[u8; 32]] {
        &self.opening_seeds
    }

    /// The commitment of the room's next opening-draw seed, empty if none is committed yet.
    pub fn opening_commitment(&self) -> Vec<u8> {
        self.opening_seeds.first().map(|s| DrawSeed(*s).commitment().to_vec()).unwrap_or_default()
    }

    /// The seeds committed for a table's next server draws, in order (none for a table opened
    /// before tables kept commitments, until its first draw commits them).
    pub fn committed_seeds(&self, table: u64) -> &[[u8; 32]] {
        self.tables.get(&table).map_or(&[], |t| t.seeds.as_slice())
    }

    /// The draws made so far for the rubber being drawn for at `table`.
    pub fn line_up_draws(&self, table: u64) -> &[DrawRecord] {
        self.tables.get(&table).map_or(&[], |t| &t.line_up.draws)
    }

    /// A physical draw for the next rubber at `table` still awaiting cards: it must be finished
    /// before another is made (Law 3).
    pub fn pending_physical_draw(&self, table: u64) -> Option<&DrawRecord> {
        self.line_up_draws(table).iter().find(|d| d.physical && !d.is_complete())
    }

    /// The completed draw for partnerships for the next rubber at `table`, if made (Law 3).
    pub fn partnership_draw(&self, table: u64) -> Option<&DrawRecord> {
        self.line_up_draws(table).iter().find(|d| d.purpose == Purpose::Partnerships && d.is_complete())
    }

    /// Whether draw `draw_id` for the next rubber at `table` was called off before its first
    /// valid card because the table's members changed (rule B).
    pub fn draw_called_off(&self, table: u64, draw_id: &str) -> bool {
        self.tables.get(&table).is_some_and(|t| t.line_up.cancelled.iter().any(|d| d == draw_id))
    }

    /// The rubber in progress at `table`.
    pub fn current_rubber(&self, table: u64) -> Option<&pb::Rubber> {
        self.tables.get(&table).and_then(|t| t.rubber.as_ref())
    }

    /// The table's form.
    pub fn form(&self, table: u64) -> Option<Form> {
        self.tables.get(&table).map(|t| t.form)
    }

    /// The table's options.
    pub fn options(&self, table: u64) -> Option<&Options> {
        self.tables.get(&table).map(|t| &t.options)
    }

    /// A refusal of the Rules for Club Procedure, in the room's words: players and tables by the
    /// ids clients know them by, and the rule.
    pub fn refusal(&self, error: &(impl CitesLaw + std::fmt::Display)) -> ServiceError {
        ServiceError::Rule { message: self.describe(&error.to_string()), law: error.law() }
    }

    /// `text` with the laws' `player N` and `table N` replaced by the ids clients use.
    pub fn describe(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while !rest.is_empty() {
            let found = ["player ", "table "].iter().filter_map(|w| rest.find(w).map(|i| (i, *w))).min();
            let Some((i, word)) = found else {
                out.push_str(rest);
                break;
            };
            let after = &rest[i + word.len()..];
            let digits = after.chars().take_while(|c| c.is_ascii_digit()).count();
            let boundary = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric());
            out.push_str(&rest[..i]);
            match after[..digits].parse::<u64>() {
                Ok(n) if boundary && digits > 0 => {
                    if word == "player " {
                        out.push_str(&format!("player {}", self.player_id(n)));
                    } else {
                        match self.table_names.get(&n) {
                            Some((id, name)) => out.push_str(&format!("table {id} ({name})")),
                            None => out.push_str(&format!("table t{n}")),
                        }
                    }
                    rest = &after[digits..];
                }
                _ => {
                    out.push_str(word);
                    rest = after;
                }
            }
        }
        out
    }
}
