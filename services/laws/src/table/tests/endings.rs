//! How a deal ends: a claim decided by the official (duplicate Law 70), a concession agreed
//! (Law 69), a result entered (Laws 22, 81) or the deal abandoned. Apart because every way of
//! ending is checked against the outcome it gives.

use super::*;

#[test]
fn duplicate_law_70_a_disputed_claim_goes_to_the_director_who_decides_it() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) =
        apply(&table, Action::Claim { claimer: Seat::North, tricks: 13, statement: "all mine".into(), line: None });
    assert_eq!(table.phase(), Phase::Claim);
    assert!(table.visible_hands(Viewer::Spectator).iter().any(|(seat, _)| *seat == Seat::North), "Law 68C: faced");
    let err = table
        .apply(&Action::Claim { claimer: Seat::North, tricks: 14, statement: String::new(), line: None })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Rule);
    let (table, events) = apply(&table, Action::RespondToClaim { claim: 1, seat: Seat::West, agree: false });
    assert!(events.contains(&Event::ClaimAnswered { id: 1 }));
    assert!(events.contains(&Event::OfficialCalled { id: 1 }));
    assert_eq!(table.official_calls()[0].claim, Some(1));
    let (table, events) = apply(&table, Action::Adjudicate { claim: 1, tricks: 9, reasons: "a club to lose".into() });
    assert!(events.contains(&Event::ClaimAdjudicated { id: 1 }));
    assert!(events.contains(&Event::OfficialCallResolved { id: 1 }));
    assert!(events.contains(&Event::DealFinished));
    let outcome = table.outcome().unwrap();
    assert_eq!(outcome.ending, Ending::ClaimAdjudicated);
    let Some(DealResult::Played { tricks, .. }) = outcome.result else { panic!() };
    assert_eq!(tricks, 9, "no trick was won yet; nine of the thirteen remaining");
    assert!(outcome.honors.is_empty(), "duplicate scores no honors");
}

#[test]
fn law_69_an_agreed_concession_ends_the_deal() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = apply(&table, Action::Concede { conceder: Seat::East, tricks: 10 });
    let (table, _) = apply(&table, Action::RespondToClaim { claim: 1, seat: Seat::North, agree: true });
    let outcome = table.outcome().unwrap();
    assert_eq!(outcome.ending, Ending::Conceded);
    let Some(DealResult::Played { tricks, .. }) = outcome.result else { panic!() };
    assert_eq!(tricks, 10);
    // North holds AKQJ of spades: four trump honors in one hand (Law 81).
    assert_eq!(outcome.honors, vec![HonorsClaim { side: Side::NorthSouth, honors: Honors::FourTrumpHonors }]);
}

#[test]
fn result_entry_must_agree_with_the_auction_and_law_81_on_honors() {
    let mut unknown = setup(Code::Rubber, Mode::Recorded);
    unknown.hands = Hands::Unknown;
    let table = four_spades(DealInProgress::start(unknown).unwrap().0);
    assert_eq!(table.phase(), Phase::ResultEntry, "without the hands the play is not recorded");
    let err = table.apply(&Action::Play { seat: Seat::East, card: "CA".parse().unwrap() }).unwrap_err();
    assert_eq!(err, TableError::HandsUnknown);
    let three_hearts = DeclaredContract { contract: "3H".parse().unwrap(), declarer: Seat::North };
    let err = table
        .apply(&Action::EnterResult {
            result: DealResult::Played { contract: three_hearts, tricks: 9 },
            honors: vec![],
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the result entered (3H by North) does not agree with the auction: 4S by North (Law 22B of the Laws of Rubber Bridge)"
    );
    let four_spades = DeclaredContract { contract: "4S".parse().unwrap(), declarer: Seat::North };
    let aces = HonorsClaim { side: Side::NorthSouth, honors: Honors::FourAces };
    let err = table
        .apply(&Action::EnterResult {
            result: DealResult::Played { contract: four_spades, tricks: 10 },
            honors: vec![aces],
        })
        .unwrap_err();
    assert_eq!(err.law(), Some(Law::rubber(81, "")));
    let honors = vec![HonorsClaim { side: Side::EastWest, honors: Honors::FourTrumpHonors }];
    let (table, events) =
        apply(&table, Action::EnterResult { result: DealResult::Played { contract: four_spades, tricks: 10 }, honors });
    assert_eq!(events, vec![Event::DealFinished]);
    assert_eq!(table.outcome().unwrap().ending, Ending::ResultEntered);

    // A digital deal's result comes from its play; duplicate scores no honors (Law 77).
    let digital = start(Code::Rubber, Mode::Digital);
    let err = digital.apply(&Action::EnterResult { result: DealResult::PassedOut, honors: vec![] }).unwrap_err();
    assert_eq!(err, TableError::DigitalResult);
    let mut only = setup(Code::Duplicate, Mode::Recorded);
    only.result_only = true;
    let table = DealInProgress::start(only).unwrap().0;
    assert_eq!(table.phase(), Phase::ResultEntry);
    let err =
        table.apply(&Action::Call { seat: Seat::North, call: "Pass".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Precondition);
    let err = table
        .apply(&Action::EnterResult {
            result: DealResult::Played { contract: four_spades, tricks: 10 },
            honors: vec![HonorsClaim { side: Side::NorthSouth, honors: Honors::FourTrumpHonors }],
        })
        .unwrap_err();
    assert_eq!(err.law(), Some(Law::duplicate(77, "")));
}

#[test]
fn an_abandoned_deal_has_no_result_and_takes_no_more_actions() {
    let table = call(&start(Code::Rubber, Mode::Digital), Seat::North, "1C");
    let (table, events) = apply(&table, Action::Abandon { reason: "fire alarm".into() });
    assert_eq!(events, vec![Event::DealAbandoned]);
    assert_eq!(table.phase(), Phase::Abandoned);
    assert_eq!(table.outcome().unwrap().result, None);
    assert!(table.apply(&Action::Call { seat: Seat::East, call: "Pass".parse().unwrap(), relates_to: None }).is_err());
}

/// Rubber Law 69: "At any time either defender may face his hand for inspection by his partner".
/// After declarer's disputed claim West faces his: it reaches every viewer from then on, where
/// before only West saw it; declarer may not face his own this way.
#[test]
fn law_69_a_defender_faces_his_hand_for_everyone_at_the_table() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let claim = Action::Claim { claimer: Seat::North, tricks: 12, statement: "the rest".into(), line: None };
    let (table, _) = apply(&table, claim);
    let (table, _) = apply(&table, Action::RespondToClaim { claim: 1, seat: Seat::West, agree: false });
    let west = |t: &DealInProgress, viewer| {
        t.visible_hands(viewer).into_iter().find(|(seat, _)| *seat == Seat::West).map(|(_, cards)| cards)
    };
    assert_eq!(west(&table, Viewer::Player(Seat::East)), None);
    assert_eq!(west(&table, Viewer::Spectator), None);
    let err = table.apply(&Action::FaceHand { claim: 1, seat: Seat::North }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Rule);
    let err = table.apply(&Action::FaceHand { claim: 2, seat: Seat::West }).unwrap_err();
    assert_ne!(err.kind(), ErrorKind::Rule, "no such claim");
    let (table, events) = apply(&table, Action::FaceHand { claim: 1, seat: Seat::West });
    assert_eq!(events, vec![Event::HandFaced { seat: Seat::West }]);
    let hand = table.play().unwrap().hand(Seat::West);
    for viewer in
        [Viewer::Player(Seat::East), Viewer::Player(Seat::North), Viewer::Player(Seat::South), Viewer::Spectator]
    {
        assert_eq!(west(&table, viewer), Some(hand), "{viewer:?}");
    }
}
