// The front desk's room (docs/front-desk.md): who is present, the tables with their members and
// waiting lists, and for each table the one step the rules call for now with its button (a draw by
// the server or with physical cards,
// starting the rubber, with the server's cards or physical ones); sign-in codes for members; and,
// while a rubber is played, the table's public view (where physical cards are played, the recorder
// of its calls and plays) and its scorepad, live; the calls for the arbiter as they arrive. The
// administrator also manages staff accounts.

import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { RubberStatus } from "@bridgeclub/client/gen/bridgeclub/membership/v1/rubber_pb.js";
import { ScorepadStatus } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scorepad_pb.js";
import { PlayMode, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import type { Player as RegisteredPlayer } from "@bridgeclub/client/gen/bridgeclub/membership/v1/player_pb.js";
import { NextStep } from "@bridgeclub/client/gen/bridgeclub/membership/v1/next_steps_pb.js";
import { CodeDelivery } from "@bridgeclub/client/gen/bridgeclub/membership/v1/signin_pb.js";
import type { Presence } from "@bridgeclub/client/gen/bridgeclub/membership/v1/player_pb.js";
import type { PhysicalDrawing } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import type { Table } from "@bridgeclub/client/gen/bridgeclub/membership/v1/table_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { StaffAccounts } from "./accounts.js";
import { useAct } from "./notices.js";
import { ArbiterCallList, useArbiterCalls } from "./calls.js";
import { accounts, explain, game, idempotencyKey, membership, scoring } from "./api.js";
import { SEAT_NAME } from "./cards.js";
import { useLive, useReadOrder } from "./live.js";
import { Draws } from "./draws.js";
import { PhysicalCardsChoice } from "./deskdeal.js";
import { OpenTableForm } from "./opentable.js";
import { drawOutcome, PhysicalDrawForm, recordPhysicalDraw } from "./physicaldraw.js";
import { Scorepad } from "./scorepad.js";
import { ScreenHeading, TableScreen } from "./table.js";

/** How long an issued sign-in code stays on the desk's screen. */
const CODE_SHOWN_MS = 2 * 60_000;

/**
 * The room. `canManageAccounts`: the administrator's staff accounts. `canRecord`: the desk role, which
 * records the calls and cards of a table played with physical cards (the administrator's does not).
 */
export function Desk({ canManageAccounts = false, canRecord = false }: { canManageAccounts?: boolean; canRecord?: boolean }) {
  const [players, setPlayers] = useState<RegisteredPlayer[]>([]);
  const [present, setPresent] = useState<Presence[]>([]);
  const [tables, setTables] = useState<Table[]>([]);
  const [loadError, setLoadError] = useState<string>();
  const [codes, setCodes] = useState<Record<string, string>>({});
  // Counts the reads, so that each table's card looks for its scorepad again after any change: a
  // pad is made after the rubber starts, with no change to the table itself.
  const [generation, setGeneration] = useState(0);
  const order = useReadOrder();
  const read = useCallback(async () => {
    setGeneration((n) => n + 1);
    const mine = order.begin();
    try {
      const [register, room, listed] = await Promise.all([
        membership().listPlayers({}),
        membership().listPresentPlayers({}),
        membership().listTables({}),
      ]);
      if (!order.latest(mine)) return;
      setPlayers(register.players);
      setPresent(room.present);
      setTables(listed.tables);
      setLoadError(undefined);
    } catch (e) {
      setLoadError(explain(e));
    }
  }, []);
  useEffect(() => void read(), [read]);
  // The calls for the arbiter as they arrive: the desk sends him where he is needed.
  const { calls, noteView } = useArbiterCalls(generation);
  const live = useLive("room", (after, signal) => membership().watchRoom({ afterSequence: after }, { signal }), () => void read());

  // Read again after every action, failed ones too: a failed action may have done part of its work
  // (a rubber started whose first deal did not), and each table's card looks for its scorepad again.
  const { error: actError, notice, act } = useAct(read);
  const error = actError ?? loadError;

  const presentIds = new Set(present.map((p) => p.playerId));
  const seated = new Set(tables.flatMap((t) => t.members.map((m) => m.playerId)));
  const forgetCode = (playerId: string, code?: string) =>
    setCodes((all) => {
      if (!(playerId in all) || (code !== undefined && all[playerId] !== code)) return all;
      const { [playerId]: _gone, ...rest } = all;
      return rest;
    });
  // A code is a key to the member's sign-in: shown long enough to read out, then gone from the
  // screen (a second code replaces the first and has its own time).
  const issueCode = (playerId: string) =>
    act(async () => {
      const issued = await accounts().issueSignInCode({ playerId });
      setCodes((all) => ({ ...all, [playerId]: issued.code }));
      setTimeout(() => forgetCode(playerId, issued.code), CODE_SHOWN_MS);
    });
  // Mailed, the code never reaches the desk's screen: the desk reads back the (masked) address
  // it went to, for the member to confirm.
  const mailCode = (player: RegisteredPlayer) =>
    act(async () => {
      const issued = await accounts().issueSignInCode({ playerId: player.playerId, delivery: CodeDelivery.EMAIL });
      forgetCode(player.playerId);
      return `A sign-in code for ${player.name} went to ${issued.sentTo}.`;
    });

  return (
    <div class="desk">
      <ScreenHeading title={<h1>The room</h1>} live={live} error={error} />
      {notice && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
      <div class="desk-grid">
        <section class="card" aria-labelledby="players-title">
          <h2 id="players-title">Players</h2>
          <RegisterForm onRegister={(id, name, email) => act(async () => {
            await membership().registerPlayer({ playerId: id, name, contact: { email }, idempotencyKey: `register-${id}` });
            await membership().arriveInRoom({ playerId: id });
            return `${name} is registered and in the room.`;
          })} />
          <ul class="people">
            {players.map((p) => (
              <li key={p.playerId} data-player={p.playerId}>
                <span class="person">
                  {p.name} <small>({p.playerId})</small>
                </span>
                <span class="state">{presentIds.has(p.playerId) ? (seated.has(p.playerId) ? "at a table" : "present") : "not here"}</span>
                {!presentIds.has(p.playerId) && (
                  <button type="button" class="small" onClick={() => act(async () => void (await membership().arriveInRoom({ playerId: p.playerId })))}>
                    Arrived
                  </button>
                )}
                <button type="button" class="small" onClick={() => issueCode(p.playerId)} aria-label={`Sign-in code for ${p.name}`}>
                  Sign-in code
                </button>
                {p.contact?.email && (
                  <button type="button" class="small" onClick={() => mailCode(p)} aria-label={`E-mail code to ${p.name}`}>
                    E-mail code
                  </button>
                )}
                {codes[p.playerId] && (
                  <>
                    <output class="code" data-code-for={p.playerId} aria-label={`${p.name}'s sign-in code`}>
                      {codes[p.playerId]}
                    </output>
                    <button type="button" class="quiet small" onClick={() => forgetCode(p.playerId)} aria-label={`Hide ${p.name}'s code`}>
                      Hide
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
        <OpenTableForm
          candidates={present.filter((p) => !seated.has(p.playerId)).map((p) => p.playerId)}
          onOpen={(opening) =>
            act(async () => {
              const opened = await membership().openTable({
                name: opening.name,
                kind: TableKind.RUBBER,
                options: { clubLaws: opening.clubLaws },
                applicantPlayerIds: opening.applicants,
                precedenceDrawings: opening.drawings,
                // Without cards the server draws for precedence, if a draw is needed.
                serverDraw: opening.drawings.length === 0,
                idempotencyKey: idempotencyKey(),
              });
              const sittingOut = opened.ranking.filter((r) => !r.admitted).map((r) => r.playerId);
              const drawn = opened.precedenceDraw ? ` The draw for precedence: ${opened.precedenceDraw.order.join(", ")}.` : "";
              return `${opening.name} is open.${drawn}${sittingOut.length ? ` Not a member: ${sittingOut.join(", ")}.` : ""}`;
            })
          }
        />
      </div>
      <ArbiterCallList calls={calls} names={new Map(tables.map((t) => [t.tableId, t.name]))} anchor={(tableId) => `desk-${tableId}`} />
      <h2>Tables</h2>
      {tables.length === 0 && <p>No table is open.</p>}
      <div class="tables">
        {tables.map((table) => (
          <TableCard table={table} key={table.tableId} act={act} generation={generation} canRecord={canRecord} onView={noteView} />
        ))}
      </div>
      {canManageAccounts && <StaffAccounts />}
    </div>
  );
}

function RegisterForm({ onRegister }: { onRegister: (id: string, name: string, email: string) => void }) {
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  return (
    <form
      class="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        onRegister(id.trim(), name.trim() || id.trim(), email.trim());
        setId("");
        setName("");
        setEmail("");
      }}
    >
      <label>
        Player id
        <input name="player-id" value={id} onInput={(e) => setId(e.currentTarget.value)} required autocapitalize="none" spellcheck={false} />
      </label>
      <label>
        Name
        <input name="player-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        E-mail (optional)
        <input name="player-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} autocapitalize="none" spellcheck={false} />
      </label>
      <button type="submit">Register and arrive</button>
    </form>
  );
}

function TableCard({
  table,
  act,
  generation,
  canRecord,
  onView,
}: {
  table: Table;
  act: (action: () => Promise<string | void>) => void;
  generation: number;
  canRecord: boolean;
  onView: (view: TableView) => void;
}) {
  const steps = table.nextSteps;
  const rubber = table.currentRubber;
  const [padId, setPadId] = useState<string>();
  // The pad found finished, by id: a late answer about an earlier rubber's pad must not offer to end
  // the rubber now being played.
  const [finishedPad, setFinishedPad] = useState<string>();
  const padFinished = padId !== undefined && finishedPad === padId && rubber?.status === RubberStatus.IN_PROGRESS;
  useEffect(() => {
    if (!rubber) return;
    scoring()
      .listScorepads({ tableId: table.tableId, inProgressOnly: true })
      .then((answer) => setPadId(answer.scorepads.find((p) => p.rubberId === rubber.rubberId)?.scorepadId))
      .catch(() => setPadId(undefined));
  }, [table.tableId, rubber?.rubberId, padId === undefined ? generation : 0]);

  // Physical cards: the players deal and play with real cards, and the desk (or the table's tablet,
  // signed in as desk) records each call and card as it happens, irregularities included.
  const [physical, setPhysical] = useState(false);
  // The hands as dealt, when the table records the play too (a PBN deal, "N:AKQJ.T98.765.432 ...");
  // without them the play is not recorded and the table enters the result.
  const [hands, setHands] = useState("");
  // Starting the rubber is three commands: the line-up (the server draws partners and seats), the
  // rubber's scorepad, and its first deal: dealt by the server, which the players then play on their
  // phones, or with physical cards, recorded here. The table's Club Laws option goes with every deal.
  const startRubber = () =>
    act(async () => {
      const started = await membership().startRubber({ tableId: table.tableId, serverDraw: true });
      const rubberId = started.rubber?.rubberId;
      if (!rubberId) throw new Error("the rubber did not start");
      const { scorepad } = await scoring().createScorepad({ rubberId });
      const scorepadId = scorepad?.scorepadId;
      if (!scorepadId) throw new Error("no scorepad");
      const idle = (await game().getTableState({ tableId: table.tableId })).view;
      const number = started.rubber?.number ?? "";
      await game().startDeal({
        tableId: table.tableId,
        expectedVersion: idle?.version ?? 0n,
        idempotencyKey: idempotencyKey(),
        setup: {
          source: { case: "rubber", value: { rubberId, scorepadId, dealNumber: 1, clubLaws: table.options?.clubLaws ?? false } },
          kind: TableKind.RUBBER,
          mode: physical ? PlayMode.RECORDED : PlayMode.DIGITAL,
        },
        hands: physical && hands.trim() ? { case: "dealPbn", value: hands.trim() } : { case: undefined },
      }).catch((e: unknown) => {
        // The rubber and its pad stand; the first deal is dealt again from the table below.
        throw new Error(`Rubber ${number} started at ${table.name}, but its first deal did not: ${explain(e)} Deal it again from the table below.`);
      });
      return physical
        ? `Rubber ${started.rubber?.number ?? ""} started at ${table.name}; deal the cards and record the auction here.`
        : `Rubber ${started.rubber?.number ?? ""} started at ${table.name}; the first deal is dealt.`;
    });
  // Once the pad says the rubber is over (Law 77: a side has won two games), the desk ends it, and
  // the table's next step turns to the next rubber: who goes out, who comes in.
  const endRubber = () =>
    act(async () => {
      if (!rubber) return;
      await membership().endRubber({ tableId: table.tableId, rubberId: rubber.rubberId, status: RubberStatus.FINISHED });
      return `Rubber ${rubber.number} at ${table.name} is ended.`;
    });
  const draw = () =>
    act(async () => {
      if (!steps?.draw) return;
      await membership().drawCards({ tableId: table.tableId, purpose: steps.draw.purpose, playerIds: steps.draw.playerIds });
      return "The server drew the cards.";
    });
  const drawWithCards = (drawings: PhysicalDrawing[]) =>
    act(async () => {
      if (!steps?.draw) return;
      return drawOutcome(await recordPhysicalDraw(table.tableId, steps.draw, drawings));
    });

  return (
    <section class="card table-card" id={`desk-${table.tableId}`} aria-labelledby={`t-${table.tableId}`} data-table={table.tableId}>
      <h3 id={`t-${table.tableId}`}>{table.name}</h3>
      <dl class="facts">
        <dt>Members</dt>
        <dd>{table.members.map((m) => `${m.playerId}${m.playing ? " (playing)" : ""}`).join(", ")}</dd>
        {steps && steps.sittingOut.length > 0 && (
          <>
            <dt>Sitting out</dt>
            <dd>{steps.sittingOut.map((p) => p.playerId).join(", ")}</dd>
          </>
        )}
        {table.queue.length > 0 && (
          <>
            <dt>Waiting</dt>
            <dd>{table.queue.filter((a) => a.queuePosition > 0).map((a) => `${a.queuePosition}. ${a.playerId}`).join(", ")}</dd>
          </>
        )}
        {rubber && (
          <>
            <dt>Rubber {rubber.number}</dt>
            <dd>{rubber.seats.map((s) => `${SEAT_NAME[s.seat]} ${s.playerId}`).join(", ")}</dd>
          </>
        )}
      </dl>
      <div class="what-next">
        <p class="summary" data-testid="next-step">
          <strong>What next:</strong> {steps?.summary ?? "—"}
        </p>
        {steps?.step === NextStep.DRAW && (
          <button type="button" onClick={draw}>
            Draw (server)
          </button>
        )}
        {(steps?.step === NextStep.DRAW || steps?.step === NextStep.FINISH_DRAW) && steps.draw && (
          <details class="draw-with-cards" open={steps.step === NextStep.FINISH_DRAW || undefined}>
            <summary>{steps.step === NextStep.FINISH_DRAW ? "Finish the draw with cards" : "Draw with cards"}</summary>
            <PhysicalDrawForm key={`${steps.draw.drawId}-${steps.draw.awaitingPlayerIds.join()}`} needed={steps.draw} onRecord={drawWithCards} />
          </details>
        )}
        {steps?.step === NextStep.PLAY_RUBBER && padFinished && (
          <button type="button" onClick={endRubber}>
            End the rubber
          </button>
        )}
        {steps?.step === NextStep.START_RUBBER && (
          <>
            <PhysicalCardsChoice name="first-deal" physical={physical} onPhysical={setPhysical} hands={hands} onHands={setHands} />
            <button type="button" onClick={startRubber}>
              Start the rubber
            </button>
          </>
        )}
      </div>
      <Draws tableId={table.tableId} generation={table.version} nested />
      {rubber && (
        <details class="public-view">
          <summary>The table (public view)</summary>
          <TableScreen
            tableId={table.tableId}
            title={table.name}
            withScorepad={false}
            nested
            recordsAnySeat={canRecord}
            onView={onView}
            deskDeal={padId ? { rubberId: rubber.rubberId, scorepadId: padId, clubLaws: table.options?.clubLaws ?? false } : undefined}
          />
        </details>
      )}
      {rubber && padId && (
        <Scorepad key={padId} scorepadId={padId} onPad={(pad) => setFinishedPad(pad.status === ScorepadStatus.FINISHED ? pad.scorepadId : undefined)} />
      )}
    </section>
  );
}
