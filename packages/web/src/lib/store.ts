import { useSyncExternalStore } from 'react';

/** A tiny external store: enough for app-wide UI flags without a state library. */
export interface Store<State> {
  get(): State;
  set(update: Partial<State> | ((state: State) => Partial<State>)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<State extends object>(initial: State): Store<State> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStore<State, Selected>(store: Store<State>, select: (state: State) => Selected): Selected {
  return useSyncExternalStore(store.subscribe, () => select(store.get()), () => select(store.get()));
}
