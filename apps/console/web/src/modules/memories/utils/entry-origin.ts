import type { t as translate } from '../../../i18n/i18n';

type Provenance = Record<string, string | null | undefined>;

const FORMAT_NAMES: Record<string, string> = { tmx: 'TMX', xliff: 'XLIFF', po: 'PO' };

/** Where a memory entry came from, in words: its origin and what its provenance says about it. */
export function describeOrigin(t: typeof translate, origin: string, provenance: Provenance): string {
  const job = provenance.job ?? '?';
  switch (origin) {
    case 'reviewer_edit':
      return t('memories.origin.edit', { job });
    case 'reviewer_approval':
      return provenance.reviewer ? t('memories.origin.approval', { job }) : t('memories.origin.simulated', { job });
    case 'import': {
      const format = FORMAT_NAMES[provenance.format ?? ''] ?? provenance.format ?? '?';
      return provenance.tool ? t('memories.origin.importTool', { format, tool: provenance.tool }) : t('memories.origin.import', { format });
    }
    default:
      return provenance.user ? t('memories.origin.console') : t('memories.origin.api');
  }
}
