// The movement and the director's parts of the sessions screen (sessions.tsx). The movement (duplicate
// Law 8A): which table plays which board between which contestants, as the desk sends tables round
// by round or the director sets it at once; each board shows whether it may be shown to everyone
// (every table sent to it has a result, the director released it, or the score is published). The
// director releases a board early (one table cannot play it), and rates a fouled board in groups
// (Law 87B: each table compared only with the tables that played the same form of it).

import type { BoardResult, Session as ScoredSession } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import { ContestantKind } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import { useState } from "preact/hooks";

import { scoring } from "./api.js";
import { boardLabel, useBoardKey } from "./session-forms.js";
import type { SessionAct } from "./sessions.js";

const nameOf = (session: ScoredSession, id: string) => session.contestants.find((c) => c.contestantId === id)?.name || id;

/** The movement as it stands, by board, and (for those who may) a form that sends a table to a board. */
export function Movement({ session, canAssign, canRelease, act }: { session: ScoredSession; canAssign: boolean; canRelease: boolean; act: SessionAct }) {
  const [table, setTable] = useState("");
  const { fields, key } = useBoardKey(session, "movement");
  return (
    <section class="card" aria-labelledby="movement-title">
      <h3 id="movement-title">Movement</h3>
      {session.movement.length === 0 && <p>No table has been sent to a board yet.</p>}
      <ul class="movement">
        {session.boards
          .filter((b) => session.movement.some((m) => m.boardNumber === b.number) || b.released)
          .map((b) => (
            <li key={b.number} data-movement-board={b.number}>
              <strong>Board {b.number}</strong> {b.released ? <span class="chip status-decided">may be shown to everyone</span> : <span class="chip status-filed">not yet shown</span>}
              <ul>
                {session.movement
                  .filter((m) => m.boardNumber === b.number)
                  .map((m) => (
                    <li key={m.tableId} data-table={m.tableId}>
                      Table {m.tableId}: {nameOf(session, m.northSouthContestantId)} (North–South) against {nameOf(session, m.eastWestContestantId)} (East–West)
                    </li>
                  ))}
              </ul>
              {canRelease && !b.released && (
                <button
                  type="button"
                  class="quiet small"
                  onClick={() =>
                    void act(async () => {
                      await scoring().releaseBoard({ sessionId: session.sessionId, boardNumber: b.number });
                      return `Board ${b.number} is released: its hands and play may be shown to everyone.`;
                    })
                  }
                >
                  Release board {b.number}
                </button>
              )}
            </li>
          ))}
      </ul>
      {canAssign && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              await scoring().assignTables({
                sessionId: session.sessionId,
                assignments: [{ tableId: table.trim(), boardNumber: key.boardNumber, northSouthContestantId: key.northSouthContestantId, eastWestContestantId: key.eastWestContestantId }],
              });
              return `Table ${table.trim()} plays board ${key.boardNumber}: ${nameOf(session, key.northSouthContestantId)} against ${nameOf(session, key.eastWestContestantId)}.`;
            });
          }}
        >
          <label>
            Table
            <input name="movement-table" value={table} onInput={(e) => setTable(e.currentTarget.value)} required />
          </label>
          {fields}
          <button type="submit">Send the table to the board</button>
        </form>
      )}
    </section>
  );
}

/**
 * A fouled board (Law 87B), pairs only: the form each table played, named by its North–South
 * contestant (0 the correct form, 1, 2, ... each changed form the director distinguishes); the
 * server rates the board in groups and re-ranks the session.
 */
export function FouledBoardForm({ session, results, act }: { session: ScoredSession; results: BoardResult[]; act: SessionAct }) {
  const boards = session.boards.filter((b) => results.some((r) => r.key?.boardNumber === b.number));
  const [board, setBoard] = useState(boards[0]?.number ?? 0);
  const [forms, setForms] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  if (session.contestantKind !== ContestantKind.PAIRS || boards.length === 0) return null;
  const chosen = boards.some((b) => b.number === board) ? board : boards[0].number;
  const tables = results.filter((r) => r.key?.boardNumber === chosen);
  return (
    <details class="card">
      <summary>A fouled board (Law 87B)</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const changed = tables
            .map((r) => ({ northSouthContestantId: r.key?.northSouthContestantId ?? "", form: Number(forms[`${chosen}:${r.key?.northSouthContestantId}`] || "0") }))
            .filter((f) => f.form > 0);
          void act(async () => {
            await scoring().markFouledBoard({ sessionId: session.sessionId, boardNumber: chosen, forms: changed, reason: reason.trim() });
            return changed.length > 0
              ? `Board ${chosen} is rated in groups: each table against the tables that played the same form.`
              : `Board ${chosen} is rated as one group again.`;
          });
        }}
      >
        <label>
          Board
          <select name="fouled-board" value={chosen} onChange={(e) => setBoard(Number(e.currentTarget.value))}>
            {boards.map((b) => (
              <option key={b.number} value={b.number}>
                {boardLabel(b)}
              </option>
            ))}
          </select>
        </label>
        {tables.map((r) => {
          const key = `${chosen}:${r.key?.northSouthContestantId}`;
          return (
            <label key={key}>
              Form played with {nameOf(session, r.key?.northSouthContestantId ?? "")} North–South (0: the correct one)
              <input
                name={`fouled-form-${r.key?.northSouthContestantId}`}
                type="number"
                min={0}
                max={9}
                value={forms[key] ?? "0"}
                onInput={(e) => {
                  const value = e.currentTarget.value;
                  setForms((all) => ({ ...all, [key]: value }));
                }}
              />
            </label>
          );
        })}
        <label>
          What was displaced, or how dealer or vulnerability differed (Law 87A)
          <input name="fouled-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
        </label>
        <button type="submit">Rate the board in groups</button>
      </form>
    </details>
  );
}
