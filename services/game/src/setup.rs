//! A StartDeal request checked and resolved: the setup's source, kind, mode and players, the
//! dealer and vulnerability (a board's from its number, duplicate Law 2), and the cards.

use api::common::v1 as pb;
use api::convert::{ProtoEnum, deal_from_pbn, required};
use api::game::v1 as game;
use laws::deal::Board;
use laws::{Deal, Seat, Vulnerability};
use platform::ServiceError;

/// A start request, checked.
pub struct Resolved {
    /// The setup with dealer and vulnerability filled in.
    pub setup: game::DealSetup,
    /// Digital (the server deals) or recorded.
    pub digital: bool,
    /// The hands the table entered, for a recorded deal.
    pub entered: Option<Deal>,
    /// The board, for a duplicate deal: session and number.
    pub board: Option<(String, u32)>,
}

/// Checks a StartDeal request; every refusal names the field.
pub fn resolve(request: &game::StartDealRequest) -> Result<Resolved, ServiceError> {
    let mut setup = required("setup", request.setup.clone())?;
    let kind = pb::TableKind::try_from(setup.kind).ok().filter(|k| *k != pb::TableKind::Unspecified);
    let kind = kind.ok_or_else(|| ServiceError::invalid("setup.kind", "rubber, Chicago or duplicate is required"))?;
    let digital = match game::PlayMode::try_from(setup.mode) {
        Ok(game::PlayMode::Digital) => true,
        Ok(game::PlayMode::Recorded) => false,
        _ => return Err(ServiceError::invalid("setup.mode", "digital or recorded is required")),
    };
    let board = match required("setup.source", setup.source.clone())? {
        game::deal_setup::Source::Rubber(rubber) => {
            if kind == pb::TableKind::Duplicate {
                return Err(ServiceError::invalid("setup.kind", "a rubber's deal is rubber or Chicago, not duplicate"));
            }
            if rubber.scorepad_id.is_empty() {
                return Err(ServiceError::invalid("setup.rubber.scorepad_id", "missing; the result is scored there"));
            }
            if rubber.deal_number == 0 {
                return Err(ServiceError::invalid("setup.rubber.deal_number", "deals are numbered from 1"));
            }
            if kind == pb::TableKind::Chicago && rubber.deal_number > 4 {
                return Err(ServiceError::invalid(
                    "setup.rubber.deal_number",
                    "a Chicago rubber has four deals (Appendix 4 B)",
                ));
            }
            // Unspecified: taken from the rubber's scorepad (crate::owners).
            if setup.dealer != pb::Seat::Unspecified as i32 {
                Seat::from_proto("setup.dealer", setup.dealer)?;
            }
            if setup.vulnerability != pb::Vulnerability::Unspecified as i32 {
                Vulnerability::from_proto("setup.vulnerability", setup.vulnerability)?;
            }
            None
        }
        game::deal_setup::Source::Board(board) => {
            if kind != pb::TableKind::Duplicate {
                return Err(ServiceError::invalid("setup.kind", "a duplicate board is played as duplicate"));
            }
            if board.session_id.is_empty() {
                return Err(ServiceError::invalid("setup.board.session_id", "missing; the session is required"));
            }
            // The contestants may be left out: the session's movement names them (crate::owners).
            let number = Board::new(board.board_number)
                .map_err(|e| ServiceError::invalid("setup.board.board_number", e.to_string()))?;
            // Duplicate Law 2: a board's dealer and vulnerability follow from its number.
            if setup.dealer == pb::Seat::Unspecified as i32 {
                setup.dealer = number.dealer().to_proto();
            }
            if setup.vulnerability == pb::Vulnerability::Unspecified as i32 {
                setup.vulnerability = number.vulnerability().to_proto();
            }
            Seat::from_proto("setup.dealer", setup.dealer)?;
            Vulnerability::from_proto("setup.vulnerability", setup.vulnerability)?;
            Some((board.session_id.clone(), board.board_number))
        }
    };
    // A rubber's line-up is membership's: a caller may leave it out and have it filled in
    // (crate::owners); a board's players are the caller's to name.
    let lineup_from_rubber = board.is_none() && setup.players.is_empty();
    let mut seats = [false; 4];
    if setup.players.len() != 4 && !lineup_from_rubber {
        return Err(ServiceError::invalid("setup.players", "four players are required, one at each seat"));
    }
    for (i, player) in setup.players.iter().enumerate() {
        let seat = Seat::from_proto(&format!("setup.players[{i}].seat"), player.seat)?;
        if std::mem::replace(&mut seats[seat.index()], true) {
            return Err(ServiceError::invalid(&format!("setup.players[{i}].seat"), format!("{seat} is given twice")));
        }
        if player.player_id.is_empty() {
            return Err(ServiceError::invalid(&format!("setup.players[{i}].player_id"), "missing"));
        }
        if setup.players[..i].iter().any(|p| p.player_id == player.player_id) {
            return Err(ServiceError::invalid(
                &format!("setup.players[{i}].player_id"),
                format!("{} already holds another seat", player.player_id),
            ));
        }
    }
    if setup.result_only && digital {
        return Err(ServiceError::invalid(
            "setup.result_only",
            "only a recorded deal (physical cards) enters only its result",
        ));
    }
    let entered = match &request.hands {
        None => None,
        Some(_) if digital => {
            return Err(ServiceError::invalid("hands", "a digital deal is dealt by the server; hands are not given"));
        }
        Some(game::start_deal_request::Hands::Deal(deal)) => {
            Some(Deal::try_from(deal.clone()).map_err(|e| e.within("deal"))?)
        }
        Some(game::start_deal_request::Hands::DealPbn(pbn)) => Some(deal_from_pbn("deal_pbn", pbn)?),
    };
    Ok(Resolved { setup, digital, entered, board })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> game::StartDealRequest {
        let players = ["n", "e", "s", "w"];
        game::StartDealRequest {
            table_id: "t".into(),
            expected_version: 0,
            idempotency_key: "k".into(),
            setup: Some(game::DealSetup {
                source: Some(game::deal_setup::Source::Board(game::DuplicateBoard {
                    session_id: "s".into(),
                    board_number: 20,
                    north_south_contestant_id: "ns".into(),
                    east_west_contestant_id: "ew".into(),
                })),
                kind: pb::TableKind::Duplicate as i32,
                mode: game::PlayMode::Digital as i32,
                players: Seat::ALL
                    .iter()
                    .map(|s| pb::SeatedPlayer { seat: s.to_proto(), player_id: players[s.index()].into() })
                    .collect(),
                ..Default::default()
            }),
            hands: None,
        }
    }

    #[test]
    fn duplicate_law_2_a_board_takes_its_dealer_and_vulnerability_from_its_number() {
        let resolved = resolve(&request()).unwrap();
        assert_eq!(resolved.setup.dealer, pb::Seat::West as i32, "board 20 is board 4 of the second sixteen");
        assert_eq!(resolved.setup.vulnerability, pb::Vulnerability::Both as i32);
        assert_eq!(resolved.board, Some(("s".to_owned(), 20)));
    }

    #[test]
    fn refusals_name_the_field() {
        let error = |change: fn(&mut game::StartDealRequest)| {
            let mut request = request();
            change(&mut request);
            match resolve(&request) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("accepted"),
            }
        };
        assert!(
            error(|r| r.setup.as_mut().unwrap().players[1].seat = pb::Seat::North as i32)
                .starts_with("setup.players[1].seat: North is given twice")
        );
        assert!(
            error(|r| r.setup.as_mut().unwrap().players.pop().map(drop).unwrap_or(()))
                .starts_with("setup.players: four players")
        );
        assert!(error(|r| r.setup.as_mut().unwrap().kind = pb::TableKind::Rubber as i32).starts_with("setup.kind"));
        assert!(
            error(|r| r.hands = Some(game::start_deal_request::Hands::DealPbn("N:".into())))
                .starts_with("hands: a digital deal is dealt by the server")
        );
        assert!(error(|r| r.setup.as_mut().unwrap().result_only = true).starts_with("setup.result_only"));
    }
}
