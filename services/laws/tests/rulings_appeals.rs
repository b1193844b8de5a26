//! The Club Appeals Committee overruling the arbiter (Laws of Rubber Bridge, Part VIII): the
//! worked cases A1-A8 (docs/worked-cases.md) and rules 1-7 of docs/laws-readings.md, "Appeals".

use laws::cards::Deal;
use laws::rulings::AppealError;
use laws::score::chicago::{Chicago, ChicagoOptions};
use laws::score::pad::{EntryKind, Line, StrikeReason};
use laws::score::rubber::{DealResult, PlayedDeal, Rubber, RubberOptions};
use laws::score::{Tricks, honors::Honors, honors::HonorsClaim};
use laws::{CitesLaw, Law, Seat, Side};

const NS: Side = Side::NorthSouth;
const EW: Side = Side::EastWest;

fn with_honors(declarer: Side, contract: &str, tricks: u8, honors: Option<HonorsClaim>) -> DealResult {
    let contract = contract.parse().unwrap_or_else(|e| panic!("{e}"));
    let tricks = Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}"));
    DealResult::Played(PlayedDeal::new(declarer, contract, tricks, honors).unwrap_or_else(|e| panic!("{e}")))
}

fn played(declarer: Side, contract: &str, tricks: u8) -> DealResult {
    with_honors(declarer, contract, tricks, None)
}

fn rubber(deals: &[DealResult]) -> Rubber {
    deals.iter().fold(Rubber::new(RubberOptions::default()), |r, d| r.record(*d).unwrap_or_else(|e| panic!("{e}")))
}

fn overrule(r: &Rubber, index: usize, result: DealResult) -> (Rubber, laws::score::pad::Changes) {
    r.overrule(index, result, None).unwrap_or_else(|e| panic!("{e}"))
}

type Scored = (Side, Line, u32, EntryKind);

fn deal_entries(r: &Rubber, index: usize) -> Vec<Scored> {
    r.live_entries().filter(|e| e.deal == Some(index)).map(|e| (e.side, e.line, e.points, e.kind)).collect()
}

/// The pad after deal `index`, as the later deals and the games see it: nothing there may
/// move (rule 1).
fn later_state(r: &Rubber, index: usize) -> (Vec<Scored>, [u8; 2], laws::score::rubber::RubberStatus) {
    let later = r
        .live_entries()
        .filter(|e| e.deal.is_none_or(|d| d > index) || e.kind == EntryKind::RubberBonus)
        .map(|e| (e.side, e.line, e.points, e.kind))
        .collect();
    (later, [r.games_won(NS), r.games_won(EW)], r.status())
}

#[test]
fn club_appeals_a1_defeated_now_made_vulnerable_against_not_400() {
    // NS vulnerable, EW not. NS 4S down one: EW +100. Ruled made, 10 tricks.
    let r = rubber(&[played(NS, "3NT", 9), played(NS, "4S", 9), played(EW, "2H", 8)]);
    let (ruled, changes) = overrule(&r, 1, played(NS, "4S", 10));
    assert_eq!(
        deal_entries(&ruled, 1),
        vec![(NS, Line::Above, 120, EntryKind::TrickPoints), (NS, Line::Above, 400, EntryKind::AppealPremiumFulfilled)]
    );
    assert_eq!(later_state(&ruled, 1), later_state(&r, 1), "no game created; later deals unchanged");
    assert_eq!(changes.struck.len(), 1);
    assert_eq!(ruled.entries()[changes.struck[0]].struck, Some(StrikeReason::Overruled { deal: 1 }));
    assert_eq!(ruled.entries()[changes.struck[0]].points, 100);
    assert_eq!(ruled.total(EW), r.total(EW) - 100);
}

#[test]
fn club_appeals_a2_partscore_that_would_not_reach_100_gets_100() {
    let r = rubber(&[played(NS, "2H", 7)]);
    let (ruled, _) = overrule(&r, 0, played(NS, "2H", 8));
    assert_eq!(
        deal_entries(&ruled, 0),
        vec![(NS, Line::Above, 60, EntryKind::TrickPoints), (NS, Line::Above, 100, EntryKind::AppealPremiumFulfilled)]
    );
    assert_eq!(ruled.games_won(NS), 0);
}

#[test]
fn club_appeals_a3_partscore_completing_100_counts_as_any_other_contract() {
    // NS had 40 below: 40 + 60 = 100, so 300 (not vulnerable).
    let r = rubber(&[played(NS, "2C", 8), played(NS, "2H", 7)]);
    let (ruled, _) = overrule(&r, 1, played(NS, "2H", 8));
    assert!(deal_entries(&ruled, 1).contains(&(NS, Line::Above, 300, EntryKind::AppealPremiumFulfilled)));
    assert_eq!((ruled.games_won(NS), ruled.below_the_line(NS)), (0, 40), "the game is not created");
}

#[test]
fn club_appeals_a4_both_vulnerable_500() {
    let r = rubber(&[played(NS, "4S", 10), played(EW, "4S", 10), played(EW, "3NT", 7)]);
    assert_eq!(deal_entries(&r, 2), vec![(NS, Line::Above, 200, EntryKind::Undertricks)]);
    let (ruled, _) = overrule(&r, 2, played(EW, "3NT", 9));
    assert_eq!(
        deal_entries(&ruled, 2),
        vec![(EW, Line::Above, 100, EntryKind::TrickPoints), (EW, Line::Above, 500, EntryKind::AppealPremiumFulfilled)]
    );
}

#[test]
fn club_appeals_a5_made_game_now_defeated_after_a_two_nil_rubber() {
    // EW had 40 below, NS none; NS (not vulnerable) made 4S for the game and won 2-0.
    let r = rubber(&[played(EW, "2C", 8), played(NS, "4S", 10), played(NS, "3NT", 9)]);
    let before = later_state(&r, 1);
    let (ruled, _) = overrule(&r, 1, played(NS, "4S", 9));
    assert_eq!(
        deal_entries(&ruled, 1).iter().filter(|e| e.3 != EntryKind::RubberBonus).copied().collect::<Vec<_>>(),
        vec![
            (EW, Line::Above, 50, EntryKind::Undertricks),
            (EW, Line::Above, 100, EntryKind::AppealPremiumDefeated),
            (EW, Line::Above, 500, EntryKind::AppealPremiumDefeated),
        ]
    );
    assert_eq!(later_state(&ruled, 1), before, "NS keep the 700 and their games");
    assert!(ruled.live_entries().any(|e| (e.side, e.points, e.kind) == (NS, 700, EntryKind::RubberBonus)));
}

#[test]
fn club_appeals_a6_defenders_won_two_to_one_get_200() {
    // EW won 2-1; NS's only game came from deal 2.
    let r = rubber(&[played(EW, "4S", 10), played(NS, "4H", 10), played(EW, "3NT", 9)]);
    let (ruled, _) = overrule(&r, 1, played(NS, "4H", 9));
    assert_eq!(
        deal_entries(&ruled, 1),
        vec![(EW, Line::Above, 50, EntryKind::Undertricks), (EW, Line::Above, 200, EntryKind::AppealPremiumDefeated)]
    );
}

#[test]
fn club_appeals_a7_declarer_won_two_to_one_no_500_or_200() {
    // NS won 2-1 and deal 1 was one of NS's games; EW had a partscore alone before it.
    let r = rubber(&[played(EW, "1S", 7), played(NS, "4S", 10), played(EW, "4H", 10), played(NS, "3NT", 9)]);
    let (ruled, _) = overrule(&r, 1, played(NS, "4S", 9));
    assert_eq!(
        deal_entries(&ruled, 1),
        vec![(EW, Line::Above, 50, EntryKind::Undertricks), (EW, Line::Above, 100, EntryKind::AppealPremiumDefeated)]
    );
}

#[test]
fn club_appeals_unfinished_rubber_gives_no_500_or_200() {
    let r = rubber(&[played(NS, "4S", 10)]).abandon().unwrap_or_else(|e| panic!("{e}"));
    let (ruled, _) = overrule(&r, 0, played(NS, "4S", 9));
    assert_eq!(deal_entries(&ruled, 0), vec![(EW, Line::Above, 50, EntryKind::Undertricks)]);
    assert!(ruled.live_entries().any(|e| e.kind == EntryKind::UnfinishedGame), "Law 80 premium stands");
}

#[test]
fn club_appeals_a8_made_to_made_changes_only_the_overtricks() {
    let r = rubber(&[played(NS, "4S", 10), played(EW, "2H", 8)]);
    let (ruled, changes) = overrule(&r, 0, played(NS, "4S", 11));
    assert_eq!(
        deal_entries(&ruled, 0),
        vec![(NS, Line::Below, 120, EntryKind::TrickPoints), (NS, Line::Above, 30, EntryKind::Overtricks)]
    );
    assert!(changes.struck.is_empty() && changes.added.len() == 1);
    assert_eq!(ruled.total(NS), r.total(NS) + 30);
}

#[test]
fn club_appeals_defeated_to_defeated_and_made_partscore_to_defeated_earn_no_premium() {
    let r = rubber(&[played(NS, "4S", 9), played(NS, "2S", 8)]);
    let (ruled, _) = overrule(&r, 0, played(NS, "4S", 8));
    assert_eq!(deal_entries(&ruled, 0), vec![(EW, Line::Above, 100, EntryKind::Undertricks)]);
    let (ruled, _) = overrule(&r, 1, played(NS, "2S", 7));
    assert_eq!(deal_entries(&ruled, 1), vec![(EW, Line::Above, 50, EntryKind::Undertricks)]);
}

#[test]
fn club_appeals_the_new_result_uses_the_vulnerability_recorded_for_the_deal() {
    // Deal 1 was played before NS's game: they were not vulnerable then.
    let r = rubber(&[played(NS, "3HX", 7), played(NS, "3NT", 9)]);
    let (ruled, _) = overrule(&r, 0, played(NS, "3HX", 6));
    assert_eq!(deal_entries(&ruled, 0), vec![(EW, Line::Above, 500, EntryKind::Undertricks)]);
}

/// North holds the spade A K Q J and all four aces.
fn hands() -> Deal {
    "N:AKQJ2.A32.A32.A2 T987.KQJ.KQJ.KQJ 6543.T98.T98.T98 .7654.7654.76543".parse().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn club_appeals_rule_7_honors_stand_unless_the_denomination_changes() {
    let spade_honors = Some(HonorsClaim { side: NS, honors: Honors::FourTrumpHonors });
    let r = rubber(&[with_honors(NS, "4S", 9, spade_honors)]);
    // Same denomination: the honors must stand.
    let err = r.overrule(0, played(NS, "4S", 10), None).err().unwrap_or_else(|| panic!("honors dropped"));
    assert_eq!(err, AppealError::HonorsStand { recorded: spade_honors });
    assert_eq!(err.law(), Law::club_appeals());
    let (ruled, _) = r.overrule(0, with_honors(NS, "4S", 10, spade_honors), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(deal_entries(&ruled, 0).contains(&(NS, Line::Above, 100, EntryKind::Honors)));
    // A new denomination: honors follow the hands (four aces at notrump, 150).
    let aces = Some(HonorsClaim { side: NS, honors: Honors::FourAces });
    let (ruled, _) = r.overrule(0, with_honors(NS, "3NT", 9, aces), Some(&hands())).unwrap_or_else(|e| panic!("{e}"));
    assert!(deal_entries(&ruled, 0).contains(&(NS, Line::Above, 150, EntryKind::Honors)));
    let err = r.overrule(0, played(NS, "3NT", 9), Some(&hands())).err();
    assert_eq!(err, Some(AppealError::HonorsContradictHands { from_hands: aces }));
}

#[test]
fn club_appeals_passed_out_deals_are_not_covered() {
    let r = rubber(&[DealResult::PassedOut, played(NS, "2S", 8)]);
    assert_eq!(r.overrule(0, played(NS, "2S", 8), None).err(), Some(AppealError::PassedOut { index: 0 }));
    assert_eq!(r.overrule(1, DealResult::PassedOut, None).err(), Some(AppealError::PassedOut { index: 1 }));
    assert!(matches!(r.overrule(5, DealResult::PassedOut, None), Err(AppealError::NoSuchDeal { index: 5, .. })));
}

#[test]
fn club_appeals_rule_6_chicago_rescores_only_that_deal_with_its_vulnerability() {
    let deal = |c: Chicago, d| c.record(d).unwrap_or_else(|e| panic!("{e}"));
    let c = [played(NS, "2S", 8), played(NS, "4S", 9), played(NS, "2D", 8)]
        .into_iter()
        .fold(Chicago::new(Seat::North, ChicagoOptions::default()), deal);
    // Deal 2 (dealer East, NS not vulnerable) ruled made: 120 above, game premium 300 (NS's
    // 60 partscore before it). Deal 3 stands, though with the game it would have changed.
    let (ruled, changes) = c.overrule(1, played(NS, "4S", 10), None).unwrap_or_else(|e| panic!("{e}"));
    let deal_2: Vec<_> =
        ruled.live_entries().filter(|e| e.deal == Some(1)).map(|e| (e.side, e.line, e.points, e.kind)).collect();
    assert_eq!(
        deal_2,
        vec![(NS, Line::Above, 120, EntryKind::TrickPoints), (NS, Line::Above, 300, EntryKind::GamePremium)]
    );
    let later = |c: &Chicago| c.live_entries().filter(|e| e.deal == Some(2)).copied().collect::<Vec<_>>();
    assert_eq!(later(&ruled), later(&c));
    assert_eq!(changes.struck.len(), 1, "EW's 50 for the undertrick");
}
