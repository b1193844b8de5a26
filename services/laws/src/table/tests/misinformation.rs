//! A call changed because of misinformation (duplicate Law 21B; rubber and Club Law 21), and
//! misinformation found too late to change it (Law 21B3). Apart because the change is allowed
//! at digital and recorded tables alike.

use super::*;

/// `misinformed` changes his last call to `new_call` because of misinformation from
/// `offender`.
fn misinformation(offender: Seat, misinformed: Seat, new_call: &str) -> Action {
    let fact = call_fact(FactKind::CallChangedAfterMisinformation, offender, new_call);
    Action::Irregularity { fact: Fact { misinformed: Some(misinformed), ..fact }, pointed_out_by: Some(misinformed) }
}

#[test]
fn duplicate_law_21b1a_a_pass_changed_in_the_clarification_period_reopens_the_auction() {
    // Law 21B1(a): "Until the end of the auction period (see Law 17D) and provided that his
    // partner has not subsequently called, a player may change a call ... when the Director
    // judges that the decision to make the call could well have been influenced by
    // misinformation given to the player by an opponent." Law 17D1: the auction period ends
    // when a defender faces the opening lead.
    use Seat::*;
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    assert!(table.play().is_some(), "the auction is over");
    // The misinformed player must be named: his last call is the one changed.
    let fact = call_fact(FactKind::CallChangedAfterMisinformation, South, "X");
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert!(matches!(err, TableError::MissingDetail { .. }), "{err}");
    // West, who passed last, was misinformed by South's explanation of 2S.
    let (table, _) = apply(&table, misinformation(South, West, "X"));
    let record = table.irregularities().last().unwrap();
    assert_eq!(record.fact.kind, FactKind::CallChangedAfterMisinformation);
    assert_eq!(record.law, Law::duplicate(21, "B1"));
    assert_eq!(table.phase(), Phase::Auction);
    assert!(table.play().is_none(), "the auction reopens");
    // The Director is summoned (Law 9B1(a)) and judges.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 21B1".into() });
    let (decision, option) = option(&table, "change_after_misinformation");
    let err = table
        .apply(&Action::Choose { decision, option, call: None, by: Actor::Seat(West), relates_to: None })
        .unwrap_err();
    assert!(matches!(err, TableError::NotEntitled { .. }), "the Director's judgement: {err}");
    let (table, _) = choose(&table, "change_after_misinformation", None, Actor::Official);
    assert_eq!(table.next_to_act(), Some(North));
    let table = calls(table, &[(North, "Pass"), (East, "Pass"), (South, "Pass")]);
    assert_eq!(table.contract().unwrap().to_string(), "4SX by North");
    // Once the opening lead is faced the auction period is over (Law 21B3: an adjusted score
    // instead).
    let (table, _) = card(&table, East, "CA");
    let err = table.apply(&misinformation(South, West, "XX")).unwrap_err();
    assert_eq!(err.law(), Some(Law::duplicate(21, "B3")), "{err}");
}

#[test]
fn rubber_law_21_a_digital_table_records_the_change_and_the_lho_may_change_his_call() {
    // Rubber Law 21: "Until the auction is closed, a player may, without penalty, change any
    // call he may have made as a result of misinformation given him by an opponent, provided
    // his partner has not subsequently called. If he elects to correct his call, his LHO may
    // then, in turn and without penalty, change any subsequent call he may have made."
    use Seat::*;
    let table = calls(start(Code::Rubber, Mode::Digital), &[(North, "1C"), (East, "Pass"), (South, "2H")]);
    // Explanations are human at a digital table too: East, misinformed by South's explanation
    // of 1C, changes his pass to 1S.
    let (table, _) = apply(&table, misinformation(South, East, "1S"));
    assert_eq!(table.irregularities().last().unwrap().law, Law::rubber(21, ""));
    // The players settle it: the side that gave the explanation agrees.
    let (decision, option) = option(&table, "change_after_misinformation");
    let err = table
        .apply(&Action::Choose { decision, option, call: None, by: Actor::Seat(East), relates_to: None })
        .unwrap_err();
    assert!(matches!(err, TableError::NotEntitled { .. }), "{err}");
    let (table, _) = choose(&table, "change_after_misinformation", None, Actor::Seat(North));
    // South may change his 2H, without penalty.
    let (table, _) = choose(&table, "withdraw_call", None, Actor::Seat(South));
    assert_eq!(table.next_to_act(), Some(South));
    let table = call(&table, South, "2S");
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1C", "1S", "2S"]);
    // His partner having called since, East may not change again (Law 21: too late).
    let table = call(&table, West, "Pass");
    let err = table.apply(&misinformation(South, East, "2NT")).unwrap_err();
    assert_eq!(err.law(), Some(Law::rubber(21, "")), "{err}");
}

#[test]
fn club_law_21_the_arbiter_is_called_and_the_misinformed_player_must_be_an_opponent() {
    // Club Law 21: "Regular Law 21 stands with the following addition: When it is determined
    // that misinformation has been given the Arbiter should be called."
    use Seat::*;
    let table = calls(start(Code::Club, Mode::Recorded), &[(North, "1C"), (East, "Pass")]);
    // North's partner cannot have misinformed North (Law 21A: his own side's misunderstanding).
    let err = table.apply(&misinformation(South, North, "1D")).unwrap_err();
    assert_eq!(err.law(), Some(Law::rubber(21, "")), "{err}");
    let (table, _) = apply(&table, misinformation(South, East, "1S"));
    assert_eq!(table.irregularities().last().unwrap().law, Law::club(21, ""));
    let call = table.open_official_calls().next().expect("the Arbiter is called").id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Club Law 21".into() });
    let (table, _) = choose(&table, "no_misinformation", None, Actor::Official);
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1C", "Pass"], "the pass stands");
    assert_eq!(table.next_to_act(), Some(South));
}

#[test]
fn law_21b3_misinformation_found_too_late_reserves_an_adjustment_against_the_side_that_gave_it() {
    // Duplicate Law 21B3: "When it is too late to change a call and the Director judges that
    // the offending side gained an advantage from the irregularity he awards an adjusted score."
    use Seat::*;
    let table = calls(start(Code::Duplicate, Mode::Recorded), &[(North, "1S"), (East, "Pass"), (South, "2C")]);
    let table = calls(table, &[(West, "Pass"), (North, "2S")]);
    // South's 2C was misexplained by North; East, misinformed, finds out after West has called.
    let fact = Fact { misinformed: Some(East), card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(East) });
    assert_eq!(table.irregularities()[0].law, Law::duplicate(21, "B3"));
    let reserved: Vec<_> = table.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
    assert_eq!(reserved, vec![(crate::seat::Side::NorthSouth, Law::duplicate(21, "B3"))]);
    // The misinformation must come from an opponent (Law 21A).
    let fact = Fact { misinformed: Some(South), card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert!(err.to_string().contains("21A"), "{err}");
    // Without a misinformed player named, it stays a matter of judgement with no reservation.
    let fact = Fact { card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let (plain, _) =
        apply(&start(Code::Duplicate, Mode::Recorded), Action::Irregularity { fact, pointed_out_by: None });
    assert!(plain.reserved_adjustments().is_empty());
}
