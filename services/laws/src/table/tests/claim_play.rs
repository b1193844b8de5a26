//! A disputed claim played on under the Laws of Rubber Bridge, at the table: a card against the
//! claim at a digital table waits for the defenders as at a recording table (Law 69), and the
//! obligations shown to the players, one per sub-Law (Laws 69, 69A, 69B, 69D).

use super::*;
use crate::irregularities::play::Suits;
use crate::play::{StatedLine, TrumpIntent};

/// North declares 4S with the PBN deal at a rubber table playing as `mode`; after East's club
/// ace and North's spade ace North claims eleven tricks, stating he will draw the trumps, and West
/// disputes: play continues under Law 69.
fn north_claim_disputed(mode: Mode) -> DealInProgress {
    north_claims(mode, StatedLine { trumps: TrumpIntent::Draw, ..StatedLine::default() })
}

/// As [`north_claim_disputed`], North's statement recorded as `line`.
fn north_claims(mode: Mode, line: StatedLine) -> DealInProgress {
    use Seat::*;
    let entered = Setup { hands: Hands::Entered(deal()), ..setup(Code::Rubber, mode) };
    let table = four_spades(DealInProgress::start(entered).unwrap().0);
    let plays = [(East, "CA"), (South, "C8"), (West, "C5"), (North, "C2"), (East, "S8"), (South, "S5"), (West, "S2")];
    let table = plays.iter().fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let (table, _) = card(&table, North, "SA");
    let claim = Action::Claim { claimer: North, tricks: 11, statement: "drawing trumps".into(), line: Some(line) };
    let (table, _) = apply(&table, claim);
    apply(&table, Action::RespondToClaim { claim: 1, seat: West, agree: false }).0
}

/// Rubber Law 69 at a digital table: "If declarer attempts to make a play prohibited under this
/// Law, either defender may accept the play or, provided neither defender has subsequently played,
/// require declarer to withdraw the card so played and substitute another that conforms to his
/// obligations." North leads a heart though he stated he would draw the trumps: the card is not
/// refused but waits, unplayed, for the defenders, with the decision a recording table gets for the
/// same card (the same Law, options and choosers); nobody plays meanwhile, and the journal's
/// trusted path replays it the same.
#[test]
fn law_69_a_card_against_a_disputed_claim_at_a_digital_table_waits_for_the_defenders() {
    use Seat::*;
    let table = north_claim_disputed(Mode::Digital);
    let heart = Action::Play { seat: North, card: "H9".parse().unwrap() };
    let (held, events) = apply(&table, heart.clone());
    assert!(events.iter().any(|e| matches!(e, Event::RectificationOffered { .. })), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::CardPlayed { .. })), "{events:?}");
    let play = held.play().unwrap();
    assert!(play.hand(North).contains("H9".parse().unwrap()), "the card waits in the hand");
    assert!(play.current_trick().is_some_and(|t| t.is_empty()));
    let decision = held.open_decision().unwrap_or_else(|| panic!("the defenders decide"));
    assert_eq!(decision.law, Law::rubber(69, ""));
    assert!(decision.options.iter().all(|o| o.law == Law::rubber(69, "") && o.chooser_seats == vec![East, West]));
    assert_eq!(decision.irregularity, None, "it arises from the claim, not an earlier irregularity");

    // What a recording table gets for the same card.
    let (recorded, _) = card(&north_claim_disputed(Mode::Recorded), North, "H9");
    let recorded = recorded.open_decision().unwrap();
    assert_eq!(
        (&decision.situation, decision.law, &decision.options),
        (&recorded.situation, recorded.law, &recorded.options)
    );

    // Nobody plays while the defenders decide; the trusted path holds the card too.
    let err = held.apply(&Action::Play { seat: East, card: "H5".parse().unwrap() }).unwrap_err();
    assert!(matches!(err, TableError::Play(PlayError::DecisionPending { .. })), "{err}");
    assert_eq!(table.apply_unchecked(&heart).unwrap(), (held.clone(), events));

    let (withdrawn, _) = choose(&held, "withdraw_claim_play", None, Actor::Seat(East));
    assert!(withdrawn.play().unwrap().hand(North).contains("H9".parse().unwrap()));
    let (withdrawn, _) = card(&withdrawn, North, "SK");
    assert_eq!(withdrawn.play().unwrap().current_trick().and_then(|t| t.card(North)), Some("SK".parse().unwrap()));
    let (accepted, events) = choose(&held, "accept_claim_play", None, Actor::Seat(West));
    assert!(events.contains(&Event::CardPlayed { trick: 2, seat: North, card: "H9".parse().unwrap() }));
    assert_eq!(accepted.play().unwrap().next_to_play(), Some(East));
}

/// The obligations shown after North's disputed claim, one per Law that imposes it. Law 69:
/// "Declarer may not make any play inconsistent with the statement he may have made at the time of
/// his claim or concession. If he failed to make any appropriate statement at that time, his choice
/// of plays is restricted thereby: A. if declarer made no relevant statement, he may not finesse in
/// any suit unless an opponent failed to follow in that suit ... B. ... either defender may require
/// him to draw or not to draw the outstanding trump ... D. if declarer's statement did not include
/// the order of play when leading a suit, it may be assumed from the top down". North stated the
/// diamond ace first, a heart finesse and that he would draw the trumps.
#[test]
fn law_69_the_claim_obligations_are_shown_one_per_sub_law() {
    use Suit::*;
    let line = StatedLine {
        cards: vec!["DA".parse().unwrap()],
        trumps: TrumpIntent::Draw,
        finesses: Suits::single(Hearts),
        ..StatedLine::default()
    };
    let table = north_claims(Mode::Recorded, line);
    let shown: Vec<(ObligationKind, Law, Vec<Suit>)> =
        table.obligations().into_iter().map(|o| (o.kind, o.law, o.suits)).collect();
    assert_eq!(
        shown,
        vec![
            (ObligationKind::ClaimLine, Law::rubber(69, ""), vec![]),
            // No finesse in a suit he stated none in: hearts he named.
            (ObligationKind::ClaimNoFinesse, Law::rubber(69, "A"), vec![Spades, Diamonds, Clubs]),
            // The order of diamonds he stated; the other suits go from the top down.
            (ObligationKind::ClaimTopDown, Law::rubber(69, "D"), vec![Spades, Hearts, Clubs]),
            // He stated he would draw the trumps: his statement binds him (Law 69).
            (ObligationKind::ClaimDrawTrumps, Law::rubber(69, ""), vec![Spades]),
        ]
    );
    let described: Vec<String> = table.obligations().into_iter().map(|o| o.description).collect();
    assert_eq!(
        described[0],
        "North plays on as his claim stated: play DA in that order; draw the outstanding trumps; finesse in hearts (Law 69 of the Laws of Rubber Bridge)"
    );
    assert!(described[1].contains("may not finesse in spades or diamonds or clubs"), "{}", described[1]);
    assert!(described[2].contains("leads spades and hearts and clubs from the top down"), "{}", described[2]);

    // A statement silent on the trumps: once the defenders require him to draw them, Law 69B.
    let table = north_claims(Mode::Recorded, StatedLine::default());
    let (table, _) = choose(&table, "require_draw_trumps", None, Actor::Seat(Seat::East));
    let trumps = table.obligations().into_iter().find(|o| o.kind == ObligationKind::ClaimDrawTrumps);
    assert_eq!(trumps.map(|o| o.law), Some(Law::rubber(69, "B")));
}

/// Law 69 at a digital table, card by card: after North's disputed claim (the defenders having
/// required him to draw the trumps, Law 69B), every card of the hand due, at every turn to the end
/// of the deal, is played, held for the defenders' decision, or refused naming a Law, and the
/// journal's trusted path gives the same state and events for each card accepted. Only declarer's
/// side has cards held, and only under Law 69 or one of its sections.
#[test]
fn law_69_at_a_digital_table_every_card_is_played_held_or_refused_and_replays_the_same() {
    let table = north_claims(Mode::Digital, StatedLine::default());
    let (mut table, _) = choose(&table, "require_draw_trumps", None, Actor::Seat(Seat::East));
    let mut held = 0;
    while !table.is_over() {
        let play = table.play().unwrap();
        let seat = play.next_to_play().unwrap();
        let mut played = None;
        for card in play.hand(seat).iter() {
            let action = Action::Play { seat, card };
            match table.apply(&action) {
                Ok(accepted) => {
                    assert_eq!(table.apply_unchecked(&action).as_ref(), Ok(&accepted), "{seat} {card}");
                    match accepted.0.open_decision() {
                        Some(decision) => {
                            held += 1;
                            assert!(seat == Seat::North || seat == Seat::South, "{seat}'s {card} held");
                            assert_eq!((decision.law.code, decision.law.number), (Code::Rubber, 69));
                            let names: Vec<&str> = decision.options.iter().map(|o| o.name.as_str()).collect();
                            assert_eq!(names, ["accept_claim_play", "withdraw_claim_play"]);
                        }
                        None => played = played.or(Some(accepted.0)),
                    }
                }
                Err(error) => assert!(error.law().is_some(), "{seat} {card}: {error}"),
            }
        }
        table = played.unwrap_or_else(|| panic!("{seat} has a card that conforms (Law 59)"));
    }
    assert!(held > 0, "some card of declarer's side broke the claim");
}
