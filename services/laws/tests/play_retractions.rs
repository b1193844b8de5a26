//! Retraction of a card played (Law 47) and the designations that lead to it: a change of an
//! unintended designation (duplicate Law 45C4(b), rubber Law 45D), dummy's card that declarer
//! did not name (duplicate Law 45D, rubber Law 46), incomplete designations from dummy (Law
//! 46), and retractions after misinformation (duplicate Law 47E, rubber Law 47D). Each test
//! names the Law's case it checks, in both codes where they differ.

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{Designation, Effect, PlayOption, Retraction, Seats, Situation};
use laws::play::{DesignationOutcome, Play, PlayError, PlayEvent, RevokeStatus};
use laws::{CardSet, CitesLaw, Code, Law, Rank, Seat, Side, Suit};
use play_common::{DEAL, Refused, card, record, recorded, start};

use Seat::{East, North, South, West};

/// South (dummy) holds two kings and no club: S 765, H K32, D AKQJT, C 98.
const TWO_KINGS: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.K32.AKQJT.98 432.AQJ4.98.T765";

fn retract(play: &Play, seat: Seat, retraction: Retraction) -> laws::play::Recorded {
    play.retract(seat, retraction).unwrap_or_else(|e| panic!("{seat} {retraction}: {e}"))
}

fn rectify(play: &Play, option: PlayOption) -> Play {
    play.rectify(option).unwrap_or_else(|e| panic!("{option}: {e}"))
}

fn cards_of(set: &[&str]) -> CardSet {
    set.iter().map(|c| card(c)).collect()
}

/// 4S by North, East on lead, South dummy: East leads the club ace, dummy plays the ten, West
/// the five.
fn club_trick(code: Code) -> Play {
    record(&start(DEAL, "4S", North, code), &[(East, "CA"), (South, "CT"), (West, "C5")])
}

#[test]
fn duplicate_law_45c4b_declarer_changes_a_slip_of_the_tongue_and_the_opponent_who_played_may_withdraw() {
    // "Declarer may correct an unintended designation of a card from dummy until he next plays
    // a card from either his own hand or from dummy ... If an opponent has, in turn, played a
    // card that was legal before the change in designation, that opponent may withdraw the card
    // so played, return it to his hand, and substitute another (see Laws 47D and 16C1)."
    let play = club_trick(Code::Duplicate);
    let changed = retract(&play, South, Retraction::ChangeOfDesignation { card: card("C9") });
    assert!(changed.events.contains(&PlayEvent::CardWithdrawn {
        seat: South,
        card: card("CT"),
        trick: 0,
        law: Law::duplicate(47, "C"),
    }));
    let play = changed.play;
    let trick = play.tricks()[0];
    let order: Vec<(Seat, String)> = trick.in_order().map(|(s, c)| (s, c.to_string())).collect();
    assert_eq!(
        order,
        vec![(East, "CA".into()), (South, "C9".into()), (West, "C5".into())],
        "the new card in its place"
    );
    assert!(play.hand(South).contains(card("CT")), "Law 47C: returned to the hand without further rectification");
    let decision = play.decision().unwrap_or_else(|| panic!("West may withdraw"));
    assert_eq!(
        decision.situation,
        Situation::ChangeOfPlay {
            changed: South,
            trick: 0,
            later: Seats::single(West),
            offending: Side::NorthSouth,
            law: Law::duplicate(45, "C4(b)")
        }
    );
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(West));
    let withdraw = PlayOption::WithdrawAfterChange(Seats::single(West));
    let offer = decision.offers.iter().find(|o| o.option == withdraw).unwrap_or_else(|| panic!("offered"));
    assert!(offer.effects.contains(&Effect::CardReturned { seat: West, card: card("C5") }));
    assert!(offer.effects.contains(&Effect::InformationUnauthorized { side: Side::NorthSouth }), "Law 16C2");
    // Nobody plays until West decides.
    assert!(play.legal_cards().is_empty());

    let withdrawn = rectify(&play, withdraw);
    assert!(withdrawn.hand(West).contains(card("C5")));
    assert_eq!(withdrawn.penalty_cards().count(), 0, "without further rectification: no penalty card");
    assert_eq!(withdrawn.next_to_play(), Some(West));
    let finished = record(&withdrawn, &[(West, "C7"), (North, "C2")]);
    assert_eq!(finished.tricks()[0].winner(), Some(East));
    // Keeping the card leaves the trick as it is.
    let kept = rectify(&play, PlayOption::WithdrawAfterChange(Seats::EMPTY));
    assert_eq!(kept.tricks()[0].card(West), Some(card("C5")));
    assert_eq!(kept.next_to_play(), Some(North));
}

#[test]
fn duplicate_law_45c4b_too_late_once_declarer_has_played_again_and_never_a_defenders_designation() {
    // Declarer played from his own hand after the designation: too late.
    let play = record(&club_trick(Code::Duplicate), &[(North, "C2")]);
    let err = play.retract(South, Retraction::ChangeOfDesignation { card: card("C9") }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    assert_eq!(err.law(), Law::duplicate(45, "C4(b)"));
    // Law 47F2: "except as this Law specifies, a card once played may not be withdrawn"; only
    // declarer's designation from dummy may be changed.
    let err = club_trick(Code::Duplicate).retract(West, Retraction::ChangeOfDesignation { card: card("C6") }).refused();
    assert_eq!(err.law(), Law::duplicate(47, "F2"));
    // A card not in the hand cannot be designated instead.
    let err =
        club_trick(Code::Duplicate).retract(South, Retraction::ChangeOfDesignation { card: card("SA") }).refused();
    assert!(matches!(err, PlayError::CardNotHeld { .. }), "{err}");
}

#[test]
fn rubber_law_45d_any_player_may_change_an_inadvertent_designation_and_an_opponent_may_then_withdraw() {
    // Rubber Law 45D: "A player may, without penalty, change an inadvertent designation if he
    // does so without pause for thought, but if an opponent has, in turn played a card that was
    // legal before the change of designation, that opponent may, without penalty, withdraw any
    // card so played and substitute another." West, a defender, changes his club after declarer
    // played to the trick.
    let play = record(&club_trick(Code::Rubber), &[(North, "C2")]);
    assert_eq!(play.completed_tricks(), 1);
    let changed = retract(&play, West, Retraction::ChangeOfDesignation { card: card("C6") });
    assert!(changed.events.contains(&PlayEvent::CardWithdrawn {
        seat: West,
        card: card("C5"),
        trick: 0,
        law: Law::rubber(47, "B"),
    }));
    let play = changed.play;
    assert_eq!(play.penalty_cards().count(), 0, "without penalty: a defender's card too");
    let decision = play.decision().unwrap_or_else(|| panic!("North may withdraw"));
    assert_eq!(decision.law, Law::rubber(45, "D"));
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(North));
    let withdrawn = rectify(&play, PlayOption::WithdrawAfterChange(Seats::single(North)));
    assert_eq!(withdrawn.completed_tricks(), 0, "the trick is open again");
    assert_eq!(withdrawn.next_to_play(), Some(North));
    assert!(withdrawn.hand(North).contains(card("C2")));
    let kept = rectify(&play, PlayOption::WithdrawAfterChange(Seats::EMPTY));
    assert_eq!(kept.completed_tricks(), 1);
    assert_eq!(kept.tricks()[0].card(West), Some(card("C6")));
}

#[test]
fn law_45c4b_an_opponent_whose_card_was_a_revoke_before_the_change_may_not_withdraw_it() {
    // West discards a heart on the club lead though he holds clubs: not "a card that was legal
    // before the change in designation".
    let play = record(&start(DEAL, "4S", North, Code::Duplicate), &[(East, "CA"), (South, "CT"), (West, "HA")]);
    let play = retract(&play, South, Retraction::ChangeOfDesignation { card: card("C9") }).play;
    assert!(play.decision().is_none());
    assert_eq!(play.next_to_play(), Some(North));
}

#[test]
fn duplicate_law_45d1_dummys_card_declarer_did_not_name_is_withdrawn_and_the_defender_then_declarer_may_withdraw() {
    // "If dummy places in the played position a card that declarer did not name, the card must
    // be withdrawn if attention is drawn to it before each side has played to the next trick,
    // and a defender may withdraw and return to his hand a card played after the error ...; if
    // declarer's RHO changes his play, declarer may withdraw a card he had subsequently played
    // to that trick."
    let play = record(&club_trick(Code::Duplicate), &[(North, "C2")]);
    assert_eq!(play.tricks()[0].winner(), Some(East));
    let corrected = retract(&play, South, Retraction::UndesignatedDummyCard { named: card("C8") }).play;
    assert_eq!(corrected.tricks()[0].card(South), Some(card("C8")));
    assert!(corrected.hand(South).contains(card("CT")));
    let decision = corrected.decision().unwrap_or_else(|| panic!("West may withdraw"));
    assert_eq!(decision.law, Law::duplicate(45, "D1"));
    assert_eq!(decision.seats, Seats::single(West));
    // West (declarer's RHO) changes his play; then declarer may withdraw his card.
    let west = rectify(&corrected, PlayOption::WithdrawAfterChange(Seats::single(West)));
    let decision = west.decision().unwrap_or_else(|| panic!("declarer may withdraw"));
    assert_eq!(
        decision.situation,
        Situation::ChangeOfPlay {
            changed: West,
            trick: 0,
            later: Seats::single(North),
            offending: Side::NorthSouth,
            law: Law::duplicate(47, "D")
        }
    );
    assert_eq!(decision.chooser, Chooser::Offender);
    assert_eq!(decision.seats, Seats::single(North));
    let north = rectify(&west, PlayOption::WithdrawAfterChange(Seats::single(North)));
    assert_eq!(north.next_to_play(), Some(West));
    assert!(north.hand(North).contains(card("C2")) && north.hand(West).contains(card("C5")));
    let finished = record(&north, &[(West, "C6"), (North, "C3")]);
    assert_eq!(finished.completed_tricks(), 1);
    // Rubber Law 46 words it the same way.
    let rubber = record(&club_trick(Code::Rubber), &[(North, "C2")]);
    let rubber = retract(&rubber, South, Retraction::UndesignatedDummyCard { named: card("C8") }).play;
    assert_eq!(rubber.decision().map(|d| d.law), Some(Law::rubber(46, "")));
}

#[test]
fn duplicate_law_45d2_once_each_side_has_played_to_the_next_trick_dummys_card_stands() {
    // East leads a heart; dummy plays the four, West wins with the ace; West leads to the next
    // trick and North follows: both sides have played to it.
    let play = record(
        &start(DEAL, "4S", North, Code::Duplicate),
        &[(East, "H5"), (South, "H4"), (West, "HA"), (North, "H8"), (West, "S2")],
    );
    let err = play.retract(South, Retraction::UndesignatedDummyCard { named: card("H2") }).refused();
    assert!(matches!(err, PlayError::CannotRecord { .. }), "one side only has played: {err}");
    let play = recorded(&play, North, "SA").play;
    let err = play.retract(South, Retraction::UndesignatedDummyCard { named: card("H2") }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    assert_eq!(err.law(), Law::duplicate(45, "D2"));
    // Only dummy's card can be one declarer did not name.
    let err = club_trick(Code::Duplicate).retract(West, Retraction::UndesignatedDummyCard { named: card("C6") });
    assert_eq!(err.refused().law(), Law::duplicate(45, "D1"));
}

/// 4S by North: East's club ace wins trick 1; East leads the diamond two and dummy is due.
fn diamond_led(contract: &str, code: Code) -> Play {
    record(
        &start(DEAL, contract, North, code),
        &[(East, "CA"), (South, "CT"), (West, "C5"), (North, "C2"), (East, "D2")],
    )
}

#[test]
fn duplicate_law_46b1_high_low_and_win() {
    let play = record(&start(DEAL, "4S", North, Code::Duplicate), &[(East, "CA")]);
    let high = play.interpret_designation(Designation::High).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(high.outcome, DesignationOutcome::Deemed(card("CT")), "46B1(a): the highest card of the suit led");
    assert_eq!(high.law, Law::duplicate(46, "B1(a)"));
    let low = play.designate_from_dummy(Designation::Low).unwrap_or_else(|e| panic!("{e}"));
    assert!(low.events.contains(&PlayEvent::CardPlayed { seat: South, card: card("C8"), trick: 0 }), "46B1(c)");
    // "Win": the lowest card that it is known will win the trick. At notrump the jack of
    // diamonds beats the two, and West can hold no higher diamond North cannot see.
    let notrump = diamond_led("3NT", Code::Duplicate);
    let win = notrump.interpret_designation(Designation::Win).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(win.outcome, DesignationOutcome::Deemed(card("DJ")));
    assert_eq!(win.law, Law::duplicate(46, "B1(b)"));
    // In spades West may be void in diamonds and ruff: no card is known to win, so declarer
    // names one.
    let spades = diamond_led("4S", Code::Duplicate);
    let win = spades.interpret_designation(Designation::Win).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(win.outcome, DesignationOutcome::DeclarerDesignates(cards_of(&["DA", "DK", "DQ", "DJ"])));
    // When nothing beats the ace already played, "win" fits no card either.
    let none = play.interpret_designation(Designation::Win).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(none.outcome, DesignationOutcome::DeclarerDesignates(cards_of(&["CT", "C9", "C8"])));
}

#[test]
fn duplicate_law_46b2_to_b5_suit_rank_invalid_card_and_play_anything() {
    // Dummy wins trick 2 with the diamond ace and leads.
    let play = record(&diamond_led("4S", Code::Duplicate), &[(South, "DA"), (West, "D8"), (North, "D5")]);
    assert_eq!(play.next_to_play(), Some(South));
    let ruling = |d| play.interpret_designation(d).unwrap_or_else(|e| panic!("{e}"));
    // 46B2: a suit but not a rank, the lowest card of the suit.
    assert_eq!(ruling(Designation::Suit(Suit::Hearts)).outcome, DesignationOutcome::Deemed(card("H2")));
    assert_eq!(ruling(Designation::Suit(Suit::Hearts)).law, Law::duplicate(46, "B2"));
    // 46B3(a): leading, a rank alone continues the suit with which dummy won the last trick.
    let king = ruling(Designation::Rank(Rank::King));
    assert_eq!((king.outcome, king.law), (DesignationOutcome::Deemed(card("DK")), Law::duplicate(46, "B3(a)")));
    // 46B3(b): otherwise the card of that rank he can legally play.
    let nine = ruling(Designation::Rank(Rank::Nine));
    assert_eq!((nine.outcome, nine.law), (DesignationOutcome::Deemed(card("C9")), Law::duplicate(46, "B3(b)")));
    // 46B4: a card not in dummy is an invalid call; declarer may designate any legal card.
    let invalid = ruling(Designation::Card(card("SA")));
    assert_eq!(invalid.law, Law::duplicate(46, "B4"));
    assert_eq!(invalid.outcome, DesignationOutcome::DeclarerDesignates(play.legal_cards()));
    // 46B5: "play anything": either defender designates dummy's card.
    let anything = play.designate_from_dummy(Designation::Anything).unwrap_or_else(|e| panic!("{e}")).play;
    let decision = anything.decision().unwrap_or_else(|| panic!("the defenders designate"));
    assert_eq!(decision.situation, Situation::IncompleteDesignation { designation: Designation::Anything });
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(East).with(West));
    assert_eq!(decision.law, Law::duplicate(46, "B5"));
    assert_eq!(decision.offers.len(), play.legal_cards().len());
    let chosen = rectify(&anything, PlayOption::DesignateFromDummy(card("H3")));
    assert_eq!(chosen.tricks()[2].card(South), Some(card("H3")));
    assert_eq!(chosen.next_to_play(), Some(West));
}

#[test]
fn duplicate_law_46b3b_two_legal_cards_of_the_rank_declarer_must_say_which() {
    // East leads a third club; dummy has none left, and two kings.
    let play = record(
        &start(TWO_KINGS, "4S", North, Code::Duplicate),
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
        ],
    );
    let recorded = play.designate_from_dummy(Designation::Rank(Rank::King)).unwrap_or_else(|e| panic!("{e}"));
    let decision = recorded.play.decision().unwrap_or_else(|| panic!("declarer says which king"));
    assert_eq!(decision.chooser, Chooser::Declarer);
    assert_eq!(decision.law, Law::duplicate(46, "B3(b)"));
    let offered: Vec<PlayOption> = decision.offers.iter().map(|o| o.option).collect();
    assert_eq!(offered, vec![PlayOption::DesignateFromDummy(card("DK")), PlayOption::DesignateFromDummy(card("HK"))]);
    // A card not offered is refused; nothing changes.
    let err = recorded.play.rectify(PlayOption::DesignateFromDummy(card("H2"))).refused();
    assert!(matches!(err, PlayError::OptionNotOffered { .. }), "{err}");
    let played = rectify(&recorded.play, PlayOption::DesignateFromDummy(card("HK")));
    assert_eq!(played.tricks()[2].card(South), Some(card("HK")));
}

#[test]
fn rubber_law_46_declarer_completes_a_partial_designation_nothing_is_deemed() {
    // "Declarer must complete his partial designation. Dummy must not play a card before
    // declarer has completed his partial designation."
    let play = record(&start(DEAL, "4S", North, Code::Rubber), &[(East, "CA")]);
    let low = play.designate_from_dummy(Designation::Low).unwrap_or_else(|e| panic!("{e}")).play;
    let decision = low.decision().unwrap_or_else(|| panic!("declarer completes"));
    assert_eq!(decision.law, Law::rubber(46, ""));
    assert_eq!(decision.chooser, Chooser::Declarer);
    assert_eq!(decision.offers.len(), 3, "the clubs his words fit");
    assert!(low.tricks().first().is_some_and(|t| t.card(South).is_none()), "dummy plays nothing yet");
    let ruling = play.interpret_designation(Designation::Suit(Suit::Clubs)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ruling.outcome, DesignationOutcome::DeclarerDesignates(cards_of(&["CT", "C9", "C8"])));
    // A rank that fits one card names it fully.
    let nine = play.interpret_designation(Designation::Rank(Rank::Nine)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nine.outcome, DesignationOutcome::Deemed(card("C9")));
    // Only when dummy is due to play (Law 46: dummy plays the card declarer names).
    let early = start(DEAL, "4S", North, Code::Rubber);
    let err = early.interpret_designation(Designation::Low).refused();
    assert!(matches!(err, PlayError::CannotRecord { .. }), "{err}");
}

#[test]
fn duplicate_law_47e1_a_lead_out_of_turn_after_an_opponent_said_it_was_his_turn_is_retracted_as_never_made() {
    // "A lead out of turn (or play of a card) is retracted without further rectification if the
    // player was mistakenly informed by an opponent that it was his turn to lead or play ... A
    // lead or play may not be accepted by his LHO in these circumstances and Law 63A1 does not
    // apply." West revoked on trick 1 (a heart on the club lead); North tells West it is his
    // lead and West leads, which would establish the revoke.
    let before =
        record(&start(DEAL, "4S", North, Code::Duplicate), &[(East, "CA"), (South, "CT"), (West, "HA"), (North, "C2")]);
    assert_eq!(before.revokes()[0].status, RevokeStatus::Unestablished);
    let led = recorded(&before, West, "HK").play;
    assert_eq!(led.revokes()[0].status, RevokeStatus::Established, "Law 63A1: any lead to the next trick");
    assert!(matches!(led.decision().map(|d| d.situation), Some(Situation::DefenderLeadOutOfTurn { .. })));
    let retracted = retract(&led, West, Retraction::ToldItWasHisTurn { by: North });
    assert!(retracted.events.contains(&PlayEvent::CardReturned {
        seat: West,
        card: card("HK"),
        law: Law::duplicate(47, "E1")
    }));
    assert_eq!(retracted.play, before, "no rectification, no decision, the revoke not established");
    // The misinformation must come from an opponent.
    let err = led.retract(West, Retraction::ToldItWasHisTurn { by: East }).refused();
    assert_eq!(err.law(), Law::duplicate(47, "E1"));
    // Rubber Law 47D retracts the lead without penalty, but rubber Law 63 has no exception: the
    // revoke stays established.
    let rubber = record(
        &start(DEAL, "4S", North, Code::Rubber),
        &[(East, "CA"), (South, "CT"), (West, "HA"), (North, "C2"), (West, "HK")],
    );
    let rubber = retract(&rubber, West, Retraction::ToldItWasHisTurn { by: South }).play;
    assert!(rubber.decision().is_none());
    assert_eq!(rubber.revokes()[0].status, RevokeStatus::Established);
}

#[test]
fn duplicate_law_47e1_a_premature_play_so_made_is_no_penalty_card_and_a_card_in_turn_is_not_retracted() {
    // North wins the first trick and leads; West plays before his partner East, told by North it
    // was his turn (Law 57A would make a major penalty card of it and give declarer options).
    let play = record(
        &start(DEAL, "4S", North, Code::Duplicate),
        &[(East, "S8"), (South, "S5"), (West, "S2"), (North, "SA"), (North, "SK")],
    );
    let early = recorded(&play, West, "S3").play;
    assert_eq!(early.penalty_cards().count(), 1);
    assert!(matches!(early.decision().map(|d| d.situation), Some(Situation::PrematurePlay { .. })));
    let retracted = retract(&early, West, Retraction::ToldItWasHisTurn { by: North }).play;
    assert_eq!(retracted, play);
    // A card played in turn was not made because of the misinformation.
    let in_turn = recorded(&play, East, "S9").play;
    let err = in_turn.retract(East, Retraction::ToldItWasHisTurn { by: North }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    // Nor once something else has happened since: here declarer's choice under Law 57A.
    let decision = early.decision().unwrap_or_else(|| panic!("Law 57A"));
    let chosen = rectify(&early, decision.offers[0].option);
    assert!(chosen.retract(West, Retraction::ToldItWasHisTurn { by: North }).is_err());
}

#[test]
fn duplicate_law_47e2a_a_card_played_after_a_mistaken_explanation_only_if_no_card_was_played_since() {
    // North, declarer, plays the last card of the trick after East's mistaken explanation.
    let play = record(&club_trick(Code::Duplicate), &[(North, "C2")]);
    let retracted = retract(&play, North, Retraction::MistakenExplanation { by: East });
    assert!(retracted.events.contains(&PlayEvent::CardWithdrawn {
        seat: North,
        card: card("C2"),
        trick: 0,
        law: Law::duplicate(47, "E2(a)")
    }));
    let play = retracted.play;
    assert_eq!(play.completed_tricks(), 0);
    assert_eq!(play.next_to_play(), Some(North));
    assert!(play.decision().is_none());
    let replayed = recorded(&play, North, "C4").play;
    assert_eq!(replayed.tricks()[0].card(North), Some(card("C4")));
    // Dummy's ten was followed by West's card: too late (47E2(b): the Director may adjust).
    let err = club_trick(Code::Duplicate).retract(South, Retraction::MistakenExplanation { by: West }).refused();
    assert_eq!(err.law(), Law::duplicate(47, "E2(b)"));
    // "An opening lead may not be retracted after dummy has faced any card."
    let lead = record(&start(DEAL, "4S", North, Code::Duplicate), &[(East, "CA")]);
    let err = lead.retract(East, Retraction::MistakenExplanation { by: North }).refused();
    assert_eq!(err.law(), Law::duplicate(47, "E2(a)"));
}

#[test]
fn rubber_law_47d_a_play_corrected_after_misinformation_then_the_opponents_may_change_theirs() {
    // Rubber Law 47D: "to correct a play after misinformation by an opponent"; Law 47C: "after an
    // opponent's change of play, to substitute a card for one played". East retracts his
    // opening lead after North's misinformation; dummy had played after it.
    let play = club_trick(Code::Rubber);
    let retracted = retract(&play, East, Retraction::MistakenExplanation { by: North }).play;
    assert!(retracted.hand(East).contains(card("CA")));
    assert_eq!(retracted.penalty_cards().count(), 0, "not under Law 47A: no penalty card");
    assert!(retracted.dummy_visible(), "dummy stays spread");
    let decision = retracted.decision().unwrap_or_else(|| panic!("declarer may withdraw dummy's card"));
    assert_eq!(
        decision.situation,
        Situation::ChangeOfPlay {
            changed: East,
            trick: 0,
            later: Seats::single(South),
            offending: Side::NorthSouth,
            law: Law::rubber(47, "C")
        }
    );
    assert_eq!(decision.chooser, Chooser::Offender, "North-South misinformed");
    assert_eq!(decision.seats, Seats::single(North), "declarer decides for dummy");
    let kept = rectify(&retracted, PlayOption::WithdrawAfterChange(Seats::EMPTY));
    assert_eq!(kept.next_to_play(), Some(East));
    let kept = record(&kept, &[(East, "CK"), (North, "C2")]);
    assert_eq!(kept.tricks()[0].winner(), Some(East));
    assert_eq!(kept.tricks()[0].suit_led(), Some(Suit::Clubs));
    let withdrawn = rectify(&retracted, PlayOption::WithdrawAfterChange(Seats::single(South)));
    assert!(withdrawn.hand(South).contains(card("CT")));
    // Dummy's change of play in turn lets West, who played after it, change his (Law 47C).
    let decision = withdrawn.decision().unwrap_or_else(|| panic!("West may withdraw"));
    assert_eq!(decision.seats, Seats::single(West));
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    let withdrawn = rectify(&withdrawn, PlayOption::WithdrawAfterChange(Seats::EMPTY));
    let finished = record(&withdrawn, &[(East, "CK"), (South, "C8"), (North, "C2")]);
    assert_eq!(finished.completed_tricks(), 1);
}

#[test]
fn law_47_no_retraction_while_a_decision_is_pending_or_after_the_play() {
    let pending = record(&start(DEAL, "4S", North, Code::Duplicate), &[(West, "HA")]);
    assert!(pending.decision().is_some());
    let err = pending.retract(West, Retraction::MistakenExplanation { by: North }).refused();
    assert!(matches!(err, PlayError::DecisionPending { .. }), "{err}");
    // A card of an earlier trick is out of reach.
    let later = record(&club_trick(Code::Duplicate), &[(North, "C2"), (East, "D2")]);
    let err = later.retract(West, Retraction::MistakenExplanation { by: North }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
}

#[test]
fn duplicate_law_47e2a_the_opening_lead_is_retracted_before_dummy_has_faced_a_card() {
    // Law 47E2(a): "A player may retract the card he has played because of a mistaken
    // explanation of an opponent's call or play and before a corrected explanation, without
    // further rectification, but only if no card was subsequently played (see Law 16C). An
    // opening lead may not be retracted after dummy has faced any card."
    let before = start(DEAL, "4S", North, Code::Duplicate);
    let led = record(&before, &[(East, "CA")]);
    assert!(led.dummy_visible());
    // Digital play keeps the same memory of the opening lead, so both stay equal.
    assert_eq!(play_common::cards(&before, &["CA"]), led);
    // Declarer's mistaken explanation is corrected; dummy had not yet spread his cards.
    let back = retract(&led, East, Retraction::OpeningLeadBeforeDummyFaced { by: North });
    assert_eq!(
        back.events,
        vec![PlayEvent::CardWithdrawn { seat: East, card: card("CA"), trick: 0, law: Law::duplicate(47, "E2(a)") }]
    );
    assert_eq!(back.play, before, "as though the lead had not been made");
    assert!(!back.play.dummy_visible());
    assert!(back.play.penalty_cards().next().is_none(), "without further rectification");
    let again = record(&back.play, &[(East, "H7")]);
    assert_eq!(again.tricks()[0].card(East), Some(card("H7")));

    // Not once a card has been played since, and only after an opponent's explanation.
    let followed = record(&led, &[(South, "CT")]);
    let err = followed.retract(East, Retraction::OpeningLeadBeforeDummyFaced { by: North }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { law, .. } if law == Law::duplicate(47, "E2(a)")), "{err}");
    let err = led.retract(East, Retraction::OpeningLeadBeforeDummyFaced { by: West }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    // A later lead is no opening lead.
    let second = record(&club_trick(Code::Duplicate), &[(North, "C2"), (East, "CK")]);
    let err = second.retract(East, Retraction::OpeningLeadBeforeDummyFaced { by: North }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");
    // Told it was his turn applies to a lead out of turn, not to an opening lead made in turn.
    let err = led.retract(East, Retraction::ToldItWasHisTurn { by: North }).refused();
    assert!(matches!(err, PlayError::RetractionRefused { .. }), "{err}");

    // Rubber Law 47D has no such limit: the lead goes back as any card after misinformation.
    let rubber = record(&start(DEAL, "4S", North, Code::Rubber), &[(East, "CA")]);
    let back = retract(&rubber, East, Retraction::OpeningLeadBeforeDummyFaced { by: North });
    assert!(back.play.hand(East).contains(card("CA")));
    assert!(
        back.events.iter().any(|e| matches!(e, PlayEvent::CardWithdrawn { law, .. } if *law == Law::rubber(47, "D")))
    );
}
