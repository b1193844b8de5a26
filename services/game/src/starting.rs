//! Starting a deal: who may start it, what its owners settle of it ([`crate::owners`]), and its
//! cards: a fresh committed seed for a digital deal, the hands a recorded table entered, and for
//! a duplicate board the cards it was first dealt with, the same at every table of the session.

use api::common::v1 as pb;
use api::game::v1 as game;
use laws::Seat;
use platform::ServiceError;
use platform::app::Peers;
use platform::auth::{Principal, Role};
use platform::db::Db;

use crate::engine::Engine;
use crate::owners::RubberOwners;
use crate::{engine, owners, setup, store};

/// Who may start this deal, with what the owners say of it; a board's session comes back,
/// for the hands a hand record may have given it. A rubber's deal is settled from
/// its rubber and scorepad ([`owners`]), and a player starts only a deal of a rubber he plays
/// in. A duplicate board is started by the desk (or the table's device, which acts with the
/// desk role), the director or the administrator, never by a player: its cards are the same at
/// every table of the session (duplicate Law 6), so whoever starts it first fixes them for the
/// whole field, and a player starting one could read a board before his table plays it.
pub async fn check_starter(
    peers: &Peers,
    engine: &Engine,
    principal: &Principal,
    table_id: &str,
    resolved: &mut setup::Resolved,
) -> Result<Option<api::scoring::v1::Session>, ServiceError> {
    let staff = principal.has_any(&[Role::Desk, Role::Arbiter, Role::Admin]);
    match &resolved.setup.source {
        Some(game::deal_setup::Source::Rubber(deal)) => {
            rubber_owners(peers, engine, table_id, deal).await?.settle(table_id, &mut resolved.setup)?;
            if staff || engine::seat_of_player(&resolved.setup, &principal.subject).is_some() {
                return Ok(None);
            }
            Err(ServiceError::PermissionDenied(format!(
                "{} is not in the line-up of this rubber: a player starts only a deal of a rubber he plays in",
                principal.subject
            )))
        }
        Some(game::deal_setup::Source::Board(board)) if staff => {
            let session = owners::session(peers, &board.session_id).await?;
            owners::settle_board(&session, table_id, &mut resolved.setup)?;
            Ok(Some(session))
        }
        _ => Err(ServiceError::PermissionDenied(format!(
            "{} may not start a duplicate board: the desk, the table's device or the director starts it, since \
             every table of the session plays the same cards (duplicate Law 6)",
            principal.subject
        ))),
    }
}

/// A rubber's owners, for a deal that may follow one whose result this service is still
/// delivering. Deals are scored in order (Law 73), so the pad shows the next deal only once it
/// holds the one before; a club deals the next hand the moment the last card of the one before
/// is played, while its result is on its way. So when the table's last deal still owes the pad
/// its result, scoring is told that result and answers with the deal after it, as the pad will
/// stand once the result is recorded ([`owners::rubber_owners`]); the start neither waits for
/// the delivery nor is refused for it. A deal further on is refused as before.
async fn rubber_owners(
    peers: &Peers,
    engine: &Engine,
    table_id: &str,
    deal: &game::RubberDeal,
) -> Result<RubberOwners, ServiceError> {
    owners::rubber_owners(peers, deal, last_result_owed(engine, table_id)).await
}

/// The result the table's last deal still owes its scorepad, as written when it finished.
async fn last_result_owed(
    engine: &Engine,
    table_id: &str,
) -> Result<Option<api::scoring::v1::RecordDealResultRequest>, ServiceError> {
    use prost::Message as _;
    let Some(last) = engine.load(table_id).await?.deal.filter(|last| last.state.is_over()) else {
        return Ok(None);
    };
    let Some(payload) = store::result_owed(&engine.db, &last.deal_id).await? else {
        return Ok(None);
    };
    api::scoring::v1::RecordDealResultRequest::decode(payload.as_slice())
        .map(Some)
        .map_err(|e| ServiceError::internal(format!("the result deal {} owes is unreadable: {e}", last.deal_id)))
}

/// The cards of a new deal: a fresh seed for a digital deal, the hands entered for a
/// recorded one, and for a duplicate board whatever the first table to start it fixed.
pub async fn cards(
    db: &Db,
    resolved: &setup::Resolved,
    owner: Option<&api::scoring::v1::Session>,
    deal_id: &str,
) -> Result<(Vec<u8>, Option<pb::Deal>), ServiceError> {
    let fresh_seed = || rand::random::<[u8; 32]>().to_vec();
    let Some((session, number)) = &resolved.board else {
        return Ok(match (resolved.digital, resolved.entered) {
            (true, _) => (fresh_seed(), None),
            (false, entered) => (Vec::new(), entered.map(Into::into)),
        });
    };
    let number = i32::try_from(*number).map_err(|_| ServiceError::invalid("setup.board.board_number", "too large"))?;
    let (seed, pbn) = match store::existing_board(db, session, number).await? {
        Some(_) => (resolved.digital.then(fresh_seed), resolved.entered.map(|d| d.to_pbn(Seat::North))),
        // The first table to start the board: the session may have been created from a hand
        // record, whose cards every table then plays (duplicate Law 2, Law 6).
        None => match session_hands(owner, session, number)? {
            Some(recorded) => {
                if resolved.entered.is_some_and(|entered| entered != recorded) {
                    return Err(board_differs(session, number));
                }
                (None, Some(recorded.to_pbn(Seat::North)))
            }
            None => (resolved.digital.then(fresh_seed), resolved.entered.map(|d| d.to_pbn(Seat::North))),
        },
    };
    let board = store::board(db, session, number, seed, pbn, deal_id).await?;
    if let Some(seed) = board.seed.filter(|s| s.len() == 32) {
        if let Some(entered) = resolved.entered {
            let mut fixed = [0u8; 32];
            fixed.copy_from_slice(&seed);
            if laws::Deal::from_seed(&laws::DealSeed(fixed)) != entered {
                return Err(board_differs(session, number));
            }
        }
        return Ok((seed, None));
    }
    match board.deal_pbn {
        Some(pbn) => {
            let fixed = api::convert::deal_from_pbn("board", &pbn)?;
            if resolved.entered.is_some_and(|entered| entered != fixed) {
                return Err(board_differs(session, number));
            }
            Ok((Vec::new(), Some(fixed.into())))
        }
        None if resolved.digital => Err(ServiceError::FailedPrecondition(format!(
            "board {number} of session {session} was first played with physical cards whose hands were not \
             entered: a digital table cannot play it"
        ))),
        None => Ok((Vec::new(), None)),
    }
}

/// The hands `session` (as scoring holds it) gives board `number`, if a hand record gave them.
fn session_hands(
    session: Option<&api::scoring::v1::Session>,
    id: &str,
    number: i32,
) -> Result<Option<laws::Deal>, ServiceError> {
    let board = session.and_then(|s| s.boards.iter().find(|b| i64::from(b.number) == i64::from(number)));
    board
        .and_then(|b| b.deal.clone())
        .map(|deal| {
            laws::Deal::try_from(deal).map_err(|e| {
                ServiceError::internal(format!("session {id} holds a board {number} that is no deal: {e}"))
            })
        })
        .transpose()
}

fn board_differs(session: &str, number: i32) -> ServiceError {
    ServiceError::FailedPrecondition(format!(
        "board {number} of session {session} already has its cards, and the hands entered differ: every table plays \
         the same cards (duplicate Laws 6 and 87A)"
    ))
}
