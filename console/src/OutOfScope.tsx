// An address naming an environment the person's token does not cover: said once, plainly, with the
// environments it does cover. Nothing of that environment is read or streamed (the API would
// answer 403 to every call), and the name is not added to the Environment menu.
import { useEffect } from 'react';
import type { Session } from './types';

export function OutOfScope({ session, environment }: { session: Session; environment: string }) {
  const environments = session.environments ?? [];
  useEffect(() => {
    document.title = `Outside your token's scope · ${environment} · Netnet release console`;
  }, [environment]);
  return (
    <section className="card" aria-labelledby="out-of-scope-title">
      <h2 id="out-of-scope-title">{environment} is outside your token&apos;s scope</h2>
      <p>
        The token {session.person} signed in with may not see {environment}, so the console shows nothing of it. Ask an administrator for a token that covers it, or open an
        environment this one covers:
      </p>
      <ul>
        {environments.map((name) => (
          <li key={name}>
            <a href={`#/${name}`}>Every remote in {name}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
