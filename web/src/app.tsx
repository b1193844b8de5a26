// Which screen: sign-in for nobody, the player's screens for a member, and for staff the screens
// their roles open: the room for the desk (and the administrator, who may do what the desk does),
// the calls for the arbiter, the appeals for the committee, and the duplicate sessions for the desk
// and the director (the arbiter role, who also rules on a session's results there); for the
// administrator also the appeal policy, the committee's roster and its conflicts. Staff with more
// than one of these switch between them with the tabs in the bar.

import { useState } from "preact/hooks";

import { loadSession, Role, type Session, signOut } from "./api.js";
import { AppealsAdmin } from "./appeals-admin.js";
import { Arbiter } from "./arbiter.js";
import { Committee } from "./committee.js";
import { Desk } from "./desk.js";
import { Player } from "./player.js";
import { Sessions } from "./sessions.js";
import { SignIn } from "./signin.js";

type StaffScreen = "room" | "arbiter" | "committee" | "sessions" | "appeals-admin";

const STAFF_SCREENS: { screen: StaffScreen; label: string; roles: Role[] }[] = [
  { screen: "room", label: "Room", roles: [Role.DESK, Role.ADMIN] },
  { screen: "arbiter", label: "Arbiter", roles: [Role.ARBITER] },
  { screen: "committee", label: "Committee", roles: [Role.COMMITTEE] },
  { screen: "sessions", label: "Sessions", roles: [Role.DESK, Role.ARBITER, Role.ADMIN] },
  { screen: "appeals-admin", label: "Appeals", roles: [Role.ADMIN] },
];

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [chosen, setChosen] = useState<StaffScreen>();
  if (!session) return <SignIn onSignedIn={setSession} />;
  const staff = session.subject.startsWith("staff:");
  const screens = STAFF_SCREENS.filter((s) => s.roles.some((role) => session.roles.includes(role)));
  const screen = screens.find((s) => s.screen === chosen)?.screen ?? screens[0]?.screen;
  const leave = () => {
    signOut();
    setSession(undefined);
    setChosen(undefined);
  };
  return (
    <>
      <header class="bar">
        <span class="brand">Bridge club</span>
        {screens.length > 1 && (
          <nav aria-label="Screens" class="tabs">
            {screens.map((s) => (
              <button
                type="button"
                key={s.screen}
                class={`tab ${s.screen === screen ? "current" : ""}`}
                aria-current={s.screen === screen ? "page" : undefined}
                onClick={() => setChosen(s.screen)}
              >
                {s.label}
              </button>
            ))}
          </nav>
        )}
        <span class="who" data-testid="signed-in-as">
          {staff ? `${session.subject.replace(/^staff:/, "")} (${screens.map((s) => s.label.toLowerCase()).join(", ") || "staff"})` : session.subject}
        </span>
        <button type="button" class="quiet" onClick={leave}>
          Sign out
        </button>
      </header>
      <main id="main">
        {!staff ? (
          <Player playerId={session.subject} />
        ) : screen === "room" ? (
          <Desk canManageAccounts={session.roles.includes(Role.ADMIN)} canRecord={session.roles.includes(Role.DESK)} />
        ) : screen === "arbiter" ? (
          <Arbiter />
        ) : screen === "committee" ? (
          <Committee memberId={session.subject} />
        ) : screen === "appeals-admin" ? (
          <AppealsAdmin />
        ) : screen === "sessions" ? (
          <Sessions canRule={session.roles.includes(Role.ARBITER)} canDirect={session.roles.some((r) => r === Role.ARBITER || r === Role.ADMIN)} />
        ) : (
          <p role="alert" class="error">
            This account has no screen yet: ask the administrator for a role.
          </p>
        )}
      </main>
    </>
  );
}
