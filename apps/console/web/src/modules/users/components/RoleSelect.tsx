import { useId } from 'react';
import { useT } from '../../../i18n/i18n';
import type { Role } from '../hooks/use-users';

const ROLES: Role[] = ['owner', 'member', 'reviewer'];

export function RoleSelect({ label, value, onChange, disabled }: { label: string; value: Role; onChange: (role: Role) => void; disabled?: boolean }) {
  const t = useT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`role.${role}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
