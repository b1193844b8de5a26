//! Leads and plays out of turn (Laws 53-60) in both codes.

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{Effect, LeadChoice, PlayOption, PlayRequirement, Seats, Situation, Suits};
use laws::penalty::PenaltyCardKind;
use laws::play::{Play, PlayError, PlayEvent};
use laws::{CitesLaw, Code, Law, Seat, Suit};
use play_common::{DEAL, Refused, card, cards, record, recorded, start};

/// 4S by North: East should lead; West leads the heart ace instead.
fn opening_lead_out_of_turn(code: Code) -> Play {
    let play = start(DEAL, "4S", Seat::North, code);
    let after = recorded(&play, Seat::West, "HA");
    assert!(after.events.iter().any(|e| matches!(e, PlayEvent::DecisionRequired { .. })));
    after.play
}

fn options(play: &Play) -> Vec<PlayOption> {
    play.decision().map(|d| d.offers.iter().map(|o| o.option).collect()).unwrap_or_default()
}

#[test]
fn law_54_duplicate_declarer_has_five_options_after_an_opening_lead_out_of_turn() {
    let play = opening_lead_out_of_turn(Code::Duplicate);
    assert!(!play.dummy_visible(), "dummy is not spread while declarer decides");
    assert!(play.face_up_cards().contains(card("HA")));
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(decision.situation, Situation::OpeningLeadOutOfTurn { offender: Seat::West, card: card("HA") });
    assert_eq!(decision.chooser, Chooser::Declarer);
    assert_eq!(decision.seats, Seats::single(Seat::North));
    assert_eq!(decision.law, Law::duplicate(54, ""));
    let offered: Vec<(PlayOption, Law)> = decision.offers.iter().map(|o| (o.option, o.law)).collect();
    let hearts = Suits::single(Suit::Hearts);
    assert_eq!(
        offered,
        vec![
            (PlayOption::AcceptLead, Law::duplicate(54, "B")),
            (PlayOption::AcceptLeadAndBecomeDummy, Law::duplicate(54, "A")),
            (PlayOption::RejectLead { lead: Some(LeadChoice::Require(Suit::Hearts)) }, Law::duplicate(54, "D")),
            (PlayOption::RejectLead { lead: Some(LeadChoice::Forbid(hearts)) }, Law::duplicate(54, "D")),
            (PlayOption::RejectLead { lead: Some(LeadChoice::NoRestriction) }, Law::duplicate(54, "D")),
        ]
    );
    assert_eq!(
        decision.offers[1].to_string(),
        "accept the lead out of turn by spreading declarer's hand as dummy (Law 54A of the Laws of Duplicate Bridge)"
    );
    // Nobody plays until declarer has chosen (Law 9B2).
    let err = play.card(card("CA")).refused();
    assert_eq!(err.law(), Law::duplicate(9, "B2"));
}

#[test]
fn law_54b_accepted_opening_lead_out_of_turn_declarer_plays_second_from_his_own_hand() {
    let play =
        opening_lead_out_of_turn(Code::Duplicate).rectify(PlayOption::AcceptLead).unwrap_or_else(|e| panic!("{e}"));
    assert!(play.dummy_visible());
    assert_eq!(play.tricks()[0].leader(), Seat::West);
    assert_eq!(play.next_to_play(), Some(Seat::North), "the second card is played from declarer's hand");
    assert_eq!(play.declarer(), Seat::North);
}

#[test]
fn law_54a_declarer_may_spread_his_hand_and_become_dummy() {
    let play = opening_lead_out_of_turn(Code::Duplicate)
        .rectify(PlayOption::AcceptLeadAndBecomeDummy)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.declarer(), Seat::South, "dummy becomes declarer");
    assert_eq!(play.dummy(), Seat::North);
    assert!(play.faced_hands().contains(Seat::North));
    assert_eq!(play.next_to_play(), Some(Seat::North));
    assert_eq!(play.actor(), Some(Seat::South));
}

#[test]
fn law_54d_refused_opening_lead_is_a_major_penalty_card_and_declarer_restricts_the_proper_lead() {
    let base = opening_lead_out_of_turn(Code::Duplicate);
    // Require hearts: the penalty card is picked up and East must lead a heart (Law 50D2(a)).
    let play = base
        .rectify(PlayOption::RejectLead { lead: Some(LeadChoice::Require(Suit::Hearts)) })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.penalty_cards().count(), 0, "picked up");
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert_eq!(play.legal_cards(), play.hand(Seat::East).suit(Suit::Hearts));
    let err = play.card(card("CA")).refused();
    assert_eq!(err.to_string(), "East must lead hearts, not the CA (Law 50D2(a) of the Laws of Duplicate Bridge)");
    // Forbid hearts: picked up, and East may not lead one while he retains the lead.
    let play = base
        .rectify(PlayOption::RejectLead { lead: Some(LeadChoice::Forbid(Suits::single(Suit::Hearts))) })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!play.legal_cards().has_suit(Suit::Hearts));
    assert_eq!(play.legal_cards().len(), 10);
    // East leads the club ace and wins: still on lead, still forbidden.
    let play = cards(&play, &["CA", "CT", "C5", "C2"]);
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert!(!play.legal_cards().has_suit(Suit::Hearts));
    // Leave the card: it stays a major penalty card; East leads anything (Law 50D2(b)).
    let play = base
        .rectify(PlayOption::RejectLead { lead: Some(LeadChoice::NoRestriction) })
        .unwrap_or_else(|e| panic!("{e}"));
    let penalty: Vec<_> = play.penalty_cards().copied().collect();
    assert_eq!(penalty.len(), 1);
    assert_eq!((penalty[0].owner, penalty[0].card, penalty[0].kind), (Seat::West, card("HA"), PenaltyCardKind::Major));
    assert!(play.face_up_cards().contains(card("HA")));
    assert_eq!(play.legal_cards(), play.hand(Seat::East));
    // East leads a heart: West must play the penalty card at this first legal opportunity.
    let play = cards(&play, &["H5", "H2"]);
    assert_eq!(play.next_to_play(), Some(Seat::West));
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("HA")]);
    let err = play.card(card("HK")).refused();
    assert_eq!(
        err.to_string(),
        "West must play the penalty card HA, not the HK (Law 50D1 of the Laws of Duplicate Bridge)"
    );
}

#[test]
fn law_54_rubber_has_the_same_five_choices_under_its_own_sections() {
    let play = opening_lead_out_of_turn(Code::Rubber);
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    let laws: Vec<Law> = decision.offers.iter().map(|o| o.law).collect();
    assert_eq!(
        laws,
        vec![
            Law::rubber(54, "A"),
            Law::rubber(54, "C"),
            Law::rubber(54, "D"),
            Law::rubber(54, "D"),
            Law::rubber(54, "D")
        ]
    );
    // Rubber Law 54D sends the refused lead to Law 56: a major penalty card, with Law 50's
    // lead penalty for the proper leader.
    let play = play
        .rectify(PlayOption::RejectLead { lead: Some(LeadChoice::Require(Suit::Hearts)) })
        .unwrap_or_else(|e| panic!("{e}"));
    let err = play.card(card("CA")).refused();
    assert_eq!(err.law(), Law::rubber(50, ""));
}

#[test]
fn law_53a_a_play_from_the_hand_next_in_rotation_accepts_the_lead() {
    // Declarer North plays to West's opening lead out of turn: accepted (Law 54B via 53A).
    let play = opening_lead_out_of_turn(Code::Duplicate);
    let after = recorded(&play, Seat::North, "HT");
    assert!(after.events.contains(&PlayEvent::LeadAccepted { seat: Seat::West, card: card("HA") }));
    assert!(after.play.decision().is_none());
    assert_eq!(after.play.tricks()[0].leader(), Seat::West);
    assert_eq!(after.play.tricks()[0].card(Seat::North), Some(card("HT")));
    assert!(after.play.dummy_visible());
}

#[test]
fn law_54e_an_opening_lead_by_the_declaring_side_is_picked_up() {
    let play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    let after = recorded(&play, Seat::South, "DA");
    assert_eq!(
        after.events,
        vec![PlayEvent::CardReturned { seat: Seat::South, card: card("DA"), law: Law::duplicate(54, "E") }]
    );
    assert_eq!(after.play, play);
    let rubber = start(DEAL, "4S", Seat::North, Code::Rubber);
    let after = recorded(&rubber, Seat::North, "SA");
    assert_eq!(
        after.events,
        vec![PlayEvent::CardReturned { seat: Seat::North, card: card("SA"), law: Law::rubber(48, "") }]
    );
}

/// 4S by North, duplicate; East wins the first trick with the club ace.
fn after_first_trick(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::North, code), &["CA", "CT", "C5", "C2"])
}

#[test]
fn law_55_declarer_leading_out_of_turn_either_defender_accepts_or_requires_retraction() {
    let play = after_first_trick(Code::Duplicate);
    let play = recorded(&play, Seat::North, "SA").play;
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(
        decision.situation,
        Situation::DeclarerLeadOutOfTurn { from: Seat::North, card: card("SA"), proper_leader: Seat::East }
    );
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(Seat::East).with(Seat::West));
    assert_eq!(options(&play), vec![PlayOption::AcceptLead, PlayOption::RetractLead]);
    assert_eq!(decision.offers[1].law, Law::duplicate(55, "B1"));
    // Law 55C: "When declarer adopts a line of play that could have been based on information
    // obtained through his infraction, Law 16 applies."
    assert!(decision.offers[1].effects.contains(&Effect::InformationUnauthorized { side: laws::Side::NorthSouth }));
    let accepted = play.rectify(PlayOption::AcceptLead).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(accepted.tricks()[1].leader(), Seat::North);
    assert_eq!(accepted.next_to_play(), Some(Seat::East));
    // Retracted when it was a defender's lead: back to the hand, no further rectification.
    let retracted = play.rectify(PlayOption::RetractLead).unwrap_or_else(|e| panic!("{e}"));
    assert!(retracted.hand(Seat::North).contains(card("SA")));
    assert_eq!(retracted.next_to_play(), Some(Seat::East));
    assert_eq!(retracted.penalty_cards().count(), 0, "declarer never has penalty cards (Law 48)");
    let reserved: Vec<_> = retracted.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
    assert_eq!(reserved, vec![(laws::Side::NorthSouth, Law::duplicate(55, "C"))], "reserved for redress (Law 16)");
    assert!(accepted.reserved_adjustments().is_empty());
}

#[test]
fn law_55b2_declarer_led_from_the_wrong_hand_must_lead_from_the_correct_one_and_law_60b() {
    // Dummy (South) wins trick 2 with the diamond ace; declarer then leads from his own hand.
    let play = after_first_trick(Code::Duplicate);
    let play = cards(&play, &["D2", "DA", "D8", "D5"]);
    assert_eq!(play.next_to_play(), Some(Seat::South));
    let play = recorded(&play, Seat::North, "SA").play;
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(decision.offers[1].law, Law::duplicate(55, "B2"));
    assert!(decision.offers[1].effects.contains(&Effect::MustLeadFrom { seat: Seat::South }));
    let play = play.rectify(PlayOption::RetractLead).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.next_to_play(), Some(Seat::South));
    // West plays before declarer leads from dummy: his card is a major penalty card (Law 60B).
    let after = recorded(&play, Seat::West, "HK");
    let penalty: Vec<_> = after.play.penalty_cards().copied().collect();
    assert_eq!(penalty.len(), 1);
    assert_eq!(penalty[0].kind, PenaltyCardKind::Major);
    assert_eq!(penalty[0].law, Law::duplicate(60, "B"));
    assert!(after.play.decision().is_none());
}

#[test]
fn law_56_a_defender_leading_at_his_partners_turn_gives_declarer_four_options() {
    // East won trick 1; West leads the heart ace instead.
    let play = recorded(&after_first_trick(Code::Duplicate), Seat::West, "HA").play;
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(decision.chooser, Chooser::Declarer);
    assert_eq!(decision.law, Law::duplicate(56, ""));
    assert_eq!(
        options(&play),
        vec![
            PlayOption::AcceptLead,
            PlayOption::RejectLead { lead: Some(LeadChoice::Require(Suit::Hearts)) },
            PlayOption::RejectLead { lead: Some(LeadChoice::Forbid(Suits::single(Suit::Hearts))) },
            PlayOption::RejectLead { lead: Some(LeadChoice::NoRestriction) },
        ]
    );
    let play = play
        .rectify(PlayOption::RejectLead { lead: Some(LeadChoice::NoRestriction) })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.penalty_cards().next().map(|pc| pc.law), Some(Law::duplicate(56, "B")));
    assert_eq!(play.next_to_play(), Some(Seat::East));
}

#[test]
fn law_56_a_defender_leading_at_declarers_turn_gives_two_options() {
    // Dummy won trick 2; West leads the heart ace at dummy's turn.
    let play = cards(&after_first_trick(Code::Duplicate), &["D2", "DA", "D8", "D5"]);
    let play = recorded(&play, Seat::West, "HA").play;
    assert_eq!(options(&play), vec![PlayOption::AcceptLead, PlayOption::RejectLead { lead: None }]);
    // Rubber Law 56 gives the same two.
    let rubber = cards(&after_first_trick(Code::Rubber), &["D2", "DA", "D8", "D5"]);
    let rubber = recorded(&rubber, Seat::West, "HA").play;
    let laws: Vec<Law> = rubber.decision().map(|d| d.offers.iter().map(|o| o.law).collect()).unwrap_or_default();
    assert_eq!(laws, vec![Law::rubber(56, "A"), Law::rubber(56, "B")]);
}

#[test]
fn law_53b_the_proper_leader_may_lead_instead_of_playing_to_the_irregular_lead() {
    // Dummy (South) is to lead; West leads out of turn; South is not next in rotation after
    // West (North is), so a card from South is his proper lead.
    let play = cards(&after_first_trick(Code::Duplicate), &["D2", "DA", "D8", "D5"]);
    let play = recorded(&play, Seat::West, "HA").play;
    let after = recorded(&play, Seat::South, "DK");
    assert!(after.events.contains(&PlayEvent::IrregularLeadWithdrawn { seat: Seat::West, card: card("HA") }));
    assert_eq!(after.play.tricks()[2].leader(), Seat::South);
    assert_eq!(after.play.penalty_cards().next().map(|pc| pc.card), Some(card("HA")), "Law 49: a defender's card");
    // When the proper leader is also next in rotation, record_proper_lead says which it is.
    let play = after_first_trick(Code::Duplicate);
    let play = recorded(&play, Seat::North, "SA").play;
    let proper = play.record_proper_lead(Seat::East, card("CK")).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(proper.tricks()[1].leader(), Seat::East);
    assert!(proper.hand(Seat::North).contains(card("SA")), "declarer's card simply goes back");
    let accepted = recorded(&play, Seat::East, "S8").play;
    assert_eq!(accepted.tricks()[1].leader(), Seat::North, "a card from the next hand accepts the lead");
}

#[test]
fn law_53_a_lead_out_of_turn_at_trick_thirteen_is_retracted() {
    let mut play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    for _ in 0..48 {
        let next = play.legal_cards().iter().next().unwrap_or_else(|| panic!("cards left"));
        play = play.card(next).unwrap_or_else(|e| panic!("{e}"));
    }
    let leader = play.next_to_play().unwrap_or_else(|| panic!("trick 13"));
    let offender = leader.partner();
    let last = play.hand(offender).iter().next().unwrap_or_else(|| panic!("one card"));
    let after = play.record(offender, last).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(after.events[..], [PlayEvent::CardReturned { law, .. }] if law == Law::duplicate(53, "A")));
    assert_eq!(after.play, play);
}

#[test]
fn law_57a_duplicate_a_defender_playing_before_his_partner_gives_declarer_four_requirements() {
    // Trick 2: East leads the heart five; dummy (South) plays; North? No: East leads, South,
    // West, North. West's partner East has played, so set it up with declarer leading:
    // declarer's side wins trick 2 in North's hand (spade ace), and North leads a diamond.
    let play = after_first_trick(Code::Duplicate);
    let play = cards(&play, &["S8", "S5", "S2", "SA", "D5"]);
    assert_eq!(play.next_to_play(), Some(Seat::East));
    // West plays before his partner East.
    let play = recorded(&play, Seat::West, "DT").play;
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(
        decision.situation,
        Situation::PrematurePlay { offender: Seat::West, card: card("DT"), to_next_trick: false }
    );
    assert_eq!(play.penalty_cards().next().map(|pc| (pc.card, pc.kind)), Some((card("DT"), PenaltyCardKind::Major)));
    let requirements: Vec<PlayOption> = options(&play);
    assert_eq!(requirements.len(), 2 + 3 + 3, "highest, lowest, a named other suit, not a named other suit");
    assert!(requirements.contains(&PlayOption::PartnerPlays(PlayRequirement::Suit(Suit::Clubs))));
    // Declarer requires East's lowest diamond.
    let play = play.rectify(PlayOption::PartnerPlays(PlayRequirement::Lowest)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("D2")]);
    let play = cards(&play, &["D2", "DA"]);
    // West must now play the major penalty card at his turn (the first legal opportunity).
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("DT")]);
}

#[test]
fn law_57_rubber_three_options_and_the_card_stands_in_the_trick() {
    let play = after_first_trick(Code::Rubber);
    let play = cards(&play, &["S8", "S5", "S2", "SA", "D5"]);
    let play = recorded(&play, Seat::West, "DT").play;
    assert_eq!(play.tricks()[2].card(Seat::West), Some(card("DT")), "rubber Law 57 keeps the card played");
    assert_eq!(play.penalty_cards().count(), 0);
    let laws: Vec<(PlayOption, Law)> =
        play.decision().map(|d| d.offers.iter().map(|o| (o.option, o.law)).collect()).unwrap_or_default();
    assert_eq!(laws[0], (PlayOption::PartnerPlays(PlayRequirement::Highest), Law::rubber(57, "A")));
    assert_eq!(laws[1], (PlayOption::PartnerPlays(PlayRequirement::Lowest), Law::rubber(57, "B")));
    assert_eq!(laws.len(), 2 + 3, "rubber has no 'play a named suit' option");
    assert!(
        laws.iter()
            .skip(2)
            .all(|(o, l)| matches!(o, PlayOption::PartnerPlays(PlayRequirement::NotSuit(_)))
                && *l == Law::rubber(57, "C"))
    );
    let play = play.rectify(PlayOption::PartnerPlays(PlayRequirement::Highest)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("D4")]);
}

#[test]
fn law_60c_the_partner_of_a_premature_player_who_plays_before_declarers_choice_makes_a_penalty_card() {
    // West plays before his partner East (Law 57); East then plays before declarer has said
    // what he must play: "A play by a member of the offending side before a penalty had been
    // imposed does not affect the rights of the opponents and may itself be subject to
    // penalty" (rubber Law 60).
    let play = cards(&after_first_trick(Code::Rubber), &["S8", "S5", "S2", "SA", "D5"]);
    let play = recorded(&play, Seat::West, "DT").play;
    let after = recorded(&play, Seat::East, "D2");
    let pc: Vec<_> = after.play.penalty_cards().map(|pc| (pc.card, pc.owner, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("D2"), Seat::East, PenaltyCardKind::Major, Law::rubber(60, ""))]);
    assert_eq!(after.play.decision().map(|d| d.situation), play.decision().map(|d| d.situation));
    // Declarer's choice still binds East: his highest diamond.
    let chosen =
        after.play.rectify(PlayOption::PartnerPlays(PlayRequirement::Highest)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(chosen.legal_cards().iter().collect::<Vec<_>>(), vec![card("D4")]);
}

#[test]
fn law_57a_a_premature_lead_to_the_next_trick_is_a_major_penalty_card() {
    // Trick 2: North leads the spade ace, East follows, South follows; East (who already
    // played) leads to trick 3 before his partner West has played to trick 2.
    let play = cards(&after_first_trick(Code::Duplicate), &["S8", "S5"]);
    let after = recorded(&play, Seat::East, "CK");
    assert!(matches!(
        after.play.decision().map(|d| d.situation),
        Some(Situation::PrematurePlay { offender: Seat::East, to_next_trick: true, .. })
    ));
    assert_eq!(after.play.penalty_cards().next().map(|pc| pc.card), Some(card("CK")));
}

#[test]
fn law_57c1_no_rectification_once_declarer_has_played_from_both_hands() {
    // Trick 2 led by North; South (dummy) plays out of turn before East (declarer's premature
    // play stands, duplicate Law 57C3); then West plays before his partner East.
    let play = cards(&after_first_trick(Code::Duplicate), &["S8", "S5", "S2", "SA", "D5"]);
    let play = record(&play, &[(Seat::South, "DA"), (Seat::West, "DT")]);
    assert!(play.decision().is_none());
    assert_eq!(play.penalty_cards().count(), 0);
    assert_eq!(play.next_to_play(), Some(Seat::East));
}

#[test]
fn law_57d_duplicate_a_legal_card_played_at_rhos_turn_is_played_at_his_proper_turn() {
    // North leads a diamond, East follows, West plays before dummy: legal, so it stands.
    let play = cards(&after_first_trick(Code::Duplicate), &["S8", "S5", "S2", "SA", "D5", "D2"]);
    let play = recorded(&play, Seat::West, "DT").play;
    assert!(play.decision().is_none());
    assert_eq!(play.tricks()[2].card(Seat::West), Some(card("DT")));
    assert_eq!(play.next_to_play(), Some(Seat::South));
    // A card he could not legally play becomes a major penalty card instead.
    let play = cards(&after_first_trick(Code::Duplicate), &["S8", "S5", "S2", "SA", "D5", "D2"]);
    let play = recorded(&play, Seat::West, "HA").play;
    assert_eq!(play.penalty_cards().next().map(|pc| (pc.card, pc.law)), Some((card("HA"), Law::duplicate(57, "D"))));
    assert!(play.tricks()[2].card(Seat::West).is_none());
}

#[test]
fn law_58_simultaneous_cards_the_other_visible_card_becomes_a_penalty_card() {
    let play = after_first_trick(Code::Duplicate);
    // East leads the club king and the heart seven shows with it.
    let after = play.record_simultaneous(Seat::East, card("CK"), &[card("H7")]).unwrap_or_else(|e| panic!("{e}"));
    let pc: Vec<_> = after.play.penalty_cards().copied().collect();
    assert_eq!(pc.len(), 1);
    assert_eq!((pc[0].card, pc[0].kind, pc[0].law), (card("H7"), PenaltyCardKind::Minor, Law::duplicate(58, "B2")));
    // Declarer's extra card goes back without penalty.
    let play = cards(&play, &["CK", "C9"]);
    let play = cards(&play, &["C6"]);
    let after = play.record_simultaneous(Seat::North, card("C3"), &[card("SA")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after.play.penalty_cards().count(), 0);
    assert!(after.play.hand(Seat::North).contains(card("SA")));
}

#[test]
fn law_60a_the_non_offenders_play_after_a_lead_out_of_turn_forfeits_rectification() {
    // West leads out of turn at East's turn; declarer North, next in rotation, plays to it.
    let play = recorded(&after_first_trick(Code::Rubber), Seat::West, "HA").play;
    let after = recorded(&play, Seat::North, "HT");
    assert!(after.play.decision().is_none());
    assert_eq!(after.play.tricks()[1].leader(), Seat::West);
}

#[test]
fn law_60c_a_play_by_the_offending_side_before_rectification_is_itself_rectified() {
    // Rubber Law 60: "A play by a member of the offending side before a penalty had been
    // imposed does not affect the rights of the opponents and may itself be subject to
    // penalty." West leads out of turn; his partner East plays before declarer has chosen.
    let play = recorded(&after_first_trick(Code::Rubber), Seat::West, "HA").play;
    let after = recorded(&play, Seat::East, "CK");
    // East's card was exposed before he was entitled to play it: a major penalty card (Law 49).
    let pc: Vec<_> = after.play.penalty_cards().copied().collect();
    assert_eq!(pc.len(), 1);
    assert_eq!(
        (pc[0].card, pc[0].owner, pc[0].kind, pc[0].law),
        (card("CK"), Seat::East, PenaltyCardKind::Major, Law::rubber(60, ""))
    );
    // Declarer's rights are untouched: the Law 56 decision still stands, with the same options.
    assert_eq!(after.play.decision().map(|d| d.situation), play.decision().map(|d| d.situation));
    assert_eq!(after.play.tricks(), play.tricks(), "nothing was played to a trick");

    // Duplicate Law 60C: "may itself be subject to rectification"; declarer's side is never
    // subject to rectification for an exposed card (Law 48A): his card goes back to his hand.
    // North, declarer, leads out of turn at East's turn; then dummy plays before the defenders
    // have chosen.
    let out_of_turn = recorded(&after_first_trick(Code::Duplicate), Seat::North, "SA").play;
    let after = recorded(&out_of_turn, Seat::South, "DA");
    let returned = PlayEvent::CardReturned { seat: Seat::South, card: card("DA"), law: Law::duplicate(60, "C") };
    assert!(after.events.contains(&returned), "{:?}", after.events);
    assert!(after.play.hand(Seat::South).contains(card("DA")));
    assert_eq!(after.play.penalty_cards().count(), 0);
    assert_eq!(after.play.decision().map(|d| d.situation), out_of_turn.decision().map(|d| d.situation));
}

#[test]
fn law_58b_a_defender_designates_after_an_opponent_played_and_the_opponent_may_change_his_card() {
    // Duplicate Law 58B2: "If the face of more than one card is visible, the offending player
    // designates the card he proposes to play; when he is a defender, each other card exposed
    // becomes a penalty card." 58B3: "After an offending player withdraws a visible card, an
    // opponent who subsequently played to that trick may withdraw his play and substitute
    // another card without further rectification."
    // East leads the club king and queen together; the king was taken as led and dummy played
    // the nine to it; then East designates the queen.
    let play = recorded(&after_first_trick(Code::Duplicate), Seat::East, "CK").play;
    let play = recorded(&play, Seat::South, "C9").play;
    let after = play.designate_simultaneous(Seat::East, card("CQ"), &[card("CQ")]).unwrap_or_else(|e| panic!("{e}"));
    let trick = after.play.tricks()[1];
    assert_eq!((trick.card(Seat::East), trick.card(Seat::South)), (Some(card("CQ")), Some(card("C9"))));
    let pc: Vec<_> = after.play.penalty_cards().copied().collect();
    assert_eq!(pc.len(), 1);
    assert_eq!(
        (pc[0].card, pc[0].owner, pc[0].kind, pc[0].law),
        (card("CK"), Seat::East, PenaltyCardKind::Major, Law::duplicate(58, "B2"))
    );
    let decision = after.play.decision().unwrap_or_else(|| panic!("dummy may change his card"));
    assert!(
        matches!(decision.situation, Situation::ChangeOfPlay { later, law, .. } if later == Seats::single(Seat::South) && law == Law::duplicate(58, "B3"))
    );
    // Declarer takes dummy's nine back and plays the eight.
    let changed = after
        .play
        .rectify(PlayOption::WithdrawAfterChange(Seats::single(Seat::South)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(changed.hand(Seat::South).contains(card("C9")));
    let changed = recorded(&changed, Seat::South, "C8").play;
    assert_eq!(changed.tricks()[1].card(Seat::South), Some(card("C8")));

    // Designating the card already taken as played withdraws only the other: still a change
    // of what was visible, so dummy may still change his card.
    let kept = play.designate_simultaneous(Seat::East, card("CK"), &[card("CQ")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kept.play.tricks()[1].card(Seat::East), Some(card("CK")));
    assert_eq!(kept.play.penalty_cards().map(|pc| pc.card).collect::<Vec<_>>(), vec![card("CQ")]);
    assert!(kept.play.decision().is_some());
}

#[test]
fn law_58_rubber_a_defender_may_change_his_card_only_after_declarer_withdraws_one() {
    // Rubber Law 58: "If declarer leads or plays two or more cards simultaneously from either
    // hand, he must designate the card he proposes to play and must restore any other card to
    // the correct hand. If declarer withdraws a visible card and a defender has already played
    // to that card, such defender may, without penalty, withdraw his card and substitute
    // another."
    // East leads the seven of hearts; dummy's four and three come out together, the four taken
    // as played; West plays the ace; then declarer designates dummy's three.
    let play = record(&after_first_trick(Code::Rubber), &[(Seat::East, "H7"), (Seat::South, "H4"), (Seat::West, "HA")]);
    let after = play.designate_simultaneous(Seat::South, card("H3"), &[card("H3")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after.play.tricks()[1].card(Seat::South), Some(card("H3")));
    assert!(after.play.hand(Seat::South).contains(card("H4")), "restored to the correct hand");
    assert_eq!(after.play.penalty_cards().count(), 0);
    let decision = after.play.decision().unwrap_or_else(|| panic!("West may change his card"));
    assert_eq!(decision.seats, Seats::single(Seat::West));
    assert!(matches!(decision.situation, Situation::ChangeOfPlay { law, .. } if law == Law::rubber(58, "")));
    let changed = after
        .play
        .rectify(PlayOption::WithdrawAfterChange(Seats::single(Seat::West)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(changed.hand(Seat::West).contains(card("HA")));

    // A defender's own designation gives declarer no such right in rubber bridge; his other
    // card is a penalty card (minor: a single low card exposed inadvertently, Law 50).
    let play = record(&after_first_trick(Code::Rubber), &[(Seat::East, "S9"), (Seat::South, "S5")]);
    let after = play.designate_simultaneous(Seat::East, card("S8"), &[card("S8")]).unwrap_or_else(|e| panic!("{e}"));
    assert!(after.play.decision().is_none());
    let pc: Vec<_> = after.play.penalty_cards().map(|pc| (pc.card, pc.kind)).collect();
    assert_eq!(pc, vec![(card("S9"), PenaltyCardKind::Minor)]);
}

#[test]
fn law_58_designation_is_refused_where_the_law_gives_none() {
    let play = record(&after_first_trick(Code::Duplicate), &[(Seat::East, "CK"), (Seat::South, "C9")]);
    // Law 58B1: "If the face of only one card is visible, that card is played".
    let err = play.designate_simultaneous(Seat::East, card("CK"), &[]).refused();
    assert_eq!(err.law(), Law::duplicate(58, "B1"));
    // The card designated must be one that came out together; the others must be his.
    let err = play.designate_simultaneous(Seat::East, card("CJ"), &[card("CQ")]).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    let err = play.designate_simultaneous(Seat::East, card("CK"), &[card("HA")]).refused();
    assert!(matches!(err, PlayError::CardNotHeld { .. }), "{err}");
    // Law 58B4: once both sides have played to the next trick, Law 67 applies.
    let later = record(&play, &[(Seat::West, "C6"), (Seat::North, "C3"), (Seat::East, "CQ"), (Seat::South, "C8")]);
    let err = later.designate_simultaneous(Seat::West, card("C7"), &[card("C6")]).refused();
    assert_eq!(err.law(), Law::duplicate(58, "B4"));
}

/// Rubber Law 54B: "declarer must accept the irregular lead if he could have seen any of
/// dummy's cards"; duplicate Law 54C: "If declarer could have seen any of dummy's cards ... he
/// must accept the lead and the presumed declarer then becomes declarer." Once that is recorded
/// only acceptance is offered: no refusal (54D), no spreading his hand as dummy.
#[test]
fn law_54b_declarer_who_could_have_seen_dummy_must_accept_the_lead() {
    for (code, law) in [(Code::Rubber, Law::rubber(54, "B")), (Code::Duplicate, Law::duplicate(54, "C"))] {
        let play = opening_lead_out_of_turn(code);
        assert!(!play.must_accept_faced_lead());
        let seen = play.declarer_saw_dummy().unwrap_or_else(|e| panic!("{e}"));
        assert!(seen.must_accept_faced_lead());
        let decision = seen.decision().unwrap_or_else(|| panic!("still pending"));
        assert_eq!(decision.law, law);
        assert_eq!(options(&seen), vec![PlayOption::AcceptLead], "{code:?}");
        let refused = seen.rectify(PlayOption::AcceptLeadAndBecomeDummy).refused();
        assert!(matches!(refused, PlayError::OptionNotOffered { .. }), "{refused:?}");
        let accepted = seen.rectify(PlayOption::AcceptLead).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(accepted.declarer(), Seat::North, "the presumed declarer stays declarer");
        assert!(accepted.dummy_visible());
        assert!(!accepted.must_accept_faced_lead());
    }
}

/// Rubber Law 54B: declarer "is deemed to have accepted the lead out of turn if he begins to
/// spread his hand as though he were dummy and in so doing exposes one or more cards; declarer
/// must spread his entire hand, and dummy becomes declarer"; duplicate Law 54A likewise. Rubber
/// footnote 23: "If cards are so exposed from both declarer's and dummy's hands, the player who
/// was regularly to become declarer remains declarer."
#[test]
fn law_54b_declarer_who_begins_to_spread_his_hand_becomes_dummy_unless_dummy_was_seen() {
    for code in [Code::Rubber, Code::Duplicate] {
        let spread = opening_lead_out_of_turn(code).declarer_began_to_spread().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(spread.declarer(), Seat::South, "{code:?}: dummy becomes declarer");
        assert!(spread.faced_hands().contains(Seat::North), "his whole hand is spread");
        assert!(spread.decision().is_none());

        let both = opening_lead_out_of_turn(code)
            .declarer_saw_dummy()
            .and_then(|p| p.declarer_began_to_spread())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(both.declarer(), Seat::North, "{code:?}: cards exposed from both hands");
        assert_eq!(both.next_to_play(), Some(Seat::North), "the second card comes from declarer's hand");
    }
    // Neither fact means anything without an opening lead out of turn awaiting his decision.
    let regular = start(DEAL, "4S", Seat::North, Code::Rubber);
    assert_eq!(regular.declarer_saw_dummy().refused().law(), Law::rubber(54, "B"));
    assert_eq!(regular.declarer_began_to_spread().refused().law(), Law::rubber(54, "B"));
}
