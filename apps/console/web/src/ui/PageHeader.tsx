import { useEffect, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';

/** The page's one h1, also the document title, so each page reads well in history and tabs. */
export function PageHeader({ title, intro, actions }: { title: string; intro?: string; actions?: ReactNode }) {
  const t = useT();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {intro && <p className="intro">{intro}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}
