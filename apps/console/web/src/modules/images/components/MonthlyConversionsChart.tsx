import { formatMonth, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { BarChart } from '../../../ui/BarChart';
import { useImageUsage } from '../hooks/use-images';

export function MonthlyConversionsChart({ subscriptionId }: { subscriptionId: string }) {
  const t = useT();
  const { data, error } = useImageUsage(subscriptionId);
  if (error) return <ApiErrorMessage error={error} />;
  if (!data) return <p className="loading">{t('app.loading')}</p>;
  return (
    <BarChart
      title={t('images.history')}
      bars={data.months.map(({ month, conversions }) => ({ label: formatMonth(month), value: conversions }))}
      limit={data.monthly_limit}
      limitLabel={t('images.limitLine', { limit: formatNumber(data.monthly_limit) })}
      emptyText={t('images.noConversions')}
    />
  );
}
