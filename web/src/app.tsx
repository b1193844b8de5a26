// Which screen: sign-in for nobody, the room for the desk (and the administrator, who may do what the
// desk does), the player's screens for a member.

import { useState } from "preact/hooks";

import { loadSession, Role, type Session, signOut } from "./api.js";
import { Desk } from "./desk.js";
import { Player } from "./player.js";
import { SignIn } from "./signin.js";

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  if (!session) return <SignIn onSignedIn={setSession} />;
  const staff = session.roles.includes(Role.DESK) || session.roles.includes(Role.ADMIN);
  const leave = () => {
    signOut();
    setSession(undefined);
  };
  return (
    <>
      <header class="bar">
        <span class="brand">Bridge club</span>
        <span class="who" data-testid="signed-in-as">
          {staff ? `${session.subject.replace(/^staff:/, "")} (desk)` : session.subject}
        </span>
        <button type="button" class="quiet" onClick={leave}>
          Sign out
        </button>
      </header>
      <main id="main">{staff ? <Desk /> : <Player playerId={session.subject} />}</main>
    </>
  );
}
