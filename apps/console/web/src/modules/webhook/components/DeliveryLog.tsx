import { useState } from 'react';
import { formatDateTime, formatDuration } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Pager } from '../../../ui/Pager';
import { DataTable } from '../../../ui/DataTable';
import { SelectField } from '../../../ui/Field';
import { useCursorPages } from '../../../ui/use-page';
import type { Mode } from '../../mode/hooks/use-mode';
import { EVENT_TYPES, useDeliveries, useWebhookActions, type WebhookEventType } from '../hooks/use-webhook';
import { DeliveryDetails } from './DeliveryDetails';

/**
 * Every attempt newest first, of one event type or all, with the receiver's status and how long
 * it took; each attempt's request and answer on demand, an event sent again, a test event sent.
 */
export function DeliveryLog({ mode }: { mode: Mode }) {
  const t = useT();
  const [type, setType] = useState<WebhookEventType | undefined>();
  const { cursor, pager } = useCursorPages();
  const { data, error } = useDeliveries(mode, cursor, type);
  const { redeliver, sendTest } = useWebhookActions(mode);
  const [shown, setShown] = useState<string | undefined>();
  const deliveries = data?.deliveries ?? [];
  const queued = sendTest.data ? t('webhook.testQueued', { event: sendTest.data.event_id }) : redeliver.data ? t('webhook.redelivered', { event: redeliver.data.event_id }) : undefined;
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">{t('webhook.deliveries')}</h2>
      <div className="toolbar">
        <SelectField label={t('webhook.typeFilter')} value={type ?? ''} onChange={(event) => setType((event.target.value || undefined) as WebhookEventType | undefined)}>
          <option value="">{t('webhook.allTypes')}</option>
          {EVENT_TYPES.map((eventType) => (
            <option key={eventType} value={eventType}>
              {eventType}
            </option>
          ))}
        </SelectField>
        <button type="button" className="btn" disabled={sendTest.isPending} onClick={() => sendTest.mutate()}>
          {t('webhook.sendTest')}
        </button>
      </div>
      <ApiErrorMessage error={error ?? redeliver.error ?? sendTest.error} />
      {queued && (
        <div className="alert alert-success" role="status">
          {queued}
        </div>
      )}
      {data && deliveries.length === 0 && <p>{type ? t('webhook.noDeliveriesOfType', { type }) : t('webhook.noDeliveries')}</p>}
      {deliveries.length > 0 && (
        <DataTable
          label={t('webhook.deliveriesTable')}
          rows={deliveries}
          rowKey={(delivery) => delivery.id}
          columns={[
            { header: t('webhook.when'), rowHeader: true, cell: (delivery) => formatDateTime(delivery.created_at) },
            {
              header: t('webhook.event'),
              cell: (delivery) => (
                <>
                  <code>{delivery.event_id}</code> <span className="hint">{delivery.event_type}</span>
                </>
              ),
            },
            // Numbered over all of the event's attempts: a redelivery after six failures is attempt 7, not 1 again.
            { header: t('webhook.attempt'), cell: (delivery) => <span data-testid="delivery-number">{delivery.number}</span> },
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
              header: t('webhook.details'),
              hideHeader: true,
              cell: (delivery) => (
                <button type="button" className="btn" aria-expanded={shown === delivery.id} aria-label={t('webhook.detailsFor', { number: delivery.number, event: delivery.event_id })} onClick={() => setShown(shown === delivery.id ? undefined : delivery.id)}>
                  {t('webhook.details')}
                </button>
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
      {shown && <DeliveryDetails mode={mode} id={shown} onClose={() => setShown(undefined)} />}
    </section>
  );
}
