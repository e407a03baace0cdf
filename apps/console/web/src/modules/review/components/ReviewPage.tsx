import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatLanguage } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { useCurrentTask, useRecentTasks, useTask, useTaskActions, useWorkspace } from '../hooks/use-review';
import { useShortcuts } from '../hooks/use-shortcuts';
import { LanguagePicker } from './LanguagePicker';
import { TaskWorkspace } from './TaskWorkspace';
import './review.css';

/** `?lang=` picks the language of the current task; `?task=` shows one of the reviewer's earlier tasks instead. */
export function ReviewPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const workspace = useWorkspace();
  const languages = workspace.data?.reviewer.languages ?? [];
  const asked = params.get('lang');
  const language = asked && languages.includes(asked) ? asked : languages[0];
  const show = (changes: { lang?: string; task?: string }) => setParams({ ...(language && { lang: language }), ...changes });
  return (
    <>
      <PageHeader title={t('workspace.title')} intro={t('workspace.intro')} actions={language && <LanguagePicker languages={languages} value={language} onChange={(lang) => show({ lang })} />} />
      <ApiErrorMessage error={workspace.error} />
      {workspace.data && language && (
        <ReviewDesk language={language} leaseSeconds={workspace.data.lease_seconds} taskId={params.get('task') ?? undefined} onShow={(task) => show(task ? { task } : {})} />
      )}
    </>
  );
}

interface ReviewDeskProps {
  language: string;
  leaseSeconds: number;
  taskId?: string;
  onShow: (taskId?: string) => void;
}

function ReviewDesk({ language, leaseSeconds, taskId, onShow }: ReviewDeskProps) {
  const t = useT();
  const current = useCurrentTask(language);
  const chosen = useTask(taskId);
  const recent = useRecentTasks();
  const { takeNext, moveOn } = useTaskActions(language);
  const [announcement, setAnnouncement] = useState('');
  const { refetch: refetchRecent } = recent;
  const currentId = current.data?.id;
  useEffect(() => {
    if (currentId) void refetchRecent();
  }, [currentId, refetchRecent]);

  const task = taskId ? chosen.data : current.data;
  const history = recent.data ?? [];
  // Without a task on screen (none open), the history starts just before its first entry.
  const position = task ? history.findIndex((entry) => entry.id === task.id) : -1;
  const show = (to: number) => {
    const entry = history[to];
    onShow(!entry || entry.id === currentId ? undefined : entry.id);
  };
  // K goes back in time; J comes forward, ending at the current task.
  const hasPrevious = position < history.length - 1;
  const hasNext = Boolean(taskId);
  const navigation = { previous: () => hasPrevious && show(position + 1), next: () => hasNext && show(position - 1) };
  useShortcuts(navigation);

  return (
    <>
      <div className="visually-hidden" role="status">
        {announcement}
      </div>
      <nav className="review-nav" aria-label={t('workspace.history')}>
        <button type="button" className="btn" onClick={navigation.previous} disabled={!hasPrevious}>
          {t('workspace.previous')}
        </button>
        {position >= 0 && <span>{t('workspace.position', { position: position + 1, count: history.length })}</span>}
        <button type="button" className="btn" onClick={navigation.next} disabled={!hasNext}>
          {t('workspace.next')}
        </button>
        {taskId && (
          <button type="button" className="btn" onClick={() => onShow(undefined)}>
            {t('workspace.backToCurrent')}
          </button>
        )}
      </nav>
      <ApiErrorMessage error={taskId ? chosen.error : current.error} />
      {(taskId ? chosen.isPending : current.isPending) && <p className="loading">{t('app.loading')}</p>}
      {task ? (
        <TaskWorkspace
          key={task.id}
          task={task}
          leaseSeconds={leaseSeconds}
          onAnswered={async (answer) => {
            onShow(undefined);
            // Said once the next claim is known: "Here is your next task" only when there is one.
            const next = await moveOn();
            const outcome = t(answer === 'approved' ? 'workspace.approved' : 'workspace.edited');
            setAnnouncement(`${outcome} ${next ? t('workspace.nextReady') : t('workspace.noneLeft', { language: formatLanguage(language) })}`);
          }}
        />
      ) : (
        !taskId &&
        current.data === null && (
          <div className="card">
            <p>{t('workspace.none', { language: formatLanguage(language) })}</p>
            <button type="button" className="btn" onClick={() => void takeNext()}>
              {t('workspace.checkAgain')}
            </button>
          </div>
        )
      )}
    </>
  );
}
