//! Who plays each rubber and who sits out: the time limit (rule B), the first rubber of a new
//! table (rule C) and going out (rule E), with the draws they call for.

use super::precedence::{demote_breakers, first_rubber};
use super::{BreakerRestriction, DrawNeeded, DrawPurpose, Phase, Room, Table};
use crate::draw::{PlayerId, PrecedenceDraw};

/// The four who play a rubber and the eligible members who sit it out (rules B, C, E).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineUp {
    /// The four who play.
    pub playing: [PlayerId; 4],
    /// Eligible members who sit out, in the table's member order.
    pub sitting_out: Vec<PlayerId>,
}

/// Who comes in and who goes out for the next rubber as the table stands now (rule E), before
/// its draw starts. Rule B lets a member admitted before that draw still change it, so this is
/// a preview: the line-up itself is settled by [`super::Room::line_up`] once the draw starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GoingOut {
    /// Members who did not play the last rubber and come in (rule E: "each member who did not
    /// play the last rubber must be given a place").
    pub coming_in: Vec<PlayerId>,
    /// Members who give up their places: those with the most consecutive rubbers at the table.
    pub going_out: Vec<PlayerId>,
    /// Members tied for most consecutive rubbers when only some of them must go out: the draw
    /// for the next rubber settles which, the lowest cards going out (rule E). When more members
    /// did not play the last rubber than there are places, they are the ones listed here (and
    /// `coming_in` is empty): "cards are drawn for precedence if necessary", and the four highest
    /// cards come in.
    pub tied: Vec<PlayerId>,
}

/// The going out after the last rubber at `table` (see [`GoingOut`]); `None` before the table's
/// first rubber. Members who left another existing table are not counted: for their first
/// rubber they draw against the member who would otherwise play (rule E), which only the draw
/// can settle; the preview is that member's line-up, the one rule E calls "would otherwise
/// have played".
pub(super) fn preview(table: &Table) -> Option<GoingOut> {
    let last = table.last_line_up?;
    let is_leaver = |p: &PlayerId| table.member(*p).is_some_and(|m| m.came_from.is_some());
    let candidates: Vec<PlayerId> = table.present_members().filter(|p| !is_leaver(p)).collect();
    let (mut continuing, sitters): (Vec<PlayerId>, Vec<PlayerId>) = candidates.iter().partition(|p| last.contains(p));
    if sitters.len() > 4 {
        return Some(GoingOut { coming_in: Vec::new(), going_out: continuing, tied: sitters });
    }
    if sitters.len() == 4 {
        return Some(GoingOut { coming_in: sitters, going_out: continuing, tied: Vec::new() });
    }
    let seats = 4 - sitters.len();
    if continuing.len() <= seats {
        return Some(GoingOut { coming_in: sitters, going_out: Vec::new(), tied: Vec::new() });
    }
    let consecutive = |p: &PlayerId| table.member(*p).map_or(0, |m| m.consecutive_rubbers);
    continuing.sort_by_key(consecutive);
    let going = consecutive(&continuing[seats]);
    let staying = continuing.iter().filter(|p| consecutive(p) < going).count();
    let mut going_out: Vec<PlayerId> = continuing.iter().copied().filter(|p| consecutive(p) > going).collect();
    let tied: Vec<PlayerId> = continuing.iter().copied().filter(|p| consecutive(p) == going).collect();
    if staying == seats {
        going_out.extend(tied);
        return Some(GoingOut { coming_in: sitters, going_out, tied: Vec::new() });
    }
    Some(GoingOut { coming_in: sitters, going_out, tied })
}

/// The line-up of the rubber `table` is drawing for, or the draw still needed; `None` if the
/// table is not lining up.
pub(super) fn resolve(room: &Room, table: &Table) -> Option<Result<LineUp, DrawNeeded>> {
    let Phase::LiningUp { eligible, draws } = &table.phase else { return None };
    let draw_for = |purpose: DrawPurpose| draws.iter().find(|(p, _)| *p == purpose).map(|(_, d)| d);
    let playing = match table.last_line_up {
        // The first rubber: the four highest-ranking members (rule C).
        None => first_rubber(room, table, eligible, draw_for(DrawPurpose::Formation)),
        Some(last) => line_up(table, last, eligible, &draw_for, &room.restrictions),
    };
    let playing = match playing {
        Ok(playing) => playing,
        Err(needed) => return Some(Err(needed)),
    };
    // The rules always leave exactly four: rule B requires four eligible members to start,
    // and every step below keeps the count at four.
    let playing: [PlayerId; 4] = playing.try_into().ok()?;
    let sitting_out = eligible.iter().copied().filter(|p| !playing.contains(p)).collect();
    Some(Ok(LineUp { playing, sitting_out }))
}

/// The four who play a rubber after `last` (rule E), or the draw needed.
fn line_up<'a>(
    table: &Table,
    last: [PlayerId; 4],
    eligible: &[PlayerId],
    draw_for: &impl Fn(DrawPurpose) -> Option<&'a PrecedenceDraw>,
    restrictions: &[BreakerRestriction],
) -> Result<Vec<PlayerId>, DrawNeeded> {
    let going_out_draw: Vec<&PrecedenceDraw> = draw_for(DrawPurpose::GoingOut).into_iter().collect();
    let mut playing = going_out(table, last, eligible, &going_out_draw, DrawPurpose::GoingOut)?;
    // Rule E: "A member who has left another existing table must draw cards for his first
    // rubber with the member who would otherwise have played." Who would otherwise have
    // played is the line-up without such members; where that is itself a tie, a draw settles
    // it (reusing the going-out draw when it already ranks the tied members).
    let is_leaver = |p: &PlayerId| table.member(*p).is_some_and(|m| m.came_from.is_some());
    let leavers: Vec<PlayerId> = playing.iter().copied().filter(is_leaver).collect();
    if leavers.is_empty() {
        return Ok(playing);
    }
    let others: Vec<PlayerId> = eligible.iter().copied().filter(|p| !is_leaver(p)).collect();
    let without = if others.len() <= 4 {
        others
    } else {
        let draws: Vec<&PrecedenceDraw> =
            draw_for(DrawPurpose::WouldOtherwisePlay).into_iter().chain(going_out_draw.iter().copied()).collect();
        going_out(table, last, &others, &draws, DrawPurpose::WouldOtherwisePlay)?
    };
    let displaced: Vec<PlayerId> = without.into_iter().filter(|p| !playing.contains(p)).collect();
    if displaced.is_empty() {
        return Ok(playing);
    }
    // Rule E, breaking up a game: a breaker "may not compete against" the players he left, so
    // against one of them he loses without a draw.
    let barred = |leaver: &PlayerId| {
        restrictions.iter().any(|r| r.breaker == *leaver && displaced.iter().any(|m| r.protects(*m)))
    };
    let (barred, mut contestants): (Vec<PlayerId>, Vec<PlayerId>) = leavers.iter().partition(|l| barred(l));
    contestants.extend(displaced.iter().copied());
    let seats = leavers.len();
    let winners: Vec<PlayerId> = if contestants.len() <= seats {
        let short = seats - contestants.len();
        contestants.into_iter().chain(barred.into_iter().take(short)).collect()
    } else {
        match draw_for(DrawPurpose::LeaverEntry).filter(|d| d.covers(&contestants)) {
            Some(draw) => {
                // A breaker who draws beside a player he left (both came from his old table)
                // still "may not compete against" him: whatever his card, he ranks below him.
                let mut order = draw.order(&contestants);
                demote_breakers(&mut order, restrictions);
                order.into_iter().take(seats).collect()
            }
            None => {
                return Err(DrawNeeded {
                    table: Some(table.id),
                    purpose: DrawPurpose::LeaverEntry,
                    players: contestants,
                });
            }
        }
    };
    playing.retain(|p| !leavers.contains(p));
    playing.extend(winners);
    Ok(playing)
}

/// The four of `candidates` who play after the rubber `last` by rule E, or the draw needed.
///
/// The reading (docs/laws-readings.md, "Going out after a rubber (rule E)"): every candidate who
/// did not play the last rubber comes in; each displaces the member with the most consecutive
/// rubbers at the table; ties are settled by a draw and the lowest cards go out. If more than four
/// did not play (possible only when players of the last rubber have left), "cards are drawn for
/// precedence if necessary": all of them draw, and the four highest cards play.
fn going_out(
    table: &Table,
    last: [PlayerId; 4],
    candidates: &[PlayerId],
    draws: &[&PrecedenceDraw],
    purpose: DrawPurpose,
) -> Result<Vec<PlayerId>, DrawNeeded> {
    let (mut continuing, sitters): (Vec<PlayerId>, Vec<PlayerId>) = candidates.iter().partition(|p| last.contains(p));
    if sitters.len() > 4 {
        return match draws.iter().find(|d| d.covers(&sitters)) {
            Some(draw) => Ok(draw.order(&sitters).into_iter().take(4).collect()),
            None => Err(DrawNeeded { table: Some(table.id), purpose, players: sitters }),
        };
    }
    let seats = 4 - sitters.len();
    if continuing.len() <= seats {
        return Ok(sitters.into_iter().chain(continuing).collect());
    }
    let consecutive = |p: &PlayerId| table.member(*p).map_or(0, |m| m.consecutive_rubbers);
    continuing.sort_by_key(consecutive);
    let going = consecutive(&continuing[seats]);
    let sure: Vec<PlayerId> = continuing.iter().copied().filter(|p| consecutive(p) < going).collect();
    let tied: Vec<PlayerId> = continuing.iter().copied().filter(|p| consecutive(p) == going).collect();
    let need = seats - sure.len();
    let staying: Vec<PlayerId> = if need == 0 {
        Vec::new()
    } else {
        match draws.iter().find(|d| d.covers(&tied)) {
            Some(draw) => draw.order(&tied).into_iter().take(need).collect(),
            None => return Err(DrawNeeded { table: Some(table.id), purpose, players: tied }),
        }
    };
    Ok(sitters.into_iter().chain(sure).chain(staying).collect())
}
