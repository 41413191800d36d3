import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { useBrand, useRuntimeConfig } from '../lib/runtime-context';
import classes from './BrandLogo.module.css';

interface BrandLogoProps {
  /** 'responsive' shows the wordmark on desktop and the mark alone on small screens. */
  variant?: 'desktop' | 'responsive';
}

/**
 * The brand's logo as a link home: '/' for the platform brand; the password-manager brand
 * sends its users to their vault on the main host instead (the spec's routes).
 */
export function BrandLogo({ variant = 'desktop' }: BrandLogoProps) {
  const brand = useBrand();
  const { vaultUrl } = useRuntimeConfig();
  const { t } = useTranslation();
  const alt = t('layout.logoAlt', { brand: brand.title });

  const images: ReactNode =
    variant === 'responsive' ? (
      <>
        <img className={classes.desktop} src={brand.logo.desktop} alt={alt} height={32} />
        <img className={classes.mobile} src={brand.logo.mobile} alt={alt} height={32} width={32} />
      </>
    ) : (
      <img src={brand.logo.desktop} alt={alt} height={32} />
    );

  return brand.id === 'locker' ? (
    <a href={vaultUrl} className={classes.link} data-testid="logo-link">
      {images}
    </a>
  ) : (
    <Link to={paths.home} className={classes.link} data-testid="logo-link">
      {images}
    </Link>
  );
}
