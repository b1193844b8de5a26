//! Rubber bridge scoring (Laws of Rubber Bridge, Laws 72-81): the worked cases S1-S13, T5, T6
//! and T10 (docs/worked-cases.md) and one test per rule, including Law 78 corrections.

use laws::score::pad::{EntryKind, Line, StrikeReason};
use laws::score::rubber::{Corrected, DealResult, EndConflict, PlayedDeal, Rubber, RubberOptions, RubberStatus};
use laws::score::{Tricks, honors::Honors, honors::HonorsClaim};
use laws::{CitesLaw, Law, Side, Vulnerability};

const NS: Side = Side::NorthSouth;
const EW: Side = Side::EastWest;

fn played(declarer: Side, contract: &str, tricks: u8) -> DealResult {
    played_with_honors(declarer, contract, tricks, None)
}

fn played_with_honors(declarer: Side, contract: &str, tricks: u8, honors: Option<HonorsClaim>) -> DealResult {
    let contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
    let tricks = Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}"));
    DealResult::Played(PlayedDeal::new(declarer, contract, tricks, honors).unwrap_or_else(|e| panic!("{e}")))
}

fn rubber(deals: &[DealResult]) -> Rubber {
    deals.iter().fold(Rubber::new(RubberOptions::default()), |r, d| r.record(*d).unwrap_or_else(|e| panic!("{e}")))
}

/// (side, line, points, kind) of the live entries of deal `index`.
fn deal_entries(rubber: &Rubber, index: usize) -> Vec<(Side, Line, u32, EntryKind)> {
    rubber.live_entries().filter(|e| e.deal == Some(index)).map(|e| (e.side, e.line, e.points, e.kind)).collect()
}

fn replayed(outcome: Corrected) -> (Rubber, laws::score::pad::Changes) {
    match outcome {
        Corrected::Replayed { rubber, changes } => (rubber, changes),
        Corrected::ArbiterNeeded(conflict) => panic!("unexpected conflict: {conflict}"),
    }
}

#[test]
fn law_81_s1_to_s3_trick_points_below_and_games() {
    // S1: 4S NV 10 tricks: 120 below, a game.
    let r = rubber(&[played(NS, "4S", 10)]);
    assert_eq!(deal_entries(&r, 0), vec![(NS, Line::Below, 120, EntryKind::TrickPoints)]);
    assert_eq!(r.games_won(NS), 1);
    // S2: 2NT 8 tricks: 70, a partscore; S3: 4D 10 tricks: 80.
    let r = rubber(&[played(NS, "2NT", 8), played(EW, "4D", 10)]);
    assert_eq!((r.below_the_line(NS), r.below_the_line(EW), r.games_won(NS) + r.games_won(EW)), (70, 80, 0));
    // 5D 11 tricks and 3NT 9 tricks are 100: games.
    assert_eq!(rubber(&[played(EW, "5D", 11)]).games_won(EW), 1);
    assert_eq!(rubber(&[played(EW, "3NT", 9)]).games_won(EW), 1);
}

#[test]
fn law_81_s4_to_s8_insult_overtricks_and_slams() {
    // S4: 1NT redoubled, 7 tricks: 160 below (a game) + 100 insult.
    let r = rubber(&[played(NS, "1NTXX", 7)]);
    assert_eq!(
        deal_entries(&r, 0),
        vec![(NS, Line::Below, 160, EntryKind::TrickPoints), (NS, Line::Above, 100, EntryKind::Insult)]
    );
    assert_eq!(r.games_won(NS), 1);
    // S5: 2C doubled, 8 tricks: 80 below, not a game, + 50.
    let r = rubber(&[played(NS, "2CX", 8)]);
    assert_eq!((r.below_the_line(NS), r.games_won(NS), r.total(NS)), (80, 0, 130));
    // S6: 3S doubled NV 10 tricks: 180 + 50 + 100.
    assert_eq!(rubber(&[played(NS, "3SX", 10)]).total(NS), 330);
    // S7: 6S vulnerable, 13 tricks: 180 + 30 + 750. (NS vulnerable after a first game.)
    let r = rubber(&[played(NS, "3NT", 9), played(NS, "6S", 13)]);
    assert_eq!(
        deal_entries(&r, 1)[..3],
        [
            (NS, Line::Below, 180, EntryKind::TrickPoints),
            (NS, Line::Above, 30, EntryKind::Overtricks),
            (NS, Line::Above, 750, EntryKind::Slam),
        ]
    );
    // S8: 7NT redoubled vulnerable: 880 + 100 + 1500.
    let r = rubber(&[played(EW, "3NT", 9), played(EW, "7NTXX", 13)]);
    let s8: u32 = deal_entries(&r, 1).iter().filter(|e| e.3 != EntryKind::RubberBonus).map(|e| e.2).sum();
    assert_eq!(s8, 880 + 100 + 1500);
}

#[test]
fn law_81_s9_undertricks_go_to_the_defenders_by_declarers_vulnerability() {
    // 4H doubled, down 3: NV 500, V 800.
    let r = rubber(&[played(NS, "4HX", 7)]);
    assert_eq!(deal_entries(&r, 0), vec![(EW, Line::Above, 500, EntryKind::Undertricks)]);
    let r = rubber(&[played(NS, "3NT", 9), played(NS, "4HX", 7)]);
    assert_eq!(deal_entries(&r, 1), vec![(EW, Line::Above, 800, EntryKind::Undertricks)]);
    let r = rubber(&[played(NS, "3NT", 9), played(NS, "4HXX", 7)]);
    assert_eq!(deal_entries(&r, 1), vec![(EW, Line::Above, 1600, EntryKind::Undertricks)]);
}

#[test]
fn law_81_s10_honors_count_for_the_holders_whether_or_not_the_contract_makes() {
    let defenders_honors = Some(HonorsClaim { side: EW, honors: Honors::FourTrumpHonors });
    let made = rubber(&[played_with_honors(NS, "4S", 10, defenders_honors)]);
    assert!(deal_entries(&made, 0).contains(&(EW, Line::Above, 100, EntryKind::Honors)));
    let defeated = rubber(&[played_with_honors(NS, "4S", 9, defenders_honors)]);
    assert_eq!(
        deal_entries(&defeated, 0),
        vec![(EW, Line::Above, 50, EntryKind::Undertricks), (EW, Line::Above, 100, EntryKind::Honors)]
    );
}

#[test]
fn law_81_s11_four_aces_score_only_at_notrump() {
    let aces = Some(HonorsClaim { side: NS, honors: Honors::FourAces });
    let r = rubber(&[played_with_honors(NS, "3NT", 9, aces)]);
    assert!(deal_entries(&r, 0).contains(&(NS, Line::Above, 150, EntryKind::Honors)));
    let contract = "4S".parse().unwrap_or_else(|e| panic!("{e}"));
    let tricks = Tricks::new(10).unwrap_or_else(|e| panic!("{e}"));
    let err = PlayedDeal::new(NS, contract, tricks, aces).err().unwrap_or_else(|| panic!("aces at spades accepted"));
    assert_eq!(err.law(), Law::rubber(81, ""));
}

#[test]
fn law_73_s12_a_game_wipes_both_sides_partscores() {
    // NS have 60 below; EW make 4H (120, game): NS's 60 no longer counts.
    let r = rubber(&[played(NS, "2S", 8), played(EW, "4H", 10)]);
    assert_eq!((r.below_the_line(NS), r.below_the_line(EW)), (0, 0));
    // NS's next 2S (60) is a partscore in the new game, not a game with the old 60.
    let r = r.record(played(NS, "2S", 8)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.games_won(NS), r.below_the_line(NS)), (0, 60));
    // The entries keep the game they were scored in (Law 75: a line under both sides).
    let games: Vec<u8> = r.live_entries().filter(|e| e.line == Line::Below).map(|e| e.game).collect();
    assert_eq!(games, vec![0, 0, 1]);
}

#[test]
fn law_73_partscores_add_up_to_a_game() {
    let r = rubber(&[played(NS, "2H", 8), played(NS, "1NT", 7)]);
    assert_eq!(r.games_won(NS), 1);
    assert!(r.deals()[1].completed_game && !r.deals()[0].completed_game);
}

#[test]
fn definitions_a_side_is_vulnerable_once_it_has_won_a_game() {
    let r = rubber(&[]);
    assert_eq!(r.vulnerability(), Vulnerability::None);
    let r = rubber(&[played(EW, "4S", 10)]);
    assert_eq!(r.vulnerability(), Vulnerability::EastWest);
    let r = r.record(played(NS, "3NT", 9)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.vulnerability(), Vulnerability::Both);
    assert_eq!(r.deals()[1].vulnerability, Vulnerability::EastWest, "the deal records the vulnerability it had");
}

#[test]
fn law_74_t10_rubber_bonus_700_two_games_to_none_500_two_to_one() {
    let two_nil = rubber(&[played(NS, "4S", 10), played(NS, "3NT", 9)]);
    assert_eq!(two_nil.status(), RubberStatus::Won { winner: NS, deal: 1 });
    assert!(deal_entries(&two_nil, 1).contains(&(NS, Line::Above, 700, EntryKind::RubberBonus)));
    let two_one = rubber(&[played(NS, "4S", 10), played(EW, "4H", 10), played(NS, "3NT", 9)]);
    assert!(deal_entries(&two_one, 2).contains(&(NS, Line::Above, 500, EntryKind::RubberBonus)));
}

#[test]
fn law_74_the_rubber_ends_at_a_sides_second_game() {
    let r = rubber(&[played(NS, "4S", 10), played(NS, "3NT", 9)]);
    let err = r.record(played(EW, "1NT", 7)).err().unwrap_or_else(|| panic!("a deal after the rubber"));
    assert_eq!(err.law(), Law::rubber(74, ""));
    assert!(err.to_string().contains("(Law 74)"), "{err}");
    assert!(r.abandon().is_err(), "a won rubber is not unfinished");
}

#[test]
fn law_80_s13_only_game_300_and_only_partscore_100() {
    // NS won one game; EW have 60 below in the current game; NS none.
    let r = rubber(&[played(NS, "4S", 10), played(EW, "2S", 8)]).abandon().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.status(), RubberStatus::Unfinished);
    let law_80: Vec<_> = r.live_entries().filter(|e| e.deal.is_none()).map(|e| (e.side, e.points, e.kind)).collect();
    assert_eq!(law_80, vec![(NS, 300, EntryKind::UnfinishedGame), (EW, 100, EntryKind::UnfinishedPartscore)]);
    let s = r.settlement();
    assert_eq!((s.total(NS), s.total(EW), s.winner, s.margin), (420, 160, Some(NS), 260));
    assert_eq!(r.record(played(NS, "1NT", 7)).err().map(|e| e.law()), Some(Law::rubber(80, "")));
}

#[test]
fn law_80_one_game_each_earns_no_300_and_two_partscores_no_100() {
    // "If only one game has been completed": with a game each, none; "if only one side has a
    // partscore": with both, none.
    let r = rubber(&[played(NS, "4S", 10), played(EW, "4H", 10), played(NS, "1NT", 7), played(EW, "1S", 7)]);
    let r = r.abandon().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.live_entries().filter(|e| e.deal.is_none()).count(), 0);
}

#[test]
fn appendix_4_h2_t5_net_rounded_to_hundreds_only_when_the_club_says_so() {
    // EW's 50 for defeating a 2S, then NS 4S (120) + 3NT (100) + 700 = 920: margin 870.
    let deals = [played(NS, "2S", 7), played(NS, "4S", 10), played(NS, "3NT", 9)];
    let plain = rubber(&deals).settlement();
    assert_eq!((plain.margin, plain.rounded_margin), (870, None));
    let rounding = deals.iter().fold(Rubber::new(RubberOptions { round_to_hundreds: true }), |r, d| {
        r.record(*d).unwrap_or_else(|e| panic!("{e}"))
    });
    assert_eq!(rounding.settlement().rounded_margin, Some(900));
}

#[test]
fn appendix_4_h4_t6_every_deal_is_recorded_even_with_no_net_advantage() {
    // One side earns 100 in undertricks, the other 100 in honors.
    let honors = Some(HonorsClaim { side: NS, honors: Honors::FourTrumpHonors });
    let r = rubber(&[played_with_honors(NS, "4S", 8, honors), DealResult::PassedOut]);
    assert_eq!(r.deals().len(), 2);
    let s = r.settlement();
    assert_eq!((s.total(NS), s.total(EW), s.winner), (100, 100, None));
    assert!(deal_entries(&r, 1).is_empty(), "a passed-out deal scores nothing, honors included");
}

#[test]
fn law_78_a_corrected_result_replays_the_rubber_from_that_deal() {
    // NS 2H (60) + 1NT (40) make a game; then EW 4S makes theirs. The 2H is corrected to
    // down one: NS's 1NT no longer completes a game, and EW's 4S is in the first game.
    let r = rubber(&[played(NS, "2H", 8), played(NS, "1NT", 7), played(EW, "4S", 10)]);
    let (fixed, changes) = replayed(r.correct(0, played(NS, "2H", 7)).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!((fixed.games_won(NS), fixed.games_won(EW)), (0, 1));
    assert_eq!(fixed.below_the_line(NS), 0, "EW's game wiped NS's 40");
    assert_eq!(deal_entries(&fixed, 0), vec![(EW, Line::Above, 50, EntryKind::Undertricks)]);
    // Deal 2's 40 is unchanged and stays; deal 1's 60 and deal 3's entry (now in game 0) move.
    let struck: Vec<_> =
        changes.struck.iter().map(|i| (fixed.entries()[*i].deal, fixed.entries()[*i].points)).collect();
    assert_eq!(struck, vec![(Some(0), 60), (Some(2), 120)]);
    assert_eq!(changes.added.len(), 2);
    assert!(changes.struck.iter().all(|i| fixed.entries()[*i].struck == Some(StrikeReason::Corrected { deal: 0 })));
    assert_eq!(fixed.entries().len(), r.entries().len() + 2, "struck entries stay on the pad");
    assert_eq!((fixed.total(NS), fixed.total(EW)), (40, 170));
}

#[test]
fn law_78_a_correction_moves_later_vulnerability_and_premiums() {
    // EW won a game, so their 4H doubled down two cost 500 (vulnerable). Corrected: the first
    // deal was 4S down one, so EW were not vulnerable on deal 2 and it cost 300.
    let r = rubber(&[played(EW, "4S", 10), played(EW, "4HX", 8)]);
    assert_eq!(deal_entries(&r, 1), vec![(NS, Line::Above, 500, EntryKind::Undertricks)]);
    let (fixed, _) = replayed(r.correct(0, played(EW, "4S", 9)).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(fixed.deals()[1].vulnerability, Vulnerability::None);
    assert_eq!(deal_entries(&fixed, 1), vec![(NS, Line::Above, 300, EntryKind::Undertricks)]);
}

#[test]
fn law_78_a_replay_that_ends_the_rubber_earlier_is_for_the_arbiter() {
    let deals = [played(NS, "4S", 10), played(NS, "3S", 9), played(EW, "3NT", 9), played(NS, "4H", 10)];
    let r = rubber(&deals);
    assert_eq!(r.status(), RubberStatus::Won { winner: NS, deal: 3 });
    // The second deal was really 4S: NS won 2-0 there, yet two more deals were played.
    match r.correct(1, played(NS, "4S", 10)) {
        Ok(Corrected::ArbiterNeeded(conflict @ EndConflict::EndsEarlier { ended_at: 1, recorded: 4 })) => {
            assert_eq!(conflict.law(), Law::rubber(78, ""));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
}

#[test]
fn law_78_a_replay_that_unends_the_rubber_is_for_the_arbiter() {
    let r = rubber(&[played(NS, "4S", 10), played(EW, "3NT", 9), played(NS, "4H", 10)]);
    match r.correct(2, played(NS, "4H", 9)) {
        Ok(Corrected::ArbiterNeeded(EndConflict::NotYetEnded { recorded_end: 2 })) => {}
        other => panic!("expected a conflict, got {other:?}"),
    }
}

#[test]
fn law_78_a_correction_may_finish_a_rubber_on_its_last_deal() {
    let r = rubber(&[played(NS, "4S", 10), played(NS, "3NT", 8)]);
    assert_eq!(r.status(), RubberStatus::InProgress);
    let (fixed, _) = replayed(r.correct(1, played(NS, "3NT", 9)).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(fixed.status(), RubberStatus::Won { winner: NS, deal: 1 });
    assert_eq!(fixed.total(NS), 120 + 100 + 700);
}

#[test]
fn law_78_correcting_an_unfinished_rubber_rescores_law_80() {
    // Closed with NS's only partscore (100); corrected so that EW had the partscore.
    let r = rubber(&[played(NS, "2S", 8)]).abandon().unwrap_or_else(|e| panic!("{e}"));
    let (fixed, _) = replayed(r.correct(0, played(EW, "2S", 8)).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(fixed.status(), RubberStatus::Unfinished);
    let law_80: Vec<_> = fixed.live_entries().filter(|e| e.deal.is_none()).map(|e| (e.side, e.points)).collect();
    assert_eq!(law_80, vec![(EW, 100)]);
    assert_eq!((fixed.total(NS), fixed.total(EW)), (0, 160));
}

#[test]
fn law_78_a_deal_not_on_the_pad() {
    let r = rubber(&[played(NS, "2S", 8)]);
    assert_eq!(r.correct(3, DealResult::PassedOut).err().map(|e| e.law()), Some(Law::rubber(78, "")));
}

#[test]
fn law_72_recording_leaves_the_previous_pad_unchanged() {
    let before = rubber(&[played(NS, "2S", 8)]);
    let copy = before.clone();
    let _after = before.record(played(NS, "2S", 8)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(before, copy);
}

#[test]
fn law_9_the_deal_passes_clockwise_after_every_deal_passed_out_or_played() {
    use laws::Seat;
    use laws::score::rubber::dealer_of;
    // Law 22A: after a passed-out deal the next dealer in rotation deals; so deal n is dealt by
    // the n-th seat after the first dealer whatever happened on earlier deals.
    assert_eq!(dealer_of(Seat::North, 0), Seat::North);
    assert_eq!(dealer_of(Seat::North, 1), Seat::East);
    assert_eq!(dealer_of(Seat::West, 1), Seat::North);
    assert_eq!(dealer_of(Seat::South, 6), Seat::North);
}
