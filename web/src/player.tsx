// A member's screens: the room (arrive, apply to a table, wait to be seated), then, once a rubber he
// plays in is under way, his table. Live from the room's stream.

import { type Table } from "@bridgeclub/client/gen/bridgeclub/membership/v1/table_pb.js";
import { RubberStatus } from "@bridgeclub/client/gen/bridgeclub/membership/v1/rubber_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { explain, membership } from "./api.js";
import { SEAT_NAME } from "./cards.js";
import { Draws } from "./draws.js";
import { useLive } from "./live.js";
import { Rulings } from "./rulings.js";
import { ScreenHeading, TableScreen } from "./table.js";

export function Player({ playerId }: { playerId: string }) {
  const [tables, setTables] = useState<Table[]>();
  const [present, setPresent] = useState<boolean>();
  const [error, setError] = useState<string>();
  const read = useCallback(async () => {
    try {
      const [room, listed] = await Promise.all([membership().listPresentPlayers({}), membership().listTables({})]);
      setPresent(room.present.some((p) => p.playerId === playerId));
      setTables(listed.tables);
    } catch (e) {
      setError(explain(e));
    }
  }, [playerId]);
  useEffect(() => void read(), [read]);
  const live = useLive("room", (after, signal) => membership().watchRoom({ afterSequence: after }, { signal }), () => void read());

  const act = (action: () => Promise<unknown>) => async () => {
    setError(undefined);
    try {
      await action();
      await read();
    } catch (e) {
      setError(explain(e));
    }
  };

  const playing = tables?.find(
    (t) => t.currentRubber?.status === RubberStatus.IN_PROGRESS && t.currentRubber.seats.some((s) => s.playerId === playerId),
  );
  if (playing) {
    return (
      <>
        <TableScreen tableId={playing.tableId} title={playing.name} />
        <Rulings playerId={playerId} />
      </>
    );
  }

  return (
    <section aria-labelledby="room-title" class="room">
      <ScreenHeading title={<h1 id="room-title">The room</h1>} live={live} error={error} />
      {present === false && (
        <button type="button" onClick={act(() => membership().arriveInRoom({ playerId }))}>
          I have arrived
        </button>
      )}
      {present && <p data-testid="waiting">You are in the room. The desk seats you; your table opens here when your rubber starts.</p>}
      <h2>Tables</h2>
      {tables?.length === 0 && <p>No table is open yet.</p>}
      <ul class="tables">
        {tables?.map((table) => {
          const member = table.members.some((m) => m.playerId === playerId);
          const waiting = table.queue.find((a) => a.playerId === playerId && a.queuePosition > 0);
          const seat = table.currentRubber?.seats.find((s) => s.playerId === playerId);
          return (
            <li class="card" key={table.tableId}>
              <h3>{table.name}</h3>
              <p>{table.members.map((m) => m.playerId).join(", ") || "no members yet"}</p>
              {table.nextSteps?.summary && <p class="summary">{table.nextSteps.summary}</p>}
              {seat && <p>You sit {SEAT_NAME[seat.seat]}.</p>}
              {waiting && <p>You are number {waiting.queuePosition} in the queue.</p>}
              <Draws tableId={table.tableId} generation={table.version} nested />
              {!member && !waiting && present && (
                <button type="button" onClick={act(() => membership().applyToTable({ tableId: table.tableId, playerId }))}>
                  Apply to {table.name}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <Rulings playerId={playerId} />
    </section>
  );
}
