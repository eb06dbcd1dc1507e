/**
 * @jest-environment node
 */
import { createRenderGate } from './renderGate';

describe('createRenderGate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets maxInFlight renders run, lines up maxWaiting more, and turns the rest away at once', async () => {
    const gate = createRenderGate({ maxInFlight: 2, maxWaiting: 1, maxWaitMs: 1000 });
    const first = await gate.enter();
    const second = await gate.enter();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const third = gate.enter();
    expect(await gate.enter()).toBeNull();
    expect([gate.inFlight, gate.waiting]).toEqual([2, 1]);
    first!();
    const granted = await third;
    expect(granted).not.toBeNull();
    expect([gate.inFlight, gate.waiting]).toEqual([2, 0]);
    // Leaving twice frees one place, not two.
    first!();
    expect(gate.inFlight).toBe(2);
    second!();
    granted!();
    expect(gate.inFlight).toBe(0);
  });

  it('gives a free place to the waiting client whose last render started longest ago', async () => {
    const gate = createRenderGate({ maxInFlight: 1, maxWaiting: 10, maxWaitMs: 1000 });
    let current = (await gate.enter({ client: 'a' }))!;
    const order: string[] = [];
    const asked = new Map(
      ['a1', 'a2', 'a3', 'b1'].map((name) => {
        const granted = gate.enter({ client: name[0] });
        void granted.then(() => order.push(name));
        return [name, granted] as const;
      }),
    );
    for (let i = 0; i < 4; i += 1) {
      current();
      for (let tick = 0; tick < 3; tick += 1) await Promise.resolve();
      current = (await asked.get(order[i]!)!)!;
    }
    current();
    // a's render was running when they asked: b's turn comes first, then a's in the order asked.
    expect(order).toEqual(['b1', 'a1', 'a2', 'a3']);
  });

  it('when the line is full, lets a newcomer take the newest place of the client holding the most', async () => {
    const gate = createRenderGate({ maxInFlight: 1, maxWaiting: 3, maxWaitMs: 1000 });
    const running = await gate.enter({ client: 'a' });
    const flood = [1, 2, 3].map(() => gate.enter({ client: 'a' }));
    const b = gate.enter({ client: 'b' });
    expect(await flood[2]).toBeNull();
    const c = gate.enter({ client: 'c' });
    expect(await flood[1]).toBeNull();
    // Each holds one place now: nobody has more than a newcomer would, so the newcomer is turned away.
    expect(await gate.enter({ client: 'd' })).toBeNull();
    expect(gate.waiting).toBe(3);
    // Then b and c, who had no render yet, before a's remaining one.
    running!();
    (await b)!();
    (await c)!();
    (await flood[0])!();
    expect([gate.inFlight, gate.waiting]).toEqual([0, 0]);
  });

  it('answers null to a request that waited past maxWaitMs, and forgets it', async () => {
    const gate = createRenderGate({ maxInFlight: 1, maxWaiting: 5, maxWaitMs: 250 });
    const running = await gate.enter();
    const waiting = gate.enter();
    jest.advanceTimersByTime(249);
    expect(gate.waiting).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await waiting).toBeNull();
    expect(gate.waiting).toBe(0);
    running!();
    expect(gate.inFlight).toBe(0);
  });
});
