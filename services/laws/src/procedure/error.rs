//! Why the room refuses an event ([`ProcedureError`]): each message names what was wrong and
//! the rule. One list, apart from the code that raises them, so a caller sees every refusal and
//! its rule.

use crate::draw::{DrawError, PlayerId};
use crate::law::{CitesLaw, Law};

use super::{DrawPurpose, TableId, Timestamp};

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
    /// A corrected time of entry after the correction itself (rule C: order of entry).
    #[error(
        "{player} cannot be corrected to have entered at {entered_at:?}, after the correction is made (rule C of \
             the Rules for Club Procedure)"
    )]
    EntryAfterCorrection {
        /// The player.
        player: PlayerId,
        /// The time given.
        entered_at: Timestamp,
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
    /// Who plays is not settled yet: a draw is still needed (rule E, or rule C for a table's first
    /// rubber).
    #[error("who plays the next rubber at {table} is not settled: {pending} is still needed ({})", .pending.law())]
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
            | ProcedureError::EntryAfterCorrection { .. }
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
            ProcedureError::RubberInProgress { .. } | ProcedureError::NoRubberInProgress { .. } => {
                Law::club_procedure('E')
            }
            ProcedureError::LineUpNotFixed { pending, .. } => pending.law(),
            ProcedureError::NotEnoughPlayers { .. } => Law::rubber(1, ""),
            ProcedureError::NotTheLineUp { .. } => Law::rubber(3, ""),
            ProcedureError::RepeatedPartnership { .. } => Law::chicago('H', "3"),
            ProcedureError::NoPivot { .. } => Law::chicago('B', ""),
        }
    }
}
