//! A deal every seat plays without a choice, for the load generator and the tests that play whole
//! deals at speed: each player holds one whole suit (North spades, East hearts, South diamonds,
//! West clubs), the dealer opens 1NT and the others pass, and the opening leader (the dealer's
//! left) leads his suit to the end while the others follow with theirs, so he wins every trick.
//! Each of its [`ACTIONS`] after the start is legal and judged by the Laws like any other.

use api::common::v1 as pb;
use api::game::v1 as game;

use crate::GameClient;

/// The hands, as a PBN Deal tag.
pub const HANDS: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";

/// The start of `lineup`'s first deal with these hands, recorded from a table's own cards, at a
/// table nobody has used yet.
pub fn first_start(lineup: &crate::lineup::Lineup) -> game::StartDealRequest {
    game::StartDealRequest {
        table_id: lineup.table_id.clone(),
        expected_version: 0,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        setup: Some(lineup.first_deal(game::PlayMode::Recorded, false)),
        hands: Some(game::start_deal_request::Hands::DealPbn(HANDS.to_owned())),
    }
}

/// The seats in the order `dealer` counts them.
pub const SEATS: [pb::Seat; 4] = [pb::Seat::North, pb::Seat::East, pb::Seat::South, pb::Seat::West];

/// The actions after the start: four calls and 52 cards.
pub const ACTIONS: usize = 56;

const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
const RANKS: [char; 13] = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];

/// Sends the `step`th action after the start (0-3 the calls, 4-55 the cards) of the deal
/// `SEATS[dealer]` dealt, at the table's `version` under `key`; the table as answered.
pub async fn act(
    client: &mut GameClient,
    table_id: &str,
    version: u64,
    key: &str,
    dealer: usize,
    step: usize,
) -> Result<game::TableView, tonic::Status> {
    let view = if step < 4 {
        let call = if step == 0 { "1NT" } else { "P" };
        let request = game::MakeCallRequest {
            table_id: table_id.to_owned(),
            expected_version: version,
            idempotency_key: key.to_owned(),
            seat: SEATS[(dealer + step) % 4] as i32,
            call: Some(call.parse::<laws::Call>().unwrap_or_else(|e| panic!("{call}: {e}")).into()),
            artificial: None,
        };
        client.make_call(request).await?.into_inner().view
    } else {
        let (trick, turn) = ((step - 4) / 4, (step - 4) % 4);
        let seat = (dealer + 1 + turn) % 4;
        let card = format!("{}{}", SUITS[seat], RANKS[trick]);
        let request = game::PlayCardRequest {
            table_id: table_id.to_owned(),
            expected_version: version,
            idempotency_key: key.to_owned(),
            seat: SEATS[seat] as i32,
            card: Some(card.parse::<laws::Card>().unwrap_or_else(|e| panic!("{card}: {e}")).into()),
            face_down: false,
        };
        client.play_card(request).await?.into_inner().view
    };
    view.ok_or_else(|| tonic::Status::internal("an answer without the table"))
}
