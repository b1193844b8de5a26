// A draw made with physical cards (Law 3), as the desk records it: each player draws a card from the
// spread, and the desk enters the card, where in the spread it lay (counted from one end, 0 to 51),
// the deck it came from and whether he drew more than one card at once. The server applies the Laws
// to what was drawn: a card the Laws reject (more than one card drawn, one of the four at either end
// of the spread, a card adjoining another drawn, the other deck) calls for a redraw, which the desk
// then records for those players alone, in the same draw.

import { type Card, Rank, Suit } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { type Draw, DrawStatus } from "@bridgeclub/client/gen/bridgeclub/membership/v1/draw_pb.js";
import type { PhysicalDrawing } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import type { NeededDraw } from "@bridgeclub/client/gen/bridgeclub/membership/v1/next_steps_pb.js";
import { useState } from "preact/hooks";

import { membership } from "./api.js";

const SUITS: Record<string, Suit> = { S: Suit.SPADES, H: Suit.HEARTS, D: Suit.DIAMONDS, C: Suit.CLUBS };
const RANKS = "23456789TJQKA";

/** A card as the desk types it: suit letter then rank ("SA", "H10", "dt"). */
export function parseCard(text: string): Card | undefined {
  const found = /^([SHDC])(10|[2-9TJQKA])$/.exec(text.trim().toUpperCase());
  if (!found) return undefined;
  const rank = (found[2] === "10" ? 10 : RANKS.indexOf(found[2]) + 2) as Rank;
  return { suit: SUITS[found[1]], rank } as Card;
}

/** What the server made of the cards: complete with its order, or who draws again and why. */
export function drawOutcome(draw: Draw | undefined): string {
  if (!draw) return "The draw is recorded.";
  if (draw.status === DrawStatus.COMPLETE) return `The draw is complete. Order: ${draw.order.join(", ")}.`;
  const rejected = draw.drawings
    .filter((d) => !d.valid && draw.awaitingPlayerIds.includes(d.playerId))
    .map((d) => `${d.playerId}${d.law?.text ? ` (${d.law.text})` : ""}`);
  return `To draw again: ${draw.awaitingPlayerIds.join(", ")}${rejected.length ? `; the card drawn by ${rejected.join(", ")} does not count` : ""}.`;
}

interface Row {
  card: string;
  position: string;
  deck: string;
  several: boolean;
}

export function PhysicalDrawForm({
  needed,
  onRecord,
}: {
  needed: NeededDraw;
  /** Records the cards drawn (continuing the open draw, if any). */
  onRecord: (drawings: PhysicalDrawing[]) => void;
}) {
  const drawing = needed.drawId ? needed.awaitingPlayerIds : needed.playerIds;
  // Positions far apart by default, so that no two drawn cards adjoin unless the desk says so.
  const [rows, setRows] = useState<Record<string, Row>>({});
  const row = (playerId: string, i: number): Row => rows[playerId] ?? { card: "", position: String(6 + 8 * i), deck: "1", several: false };
  const set = (playerId: string, i: number, change: Partial<Row>) => setRows((all) => ({ ...all, [playerId]: { ...row(playerId, i), ...change } }));
  const cards = drawing.map((playerId, i) => parseCard(row(playerId, i).card));
  return (
    <form
      class="physical-draw"
      aria-label="Draw with cards"
      onSubmit={(e) => {
        e.preventDefault();
        onRecord(
          drawing.map((playerId, i) => {
            const r = row(playerId, i);
            return { playerId, card: cards[i], spreadPosition: Number(r.position), deck: Number(r.deck), moreThanOneCard: r.several } as PhysicalDrawing;
          }),
        );
        setRows({});
      }}
    >
      <p class="summary">
        {needed.drawId ? "Redraw" : "Each draws a card from the spread"}
        {needed.decides ? `: ${needed.decides}` : ""}
        {needed.law?.text ? ` (${needed.law.text})` : ""}.
      </p>
      {drawing.map((playerId, i) => (
        <fieldset key={playerId} data-drawer={playerId}>
          <legend>{playerId}</legend>
          <label>
            {playerId}'s card (such as SA, H10, D7)
            <input name={`draw-card-${playerId}`} value={row(playerId, i).card} onInput={(e) => set(playerId, i, { card: e.currentTarget.value })} required autocapitalize="characters" spellcheck={false} />
          </label>
          <label>
            Position in the spread (0 to 51)
            <input name={`draw-position-${playerId}`} type="number" min={0} max={51} value={row(playerId, i).position} onInput={(e) => set(playerId, i, { position: e.currentTarget.value })} required />
          </label>
          <label>
            Deck
            <select name={`draw-deck-${playerId}`} value={row(playerId, i).deck} onChange={(e) => set(playerId, i, { deck: e.currentTarget.value })}>
              <option value="1">1</option>
              <option value="2">2</option>
            </select>
          </label>
          <label class="check">
            <input type="checkbox" name={`draw-several-${playerId}`} checked={row(playerId, i).several} onChange={() => set(playerId, i, { several: !row(playerId, i).several })} />
            Drew more than one card
          </label>
        </fieldset>
      ))}
      <button type="submit" disabled={cards.some((c) => !c)}>
        Record the cards drawn
      </button>
    </form>
  );
}

/** Records `drawings` for the table: a new draw of the kind `needed` names, or the open one continued. */
export async function recordPhysicalDraw(tableId: string, needed: NeededDraw, drawings: PhysicalDrawing[]): Promise<Draw | undefined> {
  const answer = await membership().recordPhysicalDraw(
    needed.drawId ? { tableId, drawId: needed.drawId, drawings } : { tableId, purpose: needed.purpose, playerIds: needed.playerIds, drawings },
  );
  return answer.draw;
}
