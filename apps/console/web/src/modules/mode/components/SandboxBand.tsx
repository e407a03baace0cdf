import { useT } from '../../../i18n/i18n';

/** Across every customer page in the sandbox, so that nobody takes its figures and settings for live ones. */
export function SandboxBand() {
  const t = useT();
  return (
    <p className="sandbox-band" data-testid="sandbox-band">
      <strong>{t('mode.band')}</strong> <span>{t('mode.bandDetail')}</span>
    </p>
  );
}
