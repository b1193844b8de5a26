//! A rubber's line-up as every service takes it: from membership, which made it by the draw
//! (Law 3), never from the caller. A service that is told the players of a rubber fills them in
//! from the line-up when the caller gave none, and refuses them when they differ.

use api::common::v1::SeatedPlayer;
use api::membership::v1::Rubber;

use crate::ServiceError;

/// Fills `given` (the players a request named for `rubber`, at `field`) from the rubber's
/// line-up, or checks that each player given sits where the line-up seats him.
pub fn settle(rubber: &Rubber, field: &str, given: &mut Vec<SeatedPlayer>) -> Result<(), ServiceError> {
    if given.is_empty() {
        given.clone_from(&rubber.seats);
        return Ok(());
    }
    if given.len() != rubber.seats.len() {
        return Err(ServiceError::invalid(field, "four players, one at each seat, or none to take the line-up"));
    }
    for player in given.iter() {
        if rubber.seats.iter().any(|seated| seated.seat == player.seat && seated.player_id == player.player_id) {
            continue;
        }
        let holder = rubber.seats.iter().find(|s| s.seat == player.seat).map_or("nobody", |s| s.player_id.as_str());
        let seat = <laws::Seat as api::convert::ProtoEnum>::from_proto(field, player.seat)?;
        return Err(ServiceError::FailedPrecondition(format!(
            "{field}: {seat} of rubber {} is {holder}, not {}: a rubber is played by its line-up in the seats the \
             draw gave them (Law 3)",
            rubber.rubber_id, player.player_id
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seated(seat: api::common::v1::Seat, player: &str) -> SeatedPlayer {
        SeatedPlayer { seat: seat as i32, player_id: player.to_owned() }
    }

    fn rubber() -> Rubber {
        use api::common::v1::Seat::*;
        Rubber {
            rubber_id: "r".into(),
            seats: vec![seated(North, "n"), seated(East, "e"), seated(South, "s"), seated(West, "w")],
            ..Default::default()
        }
    }

    /// Law 3: "the two players who draw the highest cards play as partners against the other
    /// two players" and "his partner sits opposite him": the seats are the draw's.
    #[test]
    fn law_3_the_line_up_is_the_draw_s_and_a_caller_may_not_reseat_it() {
        use api::common::v1::Seat::*;
        let mut none = Vec::new();
        settle(&rubber(), "players", &mut none).unwrap();
        assert_eq!(none, rubber().seats, "filled in from the line-up");
        let mut same = vec![seated(South, "s"), seated(West, "w"), seated(North, "n"), seated(East, "e")];
        settle(&rubber(), "players", &mut same).unwrap();
        let mut swapped = vec![seated(North, "s"), seated(East, "e"), seated(South, "n"), seated(West, "w")];
        let refused = settle(&rubber(), "players", &mut swapped).unwrap_err().to_string();
        assert!(refused.contains("North of rubber r is n, not s") && refused.contains("Law 3"), "{refused}");
        let mut stranger = vec![seated(North, "n"), seated(East, "x"), seated(South, "s"), seated(West, "w")];
        assert!(settle(&rubber(), "players", &mut stranger).is_err());
        let mut three = vec![seated(North, "n"), seated(East, "e"), seated(South, "s")];
        assert!(matches!(settle(&rubber(), "players", &mut three), Err(ServiceError::InvalidArgument(_))));
    }
}
