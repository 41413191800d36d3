import { describe, expect, it } from 'vitest';
import { notificationTypes, type Notification } from '@portal/contracts';
import { notificationLink } from './notification-link';

const links = { bugbounty: 'https://bugbounty.test/', pwdmanager: 'https://vault.test' };

const note = (type: Notification['type'], metadata: Notification['metadata'], target: Notification['target'] = 'other') => ({ type, metadata, target });

describe('notificationLink', () => {
  it('sends program owners to the management page and everyone else to the public program page', () => {
    expect(notificationLink(note('programs', { program_alias: 'acme' }, 'owner'), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/manage/programs/acme',
    });
    expect(notificationLink(note('programs', { program_alias: 'acme' }), links)).toEqual({ kind: 'external', href: 'https://bugbounty.test/programs/acme' });
    expect(notificationLink(note('programs/updates', { program_alias: 'acme' }, 'owner'), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/manage/programs/acme',
    });
    expect(notificationLink(note('programs/updates', { program_alias: 'acme' }), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/programs/acme',
    });
  });

  it('sends reports to the submission page, under program management for owners', () => {
    expect(notificationLink(note('reports', { report_id: 'r1' }), links)).toEqual({ kind: 'external', href: 'https://bugbounty.test/submissions/r1' });
    expect(notificationLink(note('reports', { report_id: 'r1', program_alias: 'acme' }), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/submissions/r1',
    });
    expect(notificationLink(note('reports', { report_id: 'r1', program_alias: 'acme' }, 'owner'), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/manage/programs/acme/submissions/r1',
    });
    expect(notificationLink(note('reports', { report_id: 'r1', comment_id: 'c9' }), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/submissions/r1#comment-c9',
    });
  });

  it('sends transactions to the wallet of this app', () => {
    expect(notificationLink(note('transactions', { transaction_id: 't1' }), links)).toEqual({ kind: 'internal', to: '/wallet' });
    expect(notificationLink(note('transactions', {}), {})).toEqual({ kind: 'internal', to: '/wallet' });
  });

  it('goes nowhere for other notifications, missing metadata or an unconfigured host', () => {
    expect(notificationLink(note('other', { program_alias: 'acme' }), links)).toBeNull();
    expect(notificationLink(note('programs', {}), links)).toBeNull();
    expect(notificationLink(note('reports', {}), links)).toBeNull();
    expect(notificationLink(note('programs', { program_alias: 'acme' }), { pwdmanager: 'https://vault.test' })).toBeNull();
    expect(notificationLink(note('reports', { report_id: 'r1' }), { bugbounty: '  ' })).toBeNull();
  });

  it('escapes values taken from the notification', () => {
    expect(notificationLink(note('programs', { program_alias: '../x y' }), links)).toEqual({
      kind: 'external',
      href: 'https://bugbounty.test/programs/..%2Fx%20y',
    });
  });

  it('answers for every notification type of the contract', () => {
    for (const type of notificationTypes) expect(() => notificationLink(note(type, {}), links)).not.toThrow();
  });
});
