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

  it('gives a request that may not wait a place only if one is free now', async () => {
    const gate = createRenderGate({ maxInFlight: 1, maxWaiting: 5, maxWaitMs: 1000 });
    const running = await gate.enter({ wait: false });
    expect(running).not.toBeNull();
    expect(await gate.enter({ wait: false })).toBeNull();
    expect(gate.waiting).toBe(0);
    running!();
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
