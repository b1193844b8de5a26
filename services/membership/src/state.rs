//! The room as the service knows it: the Rules for Club Procedure's [`Room`] (which decides every
//! membership question) and the service's data around it (ids, names, times, applications, draws,
//! rubbers), with the views the contract shows.
//!
//! [`ClubState::apply`] is the one fold of the journal: the same function accepts a new command
//! and replays a stored one, so a rebuilt room is the room that answered. It applies the entry's
//! procedure events through `Room::apply` (the laws refuse what the rules refuse), records what the
//! outcomes mean for the service's data, and returns the stream events and projections that
//! changed. Everything here is synchronous and pure; storage is the caller's.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use api::convert::ProtoEnum;
use api::membership::v1 as pb;
use laws::draw::{DrawSeed, PlayerId, PrecedenceDraw};
use laws::procedure::{Outcome, ProcedureError, Room, TableId, Timestamp};
use laws::{CitesLaw, Law, Seat};

use platform::ServiceError;

use crate::journal::{Command, DrawRecord, Entry, Event, Form, NewApplication, Options, Purpose, Redraw};

/// A time in milliseconds since the Unix epoch, as the contract shows it.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// The room, with everything the service shows about it, after `seq` journal entries.
#[derive(Debug, Clone, Default)]
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
    tables: BTreeMap<u64, TableMeta>,
    table_numbers: HashMap<String, u64>,
    table_names: HashMap<u64, (String, String)>,
    applications: HashMap<String, Application>,
    restrictions: Vec<Restriction>,
    presence: BTreeMap<u64, pb::Presence>,
    /// The secret seed of the next precedence draw made as a table is opened (see
    /// `draws::OPENING_SEEDS_AHEAD`); the views show only its commitment.
    opening_seeds: Vec<[u8; 32]>,
}

#[derive(Debug, Clone)]
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
    rubber: Option<pb::Rubber>,
    closed: Option<(i64, String)>,
    /// The secret seeds of the next server draws, in the order they will be used (see
    /// `draws::Seeds`): kept here and in the journal only; the views show their commitments.
    seeds: Vec<[u8; 32]>,
    view: pb::Table,
}

/// The draws made for the rubber being drawn for at a table (rule B: from the first card on).
#[derive(Debug, Clone, Default)]
struct LineUpMeta {
    draws: Vec<DrawRecord>,
}

#[derive(Debug, Clone)]
struct MemberMeta {
    since: i64,
    source: pb::MembershipSource,
    fill_home: Option<(u64, bool)>,
}

/// A waiting application (rule D).
#[derive(Debug, Clone, PartialEq, Eq)]
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

#[derive(Debug, Clone)]
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

    /// The view of a waiting application, with its place in the queue.
    pub fn application_view(&self, application: &Application) -> pb::Application {
        let place = self
            .room
            .waiting_list(TableId(application.table))
            .iter()
            .position(|p| p.0 == application.player)
            .map_or(0, |i| i as u32 + 1);
        self.application_record(application, pb::ApplicationStatus::Waiting, place)
    }

    fn application_record(
        &self,
        application: &Application,
        status: pb::ApplicationStatus,
        queue_position: u32,
    ) -> pb::Application {
        pb::Application {
            application_id: application.id.clone(),
            table_id: self.table_id(application.table),
            player_id: self.player_id(application.player),
            applied_at: Some(timestamp(application.applied_at)),
            status: status as i32,
            queue_position,
            precedence_draw_id: application.precedence_draw_id.clone().unwrap_or_default(),
            from_other_table: application.from_other_table,
        }
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

    /// The view of a draw at `table`.
    pub fn draw_view(&self, table: u64, draw: &DrawRecord) -> pb::Draw {
        draw_view(&self.table_id(table), draw, |n| self.player_id(n))
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

    /// Applies one journal entry as entry number `seq`: the next state and what changed, or the
    /// rule that refuses it (nothing changes then).
    pub fn apply(&self, seq: u64, entry: &Entry) -> Result<(ClubState, Changes), ServiceError> {
        let at = entry.at.max(self.clock);
        let mut next = self.clone();
        next.seq = seq;
        next.clock = at;
        let mut changes = Changes::default();
        match &entry.command {
            Command::Arrive { player_id, number } => {
                next.player_ids.insert(*number, player_id.clone());
                next.numbers.insert(player_id.clone(), *number);
            }
            Command::OpenTable { table, .. } => {
                next.table_numbers.insert(table.table_id.clone(), table.number);
                next.table_names.insert(table.number, (table.table_id.clone(), table.name.clone()));
                next.next_table = next.next_table.max(table.number + 1);
                next.tables.insert(
                    table.number,
                    TableMeta {
                        id: table.table_id.clone(),
                        number: table.number,
                        name: table.name.clone(),
                        form: table.form,
                        options: table.options.clone(),
                        opened_at: at,
                        events: 0,
                        members: HashMap::new(),
                        line_up: LineUpMeta::default(),
                        rubber: None,
                        closed: None,
                        seeds: Vec::new(),
                        view: pb::Table::default(),
                    },
                );
            }
            _ => {}
        }
        if let Some((table, seeds)) = entry.command.next_seeds() {
            let seeds = decode_seeds(seeds)?;
            if let Some(t) = next.tables.get_mut(&table) {
                t.seeds = seeds;
            }
        }
        if let Some(seeds) = &entry.opening_seeds {
            next.opening_seeds = decode_seeds(seeds)?;
        }
        let mut started = Vec::new();
        for event in &entry.events {
            let (room, outcomes) =
                next.room.apply(&event.to_laws(Timestamp(at))?).map_err(|e: ProcedureError| next.refusal(&e))?;
            next.room = room;
            if let Event::DrawStarted { table } = event {
                started.push(*table);
            }
            changes.outcomes.extend(outcomes);
        }
        let reasons = next.absorb(entry, at, &mut changes)?;
        next.emit(self, entry, at, &started, &reasons, &mut changes);
        Ok((next, changes))
    }

    /// Records what the entry's outcomes mean for the service's data; returns why each member
    /// who left a table left it.
    fn absorb(
        &mut self,
        entry: &Entry,
        at: i64,
        changes: &mut Changes,
    ) -> Result<HashMap<(u64, u64), pb::MemberLeftReason>, ServiceError> {
        let mut reasons = HashMap::new();
        let mut ended = Vec::new();
        let new_applications: &[NewApplication] = match &entry.command {
            Command::OpenTable { applications, .. } | Command::Apply { applications, .. } => applications,
            _ => &[],
        };
        let precedence_draw = match &entry.command {
            Command::OpenTable { draw, .. } | Command::Apply { draw, .. } => draw.as_ref(),
            _ => None,
        };
        let lost: Vec<(u64, u64)> = changes
            .outcomes
            .iter()
            .filter_map(|o| match o {
                Outcome::MembershipLost { table, player } => Some((player.0, table.0)),
                _ => None,
            })
            .collect();
        for outcome in changes.outcomes.clone() {
            match outcome {
                Outcome::TableFormed { table, members, .. } => {
                    for p in members {
                        let came_from = self.member_came_from(table.0, p.0);
                        let source = if came_from {
                            pb::MembershipSource::FromOtherTable
                        } else {
                            pb::MembershipSource::NewTable
                        };
                        self.join(table.0, p.0, at, source, None);
                    }
                }
                Outcome::MemberJoined { table, player: p, from_table } => {
                    let (source, fill_home) = match &entry.command {
                        Command::MakeFourth { player: who, announced_return, .. } if *who == p.0 => {
                            let home = if *announced_return {
                                self.room.table(table).and_then(|t| t.member(p)).and_then(|m| m.fourth_for())
                            } else {
                                lost.iter().find(|(q, _)| *q == p.0).map(|(_, t)| TableId(*t))
                            };
                            (pb::MembershipSource::MakingFourth, home.map(|h| (h.0, *announced_return)))
                        }
                        _ if from_table.is_some() => (pb::MembershipSource::FromOtherTable, None),
                        _ => (pb::MembershipSource::CutIn, None),
                    };
                    self.join(table.0, p.0, at, source, fill_home);
                    if let Some(application) = self.take_application(table.0, p.0) {
                        changes.applications.push(self.application_record(
                            &application,
                            pb::ApplicationStatus::Admitted,
                            0,
                        ));
                    } else if let Some(new) = new_applications.iter().find(|a| a.player == p.0) {
                        // Admitted at once (rule D: an incomplete table).
                        let application = self.new_application(new, table.0, at, precedence_draw);
                        changes.applications.push(self.application_record(
                            &application,
                            pb::ApplicationStatus::Admitted,
                            0,
                        ));
                    }
                }
                Outcome::Waiting { table, player: p, .. } => {
                    if let Some(new) = new_applications.iter().find(|a| a.player == p.0) {
                        let application = self.new_application(new, table.0, at, precedence_draw);
                        self.applications.insert(application.id.clone(), application);
                    }
                }
                Outcome::ApplicationWithdrawn { table, player: p } => {
                    if let Some(application) = self.take_application(table.0, p.0) {
                        let status = match &entry.command {
                            Command::Withdraw { application_id } if *application_id == application.id => {
                                pb::ApplicationStatus::Withdrawn
                            }
                            _ => pb::ApplicationStatus::Lapsed,
                        };
                        changes.applications.push(self.application_record(&application, status, 0));
                    }
                }
                Outcome::MembershipLost { table, player: p } => {
                    self.leave(table.0, p.0);
                    reasons.insert((table.0, p.0), pb::MemberLeftReason::JoinedOtherTable);
                }
                Outcome::MemberLeft { table, player: p } => {
                    self.leave(table.0, p.0);
                    let reason = match &entry.command {
                        Command::LeaveRoom { .. } => pb::MemberLeftReason::LeftRoom,
                        Command::CloseTable { table: closed, .. } if *closed == table.0 => {
                            pb::MemberLeftReason::TableClosed
                        }
                        _ => pb::MemberLeftReason::Left,
                    };
                    reasons.entry((table.0, p.0)).or_insert(reason);
                }
                Outcome::FillEnded { player: p, host, .. } => {
                    reasons.insert((host.0, p.0), pb::MemberLeftReason::ReturnedHome);
                }
                Outcome::TableBroken { table, breaker, left_behind } => {
                    self.restrictions.retain(|r| !(r.breaker == breaker.0 && r.table == table.0));
                    let restriction = Restriction {
                        breaker: breaker.0,
                        table: table.0,
                        left_behind: left_behind.iter().map(|p| p.0).collect(),
                        created_at: at,
                    };
                    self.restrictions.push(restriction);
                }
                Outcome::DrawCancelled { table } => {
                    if let Some(t) = self.tables.get_mut(&table.0) {
                        t.line_up = LineUpMeta::default();
                    }
                }
                Outcome::RubberEnded { table, completed } => ended.push((table.0, completed)),
                Outcome::TableDissolved { table } => {
                    let reason = match &entry.command {
                        Command::CloseTable { table: closed, reason } if *closed == table.0 => reason.clone(),
                        _ => "the last member left the table".to_owned(),
                    };
                    if let Some(t) = self.tables.get_mut(&table.0) {
                        t.closed = Some((at, reason));
                        t.rubber = None;
                    }
                }
                Outcome::RestrictionCleared { .. }
                | Outcome::RestrictionLifted { .. }
                | Outcome::FillStarted { .. }
                | Outcome::FillMayEnd { .. }
                | Outcome::RubberAbandoned { .. }
                | Outcome::DrawNeeded(_)
                | Outcome::LineUpFixed { .. }
                | Outcome::PartnershipsSet { .. } => {}
            }
        }
        // Rule E: a restriction lasts while the laws keep it (per protected player until he has
        // finished a rubber); the service keeps the three names to show who has cleared it.
        let room = &self.room;
        self.restrictions
            .retain(|r| room.restrictions().iter().any(|x| x.breaker().0 == r.breaker && x.table().0 == r.table));
        if let Some(Outcome::TableBroken { breaker, table, .. }) =
            changes.outcomes.iter().find(|o| matches!(o, Outcome::TableBroken { .. }))
        {
            changes.restriction = self
                .restrictions
                .iter()
                .find(|r| r.breaker == breaker.0 && r.table == table.0)
                .map(|r| self.restriction_view(r));
        }

        match &entry.command {
            Command::OpenTable { table, draw: Some(draw), .. } => {
                changes.draws.push(self.draw_view(table.number, draw))
            }
            Command::Apply { table, draw: Some(draw), .. } => changes.draws.push(self.draw_view(*table, draw)),
            Command::Draw { table, draw, .. } => {
                if let Some(t) = self.tables.get_mut(table) {
                    match t.line_up.draws.iter_mut().find(|d| d.draw_id == draw.draw_id) {
                        Some(existing) => *existing = draw.clone(),
                        None => t.line_up.draws.push(draw.clone()),
                    }
                }
                changes.draws.push(self.draw_view(*table, draw));
            }
            Command::StartRubber { table, rubber_id, draws, seats, first_dealer, .. } => {
                let number = *table;
                for draw in draws {
                    changes.draws.push(self.draw_view(number, draw));
                }
                let rubber = self.rubber_view(number, rubber_id, draws, seats, *first_dealer, at)?;
                if let Some(t) = self.tables.get_mut(&number) {
                    t.rubber = Some(rubber.clone());
                    t.line_up = LineUpMeta::default();
                }
                changes.rubbers.push((rubber, None));
            }
            Command::UpdateOptions { table, options } => {
                if let Some(t) = self.tables.get_mut(table) {
                    t.options = options.clone();
                }
            }
            _ => {}
        }

        for (table, completed) in ended {
            let going_out = self.going_out_view(table);
            if let Some(t) = self.tables.get_mut(&table)
                && let Some(mut rubber) = t.rubber.take()
            {
                rubber.status =
                    if completed { pb::RubberStatus::Finished } else { pb::RubberStatus::Unfinished } as i32;
                rubber.ended_at = Some(timestamp(at));
                changes.rubbers.push((rubber, Some(going_out)));
            }
        }
        Ok(reasons)
    }

    fn member_came_from(&self, table: u64, p: u64) -> bool {
        self.room.table(TableId(table)).and_then(|t| t.member(player(p))).is_some_and(|m| m.came_from().is_some())
    }

    fn join(&mut self, table: u64, p: u64, at: i64, source: pb::MembershipSource, fill_home: Option<(u64, bool)>) {
        if let Some(t) = self.tables.get_mut(&table) {
            t.members.insert(p, MemberMeta { since: at, source, fill_home });
        }
    }

    fn leave(&mut self, table: u64, p: u64) {
        if let Some(t) = self.tables.get_mut(&table) {
            t.members.remove(&p);
        }
    }

    fn take_application(&mut self, table: u64, p: u64) -> Option<Application> {
        let id = self.applications.values().find(|a| a.table == table && a.player == p).map(|a| a.id.clone())?;
        self.applications.remove(&id)
    }

    fn new_application(&self, new: &NewApplication, table: u64, at: i64, draw: Option<&DrawRecord>) -> Application {
        Application {
            id: new.application_id.clone(),
            table,
            player: new.player,
            applied_at: at,
            precedence_draw_id: draw.filter(|d| d.players.contains(&new.player)).map(|d| d.draw_id.clone()),
            from_other_table: new.from_other_table,
        }
    }

    fn restriction_view(&self, r: &Restriction) -> pb::BreakerRestriction {
        let current = self.room.restrictions().iter().find(|x| x.breaker().0 == r.breaker && x.table().0 == r.table);
        pb::BreakerRestriction {
            table_id: self.table_id(r.table),
            protected_players: r
                .left_behind
                .iter()
                .map(|p| pb::ProtectedPlayer {
                    player_id: self.player_id(*p),
                    cleared: !current.is_some_and(|x| x.protects(player(*p))),
                })
                .collect(),
            created_at: Some(timestamp(r.created_at)),
        }
    }

    /// Who comes in and who goes out after the rubber just ended, as the laws preview it (rule E).
    fn going_out_view(&self, table: u64) -> pb::GoingOut {
        let ids = |players: &[PlayerId]| players.iter().map(|p| self.player_id(p.0)).collect();
        match self.room.going_out_preview(TableId(table)) {
            Some(preview) => pb::GoingOut {
                coming_in_player_ids: ids(&preview.coming_in),
                going_out_player_ids: ids(&preview.going_out),
                tie_draw_id: String::new(),
                tied_player_ids: ids(&preview.tied),
            },
            None => pb::GoingOut::default(),
        }
    }

    fn rubber_view(
        &self,
        table: u64,
        rubber_id: &str,
        new_draws: &[DrawRecord],
        seats: &[u64; 4],
        first_dealer: u8,
        at: i64,
    ) -> Result<pb::Rubber, ServiceError> {
        let t = self.tables.get(&table).ok_or_else(|| ServiceError::internal("a rubber at a table that is gone"))?;
        let rt = self
            .room
            .table(TableId(table))
            .ok_or_else(|| ServiceError::internal("a rubber at a table that is gone"))?;
        let mut draw_ids: Vec<String> = t.line_up.draws.iter().map(|d| d.draw_id.clone()).collect();
        draw_ids.extend(new_draws.iter().map(|d| d.draw_id.clone()));
        let seat = Seat::ALL.get(usize::from(first_dealer)).copied().unwrap_or(Seat::North);
        Ok(pb::Rubber {
            rubber_id: rubber_id.to_owned(),
            table_id: t.id.clone(),
            number: rt.rubbers(),
            kind: table_kind(t.form) as i32,
            seats: Seat::ALL
                .iter()
                .zip(seats)
                .map(|(s, p)| api::common::v1::SeatedPlayer { seat: s.to_proto(), player_id: self.player_id(*p) })
                .collect(),
            first_dealer: seat.to_proto(),
            sitting_out_player_ids: rt
                .members()
                .iter()
                .map(|m| m.player().0)
                .filter(|p| !seats.contains(p))
                .map(|p| self.player_id(p))
                .collect(),
            draw_ids,
            status: pb::RubberStatus::InProgress as i32,
            started_at: Some(timestamp(at)),
            ended_at: None,
        })
    }

    fn table_view(&self, t: &TableMeta) -> pb::Table {
        let options = Some(options_view(&t.options));
        let base = pb::Table {
            table_id: t.id.clone(),
            name: t.name.clone(),
            kind: table_kind(t.form) as i32,
            options,
            opened_at: Some(timestamp(t.opened_at)),
            version: t.events,
            next_draw_seed_commitments: t.seeds.iter().map(|s| DrawSeed(*s).commitment().to_vec()).collect(),
            ..pb::Table::default()
        };
        if let Some((closed_at, _)) = &t.closed {
            return pb::Table {
                status: pb::TableStatus::Closed as i32,
                closed_at: Some(timestamp(*closed_at)),
                ..base
            };
        }
        let Some(rt) = self.room.table(TableId(t.number)) else { return base };
        let playing = rt.playing();
        let last = rt.last_line_up();
        let members: Vec<pb::Member> = rt
            .members()
            .iter()
            .map(|m| {
                let p = m.player();
                let meta = t.members.get(&p.0);
                let temporary_fill = match (m.fourth_for(), meta.and_then(|m| m.fill_home)) {
                    (Some(home), _) => {
                        Some(pb::TemporaryFill { home_table_id: self.table_id(home.0), announced_return: true })
                    }
                    (None, Some((home, false))) => {
                        Some(pb::TemporaryFill { home_table_id: self.table_id(home), announced_return: false })
                    }
                    (None, _) => None,
                };
                pb::Member {
                    player_id: self.player_id(p.0),
                    member_since: meta.map(|m| timestamp(m.since)),
                    source: meta.map_or(pb::MembershipSource::Unspecified, |m| m.source) as i32,
                    consecutive_rubbers: m.consecutive_rubbers(),
                    sat_out_last_rubber: last.is_some_and(|l| !l.contains(&p)),
                    playing: playing.is_some_and(|l| l.contains(&p)),
                    away_at_table_id: m.away_at().map(|h| self.table_id(h.0)).unwrap_or_default(),
                    temporary_fill,
                }
            })
            .collect();
        let queue = self
            .room
            .waiting_list(TableId(t.number))
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                self.waiting_application(t.number, p.0)
                    .map(|a| self.application_record(a, pb::ApplicationStatus::Waiting, i as u32 + 1))
            })
            .collect();
        let status = match members.len() {
            0..=3 => pb::TableStatus::Broken,
            4 | 5 => pb::TableStatus::Incomplete,
            _ => pb::TableStatus::Complete,
        };
        pb::Table { status: status as i32, members, queue, current_rubber: t.rubber.clone(), ..base }
    }

    fn presence_view(&self, number: u64) -> pb::Presence {
        let p = player(number);
        let table = self
            .room
            .tables_of(p)
            .into_iter()
            .find(|t| self.room.table(*t).and_then(|t| t.member(p)).is_some_and(|m| m.is_present()))
            .map(|t| self.table_id(t.0))
            .unwrap_or_default();
        pb::Presence {
            player_id: self.player_id(number),
            arrived_at: self.arrivals.get(&number).map(|(at, _)| timestamp(*at)),
            has_played: self.room.has_played(p),
            table_id: table,
            breaker_restrictions: self
                .restrictions
                .iter()
                .filter(|r| r.breaker == number)
                .map(|r| self.restriction_view(r))
                .collect(),
        }
    }

    /// Computes the views after the entry, compares them with those before, and emits the stream
    /// events that say what changed, numbering them.
    fn emit(
        &mut self,
        before: &ClubState,
        entry: &Entry,
        at: i64,
        started: &[u64],
        reasons: &HashMap<(u64, u64), pb::MemberLeftReason>,
        changes: &mut Changes,
    ) {
        // Arrivals first, then tables, then other presence changes, then departures.
        match &entry.command {
            Command::Arrive { number, .. } => {
                self.arrivals.insert(*number, (at, self.seq));
            }
            Command::LeaveRoom { player } => {
                self.arrivals.remove(player);
            }
            _ => {}
        }
        let present: Vec<u64> = self.player_ids.keys().copied().filter(|n| self.room.is_present(player(*n))).collect();
        let mut presence: BTreeMap<u64, pb::Presence> = BTreeMap::new();
        for n in present {
            presence.insert(n, self.presence_view(n));
        }
        let mut room_events = Vec::new();
        for (n, p) in &presence {
            if !before.presence.contains_key(n) {
                room_events.push(pb::room_event::Event::PlayerArrived(p.clone()));
            }
        }
        // Before the tables: a table opened by this entry made its draw with the seed committed
        // before, and the new commitment is for the next opening.
        if self.opening_seeds != before.opening_seeds && !self.opening_seeds.is_empty() {
            room_events.push(pb::room_event::Event::OpeningDrawSeedCommitted(pb::OpeningDrawSeedCommitted {
                next_opening_draw_seed_commitment: self.opening_commitment(),
            }));
        }

        let numbers: BTreeSet<u64> = before.tables.keys().chain(self.tables.keys()).copied().collect();
        for number in numbers {
            let Some(meta) = self.tables.get(&number) else { continue };
            let old = before.tables.get(&number).map(|t| t.view.clone()).unwrap_or_default();
            let mut view = self.table_view(meta);
            let events = self.table_events(number, &old, &view, entry, started, reasons, changes);
            if events.is_empty() {
                continue;
            }
            let Some(t) = self.tables.get_mut(&number) else { continue };
            for event in events {
                t.events += 1;
                changes.table_events.push(pb::TableEvent {
                    sequence: t.events,
                    occurred_at: Some(timestamp(at)),
                    table_id: t.id.clone(),
                    event: Some(event),
                });
            }
            view.version = t.events;
            t.view = view.clone();
            changes.tables.push(view.clone());
            room_events.push(pb::room_event::Event::TableChanged(view));
        }
        // A closed table changes no more: it leaves the live room (the projection keeps it).
        self.tables.retain(|_, t| t.closed.is_none());

        for (n, p) in &presence {
            if before.presence.get(n).is_some_and(|old| old != p) {
                room_events.push(pb::room_event::Event::PresenceChanged(p.clone()));
            }
        }
        for n in before.presence.keys() {
            if !presence.contains_key(n) {
                room_events
                    .push(pb::room_event::Event::PlayerLeft(pb::PlayerLeftRoom { player_id: self.player_id(*n) }));
            }
        }
        self.presence = presence;
        for event in room_events {
            self.room_events += 1;
            changes.room_events.push(pb::RoomEvent {
                sequence: self.room_events,
                occurred_at: Some(timestamp(at)),
                event: Some(event),
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn table_events(
        &self,
        number: u64,
        old: &pb::Table,
        new: &pb::Table,
        entry: &Entry,
        started: &[u64],
        reasons: &HashMap<(u64, u64), pb::MemberLeftReason>,
        changes: &Changes,
    ) -> Vec<pb::table_event::Event> {
        use pb::table_event::Event as E;
        let mut events = Vec::new();
        let table_id = self.table_id(number);
        let entry_draws: Vec<&pb::Draw> = changes.draws.iter().filter(|d| d.table_id == table_id).collect();
        if started.contains(&number) {
            let first = entry_draws.iter().find(|d| d.purpose != pb::DrawPurpose::Precedence as i32);
            events.push(E::DrawStarted(pb::DrawStarted {
                draw_id: first.map(|d| d.draw_id.clone()).unwrap_or_default(),
                purpose: first.map_or(pb::DrawPurpose::Partnerships as i32, |d| d.purpose),
            }));
        }
        for draw in &entry_draws {
            events.push(E::DrawUpdated((*draw).clone()));
        }
        let new_members: HashMap<&str, &pb::Member> = new.members.iter().map(|m| (m.player_id.as_str(), m)).collect();
        let old_members: HashMap<&str, &pb::Member> = old.members.iter().map(|m| (m.player_id.as_str(), m)).collect();
        for m in &old.members {
            if !new_members.contains_key(m.player_id.as_str()) {
                let reason = self
                    .number_of(&m.player_id)
                    .and_then(|p| reasons.get(&(number, p)))
                    .copied()
                    .unwrap_or(pb::MemberLeftReason::Left);
                events.push(E::MemberLeft(pb::MemberLeft { player_id: m.player_id.clone(), reason: reason as i32 }));
            }
        }
        for m in &new.members {
            if !old_members.contains_key(m.player_id.as_str()) {
                events.push(E::MemberJoined(m.clone()));
            }
        }
        let old_queue: HashMap<&str, u32> =
            old.queue.iter().map(|a| (a.application_id.as_str(), a.queue_position)).collect();
        let mut reported = BTreeSet::new();
        for application in changes.applications.iter().filter(|a| a.table_id == table_id) {
            reported.insert(application.application_id.clone());
            let queued_now = new.queue.iter().find(|a| a.application_id == application.application_id);
            if old_queue.contains_key(application.application_id.as_str()) {
                events.push(E::ApplicationChanged(application.clone()));
            } else {
                events.push(E::ApplicationMade(queued_now.cloned().unwrap_or_else(|| application.clone())));
            }
        }
        for application in &new.queue {
            if reported.contains(&application.application_id) {
                continue;
            }
            match old_queue.get(application.application_id.as_str()) {
                None => events.push(E::ApplicationMade(application.clone())),
                Some(place) if *place != application.queue_position => {
                    events.push(E::ApplicationChanged(application.clone()))
                }
                Some(_) => {}
            }
        }
        if let Command::StartRubber { table, .. } = &entry.command
            && *table == number
            && let Some(rubber) = &new.current_rubber
        {
            events.push(E::RubberStarted(rubber.clone()));
        }
        for (rubber, going_out) in &changes.rubbers {
            if rubber.table_id == table_id && rubber.ended_at.is_some() {
                events.push(E::RubberEnded(pb::RubberEnded {
                    rubber: Some(rubber.clone()),
                    going_out: going_out.clone(),
                }));
            }
        }
        for m in &new.members {
            if let Some(old) = old_members.get(m.player_id.as_str())
                && *old != m
            {
                events.push(E::MemberChanged(m.clone()));
            }
        }
        if old.options.is_some() && old.options != new.options {
            events.push(E::OptionsChanged(new.options.clone().unwrap_or_default()));
        }
        if old.next_draw_seed_commitments != new.next_draw_seed_commitments
            && !new.next_draw_seed_commitments.is_empty()
        {
            events.push(E::DrawSeedsCommitted(pb::DrawSeedsCommitted {
                next_draw_seed_commitments: new.next_draw_seed_commitments.clone(),
            }));
        }
        if new.status == pb::TableStatus::Closed as i32 && old.status != pb::TableStatus::Closed as i32 {
            let reason = self.tables.get(&number).and_then(|t| t.closed.as_ref()).map(|(_, r)| r.clone());
            events.push(E::TableClosed(pb::TableClosed { reason: reason.unwrap_or_default() }));
        }
        events
    }
}

/// Committed seeds as the journal keeps them (hex).
fn decode_seeds(seeds: &[String]) -> Result<Vec<[u8; 32]>, ServiceError> {
    seeds
        .iter()
        .map(|s| {
            hex::decode(s)
                .ok()
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .ok_or_else(|| ServiceError::internal("journal: a committed seed is not 32 bytes of hex"))
        })
        .collect()
}

/// The contract's table kind of a form.
pub fn table_kind(form: Form) -> api::common::v1::TableKind {
    match form {
        Form::Rubber => api::common::v1::TableKind::Rubber,
        Form::Chicago => api::common::v1::TableKind::Chicago,
    }
}

/// The contract's view of a table's options.
pub fn options_view(options: &Options) -> pb::TableOptions {
    pb::TableOptions {
        no_consecutive_partners: options.no_consecutive_partners,
        pivot: options.pivot,
        chicago_swap_vulnerability: options.chicago_swap_vulnerability,
        club_laws: options.club_laws,
        arbiter_player_id: options.arbiter_player_id.clone(),
    }
}

/// The contract's view of a draw, for audit: every card, position, redraw and reason, the order,
/// and for a server draw the seed and its commitment.
pub fn draw_view(table_id: &str, draw: &DrawRecord, player_id: impl Fn(u64) -> String) -> pb::Draw {
    let purpose = match draw.purpose {
        Purpose::Partnerships => pb::DrawPurpose::Partnerships,
        Purpose::Precedence => pb::DrawPurpose::Precedence,
        Purpose::GoingOut => pb::DrawPurpose::GoingOut,
        Purpose::EntryFromOtherTable => pb::DrawPurpose::EntryFromOtherTable,
    };
    let drawings = draw
        .drawings
        .iter()
        .map(|d| {
            let reason = match d.redraw {
                None => pb::RedrawReason::Unspecified,
                Some(Redraw::MoreThanOneCard) => pb::RedrawReason::MoreThanOneCard,
                Some(Redraw::EndOfSpread) => pb::RedrawReason::EndOfSpread,
                Some(Redraw::AdjoiningCard) => pb::RedrawReason::AdjoiningCard,
                Some(Redraw::OtherDeck) => pb::RedrawReason::OtherDeck,
            };
            pb::DrawnCard {
                player_id: player_id(d.player),
                card: d.card.parse::<laws::Card>().ok().map(api::common::v1::Card::from),
                spread_position: u32::from(d.position),
                deck: u32::from(d.deck),
                more_than_one_card: d.more_than_one_card,
                valid: d.redraw.is_none(),
                redraw_reason: reason as i32,
                law: d.redraw.map(|_| Law::rubber(3, "").into()),
            }
        })
        .collect();
    let complete = draw.is_complete();
    let order = if complete {
        PrecedenceDraw::new(&draw.cards()).map(|d| d.ranked().map(|p| player_id(p.0)).collect()).unwrap_or_default()
    } else {
        Vec::new()
    };
    let seed: Option<[u8; 32]> =
        draw.seed.as_deref().and_then(|s| hex::decode(s).ok()).and_then(|bytes| bytes.try_into().ok());
    pb::Draw {
        draw_id: draw.draw_id.clone(),
        table_id: table_id.to_owned(),
        purpose: purpose as i32,
        method: if draw.physical { pb::DrawMethod::Physical } else { pb::DrawMethod::Server } as i32,
        player_ids: draw.players.iter().map(|p| player_id(*p)).collect(),
        drawings,
        order,
        status: if complete { pb::DrawStatus::Complete } else { pb::DrawStatus::AwaitingDraws } as i32,
        awaiting_player_ids: draw.awaiting().into_iter().map(&player_id).collect(),
        started_at: draw.started_at.map(timestamp),
        completed_at: draw.completed_at.map(timestamp),
        seed_commitment: seed.map(|s| DrawSeed(s).commitment().to_vec()).unwrap_or_default(),
        seed: seed.map(|s| s.to_vec()).unwrap_or_default(),
        seed_committed_before_draw: !draw.physical && draw.committed_before,
    }
}
