// The draws at a table (Law 3; Rules for Club Procedure): what each decided, each player's card,
// and the order the cards gave. Cards of a draw are not cards of a deal, so they carry no data-card.

import { type Draw, DrawPurpose, DrawStatus } from "@bridgeclub/client/gen/bridgeclub/membership/v1/draw_pb.js";
import { useEffect, useState } from "preact/hooks";

import { membership } from "./api.js";
import { isRed, rankText, SUIT_SYMBOL } from "./cards.js";

const PURPOSE: Record<number, string> = {
  [DrawPurpose.PARTNERSHIPS]: "Partnerships",
  [DrawPurpose.PRECEDENCE]: "Precedence",
  [DrawPurpose.GOING_OUT]: "Going out",
  [DrawPurpose.ENTRY_FROM_OTHER_TABLE]: "Entry from another table",
};

/** The table's completed draws, newest first; read again whenever `generation` changes. */
export function Draws({ tableId, generation, nested = false }: { tableId: string; generation?: unknown; nested?: boolean }) {
  // Below the table's own heading: h3 on the player's table, h4 inside the desk's table card.
  const Heading = nested ? "h4" : "h3";
  const [draws, setDraws] = useState<Draw[]>([]);
  useEffect(() => {
    membership()
      .listDraws({ tableId })
      .then((answer) => setDraws(answer.draws.filter((d) => d.status === DrawStatus.COMPLETE).reverse()))
      .catch(() => setDraws([]));
  }, [tableId, generation]);
  if (draws.length === 0) return null;
  return (
    <details class="draws">
      <summary>The draw{draws.length > 1 ? "s" : ""}</summary>
      {draws.map((draw) => (
        <section key={draw.drawId} aria-label={`${PURPOSE[draw.purpose] ?? "Draw"} draw`}>
          <Heading>
            {PURPOSE[draw.purpose] ?? "Draw"} <small>({draw.method === 1 ? "drawn by the server" : "physical cards"})</small>
          </Heading>
          <ul class="drawn">
            {draw.drawings
              .filter((d) => d.valid)
              .map((d) => (
                <li key={`${d.playerId}-${d.spreadPosition}`}>
                  {d.playerId}:{" "}
                  {d.card && (
                    <span class={isRed(d.card.suit) ? "red" : ""}>
                      {SUIT_SYMBOL[d.card.suit]}
                      {rankText(d.card.rank)}
                    </span>
                  )}
                </li>
              ))}
          </ul>
          {draw.order.length > 0 && <p>Order: {draw.order.join(", ")}</p>}
        </section>
      ))}
    </details>
  );
}
