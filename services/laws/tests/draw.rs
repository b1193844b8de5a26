//! The draw: Law 3 (with the card order of Law 2), Appendix 4 H3 and the pivot of Appendix 4 B.

// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

use laws::cards::Card;
use laws::draw::{
    Deck, DrawAttempt, DrawError, DrawSeed, DrawnCard, PartnershipDraw, Partnerships, PivotSchedule, PlayerId,
    PrecedenceDraw, SeatChoice, Seating, Spread, SpreadPosition,
};
use laws::{CitesLaw, Law, Seat};
use proptest::prelude::*;

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn at(index: u8) -> SpreadPosition {
    SpreadPosition::new(index).unwrap()
}

fn p(id: u64) -> PlayerId {
    PlayerId(id)
}

fn drawn(player: u64, text: &str) -> DrawnCard {
    DrawnCard { player: p(player), card: card(text) }
}

fn attempt(player: u64, position: u8, shown: &str) -> DrawAttempt {
    DrawAttempt::one(p(player), Deck::First, at(position), Some(card(shown)))
}

#[test]
fn law_3_one_of_the_four_cards_at_either_end_must_be_drawn_again() {
    let spread = Spread::face_down(Deck::First);
    for position in [0, 1, 2, 3, 48, 49, 50, 51] {
        let err = spread.draw(&attempt(1, position, "SA")).unwrap_err();
        assert_eq!(err, DrawError::EndCard { player: p(1), position: at(position) });
        assert!(err.must_draw_again());
        assert_eq!(err.law(), Law::rubber(3, ""));
    }
    for position in [4, 47] {
        assert!(spread.draw(&attempt(1, position, "SA")).is_ok(), "position {position} is the fifth from an end");
    }
}

#[test]
fn law_3_a_player_who_draws_more_than_one_card_must_draw_again() {
    let spread = Spread::face_down(Deck::First);
    let two = DrawAttempt { player: p(1), deck: Deck::First, positions: vec![at(10), at(11)], card: Some(card("SA")) };
    let err = spread.draw(&two).unwrap_err();
    assert_eq!(err, DrawError::MoreThanOneCard { player: p(1), count: 2 });
    assert!(err.must_draw_again());
    assert_eq!(err.to_string(), "player 1 drew 2 cards at once; he must draw again, one card only (Law 3)");
}

#[test]
fn law_3_a_card_adjoining_one_drawn_by_another_player_must_be_drawn_again() {
    let (spread, _) = Spread::face_down(Deck::First).draw(&attempt(1, 20, "SA")).unwrap();
    for position in [19, 21] {
        let err = spread.draw(&attempt(2, position, "HK")).unwrap_err();
        assert_eq!(err, DrawError::AdjoiningCard { player: p(2), position: at(position), other: p(1) });
        assert!(err.must_draw_again());
    }
    assert!(spread.draw(&attempt(2, 22, "HK")).is_ok(), "one card between is enough");
}

#[test]
fn law_3_a_card_from_the_other_deck_must_be_drawn_again() {
    let spread = Spread::face_down(Deck::First);
    let other = DrawAttempt::one(p(1), Deck::Second, at(20), Some(card("SA")));
    let err = spread.draw(&other).unwrap_err();
    assert_eq!(err, DrawError::OtherDeck { player: p(1), spread: Deck::First });
    assert!(err.must_draw_again());
}

#[test]
fn law_3_a_refused_draw_leaves_the_spread_as_it_was_so_the_player_draws_again() {
    let (spread, _) = Spread::face_down(Deck::First).draw(&attempt(1, 20, "SA")).unwrap();
    let before = spread.clone();
    assert!(spread.draw(&attempt(2, 21, "HK")).is_err());
    assert_eq!(spread, before);
    let (spread, second) = spread.draw(&attempt(2, 30, "HK")).unwrap();
    assert_eq!(second.card, card("HK"));
    assert_eq!(spread.cards(), vec![drawn(1, "SA"), drawn(2, "HK")]);
}

#[test]
fn law_3_each_player_draws_one_card_and_each_card_once() {
    let (spread, _) = Spread::face_down(Deck::First).draw(&attempt(1, 20, "SA")).unwrap();
    assert_eq!(spread.draw(&attempt(1, 30, "HK")).unwrap_err(), DrawError::AlreadyDrew { player: p(1) });
    assert_eq!(spread.draw(&attempt(2, 20, "HK")).unwrap_err(), DrawError::AlreadyTaken { position: at(20), by: p(1) });
    let err = spread.draw(&attempt(2, 30, "SA")).unwrap_err();
    assert_eq!(err, DrawError::DuplicateCard { card: card("SA") });
    assert_eq!(err.law(), Law::rubber(1, ""), "a deck holds each card once");
    let unshown = DrawAttempt::one(p(2), Deck::First, at(30), None);
    assert_eq!(spread.draw(&unshown).unwrap_err(), DrawError::CardNotShown { player: p(2) });
    assert!(!DrawError::AlreadyDrew { player: p(1) }.must_draw_again());
}

#[test]
fn law_1_a_spread_has_fifty_two_positions() {
    assert_eq!(SpreadPosition::new(52), Err(DrawError::NoSuchPosition { index: 52 }));
    assert_eq!(SpreadPosition::new(52).unwrap_err().law(), Law::rubber(1, ""));
    assert!(SpreadPosition::new(51).is_ok());
}

#[test]
fn a_server_spread_checks_the_card_shown_against_the_face_at_that_position() {
    let spread = Spread::shuffled(Deck::Second, &DrawSeed([9; 32]));
    let face = spread.face(at(25)).unwrap();
    let (next, drawn) = spread.draw(&DrawAttempt::one(p(1), Deck::Second, at(25), None)).unwrap();
    assert_eq!(drawn.card, face);
    assert_eq!(next.card_of(p(1)), Some(face));
    let wrong = if face == card("SA") { card("SK") } else { card("SA") };
    let err = spread.draw(&DrawAttempt::one(p(1), Deck::Second, at(25), Some(wrong))).unwrap_err();
    assert_eq!(err, DrawError::CardMismatch { player: p(1), position: at(25), shown: wrong, face });
}

#[test]
fn law_3_the_two_highest_cards_play_together_and_the_highest_deals_first() {
    // Law 2: the king of spades beats the king of hearts (same rank: suit decides), and any
    // ace beats any king.
    let draw = PartnershipDraw::new([drawn(1, "HK"), drawn(2, "C3"), drawn(3, "SK"), drawn(4, "DA")]).unwrap();
    assert_eq!(draw.ranked().map(|d| d.player), [p(4), p(3), p(1), p(2)]);
    let result = draw.result(None, false);
    assert_eq!(result.first_dealer, p(4));
    assert_eq!(result.dealer_partner(), p(3));
    assert_eq!(result.opponents(), [p(1), p(2)]);
    assert!(!result.no_consecutive_applied);
}

#[test]
fn law_3_four_different_players_draw_four_different_cards() {
    let twice = PartnershipDraw::new([drawn(1, "HK"), drawn(1, "C3"), drawn(3, "SK"), drawn(4, "DA")]);
    assert_eq!(twice.unwrap_err(), DrawError::SamePlayerTwice { player: p(1) });
    let same = PartnershipDraw::new([drawn(1, "HK"), drawn(2, "HK"), drawn(3, "SK"), drawn(4, "DA")]);
    assert_eq!(same.unwrap_err(), DrawError::DuplicateCard { card: card("HK") });
}

#[test]
fn appendix_4_h3_if_two_partners_draw_each_other_again_highest_plays_with_third_highest() {
    let draw = PartnershipDraw::new([drawn(1, "SA"), drawn(2, "SK"), drawn(3, "SQ"), drawn(4, "SJ")]).unwrap();
    let last = Partnerships::new([p(1), p(2)], [p(3), p(4)]).unwrap();
    let result = draw.result(Some(&last), true);
    assert!(result.no_consecutive_applied);
    assert!(result.partnerships.are_partners(p(1), p(3)));
    assert!(result.partnerships.are_partners(p(2), p(4)));
    assert_eq!(result.first_dealer, p(1));
    assert_eq!(result.partnerships.repeated_from(&last), None);

    // The two lowest having been partners is also "drawing each other again".
    let last_low = Partnerships::new([p(3), p(4)], [p(1), p(9)]).unwrap();
    assert!(draw.result(Some(&last_low), true).no_consecutive_applied);

    // No repeat, or the club rule off: Law 3 as written.
    let last_other = Partnerships::new([p(1), p(3)], [p(2), p(4)]).unwrap();
    assert!(!draw.result(Some(&last_other), true).no_consecutive_applied);
    assert!(draw.result(Some(&last), false).partnerships.are_partners(p(1), p(2)));
}

#[test]
fn law_3_the_first_dealer_chooses_his_seat_and_deck_his_partner_sits_opposite_the_opponents_choose() {
    let result = PartnershipDraw::new([drawn(1, "SA"), drawn(2, "SK"), drawn(3, "SQ"), drawn(4, "SJ")])
        .unwrap()
        .result(None, false);
    let choice = SeatChoice { dealer_seat: Seat::East, deck: Deck::Second, dealer_lho: p(4) };
    let seating = Seating::choose(&result, choice).unwrap();
    assert_eq!(seating.player_at(Seat::East), p(1));
    assert_eq!(seating.player_at(Seat::West), p(2));
    assert_eq!(seating.player_at(Seat::South), p(4));
    assert_eq!(seating.player_at(Seat::North), p(3));
    assert_eq!((seating.first_dealer(), seating.deck()), (Seat::East, Deck::Second));
    assert_eq!(seating.seat_of(p(3)), Some(Seat::North));
    let partner_on_left = SeatChoice { dealer_lho: p(2), ..choice };
    assert_eq!(Seating::choose(&result, partner_on_left).unwrap_err(), DrawError::NotAnOpponent { player: p(2) });
}

#[test]
fn appendix_4_b_footnote_32_a_pivot_rotates_partnerships_so_each_pair_plays_once() {
    let result = PartnershipDraw::new([drawn(1, "SA"), drawn(2, "SK"), drawn(3, "SQ"), drawn(4, "SJ")])
        .unwrap()
        .result(None, false);
    let pivot = PivotSchedule::from_draw(&result);
    let mut pairs = Vec::new();
    for index in 0..PivotSchedule::RUBBERS {
        let partnerships = pivot.partnerships(index).unwrap();
        pairs.extend(partnerships.sides().map(|mut side| {
            side.sort();
            side
        }));
    }
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "every one of the six pairs of four players partners exactly once");
    assert!(pivot.partnerships(0).unwrap().same_as(&result.partnerships), "the first rubber is the draw's");
    assert_eq!(pivot.partnerships(3), None, "a pivot is three rubbers");
    assert!(pivot.is_for(&[p(4), p(3), p(2), p(1)]));
    assert_eq!(PivotSchedule::new([p(1), p(2), p(1), p(4)]).unwrap_err(), DrawError::NotFourPlayers { player: p(1) });
}

#[test]
fn rule_c_precedence_by_draw_goes_to_the_highest_card() {
    let draw = PrecedenceDraw::new(&[drawn(1, "D7"), drawn(2, "C7"), drawn(3, "H7"), drawn(4, "C8")]).unwrap();
    assert_eq!(draw.ranked().collect::<Vec<_>>(), vec![p(4), p(3), p(1), p(2)]);
    assert_eq!(draw.order(&[p(2), p(3)]), vec![p(3), p(2)]);
    assert!(draw.covers(&[p(1), p(4)]));
    assert!(!draw.covers(&[p(1), p(5)]));
    assert_eq!(
        PrecedenceDraw::new(&[drawn(1, "D7"), drawn(1, "C7")]).unwrap_err(),
        DrawError::SamePlayerTwice { player: p(1) }
    );
}

#[test]
fn a_server_draw_is_replayed_exactly_from_its_seed() {
    let seed = DrawSeed([3; 32]);
    let players: Vec<PlayerId> = (1..=4).map(p).collect();
    let first = Spread::server_draw(Deck::First, &seed, &players).unwrap();
    assert_eq!(first, Spread::server_draw(Deck::First, &seed, &players).unwrap());
    assert_ne!(first, Spread::server_draw(Deck::First, &DrawSeed([4; 32]), &players).unwrap());
    assert!(seed.verifies(&seed.commitment()));
    assert!(!DrawSeed([4; 32]).verifies(&seed.commitment()));
    assert_eq!(format!("{seed:?}"), "DrawSeed(..)", "a logged seed would reveal the spread");
    // The algorithm is part of the platform's contract: this draw must never change.
    let record: Vec<String> =
        first.drawn().iter().map(|d| format!("{}@{}={}", d.player.0, d.position, d.card)).collect();
    assert_eq!(record, PINNED_SERVER_DRAW);
}

const PINNED_SERVER_DRAW: [&str; 4] = ["1@26=SA", "2@40=D5", "3@29=CT", "4@35=S8"];

#[test]
fn a_server_draw_refuses_a_player_twice() {
    let err = Spread::server_draw(Deck::First, &DrawSeed([3; 32]), &[p(1), p(1)]).unwrap_err();
    assert_eq!(err, DrawError::AlreadyDrew { player: p(1) });
}

proptest! {
    #[test]
    fn server_draws_are_always_legal_under_law_3(seed in any::<[u8; 32]>(), count in 1usize..=Spread::ALWAYS_ROOM_FOR) {
        let players: Vec<PlayerId> = (0..count as u64).map(p).collect();
        let spread = Spread::server_draw(Deck::First, &DrawSeed(seed), &players).unwrap();
        let drawn = spread.drawn();
        prop_assert_eq!(drawn.len(), count);
        for (i, d) in drawn.iter().enumerate() {
            prop_assert_eq!(d.player, players[i]);
            prop_assert!(!d.position.is_at_end(), "Law 3: not one of the four cards at either end");
            prop_assert_eq!(spread.face(d.position), Some(d.card));
            for other in &drawn[..i] {
                prop_assert!(!d.position.adjoins(other.position), "Law 3: not adjoining another player's card");
                prop_assert_ne!(d.position, other.position);
                prop_assert_ne!(d.card, other.card);
            }
        }
    }

    #[test]
    fn legal_positions_are_exactly_the_draws_law_3_accepts(seed in any::<[u8; 32]>(), position in 0u8..52) {
        let spread = Spread::server_draw(Deck::First, &DrawSeed(seed), &[p(1), p(2), p(3)]).unwrap();
        let legal: Vec<SpreadPosition> = spread.legal_positions(p(4)).collect();
        let accepted = spread.draw(&DrawAttempt::one(p(4), Deck::First, at(position), None)).is_ok();
        prop_assert_eq!(accepted, legal.contains(&at(position)));
    }
}
