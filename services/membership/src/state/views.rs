//! The contract's views of the room: tables with their members and queues, applications,
//! presence, breaker restrictions, draws, rubbers and the going out after one. Kept apart from the
//! fold: everything here reads the state and writes nothing.

use api::convert::ProtoEnum;
use api::membership::v1 as pb;
use laws::draw::{DrawSeed, PlayerId, PrecedenceDraw};
use laws::procedure::TableId;
use laws::{Law, Seat};

use platform::ServiceError;

use super::{Application, ClubState, Restriction, TableMeta, player, timestamp};
use crate::journal::{DrawRecord, Form, Options, Purpose, Redraw};

impl ClubState {
    /// The view of a waiting application, with its place in the queue.
    pub fn application_view(&self, application: &Application) -> pb::Application {
        let place = self
            .room
            .waiting_list(TableId(application.table))
            .iter()
            .position(|p| p.0 == application.player)
            .map_or(0, |i| i as u32 + 1);
        self.application_record(application, pb::ApplicationStatus::Waiting, place)
    }

    pub(super) fn application_record(
        &self,
        application: &Application,
        status: pb::ApplicationStatus,
        queue_position: u32,
    ) -> pb::Application {
        pb::Application {
            application_id: application.id.clone(),
            table_id: self.table_id(application.table),
            player_id: self.player_id(application.player),
            applied_at: Some(timestamp(application.applied_at)),
            status: status as i32,
            queue_position,
            precedence_draw_id: application.precedence_draw_id.clone().unwrap_or_default(),
            from_other_table: application.from_other_table,
        }
    }

    /// The view of a draw at `table`.
    pub fn draw_view(&self, table: u64, draw: &DrawRecord) -> pb::Draw {
        draw_view(&self.table_id(table), draw, |n| self.player_id(n))
    }

    pub(super) fn restriction_view(&self, r: &Restriction) -> pb::BreakerRestriction {
        let current = self.room.restrictions().iter().find(|x| x.breaker().0 == r.breaker && x.table().0 == r.table);
        pb::BreakerRestriction {
            table_id: self.table_id(r.table),
            protected_players: r
                .left_behind
                .iter()
                .map(|p| pb::ProtectedPlayer {
                    player_id: self.player_id(*p),
                    cleared: !current.is_some_and(|x| x.protects(player(*p))),
                })
                .collect(),
            created_at: Some(timestamp(r.created_at)),
        }
    }

    /// Who comes in and who goes out after the rubber just ended, as the laws preview it (rule E).
    pub(super) fn going_out_view(&self, table: u64) -> pb::GoingOut {
        let ids = |players: &[PlayerId]| players.iter().map(|p| self.player_id(p.0)).collect();
        match self.room.going_out_preview(TableId(table)) {
            Some(preview) => pb::GoingOut {
                coming_in_player_ids: ids(&preview.coming_in),
                going_out_player_ids: ids(&preview.going_out),
                tie_draw_id: String::new(),
                tied_player_ids: ids(&preview.tied),
            },
            None => pb::GoingOut::default(),
        }
    }

    pub(super) fn rubber_view(
        &self,
        table: u64,
        rubber_id: &str,
        new_draws: &[DrawRecord],
        seats: &[u64; 4],
        first_dealer: u8,
        at: i64,
    ) -> Result<pb::Rubber, ServiceError> {
        let t = self.tables.get(&table).ok_or_else(|| ServiceError::internal("a rubber at a table that is gone"))?;
        let rt = self
            .room
            .table(TableId(table))
            .ok_or_else(|| ServiceError::internal("a rubber at a table that is gone"))?;
        let mut draw_ids: Vec<String> = t.line_up.draws.iter().map(|d| d.draw_id.clone()).collect();
        draw_ids.extend(new_draws.iter().map(|d| d.draw_id.clone()));
        let seat = Seat::ALL.get(usize::from(first_dealer)).copied().unwrap_or(Seat::North);
        Ok(pb::Rubber {
            rubber_id: rubber_id.to_owned(),
            table_id: t.id.clone(),
            number: rt.rubbers(),
            kind: table_kind(t.form) as i32,
            seats: Seat::ALL
                .iter()
                .zip(seats)
                .map(|(s, p)| api::common::v1::SeatedPlayer { seat: s.to_proto(), player_id: self.player_id(*p) })
                .collect(),
            first_dealer: seat.to_proto(),
            sitting_out_player_ids: rt
                .members()
                .iter()
                .map(|m| m.player().0)
                .filter(|p| !seats.contains(p))
                .map(|p| self.player_id(p))
                .collect(),
            draw_ids,
            status: pb::RubberStatus::InProgress as i32,
            started_at: Some(timestamp(at)),
            ended_at: None,
            // The start's own choices (Law 3), which the command that started it records.
            first_deck: 1,
            partnerships_agreed: false,
            club_laws: t.options.club_laws,
        })
    }

    pub(super) fn table_view(&self, t: &TableMeta) -> pb::Table {
        let options = Some(options_view(&t.options));
        let base = pb::Table {
            table_id: t.id.clone(),
            name: t.name.clone(),
            kind: table_kind(t.form) as i32,
            options,
            opened_at: Some(timestamp(t.opened_at)),
            version: t.events,
            next_draw_seed_commitments: t.seeds.iter().map(|s| DrawSeed(*s).commitment().to_vec()).collect(),
            ..pb::Table::default()
        };
        if let Some((closed_at, _)) = &t.closed {
            return pb::Table {
                status: pb::TableStatus::Closed as i32,
                next_steps: Some(self.next_steps(t)),
                closed_at: Some(timestamp(*closed_at)),
                ..base
            };
        }
        let Some(rt) = self.room.table(TableId(t.number)) else { return base };
        let playing = rt.playing();
        let last = rt.last_line_up();
        let members: Vec<pb::Member> = rt
            .members()
            .iter()
            .map(|m| {
                let p = m.player();
                let meta = t.members.get(&p.0);
                let temporary_fill = match (m.fourth_for(), meta.and_then(|m| m.fill_home)) {
                    (Some(home), _) => {
                        Some(pb::TemporaryFill { home_table_id: self.table_id(home.0), announced_return: true })
                    }
                    (None, Some((home, false))) => {
                        Some(pb::TemporaryFill { home_table_id: self.table_id(home), announced_return: false })
                    }
                    (None, _) => None,
                };
                pb::Member {
                    player_id: self.player_id(p.0),
                    member_since: meta.map(|m| timestamp(m.since)),
                    source: meta.map_or(pb::MembershipSource::Unspecified, |m| m.source) as i32,
                    consecutive_rubbers: m.consecutive_rubbers(),
                    sat_out_last_rubber: last.is_some_and(|l| !l.contains(&p)),
                    playing: playing.is_some_and(|l| l.contains(&p)),
                    away_at_table_id: m.away_at().map(|h| self.table_id(h.0)).unwrap_or_default(),
                    temporary_fill,
                }
            })
            .collect();
        let queue = self
            .room
            .waiting_list(TableId(t.number))
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                self.waiting_application(t.number, p.0)
                    .map(|a| self.application_record(a, pb::ApplicationStatus::Waiting, i as u32 + 1))
            })
            .collect();
        let status = match members.len() {
            0..=3 => pb::TableStatus::Broken,
            4 | 5 => pb::TableStatus::Incomplete,
            _ => pb::TableStatus::Complete,
        };
        let next_steps = Some(self.next_steps(t));
        pb::Table { status: status as i32, members, queue, current_rubber: t.rubber.clone(), next_steps, ..base }
    }

    pub(super) fn presence_view(&self, number: u64) -> pb::Presence {
        let p = player(number);
        let table = self
            .room
            .tables_of(p)
            .into_iter()
            .find(|t| self.room.table(*t).and_then(|t| t.member(p)).is_some_and(|m| m.is_present()))
            .map(|t| self.table_id(t.0))
            .unwrap_or_default();
        pb::Presence {
            player_id: self.player_id(number),
            arrived_at: self.arrivals.get(&number).map(|(at, _)| timestamp(*at)),
            has_played: self.room.has_played(p),
            table_id: table,
            breaker_restrictions: self
                .restrictions
                .iter()
                .filter(|r| r.breaker == number)
                .map(|r| self.restriction_view(r))
                .collect(),
            arrival_correction: self.arrival_corrections.get(&number).map(|c| pb::ArrivalCorrection {
                recorded_arrived_at: Some(timestamp(c.recorded)),
                corrected_by: c.by.clone(),
                reason: c.reason.clone(),
                corrected_at: Some(timestamp(c.at)),
            }),
        }
    }
}

/// The contract's table kind of a form.
pub fn table_kind(form: Form) -> api::common::v1::TableKind {
    match form {
        Form::Rubber => api::common::v1::TableKind::Rubber,
        Form::Chicago => api::common::v1::TableKind::Chicago,
    }
}

/// The contract's view of a table's options.
pub fn options_view(options: &Options) -> pb::TableOptions {
    pb::TableOptions {
        no_consecutive_partners: options.no_consecutive_partners,
        pivot: options.pivot,
        chicago_swap_vulnerability: options.chicago_swap_vulnerability,
        club_laws: options.club_laws,
        arbiter_player_id: options.arbiter_player_id.clone(),
        server_draws_automatic: options.server_draws_automatic,
    }
}

/// The contract's purpose of a draw.
pub(super) fn purpose_view(purpose: Purpose) -> pb::DrawPurpose {
    match purpose {
        Purpose::Partnerships => pb::DrawPurpose::Partnerships,
        Purpose::Precedence => pb::DrawPurpose::Precedence,
        Purpose::GoingOut => pb::DrawPurpose::GoingOut,
        Purpose::EntryFromOtherTable => pb::DrawPurpose::EntryFromOtherTable,
    }
}

/// A player's standing among applicants forming a table (rule C): not yet played, played, or
/// leaving another table (ranked lowest).
pub fn precedence_group(room: &laws::procedure::Room, p: PlayerId) -> pb::PrecedenceGroup {
    if room.is_leaving_a_table(p) {
        pb::PrecedenceGroup::FromOtherTable
    } else if room.has_played(p) {
        pb::PrecedenceGroup::HasPlayed
    } else {
        pb::PrecedenceGroup::NotYetPlayed
    }
}

/// The contract's view of a draw, for audit: every card, position, redraw and reason, the order,
/// and for a server draw the seed and its commitment.
pub fn draw_view(table_id: &str, draw: &DrawRecord, player_id: impl Fn(u64) -> String) -> pb::Draw {
    let purpose = purpose_view(draw.purpose);
    let drawings = draw
        .drawings
        .iter()
        .map(|d| {
            let reason = match d.redraw {
                None => pb::RedrawReason::Unspecified,
                Some(Redraw::MoreThanOneCard) => pb::RedrawReason::MoreThanOneCard,
                Some(Redraw::EndOfSpread) => pb::RedrawReason::EndOfSpread,
                Some(Redraw::AdjoiningCard) => pb::RedrawReason::AdjoiningCard,
                Some(Redraw::OtherDeck) => pb::RedrawReason::OtherDeck,
            };
            pb::DrawnCard {
                player_id: player_id(d.player),
                card: d.card.parse::<laws::Card>().ok().map(api::common::v1::Card::from),
                spread_position: u32::from(d.position),
                deck: u32::from(d.deck),
                more_than_one_card: d.more_than_one_card,
                valid: d.redraw.is_none(),
                redraw_reason: reason as i32,
                law: d.redraw.map(|_| Law::rubber(3, "").into()),
            }
        })
        .collect();
    let complete = draw.is_complete();
    let order = if complete {
        PrecedenceDraw::new(&draw.cards()).map(|d| d.ranked().map(|p| player_id(p.0)).collect()).unwrap_or_default()
    } else {
        Vec::new()
    };
    let seed: Option<[u8; 32]> =
        draw.seed.as_deref().and_then(|s| hex::decode(s).ok()).and_then(|bytes| bytes.try_into().ok());
    pb::Draw {
        draw_id: draw.draw_id.clone(),
        table_id: table_id.to_owned(),
        purpose: purpose as i32,
        method: if draw.physical { pb::DrawMethod::Physical } else { pb::DrawMethod::Server } as i32,
        player_ids: draw.players.iter().map(|p| player_id(*p)).collect(),
        drawings,
        order,
        status: if complete { pb::DrawStatus::Complete } else { pb::DrawStatus::AwaitingDraws } as i32,
        awaiting_player_ids: draw.awaiting().into_iter().map(&player_id).collect(),
        started_at: draw.started_at.map(timestamp),
        completed_at: draw.completed_at.map(timestamp),
        seed_commitment: seed.map(|s| DrawSeed(s).commitment().to_vec()).unwrap_or_default(),
        seed: seed.map(|s| s.to_vec()).unwrap_or_default(),
        seed_committed_before_draw: !draw.physical && draw.committed_before,
    }
}
