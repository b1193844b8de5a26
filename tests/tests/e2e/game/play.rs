//! Irregularities of the play rectified: a lead out of turn accepted (Law 54), a surplus card
//! played (Law 12B2, on the trick in progress or an older one), a card missing from a trick found
//! late (Law 67B1) or one too many (Law 67B2), an established revoke (Law 64), a major penalty card
//! (Law 50), a changed designation and dummy's card deemed played (Laws 45C4(b), 45D, 46), two
//! cards of dummy's at once (Law 58), and cards retracted (Law 47).

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::{GameClient, TestApp};
use laws::{Card, CardSet, Seat};
use platform::auth::Role;
use tonic::{Code, Status};

use super::{
    Table, bid_four_spades, fact, hand, key, outcome, pcard, played, recorded_board, rubber_four_spades, seat_of,
};

#[tokio::test]
async fn law_54_declarer_accepts_an_opening_lead_out_of_turn_and_the_deal_is_played_out() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    // West faces the HA; East was on lead.
    let view = table.play(West, "HA").await;
    let decision = view.pending_decisions.first().expect("Law 54 gives declarer options").clone();
    assert_eq!(
        decision.options.iter().find(|o| o.kind == "accept_lead").unwrap().chooser_seats,
        vec![North.to_proto()]
    );
    let record = table.deal_record(&view.deal_id).await;
    let irregularity = &record.irregularities[0];
    assert_eq!(irregularity.fact.as_ref().unwrap().kind, game::IrregularityKind::OpeningLeadOutOfTurn as i32);
    assert_eq!(irregularity.law.as_ref().unwrap().number, 54);
    // The card led lies face up for everyone; dummy is not spread before the lead is accepted.
    let kibitzer = table.view_as(&mut app.game("kibitzer", &[Role::Player])).await;
    assert_eq!(hand(&kibitzer, West), Some(CardSet::EMPTY.with("HA".parse().unwrap())));
    assert!(hand(&kibitzer, South).is_none());
    // Only declarer chooses (Law 54): East may not.
    let status = table.choose(&mut table.player(East), "accept_lead", None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let chosen = table.choose(&mut table.player(North), "accept_lead", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(view.tricks[0].leader, West.to_proto(), "Law 54B: the lead stands");
    assert!(hand(&view, South).is_some(), "dummy is spread once the lead is accepted");
    assert_eq!(seat_of(view.next_to_act), North);
    let view = table.play_out(false).await;
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    let (_, declarer, tricks) = played(&result);
    assert_eq!(declarer, North);
    assert_eq!(tricks, view.tricks_won.unwrap().north_south);
    // North held four trump honors (Law 81).
    assert_eq!(
        result.unwrap().honors,
        vec![pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 }]
    );
}

/// Rubber Law 54B: "declarer must accept the irregular lead if he could have seen any of
/// dummy's cards ... He is deemed to have accepted the lead out of turn if he begins to spread his
/// hand as though he were dummy and in so doing exposes one or more cards; declarer must spread
/// his entire hand, and dummy becomes declarer." The desk records either fact; the decision is
/// narrowed to acceptance, or settled as the acceptance the Law deems made.
#[tokio::test]
async fn law_54b_acceptance_is_forced_once_declarer_saw_dummy_or_began_to_spread() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let seen = rubber_four_spades(&app).await;
    seen.play(West, "HA").await;
    let recorded = seen.record(&mut seen.desk(), fact(game::IrregularityKind::DeclarerSawDummy, North), None).await;
    let law = recorded.unwrap().irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (54, "B"));
    let view = seen.view().await;
    let decision = view.pending_decisions.first().expect("declarer still accepts the lead");
    let kinds: Vec<&str> = decision.options.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(kinds, vec!["accept_lead"], "no refusal, no becoming dummy");
    let chosen = seen.choose(&mut seen.player(North), "accept_lead", None, None).await.unwrap();
    assert_eq!(seat_of(chosen.view.unwrap().next_to_act), North, "he stays declarer and plays second");
    // Only declarer can be recorded as having seen dummy's cards, and only while he decides.
    let status = seen.record(&mut seen.desk(), fact(game::IrregularityKind::DeclarerSawDummy, North), None).await;
    assert_eq!(status.unwrap_err().code(), Code::FailedPrecondition);

    let spread = rubber_four_spades(&app).await;
    spread.play(West, "HA").await;
    let recorded =
        spread.record(&mut spread.desk(), fact(game::IrregularityKind::DeclarerBeganToSpread, North), None).await;
    let view = recorded.unwrap().view.unwrap();
    assert!(view.pending_decisions.is_empty(), "the lead is deemed accepted");
    assert!(hand(&view, North).is_some(), "North spreads his whole hand as dummy");
    assert_eq!(seat_of(view.next_to_act), North, "the second card comes from North's hand, now dummy's");
    let contract = view.contract.unwrap();
    assert_eq!(seat_of(contract.declarer), South, "dummy became declarer");
}

/// Rubber Law 70A: if a defender's claim "pertains only to an uncompleted trick currently in
/// progress, play proceeds normally; cards exposed or otherwise revealed by the defender in making
/// his claim do not become penalty cards, but Law 16 (Unauthorized Information), may apply to a
/// claimer's partner."
#[tokio::test]
async fn law_70a_a_defender_claiming_the_trick_in_progress_keeps_the_card_he_showed() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    table.play(South, "C8").await;
    let west = table.view_as(&mut table.player(West)).await;
    let held = hand(&west, West).expect("West sees his own hand");
    let club = held.iter().find(|c| c.suit == laws::Suit::Clubs).expect("West holds a club").to_string();
    let recorded =
        table.record_card_fact(game::IrregularityKind::CurrentTrickStatement, West, &club, None).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (70, "A"));
    let view = recorded.view.unwrap();
    assert!(view.penalty_cards.is_empty(), "the card shown is no penalty card");
    assert_eq!(seat_of(view.next_to_act), West, "play proceeds normally");
    // "... but Law 16 ... may apply to a claimer's partner": the deal record reserves it.
    let request = game::GetDealRecordRequest { deal_id: view.deal_id.clone() };
    let record = table.arbiter().get_deal_record(request).await.unwrap().into_inner().record.unwrap();
    let reserved = record.reserved_adjustments.last().expect("an adjustment reserved for the defenders' side");
    assert_eq!(reserved.offending_side, pb::Side::EastWest as i32);
    assert_eq!(reserved.law.as_ref().map(|l| (l.number, l.section.as_str())), Some((70, "A")));
    // A card that is not the defender's (East's ace, played) cannot have been shown by him.
    let status =
        table.record_card_fact(game::IrregularityKind::CurrentTrickStatement, West, "CA", None).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains("70A"), "{}", status.message());
}

/// Rubber Law 12B2: "if the surplus card has been led or played ... the offender must substitute
/// for it a card from his hand that he can legally play to the trick, and, if possible, a card of
/// the same suit as the surplus card. ... When attention is drawn to the offence before the lead to
/// the next trick, both members of the non-offending side may, without penalty, withdraw a play
/// made subsequent to the offence and substitute any legal play." West's seven of clubs came from
/// the other deck; the desk records it, West plays one of his own clubs in its place, and declarer
/// takes back his card played after it.
#[tokio::test]
async fn law_12b2_a_surplus_card_played_is_replaced_and_declarer_may_change_his_card() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    for (seat, card) in [(East, "CA"), (South, "C8"), (West, "C7"), (North, "C2")] {
        table.play(seat, card).await;
    }
    let surplus = game::IrregularityFact {
        card: Some(pcard("C7")),
        trick_number: 1,
        ..fact(game::IrregularityKind::SurplusCard, West)
    };
    let recorded = table.record(&mut table.desk(), surplus, Some(North)).await.unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.fact.unwrap().kind, game::IrregularityKind::SurplusCard as i32);
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (12, "B2"));
    let view = recorded.view.unwrap();
    assert_eq!(seat_of(view.next_to_act), West, "West puts a card of his own in its place");
    assert!(view.tricks[0].cards.iter().all(|p| p.seat != West.to_proto()), "the surplus card is out");
    let west = table.view_as(&mut table.player(West)).await;
    assert!(hand(&west, West).unwrap().contains("C7".parse().unwrap()), "he still holds this deal's seven");
    let view = table.play(West, "C5").await;
    let decision = view.pending_decisions.first().expect("the non-offending side may withdraw");
    assert!(decision.options.iter().all(|o| o.kind == "withdraw_after_change"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![North.to_proto()]));
    let status = choose_described(&table, &mut table.player(West), "North withdraw", None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "the offending side has no say");
    let chosen = choose_described(&table, &mut table.player(North), "North withdraw", None).await.unwrap();
    assert_eq!(seat_of(chosen.view.unwrap().next_to_act), North);
    let view = table.play(North, "C3").await;
    let trick: Vec<(i32, Card)> =
        view.tricks[0].cards.iter().map(|p| (p.seat, Card::try_from(p.card.unwrap()).unwrap())).collect();
    assert_eq!(
        trick,
        vec![
            (East.to_proto(), "CA".parse().unwrap()),
            (South.to_proto(), "C8".parse().unwrap()),
            (West.to_proto(), "C5".parse().unwrap()),
            (North.to_proto(), "C3".parse().unwrap())
        ],
        "the corrected trick, each card in its place"
    );
    assert_eq!(view.tricks[0].winner, East.to_proto());
    assert_eq!(seat_of(view.next_to_act), East);
    assert!(view.pending_decisions.is_empty());
}

#[tokio::test]
async fn duplicate_law_67b1_a_card_missing_from_a_trick_found_late_is_added_and_costs_a_trick() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    // East leads the club ace, dummy and West follow; declarer plays no card and the trick is
    // gathered with three. The table finds it after both sides played to the next trick.
    for (seat, card) in [(East, "CA"), (South, "C8"), (West, "C5")] {
        table.play(seat, card).await;
    }
    let defective = game::IrregularityFact { trick_number: 1, ..fact(game::IrregularityKind::DefectiveTrick, North) };
    let recorded = table.record(&mut table.desk(), defective, Some(East)).await.unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.fact.unwrap().kind, game::IrregularityKind::DefectiveTrick as i32);
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (67, "B1"));
    assert!(recorded.arbiter_call.is_some(), "duplicate Law 9B1(a): the Director is summoned");
    table.resolve_calls().await;
    let view = table.view().await;
    assert_eq!(seat_of(view.next_to_act), North, "declarer adds a card to the trick");
    // "he must choose such a card": a card of the suit led, so a heart is refused.
    let status = table.play_as(&mut table.desk(), North, "HT").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    let view = table.play(North, "C4").await;
    assert_eq!(view.tricks[0].cards.len(), 4);
    assert_eq!(view.tricks[0].winner, East.to_proto(), "his card does not affect ownership of the trick");
    assert_eq!(seat_of(view.next_to_act), East);
    // "He is deemed to have revoked on the defective trick and is subject to the loss of one
    // trick transferred in accordance with Law 64A2."
    table.play_out(false).await;
    // Law 64C1: the Director says whether the transfer restores equity; here it does.
    let chosen = table.choose(&mut table.arbiter(), "restore_equity", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    let outcome = view.outcome.clone().unwrap();
    assert_eq!(outcome.tricks_transferred, 1, "Law 64A2: one trick to East-West");
    assert_eq!(outcome.equity_tricks, 0);
    let (_, _, tricks) = played(&outcome.result);
    assert_eq!(tricks + 1, view.tricks_won.unwrap().north_south);
}

/// Rubber Law 12B2: a surplus card "led or played to a previous trick" is replaced, though play
/// has gone on: West's five of clubs on the first trick came from the other deck, and the table
/// finds it during the third. The table names the club he puts in its place; the trick keeps its
/// owner, and West keeps this deal's five.
#[tokio::test]
async fn rubber_law_12b2_a_surplus_card_on_an_older_trick_is_replaced_with_the_card_the_table_names() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    let plays = [(East, "CA"), (South, "C8"), (West, "C5"), (North, "C2"), (East, "CK"), (South, "C9"), (West, "C6")];
    for (seat, card) in plays.into_iter().chain([(North, "C3"), (East, "CQ")]) {
        table.play(seat, card).await;
    }
    let surplus = game::IrregularityFact {
        card: Some(pcard("C5")),
        trick_number: 1,
        also_visible: vec![pcard("C7")],
        ..fact(game::IrregularityKind::SurplusCard, West)
    };
    let recorded = table.record(&mut table.desk(), surplus, Some(North)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (12, "B2"));
    let view = recorded.view.unwrap();
    let west_card = view.tricks[0].cards.iter().find(|p| p.seat == West.to_proto()).unwrap();
    assert_eq!(Card::try_from(west_card.card.unwrap()).unwrap(), "C7".parse().unwrap(), "the card put in its place");
    assert_eq!(view.tricks[0].winner, East.to_proto(), "the trick keeps its owner");
    let west = table.view_as(&mut table.player(West)).await;
    assert!(hand(&west, West).unwrap().contains("C5".parse().unwrap()), "he still holds this deal's five");
    assert!(!hand(&west, West).unwrap().contains("C7".parse().unwrap()));
}

/// Rubber Law 67B2: "When the offender has played more than one card to the trick, ... the
/// offender withdraws all but the highest-ranking legal card ... The withdrawn card becomes a
/// penalty card if the offender is a defender." West put the seven of clubs on the first trick
/// besides his five; the table finds it once he has played to the second trick (rubber 67A
/// allows the mend "until the responsible player has played to a subsequent trick").
#[tokio::test]
async fn rubber_law_67b2_a_card_too_many_found_late_is_withdrawn_and_becomes_a_penalty_card() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    let plays = [(East, "CA"), (South, "C8"), (West, "C5"), (North, "C2"), (East, "CK"), (South, "C9"), (West, "C6")];
    for (seat, card) in plays {
        table.play(seat, card).await;
    }
    let too_many = game::IrregularityFact {
        card: Some(pcard("C7")),
        trick_number: 1,
        ..fact(game::IrregularityKind::DefectiveTrick, West)
    };
    let recorded = table.record(&mut table.desk(), too_many, Some(North)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (67, "B2"));
    let view = recorded.view.unwrap();
    let west_card = view.tricks[0].cards.iter().find(|p| p.seat == West.to_proto()).unwrap();
    assert_eq!(Card::try_from(west_card.card.unwrap()).unwrap(), "C7".parse().unwrap(), "the higher card stays");
    assert_eq!(view.tricks[0].winner, East.to_proto(), "the trick keeps its owner");
    let penalty =
        view.penalty_cards.iter().map(|p| (p.owner, Card::try_from(p.card.unwrap()).unwrap())).collect::<Vec<_>>();
    assert_eq!(penalty, vec![(West.to_proto(), "C5".parse().unwrap())], "the withdrawn card, a defender's");
    assert_eq!(seat_of(view.next_to_act), North, "play goes on where it stood");
    // The penalty card lies face up: declarer sees it in West's hand (Law 50A).
    let north = table.view_as(&mut table.player(North)).await;
    assert!(hand(&north, West).unwrap().contains("C5".parse().unwrap()));
}

#[tokio::test]
async fn law_64_an_established_revoke_transfers_a_trick_when_play_ends() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    table.play(South, "C8").await;
    // West holds clubs and plays a heart: a revoke, accepted as a fact and not yet noticed.
    let view = table.play(West, "HJ").await;
    assert!(view.auction.iter().all(|e| e.irregularity_id.is_empty()));
    table.play(North, "C2").await;
    // East, the offender's partner, leads to the next trick: the revoke is established (Law 63).
    table.play(East, "CK").await;
    let recorded = table
        .record(
            &mut table.player(North),
            game::IrregularityFact { trick_number: 1, ..fact(game::IrregularityKind::Revoke, West) },
            Some(North),
        )
        .await
        .unwrap();
    assert_eq!(recorded.irregularity.unwrap().law.unwrap().number, 64);
    let view = table.play_out(false).await;
    // "the offending side should transfer additional tricks so as to restore equity": the deal
    // waits for East-West's word; North may not give it, West transfers one more trick.
    assert!(view.outcome.is_none(), "Law 64: equity first");
    let decision = view.pending_decisions.first().expect("the decision on equity").clone();
    let one_more =
        decision.options.iter().find(|o| o.kind == "restore_equity" && o.description.contains(" 1 more")).unwrap();
    assert_eq!(one_more.chooser_seats, vec![East.to_proto(), West.to_proto()]);
    let choose = |seat: Seat| game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: one_more.option_id.clone(),
        chooser_seat: seat.to_proto(),
        call: None,
        artificial: None,
    };
    let status = table.player(North).choose_rectification(choose(North)).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    let chosen = table.player(West).choose_rectification(choose(West)).await.unwrap().into_inner();
    let view = chosen.view.unwrap();
    let outcome = view.outcome.clone().unwrap();
    assert_eq!(
        outcome.tricks_transferred, 2,
        "Law 64B: the revoke trick, won by the offending side, and one for equity"
    );
    assert_eq!((outcome.equity_tricks, outcome.equity_to), (1, pb::Side::NorthSouth as i32));
    let (_, _, tricks) = played(&outcome.result);
    assert_eq!(tricks, view.tricks_won.unwrap().north_south + 2);
}

#[tokio::test]
async fn law_50_an_exposed_honor_is_a_major_penalty_card_and_declarer_names_the_partners_lead() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    table.play(South, "C8").await;
    // West drops the HK on the table.
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                card: Some(pcard("HK")),
                description: "dropped".into(),
                ..fact(game::IrregularityKind::ExposedCard, West)
            },
            Some(North),
        )
        .await
        .unwrap();
    let view = recorded.view.unwrap();
    assert_eq!(view.penalty_cards.len(), 1);
    let penalty = &view.penalty_cards[0];
    assert_eq!(penalty.kind, game::PenaltyCardKind::Major as i32, "Law 50: an honor is a major penalty card");
    assert_eq!(penalty.owner, West.to_proto());
    // Everyone sees it: it lies face up (Law 50A).
    let east = table.view_as(&mut table.player(East)).await;
    assert_eq!(hand(&east, West), Some(CardSet::EMPTY.with("HK".parse().unwrap())));
    table.play(West, "C5").await;
    let view = table.play(North, "C2").await;
    // East won the trick and has the lead while his partner has a major penalty card: declarer
    // chooses (Law 50D2).
    let decision = view.pending_decisions.first().unwrap();
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![North.to_proto()]));
    // East leads the club king before declarer has chosen: "The defender may not lead until
    // declarer has indicated his choice", so the king is a penalty card of East's (Law 49)
    // and the choice is still declarer's.
    let view = table.play(East, "CK").await;
    let record = table.deal_record(&view.deal_id).await;
    let premature = record.irregularities.last().unwrap().clone();
    assert_eq!(premature.fact.unwrap().kind, game::IrregularityKind::PrematurePlay as i32);
    assert_eq!(premature.law.unwrap().number, 50);
    assert_eq!(view.pending_decisions.first().map(|d| &d.decision_id), Some(&decision.decision_id));
    assert!(view.penalty_cards.iter().any(|p| p.owner == East.to_proto() && p.card == Some(pcard("CK"))));
    let chosen = table.choose(&mut table.player(North), "require_lead", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    let required = view.restrictions.iter().find(|r| r.kind == game::RestrictionKind::LeadRequired as i32).unwrap();
    assert_eq!(required.seat, East.to_proto());
    assert_eq!(required.suits, vec![pb::Suit::Hearts as i32]);
    let penalty: Vec<_> = view.penalty_cards.iter().map(|p| (p.owner, p.card)).collect();
    assert_eq!(penalty, vec![(East.to_proto(), Some(pcard("CK")))], "Law 50D2(a): West's card is picked up");
    table.play(East, "H7").await;
    table.play(South, "H2").await;
    table.play(West, "HJ").await;
    let view = table.play(North, "H8").await;
    assert!(
        view.restrictions.iter().all(|r| r.kind != game::RestrictionKind::LeadRequired as i32),
        "the requirement is spent once East has led"
    );
    // West won and leads while East's king lies on the table: declarer's choice again; he
    // leaves West free, and East plays the king at his first legal opportunity (Law 50).
    table.choose(&mut table.player(North), "no_lead_restriction", None, None).await.unwrap();
    table.play(West, "C6").await;
    table.play(North, "C3").await;
    let view = table.play(East, "CK").await;
    assert!(view.penalty_cards.is_empty());
    table.play(South, "C9").await;
    let view = table.play_out(false).await;
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
}

/// The open decision's option whose description starts with `prefix`, chosen by `client`.
async fn choose_described(
    table: &Table<'_>,
    client: &mut GameClient,
    prefix: &str,
    chooser: Option<Seat>,
) -> Result<game::ChooseRectificationResponse, Status> {
    let view = table.view().await;
    let decision = view.pending_decisions.first().unwrap_or_else(|| panic!("no decision open for {prefix}"));
    let option = decision.options.iter().find(|o| o.description.starts_with(prefix)).unwrap_or_else(|| {
        panic!("{prefix} not offered: {:?}", decision.options.iter().map(|o| &o.description).collect::<Vec<_>>())
    });
    let request = game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: chooser.map_or(0, Seat::to_proto),
        call: None,
        artificial: None,
    };
    Ok(client.choose_rectification(request).await?.into_inner())
}

#[tokio::test]
async fn duplicate_law_45c4b_a_changed_designation_lets_the_opponent_withdraw_and_law_46_deems_dummys_card() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    table.play(East, "CA").await;
    table.play(South, "CT").await;
    table.play(West, "C5").await;
    // Declarer said "ten" meaning the nine, a slip of the tongue (Law 45C4(b)): the tablet
    // records the card designated instead.
    let recorded = table
        .record(
            &mut table.player(North),
            game::IrregularityFact {
                card: Some(pcard("C9")),
                ..fact(game::IrregularityKind::ChangeOfDesignation, North)
            },
            Some(North),
        )
        .await
        .unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.fact.unwrap().kind, game::IrregularityKind::ChangeOfDesignation as i32);
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "C"));
    assert!(recorded.arbiter_call.is_some(), "duplicate Law 9B1(a): the Director is summoned");
    let decision = recorded.decision.expect("West may withdraw his card (Law 45C4(b), 47D)");
    assert!(decision.options.iter().all(|o| o.kind == "withdraw_after_change"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    let view = recorded.view.unwrap();
    let trick: Vec<(i32, Card)> =
        view.tricks[0].cards.iter().map(|p| (p.seat, Card::try_from(p.card.unwrap()).unwrap())).collect();
    assert_eq!(
        trick,
        vec![
            (East.to_proto(), "CA".parse().unwrap()),
            (South.to_proto(), "C9".parse().unwrap()),
            (West.to_proto(), "C5".parse().unwrap())
        ]
    );
    table.resolve_calls().await;
    // Declarer may not choose for West; West withdraws his five.
    let status = choose_described(&table, &mut table.player(North), "West withdraw", None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let chosen = choose_described(&table, &mut table.player(West), "West withdraw", None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(seat_of(view.next_to_act), West);
    assert!(view.penalty_cards.is_empty(), "Law 47D: without further rectification");
    assert!(hand(&view, West).unwrap().contains("C5".parse().unwrap()));
    table.play(West, "C6").await;
    table.play(North, "C2").await;
    // East leads a diamond; declarer calls "low" (Law 46B1(c)): dummy's lowest diamond is played.
    table.play(East, "D2").await;
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                designation: Some(game::CardDesignation {
                    kind: game::DesignationKind::Low as i32,
                    ..Default::default()
                }),
                ..fact(game::IrregularityKind::IncompleteDesignation, North)
            },
            None,
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (46, "B1(c)"));
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[1].cards[1].card, Some(pcard("DJ")));
    table.resolve_calls().await;
    // West follows; then dummy's card turns out not to be the one declarer named (Law 45D1).
    table.play(West, "D8").await;
    let recorded =
        table.record_card_fact(game::IrregularityKind::UndesignatedDummyCard, South, "DQ", Some(West)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (45, "D1"));
    assert!(recorded.decision.unwrap().options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    // Rebuilt from the journal, the table is the same: the new facts replay exactly.
    let before = table.view().await;
    app.flush_redis().await;
    assert_eq!(table.view().await, before);
}

#[tokio::test]
async fn rubber_law_58_declarer_designates_one_of_dummys_two_cards_and_the_defender_changes_his() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    table.play(East, "CA").await;
    // Dummy's ten and nine come out together; the tablet took the ten; West plays to it.
    table.play(South, "CT").await;
    table.play(West, "C5").await;
    // "If declarer withdraws a visible card and a defender has already played to that card,
    // such defender may, without penalty, withdraw his card and substitute another."
    let recorded = table
        .record(
            &mut table.desk(),
            game::IrregularityFact {
                card: Some(pcard("C9")),
                also_visible: vec![pcard("C9")],
                ..fact(game::IrregularityKind::SimultaneousCards, North)
            },
            Some(West),
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (58, ""));
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[0].cards[1].card, Some(pcard("C9")));
    assert!(hand(&view, South).unwrap().contains("CT".parse().unwrap()), "restored to dummy");
    assert!(view.penalty_cards.is_empty(), "declarer's cards are never penalty cards");
    let decision = recorded.decision.expect("West may change his card");
    assert!(decision.options.iter().all(|o| o.chooser_seats == vec![West.to_proto()]));
    let chosen = choose_described(&table, &mut table.player(West), "West withdraw", None).await.unwrap();
    let view = chosen.view.unwrap();
    assert!(hand(&view, West).unwrap().contains("C5".parse().unwrap()));
    table.play(West, "C6").await;
    let view = table.play(North, "C2").await;
    assert_eq!(view.tricks[0].cards.len(), 4);
    // West then adds his seven to the finished trick: "he withdraws all but one card", and the
    // card withdrawn is a penalty card, minor as exposed inadvertently (rubber Laws 67A, 50).
    let extra = game::IrregularityFact {
        card: Some(pcard("C7")),
        trick_number: 1,
        ..fact(game::IrregularityKind::ExtraCardToTrick, West)
    };
    let recorded = table.record(&mut table.desk(), extra, Some(North)).await.unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (67, "A2"));
    let view = recorded.view.unwrap();
    assert_eq!(view.penalty_cards.len(), 1);
    assert_eq!(view.penalty_cards[0].kind, game::PenaltyCardKind::Minor as i32);
    // A request naming no other visible card is refused, naming what is missing.
    let status =
        table.record(&mut table.desk(), fact(game::IrregularityKind::SimultaneousCards, East), None).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
}

#[tokio::test]
async fn duplicate_law_47e2a_the_opening_lead_is_retracted_before_dummy_is_faced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    let view = table.play(East, "CA").await;
    assert!(hand(&view, South).is_some(), "dummy is shown with the opening lead");
    // North's explanation of the auction was mistaken; corrected before dummy spread his hand,
    // East takes his lead back ("An opening lead may not be retracted after dummy has faced any
    // card").
    let recorded = table
        .record_card_fact(game::IrregularityKind::OpeningLeadRetractedBeforeDummyFaced, North, "CA", Some(East))
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "E2(a)"));
    let west = table.view_as(&mut table.player(West)).await;
    assert!(hand(&west, South).is_none(), "dummy is face down again");
    assert!(west.tricks.iter().all(|t| t.cards.is_empty()));
    table.resolve_calls().await;
    let view = table.play(East, "H7").await;
    assert_eq!(view.tricks[0].cards[0].card, Some(pcard("H7")));
    // Once dummy has played a card it is too late, and the refusal names the Law.
    table.play(South, "H2").await;
    let status = table
        .record_card_fact(game::IrregularityKind::OpeningLeadRetractedBeforeDummyFaced, North, "H7", None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains("47E2(a)"), "{}", status.message());
}

#[tokio::test]
async fn rubber_law_47d_a_lead_made_because_an_opponent_said_it_was_his_turn_and_a_play_after_misexplanation() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    for (seat, card) in [(East, "CA"), (South, "CT"), (West, "C5"), (North, "C2")] {
        table.play(seat, card).await;
    }
    // West leads at East's turn (Law 56: declarer's decision)...
    let view = table.play(West, "HA").await;
    assert_eq!(view.pending_decisions.len(), 1);
    // ... because North told him it was his lead: retracted without penalty (Law 47D).
    let recorded = table
        .record(
            &mut table.player(East),
            game::IrregularityFact {
                card: Some(pcard("HA")),
                ..fact(game::IrregularityKind::MisinformedOfTurn, North)
            },
            Some(East),
        )
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (47, "D"));
    let view = recorded.view.unwrap();
    assert!(view.pending_decisions.is_empty(), "the lead may not be accepted");
    assert!(view.penalty_cards.is_empty());
    assert_eq!(seat_of(view.next_to_act), East);
    // East leads; dummy plays the ace after West's mistaken explanation and takes it back.
    table.play(East, "D2").await;
    table.play(South, "DA").await;
    let recorded = table
        .record_card_fact(game::IrregularityKind::RetractionAfterMisexplanation, West, "DA", Some(North))
        .await
        .unwrap();
    let view = recorded.view.unwrap();
    assert_eq!(view.tricks[1].cards.len(), 1);
    assert_eq!(seat_of(view.next_to_act), South);
    // The misinformation must be an opponent's: North is dummy's partner.
    table.play(South, "DJ").await;
    let status = table
        .record_card_fact(game::IrregularityKind::RetractionAfterMisexplanation, North, "DJ", None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 47D"), "{}", status.message());
}
