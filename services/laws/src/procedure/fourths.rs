//! Making a fourth (rule F): a member who, on request, makes a fourth at another table keeps
//! his own membership if he announces his return, and goes back as soon as his place can be
//! filled. Apart from membership because rule F touches two tables at once.

use crate::draw::PlayerId;

use super::{Departure, Outcome, ProcedureError, Room, TableId};

impl Room {
    /// The table a player making a fourth with an announced return will return to (rule F).
    pub(super) fn home_for_fourth(&self, player: PlayerId) -> Result<TableId, ProcedureError> {
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

    /// A player makes a fourth at a table of three (rule F), keeping his own membership if he
    /// announces his return.
    pub(super) fn make_fourth(
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
        // Rule F read with the rest: nobody leaves a rubber he is playing to make a fourth, with
        // or without announcing a return (that would abandon it, Law 80).
        if let Some(playing) = self.playing_at(player) {
            return Err(ProcedureError::PlayingElsewhere { player, table: playing });
        }
        let home = if announced_return { Some(self.home_for_fourth(player)?) } else { None };
        if let Some(home) = home {
            self.cancel_line_up_without(home, player, out);
        }
        self.admit(host, player, home, true, out);
        Ok(())
    }

    /// A fourth with an announced return goes back to his own table once his place can be
    /// filled (rule F).
    pub(super) fn return_home(&mut self, player: PlayerId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
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

    /// Rule F: a member making a fourth returns "as soon as his place at the new table can be
    /// filled", that is when the table has four members without him. Reported once, when
    /// that becomes true.
    pub(super) fn report_fills_that_may_end(&self, before: &Room, out: &mut Vec<Outcome>) {
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
