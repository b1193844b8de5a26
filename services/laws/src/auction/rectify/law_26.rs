//! Law 26 of the Laws of Rubber Bridge: the lead penalty for a call changed or withdrawn, by
//! what the changed call and the final call at that turn specify. Apart because every Law that
//! withdraws a call under the rubber Laws applies it, at the time of the choice or later.

use crate::cards::SuitSet;
use crate::irregularities::auction::{RecordedCall, Specifies};
use crate::law::Law;
use crate::penalty::LeadPenalty;

/// A call with what it relates to if artificial ([`CallEntry::relates_to`](crate::auction::CallEntry::relates_to)).
pub(super) type Related = (RecordedCall, Option<SuitSet>);

/// Rubber Law 26: the penalty for changing `changed` when the offender's final call at that
/// turn is `final_call`, with the section that gives it.
///
/// "A. if the changed call was in a suit, and the substituted call did not repeat that suit,
/// declarer may either require the offender's partner to lead, or prohibit him from leading,
/// such suit ... When the irregular call artificially relates to a denomination other than the
/// one actually named, 'such suit' is the suit or suits to which the call relates." So a bid is
/// "in a suit" when it specifies one or more suits ([`Specifies`]): a natural suit bid, or an
/// artificial bid (notrump included) relating to suits; the suits it relates to that the final
/// call does not also specify are "such suit". "B. if the changed call was 1. in no-trump and
/// the player's final call at that turn was not, or 2. pass, double or redouble": a natural
/// notrump bid not followed by a natural notrump bid, and a pass, double or redouble. Our
/// reading for an artificial bid relating to no suit (a strong 2C, an asking bid), which the
/// Law names in neither section: it specifies no denomination, like a pass, double or
/// redouble, so 26B applies.
pub(super) fn rubber_26(changed: Related, final_call: Option<Related>) -> Option<(LeadPenalty, Law)> {
    if final_call == Some(changed) {
        // A call "changed" to itself was not changed.
        return None;
    }
    let finally = final_call.map_or(Specifies::Nothing, |(call, relates_to)| Specifies::of(call, relates_to));
    let forbid_any = Some((LeadPenalty::ForbidAnyOneSuit, Law::rubber(26, "B")));
    match changed {
        (RecordedCall::Bid { .. }, relates_to) => match Specifies::of(changed.0, relates_to) {
            Specifies::Suits(suits) => {
                let not_repeated = suits.difference(finally.suits());
                (!not_repeated.is_empty())
                    .then(|| (LeadPenalty::RequireOrForbid(not_repeated.to_vec()), Law::rubber(26, "A")))
            }
            Specifies::NoTrump if finally == Specifies::NoTrump => None,
            Specifies::NoTrump | Specifies::Nothing => forbid_any,
        },
        (RecordedCall::Pass | RecordedCall::Double | RecordedCall::Redouble, _) => forbid_any,
    }
}
