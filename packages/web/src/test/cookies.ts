import { vi } from 'vitest';

/** Record what is written to document.cookie (attributes included), still writing it. */
export function recordCookieWrites(): { writes: string[]; restore(): void } {
  let owner: object | null = document;
  let descriptor: PropertyDescriptor | undefined;
  while (owner && !descriptor) {
    descriptor = Object.getOwnPropertyDescriptor(owner, 'cookie');
    owner = Object.getPrototypeOf(owner);
  }
  if (!descriptor?.set) throw new Error('document.cookie has no setter here');
  const setter = descriptor.set;
  const writes: string[] = [];
  const spy = vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    setter.call(document, value);
  });
  return { writes, restore: () => spy.mockRestore() };
}
