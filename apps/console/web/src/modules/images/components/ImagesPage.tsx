import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { usePage } from '../../../ui/use-page';
import { isNotConnected, useSubscriptions } from '../hooks/use-images';
import { SubscriptionCard } from './SubscriptionCard';

export function ImagesPage() {
  const t = useT();
  const { data, error, isPending } = useSubscriptions();
  const subscriptions = data?.subscriptions ?? [];
  const { items, pager } = usePage(subscriptions, 5);
  return (
    <>
      <PageHeader title={t('images.title')} intro={t('images.intro')} />
      {isNotConnected(error) ? (
        <div className="alert alert-info" role="status" data-testid="images-not-connected">
          <p>{t('images.notConnected')}</p>
          <p className="hint">{(error as Error).message}</p>
        </div>
      ) : (
        <ApiErrorMessage error={error} />
      )}
      {isPending && <p className="loading">{t('app.loading')}</p>}
      {data && subscriptions.length === 0 && <p>{t('images.none')}</p>}
      {items.map((subscription) => (
        <SubscriptionCard key={subscription.id} subscription={subscription} />
      ))}
      <Pager {...pager} />
    </>
  );
}
