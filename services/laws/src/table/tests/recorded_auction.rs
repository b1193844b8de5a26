//! Recorded tables during the auction: irregular calls as facts, the decisions they bring and
//! the official they summon (Laws 22, 27, 31, 36). Apart from the play's facts because they
//! drive the auction engine.

use super::*;

#[test]
fn law_27_an_insufficient_bid_at_a_club_table_summons_the_arbiter_and_lho_may_accept_it_by_calling() {
    let table = start(Code::Club, Mode::Recorded);
    let table = call(&table, Seat::North, "1S");
    let (table, events) =
        apply(&table, Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None });
    let record = &table.irregularities()[0];
    assert_eq!(record.fact.kind, FactKind::InsufficientBid);
    assert_eq!(record.law.number, 27);
    assert_eq!(record.decisions, vec![1]);
    assert!(events.contains(&Event::IrregularityRecorded { id: 1 }));
    assert!(events.contains(&Event::RectificationOffered { id: 1 }));
    assert!(events.contains(&Event::OfficialCalled { id: 1 }));
    // Club Law 13: the Arbiter is at the table; nobody calls until he has dealt with it.
    let err =
        table.apply(&Action::Call { seat: Seat::South, call: "Pass".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nobody calls or plays until the Arbiter has dealt with the table (Club Law 13 (Alternative Club Laws))"
    );
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call: 1, note: "options explained".into() });
    // Law 27A: South, the offender's left-hand opponent, accepts by calling.
    let decision = table.open_decision().unwrap();
    let accept = decision.options.iter().find(|o| o.name == "accept_by_calling").unwrap();
    assert_eq!(accept.chooser_seats, vec![Seat::South]);
    let (table, events) =
        apply(&table, Action::Call { seat: Seat::South, call: "2H".parse().unwrap(), relates_to: None });
    assert!(events.contains(&Event::RectificationChosen { id: 1 }));
    let settled = table.decisions()[0].settled.unwrap();
    assert_eq!(settled.by, Some(Actor::Seat(Seat::South)));
    assert_eq!(table.decisions()[0].options[settled.option.unwrap()].name, "accept_by_calling");
    assert_eq!(table.next_to_act(), Some(Seat::West));
}

#[test]
fn law_27b_a_rejected_insufficient_bid_is_replaced_under_the_same_irregularity() {
    let table = calls(start(Code::Rubber, Mode::Recorded), &[(Seat::North, "1S"), (Seat::East, "1H")]);
    // Not the offender's partner's choice: the Law gives it to South.
    let (decision, index) = option(&table, "reject_insufficient_bid");
    let err = table
        .apply(&Action::Choose { decision, option: index, call: None, by: Actor::Seat(Seat::West), relates_to: None })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotEntitled);
    assert!(err.to_string().starts_with("West may not choose \"reject_insufficient_bid\""), "{err}");
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    let replacement = table.open_decision().unwrap();
    assert_eq!(replacement.id, 2);
    assert_eq!(replacement.irregularity, Some(1), "the replacement belongs to the same insufficient bid");
    assert_eq!(table.irregularities()[0].decisions, vec![1, 2]);
    // Rubber Law 27A: the lowest sufficient bid in the same denomination, 2H; no further penalty.
    let (table, _) = choose(&table, "lowest_sufficient_bid", Some("2H"), Actor::Seat(Seat::East));
    assert!(table.open_decision().is_none());
    let standing: Vec<String> = table.auction().standing_calls().map(|(_, c)| c.to_string()).collect();
    assert_eq!(standing, ["1S", "2H"]);
}

#[test]
fn law_31_a_bid_out_of_rotation_is_recorded_and_rectified() {
    let table = start(Code::Duplicate, Mode::Recorded);
    // South bids 1H at North's turn (dealer North): at his partner's turn.
    let (table, _) = apply(
        &table,
        Action::Irregularity {
            fact: Fact {
                description: "South bid before his partner, the dealer".into(),
                ..call_fact(FactKind::CallOutOfRotation, Seat::South, "1H")
            },
            pointed_out_by: Some(Seat::West),
        },
    );
    let record = &table.irregularities()[0];
    assert_eq!(record.fact.kind, FactKind::CallOutOfRotation);
    assert_eq!(record.law.number, 29, "Law 29: procedure after a call out of rotation");
    assert_eq!(record.pointed_out_by, Some(Seat::West));
    assert_eq!(table.open_official_calls().count(), 1, "duplicate Law 9B1(a): the Director is summoned");
    let decision = table.open_decision().unwrap();
    assert!(decision.options.iter().any(|o| o.name == "accept_by_calling"), "Law 29A");
    assert!(decision.options.iter().any(|o| o.law.number == 31), "Law 31: a bid out of rotation");
    // A legal call in turn is not an irregularity.
    let fresh = start(Code::Duplicate, Mode::Recorded);
    let err = fresh
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::CallOutOfRotation, Seat::North, "1H"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(err.to_string().starts_with("North's 1H is not a call out of rotation"), "{err}");
}

#[test]
fn law_22_a_passed_out_deal_ends_with_no_contract() {
    use Seat::*;
    let table = calls(start(Code::Rubber, Mode::Digital), &[(North, "Pass"), (East, "Pass"), (South, "Pass")]);
    let (table, events) = apply(&table, Action::Call { seat: West, call: "Pass".parse().unwrap(), relates_to: None });
    assert_eq!(events, vec![Event::CallMade { index: 3 }, Event::AuctionClosed, Event::DealFinished]);
    assert_eq!(table.outcome().unwrap().result, Some(DealResult::PassedOut));
    let err = table.apply(&Action::Abandon { reason: "late".into() }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Precondition);
}

/// 1S by North, 2S by South, and North's double of his partner's bid (Law 19A1) nobody notices.
fn unnoticed_double(code: Code) -> DealInProgress {
    use Seat::*;
    let table = calls(start(code, Mode::Recorded), &[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass")]);
    let fact = call_fact(FactKind::UnnoticedInadmissibleCall, North, "X");
    apply(&table, Action::Irregularity { fact, pointed_out_by: None }).0
}

#[test]
fn duplicate_law_36c_an_inadmissible_double_found_after_the_opening_lead_is_scored_as_not_made() {
    // Law 36C: "When attention is drawn to an inadmissible double or redouble only after the
    // opening lead has been faced, the final contract is scored as if the inadmissible call
    // had not been made."
    use Seat::*;
    let table = calls(unnoticed_double(Code::Duplicate), &[(East, "Pass"), (South, "Pass"), (West, "Pass")]);
    assert_eq!(table.contract().unwrap().to_string(), "2SX by North", "played as bid");
    let (table, _) = card(&table, East, "CA");
    let fact = call_fact(FactKind::AttentionToUnnoticedCall, North, "X");
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(East) });
    assert_eq!(table.irregularities().last().unwrap().law, Law::duplicate(36, "C"));
    assert_eq!(table.contract().unwrap().to_string(), "2SX by North", "still played as bid");
    assert_eq!(table.contract_scored().unwrap().to_string(), "2S by North");
    let call = table.open_official_calls().next().map(|c| c.id);
    let table = match call {
        Some(call) => apply(&table, Action::ResolveOfficialCall { call, note: "Law 36C".into() }).0,
        None => table,
    };
    let table = play_out(table);
    let Some(DealResult::Played { contract, .. }) = table.outcome().and_then(|o| o.result) else {
        panic!("played out")
    };
    assert_eq!(contract.to_string(), "2S by North");
}

#[test]
fn duplicate_law_36a_attention_drawn_during_the_auction_cancels_the_double_and_every_later_call() {
    // Law 36A: "If offender's LHO calls before rectification of an inadmissible double or
    // redouble the inadmissible call and all subsequent calls are cancelled. The auction reverts
    // to the player whose turn it was to call and proceeds as though there had been no
    // irregularity."
    use Seat::*;
    let table = call(&unnoticed_double(Code::Duplicate), East, "Pass");
    let fact = call_fact(FactKind::AttentionToUnnoticedCall, North, "X");
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(South) });
    assert_eq!(table.irregularities().last().unwrap().law.number, 36);
    // The Director, summoned, applies it: the one option Law 36A leaves.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 36A".into() });
    let (table, _) = choose(&table, "enforce", None, Actor::Official);
    assert_eq!(table.next_to_act(), Some(North), "the auction reverts to North");
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1S", "Pass", "2S", "Pass"]);
}

#[test]
fn an_unnoticed_call_must_be_an_inadmissible_double_in_turn_and_only_at_a_recorded_table() {
    use Seat::*;
    let table = calls(start(Code::Duplicate, Mode::Recorded), &[(North, "1S"), (East, "Pass")]);
    // A legal double is no irregularity.
    let table = call(&table, South, "2S");
    let err = table
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::UnnoticedInadmissibleCall, West, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err:?}");
    // Attention to a call that was not recorded unnoticed.
    let err = table
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::AttentionToUnnoticedCall, North, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err:?}");
    let digital = start(Code::Duplicate, Mode::Digital);
    let err = digital
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::UnnoticedInadmissibleCall, North, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::UnnoticedInadmissibleCall });
}

#[test]
fn law_27a_an_artificial_insufficient_bid_at_the_table_has_no_same_denomination_correction() {
    // Rubber Law 27A: "the lowest sufficient bid in the same denomination, and if the
    // insufficient bid and sufficient bid are both not artificial, the auction proceeds as
    // though the irregularity had not occurred"; the table says what the call related to.
    let majors = SuitSet::of(&[Suit::Hearts, Suit::Spades]);
    let table = call(&start(Code::Rubber, Mode::Recorded), Seat::North, "1NT");
    let (table, _) =
        apply(&table, Action::Call { seat: Seat::East, call: "1C".parse().unwrap(), relates_to: Some(majors) });
    assert_eq!(table.auction().calls()[1].relates_to, Some(majors), "the entry keeps what the call showed");
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    let names: Vec<String> = table.open_decision().unwrap().options.iter().map(|o| o.name.to_string()).collect();
    assert!(!names.iter().any(|n| n == "lowest_sufficient_bid"), "{names:?}");
    // The same insufficient bid, natural, may be corrected so.
    let table = calls(start(Code::Rubber, Mode::Recorded), &[(Seat::North, "1NT"), (Seat::East, "1C")]);
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    assert!(table.open_decision().unwrap().options.iter().any(|o| o.name == "lowest_sufficient_bid"));
    // An artificial call at a digital table is kept too (an alert), though no irregularity can
    // arise there.
    let digital = call(&start(Code::Rubber, Mode::Digital), Seat::North, "1NT");
    let (digital, _) =
        apply(&digital, Action::Call { seat: Seat::East, call: "2C".parse().unwrap(), relates_to: Some(majors) });
    assert_eq!(digital.auction().calls()[1].relates_to, Some(majors));
}
