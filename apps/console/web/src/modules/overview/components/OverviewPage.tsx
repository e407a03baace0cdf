import { formatDay, formatMoney, formatMonth, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { BarChart } from '../../../ui/BarChart';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { useMode, type Mode } from '../../mode/hooks/use-mode';
import { usePage } from '../../../ui/use-page';
import { useUsage, type Usage } from '../hooks/use-usage';

const cents = (value: number) => formatMoney(value / 100);

export function OverviewPage() {
  const t = useT();
  const mode = useMode();
  const { data, error, isPending } = useUsage(mode);
  return (
    <>
      <PageHeader title={t('overview.title')} intro={t(mode === 'sandbox' ? 'overview.introSandbox' : 'overview.intro')} />
      <ApiErrorMessage error={error} />
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && <UsageFigures usage={data} mode={mode} />}
    </>
  );
}

/** Live usage is billed, so it shows its cost; sandbox usage is free, so it shows the free quota instead. */
function UsageFigures({ usage, mode }: { usage: Usage; mode: Mode }) {
  const t = useT();
  const limit = (value: number | null) => (value === null ? t('value.unlimited') : formatNumber(value));
  // The account's keys are capped (MAX_KEYS_PER_ACCOUNT) and come whole; they are shown a page at a time.
  const keys = usePage(usage.keys);
  const keyName = (key: Usage['keys'][number]) => `${key.name ?? t('keys.unnamed')} (${key.prefix}…${key.hint})`;
  const { account } = usage;
  const sandbox = mode === 'sandbox';
  return (
    <>
      <section aria-labelledby="usage-month">
        <h2 id="usage-month">{t('overview.month', { month: formatMonth(usage.month) })}</h2>
        <dl className="facts" data-testid="usage-account">
          <dt>{t('overview.words')}</dt>
          <dd data-testid="usage-words">{formatNumber(account.words)}</dd>
          {sandbox ? (
            <>
              <dt>{t('overview.quota')}</dt>
              <dd data-testid="usage-quota">{account.limit === null ? t('value.unlimited') : t('overview.quotaWords', { words: formatNumber(account.limit) })}</dd>
              <dt>{t('overview.quotaLeft')}</dt>
              <dd>{limit(account.remaining)}</dd>
            </>
          ) : (
            <>
              <dt>{t('overview.cost')}</dt>
              <dd>{cents(account.cost_cents)}</dd>
              <dt>{t('overview.limit')}</dt>
              <dd>{limit(account.limit)}</dd>
              <dt>{t('overview.remaining')}</dt>
              <dd>{limit(account.remaining)}</dd>
            </>
          )}
        </dl>
      </section>
      <BarChart title={t('overview.perDay')} bars={usage.days.map((day) => ({ label: formatDay(day.period), value: day.words }))} emptyText={t('overview.noWordsDays')} />
      {/* The limit is a line only within reach of the bars (chartScale): a sandbox quota would otherwise flatten every real month. */}
      <BarChart
        title={t('overview.perMonth')}
        bars={usage.months.map((month) => ({ label: formatMonth(month.period), value: month.words }))}
        limit={account.limit ?? undefined}
        limitLabel={account.limit === null ? undefined : t('overview.limitLine', { limit: formatNumber(account.limit) })}
        emptyText={t('overview.noWordsMonths')}
      />
      <section aria-labelledby="usage-keys">
        <h2 id="usage-keys">{t('overview.keys')}</h2>
        {usage.keys.length === 0 ? (
          <p>{t('overview.noKeys')}</p>
        ) : (
          <DataTable
            label={t('overview.keysTable')}
            rows={keys.items}
            rowKey={(key) => key.id}
            columns={[
              { header: t('overview.key'), rowHeader: true, cell: (key) => (key.revoked ? t('overview.revoked', { name: keyName(key) }) : keyName(key)) },
              { header: t('overview.words'), cell: (key) => formatNumber(key.words) },
              ...(sandbox ? [] : [{ header: t('overview.cost'), cell: (key: Usage['keys'][number]) => cents(key.cost_cents) }]),
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
