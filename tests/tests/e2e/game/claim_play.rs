//! Play after a disputed claim under the Laws of Rubber Bridge, through the game service at a
//! recording table and at a digital one: the claim's statement as data, the defenders' Law 69B choice, declarer's cards
//! against his obligations (a Law 69A finesse among them) held for the defenders to accept or have
//! withdrawn, declarer's Law 70B prohibition on the partner of a defender who claimed, the deal
//! played out to its end under those obligations, and a defender's hand faced for inspection by
//! his partner, after which declarer may impose no penalty on him (Law 69).

use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::TestApp;
use futures::StreamExt;
use game::table_event::Event;
use laws::{Card, CardSet, Rank, Seat, Suit};
use platform::auth::Role;
use tonic::Code;

use super::{Table, hand, key, outcome, seat_of};

/// South plays 4S; after West's club ace and West's diamond queen to South's ace, South is on
/// lead. Dummy (North) holds the heart ace-queen under East's king: a finesse of the queen loses.
const DEAL: &str = "N:543.AQ2.5432.765 876.KJT9.876.T98 AKQJ2.543.AK.432 T9.876.QJT9.AKQJ";

/// A rubber deal at a recording table, South declaring 4S.
async fn four_spades_by_south(app: &TestApp) -> Table<'_> {
    use Seat::*;
    let table = Table::seated(app).await;
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(DEAL)).await;
    table
        .calls(&[(North, "Pass"), (East, "Pass"), (South, "4S"), (West, "Pass"), (North, "Pass"), (East, "Pass")])
        .await;
    table
}

/// `card` from `seat`'s hand: recorded by the table's device, or at a digital table played from
/// the device of the player who plays it (declarer for dummy).
async fn play(table: &Table<'_>, seat: Seat, card: &str) -> Result<game::TableView, tonic::Status> {
    let view = table.view().await;
    let digital = view.setup.as_ref().is_some_and(|s| s.mode == game::PlayMode::Digital as i32);
    let declarer = view.contract.as_ref().map(|c| seat_of(c.declarer));
    let mut client = match declarer {
        _ if !digital => table.desk(),
        Some(declarer) if seat == declarer.partner() => table.player(declarer),
        _ => table.player(seat),
    };
    table.play_as(&mut client, seat, card).await
}

/// The open decision's option kinds, and its Law.
fn open_decision(view: &game::TableView) -> (Vec<String>, String) {
    let decision = view.pending_decisions.first().unwrap_or_else(|| panic!("no decision open"));
    let law = decision.options[0].law.as_ref().map(|l| format!("{}{}", l.number, l.section)).unwrap_or_default();
    (decision.options.iter().map(|o| o.kind.clone()).collect(), law)
}

async fn plays(table: &Table<'_>, cards: &[(Seat, &str)]) {
    for (seat, card) in cards {
        play(table, *seat, card).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
    }
}

async fn claim(table: &Table<'_>, claimer: Seat, tricks: u32, line: game::StatedLine) -> game::Claim {
    let request = game::ClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claimer: claimer.to_proto(),
        tricks,
        statement: "the rest are mine".into(),
        line: Some(line),
    };
    table.player(claimer).claim(request).await.unwrap().into_inner().claim.unwrap()
}

async fn dispute(table: &Table<'_>, claim: &game::Claim, seat: Seat) -> game::Claim {
    let request = game::RespondToClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim.claim_id.clone(),
        seat: seat.to_proto(),
        reply: game::ClaimReply::Dispute as i32,
    };
    table.player(seat).respond_to_claim(request).await.unwrap().into_inner().claim.unwrap()
}

/// The open decision's option of kind `kind` (the first of that kind), chosen by the first seat
/// the Laws entitle, as that player.
async fn choose(table: &Table<'_>, kind: &str) -> game::TableView {
    let view = table.view().await;
    let decision = view.pending_decisions.first().unwrap_or_else(|| panic!("no decision open for {kind}"));
    let option = decision.options.iter().find(|o| o.kind == kind).unwrap_or_else(|| panic!("{kind} not offered"));
    let chooser = seat_of(*option.chooser_seats.first().unwrap_or_else(|| panic!("{kind} is the official's")));
    let request = game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: chooser.to_proto(),
        call: None,
        artificial: None,
    };
    table.player(chooser).choose_rectification(request).await.unwrap().into_inner().view.unwrap()
}

/// Plays the deal out: a Law 70B decision gets its first option (no prohibition), and each hand
/// records the lowest card that follows suit (or its lowest card) that conforms to the claim: a
/// card of declarer's that does not is withdrawn at the defenders' demand (Law 69) and the next
/// one tried.
async fn play_out(table: &Table<'_>) -> game::TableView {
    for _ in 0..200 {
        let view = table.view().await;
        if view.phase != game::DealPhase::Play as i32 {
            return view;
        }
        if let Some(decision) = view.pending_decisions.first() {
            choose(table, &decision.options[0].kind).await;
            continue;
        }
        let seat = seat_of(view.next_to_act);
        let held = hand(&view, seat).unwrap_or_else(|| panic!("the arbiter sees {seat}'s hand"));
        let led = view
            .tricks
            .last()
            .filter(|t| t.cards.len() < 4)
            .and_then(|t| t.cards.first())
            .and_then(|c| c.card)
            .and_then(|c| Card::try_from(c).ok())
            .map(|c| c.suit);
        let candidates = match led {
            Some(suit) if held.has_suit(suit) => held.suit(suit),
            _ => held,
        };
        let mut played = false;
        for card in candidates.iter() {
            let view = play(table, seat, &card.to_string()).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
            match view.pending_decisions.first() {
                Some(d) if d.options.iter().any(|o| o.kind == "withdraw_claim_play") => {
                    choose(table, "withdraw_claim_play").await;
                }
                _ => {
                    played = true;
                    break;
                }
            }
        }
        assert!(played, "{seat} had a card to play (Law 59)");
    }
    panic!("the deal did not end");
}

/// The events of the table from the start of its journal, as `seat`'s player is sent them, up to
/// the first one `done` accepts.
async fn events_until(
    table: &Table<'_>,
    seat: Seat,
    done: impl Fn(&game::TableEvent) -> bool,
) -> Vec<game::TableEvent> {
    let request = game::WatchTableRequest { table_id: table.id.clone(), after_sequence: Some(0) };
    let mut stream = table.player(seat).watch_table(request).await.unwrap().into_inner();
    let mut events = Vec::new();
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(20), stream.next()).await;
        let Some(event) = next.expect("the event arrives").unwrap().unwrap().event else { continue };
        let last = done(&event);
        events.push(event);
        if last {
            return events;
        }
    }
}

fn restriction_kinds(view: &game::TableView) -> Vec<game::RestrictionKind> {
    view.restrictions.iter().filter_map(|r| game::RestrictionKind::try_from(r.kind).ok()).collect()
}

/// Rubber Law 69: "When his claim or concession is not allowed, declarer must play on, leaving his
/// hand face up on the table ... Declarer may not make any play inconsistent with the statement he
/// may have made at the time of his claim", and if he made no relevant statement "he may not
/// finesse in any suit" (69A); "either defender may require him to draw or not to draw the
/// outstanding trump" (69B).
#[tokio::test]
async fn rubber_law_69_a_disputed_claim_is_played_out_under_69a_and_69b() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = four_spades_by_south(&app).await;
    plays(&table, &[(West, "CA"), (North, "C5"), (East, "C8"), (South, "C2")]).await;
    plays(&table, &[(West, "DQ"), (North, "D2"), (East, "D6"), (South, "DA")]).await;

    // South claims the rest with no relevant statement, recorded as data; West disputes.
    let claimed = claim(&table, South, 11, game::StatedLine::default()).await;
    assert_eq!(claimed.line, Some(game::StatedLine::default()));
    let disputed = dispute(&table, &claimed, West).await;
    assert_eq!(disputed.status, game::ClaimStatus::Disputed as i32);

    // Law 69B: the defenders decide about the outstanding trumps before anyone plays.
    let view = table.view().await;
    let decision = view.pending_decisions.first().expect("the defenders decide (Law 69B)");
    let law = decision.options[0].law.clone().unwrap();
    assert_eq!((law.number, law.section.as_str()), (69, "B"));
    let kinds: Vec<&str> = decision.options.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(kinds, ["require_draw_trumps", "require_leave_trumps", "waive"]);
    assert_eq!(decision.options[0].chooser_seats, vec![East.to_proto(), West.to_proto()]);
    let view = choose(&table, "require_leave_trumps").await;
    let kinds = restriction_kinds(&view);
    assert!(kinds.contains(&game::RestrictionKind::ClaimLine), "{kinds:?}");
    assert!(kinds.contains(&game::RestrictionKind::ClaimNotDrawTrumps), "{kinds:?}");
    // A watcher hears the decision offered and the obligations it left.
    let events = events_until(&table, East, |event| {
        matches!(&event.event, Some(Event::ObligationsChanged(changed))
            if changed.restrictions.iter().any(|r| r.kind == game::RestrictionKind::ClaimNotDrawTrumps as i32))
    })
    .await;
    assert!(events.iter().any(|e| matches!(&e.event, Some(Event::RectificationOffered(d))
        if d.options.iter().any(|o| o.kind == "require_leave_trumps"))));
    // A player sees the claim as made, with its line, and the obligations in force.
    let east = table.view_as(&mut table.player(East)).await;
    assert_eq!(east.claim.as_ref().and_then(|c| c.line.clone()), Some(game::StatedLine::default()));
    assert!(!east.restrictions.is_empty());

    // Declarer leads a trump now: the card waits for the defenders (Law 69), who have it
    // withdrawn.
    let view = play(&table, South, "SA").await.unwrap();
    let (kinds, law) = open_decision(&view);
    assert_eq!((kinds, law.as_str()), (vec!["accept_claim_play".to_owned(), "withdraw_claim_play".to_owned()], "69"));
    let view = choose(&table, "withdraw_claim_play").await;
    assert!(hand(&view, South).is_some_and(|h| h.contains("SA".parse().unwrap())));
    assert!(view.tricks.last().is_none_or(|t| t.cards.len() == 4), "nothing led yet");
    plays(&table, &[(South, "H5"), (West, "H6")]).await;
    // Dummy's queen would be a finesse declarer did not state (Law 69A): withdrawn too.
    let view = play(&table, North, "HQ").await.unwrap();
    assert_eq!(open_decision(&view).1, "69");
    choose(&table, "withdraw_claim_play").await;
    plays(&table, &[(North, "HA")]).await;

    // The rest is played out under the same obligations, to the end of the deal.
    let view = play_out(&table).await;
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    assert!(result.is_some());
    let tricks = view.tricks.iter().filter(|t| t.cards.len() == 4).count();
    assert_eq!(tricks, 13);
}

/// Rubber Law 70B: "If declarer disputes the claim, the defenders must play on with the
/// claimer's hand face up on the table. Those cards do not become penalty cards. However,
/// declarer may prohibit claimer's partner from making any play that could be suggested to him
/// by seeing the faced cards."
#[tokio::test]
async fn rubber_law_70b_declarer_prohibits_a_play_of_the_claimers_partner() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = four_spades_by_south(&app).await;
    plays(&table, &[(West, "CA"), (North, "C5"), (East, "C8"), (South, "C2")]).await;

    // West claims two more tricks; South disputes and the defenders play on, West's hand faced.
    let claimed = claim(&table, West, 2, game::StatedLine::default()).await;
    dispute(&table, &claimed, South).await;
    let south = table.view_as(&mut table.player(South)).await;
    assert!(hand(&south, West).is_some(), "the claimer's hand lies face up");
    assert!(south.penalty_cards.is_empty(), "its cards are not penalty cards");
    plays(&table, &[(West, "CK"), (North, "C6")]).await;

    // East is to play: declarer decides whether to prohibit a play.
    let view = table.view().await;
    let decision = view.pending_decisions.first().expect("declarer decides (Law 70B)");
    let law = decision.options[0].law.clone().unwrap();
    assert_eq!((law.number, law.section.as_str()), (70, "B"));
    assert_eq!(decision.options[0].kind, "waive");
    assert_eq!(decision.options[0].chooser_seats, vec![South.to_proto()]);
    // The options name no card of East's hidden hand.
    let card_named = |text: &str| text.split(|c: char| !c.is_ascii_alphanumeric()).any(|t| t.parse::<Card>().is_ok());
    assert!(decision.options.iter().all(|o| !card_named(&o.description)));
    // A defender may not choose for declarer.
    let option = &decision.options[1];
    let request = game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: option.option_id.clone(),
        chooser_seat: East.to_proto(),
        call: None,
        artificial: None,
    };
    let status = table.player(East).choose_rectification(request).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);

    // Declarer prohibits any card but East's lowest club.
    let view = choose(&table, "prohibit_play").await;
    let restriction = view.restrictions.iter().find(|r| seat_of(r.seat) == East).expect("East is bound");
    assert_eq!(restriction.kind, game::RestrictionKind::PlayLowest as i32);
    assert_eq!(restriction.law.as_ref().map(|l| (l.number, l.section.clone())), Some((70, "B".to_owned())));
    // The table cannot record a play declarer prohibited: the Law gives no rectification.
    let status = play(&table, East, "CT").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 70B"), "{}", status.message());
    plays(&table, &[(East, "C9"), (South, "C3")]).await;
    let view = table.view().await;
    assert!(view.pending_decisions.is_empty(), "West leads: nothing for declarer to decide");
    assert!(view.restrictions.iter().all(|r| seat_of(r.seat) != East), "the prohibition was for that turn");

    let view = play_out(&table).await;
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
}

/// West faces his hand for inspection after South's disputed claim, as `client` asks.
async fn face_hand(
    table: &Table<'_>,
    client: &mut e2e::GameClient,
    claim: &game::Claim,
    seat: Seat,
) -> Result<game::FaceHandResponse, tonic::Status> {
    let request = game::FaceHandRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim.claim_id.clone(),
        seat: seat.to_proto(),
    };
    Ok(client.face_hand(request).await?.into_inner())
}

/// Rubber Law 69: "When his claim or concession is not allowed, declarer must play on ... At any
/// time either defender may face his hand for inspection by his partner, and declarer may not
/// impose a penalty for any irregularity committed by a defender whose hand is so faced."
#[tokio::test]
async fn rubber_law_69_a_defender_faces_his_hand_and_declarer_imposes_no_penalty() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = four_spades_by_south(&app).await;
    plays(&table, &[(West, "CA"), (North, "C5"), (East, "C8"), (South, "C2")]).await;
    plays(&table, &[(West, "DQ"), (North, "D2"), (East, "D6"), (South, "DA")]).await;
    let line = game::StatedLine { trumps: game::TrumpIntent::Draw as i32, ..Default::default() };
    let claimed = claim(&table, South, 11, line).await;

    // Not before the claim is disputed, and not by declarer.
    let status = face_hand(&table, &mut table.player(West), &claimed, West).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    let claimed = dispute(&table, &claimed, West).await;
    let status = face_hand(&table, &mut table.player(South), &claimed, South).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains("Law 69"), "{}", status.message());
    // A player faces only his own hand.
    let status = face_hand(&table, &mut table.player(East), &claimed, West).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");

    // Before: only West (and the arbiter) see West's hand.
    let west = hand(&table.view().await, West).expect("the arbiter sees every hand");
    for seat in [North, East, South] {
        let view = table.view_as(&mut table.player(seat)).await;
        assert_eq!(hand(&view, West), None, "{seat} does not see West's hand yet");
    }
    assert_eq!(hand(&table.view_as(&mut table.desk()).await, West), None, "nor does the table's device");

    let faced = face_hand(&table, &mut table.player(West), &claimed, West).await.unwrap();
    let claim = faced.claim.expect("the claim");
    assert_eq!(claim.faced_for_inspection, vec![West.to_proto()]);
    assert_eq!(faced.view.as_ref().and_then(|v| hand(v, West)), Some(west));
    // After: his partner, declarer, dummy and the table's device all see it.
    for seat in [North, East, South] {
        let view = table.view_as(&mut table.player(seat)).await;
        assert_eq!(hand(&view, West), Some(west), "{seat} sees West's faced hand");
        assert_eq!(hand(&view, East).is_some(), seat == East, "East's hand is still his own");
    }
    assert_eq!(hand(&table.view_as(&mut table.desk()).await, West), Some(west));
    // A watcher is told, with the cards.
    let events = events_until(&table, East, |event| matches!(event.event, Some(Event::HandFaced(_)))).await;
    let Some(Event::HandFaced(told)) = events.last().and_then(|e| e.event.clone()) else { panic!("no hand_faced") };
    assert_eq!(told.hand.map(|h| super::cards(&h)), Some(west));
    assert!(
        events.iter().all(|e| !matches!(&e.event, Some(Event::DealStarted(s)) if s.hands.len() != 1)),
        "East was dealt only his own hand"
    );

    // West leads the club king out of turn (South is on lead): declarer may have it retracted,
    // but it becomes no penalty card and brings no lead restriction (Law 69, not Law 56).
    let view = play(&table, West, "CK").await.unwrap();
    let decision = view.pending_decisions.first().expect("declarer decides on the lead out of turn");
    let kinds: Vec<&str> = decision.options.iter().map(|o| o.kind.as_str()).collect();
    assert_eq!(kinds, ["accept_lead", "retract_lead"]);
    let reject = &decision.options[1];
    assert_eq!(reject.law.as_ref().map(|l| (l.number, l.section.clone())), Some((69, String::new())));
    assert!(!reject.description.contains("penalty card"), "{}", reject.description);
    assert_eq!(reject.chooser_seats, vec![South.to_proto()]);
    let view = choose(&table, "retract_lead").await;
    assert!(view.penalty_cards.is_empty(), "no penalty card: {:?}", view.penalty_cards);
    assert!(view.restrictions.iter().all(|r| seat_of(r.seat) != East), "no lead restriction on East");
    assert!(hand(&view, West).is_some_and(|h| h.contains("CK".parse().unwrap())), "back in his faced hand");
    assert_eq!(seat_of(view.next_to_act), South);
}

/// A rubber deal at a digital table bid to 1NT by a side whose ace wins the first trick, played so:
/// the opening leader leads his lowest card of the ace's suit, the ace is played on it and every
/// other hand plays its lowest card of the suit (or its lowest card). Returns the declarer and the
/// four hands as dealt. The server deals at random: the declarer is the first seat, from the
/// dealer round, whose side holds an ace of a suit the opening leader holds.
async fn digital_no_trump_first_trick_won_by_declarers_side(table: &Table<'_>) -> (Seat, [CardSet; 4]) {
    table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    let dealt = table.view().await;
    let hands = Seat::ALL.map(|seat| hand(&dealt, seat).unwrap_or_else(|| panic!("the arbiter sees {seat}")));
    let ace_led_to = |declarer: Seat| {
        let side = hands[declarer.index()].union(hands[declarer.partner().index()]);
        Suit::ALL
            .into_iter()
            .find(|suit| side.contains(Card::new(*suit, Rank::Ace)) && hands[declarer.lho().index()].has_suit(*suit))
    };
    let (declarer, suit) = Seat::ALL
        .into_iter()
        .find_map(|seat| ace_led_to(seat).map(|suit| (seat, suit)))
        .expect("some side holds an ace of a suit its left-hand opponent holds");
    let mut caller = Seat::North;
    while caller != declarer {
        table.call_as(&mut table.player(caller), caller, "Pass").await.unwrap();
        caller = caller.lho();
    }
    table.call_as(&mut table.player(declarer), declarer, "1NT").await.unwrap();
    for seat in [declarer.lho(), declarer.partner(), declarer.rho()] {
        table.call_as(&mut table.player(seat), seat, "Pass").await.unwrap();
    }
    let mut seat = declarer.lho();
    for _ in 0..4 {
        let held = hands[seat.index()];
        let ace = Card::new(suit, Rank::Ace);
        let card = if held.contains(ace) {
            ace
        } else {
            held.suit(suit).iter().next().or_else(|| held.iter().next()).unwrap()
        };
        play(table, seat, &card.to_string()).await.unwrap_or_else(|s| panic!("{seat} {card}: {s:?}"));
        seat = seat.lho();
    }
    (declarer, hands)
}

/// The cards a text names (as the service writes cards: suit letter and rank).
fn cards_named(text: &str) -> Vec<Card> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter_map(|t| t.parse::<Card>().ok()).collect()
}

/// Rubber Law 69 at a digital table: "If declarer attempts to make a play prohibited under this
/// Law, either defender may accept the play or, provided neither defender has subsequently played,
/// require declarer to withdraw the card so played and substitute another that conforms to his
/// obligations." Declarer claims the rest of 1NT with no relevant statement, which leaves him to
/// lead each suit "from the top down" (69D) and take no finesse (69A), shown to the players as one
/// restriction per sub-Law. His side leads a low card: not refused, but held for the defenders as
/// at a recording table, with the same options and citation (Law 69). They have it withdrawn, and
/// when it is led again they accept it. Meanwhile nobody else plays, declarer cannot choose for
/// them, and no one sees a card he could not see before.
#[tokio::test]
async fn rubber_law_69_at_a_digital_table_the_defenders_accept_or_require_withdrawal() {
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let (declarer, dealt) = digital_no_trump_first_trick_won_by_declarers_side(&table).await;
    let (dummy, defenders) = (declarer.partner(), [declarer.lho(), declarer.rho()]);
    let view = table.view().await;
    let leader = seat_of(view.next_to_act);
    assert!(leader == declarer || leader == dummy, "the ace won the first trick: {leader} leads");

    let claimed = claim(&table, declarer, 12, game::StatedLine::default()).await;
    dispute(&table, &claimed, defenders[0]).await;
    let view = table.view().await;
    assert!(view.pending_decisions.is_empty(), "no trumps, nothing for the defenders to decide (Law 69B)");
    // One restriction per sub-Law, each citing its own.
    let cited: Vec<(game::RestrictionKind, String)> = view
        .restrictions
        .iter()
        .map(|r| {
            let law = r.law.as_ref().map(|l| format!("{}{}", l.number, l.section)).unwrap_or_default();
            (game::RestrictionKind::try_from(r.kind).unwrap(), law)
        })
        .collect();
    assert!(cited.contains(&(game::RestrictionKind::ClaimLine, "69".to_owned())), "{cited:?}");
    assert!(cited.contains(&(game::RestrictionKind::ClaimTopDown, "69D".to_owned())), "{cited:?}");
    for (kind, law) in &cited {
        let expected = match kind {
            game::RestrictionKind::ClaimLine => "69",
            game::RestrictionKind::ClaimNoFinesse => "69A",
            game::RestrictionKind::ClaimTopDown => "69D",
            other => panic!("no other restriction in a no-trump claim: {other:?}"),
        };
        assert_eq!(law, expected, "{kind:?}");
    }

    // The leader's longest suit, led from below: 69D wants its top card.
    let held = hand(&view, leader).unwrap();
    let suit = Suit::ALL.into_iter().max_by_key(|s| held.suit(*s).len()).unwrap();
    assert!(held.suit(suit).len() >= 2, "{leader} holds two or more {suit}");
    let low = held.suit(suit).iter().next().unwrap();
    let view = play(&table, leader, &low.to_string()).await.unwrap();
    let (kinds, law) = open_decision(&view);
    assert_eq!((kinds, law.as_str()), (vec!["accept_claim_play".to_owned(), "withdraw_claim_play".to_owned()], "69"));
    let decision = view.pending_decisions.first().unwrap();
    let mut choosers = decision.options[0].chooser_seats.clone();
    choosers.sort_unstable();
    let mut expected: Vec<i32> = defenders.iter().map(|d| d.to_proto()).collect();
    expected.sort_unstable();
    assert_eq!(choosers, expected, "either defender chooses");
    assert!(hand(&view, leader).is_some_and(|h| h.contains(low)), "the card waits in the hand");
    assert!(view.tricks.last().is_none_or(|t| t.cards.len() == 4), "nothing is led yet");

    // Nobody sees more than before: the decision names no card of a defender's hand, a defender
    // sees his own hand and the two faced ones, a kibitzer only the faced ones.
    let hidden = dealt[defenders[0].index()].union(dealt[defenders[1].index()]);
    for option in &decision.options {
        assert!(cards_named(&option.description).iter().all(|c| !hidden.contains(*c)), "{}", option.description);
    }
    for defender in defenders {
        let seen = table.view_as(&mut table.player(defender)).await;
        assert_eq!(hand(&seen, defender.partner()), None, "{defender} does not see his partner's hand");
        assert!(hand(&seen, declarer).is_some() && hand(&seen, dummy).is_some(), "declarer's and dummy's lie face up");
        assert!(!seen.pending_decisions.is_empty(), "{defender} is offered the choice");
    }
    let kibitzer = table.view_as(&mut app.game("kibitzer", &[Role::Player])).await;
    assert!(defenders.iter().all(|d| hand(&kibitzer, *d).is_none()), "a kibitzer sees no defender's hand");

    // Nobody plays while the defenders decide, and declarer does not decide for them.
    let defender_card = hand(&table.view().await, leader.lho()).unwrap().iter().next().unwrap();
    let status = table.play_as(&mut table.player(leader.lho()), leader.lho(), &defender_card.to_string()).await;
    assert_eq!(status.map(|_| ()).unwrap_err().code(), Code::FailedPrecondition);
    let request = game::ChooseRectificationRequest {
        table_id: table.id.clone(),
        expected_version: view.version,
        idempotency_key: key(),
        decision_id: decision.decision_id.clone(),
        option_id: decision.options[0].option_id.clone(),
        chooser_seat: declarer.to_proto(),
        call: None,
        artificial: None,
    };
    let status = table.player(declarer).choose_rectification(request).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");

    // Withdrawn: back in the hand, and he leads again within his obligations.
    let view = choose(&table, "withdraw_claim_play").await;
    assert!(hand(&view, leader).is_some_and(|h| h.contains(low)));
    assert!(view.tricks.last().is_none_or(|t| t.cards.len() == 4), "nothing is led yet");
    // The same card again: this time the defenders accept it, and it is played.
    let view = play(&table, leader, &low.to_string()).await.unwrap();
    assert_eq!(open_decision(&view).1, "69");
    let view = choose(&table, "accept_claim_play").await;
    let led = view.tricks.last().and_then(|t| t.cards.first()).and_then(|c| c.card).map(Card::try_from);
    assert_eq!(led.and_then(Result::ok), Some(low), "the card accepted is led");
    assert!(hand(&view, leader).is_some_and(|h| !h.contains(low)));

    // The rest is played out under the same obligations, to the end of the deal.
    let view = play_out(&table).await;
    assert_eq!(outcome(&view).0, game::DealEnding::PlayedOut);
    assert_eq!(view.tricks.iter().filter(|t| t.cards.len() == 4).count(), 13);
}
