//! Precedence among applicants (rules C and D) and the breaker restriction's effect on it
//! (rule E).

use super::{BreakerRestriction, DrawNeeded, DrawPurpose, Room, Table};
use crate::draw::{PlayerId, PrecedenceDraw};

/// Rule E: a player who broke up a game "may not compete against them for entry at another
/// table". In any order of precedence (formation, simultaneous applications, the waiting
/// list) the breaker is moved to just after the last player he may not compete against, and
/// no one else moves.
pub(super) fn demote_breakers(order: &mut Vec<PlayerId>, restrictions: &[BreakerRestriction]) {
    for restriction in restrictions {
        let Some(breaker) = order.iter().position(|p| *p == restriction.breaker) else { continue };
        let Some(last_protected) = order.iter().rposition(|p| restriction.protects(*p)) else { continue };
        if last_protected > breaker {
            let player = order.remove(breaker);
            order.insert(last_protected, player);
        }
    }
}

/// The rank class of an applicant forming a table (as docs/laws-readings.md reads it in
/// "Precedence when forming a table (rule C)"): first those who have not played, by order of
/// entry into the room; then those who have played, all equal; lowest, those leaving an
/// existing table to join.
fn formation_rank(room: &Room, player: PlayerId) -> (u8, i64, u64) {
    if room.is_leaving_a_table(player) {
        (2, 0, 0)
    } else if !room.has_played(player) {
        // By the time of entry (as the desk may have corrected it), then by the order the room
        // recorded entries made at the same time.
        let entry =
            room.players.get(&player).and_then(|p| p.entered).map_or((i64::MAX, u64::MAX), |(at, seq)| (at.0, seq));
        (0, entry.0, entry.1)
    } else {
        (1, 0, 0)
    }
}

/// Whether the order inside a group of equal rank occupying places `start..end` (from 0)
/// matters: it decides who plays the first rubber (the four highest), who is a member (the six
/// highest), or places on the waiting list (beyond six). Inside the first four, or among the
/// fifth and sixth, it decides nothing, so no cards need be drawn.
fn order_matters(start: usize, end: usize) -> bool {
    let first_rubber = 4;
    let complete = Table::COMPLETE;
    (start < first_rubber && end > first_rubber)
        || (start < complete && end > complete)
        || end.saturating_sub(start.max(complete)) >= 2
}

/// The precedence of `applicants` forming a table (rule C), highest first, or the draw needed
/// to settle it: "Precedence between those of equal rank is determined by drawing cards, the
/// player who draws the highest-ranking card having precedence." With `draw`, the groups of
/// equal rank whose order matters are ordered by it.
pub(super) fn formation_order(
    room: &Room,
    applicants: &[PlayerId],
    draw: Option<&PrecedenceDraw>,
) -> Result<Vec<PlayerId>, DrawNeeded> {
    let mut order = applicants.to_vec();
    order.sort_by_key(|p| formation_rank(room, *p));
    let mut undrawn = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let rank = formation_rank(room, order[start]);
        let end = start + order[start..].iter().take_while(|p| formation_rank(room, **p) == rank).count();
        if end - start >= 2 && order_matters(start, end) {
            match draw {
                Some(draw) if draw.covers(&order[start..end]) => {
                    let ranked = draw.order(&order[start..end]);
                    order[start..end].copy_from_slice(&ranked);
                }
                _ => undrawn.extend_from_slice(&order[start..end]),
            }
        }
        start = end;
    }
    if !undrawn.is_empty() {
        return Err(DrawNeeded { table: None, purpose: DrawPurpose::Formation, players: undrawn });
    }
    demote_breakers(&mut order, &room.restrictions);
    Ok(order)
}

/// The draw rule D calls for when `players` apply to `table` at the same time: needed only
/// when they are more than the places left to complete the table (six members); then all of
/// them draw, and the order decides both who becomes a member now and the order of the rest
/// on the waiting list.
pub(super) fn application_draw(table: &Table, players: &[PlayerId]) -> Option<DrawNeeded> {
    let vacancies = Table::COMPLETE.saturating_sub(table.members.len());
    (players.len() >= 2 && players.len() > vacancies).then(|| DrawNeeded {
        table: Some(table.id),
        purpose: DrawPurpose::CutIn,
        players: players.to_vec(),
    })
}
