//! Claims and concessions (Laws 68-71 of both codes, Club Laws 69-70) and the mechanical claim
//! helpers.

mod play_common;

use laws::play::{
    Claim, ClaimResponse, ClaimStatus, DrawnBy, OutstandingTrumpTest, Play, PlayError, RevisionGround, RevokeStatus,
    SEARCH_LIMIT, winner,
};
use laws::{Card, CardSet, CitesLaw, Code, Contract, Deal, DealSeed, DeclaredContract, Law, Seat, Side, Suit};
use play_common::{DEAL, Refused, card, cards, recorded, start};
use proptest::prelude::*;

/// 4S by North after the first trick (East won the club ace); 12 tricks remain.
fn in_play(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::North, code), &["CA", "CT", "C5", "C2"])
}

#[test]
fn law_69_declarers_claim_agreed_by_both_defenders_ends_the_play() {
    for code in [Code::Rubber, Code::Duplicate] {
        let play = in_play(code);
        let claimed = play
            .claim(Claim::new(Seat::North, 10, "drawing trumps, then my diamonds"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(claimed.is_suspended());
        assert!(claimed.faced_hands().contains(Seat::North), "the claimer faces his hand");
        assert!(matches!(claimed.card(card("C3")), Err(PlayError::PlaySuspended { .. })));
        let one = claimed.respond_to_claim(ClaimResponse::Agree(Seat::East)).unwrap_or_else(|e| panic!("{e}"));
        assert!(one.is_suspended(), "both defenders must agree");
        let both = one.respond_to_claim(ClaimResponse::Agree(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
        assert!(both.is_complete());
        let result = both.result().unwrap_or_else(|| panic!("over"));
        assert_eq!(result.tricks(Side::NorthSouth), 10);
        assert_eq!(result.tricks(Side::EastWest), 3, "one won in play, two conceded");
        assert_eq!(both.declarer_tricks(), Some(10));
        assert_eq!(both.claims()[0].status, ClaimStatus::Agreed);
        assert_eq!(both.claims()[0].claim.statement, "drawing trumps, then my diamonds");
    }
}

#[test]
fn law_68_a_claim_of_more_tricks_than_remain_and_a_claim_by_dummy_are_refused() {
    let play = in_play(Code::Duplicate);
    let err = play.claim(Claim::new(Seat::North, 13, "all")).refused();
    assert_eq!(err.to_string(), "13 tricks named but only 12 remain (Law 68 of the Laws of Duplicate Bridge)");
    let err = play.claim(Claim::new(Seat::South, 12, "all")).refused();
    assert_eq!(err.law(), Law::duplicate(43, "A1(c)"));
    let err = play.respond_to_claim(ClaimResponse::Agree(Seat::East)).refused();
    assert!(matches!(err, PlayError::NoClaim { .. }));
}

#[test]
fn law_69_rubber_a_disputed_claim_is_not_allowed_and_play_continues_with_declarers_hand_face_up() {
    let play = in_play(Code::Rubber);
    let claimed = play.claim(Claim::new(Seat::North, 12, "all the rest")).unwrap_or_else(|e| panic!("{e}"));
    let disputed = claimed.respond_to_claim(ClaimResponse::Dispute(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(disputed.claims()[0].status, ClaimStatus::PlayContinued);
    assert!(!disputed.is_suspended());
    assert!(disputed.faced_hands().contains(Seat::North));
    assert_eq!(disputed.visible_to(Seat::West)[Seat::North.index()], disputed.hand(Seat::North));
    assert!(disputed.card(card("CK")).is_ok(), "East leads on");
    let err = disputed.adjudicate(12).refused();
    assert!(matches!(err, PlayError::NothingToAdjudicate { .. }));
    // Only a defender may dispute declarer's claim under the rubber Laws.
    let err = claimed.respond_to_claim(ClaimResponse::Dispute(Seat::South)).refused();
    assert_eq!(err.law(), Law::rubber(69, ""));
}

#[test]
fn club_law_69_a_disputed_claim_is_adjudicated_by_the_arbiter() {
    let play = in_play(Code::Club);
    let claimed = play.claim(Claim::new(Seat::North, 12, "all the rest")).unwrap_or_else(|e| panic!("{e}"));
    let disputed = claimed.respond_to_claim(ClaimResponse::Dispute(Seat::East)).unwrap_or_else(|e| panic!("{e}"));
    assert!(disputed.is_suspended());
    let err = disputed.adjudicate(13).refused();
    assert_eq!(err.law(), Law::club(69, ""));
    let ruled = disputed.adjudicate(11).unwrap_or_else(|e| panic!("{e}"));
    assert!(ruled.is_complete());
    assert_eq!(ruled.result().map(|r| r.tricks(Side::NorthSouth)), Some(11));
    assert_eq!(ruled.claims()[0].awarded, Some(11));
}

#[test]
fn law_70_duplicate_dummy_may_doubt_the_director_adjudicates_or_all_four_play_on() {
    let play = in_play(Code::Duplicate);
    let claimed = play.claim(Claim::new(Seat::East, 3, "two hearts and a club")).unwrap_or_else(|e| panic!("{e}"));
    // A defender's claim needs declarer's agreement; dummy may doubt it (Law 68D2).
    let err = claimed.respond_to_claim(ClaimResponse::Agree(Seat::South)).refused();
    assert!(matches!(err, PlayError::ClaimResponseRefused { .. }));
    let doubted = claimed.respond_to_claim(ClaimResponse::Dispute(Seat::South)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doubted.claims()[0].status, ClaimStatus::Disputed);
    let ruled = doubted.adjudicate(2).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ruled.result().map(|r| r.tricks(Side::EastWest)), Some(1 + 2));
    // Or all four agree to play on: the claim is void and play continues (Law 68D2(b)).
    let on = doubted.respond_to_claim(ClaimResponse::PlayOn).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(on.claims()[0].status, ClaimStatus::PlayContinued);
    assert!(!on.faced_hands().contains(Seat::East));
    assert!(on.card(card("CK")).is_ok());
    // Declarer agreeing ends it.
    let agreed = claimed.respond_to_claim(ClaimResponse::Agree(Seat::North)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(agreed.result().map(|r| r.tricks(Side::EastWest)), Some(4));
}

#[test]
fn law_68b2_a_defenders_concession_his_partner_objects_to_is_no_concession() {
    // West revokes on trick 2 and East then concedes the rest; West objects at once.
    let play = cards(&in_play(Code::Duplicate), &["H5", "H2"]);
    let play = recorded(&play, Seat::West, "S2").play;
    let play = recorded(&play, Seat::North, "H8").play;
    let conceded = play.claim(Claim::concede_all(Seat::East, "the rest are yours")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(conceded.revokes()[0].status, RevokeStatus::Established, "Law 63A3");
    let objected =
        conceded.respond_to_claim(ClaimResponse::PartnerObjects(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(objected.claims()[0].status, ClaimStatus::Withdrawn);
    assert!(!objected.is_suspended());
    assert_eq!(objected.revokes()[0].status, RevokeStatus::Unestablished, "there was no concession");
    assert!(objected.draw_attention_to_revoke(Seat::West, 1, DrawnBy::Player).is_ok());
    // Under rubber Law 71C the concession is withdrawn, but it was made.
    let rubber = cards(&in_play(Code::Rubber), &["H5", "H2"]);
    let rubber = recorded(&recorded(&rubber, Seat::West, "S2").play, Seat::North, "H8").play;
    let withdrawn = rubber
        .claim(Claim::concede_all(Seat::East, "yours"))
        .and_then(|p| p.respond_to_claim(ClaimResponse::PartnerObjects(Seat::West)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(withdrawn.revokes()[0].status, RevokeStatus::Established);
    // Rubber Law 71C: "... and his partner immediately objects, but Law 16 may apply"; duplicate
    // Law 68B2 likewise. Reserved against the conceding side, for redress at the end of play.
    let reserved =
        |p: &laws::play::Play| p.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect::<Vec<_>>();
    assert_eq!(reserved(&withdrawn), vec![(Side::EastWest, Law::rubber(71, "C"))]);
    assert_eq!(reserved(&objected), vec![(Side::EastWest, Law::duplicate(68, "B2"))]);
    // Only the partner of a conceding defender may object.
    let err = play
        .claim(Claim::new(Seat::North, 11, "all"))
        .and_then(|p| p.respond_to_claim(ClaimResponse::PartnerObjects(Seat::South)))
        .refused();
    assert_eq!(err.law(), Law::duplicate(68, "B2"));
}

#[test]
fn law_69_rubber_a_defenders_mixed_cards_make_declarers_claim_allowed() {
    let play = in_play(Code::Rubber).claim(Claim::new(Seat::North, 12, "all")).unwrap_or_else(|e| panic!("{e}"));
    let allowed = play.respond_to_claim(ClaimResponse::CardsMixed(Seat::East)).unwrap_or_else(|e| panic!("{e}"));
    assert!(allowed.is_complete());
    let dup = in_play(Code::Duplicate).claim(Claim::new(Seat::North, 12, "all")).unwrap_or_else(|e| panic!("{e}"));
    assert!(dup.respond_to_claim(ClaimResponse::CardsMixed(Seat::East)).is_err());
}

#[test]
fn laws_69b_and_71_tricks_of_a_settled_claim_are_given_back() {
    let agreed = in_play(Code::Duplicate)
        .claim(Claim::new(Seat::North, 10, "ten tricks"))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Agree(Seat::East)))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Agree(Seat::West)))
        .unwrap_or_else(|e| panic!("{e}"));
    // Declarer conceded two tricks that could not be lost by any normal play (Law 71B).
    let cancelled =
        agreed.revise_claim(Side::NorthSouth, 1, RevisionGround::CouldNotBeLost).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cancelled.claims()[0].revisions[0].law, Law::duplicate(71, "B"));
    assert_eq!(cancelled.result().map(|r| r.tricks(Side::NorthSouth)), Some(11));
    // The defenders withdraw their agreement for a trick they would likely have won (69B2).
    let withdrawn =
        agreed.revise_claim(Side::EastWest, 1, RevisionGround::WouldLikelyHaveWon).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(withdrawn.claims()[0].revisions[0].law, Law::duplicate(69, "B2"));
    assert_eq!(withdrawn.declarer_tricks(), Some(9));
    // No more than the claim gave.
    let err = agreed.revise_claim(Side::NorthSouth, 3, RevisionGround::TrickAlreadyWon).refused();
    assert_eq!(
        err.to_string(),
        "North-South can be given back at most 2 tricks of this claim (Law 71A of the Laws of Duplicate Bridge)"
    );
    // "Would likely have won" is no ground to cancel a concession.
    assert!(agreed.revise_claim(Side::NorthSouth, 1, RevisionGround::WouldLikelyHaveWon).is_err());
    // In rubber bridge agreeing is conceding (Law 70), so Law 71 covers the defenders too.
    let rubber = in_play(Code::Rubber)
        .claim(Claim::new(Seat::North, 10, "ten tricks"))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Agree(Seat::East)))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Agree(Seat::West)))
        .unwrap_or_else(|e| panic!("{e}"));
    let revised =
        rubber.revise_claim(Side::EastWest, 1, RevisionGround::CouldNotBeLost).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(revised.claims()[0].revisions[0].law, Law::rubber(71, "B"));
}

#[test]
fn law_70c_the_outstanding_trump_test_needs_all_three_conditions() {
    let all = OutstandingTrumpTest {
        statement_mentions_trump: false,
        at_all_likely_unaware: true,
        could_lose_by_normal_play: true,
    };
    assert!(all.awards_trick());
    assert!(!OutstandingTrumpTest { statement_mentions_trump: true, ..all }.awards_trick());
    assert!(!OutstandingTrumpTest { at_all_likely_unaware: false, ..all }.awards_trick());
    assert!(!OutstandingTrumpTest { could_lose_by_normal_play: false, ..all }.awards_trick());
    assert_eq!(OutstandingTrumpTest::law(Code::Duplicate), Some(Law::duplicate(70, "C")));
    assert_eq!(OutstandingTrumpTest::law(Code::Club), Some(Law::club(69, "B")));
    assert_eq!(OutstandingTrumpTest::law(Code::Rubber), None, "rubber Law 69B: defenders choose draw or not");
    let play = in_play(Code::Duplicate);
    let outstanding = play.outstanding_trumps(Seat::North);
    assert_eq!(outstanding, play.hand(Seat::East).suit(Suit::Spades).union(play.hand(Seat::West).suit(Suit::Spades)));
    assert_eq!(play.trump_could_win_a_trick(Seat::North), None, "too many tricks left to search");
}

/// The fewest tricks `side` wins over every legal continuation, by plain recursion.
fn naive_fewest(hands: [CardSet; 4], leader: Seat, trick: Vec<(Seat, Card)>, trumps: Option<Suit>, side: Side) -> u8 {
    if trick.len() == 4 {
        let mut cards = [None; 4];
        for (seat, card) in &trick {
            cards[seat.index()] = Some(*card);
        }
        let won_by = winner(leader, &cards, trumps).unwrap_or(leader);
        let won = u8::from(won_by.side() == side);
        if hands.iter().all(|h| h.is_empty()) {
            return won;
        }
        return won + naive_fewest(hands, won_by, Vec::new(), trumps, side);
    }
    let seat = leader.after(trick.len());
    let led = trick.first().map(|(_, c)| c.suit);
    let hand = hands[seat.index()];
    let legal = match led {
        Some(s) if hand.has_suit(s) => hand.suit(s),
        _ => hand,
    };
    legal
        .iter()
        .map(|c| {
            let mut h = hands;
            h[seat.index()].remove(c);
            let mut t = trick.clone();
            t.push((seat, c));
            naive_fewest(h, leader, t, trumps, side)
        })
        .min()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Near the end of a random legal play, the tricks a side is certain of (Law 71B's "could
    /// not be lost") equal the minimum found by plain recursion over every legal continuation,
    /// and never exceed what it wins in any particular continuation.
    #[test]
    fn tricks_certain_is_the_minimum_over_every_legal_continuation(
        seed in prop::array::uniform32(any::<u8>()),
        denomination in prop::sample::select(vec!["C", "D", "H", "S", "NT"]),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 52),
        stop in 40usize..=48,
    ) {
        let deal = Deal::from_seed(&DealSeed(seed));
        let contract: Contract = format!("3{denomination}").parse().unwrap_or_else(|e| panic!("{e}"));
        let mut play = Play::new(deal, DeclaredContract { contract, declarer: Seat::South }, Code::Duplicate, vec![], vec![])
            .unwrap_or_else(|e| panic!("{e}"));
        for pick in picks.iter().take(stop) {
            let legal: Vec<Card> = play.legal_cards().iter().collect();
            play = play.card(*pick.get(&legal)).unwrap_or_else(|e| panic!("{e}"));
        }
        let trick = play.current_trick().copied().unwrap_or_else(|| panic!("in play"));
        let hands = Seat::ALL.map(|s| play.hand(s));
        for side in Side::ALL {
            let certain = play.tricks_certain(side).unwrap_or_else(|| panic!("within {SEARCH_LIMIT}"));
            let naive = naive_fewest(hands, trick.leader(), trick.in_order().collect(), play.trumps(), side);
            prop_assert_eq!(certain, naive);
            let mut rest = play.clone();
            for pick in picks.iter().skip(stop) {
                let legal: Vec<Card> = rest.legal_cards().iter().collect();
                if legal.is_empty() { break; }
                rest = rest.card(*pick.get(&legal)).unwrap_or_else(|e| panic!("{e}"));
            }
            prop_assert!(rest.tricks_won(side) - play.tricks_won(side) >= certain);
        }
    }
}
