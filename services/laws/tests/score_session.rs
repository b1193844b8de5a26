//! Duplicate sessions (Law 78A, Law 78B) with Law 12 adjusted scores: the matchpoint and
//! artificial-score cases and the director's guide's weighted score (case 23) of
//! docs/worked-cases.md, split scores, ranks.

use laws::rulings::{AdjustedScore, ArtificialScore, RulingError, SideAdjustment, WeightedScore};
use laws::score::Tricks;
use laws::score::duplicate::BoardResult;
use laws::score::imps::DatumRule;
use laws::score::session::{Method, PairId, Session, SessionError, SessionScore, TableResult, TableScore};
use laws::{CitesLaw, DeclaredContract, Law, Seat, Vulnerability};

fn result(contract: &str, declarer: Seat, tricks: u8) -> BoardResult {
    BoardResult::Played {
        contract: DeclaredContract { contract: contract.parse().unwrap_or_else(|e| panic!("{e}")), declarer },
        tricks: Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")),
    }
}

/// A result worth `ns` to North-South on a board where nobody is vulnerable, found among real
/// contracts by North or East so that it goes through Law 77; zero is a pass-out.
fn worth(ns: i32) -> BoardResult {
    if ns == 0 {
        return BoardResult::PassedOut;
    }
    let candidates = ["1C", "2C", "3C", "1S", "2S", "3S", "4S", "1NT", "3NT", "6S", "4SX", "2SX"];
    for declarer in [Seat::North, Seat::East] {
        for contract in candidates {
            for tricks in 0..=13 {
                let r = result(contract, declarer, tricks);
                if r.ns_score(Vulnerability::None) == ns {
                    return r;
                }
            }
        }
    }
    panic!("no contract scores {ns}")
}

fn session(method: Method, boards: u32) -> Session {
    let mut s = Session::new(method);
    for b in 1..=boards {
        s.add_board(b, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
    }
    s
}

fn add(s: &mut Session, board: u32, ns: u32, ew: u32, score: TableScore) {
    s.add_result(TableResult { board, ns: PairId(ns), ew: PairId(ew), score }).unwrap_or_else(|e| panic!("{e}"));
}

fn board_value(scored: &SessionScore, board: u32, pair: u32) -> f64 {
    scored
        .boards
        .iter()
        .find_map(|b| {
            (b.board == board && b.ns == PairId(pair))
                .then_some(b.ns_value)
                .or_else(|| (b.board == board && b.ew == PairId(pair)).then_some(b.ew_value))
        })
        .unwrap_or_else(|| panic!("pair {pair} did not play board {board}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn law_78a_duplicate_8_4_six_scores_as_percentages_with_the_complement_for_east_west() {
    let mut s = session(Method::Matchpoints, 1);
    for (t, ns) in [450, 420, 420, 170, -50, -100].into_iter().enumerate() {
        let t = t as u32;
        add(&mut s, 1, 2 * t + 1, 2 * t + 2, TableScore::Result(worth(ns)));
    }
    let scored = s.score();
    let ns: Vec<f64> = scored.boards.iter().map(|b| b.ns_value).collect();
    assert_eq!(ns, vec![100.0, 70.0, 70.0, 40.0, 20.0, 0.0]);
    let ew_units: Vec<f64> = scored.boards.iter().map(|b| b.ew_units.map_or(-1.0, |u| u.0)).collect();
    assert_eq!(ew_units, vec![0.0, 3.0, 3.0, 6.0, 8.0, 10.0]);
    let total: f64 = scored.boards.iter().map(|b| b.ns_units.map_or(0.0, |u| u.0)).sum();
    assert_eq!(total, 30.0, "n(n-1)");
}

#[test]
fn law_12c1c_director_guide_23_weighted_score_matchpointed_as_the_weighted_sum() {
    // 11 tables, top 20. NS at the adjusted table get 30% of +500 (worth 8) and 70% of +200
    // (worth 5): 0.3 x 8 + 0.7 x 5 = 5.9; EW 14.1.
    let mut s = Session::new(Method::Matchpoints);
    s.add_board(1, Vulnerability::EastWest).unwrap_or_else(|e| panic!("{e}"));
    let four_hearts_doubled = |tricks| result("4HX", Seat::East, tricks);
    let weighted = WeightedScore::new(vec![(four_hearts_doubled(9), 0.7), (four_hearts_doubled(8), 0.3)])
        .unwrap_or_else(|e| panic!("{e}"));
    add(&mut s, 1, 1, 2, TableScore::Adjusted(AdjustedScore::weighted(weighted)));
    // The field: four scores below +500, one of them the +200 tie; six scores above.
    let field = [
        result("4S", Seat::North, 9),
        result("1S", Seat::North, 7),
        four_hearts_doubled(9),
        result("4S", Seat::North, 10),
    ];
    let mut t = 2;
    for r in field {
        add(&mut s, 1, 2 * t + 1, 2 * t + 2, TableScore::Result(r));
        t += 1;
    }
    for _ in 0..6 {
        add(&mut s, 1, 2 * t + 1, 2 * t + 2, TableScore::Result(result("6S", Seat::North, 12)));
        t += 1;
    }
    let field_ns: Vec<i32> = s.results()[1..]
        .iter()
        .map(|r| match &r.score {
            TableScore::Result(r) => r.ns_score(Vulnerability::EastWest),
            TableScore::Adjusted(_) => 0,
        })
        .collect();
    assert_eq!(field_ns, vec![-50, 80, 200, 420, 980, 980, 980, 980, 980, 980]);
    let scored = s.score();
    let adjusted = &scored.boards[0];
    assert_eq!(adjusted.ns_units.map(|u| u.1), Some(20));
    assert!(close(adjusted.ns_units.map_or(0.0, |u| u.0), 5.9), "{adjusted:?}");
    assert!(close(adjusted.ew_units.map_or(0.0, |u| u.0), 14.1), "{adjusted:?}");
    let board_total: f64 = scored.boards.iter().map(|b| b.ns_units.map_or(0.0, |u| u.0)).sum();
    assert!(close(board_total, 110.0), "the board still shares n(n-1) = 110 units: {board_total}");
}

#[test]
fn law_12c1c_weights_must_sum_to_one() {
    let r = result("3NT", Seat::North, 9);
    assert_eq!(WeightedScore::new(vec![(r, 0.5), (r, 0.4)]), Err(RulingError::WeightsDoNotSumToOne(0.9)));
    assert_eq!(WeightedScore::new(vec![(r, 1.5), (r, -0.5)]), Err(RulingError::BadWeight(-0.5)));
    assert_eq!(WeightedScore::new(vec![]), Err(RulingError::NoResults));
    assert_eq!(RulingError::NoResults.law(), Law::duplicate(12, "C1(c)"));
    let third = 1.0 / 3.0;
    assert!(WeightedScore::new(vec![(r, third), (r, third), (r, third)]).is_ok());
}

/// Three tables play boards 1-3; pair 1 (NS at table 1) is best on board 1 and middle on
/// board 2; pair 2 (EW at table 1) is worst on board 1 and middle on board 2. On board 3
/// their table gets artificial scores.
fn artificial_session(method: Method, ns_award: ArtificialScore, ew_award: ArtificialScore) -> SessionScore {
    let mut s = session(method, 3);
    let boards: [[i32; 3]; 2] = [[450, 170, -100], [420, 430, 400]];
    for (b, scores) in boards.iter().enumerate() {
        for (t, ns) in scores.iter().enumerate() {
            add(&mut s, b as u32 + 1, 2 * t as u32 + 1, 2 * t as u32 + 2, TableScore::Result(worth(*ns)));
        }
    }
    add(&mut s, 3, 1, 2, TableScore::Adjusted(AdjustedScore::artificial(ns_award, ew_award)));
    add(&mut s, 3, 3, 4, TableScore::Result(worth(140)));
    add(&mut s, 3, 5, 6, TableScore::Result(worth(110)));
    s.score()
}

#[test]
fn law_12c2_duplicate_8_5_artificial_scores_60_50_40() {
    // Pairs 3 and 4 have 50% elsewhere, so the session rule changes nothing for them.
    let mut s = session(Method::Matchpoints, 2);
    add(&mut s, 1, 1, 2, TableScore::Result(worth(100)));
    add(&mut s, 1, 3, 4, TableScore::Result(worth(100)));
    add(&mut s, 2, 1, 2, TableScore::Result(worth(100)));
    add(
        &mut s,
        2,
        3,
        4,
        TableScore::Adjusted(AdjustedScore::artificial(ArtificialScore::AveragePlus, ArtificialScore::AverageMinus)),
    );
    let scored = s.score();
    assert_eq!((board_value(&scored, 2, 3), board_value(&scored, 2, 4)), (60.0, 40.0));
    let mut s = session(Method::Matchpoints, 1);
    add(
        &mut s,
        1,
        1,
        2,
        TableScore::Adjusted(AdjustedScore::artificial(ArtificialScore::Average, ArtificialScore::Average)),
    );
    assert_eq!(board_value(&s.score(), 1, 1), 50.0);
}

#[test]
fn law_12c2c_session_percentage_replaces_60_and_40() {
    // Pair 1 (no fault) scored 100% and 50%: 75% > 60%, so 75% on board 3.
    // Pair 2 (at fault) scored 0% and 50%: 25% < 40%, so 25% on board 3.
    let scored = artificial_session(Method::Matchpoints, ArtificialScore::AveragePlus, ArtificialScore::AverageMinus);
    assert_eq!(board_value(&scored, 1, 1), 100.0);
    assert_eq!(board_value(&scored, 2, 1), 50.0);
    assert_eq!(board_value(&scored, 3, 1), 75.0);
    assert_eq!(board_value(&scored, 3, 2), 25.0);
    let pair_1 = scored.pair(PairId(1)).unwrap_or_else(|| panic!("pair 1"));
    assert!(close(pair_1.score, 75.0));
    // The other tables on board 3 are compared only with each other: 140 beats 110.
    assert_eq!((board_value(&scored, 3, 3), board_value(&scored, 3, 5)), (100.0, 0.0));
}

#[test]
fn law_12c2c_the_session_rule_does_not_lower_average_plus_or_raise_average_minus() {
    // Pair 1 (75% elsewhere) is now the offender: average minus stays 40%, not 75%. Pair 2
    // (25% elsewhere) is in no way at fault: average plus stays 60%.
    let scored = artificial_session(Method::Matchpoints, ArtificialScore::AverageMinus, ArtificialScore::AveragePlus);
    assert_eq!((board_value(&scored, 3, 1), board_value(&scored, 3, 2)), (40.0, 60.0));
}

#[test]
fn law_12c2b_imps_plus_3_minus_3_and_the_imp_equivalent_of_the_session_rule() {
    // Butler, datum of three results is their mean rounded to ten.
    let scored = artificial_session(
        Method::Butler(DatumRule::default()),
        ArtificialScore::AveragePlus,
        ArtificialScore::AverageMinus,
    );
    // Board 1: datum (450 + 170 - 100) / 3 = 173 -> 170: pair 1 +280 -> 7 IMPs; board 2
    // datum 417 -> 420: 0. Pair 1 averages 3.5 IMPs > 3, so 3.5 on board 3.
    assert_eq!(board_value(&scored, 1, 1), 7.0);
    assert_eq!(board_value(&scored, 2, 1), 0.0);
    assert_eq!(board_value(&scored, 3, 1), 3.5);
    // Pair 2: -7 and 0, average -3.5 < -3.
    assert_eq!(board_value(&scored, 3, 2), -3.5);
    // Without the session rule's condition: pair 1 offending gets -3 (its average is above).
    let scored = artificial_session(Method::CrossImps, ArtificialScore::AverageMinus, ArtificialScore::AveragePlus);
    assert_eq!((board_value(&scored, 3, 1), board_value(&scored, 3, 2)), (-3.0, 3.0));
}

#[test]
fn law_78b_cross_imps_are_averaged_per_comparison() {
    let mut s = session(Method::CrossImps, 1);
    for (t, ns) in [420, 420, -50, 170].into_iter().enumerate() {
        add(&mut s, 1, 2 * t as u32 + 1, 2 * t as u32 + 2, TableScore::Result(worth(ns)));
    }
    let scored = s.score();
    let ns: Vec<f64> = scored.boards.iter().map(|b| b.ns_value).collect();
    assert_eq!(ns, vec![16.0 / 3.0, 16.0 / 3.0, -26.0 / 3.0, -6.0 / 3.0]);
    assert!(scored.boards.iter().all(|b| close(b.ew_value, -b.ns_value)));
}

#[test]
fn law_12c1e_split_scores_give_each_side_its_own_result() {
    // Table 1: NS are assigned +140 (3S made), EW are scored as if NS had made 4S (-420 for
    // EW). The other NS pairs compare with +140, the other EW pairs with EW's -420.
    let mut s = session(Method::Matchpoints, 1);
    let split = AdjustedScore::split(SideAdjustment::Assigned(worth(140)), SideAdjustment::Assigned(worth(420)));
    assert!(split.is_split());
    add(&mut s, 1, 1, 2, TableScore::Adjusted(split));
    add(&mut s, 1, 3, 4, TableScore::Result(worth(170)));
    add(&mut s, 1, 5, 6, TableScore::Result(worth(110)));
    let scored = s.score();
    // NS: 140 against 170 and 110: 50%. EW: -420 against -170 and -110: 0%.
    assert_eq!((board_value(&scored, 1, 1), board_value(&scored, 1, 2)), (50.0, 0.0));
    // Pair 4 (EW against 170): -170 beats -420, loses to -110: 50%.
    assert_eq!(board_value(&scored, 1, 4), 50.0);
    assert!(!AdjustedScore::assigned(worth(140)).is_split());
}

#[test]
fn law_12c1a_an_assigned_score_replaces_the_table_result() {
    let mut s = session(Method::Matchpoints, 1);
    add(&mut s, 1, 1, 2, TableScore::Result(worth(450)));
    add(&mut s, 1, 3, 4, TableScore::Result(worth(420)));
    assert_eq!(board_value(&s.score(), 1, 1), 100.0);
    s.set_score(1, PairId(1), TableScore::Adjusted(AdjustedScore::assigned(worth(400))))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(board_value(&s.score(), 1, 1), 0.0);
    assert_eq!(
        s.set_score(2, PairId(1), TableScore::Result(worth(0))),
        Err(SessionError::NoSuchResult { board: 2, ns: PairId(1) })
    );
}

#[test]
fn law_78a_ranks_share_ties() {
    let mut s = session(Method::Matchpoints, 1);
    for (t, ns) in [420, 420, -50].into_iter().enumerate() {
        add(&mut s, 1, 2 * t as u32 + 1, 2 * t as u32 + 2, TableScore::Result(worth(ns)));
    }
    let scored = s.score();
    let ranks: Vec<(u32, u32, bool)> = scored.ranking.iter().map(|p| (p.pair.0, p.rank, p.tied)).collect();
    // NS 1 and 3: 75%; EW 6: 100%; NS 5: 0%; EW 2 and 4: 25%.
    assert_eq!(ranks, vec![(6, 1, false), (1, 2, true), (3, 2, true), (2, 4, true), (4, 4, true), (5, 6, false)]);
    let ns_only: Vec<(u32, u32)> =
        scored.rank_among(&[PairId(1), PairId(3), PairId(5)]).iter().map(|p| (p.pair.0, p.rank)).collect();
    assert_eq!(ns_only, vec![(1, 1), (3, 1), (5, 3)]);
}

#[test]
fn law_78a_a_session_refuses_results_that_cannot_be_compared() {
    let mut s = session(Method::Matchpoints, 1);
    let r = |board, ns, ew| TableResult { board, ns: PairId(ns), ew: PairId(ew), score: TableScore::Result(worth(0)) };
    assert_eq!(s.add_result(r(9, 1, 2)), Err(SessionError::UnknownBoard(9)));
    assert_eq!(s.add_result(r(1, 1, 1)), Err(SessionError::AgainstItself { board: 1, pair: PairId(1) }));
    assert!(s.add_result(r(1, 1, 2)).is_ok());
    assert_eq!(s.add_result(r(1, 3, 1)), Err(SessionError::PairTwice { board: 1, pair: PairId(1) }));
    assert_eq!(s.add_board(1, Vulnerability::Both), Err(SessionError::BoardTwice(1)));
    assert_eq!(SessionError::UnknownBoard(9).law(), Law::duplicate(78, "A"));
}

#[test]
fn law_78c_total_points_is_the_net_total_of_the_boards_played() {
    let mut s = session(Method::TotalPoints, 2);
    add(&mut s, 1, 1, 2, TableScore::Result(worth(420)));
    add(&mut s, 2, 1, 2, TableScore::Result(worth(-100)));
    let third = 1.0 / 3.0;
    let weighted =
        WeightedScore::new(vec![(worth(140), third), (worth(-50), 1.0 - third)]).unwrap_or_else(|e| panic!("{e}"));
    add(&mut s, 1, 3, 4, TableScore::Adjusted(AdjustedScore::weighted(weighted)));
    let scored = s.score();
    let total = |pair| scored.pair(PairId(pair)).map_or(f64::NAN, |p| p.score);
    assert_eq!((total(1), total(2)), (320.0, -320.0));
    assert!(close(total(3), 140.0 / 3.0 - 100.0 / 3.0));
    let artificial =
        TableScore::Adjusted(AdjustedScore::artificial(ArtificialScore::Average, ArtificialScore::Average));
    let refused = s.add_result(TableResult { board: 2, ns: PairId(3), ew: PairId(4), score: artificial.clone() });
    assert_eq!(refused, Err(SessionError::ArtificialAtTotalPoints { board: 2 }));
    assert_eq!(s.set_score(1, PairId(1), artificial), Err(SessionError::ArtificialAtTotalPoints { board: 1 }));
    assert_eq!(SessionError::ArtificialAtTotalPoints { board: 1 }.law(), Law::duplicate(12, "C2"));
}

/// Law 87B: "In scoring a fouled board the Director determines as closely as possible which
/// scores were obtained on the board in its correct form and which in the changed form(s). He
/// divides the scores on that basis into groups and rates each group separately as provided in
/// the regulations for the tournament. (In the absence of a relevant regulation the Director
/// selects and announces his method.)"
///
/// Six tables (pairs 1-12, NS odd): NS scores 450, 420, 420, 170 in the correct form; tables 5
/// and 6 played a changed form and scored -50 and -100.
fn fouled_board(method: Method, fouled: bool) -> Session {
    let mut s = session(method, 1);
    for (t, ns) in [450, 420, 420, 170, -50, -100].into_iter().enumerate() {
        let t = t as u32;
        add(&mut s, 1, 2 * t + 1, 2 * t + 2, TableScore::Result(worth(ns)));
    }
    if fouled {
        for ns in [9, 11] {
            s.set_form(1, PairId(ns), 1).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    s
}

fn ranks(scored: &SessionScore) -> Vec<(u32, u32)> {
    let mut ranks: Vec<(u32, u32)> = scored.ranking.iter().map(|p| (p.pair.0, p.rank)).collect();
    ranks.sort_unstable();
    ranks
}

#[test]
fn law_87b_a_fouled_board_is_matchpointed_in_groups_by_the_form_played() {
    let before = fouled_board(Method::Matchpoints, false).score();
    let ns: Vec<f64> = before.boards.iter().map(|b| b.ns_value).collect();
    assert_eq!(ns, vec![100.0, 70.0, 70.0, 40.0, 20.0, 0.0], "one field of six: Law 78A");

    let s = fouled_board(Method::Matchpoints, true);
    assert_eq!((s.form(1, PairId(1)), s.form(1, PairId(9)), s.form(1, PairId(11))), (0, 1, 1));
    let after = s.score();
    // Correct form, 4 tables, top 6: 450 beats three (6); each 420 beats 170 and ties (3);
    // 170 beats none (0). Changed form, 2 tables, top 2: -50 beats -100 (2); -100 (0).
    let ns: Vec<f64> = after.boards.iter().map(|b| b.ns_value).collect();
    assert_eq!(ns, vec![100.0, 50.0, 50.0, 0.0, 100.0, 0.0]);
    let units: Vec<(f64, u32)> = after.boards.iter().filter_map(|b| b.ns_units).collect();
    assert_eq!(units, vec![(6.0, 6), (3.0, 6), (3.0, 6), (0.0, 6), (2.0, 2), (0.0, 2)]);
    let ew: Vec<f64> = after.boards.iter().map(|b| b.ew_value).collect();
    assert_eq!(ew, vec![0.0, 50.0, 50.0, 100.0, 0.0, 100.0]);
    // The announced method: the group's percentage applied to the board's full top, 2(6-1) = 10.
    let mp = |pair| after.pair(PairId(pair)).and_then(|p| p.matchpoints).unwrap_or(f64::NAN);
    assert_eq!([mp(1), mp(3), mp(7), mp(9), mp(11), mp(12)], [10.0, 5.0, 0.0, 10.0, 0.0, 10.0]);
    // The board still shares 6 tables x 10 = 60 matchpoints, as it did unfouled.
    let shared = |scored: &SessionScore| scored.ranking.iter().filter_map(|p| p.matchpoints).sum::<f64>();
    assert!(close(shared(&before), 60.0) && close(shared(&after), 60.0));
    // Ranking: before, 1 and 12 share first and pair 9 (-50, 20%) is tenth; after, the winners
    // of each group (1 and 8 in the correct form, 9 and 12 in the changed one) share first.
    assert_eq!(
        ranks(&before),
        vec![(1, 1), (2, 11), (3, 4), (4, 8), (5, 4), (6, 8), (7, 7), (8, 6), (9, 10), (10, 3), (11, 11), (12, 1)]
    );
    assert_eq!(
        ranks(&after),
        vec![(1, 1), (2, 9), (3, 5), (4, 5), (5, 5), (6, 5), (7, 9), (8, 1), (9, 1), (10, 9), (11, 9), (12, 1)]
    );
}

#[test]
fn law_87b_total_points_are_not_affected_by_the_groups() {
    // Law 78C: the net total of the boards played; a group changes no table's points.
    let before = fouled_board(Method::TotalPoints, false).score();
    let after = fouled_board(Method::TotalPoints, true).score();
    for pair in 1..=12 {
        let total = |s: &SessionScore| s.pair(PairId(pair)).map_or(f64::NAN, |p| p.score);
        assert_eq!(total(&before), total(&after), "pair {pair}");
    }
    assert_eq!(after.pair(PairId(9)).map(|p| p.score), Some(-50.0));
}

#[test]
fn law_87b_cross_imps_and_the_butler_datum_are_taken_within_the_group() {
    let scored = fouled_board(Method::CrossImps, true).score();
    // Correct form: 450 v 420 (1), 420 (1), 170 (7): 9/3 = 3. Changed: -50 v -100: 2 IMPs.
    assert_eq!(board_value(&scored, 1, 1), 3.0);
    assert_eq!((board_value(&scored, 1, 9), board_value(&scored, 1, 11)), (2.0, -2.0));
    let scored = fouled_board(Method::Butler(DatumRule::default()), true).score();
    // Correct form: datum (450 + 420 + 420 + 170) / 4 = 365 -> 370; 450 is +80: 2 IMPs.
    // Changed form: datum -75 -> -80 (rounded half away from zero); -50 is +30: 1 IMP.
    assert_eq!(board_value(&scored, 1, 1), 2.0);
    assert_eq!(board_value(&scored, 1, 7), -5.0);
    assert_eq!((board_value(&scored, 1, 9), board_value(&scored, 1, 11)), (1.0, -1.0));
}

#[test]
fn law_87b_a_group_of_one_has_nothing_to_compare_and_artificial_scores_still_count() {
    let mut s = fouled_board(Method::Matchpoints, false);
    // Table 6 alone played a changed form: 50% (nothing to compare with).
    s.set_form(1, PairId(11), 2).unwrap_or_else(|e| panic!("{e}"));
    // Table 5 got an artificial score (Law 12C2): its percentage is its award, whatever form.
    s.set_score(
        1,
        PairId(9),
        TableScore::Adjusted(AdjustedScore::artificial(ArtificialScore::AveragePlus, ArtificialScore::AverageMinus)),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let scored = s.score();
    assert_eq!((board_value(&scored, 1, 11), board_value(&scored, 1, 12)), (50.0, 50.0));
    assert_eq!((board_value(&scored, 1, 9), board_value(&scored, 1, 10)), (60.0, 40.0));
    // The correct form's four tables are compared among themselves as before.
    assert_eq!(board_value(&scored, 1, 1), 100.0);
    // Putting table 6 back in the correct form compares it with them again.
    s.set_form(1, PairId(11), 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.form(1, PairId(11)), 0);
    assert_eq!(board_value(&s.score(), 1, 11), 0.0);
}

#[test]
fn law_87b_a_form_is_given_only_for_a_recorded_result() {
    let mut s = fouled_board(Method::Matchpoints, false);
    assert_eq!(s.set_form(1, PairId(2), 1), Err(SessionError::NoResultToGroup { board: 1, ns: PairId(2) }));
    assert_eq!(s.set_form(2, PairId(1), 1), Err(SessionError::NoResultToGroup { board: 2, ns: PairId(1) }));
    assert_eq!(SessionError::NoResultToGroup { board: 1, ns: PairId(2) }.law(), Law::duplicate(87, "B"));
    assert_eq!(s.form(1, PairId(1)), 0);
}
