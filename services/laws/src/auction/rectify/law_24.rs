//! Law 24: cards exposed or led during the auction. Apart because what is irregular is cards,
//! not a call: no call is cancelled.

use crate::auction::Auction;
use crate::cards::Card;
use crate::irregularities::auction::{AuctionOption, CallRequirement, Effect, OptionKind, PassDuration};
use crate::law::Law;
use crate::seat::Seat;

use super::bar;

impl Auction {
    /// Law 24: cards exposed or led during the auction.
    pub(super) fn exposed_cards_options(&self, offender: Seat, cards: &[Card], led: bool) -> Vec<AuctionOption> {
        let lho = offender.lho();
        let partner = offender.partner();
        let dup = self.is_duplicate();
        let single_low = cards.len() == 1 && !cards[0].rank.is_honor() && !led;
        let mut enforce = vec![Effect::PenaltyCardsIfDefender { offender, cards: cards.to_vec(), led }];
        let section = match (single_low, dup, cards.len() > 1 && !led) {
            (true, _, _) => "A",
            (false, true, true) => "C",
            _ => "B",
        };
        if !single_low {
            enforce.push(bar(partner, PassDuration::NextTurn, self.cite(24, section, section)));
            enforce.push(self.damage(offender));
        }
        if dup {
            enforce.push(Effect::UnauthorizedInformation { side: offender.side(), law: Law::duplicate(24, "") });
        }
        let law = self.cite(24, section, section);
        let mut options =
            vec![Self::option(OptionKind::Enforce, self.enforcer(), None, law, CallRequirement::None, enforce)];
        if !dup {
            options.push(self.waive_option(Vec::new()));
            if self.turn() == lho && !self.is_closed() {
                options.push(Self::accept_by_calling(
                    lho,
                    Law::rubber(15, "B"),
                    vec![Effect::CallMade { seat: lho, call: None }],
                ));
            }
        }
        options
    }
}
