import { formatDateTime, formatDuration } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Pager } from '../../../ui/Pager';
import { DataTable } from '../../../ui/DataTable';
import { useCursorPages } from '../../../ui/use-page';
import type { Mode } from '../../../ui/use-mode';
import { useDeliveries, useWebhookActions } from '../hooks/use-webhook';

/** Every attempt newest first, with the receiver's status and how long it took; an event can be sent again. */
export function DeliveryLog({ mode }: { mode: Mode }) {
  const t = useT();
  const { cursor, pager } = useCursorPages();
  const { data, error } = useDeliveries(mode, cursor);
  const { redeliver } = useWebhookActions(mode);
  const deliveries = data?.deliveries ?? [];
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">{t('webhook.deliveries')}</h2>
      <ApiErrorMessage error={error ?? redeliver.error} />
      {redeliver.data && (
        <div className="alert alert-success" role="status">
          {t('webhook.redelivered', { event: redeliver.data.event_id })}
        </div>
      )}
      {data && deliveries.length === 0 && <p>{t('webhook.noDeliveries')}</p>}
      {deliveries.length > 0 && (
        <DataTable
          label={t('webhook.deliveries')}
          rows={deliveries}
          rowKey={(delivery) => delivery.id}
          columns={[
            { header: t('webhook.when'), rowHeader: true, cell: (delivery) => formatDateTime(delivery.created_at) },
            { header: t('webhook.event'), cell: (delivery) => <code>{delivery.event_id}</code> },
            { header: t('webhook.attempt'), cell: (delivery) => delivery.attempt },
            { header: t('webhook.status'), cell: (delivery) => <span data-testid="delivery-status">{delivery.status_code ?? t('webhook.noAnswer')}</span> },
            { header: t('webhook.duration'), cell: (delivery) => formatDuration(delivery.duration_ms) },
            {
              header: t('webhook.result'),
              cell: (delivery) => (
                <>
                  {delivery.success ? t('webhook.ok') : t('webhook.failed')}
                  {delivery.error && <span className="hint"> · {delivery.error}</span>}
                  {delivery.next_attempt_at && <span className="hint"> · {t('webhook.nextAttempt', { when: formatDateTime(delivery.next_attempt_at) })}</span>}
                </>
              ),
            },
            {
              header: t('webhook.redeliver'),
              hideHeader: true,
              cell: (delivery) => (
                <button
                  type="button"
                  className="btn"
                  disabled={redeliver.isPending}
                  aria-label={t('webhook.redeliverOf', { event: delivery.event_id })}
                  onClick={() => redeliver.mutate(delivery.id)}
                >
                  {t('webhook.redeliver')}
                </button>
              ),
            },
          ]}
        />
      )}
      <Pager {...pager(data?.next_before)} />
    </section>
  );
}
