// docs/environment.md is the one table of every variable of every process of the site; this holds
// it to the schemas the processes read at start, so the two cannot drift: every variable of a
// schema is in the table, listed for exactly the processes whose schema holds it, and the table
// lists no variable that no process reads.
//   node --import tsx --test site/environment.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CONFIG as CATALOGUE_VARIABLES } from '@netnet/catalogue/src/config.ts';
import { CONTROL_PLANE_PROCESSES } from '@netnet/control-plane/config';
import { SHELL_VARIABLES } from 'shell/server/config.ts';
import { CLUSTER_VARIABLES, START_VARIABLES } from './config.ts';

/** Every process by the name the table's "read by" column gives it, and its schema. */
const PROCESSES = {
  shell: SHELL_VARIABLES,
  catalogue: CATALOGUE_VARIABLES,
  ...CONTROL_PLANE_PROCESSES,
  start: START_VARIABLES,
  cluster: CLUSTER_VARIABLES,
};

const doc = readFileSync(new URL('../docs/environment.md', import.meta.url), 'utf8');

/** The table's rows: variable → the processes listed as reading it (a row may name several variables). */
function documented() {
  const lines = doc.split('\n');
  const header = lines.findIndex((line) => /^\| variable \| read by \| default \| meaning \|$/.test(line));
  assert.notEqual(header, -1, 'docs/environment.md has its table of variables');
  const rows = new Map();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [names, readers] = line.split(' | ');
    const processes = [...readers.matchAll(/`([a-z-]+)`/g)].map(([, name]) => name).sort();
    for (const [, name] of names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
      assert.ok(!rows.has(name), `${name} has one row`);
      rows.set(name, processes);
    }
  }
  return rows;
}

/** What the schemas say: variable → the processes whose schema holds it. */
function read() {
  const readers = new Map();
  for (const [process, variables] of Object.entries(PROCESSES)) {
    for (const { name } of Object.values(variables)) readers.set(name, [...(readers.get(name) ?? []), process]);
  }
  for (const [name, processes] of readers) readers.set(name, [...new Set(processes)].sort());
  return readers;
}

test('every variable a process reads is in docs/environment.md, listed for exactly the processes that read it', () => {
  const rows = documented();
  for (const [name, processes] of read()) {
    assert.ok(rows.has(name), `${name} (read by ${processes.join(', ')}) is missing from docs/environment.md`);
    assert.deepEqual(rows.get(name), processes, `docs/environment.md says who reads ${name}`);
  }
});

test('docs/environment.md lists no variable that no process reads', () => {
  const readers = read();
  const unread = [...documented().keys()].filter((name) => !readers.has(name));
  assert.deepEqual(unread, []);
});

test('docs/environment.md says what each process is and where its schema is', () => {
  const legend = doc.slice(0, doc.indexOf('| variable | read by |'));
  for (const process of Object.keys(PROCESSES)) assert.match(legend, new RegExp(`\`${process}\``), process);
});
