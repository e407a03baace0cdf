import { useT } from '../i18n/i18n';
import { CopyValue } from './CopyValue';

/** A secret the server will never show again, as the content of a page that exists to show it. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const t = useT();
  return (
    <section className="secret" aria-label={label}>
      <h3>{label}</h3>
      <p>{t('secret.once')}</p>
      <CopyValue value={secret} testId="secret" />
    </section>
  );
}
