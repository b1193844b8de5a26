//! The "what next" of the card room, as the front desk is shown it: for each table the one step
//! the rules call for now (wait for players, a draw and who draws, start the rubber, play it),
//! who plays and who sits out and why; and for a table being formed or an application, the draw
//! it needs or what it would do. Everything is read from the laws' room ([`Room::outlook`],
//! [`Room::formation_draw`], [`Room::application_draw`]) so that the view and the commands agree:
//! a step shown here is a command the room accepts.

use api::membership::v1 as pb;
use laws::Law;
use laws::draw::PlayerId;
use laws::procedure::{DrawNeeded, DrawPurpose, LineUp, Outcome, Outlook, ProcedureEvent, Room, TableId, Timestamp};

use platform::ServiceError;

use super::{ClubState, TableMeta, player};
use crate::journal::{LawPurpose, Options};

/// A player's place with why.
fn placed(state: &ClubState, p: PlayerId, reason: impl Into<String>, law: Law) -> pb::PlacedPlayer {
    pb::PlacedPlayer { player_id: state.player_id(p.0), reason: reason.into(), law: Some(law.into()) }
}

/// What the cards of a draw for `purpose` decide, in the desk's words.
fn decides(purpose: DrawPurpose) -> &'static str {
    match purpose {
        DrawPurpose::Formation => "the higher card ranks first among applicants of equal rank",
        DrawPurpose::CutIn => "the higher card's application comes first",
        DrawPurpose::GoingOut => "the higher cards keep their places and the lowest go out",
        DrawPurpose::WouldOtherwisePlay => {
            "who would otherwise have played, to draw against the member from another table"
        }
        DrawPurpose::LeaverEntry => "the higher cards play the rubber",
        DrawPurpose::Partnerships => {
            "the two highest cards play together, and the highest deals first and chooses seat and deck"
        }
    }
}

/// The contract's purpose of a draw the room asks for.
fn contract_purpose(purpose: DrawPurpose) -> pb::DrawPurpose {
    super::views::purpose_view(LawPurpose::from(purpose).contract())
}

impl ClubState {
    fn names(&self, players: &[PlayerId]) -> String {
        let names: Vec<String> = players.iter().map(|p| self.player_id(p.0)).collect();
        match names.as_slice() {
            [] => "nobody".to_owned(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }

    fn needed_draw(&self, needed: &DrawNeeded) -> pb::NeededDraw {
        pb::NeededDraw {
            purpose: contract_purpose(needed.purpose) as i32,
            player_ids: needed.players.iter().map(|p| self.player_id(p.0)).collect(),
            decides: decides(needed.purpose).to_owned(),
            law: Some(needed.purpose.law().into()),
            draw_id: String::new(),
            awaiting_player_ids: Vec::new(),
        }
    }

    fn draw_step(&self, needed: &DrawNeeded, server_draws_automatic: bool) -> pb::NextSteps {
        let summary = format!(
            "Make {}: {} draw; {} ({}).",
            needed.purpose,
            self.names(&needed.players),
            decides(needed.purpose),
            needed.purpose.law()
        );
        pb::NextSteps {
            step: pb::NextStep::Draw as i32,
            summary,
            law: Some(needed.purpose.law().into()),
            draw: Some(self.needed_draw(needed)),
            undecided: needed
                .players
                .iter()
                .map(|p| placed(self, *p, format!("draws: {}", decides(needed.purpose)), needed.purpose.law()))
                .collect(),
            server_draws_automatic,
            ..pb::NextSteps::default()
        }
    }

    /// What happens next at table `t` (see [`pb::NextSteps`]).
    pub(super) fn next_steps(&self, t: &TableMeta) -> pb::NextSteps {
        let automatic = t.options.server_draws_automatic;
        if t.closed.is_some() {
            return pb::NextSteps {
                step: pb::NextStep::Closed as i32,
                summary: format!("{} is closed.", t.name),
                server_draws_automatic: automatic,
                ..pb::NextSteps::default()
            };
        }
        let table = TableId(t.number);
        let (Some(rt), Some(outlook)) = (self.room.table(table), self.room.outlook(table)) else {
            return pb::NextSteps::default();
        };
        let waiting: Vec<pb::PlacedPlayer> =
            self.room.waiting_list(table).iter().enumerate().map(|(i, p)| self.waiting_placed(*p, i + 1)).collect();
        let mut steps = match outlook {
            Outlook::Playing { playing } => {
                let rubber = rt.rubbers();
                pb::NextSteps {
                    step: pb::NextStep::PlayRubber as i32,
                    summary: format!(
                        "Rubber {rubber} is being played by {}; end it when it is over.",
                        self.names(&playing)
                    ),
                    law: Some(Law::club_procedure('E').into()),
                    playing: playing
                        .iter()
                        .map(|p| placed(self, *p, "playing the rubber in progress", Law::rubber(3, "")))
                        .collect(),
                    sitting_out: rt
                        .members()
                        .iter()
                        .filter(|m| !playing.contains(&m.player()))
                        .map(|m| self.not_playing(rt, m.player(), "sits out the rubber in progress"))
                        .collect(),
                    ..pb::NextSteps::default()
                }
            }
            Outlook::ShortOfPlayers { present } => {
                let needed = 4 - present.min(4);
                pb::NextSteps {
                    step: pb::NextStep::WaitForPlayers as i32,
                    summary: format!(
                        "{} needs {needed} more member{} to play: a table plays with four to six (rule A).",
                        t.name,
                        if needed == 1 { "" } else { "s" }
                    ),
                    law: Some(Law::club_procedure('A').into()),
                    players_needed: needed as u32,
                    sitting_out: rt
                        .members()
                        .iter()
                        .filter(|m| !m.is_present())
                        .map(|m| self.not_playing(rt, m.player(), ""))
                        .collect(),
                    ..pb::NextSteps::default()
                }
            }
            Outlook::Draw { needed, eligible, line_up, .. } => {
                let pending = self.pending_physical_draw(t.number);
                let partnerships_drawn =
                    needed.purpose == DrawPurpose::Partnerships && self.partnership_draw(t.number).is_some();
                let mut steps = if let Some(pending) = pending {
                    let awaiting = pending.awaiting();
                    let mut draw = self.needed_draw(&needed);
                    draw.draw_id = pending.draw_id.clone();
                    draw.awaiting_player_ids = awaiting.iter().map(|p| self.player_id(*p)).collect();
                    let awaiting: Vec<PlayerId> = awaiting.into_iter().map(player).collect();
                    pb::NextSteps {
                        step: pb::NextStep::FinishDraw as i32,
                        summary: format!(
                            "Finish draw {}: {} must still draw a valid card (Law 3).",
                            pending.draw_id,
                            self.names(&awaiting)
                        ),
                        law: Some(Law::rubber(3, "").into()),
                        draw: Some(draw),
                        ..pb::NextSteps::default()
                    }
                } else if partnerships_drawn {
                    self.start_step(t)
                } else {
                    let mut step = self.draw_step(&needed, automatic);
                    if needed.purpose == DrawPurpose::Partnerships {
                        step.summary.push_str(" Or start the rubber with the partnerships the four agreed.");
                        step.undecided.clear();
                    }
                    step
                };
                match line_up {
                    Some(line_up) => self.place_line_up(rt, &line_up, &mut steps),
                    None => self.place_before_draw(rt, &needed, &eligible, &mut steps),
                }
                steps
            }
            Outlook::Ready { line_up, .. } => {
                let mut steps = self.start_step(t);
                self.place_line_up(rt, &line_up, &mut steps);
                steps
            }
        };
        steps.waiting = waiting;
        steps.server_draws_automatic = automatic;
        steps
    }

    /// A waiting applicant's place, and why he waits: for a vacancy (rule D), or for his rubber at
    /// another table to end, keeping his place meanwhile (rule F).
    fn waiting_placed(&self, p: PlayerId, place: usize) -> pb::PlacedPlayer {
        match self.room.playing_at(p) {
            Some(at) => placed(
                self,
                p,
                format!("place {place}: waits until his rubber at {} ends (rule F)", self.table_id(at.0)),
                Law::club_procedure('F'),
            ),
            None => placed(self, p, format!("waits for a vacancy, place {place} (rule D)"), Law::club_procedure('D')),
        }
    }

    fn start_step(&self, t: &TableMeta) -> pb::NextSteps {
        pb::NextSteps {
            step: pb::NextStep::StartRubber as i32,
            summary: format!("Start the next rubber at {}: everything the rules call for is settled.", t.name),
            law: Some(Law::rubber(3, "").into()),
            ..pb::NextSteps::default()
        }
    }

    /// Why a member who is not among the eligible does not play (rules B and F), or `default`.
    fn not_playing(&self, rt: &laws::procedure::Table, p: PlayerId, default: &str) -> pb::PlacedPlayer {
        match rt.member(p).and_then(|m| m.away_at()) {
            Some(at) => placed(
                self,
                p,
                format!("away making a fourth at {} (rule F)", self.table_id(at.0)),
                Law::club_procedure('F'),
            ),
            None if default.is_empty() => placed(
                self,
                p,
                "became a member after the first card of this rubber's draw: plays from the next rubber (rule B)",
                Law::club_procedure('B'),
            ),
            None => placed(self, p, format!("{default} (rule E)"), Law::club_procedure('E')),
        }
    }

    /// Who plays the settled line-up and who sits out, with why (rules B, C and E).
    fn place_line_up(&self, rt: &laws::procedure::Table, line_up: &LineUp, steps: &mut pb::NextSteps) {
        let last = rt.last_line_up();
        let going_out_draw = self
            .line_up_draws(rt.id().0)
            .iter()
            .find(|d| d.is_complete() && d.settles == LawPurpose::from(DrawPurpose::GoingOut));
        let drew = |p: PlayerId| going_out_draw.is_some_and(|d| d.players.contains(&p.0));
        let entry_draw = self
            .line_up_draws(rt.id().0)
            .iter()
            .find(|d| d.is_complete() && d.settles == LawPurpose::from(DrawPurpose::LeaverEntry));
        let drew_for_entry = |p: PlayerId| entry_draw.is_some_and(|d| d.players.contains(&p.0));
        let came_from = |p: PlayerId| rt.member(p).and_then(|m| m.came_from());
        let consecutive = |p: PlayerId| rt.member(p).map_or(0, |m| m.consecutive_rubbers());
        let anyone_out = !line_up.sitting_out.is_empty();
        for p in line_up.playing {
            let (reason, rule) = match (last, came_from(p)) {
                (None, _) => ("ranks among the four highest members (rule C)".to_owned(), 'C'),
                (Some(_), Some(from)) => {
                    (format!("came from {} and plays his first rubber here (rule E)", self.table_id(from.0)), 'E')
                }
                (Some(last), None) if !last.contains(&p) => ("did not play the last rubber (rule E)".to_owned(), 'E'),
                (Some(_), None) if drew_for_entry(p) => (
                    "kept his place in the draw for entry against a member from another table (rule E)".to_owned(),
                    'E',
                ),
                (Some(_), None) if drew(p) => ("kept his place in the draw for going out (rule E)".to_owned(), 'E'),
                (Some(_), None) if anyone_out => (
                    format!(
                        "has played {} consecutive rubber{} here, fewer than those going out (rule E)",
                        consecutive(p),
                        if consecutive(p) == 1 { "" } else { "s" }
                    ),
                    'E',
                ),
                (Some(_), None) => ("plays on: no member is waiting to come in (rule E)".to_owned(), 'E'),
            };
            steps.playing.push(placed(self, p, reason, Law::club_procedure(rule)));
        }
        for p in &line_up.sitting_out {
            let p = *p;
            let restricted = self.room.restrictions().iter().find(|r| r.breaker() == p);
            let (reason, rule) = match (last, came_from(p)) {
                (None, _) => ("ranks below the four highest members (rule C)".to_owned(), 'C'),
                (Some(_), Some(_)) if restricted.is_some() => (
                    format!(
                        "broke up a game and may not compete against {} for entry (rule E)",
                        self.names(restricted.map(|r| r.protected()).unwrap_or_default())
                    ),
                    'E',
                ),
                (Some(_), Some(_)) => (
                    "lost the draw for entry against the member who would otherwise have played (rule E)".to_owned(),
                    'E',
                ),
                (Some(_), None) if drew(p) => ("drew low in the draw for going out (rule E)".to_owned(), 'E'),
                (Some(_), None) if drew_for_entry(p) => (
                    "would otherwise have played, and lost the draw for entry to a member from another table (rule E)"
                        .to_owned(),
                    'E',
                ),
                (Some(_), None) => (
                    format!(
                        "has played the most consecutive rubbers here ({}) and makes place (rule E)",
                        consecutive(p)
                    ),
                    'E',
                ),
            };
            steps.sitting_out.push(placed(self, p, reason, Law::club_procedure(rule)));
        }
        self.place_others(rt, line_up.playing.iter().chain(&line_up.sitting_out).copied().collect(), steps);
    }

    /// Before a draw settles the line-up: who surely comes in or goes out (rule E), the draw's
    /// players undecided.
    fn place_before_draw(
        &self,
        rt: &laws::procedure::Table,
        needed: &DrawNeeded,
        eligible: &[PlayerId],
        steps: &mut pb::NextSteps,
    ) {
        let mut placed_players: Vec<PlayerId> = needed.players.clone();
        if let Some(preview) = self.room.going_out_preview(rt.id()) {
            for p in preview.coming_in.iter().filter(|p| eligible.contains(p) && !needed.players.contains(p)) {
                steps.playing.push(placed(self, *p, "did not play the last rubber (rule E)", Law::club_procedure('E')));
                placed_players.push(*p);
            }
            for p in preview.going_out.iter().filter(|p| eligible.contains(p) && !needed.players.contains(p)) {
                let reason = "has played the most consecutive rubbers here and makes place (rule E)";
                steps.sitting_out.push(placed(self, *p, reason, Law::club_procedure('E')));
                placed_players.push(*p);
            }
        }
        let rest: Vec<PlayerId> = eligible.iter().copied().filter(|p| !placed_players.contains(p)).collect();
        for p in &rest {
            let reason = match rt.member(*p).and_then(|m| m.came_from()) {
                Some(from) => format!(
                    "came from {}: draws for his first rubber against the member who would otherwise have played \
                     (rule E)",
                    self.table_id(from.0)
                ),
                None => "the draws for this rubber decide".to_owned(),
            };
            steps.undecided.push(placed(self, *p, reason, Law::club_procedure('E')));
            placed_players.push(*p);
        }
        self.place_others(rt, placed_players, steps);
    }

    /// Members outside the rubber's eligible members: away, or admitted after its draw started.
    fn place_others(&self, rt: &laws::procedure::Table, placed_players: Vec<PlayerId>, steps: &mut pb::NextSteps) {
        for m in rt.members().iter().filter(|m| !placed_players.contains(&m.player())) {
            steps.sitting_out.push(self.not_playing(rt, m.player(), ""));
        }
    }

    /// What forming a table from `applicants` would need (rule C): the draw for precedence, or the
    /// members, the first rubber's four and the waiting list it would make.
    pub fn formation_steps(&self, applicants: &[u64], options: &Options) -> Result<pb::NextSteps, ServiceError> {
        let applicants: Vec<PlayerId> = applicants.iter().map(|p| player(*p)).collect();
        let needed = self.room.formation_draw(&applicants).map_err(|e| self.refusal(&e))?;
        if let Some(needed) = needed {
            return Ok(self.draw_step(&needed, options.server_draws_automatic));
        }
        let formed = ProcedureEvent::TableFormed {
            table: TableId(self.next_table_number()),
            form: laws::deal::GameForm::Rubber,
            options: options.laws(),
            applicants: applicants.clone(),
            returning_fourths: Vec::new(),
            draw: Vec::new(),
            at: Timestamp(self.clock),
        };
        let (_, outcomes) = self.room.apply(&formed).map_err(|e| self.refusal(&e))?;
        let mut steps = pb::NextSteps {
            step: pb::NextStep::OpenTable as i32,
            summary: "Open the table: the applicants' standing orders them, and no draw is needed (rule C).".to_owned(),
            law: Some(Law::club_procedure('C').into()),
            server_draws_automatic: options.server_draws_automatic,
            ..pb::NextSteps::default()
        };
        let standing = |p: PlayerId| match super::views::precedence_group(&self.room, p) {
            pb::PrecedenceGroup::FromOtherTable => "leaves another table, so ranks lowest",
            pb::PrecedenceGroup::HasPlayed => "has played",
            _ => "has not played, ranked by entry into the room",
        };
        for outcome in outcomes {
            match outcome {
                Outcome::TableFormed { members, first_rubber, .. } => {
                    for p in members {
                        let reason = if first_rubber.contains(&p) {
                            format!("{}: plays the first rubber (rule C)", standing(p))
                        } else {
                            format!("{}: a member who sits out the first rubber (rule C)", standing(p))
                        };
                        let list = if first_rubber.contains(&p) { &mut steps.playing } else { &mut steps.sitting_out };
                        list.push(placed(self, p, reason, Law::club_procedure('C')));
                    }
                }
                Outcome::Waiting { player: p, place, .. } => steps.waiting.push(placed(
                    self,
                    p,
                    format!("{}: waits for a vacancy, place {place} (rule C)", standing(p)),
                    Law::club_procedure('C'),
                )),
                _ => {}
            }
        }
        Ok(steps)
    }

    /// What `players` applying together to `table` would need (rule D): the draw among them, or
    /// who becomes a member and who waits.
    pub fn application_steps(&self, table: u64, players: &[u64]) -> Result<pb::NextSteps, ServiceError> {
        let players: Vec<PlayerId> = players.iter().map(|p| player(*p)).collect();
        let automatic = self.options(table).is_some_and(|o| o.server_draws_automatic);
        let needed = self.room.application_draw(TableId(table), &players).map_err(|e| self.refusal(&e))?;
        if let Some(needed) = needed {
            return Ok(self.draw_step(&needed, automatic));
        }
        let applied = ProcedureEvent::Applied {
            table: TableId(table),
            players: players.clone(),
            draw: Vec::new(),
            at: Timestamp(self.clock),
        };
        let (room, outcomes): (Room, Vec<Outcome>) = self.room.apply(&applied).map_err(|e| self.refusal(&e))?;
        let mut steps = pb::NextSteps {
            step: pb::NextStep::Apply as i32,
            summary: "Apply: no draw is needed (rule D).".to_owned(),
            law: Some(Law::club_procedure('D').into()),
            server_draws_automatic: automatic,
            ..pb::NextSteps::default()
        };
        for outcome in outcomes {
            match outcome {
                Outcome::MemberJoined { table: at, player: p, .. } if at.0 == table && players.contains(&p) => {
                    let next =
                        if room.table(at).is_some_and(|t| t.phase() == laws::procedure::TablePhase::BetweenRubbers) {
                            "becomes a member at once and counts for the next rubber (rules B and D)"
                        } else {
                            "becomes a member at once; the rubber being drawn for started without him (rules B and D)"
                        };
                    steps.playing.push(placed(self, p, next, Law::club_procedure('D')));
                }
                Outcome::Waiting { table: at, player: p, place } if at.0 == table => {
                    steps.waiting.push(self.waiting_placed(p, place));
                }
                _ => {}
            }
        }
        Ok(steps)
    }
}
