//! Recorded tables during the play: leads out of turn, exposed cards, revokes, designations and
//! retractions as facts, with the decisions they bring (Laws 45-64, 67). Apart from the
//! auction's facts because they drive the play engine.

use super::*;

#[test]
fn law_54_declarer_accepts_an_opening_lead_out_of_turn_by_becoming_dummy() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    // West leads out of turn: East was on lead.
    let (table, events) = card(&table, Seat::West, "HA");
    assert!(events.contains(&Event::IrregularityRecorded { id: 1 }));
    assert_eq!(table.irregularities()[0].fact.kind, FactKind::OpeningLeadOutOfTurn);
    assert!(!table.play().unwrap().dummy_visible());
    // The card led out of turn lies face up for everyone.
    assert!(table.visible_hands(Viewer::Spectator).contains(&(Seat::West, CardSet::EMPTY.with("HA".parse().unwrap()))));
    let (table, _) = choose(&table, "accept_lead_and_become_dummy", None, Actor::Seat(Seat::North));
    assert_eq!(table.contract().unwrap().declarer, Seat::South, "Law 54A: his partner becomes declarer");
    assert!(table.play().unwrap().dummy_visible());
    assert_eq!(table.next_to_act(), Some(Seat::North), "the new dummy's card is next");
}

/// Rubber Law 54B: "declarer must accept the irregular lead if he could have seen any of
/// dummy's cards ... He is deemed to have accepted the lead out of turn if he begins to spread his
/// hand as though he were dummy and in so doing exposes one or more cards; declarer must spread
/// his entire hand, and dummy becomes declarer." Each is recorded as a fact, and the decision
/// follows: narrowed to acceptance, or settled as the acceptance the Law deems made.
#[test]
fn law_54b_declarer_who_saw_dummy_must_accept_and_one_who_spreads_becomes_dummy() {
    let fact = |kind| Fact { card: None, ..play_fact(kind, Seat::North, "HA") };
    let led = card(&four_spades(start(Code::Rubber, Mode::Recorded)), Seat::West, "HA").0;

    let seen = apply(&led, Action::Irregularity { fact: fact(FactKind::DeclarerSawDummy), pointed_out_by: None }).0;
    assert_eq!(seen.irregularities().last().unwrap().law, Law::rubber(54, "B"));
    let decision = seen.open_decision().unwrap();
    assert_eq!(decision.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), vec!["accept_lead"]);
    assert_eq!(decision.law, Law::rubber(54, "B"));

    let spread =
        apply(&led, Action::Irregularity { fact: fact(FactKind::DeclarerBeganToSpread), pointed_out_by: None }).0;
    assert!(spread.open_decision().is_none());
    assert_eq!(spread.contract().unwrap().declarer, Seat::South, "dummy becomes declarer");
    let settled = spread.decisions().last().unwrap().settled.as_ref().unwrap();
    let option = settled.option.map(|i| spread.decisions().last().unwrap().options[i].name.clone());
    assert_eq!(option.as_deref(), Some("accept_lead_and_become_dummy"), "deemed accepted that way");

    // Someone other than declarer cannot be recorded as having done either.
    let west = Fact { card: None, ..play_fact(FactKind::DeclarerSawDummy, Seat::West, "HA") };
    let refused = led.apply(&Action::Irregularity { fact: west, pointed_out_by: None }).unwrap_err();
    assert_eq!(refused.law(), Some(Law::rubber(54, "B")));
}

/// Rubber Law 70A: if a defender's claim "pertains only to an uncompleted trick currently in
/// progress, play proceeds normally; cards exposed or otherwise revealed by the defender in making
/// his claim do not become penalty cards, but Law 16 (Unauthorized Information), may apply to a
/// claimer's partner." Duplicate Law 68 says the same ("play proceeds regularly").
#[test]
fn law_70a_a_defenders_claim_of_the_trick_in_progress_leaves_no_penalty_card() {
    for (code, law) in [(Code::Rubber, Law::rubber(70, "A")), (Code::Duplicate, Law::duplicate(68, ""))] {
        let table = four_spades(start(code, Mode::Recorded));
        let statement = |seat, card: &str| Action::Irregularity {
            fact: Fact {
                description: "this one is ours".into(),
                ..play_fact(FactKind::CurrentTrickStatement, seat, card)
            },
            pointed_out_by: None,
        };
        // No trick in progress yet: there is nothing for the statement to be about.
        assert!(table.apply(&statement(Seat::East, "CA")).is_err());
        let (table, _) = card(&table, Seat::East, "CA");
        let (table, _) = card(&table, Seat::South, "C8");
        // West shows his seven of clubs: "that trick is ours, partner".
        let (after, _) = apply(&table, statement(Seat::West, "C7"));
        assert_eq!(after.irregularities().last().unwrap().law, law, "{code:?}");
        assert!(after.penalty_cards().is_empty(), "{code:?}: the card shown is no penalty card");
        // "... but Law 16 ... may apply to a claimer's partner": reserved for redress.
        let reserved: Vec<_> = after.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
        assert_eq!(reserved, vec![(crate::seat::Side::EastWest, law)]);
        if code == Code::Rubber {
            assert_eq!(after.next_to_act(), Some(Seat::West), "play proceeds normally");
        } else {
            // Duplicate Law 9B1(a): the Director is summoned, and decides whether Law 16 or 57A
            // applies; the play itself is unchanged.
            assert!(after.open_official_calls().next().is_some());
            assert_eq!(after.play().unwrap().next_to_play(), Some(Seat::West));
        }
        // Declarer's statements need no record, and a card not in the defender's hand is refused.
        assert!(table.apply(&statement(Seat::North, "S2")).is_err());
        assert!(table.apply(&statement(Seat::West, "SA")).is_err());
    }
}

#[test]
fn law_50_a_defenders_exposed_honor_is_a_major_penalty_card_and_declarer_chooses_partners_lead() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    // West drops the HK: an honor, so a major penalty card whether or not deliberate (Law 50).
    let (table, events) = apply(
        &table,
        Action::Irregularity {
            fact: Fact { description: "dropped".into(), ..play_fact(FactKind::ExposedCard, Seat::West, "HK") },
            pointed_out_by: Some(Seat::North),
        },
    );
    assert!(events.contains(&Event::ObligationsChanged));
    let penalty = table.penalty_cards();
    assert_eq!(penalty.len(), 1);
    assert_eq!(penalty[0].kind, crate::penalty::PenaltyCardKind::Major);
    assert_eq!(table.irregularities()[0].law.number, 49);
    // Everyone sees the penalty card.
    assert!(
        table
            .visible_hands(Viewer::Player(Seat::East))
            .iter()
            .any(|(seat, cards)| *seat == Seat::West && cards.contains("HK".parse().unwrap()))
    );
    // West must play it at the first legal opportunity: he can follow to clubs, so he does.
    let (table, _) = card(&table, Seat::West, "C5");
    let (table, _) = card(&table, Seat::North, "C2");
    // East won with the ace and leads: his partner has a major penalty card (Law 50, Law 51),
    // so declarer chooses about East's lead.
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.law.number, 50);
    assert!(decision.options.iter().any(|o| o.name == "require_lead"));
    // East leads before declarer has chosen ("The defender may not lead until declarer has
    // indicated his choice"): the card is a penalty card of East's (Law 49), recorded as an
    // irregularity, and declarer's choice is still open.
    let (table, _) = card(&table, Seat::East, "CK");
    let premature = table.irregularities().last().unwrap();
    assert_eq!(
        (premature.fact.kind, premature.fact.offender, premature.law),
        (FactKind::PrematurePlay, Seat::East, Law::rubber(50, ""))
    );
    assert!(table.penalty_cards().iter().any(|pc| pc.owner == Seat::East && pc.card == "CK".parse().unwrap()));
    assert_eq!(table.open_decision().map(|d| d.id), Some(decision.id));
    let (table, _) = choose(&table, "require_lead", None, Actor::Seat(Seat::North));
    let obligations = table.obligations();
    assert!(obligations.iter().any(|o| o.kind == ObligationKind::LeadRequired && o.seat == Seat::East));
}

#[test]
fn law_64_an_established_revoke_transfers_a_trick_after_play() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    // West holds clubs and plays a heart: a revoke, a fact nobody has noticed yet.
    let (table, events) = card(&table, Seat::West, "HJ");
    assert!(!events.iter().any(|e| matches!(e, Event::IrregularityRecorded { .. })), "a revoke is hidden");
    let (table, _) = card(&table, Seat::North, "C2");
    // East (the offender's partner) leads to the next trick: the revoke is established (Law 63).
    let (table, _) = card(&table, Seat::East, "CK");
    let (table, _) = apply(
        &table,
        Action::Irregularity {
            fact: Fact {
                kind: FactKind::Revoke,
                offender: Seat::West,
                call: None,
                card: None,
                trick: Some(1),
                deliberate: false,
                designation: None,
                also_visible: Vec::new(),
                misinformed: None,
                relates_to: None,
                description: String::new(),
            },
            pointed_out_by: Some(Seat::North),
        },
    );
    assert_eq!(table.irregularities()[0].law, Law::rubber(64, ""));
    let table = play_out(table);
    // "the offending side should transfer additional tricks so as to restore equity": the deal
    // waits for East-West's word, which here is that the automatic transfer did.
    assert!(table.outcome().is_none(), "Law 64: equity first");
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.options[0].chooser_seats, vec![Seat::East, Seat::West]);
    assert!(decision.options.iter().all(|o| o.name == "restore_equity"));
    let (table, _) = choose(&table, "restore_equity", None, Actor::Seat(Seat::West));
    let outcome = table.outcome().unwrap();
    assert!(outcome.tricks_transferred >= 1, "Law 64: at least one trick transferred");
    let play = table.play().unwrap();
    let Some(DealResult::Played { tricks, .. }) = outcome.result else { panic!() };
    assert_eq!(tricks, play.tricks_won(Side::NorthSouth) + outcome.tricks_transferred);
}

#[test]
fn duplicate_law_45c4b_a_change_of_designation_is_a_fact_whose_decision_is_the_opponents() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "CT");
    let (table, _) = card(&table, Seat::West, "C5");
    // Declarer said "ten" meaning the nine, a slip of the tongue: the fact names the card
    // designated instead, and the hand is the card's holder (dummy).
    let fact = play_fact(FactKind::ChangeOfDesignation, Seat::North, "C9");
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::North) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::South, card: "CT".parse().unwrap() }));
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C9".parse().unwrap() }));
    assert_eq!(table.irregularities()[0].law, Law::duplicate(47, "C"));
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.irregularity, Some(1), "the decision is linked to the fact");
    assert_eq!(decision.law, Law::duplicate(45, "C4(b)"));
    assert!(decision.options.iter().all(|o| o.name == "withdraw_after_change" && o.chooser_seats == [Seat::West]));
    assert!(decision.options.iter().all(|o| o.official_cards.is_empty()), "every card named is on the table");
    // Declarer may not choose for West.
    let (id, index) = (decision.id, decision.options.len() - 1);
    let err = table.apply(&Action::Choose {
        decision: id,
        option: index,
        call: None,
        by: Actor::Seat(Seat::North),
        relates_to: None,
    });
    assert!(matches!(err, Err(TableError::NotEntitled { .. })), "{err:?}");
    // The Director is at the table (Law 9B2); once he has dealt with it West withdraws his five.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 45C4(b)".into() });
    let (table, events) = apply(
        &table,
        Action::Choose { decision: id, option: index, call: None, by: Actor::Seat(Seat::West), relates_to: None },
    );
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::West, card: "C5".parse().unwrap() }));
    assert_eq!(table.next_to_act(), Some(Seat::West));
    assert!(table.penalty_cards().is_empty());
}

#[test]
fn law_46_an_incomplete_designation_is_deemed_or_completed_by_the_player_the_law_names() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let designation =
        |d| Fact { designation: Some(d), card: None, ..play_fact(FactKind::IncompleteDesignation, Seat::North, "C2") };
    // "Low": dummy's lowest club is played (Law 46B1(c)).
    let (low, events) =
        apply(&table, Action::Irregularity { fact: designation(Designation::Low), pointed_out_by: None });
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C8".parse().unwrap() }));
    assert_eq!(low.irregularities()[0].law, Law::duplicate(46, "B1(c)"));
    // "Play anything": either defender designates dummy's card (Law 46B5).
    let (anything, _) =
        apply(&table, Action::Irregularity { fact: designation(Designation::Anything), pointed_out_by: None });
    let decision = anything.open_decision().unwrap();
    assert!(decision.options.iter().all(|o| o.name == "designate_from_dummy"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == [Seat::East, Seat::West]));
    // A complete designation of dummy's card is no irregularity.
    let err = table
        .apply(&Action::Irregularity {
            fact: designation(Designation::Card("C9".parse().unwrap())),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err}");
    let missing = table
        .apply(&Action::Irregularity {
            fact: Fact { designation: None, ..designation(Designation::Low) },
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(missing, TableError::MissingDetail { .. }), "{missing}");
}

#[test]
fn law_47e1_a_lead_out_of_turn_the_opponents_asked_for_is_retracted_and_its_decision_lapses() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "CT");
    let (table, _) = card(&table, Seat::West, "C5");
    let (table, _) = card(&table, Seat::North, "C2");
    // West leads at East's turn: declarer's decision (Law 56).
    let (table, _) = card(&table, Seat::West, "HA");
    let lead = table.open_decision().unwrap().id;
    // The fact names the card retracted: another of West's cards is not it.
    let wrong = play_fact(FactKind::MisinformedOfTurn, Seat::North, "HK");
    let err = table.apply(&Action::Irregularity { fact: wrong, pointed_out_by: None }).unwrap_err();
    assert!(matches!(err, TableError::Play(PlayError::RetractionRefused { .. })), "{err}");
    // North had told West it was his lead: the card is retracted without penalty (Law 47D).
    let fact = play_fact(FactKind::MisinformedOfTurn, Seat::North, "HA");
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::RectificationChosen { id: lead }), "the decision lapses");
    let lapsed = table.decisions().iter().find(|d| d.id == lead).unwrap();
    assert_eq!(lapsed.settled.unwrap().option, None);
    assert_eq!(table.irregularities().last().unwrap().law, Law::rubber(47, "D"));
    assert!(table.penalty_cards().is_empty());
    assert_eq!(table.next_to_act(), Some(Seat::East));
    // A digital table refuses the fact (the server says whose turn it is), but records a card
    // retracted after an opponent's mistaken explanation, a matter of judgement (Law 47D).
    let digital = start(Code::Rubber, Mode::Digital);
    let err = digital
        .apply(&Action::Irregularity {
            fact: play_fact(FactKind::MisinformedOfTurn, Seat::North, "HA"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::MisinformedOfTurn });
    let digital = four_spades(digital);
    let lead = digital.play().unwrap().legal_cards().iter().next().unwrap();
    let (digital, _) = apply(&digital, Action::Play { seat: Seat::East, card: lead });
    let fact = Fact { card: Some(lead), ..play_fact(FactKind::RetractionAfterMisexplanation, Seat::South, "HA") };
    let (digital, events) = apply(&digital, Action::Irregularity { fact, pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::East, card: lead }));
    assert_eq!(digital.irregularities()[0].law, Law::rubber(47, "D"));
    assert_eq!(digital.next_to_act(), Some(Seat::East));
}

#[test]
fn law_58b_cards_played_together_from_dummy_are_a_fact_and_the_defender_who_played_may_change() {
    // Duplicate Law 58B3: "After an offending player withdraws a visible card, an opponent who
    // subsequently played to that trick may withdraw his play and substitute another card".
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    let (table, _) = card(&table, Seat::West, "C5");
    // Dummy's eight and nine had come out together; declarer designates the nine.
    let fact =
        Fact { also_visible: vec!["C9".parse().unwrap()], ..play_fact(FactKind::SimultaneousCards, Seat::North, "C9") };
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::West) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::South, card: "C8".parse().unwrap() }));
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C9".parse().unwrap() }));
    assert_eq!(table.irregularities()[0].law, Law::duplicate(58, "B2"));
    assert!(table.penalty_cards().is_empty(), "dummy's cards are never penalty cards");
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.law, Law::duplicate(58, "B3"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == [Seat::West]));
    // Without the other visible cards the fact is incomplete.
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let fact = play_fact(FactKind::SimultaneousCards, Seat::East, "CA");
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None });
    assert!(matches!(err, Err(TableError::MissingDetail { .. })), "{err:?}");
}

#[test]
fn duplicate_law_47e2a_an_opening_lead_retracted_before_dummy_faced_hides_dummy_again() {
    // Law 47E2(a): "An opening lead may not be retracted after dummy has faced any card."
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (led, _) = card(&table, Seat::East, "CA");
    let sees_dummy =
        |t: &DealInProgress| t.visible_hands(Viewer::Player(Seat::West)).iter().any(|(seat, _)| *seat == Seat::South);
    assert!(sees_dummy(&led));
    // Declarer's explanation was mistaken; corrected before dummy spread his cards.
    let fact = play_fact(FactKind::OpeningLeadRetractedBeforeDummyFaced, Seat::North, "CA");
    let (back, events) = apply(&led, Action::Irregularity { fact: fact.clone(), pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::East, card: "CA".parse().unwrap() }));
    assert_eq!(back.irregularities()[0].law, Law::duplicate(47, "E2(a)"));
    assert!(!sees_dummy(&back), "dummy is face down again");
    // The Director, summoned (Law 9B1(a)), has dealt with it; East leads again.
    let call = back.open_official_calls().next().unwrap().id;
    let (back, _) = apply(&back, Action::ResolveOfficialCall { call, note: "Law 47E2(a)".into() });
    assert_eq!(back.next_to_act(), Some(Seat::East));
    assert!(back.penalty_cards().is_empty());
    // Once dummy has played, too late (the Director may adjust, Law 47E2(b)).
    let (played, _) = card(&led, Seat::South, "CT");
    let err = played.apply(&Action::Irregularity { fact: fact.clone(), pointed_out_by: None }).unwrap_err();
    assert!(err.to_string().contains("47E2(a)"), "{err}");
    // A digital table shows dummy with the lead: the fact is refused there.
    let digital = four_spades(start(Code::Duplicate, Mode::Digital));
    let lead = digital.play().unwrap().legal_cards().iter().next().unwrap();
    let (digital, _) = apply(&digital, Action::Play { seat: Seat::East, card: lead });
    let fact = Fact { card: Some(lead), ..fact };
    let err = digital.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::OpeningLeadRetractedBeforeDummyFaced });
}

#[test]
fn duplicate_law_45e_a_fifth_card_is_a_fact_naming_its_trick() {
    // Law 45E1: "A fifth card contributed to a trick by a defender becomes a penalty card".
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let table = [(Seat::East, "CA"), (Seat::South, "CT"), (Seat::West, "C5"), (Seat::North, "C2")]
        .iter()
        .fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let fact = Fact { trick: Some(1), ..play_fact(FactKind::ExtraCardToTrick, Seat::West, "C7") };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::North) });
    assert_eq!(table.irregularities()[0].law, Law::duplicate(45, "E1"));
    let penalty = table.penalty_cards();
    assert_eq!((penalty[0].card, penalty[0].owner), ("C7".parse().unwrap(), Seat::West));
    // The trick is needed.
    let err = table
        .apply(&Action::Irregularity {
            fact: play_fact(FactKind::ExtraCardToTrick, Seat::West, "C6"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::MissingDetail { .. }), "{err:?}");
}

/// Rubber Law 12B: "if the offender has picked up a surplus card ... such surplus card shall be
/// restored to its proper place, and 1. if the surplus card is in the offender's hand when it is
/// discovered, there is no penalty. 2. if the surplus card has been led or played ... the
/// offender must substitute for it a card from his hand that he can legally play to the trick".
/// Duplicate Law 13C: "Any surplus card not part of the deal is removed if found. The auction and
/// play continue without further rectification."
#[test]
fn law_12b_a_surplus_card_in_the_hand_costs_nothing_and_one_played_is_replaced() {
    for (code, in_hand, played) in [
        (Code::Rubber, Law::rubber(12, "B1"), Law::rubber(12, "B2")),
        (Code::Duplicate, Law::duplicate(13, "C"), Law::duplicate(13, "C")),
    ] {
        let surplus = |card: &str, trick| Action::Irregularity {
            fact: Fact { trick, ..play_fact(FactKind::SurplusCard, Seat::West, card) },
            pointed_out_by: None,
        };
        // Duplicate Law 9B1(a): the Director is summoned each time; he lets play go on.
        let settle = |table: DealInProgress| {
            let open = table.open_official_calls().next().map(|c| c.id);
            match open {
                Some(call) => apply(&table, Action::ResolveOfficialCall { call, note: "Law 13C".into() }).0,
                None => table,
            }
        };
        // Found in West's hand during the auction, and again during the play: recorded, and
        // nothing else happens.
        let (table, _) = apply(&start(code, Mode::Recorded), surplus("SK", None));
        assert_eq!(table.irregularities()[0].law, in_hand, "{code:?}");
        assert!(table.open_decision().is_none());
        let table = four_spades(settle(table));
        let (table, _) = card(&table, Seat::East, "CA");
        let before = table.play().cloned();
        let (table, _) = apply(&table, surplus("SK", None));
        assert_eq!(table.irregularities().last().unwrap().law, in_hand, "{code:?}");
        assert_eq!(table.play().cloned(), before, "{code:?}: no penalty, no change to the play");
        let table = settle(table);
        // South plays; West's seven of clubs was from the other deck (he holds this deal's too).
        let (table, _) = card(&table, Seat::South, "C8");
        let (table, _) = card(&table, Seat::West, "C7");
        let (table, _) = apply(&table, surplus("C7", Some(1)));
        assert_eq!(table.irregularities().last().unwrap().law, played, "{code:?}");
        let table = settle(table);
        assert_eq!(table.next_to_act(), Some(Seat::West), "{code:?}: West plays again");
        let (table, _) = card(&table, Seat::West, "C5");
        assert_eq!(table.play().unwrap().tricks()[0].card(Seat::West), "C5".parse().ok());
        assert_eq!(table.next_to_act(), Some(Seat::North));
    }
    // A digital table deals the cards itself: no surplus card can reach a hand.
    let digital = four_spades(start(Code::Rubber, Mode::Digital));
    let fact = Fact { trick: None, ..play_fact(FactKind::SurplusCard, Seat::West, "SK") };
    assert!(digital.apply(&Action::Irregularity { fact, pointed_out_by: None }).is_err());
}

/// Rubber Law 67B2: "if the offender has played more than one card to the defective trick, he
/// withdraws all but one card, leaving the highest card he could legally have played to that
/// trick. A withdrawn card may become a penalty card (Law 50)". West played the five and the
/// seven of clubs to the first trick and it was found after he played to the second: the seven
/// stays, the five goes back as a penalty card. A digital table records the fact as told.
#[test]
fn law_67b2_a_card_too_many_found_late_is_withdrawn_through_the_table() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let plays = [
        (Seat::East, "CA"),
        (Seat::South, "C8"),
        (Seat::West, "C5"),
        (Seat::North, "C2"),
        (Seat::East, "CK"),
        (Seat::South, "C9"),
        (Seat::West, "C6"),
    ];
    let table = plays.iter().fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let fact = Fact { trick: Some(1), ..play_fact(FactKind::DefectiveTrick, Seat::West, "C7") };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::North) });
    assert_eq!(table.irregularities()[0].law, Law::rubber(67, "B2"));
    let play = table.play().unwrap();
    assert_eq!(play.tricks()[0].card(Seat::West), "C7".parse().ok());
    assert_eq!(play.tricks()[0].winner(), Some(Seat::East));
    let penalty = table.penalty_cards();
    assert_eq!((penalty[0].card, penalty[0].owner), ("C5".parse().unwrap(), Seat::West));
    // The trick is needed.
    let fact = play_fact(FactKind::DefectiveTrick, Seat::West, "C7");
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert!(matches!(err, TableError::MissingDetail { .. }), "{err:?}");
    // A digital table has no defective trick to put right: the fact is recorded for the official.
    let digital = four_spades(start(Code::Rubber, Mode::Digital));
    let fact = Fact { trick: Some(1), card: None, ..play_fact(FactKind::DefectiveTrick, Seat::West, "C7") };
    let (digital, _) = apply(&digital, Action::Irregularity { fact, pointed_out_by: None });
    assert_eq!(digital.irregularities()[0].law, Law::rubber(67, ""));
}

/// Rubber Law 69 at a recording table: a claim made with its statement as data and disputed is
/// played on; declarer's card against it waits for the defenders, who "may accept the play or
/// ... require declarer to withdraw the card so played and substitute another that conforms to
/// his obligations", and the obligations are shown in force.
#[test]
fn law_69_a_card_against_a_disputed_claim_waits_for_the_defenders() {
    use crate::play::{StatedLine, TrumpIntent};
    use Seat::*;
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let table = [(East, "CA"), (South, "C8"), (West, "C5"), (North, "C2"), (East, "S8"), (South, "S5"), (West, "S2")]
        .iter()
        .fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let (table, _) = card(&table, North, "SA");
    let line = StatedLine { trumps: TrumpIntent::Draw, ..StatedLine::default() };
    let claim = Action::Claim { claimer: North, tricks: 11, statement: "drawing trumps".into(), line: Some(line) };
    let (table, _) = apply(&table, claim);
    let (table, _) = apply(&table, Action::RespondToClaim { claim: 1, seat: West, agree: false });
    let kinds: Vec<ObligationKind> = table.obligations().iter().map(|o| o.kind).collect();
    assert!(kinds.contains(&ObligationKind::ClaimLine) && kinds.contains(&ObligationKind::ClaimDrawTrumps));
    // North leads a heart instead of a trump: the card waits for the defenders.
    let (held, _) = card(&table, North, "H9");
    let (id, _) = option(&held, "withdraw_claim_play");
    let decision = held.decisions().iter().find(|d| d.id == id).unwrap();
    assert_eq!(decision.law, Law::rubber(69, ""));
    assert_eq!(decision.options[0].chooser_seats, vec![East, West]);
    assert_eq!(decision.irregularity, None, "it arises from the claim, not an earlier irregularity");
    let (withdrawn, _) = choose(&held, "withdraw_claim_play", None, Actor::Seat(East));
    assert!(withdrawn.play().unwrap().hand(North).contains("H9".parse().unwrap()));
    let (withdrawn, _) = card(&withdrawn, North, "SK");
    assert_eq!(withdrawn.play().unwrap().current_trick().and_then(|t| t.card(North)), Some("SK".parse().unwrap()));
    let (accepted, _) = choose(&held, "accept_claim_play", None, Actor::Seat(West));
    assert_eq!(accepted.play().unwrap().current_trick().and_then(|t| t.card(North)), Some("H9".parse().unwrap()));
}

/// Rubber Appendix 3: "If an opening lead is determined to be out of turn (before being faced),
/// the leader returns the card to his hand without penalty. ... Then, the lead is faced". Duplicate
/// Law 41A: the face-down lead "may be withdrawn only upon instruction of the Director after an
/// irregularity ...; the withdrawn card must be returned to the defender's hand." West leads face
/// down out of turn: recorded, back to his hand, nothing else. East's face-down lead lies hidden,
/// dummy waits, and East's card faces it.
#[test]
fn law_41a_a_face_down_lead_out_of_turn_goes_back_and_one_in_turn_is_faced() {
    for (code, law) in [(Code::Rubber, Law::rubber(41, " and Appendix 3")), (Code::Duplicate, Law::duplicate(41, "A"))]
    {
        let table = four_spades(start(code, Mode::Recorded));
        let face_down = |seat, card: &str| Action::FaceDownLead { seat, card: card.parse().unwrap() };
        let (table, events) = apply(&table, face_down(Seat::West, "HA"));
        let record = table.irregularities().last().unwrap();
        assert_eq!(
            (record.fact.kind, record.fact.offender, record.law),
            (FactKind::FaceDownLeadReturned, Seat::West, law)
        );
        assert!(events.iter().any(|e| matches!(e, Event::IrregularityRecorded { .. })), "{code:?}");
        assert!(table.open_decision().is_none() && table.penalty_cards().is_empty(), "{code:?}");
        let open = table.open_official_calls().next().map(|c| c.id);
        let table = match open {
            // Duplicate Law 41A: upon instruction of the Director.
            Some(call) => apply(&table, Action::ResolveOfficialCall { call, note: "Law 41A".into() }).0,
            None => table,
        };
        let (table, events) = apply(&table, face_down(Seat::East, "CA"));
        assert_eq!(events, vec![Event::FaceDownLead { seat: Seat::East }], "{code:?}");
        assert_eq!(table.face_down_lead(), Some(Seat::East));
        assert!(!table.play().unwrap().dummy_visible(), "dummy waits for the lead to be faced");
        let west = table.visible_hands(Viewer::Player(Seat::West));
        assert!(!west.iter().any(|(_, hand)| hand.contains("CA".parse().unwrap())), "{code:?}: East's card is hidden");
        let (table, events) = card(&table, Seat::East, "CA");
        assert!(events.contains(&Event::DummyFaced), "{code:?}");
        assert_eq!(table.face_down_lead(), None);
    }
}

/// Rubber Law 12B2: "if the surplus card ... had been played to a previous trick, the offender
/// must substitute for it a card from his hand that he can legally play to the trick". West's
/// five of clubs on the first trick, found after East led to the third, was a surplus card: the
/// table names the seven he puts in its place (`also_visible`), and the trick stays East's.
#[test]
fn law_12b2_a_surplus_card_on_an_older_trick_is_replaced_with_the_card_the_table_names() {
    use Seat::*;
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let plays = [(East, "CA"), (South, "C8"), (West, "C5"), (North, "C2"), (East, "CK"), (South, "C9"), (West, "C6")];
    let table = plays.iter().fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let (table, _) = card(&table, North, "C3");
    let (table, _) = card(&table, East, "CQ");
    let fact = Fact {
        trick: Some(1),
        also_visible: vec!["C7".parse().unwrap()],
        ..play_fact(FactKind::SurplusCard, West, "C5")
    };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(North) });
    assert_eq!(table.irregularities().last().unwrap().law, Law::rubber(12, "B2"));
    let play = table.play().unwrap();
    assert_eq!(play.tricks()[0].card(West), "C7".parse().ok());
    assert_eq!(play.tricks()[0].winner(), Some(East));
    assert!(play.hand(West).contains("C5".parse().unwrap()));
    // A substitute the Law does not allow (he must follow to clubs) is refused.
    let fact = Fact {
        trick: Some(1),
        also_visible: vec!["HA".parse().unwrap()],
        ..play_fact(FactKind::SurplusCard, West, "C5")
    };
    let before = four_spades(start(Code::Rubber, Mode::Recorded));
    let before = plays.iter().fold(before, |t, (seat, c)| card(&t, *seat, c).0);
    let (before, _) = card(&before, North, "C3");
    let (before, _) = card(&before, East, "CQ");
    assert!(before.apply(&Action::Irregularity { fact, pointed_out_by: None }).is_err());
}
