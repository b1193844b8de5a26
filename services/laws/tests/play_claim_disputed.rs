//! Play after a disputed claim (rubber Laws 69, 69A-D and 70B), with the claimer's statement
//! recorded as data ([`StatedLine`]); and what the engine tells an official who adjudicates a
//! claim instead (Club Law 69; duplicate Law 70).

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{PlayOption, PlayRequirement, Situation, Suits};
use laws::play::{Claim, ClaimDuty, ClaimResponse, ClaimStatus, Play, PlayError, StatedLine, TrumpIntent};
use laws::{CardSet, CitesLaw, Code, Law, Seat, Suit};
use play_common::{Refused, card, cards, record, recorded, start};

/// South plays 4S, North is dummy. After two tricks (West's club ace; West's diamond queen to
/// South's ace) South is on lead with eleven tricks to play:
///
/// - South: S AKQJ2, H 543, D K, C 43
/// - North: S 543, H AQ2, D 543, C 76
/// - West: S T9, H 876, D JT9, C KQJ
/// - East: S 876, H KJT9, D 87, C T9
///
/// The heart king lies over dummy's ace-queen: a finesse of the queen loses.
const DEAL: &str = "N:543.AQ2.5432.765 876.KJT9.876.T98 AKQJ2.543.AK.432 T9.876.QJT9.AKQJ";

fn before_claim(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::South, code), &["CA", "C5", "C8", "C2", "DQ", "D2", "D6", "DA"])
}

fn cards_of(list: &[&str]) -> CardSet {
    list.iter().map(|c| card(c)).collect()
}

/// South claims with `line` and West disputes; under the Laws of Rubber Bridge play continues.
fn disputed(line: StatedLine) -> Play {
    let claim = Claim::new(Seat::South, 11, "the rest").with_line(line);
    let claimed = before_claim(Code::Rubber).claim(claim).unwrap_or_else(|e| panic!("{e}"));
    let disputed = claimed.respond_to_claim(ClaimResponse::Dispute(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(disputed.claims()[0].status, ClaimStatus::PlayContinued);
    disputed
}

fn choose(play: &Play, option: PlayOption) -> Play {
    play.rectify(option).unwrap_or_else(|e| panic!("{e}"))
}

/// A line that said it would draw the trumps (so Law 69B gives the defenders nothing to
/// choose), and nothing else.
fn drawing_trumps() -> StatedLine {
    StatedLine { trumps: TrumpIntent::Draw, ..StatedLine::default() }
}

/// Law 69A: "if declarer made no relevant statement, he may not finesse in any suit unless an
/// opponent failed to follow in that suit before the claim or concession or would subsequently
/// fail to follow in that suit on any conceivable sequence of plays." Footnote 29: "a finesse
/// is a play the success of which depends on finding one defender rather than the other with or
/// without a particular card."
#[test]
fn law_69a_declarer_may_not_take_a_finesse_he_did_not_state() {
    let play = disputed(StatedLine { trumps: TrumpIntent::Leave, ..StatedLine::default() });
    // South leads the heart five (from the top, Law 69D) and West plays low.
    let play = cards(&play, &["H5", "H6"]);
    assert_eq!(play.next_to_play(), Some(Seat::North));
    assert!(play.is_finesse(Seat::North, card("HQ")), "the queen wins only if West holds the king");
    assert!(!play.is_finesse(Seat::North, card("HA")), "the ace wins wherever the king is");
    assert!(!play.is_finesse(Seat::North, card("H2")), "the two does not win the trick");
    assert_eq!(play.legal_cards(), cards_of(&["HA", "H2"]));
    let err = play.card(card("HQ")).refused();
    assert_eq!(err.law(), Law::rubber(69, "A"));
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::NoFinesse(Suit::Hearts), .. }));
    assert_eq!(
        err.to_string(),
        "North may not play the HQ after the disputed claim: he stated no finesse in hearts \
         (Law 69A of the Laws of Rubber Bridge)"
    );
    assert!(play.card(card("HA")).is_ok());
}

/// Law 69A at a table recording its cards: the queen "finesse[d] in [a] suit" waits for the
/// defenders, and their decision cites Law 69A, the section the card breaks; the choice itself is
/// Law 69's closing paragraph: "If declarer attempts to make a play prohibited under this Law,
/// either defender may accept the play or ... require declarer to withdraw the card".
#[test]
fn law_69a_a_finesse_recorded_against_the_claim_waits_citing_law_69a() {
    let play = disputed(StatedLine { trumps: TrumpIntent::Leave, ..StatedLine::default() });
    let play = cards(&play, &["H5", "H6"]);
    let held = recorded(&play, Seat::North, "HQ").play;
    let decision = held.decision().unwrap_or_else(|| panic!("the defenders decide"));
    assert!(matches!(
        decision.situation,
        Situation::ClaimLineBreach { duty: ClaimDuty::NoFinesse(Suit::Hearts), law, .. } if law == Law::rubber(69, "A")
    ));
    assert_eq!(decision.law, Law::rubber(69, "A"));
    assert!(decision.offers.iter().all(|o| o.law == Law::rubber(69, "")), "the closing paragraph of Law 69");
}

/// Law 69A applies to a finesse "in any suit" declarer did not state: one he stated he may take.
#[test]
fn law_69a_a_finesse_he_stated_may_be_taken() {
    let line =
        StatedLine { trumps: TrumpIntent::Leave, finesses: Suits::single(Suit::Hearts), ..StatedLine::default() };
    let play = cards(&disputed(line), &["H5", "H6"]);
    assert!(play.legal_cards().contains(card("HQ")));
    let play = cards(&play, &["HQ", "HK"]);
    assert_eq!(play.tricks().last().and_then(|t| t.winner()), Some(Seat::East), "the finesse lost");
}

/// Law 69A's exception: "unless an opponent failed to follow in that suit". Once a defender has
/// shown out, where the cards lie is known and the play is no longer a finesse he is barred from.
#[test]
fn law_69a_no_bar_once_an_opponent_failed_to_follow_in_the_suit() {
    // A deal where West has no heart: East's king is known to be over dummy's queen, and the
    // rule no longer bars the queen (which is then no finesse either: declarer sees the king).
    let deal = "N:543.AQ2.5432.765 876.KJT9876.8.T9 AKQJ2.543.AK.432 T9..QJT976.AKQJ8";
    let play = cards(&start(deal, "4S", Seat::South, Code::Rubber), &["CA", "C5", "C9", "C2", "DQ", "D2", "D8", "DA"]);
    let claim = Claim::new(Seat::South, 11, "the rest")
        .with_line(StatedLine { trumps: TrumpIntent::Leave, ..StatedLine::default() });
    let play = play.claim(claim).and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::East)));
    let play = play.unwrap_or_else(|e| panic!("{e}"));
    assert!(play.finesse_excepted(Suit::Hearts), "West holds no heart");
    let play = cards(&play, &["H5", "DT"]);
    assert!(play.legal_cards().contains(card("HQ")));
}

/// Law 69A as shown to the players: "he may not finesse in any suit unless an opponent failed to
/// follow in that suit before the claim or concession or would subsequently fail to follow in that
/// suit on any conceivable sequence of plays". West holds no heart, so the engine lets declarer
/// take the heart finesse; but the restriction shown to everyone keeps hearts until West has failed
/// to follow, since dropping it sooner would tell the table where the hearts lie. Law 69D's suits
/// are those whose order he did not state.
#[test]
fn law_69a_the_suits_shown_barred_to_a_finesse_change_only_when_a_defender_shows_out() {
    let deal = "N:543.AQ2.5432.765 876.KJT9876.8.T9 AKQJ2.543.AK.432 T9..QJT976.AKQJ8";
    let play = cards(&start(deal, "4S", Seat::South, Code::Rubber), &["CA", "C5", "C9", "C2", "DQ", "D2", "D8", "DA"]);
    let claim = Claim::new(Seat::South, 11, "the rest")
        .with_line(StatedLine { trumps: TrumpIntent::Leave, ..StatedLine::default() });
    let play = play.claim(claim).and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::East)));
    let play = play.unwrap_or_else(|e| panic!("{e}"));
    let all = Suit::ALL.into_iter().fold(Suits::EMPTY, Suits::with);
    assert!(play.finesse_excepted(Suit::Hearts), "the engine applies the exception");
    assert_eq!(play.finesses_barred(), all, "but West's void is not shown");
    assert_eq!(play.top_down_suits(), all);
    let play = cards(&play, &["H5", "DT"]);
    assert_eq!(play.finesses_barred(), all.iter().filter(|s| *s != Suit::Hearts).fold(Suits::EMPTY, Suits::with));
    // A stated finesse, and a stated order, leave their suits.
    let line = StatedLine {
        cards: vec![card("DK")],
        trumps: TrumpIntent::Draw,
        finesses: Suits::single(Suit::Hearts),
        ..StatedLine::default()
    };
    let play = disputed(line);
    assert!(!play.finesses_barred().contains(Suit::Hearts));
    assert!(!play.top_down_suits().contains(Suit::Diamonds));
    // Nothing is shown without a claim played on.
    assert_eq!(before_claim(Code::Rubber).finesses_barred(), Suits::EMPTY);
}

/// Law 69B: "if declarer may have been unaware at the time of his claim or concession that a
/// trump remained in a defender's hand, either defender may require him to draw or not to draw
/// the outstanding trump."
#[test]
fn law_69b_the_defenders_choose_whether_declarer_draws_the_outstanding_trumps() {
    let play = disputed(StatedLine::default());
    let decision = play.decision().unwrap_or_else(|| panic!("the defenders decide"));
    assert!(matches!(decision.situation, Situation::ClaimTrumps { declarer: Seat::South }));
    assert_eq!(decision.law, Law::rubber(69, "B"));
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert!(decision.seats.contains(Seat::West) && decision.seats.contains(Seat::East));
    assert!(decision.offers(&PlayOption::RequireTrumps(TrumpIntent::Draw)));
    assert!(decision.offers(&PlayOption::RequireTrumps(TrumpIntent::Leave)));
    assert!(decision.offers(&PlayOption::Waive));
    assert!(play.legal_cards().is_empty(), "nobody plays until they decide");

    // Draw: South must lead a trump, from the top (Law 69D).
    let draw = choose(&play, PlayOption::RequireTrumps(TrumpIntent::Draw));
    assert_eq!(draw.claim_conduct().and_then(|c| c.trumps_required), Some(TrumpIntent::Draw));
    assert_eq!(draw.legal_cards(), cards_of(&["SA"]));
    let err = draw.card(card("DK")).refused();
    assert_eq!(err.law(), Law::rubber(69, "B"));
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::DrawTrumps, .. }));

    // Not draw: South may lead anything but a trump while a defender holds one.
    let leave = choose(&play, PlayOption::RequireTrumps(TrumpIntent::Leave));
    assert_eq!(leave.legal_cards(), cards_of(&["H5", "DK", "C4"]));
    let err = leave.card(card("SA")).refused();
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::LeaveTrumps, .. }));

    // A statement about the trumps leaves the defenders nothing to choose.
    assert!(disputed(drawing_trumps()).decision().is_none());
}

/// Law 69: "Declarer may not make any play inconsistent with the statement he may have made at
/// the time of his claim" ("including the order in which he will play the remaining cards").
#[test]
fn law_69_declarer_plays_the_cards_in_the_order_he_stated() {
    let line = StatedLine { cards: vec![card("DK"), card("SA")], trumps: TrumpIntent::Draw, ..StatedLine::default() };
    let play = disputed(line);
    assert_eq!(play.legal_cards(), cards_of(&["DK"]));
    let err = play.card(card("SA")).refused();
    assert_eq!(err.law(), Law::rubber(69, ""));
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::StatedOrder(c), .. } if c == card("DK")));
    // Dummy follows with a card not in the statement; then the ace of spades comes next.
    let play = cards(&play, &["DK", "D9", "D3", "D7"]);
    assert_eq!(play.legal_cards(), cards_of(&["SA"]));
}

/// Law 69: the suits in the order he stated.
#[test]
fn law_69_declarer_leads_the_suits_in_the_order_he_stated() {
    let line =
        StatedLine { suits: vec![Suit::Clubs, Suit::Hearts], trumps: TrumpIntent::Leave, ..StatedLine::default() };
    let play = disputed(line);
    assert_eq!(play.legal_cards(), cards_of(&["C4"]));
    let err = play.card(card("H5")).refused();
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::StatedSuit(Suit::Clubs), .. }));
}

/// Law 69D: "if declarer's statement did not include the order of play when leading a suit, it
/// may be assumed from the top down unless it is obvious that declarer intended otherwise."
#[test]
fn law_69d_a_suit_whose_order_he_did_not_state_is_led_from_the_top_down() {
    let play = disputed(drawing_trumps());
    let err = play.card(card("S2")).refused();
    assert_eq!(err.law(), Law::rubber(69, "D"));
    assert!(matches!(err, PlayError::ClaimObligation { duty: ClaimDuty::TopDown(Suit::Spades), .. }));
    // A suit whose order he stated is led as he stated.
    let line = StatedLine { cards: vec![card("S2")], trumps: TrumpIntent::Draw, ..StatedLine::default() };
    assert!(disputed(line).card(card("S2")).is_ok());
}

/// Law 69: "If declarer attempts to make a play prohibited under this Law, either defender may
/// accept the play or, provided neither defender has subsequently played, require declarer to
/// withdraw the card so played and substitute another that conforms to his obligations."
#[test]
fn law_69_the_defenders_accept_or_require_withdrawal_of_a_play_recorded_against_the_claim() {
    let play = disputed(drawing_trumps());
    let held = recorded(&play, Seat::South, "S2").play;
    let decision = held.decision().unwrap_or_else(|| panic!("the defenders decide"));
    assert!(matches!(decision.situation, Situation::ClaimLineBreach { seat: Seat::South, .. }));
    // The spade two breaks Law 69D ("it may be assumed from the top down"); the defenders'
    // choice is the paragraph quoted above, which the options cite.
    assert_eq!(decision.law, Law::rubber(69, "D"));
    assert!(decision.offers.iter().all(|o| o.law == Law::rubber(69, "")));
    assert_eq!(decision.chooser, Chooser::NonOffendingSide);
    assert!(held.hand(Seat::South).contains(card("S2")), "the card waits for the decision");
    // No defender may play meanwhile.
    assert!(held.record(Seat::West, card("S9")).is_err());

    let withdrawn = choose(&held, PlayOption::WithdrawClaimPlay);
    assert!(withdrawn.hand(Seat::South).contains(card("S2")));
    assert!(withdrawn.current_trick().is_some_and(|t| t.is_empty()));
    let withdrawn = record(&withdrawn, &[(Seat::South, "SA")]);
    assert_eq!(withdrawn.current_trick().and_then(|t| t.card(Seat::South)), Some(card("SA")));

    let accepted = choose(&held, PlayOption::AcceptClaimPlay);
    assert_eq!(accepted.current_trick().and_then(|t| t.card(Seat::South)), Some(card("S2")));
    assert_eq!(accepted.next_to_play(), Some(Seat::West));
}

/// Backward compatibility: a claim stated in words alone is played on as before; the engine
/// enforces nothing it cannot read.
#[test]
fn law_69_a_claim_in_words_alone_is_played_on_unrestricted() {
    let claimed = before_claim(Code::Rubber).claim(Claim::new(Seat::South, 11, "drawing trumps, then the hearts"));
    let play =
        claimed.and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::West))).unwrap_or_else(|e| panic!("{e}"));
    assert!(play.decision().is_none());
    assert!(play.claim_conduct().is_none());
    assert_eq!(play.claims()[0].statement_mentions_trumps(), None, "words alone: the official reads them");
    let play = cards(&play, &["H3", "H6"]);
    assert!(play.legal_cards().contains(card("HQ")));
}

/// Law 70B: "If declarer disputes the claim, the defenders must play on with the claimer's hand
/// face up on the table. Those cards do not become penalty cards. However, declarer may
/// prohibit claimer's partner from making any play that could be suggested to him by seeing the
/// faced cards."
#[test]
fn law_70b_declarer_may_prohibit_the_claimers_partner_a_play_the_faced_hand_suggests() {
    // After trick 1 West, on lead, claims two tricks; South disputes.
    let play = cards(&start(DEAL, "4S", Seat::South, Code::Rubber), &["CA", "C5", "C8", "C2"]);
    let claim = Claim::new(Seat::West, 2, "two clubs").with_line(StatedLine::default());
    let play = play.claim(claim).and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::South)));
    let play = play.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.claims()[0].status, ClaimStatus::PlayContinued);
    assert!(play.faced_hands().contains(Seat::West));
    assert!(play.penalty_cards().next().is_none(), "the faced cards are not penalty cards");
    // West leads; dummy follows; East is to play and declarer decides.
    let play = cards(&play, &["CK", "C6"]);
    let decision = play.decision().unwrap_or_else(|| panic!("declarer decides"));
    assert!(matches!(decision.situation, Situation::ClaimSuggestedPlay { partner: Seat::East }));
    assert_eq!(decision.law, Law::rubber(70, "B"));
    assert_eq!(decision.chooser, Chooser::Declarer);
    assert!(decision.offers(&PlayOption::Waive));
    assert!(decision.offers(&PlayOption::ProhibitPlay(PlayRequirement::Lowest)));
    assert!(decision.offers(&PlayOption::ProhibitPlay(PlayRequirement::NotSuit(Suit::Spades))));

    let prohibited = choose(&play, PlayOption::ProhibitPlay(PlayRequirement::Highest));
    assert_eq!(prohibited.legal_cards(), cards_of(&["CT"]));
    let err = prohibited.card(card("C9")).refused();
    assert_eq!(err.law(), Law::rubber(70, "B"));
    // At a physical table the prohibited card is refused too.
    assert!(prohibited.record(Seat::East, card("C9")).is_err());
    let next = cards(&prohibited, &["CT", "C3"]);
    assert!(next.decision().is_none(), "West leads again: the prohibition was for that turn");
    assert!(next.claim_conduct().is_some_and(|c| c.prohibition.is_some_and(|(trick, _)| trick == 1)));

    let free = choose(&play, PlayOption::Waive);
    assert!(free.legal_cards().contains(card("C9")));
}

/// Club Law 69C: the Arbiter "should not accept from declarer any ... proposed play that
/// requires a finesse in a suit, unless an opponent failed to follow in that suit"; duplicate
/// Law 70E1 likewise. There the claim is adjudicated, not played on: the engine enforces
/// nothing, keeps the stated line for the official and tells him which plays are finesses.
#[test]
fn club_law_69c_and_duplicate_law_70e_the_official_reads_the_stated_line_and_the_finesses() {
    for code in [Code::Club, Code::Duplicate] {
        let line = StatedLine { suits: vec![Suit::Hearts], ..StatedLine::default() };
        let claim = Claim::new(Seat::South, 11, "hearts first").with_line(line.clone());
        let play = before_claim(code).claim(claim).unwrap_or_else(|e| panic!("{e}"));
        let play = play.respond_to_claim(ClaimResponse::Dispute(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(play.claims()[0].status, ClaimStatus::Disputed);
        assert_eq!(play.claims()[0].claim.line.as_ref(), Some(&line));
        assert!(play.claim_conduct().is_none());
        assert!(play.decision().is_none(), "no Law 69B choice: the official applies the outstanding-trump rule");
        assert_eq!(play.claims()[0].statement_mentions_trumps(), Some(false), "Club Law 69B1, duplicate 70C1");
    }
    // The finesse helper at the point of the heart finesse, for any code.
    let play = cards(&before_claim(Code::Duplicate), &["H3", "H6"]);
    assert_eq!(play.finesse_cards(Seat::North), cards_of(&["HQ"]));
}
