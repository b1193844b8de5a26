//! Which section of the claim Laws each step of a claim cites: a defender's claim (rubber Law
//! 70A and 70B) and the adjudication of a disputed claim (duplicate Law 70A; Club Laws 69 and
//! 70).

mod play_common;

use laws::play::{Claim, ClaimResponse, Play, PlayError, adjudication_law};
use laws::{CitesLaw, Code, Law, Seat};
use play_common::{Refused, card, cards, start};

/// Each hand holds one suit: North the spades, East the hearts, South the diamonds, West the
/// clubs. North plays 1S; every card is legal at every turn after the lead, and North wins every
/// trick.
const ONE_SUIT_EACH: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";

const RANKS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

/// The first `tricks` tricks: East leads a heart, then North leads spades; each hand plays its
/// suit from the bottom up.
fn after(code: Code, tricks: usize) -> Play {
    let play = start(ONE_SUIT_EACH, "1S", Seat::North, code);
    let list: Vec<String> = (0..tricks)
        .flat_map(|i| {
            let r = RANKS[i];
            let trick = [format!("H{r}"), format!("D{r}"), format!("C{r}"), format!("S{r}")];
            if i == 0 {
                trick.to_vec()
            } else {
                vec![trick[3].clone(), trick[0].clone(), trick[1].clone(), trick[2].clone()]
            }
        })
        .collect();
    let list: Vec<&str> = list.iter().map(String::as_str).collect();
    cards(&play, &list)
}

/// Rubber Law 70A: "If the claim pertains only to an uncompleted trick currently in progress,
/// play proceeds normally; cards exposed or otherwise revealed by the defender in making his
/// claim do not become penalty cards". With one trick left and North's spade ace led, East's claim
/// can be about that trick only: it is no claim, and the refusal cites Law 70A. Duplicate Law 68
/// says the same in its opening: a claim "must refer to tricks other than one currently in
/// progress".
#[test]
fn law_70a_a_defenders_claim_of_the_trick_in_progress_is_no_claim() {
    for (code, law) in [(Code::Rubber, Law::rubber(70, "A")), (Code::Duplicate, Law::duplicate(68, ""))] {
        let play = cards(&after(code, 12), &["SA"]);
        assert_eq!(play.remaining_tricks(), 1);
        let err = play.claim(Claim::new(Seat::East, 1, "this one is mine")).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{code:?}: {err}");
        assert_eq!(err.law(), law, "{code:?}");
        assert!(play.card(card("HA")).is_ok(), "{code:?}: play proceeds");
    }
}

/// Rubber Law 70B: "the claim pertains to subsequent tricks, play is temporarily suspended ...
/// The claim is allowed and the deal scored accordingly if declarer agrees to it. If declarer
/// disputes the claim, the defenders must play on with the claimer's hand face up on the table."
/// While it is considered a card is refused under Law 70B (under Law 69 after declarer's claim),
/// and only declarer answers it: the claimer's partner and dummy are refused under Law 70B.
#[test]
fn law_70b_only_declarer_answers_a_defenders_claim() {
    let claimed =
        after(Code::Rubber, 1).claim(Claim::new(Seat::East, 0, "I take none")).unwrap_or_else(|e| panic!("{e}"));
    let err = claimed.card(card("S3")).refused();
    assert!(matches!(err, PlayError::PlaySuspended { .. }), "{err}");
    assert_eq!(err.law(), Law::rubber(70, "B"));
    let declarers = after(Code::Rubber, 1).claim(Claim::new(Seat::North, 12, "all")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(declarers.card(card("S3")).refused().law(), Law::rubber(69, ""));
    for response in [
        ClaimResponse::Agree(Seat::West),
        ClaimResponse::Agree(Seat::South),
        ClaimResponse::Dispute(Seat::West),
        ClaimResponse::Dispute(Seat::South),
    ] {
        let err = claimed.respond_to_claim(response).refused();
        assert_eq!(err.law(), Law::rubber(70, "B"), "{response:?}");
    }
    assert!(claimed.respond_to_claim(ClaimResponse::Agree(Seat::North)).is_ok());
    assert!(claimed.respond_to_claim(ClaimResponse::Dispute(Seat::North)).is_ok());
}

/// Duplicate Law 70A: "In ruling on a contested claim or concession, the Director adjudicates the
/// result of the board as equitably as possible to both sides, but any doubtful point as to a
/// claim shall be resolved against the claimer." Club Law 69: "If either defender disputes
/// declarer's claim or concession, the Arbiter must be called to adjudicate the result of the
/// deal"; Club Law 70: "It declarer disputes a defender's claim of concession, the Arbiter must
/// be called to adjudicate the result of the deal" (both additions carry no letter). An
/// adjudication cites these when the official cites nothing else, and so does a refused one.
#[test]
fn law_70a_and_club_laws_69_and_70_govern_an_adjudication() {
    assert_eq!(adjudication_law(Code::Duplicate, true), Law::duplicate(70, "A"));
    assert_eq!(adjudication_law(Code::Duplicate, false), Law::duplicate(70, "A"));
    assert_eq!(adjudication_law(Code::Club, true), Law::club(69, ""));
    assert_eq!(adjudication_law(Code::Club, false), Law::club(70, ""));
    let cases = [
        (Code::Duplicate, Seat::North, Seat::East, Law::duplicate(70, "A")),
        (Code::Duplicate, Seat::East, Seat::North, Law::duplicate(70, "A")),
        (Code::Club, Seat::North, Seat::East, Law::club(69, "")),
        (Code::Club, Seat::East, Seat::North, Law::club(70, "")),
    ];
    for (code, claimer, doubter, law) in cases {
        let claimed = after(code, 1).claim(Claim::new(claimer, 6, "half")).unwrap_or_else(|e| panic!("{e}"));
        let disputed =
            claimed.respond_to_claim(ClaimResponse::Dispute(doubter)).unwrap_or_else(|e| panic!("{code:?}: {e}"));
        let err = disputed.adjudicate(13).refused();
        assert_eq!(err.law(), law, "{code:?} {claimer:?}");
        assert!(disputed.adjudicate(5).is_ok());
    }
}
