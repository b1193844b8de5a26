//! Irregularities of the auction rectified: an insufficient bid and a call out of rotation at a
//! club table (Laws 27, 31), an artificial insufficient bid (Law 27A), a call changed after
//! misinformation (Law 21B) and an inadmissible double found in the play (Law 36C).

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::TestApp;
use laws::Seat;
use tonic::Code;

use super::{PBN, Table, bid_four_spades, enter_result, fact, key, outcome, pcall, played, recorded_board, seat_of};

#[tokio::test]
async fn law_27_and_31_at_a_club_table_the_arbiter_is_summoned_and_the_options_are_enforced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated_under_club_laws(&app).await;
    table.start(table.rubber(game::PlayMode::Recorded, true), Some(PBN)).await;
    table.call(North, "1S").await;

    // Law 27: East bids 1H over 1S at the table; the tablet records it as it happened.
    let view = table.call(East, "1H").await;
    let decision = view.pending_decisions.first().expect("Law 27 gives options").clone();
    assert_eq!(decision.irregularity_id, view.auction[1].irregularity_id);
    assert_eq!(view.auction[1].status, game::CallStatus::Pending as i32);
    let accept = decision.options.iter().find(|o| o.kind == "accept_by_calling").unwrap();
    assert_eq!(accept.chooser, pb::Chooser::OffendersLho as i32);
    assert_eq!(accept.chooser_seats, vec![South.to_proto()]);
    assert_eq!(accept.law.as_ref().unwrap().number, 27);
    // Club Law 13: the Arbiter is summoned at once, and nobody calls until he has dealt with it.
    assert_eq!(view.open_arbiter_calls.len(), 1);
    let calls = table
        .arbiter()
        .list_arbiter_calls(game::ListArbiterCallsRequest { table_id: table.id.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .arbiter_calls;
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].irregularity_ids, vec![decision.irregularity_id.clone()]);
    let status = table.call_as(&mut table.desk(), South, "2H").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Club Law 13"), "{}", status.message());
    // Only the player the Law names may choose: West may not reject East's bid.
    let status = table.choose(&mut table.player(West), "reject_insufficient_bid", None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    assert!(status.message().contains("Law 27"), "{}", status.message());
    table.resolve_calls().await;

    // Law 27A: South accepts the insufficient bid by calling over it.
    let view = table.call_as(&mut table.player(South), South, "2H").await.unwrap();
    assert!(view.pending_decisions.is_empty());
    assert_eq!(view.auction[1].status, game::CallStatus::Legal as i32);
    let options = table
        .desk()
        .get_rectification_options(game::GetRectificationOptionsRequest {
            table_id: table.id.clone(),
            decision_id: decision.decision_id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    let settled = &options.decisions[0];
    assert_eq!(settled.status, game::DecisionStatus::Chosen as i32);
    assert_eq!(settled.chosen_option_id, accept.option_id);

    // Law 31: North bids 3S at West's turn, his right-hand opponent's. West drew attention to it.
    let recorded = table
        .record(
            &mut table.player(West),
            game::IrregularityFact {
                call: Some(pcall("3S")),
                ..fact(game::IrregularityKind::CallOutOfRotation, North)
            },
            None,
        )
        .await
        .unwrap();
    let irregularity = recorded.irregularity.unwrap();
    assert_eq!(irregularity.pointed_out_by, West.to_proto(), "a player points out for his own seat");
    assert_eq!(irregularity.law.unwrap().number, 29);
    let decision = recorded.decision.expect("Law 29 gives options");
    assert!(decision.options.iter().any(|o| o.law.as_ref().unwrap().number == 31), "{decision:?}");
    assert!(recorded.arbiter_call.is_some(), "Club Law 13");
    table.resolve_calls().await;
    // The Arbiter applies the rectification: the call is cancelled and the auction reverts to
    // West (Law 29B, Law 31).
    let chosen = table.choose(&mut table.arbiter(), "cancel_call", None, None).await.unwrap();
    let view = chosen.view.unwrap();
    assert_eq!(seat_of(view.next_to_act), West);
    assert!(view.auction.iter().any(|e| e.status == game::CallStatus::Cancelled as i32));
    // Law 31B1: West passes, so North must repeat his call out of rotation.
    let view = table.call(West, "Pass").await;
    let repeat = view.restrictions.iter().find(|r| r.kind == game::RestrictionKind::MustRepeatCall as i32).unwrap();
    assert_eq!(repeat.seat, North.to_proto());
    let status = table.call_as(&mut table.desk(), North, "2S").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(status.message(), "North must repeat 3S (Law 31B1 of the Laws of Rubber Bridge)");
    let view = table.calls(&[(North, "3S"), (East, "Pass"), (South, "Pass"), (West, "Pass")]).await;
    assert_eq!(view.phase, game::DealPhase::Play as i32);
    assert_eq!(played_contract(&view), ("3S".to_owned(), North));
    // The table stops recording the play and enters the result, which agrees with the auction.
    // The hands were entered, so honors are checked against them (Law 81): North holds four.
    let status = enter_result(&table, "3S", North, 9, &[]).await.unwrap_err();
    assert!(status.message().contains("the hands show four trump honors held by North-South"), "{}", status.message());
    let honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    let view = enter_result(&table, "3S", North, 9, &[honors]).await.unwrap();
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ResultEntered);
    assert_eq!(played(&result), ("3S".to_owned(), North, 9));
    let record = table.deal_record(&view.deal_id).await;
    assert_eq!(record.irregularities.len(), 2);
    assert_eq!(record.arbiter_calls.len(), 2);
    assert!(record.decisions.iter().all(|d| d.status == game::DecisionStatus::Chosen as i32));
}

fn played_contract(view: &game::TableView) -> (String, Seat) {
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    (contract.contract.to_string(), contract.declarer)
}

#[tokio::test]
async fn duplicate_law_36c_an_unnoticed_inadmissible_double_found_in_the_play_is_scored_as_not_made() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    table.calls(&[(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass")]).await;
    // North doubles his partner's bid (Law 19A1) and nobody notices: the table plays on.
    let double = |kind| game::IrregularityFact { call: Some(pcall("X")), ..fact(kind, North) };
    let recorded =
        table.record(&mut table.desk(), double(game::IrregularityKind::UnnoticedInadmissibleCall), None).await.unwrap();
    assert!(recorded.arbiter_call.is_none(), "nobody noticed, so nobody called the Director");
    let view = table.calls(&[(East, "Pass"), (South, "Pass"), (West, "Pass")]).await;
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    assert_eq!(contract.to_string(), "2SX by North", "played as bid");
    table.play(East, "CA").await;
    // East notices after the opening lead: "the final contract is scored as if the inadmissible
    // call had not been made" (Law 36C).
    let recorded = table
        .record(&mut table.desk(), double(game::IrregularityKind::AttentionToUnnoticedCall), Some(East))
        .await
        .unwrap();
    let law = recorded.irregularity.unwrap().law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (36, "C"));
    let scored = laws::DeclaredContract::try_from(recorded.view.unwrap().contract_scored.unwrap()).unwrap();
    assert_eq!(scored.to_string(), "2S by North", "every viewer is told what will be scored");
    table.resolve_calls().await;
    let view = table.play_out(false).await;
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::PlayedOut);
    assert_eq!(played(&result).0, "2S");
}

#[tokio::test]
async fn rubber_law_27a_an_artificial_insufficient_bid_is_shown_as_such_and_has_no_same_denomination_correction() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    table.start(table.rubber(game::PlayMode::Recorded, false), Some(PBN)).await;
    table.call(North, "1NT").await;
    // East's 1C shows both majors (the partnership's methods say so) and is insufficient.
    let majors = game::ArtificialMeaning { suits: vec![pb::Suit::Hearts as i32, pb::Suit::Spades as i32] };
    let request = game::MakeCallRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        seat: East.to_proto(),
        call: Some(pcall("1C")),
        artificial: Some(majors.clone()),
    };
    let view = table.desk().make_call(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.auction[1].artificial, Some(majors), "every viewer sees what the call showed");
    assert!(view.auction[0].artificial.is_none());
    // Law 27A: "if the insufficient bid and sufficient bid are both not artificial, the auction
    // proceeds as though the irregularity had not occurred": no such correction is offered.
    table.choose(&mut table.player(South), "reject_insufficient_bid", None, None).await.unwrap();
    let offered: Vec<String> = table.view().await.pending_decisions[0].options.iter().map(|o| o.kind.clone()).collect();
    assert!(!offered.iter().any(|k| k == "lowest_sufficient_bid"), "{offered:?}");
    // A suit the Laws do not know is refused, naming the field.
    let request = game::MakeCallRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        seat: South.to_proto(),
        call: Some(pcall("2C")),
        artificial: Some(game::ArtificialMeaning { suits: vec![0] }),
    };
    let status = table.desk().make_call(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("artificial.suits[0]"), "{}", status.message());
}

#[tokio::test]
async fn duplicate_law_21b_a_pass_changed_after_misinformation_in_the_clarification_period_reopens_the_auction() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = recorded_board(&app).await;
    bid_four_spades(&table).await;
    // Before the opening lead is faced West, misinformed by South's explanation, changes his pass
    // to a double: "Until the end of the auction period ... and provided that his partner has not
    // subsequently called, a player may change a call" (Law 21B1(a)).
    let change = game::IrregularityFact {
        call: Some(pcall("X")),
        misinformed: West.to_proto(),
        ..fact(game::IrregularityKind::CallChangedAfterMisinformation, South)
    };
    let recorded = table.record(&mut table.desk(), change.clone(), Some(West)).await.unwrap();
    let irregularity = recorded.irregularity.unwrap();
    let law = irregularity.law.unwrap();
    assert_eq!((law.number, law.section.as_str()), (21, "B1"));
    let recorded_fact = irregularity.fact.unwrap();
    assert_eq!(recorded_fact.kind, game::IrregularityKind::CallChangedAfterMisinformation as i32);
    assert_eq!(recorded_fact.misinformed, West.to_proto());
    assert!(recorded.arbiter_call.is_some(), "the Director is summoned (Law 9B1(a))");
    // The Director judges (Law 21B1(b): he presumes a mistaken explanation); the auction reopens.
    table.resolve_calls().await;
    table.choose(&mut table.arbiter(), "change_after_misinformation", None, None).await.unwrap();
    let view = table.view().await;
    assert_eq!(view.phase, game::DealPhase::Auction as i32);
    assert_eq!(seat_of(view.next_to_act), North);
    let view = table.calls(&[(North, "Pass"), (East, "Pass"), (South, "Pass")]).await;
    let contract = laws::DeclaredContract::try_from(view.contract.unwrap()).unwrap();
    assert_eq!(contract.to_string(), "4SX by North");
    // Once the opening lead is faced it is too late: Law 21B3 (an adjusted score instead).
    table.play(East, "CA").await;
    let status = table.record(&mut table.desk(), change, Some(West)).await.unwrap_err();
    assert!(status.message().contains("21B3"), "{}", status.message());
    // Recorded as misinformation found too late, it reserves an adjustment against North-South
    // for the end of play, which the Director sees in the deal's record.
    let too_late =
        game::IrregularityFact { misinformed: East.to_proto(), ..fact(game::IrregularityKind::Misinformation, South) };
    table.record(&mut table.desk(), too_late, Some(East)).await.unwrap();
    let view = table.view().await;
    let request = game::GetDealRecordRequest { deal_id: view.deal_id.clone() };
    let record = table.arbiter().get_deal_record(request).await.unwrap().into_inner().record.unwrap();
    let reserved: Vec<(i32, String)> = record
        .reserved_adjustments
        .iter()
        .map(|r| (r.offending_side, r.law.as_ref().map(|l| format!("{}{}", l.number, l.section)).unwrap_or_default()))
        .collect();
    assert!(reserved.contains(&(pb::Side::NorthSouth as i32, "21B3".to_owned())), "{reserved:?}");
}
