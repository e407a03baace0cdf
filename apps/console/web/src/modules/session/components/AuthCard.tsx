import type { ReactNode } from 'react';
import { useT } from '../../../i18n/i18n';
import { PageHeader } from '../../../ui/PageHeader';

/** The narrow card of the pages before sign-in. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const t = useT();
  return (
    <main id="main" className="auth">
      <p className="brand">{t('app.name')}</p>
      <div className="card">
        <PageHeader title={title} intro={intro} />
        {children}
      </div>
    </main>
  );
}
