import { formatDay, formatMoney, formatMonth, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { BarChart } from '../../../ui/BarChart';
import { ModeSwitch } from '../../../ui/ModeSwitch';
import { PageHeader } from '../../../ui/PageHeader';
import { TableRegion } from '../../../ui/TableRegion';
import { useMode } from '../../../ui/use-mode';
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
          <TableRegion label={t('overview.keys')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('overview.key')}</th>
                  <th scope="col">{t('overview.words')}</th>
                  <th scope="col">{t('overview.cost')}</th>
                  <th scope="col">{t('overview.limit')}</th>
                  <th scope="col">{t('overview.remaining')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.keys.map((key) => {
                  const name = `${key.name ?? t('keys.unnamed')} (${key.prefix}…${key.hint})`;
                  return (
                    <tr key={key.id}>
                      <th scope="row">{key.revoked ? t('overview.revoked', { name }) : name}</th>
                      <td>{formatNumber(key.words)}</td>
                      <td>{cents(key.cost_cents)}</td>
                      <td>{limit(key.limit)}</td>
                      <td>{limit(key.remaining)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
    </>
  );
}
