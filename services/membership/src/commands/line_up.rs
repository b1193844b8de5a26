//! The draws for the next rubber's line-up (Law 3, rule E): made by the server from a committed
//! seed, or recorded card by card from a physical draw, each checked against the draw the room
//! asks for next.

use laws::Law;
use laws::procedure::{DrawNeeded, DrawPurpose, ProcedureEvent, TableId, TablePhase};

use platform::ServiceError;

use crate::draws;
use crate::journal::{Command, DrawRecord, LawPurpose, Purpose};
use crate::state::{ClubState, player};

use super::{Plan, Sim, server_draw_for};

/// Refuses a draw for precedence outside OpenTable and ApplyToTable, which make those draws,
/// except the one a new table's first rubber may call for (rule C: members of equal rank
/// straddling the fourth place, when someone cut in before its first draw), which the room asks
/// for as the rubber's draw starts.
fn line_up_purpose(state: &ClubState, table: u64, purpose: Purpose, at: i64) -> Result<(), ServiceError> {
    if purpose != Purpose::Precedence {
        return Ok(());
    }
    let mut probe = Sim::new(state, at);
    if lining_up(&mut probe, table).is_ok()
        && probe.room.next_draw(TableId(table)).is_some_and(|n| n.purpose == DrawPurpose::Formation)
    {
        return Ok(());
    }
    Err(ServiceError::Rule {
        message: "draws for precedence between applicants are made when the table is opened or the applications \
                  are made, and a physical one is recorded with that command (OpenTable's or ApplyToTable's \
                  precedence_drawings); a draw recorded here is for the next rubber, and one for precedence only \
                  when a new table's first rubber needs it (rules C and D of the Rules for Club Procedure)"
            .to_owned(),
        law: Law::club_procedure('D'),
    })
}

pub(super) fn pending_refusal(draw: &DrawRecord) -> ServiceError {
    ServiceError::Rule {
        message: format!(
            "draw {} awaits cards or redraws; record them with RecordPhysicalDraw and its draw_id first (Law 3)",
            draw.draw_id
        ),
        law: Law::rubber(3, ""),
    }
}

/// The room with the draw for the next rubber started, if it had not (rule B: the first card).
pub(super) fn lining_up(sim: &mut Sim<'_>, table: u64) -> Result<(), ServiceError> {
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
    let names = |players: &[laws::draw::PlayerId]| {
        players.iter().map(|p| sim.state.player_id(p.0)).collect::<Vec<_>>().join(", ")
    };
    match needed {
        Some(needed) if matches => Ok(needed),
        // The draw the desk asked for is not the one the table needs: say so, and which it needs
        // (the table's next steps show the same).
        Some(needed) if LawPurpose::from(needed.purpose).contract() == purpose => Err(ServiceError::Rule {
            message: format!(
                "{} at {} is among {}, not {} ({})",
                needed.purpose,
                sim.state.table_id(table),
                names(&needed.players),
                names(&given_players),
                needed.purpose.law()
            ),
            law: needed.purpose.law(),
        }),
        Some(needed) => Err(ServiceError::Rule {
            message: format!(
                "{} is not needed at {} now: the table needs {} among {} ({})",
                requested(purpose),
                sim.state.table_id(table),
                needed.purpose,
                names(&needed.players),
                needed.purpose.law()
            ),
            law: needed.purpose.law(),
        }),
        None => Err(ServiceError::Rule {
            message: format!(
                "{} is not needed at {} now: its pivot gives the partnerships, and nothing else is left to draw \
                 (Appendix 4 B)",
                requested(purpose),
                sim.state.table_id(table)
            ),
            law: Law::rubber(3, ""),
        }),
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
    line_up_purpose(state, table, purpose, at)?;
    if let Some(pending) = state.pending_physical_draw(table) {
        return Err(pending_refusal(pending));
    }
    if purpose == Purpose::Partnerships
        && let Some(done) = state.partnership_draw(table)
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
            if state.draw_called_off(table, id) {
                return Err(ServiceError::Rule {
                    message: format!(
                        "draw {id} was called off: the members of {} changed before its first valid card, so it \
                         no longer has the players who must draw; open the draw the table needs now (rule B of the \
                         Rules for Club Procedure)",
                        state.table_id(table)
                    ),
                    law: Law::club_procedure('B'),
                });
            }
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
            line_up_purpose(state, table, request.purpose, at)?;
            if let Some(pending) = state.pending_physical_draw(table) {
                return Err(pending_refusal(pending));
            }
            if request.purpose == Purpose::Partnerships
                && let Some(done) = state.partnership_draw(table)
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
            DrawRecord::new_physical(request.purpose, request.players.clone(), needed.purpose.into())
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
