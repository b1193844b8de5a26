//! A defender's hand faced for inspection by his partner after declarer's disputed claim (rubber
//! Law 69: "At any time either defender may face his hand for inspection by his partner, and
//! declarer may not impose a penalty for any irregularity committed by a defender whose hand is
//! so faced"), and the codes that give no such right (Club Law 69; duplicate Laws 68D and 70).

mod play_common;

use laws::irregularities::play::{Effect, PlayOption, Situation};
use laws::play::{Claim, ClaimResponse, ClaimStatus, Exposure, Play, PlayError, PlayEvent, StatedLine, TrumpIntent};
use laws::{CardSet, CitesLaw, Code, Law, Seat};
use play_common::{Refused, card, cards, record, recorded, start};

/// South plays 4S, North is dummy. After two tricks (West's club ace; West's diamond queen to
/// South's ace) South is on lead with eleven tricks to play:
///
/// - South: S AKQJ2, H 543, D K, C 43
/// - North: S 543, H AQ2, D 543, C 76
/// - West: S T9, H 876, D JT9, C KQJ
/// - East: S 876, H KJT9, D 87, C T9
const DEAL: &str = "N:543.AQ2.5432.765 876.KJT9.876.T98 AKQJ2.543.AK.432 T9.876.QJT9.AKQJ";

fn before_claim(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::South, code), &["CA", "C5", "C8", "C2", "DQ", "D2", "D6", "DA"])
}

/// South claims the rest, saying he draws trumps (so Law 69B leaves the defenders nothing to
/// choose), and West disputes: under the Laws of Rubber Bridge play continues.
fn disputed() -> Play {
    let line = StatedLine { trumps: TrumpIntent::Draw, ..StatedLine::default() };
    let claim = Claim::new(Seat::South, 11, "drawing trumps").with_line(line);
    let play = before_claim(Code::Rubber).claim(claim).unwrap_or_else(|e| panic!("{e}"));
    let play = play.respond_to_claim(ClaimResponse::Dispute(Seat::West)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.claims()[0].status, ClaimStatus::PlayContinued);
    play
}

fn faced(play: &Play, seat: Seat) -> Play {
    play.face_for_inspection(seat).unwrap_or_else(|e| panic!("{e}"))
}

fn sees(play: &Play, viewer: Seat, seat: Seat) -> CardSet {
    play.visible_to(viewer)[seat.index()]
}

/// Law 69: "When his claim or concession is not allowed, declarer must play on, leaving his hand
/// face up on the table. At any time either defender may face his hand for inspection by his
/// partner". Before, only he sees his hand; after, it lies face up for everyone at the table.
#[test]
fn law_69_either_defender_may_face_his_hand_for_inspection_by_his_partner() {
    let play = disputed();
    let west = play.hand(Seat::West);
    for viewer in [Seat::North, Seat::East, Seat::South] {
        assert!(sees(&play, viewer, Seat::West).is_empty(), "{viewer} does not see West's hand yet");
    }
    assert_eq!(sees(&play, Seat::West, Seat::West), west);
    let play = faced(&play, Seat::West);
    assert!(play.faced_hands().contains(Seat::West));
    assert!(play.faced_for_inspection(Seat::West));
    assert!(!play.faced_for_inspection(Seat::East));
    for viewer in Seat::ALL {
        assert_eq!(sees(&play, viewer, Seat::West), west, "{viewer} sees West's faced hand");
    }
    assert!(sees(&play, Seat::West, Seat::East).is_empty(), "East's hand is still his own");
    // "Either defender": East may face his too, and play goes on.
    let play = faced(&play, Seat::East);
    assert_eq!(sees(&play, Seat::West, Seat::East), play.hand(Seat::East));
    assert!(play.card(card("SA")).is_ok());
}

/// Law 69 gives the right to "either defender": declarer's hand is already face up, and dummy
/// takes no part; a hand already faced cannot be faced again.
#[test]
fn law_69_only_a_defender_may_face_his_hand() {
    let play = disputed();
    for seat in [Seat::South, Seat::North] {
        let err = play.face_for_inspection(seat).refused();
        assert_eq!(err.law(), Law::rubber(69, ""));
        assert!(matches!(err, PlayError::ClaimResponseRefused { .. }));
    }
    let err = faced(&play, Seat::East).face_for_inspection(Seat::East).refused();
    assert_eq!(err.law(), Law::rubber(69, ""));
    assert_eq!(
        err.to_string(),
        "East may not face his hand for inspection: it is face up already (Law 69 of the Laws of Rubber Bridge)"
    );
}

/// Law 69: the right arises "when his claim or concession is not allowed" and play continues:
/// not during ordinary play, not while the claim awaits the defenders' answers, and not after a
/// defender's disputed claim (Law 70B gives the claimer's partner no such right).
#[test]
fn law_69_only_while_play_continues_after_declarers_disputed_claim() {
    let play = before_claim(Code::Rubber);
    let err = play.face_for_inspection(Seat::West).refused();
    assert_eq!(err.law(), Law::rubber(69, ""));
    assert_eq!(
        err.to_string(),
        "West may not face his hand for inspection: only while play continues after declarer's disputed \
         claim (Law 69 of the Laws of Rubber Bridge)"
    );
    let pending = play.claim(Claim::new(Seat::South, 11, "the rest")).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(pending.face_for_inspection(Seat::West).refused(), PlayError::PlaySuspended { .. }));

    // South leads; East claims the rest of the defence and South disputes it (Law 70B).
    let play = cards(&play, &["SA", "S9", "S3", "S6"]);
    let play = cards(&play, &["H3", "H6", "H2"]);
    let claim = Claim::new(Seat::East, 2, "my hearts");
    let play = play.claim(claim).and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::South)));
    let play = play.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.claims()[0].status, ClaimStatus::PlayContinued);
    let err = play.face_for_inspection(Seat::West).refused();
    assert_eq!(err.law(), Law::rubber(69, ""));
}

/// Club Law 69: "If either defender disputes declarer's claim or concession, the Arbiter must be
/// called to adjudicate the result of the deal": nothing is played on, so no hand is faced for
/// inspection. Duplicate Law 68D2(b): play continues only by agreement of all four, "the prior
/// claim or concession is void", and the duplicate Laws give no such right.
#[test]
fn club_law_69_and_duplicate_law_68d_leave_no_play_on_to_face_a_hand_for() {
    let claim = || Claim::new(Seat::South, 11, "the rest");
    let club =
        before_claim(Code::Club).claim(claim()).and_then(|p| p.respond_to_claim(ClaimResponse::Dispute(Seat::West)));
    let club = club.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(club.claims()[0].status, ClaimStatus::Disputed);
    assert!(matches!(club.face_for_inspection(Seat::West).refused(), PlayError::PlaySuspended { .. }));

    let duplicate =
        before_claim(Code::Duplicate).claim(claim()).and_then(|p| p.respond_to_claim(ClaimResponse::PlayOn));
    let duplicate = duplicate.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(duplicate.claims()[0].status, ClaimStatus::PlayContinued);
    let err = duplicate.face_for_inspection(Seat::West).refused();
    assert_eq!(err.law(), Law::duplicate(68, "D2"));
}

/// Law 69: "declarer may not impose a penalty for any irregularity committed by a defender whose
/// hand is so faced". A lead out of turn by him may be retracted (that restores the order of
/// play), but the card goes back to his face-up hand: no penalty card (Law 56), and no lead
/// restriction on his partner (Laws 50D2-51). His partner, whose hand is not faced, is dealt with
/// as usual.
#[test]
fn law_69_a_lead_out_of_turn_by_him_brings_declarer_no_penalty() {
    let play = faced(&disputed(), Seat::West);
    // South is on lead; West leads the club king out of turn.
    let play = record(&play, &[(Seat::West, "CK")]);
    let decision = play.decision().unwrap_or_else(|| panic!("a decision for the lead out of turn"));
    assert!(matches!(decision.situation, Situation::DefenderLeadOutOfTurn { offender: Seat::West, .. }));
    let options: Vec<PlayOption> = decision.offers.iter().map(|o| o.option).collect();
    assert_eq!(options, vec![PlayOption::AcceptLead, PlayOption::RetractLead]);
    assert!(
        decision.offers.iter().all(|o| !o.effects.iter().any(|e| matches!(e, Effect::PenaltyCard { .. }))),
        "no penalty card is offered"
    );
    let rejected = &decision.offers[1];
    assert_eq!(rejected.law, Law::rubber(69, ""));
    assert_eq!(rejected.effects, vec![Effect::CardReturned { seat: Seat::West, card: card("CK") }]);
    let play = play.rectify(PlayOption::RetractLead).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.penalty_cards().count(), 0);
    assert_eq!(play.lead_restriction(), None);
    assert!(play.hand(Seat::West).contains(card("CK")));
    assert_eq!(play.next_to_play(), Some(Seat::South));

    // East's hand is not faced: his lead out of turn can make a penalty card as ever.
    let play = record(&play, &[(Seat::East, "C9")]);
    let decision = play.decision().unwrap_or_else(|| panic!("a decision for East's lead"));
    assert!(decision.offers.iter().any(|o| o.effects.iter().any(|e| matches!(e, Effect::PenaltyCard { .. }))));
}

/// Law 69 with Law 49: a card the defender whose hand is faced exposes is face up already and
/// becomes no penalty card.
#[test]
fn law_69_a_card_he_exposes_is_no_penalty_card() {
    let play = faced(&disputed(), Seat::West);
    let recorded = play.expose(Seat::West, &[card("CQ")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorded.play.penalty_cards().count(), 0);
    assert_eq!(
        recorded.events,
        vec![PlayEvent::CardReturned { seat: Seat::West, card: card("CQ"), law: Law::rubber(69, "") }]
    );
    // East's exposed card is a penalty card as ever (Law 49).
    let recorded = play.expose(Seat::East, &[card("C9")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(recorded.play.penalty_cards().count(), 1);
}

/// Law 69 with Law 57: a lead to the next trick before his partner has played is no penalty
/// card, and declarer is offered no restriction on the partner's play (Law 57's only options).
#[test]
fn law_69_a_premature_lead_by_him_restricts_no_one() {
    let play = faced(&disputed(), Seat::West);
    // South leads the spade ace, West and North follow; West leads a club before East plays.
    let play = cards(&play, &["SA", "S9", "S3"]);
    let recorded = recorded(&play, Seat::West, "CK");
    assert!(recorded.play.decision().is_none(), "no Law 57 option for declarer");
    assert_eq!(recorded.play.penalty_cards().count(), 0);
    assert_eq!(recorded.play.play_restriction(), None);
    assert!(recorded.play.hand(Seat::West).contains(card("CK")));
    assert!(recorded.events.contains(&PlayEvent::CardReturned {
        seat: Seat::West,
        card: card("CK"),
        law: Law::rubber(69, "")
    }));
    assert_eq!(recorded.play.next_to_play(), Some(Seat::East));
}

/// Law 69 with Law 64D3: "there is no trick penalty for the established revoke ... if the revoke
/// was made in failing to play any card faced on, or belonging to a hand faced on, the table". A
/// revoke from the
/// hand faced for inspection is recorded as from a faced hand, so it transfers no trick.
#[test]
fn law_69_a_revoke_from_his_faced_hand_is_from_a_faced_hand() {
    let play = faced(&disputed(), Seat::West);
    // South leads the spade ace; West, holding spades, discards a club.
    let play = cards(&play, &["SA"]);
    let play = record(&play, &[(Seat::West, "CQ")]);
    let revoke = play.revokes().first().unwrap_or_else(|| panic!("a revoke"));
    assert_eq!(revoke.offender, Seat::West);
    assert!(revoke.from_faced_hand);
}
