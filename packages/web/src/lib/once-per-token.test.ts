import { describe, expect, it } from 'vitest';
import { oncePerToken } from './once-per-token';

describe('oncePerToken', () => {
  it('spends each token once and gives every caller the same answer', async () => {
    const calls: string[] = [];
    const spend = oncePerToken(async (token: string) => (calls.push(token), `done ${token}`));
    const [first, second] = await Promise.all([spend('a'), spend('a')]);
    expect(first).toBe('done a');
    expect(second).toBe('done a');
    expect(await spend('b')).toBe('done b');
    expect(calls).toEqual(['a', 'b']);
  });
});
