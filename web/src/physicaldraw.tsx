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

/** One card drawn, as the desk types it. */
export interface DrawnRow {
  card: string;
  position: string;
  deck: string;
  several: boolean;
}

/** A fresh row, the `i`th of a draw: positions far apart, so that no two drawn cards adjoin unless the desk says so. */
export const freshRow = (i: number): DrawnRow => ({ card: "", position: String(6 + 8 * i), deck: "1", several: false });

/** The row as the server takes it, or undefined while its card does not parse. */
export function toDrawing(playerId: string, row: DrawnRow): PhysicalDrawing | undefined {
  const card = parseCard(row.card);
  if (!card) return undefined;
  return { playerId, card, spreadPosition: Number(row.position), deck: Number(row.deck), moreThanOneCard: row.several } as PhysicalDrawing;
}

/** The fields of one card drawn: the card, where in the spread it lay, the deck, and whether he drew several. */
export function DrawnCardFields({ playerId, name, row, onChange }: { playerId: string; name: string; row: DrawnRow; onChange: (change: Partial<DrawnRow>) => void }) {
  return (
    <fieldset data-drawer={playerId}>
      <legend>{playerId}</legend>
      <label>
        {playerId}'s card (such as SA, H10, D7)
        <input name={`draw-card-${name}`} value={row.card} onInput={(e) => onChange({ card: e.currentTarget.value })} required autocapitalize="characters" spellcheck={false} />
      </label>
      <label>
        Position in the spread (0 to 51)
        <input name={`draw-position-${name}`} type="number" min={0} max={51} value={row.position} onInput={(e) => onChange({ position: e.currentTarget.value })} required />
      </label>
      <label>
        Deck
        <select name={`draw-deck-${name}`} value={row.deck} onChange={(e) => onChange({ deck: e.currentTarget.value })}>
          <option value="1">1</option>
          <option value="2">2</option>
        </select>
      </label>
      <label class="check">
        <input type="checkbox" name={`draw-several-${name}`} checked={row.several} onChange={() => onChange({ several: !row.several })} />
        Drew more than one card
      </label>
    </fieldset>
  );
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
  const [rows, setRows] = useState<Record<string, DrawnRow>>({});
  const row = (playerId: string, i: number): DrawnRow => rows[playerId] ?? freshRow(i);
  const set = (playerId: string, i: number, change: Partial<DrawnRow>) => setRows((all) => ({ ...all, [playerId]: { ...row(playerId, i), ...change } }));
  const drawings = drawing.map((playerId, i) => toDrawing(playerId, row(playerId, i)));
  return (
    <form
      class="physical-draw"
      aria-label="Draw with cards"
      onSubmit={(e) => {
        e.preventDefault();
        if (drawings.some((d) => !d)) return;
        onRecord(drawings as PhysicalDrawing[]);
        setRows({});
      }}
    >
      <p class="summary">
        {needed.drawId ? "Redraw" : "Each draws a card from the spread"}
        {needed.decides ? `: ${needed.decides}` : ""}
        {needed.law?.text ? ` (${needed.law.text})` : ""}.
      </p>
      {drawing.map((playerId, i) => (
        <DrawnCardFields key={playerId} playerId={playerId} name={playerId} row={row(playerId, i)} onChange={(change) => set(playerId, i, change)} />
      ))}
      <button type="submit" disabled={drawings.some((d) => !d)}>
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
