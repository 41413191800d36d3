import { paths } from '@portal/contracts';
import type shell from '../i18n/shell.en.json';

type NavLabel = `nav.${keyof typeof shell.nav}`;

/** The signed-in shell's sections, in side-bar order, with their pages. */
export interface AccountSection {
  to: string;
  label: NavLabel;
  children?: readonly { to: string; label: NavLabel }[];
}

export const accountSections: readonly AccountSection[] = [
  { to: paths.home, label: 'nav.home' },
  { to: paths.account, label: 'nav.account' },
  { to: paths.email, label: 'nav.email' },
  { to: paths.privacy, label: 'nav.privacy' },
  {
    to: paths.security,
    label: 'nav.security',
    children: [
      { to: paths.security, label: 'nav.securityOverview' },
      { to: paths.securityDeviceActivity, label: 'nav.deviceActivity' },
      { to: paths.securityPassword, label: 'nav.password' },
      { to: paths.securityTwoStep, label: 'nav.twoStep' },
      { to: paths.securityWebauthn, label: 'nav.passkeys' },
    ],
  },
  {
    to: paths.wallet,
    label: 'nav.wallet',
    children: [
      { to: paths.wallet, label: 'nav.walletOverview' },
      { to: paths.walletUsd, label: 'nav.walletUsd' },
      { to: paths.walletVnd, label: 'nav.walletVnd' },
      { to: paths.walletWhc, label: 'nav.walletWhc' },
      { to: paths.walletPayout, label: 'nav.walletPayout' },
    ],
  },
  { to: paths.billing, label: 'nav.billing' },
  // Everyone's: a member manages their organization there, anyone else starts one.
  { to: paths.organization, label: 'nav.organization' },
  { to: paths.apiKeys, label: 'nav.apiKeys' },
];
