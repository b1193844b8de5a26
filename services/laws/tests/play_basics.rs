//! Correct procedure of the play (Laws 41-45, 65) in both codes, digital refusals, and the
//! properties every legal play has.

mod play_common;

use laws::play::{Play, PlayError, PlayEvent};
use laws::{Card, CardSet, CitesLaw, Code, Contract, Deal, DealSeed, DeclaredContract, Law, Seat, Side, Suit};
use play_common::{DEAL, Refused, card, cards, recorded, start};
use proptest::prelude::*;

#[test]
fn law_41_the_opening_lead_is_made_by_declarers_left_hand_opponent() {
    for declarer in Seat::ALL {
        let play = start(DEAL, "3NT", declarer, Code::Rubber);
        assert_eq!(play.next_to_play(), Some(declarer.lho()));
        assert_eq!(play.actor(), Some(declarer.lho()));
    }
}

#[test]
fn law_41_dummy_is_spread_only_after_the_opening_lead_is_faced() {
    let play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    assert!(!play.dummy_visible());
    assert!(play.faced_hands().is_empty());
    assert_eq!(play.visible_to(Seat::East)[Seat::South.index()], CardSet::EMPTY, "dummy is hidden before the lead");
    let after = recorded(&play, Seat::East, "CA");
    assert!(after.events.contains(&PlayEvent::DummyFaced { dummy: Seat::South }));
    let play = after.play;
    assert!(play.dummy_visible());
    assert!(play.faced_hands().contains(Seat::South));
    assert_eq!(play.visible_to(Seat::East)[Seat::South.index()], play.hand(Seat::South));
    assert_eq!(play.visible_to(Seat::East)[Seat::West.index()], CardSet::EMPTY, "partner's hand stays hidden");
}

#[test]
fn law_41d_declarer_plays_dummys_cards() {
    // Declarer North; East leads, dummy South plays second: the actor is declarer.
    let play = cards(&start(DEAL, "4S", Seat::North, Code::Duplicate), &["CA"]);
    assert_eq!(play.next_to_play(), Some(Seat::South));
    assert_eq!(play.actor(), Some(Seat::North));
}

#[test]
fn law_44c_a_player_must_follow_suit_if_possible() {
    let play = cards(&start(DEAL, "4S", Seat::North, Code::Rubber), &["CA"]);
    let err = play.card(card("D2")).refused();
    assert!(matches!(err, PlayError::NotYourTurn { holder: Seat::East, turn: Seat::South, .. }), "{err}");
    let err = play.card(card("DA")).refused();
    // The rubber text prints Law 44 without section letters; the duplicate text letters it.
    assert_eq!(
        err.to_string(),
        "South must follow suit to clubs: the DA would be a revoke (Law 44 of the Laws of Rubber Bridge)"
    );
    assert_eq!(err.law(), Law::rubber(44, ""));
    let duplicate = cards(&start(DEAL, "4S", Seat::North, Code::Duplicate), &["CA"]);
    assert_eq!(duplicate.card(card("DA")).refused().law(), Law::duplicate(44, "C"));
    assert_eq!(play.legal_cards(), play.hand(Seat::South).suit(Suit::Clubs));
}

#[test]
fn law_44d_a_player_unable_to_follow_may_play_any_card() {
    // East holds no spade here; North leads one.
    let pbn = "N:AKQJT.32.765.432 .T98765.432.AKQJ 98765.4.AKQJ.T98 432.AKQJ.T98.765";
    let play = cards(&start(pbn, "3NT", Seat::West, Code::Duplicate), &["SA"]);
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert_eq!(play.legal_cards(), play.hand(Seat::East));
}

#[test]
fn law_44e_to_g_the_highest_trump_wins_and_the_winner_leads_from_that_hand() {
    // Spades are trumps. East leads the club ace; South (declarer's dummy? no: declarer North,
    // dummy South) follows; West follows; North follows. Then East leads a heart: West wins it.
    let play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    let play = cards(&play, &["CA", "CT", "C5", "C2"]);
    assert_eq!(play.tricks()[0].winner(), Some(Seat::East), "Law 44F: highest card of the suit led");
    assert_eq!(play.next_to_play(), Some(Seat::East), "Law 44G");
    let play = cards(&play, &["H5", "H2", "HA", "H8"]);
    assert_eq!(play.tricks()[1].winner(), Some(Seat::West));
    assert_eq!(play.next_to_play(), Some(Seat::West));
    // Dummy wins a trick: the lead comes from dummy's hand (duplicate Law 44G).
    let play = cards(&play, &["DT", "D5", "D2", "DA"]);
    assert_eq!(play.tricks()[2].winner(), Some(Seat::South));
    assert_eq!(play.next_to_play(), Some(Seat::South));
    assert_eq!(play.actor(), Some(Seat::North));
}

#[test]
fn law_44e_a_ruff_beats_a_higher_card_of_the_suit_led() {
    // East is void in spades and ruffs with a heart at a heart contract.
    let pbn = "N:AKQJT.32.765.432 .T98765.432.AKQJ 98765.4.AKQJ.T98 432.AKQJ.T98.765";
    let play = start(pbn, "4H", Seat::South, Code::Rubber);
    // West leads the spade two, North the ace, East ruffs with the heart five, South follows.
    let play = cards(&play, &["S2", "SA", "H5", "S5"]);
    assert_eq!(play.tricks()[0].winner(), Some(Seat::East));
    assert_eq!(play.tricks_won(Side::EastWest), 1);
}

#[test]
fn law_45_a_card_already_played_cannot_be_played_again() {
    let play = cards(&start(DEAL, "4S", Seat::North, Code::Duplicate), &["CA", "CT", "C5", "C2"]);
    let err = play.card(card("CA")).refused();
    assert!(matches!(err, PlayError::CardAlreadyPlayed { .. }), "{err}");
    assert_eq!(err.law(), Law::duplicate(45, ""));
    let err = play.record(Seat::East, card("CT")).refused();
    assert_eq!(err.to_string(), "East does not hold the CT (Law 45A of the Laws of Duplicate Bridge)");
}

#[test]
fn rules_for_club_procedure_govern_no_play() {
    let deal: Deal = DEAL.parse().unwrap_or_else(|e| panic!("{e}"));
    let contract: Contract = "1NT".parse().unwrap_or_else(|e| panic!("{e}"));
    let err =
        Play::new(deal, DeclaredContract { contract, declarer: Seat::North }, Code::ClubProcedure, vec![], vec![])
            .refused();
    assert!(matches!(err, PlayError::UnsupportedCode { .. }));
    let chicago = Play::new(deal, DeclaredContract { contract, declarer: Seat::North }, Code::Chicago, vec![], vec![])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(chicago.code(), Code::Rubber, "Chicago is played under the Laws of Rubber Bridge");
}

#[test]
fn law_44_thirteen_tricks_end_the_play() {
    let mut play = start(DEAL, "7NT", Seat::South, Code::Duplicate);
    while let Some(card) = play.legal_cards().iter().next() {
        play = play.card(card).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(play.is_complete());
    assert_eq!(play.tricks().len(), 13);
    assert_eq!(play.tricks_won(Side::NorthSouth) + play.tricks_won(Side::EastWest), 13);
    let err = play.card(card("SA")).refused();
    assert!(matches!(err, PlayError::PlayOver { .. }));
    let result = play.result().unwrap_or_else(|| panic!("over"));
    assert_eq!(result.tricks(Side::NorthSouth), play.tricks_won(Side::NorthSouth));
    assert_eq!(play.declarer_tricks(), Some(play.tricks_won(Side::NorthSouth)));
}

/// The winner of a trick computed without the crate: highest trump, else highest card of the
/// suit led.
fn independent_winner(leader: Seat, cards: [Option<Card>; 4], trumps: Option<Suit>) -> Seat {
    let led = cards[leader.index()].map(|c| c.suit);
    let rank_of = |seat: Seat| {
        let c = cards[seat.index()].unwrap_or_else(|| panic!("complete trick"));
        let class = if Some(c.suit) == trumps {
            2
        } else if Some(c.suit) == led {
            1
        } else {
            0
        };
        (class, c.rank as u8)
    };
    Seat::ALL.into_iter().max_by_key(|s| rank_of(*s)).unwrap_or(leader)
}

fn contract_strategy() -> impl Strategy<Value = (String, Seat)> {
    (1u8..=7, prop::sample::select(vec!["C", "D", "H", "S", "NT"]), 0usize..4)
        .prop_map(|(level, denomination, seat)| (format!("{level}{denomination}"), Seat::from_index(seat)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every random legal play of a random deal has thirteen complete tricks whose winners
    /// match an independent computation (Law 44E-F), each trick led by the previous winner
    /// (Law 44G), the two sides' tricks summing to thirteen; replaying the same cards through
    /// `record` gives the same state at every step, and replaying twice gives equal states.
    #[test]
    fn every_legal_play_is_thirteen_tricks_and_replays_identically(
        seed in prop::array::uniform32(any::<u8>()),
        (contract, declarer) in contract_strategy(),
        duplicate in any::<bool>(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 52),
    ) {
        let deal = Deal::from_seed(&DealSeed(seed));
        let contract: Contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
        let code = if duplicate { Code::Duplicate } else { Code::Rubber };
        let start = Play::new(deal, DeclaredContract { contract, declarer }, code, vec![], vec![])
            .unwrap_or_else(|e| panic!("{e}"));
        let mut play = start.clone();
        let mut recorded = start.clone();
        let mut sequence = Vec::new();
        for pick in &picks {
            let legal = play.legal_cards();
            prop_assert!(!legal.is_empty(), "a player always has a legal card");
            let seat = play.next_to_play().unwrap_or_else(|| panic!("not over"));
            let card = pick.get(&legal.iter().collect::<Vec<_>>()).to_owned();
            // Every card outside the legal set is refused, every card in it accepted.
            for other in play.hand(seat).iter().filter(|c| !legal.contains(*c)) {
                prop_assert!(play.card(other).is_err());
            }
            play = play.card(card).unwrap_or_else(|e| panic!("{e}"));
            let at_table = recorded.record(seat, card).unwrap_or_else(|e| panic!("{e}"));
            let revoked = at_table.events.iter().any(|e| matches!(e, PlayEvent::Revoke { .. }));
            prop_assert!(!revoked, "a legal card is no revoke");
            recorded = at_table.play;
            prop_assert_eq!(&recorded, &play);
            sequence.push(card);
        }
        prop_assert!(play.is_complete());
        prop_assert_eq!(play.tricks().len(), 13);
        let trumps = play.trumps();
        let mut leader = contract_leader(declarer);
        let mut seen = CardSet::EMPTY;
        for trick in play.tricks() {
            prop_assert!(trick.is_complete());
            prop_assert_eq!(trick.leader(), leader);
            for c in trick.cards().iter().flatten() {
                prop_assert!(seen.insert(*c), "each card is played once");
            }
            let winner = independent_winner(trick.leader(), trick.cards(), trumps);
            prop_assert_eq!(trick.winner(), Some(winner));
            leader = winner;
        }
        prop_assert_eq!(seen, CardSet::PACK);
        let ns = play.tricks().iter().filter(|t| t.winner().map(Seat::side) == Some(Side::NorthSouth)).count() as u8;
        prop_assert_eq!(play.tricks_won(Side::NorthSouth), ns);
        prop_assert_eq!(play.tricks_won(Side::NorthSouth) + play.tricks_won(Side::EastWest), 13);
        let again = sequence.iter().try_fold(start, |p, c| p.card(*c)).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(again, play);
    }
}

fn contract_leader(declarer: Seat) -> Seat {
    declarer.lho()
}
