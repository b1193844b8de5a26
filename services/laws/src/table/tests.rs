use super::*;
use crate::cards::{CardSet, Suit, SuitSet};
use crate::contract::Vulnerability;
use crate::irregularities::play::Designation;
use crate::play::{Play, PlayError};
use crate::score::honors::{Honors, HonorsClaim, honors_claim};
use crate::seat::Side;

/// North: S AKQJ H T98 D 765 C 432; East: S T98 H 765 D 432 C AKQJ; South: S 765 H 432 D AKQJ
/// C T98; West: S 432 H AKQJ D T98 C 765.
const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

fn deal() -> Deal {
    PBN.parse().unwrap()
}

fn setup(code: Code, mode: Mode) -> Setup {
    let hands = match mode {
        Mode::Digital => Hands::Seeded(DealSeed([7; 32])),
        Mode::Recorded => Hands::Entered(deal()),
    };
    Setup { code, mode, dealer: Seat::North, vulnerability: Vulnerability::None, hands, result_only: false }
}

fn start(code: Code, mode: Mode) -> DealInProgress {
    DealInProgress::start(setup(code, mode)).unwrap().0
}

fn apply(table: &DealInProgress, action: Action) -> (DealInProgress, Vec<Event>) {
    table.apply(&action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

fn call(table: &DealInProgress, seat: Seat, call: &str) -> DealInProgress {
    apply(table, Action::Call { seat, call: call.parse().unwrap(), relates_to: None }).0
}

fn calls(mut table: DealInProgress, calls: &[(Seat, &str)]) -> DealInProgress {
    for (seat, c) in calls {
        table = call(&table, *seat, c);
    }
    table
}

fn card(table: &DealInProgress, seat: Seat, card: &str) -> (DealInProgress, Vec<Event>) {
    apply(table, Action::Play { seat, card: card.parse().unwrap() })
}

/// 1S by North, raised to 4S: North declares, East leads, South is dummy.
fn four_spades(table: DealInProgress) -> DealInProgress {
    use Seat::*;
    calls(table, &[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S")])
        .pipe(|t| calls(t, &[(East, "Pass"), (South, "Pass"), (West, "Pass")]))
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl<T> Pipe for T {}

/// Plays the rest of the deal, each hand its first legal card.
fn play_out(mut table: DealInProgress) -> DealInProgress {
    while let Some(play) = table.play().filter(|_| !table.is_over()) {
        let seat = play.next_to_play().unwrap();
        let card = play.legal_cards().iter().next().unwrap();
        table = apply(&table, Action::Play { seat, card }).0;
    }
    table
}

fn option(table: &DealInProgress, name: &str) -> (u32, usize) {
    let decision = table.open_decision().unwrap_or_else(|| panic!("no decision open; wanted {name}"));
    let index = decision.options.iter().position(|o| o.name == name).unwrap_or_else(|| {
        panic!("{name} not offered: {:?}", decision.options.iter().map(|o| &o.name).collect::<Vec<_>>())
    });
    (decision.id, index)
}

fn choose(table: &DealInProgress, name: &str, call: Option<&str>, by: Actor) -> (DealInProgress, Vec<Event>) {
    let (decision, option) = option(table, name);
    apply(table, Action::Choose { decision, option, call: call.map(|c| c.parse().unwrap()), by, relates_to: None })
}

#[test]
fn law_17_and_27_digital_play_refuses_a_call_out_of_turn_and_an_insufficient_bid() {
    let table = start(Code::Rubber, Mode::Digital);
    let err =
        table.apply(&Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(err.to_string(), "it is North's turn to call, not East's (Law 17 of the Laws of Rubber Bridge)");
    assert_eq!(err.kind(), ErrorKind::Rule);
    let table = call(&table, Seat::North, "1S");
    let err =
        table.apply(&Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(err.to_string(), "insufficient bid 1H over 1S (Law 27 of the Laws of Rubber Bridge)");
    assert!(table.irregularities().is_empty());
}

#[test]
fn law_41_dummy_is_seen_only_once_the_opening_lead_is_faced() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    assert_eq!(table.phase(), Phase::Play);
    assert_eq!(table.contract().unwrap().to_string(), "4S by North");
    // Before the opening lead East sees only his own hand; the spectator nothing.
    let east = table.visible_hands(Viewer::Player(Seat::East));
    assert_eq!(east, vec![(Seat::East, deal().hand(Seat::East))]);
    assert!(table.visible_hands(Viewer::Spectator).is_empty());
    assert_eq!(table.visible_hands(Viewer::Official).len(), 4);

    let (table, events) = card(&table, Seat::East, "CA");
    assert_eq!(
        events,
        vec![Event::CardPlayed { trick: 0, seat: Seat::East, card: "CA".parse().unwrap() }, Event::DummyFaced]
    );
    let dummy = deal().hand(Seat::South);
    for viewer in [Viewer::Player(Seat::East), Viewer::Player(Seat::North), Viewer::Spectator] {
        let seen = table.visible_hands(viewer);
        assert!(seen.contains(&(Seat::South, dummy)), "{viewer:?} sees dummy");
        assert!(!seen.iter().any(|(seat, _)| *seat == Seat::West), "{viewer:?} never sees West");
    }
}

#[test]
fn a_digital_deal_played_out_ends_with_its_tricks_and_the_honors_held() {
    let mut table = start(Code::Rubber, Mode::Digital);
    // Whatever the seed dealt, the dealer opens 1NT and the others pass.
    table = calls(table, &[(Seat::North, "1N"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")]);
    let table = play_out(table);
    let outcome = table.outcome().unwrap();
    assert_eq!(outcome.ending, Ending::PlayedOut);
    let play = table.play().unwrap();
    let Some(DealResult::Played { contract, tricks }) = outcome.result else { panic!("played") };
    assert_eq!(contract.to_string(), "1NT by North");
    assert_eq!(tricks, play.tricks_won(Side::NorthSouth));
    let expected: Vec<HonorsClaim> =
        honors_claim(table.deal().unwrap(), contract.contract.denomination()).into_iter().collect();
    assert_eq!(outcome.honors, expected);
    assert_eq!(table.phase(), Phase::Finished);
    // Law 81: everyone may see the hands of a finished rubber deal.
    assert_eq!(table.visible_hands(Viewer::Spectator).len(), 4);
}

#[test]
fn law_27_an_insufficient_bid_at_a_club_table_summons_the_arbiter_and_lho_may_accept_it_by_calling() {
    let table = start(Code::Club, Mode::Recorded);
    let table = call(&table, Seat::North, "1S");
    let (table, events) =
        apply(&table, Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None });
    let record = &table.irregularities()[0];
    assert_eq!(record.fact.kind, FactKind::InsufficientBid);
    assert_eq!(record.law.number, 27);
    assert_eq!(record.decisions, vec![1]);
    assert!(events.contains(&Event::IrregularityRecorded { id: 1 }));
    assert!(events.contains(&Event::RectificationOffered { id: 1 }));
    assert!(events.contains(&Event::OfficialCalled { id: 1 }));
    // Club Law 13: the Arbiter is at the table; nobody calls until he has dealt with it.
    let err =
        table.apply(&Action::Call { seat: Seat::South, call: "Pass".parse().unwrap(), relates_to: None }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nobody calls or plays until the Arbiter has dealt with the table (Club Law 13 (Alternative Club Laws))"
    );
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call: 1, note: "options explained".into() });
    // Law 27A: South, the offender's left-hand opponent, accepts by calling.
    let decision = table.open_decision().unwrap();
    let accept = decision.options.iter().find(|o| o.name == "accept_by_calling").unwrap();
    assert_eq!(accept.chooser_seats, vec![Seat::South]);
    let (table, events) =
        apply(&table, Action::Call { seat: Seat::South, call: "2H".parse().unwrap(), relates_to: None });
    assert!(events.contains(&Event::RectificationChosen { id: 1 }));
    let settled = table.decisions()[0].settled.unwrap();
    assert_eq!(settled.by, Some(Actor::Seat(Seat::South)));
    assert_eq!(table.decisions()[0].options[settled.option.unwrap()].name, "accept_by_calling");
    assert_eq!(table.next_to_act(), Some(Seat::West));
}

#[test]
fn law_27b_a_rejected_insufficient_bid_is_replaced_under_the_same_irregularity() {
    let table = calls(start(Code::Rubber, Mode::Recorded), &[(Seat::North, "1S"), (Seat::East, "1H")]);
    // Not the offender's partner's choice: the Law gives it to South.
    let (decision, index) = option(&table, "reject_insufficient_bid");
    let err = table
        .apply(&Action::Choose { decision, option: index, call: None, by: Actor::Seat(Seat::West), relates_to: None })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotEntitled);
    assert!(err.to_string().starts_with("West may not choose \"reject_insufficient_bid\""), "{err}");
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    let replacement = table.open_decision().unwrap();
    assert_eq!(replacement.id, 2);
    assert_eq!(replacement.irregularity, Some(1), "the replacement belongs to the same insufficient bid");
    assert_eq!(table.irregularities()[0].decisions, vec![1, 2]);
    // Rubber Law 27A: the lowest sufficient bid in the same denomination, 2H; no further penalty.
    let (table, _) = choose(&table, "lowest_sufficient_bid", Some("2H"), Actor::Seat(Seat::East));
    assert!(table.open_decision().is_none());
    let standing: Vec<String> = table.auction().standing_calls().map(|(_, c)| c.to_string()).collect();
    assert_eq!(standing, ["1S", "2H"]);
}

#[test]
fn law_31_a_bid_out_of_rotation_is_recorded_and_rectified() {
    let table = start(Code::Duplicate, Mode::Recorded);
    // South bids 1H at North's turn (dealer North): at his partner's turn.
    let (table, _) = apply(
        &table,
        Action::Irregularity {
            fact: Fact {
                kind: FactKind::CallOutOfRotation,
                offender: Seat::South,
                call: Some("1H".parse().unwrap()),
                card: None,
                trick: None,
                deliberate: false,
                designation: None,
                also_visible: Vec::new(),
                misinformed: None,
                relates_to: None,
                description: "South bid before his partner, the dealer".into(),
            },
            pointed_out_by: Some(Seat::West),
        },
    );
    let record = &table.irregularities()[0];
    assert_eq!(record.fact.kind, FactKind::CallOutOfRotation);
    assert_eq!(record.law.number, 29, "Law 29: procedure after a call out of rotation");
    assert_eq!(record.pointed_out_by, Some(Seat::West));
    assert_eq!(table.open_official_calls().count(), 1, "duplicate Law 9B1(a): the Director is summoned");
    let decision = table.open_decision().unwrap();
    assert!(decision.options.iter().any(|o| o.name == "accept_by_calling"), "Law 29A");
    assert!(decision.options.iter().any(|o| o.law.number == 31), "Law 31: a bid out of rotation");
    // A legal call in turn is not an irregularity.
    let fresh = start(Code::Duplicate, Mode::Recorded);
    let err = fresh
        .apply(&Action::Irregularity {
            fact: Fact {
                kind: FactKind::CallOutOfRotation,
                offender: Seat::North,
                call: Some("1H".parse().unwrap()),
                card: None,
                trick: None,
                deliberate: false,
                designation: None,
                also_visible: Vec::new(),
                misinformed: None,
                relates_to: None,
                description: String::new(),
            },
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(err.to_string().starts_with("North's 1H is not a call out of rotation"), "{err}");
}

#[test]
fn law_54_declarer_accepts_an_opening_lead_out_of_turn_by_becoming_dummy() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    // West leads out of turn: East was on lead.
    let (table, events) = card(&table, Seat::West, "HA");
    assert!(events.contains(&Event::IrregularityRecorded { id: 1 }));
    assert_eq!(table.irregularities()[0].fact.kind, FactKind::OpeningLeadOutOfTurn);
    assert!(!table.play().unwrap().dummy_visible());
    // The card led out of turn lies face up for everyone.
    assert!(table.visible_hands(Viewer::Spectator).contains(&(Seat::West, CardSet::EMPTY.with("HA".parse().unwrap()))));
    let (table, _) = choose(&table, "accept_lead_and_become_dummy", None, Actor::Seat(Seat::North));
    assert_eq!(table.contract().unwrap().declarer, Seat::South, "Law 54A: his partner becomes declarer");
    assert!(table.play().unwrap().dummy_visible());
    assert_eq!(table.next_to_act(), Some(Seat::North), "the new dummy's card is next");
}

#[test]
fn law_50_a_defenders_exposed_honor_is_a_major_penalty_card_and_declarer_chooses_partners_lead() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    // West drops the HK: an honor, so a major penalty card whether or not deliberate (Law 50).
    let (table, events) = apply(
        &table,
        Action::Irregularity {
            fact: Fact {
                kind: FactKind::ExposedCard,
                offender: Seat::West,
                call: None,
                card: Some("HK".parse().unwrap()),
                trick: None,
                deliberate: false,
                designation: None,
                also_visible: Vec::new(),
                misinformed: None,
                relates_to: None,
                description: "dropped".into(),
            },
            pointed_out_by: Some(Seat::North),
        },
    );
    assert!(events.contains(&Event::ObligationsChanged));
    let penalty = table.penalty_cards();
    assert_eq!(penalty.len(), 1);
    assert_eq!(penalty[0].kind, crate::penalty::PenaltyCardKind::Major);
    assert_eq!(table.irregularities()[0].law.number, 49);
    // Everyone sees the penalty card.
    assert!(
        table
            .visible_hands(Viewer::Player(Seat::East))
            .iter()
            .any(|(seat, cards)| *seat == Seat::West && cards.contains("HK".parse().unwrap()))
    );
    // West must play it at the first legal opportunity: he can follow to clubs, so he does.
    let (table, _) = card(&table, Seat::West, "C5");
    let (table, _) = card(&table, Seat::North, "C2");
    // East won with the ace and leads: his partner has a major penalty card (Law 50, Law 51),
    // so declarer chooses about East's lead.
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.law.number, 50);
    assert!(decision.options.iter().any(|o| o.name == "require_lead"));
    // East leads before declarer has chosen ("The defender may not lead until declarer has
    // indicated his choice"): the card is a penalty card of East's (Law 49), recorded as an
    // irregularity, and declarer's choice is still open.
    let (table, _) = card(&table, Seat::East, "CK");
    let premature = table.irregularities().last().unwrap();
    assert_eq!(
        (premature.fact.kind, premature.fact.offender, premature.law),
        (FactKind::PrematurePlay, Seat::East, Law::rubber(50, ""))
    );
    assert!(table.penalty_cards().iter().any(|pc| pc.owner == Seat::East && pc.card == "CK".parse().unwrap()));
    assert_eq!(table.open_decision().map(|d| d.id), Some(decision.id));
    let (table, _) = choose(&table, "require_lead", None, Actor::Seat(Seat::North));
    let obligations = table.obligations();
    assert!(obligations.iter().any(|o| o.kind == ObligationKind::LeadRequired && o.seat == Seat::East));
}

#[test]
fn law_64_an_established_revoke_transfers_a_trick_after_play() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    // West holds clubs and plays a heart: a revoke, a fact nobody has noticed yet.
    let (table, events) = card(&table, Seat::West, "HJ");
    assert!(!events.iter().any(|e| matches!(e, Event::IrregularityRecorded { .. })), "a revoke is hidden");
    let (table, _) = card(&table, Seat::North, "C2");
    // East (the offender's partner) leads to the next trick: the revoke is established (Law 63).
    let (table, _) = card(&table, Seat::East, "CK");
    let (table, _) = apply(
        &table,
        Action::Irregularity {
            fact: Fact {
                kind: FactKind::Revoke,
                offender: Seat::West,
                call: None,
                card: None,
                trick: Some(1),
                deliberate: false,
                designation: None,
                also_visible: Vec::new(),
                misinformed: None,
                relates_to: None,
                description: String::new(),
            },
            pointed_out_by: Some(Seat::North),
        },
    );
    assert_eq!(table.irregularities()[0].law, Law::rubber(64, ""));
    let table = play_out(table);
    let outcome = table.outcome().unwrap();
    assert!(outcome.tricks_transferred >= 1, "Law 64: at least one trick transferred");
    let play = table.play().unwrap();
    let Some(DealResult::Played { tricks, .. }) = outcome.result else { panic!() };
    assert_eq!(tricks, play.tricks_won(Side::NorthSouth) + outcome.tricks_transferred);
}

#[test]
fn duplicate_law_70_a_disputed_claim_goes_to_the_director_who_decides_it() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = apply(&table, Action::Claim { claimer: Seat::North, tricks: 13, statement: "all mine".into() });
    assert_eq!(table.phase(), Phase::Claim);
    assert!(table.visible_hands(Viewer::Spectator).iter().any(|(seat, _)| *seat == Seat::North), "Law 68C: faced");
    let err = table.apply(&Action::Claim { claimer: Seat::North, tricks: 14, statement: String::new() }).unwrap_err();
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
fn law_22_a_passed_out_deal_ends_with_no_contract() {
    use Seat::*;
    let table = calls(start(Code::Rubber, Mode::Digital), &[(North, "Pass"), (East, "Pass"), (South, "Pass")]);
    let (table, events) = apply(&table, Action::Call { seat: West, call: "Pass".parse().unwrap(), relates_to: None });
    assert_eq!(events, vec![Event::CallMade { index: 3 }, Event::AuctionClosed, Event::DealFinished]);
    assert_eq!(table.outcome().unwrap().result, Some(DealResult::PassedOut));
    let err = table.apply(&Action::Abandon { reason: "late".into() }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Precondition);
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

#[test]
fn digital_tables_record_only_matters_of_judgement() {
    let table = start(Code::Club, Mode::Digital);
    let fact = |kind| Fact {
        kind,
        offender: Seat::East,
        call: Some("1H".parse().unwrap()),
        card: None,
        trick: None,
        deliberate: false,
        designation: None,
        also_visible: Vec::new(),
        misinformed: None,
        relates_to: None,
        description: "hesitation".into(),
    };
    let err =
        table.apply(&Action::Irregularity { fact: fact(FactKind::InsufficientBid), pointed_out_by: None }).unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::InsufficientBid });
    let (table, _) = apply(
        &table,
        Action::Irregularity { fact: fact(FactKind::UnauthorizedInformation), pointed_out_by: Some(Seat::North) },
    );
    assert_eq!(table.irregularities()[0].law, Law::club(16, ""));
    assert_eq!(table.open_official_calls().count(), 1);
}

#[test]
fn replaying_the_same_actions_gives_the_same_state() {
    let actions = [
        Action::Call { seat: Seat::North, call: "1S".parse().unwrap(), relates_to: None },
        Action::Call { seat: Seat::East, call: "1H".parse().unwrap(), relates_to: None },
        Action::Choose { decision: 1, option: 1, call: None, by: Actor::Seat(Seat::South), relates_to: None },
        Action::CallOfficial { seat: Some(Seat::West), reason: "a question".into() },
    ];
    let run = || actions.iter().fold(start(Code::Rubber, Mode::Recorded), |t, a| t.apply(a).unwrap().0);
    assert_eq!(run(), run());
    assert_eq!(run().step(), 4);
}

#[test]
fn every_card_seen_by_a_player_in_a_played_out_deal_is_his_own_dummys_or_face_up() {
    // Play several seeded deals; at every step a player sees his own hand, dummy after the
    // opening lead, and nothing else of a live deal.
    for seed in 0..8u8 {
        let mut table = DealInProgress::start(Setup {
            hands: Hands::Seeded(DealSeed([seed; 32])),
            ..setup(Code::Duplicate, Mode::Digital)
        })
        .unwrap()
        .0;
        table = calls(table, &[(Seat::North, "1C"), (Seat::East, "Pass"), (Seat::South, "Pass"), (Seat::West, "Pass")]);
        while !table.is_over() {
            let play: &Play = table.play().unwrap();
            for viewer in Seat::ALL {
                for (seat, _) in table.visible_hands(Viewer::Player(viewer)) {
                    let allowed = seat == viewer || (seat == play.dummy() && play.dummy_visible());
                    assert!(allowed, "{viewer} sees {seat}'s hand");
                }
            }
            let seat = play.next_to_play().unwrap();
            let card = play.legal_cards().iter().next().unwrap();
            table = apply(&table, Action::Play { seat, card }).0;
        }
        // A duplicate board stays hidden from the players after the deal: others may play it.
        assert_eq!(table.visible_hands(Viewer::Player(Seat::North)).len(), 1);
    }
}

fn play_fact(kind: FactKind, offender: Seat, card: &str) -> Fact {
    Fact {
        kind,
        offender,
        call: None,
        card: Some(card.parse().unwrap()),
        trick: None,
        deliberate: false,
        designation: None,
        also_visible: Vec::new(),
        misinformed: None,
        relates_to: None,
        description: String::new(),
    }
}

#[test]
fn duplicate_law_45c4b_a_change_of_designation_is_a_fact_whose_decision_is_the_opponents() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "CT");
    let (table, _) = card(&table, Seat::West, "C5");
    // Declarer said "ten" meaning the nine, a slip of the tongue: the fact names the card
    // designated instead, and the hand is the card's holder (dummy).
    let fact = play_fact(FactKind::ChangeOfDesignation, Seat::North, "C9");
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::North) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::South, card: "CT".parse().unwrap() }));
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C9".parse().unwrap() }));
    assert_eq!(table.irregularities()[0].law, Law::duplicate(47, "C"));
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.irregularity, Some(1), "the decision is linked to the fact");
    assert_eq!(decision.law, Law::duplicate(45, "C4(b)"));
    assert!(decision.options.iter().all(|o| o.name == "withdraw_after_change" && o.chooser_seats == [Seat::West]));
    assert!(decision.options.iter().all(|o| o.official_cards.is_empty()), "every card named is on the table");
    // Declarer may not choose for West.
    let (id, index) = (decision.id, decision.options.len() - 1);
    let err = table.apply(&Action::Choose {
        decision: id,
        option: index,
        call: None,
        by: Actor::Seat(Seat::North),
        relates_to: None,
    });
    assert!(matches!(err, Err(TableError::NotEntitled { .. })), "{err:?}");
    // The Director is at the table (Law 9B2); once he has dealt with it West withdraws his five.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 45C4(b)".into() });
    let (table, events) = apply(
        &table,
        Action::Choose { decision: id, option: index, call: None, by: Actor::Seat(Seat::West), relates_to: None },
    );
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::West, card: "C5".parse().unwrap() }));
    assert_eq!(table.next_to_act(), Some(Seat::West));
    assert!(table.penalty_cards().is_empty());
}

#[test]
fn law_46_an_incomplete_designation_is_deemed_or_completed_by_the_player_the_law_names() {
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let designation =
        |d| Fact { designation: Some(d), card: None, ..play_fact(FactKind::IncompleteDesignation, Seat::North, "C2") };
    // "Low": dummy's lowest club is played (Law 46B1(c)).
    let (low, events) =
        apply(&table, Action::Irregularity { fact: designation(Designation::Low), pointed_out_by: None });
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C8".parse().unwrap() }));
    assert_eq!(low.irregularities()[0].law, Law::duplicate(46, "B1(c)"));
    // "Play anything": either defender designates dummy's card (Law 46B5).
    let (anything, _) =
        apply(&table, Action::Irregularity { fact: designation(Designation::Anything), pointed_out_by: None });
    let decision = anything.open_decision().unwrap();
    assert!(decision.options.iter().all(|o| o.name == "designate_from_dummy"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == [Seat::East, Seat::West]));
    // A complete designation of dummy's card is no irregularity.
    let err = table
        .apply(&Action::Irregularity {
            fact: designation(Designation::Card("C9".parse().unwrap())),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err}");
    let missing = table
        .apply(&Action::Irregularity {
            fact: Fact { designation: None, ..designation(Designation::Low) },
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(missing, TableError::MissingDetail { .. }), "{missing}");
}

#[test]
fn law_47e1_a_lead_out_of_turn_the_opponents_asked_for_is_retracted_and_its_decision_lapses() {
    let table = four_spades(start(Code::Rubber, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "CT");
    let (table, _) = card(&table, Seat::West, "C5");
    let (table, _) = card(&table, Seat::North, "C2");
    // West leads at East's turn: declarer's decision (Law 56).
    let (table, _) = card(&table, Seat::West, "HA");
    let lead = table.open_decision().unwrap().id;
    // The fact names the card retracted: another of West's cards is not it.
    let wrong = play_fact(FactKind::MisinformedOfTurn, Seat::North, "HK");
    let err = table.apply(&Action::Irregularity { fact: wrong, pointed_out_by: None }).unwrap_err();
    assert!(matches!(err, TableError::Play(PlayError::RetractionRefused { .. })), "{err}");
    // North had told West it was his lead: the card is retracted without penalty (Law 47D).
    let fact = play_fact(FactKind::MisinformedOfTurn, Seat::North, "HA");
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::RectificationChosen { id: lead }), "the decision lapses");
    let lapsed = table.decisions().iter().find(|d| d.id == lead).unwrap();
    assert_eq!(lapsed.settled.unwrap().option, None);
    assert_eq!(table.irregularities().last().unwrap().law, Law::rubber(47, "D"));
    assert!(table.penalty_cards().is_empty());
    assert_eq!(table.next_to_act(), Some(Seat::East));
    // A digital table refuses the fact (the server says whose turn it is), but records a card
    // retracted after an opponent's mistaken explanation, a matter of judgement (Law 47D).
    let digital = start(Code::Rubber, Mode::Digital);
    let err = digital
        .apply(&Action::Irregularity {
            fact: play_fact(FactKind::MisinformedOfTurn, Seat::North, "HA"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::MisinformedOfTurn });
    let digital = four_spades(digital);
    let lead = digital.play().unwrap().legal_cards().iter().next().unwrap();
    let (digital, _) = apply(&digital, Action::Play { seat: Seat::East, card: lead });
    let fact = Fact { card: Some(lead), ..play_fact(FactKind::RetractionAfterMisexplanation, Seat::South, "HA") };
    let (digital, events) = apply(&digital, Action::Irregularity { fact, pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::East, card: lead }));
    assert_eq!(digital.irregularities()[0].law, Law::rubber(47, "D"));
    assert_eq!(digital.next_to_act(), Some(Seat::East));
}

#[test]
fn law_58b_cards_played_together_from_dummy_are_a_fact_and_the_defender_who_played_may_change() {
    // Duplicate Law 58B3: "After an offending player withdraws a visible card, an opponent who
    // subsequently played to that trick may withdraw his play and substitute another card".
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let (table, _) = card(&table, Seat::South, "C8");
    let (table, _) = card(&table, Seat::West, "C5");
    // Dummy's eight and nine had come out together; declarer designates the nine.
    let fact =
        Fact { also_visible: vec!["C9".parse().unwrap()], ..play_fact(FactKind::SimultaneousCards, Seat::North, "C9") };
    let (table, events) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::West) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::South, card: "C8".parse().unwrap() }));
    assert!(events.contains(&Event::CardPlayed { trick: 0, seat: Seat::South, card: "C9".parse().unwrap() }));
    assert_eq!(table.irregularities()[0].law, Law::duplicate(58, "B2"));
    assert!(table.penalty_cards().is_empty(), "dummy's cards are never penalty cards");
    let decision = table.open_decision().unwrap();
    assert_eq!(decision.law, Law::duplicate(58, "B3"));
    assert!(decision.options.iter().all(|o| o.chooser_seats == [Seat::West]));
    // Without the other visible cards the fact is incomplete.
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (table, _) = card(&table, Seat::East, "CA");
    let fact = play_fact(FactKind::SimultaneousCards, Seat::East, "CA");
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None });
    assert!(matches!(err, Err(TableError::MissingDetail { .. })), "{err:?}");
}

#[test]
fn duplicate_law_47e2a_an_opening_lead_retracted_before_dummy_faced_hides_dummy_again() {
    // Law 47E2(a): "An opening lead may not be retracted after dummy has faced any card."
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let (led, _) = card(&table, Seat::East, "CA");
    let sees_dummy =
        |t: &DealInProgress| t.visible_hands(Viewer::Player(Seat::West)).iter().any(|(seat, _)| *seat == Seat::South);
    assert!(sees_dummy(&led));
    // Declarer's explanation was mistaken; corrected before dummy spread his cards.
    let fact = play_fact(FactKind::OpeningLeadRetractedBeforeDummyFaced, Seat::North, "CA");
    let (back, events) = apply(&led, Action::Irregularity { fact: fact.clone(), pointed_out_by: Some(Seat::East) });
    assert!(events.contains(&Event::CardWithdrawn { trick: 0, seat: Seat::East, card: "CA".parse().unwrap() }));
    assert_eq!(back.irregularities()[0].law, Law::duplicate(47, "E2(a)"));
    assert!(!sees_dummy(&back), "dummy is face down again");
    // The Director, summoned (Law 9B1(a)), has dealt with it; East leads again.
    let call = back.open_official_calls().next().unwrap().id;
    let (back, _) = apply(&back, Action::ResolveOfficialCall { call, note: "Law 47E2(a)".into() });
    assert_eq!(back.next_to_act(), Some(Seat::East));
    assert!(back.penalty_cards().is_empty());
    // Once dummy has played, too late (the Director may adjust, Law 47E2(b)).
    let (played, _) = card(&led, Seat::South, "CT");
    let err = played.apply(&Action::Irregularity { fact: fact.clone(), pointed_out_by: None }).unwrap_err();
    assert!(err.to_string().contains("47E2(a)"), "{err}");
    // A digital table shows dummy with the lead: the fact is refused there.
    let digital = four_spades(start(Code::Duplicate, Mode::Digital));
    let lead = digital.play().unwrap().legal_cards().iter().next().unwrap();
    let (digital, _) = apply(&digital, Action::Play { seat: Seat::East, card: lead });
    let fact = Fact { card: Some(lead), ..fact };
    let err = digital.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::OpeningLeadRetractedBeforeDummyFaced });
}

fn call_fact(kind: FactKind, offender: Seat, call: &str) -> Fact {
    Fact { call: Some(call.parse().unwrap()), card: None, ..play_fact(kind, offender, "C2") }
}

/// 1S by North, 2S by South, and North's double of his partner's bid (Law 19A1) nobody notices.
fn unnoticed_double(code: Code) -> DealInProgress {
    use Seat::*;
    let table = calls(start(code, Mode::Recorded), &[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass")]);
    let fact = call_fact(FactKind::UnnoticedInadmissibleCall, North, "X");
    apply(&table, Action::Irregularity { fact, pointed_out_by: None }).0
}

#[test]
fn duplicate_law_36c_an_inadmissible_double_found_after_the_opening_lead_is_scored_as_not_made() {
    // Law 36C: "When attention is drawn to an inadmissible double or redouble only after the
    // opening lead has been faced, the final contract is scored as if the inadmissible call
    // had not been made."
    use Seat::*;
    let table = calls(unnoticed_double(Code::Duplicate), &[(East, "Pass"), (South, "Pass"), (West, "Pass")]);
    assert_eq!(table.contract().unwrap().to_string(), "2SX by North", "played as bid");
    let (table, _) = card(&table, East, "CA");
    let fact = call_fact(FactKind::AttentionToUnnoticedCall, North, "X");
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(East) });
    assert_eq!(table.irregularities().last().unwrap().law, Law::duplicate(36, "C"));
    assert_eq!(table.contract().unwrap().to_string(), "2SX by North", "still played as bid");
    assert_eq!(table.contract_scored().unwrap().to_string(), "2S by North");
    let call = table.open_official_calls().next().map(|c| c.id);
    let table = match call {
        Some(call) => apply(&table, Action::ResolveOfficialCall { call, note: "Law 36C".into() }).0,
        None => table,
    };
    let table = play_out(table);
    let Some(DealResult::Played { contract, .. }) = table.outcome().and_then(|o| o.result) else {
        panic!("played out")
    };
    assert_eq!(contract.to_string(), "2S by North");
}

#[test]
fn duplicate_law_36a_attention_drawn_during_the_auction_cancels_the_double_and_every_later_call() {
    // Law 36A: "If offender's LHO calls before rectification of an inadmissible double or
    // redouble the inadmissible call and all subsequent calls are cancelled. The auction reverts
    // to the player whose turn it was to call and proceeds as though there had been no
    // irregularity."
    use Seat::*;
    let table = call(&unnoticed_double(Code::Duplicate), East, "Pass");
    let fact = call_fact(FactKind::AttentionToUnnoticedCall, North, "X");
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(South) });
    assert_eq!(table.irregularities().last().unwrap().law.number, 36);
    // The Director, summoned, applies it: the one option Law 36A leaves.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 36A".into() });
    let (table, _) = choose(&table, "enforce", None, Actor::Official);
    assert_eq!(table.next_to_act(), Some(North), "the auction reverts to North");
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1S", "Pass", "2S", "Pass"]);
}

#[test]
fn an_unnoticed_call_must_be_an_inadmissible_double_in_turn_and_only_at_a_recorded_table() {
    use Seat::*;
    let table = calls(start(Code::Duplicate, Mode::Recorded), &[(North, "1S"), (East, "Pass")]);
    // A legal double is no irregularity.
    let table = call(&table, South, "2S");
    let err = table
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::UnnoticedInadmissibleCall, West, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err:?}");
    // Attention to a call that was not recorded unnoticed.
    let err = table
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::AttentionToUnnoticedCall, North, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::NotAnIrregularity { .. }), "{err:?}");
    let digital = start(Code::Duplicate, Mode::Digital);
    let err = digital
        .apply(&Action::Irregularity {
            fact: call_fact(FactKind::UnnoticedInadmissibleCall, North, "X"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert_eq!(err, TableError::DigitalFact { kind: FactKind::UnnoticedInadmissibleCall });
}

#[test]
fn law_27a_an_artificial_insufficient_bid_at_the_table_has_no_same_denomination_correction() {
    // Rubber Law 27A: "the lowest sufficient bid in the same denomination, and if the
    // insufficient bid and sufficient bid are both not artificial, the auction proceeds as
    // though the irregularity had not occurred"; the table says what the call related to.
    let majors = SuitSet::of(&[Suit::Hearts, Suit::Spades]);
    let table = call(&start(Code::Rubber, Mode::Recorded), Seat::North, "1NT");
    let (table, _) =
        apply(&table, Action::Call { seat: Seat::East, call: "1C".parse().unwrap(), relates_to: Some(majors) });
    assert_eq!(table.auction().calls()[1].relates_to, Some(majors), "the entry keeps what the call showed");
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    let names: Vec<String> = table.open_decision().unwrap().options.iter().map(|o| o.name.to_string()).collect();
    assert!(!names.iter().any(|n| n == "lowest_sufficient_bid"), "{names:?}");
    // The same insufficient bid, natural, may be corrected so.
    let table = calls(start(Code::Rubber, Mode::Recorded), &[(Seat::North, "1NT"), (Seat::East, "1C")]);
    let (table, _) = choose(&table, "reject_insufficient_bid", None, Actor::Seat(Seat::South));
    assert!(table.open_decision().unwrap().options.iter().any(|o| o.name == "lowest_sufficient_bid"));
    // An artificial call at a digital table is kept too (an alert), though no irregularity can
    // arise there.
    let digital = call(&start(Code::Rubber, Mode::Digital), Seat::North, "1NT");
    let (digital, _) =
        apply(&digital, Action::Call { seat: Seat::East, call: "2C".parse().unwrap(), relates_to: Some(majors) });
    assert_eq!(digital.auction().calls()[1].relates_to, Some(majors));
}

#[test]
fn duplicate_law_45e_a_fifth_card_is_a_fact_naming_its_trick() {
    // Law 45E1: "A fifth card contributed to a trick by a defender becomes a penalty card".
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    let table = [(Seat::East, "CA"), (Seat::South, "CT"), (Seat::West, "C5"), (Seat::North, "C2")]
        .iter()
        .fold(table, |t, (seat, c)| card(&t, *seat, c).0);
    let fact = Fact { trick: Some(1), ..play_fact(FactKind::ExtraCardToTrick, Seat::West, "C7") };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(Seat::North) });
    assert_eq!(table.irregularities()[0].law, Law::duplicate(45, "E1"));
    let penalty = table.penalty_cards();
    assert_eq!((penalty[0].card, penalty[0].owner), ("C7".parse().unwrap(), Seat::West));
    // The trick is needed.
    let err = table
        .apply(&Action::Irregularity {
            fact: play_fact(FactKind::ExtraCardToTrick, Seat::West, "C6"),
            pointed_out_by: None,
        })
        .unwrap_err();
    assert!(matches!(err, TableError::MissingDetail { .. }), "{err:?}");
}

/// `misinformed` changes his last call to `new_call` because of misinformation from
/// `offender`.
fn misinformation(offender: Seat, misinformed: Seat, new_call: &str) -> Action {
    let fact = call_fact(FactKind::CallChangedAfterMisinformation, offender, new_call);
    Action::Irregularity { fact: Fact { misinformed: Some(misinformed), ..fact }, pointed_out_by: Some(misinformed) }
}

#[test]
fn duplicate_law_21b1a_a_pass_changed_in_the_clarification_period_reopens_the_auction() {
    // Law 21B1(a): "Until the end of the auction period (see Law 17D) and provided that his
    // partner has not subsequently called, a player may change a call ... when the Director
    // judges that the decision to make the call could well have been influenced by
    // misinformation given to the player by an opponent." Law 17D1: the auction period ends
    // when a defender faces the opening lead.
    use Seat::*;
    let table = four_spades(start(Code::Duplicate, Mode::Recorded));
    assert!(table.play().is_some(), "the auction is over");
    // The misinformed player must be named: his last call is the one changed.
    let fact = call_fact(FactKind::CallChangedAfterMisinformation, South, "X");
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert!(matches!(err, TableError::MissingDetail { .. }), "{err}");
    // West, who passed last, was misinformed by South's explanation of 2S.
    let (table, _) = apply(&table, misinformation(South, West, "X"));
    let record = table.irregularities().last().unwrap();
    assert_eq!(record.fact.kind, FactKind::CallChangedAfterMisinformation);
    assert_eq!(record.law, Law::duplicate(21, "B1"));
    assert_eq!(table.phase(), Phase::Auction);
    assert!(table.play().is_none(), "the auction reopens");
    // The Director is summoned (Law 9B1(a)) and judges.
    let call = table.open_official_calls().next().unwrap().id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Law 21B1".into() });
    let (decision, option) = option(&table, "change_after_misinformation");
    let err = table
        .apply(&Action::Choose { decision, option, call: None, by: Actor::Seat(West), relates_to: None })
        .unwrap_err();
    assert!(matches!(err, TableError::NotEntitled { .. }), "the Director's judgement: {err}");
    let (table, _) = choose(&table, "change_after_misinformation", None, Actor::Official);
    assert_eq!(table.next_to_act(), Some(North));
    let table = calls(table, &[(North, "Pass"), (East, "Pass"), (South, "Pass")]);
    assert_eq!(table.contract().unwrap().to_string(), "4SX by North");
    // Once the opening lead is faced the auction period is over (Law 21B3: an adjusted score
    // instead).
    let (table, _) = card(&table, East, "CA");
    let err = table.apply(&misinformation(South, West, "XX")).unwrap_err();
    assert_eq!(err.law(), Some(Law::duplicate(21, "B3")), "{err}");
}

#[test]
fn rubber_law_21_a_digital_table_records_the_change_and_the_lho_may_change_his_call() {
    // Rubber Law 21: "Until the auction is closed, a player may, without penalty, change any
    // call he may have made as a result of misinformation given him by an opponent, provided
    // his partner has not subsequently called. If he elects to correct his call, his LHO may
    // then, in turn and without penalty, change any subsequent call he may have made."
    use Seat::*;
    let table = calls(start(Code::Rubber, Mode::Digital), &[(North, "1C"), (East, "Pass"), (South, "2H")]);
    // Explanations are human at a digital table too: East, misinformed by South's explanation
    // of 1C, changes his pass to 1S.
    let (table, _) = apply(&table, misinformation(South, East, "1S"));
    assert_eq!(table.irregularities().last().unwrap().law, Law::rubber(21, ""));
    // The players settle it: the side that gave the explanation agrees.
    let (decision, option) = option(&table, "change_after_misinformation");
    let err = table
        .apply(&Action::Choose { decision, option, call: None, by: Actor::Seat(East), relates_to: None })
        .unwrap_err();
    assert!(matches!(err, TableError::NotEntitled { .. }), "{err}");
    let (table, _) = choose(&table, "change_after_misinformation", None, Actor::Seat(North));
    // South may change his 2H, without penalty.
    let (table, _) = choose(&table, "withdraw_call", None, Actor::Seat(South));
    assert_eq!(table.next_to_act(), Some(South));
    let table = call(&table, South, "2S");
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1C", "1S", "2S"]);
    // His partner having called since, East may not change again (Law 21: too late).
    let table = call(&table, West, "Pass");
    let err = table.apply(&misinformation(South, East, "2NT")).unwrap_err();
    assert_eq!(err.law(), Some(Law::rubber(21, "")), "{err}");
}

#[test]
fn club_law_21_the_arbiter_is_called_and_the_misinformed_player_must_be_an_opponent() {
    // Club Law 21: "Regular Law 21 stands with the following addition: When it is determined
    // that misinformation has been given the Arbiter should be called."
    use Seat::*;
    let table = calls(start(Code::Club, Mode::Recorded), &[(North, "1C"), (East, "Pass")]);
    // North's partner cannot have misinformed North (Law 21A: his own side's misunderstanding).
    let err = table.apply(&misinformation(South, North, "1D")).unwrap_err();
    assert_eq!(err.law(), Some(Law::rubber(21, "")), "{err}");
    let (table, _) = apply(&table, misinformation(South, East, "1S"));
    assert_eq!(table.irregularities().last().unwrap().law, Law::club(21, ""));
    let call = table.open_official_calls().next().expect("the Arbiter is called").id;
    let (table, _) = apply(&table, Action::ResolveOfficialCall { call, note: "Club Law 21".into() });
    let (table, _) = choose(&table, "no_misinformation", None, Actor::Official);
    let standing: Vec<String> =
        table.auction().calls().iter().filter(|e| e.status.stands()).map(|e| e.call.to_string()).collect();
    assert_eq!(standing, ["1C", "Pass"], "the pass stands");
    assert_eq!(table.next_to_act(), Some(South));
}

#[test]
fn law_21b3_misinformation_found_too_late_reserves_an_adjustment_against_the_side_that_gave_it() {
    // Duplicate Law 21B3: "When it is too late to change a call and the Director judges that
    // the offending side gained an advantage from the irregularity he awards an adjusted score."
    use Seat::*;
    let table = calls(start(Code::Duplicate, Mode::Recorded), &[(North, "1S"), (East, "Pass"), (South, "2C")]);
    let table = calls(table, &[(West, "Pass"), (North, "2S")]);
    // South's 2C was misexplained by North; East, misinformed, finds out after West has called.
    let fact = Fact { misinformed: Some(East), card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let (table, _) = apply(&table, Action::Irregularity { fact, pointed_out_by: Some(East) });
    assert_eq!(table.irregularities()[0].law, Law::duplicate(21, "B3"));
    let reserved: Vec<_> = table.reserved_adjustments().iter().map(|r| (r.offending_side, r.law)).collect();
    assert_eq!(reserved, vec![(crate::seat::Side::NorthSouth, Law::duplicate(21, "B3"))]);
    // The misinformation must come from an opponent (Law 21A).
    let fact = Fact { misinformed: Some(South), card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let err = table.apply(&Action::Irregularity { fact, pointed_out_by: None }).unwrap_err();
    assert!(err.to_string().contains("21A"), "{err}");
    // Without a misinformed player named, it stays a matter of judgement with no reservation.
    let fact = Fact { card: None, ..play_fact(FactKind::Misinformation, North, "C2") };
    let (plain, _) =
        apply(&start(Code::Duplicate, Mode::Recorded), Action::Irregularity { fact, pointed_out_by: None });
    assert!(plain.reserved_adjustments().is_empty());
}
