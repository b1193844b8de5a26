//! The Rules for Club Procedure (Laws of Rubber Bridge 2014, Part VIII, rules A-F) as the
//! membership service will drive them: the club scenarios it must pass.

// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

use laws::deal::GameForm;
use laws::draw::{Deck, DrawSeed, DrawnCard, Partnerships, PlayerId, Spread};
use laws::procedure::{
    DrawNeeded, DrawPurpose, Outcome, PartnershipSource, ProcedureError, ProcedureEvent, Room, TableId, TableOptions,
    TablePhase, Timestamp,
};
use laws::{CitesLaw, Law};

fn p(id: u64) -> PlayerId {
    PlayerId(id)
}

fn ps(ids: &[u64]) -> Vec<PlayerId> {
    ids.iter().map(|id| p(*id)).collect()
}

fn cards(draw: &[(u64, &str)]) -> Vec<DrawnCard> {
    draw.iter().map(|(id, card)| DrawnCard { player: p(*id), card: card.parse().unwrap() }).collect()
}

fn sorted(mut players: Vec<PlayerId>) -> Vec<PlayerId> {
    players.sort();
    players
}

const T1: TableId = TableId(1);
const T2: TableId = TableId(2);
const T9: TableId = TableId(9);

/// A club room driven by events, as the membership service drives it: every event is
/// journaled, and the clock advances a second per event.
struct Club {
    room: Room,
    clock: i64,
    journal: Vec<ProcedureEvent>,
}

impl Club {
    fn new() -> Club {
        Club { room: Room::new(), clock: 0, journal: Vec::new() }
    }

    fn now(&mut self) -> Timestamp {
        self.clock += 1_000;
        Timestamp(self.clock)
    }

    fn try_apply(&self, event: ProcedureEvent) -> Result<Vec<Outcome>, ProcedureError> {
        self.room.apply(&event).map(|(_, out)| out)
    }

    fn apply(&mut self, event: ProcedureEvent) -> Vec<Outcome> {
        let (room, out) = self.room.apply(&event).unwrap_or_else(|e| panic!("{event:?} refused: {e}"));
        self.room = room;
        self.journal.push(event);
        out
    }

    fn enter(&mut self, ids: &[u64]) {
        for id in ids {
            let at = self.now();
            self.apply(ProcedureEvent::Entered { player: p(*id), at });
        }
    }

    fn form_with(&mut self, table: TableId, ids: &[u64], options: TableOptions, draw: &[(u64, &str)]) -> Vec<Outcome> {
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

    fn form(&mut self, table: TableId, ids: &[u64]) -> Vec<Outcome> {
        self.form_with(table, ids, TableOptions::default(), &[])
    }

    fn apply_to(&mut self, table: TableId, ids: &[u64], draw: &[(u64, &str)]) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::Applied { table, players: ps(ids), draw: cards(draw), at })
    }

    fn leave_table(&mut self, id: u64, table: TableId) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::LeftTable { player: p(id), table, at })
    }

    fn start_draw(&mut self, table: TableId) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::DrawStarted { table, at })
    }

    fn line_up_draw(&mut self, table: TableId, purpose: DrawPurpose, draw: &[(u64, &str)]) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::LineUpDrawn { table, purpose, draw: cards(draw), at })
    }

    fn start_rubber(&mut self, table: TableId, draw: [(u64, &str); 4]) -> Vec<Outcome> {
        let cards: [DrawnCard; 4] = cards(&draw).try_into().unwrap();
        let at = self.now();
        self.apply(ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Drawn(cards), at })
    }

    /// The partnership draw for whoever the line-up is, from a server draw.
    fn start_rubber_by_server_draw(&mut self, table: TableId, seed: u8) -> Vec<Outcome> {
        let needed = self.room.next_draw(table).expect("a partnership draw");
        assert_eq!(needed.purpose, DrawPurpose::Partnerships);
        let cards: [DrawnCard; 4] = server_cards(&needed, seed).try_into().unwrap();
        let at = self.now();
        self.apply(ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Drawn(cards), at })
    }

    fn end_rubber(&mut self, table: TableId, completed: bool) -> Vec<Outcome> {
        let at = self.now();
        self.apply(ProcedureEvent::RubberEnded { table, completed, at })
    }

    /// A whole rubber in which the line-up needs no draw under rule E.
    fn play_rubber(&mut self, table: TableId) {
        self.start_draw(table);
        self.start_rubber_by_server_draw(table, 7);
        self.end_rubber(table, true);
    }

    fn members(&self, table: TableId) -> Vec<PlayerId> {
        self.room.table(table).unwrap().members().iter().map(|m| m.player()).collect()
    }

    fn consecutive(&self, table: TableId, id: u64) -> u32 {
        self.room.table(table).unwrap().member(p(id)).unwrap().consecutive_rubbers()
    }
}

fn server_cards(needed: &DrawNeeded, seed: u8) -> Vec<DrawnCard> {
    Spread::server_draw(Deck::First, &DrawSeed([seed; 32]), &needed.players).unwrap().cards()
}

fn line_up_fixed(out: &[Outcome]) -> Option<(Vec<PlayerId>, Vec<PlayerId>)> {
    out.iter().rev().find_map(|o| match o {
        Outcome::LineUpFixed { playing, sitting_out, .. } => Some((sorted(playing.to_vec()), sitting_out.clone())),
        _ => None,
    })
}

fn draw_needed(out: &[Outcome]) -> Option<DrawNeeded> {
    out.iter().find_map(|o| match o {
        Outcome::DrawNeeded(needed) => Some(needed.clone()),
        _ => None,
    })
}

#[test]
fn rule_c_a_new_table_of_seven_applicants() {
    let mut club = Club::new();
    // An existing table of six, whose first rubber 1-4 play while 5 and 6 sit out.
    club.enter(&[1, 2, 3, 4, 5, 6]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.play_rubber(T1);
    // 1 and 2 have played; they leave the room and come back. Two newcomers replace them at T1.
    for id in [1, 2] {
        let at = club.now();
        club.apply(ProcedureEvent::LeftRoom { player: p(id), at });
    }
    club.enter(&[7, 8]);
    club.apply_to(T1, &[7, 8], &[]);
    // Three players who have not played enter: 12 first, then 11, then 13.
    club.enter(&[12, 11, 13, 1, 2]);

    // Seven applicants: 11, 12, 13 have not played (ranked by entry: 12, 11, 13); 1 and 2
    // have played and rank equally; 5 and 6 are leaving an existing table and rank lowest.
    let applicants = [5, 1, 11, 6, 2, 13, 12];
    let needed = club.room.formation_draw(&ps(&applicants)).unwrap().expect("a draw for the equal ranks");
    assert_eq!(needed.purpose, DrawPurpose::Formation);
    assert_eq!(sorted(needed.players.clone()), ps(&[1, 2, 5, 6]), "ties at the 4th/5th and 6th/7th places matter");

    // A draw by the wrong players is refused, naming rule C.
    let at = club.now();
    let wrong = ProcedureEvent::TableFormed {
        table: T2,
        form: GameForm::Chicago,
        options: TableOptions::default(),
        applicants: ps(&applicants),
        returning_fourths: vec![],
        draw: cards(&[(1, "S2"), (2, "SA")]),
        at,
    };
    let err = club.try_apply(wrong).unwrap_err();
    assert_eq!(err.law(), Law::club_procedure('C'));

    let out = club.form_with(T2, &applicants, TableOptions::default(), &[(1, "S2"), (2, "SA"), (5, "H3"), (6, "C3")]);
    let Outcome::TableFormed { members, first_rubber, .. } = &out[0] else { panic!("{out:?}") };
    assert_eq!(members, &ps(&[12, 11, 13, 2, 1, 5]), "the six highest-ranking become members");
    assert_eq!(first_rubber, &ps(&[12, 11, 13, 2]), "the four highest-ranking play the first rubber");
    assert!(out.contains(&Outcome::Waiting { table: T2, player: p(6), place: 1 }), "the seventh is told his place");
    // Rule F: 5 became a member of T2 and so lost T1; 6 only waits, so he keeps T1.
    assert!(out.contains(&Outcome::MembershipLost { table: T1, player: p(5) }));
    assert_eq!(club.room.tables_of(p(6)), vec![T1]);
    assert_eq!(club.room.tables_of(p(5)), vec![T2]);
    assert_eq!(club.room.table(T2).unwrap().member(p(5)).unwrap().came_from(), Some(T1));
    // The first rubber: the four highest, no draw for who plays.
    let out = club.start_draw(T2);
    assert_eq!(line_up_fixed(&out), Some((ps(&[2, 11, 12, 13]), ps(&[1, 5]))));
}

#[test]
fn rule_c_no_draw_is_needed_when_the_order_of_equals_decides_nothing() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 8]);
    club.form(T1, &[1, 2, 3, 4]);
    club.play_rubber(T1);
    for id in [1, 2, 3, 4] {
        club.leave_table(id, T1);
    }
    assert!(club.room.table(T1).is_none(), "the last member left: the table is gone");
    // Four who have played (equal) and two newcomers: the newcomers rank first, the four
    // equals fill places 3-6, all members, two of them play; that is a tie across the 4th place.
    let needed = club.room.formation_draw(&ps(&[1, 2, 3, 4, 5, 6])).unwrap().unwrap();
    assert_eq!(sorted(needed.players), ps(&[1, 2, 3, 4]));
    // Four who have played and nothing else: all play, no draw.
    assert_eq!(club.room.formation_draw(&ps(&[1, 2, 3, 4])).unwrap(), None);
    // A newcomer and four who have played: he ranks first and one of the four sits out.
    let needed = club.room.formation_draw(&ps(&[1, 2, 3, 4, 5])).unwrap().unwrap();
    assert_eq!(sorted(needed.players), ps(&[1, 2, 3, 4]));
    // Two newcomers and two who have played: all four play, no draw.
    assert_eq!(club.room.formation_draw(&ps(&[1, 2, 7, 8])).unwrap(), None);
}

#[test]
fn rule_c_four_to_six_applicants_form_a_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3]);
    let at = club.now();
    let err = club
        .try_apply(ProcedureEvent::TableFormed {
            table: T1,
            form: GameForm::Rubber,
            options: TableOptions::default(),
            applicants: ps(&[1, 2, 3]),
            returning_fourths: vec![],
            draw: vec![],
            at,
        })
        .unwrap_err();
    assert_eq!(err, ProcedureError::TooFewApplicants { count: 3 });
    assert_eq!(
        err.to_string(),
        "3 applicants cannot form a table; four to six may (rule C of the Rules for Club Procedure)"
    );
    let at = club.now();
    let err = club
        .try_apply(ProcedureEvent::TableFormed {
            table: T1,
            form: GameForm::Rubber,
            options: TableOptions::default(),
            applicants: ps(&[1, 2, 3, 4]),
            returning_fourths: vec![],
            draw: vec![],
            at,
        })
        .unwrap_err();
    assert_eq!(err, ProcedureError::NotInRoom { player: p(4) });
}

#[test]
fn rule_d_cut_ins_at_a_complete_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    assert!(club.room.table(T1).unwrap().is_complete());
    // One applicant to a complete table waits for a vacancy.
    let out = club.apply_to(T1, &[7], &[]);
    assert_eq!(out, vec![Outcome::Waiting { table: T1, player: p(7), place: 1 }]);
    // Two at the same time, in excess of the places: a draw, highest card first.
    let needed = club.room.application_draw(T1, &ps(&[8, 9])).unwrap().unwrap();
    assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::CutIn, ps(&[8, 9])));
    let err = club.try_apply(ProcedureEvent::Applied {
        table: T1,
        players: ps(&[8, 9]),
        draw: vec![],
        at: Timestamp(club.clock + 1),
    });
    assert_eq!(err.unwrap_err().law(), Law::club_procedure('D'));
    let out = club.apply_to(T1, &[8, 9], &[(8, "D2"), (9, "DK")]);
    assert_eq!(
        out,
        vec![
            Outcome::Waiting { table: T1, player: p(9), place: 2 },
            Outcome::Waiting { table: T1, player: p(8), place: 3 }
        ]
    );
    // An applicant may withdraw.
    let at = club.now();
    let out = club.apply(ProcedureEvent::Withdrew { player: p(9), table: T1, at });
    assert_eq!(out, vec![Outcome::ApplicationWithdrawn { table: T1, player: p(9) }]);
    assert_eq!(club.room.waiting_list(T1), ps(&[7, 8]));
    // "As soon as a vacancy occurs": a member leaves and the first waiting applicant is in.
    let out = club.leave_table(3, T1);
    assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(7), from_table: None }));
    assert_eq!(club.room.waiting_list(T1), ps(&[8]));
    assert!(club.room.table(T1).unwrap().is_complete());
    let err = club.try_apply(ProcedureEvent::Applied {
        table: T1,
        players: ps(&[8]),
        draw: vec![],
        at: Timestamp(club.clock),
    });
    assert_eq!(err.unwrap_err(), ProcedureError::AlreadyWaiting { player: p(8), table: T1 });
}

#[test]
fn rule_d_an_application_to_an_incomplete_table_makes_a_member_forthwith() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    assert!(club.room.table(T1).unwrap().is_incomplete());
    // Two at once for the one place left: they draw; the higher card is a member, the other waits.
    assert!(club.room.application_draw(T1, &ps(&[6])).unwrap().is_none());
    let out = club.apply_to(T1, &[6, 7], &[(6, "HA"), (7, "SA")]);
    assert_eq!(
        out,
        vec![
            Outcome::MemberJoined { table: T1, player: p(7), from_table: None },
            Outcome::Waiting { table: T1, player: p(6), place: 1 },
        ]
    );
    // A draw offered where none is needed is refused.
    club.leave_table(7, T1);
    club.enter(&[8]);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::Applied { table: T1, players: ps(&[8]), draw: cards(&[(8, "C2")]), at });
    assert!(matches!(err, Err(ProcedureError::WrongDraw { purpose: DrawPurpose::CutIn, .. })));
}

#[test]
fn rule_e_going_out_after_rubbers_with_a_tie_settled_by_a_draw() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 4]), ps(&[5]))));
    club.start_rubber_by_server_draw(T1, 1);
    club.end_rubber(T1, true);

    // Rubber 2: 5 sat out and comes in; 1-4 have each played one rubber in a row: a tie, and
    // the lowest card goes out.
    let out = club.start_draw(T1);
    let needed = draw_needed(&out).unwrap();
    assert_eq!((needed.purpose, sorted(needed.players.clone())), (DrawPurpose::GoingOut, ps(&[1, 2, 3, 4])));
    assert_eq!(club.room.next_draw(T1), Some(needed));
    let err = club.try_apply(ProcedureEvent::RubberStarted {
        table: T1,
        partnerships: PartnershipSource::Drawn(
            cards(&[(1, "SA"), (2, "SK"), (4, "SQ"), (5, "SJ")]).try_into().unwrap(),
        ),
        at: Timestamp(club.clock),
    });
    assert_eq!(err.unwrap_err(), ProcedureError::LineUpNotFixed { table: T1, pending: DrawPurpose::GoingOut });
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "SA"), (2, "SK"), (3, "S2"), (4, "SQ")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 4, 5]), ps(&[3]))));
    club.start_rubber_by_server_draw(T1, 2);
    club.end_rubber(T1, true);
    assert_eq!([1, 2, 3, 4, 5].map(|id| club.consecutive(T1, id)), [2, 2, 0, 2, 1], "sitting out resets the count");

    // Rubber 3: 3 comes in and one of 1, 2, 4 (two in a row each) goes out; 5 (one) stays.
    let out = club.start_draw(T1);
    assert_eq!(sorted(draw_needed(&out).unwrap().players), ps(&[1, 2, 4]));
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "D5"), (2, "C5"), (4, "H5")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 3, 4, 5]), ps(&[2]))));
    club.start_rubber_by_server_draw(T1, 3);
    club.end_rubber(T1, true);

    // A sixth member: two sat out (2 and 6) and both come in; 1 and 4 have played most (3 in a
    // row) and go out without a draw.
    club.enter(&[6]);
    club.apply_to(T1, &[6], &[]);
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[2, 3, 5, 6]), ps(&[1, 4]))));
    assert_eq!(club.room.next_draw(T1).unwrap().purpose, DrawPurpose::Partnerships);
}

#[test]
fn rule_e_a_member_from_another_table_draws_for_his_first_rubber_against_the_member_who_would_otherwise_play() {
    for (leaver_card, displaced_card, leaver_plays) in [("C2", "CA", false), ("SA", "C3", true)] {
        let mut club = Club::new();
        club.enter(&[1, 2, 3, 4, 11, 12, 13, 14, 15]);
        club.form(T1, &[1, 2, 3, 4]);
        club.play_rubber(T1);
        club.form(T2, &[11, 12, 13, 14, 15]);
        // 15 leaves T2 (still a table of four) to join T1.
        let out = club.apply_to(T1, &[15], &[]);
        assert!(out.contains(&Outcome::MembershipLost { table: T2, player: p(15) }));
        assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(15), from_table: Some(T2) }));

        let out = club.start_draw(T1);
        assert_eq!(draw_needed(&out).unwrap().purpose, DrawPurpose::GoingOut);
        // Going out: 4 draws lowest of 1-4; so 4 is the member who would otherwise have played.
        let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "HA"), (2, "HK"), (3, "HQ"), (4, "H2")]);
        let needed = draw_needed(&out).unwrap();
        assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::LeaverEntry, ps(&[4, 15])));
        let out = club.line_up_draw(T1, DrawPurpose::LeaverEntry, &[(15, leaver_card), (4, displaced_card)]);
        let (playing, sitting_out) = line_up_fixed(&out).unwrap();
        if leaver_plays {
            assert_eq!((playing, sitting_out), (ps(&[1, 2, 3, 15]), ps(&[4])));
        } else {
            assert_eq!((playing, sitting_out), (ps(&[1, 2, 3, 4]), ps(&[15])));
        }
        club.start_rubber_by_server_draw(T1, 4);
        assert_eq!(club.room.table(T1).unwrap().member(p(15)).unwrap().came_from(), None, "only his first rubber");
        club.end_rubber(T1, true);
        if !leaver_plays {
            // He sat out; now he comes in like any member who did not play, with no draw against
            // the member who would otherwise play (1-4 tie again, so a going-out draw only).
            let out = club.start_draw(T1);
            let needed = draw_needed(&out).unwrap();
            assert_eq!(needed.purpose, DrawPurpose::GoingOut);
            let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "HA"), (2, "HK"), (3, "HQ"), (4, "H2")]);
            assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 15]), ps(&[4]))));
        }
    }
}

#[test]
fn rule_e_a_breaker_from_another_table_loses_without_a_draw_against_a_player_he_left() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 11, 15, 21, 22]);
    club.form(T1, &[1, 2, 3, 11]);
    club.play_rubber(T1);
    // 11 makes a fourth at a new table, announcing his return to T1 (rule F).
    let at = club.now();
    club.apply(ProcedureEvent::TableFormed {
        table: T2,
        form: GameForm::Rubber,
        options: TableOptions::default(),
        applicants: ps(&[21, 22, 15, 11]),
        returning_fourths: ps(&[11]),
        draw: vec![],
        at,
    });
    // 15 breaks up T2, leaving 21, 22 and 11; then joins T1, where 11 is a member.
    let out = club.leave_table(15, T2);
    assert!(out.contains(&Outcome::TableBroken { table: T2, breaker: p(15), left_behind: ps(&[21, 22, 11]) }));
    club.leave_table(11, T2);
    let out = club.apply_to(T1, &[15], &[]);
    assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(15), from_table: Some(T2) }));
    club.start_draw(T1);
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "HA"), (2, "HK"), (3, "HQ"), (11, "H2")]);
    // 11 would otherwise have played; 15 may not compete against him: no draw, 11 plays.
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 11]), ps(&[15]))));
    assert_eq!(club.room.next_draw(T1).unwrap().purpose, DrawPurpose::Partnerships);
}

#[test]
fn rule_e_the_breaker_restriction_lifts_only_after_each_of_the_three_has_played_a_rubber() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 8, 21, 22, 23, 24, 25, 26]);
    club.form(T1, &[1, 2, 3, 4]);
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    // 4 leaves in the middle of the rubber: it is abandoned (Law 80) and he has broken up the
    // game, leaving 1, 2 and 3.
    let out = club.leave_table(4, T1);
    assert!(out.contains(&Outcome::RubberAbandoned { table: T1 }));
    assert!(out.contains(&Outcome::TableBroken { table: T1, breaker: p(4), left_behind: ps(&[1, 2, 3]) }));
    assert_eq!(Outcome::RubberAbandoned { table: T1 }.law(), Law::rubber(80, ""));
    for id in [1, 2, 3] {
        assert!(club.room.is_restricted(p(4), p(id)), "an abandoned rubber does not count");
    }

    // At a complete table, 4 applies before 1; but 4 may not compete against 1 for entry.
    club.form(T9, &[21, 22, 23, 24, 25, 26]);
    club.apply_to(T9, &[4], &[]);
    club.apply_to(T9, &[1], &[]);
    assert_eq!(club.room.table(T9).unwrap().applications(), &ps(&[4, 1])[..]);
    assert_eq!(club.room.waiting_list(T9), ps(&[1, 4]));
    let at = club.now();
    club.apply(ProcedureEvent::Withdrew { player: p(1), table: T9, at });

    // T1 carries on with two newcomers; 3 draws lowest and sits out; 1 and 2 play a rubber.
    club.apply_to(T1, &[5, 6], &[]);
    club.start_draw(T1);
    club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "SA"), (2, "SK"), (3, "S2")]);
    club.start_rubber_by_server_draw(T1, 2);
    let out = club.end_rubber(T1, true);
    assert!(out.contains(&Outcome::RestrictionCleared { breaker: p(4), player: p(1) }));
    assert!(out.contains(&Outcome::RestrictionCleared { breaker: p(4), player: p(2) }));
    assert!(!out.iter().any(|o| matches!(o, Outcome::RestrictionLifted { .. })));
    assert!(!club.room.is_restricted(p(4), p(1)));
    assert!(club.room.is_restricted(p(4), p(3)));

    // 3 and 1 apply to T9 after 4: 3 still goes ahead of 4, 1 no longer does.
    club.apply_to(T9, &[8], &[]);
    club.apply_to(T9, &[3], &[]);
    club.apply_to(T9, &[1], &[]);
    // 4 moves to just behind 3; 8, who applied before 3, is not held back by the penalty.
    assert_eq!(club.room.waiting_list(T9), ps(&[8, 3, 4, 1]));

    // 3 plays a rubber: the restriction is over and the list is in order of application.
    let out = club.start_draw(T1);
    assert_eq!(draw_needed(&out).unwrap().purpose, DrawPurpose::GoingOut);
    // 5 and 6 (one rubber in a row) stay; 1 and 2 (two) tie for the last place.
    let needed = club.room.next_draw(T1).unwrap();
    assert_eq!(sorted(needed.players), ps(&[1, 2]));
    club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "SA"), (2, "SK")]);
    assert!(club.room.line_up(T1).unwrap().playing.contains(&p(3)));
    club.start_rubber_by_server_draw(T1, 3);
    let out = club.end_rubber(T1, true);
    assert!(out.contains(&Outcome::RestrictionCleared { breaker: p(4), player: p(3) }));
    assert!(out.contains(&Outcome::RestrictionLifted { breaker: p(4) }));
    assert!(club.room.restrictions().is_empty());
    assert_eq!(club.room.waiting_list(T9), ps(&[4, 8, 3, 1]));
    assert_eq!(club.room.table(T9).unwrap().applications(), &ps(&[4, 8, 3, 1])[..]);
}

#[test]
fn rule_f_making_a_fourth_with_an_announced_return_keeps_the_former_membership() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 11, 12, 13, 14, 15]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.form(T2, &[11, 12, 13, 14]);
    club.leave_table(14, T2);
    let at = club.now();
    let out = club.apply(ProcedureEvent::MadeFourth { player: p(5), table: T2, announced_return: true, at });
    assert!(out.contains(&Outcome::FillStarted { player: p(5), home: T1, host: T2 }));
    assert_eq!(club.room.tables_of(p(5)), vec![T1, T2]);
    assert_eq!(club.room.table(T1).unwrap().member(p(5)).unwrap().away_at(), Some(T2));
    // While away he cannot play at T1.
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 4]), vec![])));
    // He may not leave before his place can be filled.
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::ReturnedHome { player: p(5), at }).unwrap_err();
    assert_eq!(err, ProcedureError::PlaceNotFilled { player: p(5), table: T2 });
    assert_eq!(err.law(), Law::club_procedure('F'));
    // Someone joins T2: his place can be filled, and he returns.
    let out = club.apply_to(T2, &[15], &[]);
    assert!(out.contains(&Outcome::FillMayEnd { player: p(5), home: T1, host: T2 }));
    let at = club.now();
    let out = club.apply(ProcedureEvent::ReturnedHome { player: p(5), at });
    assert!(out.contains(&Outcome::FillEnded { player: p(5), home: T1, host: T2 }));
    assert!(!out.iter().any(|o| matches!(o, Outcome::TableBroken { .. })));
    assert_eq!(club.room.tables_of(p(5)), vec![T1]);
    assert!(club.room.table(T1).unwrap().member(p(5)).unwrap().is_present());
    assert_eq!(club.members(T2), ps(&[11, 12, 13, 15]));
}

#[test]
fn rule_f_making_a_fourth_without_announcing_a_return_loses_the_former_membership() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.form(T2, &[11, 12, 13, 14]);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::MadeFourth { player: p(5), table: T2, announced_return: false, at });
    assert_eq!(err.unwrap_err(), ProcedureError::FourthNotNeeded { table: T2, members: 4 });
    club.leave_table(14, T2);
    let at = club.now();
    let out = club.apply(ProcedureEvent::MadeFourth { player: p(5), table: T2, announced_return: false, at });
    assert!(out.contains(&Outcome::MembershipLost { table: T1, player: p(5) }));
    assert!(out.contains(&Outcome::MemberJoined { table: T2, player: p(5), from_table: Some(T1) }));
    assert_eq!(club.room.tables_of(p(5)), vec![T2]);
    let at = club.now();
    assert_eq!(
        club.try_apply(ProcedureEvent::ReturnedHome { player: p(5), at }).unwrap_err(),
        ProcedureError::NotOnFill { player: p(5) }
    );
}

#[test]
fn rule_f_joining_a_second_table_gives_up_the_first() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 11, 12, 13, 14, 15]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.form(T2, &[11, 12, 13, 14]);
    let out = club.apply_to(T2, &[5], &[]);
    assert!(out.contains(&Outcome::MembershipLost { table: T1, player: p(5) }));
    assert_eq!(Outcome::MembershipLost { table: T1, player: p(5) }.law(), Law::club_procedure('F'));
    assert_eq!(club.room.tables_of(p(5)), vec![T2]);
    // Leaving a table of four to join another breaks up the game (rule E).
    let out = club.apply_to(T2, &[4], &[]);
    assert!(out.contains(&Outcome::TableBroken { table: T1, breaker: p(4), left_behind: ps(&[1, 2, 3]) }));
}

#[test]
fn rule_b_an_application_made_after_the_draw_started_waits_for_the_next_rubber() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    club.form(T1, &[1, 2, 3, 4]);
    club.play_rubber(T1);
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 4]), vec![])));
    // 5 becomes a member at once (rule D) but too late for this rubber (rule B).
    let out = club.apply_to(T1, &[5], &[]);
    assert_eq!(out, vec![Outcome::MemberJoined { table: T1, player: p(5), from_table: None }]);
    assert_eq!(club.room.table(T1).unwrap().eligible(), &ps(&[1, 2, 3, 4])[..]);
    let line_up = club.room.line_up(T1).unwrap();
    assert_eq!((sorted(line_up.playing.to_vec()), line_up.sitting_out), (ps(&[1, 2, 3, 4]), vec![]));
    let at = club.now();
    let with_5 = cards(&[(1, "SA"), (2, "SK"), (3, "SQ"), (5, "SJ")]).try_into().unwrap();
    let err =
        club.try_apply(ProcedureEvent::RubberStarted { table: T1, partnerships: PartnershipSource::Drawn(with_5), at });
    assert_eq!(err.unwrap_err(), ProcedureError::NotTheLineUp { table: T1 });
    club.start_rubber_by_server_draw(T1, 5);
    club.end_rubber(T1, true);
    // The next rubber: he did not play the last one, so he comes in.
    let out = club.start_draw(T1);
    assert_eq!(draw_needed(&out).unwrap().purpose, DrawPurpose::GoingOut);
    assert!(club.room.table(T1).unwrap().eligible().contains(&p(5)));
}

#[test]
fn rule_b_a_member_before_the_first_card_is_drawn_counts_for_that_rubber() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    club.form(T1, &[1, 2, 3, 4]);
    club.play_rubber(T1);
    club.apply_to(T1, &[5], &[]);
    let out = club.start_draw(T1);
    assert_eq!(draw_needed(&out).unwrap().purpose, DrawPurpose::GoingOut, "5 comes in; 1-4 tie to go out");
}

#[test]
fn rule_b_a_draw_is_called_off_when_a_member_it_counted_on_leaves() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.start_draw(T1);
    let out = club.leave_table(5, T1);
    assert!(out.contains(&Outcome::DrawCancelled { table: T1 }));
    assert_eq!(club.room.table(T1).unwrap().phase(), TablePhase::BetweenRubbers);
    let out = club.leave_table(4, T1);
    assert!(out.iter().any(|o| matches!(o, Outcome::TableBroken { .. })));
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::DrawStarted { table: T1, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NotEnoughPlayers { table: T1, available: 3 });
    assert_eq!(err.law(), Law::rubber(1, ""));
}

#[test]
fn appendix_4_h3_no_two_players_partner_each_other_in_consecutive_rubbers_at_the_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4]);
    let options = TableOptions { no_consecutive_partners: true, ..TableOptions::default() };
    club.form_with(T1, &[1, 2, 3, 4], options, &[]);
    club.start_draw(T1);
    let out = club.start_rubber(T1, [(1, "SA"), (2, "SK"), (3, "SQ"), (4, "SJ")]);
    let expected_first = Partnerships::new(ps(&[1, 2]).try_into().unwrap(), ps(&[3, 4]).try_into().unwrap()).unwrap();
    assert!(out.contains(&Outcome::PartnershipsSet {
        table: T1,
        partnerships: expected_first,
        first_dealer: Some(p(1)),
        no_consecutive_applied: false,
    }));
    club.end_rubber(T1, true);
    club.start_draw(T1);
    // Agreed partnerships may not repeat either.
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::RubberStarted {
        table: T1,
        partnerships: PartnershipSource::Agreed(
            Partnerships::new(ps(&[3, 4]).try_into().unwrap(), ps(&[2, 1]).try_into().unwrap()).unwrap(),
        ),
        at,
    });
    let err = err.unwrap_err();
    assert_eq!(err.law(), Law::chicago('H', "3"));
    // 1 and 2 draw each other again: 1 plays with the third-highest.
    let out = club.start_rubber(T1, [(1, "HA"), (2, "HK"), (3, "HQ"), (4, "HJ")]);
    assert!(
        out.iter().any(|o| matches!(o, Outcome::PartnershipsSet { partnerships, no_consecutive_applied: true, .. }
        if partnerships.are_partners(p(1), p(3)) && partnerships.are_partners(p(2), p(4))))
    );
}

#[test]
fn appendix_4_b_a_pivot_table_takes_its_seats_for_the_next_rubber_instead_of_drawing() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4]);
    let at = club.now();
    club.apply(ProcedureEvent::TableFormed {
        table: T1,
        form: GameForm::Chicago,
        options: TableOptions { pivot: true, ..TableOptions::default() },
        applicants: ps(&[1, 2, 3, 4]),
        returning_fourths: vec![],
        draw: vec![],
        at,
    });
    club.start_draw(T1);
    assert_eq!(club.room.next_draw(T1).unwrap().purpose, DrawPurpose::Partnerships, "the first rubber is drawn");
    club.start_rubber(T1, [(1, "SA"), (2, "SK"), (3, "SQ"), (4, "SJ")]);
    club.end_rubber(T1, true);
    let mut pairs = vec![[1, 2]];
    for _ in 0..2 {
        club.start_draw(T1);
        assert_eq!(club.room.next_draw(T1), None, "taking the proper seats is the cut for partners");
        let at = club.now();
        let out = club.apply(ProcedureEvent::RubberStarted { table: T1, partnerships: PartnershipSource::Pivot, at });
        let Some(Outcome::PartnershipsSet { partnerships, .. }) = out.first() else { panic!("{out:?}") };
        let partner = [2u64, 3, 4].into_iter().find(|q| partnerships.are_partners(p(1), p(*q))).unwrap();
        pairs.push([1, partner]);
        club.end_rubber(T1, true);
    }
    assert_eq!(pairs, [[1, 2], [1, 3], [1, 4]]);
    // The pivot is complete: the next rubber is drawn again.
    club.start_draw(T1);
    assert_eq!(club.room.next_draw(T1).unwrap().purpose, DrawPurpose::Partnerships);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::RubberStarted { table: T1, partnerships: PartnershipSource::Pivot, at });
    assert_eq!(err.unwrap_err(), ProcedureError::NoPivot { table: T1 });
}

#[test]
fn events_must_come_in_time_order_and_replay_rebuilds_the_same_room() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.apply_to(T1, &[7], &[]);
    club.play_rubber(T1);
    let err = club.try_apply(ProcedureEvent::Entered { player: p(8), at: Timestamp(1) }).unwrap_err();
    assert!(matches!(err, ProcedureError::TimeWentBackwards { .. }));
    assert_eq!(err.law(), Law::club_procedure('B'));
    let replayed = Room::replay(&club.journal).unwrap();
    assert_eq!(replayed, club.room);
    let mut bad = club.journal.clone();
    bad.push(ProcedureEvent::RubberEnded { table: T1, completed: true, at: Timestamp(club.clock + 1) });
    assert_eq!(Room::replay(&bad).unwrap_err(), (club.journal.len(), ProcedureError::NoRubberInProgress { table: T1 }));
}

#[test]
fn leaving_the_room_gives_up_every_membership_and_application() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.form(T2, &[7, 8, 9, 10]);
    club.apply_to(T1, &[7], &[]);
    let at = club.now();
    let out = club.apply(ProcedureEvent::LeftRoom { player: p(7), at });
    assert!(out.contains(&Outcome::MemberLeft { table: T2, player: p(7) }));
    assert!(out.contains(&Outcome::ApplicationWithdrawn { table: T1, player: p(7) }));
    assert!(!club.room.is_present(p(7)));
    assert!(club.room.tables_of(p(7)).is_empty());
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::Applied { table: T1, players: ps(&[7]), draw: vec![], at });
    assert_eq!(err.unwrap_err(), ProcedureError::NotInRoom { player: p(7) });
}

fn form_event(table: TableId, applicants: &[u64], returning: &[u64], at: Timestamp) -> ProcedureEvent {
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

#[test]
fn rule_f_a_fourth_who_returns_is_one_the_new_table_needs_and_has_a_table_to_return_to() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    let at = club.now();
    // Five applicants do not need a fourth.
    let err = club.try_apply(form_event(T2, &[11, 12, 13, 14, 5], &[5], at)).unwrap_err();
    assert_eq!(err, ProcedureError::FourthNotNeeded { table: T2, members: 4 });
    // 14 has no table to return to.
    let err = club.try_apply(form_event(T2, &[11, 12, 13, 14], &[14], at)).unwrap_err();
    assert_eq!(err, ProcedureError::NoTableToReturnTo { player: p(14) });
    // The fourth must be one of the applicants.
    let err = club.try_apply(form_event(T2, &[11, 12, 13, 14], &[5], at)).unwrap_err();
    assert_eq!(err, ProcedureError::NotAnApplicant { player: p(5) });
    assert_eq!(err.law(), Law::club_procedure('F'));
    // 5 makes the fourth and keeps T1; he cannot make a fourth anywhere else meanwhile.
    let out = club.apply(form_event(T2, &[11, 12, 13, 5], &[5], at));
    assert!(out.contains(&Outcome::FillStarted { player: p(5), home: T1, host: T2 }));
    club.enter(&[21, 22, 23, 24]);
    club.form(TableId(3), &[21, 22, 23, 24]);
    club.leave_table(24, TableId(3));
    let at = club.now();
    let err =
        club.try_apply(ProcedureEvent::MadeFourth { player: p(5), table: TableId(3), announced_return: true, at });
    assert_eq!(err.unwrap_err(), ProcedureError::AlreadyAway { player: p(5), table: T2 });
}

#[test]
fn rule_f_a_member_playing_a_rubber_cannot_go_to_make_a_fourth() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4]);
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    club.form(T2, &[11, 12, 13, 14]);
    club.leave_table(14, T2);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::MadeFourth { player: p(4), table: T2, announced_return: true, at });
    assert_eq!(err.unwrap_err(), ProcedureError::PlayingElsewhere { player: p(4), table: T1 });
}

#[test]
fn every_refusal_says_what_was_wrong_and_names_the_rule() {
    let wrong = ProcedureError::WrongDraw {
        purpose: DrawPurpose::GoingOut,
        expected: ps(&[1, 2]),
        given: ps(&[1, 3]),
        law: DrawPurpose::GoingOut.law(),
    };
    assert_eq!(
        wrong.to_string(),
        "the draw for who goes out is by player 1, player 2, but the cards given are by player 1, player 3 \
         (rule E of the Rules for Club Procedure)"
    );
    let unneeded = ProcedureError::WrongDraw {
        purpose: DrawPurpose::CutIn,
        expected: vec![],
        given: ps(&[8]),
        law: Law::club_procedure('D'),
    };
    assert_eq!(
        unneeded.to_string(),
        "no draw is needed here, but cards were given by player 8 (rule D of the Rules for Club Procedure)"
    );
    assert_eq!(
        ProcedureError::PlaceNotFilled { player: p(5), table: T2 }.to_string(),
        "player 5's place at table 2 cannot be filled yet (rule F of the Rules for Club Procedure)"
    );
    assert_eq!(DrawPurpose::Formation.law(), Law::club_procedure('C'));
    assert_eq!(DrawPurpose::CutIn.law(), Law::club_procedure('D'));
    assert_eq!(DrawPurpose::LeaverEntry.law(), Law::club_procedure('E'));
    assert_eq!(DrawPurpose::Partnerships.law(), Law::rubber(3, ""));
    assert_eq!(Outcome::Waiting { table: T1, player: p(1), place: 1 }.law(), Law::club_procedure('D'));
    assert_eq!(Outcome::TableBroken { table: T1, breaker: p(1), left_behind: vec![] }.law(), Law::club_procedure('E'));
}

#[test]
fn rule_d_a_withdrawal_needs_an_application() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4]);
    club.form(T1, &[1, 2, 3, 4]);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::Withdrew { player: p(1), table: T1, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NotWaiting { player: p(1), table: T1 });
    let err = club.try_apply(ProcedureEvent::LeftTable { player: p(9), table: T1, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NotMember { player: p(9), table: T1 });
    assert_eq!(err.law(), Law::club_procedure('A'));
}

#[test]
fn rule_a_closing_a_table_ends_its_memberships_without_breaking_up_a_game() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.apply_to(T1, &[7], &[]);
    club.form(T2, &[11, 12, 13, 14]);
    club.leave_table(14, T2);
    // 6 makes a fourth at T2 and announces his return to T1 (rule F).
    let at = club.now();
    club.apply(ProcedureEvent::MadeFourth { player: p(6), table: T2, announced_return: true, at });
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 9);

    // Law 80 scores an unfinished rubber: it must be ended before the table closes.
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::TableClosed { table: T1, at }).unwrap_err();
    assert_eq!(err, ProcedureError::RubberInProgress { table: T1 });
    club.end_rubber(T1, false);

    let at = club.now();
    let out = club.apply(ProcedureEvent::TableClosed { table: T1, at });
    assert!(out.contains(&Outcome::ApplicationWithdrawn { table: T1, player: p(7) }), "the waiting application lapses");
    for id in [1, 2, 3, 4, 5, 6] {
        assert!(out.contains(&Outcome::MemberLeft { table: T1, player: p(id) }));
    }
    assert!(out.contains(&Outcome::TableDissolved { table: T1 }));
    // Rule E penalises a player who leaves three players; closing the table is nobody's leaving.
    assert!(!out.iter().any(|o| matches!(o, Outcome::TableBroken { .. })));
    assert!(club.room.restrictions().iter().all(|r| r.table() != T1), "only 14's, for leaving T2");
    assert!(club.room.table(T1).is_none());
    // 6 has no home table left: his membership of T2 is now an ordinary one (rule F).
    assert_eq!(club.room.tables_of(p(6)), vec![T2]);
    assert_eq!(club.room.table(T2).unwrap().member(p(6)).unwrap().fourth_for(), None);
    // Nobody is "leaving an existing table" any more, so a new table ranks them as players who
    // have played (rule C), and they can form one.
    assert!(!club.room.is_leaving_a_table(p(1)));
    club.form(T9, &[1, 2, 3, 4]);
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::TableClosed { table: T1, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NoSuchTable { table: T1 });
}

#[test]
fn rule_f_closing_the_table_of_a_fourth_sends_him_home() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.form(T2, &[11, 12, 13, 14]);
    club.leave_table(14, T2);
    let at = club.now();
    club.apply(ProcedureEvent::MadeFourth { player: p(5), table: T2, announced_return: true, at });
    let at = club.now();
    let out = club.apply(ProcedureEvent::TableClosed { table: T2, at });
    assert!(out.contains(&Outcome::FillEnded { player: p(5), home: T1, host: T2 }));
    assert_eq!(club.room.tables_of(p(5)), vec![T1]);
    assert!(club.room.table(T1).unwrap().member(p(5)).unwrap().is_present());
}

#[test]
fn appendix_4_h3_club_options_changed_between_rubbers_govern_the_next_rubber() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4]);
    club.form(T1, &[1, 2, 3, 4]);
    club.start_draw(T1);
    club.start_rubber(T1, [(1, "SA"), (2, "SK"), (3, "SQ"), (4, "SJ")]);
    // Changed while the first rubber is played: it applies from the next one.
    let at = club.now();
    let options = TableOptions { no_consecutive_partners: true, ..TableOptions::default() };
    club.apply(ProcedureEvent::OptionsChanged { table: T1, options, at });
    assert_eq!(club.room.table(T1).unwrap().options(), options);
    club.end_rubber(T1, true);
    club.start_draw(T1);
    // "If two players draw each other again, the highest plays with the third-highest."
    let out = club.start_rubber(T1, [(1, "HA"), (2, "HK"), (3, "HQ"), (4, "HJ")]);
    assert!(
        out.iter().any(|o| matches!(o, Outcome::PartnershipsSet { partnerships, no_consecutive_applied: true, .. }
        if partnerships.are_partners(p(1), p(3))))
    );
    let at = club.now();
    let err = club.try_apply(ProcedureEvent::OptionsChanged { table: T9, options, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NoSuchTable { table: T9 });
}

#[test]
fn rule_e_the_going_out_preview_after_a_rubber_names_who_comes_in_and_who_goes_out() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    assert_eq!(club.room.going_out_preview(T1), None, "no rubber played yet: the four highest play (rule C)");
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    club.end_rubber(T1, true);
    // "Each member who did not play the last rubber must be given a place": 5 comes in; 1-4 have
    // each played one rubber in a row, so the draw for the next rubber settles who goes out.
    let preview = club.room.going_out_preview(T1).unwrap();
    assert_eq!(preview.coming_in, ps(&[5]));
    assert!(preview.going_out.is_empty());
    assert_eq!(sorted(preview.tied), ps(&[1, 2, 3, 4]));
    // The draw agrees: the going-out draw is among the same four.
    let out = club.start_draw(T1);
    assert_eq!(sorted(draw_needed(&out).unwrap().players), ps(&[1, 2, 3, 4]));
    club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "SA"), (2, "SK"), (3, "S2"), (4, "SQ")]);
    club.start_rubber_by_server_draw(T1, 2);
    club.end_rubber(T1, true);
    // A sixth member joins. 3 (who drew lowest) and 6 did not play and come in; of the four who
    // played, 5 has one rubber in a row and 1, 2, 4 two each: 5 keeps a place and one of the three
    // keeps the other, which only the next draw can say.
    club.apply_to(T1, &[6], &[]);
    let preview = club.room.going_out_preview(T1).unwrap();
    assert_eq!(sorted(preview.coming_in), ps(&[3, 6]));
    assert!(preview.going_out.is_empty());
    assert_eq!(sorted(preview.tied), ps(&[1, 2, 4]));
    club.start_draw(T1);
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "D5"), (2, "C5"), (4, "H5")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[3, 4, 5, 6]), ps(&[1, 2]))), "the highest card, 4's, stays");
    club.start_rubber_by_server_draw(T1, 3);
    club.end_rubber(T1, true);
    // 1 and 2 sat out and come in; 3 and 6 have played one rubber in a row, 5 two and 4 three:
    // the two with the most go out, and no draw is needed.
    let preview = club.room.going_out_preview(T1).unwrap();
    assert_eq!(sorted(preview.coming_in), ps(&[1, 2]));
    assert_eq!(sorted(preview.going_out), ps(&[4, 5]));
    assert!(preview.tied.is_empty());
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 6]), ps(&[4, 5]))), "the draw agrees with the preview");
}

#[test]
fn rule_d_a_player_leaving_the_room_is_never_admitted_by_the_vacancy_he_opens() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.form(T2, &[11, 12, 13, 14, 15, 16]);
    // 11 waits at T1 while a member of T2; 1 waits at T2 while a member of T1.
    club.apply_to(T1, &[11], &[]);
    club.apply_to(T2, &[1], &[]);
    // 11 leaves the room: T2's vacancy admits 1, who thereby gives up T1 (rule F); T1's vacancy
    // must not go to 11, whose application ended with his leaving.
    let at = club.now();
    let out = club.apply(ProcedureEvent::LeftRoom { player: p(11), at });
    assert!(out.contains(&Outcome::ApplicationWithdrawn { table: T1, player: p(11) }));
    assert!(out.contains(&Outcome::MemberJoined { table: T2, player: p(1), from_table: Some(T1) }));
    assert!(!out.iter().any(|o| matches!(o, Outcome::MemberJoined { player, .. } if *player == p(11))));
    assert!(club.room.tables_of(p(11)).is_empty());
    assert_eq!(club.members(T1).len(), 5);
}

#[test]
fn rule_e_rejoining_the_table_one_left_is_not_coming_from_another_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.leave_table(5, T1);
    let out = club.apply_to(T1, &[5], &[]);
    assert_eq!(out, vec![Outcome::MemberJoined { table: T1, player: p(5), from_table: None }]);
    assert_eq!(club.room.table(T1).unwrap().member(p(5)).unwrap().came_from(), None);
}
