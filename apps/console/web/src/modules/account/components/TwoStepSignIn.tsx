import { useState, type FormEvent } from 'react';
import type { components } from '../../../api/session-api';
import { formatDate } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { CopyValue } from '../../../ui/CopyValue';
import { CodeField, Field } from '../../../ui/Field';
import { placeProblem, problemAt } from '../../../ui/field-problem';
import { FormDialog } from '../../../ui/Modal';
import { SecretDialog } from '../../../ui/SecretDialog';
import { SecondFactorField } from '../../session/components/SecondFactorField';
import { useConfirmEnrolment, useNewRecoveryCodes, useSecondFactor, useStartEnrolment, useTurnOff } from '../hooks/use-second-factor';
import { inGroups } from '../utils/secret-groups';

type Enrolment = components['schemas']['EnrolmentResponseDto'];

/** Fewer than this many recovery codes left, and the section says to make new ones. */
const FEW_CODES = 3;

function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const t = useT();
  return <SecretDialog title={t('twoStep.codesTitle')} secret={codes.join('\n')} note={t('twoStep.codesNote')} onClose={onClose} />;
}

/** The key of a started set-up, to add to the app, and the first code that turns it on. */
function Setup({ enrolment, email, onRecoveryCodes }: { enrolment: Enrolment; email: string; onRecoveryCodes: (codes: string[]) => void }) {
  const t = useT();
  const confirm = useConfirmEnrolment();
  const [code, setCode] = useState('');
  const refused = placeProblem<'code'>(confirm.error, [['code', /^code\b/]]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code, { onSuccess: (answer) => onRecoveryCodes(answer.recovery_codes) });
  };
  return (
    <div className="card">
      <h3>{t('twoStep.setupTitle')}</h3>
      <p>
        <a href={enrolment.otpauth_uri}>{t('twoStep.setupOpen')}</a>
      </p>
      <p>{t('twoStep.setupKey')}</p>
      <CopyValue value={enrolment.secret} shown={inGroups(enrolment.secret)} what={t('twoStep.setupKeyCopy')} testId="totp-secret" />
      <p className="hint">{t('twoStep.setupAccount', { email })}</p>
      <form onSubmit={submit} className="form">
        <CodeField
          label={t('twoStep.setupCode')}
          hint={t('twoStep.setupCodeHint')}
          value={code}
          onCode={setCode}
          error={problemAt(refused, 'code')}
        />
        {refused?.field === 'form' && <ApiErrorMessage error={confirm.error} />}
        <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
          {t('twoStep.confirm')}
        </button>
      </form>
    </div>
  );
}

function NewCodesDialog({ onCodes, onClose }: { onCodes: (codes: string[]) => void; onClose: () => void }) {
  const t = useT();
  const renew = useNewRecoveryCodes();
  const [code, setCode] = useState('');
  const refused = placeProblem<'code'>(renew.error, [['code', /^code\b/]]);
  return (
    <FormDialog
      title={t('twoStep.newCodesTitle')}
      submitLabel={t('twoStep.newCodesSubmit')}
      onSubmit={() => renew.mutate(code, { onSuccess: (answer) => onCodes(answer.recovery_codes) })}
      onClose={onClose}
      pending={renew.isPending}
      error={refused?.field === 'form' ? renew.error : undefined}
    >
      <p>{t('twoStep.newCodesIntro')}</p>
      <CodeField
        label={t('twoStep.code')}
        value={code}
        onCode={setCode}
        error={problemAt(refused, 'code')}
      />
    </FormDialog>
  );
}

function TurnOffDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const turnOff = useTurnOff();
  const [password, setPassword] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const refused = placeProblem<'password' | 'value'>(turnOff.error, [
    ['password', /^password\b/],
    ['value', /^(code|recovery_code)\b/],
  ]);
  return (
    <FormDialog
      title={t('twoStep.turnOffTitle')}
      submitLabel={t('twoStep.turnOff')}
      onSubmit={() => turnOff.mutate({ password, ...(recovery ? { recovery_code: value } : { code: value }) }, { onSuccess: onClose })}
      onClose={onClose}
      pending={turnOff.isPending}
      error={refused?.field === 'form' ? turnOff.error : undefined}
    >
      <p>{t('twoStep.turnOffIntro')}</p>
      <Field label={t('twoStep.password')} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={problemAt(refused, 'password')} />
      <SecondFactorField
        recovery={recovery}
        onSwitch={(toRecovery) => {
          setRecovery(toRecovery);
          setValue('');
        }}
        value={value}
        onChange={setValue}
        error={problemAt(refused, 'value')}
      />
    </FormDialog>
  );
}

/**
 * The Account page's section on two-step sign-in: turning it on (the key for the app, shown
 * while the set-up is open, and a first code), the recovery codes once, new ones, turning it off.
 */
export function TwoStepSignIn({ email }: { email: string }) {
  const t = useT();
  const status = useSecondFactor();
  const start = useStartEnrolment();
  const [codes, setCodes] = useState<string[]>();
  const [dialog, setDialog] = useState<'new-codes' | 'turn-off'>();
  const state = status.data;
  const enrolment = start.data;
  const showCodes = (recoveryCodes: string[]) => {
    start.reset();
    setDialog(undefined);
    setCodes(recoveryCodes);
  };
  return (
    <section className="card" aria-labelledby="two-step">
      <h2 id="two-step">{t('twoStep.title')}</h2>
      <p>{t('twoStep.intro')}</p>
      <ApiErrorMessage error={status.error} />
      {state?.state === 'active' && (
        <>
          <p data-testid="two-step-state">{t('twoStep.on', { date: formatDate(state.enabled_at!), count: state.recovery_codes_left })}</p>
          {state.recovery_codes_left < FEW_CODES && <p className="alert alert-info">{t('twoStep.fewLeft')}</p>}
          <div className="actions">
            <button type="button" className="btn" onClick={() => setDialog('new-codes')}>
              {t('twoStep.newCodes')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => setDialog('turn-off')}>
              {t('twoStep.turnOff')}
            </button>
          </div>
        </>
      )}
      {state && state.state !== 'active' && (
        <>
          <p data-testid="two-step-state">{state.state === 'pending' && !enrolment ? t('twoStep.pending') : t('twoStep.off')}</p>
          {enrolment ? (
            <Setup enrolment={enrolment} email={email} onRecoveryCodes={showCodes} />
          ) : (
            <button type="button" className="btn btn-primary" disabled={start.isPending} onClick={() => start.mutate()}>
              {state.state === 'pending' ? t('twoStep.startAgain') : t('twoStep.turnOn')}
            </button>
          )}
          <ApiErrorMessage error={start.error} />
        </>
      )}
      {dialog === 'new-codes' && (
        <NewCodesDialog onClose={() => setDialog(undefined)} onCodes={showCodes} />
      )}
      {dialog === 'turn-off' && <TurnOffDialog onClose={() => setDialog(undefined)} />}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(undefined)} />}
    </section>
  );
}
