//! Deciding a command: which Rules for Club Procedure events it applies, which draws the server
//! must make for them, and what the service records beside them. Every decision of the rules is
//! the laws': a plan is tried on a copy of the room (`Room::apply`), and the draws are the ones
//! `Room::formation_draw`, `Room::application_draw` and `Room::next_draw` ask for. A plan that
//! the room accepts becomes a journal entry.
//!
//! Split by concern: the room's and its tables' membership (`room`: arriving, leaving, opening
//! and closing tables, applications, making a fourth), the draws for the next rubber's line-up
//! (`line_up`), and starting and ending a rubber (`rubbers`). This module keeps the plan and the
//! copy of the room every command tries its events on.

mod line_up;
mod room;
mod rubbers;
#[cfg(test)]
mod tests;

use laws::Law;
use laws::procedure::{DrawNeeded, Outcome, ProcedureEvent, Room, Timestamp};

use platform::ServiceError;

use crate::draws;
use crate::journal::{Command, DrawRecord, Event, LawPurpose};
use crate::state::ClubState;

pub use line_up::{PhysicalRequest, draw_cards, record_physical};
pub use room::{
    TableSpec, apply, arrive, close_table, correct_arrival, join_applications, leave_room, leave_table, make_fourth,
    open_table, update_options, withdraw,
};
pub use rubbers::{AgreedPartnerships, RubberStart, SeatChoiceRequest, end_rubber, start_rubber};

/// A command the room accepts: the entry to journal.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The command with the service's data.
    pub command: Command,
    /// The procedure events, in order.
    pub events: Vec<Event>,
    /// The room's committed seed for the next table-opening draw after this command (hex), if the
    /// command changed it: see [`crate::journal::Entry::opening_seeds`].
    pub opening_seeds: Option<Vec<String>>,
}

/// A copy of the room that events are tried on.
struct Sim<'a> {
    state: &'a ClubState,
    room: Room,
    at: Timestamp,
    events: Vec<ProcedureEvent>,
}

impl<'a> Sim<'a> {
    fn new(state: &'a ClubState, at: i64) -> Sim<'a> {
        Sim { state, room: state.room.clone(), at: Timestamp(at.max(state.clock)), events: Vec::new() }
    }

    fn push(&mut self, event: ProcedureEvent) -> Result<Vec<Outcome>, ServiceError> {
        let (room, outcomes) = self.room.apply(&event).map_err(|e| self.state.refusal(&e))?;
        self.room = room;
        self.events.push(event);
        Ok(outcomes)
    }

    /// Rule F: a member making a fourth with an announced return goes back to his own table "as
    /// soon as his place at the new table can be filled"; the service records the return as soon
    /// as the laws allow it (not while he plays a rubber there, and only once the table keeps four
    /// members without him).
    fn follow_ups(&mut self) {
        let limit = self.room.tables().map(|t| t.members().len()).sum::<usize>();
        for _ in 0..limit {
            let fourths: Vec<_> = self
                .room
                .tables()
                .flat_map(|t| t.members().iter().filter(|m| m.fourth_for().is_some()).map(|m| m.player()))
                .collect();
            let returning = fourths
                .into_iter()
                .find(|p| self.room.apply(&ProcedureEvent::ReturnedHome { player: *p, at: self.at }).is_ok());
            let Some(p) = returning else { return };
            if self.push(ProcedureEvent::ReturnedHome { player: p, at: self.at }).is_err() {
                return;
            }
        }
    }

    /// The plan of `command`. Any command commits the room's opening-draw seed if it has none (a
    /// new room, or one from before it was kept), so that it is published before the first
    /// OpenTable that may need it.
    fn plan(self, command: Command) -> Plan {
        let opening = draws::Seeds::of(self.state.opening_seeds());
        self.plan_with(command, opening)
    }

    fn plan_with(self, command: Command, opening: draws::Seeds) -> Plan {
        Plan {
            command,
            events: self.events.iter().map(Event::from).collect(),
            opening_seeds: opening.after(draws::OPENING_SEEDS_AHEAD),
        }
    }

    fn at(&self) -> i64 {
        self.at.0
    }
}

/// The refusal of a command that needs a draw nobody made or asked the server for: the server
/// draws only when the desk asks or the table's option says so, so that no draw is made behind
/// the desk's back; `how` says how to make it.
fn draw_not_asked_for(state: &ClubState, needed: &DrawNeeded, how: &str) -> ServiceError {
    let players: Vec<String> = needed.players.iter().map(|p| state.player_id(p.0)).collect();
    ServiceError::Rule {
        message: format!(
            "{} is needed first among {} ({}): {how}",
            needed.purpose,
            players.join(", "),
            needed.purpose.law()
        ),
        law: needed.purpose.law(),
    }
}

fn server_draw_for(
    state: &ClubState,
    needed: &DrawNeeded,
    seeds: &mut draws::Seeds,
    at: i64,
) -> Result<DrawRecord, ServiceError> {
    let settles = LawPurpose::from(needed.purpose);
    let players: Vec<u64> = needed.players.iter().map(|p| p.0).collect();
    draws::server_draw(state, settles.contract(), settles, &players, seeds, at)
}

/// The draw for precedence that opening or applying to a table needs (`needed`, rules C and D):
/// the desk's physical `cards`, which must make the whole draw, redraws included (Law 3), or a
/// server draw when the desk gave none and `server_draw` (the desk asked, or the table's option
/// says so). Cards when no draw is needed are refused (naming `rule`), and so are cards of players
/// who do not draw, and a needed draw with neither cards nor `server_draw`.
fn precedence_draw(
    state: &ClubState,
    needed: Option<&DrawNeeded>,
    cards: &[draws::PhysicalCard],
    server_draw: bool,
    seeds: &mut draws::Seeds,
    at: i64,
    rule: char,
) -> Result<Option<DrawRecord>, ServiceError> {
    let Some(needed) = needed else {
        if cards.is_empty() {
            return Ok(None);
        }
        return Err(ServiceError::Rule {
            message: format!(
                "no draw for precedence is needed: the applicants' standing already orders them where it matters \
                 (rule {rule} of the Rules for Club Procedure)"
            ),
            law: Law::club_procedure(rule),
        });
    };
    let players: Vec<u64> = needed.players.iter().map(|p| p.0).collect();
    let names = |players: &[u64]| players.iter().map(|p| state.player_id(*p)).collect::<Vec<_>>().join(", ");
    if cards.is_empty() {
        if server_draw {
            return server_draw_for(state, needed, seeds, at).map(Some);
        }
        return Err(draw_not_asked_for(
            state,
            needed,
            "record its cards with the command, or ask the server to draw (server_draw)",
        ));
    }
    if let Some(card) = cards.iter().find(|c| !players.contains(&c.player)) {
        return Err(ServiceError::Rule {
            message: format!(
                "{} does not draw: the draw for precedence is among {} ({})",
                state.player_id(card.player),
                names(&players),
                needed.purpose.law()
            ),
            law: needed.purpose.law(),
        });
    }
    let settles = LawPurpose::from(needed.purpose);
    let empty = DrawRecord::new_physical(settles.contract(), players.clone(), settles);
    let record = draws::record_physical(state, &empty, cards, at)?;
    if !record.is_complete() {
        return Err(ServiceError::Rule {
            message: format!(
                "the draw for precedence among {} is not complete: {} must still draw a valid card; record every \
                 card, redraws included, with the command (Law 3)",
                names(&players),
                names(&record.awaiting())
            ),
            law: Law::rubber(3, ""),
        });
    }
    Ok(Some(record))
}
