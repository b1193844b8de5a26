//! The deal: Laws 4-10 and 22A of the Laws of Rubber Bridge, Chicago (Appendix 4 B, C, G, H1),
//! and duplicate boards (Law 2 of the Laws of Duplicate Bridge).

// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

use laws::deal::{
    Board, BoardMarking, ChicagoDeal, Cut, DealEnding, DealOutOfTurn, DealRuleError, DealStage, DealerRotation,
    ExtraDeal, GameForm, NewShuffle, OutOfTurnRuling, RedealCondition, RedealRuling, cutter, deck_change_due,
    first_shuffler, next_deck_preparer,
};
use laws::draw::Deck;
use laws::{CitesLaw, Law, Seat, Vulnerability};
use proptest::prelude::*;

use Seat::{East, North, South, West};
use Vulnerability::{Both, EastWest, NorthSouth};

#[test]
fn duplicate_law_2_boards_1_to_16_match_the_table_of_duplicate_md_1_2() {
    let expected = [
        (North, Vulnerability::None),
        (East, NorthSouth),
        (South, EastWest),
        (West, Both),
        (North, NorthSouth),
        (East, EastWest),
        (South, Both),
        (West, Vulnerability::None),
        (North, EastWest),
        (East, Both),
        (South, Vulnerability::None),
        (West, NorthSouth),
        (North, Both),
        (East, Vulnerability::None),
        (South, NorthSouth),
        (West, EastWest),
    ];
    for (number, (dealer, vulnerability)) in (1..=16).zip(expected) {
        let board = Board::new(number).unwrap();
        assert_eq!((board.dealer(), board.vulnerability()), (dealer, vulnerability), "board {number}");
    }
}

#[test]
fn duplicate_law_2_the_same_sequence_is_repeated_for_each_group_of_16_boards() {
    // The board-number cases of docs/worked-cases.md, and some beyond.
    let vectors = [
        (1, North, Vulnerability::None),
        (4, West, Both),
        (9, North, EastWest),
        (16, West, EastWest),
        (17, North, Vulnerability::None),
        (20, West, Both),
        (32, West, EastWest),
        (33, North, Vulnerability::None),
        (36, West, Both),
        (100, West, Both),
        (4_000_000_000, West, EastWest),
    ];
    for (number, dealer, vulnerability) in vectors {
        let board = Board::new(number).unwrap();
        assert_eq!((board.dealer(), board.vulnerability()), (dealer, vulnerability), "board {number}");
    }
    assert_eq!(Board::new(0).unwrap_err(), DealRuleError::NoBoardZero);
    assert_eq!(Board::new(0).unwrap_err().law(), Law::duplicate(2, ""));
}

proptest! {
    #[test]
    fn duplicate_law_2_every_board_is_its_row_of_the_first_sixteen(number in 1u32..=u32::MAX) {
        let board = Board::new(number).unwrap();
        let row = Board::new((number - 1) % 16 + 1).unwrap();
        prop_assert_eq!(board.dealer(), row.dealer());
        prop_assert_eq!(board.vulnerability(), row.vulnerability());
    }
}

#[test]
fn duplicate_law_2_a_board_marked_otherwise_is_played_as_marked() {
    let board = Board::new(5).unwrap();
    let as_law = board.conditions(None);
    assert!(as_law.conforms);
    assert_eq!(as_law.marking, BoardMarking { dealer: North, vulnerability: NorthSouth });
    let marked = BoardMarking { dealer: North, vulnerability: Both };
    let used = board.conditions(Some(marked));
    assert_eq!(used.marking, marked, "the conditions marked on it apply for that session");
    assert!(!used.conforms, "a board that does not conform should not be used");
    assert!(board.conditions(Some(as_law.marking)).conforms);
}

#[test]
fn law_9_the_turn_to_deal_passes_clockwise_and_law_7_the_decks_alternate() {
    let mut rotation = DealerRotation::new(GameForm::Rubber, South, Deck::Second);
    let mut dealers = vec![rotation.dealer()];
    let mut decks = vec![rotation.deck()];
    for _ in 0..4 {
        rotation = rotation.finish(rotation.dealer(), DealEnding::Played).unwrap();
        dealers.push(rotation.dealer());
        decks.push(rotation.deck());
    }
    assert_eq!(dealers, [South, West, North, East, South]);
    assert_eq!(decks, [Deck::Second, Deck::First, Deck::Second, Deck::First, Deck::Second]);
    assert_eq!(rotation.deals_counted(), 0, "rubber bridge counts no deals");
    assert!(!rotation.is_rubber_complete());
    assert_eq!(rotation.chicago_vulnerability(false), None, "rubber bridge vulnerability is earned (Law 73)");
}

#[test]
fn law_22a_a_passed_out_deal_passes_the_turn_to_deal_in_rotation() {
    let rotation = DealerRotation::new(GameForm::Rubber, North, Deck::First);
    let next = rotation.finish(North, DealEnding::PassedOut).unwrap();
    assert_eq!((next.dealer(), next.deck()), (East, Deck::Second));
}

#[test]
fn law_10_after_a_redeal_the_same_dealer_deals_again_with_the_same_deck() {
    for form in [GameForm::Rubber, GameForm::Chicago] {
        let rotation = DealerRotation::new(form, West, Deck::First);
        let next = rotation.finish(West, DealEnding::Redealt).unwrap();
        assert_eq!((next.dealer(), next.deck(), next.deals_counted()), (West, Deck::First, 0), "{form}");
        assert_eq!(next.preparer(), West, "Law 6D: the dealer shuffles anew");
    }
}

#[test]
fn law_4_the_dealers_left_shuffles_first_then_the_dealers_partner_prepares_the_next_deck() {
    assert_eq!(first_shuffler(North), East);
    assert_eq!(next_deck_preparer(North), South);
    let rotation = DealerRotation::new(GameForm::Rubber, North, Deck::First);
    assert_eq!(rotation.preparer(), East);
    // North deals; South (his partner) shuffles the other deck and puts it by East.
    let next = rotation.finish(North, DealEnding::Played).unwrap();
    assert_eq!((next.dealer(), next.preparer()), (East, South));
}

#[test]
fn law_5_the_dealers_right_hand_opponent_cuts_leaving_at_least_four_cards_in_each_portion() {
    assert_eq!(cutter(North), West);
    assert_eq!(Cut::new(3).unwrap_err(), DealRuleError::ShortCut { top: 3 });
    assert_eq!(Cut::new(3).unwrap_err().law(), Law::rubber(5, ""));
    assert_eq!(Cut::new(4).unwrap().top(), 4);
    assert_eq!(Cut::new(48).unwrap().top(), 48);
    assert!(Cut::new(49).is_err());
}

#[test]
fn law_6_who_shuffles_anew_depends_on_when_and_why() {
    let (dealer, preparer, shuffling) = (North, South, East);
    assert_eq!(NewShuffle::DemandedBeforePickUp.shuffler(dealer, preparer, shuffling), South);
    assert_eq!(NewShuffle::DemandedAfterPickUp.shuffler(dealer, preparer, shuffling), North);
    assert_eq!(NewShuffle::CardFaceUpInShuffling.shuffler(dealer, preparer, shuffling), East);
    assert_eq!(NewShuffle::CardFaceUpInCutting.shuffler(dealer, preparer, shuffling), North);
    assert_eq!(NewShuffle::Redeal.shuffler(dealer, preparer, shuffling), North);
    assert_eq!(NewShuffle::DemandedAfterPickUp.law(), Law::rubber(6, "A"));
}

#[test]
fn law_10_each_condition_requires_a_redeal_only_if_discovered_by_its_deadline() {
    use RedealCondition::*;
    let stages =
        [DealStage::Dealing, DealStage::BeforeFirstCall, DealStage::Auction, DealStage::Play, DealStage::PlayCompleted];
    // How many of the stages above still require a redeal: A before the last card is dealt,
    // B before the first call, C before play is completed.
    let cases = [
        (CardFaceUp, "A1", 1),
        (DealtIncorrectly, "A2", 1),
        (DeckNotShuffled, "A3", 1),
        (DeckNotCut, "A3", 1),
        (SawCardOfAnotherHand, "B", 2),
        (DeckNotConforming, "C1", 4),
        (TooManyAndTooFew, "C2", 4),
        (OpponentsCardsMixed, "C3", 4),
    ];
    for (condition, section, in_time) in cases {
        assert_eq!(condition.law(), Law::rubber(10, section));
        for (i, stage) in stages.iter().enumerate() {
            let ruling = condition.ruling(*stage, East, East);
            if i < in_time {
                assert_eq!(
                    ruling,
                    RedealRuling::Redeal { dealer: East, law: Law::rubber(10, section) },
                    "{condition:?} {stage:?}"
                );
            } else {
                assert!(matches!(ruling, RedealRuling::DealStands { .. }), "{condition:?} {stage:?}");
            }
        }
    }
    // Law 11: too many and too few cards found after play: the deal stands; Law 79: an
    // incorrect deck found after play: the score stands.
    assert_eq!(
        TooManyAndTooFew.ruling(DealStage::PlayCompleted, East, East),
        RedealRuling::DealStands { law: Law::rubber(11, "") }
    );
    assert_eq!(
        DeckNotConforming.ruling(DealStage::PlayCompleted, East, East),
        RedealRuling::DealStands { law: Law::rubber(79, "") }
    );
}

#[test]
fn law_9_a_redeal_of_a_deal_dealt_out_of_turn_reverts_to_the_correct_dealer() {
    // Law 10C1 discovered during play of a deal that West dealt in North's turn.
    let ruling = RedealCondition::DeckNotConforming.ruling(DealStage::Play, West, North);
    assert_eq!(ruling, RedealRuling::Redeal { dealer: North, law: Law::rubber(10, "C1") });
    let late = RedealCondition::DealtOutOfTurn.ruling(DealStage::Auction, West, North);
    assert_eq!(late, RedealRuling::DealStands { law: Law::rubber(9, "") });
}

#[test]
fn law_10a3_a_deal_out_of_turn_noticed_before_the_last_card_is_redealt_by_the_correct_dealer() {
    let deal = DealOutOfTurn::new(South, East).unwrap();
    for form in [GameForm::Rubber, GameForm::Chicago] {
        let ruling = deal.ruling(form, DealStage::Dealing);
        assert_eq!(ruling, OutOfTurnRuling::Redeal { dealer: East });
        assert_eq!(ruling.law(), Law::rubber(10, "A3"));
    }
    assert_eq!(DealOutOfTurn::new(East, East).unwrap_err(), DealRuleError::DealWasInTurn { dealer: East });
}

#[test]
fn law_9_a_deal_out_of_turn_noticed_late_stands_and_rotation_continues_from_the_actual_dealer() {
    let ruling = DealOutOfTurn::new(South, East).unwrap().ruling(GameForm::Rubber, DealStage::BeforeFirstCall);
    assert_eq!(ruling, OutOfTurnRuling::RubberStands { dealer: South, next_dealer: West });
    assert_eq!(ruling.law(), Law::rubber(9, ""));
    // The rotation agrees: East's turn, South dealt, the deal was played: West deals next and
    // East, who missed his turn, has no redress.
    let rotation = DealerRotation::new(GameForm::Rubber, East, Deck::First);
    assert_eq!(rotation.finish(South, DealEnding::Played).unwrap().dealer(), West);
}

#[test]
fn chicago_rule_g_a_deal_out_of_turn_does_not_affect_rotation_vulnerability_or_scoring() {
    let ruling = DealOutOfTurn::new(South, East).unwrap().ruling(GameForm::Chicago, DealStage::Auction);
    let OutOfTurnRuling::ChicagoStands(stands) = ruling else { panic!("{ruling:?}") };
    assert_eq!(ruling.law(), Law::chicago('G', ""));
    assert_eq!(stands.first_caller(true), East, "the player who should have dealt retains his right to call first");
    assert_eq!(stands.first_caller(false), South, "lost if not claimed before the actual dealer calls");
    assert_eq!(stands.vulnerability_dealer(), East);
    assert_eq!(stands.next_dealer(), South, "the player who would have dealt next if the deal had been in turn");
    assert_eq!(stands.actual_dealer(), South);

    // The rotation agrees: deal 2 is East's; South dealt it; the vulnerability was East's
    // side's, and deal 3 is still South's.
    let rotation =
        DealerRotation::new(GameForm::Chicago, North, Deck::First).finish(North, DealEnding::Played).unwrap();
    assert_eq!((rotation.dealer(), rotation.chicago_vulnerability(false)), (East, Some(EastWest)));
    let after = rotation.finish(South, DealEnding::Played).unwrap();
    assert_eq!((after.dealer(), after.deals_counted()), (South, 2));
}

#[test]
fn chicago_rule_b_a_passed_out_deal_is_redealt_by_the_same_dealer_and_does_not_count() {
    let rotation = DealerRotation::new(GameForm::Chicago, West, Deck::First);
    assert_eq!(rotation.chicago_deal(), Some(ChicagoDeal::new(1).unwrap()));
    let again = rotation.finish(West, DealEnding::PassedOut).unwrap();
    assert_eq!((again.dealer(), again.deals_counted(), again.deck()), (West, 0, Deck::First));
    assert_eq!(again.chicago_deal(), Some(ChicagoDeal::new(1).unwrap()));
}

#[test]
fn chicago_rule_h1_after_a_pass_out_the_same_dealer_may_use_the_deck_shuffled_for_the_next_deal() {
    let rotation = DealerRotation::new(GameForm::Chicago, West, Deck::First).with_prepared_deck_after_pass_out(true);
    let again = rotation.finish(West, DealEnding::PassedOut).unwrap();
    assert_eq!((again.dealer(), again.deck(), again.preparer()), (West, Deck::Second, East));
}

#[test]
fn chicago_rule_b_a_rubber_is_four_deals_bid_and_played() {
    let mut rotation = DealerRotation::new(GameForm::Chicago, North, Deck::First);
    let mut dealers = Vec::new();
    while let Some(deal) = rotation.chicago_deal() {
        dealers.push((deal.number(), rotation.dealer()));
        rotation = rotation.finish(rotation.dealer(), DealEnding::Played).unwrap();
    }
    assert_eq!(dealers, [(1, North), (2, East), (3, South), (4, West)]);
    assert!(rotation.is_rubber_complete());
    let fifth = rotation.finish(North, DealEnding::Played).unwrap_err();
    assert_eq!(fifth, DealRuleError::ChicagoRubberComplete);
    assert_eq!(fifth.law(), Law::chicago('B', ""));
    assert_eq!(ChicagoDeal::new(5).unwrap_err(), DealRuleError::NotAChicagoDeal { number: 5 });
}

#[test]
fn chicago_rule_b_a_fifth_deal_is_void_if_noticed_in_time_a_sixth_always() {
    assert_eq!(ChicagoDeal::extra_deal(4, true), ExtraDeal::Counts);
    assert_eq!(ChicagoDeal::extra_deal(5, true), ExtraDeal::Void);
    assert_eq!(ChicagoDeal::extra_deal(5, false), ExtraDeal::ScoreStands);
    assert_eq!(ChicagoDeal::extra_deal(6, false), ExtraDeal::Void);
    assert_eq!(ChicagoDeal::extra_deal(9, false), ExtraDeal::Void);
}

#[test]
fn chicago_rule_c_vulnerability_first_none_second_and_third_dealers_side_fourth_both() {
    let deal = |n| ChicagoDeal::new(n).unwrap();
    assert_eq!(deal(1).vulnerability(East, false), Vulnerability::None);
    assert_eq!(deal(2).vulnerability(East, false), EastWest);
    assert_eq!(deal(3).vulnerability(South, false), NorthSouth);
    assert_eq!(deal(4).vulnerability(West, false), Both);
    // "By mutual agreement, the vulnerability on the second and third deals may be switched."
    assert_eq!(deal(2).vulnerability(East, true), NorthSouth);
    assert_eq!(deal(3).vulnerability(South, true), EastWest);
    assert_eq!(deal(1).vulnerability(East, true), Vulnerability::None);
    assert_eq!(deal(4).vulnerability(East, true), Both);
}

#[test]
fn law_8_a_player_who_looks_at_a_card_during_the_deal_forfeits_his_right_to_a_redeal() {
    let condition = RedealCondition::CardFaceUp;
    let claim = |looked| condition.ruling_on_claim(DealStage::Dealing, North, North, looked);
    assert_eq!(claim(true), RedealRuling::ClaimForfeited);
    assert_eq!(claim(true).law(), Law::rubber(8, ""));
    assert_eq!(claim(false), RedealRuling::Redeal { dealer: North, law: Law::rubber(10, "A1") });
    // Too late anyway: the deal stands whoever claims.
    let late = condition.ruling_on_claim(DealStage::Auction, North, North, true);
    assert!(matches!(late, RedealRuling::DealStands { .. }));
}

#[test]
fn law_7_a_marked_deck_is_replaced_only_if_noticed_before_the_last_card_is_dealt() {
    assert!(deck_change_due(DealStage::Dealing, false));
    assert!(!deck_change_due(DealStage::BeforeFirstCall, false));
    assert!(!deck_change_due(DealStage::Dealing, true), "Law 8: looking at a card forfeits the right");
}
