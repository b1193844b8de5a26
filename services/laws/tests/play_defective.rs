//! A defective trick found late (Law 67B in both codes; the Alternative Club Laws keep the
//! regular Law 67): a card missing from a trick, or a card too many, found after the time Law
//! 67A allows.

mod play_common;

use laws::penalty::PenaltyCardKind;
use laws::play::{Play, PlayError, PlayEvent, RevokeStatus};
use laws::{Code, Law, Seat, Side, Suit};
use play_common::{DEAL, Refused, card, record, recorded, start};

/// As [`DEAL`], but North holds five spades, four diamonds and a single club (the two), East six
/// clubs: spades N AKQJT, E 98, S 765, W 432; hearts N T98, E 765, S 432, W AKQJ; diamonds N
/// 7654, E 32, S AKQJ, W T98; clubs N 2, E AKQJ43, S T98, W 765.
const NORTH_ONE_CLUB: &str = "N:AKQJT.T98.7654.2 98.765.32.AKQJ43 765.432.AKQJ.T98 432.AKQJ.T98.765";

/// As [`DEAL`], but West holds no diamonds and six clubs, South seven diamonds and no clubs.
const WEST_VOID: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJT98. 432.AKQJ..T98765";

fn defective(play: &Play, offender: Seat, trick: u8, extra: Option<&str>) -> Play {
    play.defective_trick(offender, trick, extra.map(card)).unwrap_or_else(|e| panic!("{e}")).play
}

fn legal(play: &Play) -> Vec<String> {
    play.legal_cards().iter().map(|c| c.to_string()).collect()
}

/// Plays every remaining card digitally, the first legal card each time.
fn play_out(play: &Play) -> Play {
    let mut play = play.clone();
    while let Some(next) = play.legal_cards().iter().next() {
        play = play.card(next).unwrap_or_else(|e| panic!("{next}: {e}"));
    }
    play
}

/// 4S by North: East leads the club ace, dummy the eight, West the five, and North plays no
/// card: the trick is gathered with three cards.
fn north_missing(deal: &str, code: Code) -> Play {
    record(&start(deal, "4S", Seat::North, code), &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "C5")])
}

/// Duplicate Law 67B1: "the Director shall require him forthwith to expose a card face-up in
/// front of him and then place it appropriately among his played cards (this card does not
/// affect ownership of the trick); if (a) the offender has a card of the suit led to the
/// defective trick; he must choose such a card to place among his played cards. He is deemed to
/// have revoked on the defective trick and is subject to the loss of one trick transferred in
/// accordance with Law 64A2."
#[test]
fn duplicate_law_67b1a_a_missing_card_of_the_suit_led_is_a_revoke_costing_one_trick() {
    let play = north_missing(DEAL, Code::Duplicate);
    let after = defective(&play, Seat::North, 0, None);
    assert_eq!(after.defective_awaiting_card(), Some((Seat::North, 0)));
    assert_eq!(after.next_to_play(), Some(Seat::North));
    assert_eq!(legal(&after), vec!["C2", "C3", "C4"], "a card of the suit led");
    let err = after.record(Seat::North, card("HT")).refused();
    assert!(matches!(err, PlayError::CannotRecord { law, .. } if law == Law::duplicate(67, "B1")), "{err}");
    let placed = recorded(&after, Seat::North, "C4");
    assert!(placed.events.contains(&PlayEvent::Revoke { seat: Seat::North, trick: 0 }));
    let after = placed.play;
    assert_eq!(after.defective_awaiting_card(), None);
    assert_eq!(after.tricks()[0].card(Seat::North), Some(card("C4")));
    assert_eq!(after.tricks()[0].winner(), Some(Seat::East), "ownership does not change");
    let revoke = after.revokes()[0];
    assert_eq!((revoke.offender, revoke.trick, revoke.status), (Seat::North, 0, RevokeStatus::Established));
    assert_eq!(revoke.failure.law(), Law::duplicate(67, "B1"));
    assert!(revoke.attention.is_some());
    let over = play_out(&after);
    let transfer = over.revoke_transfer();
    assert_eq!(transfer.to[Side::EastWest.index()], 1, "{transfer:?}");
    assert_eq!(transfer.rulings[0].law, Law::duplicate(64, "A2"));
}

/// Duplicate Law 67B1(b): "the offender has no card of the suit led to the defective trick; he
/// chooses any card to place among his played cards. He is deemed to have revoked on the
/// defective trick". East leads a diamond, dummy wins with the ace, West (void) plays nothing
/// and North follows: West may place any card, even a trump, and the trick stays dummy's.
#[test]
fn duplicate_law_67b1b_without_the_suit_led_any_card_and_still_a_revoke() {
    let play = record(
        &start(WEST_VOID, "4S", Seat::North, Code::Duplicate),
        &[(Seat::East, "D2"), (Seat::South, "DA"), (Seat::North, "D5")],
    );
    let after = defective(&play, Seat::West, 0, None);
    assert_eq!(legal(&after).len(), 13, "any card he holds");
    let after = recorded(&after, Seat::West, "S2").play;
    assert_eq!(after.tricks()[0].winner(), Some(Seat::South), "his trump does not win it");
    assert_eq!(after.next_to_play(), Some(Seat::South));
    assert_eq!(after.revokes().len(), 1);
    assert_eq!(after.revokes()[0].offender, Seat::West);
}

/// Rubber Law 67B: "after the responsible player has played to a subsequent trick, the
/// ownership of the defective trick cannot be changed and 1. if the offender has failed to play
/// a card to the defective trick, he forthwith faces and adds a card to that trick, if possible
/// one he could legally have played to it." No revoke: the rubber Law gives none. North's only
/// club is the one card he could legally have played: it is placed at once. The Club Laws keep
/// the regular Law.
#[test]
fn rubber_law_67b1_a_missing_card_is_added_legally_and_ownership_stands() {
    for code in [Code::Rubber, Code::Club] {
        let play = north_missing(NORTH_ONE_CLUB, code);
        let done = play.defective_trick(Seat::North, 0, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(done.events.contains(&PlayEvent::CardPlayed { seat: Seat::North, card: card("C2"), trick: 0 }));
        let after = done.play;
        assert_eq!(after.tricks()[0].card(Seat::North), Some(card("C2")), "{code:?}");
        assert_eq!(after.tricks()[0].winner(), Some(Seat::East));
        assert!(after.revokes().is_empty(), "{code:?}: no revoke");
        assert_eq!(after.next_to_play(), Some(Seat::East));
        // With several clubs he chooses among them; the trick stays East's.
        let many = defective(&north_missing(DEAL, code), Seat::North, 0, None);
        assert_eq!(legal(&many), vec!["C2", "C3", "C4"]);
        let many = recorded(&many, Seat::North, "C3").play;
        assert_eq!(many.tricks()[0].winner(), Some(Seat::East));
        assert!(many.revokes().is_empty());
    }
}

/// Law 67B1 in both codes applies to the trick lacking the offender's card: a complete trick,
/// the trick of a hand that did play to it, and the leader's trick are refused.
#[test]
fn law_67b1_only_the_trick_in_progress_lacking_only_the_offenders_card() {
    for code in [Code::Duplicate, Code::Rubber] {
        let play = north_missing(DEAL, code);
        let err = play.defective_trick(Seat::West, 0, None).refused();
        assert!(matches!(err, PlayError::CannotRecord { law, .. } if law.number == 67), "{err}");
        let complete = recorded(&play, Seat::North, "C2").play;
        let err = complete.defective_trick(Seat::North, 0, None).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{err}");
        let err = complete.defective_trick(Seat::East, 1, None).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{err}");
    }
}

/// 4S by North, at the table: East leads the club ace, dummy the eight, West the five and the
/// seven together, North the two; East leads the king, dummy the nine, West his six, North the
/// three; East leads the queen, dummy the ten, West (no club left before him) the heart jack,
/// North the four; East leads the jack and dummy ruffs. The engine recorded the five as West's card, the seven
/// stayed in his hand in the engine, and his heart was a revoke, established by East's lead.
fn west_two_clubs(code: Code) -> Play {
    use Seat::*;
    record(
        &start(DEAL, "4S", North, code),
        &[
            (East, "CA"),
            (South, "C8"),
            (West, "C5"),
            (North, "C2"),
            (East, "CK"),
            (South, "C9"),
            (West, "C6"),
            (North, "C3"),
            (East, "CQ"),
            (South, "CT"),
            (West, "HJ"),
            (North, "C4"),
            (East, "CJ"),
            (South, "S5"),
        ],
    )
}

/// Duplicate Law 67B2: "(a) When the offender has played more than one card to the defective
/// trick, the Director inspects the played cards and requires the offender to restore to his
/// hand all extra cards, leaving among the played cards the one faced in playing to the
/// defective trick ... Ownership of the defective trick does not change. (b) A restored card is
/// deemed to have belonged continuously to the offender's hand, and a failure to have played it
/// to an earlier trick may constitute a revoke." Footnote 20: "if an extra card to be restored to
/// a defender's hand has been exposed, it becomes a penalty card (see Law 50)".
#[test]
fn duplicate_law_67b2_the_extra_card_is_restored_a_penalty_card_and_its_revoke_counts() {
    let play = west_two_clubs(Code::Duplicate);
    assert_eq!(play.revokes()[0].status, RevokeStatus::Established);
    assert!(play.revokes()[0].attention.is_none(), "nobody noticed it");
    let done = play.defective_trick(Seat::West, 0, Some(card("C7"))).unwrap_or_else(|e| panic!("{e}"));
    let after = done.play;
    assert_eq!(after.tricks()[0], play.tricks()[0], "the trick stands as it was, East's");
    assert!(after.hand(Seat::West).contains(card("C7")));
    let pc: Vec<_> = after.penalty_cards().map(|pc| (pc.card, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("C7"), PenaltyCardKind::Major, Law::duplicate(67, "B2"))]);
    assert!(after.revokes()[0].attention.is_some(), "the revoke on the third trick is pointed out");
    assert_eq!(legal(&after), vec!["C7"], "he follows with it now");
    let over = play_out(&after);
    let transfer = over.revoke_transfer();
    assert_eq!(transfer.to[Side::NorthSouth.index()], 1, "Law 64A2: {transfer:?}");
}

/// Rubber Law 67B2: "if the offender has played more than one card to the defective trick, he
/// withdraws all but one card, leaving the highest card he could legally have played to that
/// trick. A withdrawn card may become a penalty card (Law 50); such a card is deemed to have
/// belonged continuously to the offender's hand and failure to have played it to an earlier
/// trick may constitute a revoke." The seven stays on the trick and the five goes back, a minor
/// penalty card (a low card exposed inadvertently with another, Law 50); the trick stays East's.
#[test]
fn rubber_law_67b2_the_highest_legal_card_stays_and_the_other_is_withdrawn() {
    for code in [Code::Rubber, Code::Club] {
        let play = west_two_clubs(code);
        let done = play.defective_trick(Seat::West, 0, Some(card("C7"))).unwrap_or_else(|e| panic!("{e}"));
        let law = Law::rubber(67, "B2");
        assert!(done.events.contains(&PlayEvent::CardWithdrawn { seat: Seat::West, card: card("C5"), trick: 0, law }));
        let after = done.play;
        assert_eq!(after.tricks()[0].card(Seat::West), Some(card("C7")), "{code:?}");
        assert_eq!(after.tricks()[0].winner(), Some(Seat::East));
        assert!(after.hand(Seat::West).contains(card("C5")) && !after.hand(Seat::West).contains(card("C7")));
        let pc: Vec<_> = after.penalty_cards().map(|pc| (pc.card, pc.kind, pc.law)).collect();
        assert_eq!(pc, vec![(card("C5"), PenaltyCardKind::Minor, law)]);
        assert!(after.revokes()[0].attention.is_some(), "the consequent revoke is pointed out");
    }
}

/// Rubber Law 67B2, "the highest card he could legally have played": West, void in diamonds,
/// discarded the club five and the heart ace together on East's diamond; the ace is the higher,
/// so it stays, and the five goes back as a minor penalty card (Law 50). The trick stays South's
/// ("the ownership of the defective trick cannot be changed").
#[test]
fn rubber_law_67b2_the_higher_discard_of_another_suit_stays() {
    use Seat::*;
    let after_trick = |west: &str| {
        record(
            &start(WEST_VOID, "4S", North, Code::Rubber),
            &[(East, "D2"), (South, "DA"), (West, west), (North, "D5"), (South, "DK"), (West, "C6")],
        )
    };
    let after = defective(&after_trick("C5"), West, 0, Some("HA"));
    assert_eq!(after.tricks()[0].card(West), Some(card("HA")));
    assert_eq!(after.tricks()[0].winner(), Some(South));
    let pc: Vec<_> = after.penalty_cards().map(|pc| (pc.card, pc.kind)).collect();
    assert_eq!(pc, vec![(card("C5"), PenaltyCardKind::Minor)]);
    assert!(after.revokes().is_empty());
    // A lower card of another suit named as the extra one is withdrawn.
    let after = defective(&after_trick("HA"), West, 0, Some("C9"));
    assert_eq!(after.tricks()[0].card(West), Some(card("HA")));
    assert!(after.hand(West).contains(card("C9")));
}

/// Rubber Law 67B2 when the offender led: "he withdraws all but one card, leaving the highest
/// card he could legally have played to that trick", and "the ownership of the defective trick
/// cannot be changed". East led the two of diamonds with the club ace; any card was a legal lead,
/// so the ace, the higher, stays and the two goes back, a minor penalty card (Law 50). The others
/// followed the diamond they saw: the trick's suit led stays diamonds, so South and North
/// followed suit, West (void) showed out of diamonds, not clubs, and the trick stays South's.
#[test]
fn rubber_law_67b2_a_lead_replaced_by_a_higher_card_of_another_suit() {
    use Seat::*;
    let led = record(
        &start(WEST_VOID, "4S", North, Code::Rubber),
        &[
            (East, "D2"),
            (South, "DA"),
            (West, "C5"),
            (North, "D5"),
            (South, "DK"),
            (West, "C6"),
            (North, "D6"),
            (East, "D3"),
        ],
    );
    let done = led.defective_trick(East, 0, Some(card("CA"))).unwrap_or_else(|e| panic!("{e}"));
    let law = Law::rubber(67, "B2");
    assert!(done.events.contains(&PlayEvent::CardWithdrawn { seat: East, card: card("D2"), trick: 0, law }));
    let after = done.play;
    let first = after.tricks()[0];
    assert_eq!((first.leader(), first.card(East)), (East, Some(card("CA"))));
    assert_eq!(first.suit_led(), Some(Suit::Diamonds), "the suit the others followed");
    assert_eq!(first.winner(), Some(South));
    assert!(after.hand(East).contains(card("D2")) && !after.hand(East).contains(card("CA")));
    let pc: Vec<_> = after.penalty_cards().map(|pc| (pc.card, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("D2"), PenaltyCardKind::Minor, law)]);
    assert!(after.revokes().is_empty(), "a lead is no revoke, and the others followed the lead they saw");
}

/// Rubber Law 67B2: "leaving the highest card he could legally have played to that trick".
/// West, holding clubs, played the heart jack and the club seven to East's club ace; the engine
/// recorded the jack, a revoke, established when East led again. The seven, the card he could
/// legally play, stays; the jack goes back, a major penalty card (an honour, Law 50B), and the
/// revoke he no longer made is gone. The same in the Club Laws.
#[test]
fn rubber_law_67b2_the_card_that_follows_suit_stays_in_place_of_a_revoke() {
    use Seat::*;
    for code in [Code::Rubber, Code::Club] {
        let play = record(
            &start(DEAL, "4S", North, code),
            &[(East, "CA"), (South, "C8"), (West, "HJ"), (North, "C2"), (East, "CK"), (South, "C9"), (West, "C6")],
        );
        assert_eq!(play.revokes().len(), 1, "{code:?}: the jack was a revoke");
        let after = defective(&play, West, 0, Some("C7"));
        assert_eq!(after.tricks()[0].card(West), Some(card("C7")), "{code:?}");
        assert_eq!(after.tricks()[0].winner(), Some(East));
        let pc: Vec<_> = after.penalty_cards().map(|pc| (pc.card, pc.kind)).collect();
        assert_eq!(pc, vec![(card("HJ"), PenaltyCardKind::Major)]);
        assert!(after.revokes().is_empty(), "{code:?}: he followed suit after all");
    }
}

/// Duplicate Law 67B3: "When the Director determines that the offender did play a card to the
/// trick, but that card was not placed among the quitted tricks, the Director finds the card and
/// places it correctly among the offender's played cards." The record has West's five on the
/// first trick already: nothing changes. The rubber Law has no such case: the trick holds four
/// cards, and his five is no card of his hand.
#[test]
fn duplicate_law_67b3_a_card_not_among_the_quitted_tricks_is_placed_where_it_was_played() {
    let play = recorded(&north_missing(DEAL, Code::Duplicate), Seat::North, "C2").play;
    let play = recorded(&play, Seat::East, "CK").play;
    assert!(play.card_found_among_played(Seat::West, 0, card("C5")));
    let after = defective(&play, Seat::West, 0, Some("C5"));
    assert_eq!(after.tricks(), play.tricks());
    assert!(Seat::ALL.iter().all(|s| after.hand(*s) == play.hand(*s)));
    let rubber = recorded(&north_missing(DEAL, Code::Rubber), Seat::North, "C2").play;
    let rubber = recorded(&rubber, Seat::East, "CK").play;
    assert!(!rubber.card_found_among_played(Seat::West, 0, card("C5")));
    assert!(matches!(rubber.defective_trick(Seat::West, 0, Some(card("C5"))).refused(), PlayError::CardNotHeld { .. }));
}

/// Law 67B1 when more than one card is missing: "the player with a correspondingly incorrect
/// number of cards is held responsible" (rubber Law 67), each for his own card. East led the club
/// ace and dummy followed; neither West nor North played. Each is told in the order of play, adds
/// a card of the suit led, and the trick stays East's, as it was when found. Duplicate: each is
/// deemed to have revoked (67B1).
#[test]
fn law_67b1_several_cards_missing_each_offender_adds_his_own() {
    use Seat::*;
    for code in [Code::Duplicate, Code::Rubber] {
        let play = record(&start(DEAL, "4S", North, code), &[(East, "CA"), (South, "C8")]);
        let err = play.defective_trick(North, 0, None).refused();
        assert!(matches!(err, PlayError::CannotRecord { law, .. } if law.number == 67), "{code:?}: West first");
        let play = defective(&play, West, 0, None);
        assert_eq!(play.defective_awaiting_card(), Some((West, 0)));
        let play = recorded(&play, West, "C5").play;
        let play = defective(&play, North, 0, None);
        assert_eq!(play.defective_awaiting_card(), Some((North, 0)));
        let err = play.record(North, card("SA")).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{code:?}: {err}");
        let play = recorded(&play, North, "C2").play;
        assert_eq!(play.tricks()[0].winner(), Some(East));
        let revokes = play.revokes().iter().filter(|r| r.trick == 0).count();
        assert_eq!(revokes, if code == Code::Duplicate { 2 } else { 0 }, "{code:?}");
    }
}

/// Law 67A: found before a player of each side has played to the following trick (duplicate),
/// or before the offender has (rubber), the extra card is Law 67A's, as an extra card recorded
/// in time: duplicate Law 45E1, rubber Law 67A2.
#[test]
fn law_67a_an_extra_card_found_in_time_is_withdrawn_under_67a() {
    let first = |code| {
        record(
            &start(DEAL, "4S", Seat::North, code),
            &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "C5"), (Seat::North, "C2"), (Seat::East, "CK")],
        )
    };
    for (code, law) in [(Code::Duplicate, Law::duplicate(45, "E1")), (Code::Rubber, Law::rubber(67, "A2"))] {
        let after = defective(&first(code), Seat::West, 0, Some("C7"));
        assert_eq!(after.penalty_cards().map(|pc| pc.law).collect::<Vec<_>>(), vec![law]);
    }
    let err = first(Code::Duplicate).defective_trick(Seat::West, 0, Some(card("SA"))).refused();
    assert!(matches!(err, PlayError::CardNotHeld { .. }), "{err}");
}
