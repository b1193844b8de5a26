//! A surplus card led or played to a trick (rubber Law 12B2, which the Club Laws keep; duplicate
//! Law 13C). A surplus card found in the hand is recorded by the table (rubber Law 12B1: no
//! penalty), see the table's tests.

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{PlayOption, Seats, Situation};
use laws::play::{Play, PlayError, PlayEvent};
use laws::{CitesLaw, Code, Law, Seat, Side};
use play_common::{DEAL, Refused, card, record, recorded, start};

/// As [`DEAL`], but West holds no diamonds and six clubs, South seven diamonds and no clubs:
/// spades N AKQJ, E T98, S 765, W 432; hearts W AKQJ, N T98, E 765, S 432; diamonds S AKQJT98,
/// N 765, E 432; clubs E AKQJ, W T98765, N 432.
const WEST_VOID: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJT98. 432.AKQJ..T98765";

fn surplus(play: &Play, offender: Seat, c: &str, trick: u8) -> Play {
    play.surplus_card(offender, card(c), trick).unwrap_or_else(|e| panic!("{e}")).play
}

fn legal(play: &Play) -> Vec<String> {
    play.legal_cards().iter().map(|c| c.to_string()).collect()
}

/// Rubber Law 12B2: "if the surplus card has been led or played ... the offender must substitute
/// for it a card from his hand that he can legally play to the trick, and, if possible, a card
/// of the same suit as the surplus card." East leads a heart king from the other deck (West
/// holds the king of this deal, so the table cannot record it as East's): East must lead one of
/// his own hearts instead.
#[test]
fn law_12b2_a_surplus_card_led_is_replaced_by_a_card_of_its_suit() {
    for code in [Code::Rubber, Code::Club] {
        let play = start(DEAL, "4S", Seat::North, code);
        assert!(matches!(play.record(Seat::East, card("HK")).refused(), PlayError::CardNotHeld { .. }));
        let after = surplus(&play, Seat::East, "HK", 0);
        assert_eq!(after.surplus_awaiting_substitute(), Some((Seat::East, card("HK"))));
        assert_eq!(after.next_to_play(), Some(Seat::East));
        assert_eq!(legal(&after), vec!["H5", "H6", "H7"], "{code:?}: his hearts only");
        let err = after.card(card("ST")).refused();
        assert_eq!(err.law(), Law::rubber(12, "B2"), "{code:?}: the Club Laws keep the regular Law 12");
        let after = after.card(card("H6")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(after.tricks()[0].card(Seat::East), Some(card("H6")));
        assert_eq!(after.tricks()[0].leader(), Seat::East);
        assert_eq!(after.surplus_awaiting_substitute(), None);
        assert_eq!(after.next_to_play(), Some(Seat::South));
    }
}

/// Rubber Law 12B2: "a card from his hand that he can legally play to the trick, and, if
/// possible, a card of the same suit as the surplus card": West, who must follow to clubs,
/// played a diamond king from the other deck; he has clubs, so no diamond is a legal play, and
/// he plays any club.
#[test]
fn law_12b2_without_a_legal_card_of_the_surplus_suit_any_legal_card() {
    let play = record(&start(WEST_VOID, "4S", Seat::North, Code::Rubber), &[(Seat::East, "CA"), (Seat::South, "D8")]);
    let after = surplus(&play, Seat::West, "DK", 0);
    assert_eq!(legal(&after), vec!["C5", "C6", "C7", "C8", "C9", "CT"]);
    let after = recorded(&after, Seat::West, "C9").play;
    assert_eq!(after.tricks()[0].card(Seat::West), Some(card("C9")));
    assert!(after.revokes().is_empty(), "the surplus card was no revoke of his");
}

/// Rubber Law 12B2: "The offending side may not thereby win a trick it had lost, but it may lose
/// a trick it had won." North leads a diamond; West, void, plays a diamond three from the other
/// deck as the fourth card, and South's ace had won the trick. West, with no diamond, may play
/// any card: he ruffs, but the trick stays with South, who leads next.
#[test]
fn law_12b2_the_offending_side_may_not_win_a_trick_it_had_lost() {
    let play = record(
        &start(WEST_VOID, "4S", Seat::North, Code::Rubber),
        &[(Seat::East, "ST"), (Seat::South, "S5"), (Seat::West, "S2"), (Seat::North, "SA")],
    );
    let play = record(&play, &[(Seat::North, "D5"), (Seat::East, "D4"), (Seat::South, "DA")]);
    let after = surplus(&play, Seat::West, "D3", 1);
    assert_eq!(legal(&after).len(), 12, "no diamond: any card he holds");
    let after = recorded(&after, Seat::West, "S3").play;
    assert_eq!(after.tricks()[1].winner(), Some(Seat::South), "West's trump does not win it");
    assert_eq!(after.tricks_won(Side::NorthSouth), 2);
    assert_eq!(after.next_to_play(), Some(Seat::South));
}

/// Rubber Law 12B2: "... but it may lose a trick it had won." North leads a diamond and West,
/// fourth, plays a diamond ace from the other deck (South holds this deal's ace): the trick had
/// been West's. His own diamonds are lower than South's jack, so the trick is South's.
#[test]
fn law_12b2_the_offending_side_may_lose_a_trick_it_had_won() {
    let play = record(
        &start(DEAL, "4S", Seat::North, Code::Rubber),
        &[(Seat::East, "ST"), (Seat::South, "S5"), (Seat::West, "S2"), (Seat::North, "SA")],
    );
    let play = record(&play, &[(Seat::North, "D5"), (Seat::East, "D4"), (Seat::South, "DJ")]);
    let after = surplus(&play, Seat::West, "DA", 1);
    assert_eq!(legal(&after), vec!["D8", "D9", "DT"]);
    let after = recorded(&after, Seat::West, "DT").play;
    assert_eq!(after.tricks()[1].winner(), Some(Seat::South));
    assert_eq!(after.next_to_play(), Some(Seat::South));
}

/// Rubber Law 12B2: "When attention is drawn to the offence before the lead to the next trick,
/// both members of the non-offending side may, without penalty, withdraw a play made
/// subsequent to the offence and substitute any legal play." East led the club ace from the
/// other deck and the trick was complete. After East's substitute, declarer (for dummy and
/// himself) chooses which of their cards to withdraw; the offending side gets no answering
/// right.
#[test]
fn law_12b2_the_non_offending_side_may_withdraw_plays_made_after_the_surplus_card() {
    let play = start(DEAL, "4S", Seat::North, Code::Rubber);
    let play = record(&play, &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "C5"), (Seat::North, "C2")]);
    let after = play.surplus_card(Seat::East, card("CA"), 0).unwrap_or_else(|e| panic!("{e}"));
    assert!(after.events.iter().any(|e| matches!(e, PlayEvent::CardWithdrawn { seat: Seat::East, .. })));
    let after = after.play;
    assert_eq!(legal(&after), vec!["CJ", "CQ", "CK", "CA"], "a club, the suit of the surplus card");
    let after = recorded(&after, Seat::East, "CK").play;
    assert_eq!(after.tricks()[0].in_order().next(), Some((Seat::East, card("CK"))), "in the surplus card's place");
    let decision = after.decision().unwrap_or_else(|| panic!("the non-offenders may withdraw"));
    let north_south = Seats::single(Seat::North).with(Seat::South);
    assert_eq!(
        decision.situation,
        Situation::ChangeOfPlay {
            changed: Seat::East,
            trick: 0,
            later: north_south,
            offending: Side::EastWest,
            law: Law::rubber(12, "B2")
        }
    );
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(Seat::North), "declarer chooses for dummy and himself");
    assert_eq!(decision.offers.len(), 4);
    let after =
        after.rectify(PlayOption::WithdrawAfterChange(Seats::single(Seat::South))).unwrap_or_else(|e| panic!("{e}"));
    assert!(after.decision().is_none(), "West, who played after South, may not change his card");
    assert_eq!(after.next_to_play(), Some(Seat::South));
    let after = recorded(&after, Seat::South, "C9").play;
    assert_eq!(after.tricks()[0].card(Seat::South), Some(card("C9")));
    assert_eq!(after.tricks()[0].card(Seat::West), Some(card("C5")));
    assert_eq!(after.tricks()[0].winner(), Some(Seat::East));
}

/// As [`DEAL`], but West holds the diamond ace and South the king: diamonds N 765, E 432, S KQJT,
/// W A98.
const WEST_DIAMOND_ACE: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.KQJT.T98 432.AKQJ.A98.765";

/// East leads a diamond, South's king wins, West's eight (recorded) was a surplus card; South
/// leads to the next trick before anyone notices.
fn surplus_found_after_the_next_lead(code: Code) -> Play {
    use Seat::*;
    let play = start(WEST_DIAMOND_ACE, "4S", North, code);
    record(&play, &[(East, "D2"), (South, "DK"), (West, "D8"), (North, "D5"), (South, "S5")])
}

/// Rubber Law 12B2: "if the surplus card ... had been played to a previous trick, the offender
/// must substitute for it a card from his hand that he can legally play to the trick, and, if
/// possible, a card of the same suit as the surplus card. The offending side may not thereby win a
/// trick it had lost". West's substitute must be a diamond; his ace would win the trick, but the
/// trick stays South's. Only `surplus_card_on_older_trick` takes it: the substitute cannot be
/// played in turn, so the table names it.
#[test]
fn law_12b2_a_surplus_card_on_an_older_trick_is_replaced_and_the_trick_stays_lost() {
    use Seat::*;
    for code in [Code::Rubber, Code::Club] {
        let play = surplus_found_after_the_next_lead(code);
        let err = play.surplus_card(West, card("D8"), 0).refused();
        assert_eq!(err.law(), Law::rubber(12, "B2"), "{code:?}: the trick in progress's way is closed");
        let err = play.surplus_card_on_older_trick(West, card("D8"), 0, card("HA")).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{code:?}: a heart is no legal substitute");
        assert_eq!(err.law(), Law::rubber(12, "B2"));
        let done = play.surplus_card_on_older_trick(West, card("D8"), 0, card("DA")).unwrap_or_else(|e| panic!("{e}"));
        let after = done.play;
        assert_eq!(after.tricks()[0].card(West), Some(card("DA")));
        assert_eq!(after.tricks()[0].winner(), Some(South), "{code:?}: it may not win a trick it had lost");
        assert!(after.hand(West).contains(card("D8")) && !after.hand(West).contains(card("DA")));
        assert!(after.decision().is_none(), "{code:?}: no withdrawals after the next lead");
        assert_eq!(after.tricks()[1], play.tricks()[1], "the later trick is untouched");
    }
}

/// Duplicate Law 13C: the surplus card is removed, the play continues "without further
/// rectification", and "No adjusted score may be awarded unless such a card is found to have
/// been played to a quitted trick": the trick goes to whoever wins it as the cards now lie, and an
/// adjustment is reserved.
#[test]
fn law_13c_duplicate_a_surplus_card_on_a_quitted_trick_is_replaced_and_may_be_adjusted() {
    use Seat::*;
    let play = surplus_found_after_the_next_lead(Code::Duplicate);
    let after =
        play.surplus_card_on_older_trick(West, card("D8"), 0, card("DA")).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(after.tricks()[0].winner(), Some(West));
    let reserved: Vec<_> = after.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
    assert_eq!(reserved, vec![(Side::EastWest, Law::duplicate(13, "C"))]);
    // Nor can a card be a surplus card of a player who did not play it to that trick.
    let err = play.surplus_card_on_older_trick(West, card("HK"), 0, card("DA")).refused();
    assert!(matches!(err, PlayError::CannotRecord { .. }));
}

/// Duplicate Law 13C: "Any surplus card not part of the deal is removed if found. The auction and
/// play continue without further rectification. No adjusted score may be awarded unless such a
/// card is found to have been played to a quitted trick." East's club ace from the other deck
/// is removed: he plays any legal card in its place, the opponents keep their cards, and the
/// Director may adjust, the trick having been complete.
#[test]
fn law_13c_duplicate_removes_the_surplus_card_without_further_rectification() {
    let play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    let play = record(&play, &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "C5"), (Seat::North, "C2")]);
    let after = surplus(&play, Seat::East, "CA", 0);
    assert_eq!(after.legal_cards().len(), 13, "a lead: any card, no suit required");
    let after = recorded(&after, Seat::East, "H5").play;
    assert!(after.decision().is_none(), "the opponents have no right to change their cards");
    assert_eq!(after.tricks()[0].winner(), Some(Seat::East), "hearts led; East's five is the only heart");
    let reserved: Vec<_> = after.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
    assert_eq!(reserved, vec![(Side::EastWest, Law::duplicate(13, "C"))]);
}

/// Rubber Law 12B2: the offender "must substitute for it a card from his hand that he can
/// legally play to the trick": when only one card qualifies (West's singleton diamond, to a
/// diamond lead), it is played at once.
#[test]
fn law_12b2_a_single_card_that_qualifies_is_played_at_once() {
    const SINGLETON: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJT9.5 432.AKQJ.8.T9876";
    let play = record(&start(SINGLETON, "4S", Seat::North, Code::Rubber), &[(Seat::East, "D2"), (Seat::South, "DA")]);
    let recorded = play.surplus_card(Seat::West, card("DK"), 0).unwrap_or_else(|e| panic!("{e}"));
    assert!(recorded.events.iter().any(|e| matches!(e, PlayEvent::CardPlayed { seat: Seat::West, .. })));
    assert_eq!(recorded.play.tricks()[0].card(Seat::West), Some(card("D8")));
    assert_eq!(recorded.play.surplus_awaiting_substitute(), None);
    assert_eq!(recorded.play.next_to_play(), Some(Seat::North));
}
