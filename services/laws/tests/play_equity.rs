//! Equity after an established revoke (rubber Law 64's last paragraph, Club Law 64, duplicate
//! Law 64C1): once the play is over, the word on more tricks for the side damaged, from whom each
//! code names, bounded by the tricks the offending side holds.

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{PlayOption, Seats, Situation};
use laws::play::{DrawnBy, Play, PlayError};
use laws::{CitesLaw, Code, Law, Seat, Side};
use play_common::{DEAL, Refused, record, start};

/// North declares four spades; East leads the club ace, West, who holds clubs, discards a heart
/// (a revoke), and East leads again: the revoke is established (Law 63) and pointed out. The rest
/// is played out, each hand its lowest legal card.
fn revoked_and_played_out(code: Code) -> Play {
    let play = record(
        &start(DEAL, "4S", Seat::North, code),
        &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "HJ"), (Seat::North, "C2"), (Seat::East, "CK")],
    );
    let mut play = play.draw_attention_to_revoke(Seat::West, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    while let Some(card) = play.legal_cards().iter().next() {
        play = play.card(card).unwrap_or_else(|e| panic!("{card}: {e}"));
    }
    assert!(play.is_complete());
    play
}

fn tricks_offered(play: &Play) -> Vec<(Side, u8)> {
    let decision = play.decision().unwrap_or_else(|| panic!("a decision on equity"));
    decision
        .offers
        .iter()
        .map(|o| match o.option {
            PlayOption::RestoreEquity { to, tricks } => (to, tricks),
            other => panic!("{other}"),
        })
        .collect()
}

/// Rubber Law 64: "When any established revoke, including one not subject to penalty, causes
/// damage to the non-offending side insufficiently compensated by the Law, the offending side
/// should transfer additional tricks so as to restore equity." East-West, the offending side,
/// give the word; at most the tricks they still hold after the automatic transfer.
#[test]
fn rubber_law_64_the_offending_side_transfers_more_tricks_to_restore_equity() {
    let play = revoked_and_played_out(Code::Rubber);
    let decision = play.decision().unwrap();
    assert!(matches!(decision.situation, Situation::RevokeEquity { .. }));
    assert_eq!(decision.law, Law::rubber(64, ""));
    assert_eq!(decision.chooser, Chooser::Offender);
    assert_eq!(decision.seats, [Seat::East, Seat::West].into_iter().collect::<Seats>());
    let automatic = play.revoke_transfer();
    let offered = tricks_offered(&play);
    let holds = play.result().unwrap().tricks(Side::EastWest) - automatic.to[Side::NorthSouth.index()];
    assert_eq!(offered.len(), 1 + holds as usize, "none, or 1 to {holds} tricks");
    assert!(offered.iter().all(|(to, _)| *to == Side::NorthSouth), "only the side damaged receives");
    let before = play.declarer_tricks().unwrap();
    let after =
        play.rectify(PlayOption::RestoreEquity { to: Side::NorthSouth, tricks: 1 }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after.decision(), None);
    assert_eq!(after.equity_restored(), Some((Side::NorthSouth, 1)));
    assert_eq!(after.revoke_transfer().restored, [1, 0]);
    assert_eq!(after.declarer_tricks(), Some(before + 1));
    // More than the offending side holds, or to the offending side, is not offered.
    let err = play.rectify(PlayOption::RestoreEquity { to: Side::NorthSouth, tricks: holds + 1 }).refused();
    assert!(matches!(err, PlayError::OptionNotOffered { .. }), "{err}");
    let err = play.rectify(PlayOption::RestoreEquity { to: Side::EastWest, tricks: 1 }).refused();
    assert_eq!(err.law(), Law::rubber(64, ""));
}

/// Club Law 64: "When after any established revoke, including those not subject to penalty, the
/// Arbiter deems that equity has not been restored to the non-offending side, he should assign an
/// adjusted score." Duplicate Law 64C1: "the Director deems that the non-offending side is
/// insufficiently compensated by this Law for the damage caused, he shall assign an adjusted
/// score." The official gives the word.
#[test]
fn club_and_duplicate_law_64_the_official_restores_equity() {
    for (code, law) in [(Code::Club, Law::club(64, "")), (Code::Duplicate, Law::duplicate(64, "C1"))] {
        let play = revoked_and_played_out(code);
        let decision = play.decision().unwrap();
        assert_eq!(
            (decision.chooser, decision.law, decision.seats),
            (Chooser::Official, law, Seats::EMPTY),
            "{code:?}"
        );
        let none = play
            .rectify(PlayOption::RestoreEquity { to: Side::NorthSouth, tricks: 0 })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(none.revoke_transfer(), play.revoke_transfer(), "{code:?}: the automatic transfer stands");
        assert_eq!(none.decision(), None);
    }
}

/// No established revoke, no question of equity (Law 64 acts only on established revokes); and the
/// word is not asked before the play is over.
#[test]
fn law_64_no_word_on_equity_without_an_established_revoke_or_before_play_ends() {
    let mut play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    while let Some(card) = play.legal_cards().iter().next() {
        play = play.card(card).unwrap_or_else(|e| panic!("{card}: {e}"));
    }
    assert_eq!(play.decision(), None);
    let err = play.rectify(PlayOption::RestoreEquity { to: Side::NorthSouth, tricks: 0 }).refused();
    assert_eq!(err.law().number, 64);
    let during = record(
        &start(DEAL, "4S", Seat::North, Code::Rubber),
        &[(Seat::East, "CA"), (Seat::South, "C8"), (Seat::West, "HJ"), (Seat::North, "C2"), (Seat::East, "CK")],
    );
    let during = during.draw_attention_to_revoke(Seat::West, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(during.decision(), None, "asked once the play is over");
}

/// Rubber Law 64 when both sides made established revokes: each offending side owes the other
/// its word, so there is one decision for each side damaged, each chosen by the players who
/// revoked against it. Dummy discarded a heart and West a heart on East's club ace, both holding
/// clubs; both revokes are established and pointed out.
#[test]
fn rubber_law_64_both_sides_revoked_each_offending_side_gives_its_word() {
    use Seat::*;
    let play = record(
        &start(DEAL, "4S", North, Code::Rubber),
        &[(East, "CA"), (South, "H2"), (West, "HJ"), (North, "C2"), (East, "CK"), (South, "C8")],
    );
    let mut play = play.draw_attention_to_revoke(West, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    play = play.draw_attention_to_revoke(South, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    while let Some(card) = play.legal_cards().iter().next() {
        play = play.card(card).unwrap_or_else(|e| panic!("{card}: {e}"));
    }
    let first = play.decision().unwrap();
    assert_eq!(first.seats, [East, West].into_iter().collect::<Seats>());
    assert!(tricks_offered(&play).iter().all(|(to, _)| *to == Side::NorthSouth));
    let play =
        play.rectify(PlayOption::RestoreEquity { to: Side::NorthSouth, tricks: 0 }).unwrap_or_else(|e| panic!("{e}"));
    let second = play.decision().unwrap();
    assert_eq!(second.seats, [North, South].into_iter().collect::<Seats>());
    assert!(tricks_offered(&play).iter().all(|(to, _)| *to == Side::EastWest));
    let play =
        play.rectify(PlayOption::RestoreEquity { to: Side::EastWest, tricks: 1 }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.decision(), None);
    assert_eq!(play.revoke_transfer().restored, [0, 1]);
    assert_eq!(play.equity_restored(), Some((Side::EastWest, 1)));
}
