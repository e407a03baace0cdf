import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useT } from '../i18n/i18n';
import { ModeSwitch } from '../modules/mode/components/ModeSwitch';
import { SandboxBand } from '../modules/mode/components/SandboxBand';
import { ModeContext, useModeChoice, type Mode, type ModeChoice } from '../modules/mode/hooks/use-mode';
import { RequireSession } from '../modules/session/components/RequireSession';
import { useSignOut, type Session } from '../modules/session/hooks/use-session';
import { SignupStatus } from '../modules/signup/components/SignupStatus';
import { navigationFor, perModeSectionOf } from './navigation';

/** Reviewers work on tasks, which have no modes: only customers switch. */
const switchesModes = (session: Session) => session.user.role !== 'reviewer';

function Header({ session, choice }: { session: Session; choice: ModeChoice }) {
  const t = useT();
  const signOut = useSignOut();
  const customer = switchesModes(session);
  return (
    <header className={customer && choice.mode === 'sandbox' ? 'app-header in-sandbox' : 'app-header'}>
      {customer && choice.mode === 'sandbox' && <SandboxBand />}
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
      {customer && <ModeSwitch choice={choice} session={session} />}
      <div className="user">
        <span>{t('user.menu', { email: session.user.email, role: t(`role.${session.user.role}`) })}</span>
        <button type="button" className="btn" onClick={() => signOut.mutate(false)}>
          {t('user.signOut')}
        </button>
      </div>
    </header>
  );
}

/**
 * A glossary, memory or batch belongs to one mode: when the mode changes (here or in another
 * tab), its page gives way to the section's list of the new mode rather than a "not found".
 */
function useLeaveOtherModesItem(mode: Mode) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const shown = useRef(mode);
  useEffect(() => {
    if (shown.current === mode) return;
    shown.current = mode;
    const section = perModeSectionOf(pathname);
    if (section && section !== pathname) navigate(section, { replace: true });
  }, [mode, pathname, navigate]);
}

function SignedIn({ session }: { session: Session }) {
  const t = useT();
  const choice = useModeChoice(session);
  useLeaveOtherModesItem(choice.mode);
  return (
    <ModeContext.Provider value={choice.mode}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Header session={session} choice={choice} />
      <main id="main" tabIndex={-1}>
        <SignupStatus session={session} />
        {/* Keyed by mode: nothing of one world (a secret shown once, a cursor, a draft) stays on screen in the other. */}
        <Outlet key={choice.mode} />
      </main>
    </ModeContext.Provider>
  );
}

/** Every signed-in page: a skip link, the sections the user's role may open, the mode switch for customers, why the account has no keys yet if so, and the page. */
export function AppLayout() {
  return <RequireSession>{(session) => <SignedIn session={session} />}</RequireSession>;
}
