// Signing in: staff with an account name and password, a member with the one-time code the desk
// gave him (README, "Tokens").

import { useState } from "preact/hooks";

import { explain, redeemCode, type Session, signInStaff } from "./api.js";

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = (action: () => Promise<Session>) => async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await action());
    } catch (e) {
      setError(explain(e));
    } finally {
      setBusy(false);
    }
  };
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  return (
    <main id="main" class="signin">
      <h1>Bridge club</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <form class="card" onSubmit={submit(() => redeemCode(code))} aria-labelledby="member-heading">
        <h2 id="member-heading">Members</h2>
        <label>
          Code from the desk
          <input
            name="code"
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
            autocomplete="one-time-code"
            autocapitalize="characters"
            spellcheck={false}
            placeholder="7K2D-QX9M-4HTA"
            required
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in with the code
        </button>
      </form>
      <form class="card" onSubmit={submit(() => signInStaff(name, password))} aria-labelledby="staff-heading">
        <h2 id="staff-heading">Staff</h2>
        <label>
          Account
          <input name="account" value={name} onInput={(e) => setName(e.currentTarget.value)} autocomplete="username" required />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            autocomplete="current-password"
            required
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
