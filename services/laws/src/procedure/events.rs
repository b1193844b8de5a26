//! What happens in the room, as the membership service journals it: [`ProcedureEvent`], and how
//! a rubber's partnerships are settled ([`PartnershipSource`]). The room is rebuilt by
//! replaying them through [`super::Room::apply`]. Apart from the room because they are the
//! journal's entries, stored by the service.

use crate::deal::GameForm;
use crate::draw::{DrawnCard, Partnerships, PlayerId};

use super::{DrawPurpose, TableId, TableOptions, Timestamp};

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
    /// The desk corrects when a player entered the room, recorded late or wrongly: rule C orders
    /// those who have not played "by order of entry into the room". The time given must not be
    /// after the correction, and the player must be in the room; it orders him from then on,
    /// and nothing already decided moves.
    EntryCorrected {
        /// The player.
        player: PlayerId,
        /// When he entered, as corrected.
        entered_at: Timestamp,
        /// When the correction is made.
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
        /// The precedence draw [`Room::formation_draw`](super::Room::formation_draw) asked for (empty if none).
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
        /// The precedence draw [`Room::application_draw`](super::Room::application_draw) asked for (empty if none).
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
    /// The desk marks applications waiting at a table as made at the same time, after the fact
    /// (rule D: "if more applications are made at the same time than are needed to complete the
    /// table, a draw orders them"). The draw orders them, and together they take the place on
    /// the waiting list of the first of them; every other application keeps its place.
    ApplicationsJoined {
        /// The table.
        table: TableId,
        /// The players whose applications were made together, two or more, all waiting there.
        players: Vec<PlayerId>,
        /// The draw [`Room::joined_draw`](super::Room::joined_draw) asks for.
        draw: Vec<DrawnCard>,
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
    /// Cards drawn to settle who plays the next rubber (rule C for a table's first rubber, rule E
    /// after), as [`Room::next_draw`](super::Room::next_draw) asked.
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
            | ProcedureEvent::EntryCorrected { at, .. }
            | ProcedureEvent::LeftRoom { at, .. }
            | ProcedureEvent::TableFormed { at, .. }
            | ProcedureEvent::Applied { at, .. }
            | ProcedureEvent::Withdrew { at, .. }
            | ProcedureEvent::ApplicationsJoined { at, .. }
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
