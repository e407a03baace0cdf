import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a narrow screen: a named region that takes keyboard focus, so
 * the part out of view can be reached with the arrow keys, not only with a pointer. It contains
 * what it positions (visually hidden header text too), which would otherwise widen the page.
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap table-region" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
