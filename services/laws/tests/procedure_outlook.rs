//! What a table needs next, asked of the room without changing it (`Room::outlook`): the desk is
//! told the draw the rules call for before anyone draws, and a table between rubbers is asked as
//! if its draw started now (rule B).

mod procedure_common;

use laws::procedure::{DrawPurpose, Outlook};
use procedure_common::*;

/// Rule E: "After each rubber place must be made for any member who did not play that last
/// rubber, by the member who has played the greatest number of consecutive rubbers at that
/// table. Cards are drawn for precedence if necessary." Between rubbers the outlook names that
/// draw and who draws, and asking leaves the room as it was: the draw has not started (rule B).
#[test]
fn rule_e_the_outlook_names_the_draw_for_going_out_before_the_draw_starts() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    let before = club.room.clone();
    let Some(Outlook::Draw { needed, eligible, line_up, started }) = club.room.outlook(T1) else {
        panic!("the first rubber's partnerships are drawn: {:?}", club.room.outlook(T1));
    };
    assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::Partnerships, ps(&[1, 2, 3, 4])));
    assert_eq!((sorted(eligible), started), (ps(&[1, 2, 3, 4, 5]), false));
    assert_eq!(line_up.map(|l| l.sitting_out), Some(ps(&[5])));
    assert_eq!(club.room, before, "asking changes nothing");

    club.start_draw(T1);
    club.start_rubber_by_server_draw(T1, 1);
    assert_eq!(club.room.outlook(T1).map(|o| matches!(o, Outlook::Playing { .. })), Some(true));
    club.end_rubber(T1, true);

    let Some(Outlook::Draw { needed, line_up, started, .. }) = club.room.outlook(T1) else {
        panic!("a tie for going out: {:?}", club.room.outlook(T1));
    };
    assert_eq!((needed.purpose, sorted(needed.players.clone())), (DrawPurpose::GoingOut, ps(&[1, 2, 3, 4])));
    assert_eq!((line_up, started), (None, false));
    // The draw the outlook named is the one the room asks for once the draw starts.
    club.start_draw(T1);
    assert_eq!(club.room.next_draw(T1), Some(needed));
}

/// Rule A: "Incomplete Table - A table with four or five members"; a table of three cannot
/// play, so the outlook is to wait for members, and how many are present.
#[test]
fn rule_a_a_table_left_with_three_waits_for_players() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4]);
    club.form(T1, &[1, 2, 3, 4]);
    club.leave_table(4, T1);
    assert_eq!(club.room.outlook(T1), Some(Outlook::ShortOfPlayers { present: 3 }));
    assert_eq!(club.room.outlook(T2), None, "no such table");
}
