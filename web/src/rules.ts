// What the screens offer: only the calls and cards the Laws allow now, worked out from the viewer's
// own view. The server judges every call and card again (and refuses with the Law), so this only
// spares a player buttons that could not work.

import { type Call, type Card, clockwise, DENOMINATIONS, partnerOf, type Seat } from "./cards.js";
import { CallStatus, DealPhase, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";

/** The calls that stand, in order: cancelled and pending ones do not count. */
function standing(view: TableView) {
  return view.auction.filter((entry) => entry.status === CallStatus.LEGAL || entry.status === CallStatus.ACCEPTED);
}

const isOpponent = (a: Seat, b: Seat) => a !== b && partnerOf(a) !== b;

/** Whether `call` by `seat` is sufficient and allowed now (Laws 18, 19). */
export function callAllowed(view: TableView, seat: Seat, call: Call): boolean {
  if (view.phase !== DealPhase.AUCTION || view.nextToAct !== seat) return false;
  const calls = standing(view);
  const lastBid = [...calls].reverse().find((entry) => entry.call?.kind.case === "bid");
  const lastAction = [...calls].reverse().find((entry) => entry.call?.kind.case !== "pass");
  switch (call.kind.case) {
    case "pass":
      return true;
    case "bid": {
      if (!lastBid || lastBid.call?.kind.case !== "bid") return true;
      const rank = (level: number, denomination: number) => level * 10 + DENOMINATIONS.indexOf(denomination);
      const last = lastBid.call.kind.value;
      return rank(call.kind.value.level, call.kind.value.denomination) > rank(last.level, last.denomination);
    }
    case "double":
      return lastAction?.call?.kind.case === "bid" && isOpponent(lastAction.seat, seat);
    case "redouble":
      return lastAction?.call?.kind.case === "double" && isOpponent(lastAction.seat, seat);
    default:
      return false;
  }
}

/** The seat whose cards this viewer plays now: his own, or dummy's for declarer; none otherwise. */
export function seatToPlay(view: TableView): Seat | undefined {
  const me = view.viewer?.seat;
  const declarer = view.contract?.declarer;
  if (view.phase !== DealPhase.PLAY || !me || !declarer) return undefined;
  const dummy = partnerOf(declarer);
  if (view.nextToAct === me && me !== dummy) return me;
  if (me === declarer && view.nextToAct === dummy) return dummy;
  return undefined;
}

/** The trick being played, if one is under way. */
export function currentTrick(view: TableView) {
  const last = view.tricks[view.tricks.length - 1];
  return last && last.cards.length < 4 ? last : undefined;
}

/** Whether `card` from `seat`'s hand may be played now (following suit, Law 44). */
export function cardAllowed(view: TableView, seat: Seat, card: Card): boolean {
  if (seatToPlay(view) !== seat) return false;
  const led = currentTrick(view)?.cards[0]?.card?.suit;
  if (led === undefined || card.suit === led) return true;
  const hand = view.hands.find((h) => h.seat === seat)?.hand?.cards ?? [];
  return !hand.some((held) => held.suit === led);
}

/** How many cards `seat` still holds: 13 less those it played. */
export function cardsLeft(view: TableView, seat: Seat): number {
  const played = view.tricks.reduce((n, trick) => n + trick.cards.filter((c) => c.seat === seat).length, 0);
  return 13 - played;
}

/** The seats around the table as this viewer sits: himself at the bottom. */
export function around(view: TableView): { bottom: Seat; left: Seat; top: Seat; right: Seat } {
  const bottom = (view.viewer?.seat || 3) as Seat; // a spectator looks from South
  return { bottom, left: clockwise(bottom, 1), top: clockwise(bottom, 2), right: clockwise(bottom, 3) };
}
