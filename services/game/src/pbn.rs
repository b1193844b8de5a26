//! Finished deals as PBN 2.1 games (Event, Site, Date, Board, the players, Dealer, Vulnerable,
//! Deal, Declarer, Contract, Result, Auction and Play tags), readable by any PBN reader.

use std::fmt::Write;

use api::game::v1 as game;
use laws::Seat;
use laws::pbn::{GameResult, result_tags, tag};
use laws::table::{DealResult, Viewer, sees_finished_deal};

use crate::render::DealContext;

/// The PBN file header.
pub const HEADER: &str = "% PBN 2.1\n% EXPORT\n%Creator: bridge-club\n";

/// One game: the deal's tags, its auction (the calls that stand) and its play, trick by trick in
/// the columns of the player on lead to the first trick (PBN 2.1, section 3.4). `viewer` decides
/// whether the hands are written (a duplicate board's are for the official only).
pub fn game(context: &DealContext<'_>, viewer: Viewer) -> String {
    let state = context.state;
    let mut out = String::new();
    let date = context
        .actions
        .first()
        .and_then(|a| a.at)
        .and_then(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
        .map(|t| t.format("%Y.%m.%d").to_string())
        .unwrap_or_else(|| "?".to_owned());
    let board = match &context.setup.source {
        Some(game::deal_setup::Source::Board(b)) => b.board_number,
        Some(game::deal_setup::Source::Rubber(r)) => r.deal_number,
        None => 0,
    };
    let players = crate::translate::players(context.setup);
    tag(&mut out, "Event", "bridge club");
    tag(&mut out, "Site", &format!("table {}", context.table_id));
    tag(&mut out, "Date", &date);
    tag(&mut out, "Board", &board.to_string());
    for seat in [Seat::West, Seat::North, Seat::East, Seat::South] {
        tag(&mut out, &seat.to_string(), &players[seat.index()]);
    }
    tag(&mut out, "Dealer", &state.setup().dealer.letter().to_string());
    tag(&mut out, "Vulnerable", state.setup().vulnerability.pbn());
    let hands_visible = viewer == Viewer::Official || sees_finished_deal(viewer, state.code());
    match state.deal().filter(|_| hands_visible) {
        Some(deal) => tag(&mut out, "Deal", &deal.to_pbn(state.setup().dealer)),
        None => tag(&mut out, "Deal", ""),
    }
    let result = match state.outcome().and_then(|o| o.result) {
        Some(DealResult::Played { contract, tricks }) => {
            GameResult::Played { contract: contract.contract, declarer: contract.declarer, tricks }
        }
        Some(DealResult::PassedOut) => GameResult::PassedOut,
        None => GameResult::Unknown,
    };
    result_tags(&mut out, result);
    let calls: Vec<String> = state.auction().standing_calls().map(|(_, call)| call.to_string()).collect();
    if !calls.is_empty() {
        tag(&mut out, "Auction", &state.auction().dealer().letter().to_string());
        for row in calls.chunks(4) {
            let _ = writeln!(out, "{}", row.join(" "));
        }
    }
    if let Some(play) = state.play().filter(|p| !p.tricks().is_empty()) {
        let leader = play.tricks()[0].leader();
        tag(&mut out, "Play", &leader.letter().to_string());
        for trick in play.tricks() {
            let row: Vec<String> =
                (0..4).map(|i| trick.card(leader.after(i)).map_or_else(|| "-".to_owned(), |c| c.to_string())).collect();
            let _ = writeln!(out, "{}", row.join(" "));
        }
        let _ = writeln!(out, "*");
    }
    out
}
