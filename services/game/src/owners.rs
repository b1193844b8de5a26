//! What the game takes from the services that own it, rather than from the caller: a rubber's
//! table, line-up and seats (membership), and its scorepad's next deal, dealer and vulnerability
//! (scoring).
//!
//! A caller starting a rubber's deal names the rubber, its scorepad and the deal number; the
//! rest comes from the owners, and whatever the caller also says must agree with them. So no
//! one can start a deal of a real rubber at a made-up table, seat other players, or write a
//! result on a pad that is not the rubber's. The owners are asked over gRPC each time a deal
//! starts (once a deal, not once a card): their answer must be current, since a rubber may end
//! or a pad move on at any moment, and an owner that cannot be reached makes the start fail
//! with UNAVAILABLE (within [`platform::client::PEER_DEADLINE`]), never proceed unchecked.

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use api::membership::v1::membership_service_client::MembershipServiceClient;
use api::membership::v1::{self as membership, RubberStatus};
use api::scoring::v1::scoring_service_client::ScoringServiceClient;
use api::scoring::v1::{self as scoring};
use laws::{Seat, Vulnerability};
use platform::ServiceError;
use platform::app::Peers;
use platform::auth::Principal;
use platform::client::{ask, unknown_reference};

use crate::engine::LoadedDeal;
use crate::render;

/// The line-up and the pad's next deal, as their owners hold them.
pub struct RubberOwners {
    /// The rubber, from membership.
    pub rubber: membership::Rubber,
    /// Its scorepad's next deal, from scoring.
    pub pad: scoring::GetNextDealResponse,
}

/// Asks membership for the rubber and scoring for its pad's next deal, both at once (neither
/// question depends on the other's answer, and a deal's start waits for both). `played`, when
/// the table's last deal still owes the pad its result, is that result: scoring then answers with
/// the deal after it, as the pad will stand once the result arrives (deals are scored in order,
/// Law 73, and the table plays on meanwhile). It is asked for once the rubber's question is out.
/// Membership's refusal, if both refuse, is the one reported.
pub async fn rubber_owners(
    peers: &Peers,
    deal: &game::RubberDeal,
    played: impl std::future::Future<Output = Result<Option<scoring::RecordDealResultRequest>, ServiceError>>,
) -> Result<RubberOwners, ServiceError> {
    let rubber = async {
        let what = format!("rubber {}", deal.rubber_id);
        let request = membership::GetRubberRequest { rubber_id: deal.rubber_id.clone() };
        ask("membership", &what, MembershipServiceClient::new(peers.membership()?).get_rubber(request))
            .await
            .map_err(|e| unknown_reference("setup.rubber.rubber_id", "", e))?
            .rubber
            .ok_or_else(|| ServiceError::internal("GetRubber answered without a rubber"))
    };
    let pad = async {
        let what = format!("scorepad {}", deal.scorepad_id);
        let played = played.await?.filter(|played| played.scorepad_id == deal.scorepad_id);
        let request = scoring::GetNextDealRequest { scorepad_id: deal.scorepad_id.clone(), played };
        ask("scoring", &what, ScoringServiceClient::new(peers.scoring()?).get_next_deal(request))
            .await
            .map_err(|e| unknown_reference("setup.rubber.scorepad_id", "", e))
    };
    let (rubber, pad) = tokio::join!(rubber, pad);
    Ok(RubberOwners { rubber: rubber?, pad: pad? })
}

impl RubberOwners {
    /// Settles `setup` (a rubber's deal at `table_id`) from the owners: the players and seats
    /// are the rubber's line-up (Law 3), the vulnerability the pad's (Law 77 for a rubber;
    /// Appendix 4 C in Chicago), the deal the pad's next one, and the dealer the one whose turn
    /// it is (Law 9). What the caller gave must agree; anything missing is filled in.
    pub fn settle(&self, table_id: &str, setup: &mut game::DealSetup) -> Result<(), ServiceError> {
        let (deal_number, club_laws) = match &setup.source {
            Some(game::deal_setup::Source::Rubber(deal)) => (deal.deal_number, deal.club_laws),
            _ => return Err(ServiceError::internal("settle is for a rubber's deal")),
        };
        let (rubber, pad) = (&self.rubber, &self.pad);
        if rubber.table_id != table_id {
            return Err(ServiceError::PermissionDenied(format!(
                "rubber {} is played at table {}, not at table {table_id}: a rubber's deals are dealt at its own table \
                 (Law 3)",
                rubber.rubber_id, rubber.table_id
            )));
        }
        if rubber.status != RubberStatus::InProgress as i32 {
            return Err(ServiceError::FailedPrecondition(format!(
                "rubber {} has ended: no further deal is dealt in it (Laws 74 and 80)",
                rubber.rubber_id
            )));
        }
        if rubber.kind != setup.kind {
            return Err(ServiceError::FailedPrecondition(format!(
                "setup.kind: rubber {} is played as {}, and its deals with it",
                rubber.rubber_id,
                kind_name(rubber.kind)
            )));
        }
        if club_laws != rubber.club_laws {
            return Err(ServiceError::FailedPrecondition(format!(
                "setup.rubber.club_laws: the Alternative Club Laws are {}in force for rubber {}, as its \
                 table's options say (Part VIII: they need the players' advance agreement or the \
                 club's published policy)",
                if rubber.club_laws { "" } else { "not " },
                rubber.rubber_id
            )));
        }
        if pad.rubber_id != rubber.rubber_id {
            return Err(ServiceError::PermissionDenied(format!(
                "setup.rubber.scorepad_id: scorepad {} keeps the score of rubber {}, not of rubber {}",
                pad.scorepad_id, pad.rubber_id, rubber.rubber_id
            )));
        }
        platform::lineup::settle(rubber, "setup.players", &mut setup.players)?;
        let next = pad.next_deal.as_ref().ok_or_else(|| {
            ServiceError::FailedPrecondition(format!(
                "scorepad {} is closed: its rubber is over (Law 74; Appendix 4 B in Chicago)",
                pad.scorepad_id
            ))
        })?;
        if deal_number != next.deal_number {
            return Err(ServiceError::FailedPrecondition(format!(
                "setup.rubber.deal_number: the scorepad's next deal is deal {}, not deal {}: deals are scored in \
                 order, each on the games and vulnerability the earlier ones made (Law 73){}",
                next.deal_number,
                deal_number,
                if deal_number > next.deal_number {
                    "; the result of the deal before may still be on its way to the pad: try again once it shows there"
                } else {
                    ""
                }
            )));
        }
        let from_pad = |e: api::convert::ConversionError| ServiceError::internal(format!("scorepad next deal: {e}"));
        let vulnerability = Vulnerability::from_proto("vulnerability", next.vulnerability).map_err(from_pad)?;
        match setup.vulnerability {
            0 => setup.vulnerability = next.vulnerability,
            given if given == next.vulnerability => {}
            _ => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "setup.vulnerability: deal {} of this rubber is played with {} vulnerable, as its scorepad stands \
                     (Law 77; Appendix 4 C in Chicago)",
                    next.deal_number,
                    match vulnerability {
                        Vulnerability::None => "neither side",
                        Vulnerability::NorthSouth => "North-South",
                        Vulnerability::EastWest => "East-West",
                        Vulnerability::Both => "both sides",
                    }
                )));
            }
        }
        let dealer = Seat::from_proto("dealer", next.dealer).map_err(from_pad)?;
        let digital = setup.mode == game::PlayMode::Digital as i32;
        match setup.dealer {
            0 => setup.dealer = next.dealer,
            given if given == next.dealer => {}
            // Rubber Law 9: a deal out of turn that nobody noticed before the last card was dealt
            // stands, so a table of physical cards may record one. A digital table deals in turn.
            _ if !digital => {}
            _ => {
                return Err(ServiceError::FailedPrecondition(format!(
                    "setup.dealer: the turn to deal passes in rotation (Law 9): {dealer} deals deal {}",
                    next.deal_number
                )));
            }
        }
        Ok(())
    }
}

fn kind_name(kind: i32) -> &'static str {
    match pb::TableKind::try_from(kind) {
        Ok(pb::TableKind::Rubber) => "rubber bridge",
        Ok(pb::TableKind::Chicago) => "Chicago",
        Ok(pb::TableKind::Duplicate) => "duplicate",
        _ => "an unknown kind",
    }
}

/// A duplicate session as scoring holds it: its boards (with any hands a hand record gave them),
/// its movement and which boards may be shown to everyone. The game service asks as a service,
/// so it sees every board's hands.
pub async fn session(peers: &Peers, session_id: &str) -> Result<scoring::Session, ServiceError> {
    let what = format!("session {session_id}");
    let request = scoring::GetSessionRequest { session_id: session_id.to_owned(), ..Default::default() };
    ask("scoring", &what, ScoringServiceClient::new(peers.scoring()?).get_session(request))
        .await
        .map_err(|e| match e {
            ServiceError::NotFound(_) => ServiceError::FailedPrecondition(format!(
                "setup.board.session_id: the scoring service has no session {session_id}: create it first, so that the \
                 board's results can be scored"
            )),
            other => other,
        })?
        .session
        .ok_or_else(|| ServiceError::internal("GetSession answered without a session"))
}

/// Settles a board's `setup` at `table_id` from the session's movement (duplicate Law 8A: the
/// Director instructs which boards each table plays and who sits there): the table must be sent
/// to the board, and the contestants are the movement's (filled in when the caller gave none).
pub fn settle_board(
    session: &scoring::Session,
    table_id: &str,
    setup: &mut game::DealSetup,
) -> Result<(), ServiceError> {
    let Some(game::deal_setup::Source::Board(board)) = &mut setup.source else {
        return Err(ServiceError::internal("settle_board is for a duplicate board"));
    };
    let assignment = session
        .movement
        .iter()
        .find(|a| a.table_id == table_id && a.board_number == board.board_number)
        .ok_or_else(|| {
        ServiceError::FailedPrecondition(format!(
            "table {table_id} is not sent to board {} of session {}: the desk or the director assigns the tables of \
                 each round first (AssignTables; duplicate Law 8A)",
            board.board_number, session.session_id
        ))
    })?;
    for (field, given, owned) in [
        (
            "setup.board.north_south_contestant_id",
            &mut board.north_south_contestant_id,
            &assignment.north_south_contestant_id,
        ),
        (
            "setup.board.east_west_contestant_id",
            &mut board.east_west_contestant_id,
            &assignment.east_west_contestant_id,
        ),
    ] {
        if given.is_empty() {
            given.clone_from(owned);
        } else if given != owned {
            return Err(ServiceError::FailedPrecondition(format!(
                "{field}: table {table_id} plays board {} against the contestants the movement seats there, {} and {} \
                 (duplicate Law 8A)",
                board.board_number, assignment.north_south_contestant_id, assignment.east_west_contestant_id
            )));
        }
    }
    Ok(())
}

/// Whether board `board_number` of `session` may be shown to everyone: every table of its
/// movement has a result on it, the director released it, or the official score is published.
pub fn board_released(session: &scoring::Session, board_number: u32) -> bool {
    session.boards.iter().any(|b| b.number == board_number && b.released)
}

/// The session and number of a duplicate deal's board.
pub fn board_of(setup: &game::DealSetup) -> Option<(&str, u32)> {
    match &setup.source {
        Some(game::deal_setup::Source::Board(board)) => Some((board.session_id.as_str(), board.board_number)),
        _ => None,
    }
}

/// Whether `principal` may see `deal` beyond what its seat shows: a duplicate board's cards,
/// calls and plays reach someone outside its table ([`render::outside_board`]) only once the
/// deal is over and the board released (every table of the session's movement has a result
/// on it, the director released it, or the official score is published). Scoring, which
/// keeps the movement and the results, says which boards are released.
pub async fn may_see_board(peers: &Peers, principal: &Principal, deal: &LoadedDeal) -> Result<(), ServiceError> {
    if !render::outside_board(principal, &deal.players, deal.state.code()) {
        return Ok(());
    }
    let Some((id, number)) = board_of(&deal.setup) else { return Ok(()) };
    if deal.state.is_over() && board_released(&session(peers, id).await?, number) {
        return Ok(());
    }
    Err(ServiceError::PermissionDenied(format!(
        "board {number} of session {id} is still to be played at other tables: its cards, calls and plays are \
         shown only to its table and the director until every table of the movement has played it or the director \
         releases it (duplicate Law 6: every table plays the same cards)"
    )))
}

/// The released boards among `sessions`, asked of scoring once per session.
pub async fn released_boards(
    peers: &Peers,
    sessions: &[&str],
) -> Result<std::collections::HashSet<(String, u32)>, ServiceError> {
    let mut released = std::collections::HashSet::new();
    let mut asked = std::collections::HashSet::new();
    for id in sessions.iter().filter(|s| asked.insert(**s)) {
        let held = session(peers, id).await?;
        released.extend(held.boards.iter().filter(|b| b.released).map(|b| (held.session_id.clone(), b.number)));
    }
    Ok(released)
}
