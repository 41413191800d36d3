import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useCountdown', () => {
  it('counts a wait down to zero', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current[0]).toBe(0);
    act(() => result.current[1](3));
    expect(result.current[0]).toBe(3);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current[0]).toBe(2);
    act(() => void vi.advanceTimersByTime(2500));
    expect(result.current[0]).toBe(0);
  });

  it('can start with a wait (a mail just sent)', () => {
    const { result } = renderHook(() => useCountdown(30));
    expect(result.current[0]).toBe(30);
    act(() => void vi.advanceTimersByTime(10_000));
    expect(result.current[0]).toBe(20);
  });
});
