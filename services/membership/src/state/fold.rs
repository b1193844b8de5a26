//! The one fold of the journal: [`ClubState::apply`] applies an entry's procedure events through
//! `Room::apply` and records what their outcomes mean for the service's data (members, queues,
//! restrictions, draws, rubbers). Kept apart from the views, which only read what this writes.

use std::collections::HashMap;

use api::membership::v1 as pb;
use laws::procedure::{Outcome, ProcedureError, TableId, Timestamp};

use platform::ServiceError;

use super::{Application, Changes, ClubState, LineUpMeta, MemberMeta, Restriction, TableMeta, player, timestamp};
use crate::journal::{Command, DrawRecord, Entry, Event, NewApplication};

impl ClubState {
    /// Applies one journal entry as entry number `seq`: the next state and what changed, or the
    /// rule that refuses it (nothing changes then).
    pub fn apply(&self, seq: u64, entry: &Entry) -> Result<(ClubState, Changes), ServiceError> {
        let at = entry.at.max(self.clock);
        let mut next = self.clone();
        next.seq = seq;
        next.clock = at;
        let mut changes = Changes::default();
        match &entry.command {
            Command::Arrive { player_id, number } => {
                next.player_ids.insert(*number, player_id.clone());
                next.numbers.insert(player_id.clone(), *number);
            }
            Command::OpenTable { table, .. } => {
                next.table_numbers.insert(table.table_id.clone(), table.number);
                next.table_names.insert(table.number, (table.table_id.clone(), table.name.clone()));
                next.next_table = next.next_table.max(table.number + 1);
                next.tables.insert(
                    table.number,
                    TableMeta {
                        id: table.table_id.clone(),
                        number: table.number,
                        name: table.name.clone(),
                        form: table.form,
                        options: table.options.clone(),
                        opened_at: at,
                        events: 0,
                        members: HashMap::new(),
                        line_up: LineUpMeta::default(),
                        rubber: None,
                        closed: None,
                        seeds: Vec::new(),
                        view: pb::Table::default(),
                    },
                );
            }
            _ => {}
        }
        if let Some((table, seeds)) = entry.command.next_seeds() {
            let seeds = decode_seeds(seeds)?;
            if let Some(t) = next.tables.get_mut(&table) {
                t.seeds = seeds;
            }
        }
        if let Some(seeds) = &entry.opening_seeds {
            next.opening_seeds = decode_seeds(seeds)?;
        }
        let mut started = Vec::new();
        for event in &entry.events {
            let (room, outcomes) =
                next.room.apply(&event.to_laws(Timestamp(at))?).map_err(|e: ProcedureError| next.refusal(&e))?;
            next.room = room;
            if let Event::DrawStarted { table } = event {
                started.push(*table);
            }
            changes.outcomes.extend(outcomes);
        }
        let reasons = next.absorb(entry, at, &mut changes)?;
        next.emit(self, entry, at, &started, &reasons, &mut changes);
        Ok((next, changes))
    }

    /// Calls off the draws for the next rubber at `table` that `which` picks (rule B): they leave
    /// the line-up, their ids are kept to say why a card recorded for one is refused, and each
    /// is shown as cancelled.
    fn call_off_draws(&mut self, table: u64, which: impl Fn(&DrawRecord) -> bool, changes: &mut Changes) {
        let Some(t) = self.tables.get_mut(&table) else { return };
        let (off, kept): (Vec<DrawRecord>, Vec<DrawRecord>) =
            std::mem::take(&mut t.line_up.draws).into_iter().partition(|d| which(d));
        t.line_up.draws = kept;
        t.line_up.cancelled.extend(off.iter().map(|d| d.draw_id.clone()));
        for draw in &off {
            let mut view = self.draw_view(table, draw);
            view.status = pb::DrawStatus::Cancelled as i32;
            view.awaiting_player_ids.clear();
            changes.draws.push(view);
        }
    }

    /// Records what the entry's outcomes mean for the service's data; returns why each member
    /// who left a table left it.
    fn absorb(
        &mut self,
        entry: &Entry,
        at: i64,
        changes: &mut Changes,
    ) -> Result<HashMap<(u64, u64), pb::MemberLeftReason>, ServiceError> {
        let mut reasons = HashMap::new();
        let mut ended = Vec::new();
        let new_applications: &[NewApplication] = match &entry.command {
            Command::OpenTable { applications, .. } | Command::Apply { applications, .. } => applications,
            _ => &[],
        };
        let precedence_draw = match &entry.command {
            Command::OpenTable { draw, .. } | Command::Apply { draw, .. } => draw.as_ref(),
            _ => None,
        };
        let lost: Vec<(u64, u64)> = changes
            .outcomes
            .iter()
            .filter_map(|o| match o {
                Outcome::MembershipLost { table, player } => Some((player.0, table.0)),
                _ => None,
            })
            .collect();
        for outcome in changes.outcomes.clone() {
            match outcome {
                Outcome::TableFormed { table, members, .. } => {
                    for p in members {
                        // A returning fourth (rule F) keeps his own table, which he goes back to.
                        let home = self.room.table(table).and_then(|t| t.member(p)).and_then(|m| m.fourth_for());
                        let (source, fill_home) = match home {
                            Some(home) => (pb::MembershipSource::MakingFourth, Some((home.0, true))),
                            None if self.member_came_from(table.0, p.0) => (pb::MembershipSource::FromOtherTable, None),
                            None => (pb::MembershipSource::NewTable, None),
                        };
                        self.join(table.0, p.0, at, source, fill_home);
                    }
                }
                Outcome::MemberJoined { table, player: p, from_table } => {
                    let (source, fill_home) = match &entry.command {
                        Command::MakeFourth { player: who, announced_return, .. } if *who == p.0 => {
                            let home = if *announced_return {
                                self.room.table(table).and_then(|t| t.member(p)).and_then(|m| m.fourth_for())
                            } else {
                                lost.iter().find(|(q, _)| *q == p.0).map(|(_, t)| TableId(*t))
                            };
                            (pb::MembershipSource::MakingFourth, home.map(|h| (h.0, *announced_return)))
                        }
                        _ if from_table.is_some() => (pb::MembershipSource::FromOtherTable, None),
                        _ => (pb::MembershipSource::CutIn, None),
                    };
                    self.join(table.0, p.0, at, source, fill_home);
                    if let Some(application) = self.take_application(table.0, p.0) {
                        changes.applications.push(self.application_record(
                            &application,
                            pb::ApplicationStatus::Admitted,
                            0,
                        ));
                    } else if let Some(new) = new_applications.iter().find(|a| a.player == p.0) {
                        // Admitted at once (rule D: an incomplete table).
                        let application = self.new_application(new, table.0, at, precedence_draw);
                        changes.applications.push(self.application_record(
                            &application,
                            pb::ApplicationStatus::Admitted,
                            0,
                        ));
                    }
                }
                Outcome::Waiting { table, player: p, .. } => {
                    if let Some(new) = new_applications.iter().find(|a| a.player == p.0) {
                        let application = self.new_application(new, table.0, at, precedence_draw);
                        self.applications.insert(application.id.clone(), application);
                    }
                }
                Outcome::ApplicationWithdrawn { table, player: p } => {
                    if let Some(application) = self.take_application(table.0, p.0) {
                        let status = match &entry.command {
                            Command::Withdraw { application_id } if *application_id == application.id => {
                                pb::ApplicationStatus::Withdrawn
                            }
                            _ => pb::ApplicationStatus::Lapsed,
                        };
                        changes.applications.push(self.application_record(&application, status, 0));
                    }
                }
                Outcome::MembershipLost { table, player: p } => {
                    self.leave(table.0, p.0);
                    reasons.insert((table.0, p.0), pb::MemberLeftReason::JoinedOtherTable);
                }
                Outcome::MemberLeft { table, player: p } => {
                    self.leave(table.0, p.0);
                    let reason = match &entry.command {
                        Command::LeaveRoom { .. } => pb::MemberLeftReason::LeftRoom,
                        Command::CloseTable { table: closed, .. } if *closed == table.0 => {
                            pb::MemberLeftReason::TableClosed
                        }
                        _ => pb::MemberLeftReason::Left,
                    };
                    reasons.entry((table.0, p.0)).or_insert(reason);
                }
                Outcome::FillEnded { player: p, host, .. } => {
                    reasons.insert((host.0, p.0), pb::MemberLeftReason::ReturnedHome);
                }
                Outcome::TableBroken { table, breaker, left_behind } => {
                    self.restrictions.retain(|r| !(r.breaker == breaker.0 && r.table == table.0));
                    let restriction = Restriction {
                        breaker: breaker.0,
                        table: table.0,
                        left_behind: left_behind.iter().map(|p| p.0).collect(),
                        created_at: at,
                    };
                    self.restrictions.push(restriction);
                }
                Outcome::DrawCancelled { table } => self.call_off_draws(table.0, |_| true, changes),
                Outcome::RubberEnded { table, completed } => ended.push((table.0, completed)),
                Outcome::TableDissolved { table } => {
                    let reason = match &entry.command {
                        Command::CloseTable { table: closed, reason } if *closed == table.0 => reason.clone(),
                        _ => "the last member left the table".to_owned(),
                    };
                    if let Some(t) = self.tables.get_mut(&table.0) {
                        t.closed = Some((at, reason));
                        t.rubber = None;
                    }
                }
                // The Waiting outcome before it recorded the application; this only says why it
                // waits at a table with room (its applicant plays a rubber elsewhere, rule F).
                Outcome::ApplicationHeld { .. }
                | Outcome::RestrictionCleared { .. }
                | Outcome::RestrictionLifted { .. }
                | Outcome::FillStarted { .. }
                | Outcome::FillMayEnd { .. }
                | Outcome::RubberAbandoned { .. }
                | Outcome::DrawNeeded(_)
                | Outcome::LineUpFixed { .. }
                | Outcome::PartnershipsSet { .. } => {}
            }
        }
        // Rule B: the draw for the next rubber begins with its first valid card. A physical draw
        // opened before that counted on the table's members as they were; once they change it is
        // called off, and the desk opens the draw the table needs now (with the players it needs).
        let mut moved: Vec<u64> = changes
            .outcomes
            .iter()
            .flat_map(|o| match o {
                Outcome::MemberJoined { table, .. }
                | Outcome::MembershipLost { table, .. }
                | Outcome::MemberLeft { table, .. } => vec![table.0],
                Outcome::FillStarted { home, host, .. } | Outcome::FillEnded { home, host, .. } => {
                    vec![home.0, host.0]
                }
                _ => Vec::new(),
            })
            .collect();
        moved.sort_unstable();
        moved.dedup();
        for table in moved {
            self.call_off_draws(table, |d| d.started_at.is_none(), changes);
        }
        // Rule E: a restriction lasts while the laws keep it (per protected player until he has
        // finished a rubber); the service keeps the three names to show who has cleared it.
        let room = &self.room;
        self.restrictions
            .retain(|r| room.restrictions().iter().any(|x| x.breaker().0 == r.breaker && x.table().0 == r.table));
        if let Some(Outcome::TableBroken { breaker, table, .. }) =
            changes.outcomes.iter().find(|o| matches!(o, Outcome::TableBroken { .. }))
        {
            changes.restriction = self
                .restrictions
                .iter()
                .find(|r| r.breaker == breaker.0 && r.table == table.0)
                .map(|r| self.restriction_view(r));
        }

        match &entry.command {
            Command::OpenTable { table, draw: Some(draw), .. } => {
                changes.draws.push(self.draw_view(table.number, draw))
            }
            Command::Apply { table, draw: Some(draw), .. } => changes.draws.push(self.draw_view(*table, draw)),
            Command::Draw { table, draw, .. } => {
                if let Some(t) = self.tables.get_mut(table) {
                    match t.line_up.draws.iter_mut().find(|d| d.draw_id == draw.draw_id) {
                        Some(existing) => *existing = draw.clone(),
                        None => t.line_up.draws.push(draw.clone()),
                    }
                }
                changes.draws.push(self.draw_view(*table, draw));
            }
            Command::StartRubber { table, rubber_id, draws, seats, first_dealer, first_deck, agreed, .. } => {
                let number = *table;
                for draw in draws {
                    changes.draws.push(self.draw_view(number, draw));
                }
                let mut rubber = self.rubber_view(number, rubber_id, draws, seats, *first_dealer, at)?;
                rubber.first_deck = u32::from(*first_deck);
                rubber.partnerships_agreed = *agreed;
                if let Some(t) = self.tables.get_mut(&number) {
                    t.rubber = Some(rubber.clone());
                    t.line_up = LineUpMeta::default();
                }
                changes.rubbers.push((rubber, None));
            }
            Command::JoinApplications { table, application_ids, draw, .. } => {
                for id in application_ids {
                    if let Some(application) = self.applications.get_mut(id) {
                        application.precedence_draw_id = Some(draw.draw_id.clone());
                    }
                }
                changes.draws.push(self.draw_view(*table, draw));
            }
            Command::UpdateOptions { table, options } => {
                if let Some(t) = self.tables.get_mut(table) {
                    t.options = options.clone();
                }
            }
            _ => {}
        }

        for (table, completed) in ended {
            let going_out = self.going_out_view(table);
            if let Some(t) = self.tables.get_mut(&table)
                && let Some(mut rubber) = t.rubber.take()
            {
                rubber.status =
                    if completed { pb::RubberStatus::Finished } else { pb::RubberStatus::Unfinished } as i32;
                rubber.ended_at = Some(timestamp(at));
                changes.rubbers.push((rubber, Some(going_out)));
            }
        }
        Ok(reasons)
    }

    fn member_came_from(&self, table: u64, p: u64) -> bool {
        self.room.table(TableId(table)).and_then(|t| t.member(player(p))).is_some_and(|m| m.came_from().is_some())
    }

    fn join(&mut self, table: u64, p: u64, at: i64, source: pb::MembershipSource, fill_home: Option<(u64, bool)>) {
        if let Some(t) = self.tables.get_mut(&table) {
            t.members.insert(p, MemberMeta { since: at, source, fill_home });
        }
    }

    fn leave(&mut self, table: u64, p: u64) {
        if let Some(t) = self.tables.get_mut(&table) {
            t.members.remove(&p);
        }
    }

    fn take_application(&mut self, table: u64, p: u64) -> Option<Application> {
        let id = self.applications.values().find(|a| a.table == table && a.player == p).map(|a| a.id.clone())?;
        self.applications.remove(&id)
    }

    fn new_application(&self, new: &NewApplication, table: u64, at: i64, draw: Option<&DrawRecord>) -> Application {
        Application {
            id: new.application_id.clone(),
            table,
            player: new.player,
            applied_at: at,
            precedence_draw_id: draw.filter(|d| d.players.contains(&new.player)).map(|d| d.draw_id.clone()),
            from_other_table: new.from_other_table,
        }
    }
}

/// Committed seeds as the journal keeps them (hex).
fn decode_seeds(seeds: &[String]) -> Result<Vec<[u8; 32]>, ServiceError> {
    seeds
        .iter()
        .map(|s| {
            hex::decode(s)
                .ok()
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .ok_or_else(|| ServiceError::internal("journal: a committed seed is not 32 bytes of hex"))
        })
        .collect()
}
