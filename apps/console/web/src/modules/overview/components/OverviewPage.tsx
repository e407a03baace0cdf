import { formatDay, formatMoney, formatMonth, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { BarChart } from '../../../ui/BarChart';
import { DataTable } from '../../../ui/DataTable';
import { ModeSwitch } from '../../../ui/ModeSwitch';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { useMode } from '../../../ui/use-mode';
import { usePage } from '../../../ui/use-page';
import type { Session } from '../../session/hooks/use-session';
import { useUsage, type Usage } from '../hooks/use-usage';

const cents = (value: number) => formatMoney(value / 100);

export function OverviewPage({ session }: { session: Session }) {
  const t = useT();
  const [mode, setMode] = useMode(session);
  const { data, error, isPending } = useUsage(mode);
  return (
    <>
      <PageHeader title={t('overview.title')} intro={t('overview.intro')} actions={<ModeSwitch mode={mode} onChange={setMode} />} />
      <ApiErrorMessage error={error} />
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && <UsageFigures usage={data} />}
    </>
  );
}

function UsageFigures({ usage }: { usage: Usage }) {
  const t = useT();
  const limit = (value: number | null) => (value === null ? t('value.unlimited') : formatNumber(value));
  // The account's keys are capped (MAX_KEYS_PER_ACCOUNT) and come whole; they are shown a page at a time.
  const keys = usePage(usage.keys);
  const keyName = (key: Usage['keys'][number]) => `${key.name ?? t('keys.unnamed')} (${key.prefix}…${key.hint})`;
  const { account } = usage;
  return (
    <>
      <section aria-labelledby="usage-month">
        <h2 id="usage-month">{t('overview.month', { month: formatMonth(usage.month) })}</h2>
        <dl className="facts" data-testid="usage-account">
          <dt>{t('overview.words')}</dt>
          <dd data-testid="usage-words">{formatNumber(account.words)}</dd>
          <dt>{t('overview.cost')}</dt>
          <dd>{cents(account.cost_cents)}</dd>
          <dt>{t('overview.limit')}</dt>
          <dd>{limit(account.limit)}</dd>
          <dt>{t('overview.remaining')}</dt>
          <dd>{limit(account.remaining)}</dd>
        </dl>
      </section>
      <BarChart
        title={t('overview.perDay')}
        bars={usage.days.map((day) => ({ label: formatDay(day.period), value: day.words }))}
      />
      {/* Without the limit as a line: a sandbox quota would flatten every real month to nothing; the figures above give it. */}
      <BarChart title={t('overview.perMonth')} bars={usage.months.map((month) => ({ label: formatMonth(month.period), value: month.words }))} />
      <section aria-labelledby="usage-keys">
        <h2 id="usage-keys">{t('overview.keys')}</h2>
        {usage.keys.length === 0 ? (
          <p>{t('overview.noKeys')}</p>
        ) : (
          <DataTable
            label={t('overview.keys')}
            rows={keys.items}
            rowKey={(key) => key.id}
            columns={[
              { header: t('overview.key'), rowHeader: true, cell: (key) => (key.revoked ? t('overview.revoked', { name: keyName(key) }) : keyName(key)) },
              { header: t('overview.words'), cell: (key) => formatNumber(key.words) },
              { header: t('overview.cost'), cell: (key) => cents(key.cost_cents) },
              { header: t('overview.limit'), cell: (key) => limit(key.limit) },
              { header: t('overview.remaining'), cell: (key) => limit(key.remaining) },
            ]}
          />
        )}
        <Pager {...keys.pager} />
      </section>
    </>
  );
}
