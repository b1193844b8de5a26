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
    rank(room, player, room.is_leaving_a_table(player))
}

/// Rule C's rank of `player`, given whether he is leaving an existing table to join.
fn rank(room: &Room, player: PlayerId, leaving: bool) -> (u8, i64, u64) {
    if leaving {
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

/// Rule C's rank of a member of `table` for its first rubber. Once a member, everyone is "a
/// member of a table", so whether he left an existing table to join is read from his membership:
/// he came from another table, or he is making a fourth here away from his own (rule F), as
/// [`formation_rank`] ranked the founders.
fn member_rank(room: &Room, table: &Table, player: PlayerId) -> (u8, i64, u64) {
    let leaving = table.member(player).is_some_and(|m| m.came_from.is_some() || m.fourth_for.is_some());
    rank(room, player, leaving)
}

/// The four who play the first rubber at `table` (rule C: "The four highest-ranking members
/// play the first rubber"), or the draw needed. Rule B makes a member admitted before the first
/// card of that rubber's draw a member for it, so the reading (docs/laws-readings.md,
/// "Precedence when forming a table (rule C)") ranks every eligible member, founders and those
/// who cut in alike, as rule C ranks applicants: not played, by order of entry into the room;
/// then played, equal; lowest, those who left an existing table to join. Members of equal rank
/// keep the table's member order, except where a group of them straddles the fourth place: then
/// the formation draw, or a draw already made for this line-up (`drawn`), orders them if it covers
/// the whole group, and otherwise they must draw ("Precedence between those of equal rank is
/// determined by drawing cards"). A breaker comes after the players he left (rule E).
pub(super) fn first_rubber(
    room: &Room,
    table: &Table,
    eligible: &[PlayerId],
    drawn: Option<&PrecedenceDraw>,
) -> Result<Vec<PlayerId>, DrawNeeded> {
    let places = 4;
    let rank_of = |p: &PlayerId| member_rank(room, table, *p);
    let mut order = eligible.to_vec();
    // Stable: equals keep the member order, which for the founders is the formation's.
    order.sort_by_key(rank_of);
    if order.len() > places && rank_of(&order[places - 1]) == rank_of(&order[places]) {
        let boundary = rank_of(&order[places]);
        let start = order.iter().position(|p| rank_of(p) == boundary).unwrap_or(0);
        let end = start + order[start..].iter().take_while(|p| rank_of(p) == boundary).count();
        let group = &order[start..end];
        match [table.formation_draw.as_ref(), drawn].into_iter().flatten().find(|d| d.covers(group)) {
            Some(draw) => {
                let ranked = draw.order(group);
                order[start..end].copy_from_slice(&ranked);
            }
            None => {
                return Err(DrawNeeded {
                    table: Some(table.id),
                    purpose: DrawPurpose::Formation,
                    players: group.to_vec(),
                });
            }
        }
    }
    demote_breakers(&mut order, &room.restrictions);
    order.truncate(places);
    Ok(order)
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
