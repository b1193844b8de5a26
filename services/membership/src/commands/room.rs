//! The room's and its tables' membership: a player arrives or leaves, a table is opened from its
//! applicants (rule C) or closed, its options change, players apply (rule D) or withdraw, a member
//! leaves a table or makes a fourth at another (rule F).

use laws::procedure::{Outcome, ProcedureEvent, TableId, Timestamp};

use platform::ServiceError;

use crate::draws;
use crate::journal::{Command, DrawRecord, NewApplication, NewTable, Options};
use crate::state::{ClubState, player};

use super::{Plan, Sim, precedence_draw};

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

/// The desk corrects when a player entered the room (rule C orders those who have not played by
/// it): the laws refuse a time after the correction or a player not in the room.
pub fn correct_arrival(
    state: &ClubState,
    number: u64,
    arrived_at: i64,
    reason: &str,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::EntryCorrected { player: player(number), entered_at: Timestamp(arrived_at), at })?;
    Ok(sim.plan(Command::CorrectArrival { player: number, arrived_at, reason: reason.to_owned() }))
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
/// applicants of equal rank when their order matters: the desk's cards, or the server's when
/// `server_draw` or the table's option asks for it. `returning_fourths`
/// are members of other tables who make the fourth and will return to them (rule F).
pub fn open_table(
    state: &ClubState,
    spec: TableSpec,
    applicants: &[u64],
    returning_fourths: &[u64],
    precedence_cards: &[draws::PhysicalCard],
    server_draw: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    let number = state.next_table_number();
    let applicants: Vec<_> = applicants.iter().map(|p| player(*p)).collect();
    let needed = state.room.formation_draw(&applicants).map_err(|e| state.refusal(&e))?;
    // The table does not exist before this command, so nothing was committed for it: a
    // precedence draw here uses the seed the room committed for opening draws, and the table's
    // own seeds are committed with it.
    let mut opening = draws::Seeds::of(state.opening_seeds());
    let server_draw = server_draw || spec.options.server_draws_automatic;
    let draw = precedence_draw(state, needed.as_ref(), precedence_cards, server_draw, &mut opening, at.0, 'C')?;
    let outcomes = sim.push(ProcedureEvent::TableFormed {
        table: TableId(number),
        form: spec.form.into(),
        options: spec.options.laws(),
        applicants: applicants.clone(),
        returning_fourths: returning_fourths.iter().map(|p| player(*p)).collect(),
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
/// the rest wait (and so does anyone playing a rubber at another table, until it ends: rule F); if they are more than the places left, the room asks for a draw among them:
/// the desk's cards, or the server's when `server_draw` or the table's option asks for it.
pub fn apply(
    state: &ClubState,
    table: u64,
    players: &[u64],
    precedence_cards: &[draws::PhysicalCard],
    server_draw: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    let applicants: Vec<_> = players.iter().map(|p| player(*p)).collect();
    let needed = state.room.application_draw(TableId(table), &applicants).map_err(|e| state.refusal(&e))?;
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let server_draw = server_draw || state.options(table).is_some_and(|o| o.server_draws_automatic);
    let draw = precedence_draw(state, needed.as_ref(), precedence_cards, server_draw, &mut seeds, at.0, 'D')?;
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

/// The desk marks applications waiting at `table` as made together, after the fact (rule D): a
/// draw orders them (the desk's physical cards, or the server's when asked) and they take the place of
/// the first of them on the waiting list.
pub fn join_applications(
    state: &ClubState,
    table: u64,
    application_ids: &[String],
    precedence_cards: &[draws::PhysicalCard],
    server_draw: bool,
    at: i64,
) -> Result<Plan, ServiceError> {
    let mut players = Vec::with_capacity(application_ids.len());
    for (i, id) in application_ids.iter().enumerate() {
        let application = state.application(id).filter(|a| a.table == table).ok_or_else(|| {
            ServiceError::not_found(format!(
                "application_ids[{i}]: waiting application {id} at {}",
                state.table_id(table)
            ))
        })?;
        players.push(application.player);
    }
    let applicants: Vec<_> = players.iter().map(|p| player(*p)).collect();
    let needed = state.room.joined_draw(TableId(table), &applicants).map_err(|e| state.refusal(&e))?;
    let mut seeds = draws::Seeds::of(state.committed_seeds(table));
    let server_draw = server_draw || state.options(table).is_some_and(|o| o.server_draws_automatic);
    let draw = precedence_draw(state, Some(&needed), precedence_cards, server_draw, &mut seeds, at, 'D')?
        .ok_or_else(|| ServiceError::internal("a draw needed and none made"))?;
    let mut sim = Sim::new(state, at);
    let at = sim.at;
    sim.push(ProcedureEvent::ApplicationsJoined {
        table: TableId(table),
        players: applicants,
        draw: draw.cards(),
        at,
    })?;
    let next_seeds = seeds.after(draws::SEEDS_AHEAD);
    Ok(sim.plan(Command::JoinApplications { table, application_ids: application_ids.to_vec(), draw, next_seeds }))
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
