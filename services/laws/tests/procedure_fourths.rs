//! The Rules for Club Procedure as the membership service will drive them: making a fourth at
//! another table, with or without an announced return (rule F). Apart because rule F touches
//! two tables at once.
// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

mod procedure_common;

use laws::procedure::{Outcome, ProcedureError, ProcedureEvent, TableId};
use laws::{CitesLaw, Law};
use procedure_common::*;

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

/// Rule F: a member "consents, on request, to make a fourth at another table"; the reading is
/// that he cannot go while he plays a rubber, with or without announcing a return (an
/// application never takes a player out of his rubber either).
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
    let err = club.try_apply(ProcedureEvent::MadeFourth { player: p(4), table: T2, announced_return: false, at });
    assert_eq!(err.unwrap_err(), ProcedureError::PlayingElsewhere { player: p(4), table: T1 });
    assert!(club.room.table(T1).unwrap().playing().is_some(), "his rubber goes on");
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
