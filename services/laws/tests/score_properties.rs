//! Properties of the scoring rules, over generated results.

use laws::contract::{Bid, Contract, Denomination, Doubling};
use laws::score::chicago::{Chicago, ChicagoOptions};
use laws::score::duplicate::{self, BoardResult};
use laws::score::imps::imps;
use laws::score::matchpoints::{matchpoints, top};
use laws::score::rubber::{Corrected, DealResult, PlayedDeal, Rubber, RubberOptions, RubberStatus};
use laws::score::session::{Method, PairId, Session, TableResult, TableScore};
use laws::score::{ContractScore, Tricks};
use laws::{DeclaredContract, Seat, Side, Vulnerability};
use proptest::prelude::*;

fn contract() -> impl Strategy<Value = Contract> {
    (1..=7u8, 0..5usize, 0..3usize).prop_map(|(level, denomination, doubling)| {
        let bid = Bid::new(level, Denomination::ALL[denomination]).unwrap_or_else(|| panic!("level {level}"));
        let doubling = [Doubling::Undoubled, Doubling::Doubled, Doubling::Redoubled][doubling];
        Contract::new(bid, doubling)
    })
}

fn tricks() -> impl Strategy<Value = Tricks> {
    (0..=13u8).prop_map(|n| Tricks::new(n).unwrap_or_else(|e| panic!("{e}")))
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::NorthSouth), Just(Side::EastWest)]
}

fn deal_result() -> impl Strategy<Value = DealResult> {
    prop_oneof![
        1 => Just(DealResult::PassedOut),
        6 => (side(), contract(), tricks()).prop_map(|(declarer, contract, tricks)| {
            DealResult::Played(PlayedDeal::new(declarer, contract, tricks, None).unwrap_or_else(|e| panic!("{e}")))
        }),
    ]
}

fn vulnerability() -> impl Strategy<Value = Vulnerability> {
    prop_oneof![
        Just(Vulnerability::None),
        Just(Vulnerability::NorthSouth),
        Just(Vulnerability::EastWest),
        Just(Vulnerability::Both)
    ]
}

/// Records deals until the rubber ends.
fn play(deals: &[DealResult]) -> Rubber {
    let mut rubber = Rubber::new(RubberOptions::default());
    for deal in deals {
        if rubber.is_over() {
            break;
        }
        rubber = rubber.record(*deal).unwrap_or_else(|e| panic!("{e}"));
    }
    rubber
}

fn live_sum(rubber: &Rubber, side: Side) -> u32 {
    rubber.live_entries().filter(|e| e.side == side).map(|e| e.points).sum()
}

proptest! {
    /// Law 77: the defenders' score is the negation of declarer's: NS score = -EW score.
    #[test]
    fn law_77_duplicate_scores_are_antisymmetric_between_the_sides(
        contract in contract(), seat in 0..4usize, tricks in tricks(), vul in vulnerability()
    ) {
        let result = BoardResult::Played { contract: DeclaredContract { contract, declarer: Seat::ALL[seat] }, tricks };
        prop_assert_eq!(result.ns_score(vul), -result.score_for(Side::EastWest, vul));
        prop_assert_ne!(result.ns_score(vul), 0, "a played contract always scores");
    }

    /// Law 77/81: one more trick never costs declarer anything.
    #[test]
    fn law_77_more_tricks_never_score_less(contract in contract(), tricks in 0..13u8, vulnerable in any::<bool>()) {
        let fewer = duplicate::score(contract, vulnerable, Tricks::new(tricks).unwrap_or_else(|e| panic!("{e}")));
        let more = duplicate::score(contract, vulnerable, Tricks::new(tricks + 1).unwrap_or_else(|e| panic!("{e}")));
        prop_assert!(more > fewer, "{contract} {tricks}->{}: {fewer} -> {more}", tricks + 1);
    }

    /// Law 81: a made contract scores trick points only for the tricks bid, and a defeated one
    /// scores nothing for declarer.
    #[test]
    fn law_81_items_belong_to_one_side(contract in contract(), tricks in tricks(), vulnerable in any::<bool>()) {
        let s = ContractScore::of(contract, vulnerable, tricks);
        if s.is_made() {
            prop_assert_eq!(s.undertricks, 0);
            prop_assert!(s.trick_points > 0);
        } else {
            prop_assert_eq!(s.trick_points + s.declarer_premiums(), 0);
            prop_assert!(s.undertricks > 0);
        }
    }

    /// Law 78A: the units of a board sum to n(n-1), and none exceeds the top.
    #[test]
    fn law_78a_matchpoints_on_a_board_sum_to_n_times_n_minus_1(scores in prop::collection::vec(-3000..3000i32, 1..60)) {
        let n = scores.len() as u32;
        let units = matchpoints(&scores);
        prop_assert_eq!(units.iter().sum::<u32>(), n * (n - 1));
        prop_assert!(units.iter().all(|u| *u <= top(scores.len())));
        // A better score never earns fewer units.
        for (i, a) in scores.iter().enumerate() {
            for (j, b) in scores.iter().enumerate() {
                if a > b { prop_assert!(units[i] > units[j]); }
                if a == b { prop_assert_eq!(units[i], units[j]); }
            }
        }
    }

    /// Law 87B: a fouled board's tables are rated in groups by the form played. Each group's
    /// units sum to g(g-1) of its own top 2(g-1), and with the group's percentage applied to the
    /// full top the board still shares n x 2(n-1) matchpoints among its 2n pairs.
    #[test]
    fn law_87b_each_group_of_a_fouled_board_shares_its_own_units(
        tables in prop::collection::vec((contract(), tricks(), 0..3u8), 1..16)
    ) {
        let mut session = Session::new(Method::Matchpoints);
        session.add_board(1, Vulnerability::None).unwrap_or_else(|e| panic!("{e}"));
        for (t, (contract, tricks, form)) in tables.iter().enumerate() {
            let result = BoardResult::Played {
                contract: DeclaredContract { contract: *contract, declarer: Seat::North },
                tricks: *tricks,
            };
            let (ns, ew) = (PairId(2 * t as u32 + 1), PairId(2 * t as u32 + 2));
            session.add_result(TableResult { board: 1, ns, ew, score: TableScore::Result(result) })
                .unwrap_or_else(|e| panic!("{e}"));
            session.set_form(1, ns, *form).unwrap_or_else(|e| panic!("{e}"));
        }
        let scored = session.score();
        for form in 0..3u8 {
            let group: Vec<_> = scored.boards.iter().filter(|b| session.form(1, b.ns) == form).collect();
            let g = group.len() as u32;
            if g == 0 { continue; }
            let units: f64 = group.iter().filter_map(|b| b.ns_units).map(|(u, _)| u).sum();
            prop_assert!((units - f64::from(g * (g - 1))).abs() < 1e-9);
            prop_assert!(group.iter().all(|b| b.ns_units.map(|(_, top)| top) == Some(2 * (g - 1))));
        }
        let n = tables.len() as u32;
        let shared: f64 = scored.ranking.iter().filter_map(|p| p.matchpoints).sum();
        prop_assert!((shared - f64::from(n * 2 * (n - 1))).abs() < 1e-6, "{} of {}", shared, n * 2 * (n - 1));
    }

    /// Law 78B: IMPs are odd in the difference and never decrease as it grows.
    #[test]
    fn law_78b_imps_are_odd_and_monotone(a in -20_000..20_000i32, b in -20_000..20_000i32) {
        prop_assert_eq!(imps(-a), -imps(a));
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        prop_assert!(imps(low) <= imps(high));
        prop_assert!(imps(a).abs() <= 24);
    }

    /// Law 74: a rubber ends exactly when a side wins its second game, and then takes no deal.
    #[test]
    fn law_74_a_rubber_always_ends_at_the_second_game(deals in prop::collection::vec(deal_result(), 0..40)) {
        let rubber = play(&deals);
        let games = [rubber.games_won(Side::NorthSouth), rubber.games_won(Side::EastWest)];
        prop_assert!(games.iter().all(|g| *g <= 2));
        match rubber.status() {
            RubberStatus::Won { winner, deal } => {
                prop_assert_eq!(rubber.games_won(winner), 2);
                prop_assert!(rubber.games_won(winner.opponents()) < 2);
                prop_assert_eq!(deal, rubber.deals().len() - 1, "the last deal won it");
                prop_assert!(rubber.record(DealResult::PassedOut).is_err());
            }
            RubberStatus::InProgress => prop_assert!(games.iter().all(|g| *g < 2)),
            RubberStatus::Unfinished => prop_assert!(false, "never abandoned here"),
        }
    }

    /// Law 72/74: each side's total is the sum of its live entries, before and after a Law 78
    /// correction, and a correction deletes nothing.
    #[test]
    fn law_72_totals_equal_the_sum_of_entries(
        deals in prop::collection::vec(deal_result(), 1..30), at in any::<prop::sample::Index>(), new in deal_result()
    ) {
        let rubber = play(&deals);
        for side in Side::ALL {
            prop_assert_eq!(rubber.total(side), live_sum(&rubber, side));
            prop_assert_eq!(rubber.settlement().total(side), live_sum(&rubber, side));
        }
        let index = at.index(rubber.deals().len());
        if let Ok(Corrected::Replayed { rubber: fixed, changes }) = rubber.correct(index, new) {
            prop_assert_eq!(fixed.entries().len(), rubber.entries().len() + changes.added.len());
            for side in Side::ALL {
                prop_assert_eq!(fixed.total(side), live_sum(&fixed, side));
            }
            // Replaying from scratch gives the same live totals.
            let mut results: Vec<DealResult> = fixed.deals().iter().map(|d| d.result).collect();
            results[index] = new;
            let fresh = play(&results);
            for side in Side::ALL {
                prop_assert_eq!(fixed.total(side), fresh.total(side));
            }
        }
    }

    /// Law 78: correcting a deal to the result it already has changes nothing.
    #[test]
    fn law_78_a_correction_to_the_same_result_changes_nothing(
        deals in prop::collection::vec(deal_result(), 1..30), at in any::<prop::sample::Index>()
    ) {
        let rubber = play(&deals);
        let index = at.index(rubber.deals().len());
        let same = rubber.deals()[index].result;
        match rubber.correct(index, same) {
            Ok(Corrected::Replayed { rubber: fixed, changes }) => {
                prop_assert!(changes.struck.is_empty() && changes.added.is_empty());
                prop_assert_eq!(fixed, rubber);
            }
            other => prop_assert!(false, "{other:?}"),
        }
    }

    /// Appendix 4 B: exactly four deals count; passed-out deals are redealt by the same dealer.
    #[test]
    fn appendix_4_b_chicago_counts_four_played_deals(deals in prop::collection::vec(deal_result(), 0..20)) {
        let mut chicago = Chicago::new(Seat::West, ChicagoOptions::default());
        for deal in &deals {
            match chicago.record(*deal) {
                Ok(next) => chicago = next,
                Err(_) => prop_assert!(chicago.is_complete()),
            }
        }
        let counted: Vec<u8> = chicago.deals().iter().filter_map(|d| d.number).collect();
        prop_assert_eq!(counted.clone(), (1..=counted.len() as u8).collect::<Vec<_>>());
        prop_assert!(counted.len() <= 4);
        for d in chicago.deals() {
            if let Some(number) = d.number {
                prop_assert_eq!(d.dealer, Seat::West.after(usize::from(number) - 1));
            }
        }
    }
}
