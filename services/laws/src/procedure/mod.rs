//! The Rules for Club Procedure (Laws of Rubber Bridge 2014, Part VIII, rules A-F): who is a
//! member of which table, in what order applicants become members, who plays each rubber and
//! who sits out, as a state machine over events for one club room.
//!
//! The membership service stores [`ProcedureEvent`]s and rebuilds a [`Room`] by replaying
//! them. [`Room::apply`] is pure: it returns the next room and what happened ([`Outcome`]s),
//! or a [`ProcedureError`] naming the rule, and never changes the room it was given. Draws are
//! inputs: when a rule calls for drawing cards, [`Room::formation_draw`],
//! [`Room::application_draw`] and [`Room::next_draw`] say who must draw and why; the service
//! performs the draw (for example with [`crate::draw::Spread::server_draw`]) and puts the
//! cards in the next event, so a replay never draws again.
//!
//! The readings of the rules this module implements, where the text leaves a choice, are the
//! project's (docs/laws-readings.md, "Club procedure readings") and are restated on each item.
//!
//! ```
//! use laws::cards::Card;
//! use laws::draw::{DrawnCard, PlayerId};
//! use laws::procedure::{Outcome, ProcedureEvent, Room, TableId, TableOptions, Timestamp};
//! use laws::deal::GameForm;
//!
//! let mut room = Room::new();
//! let players: Vec<PlayerId> = (1..=5).map(PlayerId).collect();
//! for (i, p) in players.iter().enumerate() {
//!     let at = Timestamp(1_000 * i as i64);
//!     room = room.apply(&ProcedureEvent::Entered { player: *p, at }).unwrap().0;
//! }
//! // Five players who have not played form a table: precedence is the order of entry into the
//! // room (rule C), so no draw is needed and the first four play the first rubber.
//! assert_eq!(room.formation_draw(&players).unwrap(), None);
//! let formed = ProcedureEvent::TableFormed {
//!     table: TableId(1),
//!     form: GameForm::Rubber,
//!     options: TableOptions::default(),
//!     applicants: players.clone(),
//!     returning_fourths: vec![],
//!     draw: vec![],
//!     at: Timestamp(10_000),
//! };
//! let (room, outcomes) = room.apply(&formed).unwrap();
//! assert!(matches!(&outcomes[0], Outcome::TableFormed { first_rubber, .. } if first_rubber[..] == players[..4]));
//!
//! // A sixth player cuts in: the table is incomplete, so he is a member at once (rule D).
//! let (room, _) = room.apply(&ProcedureEvent::Entered { player: PlayerId(6), at: Timestamp(11_000) }).unwrap();
//! let cut_in = ProcedureEvent::Applied {
//!     table: TableId(1),
//!     players: vec![PlayerId(6)],
//!     draw: vec![],
//!     at: Timestamp(12_000),
//! };
//! let (room, _) = room.apply(&cut_in).unwrap();
//! assert!(room.table(TableId(1)).unwrap().is_complete());
//! ```

// The room and its queries are here, with the dispatch of each event; the types a service
// exchanges with the room, a table's state, and the rules each event applies (membership,
// fourths, rubbers, precedence, line-ups) are in modules of their own.
mod error;
mod events;
mod fourths;
mod lineup;
mod membership;
mod outcome;
mod outlook;
mod precedence;
mod rubbers;
mod table;

use std::collections::BTreeMap;
use std::fmt;

pub use crate::draw::PlayerId;
use crate::draw::{DrawnCard, PrecedenceDraw};
use crate::law::Law;

pub use error::ProcedureError;
pub use events::{PartnershipSource, ProcedureEvent};
pub use lineup::{GoingOut, LineUp};
pub use outcome::Outcome;
pub use outlook::Outlook;
pub use table::{Member, Table, TablePhase};

use table::Phase;

/// A table in the room, by the membership service's key (Rules for Club Procedure A: the
/// table a member has the right to play at).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct TableId(pub u64);

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table {}", self.0)
    }
}

/// A moment, in milliseconds since an epoch the service chooses (Rules for Club Procedure B
/// and C: the time limit on the right to play and the order of entry). Events carry it; this
/// crate never reads a clock. Precedence by "order of entry into the room" (rule C) is the order of
/// the entry events, so two entries in the same millisecond are still ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub struct Timestamp(pub i64);

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

/// The club options a table plays under (Appendix 4 H3, Appendix 4 B footnote 32, Appendix 4
/// C). All off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct TableOptions {
    /// Appendix 4 H3: no two players may play a second consecutive rubber as partners at the
    /// same table; if they draw each other again, highest plays with third-highest.
    pub no_consecutive_partners: bool,
    /// Appendix 4 B, footnote 32: partnerships follow a fixed rotation over the three rubbers
    /// of a pivot among four players; taking the proper seats counts as the cut for partners.
    pub pivot: bool,
    /// Appendix 4 C (Chicago): by mutual agreement the vulnerability on the second and third
    /// deals is switched (the dealer's side not vulnerable, the other side vulnerable).
    pub chicago_vulnerability_switched: bool,
}

/// Why cards must be drawn, which decides what the draw settles and the rule it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum DrawPurpose {
    /// Rule C: precedence between applicants of equal rank forming a new table, or, as its first
    /// rubber is drawn for, between its members of equal rank straddling the fourth place (the
    /// four highest-ranking members play the first rubber).
    Formation,
    /// Rule D: precedence between applications made at the same time, in excess of the places
    /// needed to complete the table.
    CutIn,
    /// Rule E: a tie for "the greatest number of consecutive rubbers"; the lowest cards go out.
    GoingOut,
    /// Rule E: which member would otherwise have played, when that is itself a tie (needed
    /// before a member from another table can draw against him).
    WouldOtherwisePlay,
    /// Rule E: a member who has left another existing table draws for his first rubber with
    /// the member who would otherwise have played; the higher card plays.
    LeaverEntry,
    /// Law 3: the draw for partnerships and the first dealer.
    Partnerships,
}

impl DrawPurpose {
    /// The rule or Law the draw follows.
    pub const fn law(self) -> Law {
        match self {
            DrawPurpose::Formation => Law::club_procedure('C'),
            DrawPurpose::CutIn => Law::club_procedure('D'),
            DrawPurpose::GoingOut | DrawPurpose::WouldOtherwisePlay | DrawPurpose::LeaverEntry => {
                Law::club_procedure('E')
            }
            DrawPurpose::Partnerships => Law::rubber(3, ""),
        }
    }
}

impl fmt::Display for DrawPurpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawPurpose::Formation => "the draw for precedence in forming the table",
            DrawPurpose::CutIn => "the draw for precedence between simultaneous applications",
            DrawPurpose::GoingOut => "the draw for who goes out",
            DrawPurpose::WouldOtherwisePlay => "the draw for who would otherwise have played",
            DrawPurpose::LeaverEntry => "the draw of a member from another table for his first rubber",
            DrawPurpose::Partnerships => "the draw for partnerships",
        })
    }
}

/// A draw the room is waiting for: who must draw, and why. Each player draws one card; the
/// result goes into the next event as [`DrawnCard`]s.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawNeeded {
    /// The table, or `None` for a table not yet formed.
    pub table: Option<TableId>,
    /// Why.
    pub purpose: DrawPurpose,
    /// Who draws, in the order the room knows them (not a precedence).
    pub players: Vec<PlayerId>,
}

/// A player in the room.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Player {
    entered: Option<(Timestamp, u64)>,
    has_played: bool,
    left_table: Option<TableId>,
}

/// The penalty for breaking up a game (rule E): a player who left three players at a table may
/// not compete against them for entry at another table until each has played at least one
/// rubber. The reading (docs/laws-readings.md, "Breaking up a game (rule E)"): it lasts, per
/// player left behind, until that player has finished a rubber.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct BreakerRestriction {
    breaker: PlayerId,
    table: TableId,
    protected: Vec<PlayerId>,
}

impl BreakerRestriction {
    /// The player who broke up the game.
    pub const fn breaker(&self) -> PlayerId {
        self.breaker
    }

    /// The table he broke up.
    pub const fn table(&self) -> TableId {
        self.table
    }

    /// The players left behind who have not yet finished a rubber: he may not compete
    /// against them.
    pub fn protected(&self) -> &[PlayerId] {
        &self.protected
    }

    /// Whether the breaker may not compete against `player`.
    pub fn protects(&self, player: PlayerId) -> bool {
        self.protected.contains(&player)
    }
}

/// Why a member's membership ends, for the outcome reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Departure {
    /// He left.
    Left,
    /// Rule F: he became a member of another table.
    RuleF,
    /// He returned to his own table after making a fourth (rule F).
    Returned,
}

/// One club room: the players present, the tables, and the breaker restrictions, as the Rules
/// for Club Procedure make them. Built by replaying [`ProcedureEvent`]s through
/// [`Room::apply`].
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Room {
    events: u64,
    now: Timestamp,
    players: BTreeMap<PlayerId, Player>,
    tables: BTreeMap<TableId, Table>,
    restrictions: Vec<BreakerRestriction>,
}

impl Room {
    /// An empty room: nobody has entered (rule C orders players by entry).
    pub fn new() -> Room {
        Room::default()
    }

    /// Replays a journal of events from an empty room (the Rules for Club Procedure applied
    /// event by event). On a refused event, returns its index and the error.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a ProcedureEvent>) -> Result<Room, (usize, ProcedureError)> {
        let mut room = Room::new();
        for (i, event) in events.into_iter().enumerate() {
            room = room.apply(event).map_err(|e| (i, e))?.0;
        }
        Ok(room)
    }

    /// How many events have been applied: their order is what rule B's time limit compares.
    pub const fn events(&self) -> u64 {
        self.events
    }

    /// The time of the latest event (rule B).
    pub const fn now(&self) -> Timestamp {
        self.now
    }

    /// The table `id`, if it exists (rule A).
    pub fn table(&self, id: TableId) -> Option<&Table> {
        self.tables.get(&id)
    }

    /// All tables, by key (rule A).
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    /// Whether `player` is in the room (rule C).
    pub fn is_present(&self, player: PlayerId) -> bool {
        self.players.get(&player).is_some_and(|p| p.entered.is_some())
    }

    /// When `player` entered the room, if he is in it (rule C: order of entry).
    pub fn entered_at(&self, player: PlayerId) -> Option<Timestamp> {
        self.players.get(&player).and_then(|p| p.entered).map(|(at, _)| at)
    }

    /// Whether `player` has played a rubber in this room (rule C: those who have not played
    /// take precedence over those who have). He has played once a rubber he is in has started.
    pub fn has_played(&self, player: PlayerId) -> bool {
        self.players.get(&player).is_some_and(|p| p.has_played)
    }

    /// The tables `player` is a member of: one, or two while he makes a fourth with an
    /// announced return (rule F).
    pub fn tables_of(&self, player: PlayerId) -> Vec<TableId> {
        self.tables.values().filter(|t| t.is_member(player)).map(|t| t.id).collect()
    }

    /// The breaker restrictions in force (rule E).
    pub fn restrictions(&self) -> &[BreakerRestriction] {
        &self.restrictions
    }

    /// Whether `breaker` may not compete against `player` for entry at a table (rule E).
    pub fn is_restricted(&self, breaker: PlayerId, player: PlayerId) -> bool {
        self.restrictions.iter().any(|r| r.breaker == breaker && r.protects(player))
    }

    /// Whether `player` is leaving an existing table (rule C: such players rank lowest): he is
    /// a member of a table, or left one that still exists and has joined none since.
    pub fn is_leaving_a_table(&self, player: PlayerId) -> bool {
        !self.tables_of(player).is_empty() || self.left_existing_table(player).is_some()
    }

    /// The table `player` last left, if it still exists and he has joined none since.
    fn left_existing_table(&self, player: PlayerId) -> Option<TableId> {
        self.players.get(&player).and_then(|p| p.left_table).filter(|t| self.tables.contains_key(t))
    }

    /// The waiting list of `table` in the order its applicants will become members: order of
    /// application, except that a breaker comes after every player he may not compete against
    /// (rule E). An applicant playing a rubber at another table keeps his place but is passed
    /// over until that rubber ends (rule F; see [`Outcome::ApplicationHeld`]).
    pub fn waiting_list(&self, table: TableId) -> Vec<PlayerId> {
        let mut order = self.tables.get(&table).map(|t| t.waiting.clone()).unwrap_or_default();
        precedence::demote_breakers(&mut order, &self.restrictions);
        order
    }

    /// The draw needed before `applicants` can form a table (rule C), if any: a draw between
    /// applicants of equal rank, when their order decides who plays the first rubber, who is
    /// a member, or places on the waiting list. Fails as [`Room::apply`] would on the
    /// applicants.
    pub fn formation_draw(&self, applicants: &[PlayerId]) -> Result<Option<DrawNeeded>, ProcedureError> {
        self.check_applicants(applicants)?;
        Ok(precedence::formation_order(self, applicants, None).err())
    }

    /// The draw needed before `players`, applying at the same time, can be admitted to
    /// `table` (rule D), if any: when there are more of them than places to complete the
    /// table. Fails as [`Room::apply`] would on the application.
    pub fn application_draw(&self, table: TableId, players: &[PlayerId]) -> Result<Option<DrawNeeded>, ProcedureError> {
        let t = self.check_application(table, players)?;
        Ok(precedence::application_draw(t, players))
    }

    /// The draw that orders applications waiting at `table` once the desk marks them as made
    /// at the same time (rule D): always needed, among all of them.
    pub fn joined_draw(&self, table: TableId, players: &[PlayerId]) -> Result<DrawNeeded, ProcedureError> {
        let t = self.table_ref(table)?;
        if players.len() < 2 {
            return Err(ProcedureError::NoApplicant);
        }
        self.check_applicants(players)?;
        if let Some(player) = players.iter().find(|p| !t.waiting.contains(p)) {
            return Err(ProcedureError::NotWaiting { player: *player, table });
        }
        Ok(DrawNeeded { table: Some(table), purpose: DrawPurpose::CutIn, players: players.to_vec() })
    }

    /// The draw `table` is waiting for, if any: during the line-up for a rubber, a draw under
    /// rule C (the first rubber) or rule E (the others), or once the line-up is settled the draw
    /// for partnerships (Law 3), unless the table's pivot gives them (Appendix 4 B).
    pub fn next_draw(&self, table: TableId) -> Option<DrawNeeded> {
        let t = self.tables.get(&table)?;
        match lineup::resolve(self, t)? {
            Ok(line_up) => match t.usable_pivot(&line_up.playing) {
                Some(_) => None,
                None => Some(DrawNeeded {
                    table: Some(table),
                    purpose: DrawPurpose::Partnerships,
                    players: line_up.playing.to_vec(),
                }),
            },
            Err(needed) => Some(needed),
        }
    }

    /// Who plays the rubber being drawn for at `table`, once the draws rules C and E call for
    /// are made; `None` if the table is not lining up or a draw is still needed.
    pub fn line_up(&self, table: TableId) -> Option<LineUp> {
        lineup::resolve(self, self.tables.get(&table)?)?.ok()
    }

    /// Who would come in and go out at `table` if the draw for its next rubber started now (rule
    /// E; see [`GoingOut`]); `None` if there is no such table or it has not played a rubber.
    pub fn going_out_preview(&self, table: TableId) -> Option<GoingOut> {
        lineup::preview(self.tables.get(&table)?)
    }

    /// Applies one event: the next room and what happened, or the rule that refuses it. The
    /// room itself is never changed.
    pub fn apply(&self, event: &ProcedureEvent) -> Result<(Room, Vec<Outcome>), ProcedureError> {
        let at = event.at();
        if at < self.now {
            return Err(ProcedureError::TimeWentBackwards { at, now: self.now });
        }
        let mut next = self.clone();
        next.now = at;
        let mut out = Vec::new();
        match event {
            ProcedureEvent::Entered { player, .. } => next.enter(*player)?,
            ProcedureEvent::EntryCorrected { player, entered_at, .. } => next.correct_entry(*player, *entered_at)?,
            ProcedureEvent::LeftRoom { player, .. } => next.leave_room(*player, &mut out)?,
            ProcedureEvent::TableFormed { table, form, options, applicants, returning_fourths, draw, .. } => {
                next.form_table(*table, *form, *options, applicants, returning_fourths, draw, &mut out)?
            }
            ProcedureEvent::Applied { table, players, draw, .. } => next.cut_in(*table, players, draw, &mut out)?,
            ProcedureEvent::Withdrew { player, table, .. } => next.withdraw(*player, *table, &mut out)?,
            ProcedureEvent::ApplicationsJoined { table, players, draw, .. } => {
                next.join_applications(*table, players, draw)?
            }
            ProcedureEvent::MadeFourth { player, table, announced_return, .. } => {
                next.make_fourth(*player, *table, *announced_return, &mut out)?
            }
            ProcedureEvent::ReturnedHome { player, .. } => next.return_home(*player, &mut out)?,
            ProcedureEvent::LeftTable { player, table, .. } => {
                if !next.table_ref(*table)?.is_member(*player) {
                    return Err(ProcedureError::NotMember { player: *player, table: *table });
                }
                next.depart(*player, *table, Departure::Left, &mut out);
            }
            ProcedureEvent::DrawStarted { table, .. } => next.start_draw(*table, &mut out)?,
            ProcedureEvent::LineUpDrawn { table, purpose, draw, .. } => {
                next.line_up_drawn(*table, *purpose, draw, &mut out)?
            }
            ProcedureEvent::RubberStarted { table, partnerships, .. } => {
                next.start_rubber(*table, partnerships, &mut out)?
            }
            ProcedureEvent::RubberEnded { table, completed, .. } => {
                if !matches!(next.table_ref(*table)?.phase, Phase::Playing { .. }) {
                    return Err(ProcedureError::NoRubberInProgress { table: *table });
                }
                next.end_rubber(*table, *completed, &mut out);
            }
            ProcedureEvent::OptionsChanged { table, options, .. } => next.table_mut(*table)?.options = *options,
            ProcedureEvent::TableClosed { table, .. } => next.close_table(*table, &mut out)?,
        }
        next.settle_vacancies(&mut out);
        next.events += 1;
        next.report_fills_that_may_end(self, &mut out);
        Ok((next, out))
    }

    /// The table `table`, or the refusal that it does not exist (rule D).
    fn table_ref(&self, table: TableId) -> Result<&Table, ProcedureError> {
        self.tables.get(&table).ok_or(ProcedureError::NoSuchTable { table })
    }

    /// The table `table` to change, or the refusal that it does not exist (rule D).
    fn table_mut(&mut self, table: TableId) -> Result<&mut Table, ProcedureError> {
        self.tables.get_mut(&table).ok_or(ProcedureError::NoSuchTable { table })
    }

    /// Applicants are in the room, each once (rule C).
    fn check_applicants(&self, applicants: &[PlayerId]) -> Result<(), ProcedureError> {
        for (i, p) in applicants.iter().enumerate() {
            if applicants[..i].contains(p) {
                return Err(ProcedureError::DuplicateApplicant { player: *p });
            }
            if !self.is_present(*p) {
                return Err(ProcedureError::NotInRoom { player: *p });
            }
        }
        Ok(())
    }

    /// An application to `table` names at least one player, none a member or waiting there
    /// already (rule D).
    fn check_application(&self, table: TableId, players: &[PlayerId]) -> Result<&Table, ProcedureError> {
        let t = self.table_ref(table)?;
        if players.is_empty() {
            return Err(ProcedureError::NoApplicant);
        }
        self.check_applicants(players)?;
        for p in players {
            if t.is_member(*p) {
                return Err(ProcedureError::AlreadyMember { player: *p, table });
            }
            if t.waiting.contains(p) {
                return Err(ProcedureError::AlreadyWaiting { player: *p, table });
            }
        }
        Ok(t)
    }

    /// Applications waiting at `table` marked as made together (rule D), ordered by `draw`.
    fn join_applications(
        &mut self,
        table: TableId,
        players: &[PlayerId],
        draw: &[DrawnCard],
    ) -> Result<(), ProcedureError> {
        let needed = self.joined_draw(table, players)?;
        let draw = Self::check_draw(Some(&needed), DrawPurpose::CutIn, draw)?.ok_or(ProcedureError::NoApplicant)?;
        let mut order = draw.order(players);
        precedence::demote_breakers(&mut order, &self.restrictions);
        let t = self.table_mut(table)?;
        let first = t.waiting.iter().position(|p| players.contains(p)).unwrap_or(0);
        t.waiting.retain(|p| !players.contains(p));
        let at = first.min(t.waiting.len());
        t.waiting.splice(at..at, order);
        Ok(())
    }

    /// Checks the cards of an event against the draw the rules call for.
    fn check_draw(
        needed: Option<&DrawNeeded>,
        purpose: DrawPurpose,
        given: &[DrawnCard],
    ) -> Result<Option<PrecedenceDraw>, ProcedureError> {
        let expected: Vec<PlayerId> = needed.map(|n| n.players.clone()).unwrap_or_default();
        let given_players: Vec<PlayerId> = given.iter().map(|d| d.player).collect();
        let same = expected.len() == given_players.len() && expected.iter().all(|p| given_players.contains(p));
        if !same || needed.is_some_and(|n| n.purpose != purpose) {
            let purpose = needed.map_or(purpose, |n| n.purpose);
            return Err(ProcedureError::WrongDraw { purpose, expected, given: given_players, law: purpose.law() });
        }
        if given.is_empty() { Ok(None) } else { Ok(Some(PrecedenceDraw::new(given)?)) }
    }
}
