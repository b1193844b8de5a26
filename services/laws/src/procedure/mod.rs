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

mod lineup;
mod precedence;

use std::collections::BTreeMap;
use std::fmt;

use crate::deal::GameForm;
pub use crate::draw::PlayerId;
use crate::draw::{DrawError, DrawnCard, PartnershipDraw, Partnerships, PivotSchedule, PrecedenceDraw};
use crate::law::{CitesLaw, Law};

pub use lineup::{GoingOut, LineUp};

/// A table in the room, by the membership service's key (Rules for Club Procedure A: the
/// table a member has the right to play at).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Timestamp(pub i64);

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

/// The club options a table plays under (Appendix 4 H3, Appendix 4 B footnote 32, Appendix 4
/// C). All off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawPurpose {
    /// Rule C: precedence between applicants of equal rank forming a new table.
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

/// How the partnerships of a rubber are settled (Law 3: by the draw "unless it is otherwise
/// agreed"; Appendix 4 B: in a pivot game, by the fixed rotation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartnershipSource {
    /// The four players' cards from the draw before the rubber (Law 3).
    Drawn([DrawnCard; 4]),
    /// Partnerships the four players agreed (Law 3: "unless it is otherwise agreed"). The first
    /// dealer is then also theirs to agree; the Laws do not fix him.
    Agreed(Partnerships),
    /// The next rubber of the table's pivot (Appendix 4 B, footnote 32).
    Pivot,
}

/// Something that happened in the room: the membership service's journal entry. Every event
/// carries its time; events must come in time order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ProcedureEvent {
    /// A player entered the room. His entry time orders precedence among players who have not
    /// played (rule C).
    Entered {
        /// The player.
        player: PlayerId,
        /// When.
        at: Timestamp,
    },
    /// A player left the room: he gives up every membership and application.
    LeftRoom {
        /// The player.
        player: PlayerId,
        /// When.
        at: Timestamp,
    },
    /// A new table was formed by four or more applicants (rule C).
    TableFormed {
        /// The new table's key.
        table: TableId,
        /// Rubber bridge or Chicago.
        form: GameForm,
        /// The table's club options.
        options: TableOptions,
        /// The applicants, four or more.
        applicants: Vec<PlayerId>,
        /// Applicants who, on request, make a fourth and announce that they will return to
        /// their own table as soon as their place can be filled; they keep that membership
        /// (rule F). Only when the table could not otherwise be formed.
        returning_fourths: Vec<PlayerId>,
        /// The precedence draw [`Room::formation_draw`] asked for (empty if none).
        draw: Vec<DrawnCard>,
        /// When.
        at: Timestamp,
    },
    /// Players applied to an existing table at the same time (rule D). One player applying is
    /// a batch of one.
    Applied {
        /// The table.
        table: TableId,
        /// The applicants.
        players: Vec<PlayerId>,
        /// The precedence draw [`Room::application_draw`] asked for (empty if none).
        draw: Vec<DrawnCard>,
        /// When.
        at: Timestamp,
    },
    /// A waiting applicant withdrew his application.
    Withdrew {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
        /// When.
        at: Timestamp,
    },
    /// A player, on request, made a fourth at a table of three (rule F). With an announced
    /// return he keeps his membership of his own table; without, he loses it.
    MadeFourth {
        /// The player.
        player: PlayerId,
        /// The table he makes a fourth at.
        table: TableId,
        /// Whether he announced that he will return to his table as soon as his place can be
        /// filled.
        announced_return: bool,
        /// When.
        at: Timestamp,
    },
    /// A player who made a fourth with an announced return went back to his own table, his
    /// place at the other table being filled (rule F).
    ReturnedHome {
        /// The player.
        player: PlayerId,
        /// When.
        at: Timestamp,
    },
    /// A member left a table.
    LeftTable {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
        /// When.
        at: Timestamp,
    },
    /// The first card of the draw for the next rubber at a table was drawn (rule B): only
    /// members from before this moment can play that rubber.
    DrawStarted {
        /// The table.
        table: TableId,
        /// When.
        at: Timestamp,
    },
    /// Cards drawn to settle who plays the next rubber (rule E), as [`Room::next_draw`] asked.
    LineUpDrawn {
        /// The table.
        table: TableId,
        /// Which draw.
        purpose: DrawPurpose,
        /// The cards.
        draw: Vec<DrawnCard>,
        /// When.
        at: Timestamp,
    },
    /// The rubber began: partnerships settled, the four players seated.
    RubberStarted {
        /// The table.
        table: TableId,
        /// How the partnerships were settled.
        partnerships: PartnershipSource,
        /// When.
        at: Timestamp,
    },
    /// The rubber ended: `completed` if it was played out (or its four Chicago deals played),
    /// `false` if it was abandoned and scored under Law 80.
    RubberEnded {
        /// The table.
        table: TableId,
        /// Whether the rubber was finished.
        completed: bool,
        /// When.
        at: Timestamp,
    },
    /// The table's club options changed (Appendix 4 H3, Appendix 4 B footnote 32, Appendix 4 C).
    /// They are read when a rubber starts, so they govern the next rubber, never the one in
    /// progress.
    OptionsChanged {
        /// The table.
        table: TableId,
        /// The new options.
        options: TableOptions,
        /// When.
        at: Timestamp,
    },
    /// The club closed the table (Rules for Club Procedure A: a table is where members have the
    /// right to play; once it is closed there is none). Every membership ends and every waiting
    /// application lapses. Nobody broke up the game, so no breaker restriction follows (rule E
    /// penalises a player who leaves three players, not the club). A rubber in progress must have
    /// ended first (Law 80 scores an unfinished one).
    TableClosed {
        /// The table.
        table: TableId,
        /// When.
        at: Timestamp,
    },
}

impl ProcedureEvent {
    /// When the event happened.
    pub const fn at(&self) -> Timestamp {
        match self {
            ProcedureEvent::Entered { at, .. }
            | ProcedureEvent::LeftRoom { at, .. }
            | ProcedureEvent::TableFormed { at, .. }
            | ProcedureEvent::Applied { at, .. }
            | ProcedureEvent::Withdrew { at, .. }
            | ProcedureEvent::MadeFourth { at, .. }
            | ProcedureEvent::ReturnedHome { at, .. }
            | ProcedureEvent::LeftTable { at, .. }
            | ProcedureEvent::DrawStarted { at, .. }
            | ProcedureEvent::LineUpDrawn { at, .. }
            | ProcedureEvent::RubberStarted { at, .. }
            | ProcedureEvent::RubberEnded { at, .. }
            | ProcedureEvent::OptionsChanged { at, .. }
            | ProcedureEvent::TableClosed { at, .. } => *at,
        }
    }
}

/// What an event did: what the membership service tells the players and the desk.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A table was formed (rule C): its members in precedence order (at most six) and the four
    /// who play the first rubber.
    TableFormed {
        /// The table.
        table: TableId,
        /// The members, highest precedence first.
        members: Vec<PlayerId>,
        /// The four highest-ranking members, who play the first rubber.
        first_rubber: Vec<PlayerId>,
    },
    /// A player became a member of an existing table (rule D), at once or from the waiting
    /// list when a vacancy occurred.
    MemberJoined {
        /// The table.
        table: TableId,
        /// The new member.
        player: PlayerId,
        /// The existing table he left to join, if any (rule C: he ranks lowest; rule E: he
        /// draws for his first rubber).
        from_table: Option<TableId>,
    },
    /// An applicant is not (yet) a member: the table is complete, and he is told his place on
    /// its waiting list, counting from 1 (rules C and D).
    Waiting {
        /// The table.
        table: TableId,
        /// The applicant.
        player: PlayerId,
        /// His place in the waiting list.
        place: usize,
    },
    /// An application was withdrawn (or dropped because the applicant left the room).
    ApplicationWithdrawn {
        /// The table.
        table: TableId,
        /// The applicant.
        player: PlayerId,
    },
    /// A member lost his membership of a table by becoming a member of another (rule F).
    MembershipLost {
        /// The table he lost.
        table: TableId,
        /// The player.
        player: PlayerId,
    },
    /// A member left a table.
    MemberLeft {
        /// The table.
        table: TableId,
        /// The player.
        player: PlayerId,
    },
    /// A member makes a fourth at another table, keeping his own membership (rule F).
    FillStarted {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he makes a fourth at.
        host: TableId,
    },
    /// His place at the other table can now be filled, so he may return (rule F).
    FillMayEnd {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he made a fourth at.
        host: TableId,
    },
    /// He has returned to his own table (rule F).
    FillEnded {
        /// The player.
        player: PlayerId,
        /// His own table.
        home: TableId,
        /// The table he made a fourth at.
        host: TableId,
    },
    /// A player broke up a game by leaving three players at a table: he may not compete
    /// against them for entry at another table until each has played a rubber (rule E).
    TableBroken {
        /// The table.
        table: TableId,
        /// The player who left.
        breaker: PlayerId,
        /// The three left behind.
        left_behind: Vec<PlayerId>,
    },
    /// One of the players left behind has played a rubber: the breaker may compete against him
    /// again (rule E).
    RestrictionCleared {
        /// The breaker.
        breaker: PlayerId,
        /// The player who has played a rubber.
        player: PlayerId,
    },
    /// All three have played a rubber: the restriction on the breaker is over (rule E).
    RestrictionLifted {
        /// The breaker.
        breaker: PlayerId,
    },
    /// The draw for the next rubber was called off because a member it counted on left or went
    /// to make a fourth elsewhere; a new draw starts over (rule B).
    DrawCancelled {
        /// The table.
        table: TableId,
    },
    /// A player in the rubber left: the rubber is not finished and is scored under Law 80.
    RubberAbandoned {
        /// The table.
        table: TableId,
    },
    /// The last member left; the table no longer exists.
    TableDissolved {
        /// The table.
        table: TableId,
    },
    /// A draw is needed before the procedure can go on.
    DrawNeeded(DrawNeeded),
    /// Who plays the next rubber and who sits out (rules B, C, E).
    LineUpFixed {
        /// The table.
        table: TableId,
        /// The four who play.
        playing: [PlayerId; 4],
        /// The members who sit out (eligible members only; later members wait regardless).
        sitting_out: Vec<PlayerId>,
    },
    /// The partnerships of the rubber (Law 3; Appendix 4 B, H3).
    PartnershipsSet {
        /// The table.
        table: TableId,
        /// The partnerships; after a draw, the first dealer's side first.
        partnerships: Partnerships,
        /// The first dealer, when the draw decided him (Law 3).
        first_dealer: Option<PlayerId>,
        /// Whether Appendix 4 H3 changed the partnerships the draw gave.
        no_consecutive_applied: bool,
    },
    /// A rubber ended.
    RubberEnded {
        /// The table.
        table: TableId,
        /// Whether it was finished (not abandoned).
        completed: bool,
    },
}

impl Outcome {
    /// The rule or Law the outcome applies.
    pub const fn law(&self) -> Law {
        match self {
            Outcome::TableFormed { .. } => Law::club_procedure('C'),
            Outcome::MemberJoined { .. } | Outcome::Waiting { .. } | Outcome::ApplicationWithdrawn { .. } => {
                Law::club_procedure('D')
            }
            Outcome::MembershipLost { .. }
            | Outcome::FillStarted { .. }
            | Outcome::FillMayEnd { .. }
            | Outcome::FillEnded { .. } => Law::club_procedure('F'),
            Outcome::MemberLeft { .. } | Outcome::TableDissolved { .. } => Law::club_procedure('A'),
            Outcome::TableBroken { .. }
            | Outcome::RestrictionCleared { .. }
            | Outcome::RestrictionLifted { .. }
            | Outcome::LineUpFixed { .. }
            | Outcome::RubberEnded { .. } => Law::club_procedure('E'),
            Outcome::DrawCancelled { .. } => Law::club_procedure('B'),
            Outcome::RubberAbandoned { .. } => Law::rubber(80, ""),
            Outcome::DrawNeeded(needed) => needed.purpose.law(),
            Outcome::PartnershipsSet { .. } => Law::rubber(3, ""),
        }
    }
}

/// Why the room refuses an event. Each message names what was wrong and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProcedureError {
    /// Events come in time order; precedence and the time limit depend on it (rule B).
    #[error(
        "an event at {at} comes after one at {now}; events must be in time order (rule B of the Rules for Club Procedure)"
    )]
    TimeWentBackwards {
        /// The event's time.
        at: Timestamp,
        /// The room's latest time.
        now: Timestamp,
    },
    /// The player is already in the room (rule C: precedence by order of entry).
    #[error("{player} is already in the room (rule C of the Rules for Club Procedure)")]
    AlreadyInRoom {
        /// The player.
        player: PlayerId,
    },
    /// Only players in the room can apply or play (rule C).
    #[error("{player} is not in the room (rule C of the Rules for Club Procedure)")]
    NotInRoom {
        /// The player.
        player: PlayerId,
    },
    /// The table key is taken.
    #[error("{table} already exists (rule C of the Rules for Club Procedure)")]
    TableExists {
        /// The table.
        table: TableId,
    },
    /// No such table.
    #[error("there is no {table} in the room (rule D of the Rules for Club Procedure)")]
    NoSuchTable {
        /// The table.
        table: TableId,
    },
    /// Rule C: "four to six applicants may form a table".
    #[error("{count} applicants cannot form a table; four to six may (rule C of the Rules for Club Procedure)")]
    TooFewApplicants {
        /// How many applied.
        count: usize,
    },
    /// The same player is named twice among the applicants.
    #[error("{player} is named twice among the applicants (rule C of the Rules for Club Procedure)")]
    DuplicateApplicant {
        /// The player.
        player: PlayerId,
    },
    /// An application needs at least one applicant (rule D).
    #[error("an application names no applicant (rule D of the Rules for Club Procedure)")]
    NoApplicant,
    /// The player is already a member of that table.
    #[error("{player} is already a member of {table} (rule D of the Rules for Club Procedure)")]
    AlreadyMember {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
    },
    /// The player already waits for a vacancy at that table.
    #[error("{player} has already applied to {table} (rule D of the Rules for Club Procedure)")]
    AlreadyWaiting {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
    },
    /// The player has no application waiting at that table.
    #[error("{player} has no application waiting at {table} (rule D of the Rules for Club Procedure)")]
    NotWaiting {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
    },
    /// The player is not a member of that table (rule A: a member has the right to play there).
    #[error("{player} is not a member of {table} (rule A of the Rules for Club Procedure)")]
    NotMember {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
    },
    /// The event's draw is not the draw the rules call for: other players, or no draw needed.
    #[error("{}", wrong_draw(*.purpose, .expected, .given, *.law))]
    WrongDraw {
        /// The draw expected ([`DrawPurpose`] of the one given, if none was expected).
        purpose: DrawPurpose,
        /// Who should draw (empty if no draw is needed).
        expected: Vec<PlayerId>,
        /// Who drew.
        given: Vec<PlayerId>,
        /// The rule.
        law: Law,
    },
    /// The cards of a draw are not a legal draw (Law 3, Law 1).
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// Rule F: only an applicant of the new table can be the fourth who returns.
    #[error("{player} is not one of the applicants forming the table (rule F of the Rules for Club Procedure)")]
    NotAnApplicant {
        /// The player.
        player: PlayerId,
    },
    /// Rule F: a member makes a fourth only at a table that needs one.
    #[error("{table} has {members} members and does not need a fourth (rule F of the Rules for Club Procedure)")]
    FourthNotNeeded {
        /// The table.
        table: TableId,
        /// Its members.
        members: usize,
    },
    /// Rule F: a return can be announced only to a table one is a member of.
    #[error("{player} is a member of no other table to return to (rule F of the Rules for Club Procedure)")]
    NoTableToReturnTo {
        /// The player.
        player: PlayerId,
    },
    /// Rule F: a member already making a fourth elsewhere cannot make another.
    #[error("{player} is already making a fourth at {table} (rule F of the Rules for Club Procedure)")]
    AlreadyAway {
        /// The player.
        player: PlayerId,
        /// Where he is making a fourth.
        table: TableId,
    },
    /// The player is playing a rubber at that table and cannot go to another table until it
    /// ends (rule F; leaving instead abandons the rubber).
    #[error("{player} is playing a rubber at {table} (rule F of the Rules for Club Procedure)")]
    PlayingElsewhere {
        /// The player.
        player: PlayerId,
        /// The table.
        table: TableId,
    },
    /// Rule F: the player is not making a fourth anywhere.
    #[error("{player} is not making a fourth at any table (rule F of the Rules for Club Procedure)")]
    NotOnFill {
        /// The player.
        player: PlayerId,
    },
    /// Rule F: he returns "as soon as his place at the new table can be filled", not before.
    #[error("{player}'s place at {table} cannot be filled yet (rule F of the Rules for Club Procedure)")]
    PlaceNotFilled {
        /// The player.
        player: PlayerId,
        /// The table he made a fourth at.
        table: TableId,
    },
    /// A rubber is being played at the table (rule E: the line-up changes after each rubber).
    #[error("a rubber is in progress at {table} (rule E of the Rules for Club Procedure)")]
    RubberInProgress {
        /// The table.
        table: TableId,
    },
    /// The draw for the next rubber has already started at the table (rule B).
    #[error("the draw for the next rubber at {table} has already started (rule B of the Rules for Club Procedure)")]
    DrawAlreadyStarted {
        /// The table.
        table: TableId,
    },
    /// No draw for a rubber has started at the table (rule B).
    #[error("no draw for a rubber has started at {table} (rule B of the Rules for Club Procedure)")]
    NoDrawStarted {
        /// The table.
        table: TableId,
    },
    /// No rubber is being played at the table.
    #[error("no rubber is in progress at {table} (rule E of the Rules for Club Procedure)")]
    NoRubberInProgress {
        /// The table.
        table: TableId,
    },
    /// Law 1: rubber bridge is played by four players.
    #[error("{table} has {available} members present; a rubber needs four players (Law 1)")]
    NotEnoughPlayers {
        /// The table.
        table: TableId,
        /// Members present to play.
        available: usize,
    },
    /// Who plays is not settled yet: a draw is still needed (rule E).
    #[error(
        "who plays the next rubber at {table} is not settled: {pending} is still needed (rule E of the Rules for Club Procedure)"
    )]
    LineUpNotFixed {
        /// The table.
        table: TableId,
        /// The draw still needed.
        pending: DrawPurpose,
    },
    /// The partnerships name players other than the four who play (Law 3).
    #[error("the partnerships at {table} must be among the four who play the rubber (Law 3)")]
    NotTheLineUp {
        /// The table.
        table: TableId,
    },
    /// Appendix 4 H3: no two players may play a second consecutive rubber as partners.
    #[error(
        "{a} and {b} were partners in the last rubber at {table} and may not be partners again (rule H3 of Chicago (Rubber Bridge Appendix 4))"
    )]
    RepeatedPartnership {
        /// The table.
        table: TableId,
        /// One partner.
        a: PlayerId,
        /// The other.
        b: PlayerId,
    },
    /// Appendix 4 B: the table plays no pivot, or its pivot does not cover these four players
    /// or is complete, so partnerships must be drawn.
    #[error(
        "{table} has no pivot rotation for these four players; draw for partnerships (rule B of Chicago (Rubber Bridge Appendix 4))"
    )]
    NoPivot {
        /// The table.
        table: TableId,
    },
}

fn players(list: &[PlayerId]) -> String {
    match list {
        [] => "nobody".to_owned(),
        _ => list.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
    }
}

fn wrong_draw(purpose: DrawPurpose, expected: &[PlayerId], given: &[PlayerId], law: Law) -> String {
    if expected.is_empty() {
        format!("no draw is needed here, but cards were given by {} ({law})", players(given))
    } else {
        format!("{purpose} is by {}, but the cards given are by {} ({law})", players(expected), players(given))
    }
}

impl CitesLaw for ProcedureError {
    fn law(&self) -> Law {
        match self {
            ProcedureError::TimeWentBackwards { .. }
            | ProcedureError::DrawAlreadyStarted { .. }
            | ProcedureError::NoDrawStarted { .. } => Law::club_procedure('B'),
            ProcedureError::AlreadyInRoom { .. }
            | ProcedureError::NotInRoom { .. }
            | ProcedureError::TableExists { .. }
            | ProcedureError::TooFewApplicants { .. }
            | ProcedureError::DuplicateApplicant { .. } => Law::club_procedure('C'),
            ProcedureError::NoSuchTable { .. }
            | ProcedureError::NoApplicant
            | ProcedureError::AlreadyMember { .. }
            | ProcedureError::AlreadyWaiting { .. }
            | ProcedureError::NotWaiting { .. } => Law::club_procedure('D'),
            ProcedureError::NotMember { .. } => Law::club_procedure('A'),
            ProcedureError::WrongDraw { law, .. } => *law,
            ProcedureError::Draw(e) => e.law(),
            ProcedureError::FourthNotNeeded { .. }
            | ProcedureError::NotAnApplicant { .. }
            | ProcedureError::NoTableToReturnTo { .. }
            | ProcedureError::AlreadyAway { .. }
            | ProcedureError::PlayingElsewhere { .. }
            | ProcedureError::NotOnFill { .. }
            | ProcedureError::PlaceNotFilled { .. } => Law::club_procedure('F'),
            ProcedureError::RubberInProgress { .. }
            | ProcedureError::NoRubberInProgress { .. }
            | ProcedureError::LineUpNotFixed { .. } => Law::club_procedure('E'),
            ProcedureError::NotEnoughPlayers { .. } => Law::rubber(1, ""),
            ProcedureError::NotTheLineUp { .. } => Law::rubber(3, ""),
            ProcedureError::RepeatedPartnership { .. } => Law::chicago('H', "3"),
            ProcedureError::NoPivot { .. } => Law::chicago('B', ""),
        }
    }
}

/// A member of a table (rule A: "an applicant who has acquired the right to play at a table
/// either immediately or in his turn").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Member {
    player: PlayerId,
    since: Timestamp,
    consecutive_rubbers: u32,
    came_from: Option<TableId>,
    away_at: Option<TableId>,
    fourth_for: Option<TableId>,
}

impl Member {
    /// The player.
    pub const fn player(&self) -> PlayerId {
        self.player
    }

    /// When he became a member. Whether he may play a rubber depends on the order of events,
    /// not on this time (rule B): see [`Room::apply`] on [`ProcedureEvent::DrawStarted`].
    pub const fn since(&self) -> Timestamp {
        self.since
    }

    /// Rubbers he has played in a row at this table; reset to 0 when he sits out (rule E: the
    /// member who has played the greatest number of consecutive rubbers goes out).
    pub const fn consecutive_rubbers(&self) -> u32 {
        self.consecutive_rubbers
    }

    /// The existing table he left to join this one, while it still matters: until the first
    /// rubber here for which he was eligible starts (rule E: he draws for his first rubber
    /// with the member who would otherwise have played).
    pub const fn came_from(&self) -> Option<TableId> {
        self.came_from
    }

    /// The table where he is making a fourth with an announced return; he keeps this
    /// membership but cannot play here meanwhile (rule F).
    pub const fn away_at(&self) -> Option<TableId> {
        self.away_at
    }

    /// If this membership is a fourth made on request with an announced return: the table he
    /// will return to (rule F).
    pub const fn fourth_for(&self) -> Option<TableId> {
        self.fourth_for
    }

    /// Whether he is at this table to play (not away making a fourth elsewhere).
    pub const fn is_present(&self) -> bool {
        self.away_at.is_none()
    }
}

/// Where a table is between rubbers (rules B and E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TablePhase {
    /// No rubber is being played or drawn for.
    BetweenRubbers,
    /// The draw for the next rubber has started: who plays is being settled.
    LiningUp,
    /// A rubber is being played.
    Playing,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Phase {
    BetweenRubbers,
    LiningUp { eligible: Vec<PlayerId>, draws: Vec<(DrawPurpose, PrecedenceDraw)> },
    Playing { playing: [PlayerId; 4], partnerships: Partnerships },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pivot {
    schedule: PivotSchedule,
    next: usize,
}

/// One table of the room: its form and options, members, waiting list and where it is in
/// its rubbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Table {
    id: TableId,
    form: GameForm,
    options: TableOptions,
    members: Vec<Member>,
    waiting: Vec<PlayerId>,
    phase: Phase,
    rubbers: u32,
    last_line_up: Option<[PlayerId; 4]>,
    last_partnerships: Option<Partnerships>,
    pivot: Option<Pivot>,
}

impl Table {
    /// A complete table has six members, the most it may have (rule A).
    pub const COMPLETE: usize = 6;

    /// The table's key (rule A).
    pub const fn id(&self) -> TableId {
        self.id
    }

    /// Rubber bridge or Chicago (Appendix 4).
    pub const fn form(&self) -> GameForm {
        self.form
    }

    /// The club options the table plays under (Appendix 4 B, C, H3).
    pub const fn options(&self) -> TableOptions {
        self.options
    }

    /// The members (rule A): the members it was formed with in precedence order (rule C),
    /// then the others in the order they became members (rule D).
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The member record of `player`, if he is a member (rule A).
    pub fn member(&self, player: PlayerId) -> Option<&Member> {
        self.members.iter().find(|m| m.player == player)
    }

    /// Whether `player` is a member (rule A).
    pub fn is_member(&self, player: PlayerId) -> bool {
        self.member(player).is_some()
    }

    /// Applicants waiting for a vacancy (rule D), in order of application (see
    /// [`Room::waiting_list`] for the order in which they will become members).
    pub fn applications(&self) -> &[PlayerId] {
        &self.waiting
    }

    /// Whether the table is complete: six members (rule A).
    pub fn is_complete(&self) -> bool {
        self.members.len() >= Self::COMPLETE
    }

    /// Whether the table is incomplete in the sense of rule A: four or five members.
    pub fn is_incomplete(&self) -> bool {
        (4..Self::COMPLETE).contains(&self.members.len())
    }

    /// Members present to play: not away making a fourth elsewhere (rule F).
    pub fn present_members(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.members.iter().filter(|m| m.is_present()).map(|m| m.player)
    }

    /// Where the table is between rubbers (rules B and E).
    pub const fn phase(&self) -> TablePhase {
        match self.phase {
            Phase::BetweenRubbers => TablePhase::BetweenRubbers,
            Phase::LiningUp { .. } => TablePhase::LiningUp,
            Phase::Playing { .. } => TablePhase::Playing,
        }
    }

    /// The members who may play the rubber being drawn for: those who were members when its
    /// draw started (rule B). Empty unless the table is lining up.
    pub fn eligible(&self) -> &[PlayerId] {
        match &self.phase {
            Phase::LiningUp { eligible, .. } => eligible,
            _ => &[],
        }
    }

    /// The four playing the current rubber, if one is being played (Law 1, rule E).
    pub const fn playing(&self) -> Option<[PlayerId; 4]> {
        match self.phase {
            Phase::Playing { playing, .. } => Some(playing),
            _ => None,
        }
    }

    /// The partnerships of the current rubber, if one is being played (Law 3).
    pub const fn partnerships(&self) -> Option<Partnerships> {
        match self.phase {
            Phase::Playing { partnerships, .. } => Some(partnerships),
            _ => None,
        }
    }

    /// The four who played the last rubber (started) at this table (rule E compares with
    /// them).
    pub const fn last_line_up(&self) -> Option<[PlayerId; 4]> {
        self.last_line_up
    }

    /// The partnerships of the last rubber at this table (Appendix 4 H3 compares with them).
    pub const fn last_partnerships(&self) -> Option<Partnerships> {
        self.last_partnerships
    }

    /// Rubbers started at this table (rule E).
    pub const fn rubbers(&self) -> u32 {
        self.rubbers
    }

    /// The table's pivot and the index (0-2) of its next rubber, if it plays a pivot and one
    /// is under way (Appendix 4 B).
    pub fn pivot(&self) -> Option<(PivotSchedule, usize)> {
        self.pivot.map(|p| (p.schedule, p.next))
    }

    fn member_mut(&mut self, player: PlayerId) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.player == player)
    }

    fn usable_pivot(&self, players: &[PlayerId]) -> Option<Partnerships> {
        let pivot = self.pivot.filter(|p| self.options.pivot && p.schedule.is_for(players))?;
        pivot.schedule.partnerships(pivot.next)
    }
}

/// A player in the room.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Player {
    entered: Option<(Timestamp, u64)>,
    has_played: bool,
    left_table: Option<TableId>,
}

/// The penalty for breaking up a game (rule E): a player who left three players at a table may
/// not compete against them for entry at another table until each has played at least one
/// rubber. The reading (docs/laws-readings.md, "Breaking up a game (rule E)"): it lasts, per
/// player left behind, until that player has finished a rubber.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
    /// (rule E).
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

    /// The draw `table` is waiting for, if any: during the line-up for a rubber, a draw under
    /// rule E, or once the line-up is settled the draw for partnerships (Law 3), unless the
    /// table's pivot gives them (Appendix 4 B).
    pub fn next_draw(&self, table: TableId) -> Option<DrawNeeded> {
        let t = self.tables.get(&table)?;
        match lineup::resolve(t, &self.restrictions)? {
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

    /// Who plays the rubber being drawn for at `table`, once the draws rule E calls for are
    /// made; `None` if the table is not lining up or a draw is still needed.
    pub fn line_up(&self, table: TableId) -> Option<LineUp> {
        lineup::resolve(self.tables.get(&table)?, &self.restrictions)?.ok()
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
            ProcedureEvent::LeftRoom { player, .. } => next.leave_room(*player, &mut out)?,
            ProcedureEvent::TableFormed { table, form, options, applicants, returning_fourths, draw, .. } => {
                next.form_table(*table, *form, *options, applicants, returning_fourths, draw, &mut out)?
            }
            ProcedureEvent::Applied { table, players, draw, .. } => next.cut_in(*table, players, draw, &mut out)?,
            ProcedureEvent::Withdrew { player, table, .. } => next.withdraw(*player, *table, &mut out)?,
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

    fn table_ref(&self, table: TableId) -> Result<&Table, ProcedureError> {
        self.tables.get(&table).ok_or(ProcedureError::NoSuchTable { table })
    }

    fn table_mut(&mut self, table: TableId) -> Result<&mut Table, ProcedureError> {
        self.tables.get_mut(&table).ok_or(ProcedureError::NoSuchTable { table })
    }

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

    fn enter(&mut self, player: PlayerId) -> Result<(), ProcedureError> {
        if self.is_present(player) {
            return Err(ProcedureError::AlreadyInRoom { player });
        }
        let entry = (self.now, self.events);
        self.players.entry(player).and_modify(|p| p.entered = Some(entry)).or_insert(Player {
            entered: Some(entry),
            has_played: false,
            left_table: None,
        });
        Ok(())
    }

    fn leave_room(&mut self, player: PlayerId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        if !self.is_present(player) {
            return Err(ProcedureError::NotInRoom { player });
        }
        // His applications go first: a vacancy his departure opens (directly, or through a
        // waiting member of his table moving in elsewhere, rule F) must not admit him.
        for table in self.tables.values_mut() {
            if let Some(i) = table.waiting.iter().position(|p| *p == player) {
                table.waiting.remove(i);
                out.push(Outcome::ApplicationWithdrawn { table: table.id, player });
            }
        }
        for table in self.tables_of(player) {
            if self.tables.get(&table).is_some_and(|t| t.is_member(player)) {
                self.depart(player, table, Departure::Left, out);
            }
        }
        if let Some(p) = self.players.get_mut(&player) {
            p.entered = None;
            p.left_table = None;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn form_table(
        &mut self,
        table: TableId,
        form: GameForm,
        options: TableOptions,
        applicants: &[PlayerId],
        returning_fourths: &[PlayerId],
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        if self.tables.contains_key(&table) {
            return Err(ProcedureError::TableExists { table });
        }
        self.check_applicants(applicants)?;
        if applicants.len() < 4 {
            return Err(ProcedureError::TooFewApplicants { count: applicants.len() });
        }
        let mut homes = Vec::with_capacity(returning_fourths.len());
        for player in returning_fourths {
            if !applicants.contains(player) {
                return Err(ProcedureError::NotAnApplicant { player: *player });
            }
            // Rule F: a fourth "on request" is one the table needs: without him the applicants
            // could not form it.
            if applicants.len() != 4 {
                return Err(ProcedureError::FourthNotNeeded { table, members: applicants.len() - 1 });
            }
            homes.push((*player, self.home_for_fourth(*player)?));
        }
        let needed = precedence::formation_order(self, applicants, None).err();
        let precedence = Self::check_draw(needed.as_ref(), DrawPurpose::Formation, draw)?;
        let order = precedence::formation_order(self, applicants, precedence.as_ref()).map_err(|needed| {
            ProcedureError::WrongDraw {
                purpose: needed.purpose,
                expected: needed.players,
                given: draw.iter().map(|d| d.player).collect(),
                law: DrawPurpose::Formation.law(),
            }
        })?;
        self.tables.insert(
            table,
            Table {
                id: table,
                form,
                options,
                members: Vec::new(),
                waiting: Vec::new(),
                phase: Phase::BetweenRubbers,
                rubbers: 0,
                last_line_up: None,
                last_partnerships: None,
                pivot: None,
            },
        );
        let members: Vec<PlayerId> = order.iter().copied().take(Table::COMPLETE).collect();
        out.push(Outcome::TableFormed { table, members: members.clone(), first_rubber: members[..4].to_vec() });
        for player in &members {
            let home = homes.iter().find(|(p, _)| p == player).map(|(_, home)| *home);
            self.admit(table, *player, home, false, out);
        }
        for (i, player) in order.iter().skip(Table::COMPLETE).enumerate() {
            self.table_mut(table)?.waiting.push(*player);
            out.push(Outcome::Waiting { table, player: *player, place: i + 1 });
        }
        Ok(())
    }

    /// The table a player making a fourth with an announced return will return to (rule F).
    fn home_for_fourth(&self, player: PlayerId) -> Result<TableId, ProcedureError> {
        let tables = self.tables_of(player);
        let &[home] = tables.as_slice() else {
            return Err(match tables.first() {
                None => ProcedureError::NoTableToReturnTo { player },
                Some(_) => {
                    let away = self.tables.values().find_map(|t| t.member(player).and_then(|m| m.away_at));
                    ProcedureError::AlreadyAway { player, table: away.unwrap_or(tables[0]) }
                }
            });
        };
        if let Some(t) = self.tables.get(&home)
            && t.playing().is_some_and(|p| p.contains(&player))
        {
            return Err(ProcedureError::PlayingElsewhere { player, table: home });
        }
        Ok(home)
    }

    fn cut_in(
        &mut self,
        table: TableId,
        players: &[PlayerId],
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.check_application(table, players)?;
        let vacancies = Table::COMPLETE.saturating_sub(t.members.len());
        let needed = precedence::application_draw(t, players);
        let precedence = Self::check_draw(needed.as_ref(), DrawPurpose::CutIn, draw)?;
        let mut order = match &precedence {
            Some(d) => d.order(players),
            None => players.to_vec(),
        };
        precedence::demote_breakers(&mut order, &self.restrictions);
        for player in order.iter().take(vacancies) {
            self.admit(table, *player, None, true, out);
        }
        for player in order.iter().skip(vacancies) {
            self.table_mut(table)?.waiting.push(*player);
            let place = self.waiting_list(table).iter().position(|p| p == player).map_or(0, |i| i + 1);
            out.push(Outcome::Waiting { table, player: *player, place });
        }
        Ok(())
    }

    fn withdraw(&mut self, player: PlayerId, table: TableId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let t = self.table_mut(table)?;
        let i = t.waiting.iter().position(|p| *p == player).ok_or(ProcedureError::NotWaiting { player, table })?;
        t.waiting.remove(i);
        out.push(Outcome::ApplicationWithdrawn { table, player });
        Ok(())
    }

    fn make_fourth(
        &mut self,
        player: PlayerId,
        host: TableId,
        announced_return: bool,
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        if !self.is_present(player) {
            return Err(ProcedureError::NotInRoom { player });
        }
        let t = self.table_ref(host)?;
        if t.is_member(player) {
            return Err(ProcedureError::AlreadyMember { player, table: host });
        }
        if t.members.len() != 3 {
            return Err(ProcedureError::FourthNotNeeded { table: host, members: t.members.len() });
        }
        let home = if announced_return { Some(self.home_for_fourth(player)?) } else { None };
        if let Some(home) = home {
            self.cancel_line_up_without(home, player, out);
        }
        self.admit(host, player, home, true, out);
        Ok(())
    }

    fn return_home(&mut self, player: PlayerId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let (host, home) = self
            .tables
            .values()
            .find_map(|t| t.member(player).and_then(|m| m.fourth_for).map(|home| (t.id, home)))
            .ok_or(ProcedureError::NotOnFill { player })?;
        let t = self.table_ref(host)?;
        if t.playing().is_some_and(|p| p.contains(&player)) {
            return Err(ProcedureError::PlayingElsewhere { player, table: host });
        }
        if t.members.len() <= 4 {
            return Err(ProcedureError::PlaceNotFilled { player, table: host });
        }
        self.depart(player, host, Departure::Returned, out);
        if let Some(p) = self.players.get_mut(&player) {
            p.left_table = None;
        }
        out.push(Outcome::FillEnded { player, home, host });
        Ok(())
    }

    /// Closes `table` (see [`ProcedureEvent::TableClosed`]): waiting applications lapse, every
    /// membership ends without a breaker restriction, and rule F is settled for the members
    /// making a fourth: one here with an announced return goes back to his own table; one of
    /// this table away at another keeps that membership, which is now his only one.
    fn close_table(&mut self, table: TableId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        if matches!(t.phase, Phase::Playing { .. }) {
            return Err(ProcedureError::RubberInProgress { table });
        }
        let Some(t) = self.tables.remove(&table) else { return Err(ProcedureError::NoSuchTable { table }) };
        for applicant in t.waiting {
            out.push(Outcome::ApplicationWithdrawn { table, player: applicant });
        }
        if matches!(t.phase, Phase::LiningUp { .. }) {
            out.push(Outcome::DrawCancelled { table });
        }
        for member in t.members {
            let player = member.player;
            out.push(Outcome::MemberLeft { table, player });
            if let Some(host) = member.away_at
                && let Some(m) = self.tables.get_mut(&host).and_then(|h| h.member_mut(player))
            {
                m.fourth_for = None;
            }
            if let Some(home) = member.fourth_for {
                if let Some(m) = self.tables.get_mut(&home).and_then(|h| h.member_mut(player)) {
                    m.away_at = None;
                }
                out.push(Outcome::FillEnded { player, home, host: table });
            }
            if let Some(p) = self.players.get_mut(&player)
                && p.left_table == Some(table)
            {
                p.left_table = None;
            }
        }
        out.push(Outcome::TableDissolved { table });
        Ok(())
    }

    /// Makes `player` a member of `table` (rules C, D), applying rule F: unless he makes a
    /// fourth with an announced return (`home`), he loses every other membership, and he
    /// then counts as having left that table to join this one (rules C and E).
    fn admit(&mut self, table: TableId, player: PlayerId, home: Option<TableId>, report: bool, out: &mut Vec<Outcome>) {
        // The rules are silent on applications a new member has pending elsewhere; we
        // withdraw them, so that a vacancy elsewhere never pulls him away from the table he
        // just joined (and, by rule F, out of it). First, before he gives up other tables:
        // the vacancies his departure opens are filled at once, and must not be filled by him.
        for other in self.tables.values_mut().filter(|t| t.id != table) {
            if let Some(i) = other.waiting.iter().position(|p| *p == player) {
                other.waiting.remove(i);
                out.push(Outcome::ApplicationWithdrawn { table: other.id, player });
            }
        }
        let mut came_from = None;
        match home {
            Some(home) => {
                if let Some(m) = self.tables.get_mut(&home).and_then(|t| t.member_mut(player)) {
                    m.away_at = Some(table);
                }
                out.push(Outcome::FillStarted { player, home, host: table });
            }
            None => {
                for other in self.tables_of(player) {
                    if other != table {
                        self.depart(player, other, Departure::RuleF, out);
                        came_from = Some(other);
                    }
                }
            }
        }
        if home.is_none() {
            // Rejoining the table he left is not leaving "another existing table" (rule E).
            came_from = came_from.or(self.left_existing_table(player).filter(|t| *t != table));
            if let Some(p) = self.players.get_mut(&player) {
                p.left_table = None;
            }
        }
        let now = self.now;
        if let Some(t) = self.tables.get_mut(&table) {
            t.waiting.retain(|p| *p != player);
            t.members.push(Member {
                player,
                since: now,
                consecutive_rubbers: 0,
                came_from,
                away_at: None,
                fourth_for: home,
            });
            if report {
                out.push(Outcome::MemberJoined { table, player, from_table: came_from });
            }
        }
    }

    /// Ends `player`'s membership of `table`, with everything that follows: an abandoned
    /// rubber (Law 80), a cancelled draw (rule B), a broken game (rule E), a vacancy filled
    /// from the waiting list (rule D), a dissolved table.
    fn depart(&mut self, player: PlayerId, table: TableId, why: Departure, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get_mut(&table) else { return };
        let Some(i) = t.members.iter().position(|m| m.player == player) else { return };
        let before = t.members.len();
        let member = t.members.remove(i);
        out.push(match why {
            Departure::RuleF => Outcome::MembershipLost { table, player },
            Departure::Left | Departure::Returned => Outcome::MemberLeft { table, player },
        });
        let in_rubber = t.playing().is_some_and(|p| p.contains(&player));
        let after = t.members.len();
        let left_behind: Vec<PlayerId> = t.members.iter().map(|m| m.player).collect();
        if let Some(host) = member.away_at
            && let Some(m) = self.tables.get_mut(&host).and_then(|h| h.member_mut(player))
        {
            m.fourth_for = None;
        }
        if let Some(home) = member.fourth_for
            && let Some(m) = self.tables.get_mut(&home).and_then(|h| h.member_mut(player))
        {
            m.away_at = None;
        }
        if in_rubber {
            out.push(Outcome::RubberAbandoned { table });
            self.end_rubber(table, false, out);
        }
        self.cancel_line_up_without(table, player, out);
        if before == 4 && after == 3 && why != Departure::Returned {
            out.push(Outcome::TableBroken { table, breaker: player, left_behind: left_behind.clone() });
            self.restrictions.retain(|r| !(r.breaker == player && r.table == table));
            self.restrictions.push(BreakerRestriction { breaker: player, table, protected: left_behind });
        }
        // He is "leaving an existing table" (rules C and E) if the table goes on without him
        // and he has no other table to be at.
        let still_member_elsewhere = self.tables.values().any(|t| t.is_member(player));
        if let Some(p) = self.players.get_mut(&player) {
            p.left_table = (after > 0 && !still_member_elsewhere).then_some(table);
        }
        if before >= Table::COMPLETE && after < Table::COMPLETE {
            self.fill_vacancy(table, out);
        }
        if after == 0 {
            if let Some(t) = self.tables.remove(&table) {
                for applicant in t.waiting {
                    out.push(Outcome::ApplicationWithdrawn { table, player: applicant });
                }
            }
            out.push(Outcome::TableDissolved { table });
        }
    }

    /// Rule D: a waiting applicant becomes a member "as soon as a vacancy occurs".
    fn fill_vacancy(&mut self, table: TableId, out: &mut Vec<Outcome>) {
        if let Some(next) = self.waiting_list(table).first().copied() {
            self.admit(table, next, None, true, out);
        }
    }

    /// Rule D at the end of every event: while a table with applicants waiting is not complete,
    /// the first of them becomes a member.
    fn settle_vacancies(&mut self, out: &mut Vec<Outcome>) {
        let ids: Vec<TableId> = self.tables.keys().copied().collect();
        for table in ids {
            while let Some(t) = self.tables.get(&table)
                && !t.is_complete()
                && !t.waiting.is_empty()
            {
                self.fill_vacancy(table, out);
            }
        }
    }

    /// Rule B: the draw for a rubber counts on the members present when it started; if one of
    /// them leaves the table, the draw is called off and starts over.
    fn cancel_line_up_without(&mut self, table: TableId, player: PlayerId, out: &mut Vec<Outcome>) {
        if let Some(t) = self.tables.get_mut(&table)
            && let Phase::LiningUp { eligible, .. } = &t.phase
            && eligible.contains(&player)
        {
            t.phase = Phase::BetweenRubbers;
            out.push(Outcome::DrawCancelled { table });
        }
    }

    fn start_draw(&mut self, table: TableId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let t = self.table_mut(table)?;
        match t.phase {
            Phase::BetweenRubbers => {}
            Phase::LiningUp { .. } => return Err(ProcedureError::DrawAlreadyStarted { table }),
            Phase::Playing { .. } => return Err(ProcedureError::RubberInProgress { table }),
        }
        // Rule B: every member admitted by an earlier event was a member "before a card is
        // duly drawn"; anyone admitted from now on waits for the next rubber.
        let eligible: Vec<PlayerId> = t.present_members().collect();
        if eligible.len() < 4 {
            return Err(ProcedureError::NotEnoughPlayers { table, available: eligible.len() });
        }
        t.phase = Phase::LiningUp { eligible, draws: Vec::new() };
        self.report_line_up(table, out);
        Ok(())
    }

    fn report_line_up(&self, table: TableId, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get(&table) else { return };
        match lineup::resolve(t, &self.restrictions) {
            Some(Ok(line_up)) => {
                out.push(Outcome::LineUpFixed { table, playing: line_up.playing, sitting_out: line_up.sitting_out });
                if let Some(needed) = self.next_draw(table) {
                    out.push(Outcome::DrawNeeded(needed));
                }
            }
            Some(Err(needed)) => out.push(Outcome::DrawNeeded(needed)),
            None => {}
        }
    }

    fn line_up_drawn(
        &mut self,
        table: TableId,
        purpose: DrawPurpose,
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        let needed = match lineup::resolve(t, &self.restrictions) {
            None => return Err(ProcedureError::NoDrawStarted { table }),
            Some(Ok(_)) => None,
            Some(Err(needed)) => Some(needed),
        };
        let Some(precedence) = Self::check_draw(needed.as_ref(), purpose, draw)? else {
            return Err(ProcedureError::WrongDraw { purpose, expected: vec![], given: vec![], law: purpose.law() });
        };
        if let Phase::LiningUp { draws, .. } = &mut self.table_mut(table)?.phase {
            draws.push((purpose, precedence));
        }
        self.report_line_up(table, out);
        Ok(())
    }

    fn start_rubber(
        &mut self,
        table: TableId,
        source: &PartnershipSource,
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        let line_up = match lineup::resolve(t, &self.restrictions) {
            None if matches!(t.phase, Phase::Playing { .. }) => return Err(ProcedureError::RubberInProgress { table }),
            None => return Err(ProcedureError::NoDrawStarted { table }),
            Some(Err(needed)) => return Err(ProcedureError::LineUpNotFixed { table, pending: needed.purpose }),
            Some(Ok(line_up)) => line_up,
        };
        let is_line_up = |players: [PlayerId; 4]| players.iter().all(|p| line_up.playing.contains(p));
        let mut pivot = t.pivot;
        let (partnerships, first_dealer, no_consecutive_applied) = match source {
            PartnershipSource::Drawn(cards) => {
                let draw = PartnershipDraw::new(*cards)?;
                if !is_line_up(cards.map(|c| c.player)) {
                    return Err(ProcedureError::NotTheLineUp { table });
                }
                let result = draw.result(t.last_partnerships.as_ref(), t.options.no_consecutive_partners);
                pivot = t.options.pivot.then(|| Pivot { schedule: PivotSchedule::from_draw(&result), next: 1 });
                (result.partnerships, Some(result.first_dealer), result.no_consecutive_applied)
            }
            PartnershipSource::Agreed(partnerships) => {
                if !is_line_up(partnerships.players()) {
                    return Err(ProcedureError::NotTheLineUp { table });
                }
                if t.options.no_consecutive_partners
                    && let Some([a, b]) = t.last_partnerships.and_then(|last| partnerships.repeated_from(&last))
                {
                    return Err(ProcedureError::RepeatedPartnership { table, a, b });
                }
                pivot = None;
                (*partnerships, None, false)
            }
            PartnershipSource::Pivot => {
                let partnerships = t.usable_pivot(&line_up.playing).ok_or(ProcedureError::NoPivot { table })?;
                pivot = pivot.map(|p| Pivot { next: p.next + 1, ..p });
                (partnerships, None, false)
            }
        };
        let eligible = t.eligible().to_vec();
        let t = self.table_mut(table)?;
        t.pivot = pivot;
        t.rubbers += 1;
        t.phase = Phase::Playing { playing: line_up.playing, partnerships };
        // Rule E: a member from another table draws for his first rubber only; whether he won
        // or lost that draw, he is an ordinary member from now on.
        for member in t.members.iter_mut().filter(|m| eligible.contains(&m.player)) {
            member.came_from = None;
        }
        for player in line_up.playing {
            if let Some(p) = self.players.get_mut(&player) {
                p.has_played = true;
            }
        }
        out.push(Outcome::PartnershipsSet { table, partnerships, first_dealer, no_consecutive_applied });
        Ok(())
    }

    /// Ends the rubber in progress at `table`: the consecutive-rubber counts (rule E), and for
    /// a finished rubber the breaker restrictions it clears.
    fn end_rubber(&mut self, table: TableId, completed: bool, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get_mut(&table) else { return };
        let Phase::Playing { playing, partnerships } = t.phase else { return };
        for member in &mut t.members {
            if playing.contains(&member.player) {
                member.consecutive_rubbers += 1;
            } else {
                member.consecutive_rubbers = 0;
            }
        }
        t.last_line_up = Some(playing);
        t.last_partnerships = Some(partnerships);
        t.phase = Phase::BetweenRubbers;
        out.push(Outcome::RubberEnded { table, completed });
        if !completed {
            return;
        }
        for restriction in &mut self.restrictions {
            for player in playing {
                if restriction.protects(player) {
                    restriction.protected.retain(|p| *p != player);
                    out.push(Outcome::RestrictionCleared { breaker: restriction.breaker, player });
                }
            }
        }
        for restriction in self.restrictions.iter().filter(|r| r.protected.is_empty()) {
            out.push(Outcome::RestrictionLifted { breaker: restriction.breaker });
        }
        self.restrictions.retain(|r| !r.protected.is_empty());
    }

    /// Rule F: a member making a fourth returns "as soon as his place at the new table can be
    /// filled", that is when the table has four members without him. Reported once, when
    /// that becomes true.
    fn report_fills_that_may_end(&self, before: &Room, out: &mut Vec<Outcome>) {
        let can_end = |room: &Room, host: TableId, player: PlayerId| {
            room.tables
                .get(&host)
                .is_some_and(|t| t.members.len() > 4 && t.member(player).is_some_and(|m| m.fourth_for.is_some()))
        };
        for t in self.tables.values() {
            for m in &t.members {
                if let Some(home) = m.fourth_for
                    && can_end(self, t.id, m.player)
                    && !can_end(before, t.id, m.player)
                {
                    out.push(Outcome::FillMayEnd { player: m.player, home, host: t.id });
                }
            }
        }
    }
}
