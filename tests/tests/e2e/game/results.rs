//! How a deal ends and what it leaves: a disputed claim adjudicated by the Director (Law 70), a
//! result entered at a recorded table, the PBN export of a finished deal and an abandoned deal.

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::TestApp;
use laws::Seat;
use tonic::Code;

use super::{
    PBN, Table, bid_four_spades, board, enter_result, hand, key, outcome, played, rubber_four_spades, session,
};

async fn claim(table: &Table<'_>, claimer: Seat, tricks: u32) -> game::ClaimResponse {
    let request = game::ClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claimer: claimer.to_proto(),
        tricks,
        statement: "drawing trumps, all mine".into(),
        line: None,
    };
    table.player(claimer).claim(request).await.unwrap().into_inner()
}

async fn answer(
    table: &Table<'_>,
    claim_id: &str,
    seat: Seat,
    reply: game::ClaimReply,
) -> game::RespondToClaimResponse {
    let request = game::RespondToClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim_id.to_owned(),
        seat: seat.to_proto(),
        reply: reply as i32,
    };
    table.player(seat).respond_to_claim(request).await.unwrap().into_inner()
}

#[tokio::test]
async fn duplicate_law_70_a_disputed_claim_is_adjudicated_by_the_director() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::new(&app);
    let session = session(&app, &[(1, None)]).await;
    let view = table.start(board(&table.players, game::PlayMode::Recorded, &session, 1), Some(PBN)).await;
    assert_eq!(view.setup.unwrap().dealer, North.to_proto(), "duplicate Law 2: board 1 is dealt by North");
    bid_four_spades(&table).await;
    table.play(East, "CA").await;
    let claimed = claim(&table, North, 13).await;
    let claim = claimed.claim.unwrap();
    assert_eq!(claim.status, game::ClaimStatus::Pending as i32);
    assert_eq!(claim.tricks_remaining, 13);
    let view = claimed.view.unwrap();
    assert_eq!(view.phase, game::DealPhase::Claim as i32);
    // Law 68C: the claimer's hand is faced; East sees it now.
    assert!(hand(&table.view_as(&mut table.player(East)).await, North).is_some());
    let answered = answer(&table, &claim.claim_id, West, game::ClaimReply::Dispute).await;
    assert_eq!(answered.claim.unwrap().status, game::ClaimStatus::Disputed as i32);
    let call = answered.arbiter_call.expect("duplicate Law 68D: the Director is summoned");
    assert_eq!(call.claim_id, claim.claim_id);
    // Nobody plays while the Director is at the table.
    let status = table.play_as(&mut table.desk(), South, "C9").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let request = game::AdjudicateClaimRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        claim_id: claim.claim_id.clone(),
        tricks: 9,
        reasons: "a club to lose with no trump drawn first".into(),
        law: Some(laws::Law::duplicate(70, "D1").into()),
    };
    // Only the Director decides.
    let status = table.player(North).adjudicate_claim(request.clone()).await.unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied);
    let decided = table.arbiter().adjudicate_claim(request).await.unwrap().into_inner();
    let claim = decided.claim.unwrap();
    assert_eq!(claim.status, game::ClaimStatus::Adjudicated as i32);
    let adjudication = claim.adjudication.unwrap();
    assert_eq!((adjudication.tricks, adjudication.decided_by.as_str()), (9, "the-arbiter"));
    assert_eq!(adjudication.law.unwrap().section, "D1");
    let view = decided.view.unwrap();
    assert!(view.open_arbiter_calls.is_empty(), "the decision settles the call");
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ClaimAdjudicated);
    assert_eq!(played(&result), ("4S".to_owned(), North, 9));
    assert!(result.unwrap().honors.is_empty(), "no honors in duplicate");
    // A duplicate board's hands stay hidden from the players after the deal: other tables may
    // still have to play it.
    let east = table.view_as(&mut table.player(East)).await;
    assert!(hand(&east, West).is_none());
}

#[tokio::test]
async fn a_recorded_table_may_enter_only_the_result_and_refusals_name_the_law() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = Table::seated(&app).await;
    let mut setup = table.rubber(game::PlayMode::Recorded, false);
    setup.result_only = true;
    let view = table.start(setup, None).await;
    assert_eq!(view.phase, game::DealPhase::ResultEntry as i32);
    let status = table.call_as(&mut table.desk(), North, "1S").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    // Four aces score only at notrump (Law 81).
    let aces = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourAcesAtNoTrump as i32 };
    let status = enter_result(&table, "4S", North, 10, &[aces]).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(status.message().contains("Law 81"), "{}", status.message());
    let status = enter_result(&table, "4S", North, 14, &[]).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("result.played.tricks"), "{}", status.message());
    let honors = pb::Honors { side: pb::Side::NorthSouth as i32, kind: pb::HonorsKind::FourTrumpHonors as i32 };
    let view = enter_result(&table, "4S", North, 10, &[honors]).await.unwrap();
    let (ending, result) = outcome(&view);
    assert_eq!(ending, game::DealEnding::ResultEntered);
    assert_eq!(result.unwrap().honors, vec![honors]);

    // A second deal may start once the first is over; its hands are not entered, so once the
    // auction closes the table enters the result, which must agree with the auction (Law 22).
    // (A new rubber at the same table, so that North deals again with nobody vulnerable.)
    table.next_rubber().await;
    let view = table.start(table.rubber(game::PlayMode::Recorded, false), None).await;
    assert_eq!(view.phase, game::DealPhase::Auction as i32);
    let view = bid_four_spades(&table).await;
    assert_eq!(view.phase, game::DealPhase::ResultEntry as i32);
    let status = table.play_as(&mut table.desk(), East, "CA").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let status = enter_result(&table, "3N", South, 9, &[]).await.unwrap_err();
    assert!(status.message().contains("does not agree with the auction: 4S by North (Law 22B"), "{}", status.message());
    let view = enter_result(&table, "4S", North, 11, &[]).await.unwrap();
    assert_eq!(played(&outcome(&view).1), ("4S".to_owned(), North, 11));
    let deals = table
        .desk()
        .list_deals(game::ListDealsRequest { table_id: table.id.clone(), ..Default::default() })
        .await
        .unwrap()
        .into_inner()
        .deals;
    assert_eq!(deals.len(), 2);
    assert_eq!(deals[0].deal_id, view.deal_id, "newest first");
}

#[tokio::test]
async fn a_finished_deal_exports_as_pbn_and_an_abandoned_one_has_no_result() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    let view = table.play_out(false).await;
    let pbn = table
        .player(North)
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![view.deal_id.clone()] })
        .await
        .unwrap()
        .into_inner()
        .pbn;
    assert!(pbn.starts_with("% PBN 2.1"), "{pbn}");
    for tag in [
        "[Dealer \"N\"]",
        "[Vulnerable \"None\"]",
        &format!("[Deal \"{PBN}\"]"),
        "[Declarer \"N\"]",
        "[Contract \"4S\"]",
    ] {
        assert!(pbn.contains(tag), "{tag} missing from\n{pbn}");
    }
    assert!(pbn.contains("[Auction \"N\"]\n1S Pass 2S Pass\n4S Pass Pass Pass\n"), "{pbn}");
    assert!(pbn.contains("[Play \"E\"]\n"), "{pbn}");
    assert_eq!(pbn.lines().filter(|l| l.split(' ').count() == 4 && l.len() == 11).count(), 13, "{pbn}");

    table.next_rubber().await;
    table.start(table.rubber(game::PlayMode::Digital, false), None).await;
    table.call_as(&mut table.player(North), North, "1C").await.unwrap();
    let status = table
        .player(North)
        .export_deal_pbn(game::ExportDealPbnRequest { deal_ids: vec![table.view().await.deal_id] })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let request = game::AbandonDealRequest {
        table_id: table.id.clone(),
        expected_version: table.version().await,
        idempotency_key: key(),
        reason: "fire alarm".into(),
    };
    let view = table.desk().abandon_deal(request).await.unwrap().into_inner().view.unwrap();
    assert_eq!(view.phase, game::DealPhase::Abandoned as i32);
    assert_eq!(outcome(&view), (game::DealEnding::Abandoned, None));
}

/// A ruling that cites no Law is shown under the one that makes the official adjudicate:
/// duplicate Law 70A ("In ruling on a contested claim or concession, the Director adjudicates the
/// result of the board as equitably as possible to both sides"), and Club Law 69 for declarer's
/// claim ("If either defender disputes declarer's claim or concession, the Arbiter must be called
/// to adjudicate the result of the deal"), an addition without a letter.
#[tokio::test]
async fn law_70a_and_club_law_69_an_adjudication_citing_no_law() {
    use Seat::*;
    let app = TestApp::spawn().await;
    for duplicate in [true, false] {
        let table = if duplicate { Table::new(&app) } else { Table::seated_under_club_laws(&app).await };
        let setup = if duplicate {
            board(&table.players, game::PlayMode::Recorded, &session(&app, &[(1, None)]).await, 1)
        } else {
            table.rubber(game::PlayMode::Recorded, true)
        };
        table.start(setup, Some(PBN)).await;
        bid_four_spades(&table).await;
        table.play(East, "CA").await;
        let claim = claim(&table, North, 13).await.claim.unwrap();
        answer(&table, &claim.claim_id, East, game::ClaimReply::Dispute).await;
        let request = game::AdjudicateClaimRequest {
            table_id: table.id.clone(),
            expected_version: table.version().await,
            idempotency_key: key(),
            claim_id: claim.claim_id.clone(),
            tricks: 12,
            reasons: "a club to lose".into(),
            law: None,
        };
        let decided = table.arbiter().adjudicate_claim(request).await.unwrap().into_inner();
        let law = decided.claim.unwrap().adjudication.unwrap().law.unwrap();
        let expected = if duplicate { laws::Law::duplicate(70, "A") } else { laws::Law::club(69, "") };
        assert_eq!(law, expected.into(), "duplicate: {duplicate}");
    }
}
