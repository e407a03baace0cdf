import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { Field, SelectField, TextAreaField } from '../../../ui/Field';
import type { Mode } from '../../mode/hooks/use-mode';
import { useGlossaries } from '../../glossaries/hooks/use-glossaries';
import { useMemories } from '../../memories/hooks/use-memories';
import { useStyleProfileActions, type Formality, type StyleProfile, type TypographyRule } from '../hooks/use-style-profiles';
import { termLines, termsOf } from '../utils/term-lines';

const RULES: TypographyRule[] = ['quotes', 'french_spacing', 'inverted_marks', 'apostrophe'];
const FORMALITIES: Formality[] = ['default', 'more', 'less'];
/** A mode holds at most 20 glossaries: one page lists them all. */
const ALL_GLOSSARIES = { offset: 0, limit: 100 };

interface StyleProfileFormProps {
  mode: Mode;
  /** The profile to replace; a new one without it. */
  profile?: StyleProfile;
  onDone: (name: string) => void;
}

/** Every field of a profile at once, as the API replaces it; the API's refusal shows under the form. */
export function StyleProfileForm({ mode, profile, onDone }: StyleProfileFormProps) {
  const t = useT();
  const { create, replace } = useStyleProfileActions(mode);
  const glossaries = useGlossaries(mode, ALL_GLOSSARIES).data?.glossaries ?? [];
  const memories = useMemories(mode).data?.memories ?? [];
  const lines = termLines(profile?.do_not_translate ?? []);
  const [name, setName] = useState(profile?.name ?? '');
  const [exact, setExact] = useState(lines.exact);
  const [anyCase, setAnyCase] = useState(lines.anyCase);
  const [typography, setTypography] = useState(() => Object.fromEntries(RULES.map((rule) => [rule, profile?.typography[rule] ?? true])) as Record<TypographyRule, boolean>);
  const [formality, setFormality] = useState<Formality>(profile?.formality ?? 'default');
  const [glossary, setGlossary] = useState(profile?.glossary ?? '');
  const [memory, setMemory] = useState(profile?.memory ?? '');
  const [notes, setNotes] = useState(profile?.notes ?? '');
  const [isDefault, setDefault] = useState(profile?.default ?? false);
  const [nameMissing, setNameMissing] = useState(false);
  const saving = profile ? replace : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNameMissing(name.trim() === '');
    if (name.trim() === '') return;
    const body = { name: name.trim(), do_not_translate: termsOf(exact, anyCase), typography, formality, glossary: glossary || null, memory: memory || null, notes, default: isDefault };
    const done = { onSuccess: () => onDone(body.name) };
    if (profile) replace.mutate({ id: profile.id, body }, done);
    else create.mutate(body, done);
  };

  const heading = profile ? t('style.editTitle', { name: profile.name }) : t('style.create');
  return (
    <section className="card" aria-label={heading}>
      <h2>{heading}</h2>
      <form className="form" onSubmit={submit} noValidate>
        <Field label={t('style.name')} maxLength={100} value={name} onChange={(event) => setName(event.target.value)} error={nameMissing ? t('style.nameMissing') : undefined} />
        <TextAreaField label={t('style.termsExact')} hint={t('style.termsExactHint')} rows={4} value={exact} onChange={(event) => setExact(event.target.value)} />
        <TextAreaField label={t('style.termsAnyCase')} hint={t('style.termsAnyCaseHint')} rows={3} value={anyCase} onChange={(event) => setAnyCase(event.target.value)} />
        <fieldset className="field">
          <legend>{t('style.typography')}</legend>
          <p className="hint">{t('style.typographyHint')}</p>
          {RULES.map((rule) => (
            <label key={rule} className="choice">
              <input type="checkbox" checked={typography[rule]} onChange={(event) => setTypography({ ...typography, [rule]: event.target.checked })} />
              {t(`style.rule.${rule}`)}
            </label>
          ))}
        </fieldset>
        <SelectField label={t('style.formality')} hint={t('style.formalityHint')} value={formality} onChange={(event) => setFormality(event.target.value as Formality)}>
          {FORMALITIES.map((value) => (
            <option key={value} value={value}>
              {t(`style.formality.${value}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('style.glossary')} hint={t('style.glossaryHint')} value={glossary} onChange={(event) => setGlossary(event.target.value)}>
          <option value="">{t('style.none')}</option>
          {glossaries.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('style.memory')} hint={t('style.memoryHint')} value={memory} onChange={(event) => setMemory(event.target.value)}>
          <option value="">{t('style.none')}</option>
          {memories.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </SelectField>
        <TextAreaField label={t('style.notes')} hint={t('style.notesHint')} rows={4} maxLength={5000} value={notes} onChange={(event) => setNotes(event.target.value)} />
        <label className="choice">
          <input type="checkbox" checked={isDefault} onChange={(event) => setDefault(event.target.checked)} />
          {t('style.default')}
        </label>
        <ApiErrorMessage error={saving.error} />
        <button type="submit" className="btn btn-primary" disabled={saving.isPending}>
          {profile ? t('style.save') : t('style.createSubmit')}
        </button>
      </form>
    </section>
  );
}
