// Opening a table at the desk (Rules for Club Procedure, rule C): its name, the present players who
// apply (four to six), and its options. When the applicants' standing does not order them where it
// matters (players who have played rank equal), the server says a draw for precedence is needed
// (GetNextSteps for the applicants): the desk has the server draw, or records the draw made with the
// table's cards, every card in order and redraws included (Law 3), sent with the opening so that
// the table opens only with a complete draw. The Laws' judgement of each card is the server's: a
// draw it finds incomplete is refused naming who must still draw, and the desk adds his card.

import type { NeededDraw } from "@bridgeclub/client/gen/bridgeclub/membership/v1/next_steps_pb.js";
import type { PhysicalDrawing } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { useEffect, useState } from "preact/hooks";

import { membership } from "./api.js";
import { DrawnCardFields, type DrawnRow, freshRow, toDrawing } from "./physicaldraw.js";

/** What the desk asks: the table, its applicants, the Club Laws option, and the draw's cards if drawn with cards. */
export interface Opening {
  name: string;
  applicants: string[];
  clubLaws: boolean;
  /** Empty: the server draws, if a draw is needed. */
  drawings: PhysicalDrawing[];
}

export function OpenTableForm({ candidates, onOpen }: { candidates: string[]; onOpen: (opening: Opening) => Promise<boolean> }) {
  const [name, setName] = useState("Table 1");
  const [chosen, setChosen] = useState<string[]>([]);
  const [clubLaws, setClubLaws] = useState(false);
  const [needed, setNeeded] = useState<NeededDraw>();
  const [withCards, setWithCards] = useState(false);
  // The cards drawn, in the order drawn: one per drawer, then each redraw the desk adds.
  const [rows, setRows] = useState<{ playerId: string; row: DrawnRow }[]>([]);
  const [redrawer, setRedrawer] = useState("");
  const toggle = (id: string) => setChosen((all) => (all.includes(id) ? all.filter((x) => x !== id) : [...all, id]));
  const usable = chosen.filter((id) => candidates.includes(id));
  const key = [...usable].sort().join(",");

  // Whether these applicants need a draw for precedence, asked again whenever they change.
  useEffect(() => {
    setNeeded(undefined);
    if (usable.length < 4 || usable.length > 6) return;
    let current = true;
    membership()
      .getNextSteps({ applicantPlayerIds: usable, options: { clubLaws } })
      .then((answer) => current && setNeeded(answer.nextSteps?.draw))
      .catch(() => current && setNeeded(undefined));
    return () => {
      current = false;
    };
  }, [key, clubLaws]);
  useEffect(() => {
    setRows((needed?.playerIds ?? []).map((playerId, i) => ({ playerId, row: freshRow(i) })));
    setRedrawer(needed?.playerIds[0] ?? "");
  }, [needed?.playerIds.join(",")]);

  const drawings = rows.map((r) => toDrawing(r.playerId, r.row));
  const cardsReady = !withCards || (rows.length > 0 && drawings.every((d) => d));
  return (
    <form
      class="card"
      aria-labelledby="open-title"
      onSubmit={(e) => {
        e.preventDefault();
        const cards = needed && withCards ? (drawings as PhysicalDrawing[]) : [];
        void onOpen({ name, applicants: usable, clubLaws, drawings: cards }).then((opened) => {
          if (!opened) return;
          setChosen([]);
          setClubLaws(false);
          setWithCards(false);
        });
      }}
    >
      <h2 id="open-title">Open a table</h2>
      <label>
        Table name
        <input name="table-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
      </label>
      <fieldset>
        <legend>Applicants (four to six present players)</legend>
        {candidates.length === 0 && <p>Nobody present is free.</p>}
        {candidates.map((id) => (
          <label class="check" key={id}>
            <input type="checkbox" name="applicant" value={id} checked={usable.includes(id)} onChange={() => toggle(id)} />
            {id}
          </label>
        ))}
      </fieldset>
      {/* Part VIII: the players' advance agreement or the club's published policy, and an arbiter. */}
      <label class="check">
        <input type="checkbox" name="club-laws" checked={clubLaws} onChange={() => setClubLaws(!clubLaws)} />
        Alternative Club Laws: the arbiter is called to every irregularity
      </label>
      {needed && (
        <fieldset class="precedence-draw" data-testid="precedence-draw">
          <legend>A draw for precedence</legend>
          <p class="summary">
            Among {needed.playerIds.join(", ")}
            {needed.decides ? `: ${needed.decides}` : ""}
            {needed.law?.text ? ` (${needed.law.text})` : ""}.
          </p>
          <label class="check">
            <input type="checkbox" name="precedence-with-cards" checked={withCards} onChange={() => setWithCards(!withCards)} />
            Drawn with the table's cards (otherwise the server draws)
          </label>
          {withCards && (
            <>
              {rows.map((r, i) => (
                <DrawnCardFields
                  key={i}
                  playerId={r.playerId}
                  name={`${r.playerId}-${i}`}
                  row={r.row}
                  onChange={(change) => setRows((all) => all.map((x, j) => (j === i ? { ...x, row: { ...x.row, ...change } } : x)))}
                />
              ))}
              <div class="inline-form">
                <label>
                  Who drew again
                  <select name="precedence-redrawer" value={redrawer} onChange={(e) => setRedrawer(e.currentTarget.value)}>
                    {needed.playerIds.map((id) => (
                      <option key={id} value={id}>
                        {id}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" class="quiet" onClick={() => setRows((all) => [...all, { playerId: redrawer, row: freshRow(all.length) }])}>
                  Add his card drawn again
                </button>
              </div>
            </>
          )}
        </fieldset>
      )}
      <button type="submit" disabled={usable.length < 4 || usable.length > 6 || !cardsReady}>
        Open the table
      </button>
    </form>
  );
}
