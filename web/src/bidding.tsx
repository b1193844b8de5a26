// The auction as the familiar grid, and the bidding box, as a player calls from it and as a recorder
// of physical cards enters calls.

import type { AuctionEntry, TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";

import { type Call, callName, callText, DENOMINATION_SYMBOL, DENOMINATIONS, isRedDenomination, SEAT_NAME, type Seat } from "./cards.js";
import { callAllowed } from "./rules.js";

/**
 * The auction as the familiar grid: West, North, East, South, from the dealer's column. A cancelled
 * call (status 3) is kept, in brackets.
 */
export function AuctionGrid({ dealer, auction }: { dealer: Seat | undefined; auction: AuctionEntry[] }) {
  const order = [4, 1, 2, 3];
  const cells: (string | undefined)[] = Array(Math.max(0, order.indexOf(dealer || 1))).fill(undefined);
  for (const entry of auction) cells.push(entry.status === 3 ? `(${callText(entry.call)})` : callText(entry.call));
  const rows: (string | undefined)[][] = [];
  for (let i = 0; i < cells.length; i += 4) rows.push(cells.slice(i, i + 4));
  return (
    <table class="auction">
      <caption>Auction</caption>
      <thead>
        <tr>
          {order.map((seat) => (
            <th scope="col" key={seat}>
              {SEAT_NAME[seat]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {[0, 1, 2, 3].map((j) => (
              <td key={j}>{row[j] ?? ""}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function callCode(call: Call): string {
  switch (call.kind.case) {
    case "bid":
      return `${call.kind.value.level}${"CDHSN"[DENOMINATIONS.indexOf(call.kind.value.denomination)]}`;
    case "pass":
      return "P";
    case "double":
      return "X";
    case "redouble":
      return "XX";
    default:
      return "";
  }
}

/**
 * The bidding box: every bid, pass, double and redouble. A player's box enables only the calls the
 * Laws allow him now; a recorder's (`anyCall`, physical cards) enables every call, since what was
 * called at the table is a fact to record, an insufficient bid or a call out of rotation included,
 * which the server then rectifies.
 */
export function BiddingBox({
  view,
  seat,
  onCall,
  busy,
  anyCall = false,
}: {
  view: TableView;
  seat: Seat;
  onCall: (seat: Seat, call: Call) => void;
  busy: boolean;
  anyCall?: boolean;
}) {
  const button = (call: Call, extra = "") => {
    const allowed = !busy && (anyCall || callAllowed(view, seat, call));
    return (
      <button
        type="button"
        class={`call ${extra}`}
        key={callCode(call)}
        data-call={callCode(call)}
        disabled={!allowed}
        // The visible text first (for voice control, which goes by what is seen), then in words.
        aria-label={`${callText(call)}, ${callName(call)}`}
        onClick={() => onCall(seat, call)}
      >
        {call.kind.case === "bid" ? (
          <>
            {call.kind.value.level}
            <span class={isRedDenomination(call.kind.value.denomination) ? "red" : ""}>{DENOMINATION_SYMBOL[call.kind.value.denomination]}</span>
          </>
        ) : (
          callText(call)
        )}
      </button>
    );
  };
  const mine = view.nextToAct === seat;
  return (
    <section class="bidding-box" aria-label="Bidding box">
      <p class="hint">
        {anyCall ? `${SEAT_NAME[seat]}'s call` : mine ? "Your call" : `Waiting for ${SEAT_NAME[view.nextToAct] ?? "the table"}`}
      </p>
      <div class="bids">
        {[1, 2, 3, 4, 5, 6, 7].map((level) => (
          <div class="level" role="group" aria-label={`Level ${level}`} key={level}>
            {DENOMINATIONS.map((denomination) =>
              button({ kind: { case: "bid", value: { level, denomination } } } as Call),
            )}
          </div>
        ))}
      </div>
      <div class="others">
        {button({ kind: { case: "pass", value: {} } } as Call, "pass")}
        {button({ kind: { case: "double", value: {} } } as Call, "double")}
        {button({ kind: { case: "redouble", value: {} } } as Call, "redouble")}
      </div>
    </section>
  );
}

