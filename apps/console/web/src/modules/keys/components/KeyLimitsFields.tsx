import { useT } from '../../../i18n/i18n';
import { Field } from '../../../ui/Field';

export interface LimitsDraft {
  monthly: string;
  rate: string;
}

/** The two limits of a key, as typed; the API says what it refuses (e.g. above the account's ceiling). */
export function KeyLimitsFields({ draft, onChange }: { draft: LimitsDraft; onChange: (draft: LimitsDraft) => void }) {
  const t = useT();
  return (
    <>
      <Field label={t('keys.monthlyLimit')} hint={t('keys.limitHint')} type="number" min={0} step={1} inputMode="numeric" value={draft.monthly} onChange={(e) => onChange({ ...draft, monthly: e.target.value })} />
      <Field label={t('keys.rateLimit')} type="number" min={1} step={1} inputMode="numeric" value={draft.rate} onChange={(e) => onChange({ ...draft, rate: e.target.value })} />
    </>
  );
}
