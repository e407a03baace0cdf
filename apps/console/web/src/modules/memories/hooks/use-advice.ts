import { formatBytes } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import type { MemoryLimits } from './use-memories';
import type { ProblemAdvice } from '../utils/memory-problems';

/** What a customer can do about a refusal, in words, with the limits it is about. */
export function useAdvice(limits: MemoryLimits | undefined) {
  const t = useT();
  return (advice: ProblemAdvice | undefined) => advice && t(`memories.advice.${advice}`, { size: limits ? formatBytes(limits.import_bytes) : '?' });
}
