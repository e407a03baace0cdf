import { useState } from 'react';
import { formatDateTime, formatNumber } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { useMode } from '../../mode/hooks/use-mode';
import { useStyleProfileActions, useStyleProfiles, type StyleProfile } from '../hooks/use-style-profiles';
import { StyleProfileForm } from './StyleProfileForm';

/** The mode's style profiles: each with its terms, rules and defaults, one form to create or change one, deletion. */
export function StylePage() {
  const t = useT();
  const mode = useMode();
  const { data, error, isPending } = useStyleProfiles(mode);
  const { remove } = useStyleProfileActions(mode);
  const [editing, setEditing] = useState<StyleProfile>();
  const [done, setDone] = useState<string>();
  const profiles = data?.style_profiles ?? [];

  return (
    <>
      <PageHeader title={t('style.title')} intro={t('style.intro')} />
      <ApiErrorMessage error={error ?? remove.error} />
      {done && (
        <div className="alert alert-success" role="status">
          {done}
        </div>
      )}
      {isPending ? (
        <p className="loading">{t('app.loading')}</p>
      ) : (
        <DataTable
          label={t('style.title')}
          rows={profiles}
          rowKey={(profile) => profile.id}
          columns={[
            {
              header: t('style.name'),
              rowHeader: true,
              cell: (profile) => (
                <>
                  {profile.name}
                  {profile.default && <p className="hint">{t('style.defaultNote')}</p>}
                  <p className="hint">
                    <code>{profile.id}</code>
                  </p>
                </>
              ),
            },
            { header: t('style.termsColumn'), cell: (profile) => formatNumber(profile.do_not_translate.length) },
            { header: t('style.formality'), cell: (profile) => t(`style.formality.${profile.formality}`) },
            { header: t('style.updated'), cell: (profile) => formatDateTime(profile.updated_at) },
            {
              header: t('style.actions'),
              className: 'row-actions',
              cell: (profile) => (
                <>
                  <button type="button" className="btn" onClick={() => setEditing(profile)} aria-label={t('style.editOf', { name: profile.name })}>
                    {t('style.edit')}
                  </button>
                  <ConfirmButton
                    question={t('style.deleteConfirm', { name: profile.name })}
                    confirmLabel={t('style.delete')}
                    onConfirm={() => remove.mutate(profile.id, { onSuccess: () => setDone(t('style.deleted', { name: profile.name })) })}
                  >
                    {t('style.delete')}
                  </ConfirmButton>
                </>
              ),
            },
          ]}
        />
      )}
      {/* Keyed by the profile, so the form starts from the one chosen. */}
      <StyleProfileForm
        key={editing?.id ?? 'new'}
        mode={mode}
        profile={editing}
        onDone={(name) => {
          setDone(t(editing ? 'style.saved' : 'style.created', { name }));
          setEditing(undefined);
        }}
      />
    </>
  );
}
