import { formatDate, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import type { ImageSubscription } from '../hooks/use-images';
import { ImageTokens } from './ImageTokens';
import { MonthlyConversionsChart } from './MonthlyConversionsChart';
import { UsageMeter } from './UsageMeter';

/** One subscription: its facts, this month against the limit, the last 12 months and its tokens. */
export function SubscriptionCard({ subscription }: { subscription: ImageSubscription }) {
  const t = useT();
  const heading = `subscription-${subscription.id}`;
  return (
    <section className="card" aria-labelledby={heading} data-testid="image-subscription" data-subscription-id={subscription.id}>
      <h2 id={heading}>{t('images.subscription', { plan: t(`images.plan.${subscription.plan}`) })}</h2>
      <dl className="facts">
        <dt>{t('images.id')}</dt>
        <dd>
          <code>{subscription.id}</code>
        </dd>
        <dt>{t('images.state')}</dt>
        <dd>{subscription.active ? t('images.active') : t('images.inactive')}</dd>
        <dt>{t('images.limit')}</dt>
        <dd>{formatNumber(subscription.monthly_limit)}</dd>
        <dt>{t('images.since')}</dt>
        <dd>{formatDate(subscription.created_at)}</dd>
      </dl>
      <UsageMeter month={subscription.month} conversions={subscription.conversions} limit={subscription.monthly_limit} />
      <MonthlyConversionsChart subscriptionId={subscription.id} />
      <ImageTokens subscriptionId={subscription.id} active={subscription.active} />
    </section>
  );
}
