//! The opening lead made face down (duplicate Law 41A; rubber bridge by agreement under
//! Appendix 3 of the Laws of Rubber Bridge) through the game service: at a recording table a
//! face-down lead out of turn goes back to the hand without penalty; at a digital table it is
//! refused; in turn it lies hidden from all but the leader until it is faced.

use api::convert::ProtoEnum;
use api::game::v1 as game;
use e2e::{GameClient, TestApp};
use futures::StreamExt;
use laws::Seat;
use platform::auth::Role;
use tonic::Code;

use super::{Table, board, hand, key, pcard, rubber_four_spades, seat_of, session};

impl Table<'_> {
    /// The desk records `seat` leading `card` face down.
    async fn lead_face_down(&self, seat: Seat, card: &str) -> Result<game::TableView, tonic::Status> {
        self.lead_face_down_as(&mut self.desk(), seat, card).await
    }

    /// `client` leads `card` face down from `seat`.
    async fn lead_face_down_as(
        &self,
        client: &mut GameClient,
        seat: Seat,
        card: &str,
    ) -> Result<game::TableView, tonic::Status> {
        let request = game::PlayCardRequest {
            table_id: self.id.clone(),
            expected_version: self.version().await,
            idempotency_key: key(),
            seat: seat.to_proto(),
            card: Some(pcard(card)),
            face_down: true,
        };
        Ok(client.play_card(request).await?.into_inner().view.unwrap())
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
    let record = table.deal_record(&view.deal_id).await;
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

/// The same at a digital table, where the device deals and no card leaves a hand by mistake.
/// Duplicate Law 41A: "the defender on presumed declarer's left makes the opening lead face
/// down"; rubber Appendix 3, by agreement: "When the face-down lead will be legal, dummy delays
/// spreading his hand. ... Then, the lead is faced". A face-down lead out of turn is refused, as
/// any lead out of turn is at a digital table, naming Law 41: nothing lies on the table, nothing
/// is recorded, and the card stays in the hand. In turn it lies face down: the leader alone sees
/// the card, in his hand; declarer, dummy, his partner, a kibitzer and their streams learn only
/// that he led face down, until he faces it.
#[tokio::test]
async fn law_41a_a_face_down_lead_at_a_digital_table_is_hidden_until_faced() {
    use Seat::*;
    let app = TestApp::spawn().await;
    for duplicate in [false, true] {
        let table = if duplicate { Table::new(&app) } else { Table::seated(&app).await };
        let setup = if duplicate {
            board(&table.players, game::PlayMode::Digital, &session(&app, &[(1, None)]).await, 1)
        } else {
            table.rubber(game::PlayMode::Digital, false)
        };
        table.start(setup, None).await;
        // Each player calls from his own device (a digital table takes no call from the desk).
        let calls = [(North, "1S"), (East, "Pass"), (South, "2S"), (West, "Pass"), (North, "4S")];
        for (seat, call) in calls.into_iter().chain([(East, "Pass"), (South, "Pass"), (West, "Pass")]) {
            table.call_as(&mut table.player(seat), seat, call).await.unwrap();
        }
        let all = table.view().await;
        let (east_hand, west_hand) = (hand(&all, East).unwrap(), hand(&all, West).unwrap());
        let west_card = west_hand.iter().next().unwrap();

        // West leads face down out of turn: refused, naming Law 41; nothing changes.
        let status = table.lead_face_down_as(&mut table.player(West), West, &west_card.to_string()).await.unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
        assert!(status.message().contains("Law 41"), "{}", status.message());
        let view = table.view().await;
        assert_eq!(view.face_down_lead, 0, "nothing lies face down");
        assert_eq!(seat_of(view.next_to_act), East);
        assert!(hand(&view, West).unwrap().contains(west_card), "the card stays in his hand");
        let record = table.deal_record(&view.deal_id).await;
        assert!(record.irregularities.is_empty(), "no irregularity: {:?}", record.irregularities);

        // The other three watch from before the lead; each stream is checked below.
        let mut watchers = Vec::new();
        for seat in [North, South, West] {
            let request = game::WatchTableRequest { table_id: table.id.clone(), after_sequence: None };
            watchers.push((seat, table.player(seat).watch_table(request).await.unwrap().into_inner()));
        }

        // East leads face down from his own device: it lies hidden from everyone but him.
        let led = east_hand.iter().next().unwrap();
        let view = table.lead_face_down_as(&mut table.player(East), East, &led.to_string()).await.unwrap();
        assert_eq!(seat_of(view.face_down_lead), East);
        assert!(hand(&view, East).unwrap().contains(led), "the leader sees it, still in his hand");
        let mut others: Vec<(Option<Seat>, game::TableView)> = Vec::new();
        for seat in [North, South, West] {
            others.push((Some(seat), table.view_as(&mut table.player(seat)).await));
        }
        // A kibitzer sees a rubber table; a duplicate board not at all until it is released.
        let request = game::GetTableStateRequest { table_id: table.id.clone() };
        match app.game("kibitzer", &[Role::Player]).get_table_state(request).await {
            Ok(response) => others.push((None, response.into_inner().view.unwrap())),
            Err(status) => assert!(duplicate && status.code() == Code::PermissionDenied, "{status:?}"),
        }
        for (who, view) in &others {
            assert_eq!(seat_of(view.face_down_lead), East, "{who:?} knows a lead lies face down");
            assert!(view.tricks.is_empty(), "{who:?}: not yet played");
            assert!(hand(view, East).is_none_or(|h| !h.contains(led)), "{who:?} sees the face-down card");
            assert!(hand(view, South).is_none() || *who == Some(South), "{who:?}: dummy is not spread");
        }
        let another = east_hand.iter().nth(1).unwrap().to_string();
        let status = table.play_as(&mut table.player(East), East, &another).await.unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition, "he may not lead another: {status:?}");

        // East faces it: played for all to see, and dummy is spread.
        let view = table.play_as(&mut table.player(East), East, &led.to_string()).await.unwrap();
        assert_eq!(view.face_down_lead, 0);
        let west = table.view_as(&mut table.player(West)).await;
        assert_eq!(seat_of(west.tricks[0].leader), East);
        assert!(hand(&west, South).is_some(), "dummy is spread once the lead is faced");

        // Each stream told of the face-down lead without the card, and named it only once faced.
        for (seat, mut stream) in watchers {
            let mut told = Vec::new();
            while let Ok(Some(item)) = tokio::time::timeout(std::time::Duration::from_secs(5), stream.next()).await {
                let Some(event) = item.unwrap().event.and_then(|e| e.event) else { continue };
                let done = matches!(event, game::table_event::Event::DummyFaced(_));
                told.push(event);
                if done {
                    break;
                }
            }
            let face_down = told.iter().position(
                |e| matches!(e, game::table_event::Event::FaceDownLead(f) if !f.returned && seat_of(f.seat) == East),
            );
            let played = told.iter().position(|e| matches!(e, game::table_event::Event::CardPlayed(_)));
            assert!(face_down.is_some() && face_down < played, "{seat}: {told:?}");
        }
    }
}
