import { formatDateTime, formatDuration } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Pager } from '../../../ui/Pager';
import { TableRegion } from '../../../ui/TableRegion';
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
        <TableRegion label={t('webhook.deliveries')}>
          <table data-testid="delivery-log">
            <thead>
              <tr>
                <th scope="col">{t('webhook.when')}</th>
                <th scope="col">{t('webhook.event')}</th>
                <th scope="col">{t('webhook.attempt')}</th>
                <th scope="col">{t('webhook.status')}</th>
                <th scope="col">{t('webhook.duration')}</th>
                <th scope="col">{t('webhook.result')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('webhook.redeliver')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">{formatDateTime(delivery.created_at)}</th>
                  <td>
                    <code>{delivery.event_id}</code>
                  </td>
                  <td>{delivery.attempt}</td>
                  <td data-testid="delivery-status">{delivery.status_code ?? t('webhook.noAnswer')}</td>
                  <td>{formatDuration(delivery.duration_ms)}</td>
                  <td>
                    {delivery.success ? t('webhook.ok') : t('webhook.failed')}
                    {delivery.error && <span className="hint"> · {delivery.error}</span>}
                    {delivery.next_attempt_at && <span className="hint"> · {t('webhook.nextAttempt', { when: formatDateTime(delivery.next_attempt_at) })}</span>}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn"
                      disabled={redeliver.isPending}
                      aria-label={t('webhook.redeliverOf', { event: delivery.event_id })}
                      onClick={() => redeliver.mutate(delivery.id)}
                    >
                      {t('webhook.redeliver')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager {...pager(data?.next_before)} />
    </section>
  );
}
