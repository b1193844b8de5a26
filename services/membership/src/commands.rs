//! Deciding a command: which Rules for Club Procedure events it applies, which draws the server
//! must make for them, and what the service records beside them. Every decision of the rules is
//! the laws': a plan is tried on a copy of the room (`Room::apply`), and the draws are the ones
//! `Room::formation_draw`, `Room::application_draw` and `Room::next_draw` ask for. A plan that
//! the room accepts becomes a journal entry.

use laws::draw::{Deck, DrawResult, DrawnCard, SeatChoice, Seating};
use laws::procedure::{
    DrawNeeded, DrawPurpose, Outcome, PartnershipSource, ProcedureError, ProcedureEvent, Room, TableId, TablePhase,
    Timestamp,
};
use laws::{Law, Seat};

use platform::ServiceError;

use crate::draws;
use crate::journal::{Command, DrawRecord, Event, LawPurpose, NewApplication, NewTable, Options, Purpose};
use crate::state::{ClubState, player};

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

/// A player enters the room; `None` if he is already in it (arriving again changes nothing).
pub fn arrive(state: &ClubState, player_id: &str, number: u64, at: i64) -> Result<Option<Plan>, ServiceError> {
    if state.is_present(number) {
        return Ok(None);
    }
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::Entered { player: player(number), at })?;
    Ok(Some(sim.plan(Command::Arrive { player_id: player_id.to_owned(), number })))
}

/// A player leaves the room: every membership and application ends.
pub fn leave_room(state: &ClubState, number: u64, at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::LeftRoom { player: player(number), at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::LeaveRoom { player: number }))
}

/// What a new table is to be.
#[derive(Debug, Clone)]
pub struct TableSpec {
    /// Its name, or empty for "Table N".
    pub name: String,
    /// Rubber or Chicago.
    pub form: crate::journal::Form,
    /// Its options.
    pub options: Options,
}

/// Four or more applicants form a table (rule C); the room ranks them, asking for a draw among
/// applicants of equal rank when their order matters, which the server makes.
pub fn open_table(state: &ClubState, spec: TableSpec, applicants: &[u64], at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    let number = state.next_table_number();
    let applicants: Vec<_> = applicants.iter().map(|p| player(*p)).collect();
    let needed = state.room.formation_draw(&applicants).map_err(|e| state.refusal(&e))?;
    // The table does not exist before this command, so nothing was committed for it: a
    // precedence draw here uses the seed the room committed for opening draws, and the table's
    // own seeds are committed with it.
    let mut opening = draws::Seeds::of(state.opening_seeds());
    let draw = match &needed {
        Some(needed) => Some(server_draw_for(state, needed, &mut opening, at.0)?),
        None => None,
    };
    let outcomes = sim.push(ProcedureEvent::TableFormed {
        table: TableId(number),
        form: spec.form.into(),
        options: spec.options.laws(),
        applicants: applicants.clone(),
        returning_fourths: Vec::new(),
        draw: draw.as_ref().map(DrawRecord::cards).unwrap_or_default(),
        at,
    })?;
    let applications = waiting(&outcomes)
        .into_iter()
        .map(|p| NewApplication {
            application_id: draws::new_id(),
            player: p,
            from_other_table: state.room.is_leaving_a_table(player(p)),
        })
        .collect();
    sim.follow_ups();
    let name = if spec.name.trim().is_empty() { format!("Table {number}") } else { spec.name.trim().to_owned() };
    let table = NewTable { table_id: format!("t{number}"), number, name, form: spec.form, options: spec.options };
    let next_seeds = draws::Seeds::default().after(draws::SEEDS_AHEAD);
    Ok(sim.plan_with(Command::OpenTable { table, applications, draw, next_seeds }, opening))
}

fn waiting(outcomes: &[Outcome]) -> Vec<u64> {
    outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Waiting { player, .. } => Some(player.0),
            _ => None,
        })
        .collect()
}

/// Players apply to a table at the same time (rule D): members at once while the table has room,
/// the rest wait; if they are more than the places left, the room asks for a draw among them,
/// which the server makes.
pub fn apply(state: &ClubState, table: u64, players: &[u64], at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    let applicants: Vec<_> = players.iter().map(|p| player(*p)).collect();
    let needed = state.room.application_draw(TableId(table), &applicants).map_err(|e| state.refusal(&e))?;
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let draw = match &needed {
        Some(needed) => Some(server_draw_for(state, needed, &mut seeds, at.0)?),
        None => None,
    };
    sim.push(ProcedureEvent::Applied {
        table: TableId(table),
        players: applicants,
        draw: draw.as_ref().map(DrawRecord::cards).unwrap_or_default(),
        at,
    })?;
    let applications = players
        .iter()
        .map(|p| NewApplication {
            application_id: draws::new_id(),
            player: *p,
            from_other_table: state.room.is_leaving_a_table(player(*p)),
        })
        .collect();
    sim.follow_ups();
    Ok(sim.plan(Command::Apply { table, applications, draw, next_seeds: seeds.after(draws::SEEDS_AHEAD) }))
}

/// A waiting application is withdrawn.
pub fn withdraw(state: &ClubState, application_id: &str, at: i64) -> Result<Plan, ServiceError> {
    let application = state
        .application(application_id)
        .ok_or_else(|| ServiceError::not_found(format!("waiting application {application_id}")))?;
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::Withdrew { player: player(application.player), table: TableId(application.table), at })?;
    Ok(sim.plan(Command::Withdraw { application_id: application_id.to_owned() }))
}

/// A member leaves a table.
pub fn leave_table(state: &ClubState, table: u64, number: u64, at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::LeftTable { player: player(number), table: TableId(table), at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::LeaveTable { table, player: number }))
}

/// A member makes a fourth at another table (rule F).
pub fn make_fourth(
    state: &ClubState,
    number: u64,
    host: u64,
    announced_return: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::MadeFourth { player: player(number), table: TableId(host), announced_return, at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::MakeFourth { player: number, host, announced_return }))
}

/// A table's club options change; they govern the next rubber.
pub fn update_options(state: &ClubState, table: u64, options: Options, at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::OptionsChanged { table: TableId(table), options: options.laws(), at })?;
    Ok(sim.plan(Command::UpdateOptions { table, options }))
}

/// The desk closes a table.
pub fn close_table(state: &ClubState, table: u64, reason: &str, at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::TableClosed { table: TableId(table), at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::CloseTable { table, reason: reason.to_owned() }))
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

/// Refuses a draw for precedence outside OpenTable and ApplyToTable, which make those draws.
fn line_up_purpose(purpose: Purpose) -> Result<(), ServiceError> {
    match purpose {
        Purpose::Precedence => Err(ServiceError::Rule {
            message: "draws for precedence between applicants are made when the table is opened or the applications \
                      are made (OpenTable, ApplyToTable); a draw recorded here is for the next rubber (rules C and D \
                      of the Rules for Club Procedure)"
                .to_owned(),
            law: Law::club_procedure('D'),
        }),
        _ => Ok(()),
    }
}

/// A physical draw still awaiting cards at `table`, which must be finished first.
fn pending_physical(state: &ClubState, table: u64) -> Option<&DrawRecord> {
    state.line_up_draws(table).iter().find(|d| d.physical && !d.is_complete())
}

fn pending_refusal(draw: &DrawRecord) -> ServiceError {
    ServiceError::Rule {
        message: format!(
            "draw {} awaits cards or redraws; record them with RecordPhysicalDraw and its draw_id first (Law 3)",
            draw.draw_id
        ),
        law: Law::rubber(3, ""),
    }
}

fn partnership_draw(state: &ClubState, table: u64) -> Option<&DrawRecord> {
    state.line_up_draws(table).iter().find(|d| d.purpose == Purpose::Partnerships && d.is_complete())
}

/// The room with the draw for the next rubber started, if it had not (rule B: the first card).
fn lining_up(sim: &mut Sim<'_>, table: u64) -> Result<(), ServiceError> {
    let phase = sim.room.table(TableId(table)).map(|t| t.phase());
    if phase != Some(TablePhase::LiningUp) {
        let at = sim.at;
        sim.push(ProcedureEvent::DrawStarted { table: TableId(table), at })?;
    }
    Ok(())
}

/// The draw the room asks for next at `table`, checked against what the desk asked to draw.
fn expected_draw(sim: &Sim<'_>, table: u64, purpose: Purpose, given: &[u64]) -> Result<DrawNeeded, ServiceError> {
    let needed = sim.room.next_draw(TableId(table));
    let given_players: Vec<_> = given.iter().map(|p| player(*p)).collect();
    let matches = needed.as_ref().is_some_and(|n| {
        LawPurpose::from(n.purpose).contract() == purpose
            && n.players.len() == given.len()
            && n.players.iter().all(|p| given_players.contains(p))
    });
    match needed {
        Some(needed) if matches => Ok(needed),
        needed => {
            let law_purpose = needed.as_ref().map_or_else(|| requested(purpose), |n| n.purpose);
            let error = ProcedureError::WrongDraw {
                purpose: law_purpose,
                expected: needed.map(|n| n.players).unwrap_or_default(),
                given: given_players,
                law: law_purpose.law(),
            };
            Err(sim.state.refusal(&error))
        }
    }
}

fn requested(purpose: Purpose) -> DrawPurpose {
    match purpose {
        Purpose::Partnerships => DrawPurpose::Partnerships,
        Purpose::Precedence => DrawPurpose::CutIn,
        Purpose::GoingOut => DrawPurpose::GoingOut,
        Purpose::EntryFromOtherTable => DrawPurpose::LeaverEntry,
    }
}

/// The server makes the draw the room asks for next at `table` for the next rubber (going out,
/// entry of a member from another table, or partnerships), starting the rubber's draw if this is
/// its first card (rule B).
pub fn draw_cards(
    state: &ClubState,
    table: u64,
    purpose: Purpose,
    given: &[u64],
    at: i64,
) -> Result<Plan, ServiceError> {
    line_up_purpose(purpose)?;
    if let Some(pending) = pending_physical(state, table) {
        return Err(pending_refusal(pending));
    }
    if purpose == Purpose::Partnerships
        && let Some(done) = partnership_draw(state, table)
    {
        return Err(ServiceError::Rule {
            message: format!(
                "the draw for partnerships for the next rubber has been made (draw {}) (Law 3)",
                done.draw_id
            ),
            law: Law::rubber(3, ""),
        });
    }
    let mut sim = Sim::new(state, at);
    lining_up(&mut sim, table)?;
    let needed = expected_draw(&sim, table, purpose, given)?;
    // The seed committed before anyone asked for this draw; the next one is committed in the
    // same journal entry that reveals this one.
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let record = server_draw_for(state, &needed, &mut seeds, sim.at())?;
    if needed.purpose != DrawPurpose::Partnerships {
        let at = sim.at;
        sim.push(ProcedureEvent::LineUpDrawn {
            table: TableId(table),
            purpose: needed.purpose,
            draw: record.cards(),
            at,
        })?;
    }
    Ok(sim.plan(Command::Draw { table, draw: record, next_seeds: seeds.after(draws::SEEDS_AHEAD) }))
}

/// What the desk asks to record of a physical draw.
#[derive(Debug, Clone)]
pub struct PhysicalRequest {
    /// The draw to continue, or `None` for a new one.
    pub draw_id: Option<String>,
    /// For a new draw: what it decides.
    pub purpose: Purpose,
    /// For a new draw: who draws.
    pub players: Vec<u64>,
    /// The cards drawn since the last call.
    pub cards: Vec<draws::PhysicalCard>,
}

/// Records physical cards for the draw the room asks for next at `table` (Law 3 checks every
/// card). The rubber's draw starts with the first valid card (rule B: "a card duly drawn"); once
/// every player holds a valid card the draw takes effect: a going-out or entry draw settles the
/// line-up, a partnership draw waits for StartRubber.
pub fn record_physical(state: &ClubState, table: u64, request: PhysicalRequest, at: i64) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let existing = match &request.draw_id {
        Some(id) => {
            let draw = state.line_up_draws(table).iter().find(|d| d.draw_id == *id).ok_or_else(|| {
                ServiceError::not_found(format!(
                    "draw {id} among the draws for the next rubber at {}",
                    state.table_id(table)
                ))
            })?;
            if draw.is_complete() {
                return Err(ServiceError::Rule {
                    message: format!("draw {id} is complete: every player holds a valid card (Law 3)"),
                    law: Law::rubber(3, ""),
                });
            }
            draw.clone()
        }
        None => {
            line_up_purpose(request.purpose)?;
            if let Some(pending) = pending_physical(state, table) {
                return Err(pending_refusal(pending));
            }
            if request.purpose == Purpose::Partnerships
                && let Some(done) = partnership_draw(state, table)
            {
                return Err(ServiceError::Rule {
                    message: format!(
                        "the draw for partnerships for the next rubber has been made (draw {}) (Law 3)",
                        done.draw_id
                    ),
                    law: Law::rubber(3, ""),
                });
            }
            let mut probe = Sim::new(state, at);
            lining_up(&mut probe, table)?;
            let needed = expected_draw(&probe, table, request.purpose, &request.players)?;
            DrawRecord {
                draw_id: draws::new_id(),
                purpose: request.purpose,
                physical: true,
                players: request.players.clone(),
                drawings: Vec::new(),
                seed: None,
                started_at: None,
                completed_at: None,
                settles: needed.purpose.into(),
                committed_before: false,
            }
        }
    };
    let record = draws::record_physical(state, &existing, &request.cards, sim.at())?;
    if record.started_at.is_some() {
        lining_up(&mut sim, table)?;
    }
    if record.is_complete() && record.settles != LawPurpose::Partnerships {
        let at = sim.at;
        sim.push(ProcedureEvent::LineUpDrawn {
            table: TableId(table),
            purpose: record.settles.into(),
            draw: record.cards(),
            at,
        })?;
    }
    // A physical draw uses no seed; it only commits seeds at a table that has none yet (opened
    // before tables kept commitments), so that its next server draw is committed before.
    let next_seeds = draws::Seeds::of(state.committed_seeds(table)).after(draws::SEEDS_AHEAD);
    Ok(sim.plan(Command::Draw { table, draw: record, next_seeds }))
}

/// A seat the desk chose for a player.
pub type SeatChoiceRequest = (Seat, u64);

/// Starts a rubber: starts its draw if that has not begun (rule B), has the server make every draw
/// the room still asks for (going out, entry from another table: rule E), then the partnerships
/// (Law 3: the desk's physical draw, one made before, a server draw, or the pivot's rotation), and
/// seats the four as Law 3 says.
pub fn start_rubber(
    state: &ClubState,
    table: u64,
    partnership_draw_id: Option<&str>,
    seat_choices: &[SeatChoiceRequest],
    at: i64,
) -> Result<Plan, ServiceError> {
    if let Some(pending) = pending_physical(state, table) {
        return Err(pending_refusal(pending));
    }
    let mut sim = Sim::new(state, at);
    lining_up(&mut sim, table)?;
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let mut new_draws = Vec::new();
    let mut used_draw = None;
    let mut partnership_cards = None;
    let mut set = None;
    // Rule E can ask for at most a going-out draw, a "who would otherwise play" draw and an entry
    // draw before the partnerships; the bound only guards against a loop.
    for _ in 0..8 {
        match sim.room.next_draw(TableId(table)) {
            Some(needed) if needed.purpose != DrawPurpose::Partnerships => {
                let record = server_draw_for(state, &needed, &mut seeds, sim.at())?;
                let at = sim.at;
                sim.push(ProcedureEvent::LineUpDrawn {
                    table: TableId(table),
                    purpose: needed.purpose,
                    draw: record.cards(),
                    at,
                })?;
                new_draws.push(record);
            }
            Some(needed) => {
                let cards = match partnership_draw_id {
                    Some(id) => {
                        let draw = state
                            .line_up_draws(table)
                            .iter()
                            .find(|d| d.draw_id == id && d.purpose == Purpose::Partnerships && d.is_complete())
                            .ok_or_else(|| {
                                ServiceError::FailedPrecondition(format!(
                                    "partnership_draw_id: {id} is not a complete draw for partnerships for this rubber \
                                     at {}",
                                    state.table_id(table)
                                ))
                            })?;
                        used_draw = Some(draw.draw_id.clone());
                        draw.cards()
                    }
                    None => match partnership_draw(state, table) {
                        Some(draw) => {
                            used_draw = Some(draw.draw_id.clone());
                            draw.cards()
                        }
                        None => {
                            let record = server_draw_for(state, &needed, &mut seeds, sim.at())?;
                            let cards = record.cards();
                            new_draws.push(record);
                            cards
                        }
                    },
                };
                let four: [DrawnCard; 4] = cards.clone().try_into().map_err(|_| ServiceError::Rule {
                    message: "the draw for partnerships is four cards, one for each player (Law 3)".to_owned(),
                    law: Law::rubber(3, ""),
                })?;
                let at = sim.at;
                let outcomes = sim.push(ProcedureEvent::RubberStarted {
                    table: TableId(table),
                    partnerships: PartnershipSource::Drawn(four),
                    at,
                })?;
                set = partnerships_set(outcomes);
                partnership_cards = Some(cards);
                break;
            }
            None => {
                let at = sim.at;
                let outcomes = sim.push(ProcedureEvent::RubberStarted {
                    table: TableId(table),
                    partnerships: PartnershipSource::Pivot,
                    at,
                })?;
                set = partnerships_set(outcomes);
                break;
            }
        }
    }
    let Some(Outcome::PartnershipsSet { partnerships, first_dealer, no_consecutive_applied, .. }) = set else {
        return Err(ServiceError::internal("a rubber started without partnerships"));
    };
    let dealer = first_dealer.unwrap_or(partnerships.sides()[0][0]);
    let result = DrawResult { partnerships, first_dealer: dealer, no_consecutive_applied };
    let seating = seat(state, &result, partnership_cards.as_deref(), seat_choices)?;
    let seats = Seat::ALL.map(|s| seating.player_at(s).0);
    let first_dealer = seating.first_dealer().index() as u8;
    let rubber_id = uuid::Uuid::now_v7().to_string();
    Ok(sim.plan(Command::StartRubber {
        table,
        rubber_id,
        draws: new_draws,
        partnership_draw_id: used_draw,
        seats,
        first_dealer,
        next_seeds: seeds.after(draws::SEEDS_AHEAD),
    }))
}

fn partnerships_set(outcomes: Vec<Outcome>) -> Option<Outcome> {
    outcomes.into_iter().find(|o| matches!(o, Outcome::PartnershipsSet { .. }))
}

/// Law 3: the first dealer chooses his seat, his partner sits opposite, the opponents take the
/// other two. With no choices the server seats the first dealer North and the opponent with the
/// higher card East (on his left).
fn seat(
    state: &ClubState,
    result: &DrawResult,
    cards: Option<&[DrawnCard]>,
    choices: &[SeatChoiceRequest],
) -> Result<Seating, ServiceError> {
    let refuse = |e: laws::draw::DrawError| state.refusal(&e);
    if choices.is_empty() {
        let [a, b] = result.opponents();
        let card = |p| cards.and_then(|c| c.iter().find(|d| d.player == p).map(|d| d.card));
        let lho = if card(b) > card(a) { b } else { a };
        return Seating::choose(result, SeatChoice { dealer_seat: Seat::North, deck: Deck::First, dealer_lho: lho })
            .map_err(refuse);
    }
    let dealer = result.first_dealer;
    let dealer_seat =
        choices.iter().find(|(_, p)| *p == dealer.0).map(|(s, _)| *s).ok_or_else(|| ServiceError::Rule {
            message: format!(
                "seat_choices: the first dealer, player {}, chooses his seat (Law 3), but he has none",
                state.player_id(dealer.0)
            ),
            law: Law::rubber(3, ""),
        })?;
    let lho = choices
        .iter()
        .find(|(s, _)| *s == dealer_seat.lho())
        .map(|(_, p)| player(*p))
        .ok_or_else(|| ServiceError::invalid("seat_choices", "every seat needs a player"))?;
    let seating =
        Seating::choose(result, SeatChoice { dealer_seat, deck: Deck::First, dealer_lho: lho }).map_err(refuse)?;
    for (s, p) in choices {
        if seating.player_at(*s).0 != *p {
            return Err(ServiceError::Rule {
                message: format!(
                    "seat_choices: player {} cannot sit {s:?}: the first dealer's partner sits opposite him and the \
                     opponents take the other two seats (Law 3)",
                    state.player_id(*p)
                ),
                law: Law::rubber(3, ""),
            });
        }
    }
    Ok(seating)
}

/// The rubber in progress ends (finished, or not: Law 80); the laws count consecutive rubbers
/// and lift breaker restrictions (rule E). A fourth whose rubber just ended may now return.
pub fn end_rubber(
    state: &ClubState,
    table: u64,
    rubber_id: &str,
    completed: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::RubberEnded { table: TableId(table), completed, at })?;
    sim.follow_ups();
    Ok(sim.plan(Command::EndRubber { table, rubber_id: rubber_id.to_owned(), completed }))
}

#[cfg(test)]
mod tests {
    use api::membership::v1 as pb;
    use laws::draw::DrawSeed;
    use prost::Message;

    use super::*;
    use crate::draws::SEEDS_AHEAD;
    use crate::journal::{Entry, Form};

    /// Journals `plan` as the next entry and applies it, as the engine does.
    fn run(state: &ClubState, plan: Plan, at: i64) -> (ClubState, Entry, crate::state::Changes) {
        let entry = Entry {
            at,
            actor: "desk".into(),
            command: plan.command,
            events: plan.events,
            opening_seeds: plan.opening_seeds,
        };
        let (next, changes) = state.apply(state.seq + 1, &entry).unwrap();
        (next, entry, changes)
    }

    /// Five players in the room and a table of the five: the journal so far.
    fn club() -> Vec<Entry> {
        let mut state = ClubState::new();
        let mut journal = Vec::new();
        for n in 1..=5 {
            let plan = arrive(&state, &format!("p{n}"), n, n as i64).unwrap().unwrap();
            let (next, entry, _) = run(&state, plan, n as i64);
            state = next;
            journal.push(entry);
        }
        let spec = TableSpec { name: String::new(), form: Form::Rubber, options: Options::default() };
        let plan = open_table(&state, spec, &[1, 2, 3, 4, 5], 10).unwrap();
        journal.push(run(&state, plan, 10).1);
        journal
    }

    fn replay(journal: &[Entry]) -> ClubState {
        journal.iter().fold(ClubState::new(), |state, entry| state.apply(state.seq + 1, entry).unwrap().0)
    }

    fn commitments(seeds: &[[u8; 32]]) -> Vec<Vec<u8>> {
        seeds.iter().map(|s| DrawSeed(*s).commitment().to_vec()).collect()
    }

    #[test]
    fn a_server_draw_reveals_the_seed_committed_before_and_commits_the_next_in_the_same_entry() {
        let journal = club();
        let state = replay(&journal);
        let committed = state.committed_seeds(1).to_vec();
        assert_eq!(committed.len(), SEEDS_AHEAD, "committed when the table opened");
        let table = state.table(1).unwrap().clone();
        assert_eq!(table.next_draw_seed_commitments, commitments(&committed), "the table shows the commitments");
        for seed in &committed {
            let shown = table.encode_to_vec();
            assert!(!shown.windows(32).any(|w| w == seed), "a seed is never shown before its draw");
        }

        let plan = draw_cards(&state, 1, Purpose::Partnerships, &[1, 2, 3, 4], 20).unwrap();
        let Command::Draw { draw, next_seeds: Some(next_seeds), .. } = &plan.command else {
            panic!("the draw commits the next seeds: {:?}", plan.command)
        };
        assert_eq!(draw.seed.as_deref(), Some(hex::encode(committed[0]).as_str()));
        assert!(draw.committed_before);
        let rest: Vec<String> = committed[1..].iter().map(hex::encode).collect();
        assert_eq!(next_seeds[..SEEDS_AHEAD - 1], rest[..], "the others keep their order");
        assert!(!committed.iter().any(|s| hex::encode(s) == next_seeds[SEEDS_AHEAD - 1]), "a new one at the back");

        let (after, _, changes) = run(&state, plan, 20);
        assert_eq!(after.committed_seeds(1)[..SEEDS_AHEAD - 1], committed[1..]);
        let shown = &changes.draws[0];
        assert!(shown.seed_committed_before_draw);
        assert_eq!(shown.seed_commitment, table.next_draw_seed_commitments[0], "the commitment published before");
        let published = changes.table_events.iter().find_map(|e| match &e.event {
            Some(pb::table_event::Event::DrawSeedsCommitted(c)) => Some(c.next_draw_seed_commitments.clone()),
            _ => None,
        });
        assert_eq!(published, Some(commitments(after.committed_seeds(1))), "watchers see the new commitments");
    }

    #[test]
    fn the_room_commits_its_opening_draw_seed_with_its_first_entry_and_keeps_it_until_used() {
        let mut state = ClubState::new();
        for n in 1..=5 {
            let plan = arrive(&state, &format!("p{n}"), n, n as i64).unwrap().unwrap();
            assert_eq!(plan.opening_seeds.is_some(), n == 1, "committed by the room's first entry only");
            let (next, _, changes) = run(&state, plan, n as i64);
            let published = changes.room_events.iter().any(|e| {
                matches!(&e.event, Some(pb::room_event::Event::OpeningDrawSeedCommitted(c))
                    if c.next_opening_draw_seed_commitment == next.opening_commitment())
            });
            assert_eq!(published, n == 1, "watchers of the room see it committed");
            state = next;
        }
        let committed = state.opening_seeds().to_vec();
        assert_eq!(committed.len(), crate::draws::OPENING_SEEDS_AHEAD);
        // Five who entered one after another rank by entry: no draw, so the seed stays for the next.
        let spec = TableSpec { name: String::new(), form: Form::Rubber, options: Options::default() };
        let plan = open_table(&state, spec, &[1, 2, 3, 4, 5], 10).unwrap();
        let Command::OpenTable { draw: None, next_seeds, .. } = &plan.command else { panic!("{:?}", plan.command) };
        assert_eq!(next_seeds.as_ref().map(Vec::len), Some(SEEDS_AHEAD), "the new table commits its own");
        assert!(plan.opening_seeds.is_none());
        assert_eq!(run(&state, plan, 10).0.opening_seeds(), committed.as_slice());
    }

    #[test]
    fn a_journal_replayed_keeps_the_committed_seeds() {
        let journal = club();
        assert_eq!(replay(&journal).committed_seeds(1), replay(&journal).committed_seeds(1));
        let stored: Vec<String> = journal.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
        let read: Vec<Entry> = stored.iter().map(|s| serde_json::from_str(s).unwrap()).collect();
        assert_eq!(read, journal);
    }

    #[test]
    fn a_table_opened_before_commitments_were_kept_commits_at_its_first_draw_and_says_so() {
        // The journal as it was written before tables kept commitments: no next_seeds.
        let journal: Vec<Entry> = club()
            .iter()
            .map(|e| {
                let mut json = serde_json::to_value(e).unwrap();
                if let Some(entry) = json.as_object_mut() {
                    entry.remove("opening_seeds");
                }
                if let Some(command) = json.get_mut("command").and_then(|c| c.as_object_mut()) {
                    command.remove("next_seeds");
                }
                serde_json::from_value(json).unwrap()
            })
            .collect();
        let state = replay(&journal);
        assert!(state.committed_seeds(1).is_empty());
        assert!(state.opening_seeds().is_empty());
        assert!(state.table(1).unwrap().next_draw_seed_commitments.is_empty());

        let plan = draw_cards(&state, 1, Purpose::Partnerships, &[1, 2, 3, 4], 20).unwrap();
        let Command::Draw { draw, .. } = &plan.command else { panic!("{:?}", plan.command) };
        assert!(!draw.committed_before, "its seed was committed at the draw, and the draw says so");
        let (state, _, changes) = run(&state, plan, 20);
        assert!(!changes.draws[0].seed_committed_before_draw);
        assert_eq!(state.committed_seeds(1).len(), SEEDS_AHEAD, "the next draws' seeds are committed");
        assert_eq!(state.opening_seeds().len(), crate::draws::OPENING_SEEDS_AHEAD, "and the room's");

        // From then on every server draw uses a seed committed before.
        let rubber = start_rubber(&state, 1, None, &[], 30).unwrap();
        let (state, _, _) = run(&state, rubber, 30);
        let Some(rubber_id) = state.current_rubber(1).map(|r| r.rubber_id.clone()) else { panic!("no rubber") };
        let (state, _, _) = run(&state, end_rubber(&state, 1, &rubber_id, true, 40).unwrap(), 40);
        let committed = state.committed_seeds(1).to_vec();
        let plan = start_rubber(&state, 1, None, &[], 50).unwrap();
        let Command::StartRubber { draws, .. } = &plan.command else { panic!("{:?}", plan.command) };
        assert!(!draws.is_empty(), "going out and partnerships drawn by the server");
        for (draw, seed) in draws.iter().zip(&committed) {
            assert!(draw.committed_before);
            assert_eq!(draw.seed.as_deref(), Some(hex::encode(seed).as_str()), "in the order committed");
        }
    }
}
