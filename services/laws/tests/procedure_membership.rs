//! The Rules for Club Procedure (Laws of Rubber Bridge 2014, Part VIII) as the membership
//! service will drive them: who is a member of which table (rules A, C, D), the room's journal,
//! and the refusals. Apart from the rubbers because these scenarios change who belongs to a
//! table.
// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

mod procedure_common;

use laws::deal::GameForm;
use laws::procedure::{DrawPurpose, Outcome, ProcedureError, ProcedureEvent, Room, TableOptions, Timestamp};
use laws::{CitesLaw, Law};
use procedure_common::*;

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

/// Rule C: those who have not played rank "by order of entry into the room". The desk corrects
/// the time a player entered (recorded late: he was there before the others) and he then ranks
/// first; a time after the correction, or a player not in the room, is refused.
#[test]
fn rule_c_a_corrected_time_of_entry_orders_the_player_from_then_on() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    let at = club.now();
    let early = Timestamp(500);
    club.apply(ProcedureEvent::EntryCorrected { player: p(5), entered_at: early, at });
    assert_eq!(club.room.entered_at(p(5)), Some(early));
    let out = club.form(T1, &[1, 2, 3, 4, 5]);
    let formed = out.iter().find_map(|o| match o {
        Outcome::TableFormed { members, first_rubber, .. } => Some((members.clone(), first_rubber.clone())),
        _ => None,
    });
    assert_eq!(formed, Some((ps(&[5, 1, 2, 3, 4]), ps(&[5, 1, 2, 3]))));

    let at = club.now();
    let later = Timestamp(at.0 + 1);
    let err = club.try_apply(ProcedureEvent::EntryCorrected { player: p(1), entered_at: later, at }).unwrap_err();
    assert_eq!(err, ProcedureError::EntryAfterCorrection { player: p(1), entered_at: later });
    assert_eq!(err.law(), Law::club_procedure('C'));
    let err = club.try_apply(ProcedureEvent::EntryCorrected { player: p(9), entered_at: early, at }).unwrap_err();
    assert_eq!(err, ProcedureError::NotInRoom { player: p(9) });
}

/// Rule D: "if more applications are made at the same time than are needed to complete the
/// table, a draw orders them". Two applications recorded apart (another came between them) are
/// marked by the desk as made together: the draw orders them, they take the place of the first,
/// and the application between them now follows both.
#[test]
fn rule_d_applications_marked_as_made_together_are_ordered_by_a_draw() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 11, 12, 13]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    club.apply_to(T1, &[11], &[]);
    club.apply_to(T1, &[12], &[]);
    club.apply_to(T1, &[13], &[]);
    assert_eq!(club.room.table(T1).unwrap().applications(), ps(&[11, 12, 13]).as_slice());

    let needed = club.room.joined_draw(T1, &ps(&[11, 13])).unwrap();
    assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::CutIn, ps(&[11, 13])));
    let at = club.now();
    let joined = ProcedureEvent::ApplicationsJoined {
        table: T1,
        players: ps(&[11, 13]),
        draw: cards(&[(11, "C2"), (13, "SA")]),
        at,
    };
    club.apply(joined);
    assert_eq!(club.room.table(T1).unwrap().applications(), ps(&[13, 11, 12]).as_slice());

    // Only applications waiting there, two or more; the draw must be theirs.
    assert_eq!(
        club.room.joined_draw(T1, &ps(&[11, 4])).unwrap_err(),
        ProcedureError::NotWaiting { player: p(4), table: T1 }
    );
    let at = club.now();
    let wrong =
        ProcedureEvent::ApplicationsJoined { table: T1, players: ps(&[11, 12]), draw: cards(&[(11, "H2")]), at };
    assert!(matches!(club.try_apply(wrong).unwrap_err(), ProcedureError::WrongDraw { .. }));
}

/// Rule F: "No one can be a member of more than one table at the same time", and rule D: "An
/// application establishes membership in a table either forthwith or (if the table is complete) as
/// soon as a vacancy occurs". Read together, nobody is taken out of a rubber in progress by an
/// application: 4, playing at T1, applies to T2, which has room. His application waits (and says
/// why), the place goes to 21 who applies next, and a vacancy passes him over for 22 while he
/// plays, without his losing his place. When his rubber ends, T2 has room and he becomes a member
/// there at once; he leaves T1 as any member joining another table does, and since that leaves
/// three players there, he has broken up that game (rule E).
#[test]
fn rule_f_an_application_by_a_player_in_a_rubber_waits_until_the_rubber_ends() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 11, 12, 13, 14, 15, 21, 22]);
    club.form(T1, &[1, 2, 3, 4]);
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    club.form(T2, &[11, 12, 13, 14, 15]);

    let out = club.apply_to(T2, &[4], &[]);
    assert_eq!(
        out,
        vec![
            Outcome::Waiting { table: T2, player: p(4), place: 1 },
            Outcome::ApplicationHeld { table: T2, player: p(4), playing_at: T1 },
        ]
    );
    assert_eq!(Outcome::ApplicationHeld { table: T2, player: p(4), playing_at: T1 }.law(), Law::club_procedure('F'));
    assert_eq!(club.room.tables_of(p(4)), vec![T1]);
    assert_eq!(club.room.playing_at(p(4)), Some(T1));
    assert_eq!(club.room.table(T1).unwrap().playing().map(|four| four.contains(&p(4))), Some(true));

    // 21 applies after him and takes the place that is free.
    let out = club.apply_to(T2, &[21], &[]);
    assert_eq!(out, vec![Outcome::MemberJoined { table: T2, player: p(21), from_table: None }]);
    club.apply_to(T2, &[22], &[]);
    assert_eq!(club.room.waiting_list(T2), ps(&[4, 22]));
    // A vacancy: 4 still plays, so 22 fills it; 4 keeps the first place.
    let out = club.leave_table(11, T2);
    assert!(out.contains(&Outcome::MemberJoined { table: T2, player: p(22), from_table: None }));
    assert!(!out.iter().any(|o| matches!(o, Outcome::MemberJoined { player, .. } if *player == p(4))));
    assert_eq!(club.room.waiting_list(T2), ps(&[4]));
    club.leave_table(12, T2);
    assert_eq!(club.members(T2).len(), 5, "room at T2, and 4 still waits: {:?}", club.members(T2));

    // His rubber ends (finished, not abandoned): his application takes effect at once.
    let out = club.end_rubber(T1, true);
    assert!(out.contains(&Outcome::RubberEnded { table: T1, completed: true }));
    assert!(!out.iter().any(|o| matches!(o, Outcome::RubberAbandoned { .. })));
    assert!(out.contains(&Outcome::MembershipLost { table: T1, player: p(4) }));
    assert!(out.contains(&Outcome::MemberJoined { table: T2, player: p(4), from_table: Some(T1) }));
    assert!(out.contains(&Outcome::TableBroken { table: T1, breaker: p(4), left_behind: ps(&[1, 2, 3]) }));
    assert_eq!(club.room.tables_of(p(4)), vec![T2]);
    assert!(club.room.table(T2).unwrap().applications().is_empty());
    assert_eq!(Room::replay(&club.journal).unwrap(), club.room);
}

/// Rule F, as above: a player in a rubber cannot be taken out of it by forming a new table either
/// ("Four to six applicants may form a table", rule C). The table is refused while he plays; the
/// others may form it and he may then apply, his application waiting for his rubber to end.
#[test]
fn rule_f_a_player_in_a_rubber_cannot_form_a_new_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 11, 12, 13, 14]);
    club.form(T1, &[1, 2, 3, 4]);
    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    let at = club.now();
    let err = club.try_apply(form_event(T2, &[11, 12, 13, 4], &[], at)).unwrap_err();
    assert_eq!(err, ProcedureError::PlayingElsewhere { player: p(4), table: T1 });
    assert_eq!(err.law(), Law::club_procedure('F'));
    club.form(T2, &[11, 12, 13, 14]);
    let out = club.apply_to(T2, &[4], &[]);
    assert!(out.contains(&Outcome::ApplicationHeld { table: T2, player: p(4), playing_at: T1 }));
}
