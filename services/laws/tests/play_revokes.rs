//! Revokes (Laws 61-64, rubber Law 43C and duplicate 43B2(b), Club Law 64): recording,
//! establishment, correction, and the trick transfer with the worked cases of
//! docs/worked-cases.md (R1-R11, the duplicate revoke cases, the director's guide's 41-43).

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{Effect, PlayOption, PlayRequirement, Seats, Situation};
use laws::penalty::PenaltyCardKind;
use laws::play::{
    Attention, Claim, ClaimResponse, DrawnBy, Exemption, Play, PlayError, PlayEvent, RevokeFacts, RevokeStatus,
    revoke_transfer,
};
use laws::{Card, CitesLaw, Code, Contract, Deal, DealSeed, DeclaredContract, Law, Seat, Side, Suit};
use play_common::{DEAL, Refused, card, cards, record, recorded, start};

/// Declarer South; every trick won by declarer's side unless listed.
fn winners(defenders: &[(usize, Seat)]) -> Vec<Seat> {
    let mut w = vec![Seat::South; 13];
    for (trick, seat) in defenders {
        w[*trick] = *seat;
    }
    w
}

fn revoke(offender: Seat, trick: u8) -> RevokeFacts {
    RevokeFacts {
        offender,
        trick,
        suit: Suit::Hearts,
        failed_penalty_card: false,
        from_faced_hand: false,
        established: true,
        attention: Some(Attention::AfterPlay),
        asked_by_dummy_out_of_rights: false,
    }
}

fn one(code: Code, winners: &[Seat], facts: RevokeFacts) -> (u8, Law, Option<Exemption>) {
    let t = revoke_transfer(code, Seat::South, winners, [0, 0], &[facts]);
    let r = t.rulings[0];
    (r.tricks, r.law, r.exemption)
}

#[test]
fn rubber_law_64_transfer_vectors_r1_to_r11() {
    let rubber = Code::Rubber;
    // R1: a defender revokes and wins the trick; the defenders win a later trick: 2 (64A).
    let w = winners(&[(3, Seat::West), (8, Seat::East)]);
    assert_eq!(one(rubber, &w, revoke(Seat::West, 3)), (2, Law::rubber(64, "A"), None));
    // R2: as R1 with no later defenders' trick: only the revoke trick, 1.
    assert_eq!(one(rubber, &winners(&[(3, Seat::West)]), revoke(Seat::West, 3)), (1, Law::rubber(64, "A"), None));
    // R3: the offender's partner wins the revoke trick: 1 (64B).
    let w = winners(&[(3, Seat::East), (8, Seat::East)]);
    assert_eq!(one(rubber, &w, revoke(Seat::West, 3)), (1, Law::rubber(64, "B"), None));
    // R4: declarer revokes and wins the trick in dummy: 64B applies (footnote 26), 1.
    let mut w4 = winners(&[(2, Seat::West)]);
    w4[3] = Seat::North;
    assert_eq!(one(rubber, &w4, revoke(Seat::South, 3)), (1, Law::rubber(64, "B"), None));
    // R5: the non-offenders win the revoke trick, the offenders a later one: the first, 1 (64C).
    let w = winners(&[(3, Seat::North), (9, Seat::West)]);
    assert_eq!(one(rubber, &w, revoke(Seat::West, 3)), (1, Law::rubber(64, "C"), None));
    // R6: as R5, but the offenders win nothing afterwards: 0 (64D1).
    assert_eq!(
        one(rubber, &winners(&[]), revoke(Seat::West, 3)),
        (0, Law::rubber(64, "D1"), Some(Exemption::NoTrickWon))
    );
    // R7: a second revoke in the same suit by the same player: 0 for it (64D2).
    let w = winners(&[(3, Seat::West), (5, Seat::West), (10, Seat::East)]);
    let t = revoke_transfer(rubber, Seat::South, &w, [0, 0], &[revoke(Seat::West, 3), revoke(Seat::West, 5)]);
    assert_eq!(t.rulings[1].exemption, Some(Exemption::SubsequentRevokeSameSuit));
    assert_eq!(t.rulings[1].law, Law::rubber(64, "D2"));
    assert_eq!(t.to, [2, 0], "two tricks to North-South for the first revoke only");
    // R8: a revoke on trick 12: 0 (64D5; it is corrected instead).
    let w = winners(&[(11, Seat::West), (12, Seat::West)]);
    assert_eq!(one(rubber, &w, revoke(Seat::West, 11)).2, Some(Exemption::TwelfthTrick));
    // R9: failing to play a card of dummy's: 0 (64D3).
    let w = winners(&[(3, Seat::West)]);
    assert_eq!(one(rubber, &w, revoke(Seat::North, 3)).2, Some(Exemption::FacedCard));
    // R10: first pointed out after the cards were mixed: 0 (64D4).
    let late = RevokeFacts { attention: Some(Attention::AfterCardsMixed), ..revoke(Seat::West, 3) };
    assert_eq!(
        one(rubber, &winners(&[(3, Seat::West)]), late),
        (0, Law::rubber(64, "D4"), Some(Exemption::AfterCardsMixed))
    );
    // R11: dummy, out of his rights, first asks declarer: declarer corrects and one trick goes
    // to the defenders (Law 43C), unless 64D applies.
    let asked = RevokeFacts { established: false, asked_by_dummy_out_of_rights: true, ..revoke(Seat::South, 4) };
    assert_eq!(one(rubber, &winners(&[]), asked), (1, Law::rubber(43, "C"), None));
}

#[test]
fn rubber_law_64_a_faced_hand_and_a_penalty_card_are_faced_cards_and_equity_remains() {
    let w = winners(&[(3, Seat::West), (8, Seat::East)]);
    let faced = RevokeFacts { from_faced_hand: true, ..revoke(Seat::West, 3) };
    assert_eq!(one(Code::Rubber, &w, faced).2, Some(Exemption::FacedCard));
    let penalty = RevokeFacts { failed_penalty_card: true, ..revoke(Seat::West, 3) };
    assert_eq!(one(Code::Rubber, &w, penalty).2, Some(Exemption::FacedCard));
    // Proprieties footnote 1 / Law 64 last paragraph: the transfer may not restore equity.
    let t = revoke_transfer(Code::Rubber, Seat::South, &w, [0, 0], &[revoke(Seat::West, 3)]);
    assert_eq!(t.equity, Some(Law::rubber(64, "")));
    let t = revoke_transfer(Code::Club, Seat::South, &w, [0, 0], &[revoke(Seat::West, 3)]);
    assert_eq!(t.equity, Some(Law::club(64, "")), "Club Law 64: the Arbiter adjusts");
}

#[test]
fn duplicate_law_64_transfer_vectors_of_section_8_8() {
    let dup = Code::Duplicate;
    // a. The revoking defender wins the revoke trick; the defenders win another later: 2 (A1).
    let w = winners(&[(3, Seat::West), (7, Seat::East)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 3)), (2, Law::duplicate(64, "A1"), None));
    // b. The revoker's partner wins it; the defenders win later tricks: 1 (A2).
    let w = winners(&[(3, Seat::East), (7, Seat::East)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 3)), (1, Law::duplicate(64, "A2"), None));
    // c. The defenders win neither the revoke trick nor any later one: 0 (B1).
    let w = winners(&[(1, Seat::East)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 3)), (0, Law::duplicate(64, "B1"), Some(Exemption::NoTrickWon)));
    // d. A revoke on trick 12: 0 (B6).
    let w = winners(&[(11, Seat::West), (12, Seat::East)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 11)), (0, Law::duplicate(64, "B6"), Some(Exemption::TwelfthTrick)));
    // e. A failure to play a major penalty card: 0 (B3).
    let w = winners(&[(3, Seat::West), (7, Seat::East)]);
    let penalty = RevokeFacts { failed_penalty_card: true, ..revoke(Seat::West, 3) };
    assert_eq!(one(dup, &w, penalty), (0, Law::duplicate(64, "B3"), Some(Exemption::FacedCard)));
    // f. Declarer revokes and wins the trick in dummy; his side wins later: 1 (footnote 19).
    let mut w = winners(&[(0, Seat::West)]);
    w[3] = Seat::North;
    assert_eq!(one(dup, &w, revoke(Seat::South, 3)), (1, Law::duplicate(64, "A2"), None));
    // g. The same, won in declarer's own hand: 2 (A1).
    let w = winners(&[(0, Seat::West)]);
    assert_eq!(one(dup, &w, revoke(Seat::South, 3)), (2, Law::duplicate(64, "A1"), None));
}

#[test]
fn duplicate_law_64b_exemptions_that_rubber_does_not_have() {
    let dup = Code::Duplicate;
    let w = winners(&[(3, Seat::West), (7, Seat::East)]);
    // B7: both sides made established revokes: no automatic adjustment for either.
    let t = revoke_transfer(dup, Seat::South, &w, [0, 0], &[revoke(Seat::West, 3), revoke(Seat::South, 5)]);
    assert!(t.rulings.iter().all(|r| r.exemption == Some(Exemption::BothSidesRevoked)));
    assert_eq!(t.to, [0, 0]);
    // B4, B5: attention after a non-offender called on the next deal, or after the round.
    let late = RevokeFacts { attention: Some(Attention::AfterNextDealCall), ..revoke(Seat::West, 3) };
    assert_eq!(one(dup, &w, late).1, Law::duplicate(64, "B4"));
    let late = RevokeFacts { attention: Some(Attention::AfterRoundEnded), ..revoke(Seat::West, 3) };
    assert_eq!(one(dup, &w, late).1, Law::duplicate(64, "B5"));
    // Mixing the cards alone does not stop a duplicate transfer (rubber 64D4 does).
    let mixed = RevokeFacts { attention: Some(Attention::AfterCardsMixed), ..revoke(Seat::West, 3) };
    assert_eq!(one(dup, &w, mixed).0, 2);
    // B2: a later revoke in the same suit by the same player counts only after the first was
    // established; rubber 64D2 has no such condition.
    let corrected_first = RevokeFacts { established: false, ..revoke(Seat::West, 3) };
    let w = winners(&[(3, Seat::West), (5, Seat::West), (7, Seat::East)]);
    let t = revoke_transfer(dup, Seat::South, &w, [0, 0], &[corrected_first, revoke(Seat::West, 5)]);
    assert_eq!((t.rulings.len(), t.rulings[0].tricks), (1, 2));
    let t = revoke_transfer(Code::Rubber, Seat::South, &w, [0, 0], &[corrected_first, revoke(Seat::West, 5)]);
    assert_eq!(t.rulings[0].exemption, Some(Exemption::SubsequentRevokeSameSuit));
    // Law 43B2(b): dummy out of rights asks: Law 64 as if established (here 2 tricks).
    let asked = RevokeFacts { established: false, asked_by_dummy_out_of_rights: true, ..revoke(Seat::South, 3) };
    assert_eq!(one(dup, &winners(&[(0, Seat::West)]), asked), (2, Law::duplicate(64, "A1"), None));
    assert_eq!(
        revoke_transfer(dup, Seat::South, &w, [0, 0], &[revoke(Seat::West, 3)]).equity,
        Some(Law::duplicate(64, "C1"))
    );
}

#[test]
fn director_guide_cases_41_to_43_and_claimed_tricks_count_as_won_later() {
    let dup = Code::Duplicate;
    // 41: the revoke card wins; the offenders win three tricks from the revoke on: 2.
    let w = winners(&[(4, Seat::West), (6, Seat::East), (9, Seat::West)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 4)).0, 2);
    // 42: the revoke card does not win; the offenders win two from the revoke on: 1.
    let w = winners(&[(4, Seat::East), (9, Seat::West)]);
    assert_eq!(one(dup, &w, revoke(Seat::West, 4)).0, 1);
    // 43: declarer revokes, dummy wins, declarer's side wins two or more: 1.
    let mut w = winners(&[]);
    w[4] = Seat::North;
    assert_eq!(one(dup, &w, revoke(Seat::South, 4)).0, 1);
    // A trick credited by a claim after the revoke is a later trick won (Law 69A).
    let played = &winners(&[(4, Seat::West)])[..8];
    let t = revoke_transfer(dup, Seat::South, played, [3, 2], &[revoke(Seat::West, 4)]);
    assert_eq!(t.to, [2, 0]);
}

/// 4S by North: East wins the club ace; East leads the heart five, dummy plays the two, West
/// ruffs with the spade two although he holds hearts, and North follows.
fn west_ruffs(code: Code) -> Play {
    let play = cards(&start(DEAL, "4S", Seat::North, code), &["CA", "CT", "C5", "C2", "H5", "H2"]);
    let after = recorded(&play, Seat::West, "S2");
    assert_eq!(after.events[0], PlayEvent::Revoke { seat: Seat::West, trick: 1 });
    recorded(&after.play, Seat::North, "H8").play
}

#[test]
fn law_61_a_recorded_revoke_stands_and_wins_the_trick_until_attention_is_drawn() {
    let play = west_ruffs(Code::Duplicate);
    assert_eq!(play.tricks()[1].winner(), Some(Seat::West));
    let revoke = play.revokes()[0];
    assert_eq!(revoke.status, RevokeStatus::Unestablished);
    assert_eq!(revoke.failure.suit(), Suit::Hearts);
    assert_eq!(revoke.failure.law(), Law::duplicate(44, "C"));
    // Attention to a revoke that did not happen is refused (Law 61A).
    let err = play.draw_attention_to_revoke(Seat::North, 1, DrawnBy::Player).refused();
    assert!(matches!(err, PlayError::NoRevoke { .. }));
}

#[test]
fn law_63_a_revoke_is_established_when_the_offender_or_his_partner_plays_to_the_next_trick() {
    let play = west_ruffs(Code::Duplicate);
    let after = recorded(&play, Seat::West, "HA");
    assert!(after.events.contains(&PlayEvent::RevokeEstablished { seat: Seat::West, trick: 1 }));
    assert_eq!(after.play.revokes()[0].status, RevokeStatus::Established);
    // A claim by the offending side establishes it too (Law 63A3).
    let claimed = play.claim(Claim::new(Seat::East, 2, "two hearts")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(claimed.revokes()[0].status, RevokeStatus::Established);
    // So does agreeing to an opponent's claim (Law 63A4).
    let by_declarer = play.claim(Claim::new(Seat::North, 11, "all but one")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(by_declarer.revokes()[0].status, RevokeStatus::Unestablished);
    let agreed = by_declarer
        .respond_to_claim(ClaimResponse::Agree(Seat::East))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Agree(Seat::West)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(agreed.revokes()[0].status, RevokeStatus::Established);
}

#[test]
fn law_62_an_unestablished_revoke_is_corrected_the_card_becomes_a_major_penalty_card() {
    let play = west_ruffs(Code::Duplicate);
    let noticed = play.draw_attention_to_revoke(Seat::West, 1, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(noticed.revokes()[0].status, RevokeStatus::Corrected);
    assert_eq!(noticed.revokes()[0].attention, Some(Attention::DuringPlay));
    let pc: Vec<_> = noticed.penalty_cards().copied().collect();
    assert_eq!((pc[0].card, pc[0].kind, pc[0].law), (card("S2"), PenaltyCardKind::Major, Law::duplicate(62, "B1")));
    // North played after the revoke: the non-offending side may withdraw that card (62C1).
    let decision = noticed.decision().unwrap_or_else(|| panic!("Law 62C1"));
    assert_eq!(
        decision.situation,
        Situation::RevokeCorrection {
            offender: Seat::West,
            trick: 1,
            later: Seats::single(Seat::North),
            both_sides: false
        }
    );
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert_eq!(decision.seats, Seats::single(Seat::North));
    assert_eq!(
        decision.offers.iter().map(|o| o.option).collect::<Vec<_>>(),
        vec![
            PlayOption::WithdrawAfterRevoke(Seats::EMPTY),
            PlayOption::WithdrawAfterRevoke(Seats::single(Seat::North))
        ]
    );
    let withdrawn =
        noticed.rectify(PlayOption::WithdrawAfterRevoke(Seats::single(Seat::North))).unwrap_or_else(|e| panic!("{e}"));
    assert!(withdrawn.hand(Seat::North).contains(card("H8")));
    assert_eq!(withdrawn.next_to_play(), Some(Seat::West));
    // He must follow suit now; following takes precedence over the penalty card.
    assert_eq!(withdrawn.legal_cards(), withdrawn.hand(Seat::West).suit(Suit::Hearts));
    let fixed = cards(&withdrawn, &["HA", "H9"]);
    assert_eq!(fixed.tricks()[1].winner(), Some(Seat::West));
    // West leads next, and must lead the penalty card (Law 50D1(a)).
    assert_eq!(fixed.legal_cards().iter().collect::<Vec<_>>(), vec![card("S2")]);
    // Keeping North's card: West substitutes and North's eight stays.
    let kept = noticed.rectify(PlayOption::WithdrawAfterRevoke(Seats::EMPTY)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kept.tricks()[1].card(Seat::North), Some(card("H8")));
    let kept = cards(&kept, &["HK"]);
    assert_eq!(kept.tricks()[1].winner(), Some(Seat::West));
    assert_eq!(kept.completed_tricks(), 2);
}

#[test]
fn law_62b2_declarers_revoke_is_replaced_without_penalty_and_law_64_counts_it_when_established() {
    // 4S by North: East leads the heart five, dummy follows, West follows, North (holding
    // hearts) discards a diamond.
    let play = cards(&start(DEAL, "4S", Seat::North, Code::Rubber), &["H5", "H2", "HA"]);
    let play = recorded(&play, Seat::North, "D7").play;
    let noticed = play.draw_attention_to_revoke(Seat::North, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(noticed.penalty_cards().count(), 0);
    assert!(noticed.decision().is_none(), "nobody played after the revoke");
    assert_eq!(noticed.legal_cards(), noticed.hand(Seat::North).suit(Suit::Hearts));
    // Not noticed, and established by dummy's lead: counted at the end if pointed out then.
    let mut go_on = record(&play, &[(Seat::West, "HK"), (Seat::North, "HT"), (Seat::East, "H6"), (Seat::South, "H3")]);
    assert_eq!(go_on.revokes()[0].status, RevokeStatus::Established);
    while let Some(next) = go_on.legal_cards().iter().next() {
        go_on = go_on.card(next).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(go_on.revoke_transfer().rulings.len(), 0, "nobody drew attention to it");
    let pointed = go_on.draw_attention_to_revoke(Seat::North, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pointed.revokes()[0].attention, Some(Attention::AfterPlay));
    let transfer = pointed.revoke_transfer();
    let ruling = transfer.rulings[0];
    // West won the revoke trick (non-offenders): 64C, the first later trick declarer's side won.
    assert_eq!(ruling.law, Law::rubber(64, "C"));
    assert_eq!(transfer.to[Side::EastWest.index()], ruling.tricks);
    let made = pointed.result().map(|r| r.tricks(Side::NorthSouth)).unwrap_or(0);
    assert_eq!(pointed.declarer_tricks(), Some(made - ruling.tricks));
}

#[test]
fn law_43_dummy_out_of_rights_may_ask_only_about_declarers_play() {
    let play = west_ruffs(Code::Duplicate);
    let err = play.draw_attention_to_revoke(Seat::West, 1, DrawnBy::DummyOutOfRights).refused();
    assert_eq!(err.law(), Law::duplicate(61, "B2"));
}

/// A deal and a play in which a defender revokes on the twelfth trick before his partner plays,
/// the partner holding two suits and none of the suit led, and the play then finishes; found by
/// searching seeded deals and a few ways of playing them.
fn twelfth_trick_revoke(code: Code) -> (Play, Seat) {
    let contract: Contract = "3NT".parse().unwrap_or_else(|e| panic!("{e}"));
    for n in 0..=255u8 {
        for stride in [1usize, 2, 3] {
            let deal = Deal::from_seed(&DealSeed([n; 32]));
            let mut play = Play::new(deal, DeclaredContract { contract, declarer: Seat::South }, code, vec![], vec![])
                .unwrap_or_else(|e| panic!("{e}"));
            let mut k = n as usize;
            while play.completed_tricks() < 11 {
                let legal: Vec<Card> = play.legal_cards().iter().collect();
                k = k.wrapping_mul(31).wrapping_add(stride);
                play = play.card(legal[k % legal.len()]).unwrap_or_else(|e| panic!("{e}"));
            }
            for lead in play.legal_cards().iter() {
                let led_play = play.card(lead).unwrap_or_else(|e| panic!("{e}"));
                if let Some(found) = revoke_here(&led_play) {
                    return found;
                }
                // Also one card later, when the second hand is declarer's side.
                for second in led_play.legal_cards().iter() {
                    if let Some(found) = revoke_here(&led_play.card(second).unwrap_or_else(|e| panic!("{e}"))) {
                        return found;
                    }
                }
            }
        }
    }
    panic!("no suitable deal among the seeds");
}

/// If the next hand is a defender who can revoke before his partner, who is void in the suit
/// led and holds two suits: revoke, finish the play at the table, and return it.
fn revoke_here(play: &Play) -> Option<(Play, Seat)> {
    let seat = play.next_to_play()?;
    let led = play.current_trick()?.suit_led()?;
    let hand = play.hand(seat);
    let partner = seat.partner();
    let partner_hand = play.hand(partner);
    let partner_suits = Suit::ALL.iter().filter(|s| partner_hand.has_suit(**s)).count();
    let waiting = play.current_trick().is_some_and(|t| t.card(partner).is_none());
    if !play.is_defender(seat) || !hand.has_suit(led) || hand.suit(led).len() == hand.len() || !waiting {
        return None;
    }
    if partner_suits < 2 || partner_hand.has_suit(led) {
        return None;
    }
    let wrong = hand.iter().find(|c: &Card| c.suit != led)?;
    let mut play = play.record(seat, wrong).ok()?.play;
    while let Some(next) = play.next_to_play() {
        let c = play.hand(next).iter().next()?;
        play = play.record(next, c).ok()?.play;
    }
    play.is_complete().then_some((play, seat))
}

#[test]
fn law_62d_a_twelfth_trick_revoke_is_corrected_even_when_established_and_rubber_gives_declarer_a_choice() {
    let (play, offender) = twelfth_trick_revoke(Code::Rubber);
    assert_eq!(play.revokes()[0].status, RevokeStatus::Established);
    let noticed = play.draw_attention_to_revoke(offender, 11, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert!(!noticed.is_complete(), "tricks 12 and 13 are reopened");
    assert_eq!(noticed.completed_tricks(), 11);
    assert_eq!(noticed.revokes()[0].status, RevokeStatus::Corrected);
    // Settle the non-offenders' withdrawals (keep everything), then the rubber Law 62 option.
    let mut step = noticed;
    if let Some(Situation::RevokeCorrection { .. }) = step.decision().map(|d| d.situation) {
        step = step.rectify(PlayOption::WithdrawAfterRevoke(Seats::EMPTY)).unwrap_or_else(|e| panic!("{e}"));
    }
    if let Some(Situation::OffendingSideMayWithdraw { .. }) = step.decision().map(|d| d.situation) {
        step = step.rectify(PlayOption::KeepCard).unwrap_or_else(|e| panic!("{e}"));
    }
    let decision = step.decision().unwrap_or_else(|| panic!("rubber Law 62: declarer's choice"));
    assert_eq!(decision.situation, Situation::TwelfthTrickRevoke { offender, partner: offender.partner() });
    assert_eq!(decision.law, Law::rubber(62, ""));
    let required: Vec<PlayOption> = decision.offers.iter().map(|o| o.option).collect();
    assert_eq!(required.len(), 3, "either of his two cards, or no requirement: {required:?}");
    let PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { card: chosen, .. }) = required[1] else {
        panic!("a card")
    };
    // Every player reads the options: they name the partner's cards without showing them
    // (higher- or lower-ranking suit, or the card he already played), and only the official is
    // given the cards themselves.
    let partner = offender.partner();
    let hidden = step.hand(partner);
    for offer in &decision.offers {
        let text = format!("{offer} {}", offer.effects.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "));
        for card in hidden.iter() {
            assert!(!text.contains(&card.to_string()), "{text} shows the {card}");
        }
    }
    // The official is given each card still in the partner's hand (a card he already played
    // lies face up).
    let concealed: Vec<Card> = decision.offers.iter().filter_map(|o| o.option.concealed_card()).collect();
    let named: Vec<Card> = required
        .iter()
        .filter_map(|o| match o {
            PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { card, .. }) if hidden.contains(*card) => Some(*card),
            _ => None,
        })
        .collect();
    assert!(!concealed.is_empty());
    assert_eq!(concealed, named);
    let labels: Vec<String> = decision.offers.iter().map(|o| o.option.to_string()).collect();
    assert_ne!(labels[0], labels[1], "declarer can tell the two options apart: {labels:?}");
    let step = step.rectify(required[1]).unwrap_or_else(|e| panic!("{e}"));
    // The offender substitutes a card of the suit led; then the partner must play the card.
    let mut step = step;
    while step.next_to_play() != Some(offender.partner()) {
        let next = step.legal_cards().iter().next().unwrap_or_else(|| panic!("a card"));
        step = step.card(next).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(step.legal_cards().iter().collect::<Vec<_>>(), vec![chosen]);
    // Duplicate has no such option (Law 62D2 refers to Law 16C).
    let (dup, offender) = twelfth_trick_revoke(Code::Duplicate);
    let mut step = dup.draw_attention_to_revoke(offender, 11, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    if step.decision().is_some() {
        step = step.rectify(PlayOption::WithdrawAfterRevoke(Seats::EMPTY)).unwrap_or_else(|e| panic!("{e}"));
    }
    if step.decision().is_some() {
        step = step.rectify(PlayOption::KeepCard).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(step.decision().is_none());
}

#[test]
fn law_62c2_after_a_non_offender_withdraws_the_offending_sides_next_player_may_withdraw_too() {
    // Dummy (South) wins trick 2 and leads a diamond: West (holding diamonds) discards a
    // heart, North follows, East follows. Attention is drawn before West's side plays again.
    let play =
        cards(&start(DEAL, "4S", Seat::North, Code::Duplicate), &["CA", "CT", "C5", "C2", "D2", "DA", "D8", "D5"]);
    assert_eq!(play.next_to_play(), Some(Seat::South));
    let play = cards(&play, &["DK"]);
    let play = record(&play, &[(Seat::West, "HJ"), (Seat::North, "D6"), (Seat::East, "D3")]);
    assert_eq!(play.tricks()[2].winner(), Some(Seat::South));
    let noticed = play.draw_attention_to_revoke(Seat::West, 2, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    let withdrawn =
        noticed.rectify(PlayOption::WithdrawAfterRevoke(Seats::single(Seat::North))).unwrap_or_else(|e| panic!("{e}"));
    let decision = withdrawn.decision().unwrap_or_else(|| panic!("Law 62C2"));
    assert_eq!(decision.situation, Situation::OffendingSideMayWithdraw { seat: Seat::East, card: card("D3") });
    assert_eq!(decision.chooser, Chooser::Offender);
    assert_eq!(decision.law, Law::duplicate(62, "C2"));
    // East withdraws: a defender's withdrawn card is a (major) penalty card.
    let east = withdrawn.rectify(PlayOption::WithdrawCard).unwrap_or_else(|e| panic!("{e}"));
    let mut pcs: Vec<String> = east.penalty_cards().map(|pc| pc.card.to_string()).collect();
    pcs.sort();
    assert_eq!(pcs, vec!["D3", "HJ"]);
    assert!(east.penalty_cards().all(|pc| pc.kind == PenaltyCardKind::Major));
    assert_eq!(east.next_to_play(), Some(Seat::West));
    // West now must follow with a diamond; East later must play the three (first legal chance).
    let east = cards(&east, &["D9", "D6"]);
    assert_eq!(east.legal_cards().iter().collect::<Vec<_>>(), vec![card("D3")]);
    // East keeps his card instead.
    let kept = withdrawn.rectify(PlayOption::KeepCard).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kept.tricks()[2].card(Seat::East), Some(card("D3")));
}

#[test]
fn law_70b_rubber_a_claimers_faced_hand_has_no_penalty_cards_and_its_revoke_is_a_faced_card() {
    let play = cards(&start(DEAL, "4S", Seat::North, Code::Rubber), &["CA", "CT", "C5", "C2"]);
    let play = play
        .claim(Claim::new(Seat::East, 3, "my clubs"))
        .and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::North)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(play.faced_hands().contains(Seat::East));
    let shown = play.expose(Seat::East, &[card("HK")], laws::play::Exposure::Deliberate);
    assert!(matches!(shown, Err(PlayError::CardNotHeld { .. })), "East holds no heart king");
    let shown =
        play.expose(Seat::East, &[card("H7")], laws::play::Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shown.play.penalty_cards().count(), 0);
    // East, faced, revokes: a failure to play a card of a faced hand (Law 64D3).
    let play = cards(&play, &["CK", "C9", "C6", "C3", "CQ", "C8", "C7", "C4"]);
    let play = cards(&play, &["H5", "H2", "HA", "H8", "D8", "D5"]);
    let revoked = recorded(&play, Seat::East, "CJ").play;
    assert!(revoked.revokes()[0].from_faced_hand);
}

#[test]
fn duplicate_law_62c3_both_sides_revoke_on_one_trick_and_both_revokes_are_corrected() {
    // Law 62C3: "If both sides revoke on the same trick and only one side has played to the
    // subsequent trick, then both revokes must be corrected (see Law 16C2). Every card
    // withdrawn by the defending side becomes a penalty card."
    // East leads the club ace; dummy plays a diamond and West a heart, both holding clubs;
    // North follows. East, who won, leads to the next trick: West's revoke is established
    // (Law 63A1), dummy's not.
    let play = record(
        &start(DEAL, "4S", Seat::North, Code::Duplicate),
        &[(Seat::East, "CA"), (Seat::South, "DA"), (Seat::West, "HA"), (Seat::North, "C2"), (Seat::East, "CK")],
    );
    let statuses: Vec<RevokeStatus> = play.revokes().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![RevokeStatus::Unestablished, RevokeStatus::Established]);
    let noticed = play.draw_attention_to_revoke(Seat::South, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert!(noticed.revokes().iter().all(|r| r.status == RevokeStatus::Corrected), "both are corrected");
    assert!(noticed.hand(Seat::East).contains(card("CK")), "the lead to the next trick goes back");
    assert!(noticed.hand(Seat::South).contains(card("DA")), "dummy's card is replaced without rectification");
    let pc: Vec<_> = noticed.penalty_cards().map(|pc| (pc.card, pc.owner, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("HA"), Seat::West, PenaltyCardKind::Major, Law::duplicate(62, "C3"))]);
    // North played after West's revoke: he may withdraw his card (Law 62C1).
    let decision = noticed.decision().unwrap_or_else(|| panic!("North may withdraw"));
    assert!(matches!(
        decision.situation,
        Situation::RevokeCorrection { offender: Seat::West, later, both_sides: true, .. } if later == Seats::single(Seat::North)
    ));
    let substitutes: Vec<Seat> = decision.offers[0]
        .effects
        .iter()
        .filter_map(|e| match e {
            Effect::SubstituteLegalCard { seat } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(substitutes, vec![Seat::West, Seat::South], "both offenders substitute a legal card");
    let withdrawn =
        noticed.rectify(PlayOption::WithdrawAfterRevoke(Seats::single(Seat::North))).unwrap_or_else(|e| panic!("{e}"));
    assert!(withdrawn.hand(Seat::North).contains(card("C2")));
    // The trick goes on from dummy, who now follows suit; West must follow with a club too,
    // the heart ace staying on the table as a penalty card.
    assert_eq!(withdrawn.next_to_play(), Some(Seat::South));
    let finished = cards(&withdrawn, &["C8", "C5", "C3"]);
    assert_eq!(finished.completed_tricks(), 1);
    assert!(finished.penalty_cards().any(|pc| pc.card == card("HA")));
    // Rubber bridge has no such rule: West's established revoke stands.
    let rubber = record(
        &start(DEAL, "4S", Seat::North, Code::Rubber),
        &[(Seat::East, "CA"), (Seat::South, "DA"), (Seat::West, "HA"), (Seat::North, "C2"), (Seat::East, "CK")],
    );
    let noticed = rubber.draw_attention_to_revoke(Seat::South, 0, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    let west = noticed.revokes().iter().find(|r| r.offender == Seat::West).map(|r| r.status);
    assert_eq!(west, Some(RevokeStatus::Established));
}
