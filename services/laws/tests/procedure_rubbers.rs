//! The Rules for Club Procedure as the membership service will drive them: the draw for each
//! rubber and who may play it (rule B), who goes out (rule E), and the partnerships of the club
//! options (Appendix 4 B and H3). Apart from membership because these scenarios play rubbers at
//! tables already formed.
// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

mod procedure_common;

use laws::deal::GameForm;
use laws::draw::Partnerships;
use laws::procedure::{
    DrawPurpose, Outcome, PartnershipSource, ProcedureError, ProcedureEvent, TableId, TableOptions, TablePhase,
    Timestamp,
};
use laws::{CitesLaw, Law};
use procedure_common::*;

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

/// Rule E: a player who breaks up a game "may not compete against them for entry at another
/// table until each of them has played at least one rubber". Here the breaker and one of the
/// players he left both join another table and draw, with one of its members, for the places the
/// newcomers from other tables take: the breaker draws the highest card, yet ranks below the
/// player he left, who takes the second place.
#[test]
fn rule_e_a_breaker_drawing_for_entry_beside_a_player_he_left_ranks_below_him() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 15, 21, 22, 23]);
    club.form(T1, &[1, 2, 3, 4]);
    club.play_rubber(T1);
    club.form(T2, &[21, 22, 23, 15]);
    let out = club.leave_table(15, T2);
    assert!(out.contains(&Outcome::TableBroken { table: T2, breaker: p(15), left_behind: ps(&[21, 22, 23]) }));
    // 21 leaves T2 (now three) for T1; so does 15, who broke it up.
    let out = club.apply_to(T1, &[21], &[]);
    assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(21), from_table: Some(T2) }));
    let out = club.apply_to(T1, &[15], &[]);
    assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(15), from_table: Some(T2) }));

    club.start_draw(T1);
    // 21 and 15 did not play the last rubber and come in; 3 and 4 draw lowest and would go out.
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(1, "HA"), (2, "HK"), (3, "HQ"), (4, "H2")]);
    let needed = draw_needed(&out).unwrap();
    assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::LeaverEntry, ps(&[3, 4, 15, 21])));
    // 15 draws the ace, 3 the king, 21 the three, 4 the two: by the cards 15 and 3 would play.
    let out = club.line_up_draw(T1, DrawPurpose::LeaverEntry, &[(15, "SA"), (3, "SK"), (21, "C3"), (4, "C2")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 21]), ps(&[4, 15]))));
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
fn rule_e_rejoining_the_table_one_left_is_not_coming_from_another_table() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6]);
    club.form(T1, &[1, 2, 3, 4, 5]);
    club.leave_table(5, T1);
    let out = club.apply_to(T1, &[5], &[]);
    assert_eq!(out, vec![Outcome::MemberJoined { table: T1, player: p(5), from_table: None }]);
    assert_eq!(club.room.table(T1).unwrap().member(p(5)).unwrap().came_from(), None);
}

/// Rules B and C: "An applicant may not play in a rubber unless he has become a member of a table
/// before a card is duly drawn for the selection of players or partners", and "The four
/// highest-ranking members play the first rubber. Those who have not played, ranked in their order
/// of entry into the room, take precedence over those who have played; the latter rank equally,
/// except that players leaving existing tables to join the new table rank lowest." 5 entered before
/// the four who formed the table and cuts in before its first draw: he ranks first and plays, and
/// the fourth founder sits out. 6 entered before everyone but left another table to join: he ranks
/// lowest.
#[test]
fn rules_b_and_c_a_member_who_cuts_in_before_the_first_draw_is_ranked_with_the_founders() {
    let mut club = Club::new();
    club.enter(&[6, 5, 1, 2, 3, 4, 21, 22, 23, 24]);
    club.form(T2, &[6, 21, 22, 23, 24]);
    let out = club.form(T1, &[1, 2, 3, 4]);
    assert!(
        matches!(&out[0], Outcome::TableFormed { first_rubber, .. } if *first_rubber == ps(&[1, 2, 3, 4])),
        "the founders' four, if nobody cuts in: {out:?}"
    );
    club.apply_to(T1, &[5], &[]);
    let out = club.apply_to(T1, &[6], &[]);
    assert!(out.contains(&Outcome::MemberJoined { table: T1, player: p(6), from_table: Some(T2) }));
    assert_eq!(club.members(T1), ps(&[1, 2, 3, 4, 5, 6]), "the member order is unchanged");

    let out = club.start_draw(T1);
    assert_eq!(draw_needed(&out).map(|n| n.purpose), Some(DrawPurpose::Partnerships), "no tie: no draw for who plays");
    assert_eq!(line_up_fixed(&out), Some((ps(&[1, 2, 3, 5]), ps(&[4, 6]))));
}

/// Rule C: "Precedence between those of equal rank is determined by drawing cards, the player who
/// draws the highest-ranking card having precedence." At T1 the founders who have played drew when
/// the table was formed; a newcomer who cuts in ranks above them all, and that draw still orders
/// them, so none is made again. At T2 nobody drew when it was formed (the four all played); one
/// more who has played cuts in, the five straddle the fourth place, and they draw at the table.
#[test]
fn rule_c_equals_straddling_the_fourth_place_for_the_first_rubber_draw_unless_a_draw_covers_them() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 8]);
    club.form(T9, &[1, 2, 3, 4]);
    club.form(TableId(8), &[5, 6, 7, 8]);
    club.play_rubber(T9);
    club.play_rubber(TableId(8));
    // The club closes both tables: they have played, and nobody broke up a game (rule E).
    for table in [T9, TableId(8)] {
        let at = club.now();
        club.apply(ProcedureEvent::TableClosed { table, at });
    }
    club.enter(&[31, 32, 33]);

    // T1: 31 has not played and ranks first; 1-4 have played and draw for the fourth place.
    let out =
        club.form_with(T1, &[1, 2, 3, 4, 31], TableOptions::default(), &[(1, "S2"), (2, "SA"), (3, "SK"), (4, "SQ")]);
    assert!(matches!(&out[0], Outcome::TableFormed { first_rubber, .. } if *first_rubber == ps(&[31, 2, 3, 4])));
    club.apply_to(T1, &[32], &[]);
    let out = club.start_draw(T1);
    assert_eq!(line_up_fixed(&out), Some((ps(&[2, 3, 31, 32]), ps(&[4, 1]))), "the formation's cards: SA, SK");

    // T2: 33 has not played; 5-8 have played and rank equal; no draw has been made at the table.
    let out = club.form(T2, &[5, 6, 7, 33]);
    assert!(matches!(&out[0], Outcome::TableFormed { first_rubber, .. } if *first_rubber == ps(&[33, 5, 6, 7])));
    club.apply_to(T2, &[8], &[]);
    let out = club.start_draw(T2);
    let needed = draw_needed(&out).unwrap();
    assert_eq!(
        (needed.table, needed.purpose, sorted(needed.players)),
        (Some(T2), DrawPurpose::Formation, ps(&[5, 6, 7, 8]))
    );
    assert_eq!(DrawPurpose::Formation.law(), Law::club_procedure('C'));
    let at = club.now();
    let going_out = cards(&[(5, "H2"), (6, "HA"), (7, "HK"), (8, "HQ")]);
    let err =
        club.try_apply(ProcedureEvent::LineUpDrawn { table: T2, purpose: DrawPurpose::GoingOut, draw: going_out, at });
    assert!(matches!(err, Err(ProcedureError::WrongDraw { purpose: DrawPurpose::Formation, .. })), "{err:?}");
    let out = club.line_up_draw(T2, DrawPurpose::Formation, &[(5, "H2"), (6, "HA"), (7, "HK"), (8, "HQ")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[6, 7, 8, 33]), ps(&[5]))), "the lowest card, 5's, sits out");
    let replayed = laws::procedure::Room::replay(&club.journal).unwrap();
    assert_eq!(replayed, club.room);
}

/// Rule E: "After each rubber place must be made for any member who did not play that last rubber
/// ... Cards are drawn for precedence if necessary." Three of the four who played the first rubber
/// leave and three waiting applicants take their places: five members did not play the last
/// rubber, one more than the places. All five draw; the four highest cards play.
#[test]
fn rule_e_more_members_who_did_not_play_than_places_draw_and_the_four_highest_play() {
    let mut club = Club::new();
    club.enter(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    club.form(T1, &[1, 2, 3, 4, 5, 6]);
    for id in [7, 8, 9] {
        club.apply_to(T1, &[id], &[]);
    }
    club.play_rubber(T1);
    for id in [1, 2, 3] {
        club.leave_table(id, T1);
    }
    assert_eq!(club.members(T1), ps(&[4, 5, 6, 7, 8, 9]));

    let preview = club.room.going_out_preview(T1).unwrap();
    assert!(preview.coming_in.is_empty(), "the draw decides who comes in: {preview:?}");
    assert_eq!(preview.going_out, ps(&[4]));
    assert_eq!(sorted(preview.tied), ps(&[5, 6, 7, 8, 9]));

    let out = club.start_draw(T1);
    let needed = draw_needed(&out).unwrap();
    assert_eq!((needed.purpose, sorted(needed.players)), (DrawPurpose::GoingOut, ps(&[5, 6, 7, 8, 9])));
    let at = club.now();
    let four = cards(&[(5, "SA"), (6, "S2"), (7, "SK"), (8, "SQ")]);
    let err = club.try_apply(ProcedureEvent::LineUpDrawn { table: T1, purpose: DrawPurpose::GoingOut, draw: four, at });
    assert!(matches!(err, Err(ProcedureError::WrongDraw { .. })), "all five draw: {err:?}");
    let out = club.line_up_draw(T1, DrawPurpose::GoingOut, &[(5, "SA"), (6, "S2"), (7, "SK"), (8, "SQ"), (9, "SJ")]);
    assert_eq!(line_up_fixed(&out), Some((ps(&[5, 7, 8, 9]), ps(&[4, 6]))));
}
