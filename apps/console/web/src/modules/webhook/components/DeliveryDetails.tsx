import { useEffect, useId, useRef } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import type { Mode } from '../../mode/hooks/use-mode';
import { useDelivery } from '../hooks/use-webhook';

/** What one attempt sent (headers with its signature, the payload) and what came back, as Stripe's event view shows it. */
export function DeliveryDetails({ mode, id, onClose }: { mode: Mode; id: string; onClose: () => void }) {
  const t = useT();
  const heading = useId();
  const { data, error } = useDelivery(mode, id);
  const title = useRef<HTMLHeadingElement>(null);
  // Opened by a row's button: the reader goes to what it opened.
  useEffect(() => title.current?.focus(), [id]);
  const delivery = data?.delivery;
  return (
    <section className="card delivery-details" aria-labelledby={heading}>
      <h3 id={heading} tabIndex={-1} ref={title}>
        {t('webhook.detailsOf', { number: delivery?.number ?? '…', event: delivery?.event_id ?? '' })}
      </h3>
      <ApiErrorMessage error={error} />
      {delivery && (
        <div className="exchange">
          <div>
            <h4>{t('webhook.request')}</h4>
            {delivery.request.headers ? (
              <pre data-testid="delivery-request-headers">
                {Object.entries(delivery.request.headers)
                  .sort(([a], [b]) => a.localeCompare(b))
                  .map(([name, value]) => `${name}: ${value}`)
                  .join('\n')}
              </pre>
            ) : (
              <p className="hint">{t('webhook.notKept')}</p>
            )}
            <pre data-testid="delivery-request-body">{JSON.stringify(delivery.request.body, null, 2)}</pre>
          </div>
          <div>
            <h4>{t('webhook.response')}</h4>
            <p>{delivery.response.status_code === null ? t('webhook.noAnswerBecause', { error: delivery.error ?? '' }) : t('webhook.answered', { status: delivery.response.status_code })}</p>
            {delivery.response.body_excerpt ? <pre data-testid="delivery-response-body">{delivery.response.body_excerpt}</pre> : <p className="hint">{t('webhook.emptyAnswer')}</p>}
          </div>
        </div>
      )}
      <button type="button" className="btn" onClick={onClose}>
        {t('webhook.closeDetails')}
      </button>
    </section>
  );
}
