import { NavLink, Outlet } from 'react-router';
import { useT } from '../i18n/i18n';
import { RequireSession } from '../modules/session/components/RequireSession';
import { useSignOut, type Session } from '../modules/session/hooks/use-session';
import { SignupStatus } from '../modules/signup/components/SignupStatus';
import { navigationFor } from './navigation';

function Header({ session }: { session: Session }) {
  const t = useT();
  const signOut = useSignOut();
  return (
    <header className="app-header">
      <a className="brand" href="/console/">
        {t('app.name')}
      </a>
      <nav aria-label={t('nav.label')}>
        <ul>
          {navigationFor(session.user.role).map((entry) => (
            <li key={entry.path}>
              <NavLink to={entry.path}>{t(entry.label)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="user">
        <span>{t('user.menu', { email: session.user.email, role: t(`role.${session.user.role}`) })}</span>
        <button type="button" className="btn" onClick={() => signOut.mutate(false)}>
          {t('user.signOut')}
        </button>
      </div>
    </header>
  );
}

/** Every signed-in page: a skip link, the sections the user's role may open, why the account has no keys yet if so, and the page. */
export function AppLayout() {
  const t = useT();
  return (
    <RequireSession>
      {(session) => (
        <>
          <a className="skip-link" href="#main">
            {t('app.skipToContent')}
          </a>
          <Header session={session} />
          <main id="main" tabIndex={-1}>
            <SignupStatus session={session} />
            <Outlet />
          </main>
        </>
      )}
    </RequireSession>
  );
}
