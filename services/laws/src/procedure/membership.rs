//! Who is a member of which table (rules A, C, D): entering and leaving the room, forming a
//! table, applying to one, the waiting list filling vacancies, a member joining or leaving with
//! everything that follows (rules E and F), and a table closed by the club. Apart from the
//! rubbers because membership changes between rubbers and during them alike.

use crate::deal::GameForm;
use crate::draw::{DrawnCard, PlayerId};

use super::{
    BreakerRestriction, Departure, DrawPurpose, Member, Outcome, Phase, Player, ProcedureError, Room, Table, TableId,
    TableOptions, precedence,
};

impl Room {
    /// A player enters the room; his entry orders precedence among those who have not played
    /// (rule C).
    pub(super) fn enter(&mut self, player: PlayerId) -> Result<(), ProcedureError> {
        if self.is_present(player) {
            return Err(ProcedureError::AlreadyInRoom { player });
        }
        let entry = (self.now, self.events);
        self.players.entry(player).and_modify(|p| p.entered = Some(entry)).or_insert(Player {
            entered: Some(entry),
            has_played: false,
            left_table: None,
        });
        Ok(())
    }

    /// The time a player entered the room is corrected (rule C): it orders him from now on; his
    /// place in the order of events stays, to order him among players entered at the same time.
    pub(super) fn correct_entry(
        &mut self,
        player: PlayerId,
        entered_at: super::Timestamp,
    ) -> Result<(), ProcedureError> {
        if entered_at > self.now {
            return Err(ProcedureError::EntryAfterCorrection { player, entered_at });
        }
        match self.players.get_mut(&player).and_then(|p| p.entered.as_mut()) {
            Some(entered) => {
                entered.0 = entered_at;
                Ok(())
            }
            None => Err(ProcedureError::NotInRoom { player }),
        }
    }

    /// A player leaves the room, giving up every application and membership.
    pub(super) fn leave_room(&mut self, player: PlayerId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        if !self.is_present(player) {
            return Err(ProcedureError::NotInRoom { player });
        }
        // His applications go first: a vacancy his departure opens (directly, or through a
        // waiting member of his table moving in elsewhere, rule F) must not admit him.
        for table in self.tables.values_mut() {
            if let Some(i) = table.waiting.iter().position(|p| *p == player) {
                table.waiting.remove(i);
                out.push(Outcome::ApplicationWithdrawn { table: table.id, player });
            }
        }
        for table in self.tables_of(player) {
            if self.tables.get(&table).is_some_and(|t| t.is_member(player)) {
                self.depart(player, table, Departure::Left, out);
            }
        }
        if let Some(p) = self.players.get_mut(&player) {
            p.entered = None;
            p.left_table = None;
        }
        Ok(())
    }

    /// Four or more applicants form a table (rule C): members in precedence order, the rest on
    /// its waiting list; a returning fourth keeps his own table (rule F).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn form_table(
        &mut self,
        table: TableId,
        form: GameForm,
        options: TableOptions,
        applicants: &[PlayerId],
        returning_fourths: &[PlayerId],
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        if self.tables.contains_key(&table) {
            return Err(ProcedureError::TableExists { table });
        }
        self.check_applicants(applicants)?;
        if applicants.len() < 4 {
            return Err(ProcedureError::TooFewApplicants { count: applicants.len() });
        }
        let mut homes = Vec::with_capacity(returning_fourths.len());
        for player in returning_fourths {
            if !applicants.contains(player) {
                return Err(ProcedureError::NotAnApplicant { player: *player });
            }
            // Rule F: a fourth "on request" is one the table needs: without him the applicants
            // could not form it.
            if applicants.len() != 4 {
                return Err(ProcedureError::FourthNotNeeded { table, members: applicants.len() - 1 });
            }
            homes.push((*player, self.home_for_fourth(*player)?));
        }
        let needed = precedence::formation_order(self, applicants, None).err();
        let precedence = Self::check_draw(needed.as_ref(), DrawPurpose::Formation, draw)?;
        let order = precedence::formation_order(self, applicants, precedence.as_ref()).map_err(|needed| {
            ProcedureError::WrongDraw {
                purpose: needed.purpose,
                expected: needed.players,
                given: draw.iter().map(|d| d.player).collect(),
                law: DrawPurpose::Formation.law(),
            }
        })?;
        // Rule F: nobody is taken out of a rubber in progress by an application. A player playing
        // a rubber at another table cannot found this one; once it is formed he may apply to it,
        // and his application then waits for his rubber to end.
        for player in order.iter().take(Table::COMPLETE) {
            if let Some(at) = self.playing_at(*player) {
                return Err(ProcedureError::PlayingElsewhere { player: *player, table: at });
            }
        }
        self.tables.insert(
            table,
            Table {
                id: table,
                form,
                options,
                members: Vec::new(),
                waiting: Vec::new(),
                phase: Phase::BetweenRubbers,
                rubbers: 0,
                last_line_up: None,
                last_partnerships: None,
                pivot: None,
                formation_draw: precedence,
            },
        );
        let members: Vec<PlayerId> = order.iter().copied().take(Table::COMPLETE).collect();
        out.push(Outcome::TableFormed { table, members: members.clone(), first_rubber: members[..4].to_vec() });
        for player in &members {
            let home = homes.iter().find(|(p, _)| p == player).map(|(_, home)| *home);
            self.admit(table, *player, home, false, out);
        }
        for (i, player) in order.iter().skip(Table::COMPLETE).enumerate() {
            self.table_mut(table)?.waiting.push(*player);
            out.push(Outcome::Waiting { table, player: *player, place: i + 1 });
        }
        Ok(())
    }

    /// Players apply to an existing table at the same time (rule D): members at once while it
    /// is incomplete, in precedence order; the others wait. An applicant playing a rubber at
    /// another table waits even for a place that is free (rule F: see
    /// [`Outcome::ApplicationHeld`]), and the place goes to the next applicant.
    pub(super) fn cut_in(
        &mut self,
        table: TableId,
        players: &[PlayerId],
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.check_application(table, players)?;
        let vacancies = Table::COMPLETE.saturating_sub(t.members.len());
        let needed = precedence::application_draw(t, players);
        let precedence = Self::check_draw(needed.as_ref(), DrawPurpose::CutIn, draw)?;
        let mut order = match &precedence {
            Some(d) => d.order(players),
            None => players.to_vec(),
        };
        precedence::demote_breakers(&mut order, &self.restrictions);
        let mut places = vacancies;
        for player in &order {
            let playing_at = self.playing_at(*player);
            if places > 0 && playing_at.is_none() {
                self.admit(table, *player, None, true, out);
                places -= 1;
                continue;
            }
            self.table_mut(table)?.waiting.push(*player);
            let place = self.waiting_list(table).iter().position(|p| p == player).map_or(0, |i| i + 1);
            out.push(Outcome::Waiting { table, player: *player, place });
            if let Some(playing_at) = playing_at.filter(|_| places > 0) {
                out.push(Outcome::ApplicationHeld { table, player: *player, playing_at });
            }
        }
        Ok(())
    }

    /// The table where `player` is playing a rubber now, if any (rule F: an application does not
    /// take him out of it).
    pub fn playing_at(&self, player: PlayerId) -> Option<TableId> {
        self.tables.values().find(|t| t.playing().is_some_and(|p| p.contains(&player))).map(|t| t.id)
    }

    /// A waiting applicant withdraws his application (rule D).
    pub(super) fn withdraw(
        &mut self,
        player: PlayerId,
        table: TableId,
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.table_mut(table)?;
        let i = t.waiting.iter().position(|p| *p == player).ok_or(ProcedureError::NotWaiting { player, table })?;
        t.waiting.remove(i);
        out.push(Outcome::ApplicationWithdrawn { table, player });
        Ok(())
    }

    /// Closes `table` (see [`ProcedureEvent::TableClosed`](super::ProcedureEvent::TableClosed)): waiting applications lapse, every
    /// membership ends without a breaker restriction, and rule F is settled for the members
    /// making a fourth: one here with an announced return goes back to his own table; one of
    /// this table away at another keeps that membership, which is now his only one.
    pub(super) fn close_table(&mut self, table: TableId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        if matches!(t.phase, Phase::Playing { .. }) {
            return Err(ProcedureError::RubberInProgress { table });
        }
        let Some(t) = self.tables.remove(&table) else { return Err(ProcedureError::NoSuchTable { table }) };
        for applicant in t.waiting {
            out.push(Outcome::ApplicationWithdrawn { table, player: applicant });
        }
        if matches!(t.phase, Phase::LiningUp { .. }) {
            out.push(Outcome::DrawCancelled { table });
        }
        for member in t.members {
            let player = member.player;
            out.push(Outcome::MemberLeft { table, player });
            if let Some(host) = member.away_at
                && let Some(m) = self.tables.get_mut(&host).and_then(|h| h.member_mut(player))
            {
                m.fourth_for = None;
            }
            if let Some(home) = member.fourth_for {
                if let Some(m) = self.tables.get_mut(&home).and_then(|h| h.member_mut(player)) {
                    m.away_at = None;
                }
                out.push(Outcome::FillEnded { player, home, host: table });
            }
            if let Some(p) = self.players.get_mut(&player)
                && p.left_table == Some(table)
            {
                p.left_table = None;
            }
        }
        out.push(Outcome::TableDissolved { table });
        Ok(())
    }

    /// Makes `player` a member of `table` (rules C, D), applying rule F: unless he makes a
    /// fourth with an announced return (`home`), he loses every other membership, and he
    /// then counts as having left that table to join this one (rules C and E).
    pub(super) fn admit(
        &mut self,
        table: TableId,
        player: PlayerId,
        home: Option<TableId>,
        report: bool,
        out: &mut Vec<Outcome>,
    ) {
        // The rules are silent on applications a new member has pending elsewhere; we
        // withdraw them, so that a vacancy elsewhere never pulls him away from the table he
        // just joined (and, by rule F, out of it). First, before he gives up other tables:
        // the vacancies his departure opens are filled at once, and must not be filled by him.
        for other in self.tables.values_mut().filter(|t| t.id != table) {
            if let Some(i) = other.waiting.iter().position(|p| *p == player) {
                other.waiting.remove(i);
                out.push(Outcome::ApplicationWithdrawn { table: other.id, player });
            }
        }
        let mut came_from = None;
        match home {
            Some(home) => {
                if let Some(m) = self.tables.get_mut(&home).and_then(|t| t.member_mut(player)) {
                    m.away_at = Some(table);
                }
                out.push(Outcome::FillStarted { player, home, host: table });
            }
            None => {
                for other in self.tables_of(player) {
                    if other != table {
                        self.depart(player, other, Departure::RuleF, out);
                        came_from = Some(other);
                    }
                }
            }
        }
        if home.is_none() {
            // Rejoining the table he left is not leaving "another existing table" (rule E).
            came_from = came_from.or(self.left_existing_table(player).filter(|t| *t != table));
            if let Some(p) = self.players.get_mut(&player) {
                p.left_table = None;
            }
        }
        let now = self.now;
        if let Some(t) = self.tables.get_mut(&table) {
            t.waiting.retain(|p| *p != player);
            t.members.push(Member {
                player,
                since: now,
                consecutive_rubbers: 0,
                came_from,
                away_at: None,
                fourth_for: home,
            });
            if report {
                out.push(Outcome::MemberJoined { table, player, from_table: came_from });
            }
        }
    }

    /// Ends `player`'s membership of `table`, with everything that follows: an abandoned
    /// rubber (Law 80), a cancelled draw (rule B), a broken game (rule E), a vacancy filled
    /// from the waiting list (rule D), a dissolved table.
    pub(super) fn depart(&mut self, player: PlayerId, table: TableId, why: Departure, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get_mut(&table) else { return };
        let Some(i) = t.members.iter().position(|m| m.player == player) else { return };
        let before = t.members.len();
        let member = t.members.remove(i);
        out.push(match why {
            Departure::RuleF => Outcome::MembershipLost { table, player },
            Departure::Left | Departure::Returned => Outcome::MemberLeft { table, player },
        });
        let in_rubber = t.playing().is_some_and(|p| p.contains(&player));
        let after = t.members.len();
        let left_behind: Vec<PlayerId> = t.members.iter().map(|m| m.player).collect();
        if let Some(host) = member.away_at
            && let Some(m) = self.tables.get_mut(&host).and_then(|h| h.member_mut(player))
        {
            m.fourth_for = None;
        }
        if let Some(home) = member.fourth_for
            && let Some(m) = self.tables.get_mut(&home).and_then(|h| h.member_mut(player))
        {
            m.away_at = None;
        }
        if in_rubber {
            out.push(Outcome::RubberAbandoned { table });
            self.end_rubber(table, false, out);
        }
        self.cancel_line_up_without(table, player, out);
        if before == 4 && after == 3 && why != Departure::Returned {
            out.push(Outcome::TableBroken { table, breaker: player, left_behind: left_behind.clone() });
            self.restrictions.retain(|r| !(r.breaker == player && r.table == table));
            self.restrictions.push(BreakerRestriction { breaker: player, table, protected: left_behind });
        }
        // He is "leaving an existing table" (rules C and E) if the table goes on without him
        // and he has no other table to be at.
        let still_member_elsewhere = self.tables.values().any(|t| t.is_member(player));
        if let Some(p) = self.players.get_mut(&player) {
            p.left_table = (after > 0 && !still_member_elsewhere).then_some(table);
        }
        if before >= Table::COMPLETE && after < Table::COMPLETE {
            self.fill_vacancy(table, out);
        }
        if after == 0 {
            if let Some(t) = self.tables.remove(&table) {
                for applicant in t.waiting {
                    out.push(Outcome::ApplicationWithdrawn { table, player: applicant });
                }
            }
            out.push(Outcome::TableDissolved { table });
        }
    }

    /// Rule D: a waiting applicant becomes a member "as soon as a vacancy occurs". Rule F: one
    /// playing a rubber at another table is passed over and keeps his place; the next applicant
    /// fills the vacancy. Whether anyone was admitted.
    pub(super) fn fill_vacancy(&mut self, table: TableId, out: &mut Vec<Outcome>) -> bool {
        let next = self.waiting_list(table).into_iter().find(|p| self.playing_at(*p).is_none());
        if let Some(next) = next {
            self.admit(table, next, None, true, out);
        }
        next.is_some()
    }

    /// Rule D at the end of every event: while a table with applicants waiting is not complete,
    /// the first of them free to join becomes a member. This is also where an application held
    /// while its applicant played a rubber elsewhere takes effect, once that rubber has ended
    /// (rule F); he then leaves his old table as any member joining another does.
    pub(super) fn settle_vacancies(&mut self, out: &mut Vec<Outcome>) {
        let ids: Vec<TableId> = self.tables.keys().copied().collect();
        for table in ids {
            while let Some(t) = self.tables.get(&table)
                && !t.is_complete()
                && !t.waiting.is_empty()
                && self.fill_vacancy(table, out)
            {}
        }
    }
}
