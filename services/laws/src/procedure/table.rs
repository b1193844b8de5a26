//! One table of the room ([`Table`]): its form and options, its members ([`Member`]) and
//! waiting list, and where it is between rubbers. The room changes it; the table only answers
//! questions about itself.

use crate::deal::GameForm;
use crate::draw::{Partnerships, PivotSchedule, PlayerId, PrecedenceDraw};

use super::{DrawPurpose, TableId, TableOptions, Timestamp};

/// A member of a table (rule A: "an applicant who has acquired the right to play at a table
/// either immediately or in his turn").
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Member {
    pub(super) player: PlayerId,
    pub(super) since: Timestamp,
    pub(super) consecutive_rubbers: u32,
    pub(super) came_from: Option<TableId>,
    pub(super) away_at: Option<TableId>,
    pub(super) fourth_for: Option<TableId>,
}

impl Member {
    /// The player.
    pub const fn player(&self) -> PlayerId {
        self.player
    }

    /// When he became a member. Whether he may play a rubber depends on the order of events,
    /// not on this time (rule B): see [`Room::apply`](super::Room::apply) on [`ProcedureEvent::DrawStarted`](super::ProcedureEvent::DrawStarted).
    pub const fn since(&self) -> Timestamp {
        self.since
    }

    /// Rubbers he has played in a row at this table; reset to 0 when he sits out (rule E: the
    /// member who has played the greatest number of consecutive rubbers goes out).
    pub const fn consecutive_rubbers(&self) -> u32 {
        self.consecutive_rubbers
    }

    /// The existing table he left to join this one, while it still matters: until the first
    /// rubber here for which he was eligible starts (rule E: he draws for his first rubber
    /// with the member who would otherwise have played).
    pub const fn came_from(&self) -> Option<TableId> {
        self.came_from
    }

    /// The table where he is making a fourth with an announced return; he keeps this
    /// membership but cannot play here meanwhile (rule F).
    pub const fn away_at(&self) -> Option<TableId> {
        self.away_at
    }

    /// If this membership is a fourth made on request with an announced return: the table he
    /// will return to (rule F).
    pub const fn fourth_for(&self) -> Option<TableId> {
        self.fourth_for
    }

    /// Whether he is at this table to play (not away making a fourth elsewhere).
    pub const fn is_present(&self) -> bool {
        self.away_at.is_none()
    }
}

/// Where a table is between rubbers (rules B and E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TablePhase {
    /// No rubber is being played or drawn for.
    BetweenRubbers,
    /// The draw for the next rubber has started: who plays is being settled.
    LiningUp,
    /// A rubber is being played.
    Playing,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(super) enum Phase {
    BetweenRubbers,
    LiningUp { eligible: Vec<PlayerId>, draws: Vec<(DrawPurpose, PrecedenceDraw)> },
    Playing { playing: [PlayerId; 4], partnerships: Partnerships },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(super) struct Pivot {
    pub(super) schedule: PivotSchedule,
    pub(super) next: usize,
}

/// One table of the room: its form and options, members, waiting list and where it is in
/// its rubbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub(super) id: TableId,
    pub(super) form: GameForm,
    pub(super) options: TableOptions,
    pub(super) members: Vec<Member>,
    pub(super) waiting: Vec<PlayerId>,
    pub(super) phase: Phase,
    pub(super) rubbers: u32,
    pub(super) last_line_up: Option<[PlayerId; 4]>,
    pub(super) last_partnerships: Option<Partnerships>,
    pub(super) pivot: Option<Pivot>,
    /// The draw that ordered applicants of equal rank when the table was formed (rule C), if
    /// one was needed. It still orders those founders for the first rubber, when members who
    /// cut in since are ranked with them (docs/laws-readings.md, "Precedence when forming a
    /// table (rule C)"). Rooms snapshotted before it was kept read as `None`: a tie it would have
    /// settled is then drawn again.
    #[serde(default)]
    pub(super) formation_draw: Option<PrecedenceDraw>,
}

impl Table {
    /// A complete table has six members, the most it may have (rule A).
    pub const COMPLETE: usize = 6;

    /// The table's key (rule A).
    pub const fn id(&self) -> TableId {
        self.id
    }

    /// Rubber bridge or Chicago (Appendix 4).
    pub const fn form(&self) -> GameForm {
        self.form
    }

    /// The club options the table plays under (Appendix 4 B, C, H3).
    pub const fn options(&self) -> TableOptions {
        self.options
    }

    /// The members (rule A): the members it was formed with in precedence order (rule C),
    /// then the others in the order they became members (rule D).
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The member record of `player`, if he is a member (rule A).
    pub fn member(&self, player: PlayerId) -> Option<&Member> {
        self.members.iter().find(|m| m.player == player)
    }

    /// Whether `player` is a member (rule A).
    pub fn is_member(&self, player: PlayerId) -> bool {
        self.member(player).is_some()
    }

    /// Applicants waiting for a vacancy (rule D), in order of application (see
    /// [`Room::waiting_list`](super::Room::waiting_list) for the order in which they will become members).
    pub fn applications(&self) -> &[PlayerId] {
        &self.waiting
    }

    /// Whether the table is complete: six members (rule A).
    pub fn is_complete(&self) -> bool {
        self.members.len() >= Self::COMPLETE
    }

    /// Whether the table is incomplete in the sense of rule A: four or five members.
    pub fn is_incomplete(&self) -> bool {
        (4..Self::COMPLETE).contains(&self.members.len())
    }

    /// Members present to play: not away making a fourth elsewhere (rule F).
    pub fn present_members(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.members.iter().filter(|m| m.is_present()).map(|m| m.player)
    }

    /// Where the table is between rubbers (rules B and E).
    pub const fn phase(&self) -> TablePhase {
        match self.phase {
            Phase::BetweenRubbers => TablePhase::BetweenRubbers,
            Phase::LiningUp { .. } => TablePhase::LiningUp,
            Phase::Playing { .. } => TablePhase::Playing,
        }
    }

    /// The members who may play the rubber being drawn for: those who were members when its
    /// draw started (rule B). Empty unless the table is lining up.
    pub fn eligible(&self) -> &[PlayerId] {
        match &self.phase {
            Phase::LiningUp { eligible, .. } => eligible,
            _ => &[],
        }
    }

    /// The four playing the current rubber, if one is being played (Law 1, rule E).
    pub const fn playing(&self) -> Option<[PlayerId; 4]> {
        match self.phase {
            Phase::Playing { playing, .. } => Some(playing),
            _ => None,
        }
    }

    /// The partnerships of the current rubber, if one is being played (Law 3).
    pub const fn partnerships(&self) -> Option<Partnerships> {
        match self.phase {
            Phase::Playing { partnerships, .. } => Some(partnerships),
            _ => None,
        }
    }

    /// The four who played the last rubber (started) at this table (rule E compares with
    /// them).
    pub const fn last_line_up(&self) -> Option<[PlayerId; 4]> {
        self.last_line_up
    }

    /// The partnerships of the last rubber at this table (Appendix 4 H3 compares with them).
    pub const fn last_partnerships(&self) -> Option<Partnerships> {
        self.last_partnerships
    }

    /// Rubbers started at this table (rule E).
    pub const fn rubbers(&self) -> u32 {
        self.rubbers
    }

    /// The table's pivot and the index (0-2) of its next rubber, if it plays a pivot and one
    /// is under way (Appendix 4 B).
    pub fn pivot(&self) -> Option<(PivotSchedule, usize)> {
        self.pivot.map(|p| (p.schedule, p.next))
    }

    /// The member record of `player`, to change.
    pub(super) fn member_mut(&mut self, player: PlayerId) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.player == player)
    }

    /// The partnerships the table's pivot gives these four players for their next rubber, if
    /// the table plays a pivot that covers them (Appendix 4 B).
    pub(super) fn usable_pivot(&self, players: &[PlayerId]) -> Option<Partnerships> {
        let pivot = self.pivot.filter(|p| self.options.pivot && p.schedule.is_for(players))?;
        pivot.schedule.partnerships(pivot.next)
    }
}
