//! Chicago (Laws of Rubber Bridge, Appendix 4): the worked cases S14-S16, T4 and T11
//! (docs/worked-cases.md) and one test per rule of the appendix.

use laws::score::chicago::{Chicago, ChicagoError, ChicagoOptions, vulnerability};
use laws::score::pad::{EntryKind, Line};
use laws::score::rubber::{DealResult, PlayedDeal};
use laws::score::{Tricks, honors::Honors, honors::HonorsClaim};
use laws::{CitesLaw, Law, Seat, Side, Vulnerability};

const NS: Side = Side::NorthSouth;
const EW: Side = Side::EastWest;

fn played(declarer: Side, contract: &str, tricks: u8) -> DealResult {
    let contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
    let tricks = Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}"));
    DealResult::Played(PlayedDeal::new(declarer, contract, tricks, None).unwrap_or_else(|e| panic!("{e}")))
}

fn chicago(deals: &[DealResult]) -> Chicago {
    chicago_with(ChicagoOptions::default(), deals)
}

fn chicago_with(options: ChicagoOptions, deals: &[DealResult]) -> Chicago {
    deals.iter().fold(Chicago::new(Seat::North, options), |c, d| c.record(*d).unwrap_or_else(|e| panic!("{e}")))
}

fn deal_entries(c: &Chicago, index: usize) -> Vec<(Side, Line, u32, EntryKind)> {
    c.live_entries().filter(|e| e.deal == Some(index)).map(|e| (e.side, e.line, e.points, e.kind)).collect()
}

#[test]
fn appendix_4_c_vulnerability_schedule() {
    // Deal 1 neither; deals 2 and 3 the dealer's side; deal 4 both.
    assert_eq!(vulnerability(1, Seat::North, false), Some(Vulnerability::None));
    assert_eq!(vulnerability(2, Seat::East, false), Some(Vulnerability::EastWest));
    assert_eq!(vulnerability(3, Seat::South, false), Some(Vulnerability::NorthSouth));
    assert_eq!(vulnerability(4, Seat::West, false), Some(Vulnerability::Both));
    // By mutual agreement the vulnerability on deals 2 and 3 may be switched.
    assert_eq!(vulnerability(2, Seat::East, true), Some(Vulnerability::NorthSouth));
    assert_eq!(vulnerability(5, Seat::North, false), None);
    let c = chicago(&[played(NS, "1NT", 7)]);
    assert_eq!(
        (c.next_number(), c.next_dealer(), c.next_vulnerability()),
        (Some(2), Seat::East, Some(Vulnerability::EastWest))
    );
}

#[test]
fn appendix_4_b_a_passed_out_deal_is_redealt_by_the_same_dealer_and_does_not_count() {
    let c = chicago(&[DealResult::PassedOut, DealResult::PassedOut, played(NS, "1NT", 7)]);
    assert_eq!(
        c.deals().iter().map(|d| (d.number, d.dealer)).collect::<Vec<_>>(),
        vec![(None, Seat::North), (None, Seat::North), (Some(1), Seat::North)]
    );
    assert_eq!(c.next_dealer(), Seat::East);
}

#[test]
fn appendix_4_b_t11_a_fifth_deal_is_void() {
    let c = chicago(&[played(NS, "1NT", 7), played(NS, "1NT", 7), played(NS, "1NT", 7), played(NS, "1NT", 7)]);
    assert!(c.is_complete());
    let err = c.record(played(EW, "1NT", 7)).err().unwrap_or_else(|| panic!("a fifth deal was scored"));
    assert_eq!(err, ChicagoError::DealVoid);
    assert_eq!(err.law(), Law::chicago('B', ""));
    assert!(c.record(DealResult::PassedOut).is_err(), "nor is a fifth deal passed out");
}

#[test]
fn appendix_4_d_s14_game_premium_by_that_deals_vulnerability() {
    // Deal 2, dealer East: EW vulnerable, NS not.
    let first = played(NS, "1C", 6);
    let ns = chicago(&[first, played(NS, "4S", 10)]);
    assert_eq!(
        deal_entries(&ns, 1),
        vec![(NS, Line::Below, 120, EntryKind::TrickPoints), (NS, Line::Above, 300, EntryKind::GamePremium)]
    );
    let ew = chicago(&[first, played(EW, "4S", 10)]);
    assert!(deal_entries(&ew, 1).contains(&(EW, Line::Above, 500, EntryKind::GamePremium)));
}

#[test]
fn appendix_4_f_s15_a_partscore_on_deal_4_earns_100() {
    let c = chicago(&[played(EW, "1C", 6), played(EW, "1C", 6), played(EW, "1C", 6), played(NS, "2H", 8)]);
    assert_eq!(
        deal_entries(&c, 3),
        vec![(NS, Line::Below, 60, EntryKind::TrickPoints), (NS, Line::Above, 100, EntryKind::FourthDealPartscore)]
    );
}

#[test]
fn appendix_4_f_the_deal_4_premium_is_scored_whatever_partscores_the_other_side_has() {
    let c = chicago(&[played(EW, "2S", 8), played(NS, "1C", 6), played(NS, "1C", 6), played(NS, "2H", 8)]);
    assert_eq!(c.below_the_line(EW), 60);
    assert!(deal_entries(&c, 3).contains(&(NS, Line::Above, 100, EntryKind::FourthDealPartscore)));
}

#[test]
fn appendix_4_f_a_game_on_deal_4_earns_the_game_premium_only() {
    let c = chicago(&[played(EW, "1C", 6), played(EW, "1C", 6), played(EW, "1C", 6), played(NS, "4S", 10)]);
    assert_eq!(
        deal_entries(&c, 3),
        vec![(NS, Line::Below, 120, EntryKind::TrickPoints), (NS, Line::Above, 500, EntryKind::GamePremium)]
    );
}

#[test]
fn appendix_4_f_s16_partscores_carry_forward_and_the_completing_deal_sets_the_premium() {
    // Deal 1 NS 2S (60); deal 3 (dealer South, NS vulnerable) NS 2D (40): game, 500.
    let c = chicago(&[played(NS, "2S", 8), played(EW, "1C", 6), played(NS, "2D", 8)]);
    assert!(deal_entries(&c, 2).contains(&(NS, Line::Above, 500, EntryKind::GamePremium)));
    assert_eq!(c.below_the_line(NS), 0);
    assert!(c.deals()[2].completed_game);
}

#[test]
fn appendix_4_f_a_game_stops_every_earlier_partscore_counting() {
    // NS 60 on deal 1; EW make a game on deal 2; NS's 40 on deal 3 does not complete a game.
    let c = chicago(&[played(NS, "2S", 8), played(EW, "4H", 10), played(NS, "2D", 8)]);
    assert_eq!(c.below_the_line(NS), 40);
    assert!(!deal_entries(&c, 2).iter().any(|e| e.3 == EntryKind::GamePremium));
}

#[test]
fn appendix_4_h4_t4_doubled_overtrick_completing_a_game_totals_870() {
    // 2S doubled, vulnerable (deal 4), 9 tricks: 120 + 50 + 500 + 200 = 870.
    let c = chicago(&[played(EW, "1C", 6), played(EW, "1C", 6), played(EW, "1C", 6), played(NS, "2SX", 9)]);
    let total: u32 = deal_entries(&c, 3).iter().map(|e| e.2).sum();
    assert_eq!(total, 870);
}

#[test]
fn appendix_4_honors_count_and_there_is_no_rubber_premium() {
    let honors = Some(HonorsClaim { side: EW, honors: Honors::FiveTrumpHonors });
    let contract = "4S".parse().unwrap_or_else(|e| panic!("{e}"));
    let tricks = Tricks::new(10).unwrap_or_else(|e| panic!("{e}"));
    let with_honors =
        DealResult::Played(PlayedDeal::new(NS, contract, tricks, honors).unwrap_or_else(|e| panic!("{e}")));
    let c = chicago(&[with_honors, played(NS, "3NT", 9), played(NS, "1C", 7), played(NS, "1C", 7)]);
    assert!(deal_entries(&c, 0).contains(&(EW, Line::Above, 150, EntryKind::Honors)));
    assert!(c.live_entries().all(|e| e.kind != EntryKind::RubberBonus));
    // NS: 120+300, 100+300 (deal 2 dealer East: NS not vulnerable), 20, 20+100 (deal 4).
    assert_eq!(c.settlement().total(NS), 420 + 400 + 20 + 120);
}

#[test]
fn appendix_4_b_a_short_series_stands() {
    let c = chicago(&[played(NS, "2S", 8)]);
    let s = c.settlement();
    assert_eq!((s.total(NS), s.winner, s.margin), (60, Some(NS), 60));
}

#[test]
fn law_78_chicago_correction_replays_later_premiums() {
    // S16 with deal 1 corrected to down one: NS's 2D on deal 3 no longer completes a game.
    let c = chicago(&[played(NS, "2S", 8), played(EW, "1C", 6), played(NS, "2D", 8)]);
    let (fixed, changes) = c.correct(0, played(NS, "2S", 7)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!deal_entries(&fixed, 2).iter().any(|e| e.3 == EntryKind::GamePremium));
    assert_eq!(fixed.below_the_line(NS), 40);
    assert_eq!(changes.struck.len(), 2, "deal 1's trick points and deal 3's premium");
    assert!(changes.struck.iter().all(|i| fixed.entries()[*i].struck.is_some()));
    let err = c.correct(0, DealResult::PassedOut).err();
    assert_eq!(err, Some(ChicagoError::CountChanges { index: 0 }));
}

#[test]
fn appendix_4_e_a_wrong_diagram_is_rescored_as_if_correct() {
    // Scored with North as first dealer; East really dealt first, so deal 2 (dealer South)
    // had NS vulnerable: NS's 4S game earns 500, not 300.
    let c = chicago(&[played(NS, "1C", 6), played(NS, "4S", 10)]);
    assert!(deal_entries(&c, 1).contains(&(NS, Line::Above, 300, EntryKind::GamePremium)));
    let (fixed, changes) = c.with_first_dealer(Seat::East);
    assert!(deal_entries(&fixed, 1).contains(&(NS, Line::Above, 500, EntryKind::GamePremium)));
    assert_eq!(fixed.deals()[1].dealer, Seat::South);
    assert!(!changes.struck.is_empty());
}

#[test]
fn appendix_4_c_swapped_vulnerability_on_deals_2_and_3() {
    let options = ChicagoOptions { swap_second_and_third: true, ..ChicagoOptions::default() };
    let c = chicago_with(options, &[played(NS, "1C", 6), played(NS, "4S", 10)]);
    assert_eq!(c.deals()[1].vulnerability, Vulnerability::NorthSouth);
    assert!(deal_entries(&c, 1).contains(&(NS, Line::Above, 500, EntryKind::GamePremium)));
}

#[test]
fn appendix_4_b_a_series_ended_short_stands_and_takes_no_more_deals() {
    // "If fewer than four deals have been played, the score stands for the short series."
    let c = chicago(&[played(NS, "2S", 8), played(EW, "4H", 10)]);
    let ended = c.end_short().unwrap_or_else(|e| panic!("{e}"));
    assert!(ended.is_closed());
    assert_eq!(ended.entries(), c.entries(), "nothing is added: no rubber or Law 80 premium in Chicago");
    assert_eq!(ended.settlement(), c.settlement());
    let refused = ended.record(played(NS, "1NT", 7)).unwrap_err();
    assert_eq!(refused, ChicagoError::Closed { counted: 2 });
    assert_eq!(refused.law(), Law::chicago('B', ""));
    assert_eq!(ended.end_short().unwrap_err(), ChicagoError::Closed { counted: 2 });
    // A complete series is not ended short: anything after the fourth deal is void.
    let four = chicago(&[played(NS, "2S", 8), played(EW, "4H", 10), played(NS, "1NT", 7), played(EW, "2C", 8)]);
    assert_eq!(four.end_short().unwrap_err(), ChicagoError::DealVoid);
    // A correction or a diagram correction keeps the series ended.
    let (fixed, _) = ended.correct(0, played(NS, "2S", 9)).unwrap_or_else(|e| panic!("{e}"));
    assert!(fixed.is_closed());
    assert!(ended.with_first_dealer(Seat::East).0.is_closed());
}
