//! Helpers shared by the club procedure tests: players and cards from short notations, and a
//! club room driven by events as the membership service drives it.
#![allow(dead_code)]
#![allow(clippy::unwrap_used)] // a panic in a helper is the failed test's report

use laws::deal::GameForm;
use laws::draw::{Deck, DrawSeed, DrawnCard, PlayerId, Spread};
use laws::procedure::{
    DrawNeeded, DrawPurpose, Outcome, PartnershipSource, ProcedureError, ProcedureEvent, Room, TableId, TableOptions,
    Timestamp,
};

pub fn p(id: u64) -> PlayerId {
    PlayerId(id)
}

pub fn ps(ids: &[u64]) -> Vec<PlayerId> {
    ids.iter().map(|id| p(*id)).collect()
}

pub fn cards(draw: &[(u64, &str)]) -> Vec<DrawnCard> {
    draw.iter().map(|(id, card)| DrawnCard { player: p(*id), card: card.parse().unwrap() }).collect()
}

pub fn sorted(mut players: Vec<PlayerId>) -> Vec<PlayerId> {
    players.sort();
    players
}

pub const T1: TableId = TableId(1);
pub const T2: TableId = TableId(2);
pub const T9: TableId = TableId(9);

/// A club room driven by events, as the membership service drives it: every event is
/// journaled, and the clock advances a second per event.
pub struct Club {
    pub room: Room,
    pub clock: i64,
    pub journal: Vec<ProcedureEvent>,
}

impl Club {
    pub fn new() -> Club {
        Club { room: Room::new(), clock: 0, journal: Vec::new() }
    }

    pub fn now(&mut self) -> Timestamp {
        self.clock += 1_000;
        Timestamp(self.clock)
    }

    pub fn try_apply(&self, event: ProcedureEvent) -> Result<Vec<Outcome>, ProcedureError> {
        self.room.apply(&event).map(|(_, out)| out)
    }

    pub fn apply(&mut self, event: ProcedureEvent) -> Vec<Outcome> {
        let (room, out) = self.room.apply(&event).unwrap_or_else(|e| panic!("{event:?} refused: {e}"));
        self.room = room;
        self.journal.push(event);
        out
    }

    pub fn enter(&mut self, ids: &[u64]) {
        for id in ids {
            let at = self.now();
            self.apply(ProcedureEvent::Entered { player: p(*id), at });
        }
    }

    pub fn form_with(
        &mut self,
        table: TableId,
        ids: &[u64],
        options: TableOptions,
        draw: &[(u64, &str)],
    ) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::TableFormed {
            table,
            form: GameForm::Rubber,
            options,
            applicants: ps(ids),
            returning_fourths: vec![],
            draw: cards(draw),
            at,
        })
    }

    pub fn form(&mut self, table: TableId, ids: &[u64]) -> Vec<Outcome> {
        self.form_with(table, ids, TableOptions::default(), &[])
    }

    pub fn apply_to(&mut self, table: TableId, ids: &[u64], draw: &[(u64, &str)]) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::Applied { table, players: ps(ids), draw: cards(draw), at })
    }

    pub fn leave_table(&mut self, id: u64, table: TableId) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::LeftTable { player: p(id), table, at })
    }

    pub fn start_draw(&mut self, table: TableId) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::DrawStarted { table, at })
    }

    pub fn line_up_draw(&mut self, table: TableId, purpose: DrawPurpose, draw: &[(u64, &str)]) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::LineUpDrawn { table, purpose, draw: cards(draw), at })
    }

    pub fn start_rubber(&mut self, table: TableId, draw: [(u64, &str); 4]) -> Vec<Outcome> {
        let cards: [DrawnCard; 4] = cards(&draw).try_into().unwrap();
        let at = self.now();
        self.apply(ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Drawn(cards), at })
    }

    /// The partnership draw for whoever the line-up is, from a server draw.
    pub fn start_rubber_by_server_draw(&mut self, table: TableId, seed: u8) -> Vec<Outcome> {
        let needed = self.room.next_draw(table).expect("a partnership draw");
        assert_eq!(needed.purpose, DrawPurpose::Partnerships);
        let cards: [DrawnCard; 4] = server_cards(&needed, seed).try_into().unwrap();
        let at = self.now();
        self.apply(ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Drawn(cards), at })
    }

    pub fn end_rubber(&mut self, table: TableId, completed: bool) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::RubberEnded { table, completed, at })
    }

    /// A whole rubber in which the line-up needs no draw under rule E.
    pub fn play_rubber(&mut self, table: TableId) {
        self.start_draw(table);
        self.start_rubber_by_server_draw(table, 7);
        self.end_rubber(table, true);
    }

    pub fn members(&self, table: TableId) -> Vec<PlayerId> {
        self.room.table(table).unwrap().members().iter().map(|m| m.player()).collect()
    }

    pub fn consecutive(&self, table: TableId, id: u64) -> u32 {
        self.room.table(table).unwrap().member(p(id)).unwrap().consecutive_rubbers()
    }
}

pub fn server_cards(needed: &DrawNeeded, seed: u8) -> Vec<DrawnCard> {
    Spread::server_draw(Deck::First, &DrawSeed([seed; 32]), &needed.players).unwrap().cards()
}

pub fn line_up_fixed(out: &[Outcome]) -> Option<(Vec<PlayerId>, Vec<PlayerId>)> {
    out.iter().rev().find_map(|o| match o {
        Outcome::LineUpFixed { playing, sitting_out, .. } => Some((sorted(playing.to_vec()), sitting_out.clone())),
        _ => None,
    })
}

pub fn draw_needed(out: &[Outcome]) -> Option<DrawNeeded> {
    out.iter().find_map(|o| match o {
        Outcome::DrawNeeded(needed) => Some(needed.clone()),
        _ => None,
    })
}

pub fn form_event(table: TableId, applicants: &[u64], returning: &[u64], at: Timestamp) -> ProcedureEvent {
    ProcedureEvent::TableFormed {
        table,
        form: GameForm::Rubber,
        options: TableOptions::default(),
        applicants: ps(applicants),
        returning_fourths: ps(returning),
        draw: vec![],
        at,
    }
}
