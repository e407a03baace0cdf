import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { USAGE_REFRESH_MS } from '../../../api/usage-refresh';
import type { components } from '../../../api/session-api';
import type { Mode } from '../../mode/hooks/use-mode';

export type Usage = components['schemas']['ConsoleUsageResponseDto'];

export const useUsage = (mode: Mode) =>
  useQuery({ queryKey: ['usage', mode], queryFn: () => unwrap(api.GET('/console/api/usage', { params: { query: { mode } } })), refetchInterval: USAGE_REFRESH_MS });
