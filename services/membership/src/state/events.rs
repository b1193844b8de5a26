//! The stream events of an entry: the room's and each table's views after it are compared with
//! those before, and every difference becomes a numbered room or table event. Kept apart from the
//! fold, which applies the entry's outcomes, and from the views, which render the state.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use api::membership::v1 as pb;

use super::{ArrivalCorrection, Changes, ClubState, player, timestamp};
use crate::journal::{Command, Entry};

impl ClubState {
    /// Computes the views after the entry, compares them with those before, and emits the stream
    /// events that say what changed, numbering them.
    pub(super) fn emit(
        &mut self,
        before: &ClubState,
        entry: &Entry,
        at: i64,
        started: &[u64],
        reasons: &HashMap<(u64, u64), pb::MemberLeftReason>,
        changes: &mut Changes,
    ) {
        // Arrivals first, then tables, then other presence changes, then departures.
        match &entry.command {
            Command::Arrive { number, .. } => {
                self.arrivals.insert(*number, (at, self.seq));
            }
            Command::CorrectArrival { player, arrived_at, reason } => {
                if let Some(arrival) = self.arrivals.get_mut(player) {
                    let first = self.arrival_corrections.get(player).map(|c| c.recorded);
                    let correction = ArrivalCorrection {
                        recorded: first.unwrap_or(arrival.0),
                        by: entry.actor.clone(),
                        reason: reason.clone(),
                        at,
                    };
                    self.arrival_corrections.insert(*player, correction);
                    arrival.0 = *arrived_at;
                }
            }
            Command::LeaveRoom { player } => {
                self.arrivals.remove(player);
                self.arrival_corrections.remove(player);
            }
            _ => {}
        }
        let present: Vec<u64> = self.player_ids.keys().copied().filter(|n| self.room.is_present(player(*n))).collect();
        let mut presence: BTreeMap<u64, pb::Presence> = BTreeMap::new();
        for n in present {
            presence.insert(n, self.presence_view(n));
        }
        let mut room_events = Vec::new();
        for (n, p) in &presence {
            if !before.presence.contains_key(n) {
                room_events.push(pb::room_event::Event::PlayerArrived(p.clone()));
            }
        }
        // Before the tables: a table opened by this entry made its draw with the seed committed
        // before, and the new commitment is for the next opening.
        if self.opening_seeds != before.opening_seeds && !self.opening_seeds.is_empty() {
            room_events.push(pb::room_event::Event::OpeningDrawSeedCommitted(pb::OpeningDrawSeedCommitted {
                next_opening_draw_seed_commitment: self.opening_commitment(),
            }));
        }

        let numbers: BTreeSet<u64> = before.tables.keys().chain(self.tables.keys()).copied().collect();
        for number in numbers {
            let Some(meta) = self.tables.get(&number) else { continue };
            let old = before.tables.get(&number).map(|t| t.view.clone()).unwrap_or_default();
            let mut view = self.table_view(meta);
            let events = self.table_events(number, &old, &view, entry, started, reasons, changes);
            if events.is_empty() {
                continue;
            }
            let Some(t) = self.tables.get_mut(&number) else { continue };
            for event in events {
                t.events += 1;
                changes.table_events.push(pb::TableEvent {
                    sequence: t.events,
                    occurred_at: Some(timestamp(at)),
                    table_id: t.id.clone(),
                    event: Some(event),
                });
            }
            view.version = t.events;
            t.view = view.clone();
            changes.tables.push(view.clone());
            room_events.push(pb::room_event::Event::TableChanged(view));
        }
        // A closed table changes no more: it leaves the live room (the projection keeps it).
        self.tables.retain(|_, t| t.closed.is_none());

        for (n, p) in &presence {
            if before.presence.get(n).is_some_and(|old| old != p) {
                room_events.push(pb::room_event::Event::PresenceChanged(p.clone()));
            }
        }
        for n in before.presence.keys() {
            if !presence.contains_key(n) {
                room_events
                    .push(pb::room_event::Event::PlayerLeft(pb::PlayerLeftRoom { player_id: self.player_id(*n) }));
            }
        }
        self.presence = presence;
        for event in room_events {
            self.room_events += 1;
            changes.room_events.push(pb::RoomEvent {
                sequence: self.room_events,
                occurred_at: Some(timestamp(at)),
                event: Some(event),
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn table_events(
        &self,
        number: u64,
        old: &pb::Table,
        new: &pb::Table,
        entry: &Entry,
        started: &[u64],
        reasons: &HashMap<(u64, u64), pb::MemberLeftReason>,
        changes: &Changes,
    ) -> Vec<pb::table_event::Event> {
        use pb::table_event::Event as E;
        let mut events = Vec::new();
        let table_id = self.table_id(number);
        let entry_draws: Vec<&pb::Draw> = changes.draws.iter().filter(|d| d.table_id == table_id).collect();
        if started.contains(&number) {
            let first = entry_draws.iter().find(|d| d.purpose != pb::DrawPurpose::Precedence as i32);
            events.push(E::DrawStarted(pb::DrawStarted {
                draw_id: first.map(|d| d.draw_id.clone()).unwrap_or_default(),
                purpose: first.map_or(pb::DrawPurpose::Partnerships as i32, |d| d.purpose),
            }));
        }
        for draw in &entry_draws {
            events.push(E::DrawUpdated((*draw).clone()));
        }
        let new_members: HashMap<&str, &pb::Member> = new.members.iter().map(|m| (m.player_id.as_str(), m)).collect();
        let old_members: HashMap<&str, &pb::Member> = old.members.iter().map(|m| (m.player_id.as_str(), m)).collect();
        for m in &old.members {
            if !new_members.contains_key(m.player_id.as_str()) {
                let reason = self
                    .number_of(&m.player_id)
                    .and_then(|p| reasons.get(&(number, p)))
                    .copied()
                    .unwrap_or(pb::MemberLeftReason::Left);
                events.push(E::MemberLeft(pb::MemberLeft { player_id: m.player_id.clone(), reason: reason as i32 }));
            }
        }
        for m in &new.members {
            if !old_members.contains_key(m.player_id.as_str()) {
                events.push(E::MemberJoined(m.clone()));
            }
        }
        let old_queue: HashMap<&str, u32> =
            old.queue.iter().map(|a| (a.application_id.as_str(), a.queue_position)).collect();
        let mut reported = BTreeSet::new();
        for application in changes.applications.iter().filter(|a| a.table_id == table_id) {
            reported.insert(application.application_id.clone());
            let queued_now = new.queue.iter().find(|a| a.application_id == application.application_id);
            if old_queue.contains_key(application.application_id.as_str()) {
                events.push(E::ApplicationChanged(application.clone()));
            } else {
                events.push(E::ApplicationMade(queued_now.cloned().unwrap_or_else(|| application.clone())));
            }
        }
        for application in &new.queue {
            if reported.contains(&application.application_id) {
                continue;
            }
            match old_queue.get(application.application_id.as_str()) {
                None => events.push(E::ApplicationMade(application.clone())),
                Some(place) if *place != application.queue_position => {
                    events.push(E::ApplicationChanged(application.clone()))
                }
                Some(_) => {}
            }
        }
        if let Command::StartRubber { table, .. } = &entry.command
            && *table == number
            && let Some(rubber) = &new.current_rubber
        {
            events.push(E::RubberStarted(rubber.clone()));
        }
        for (rubber, going_out) in &changes.rubbers {
            if rubber.table_id == table_id && rubber.ended_at.is_some() {
                events.push(E::RubberEnded(pb::RubberEnded {
                    rubber: Some(rubber.clone()),
                    going_out: going_out.clone(),
                }));
            }
        }
        for m in &new.members {
            if let Some(old) = old_members.get(m.player_id.as_str())
                && *old != m
            {
                events.push(E::MemberChanged(m.clone()));
            }
        }
        if old.options.is_some() && old.options != new.options {
            events.push(E::OptionsChanged(new.options.clone().unwrap_or_default()));
        }
        if old.next_draw_seed_commitments != new.next_draw_seed_commitments
            && !new.next_draw_seed_commitments.is_empty()
        {
            events.push(E::DrawSeedsCommitted(pb::DrawSeedsCommitted {
                next_draw_seed_commitments: new.next_draw_seed_commitments.clone(),
            }));
        }
        if old.next_steps != new.next_steps
            && let Some(next_steps) = &new.next_steps
        {
            events.push(E::NextStepsChanged(next_steps.clone()));
        }
        if new.status == pb::TableStatus::Closed as i32 && old.status != pb::TableStatus::Closed as i32 {
            let reason = self.tables.get(&number).and_then(|t| t.closed.as_ref()).map(|(_, r)| r.clone());
            events.push(E::TableClosed(pb::TableClosed { reason: reason.unwrap_or_default() }));
        }
        events
    }
}
