//! The opening lead made face down (duplicate Law 41A; rubber bridge by agreement under
//! Appendix 3 of the Laws of Rubber Bridge) through the game service: a face-down lead out of
//! turn goes back to the hand without penalty, and one in turn lies hidden until it is faced.

use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::TestApp;
use futures::StreamExt;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{Table, hand, key, pcard, rubber_four_spades, seat_of};

impl Table<'_> {
    /// The desk records `seat` leading `card` face down.
    async fn lead_face_down(&self, seat: Seat, card: &str) -> Result<game::TableView, tonic::Status> {
        let request = game::PlayCardRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(pcard(card)),
            face_down: true,
        };
        Ok(self.desk().play_card(request).await?.into_inner().view.unwrap())
    }
}

/// Rubber Appendix 3: "If an opening lead is determined to be out of turn (before being faced),
/// the leader returns the card to his hand without penalty. When the face-down lead will be legal,
/// dummy delays spreading his hand. ... Then, the lead is faced (opening leader may not withdraw
/// it), dummy is faced and play proceeds normally." North declares four spades: East is on lead.
#[tokio::test]
async fn appendix_3_a_face_down_lead_out_of_turn_goes_back_and_one_in_turn_is_faced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    let table = rubber_four_spades(&app).await;
    let mut arbiter = table.arbiter();
    let request = game::WatchTableRequest { table_id: table.id.clone(), after_sequence: None };
    let mut stream = arbiter.watch_table(request).await.unwrap().into_inner();

    // West leads the heart ace face down, out of turn: back to his hand, no penalty card, no
    // choice for declarer, and East still leads.
    let view = table.lead_face_down(West, "HA").await.unwrap();
    assert!(view.pending_decisions.is_empty(), "no decision: {:?}", view.pending_decisions);
    assert!(view.penalty_cards.is_empty());
    assert_eq!(seat_of(view.next_to_act), East);
    assert_eq!(view.face_down_lead, 0, "nothing lies face down");
    let record = table
        .arbiter()
        .get_deal_record(game::GetDealRecordRequest { deal_id: view.deal_id.clone() })
        .await
        .unwrap()
        .into_inner()
        .record
        .unwrap();
    let irregularity = record.irregularities.last().unwrap();
    let fact = irregularity.fact.as_ref().unwrap();
    assert_eq!(fact.kind, game::IrregularityKind::FaceDownLeadReturned as i32);
    assert_eq!(seat_of(fact.offender), West);
    let law = irregularity.law.as_ref().unwrap();
    assert_eq!((law.number, law.section.as_str()), (41, " and Appendix 3"));
    let west = table.view_as(&mut table.player(West)).await;
    assert!(hand(&west, West).unwrap().contains("HA".parse().unwrap()), "the card is back in his hand");

    // East leads the club ace face down: it lies hidden from everyone but East, and dummy waits.
    let view = table.lead_face_down(East, "CA").await.unwrap();
    assert_eq!(seat_of(view.face_down_lead), East);
    assert!(view.tricks.is_empty(), "not yet played");
    assert_eq!(seat_of(view.next_to_act), East);
    let kibitzer = table.view_as(&mut app.game("kibitzer", &[Role::Player])).await;
    assert!(hand(&kibitzer, East).is_none_or(|h| !h.contains("CA".parse().unwrap())), "the card is hidden");
    assert!(hand(&kibitzer, South).is_none(), "dummy is not spread");
    let east = table.view_as(&mut table.player(East)).await;
    assert!(hand(&east, East).unwrap().contains("CA".parse().unwrap()));
    // "opening leader may not withdraw it": another card from East is refused, naming the rule.
    let status = table.play_as(&mut table.desk(), East, "CK").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert!(status.message().contains("Appendix 3"), "{}", status.message());
    let status = table.lead_face_down(East, "CK").await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");

    // East faces it: the opening lead is played and dummy is spread.
    let view = table.play(East, "CA").await;
    assert_eq!(view.face_down_lead, 0);
    assert_eq!(seat_of(view.tricks[0].leader), East);
    let kibitzer = table.view_as(&mut app.game("kibitzer", &[Role::Player])).await;
    assert!(hand(&kibitzer, South).is_some(), "dummy is spread once the lead is faced");

    // The stream told the watcher each step, the face-down card never named.
    let mut told = Vec::new();
    while let Ok(Some(item)) = tokio::time::timeout(std::time::Duration::from_secs(5), stream.next()).await {
        let Some(event) = item.unwrap().event.and_then(|e| e.event) else { continue };
        let done = matches!(event, game::table_event::Event::DummyFaced(_));
        told.push(event);
        if done {
            break;
        }
    }
    let face_down: Vec<&game::FaceDownLead> = told
        .iter()
        .filter_map(|e| match e {
            game::table_event::Event::FaceDownLead(f) => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(face_down.len(), 1, "{told:?}");
    assert_eq!((seat_of(face_down[0].seat), face_down[0].returned), (East, false));
    assert!(told.iter().any(|e| matches!(e, game::table_event::Event::IrregularityRecorded(_))));
}
