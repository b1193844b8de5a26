//! Rubbers at a table: the draw for the next rubber and who may play it (rule B), the line-up
//! it settles (rule E), the partnerships (Law 3; Appendix 4 B and H3) and the end of the
//! rubber, with the consecutive-rubber counts and breaker restrictions it clears. Apart from
//! membership because these change a table's rubbers, never who belongs to it.

use crate::draw::{DrawnCard, PartnershipDraw, PivotSchedule, PlayerId};

use super::table::Pivot;
use super::{DrawPurpose, Outcome, PartnershipSource, Phase, ProcedureError, Room, TableId, lineup};

impl Room {
    /// Rule B: the draw for a rubber counts on the members present when it started; if one of
    /// them leaves the table, the draw is called off and starts over.
    pub(super) fn cancel_line_up_without(&mut self, table: TableId, player: PlayerId, out: &mut Vec<Outcome>) {
        if let Some(t) = self.tables.get_mut(&table)
            && let Phase::LiningUp { eligible, .. } = &t.phase
            && eligible.contains(&player)
        {
            t.phase = Phase::BetweenRubbers;
            out.push(Outcome::DrawCancelled { table });
        }
    }

    /// The first card of the draw for the next rubber is drawn: the members present now are
    /// the ones who may play it (rule B).
    pub(super) fn start_draw(&mut self, table: TableId, out: &mut Vec<Outcome>) -> Result<(), ProcedureError> {
        let t = self.table_mut(table)?;
        match t.phase {
            Phase::BetweenRubbers => {}
            Phase::LiningUp { .. } => return Err(ProcedureError::DrawAlreadyStarted { table }),
            Phase::Playing { .. } => return Err(ProcedureError::RubberInProgress { table }),
        }
        // Rule B: every member admitted by an earlier event was a member "before a card is
        // duly drawn"; anyone admitted from now on waits for the next rubber.
        let eligible: Vec<PlayerId> = t.present_members().collect();
        if eligible.len() < 4 {
            return Err(ProcedureError::NotEnoughPlayers { table, available: eligible.len() });
        }
        t.phase = Phase::LiningUp { eligible, draws: Vec::new() };
        self.report_line_up(table, out);
        Ok(())
    }

    /// Reports the line-up once the draws rules C and E call for are made, or the draw still
    /// needed.
    pub(super) fn report_line_up(&self, table: TableId, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get(&table) else { return };
        match lineup::resolve(self, t) {
            Some(Ok(line_up)) => {
                out.push(Outcome::LineUpFixed { table, playing: line_up.playing, sitting_out: line_up.sitting_out });
                if let Some(needed) = self.next_draw(table) {
                    out.push(Outcome::DrawNeeded(needed));
                }
            }
            Some(Err(needed)) => out.push(Outcome::DrawNeeded(needed)),
            None => {}
        }
    }

    /// Cards drawn to settle who plays the next rubber (rule E), checked against the draw the
    /// rules call for.
    pub(super) fn line_up_drawn(
        &mut self,
        table: TableId,
        purpose: DrawPurpose,
        draw: &[DrawnCard],
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        let needed = match lineup::resolve(self, t) {
            None => return Err(ProcedureError::NoDrawStarted { table }),
            Some(Ok(_)) => None,
            Some(Err(needed)) => Some(needed),
        };
        let Some(precedence) = Self::check_draw(needed.as_ref(), purpose, draw)? else {
            return Err(ProcedureError::WrongDraw { purpose, expected: vec![], given: vec![], law: purpose.law() });
        };
        if let Phase::LiningUp { draws, .. } = &mut self.table_mut(table)?.phase {
            draws.push((purpose, precedence));
        }
        self.report_line_up(table, out);
        Ok(())
    }

    /// The rubber begins with its partnerships: drawn (Law 3, Appendix 4 H3), agreed, or the
    /// pivot's next (Appendix 4 B).
    pub(super) fn start_rubber(
        &mut self,
        table: TableId,
        source: &PartnershipSource,
        out: &mut Vec<Outcome>,
    ) -> Result<(), ProcedureError> {
        let t = self.table_ref(table)?;
        let line_up = match lineup::resolve(self, t) {
            None if matches!(t.phase, Phase::Playing { .. }) => return Err(ProcedureError::RubberInProgress { table }),
            None => return Err(ProcedureError::NoDrawStarted { table }),
            Some(Err(needed)) => return Err(ProcedureError::LineUpNotFixed { table, pending: needed.purpose }),
            Some(Ok(line_up)) => line_up,
        };
        let is_line_up = |players: [PlayerId; 4]| players.iter().all(|p| line_up.playing.contains(p));
        let mut pivot = t.pivot;
        let (partnerships, first_dealer, no_consecutive_applied) = match source {
            PartnershipSource::Drawn(cards) => {
                let draw = PartnershipDraw::new(*cards)?;
                if !is_line_up(cards.map(|c| c.player)) {
                    return Err(ProcedureError::NotTheLineUp { table });
                }
                let result = draw.result(t.last_partnerships.as_ref(), t.options.no_consecutive_partners);
                pivot = t.options.pivot.then(|| Pivot { schedule: PivotSchedule::from_draw(&result), next: 1 });
                (result.partnerships, Some(result.first_dealer), result.no_consecutive_applied)
            }
            PartnershipSource::Agreed(partnerships) => {
                if !is_line_up(partnerships.players()) {
                    return Err(ProcedureError::NotTheLineUp { table });
                }
                if t.options.no_consecutive_partners
                    && let Some([a, b]) = t.last_partnerships.and_then(|last| partnerships.repeated_from(&last))
                {
                    return Err(ProcedureError::RepeatedPartnership { table, a, b });
                }
                pivot = None;
                (*partnerships, None, false)
            }
            PartnershipSource::Pivot => {
                let partnerships = t.usable_pivot(&line_up.playing).ok_or(ProcedureError::NoPivot { table })?;
                pivot = pivot.map(|p| Pivot { next: p.next + 1, ..p });
                (partnerships, None, false)
            }
        };
        let eligible = t.eligible().to_vec();
        let t = self.table_mut(table)?;
        t.pivot = pivot;
        t.rubbers += 1;
        t.phase = Phase::Playing { playing: line_up.playing, partnerships };
        // Rule E: a member from another table draws for his first rubber only; whether he won
        // or lost that draw, he is an ordinary member from now on.
        for member in t.members.iter_mut().filter(|m| eligible.contains(&m.player)) {
            member.came_from = None;
        }
        for player in line_up.playing {
            if let Some(p) = self.players.get_mut(&player) {
                p.has_played = true;
            }
        }
        out.push(Outcome::PartnershipsSet { table, partnerships, first_dealer, no_consecutive_applied });
        Ok(())
    }

    /// Ends the rubber in progress at `table`: the consecutive-rubber counts (rule E), and for
    /// a finished rubber the breaker restrictions it clears.
    pub(super) fn end_rubber(&mut self, table: TableId, completed: bool, out: &mut Vec<Outcome>) {
        let Some(t) = self.tables.get_mut(&table) else { return };
        let Phase::Playing { playing, partnerships } = t.phase else { return };
        for member in &mut t.members {
            if playing.contains(&member.player) {
                member.consecutive_rubbers += 1;
            } else {
                member.consecutive_rubbers = 0;
            }
        }
        t.last_line_up = Some(playing);
        t.last_partnerships = Some(partnerships);
        t.phase = Phase::BetweenRubbers;
        out.push(Outcome::RubberEnded { table, completed });
        if !completed {
            return;
        }
        for restriction in &mut self.restrictions {
            for player in playing {
                if restriction.protects(player) {
                    restriction.protected.retain(|p| *p != player);
                    out.push(Outcome::RestrictionCleared { breaker: restriction.breaker, player });
                }
            }
        }
        for restriction in self.restrictions.iter().filter(|r| r.protected.is_empty()) {
            out.push(Outcome::RestrictionLifted { breaker: restriction.breaker });
        }
        self.restrictions.retain(|r| !r.protected.is_empty());
    }
}
