import { useState } from 'react';
import { useT } from '../i18n/i18n';

/** A secret the server will never show again: visible, selectable and copyable, once. */
export function SecretOnce({ label, secret, note }: { label: string; secret: string; note?: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(secret).catch(() => undefined);
    setCopied(true);
  };
  return (
    <section className="secret" aria-label={label}>
      <h3>{label}</h3>
      <p>{note ?? t('secret.once')}</p>
      <div className="secret-value">
        <code data-testid="secret">{secret}</code>
        <button type="button" className="btn" onClick={copy}>
          {copied ? t('action.copied') : t('action.copy')}
        </button>
      </div>
    </section>
  );
}
