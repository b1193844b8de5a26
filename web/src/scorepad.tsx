// A rubber's scorepad as it is kept on paper: a column for each side (the We and They of a
// player's pad, named by seats here since the desk reads it too), premiums
// above the line, each written above the one before, trick points below it, a line under each game won,
// struck entries struck through; live from the pad's stream.

import { Side } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import {
  type Scorepad as Pad,
  type ScoreEntry,
  ScoreLine,
  ScorepadStatus,
} from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scorepad_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { explain, scoring } from "./api.js";
import { SEAT_NAME } from "./cards.js";
import { useLive } from "./live.js";

const ITEM: Record<number, string> = {
  1: "tricks",
  2: "overtricks",
  3: "made doubled",
  4: "slam",
  5: "undertricks",
  6: "honours",
  7: "rubber",
  8: "unfinished game",
  9: "part score",
};

export function Scorepad({
  scorepadId,
  nextDeal,
  onPad,
}: {
  scorepadId: string;
  nextDeal?: (dealNumber: number) => void;
  /** Told of the pad each time it is read (the desk ends the rubber once its pad is finished). */
  onPad?: (pad: Pad) => void;
}) {
  const [pad, setPad] = useState<Pad>();
  const [error, setError] = useState<string>();
  const read = useCallback(async () => {
    try {
      const answer = await scoring().getScorepad({ scorepadId });
      if (answer.scorepad) {
        setPad(answer.scorepad);
        onPad?.(answer.scorepad);
      }
    } catch (e) {
      setError(explain(e));
    }
  }, [scorepadId]);
  useEffect(() => void read(), [read]);
  useLive(scorepadId, (after, signal) => scoring().watchScorepad({ scorepadId, afterSequence: after }, { signal }), () => void read());
  if (error && !pad) return <p role="alert" class="error">{error}</p>;
  if (!pad) return null;
  const finished = pad.status === ScorepadStatus.FINISHED;
  const names = (side: Side) =>
    pad.players
      .filter((p) => (side === Side.NORTH_SOUTH ? p.seat === 1 || p.seat === 3 : p.seat === 2 || p.seat === 4))
      .map((p) => p.playerId)
      .join(" & ");
  const entries = (side: Side, line: ScoreLine) => pad.entries.filter((e) => e.side === side && e.line === line);
  const games = Math.max(0, ...pad.entries.filter((e) => e.line === ScoreLine.BELOW).map((e) => e.gameNumber));
  const sides = [Side.NORTH_SOUTH, Side.EAST_WEST];
  const code = (side: Side) => (side === Side.NORTH_SOUTH ? "NS" : "EW");
  // One row of the sheet at a time, across both columns, so that the line and each game's rule
  // run straight across as on paper.
  const above = sides.map((side) => (
    <ol class="above" key={`above-${side}`} data-side={code(side)} aria-label={`${code(side)} above the line`}>
      {[...entries(side, ScoreLine.ABOVE)].reverse().map((e) => (
        <Entry entry={e} key={e.entryId} />
      ))}
    </ol>
  ));
  const below = Array.from({ length: Math.max(1, games) }, (_, i) => i + 1).flatMap((game) =>
    sides.map((side) => (
      <ol class="game" key={`game-${game}-${side}`} data-side={code(side)} aria-label={`${code(side)} below the line, game ${game}`}>
        {entries(side, ScoreLine.BELOW)
          .filter((e) => (e.gameNumber || 1) === game)
          .map((e) => (
            <Entry entry={e} key={e.entryId} />
          ))}
      </ol>
    )),
  );
  // A result struck and replaced (by a ruling or an appeal) is the same deal recorded again.
  const recorded = pad.deals.filter((d) => !d.struck).length;
  const score = (side: Side) => (side === Side.NORTH_SOUTH ? pad.northSouth : pad.eastWest);
  return (
    <section class="scorepad" aria-labelledby={`pad-${scorepadId}`} data-testid="scorepad">
      <h2 id={`pad-${scorepadId}`}>Scorepad</h2>
      <div class="pad">
        <div class="pad-head">
          <span>
            North–South<small>{names(Side.NORTH_SOUTH)}</small>
          </span>
          <span>
            East–West<small>{names(Side.EAST_WEST)}</small>
          </span>
        </div>
        <div class="pad-body">
          {above}
          {below}
        </div>
        <div class="pad-totals">
          <span data-testid="total-ns">{score(Side.NORTH_SOUTH)?.total ?? 0}</span>
          <span data-testid="total-ew">{score(Side.EAST_WEST)?.total ?? 0}</span>
        </div>
      </div>
      <p class="pad-summary">
        {recorded} {recorded === 1 ? "deal" : "deals"} recorded
        {pad.nextDeal && pad.status === ScorepadStatus.IN_PROGRESS
          ? `; next: deal ${pad.nextDeal.dealNumber}, dealt by ${SEAT_NAME[pad.nextDeal.dealer]}`
          : ""}
        {finished && pad.net ? `; the rubber is over: ${pad.net.winner === Side.NORTH_SOUTH ? "North-South" : "East-West"} by ${pad.net.margin}` : ""}
      </p>
      {nextDeal && pad.nextDeal && pad.status === ScorepadStatus.IN_PROGRESS && (
        <button type="button" onClick={() => nextDeal(pad.nextDeal!.dealNumber)}>
          Deal {pad.nextDeal.dealNumber}
        </button>
      )}
    </section>
  );
}

function Entry({ entry }: { entry: ScoreEntry }) {
  const text = `${entry.points}`;
  const what = ITEM[entry.item] ?? "";
  return (
    <li title={`deal ${entry.dealNumber}: ${what}`} aria-label={`${entry.points} for ${what}, deal ${entry.dealNumber}${entry.struck ? ", struck" : ""}`}>
      {entry.struck ? <s>{text}</s> : text}
    </li>
  );
}
